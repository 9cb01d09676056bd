"""Loaders of human rankings (issue 40, item 7): OpenAssistant's crowd rankings and rankings
built from SummEval's expert ratings.

They yield :class:`RankedItem`: a question, the responses to rank as labelled candidates
(A, B, C, ... in the file's order, which is the order a judge is shown them first) and the
humans' ranking of those labels, best first, ties allowed. A ranking item is not an
:class:`~prin_guard.Item` yet: ``Item`` knows the tasks choice, pairwise and checklist, and
the ranking task arrives with the tasks package of issue 39; so these loaders are not in
:data:`~prin_guard.datasets.DATASETS` (whose entries yield ``LabeledItem``, an ``Item`` with
a gold set) and ``prin-guard eval`` cannot run them yet. Malformed rows are skipped and
reported through ``on_skip(line, reason)``, as for every loader of this package.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from prin_guard._exceptions import UsageError
from prin_guard._models import Candidate, _nth_label
from prin_guard._ranking import Ranking, from_ranks
from prin_guard.datasets._rows import (
    SkipHandler,
    _build_all,
    _existing_file,
    _get,
    _handler,
    _jsonl_rows,
    _kind,
    _RowError,
    _text,
    _warn_skip,
)

__all__ = ["SUMMEVAL_ASPECTS", "RankedItem", "load_oasst_rankings", "load_summeval_rankings"]

SUMMEVAL_ASPECTS = ("coherence", "consistency", "fluency", "relevance")
"""The four aspects SummEval's experts rated (1-5)."""


@dataclass(frozen=True, slots=True)
class RankedItem:
    """Responses to rank and the humans' ranking of them."""

    id: str
    question: str
    candidates: tuple[Candidate, ...]
    """The responses, labelled A, B, C, ... in the file's order."""
    gold: Ranking
    """The humans' ranking of the candidates' labels, best first; labels in one tier tie."""
    line: int
    """1-based line in the source file on which the row (for SummEval: the article's first
    summary) starts."""
    context: str | None = None
    """What the responses answer besides the question: the article (SummEval), the earlier
    turns of the conversation (OpenAssistant)."""
    criterion: str | None = None
    """What the ranking is by: a SummEval aspect; ``None`` for an overall ranking."""

    @property
    def labels(self) -> tuple[str, ...]:
        return tuple(str(candidate.label) for candidate in self.candidates)


def _candidates(texts: list[str]) -> tuple[Candidate, ...]:
    return tuple(Candidate(label=_nth_label(n), text=text) for n, text in enumerate(texts))


# --------------------------------------------------------------------------- OpenAssistant

_ROLES = {"prompter": "User", "assistant": "Assistant"}


def _conversation(turns: object) -> str | None:
    if not isinstance(turns, list):
        raise _RowError(f"field 'conversation_before' is {_kind(turns)}, not a list")
    lines = []
    for number, turn in enumerate(turns):
        if not (
            isinstance(turn, list)
            and len(turn) == 2
            and turn[0] in _ROLES
            and isinstance(turn[1], str)
        ):
            raise _RowError(f"conversation_before.{number} is not [prompter|assistant, text]")
        lines.append(f"{_ROLES[turn[0]]}: {turn[1]}")
    return "\n\n".join(lines) or None


def _oasst_row(line: int, _index: int, row: dict[str, Any]) -> RankedItem:
    texts = _get(row, "shown_texts")
    if not (isinstance(texts, list) and len(texts) >= 2 and all(isinstance(t, str) for t in texts)):
        raise _RowError(f"field 'shown_texts' is {_kind(texts)}, not a list of 2 or more texts")
    order = _get(row, "recorded_ranking")
    if not (
        isinstance(order, list)
        and all(isinstance(i, int) and not isinstance(i, bool) for i in order)
        and sorted(order) == list(range(len(texts)))
    ):
        raise _RowError(
            f"field 'recorded_ranking' is not a best-first order of the {len(texts)} "
            "shown_texts' indexes"
        )
    candidates = _candidates(texts)
    gold = tuple((str(candidates[i].label),) for i in order)
    key = row.get("id")
    return RankedItem(
        id=key if isinstance(key, str) and key else f"oasst-rankings-{line}",
        question=_text(row, "question"),
        candidates=candidates,
        gold=gold,
        line=line,
        context=_conversation(row.get("conversation_before", [])),
    )


def load_oasst_rankings(
    path: str | Path, *, on_skip: SkipHandler = _warn_skip
) -> Iterator[RankedItem]:
    """OpenAssistant crowd rankings of 3 to 9 replies to one prompter message
    (``oasst-rankings.jsonl``, see its SOURCE.md): the replies as candidates in the tree's
    order (the order shown to the rankers is not stored), the crowd's consensus ranking
    (strict: OpenAssistant's ``rank`` has no ties) as gold, earlier turns as the context
    ("User: ..." / "Assistant: ...", blank lines between)."""
    file = _existing_file(path)
    return _build_all(_jsonl_rows(file), _oasst_row, _handler(on_skip, file))


# --------------------------------------------------------------------------- SummEval


def _summeval_records(
    file: Path, on_skip: SkipHandler, aspect: str
) -> Iterator[tuple[int, dict[str, Any]]]:
    for line, _, row in _jsonl_rows(file):
        try:
            if not isinstance(row, dict):
                raise _RowError(f"the row is {_kind(row)}, not a JSON object")
            _text(row, "doc_id")
            _text(row, "response")
            means = _get(row, "expert_mean")
            score = means.get(aspect) if isinstance(means, dict) else None
            if isinstance(score, bool) or not isinstance(score, int | float):
                raise _RowError(f"field 'expert_mean.{aspect}' is {_kind(score)}, not a number")
        except _RowError as exc:
            on_skip(line, str(exc))
            continue
        yield line, row


def load_summeval_rankings(
    path: str | Path,
    aspect: str,
    *,
    k: int | None = None,
    seed: int = 0,
    on_skip: SkipHandler = _warn_skip,
) -> Iterator[RankedItem]:
    """Rankings of an article's summaries by one aspect's expert mean, from SummEval's
    ``summeval.jsonl`` (see ``../shared/data/ratings/SOURCE.md``).

    Per article (records grouped by ``doc_id`` in file order): the summaries, less repeats
    of a text already seen for that article (2-4 systems wrote the same summary in 44 groups;
    a judge cannot tell copies apart, so the first in file order stays), then ``k`` of them
    chosen at random with ``random.Random(f"{seed}:{doc_id}")`` and kept in file order, or
    all when ``k`` is ``None``. The gold ranking orders them by the mean of the three
    experts' scores on ``aspect``, higher better; equal means tie (compared as the sum of the
    three integer scores, ``round(3 x mean)``, so no rounding splits a tie). An article with
    fewer than ``k`` distinct summaries is skipped through ``on_skip``. The article is the
    context; the question is the summarising instruction; ``criterion`` is the aspect.

    The ceiling of two aspects shows in the rankings: over the 100 articles (13 to 16
    distinct summaries each) the first place holds on average 12.5 tied summaries for
    consistency and 11.0 for fluency, 1.9 for coherence and relevance (8.1 and 6.7 places per
    article). Top-1 agreement is nearly free on the first two; rank by coherence or
    relevance to measure a judge.
    """
    if aspect not in SUMMEVAL_ASPECTS:
        raise UsageError(f"aspect: unknown aspect {aspect!r}; known: {', '.join(SUMMEVAL_ASPECTS)}")
    if k is not None and (isinstance(k, bool) or not isinstance(k, int) or k < 2):
        raise UsageError(f"k: {k!r} is not a number of summaries of 2 or more")
    file = _existing_file(path)
    return _summeval_rankings(file, aspect, k, seed, _handler(on_skip, file))


def _summeval_rankings(
    file: Path, aspect: str, k: int | None, seed: int, handler: SkipHandler
) -> Iterator[RankedItem]:
    records = _summeval_records(file, handler, aspect)
    for doc_id, group in itertools.groupby(records, key=lambda pair: pair[1]["doc_id"]):
        rows = list(group)
        first_line = rows[0][0]
        seen: set[str] = set()
        distinct = []
        for _, row in rows:
            text = " ".join(str(row["response"]).split())
            if text not in seen:
                seen.add(text)
                distinct.append(row)
        if k is not None:
            if len(distinct) < k:
                handler(
                    first_line,
                    f"article {doc_id}: {len(distinct)} distinct summaries, fewer than k={k}",
                )
                continue
            chosen = set(random.Random(f"{seed}:{doc_id}").sample(range(len(distinct)), k))  # noqa: S311 (a sample, not a secret)
            distinct = [row for n, row in enumerate(distinct) if n in chosen]
        sources = {str(row.get("source", "")) for row in distinct}
        if len(sources) != 1 or not next(iter(sources)).strip():
            handler(first_line, f"article {doc_id}: its summaries do not share one article text")
            continue
        candidates = _candidates([str(row["response"]) for row in distinct])
        sums = {
            str(candidate.label): round(3 * float(row["expert_mean"][aspect]))
            for candidate, row in zip(candidates, distinct, strict=True)
        }
        suffix = "" if k is None else f"-k{k}-seed{seed}"
        yield RankedItem(
            id=f"summeval-{doc_id}-{aspect}{suffix}",
            question="Summarize the news article in the context.",
            candidates=candidates,
            gold=from_ranks(sums, higher_is_better=True),
            line=first_line,
            context=next(iter(sources)),
            criterion=aspect,
        )
