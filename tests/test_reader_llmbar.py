"""The reader on 1,000 real pairwise replies (issue 22): GPT-4, ChatGPT, PaLM 2,
LLaMA-2-70B-chat and Falcon-180B-chat judging LLMBar's Natural set in both orders
(../shared/data/llmbar, MIT). From the reply text alone the reader must get the judge's
recorded winner in at least 99% of replies, and never read both outputs from a reply
that concludes with one."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from prin_guard.models import ParseStatus, Polarity
from prin_guard.reader import parse_reply

NOUNS = ("output", "response", "assistant")
# The two replies whose recorded winner the reader does not give, and why:
KNOWN_MISSES = {
    # Falcon writes a section per output, each ending "Therefore, Output (x) is better."
    # for its own output: two conclusions that disagree, so no verdict (the recorded
    # winner is the first one's).
    ("natural-7", "Falcon", "1-2"),
    # Falcon concludes "Therefore, Output (b) is better." twice (after "In terms of the
    # level of detail, Output (a) is better."); the recorded winner is output 1, (a).
    ("natural-74", "Falcon", "1-2"),
}


def _rows(shared_data: Path) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    folder = shared_data / "llmbar"
    with (folder / "natural.jsonl").open(encoding="utf-8") as lines:
        items = {item["id"]: item for item in map(json.loads, lines)}
    with (folder / "natural-recorded-judges.jsonl").open(encoding="utf-8") as lines:
        return [(record, items[record["id"]]) for record in map(json.loads, lines)]


def _read(record: dict[str, Any], item: dict[str, Any], *, echo: bool) -> str | None:
    """The winner the reader gets, in the original numbering ("1", "2"), "tie" or None."""
    # "1-2": output_1 was shown first, as Output (a); "2-1": output_2 was
    first, second = ("output_1", "output_2")
    if record["shown_order"] == "2-1":
        first, second = second, first
    shown = (item[first], item[second])
    result = parse_reply(
        record["reply"],
        ("A", "B"),
        shown,
        task="pairwise",
        polarity=Polarity.DIRECT,
        words=("better", "worse"),
        nouns=NOUNS,
        echo=(item["instruction"], *shown) if echo else (),
    )
    if result.labels == ("A", "B"):
        return "tie"
    if result.labels in {("A",), ("B",)}:
        return {"A": first, "B": second}[result.labels[0]].removeprefix("output_")
    assert result.status is ParseStatus.FAILED
    return None


@pytest.mark.parametrize("echo", [False, True], ids=["reply-alone", "with-the-item-as-echo"])
def test_the_recorded_winner_is_read_from_the_reply(shared_data: Path, echo: bool) -> None:
    rows = _rows(shared_data)
    assert len(rows) == 1_000
    misses: set[tuple[str, str, str]] = set()
    for record, item in rows:
        read = _read(record, item, echo=echo)
        if record["winner"] is None:
            assert read is None, record  # an empty reply has no verdict
        elif read != record["winner"]:
            misses.add((record["id"], record["judge"], record["shown_order"]))
        # a reply that concludes with one output is never read as both
        assert read != "tie", record
    hits = len(rows) - len(misses)
    assert hits >= 990, sorted(misses)
    assert misses == KNOWN_MISSES
