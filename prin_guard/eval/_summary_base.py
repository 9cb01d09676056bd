"""The base models of evaluation and probe summaries.

:class:`SparseModel` leaves out of its dump the optional fields that were never
set: a section a run did not measure is absent from ``summary.json`` rather than
null, as the key was absent from the dict summaries this JSON layout comes from.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel, ConfigDict, SerializerFunctionWrapHandler, model_serializer

__all__ = ["SparseModel", "SummaryModel"]


class SummaryModel(BaseModel):
    """A frozen model: a summary is a record of a run, not a thing to edit."""

    model_config = ConfigDict(frozen=True)


class SparseModel(SummaryModel):
    """A model whose optional fields are left out of its dump when they were never set.

    A field given (or read from JSON) as None stays None; one never given is absent,
    as the key was absent from the dict summaries this JSON layout comes from.
    """

    @model_serializer(mode="wrap")
    def _drop_unset(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        data: dict[str, Any] = handler(self)
        unset = type(self).model_fields.keys() - self.model_fields_set
        return {key: value for key, value in data.items() if key not in unset}

    def to_json(self) -> str:
        """The JSON of ``summary.json``: ``model_dump(mode="json")``, indented by two."""
        # json.dumps rather than model_dump_json: byte for byte what the dict
        # summaries were written as (ASCII escapes, Python's float repr).
        return json.dumps(self.model_dump(mode="json"), indent=2)
