"""The reader on real judge replies that other projects recorded (tests/data/replies).

Each reply is read through the public entry point, ``prin_guard.read_reply``, with a
template that describes its judge prompt's family (the labels as the prompt shows them,
the tie word, the declared verdict format), and compared with the verdict the project
stored. Prints a table per source: replies, agreeing, abstaining (the reader failed: lost
coverage, never a wrong verdict), misread (a verdict other than the recorded one) and,
of those, confident (not marked weak). Replies whose stored verdict is known to be wrong
(``KNOWN``, each with the reason) are counted apart.

    python -m bench.reader_corpus            # the table
    python -m bench.reader_corpus --misses   # and every reply not read as recorded
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
from prin_guard.models import (
    AnswerContract,
    FirstLine,
    Item,
    Ordering,
    ParseStatus,
    Reading,
    ScoresFormat,
    Tag,
    Template,
)

CORPUS = Path(__file__).resolve().parent.parent / "tests" / "data" / "replies"


def _pair(family: str, contract: AnswerContract, noun: str = "assistants") -> Template:
    return Template(family, 1, "better", "worse", task="pairwise", noun=noun, contract=contract)


_NUMBERED = ("Assistant 1", "Assistant 2")
FAMILIES: dict[str, Template] = {
    # the first line holds the two scores ("8 9")
    "vicuna-review-general": _pair(
        "vicuna-review-general", AnswerContract(labels=_NUMBERED, format=ScoresFormat())
    ),
    "vicuna-review-coding": _pair(
        "vicuna-review-coding", AnswerContract(labels=_NUMBERED, format=ScoresFormat())
    ),
    # "Finally, please output a Python tuple containing two numerical scores"
    "vicuna-review-math": _pair(
        "vicuna-review-math",
        AnswerContract(labels=_NUMBERED, format=ScoresFormat(where="last_tuple")),
    ),
    "mt-bench-pair": _pair("mt-bench-pair", AnswerContract(tie="C", format=Tag())),
    "arena-hard": _pair("arena-hard", AnswerContract(format=Tag())),
    "llmzoo-order": _pair("llmzoo-order", AnswerContract(labels=_NUMBERED, format=Ordering())),
    # four assistants ordered: which are the best (a choice among them)
    "llmzoo-order-choice": Template(
        "llmzoo-order-choice",
        1,
        "best",
        "worst",
        task="choice",
        noun="assistants",
        contract=AnswerContract(
            labels=tuple(f"Assistant {n}" for n in range(1, 5)), format=Ordering()
        ),
    ),
    # LLMBar: "... always end your response with either 'Therefore, Output (a) is
    # better.' or 'Therefore, Output (b) is better.'": a conclusion in prose
    "llmbar-cot": _pair(
        "llmbar-cot", AnswerContract(labels=("Output (a)", "Output (b)")), "outputs"
    ),
    # 'Your response should be either "Output (a)" or "Output (b)"': the first line
    "llmbar-vanilla": _pair(
        "llmbar-vanilla",
        AnswerContract(labels=("Output (a)", "Output (b)"), format=FirstLine()),
        "outputs",
    ),
    "pandalm": _pair(
        "pandalm", AnswerContract(labels=("1", "2"), tie="Tie", format=FirstLine()), "responses"
    ),
}
"""A template per judge prompt family: its labels, tie word and declared format."""

KNOWN: dict[str, str] = {
    # id -> why the stored verdict is not what the reply says
    "llmbar-cot:3": (
        "the reply opens and ends 'Output (b) is better.'; LLMBar's PaLM 2 parser took the "
        "first line that starts 'Output (a)' (stored '1')"
    ),
    "llmbar-cot:18": (
        "the reply concludes that both outputs are equally good (a tie), which LLMBar's "
        "prompt does not allow; its parser matched neither phrase and stored no verdict"
    ),
    "llmzoo-order-gpt35turbo:2": (
        "the reply's last line orders 'Assistant 1 = Assistant 2' (a tie); LLMZoo's parser "
        "took an earlier sentence ('Assistant 1 > Assistant 2 in terms of level of details')"
    ),
}


@dataclass(frozen=True)
class Outcome:
    record: dict[str, Any]
    reading: Reading
    read: Any
    """The reading in the record's terms ("1", "2", "tie", a list of shown labels, None)."""

    @property
    def agrees(self) -> bool:
        return bool(self.read == self.record["recorded"])

    @property
    def abstained(self) -> bool:
        return self.reading.status is ParseStatus.FAILED

    @property
    def known(self) -> bool:
        return self.record["id"] in KNOWN

    @property
    def confident_misread(self) -> bool:
        """A verdict other than the recorded one, not marked weak (the one failure a
        guard must not have), on a reply whose stored verdict is not known to be wrong."""
        return not (self.agrees or self.known or self.abstained or self.reading.weak)


def records(corpus: Path = CORPUS) -> Iterator[dict[str, Any]]:
    """Every non-rating record of the corpus, file by file."""
    for path in sorted(corpus.glob("*.jsonl")):
        with path.open(encoding="utf-8") as lines:
            for line in lines:
                if line.strip():
                    yield json.loads(line)


def item_of(record: dict[str, Any]) -> Item:
    """The item the judge was asked about, in the order shown (placeholders where the
    project did not record the texts)."""
    shown = record["shown_labels"]
    given = record.get("item") or {}
    texts = given.get("candidates") or [
        f"(candidate {n + 1}, not recorded)" for n in range(len(shown))
    ]
    question = given.get("question") or "(question not recorded)"
    return Item(
        task=record["task"], question=question, candidates=texts, context=given.get("context")
    )


def read(record: dict[str, Any], *, declared: bool = True) -> Outcome:
    """Read one record's reply with its family's template (``declared``), or with none:
    the task's bundled template, whose contract asks for "Answer: ...", so the reply is
    read by the general reader alone."""
    item = item_of(record)
    family = record["family"]
    template = FAMILIES.get(f"{family}-{record['task']}") or FAMILIES[family]
    reading = prin_guard.read_reply(record["reply"], item, template=template if declared else None)
    shown = record["shown_labels"]
    by_label = dict(zip(item.labels, shown, strict=True))
    got: Any
    if reading.status is ParseStatus.FAILED:
        got = None
    elif record["task"] == "pairwise":
        got = "tie" if len(reading.labels) == 2 else str(item.labels.index(reading.labels[0]) + 1)
    else:
        got = [by_label[label] for label in reading.labels]
    return Outcome(record, reading, got)


def figures(outcomes: list[Outcome]) -> list[dict[str, Any]]:
    """Per source, and in all: replies, agree, abstain, misread, confident misreads."""
    rows: dict[str, Counter[str]] = {}
    for outcome in outcomes:
        for key in (outcome.record["source"], "all"):
            row = rows.setdefault(key, Counter())
            row["replies"] += 1
            if outcome.known:
                row["known"] += 1
            elif outcome.agrees:
                row["agree"] += 1
            elif outcome.abstained:
                row["abstain"] += 1
            else:
                row["misread"] += 1
                row["confident"] += not outcome.reading.weak
    return [{"source": key, **rows[key]} for key in sorted(rows, key=lambda k: (k == "all", k))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--misses", action="store_true", help="print every reply not read as stored"
    )
    parser.add_argument(
        "--general",
        action="store_true",
        help="read with no template (the general reader alone), as read_reply(reply, item)",
    )
    args = parser.parse_args()
    outcomes = [read(record, declared=not args.general) for record in records()]
    print("| source | replies | agree | abstain | misread | confident misread | known wrong |")
    print("|---|---|---|---|---|---|---|")
    for row in figures(outcomes):
        share = row.get("agree", 0) / max(row["replies"] - row.get("known", 0), 1)
        print(
            f"| {row['source']} | {row['replies']} | {row.get('agree', 0)} ({share:.1%}) | "
            f"{row.get('abstain', 0)} | {row.get('misread', 0)} | {row.get('confident', 0)} | "
            f"{row.get('known', 0)} |"
        )
    if args.misses:
        for outcome in outcomes:
            if not outcome.agrees:
                record = outcome.record
                print(
                    f"\n{record['id']} ({record['family']}): recorded {record['recorded']!r}, "
                    f"read {outcome.read!r} ({outcome.reading.method}, weak={outcome.reading.weak})"
                )
                print("   ", record["reply"][:600].replace("\n", "\n    "))


if __name__ == "__main__":
    main()
