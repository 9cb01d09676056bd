"""prin-guard benchmarks: ``.venv/bin/python bench/run.py [--smoke] [--only NAME] [--out FILE]``.

Every benchmark is a module of this package with ``NAME``, ``TITLE``, ``TARGET`` and
``run(ctx) -> Section``; ``bench/run.py`` runs them in order and writes BENCHMARKS.md.
Figures are ratios against a baseline measured in the same run, interleaved round by
round, and the median over rounds is reported (the machine is shared and noisy).
"""
