"""14. Rankings against human rankings with scripted judges (issue 40, item 7): the modes'
figures on the three human sets, from judges whose behaviour is known, so that what each
mode adds can be read apart from any model's skill.

* ``length``: ranks the responses shown by their length, longest first, whatever the
  order (a content heuristic: consistent on both legs and in every order);
* ``primacy``: the same ranking, then the response shown first moved to the top and the
  one shown second up one place (a position bias on top of the heuristic, deterministic).

Each is run through :func:`prin_guard.eval._rankings.run_ranking_modes` (the code behind
``prin-guard eval``) on OpenAssistant's 155 rankings, the 53 MT-Bench rankings and 100
SummEval coherence rankings of 4 summaries (``../shared/data``).

    PYTHONPATH=. .venv/bin/python -m bench.ranking_eval
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from prin_guard.eval._rankings import (
    MODES,
    load_ranked,
    ranking_report_text,
    run_ranking_modes,
)

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"
_SHOWN = re.compile(r"\[The Start of Response (\w+)\]\n(.*?)\n\[The End of Response", re.S)
_PAIR = re.compile(r"Response A:\n(`{3,})\n(.*?)\n\1\nResponse B:\n(`{3,})\n(.*?)\n\3", re.S)


def _answer(prompt: str, labels: list[str]) -> str:
    if "decide which response is the best" in prompt:
        return f"Best: [[{labels[0]}]]"
    if "decide which response is the worst" in prompt:
        return f"Worst: [[{labels[-1]}]]"
    if "from the worst to the best" in prompt:
        return "Ranking from worst to best: " + ", ".join(reversed(labels))
    return "Ranking from best to worst: " + ", ".join(labels)


def length(prompt: str) -> str:
    pair = _PAIR.search(prompt)
    if pair is not None:
        better = "A" if len(pair.group(2)) >= len(pair.group(4)) else "B"
        worse = "B" if better == "A" else "A"
        return f"Answer: {worse if 'output the worse one' in prompt else better}"
    shown = _SHOWN.findall(prompt)
    return _answer(prompt, [label for label, _ in sorted(shown, key=lambda p: -len(p[1]))])


def primacy(prompt: str) -> str:
    pair = _PAIR.search(prompt)
    if pair is not None:  # the first shown wins
        return f"Answer: {'B' if 'output the worse one' in prompt else 'A'}"
    shown = _SHOWN.findall(prompt)
    ranked = [label for label, _ in sorted(shown, key=lambda p: -len(p[1]))]
    first, second = shown[0][0], shown[1][0]
    ranked.remove(first)
    at = max(0, ranked.index(second) - 1)
    ranked.remove(second)
    ranked.insert(at, second)
    return _answer(prompt, [first, *ranked])


def main() -> int:
    sets = [
        ("oasst-rankings", SHARED / "rankings" / "oasst-rankings.jsonl", {}),
        ("mt-bench-rankings", SHARED / "llmbar" / "mt-bench-human.jsonl", {}),
        ("summeval-rankings", SHARED / "ratings" / "summeval.jsonl", {"aspect": "coherence"}),
    ]
    for name, path, extra in sets:
        items = load_ranked(name, path, **extra)
        for judge in (length, primacy):
            summary = run_ranking_modes(
                judge, name, items, modes=MODES, orders=4, cache="memory", judge_name=judge.__name__
            )
            print(ranking_report_text(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
