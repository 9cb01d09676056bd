"""Evaluating judges on benchmarks: dataset loaders (more to come: runner, report)."""

from prin_guard.eval._datasets import LabeledItem, load_mathqa, sample_path

__all__ = ["LabeledItem", "load_mathqa", "sample_path"]
