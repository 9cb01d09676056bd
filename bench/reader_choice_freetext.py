"""The reader on real free-text replies to multiple-choice questions (issue 38):
tests/data/replies/choice-freetext, each reply with the reading a careful person gives it.

Two kinds of record: legs a real small judge (Qwen2.5-Coder-1.5B-Instruct, Q4_K_M) answered
through the guard's own choice prompts, direct and reverse, with and without zero-shot
CoT, on MathQA, AQuA-RAT and MMLU items (two rounds; the second adds the NEG_EXP
mitigation and plain user questions: "Which of these options are correct? Explain.",
"Which of these are incorrect? Answer briefly."); and CoT replies GPT-4o and
DeepSeek-Chat gave to MMLU-Pro questions, as TIGER-AI-Lab/MMLU-Pro committed them.
``--corpus tests/data/replies/choice-holdout``: replies written by hand before the reader
work of the second round, measured untuned (its README). Each reply is read through
``prin_guard.read_reply`` on its item, leg, template and mitigations, and compared with
``expected``: a list of labels (``[]``: the reply says no option is right), or ``null``
when a careful reader cannot tell (no conclusion, cut before one, or a reverse leg that
answers the direct question).

Outcomes: ``right`` (the expected labels, or failed where none can be told;
``right_weak`` when the expected labels are marked weak), ``unread`` (failed where a reading
can be told: lost coverage, never a wrong verdict), ``weak`` (other labels, or any reading
where none can be told, marked weak or polarity-confused: the guard flags them) and
``confident`` (the same, unmarked: the one failure a guard must not have).

    python -m bench.reader_choice_freetext            # the table, per source, dataset, leg
    python -m bench.reader_choice_freetext --misses   # and every reply not read right
    python -m bench.reader_choice_freetext --corpus tests/data/replies/choice-holdout
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import prin_guard
from prin_guard.models import Candidate, Item, ParseStatus, Reading

CORPUS = Path(__file__).resolve().parent.parent / "tests" / "data" / "replies" / "choice-freetext"
HOLDOUT = CORPUS.parent / "choice-holdout"


@dataclass(frozen=True)
class Outcome:
    record: dict[str, Any]
    reading: Reading

    @property
    def read(self) -> list[str] | None:
        """The reading as the record writes ``expected`` (None: failed)."""
        if self.reading.status is ParseStatus.FAILED:
            return None
        return sorted(self.reading.labels)

    @property
    def marked(self) -> bool:
        """The reading carries a mark the guard acts on (weak, polarity-confused)."""
        return self.reading.weak or self.reading.polarity_confusion

    @property
    def kind(self) -> str:
        expected = self.record["expected"]
        if self.read is None:
            return "right" if expected is None else "unread"
        if expected is not None and self.read == sorted(expected):
            return "right_weak" if self.marked else "right"
        return "weak" if self.marked else "confident"


def records(corpus: Path = CORPUS) -> Iterator[dict[str, Any]]:
    """Every record of the corpus, file by file."""
    for path in sorted(corpus.glob("*.jsonl")):
        with path.open(encoding="utf-8") as lines:
            for line in lines:
                if line.strip():
                    yield json.loads(line)


def item_of(record: dict[str, Any]) -> Item:
    given = record["item"]
    return Item(
        question=given["question"],
        candidates=tuple(Candidate(label=c["label"], text=c["text"]) for c in given["candidates"]),
        id=given["id"],
    )


def read(record: dict[str, Any]) -> Outcome:
    reading = prin_guard.read_reply(
        record["reply"],
        item_of(record),
        template=record["template"],
        polarity=record["polarity"],
        mitigations=record["mitigations"],
    )
    return Outcome(record, reading)


def group(record: dict[str, Any]) -> str:
    """Source, dataset, leg and how it was asked: the guard's prompt with zero-shot CoT
    (``cot``) or without (``plain``), or a user's plain question asking for an
    explanation (``user-explain``) or a short answer (``user-brief``)."""
    route = record.get("route", "guard")
    if route == "guard":
        how = "cot" if "cot" in record["mitigations"] else "plain"
    else:
        how = "user-explain" if route == "user" else "user-brief"
    return f"{record['source']} / {record['dataset']} / {record['polarity']} / {how}"


def figures(outcomes: list[Outcome], key: Any = group) -> list[dict[str, Any]]:
    """Per group (``key`` of a record), and in all: replies and each outcome's count."""
    rows: dict[str, Counter[str]] = {}
    for outcome in outcomes:
        for name in (key(outcome.record), outcome.record["source"], "all"):
            row = rows.setdefault(name, Counter())
            row["replies"] += 1
            row[outcome.kind] += 1
    return [{"group": name, **rows[name]} for name in sorted(rows, key=lambda k: (k == "all", k))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--misses", action="store_true", help="print every reply not read right")
    parser.add_argument(
        "--corpus",
        type=Path,
        default=CORPUS,
        help="a folder of *.jsonl records (default: the real replies; HOLDOUT: the hand-written "
        "hold-out)",
    )
    args = parser.parse_args()
    outcomes = [read(record) for record in records(args.corpus)]
    print("| group | replies | right | right, weak | unread | weak misread | confident misread |")
    print("|---|---|---|---|---|---|---|")
    for row in figures(outcomes):
        right = row.get("right", 0) + row.get("right_weak", 0)
        print(
            f"| {row['group']} | {row['replies']} | {right} ({right / row['replies']:.0%}) | "
            f"{row.get('right_weak', 0)} | {row.get('unread', 0)} | {row.get('weak', 0)} | "
            f"{row.get('confident', 0)} |"
        )
    if args.misses:
        for outcome in outcomes:
            if outcome.kind not in ("right", "right_weak"):
                record = outcome.record
                reading = outcome.reading
                print(
                    f"\n{record['id']} [{outcome.kind}] {record['polarity']}: expected "
                    f"{record['expected']!r}, read {outcome.read!r} ({reading.method}, "
                    f"weak={reading.weak}, polarity_confusion={reading.polarity_confusion})"
                )
                print("   ", (record["reply"] or "")[-500:].replace("\n", "\n    "))


if __name__ == "__main__":
    main()
