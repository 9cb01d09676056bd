"""One output row per input item: the stable column set of ``prin-guard grade``.

:func:`verdict_row` flattens a :class:`~prin_guard.Verdict` into plain values;
:func:`invalid_row` is the row of an input row that could not be read or failed
validation. Both have exactly the columns of :func:`columns`, in that order:

======================  =========  ====================================================
column                  type       meaning
======================  =========  ====================================================
``id``                  str        the item's ``id``, or its content hash (stable across
                                   runs: what resuming matches on); a row that could
                                   not be read: its ``id`` field, else ``line:<n>``
``line``                int        where the row is in the input: the line a JSONL row
                                   or a CSV record starts on, a Parquet row's number
                                   (all from 1)
``correct``             list[str]  the labels the verdict calls correct
``consistent``          bool       every check passed and every leg was read
``score_<check>``       float      one per :class:`~prin_guard.models.Scores` field
                                   (``score_prin``, ``score_order_inconsistency``,
                                   ``score_panel_agreement``, ``score_confidence``);
                                   empty where the check did not run
``flags``               list[str]  the verdict's flags (``invalid_item`` for a bad row)
``accepted``            bool       the acceptance rule's decision; empty without a rule
``decision_<field>``    ...        the rest of :class:`~prin_guard.models.Decision`
                                   (``decision_score``, ``decision_rule``,
                                   ``decision_tier``, ``decision_tiers_asked``)
``judge_calls``         int        legs the verdict asked for (cache hits included)
``cached``              bool       every answer came from the cache
``prompt_tokens``       int        summed over the verdict's legs, where known
``completion_tokens``   int
``cost_usd``            float
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
Parquet they are lists, booleans and nulls. The score and decision columns follow the
models' fields, so a new check adds a column at its place and renames none.
"""

from __future__ import annotations

import json
import types
import typing
from typing import Any, Final

from prin_guard._models import Decision, Leg, Scores, Verdict

__all__ = ["columns", "csv_value", "invalid_row", "verdict_row"]

_DECISION_FIELDS: Final = tuple(Decision.model_fields)
_SCORE_FIELDS: Final = tuple(Scores.model_fields)
_LIST_COLUMNS: Final = frozenset({"correct", "flags"})


def _decision_column(field: str) -> str:
    return field if field == "accepted" else f"decision_{field}"


def _column_types() -> dict[str, str]:
    """Every column and its type: ``str``, ``int``, ``float``, ``bool``, ``list`` or ``legs``."""
    out: dict[str, str] = {"id": "str", "line": "int", "correct": "list", "consistent": "bool"}
    out.update({f"score_{name}": "float" for name in _SCORE_FIELDS})
    out["flags"] = "list"
    for name, info in Decision.model_fields.items():
        out[_decision_column(name)] = _scalar(info.annotation)
    out.update(
        {
            "judge_calls": "int",
            "cached": "bool",
            "prompt_tokens": "int",
            "completion_tokens": "int",
            "cost_usd": "float",
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


def verdict_row(verdict: Verdict, *, line: int, with_legs: bool = False) -> dict[str, Any]:
    """The output row of ``verdict``, the verdict of the item at ``line``."""
    row: dict[str, Any] = {
        "id": verdict.item_id,
        "line": line,
        "correct": list(verdict.correct),
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
            "prompt_tokens": usage.prompt_tokens,
            "completion_tokens": usage.completion_tokens,
            "cost_usd": usage.cost_usd,
            "error_kind": None if error is None else error.kind,
            "error": None if error is None else error.message,
            "error_field": None if error is None else error.field,
        }
    )
    if with_legs:
        row["legs"] = _legs(verdict)
    return row


def invalid_row(
    line: int,
    message: str,
    *,
    item_id: str | None = None,
    field: str | None = None,
    with_legs: bool = False,
) -> dict[str, Any]:
    """The row of an input row that could not be read or failed validation."""
    row = dict.fromkeys(columns(with_legs))
    row.update(
        {
            "id": item_id if item_id is not None else f"line:{line}",
            "line": line,
            "correct": [],
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
    return row


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


def csv_value(column: str, value: Any) -> Any:
    """A row's value as a CSV cell: lists joined with ``;``, legs as JSON, None empty."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if column in _LIST_COLUMNS:
        return ";".join(value)
    if column == "legs":
        return json.dumps(value, ensure_ascii=False)
    return value
