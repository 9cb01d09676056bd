"""Verdict formats read, describe, ask for and check themselves (issue 38, item 6).

Nothing dispatches on a format's ``kind``: a format is one class, and the reader, the
``prin-guard prompts`` description, the re-ask and the template check all go through its
methods. The test format here is defined nowhere else, yet is read, described and asked
for; the old ``if kind ==`` chains ignored it.
"""

from __future__ import annotations

import re
import typing
from collections.abc import Sequence
from typing import Literal

import pytest

from prin_guard._prompting._contract import _Format
from prin_guard.errors import UsageError
from prin_guard.models import (
    AnswerContract,
    Conclusion,
    FirstLine,
    JsonField,
    JsonRanking,
    Line,
    Ordering,
    Polarity,
    Ranked,
    ScoresFormat,
    Tag,
    VerdictFormat,
)
from prin_guard.reader import parse_reply
from prin_guard.reader._declared import Places, Reading, Shown


class Stars(_Format):
    """A verdict between stars: ``*A*``; a format no module knows of."""

    kind: Literal["stars"] = "stars"

    def read(self, text: str, shown: Shown, places: Places) -> Reading | None:
        found = None
        for match in re.finditer(r"\*([^*\n]+)\*", text):
            reading = shown.slot(text, *match.span(1))
            if reading is not None:
                found = reading
                places.append(match.span())
        return found

    def looks_for(self) -> str:
        return "the last label between stars"

    def ask(self, labels: Sequence[str], count: int, tie: str | None) -> str:
        return "the label between stars: " + ", ".join(f"*{label}*" for label in labels[:count])

    def _marks(self) -> tuple[str, ...]:
        return ("*",)


def _contract() -> AnswerContract:
    # a format outside VerdictFormat's union is not validated into a contract; built as is
    return AnswerContract.model_construct(labels=("1", "2"), tie=None, format=Stars())


@pytest.mark.parametrize(
    ("reply", "polarity", "labels"),
    [
        pytest.param("Response 1 is longer.\n*2*", Polarity.DIRECT, ("B",), id="direct"),
        pytest.param("*1* then, on reflection, *2*", Polarity.REVERSE, ("B",), id="last-counts"),
    ],
)
def test_a_format_of_ones_own_is_read_by_its_class(
    reply: str, polarity: Polarity, labels: tuple[str, ...]
) -> None:
    read = parse_reply(
        reply, ["A", "B"], ["x", "y"], task="pairwise", polarity=polarity, contract=_contract()
    )
    assert read.labels == labels
    assert read.method is not None and read.method.value == "declared"


def test_a_format_of_ones_own_is_described_and_asked_for_by_its_class() -> None:
    contract = _contract()
    assert contract.describe(["A", "B"]) == (
        "the last label between stars, naming '1', '2'; else the reply's conclusion"
    )
    assert contract.ask(["A", "B"], 2) == "Reply with the label between stars: *1*, *2*."
    with pytest.raises(UsageError, match=r"never asks for '\*' \(stars\)"):
        Stars().check("Which is better? Reply 1 or 2.", reverse_written=False)


def test_every_declared_format_reads_and_describes_itself() -> None:
    formats = [
        Tag(), Line(prefix="Answer:"), FirstLine(), ScoresFormat(), JsonField(key="winner"),
        JsonRanking(), Ordering(),
    ]  # fmt: skip
    members = typing.get_args(typing.get_args(VerdictFormat)[0])
    # a ranking's form is read by the ranking reader (tests/test_ranking_task.py), never
    # by a label task's
    assert {type(form) for form in formats} | {Conclusion, Ranked} == set(members)
    assert Ranked(form="identifiers").reader_form == "ordering" and Ranked().looks_for()
    for form in formats:
        assert type(form).read is not _Format.read, form.kind
        assert form.looks_for(), form.kind
    assert Conclusion().looks_for() is None
    assert Conclusion().read("Answer: A", None, []) is None  # type: ignore[arg-type]
