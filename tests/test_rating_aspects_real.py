"""The per-aspect score reader on real replies in which one judge reply scores several
named aspects of one response: tests/data/replies/ratings-aspects, copied from public
projects with the score each aspect was given, read by hand (``declared``), and where the
project stored one, its own parse (``recorded``); sources, commits, licences and judge
prompts in that directory's SOURCES.md.

Each reply is read through ``prin_guard.read_reply`` on a rating item naming the record's
aspects on its scale (the response a placeholder; with the evaluated responses in its
place the behavioral-profiling readings are the same), at most 32 aspects per item, names
of up to 128 characters, as an item allows (EQ-Bench asks 23 criteria, some of 100
characters).

Measured (74 replies, 1,212 declared aspect scores asked):

- eqbench-creative-writing (39 replies, gpt-4 and claude-3-opus judges, one
  ``Criterion: 7`` line per criterion): 897 of 897 read as declared, 0 misread, 0 unread.
- behavioral-profiling (35 replies, Claude-4.5-Sonnet, Llama-4-Maverick and DeepSeek-R1
  judges, a fenced ``{"scores": {"warmth": 8, ...}, ...}`` object): 315 of 315 read as
  declared, 0 misread, 0 unread.
- All: 1,212 of 1,212 (100%), 0 misread.

Not held out: first measured with the reader as written before these replies were seen
(878 of 878 EQ-Bench scores of names up to 64 characters, 27 of 315 behavioral-profiling:
the nested ``scores`` object was not read, 0 misread); the reader then learnt to read an
aspect's field in a nested object, and items to take 32 aspects of 128 characters.

A read score always equals the declared one; the share read stays at least what was
measured, rounded down to the percent. ``python tests/test_rating_aspects_real.py``
prints the figures per source."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from prin_guard import read_reply

DATA = Path(__file__).parent / "data" / "replies" / "ratings-aspects"
ITEM_ASPECTS = 32  # the most aspects one item names
NAME_CHARS = 128  # the longest aspect name an item takes
FLOOR = {"eqbench-creative-writing": 1.00, "behavioral-profiling": 1.00}
FLOOR_ALL = 1.00


@dataclass(frozen=True, slots=True)
class Aspect:
    source: str
    id: str
    name: str
    declared: float | None
    read: float | None


def records() -> list[dict]:
    out = []
    for path in sorted(DATA.glob("*.jsonl")):
        with path.open(encoding="utf-8") as lines:
            out.extend(json.loads(line) for line in lines if line.strip())
    return out


def _name(aspect: str | dict) -> str:
    return aspect if isinstance(aspect, str) else aspect["name"]


def readings(record: dict) -> Iterator[Aspect]:
    askable = [a for a in record["aspects"] if len(_name(a)) <= NAME_CHARS]
    for start in range(0, len(askable), ITEM_ASPECTS):
        chunk = askable[start : start + ITEM_ASPECTS]
        item = {
            "task": "rating",
            "response": "placeholder",
            "scale": record["scale"],
            "aspects": chunk,
        }
        scores = read_reply(record["reply"], item).aspect_scores
        for aspect in chunk:
            name = _name(aspect)
            declared = record["declared"][name]
            yield Aspect(record["source"], record["id"], name, declared, scores[name])


RECORDS = records()


@pytest.fixture(scope="module")
def aspects() -> list[Aspect]:
    return [aspect for record in RECORDS for aspect in readings(record)]


def figures(aspects: list[Aspect]) -> dict[str, Counter]:
    out: dict[str, Counter] = {}
    for aspect in aspects:
        for key in (aspect.source, "all"):
            counts = out.setdefault(key, Counter())
            if aspect.read is not None and aspect.read != aspect.declared:
                counts["misread"] += 1
            elif aspect.read is not None:
                counts["equal"] += 1
            elif aspect.declared is not None:
                counts["unread"] += 1
            if aspect.declared is not None:
                counts["declared"] += 1
    return out


def test_the_corpus_holds_real_multi_aspect_replies_from_two_sources() -> None:
    assert len(RECORDS) >= 60
    assert len({record["source"] for record in RECORDS}) >= 2
    assert len({record["id"] for record in RECORDS}) == len(RECORDS)
    for record in RECORDS:
        names = [_name(a) for a in record["aspects"]]
        assert len(names) >= 2, record["id"]
        assert set(record["declared"]) == set(names), record["id"]
        assert set(record["recorded"]) == set(names), record["id"]
        assert record["id"].startswith(record["source"] + ":")
        assert {"repo", "commit", "path", "locator"} <= set(record["provenance"])
        assert len(record["provenance"]["commit"]) == 40


def test_a_read_score_is_always_the_declared_one(aspects: list[Aspect]) -> None:
    misread = [(a.id, a.name, a.read, a.declared) for a in aspects if a.read is not None]
    assert [entry for entry in misread if entry[2] != entry[3]] == []


def test_the_share_read_stays_at_what_was_measured(aspects: list[Aspect]) -> None:
    counts = figures(aspects)
    assert counts["all"]["equal"] >= FLOOR_ALL * counts["all"]["declared"], counts
    for source, floor in FLOOR.items():
        assert counts[source]["equal"] >= floor * counts[source]["declared"], (source, counts)


if __name__ == "__main__":
    every = [aspect for record in RECORDS for aspect in readings(record)]
    per_source = Counter(record["source"] for record in RECORDS)
    per_source["all"] = len(RECORDS)
    for source, counts in sorted(figures(every).items(), key=lambda kv: kv[0] == "all"):
        replies = per_source[source]
        share = counts["equal"] / counts["declared"]
        print(
            f"{source}: {replies} replies, {counts['declared']} declared aspect scores asked, "
            f"{counts['equal']} read as declared ({share:.1%}), {counts['misread']} misread, "
            f"{counts['unread']} unread"
        )
