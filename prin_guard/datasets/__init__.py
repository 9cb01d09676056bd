"""Benchmark datasets: loaders for files in their original formats, and a generic JSONL format.

Two kinds of loader:

* **Candidate datasets** yield :class:`LabeledItem`: an :class:`~prin_guard.Item` (the
  question and its candidates) and the gold labels. ``choice`` items: MathQA, AQuA-RAT,
  CommonsenseQA, MMLU, StrategyQA, Coin Flip, GSM8K model solutions; ``pairwise`` items:
  LLMBar's Natural set and its MT-Bench subset (gold: the better response); ``checklist``
  items: ExpertQA's claims (gold: the claims the cited passages support); and the generic
  JSONL format, any task.
  :data:`DATASETS` registers them by name and :func:`load_dataset` loads one by name
  (the small sample shipped in ``prin_guard/data``) or from a path.
* **Problem datasets** have no candidates; they yield :class:`Problem` (question and
  reference answer), the input for generating a candidate pool: GSM8K, MultiArith,
  SVAMP, MATH / MATH-500 and Last Letters (``prin_guard.eval`` builds candidate
  pools from them).

The registry is in ``_registry``, the loaders in ``_loaders`` and ``_jsonl`` (the
generic format), on top of the row machinery they share in ``_rows``; every public
name is importable from here. ``prin_guard.eval`` and ``prin_guard.probe`` read their
items through this package.

Each loader reads the file's original format, so the same loader reads the shipped
sample and the full original file. A loader checks that its file exists when called
(:class:`~prin_guard.UsageError` otherwise) and reads rows lazily as it is iterated; a
file that is a single JSON document is parsed whole, and a broken document is a
``UsageError``.

Malformed rows
--------------
A malformed row (missing field, unknown answer key, two options with the same text,
...) is skipped and reported through ``on_skip(line, reason)``; the rest of the file
still loads. The default handler logs a ``dataset_row_skipped`` warning event with the
file, line and reason. ``line`` is 1-based: the line on which the row starts for JSON
Lines and CSV files (an MMLU row can span several lines), and the line of the record's
opening ``{`` for files that are one JSON document.

Item ids
--------
``<dataset>-<n>``: ``mathqa-<line>``, ``aqua-rat-<line>``, ``gsm8k-solutions-<line>``,
``mmlu-<subject>-<row>`` (row = 1-based CSV record number in the subject's file),
``strategyqa-<n>`` and ``coinflip-<n>`` (n = 1-based position in ``examples``);
``commonsenseqa-<id>`` uses the dataset's own ``id``, and so do LLMBar's pairs
(``llmbar-natural-0``, ``llmbar-mtbench-0``); ExpertQA's answers are
``expertqa-claims-<question hash>-<system>``. The shipped samples are the first rows of
the original files (ExpertQA's: the first rows with passages), so a sample item has the
same id as in the full file.

The gold set per task
---------------------
``gold`` is always a set of labels, and a verdict is right when its ``correct`` set is that
set (``prin_guard._route._acceptance.verdict_wrong``, the one definition eval and calibrate use).
What the set holds depends on the task: the correct options (``choice``); the better
response, or both responses for a tie (``pairwise``: LLMBar and MT-Bench-human have no
ties); the criteria met or the claims supported (``checklist``).

GSM8K model solutions
---------------------
``example_model_solutions.jsonl`` (openai/grade-school-math) gives four real model
solutions per test question, each marked correct or not. An item asks which of the
four *solutions* are correct, so every solution is one candidate, in the file's order:
``6b_finetuning``, ``6b_verification``, ``175b_finetuning``, ``175b_verification``
(labels A-D). The candidate text is ``"Solution <k>: <final answer>"`` (the final answer
is what follows the last ``A:`` line; ``"(no final answer)"`` when the solution has
none, as 11 cut-off solutions do) and ``reasoning`` is the whole solution with its
``<<48/2=24>>`` calculator annotations removed (an unclosed one at the end of a cut-off
solution stays). The solution number is needed because the four final answers repeat
in 828 of the 1,319 questions (and whole solutions are identical in 8), while
:class:`~prin_guard.Item` rejects candidates with the same text; the number is neutral
(no model name). Gold is the set of labels whose ``is_correct`` is true: 0 to 4 labels.
Solutions with equal final answers always share the same ``is_correct`` in this file,
so a judge that only sees the final answers can still be scored exactly; with the
``cot`` mitigation it sees each solution as well.

Generic JSONL format
--------------------
One JSON object per line (blank lines are ignored)::

    {"id": "q1",                          # optional string; content hash when absent
     "question": "What is 6 x 7?",        # required for choice and pairwise items
     "context": "Grade-school arithmetic.",   # optional string
     "candidates": [                      # at least two, texts distinct (ignoring case)
         "42",                            # a plain string, or
         {"text": "48", "label": "B", "reasoning": "6 x 8 = 48"}
     ],                                   # label and reasoning are optional
     "gold": ["A"]}                       # list of labels, one label "A", [] or null

``task`` (``choice`` by default, ``pairwise`` or ``checklist``) and ``response`` (the
response a checklist judges) are read as :class:`~prin_guard.Item` reads them, and so
is a checklist candidate's ``weight``. A pairwise row has two candidates and its gold is
the better one, or both for a tie::

    {"task": "pairwise", "question": "Say hello.", "candidates": ["Hello!", "Go away."],
     "gold": "A"}
    {"task": "checklist", "response": "Paris is France's capital; 3M people live there.",
     "context": "Paris, the capital of France, has 2.1 million inhabitants.",
     "candidates": ["Paris is France's capital.", "3M people live in Paris."],
     "gold": ["A"]}

Labels missing from candidates are assigned A, B, C, ... in order, skipping any
given explicitly. ``gold`` names the correct candidates by label: ``[]`` means none is
correct; ``null`` (or no ``gold`` field) means the gold answer is unknown, which gives
``gold=()`` and ``gold_known=False``. Any other field is an error (it catches typos such
as ``"contxt"``). :func:`write_jsonl` writes this format.
"""

from prin_guard.datasets._jsonl import load_jsonl, write_jsonl
from prin_guard.datasets._loaders import (
    load_aqua_rat,
    load_coinflip,
    load_commonsenseqa,
    load_expertqa_claims,
    load_gsm8k,
    load_gsm8k_solutions,
    load_last_letters,
    load_llmbar,
    load_math,
    load_mathqa,
    load_mmlu,
    load_mt_bench_human,
    load_multiarith,
    load_strategyqa,
    load_svamp,
)
from prin_guard.datasets._registry import (
    DATASETS,
    DatasetInfo,
    Loader,
    load_dataset,
    sample_path,
)
from prin_guard.datasets._rows import LabeledItem, Problem, SkipHandler

__all__ = [
    "DATASETS",
    "DatasetInfo",
    "LabeledItem",
    "Loader",
    "Problem",
    "SkipHandler",
    "load_aqua_rat",
    "load_coinflip",
    "load_commonsenseqa",
    "load_dataset",
    "load_expertqa_claims",
    "load_gsm8k",
    "load_gsm8k_solutions",
    "load_jsonl",
    "load_last_letters",
    "load_llmbar",
    "load_math",
    "load_mathqa",
    "load_mmlu",
    "load_mt_bench_human",
    "load_multiarith",
    "load_strategyqa",
    "load_svamp",
    "sample_path",
    "write_jsonl",
]
