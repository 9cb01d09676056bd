"""Loaders of human rankings (issue 40, item 7): OpenAssistant's crowd rankings, rankings
built from SummEval's expert ratings, and rankings built from MT-Bench's expert pairwise
judgments.

They yield :class:`RankedItem`: a question, the responses to rank as labelled candidates
(A, B, C, ... in the file's order, which is the order a judge is shown them first) and the
humans' ranking of those labels, best first, ties allowed; :meth:`RankedItem.as_item` is
the ranking item a guard checks. These loaders are not in
:data:`~prin_guard.datasets.DATASETS` (whose entries yield ``LabeledItem``, an ``Item``
with a gold set): ``prin-guard eval`` runs them by the names of
:data:`~prin_guard.eval._rankings.RANKING_DATASETS`. Malformed rows are skipped and
reported through ``on_skip(line, reason)``, as for every loader of this package.
"""

from __future__ import annotations

import functools
import itertools
import random
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from prin_guard._ranking import Ranking, from_ranks
from prin_guard.datasets._loaders import load_mt_bench_human
from prin_guard.datasets._rows import (
    LabeledItem,
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
from prin_guard.errors import UsageError
from prin_guard.models import Candidate, _nth_label

__all__ = [
    "SUMMEVAL_ASPECTS",
    "RankedItem",
    "load_mt_bench_rankings",
    "load_oasst_rankings",
    "load_summeval_rankings",
]

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
    pairs: tuple[tuple[str, str], ...] = ()
    """The pairs the humans judged directly, ``(better, worse)``, where the gold ranking is
    aggregated from pairwise judgments (MT-Bench); empty where the humans ranked the
    whole list."""

    @property
    def labels(self) -> tuple[str, ...]:
        return tuple(str(candidate.label) for candidate in self.candidates)

    def as_item(self, question: str | None = None) -> dict[str, Any]:
        """The ranking item a guard checks: ``question`` (default the item's own), the
        responses in the file's order, the context when there is one."""
        item: dict[str, Any] = {
            "task": "ranking",
            "id": self.id,
            "question": self.question if question is None else question,
            "candidates": [candidate.text for candidate in self.candidates],
        }
        if self.context:
            item["context"] = self.context
        return item


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


def _oasst_row(seed: int | None, line: int, _index: int, row: dict[str, Any]) -> RankedItem:
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
    key = row.get("id")
    ident = key if isinstance(key, str) and key else f"oasst-rankings-{line}"
    shown = list(range(len(texts)))
    if seed is not None:  # the file lists the replies best first: shown so, position is rank
        random.Random(f"{seed}:{ident}").shuffle(shown)  # noqa: S311 (an order, not a secret)
    candidates = _candidates([texts[i] for i in shown])
    place = {index: at for at, index in enumerate(shown)}
    gold = tuple((str(candidates[place[i]].label),) for i in order)
    return RankedItem(
        id=ident,
        question=_text(row, "question"),
        candidates=candidates,
        gold=gold,
        line=line,
        context=_conversation(row.get("conversation_before", [])),
    )


def load_oasst_rankings(
    path: str | Path, *, seed: int | None = 0, on_skip: SkipHandler = _warn_skip
) -> Iterator[RankedItem]:
    """OpenAssistant crowd rankings of 3 to 9 replies to one prompter message
    (``oasst-rankings.jsonl``, see its SOURCE.md): the replies as candidates, the crowd's
    consensus ranking (strict: OpenAssistant's ``rank`` has no ties) as gold, earlier turns
    as the context ("User: ..." / "Assistant: ...", blank lines between).

    The file lists every row's replies best first (``recorded_ranking`` is ``0, 1, 2, ...``
    on all 155 rows), so a judge shown them in the file's order and ranking them in the
    order shown would agree with the crowd perfectly (tau-b 0.94 and top-1 1.00 for a
    scripted judge that puts the first shown first). The replies are therefore shown in an
    order shuffled per row by ``random.Random(f"{seed}:{id}")`` and labelled A, B, C, ...
    in that order; ``seed=None`` keeps the file's order."""
    file = _existing_file(path)
    build = functools.partial(_oasst_row, seed)
    return _build_all(_jsonl_rows(file), build, _handler(on_skip, file))


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


# --------------------------------------------------------------------------- MT-Bench


def load_mt_bench_rankings(
    path: str | Path, *, on_skip: SkipHandler = _warn_skip
) -> Iterator[RankedItem]:
    """Rankings of MT-Bench answers built from the experts' pairwise judgments in LLMBar's
    MT-Bench subset (``mt-bench-human.jsonl``, or LLMBar's ``dataset.json``; the shipped
    sample ``prin_guard/data/mt-bench-human/sample.jsonl`` holds its first 63 pairs).

    MT-Bench's experts compared six models' answers two at a time; LLMBar kept 200 pairs
    (the experts' majority per pair, pairs whose majority was a tie removed), so a
    question has two to six answers and some of their pairs judged. Per question (rows
    grouped by the question's exact text, in file order):

    * **answers**: each distinct answer text is one candidate (the same model's answer
      appears in several pairs under the same text), labelled A, B, ... in the order
      they first appear;
    * **votes**: each row is one vote for its better output; a pair judged in more than
      one row (5 in the 200) takes its majority, and a pair whose votes split evenly is
      undecided (judged, but no preference);
    * **items**: each connected part of the judged pairs with three or more answers is
      one item (answers never compared with the rest cannot be placed beside them); a
      question whose parts are all pairs gives none;
    * **gold**: the decided pairs closed under transitivity (``A > B`` and ``B > C`` give
      ``A > C``), then the answers ranked by Copeland's score in that closure (answers
      they are above minus answers above them; members of a cycle, each above the other,
      count neither way), equal scores tied. Every preference the judged pairs imply is
      kept (an answer above another has a strictly higher score) and answers nothing
      tells apart tie (``A > B``, ``A > C``: ``A`` first, ``B = C``); where the pairs are
      silent but the scores differ the order is the aggregation's, not the experts'
      (``A > B > C``, ``D > C``: ``A, D, B, C``). :attr:`RankedItem.pairs` keeps the
      decided pairs themselves, the direct evidence a judge's ranking is also scored
      against.

    The full file gives 53 items (28 of 3 answers, 19 of 4, 1 of 5, 5 of 6; 151 decided
    pairs; the experts' majorities go round once, ``A > C > D > A`` in
    ``mt-bench-46-0``, among the 9 triples whose three pairs were all judged), the shipped
    sample 3; ids
    ``mt-bench-<first row's id>-<part>``.
    """
    return _mt_bench_rankings(load_mt_bench_human(path, on_skip=on_skip))


def _mt_bench_rankings(rows: Iterator[LabeledItem]) -> Iterator[RankedItem]:
    questions: dict[str, list[LabeledItem]] = {}
    for row in rows:
        questions.setdefault(row.item.question or "", []).append(row)
    for question, group in questions.items():
        texts: list[str] = []
        votes: dict[tuple[int, int], list[float]] = {}
        for row in group:
            first, second = (candidate.text for candidate in row.item.candidates)
            ends = []
            for text in (first, second):
                if text not in texts:
                    texts.append(text)
                ends.append(texts.index(text))
            i, j = ends
            if i == j:
                continue
            first_won = 1.0 if row.gold == (str(row.item.candidates[0].label),) else 0.0
            key, score = ((i, j), first_won) if i < j else ((j, i), 1 - first_won)
            votes.setdefault(key, []).append(score)
        parts = _parts(len(texts), list(votes))
        for number, part in enumerate(p for p in parts if len(p) >= 3):
            yield _mt_bench_item(question, group, texts, votes, part, number)


def _parts(count: int, edges: list[tuple[int, int]]) -> list[list[int]]:
    """The connected parts of ``count`` nodes joined by ``edges``, each in node order,
    in the order of their first node."""
    parent = list(range(count))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, j in edges:
        parent[root(i)] = root(j)
    parts: dict[int, list[int]] = {}
    for node in range(count):
        parts.setdefault(root(node), []).append(node)
    return list(parts.values())


def _mt_bench_item(
    question: str,
    group: list[LabeledItem],
    texts: list[str],
    votes: dict[tuple[int, int], list[float]],
    part: list[int],
    number: int,
) -> RankedItem:
    candidates = _candidates([texts[i] for i in part])
    label = {node: str(candidate.label) for node, candidate in zip(part, candidates, strict=True)}
    pairs: list[tuple[str, str]] = []
    for (i, j), scores in votes.items():
        mean = sum(scores) / len(scores)
        if i in label and mean != 0.5:
            pairs.append((label[i], label[j]) if mean > 0.5 else (label[j], label[i]))
    names = list(label.values())
    above = {(better, worse) for better, worse in pairs}
    for middle in names:  # Floyd-Warshall's closure
        for high in names:
            for low in names:
                if (high, middle) in above and (middle, low) in above:
                    above.add((high, low))
    strict = {(high, low) for high, low in above if high != low and (low, high) not in above}
    score = dict.fromkeys(names, 0)
    for high, low in strict:
        score[high] += 1
        score[low] -= 1
    first = group[0]
    key = (first.item.id or str(first.line)).removeprefix("llmbar-").removeprefix("mtbench-")
    return RankedItem(
        id=f"mt-bench-{key}-{number}",
        question=question,
        candidates=candidates,
        gold=from_ranks(score, higher_is_better=True),
        line=first.line,
        pairs=tuple(sorted(pairs)),
    )
