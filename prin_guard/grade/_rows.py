"""One output row per input item: the stable column set of ``prin-guard grade``.

:func:`verdict_row` flattens a :class:`~prin_guard.Verdict` into plain values;
:func:`invalid_row` is the row of an input row that could not be read or failed
validation. Both have exactly the columns of :func:`columns`, in that order:

======================  =========  ====================================================
column                  type       meaning
======================  =========  ====================================================
``id``                  str        the item's ``id``, or its content hash (stable across
                                   runs); a row that could not be read: its ``id``
                                   field, else ``line:<n>`` (also when the ``id`` is
                                   not valid Unicode text)
``line``                int        where the row is in the input: the line a JSONL row
                                   or a CSV record starts on, a Parquet row's number
                                   (all from 1). Resuming skips a line that has a row,
                                   so rows sharing an ``id`` are each judged once
``input_sha``           str        16 hex digits of the sha256 of the canonical JSON of
                                   what was judged (the item's content, labels assigned,
                                   its ``id`` aside; a bad row: its fields as read;
                                   empty for a row that could not be read). Resuming
                                   tells a line whose ``id`` or ``input_sha`` differs
                                   now (an edited question) as *changed*: it keeps its
                                   old row and is not judged again; the summary names
                                   it (``changed_lines``) and a ``grade_changed_rows``
                                   warning is logged. Remove its row, or grade into a
                                   new file, to judge it again
``task``                str        ``choice``, ``pairwise``, ``checklist``, ``rating``
                                   or ``ranking``
``correct``             list[str]  the labels the verdict calls correct (a checklist's
                                   met criteria or supported claims; a pairwise winner,
                                   or both responses in a tie)
``correct_texts``       list[str]  their texts
``winner``              str        pairwise: the better response's label; empty in a tie
                                   or without a verdict
``winner_text``         str        its text
``tie``                 bool       pairwise: both answers call the responses equal
``score``               float      checklist: the weighted share of candidates met
``rating``              float      rating: the score both legs agree on (their mean
                                   within the scale's tolerance); empty when they
                                   disagree, a leg was unread, or for the other tasks
``rating_direct``       float      rating: the score read from the direct leg (one
                                   judge's; empty for a panel, aspects, or an unread leg)
``rating_mirrored``     float      rating: the score read from the mirrored leg, as the
                                   judge gave it on the mirrored scale (``min + max - it``
                                   is the direct leg's equivalent)
``aspect_ratings``      list[str]  a rating with aspects: each as ``<name>:<rating>``
                                   (``<name>:`` where its legs disagree); a review: each
                                   score of its form (``rating``: the overall score)
``ranking``             str        ranking: the consensus of the legs, best first,
                                   ``B > A = C`` (``=`` a tie); empty without one
``best``                str        ranking: the label ranked best, alone in first place
``worst``               str        ranking: the label ranked worst, alone in last place
``review_decision``     str        review: ``accept`` or ``reject``, the decision both
                                   legs give; empty where they disagree or one is unread
``statuses``            list[str]  each candidate as ``<label>:<status>``, in the item's
                                   order: ``correct``/``incorrect``, ``better``/``worse``,
                                   ``met``/``failed``, or ``contradicted``
``consistent``          bool       every check passed and every leg was read
``score_<check>``       float      one per :class:`~prin_guard.models.Scores` field
                                   (``score_prin``, ``score_order_inconsistency``,
                                   ``score_probe_move``, ``score_panel_agreement``,
                                   ``score_confidence``,
                                   ``score_direct_confidence``, a ranking's
                                   ``score_legs_tau``: the legs' agreement,
                                   ``score_orders_tau``, ``score_position_bias``,
                                   ``score_tournament_tau``);
                                   empty where the check did not run
``flags``               list[str]  the verdict's flags (``invalid_item`` for a bad row)
``accepted``            bool       the acceptance rule's decision; empty without a rule
``decision_<field>``    ...        the rest of :class:`~prin_guard.models.Decision`
                                   (``decision_score``, ``decision_rule``,
                                   ``decision_tier``, ``decision_tiers_asked``)
``judge_calls``         int        legs the verdict asked for (cache hits included)
``cached``              bool       every answer came from the cache
``selected``            str        with ``reverse_legs='uncertain'``: ``confident``
                                   (the direct leg alone), ``uncertain`` or
                                   ``monitored`` (every leg); empty otherwise
``prompt_tokens``       int        what was paid now (``Verdict.usage``): summed over the
                                   legs not served from prin-guard's cache; empty
                                   where the judge did not report it
``completion_tokens``   int
``cost_usd``            float
cached_prompt_tokens    int        of the prompt tokens, those a provider's prompt
                                   cache served
``cache_write_tokens``  int        of the prompt tokens, those written to a provider's
                                   prompt cache
``saved_cost_usd``      float      what the answers from prin-guard's cache cost when
                                   first asked (``Verdict.saved_usage``)
``premium``             float      the guard's premium (``Verdict.premium``): every
                                   answer's cost over the direct leg's
``error_kind``          str        ``input`` or ``judge`` when the verdict has no legs
``error``               str        why
``error_field``         str        the offending field of a bad item
``legs``                list       only with ``with_legs``: every leg's raw reply as
                                   ``{"name", "raw_text"}`` (``direct``, ``reverse``,
                                   ``permuted:direct``, ``<member>:direct``,
                                   ``probe:direct:1``, ...)
======================  =========  ====================================================

In CSV, lists are joined with ``;`` (``correct``, ``flags``), ``legs`` is JSON,
booleans are ``true``/``false`` and a missing value is an empty cell; in JSONL and
Parquet they are lists, booleans and nulls. A CSV text cell (the ``str`` and ``list``
columns) that starts with ``=``, ``+``, ``-``, ``@``, a tab, a carriage return or ``'``
gets a ``'`` in front, so a spreadsheet shows it as text rather than running it as a
formula (OWASP's advice against CSV injection); numeric columns are written as they are,
and reading a CSV output back (resuming) drops that ``'``. Text that is not valid
Unicode (a judge's reply with a lone surrogate) is written with ``\\udXXX`` escapes.
The score and decision columns follow the models' fields, so a new check adds a column
at its place and renames none.

:func:`plan_row` is the one path from an input row to what grading does with it (both
engines call it): judge its item, write its invalid row, or skip it as done.
"""

from __future__ import annotations

import hashlib
import json
import types
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final, TypeAlias

from prin_guard._infra._json import dumps
from prin_guard._output._terminal import ranking_text
from prin_guard._prompting._rating import RatingItem
from prin_guard._review import ReviewForm
from prin_guard._review._item import ReviewItem
from prin_guard._route._guard import claimed_identity
from prin_guard.errors import InvalidItemError
from prin_guard.grade._read import RawRow
from prin_guard.models import Decision, Item, Leg, RankingItem, Scores, Verdict
from prin_guard.tasks._ratings import rating_id

__all__ = [
    "Done",
    "RowPlan",
    "columns",
    "csv_text",
    "csv_value",
    "input_sha",
    "invalid_row",
    "plan_row",
    "verdict_row",
]

Done: TypeAlias = dict[int, tuple[str, str | None]]
"""What an output holds: for each input line that has a row, that row's ``id`` and
``input_sha``."""

_DECISION_FIELDS: Final = tuple(Decision.model_fields)
_SCORE_FIELDS: Final = tuple(Scores.model_fields)
_LIST_COLUMNS: Final = frozenset(
    {"correct", "correct_texts", "aspect_ratings", "statuses", "flags"}
)
_FORMULA_STARTS: Final = ("=", "+", "-", "@", "\t", "\r", "'")


def _decision_column(field: str) -> str:
    return field if field == "accepted" else f"decision_{field}"


def _column_types() -> dict[str, str]:
    """Every column and its type: ``str``, ``int``, ``float``, ``bool``, ``list`` or ``legs``."""
    out: dict[str, str] = {
        "id": "str",
        "line": "int",
        "input_sha": "str",
        "task": "str",
        "correct": "list",
        "correct_texts": "list",
        "winner": "str",
        "winner_text": "str",
        "tie": "bool",
        "score": "float",
        "rating": "float",
        "rating_direct": "float",
        "rating_mirrored": "float",
        "aspect_ratings": "list",
        "ranking": "str",
        "best": "str",
        "worst": "str",
        "review_decision": "str",
        "statuses": "list",
        "consistent": "bool",
    }
    out.update({f"score_{name}": "float" for name in _SCORE_FIELDS})
    out["flags"] = "list"
    for name, info in Decision.model_fields.items():
        out[_decision_column(name)] = _scalar(info.annotation)
    out.update(
        {
            "judge_calls": "int",
            "cached": "bool",
            "selected": "str",
            "prompt_tokens": "int",
            "completion_tokens": "int",
            "cost_usd": "float",
            "cached_prompt_tokens": "int",
            "cache_write_tokens": "int",
            "saved_cost_usd": "float",
            "premium": "float",
            "error_kind": "str",
            "error": "str",
            "error_field": "str",
        }
    )
    return out


def _scalar(annotation: Any) -> str:
    """The column type of a model field: its type with ``None`` taken out."""
    if isinstance(annotation, types.UnionType) or typing.get_origin(annotation) is typing.Union:
        rest = [a for a in typing.get_args(annotation) if a is not type(None)]
        return _scalar(rest[0]) if len(rest) == 1 else "str"
    names: dict[Any, str] = {bool: "bool", int: "int", float: "float", str: "str"}
    return names.get(annotation, "str")


COLUMN_TYPES: Final = _column_types()


def columns(with_legs: bool = False) -> dict[str, str]:
    """The output columns in order, each with its type (see the module docstring)."""
    return {**COLUMN_TYPES, "legs": "legs"} if with_legs else dict(COLUMN_TYPES)


# -- from an input row to what grading does with it -------------------------------------


@dataclass(frozen=True, slots=True)
class RowPlan:
    """What grading does with one input row: judge :attr:`item`, write :attr:`row` (the
    row of a bad input row), or neither: its line has a row in the output already."""

    line: int
    input_sha: str | None
    item: Item | RatingItem | RankingItem | ReviewItem | None = None
    row: dict[str, Any] | None = None
    changed: bool = False
    """Done already, but with another ``id`` or ``input_sha`` than now: the input
    changed since its row was written (the row is not judged again)."""


def plan_row(
    raw: RawRow,
    done: Done,
    validate: Callable[[Mapping[str, Any]], Item | RatingItem | RankingItem | ReviewItem],
    *,
    with_legs: bool = False,
) -> RowPlan:
    """What to do with ``raw``: the one place both engines decide to judge, to write an
    invalid row or to skip (a row is done when its line has a row in ``done``; it is
    told as changed when that row's ``id`` or ``input_sha`` differs from the row's now).

    ``validate`` is the guard's (:meth:`~prin_guard.Guard.validate`): an item the guard
    cannot ask (too long, of a task its template does not ask about) is an invalid row
    like an item that is not one, named by its line and why, with the task it says it
    has. Its id and hash are its row's own (the ``id`` field, else ``line:<n>``; the
    fields as read), so a run again finds it as it was, not changed.
    """
    item: Item | RatingItem | RankingItem | ReviewItem | None = None
    error, field, sha = raw.error, raw.field, None
    key = raw.item_id or f"line:{raw.line}"
    task: str | None = None
    if raw.fields is not None:
        try:
            item = validate(raw.fields)
        except InvalidItemError as exc:
            error, field, sha = str(exc), exc.field, input_sha(raw.fields)
            task = claimed_identity(raw.fields, key)[1]
    if isinstance(item, RatingItem):
        key, sha = rating_id(item), input_sha(item)
    elif item is not None:  # a label or a review item: its key
        key, sha = item.key, input_sha(item)
    written = done.get(raw.line)
    if written is not None:
        return RowPlan(raw.line, sha, changed=tuple(written) != (key, sha))
    if item is not None:
        return RowPlan(raw.line, sha, item=item)
    row = invalid_row(
        raw.line,
        error or "unreadable row",
        item_id=key,
        field=field,
        input_sha=sha,
        task=task,
        with_legs=with_legs,
    )
    return RowPlan(raw.line, sha, row=row)


def input_sha(content: Item | RatingItem | RankingItem | ReviewItem | Mapping[str, Any]) -> str:
    """A short hash of what a row holds, its ``id`` aside: an item's content (labels
    assigned), or a bad row's fields as read. The canonical JSON of cache keys."""
    if isinstance(content, RatingItem | RankingItem | ReviewItem):
        data: Any = {key: value for key, value in content.as_dict().items() if key != "id"}
        if isinstance(data.get("form"), ReviewForm):  # a form of one's own: by its content
            data["form"] = data["form"].model_dump(mode="json")
    elif isinstance(content, Item):
        # an item that does not say its kind hashes as it did before items could
        unsaid = {"kind"} if content.kind is None else set()
        data = content.model_dump(mode="json", exclude={"id", *unsaid})
    else:
        data = {key: value for key, value in content.items() if key != "id"}
    canonical = json.dumps(data, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(canonical.encode()).hexdigest()[:16]


# -- output rows ------------------------------------------------------------------------


def verdict_row(
    verdict: Verdict, *, line: int, input_sha: str | None = None, with_legs: bool = False
) -> dict[str, Any]:
    """The output row of ``verdict``, the verdict of the item at ``line`` (whose content
    hashes to ``input_sha``)."""
    row: dict[str, Any] = {
        "id": verdict.item_id,
        "line": line,
        "input_sha": input_sha,
        "task": verdict.task,
        "correct": list(verdict.correct),
        "correct_texts": list(verdict.correct_texts),
        "winner": verdict.winner,
        "winner_text": verdict.winner_text,
        "tie": verdict.tie if verdict.task == "pairwise" else None,
        "score": verdict.score,
        "rating": verdict.rating,
        "rating_direct": None if verdict.direct is None else verdict.direct.score,
        "rating_mirrored": None if verdict.reverse is None else verdict.reverse.score,
        "aspect_ratings": [
            f"{name}:{'' if aspect.rating is None else f'{aspect.rating:g}'}"
            for name, aspect in verdict.aspects.items()
        ],
        "ranking": ranking_text(verdict.ranking) or None,
        "best": verdict.best,
        "worst": verdict.worst,
        "review_decision": None if verdict.review is None else verdict.review.decision,
        "statuses": [f"{c.label}:{c.status}" for c in verdict.candidates],
        "consistent": verdict.consistent,
    }
    scores = verdict.scores
    row.update({f"score_{name}": getattr(scores, name) for name in _SCORE_FIELDS})
    if scores.prin is None and verdict.prin_score is not None:
        row["score_prin"] = verdict.prin_score
    row["flags"] = [flag.value for flag in verdict.flags]
    decision = verdict.decision
    row.update(
        {
            _decision_column(name): None if decision is None else getattr(decision, name)
            for name in _DECISION_FIELDS
        }
    )
    usage, error = verdict.usage, verdict.error
    row.update(
        {
            "judge_calls": verdict.judge_calls,
            "cached": verdict.cached,
            "selected": verdict.selected,
            "prompt_tokens": usage.prompt_tokens,
            "completion_tokens": usage.completion_tokens,
            "cost_usd": usage.cost_usd,
            "cached_prompt_tokens": usage.cached_prompt_tokens,
            "cache_write_tokens": usage.cache_write_tokens,
            "saved_cost_usd": verdict.saved_usage.cost_usd,
            "premium": verdict.premium,
            "error_kind": None if error is None else error.kind,
            "error": None if error is None else error.message,
            "error_field": None if error is None else error.field,
        }
    )
    if with_legs:
        row["legs"] = _legs(verdict)
    return _writable(row)


def invalid_row(
    line: int,
    message: str,
    *,
    item_id: str | None = None,
    field: str | None = None,
    input_sha: str | None = None,
    task: str | None = None,
    with_legs: bool = False,
) -> dict[str, Any]:
    """The row of an input row that could not be read or failed validation (``task``:
    the one it says it has, if any)."""
    row = dict.fromkeys(columns(with_legs))
    row.update(
        {
            "id": item_id if item_id is not None else f"line:{line}",
            "line": line,
            "input_sha": input_sha,
            "task": task,
            "correct": [],
            "correct_texts": [],
            "statuses": [],
            "consistent": False,
            "flags": ["invalid_item"],
            "judge_calls": 0,
            "cached": False,
            "error_kind": "input",
            "error": message,
            "error_field": field,
        }
    )
    if with_legs:
        row["legs"] = []
    return _writable(row)


def _legs(verdict: Verdict) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []

    def add(prefix: str, legs: tuple[Leg | None, ...]) -> None:
        for leg in legs:
            if leg is not None:
                out.append({"name": prefix + leg.polarity.value, "raw_text": leg.raw_text})

    add("", (verdict.direct, verdict.reverse))
    add("permuted:", verdict.permuted)
    for member in verdict.members:
        add(f"{member.judge}:", (member.direct, member.reverse))
        add(f"{member.judge}:permuted:", member.permuted)
    for entry in verdict.probe:
        out.append(
            {"name": f"probe:{entry.polarity.value}:{entry.round}", "raw_text": entry.raw_text}
        )
    return out


def _writable(row: dict[str, Any]) -> dict[str, Any]:
    """``row`` with every text encodable as UTF-8: one lone surrogate (in a judge's reply,
    an error message) must not stop the file."""
    for name, value in row.items():
        if isinstance(value, str):
            row[name] = _text(value)
        elif isinstance(value, list):
            row[name] = [
                _text(entry)
                if isinstance(entry, str)
                else {k: _text(v) if isinstance(v, str) else v for k, v in entry.items()}
                if isinstance(entry, dict)
                else entry
                for entry in value
            ]
    return row


def _text(text: str) -> str:
    if text.isascii():
        return text
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-8", "backslashreplace").decode("utf-8")
    return text


def csv_value(column: str, value: Any) -> Any:
    """A row's value as a CSV cell: lists joined with ``;``, legs as JSON, None empty,
    text that a spreadsheet would run as a formula behind a ``'``."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if column in _LIST_COLUMNS:
        value = ";".join(value)
    elif column == "legs":
        return dumps(value, ensure_ascii=False)
    if isinstance(value, str) and value.startswith(_FORMULA_STARTS):
        return "'" + value
    return value


def csv_text(cell: str) -> str:
    """A text cell of a CSV output as it was before :func:`csv_value` guarded it."""
    return cell[1:] if cell.startswith("'") else cell
