"""11b. The reader on generated replies (issue 38, item 4).

Every reply of the grammar in ``tests/_phrasings.py`` (choice, pairwise and checklist,
both legs, 48 phrasing classes: conclusions, statuses, one side only, lists, marks,
yes/no, tables, JSON, notes, negation, exception, hedges, revisions, copies of the item,
the question's predicate, candidate texts, long reasoning, ``\\boxed{}``, polarity-
confused legs, replies cut off) read through ``prin_guard.read_reply`` and graded
against the meaning the grammar gives it: read right (a failure where no answer is
meant counts as right), abstained (failed where an answer is meant), misread and marked
(weak or polarity-confused), misread confidently (the one failure a reader must not have).

    python -m bench.reader_generated [--smoke] [--n 24000] [--seed 0]
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter, defaultdict
from pathlib import Path

from bench._common import Context, Figure, Section, md_table

ROOT = Path(__file__).resolve().parents[1]

NAME = "reader_generated"
TITLE = "11b. The reader on generated replies"
TARGET = "0 confident misreads on every generated reply; ≥ 95% read right"
FULL, SMOKE = 24_000, 1_200


def measure(n: int, seed: int = 0) -> dict[tuple[str, str], Counter[str]]:
    """Outcomes per (task, class) of ``n`` generated replies."""
    if str(ROOT / "tests") not in sys.path:
        sys.path.insert(0, str(ROOT / "tests"))
    from _phrasings import generate, outcome

    from prin_guard import read_reply

    stats: dict[tuple[str, str], Counter[str]] = defaultdict(Counter)
    for case in generate(n, seed):
        reading = read_reply(case.reply, case.item, polarity=case.polarity)
        stats[case.task, case.cls][outcome(case, reading)] += 1
    return stats


def table(stats: dict[tuple[str, str], Counter[str]]) -> tuple[list[list[str]], Counter[str]]:
    rows: list[list[str]] = []
    total: Counter[str] = Counter()
    for (task, cls), counts in sorted(stats.items()):
        total.update(counts)
        n = sum(counts.values())
        rows.append([task, cls, str(n), f"{counts['right'] / n:.1%}", str(counts["abstain"]),
                     str(counts["misread"]), str(counts["confident"])])  # fmt: skip
    n = sum(total.values())
    rows.append(["**all**", "", str(n), f"{total['right'] / n:.1%}", str(total["abstain"]),
                 str(total["misread"]), str(total["confident"])])  # fmt: skip
    return rows, total


HEADER = ["task", "class", "replies", "read right", "abstained", "misread, marked",
          "misread, confident"]  # fmt: skip


def run(ctx: Context) -> Section:
    section = Section(NAME, TITLE, TARGET)
    n = ctx.pick(FULL, SMOKE)
    rows, total = table(measure(n))
    count = sum(total.values())
    right = total["right"] / count
    section.add(Figure("generated replies read right", right * 100, unit="%", target="≥ 95%",
                       met=right >= 0.95))  # fmt: skip
    section.add(Figure("confident misreads", total["confident"], target="0",
                       met=total["confident"] == 0))  # fmt: skip
    section.tables.append((f"{count:,} generated replies (seed 0), per task and class",
                           md_table(HEADER, rows)))  # fmt: skip
    section.notes.append("Alone: `python -m bench.reader_generated` (`--smoke` for 1,200).")
    section.notes.append(
        "The grammar grew in three rounds, each measured before the reader was changed for "
        "it: the first 30 classes read 79.1% with 126 confident misreads on the reader of "
        "main 9d9fe84; 12 more then read 95.9% and 6 more 97.0%, both with 0 confident "
        "misreads (the mention rule held on phrasings it had not seen). What stays "
        "abstained is honest: antonyms the reader cannot know ('9 and 15 are composite' "
        "for 'prime', read since round 4 through a table of strict antonyms) and candidate "
        "texts as the subject of a statement ('Sydney and Toronto are not capitals'). A "
        "fourth round added 4 classes from the real free-text "
        "corpus (answer_ends_line, latex_answer, label_own_text, label_other_text, 1,056 per "
        "task): on the reader before it, label_other_text ('The answer is **B. 15**.', 15 "
        "being A's text) had 30 confident misreads of 264 choice replies, now 0. A fifth "
        "round added 4 more (label_line, label_line_other, option_listing, label_long_text: "
        "a label and its text on a line of its own or in the answer sentence, whole or its "
        "first words, 968 per task): on the reader before it, label_line_other had 26 "
        "confident misreads of 242 choice replies and 13 of 242 checklist replies, "
        "label_long_text 5 of 242 checklist replies (24,000 in all: 96.9% right, 44 "
        "confident); now 0 (98.1% right)."
    )
    return section


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--smoke", action="store_true")
    parser.add_argument("--n", type=int, default=None)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    n = args.n or (SMOKE if args.smoke else FULL)
    rows, _ = table(measure(n, args.seed))
    print(md_table(HEADER, rows))


if __name__ == "__main__":
    main()
