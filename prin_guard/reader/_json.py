"""JSON in a judge's reply: the one scanner every reader finds JSON values with (labels,
declared formats, scores, aspects, rankings) and the one decoder reviews are read with.

**Where.** A value is tried where one may start: an object at a ``{`` followed by a key or
``}`` (``{"`` or ``{}``: a ``{`` before anything else is no JSON object, and trying it
would only spend a try), a list at any ``[``; with ``literals`` (AlpacaEval records its
rankings as Python literals) at any ``{`` or ``[``, and a value that is not JSON is read as
a Python literal up to the first closing bracket (within 4,097 characters).

**Which.** The reply's last values first: every reader reads the latest as the judge's
answer, or all of them to see that they agree. Values nested in another are found too
(``{"scores": {"a": 8}}`` is two), unless the reader asks for the ``outermost`` only.

**Bounds.** At most :data:`MAX_JSON_TRIES` values are decoded and at most
:data:`MAX_JSON_FAILURES` places fail to decode, per reply and reader: a failed decode
costs time in the length of the text before it (the decoder counts the lines for its
error), so a reply full of braces would otherwise be read in time quadratic in its length.
A value past the bounds is not read: an answer followed by 16 other JSON values is not
found (never a guess: another stage reads it, or the reply is unreadable).

**Decoding.** ``strict=False``: a line break or a tab written raw inside a string, as
llama.cpp's JSON-schema grammar lets a model write (its string rule admits control
characters) and as the AI Scientist's parser accepts, still decodes; nothing else is
relaxed, and the text is never repaired. A value nested too deep to decode is not one.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Callable, Iterator
from typing import Any

from prin_guard.reader._text import _Pattern

__all__ = [
    "DECODER",
    "MAX_JSON_FAILURES",
    "MAX_JSON_TRIES",
    "json_values",
    "jsonish",
    "members",
    "whole_json",
]

MAX_JSON_TRIES = 16
"""JSON values decoded per reply, from its end: bounds the cost of replies full of them."""

MAX_JSON_FAILURES = 64
"""Places per reply where a JSON value might start but none decodes: past them no more
are tried."""

DECODER = json.JSONDecoder(strict=False)

Decode = Callable[[str, int], tuple[Any, int]]
"""Decodes the value at a position of a text: the value and where it ends; raises
``ValueError`` (or ``RecursionError``) where none starts."""

_JSON_SPACE = _Pattern(r"[ \t\n\r]*")
_OBJECT_AT = _Pattern(r"\{(?=\s*[\"}])")
_CLOSERS = {"{": "}", "[": "]"}
_LITERAL_REACH = 4097


def json_values(
    text: str,
    openers: str = "{",
    *,
    outermost: bool = False,
    literals: bool = False,
    decode: Decode = DECODER.raw_decode,
) -> Iterator[tuple[int, int, Any]]:
    """The JSON values of ``text`` that start with one of ``openers`` (``"{"``, ``"["`` or
    both), as ``(start, end, value)``, the last first (see the module's docstring for
    where and how many). ``outermost``: not those inside another value found. ``decode``:
    what is read at each place (:func:`members` for an object's members and their
    places); with ``literals``, a Python literal where no JSON value decodes."""
    if not outermost:
        yield from _scan(text, openers, literals, decode)
        return
    kept: list[tuple[int, int, Any]] = []
    for start, end, value in _scan(text, openers, literals, decode):
        # a value found before (it starts later) inside this one is a part of it
        while kept and kept[-1][0] < end:
            kept.pop()
        kept.append((start, end, value))
    yield from kept  # the last first, as without ``outermost``


def _scan(
    text: str, openers: str, literals: bool, decode: Decode
) -> Iterator[tuple[int, int, Any]]:
    found = failed = 0
    for start in _starts(text, openers, literals):
        if found == MAX_JSON_TRIES or failed == MAX_JSON_FAILURES:
            return
        try:
            value, end = decode(text, start)
        except (ValueError, RecursionError):
            failed += 1
            literal = _literal(text, start) if literals else None
            if literal is None:
                continue
            value, end = literal
        found += 1
        yield start, end, value


_TRIES = MAX_JSON_TRIES + MAX_JSON_FAILURES
"""Every start is a try (a value or a failure): no more starts than this are reached."""


def _starts(text: str, openers: str, literals: bool) -> list[int]:
    """Where a value may start, the last first, as many as can be tried: every ``[``;
    every ``{`` that a key or a ``}`` follows (any other is no JSON object: not tried,
    and no try spent on it), or with ``literals`` every ``{``."""
    out: list[int] = []
    for opener in openers:
        if opener not in text:
            continue  # the usual reply: no brace
        if opener == "{" and not literals:
            # one pass of the regex, from the start (its literal "{" is found fast)
            out += [match.start() for match in _OBJECT_AT.finditer(text)][-_TRIES:]
            continue
        pos = len(text)
        for _ in range(_TRIES):
            pos = text.rfind(opener, 0, pos)
            if pos < 0:
                break
            out.append(pos)
    out.sort(reverse=True)
    return out[:_TRIES]


def _literal(text: str, start: int) -> tuple[Any, int] | None:
    """The Python literal at ``text[start]`` up to its first closing bracket, and where it
    ends; None when there is none."""
    stop = text.find(_CLOSERS[text[start]], start, start + _LITERAL_REACH)
    if stop < 0:
        return None
    try:
        return ast.literal_eval(text[start : stop + 1]), stop + 1
    except (ValueError, SyntaxError, RecursionError, MemoryError):
        return None


def _skip_space(text: str, pos: int) -> int:
    space = _JSON_SPACE.match(text, pos)
    return space.end() if space is not None else pos


def members(text: str, start: int) -> tuple[list[tuple[str, Any, int, int]], int]:
    """The top-level members of the JSON object at ``text[start]`` (key, value and the
    value's offsets, every one: a key given twice is two members) and where the object
    ends; ``ValueError`` when none is there."""
    out: list[tuple[str, Any, int, int]] = []
    if not text.startswith("{", start):
        raise ValueError("not an object")
    pos = _skip_space(text, start + 1)
    if text.startswith("}", pos):
        return out, pos + 1
    while True:
        key, pos = DECODER.raw_decode(text, pos)
        pos = _skip_space(text, pos)
        if not isinstance(key, str) or not text.startswith(":", pos):
            raise ValueError("not a member")
        value_start = _skip_space(text, pos + 1)
        value, pos = DECODER.raw_decode(text, value_start)
        out.append((key, value, value_start, pos))
        pos = _skip_space(text, pos)
        if text.startswith("}", pos):
            return out, pos + 1
        if not text.startswith(",", pos):
            raise ValueError("not an object")
        pos = _skip_space(text, pos + 1)


def whole_json(text: str, decode: Decode = DECODER.raw_decode) -> Any:
    """The JSON value ``text`` is, white space around it aside (as ``json.loads`` reads
    it); ``None`` when it is not one value and nothing else."""
    try:
        value, end = decode(text, _skip_space(text, 0))
    except (ValueError, RecursionError):
        return None
    return value if _skip_space(text, end) == len(text) else None


# A comment after a JSON token ("true,  // a tuple") or on a line of its own; not "//" in
# "http://", which a colon precedes
_COMMENT = _Pattern(r"(?:(?<=[,{\[\]}\"0-9el])|^)[^\S\n]*//[^\n]*", re.MULTILINE)
_SINGLE_QUOTED = _Pattern(r"\{[^\S\n]*'")
_PYTHON_WORDS = _Pattern(r"(?<![\w'\"])(?:True|False|None)(?![\w'\"])")
_AS_JSON = {"True": "true", "False": "false", "None": "null", "'": '"', '"': "'"}


def jsonish(text: str) -> str:
    """``text`` with the JSON a judge writes loosely made JSON, offsets kept (every change
    is of the same length): ``//`` comments blanked, and an object written as a Python
    literal (``{'answer': 'B', 'ok': True}``) in JSON's quotes and words. The text is
    otherwise unchanged; a value still not JSON is not read."""
    if "//" not in text and "{" not in text:
        return text
    out = _COMMENT.compiled.sub(lambda m: " " * len(m.group()), text) if "//" in text else text
    if "'" not in out:
        return out
    parts: list[str] = []
    pos = 0
    for match in _SINGLE_QUOTED.finditer(out):
        if match.start() < pos:
            continue  # inside the literal just converted
        end = _closing(out, match.start())
        if end is None:
            continue
        body = out[match.start() : end]
        body = _PYTHON_WORDS.compiled.sub(lambda m: _AS_JSON[m.group()], body)
        parts += [out[pos : match.start()], body.translate(_QUOTES)]
        pos = end
    return "".join([*parts, out[pos:]]) if parts else out


_QUOTES = str.maketrans({"'": '"', '"': "'"})


def _closing(text: str, start: int) -> int | None:
    """Where the braces opened at ``text[start]`` close (after the ``}``), on the same
    few lines; None when they do not within :data:`_LITERAL_REACH`."""
    depth = 0
    for i in range(start, min(len(text), start + _LITERAL_REACH)):
        if text[i] == "{":
            depth += 1
        elif text[i] == "}":
            depth -= 1
            if not depth:
                return i + 1
    return None
