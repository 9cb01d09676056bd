"""Loaders for benchmark files in their original formats.

A loader yields :class:`LabeledItem`: an :class:`~prin_guard.Item` and the gold
labels. A malformed row is skipped and reported with its line number through
``on_skip`` (by default a ``dataset_row_skipped`` warning event); the rest of
the file still loads.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from pydantic import ValidationError

from prin_guard._events import log
from prin_guard._exceptions import UsageError
from prin_guard._models import Candidate, Item

__all__ = ["LabeledItem", "load_mathqa", "sample_path"]

SkipHandler = Callable[[int, str], None]


@dataclass(frozen=True, slots=True)
class LabeledItem:
    item: Item
    gold: tuple[str, ...]
    """Labels of the correct candidates."""
    line: int
    """1-based line (or record) number in the source file."""


def _warn_skip(line: int, reason: str) -> None:
    log().warning("dataset_row_skipped", line=line, reason=reason)


def sample_path(name: str) -> Path:
    """The small sample of a dataset that ships with the package."""
    samples = {"mathqa": ("mathqa", "sample.jsonl")}
    if name not in samples:
        raise UsageError(f"dataset: no shipped sample {name!r}; available: {', '.join(samples)}")
    folder, filename = samples[name]
    return Path(str(resources.files("prin_guard") / "data" / folder / filename))


# "a ) 38 , b ) 27.675 , c ) 30": option text may itself contain commas.
_MATHQA_OPTION = re.compile(r"(?:^|,)\s*([a-e])\s*\)\s*")


def _mathqa_options(raw: str) -> list[tuple[str, str]]:
    text = raw.strip()
    if text.startswith("["):
        values = ast.literal_eval(text)
        if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
            raise ValueError("options list literal is not a list of strings")
        out = []
        for value in values:
            match = re.match(r"\s*([a-e])\s*\)\s*(.*)$", value, re.DOTALL)
            if not match:
                raise ValueError(f"option {value!r} has no letter")
            out.append((match.group(1), match.group(2).strip()))
        return out
    parts = _MATHQA_OPTION.split(text)
    # split gives ['', 'a', '38 ', 'b', '27.675 ', ...]
    if parts[0].strip():
        raise ValueError("options do not start with 'a )'")
    letters, texts = parts[1::2], parts[2::2]
    return [
        (letter, body.strip().rstrip(",").strip())
        for letter, body in zip(letters, texts, strict=True)
    ]


def load_mathqa(path: str | Path, *, on_skip: SkipHandler = _warn_skip) -> Iterator[LabeledItem]:
    """MathQA in the math-evaluation-harness JSONL format (letter key in ``correct``)."""
    file = Path(path)
    if not file.is_file():
        raise UsageError(f"path: no such file {str(file)!r}")
    with file.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
                options = _mathqa_options(row["options"])
                letters = [letter for letter, _ in options]
                if letters != list("abcde")[: len(letters)] or len(letters) < 2:
                    raise ValueError(f"option letters {letters} are not a, b, c, ...")
                correct = str(row["correct"]).strip().lower()
                if correct not in letters:
                    raise ValueError(f"answer key {correct!r} is not an option")
                item = Item(
                    question=row["problem"],
                    candidates=tuple(
                        Candidate(label=letter.upper(), text=text) for letter, text in options
                    ),
                    id=f"mathqa-{number}",
                )
            except ValidationError as exc:
                first = exc.errors()[0]
                on_skip(number, first["msg"].removeprefix("Value error, "))
                continue
            except (ValueError, KeyError, TypeError, SyntaxError) as exc:
                on_skip(number, f"{type(exc).__name__}: {exc}")
                continue
            yield LabeledItem(item=item, gold=(correct.upper(),), line=number)
