"""A reply that is one short line of labels, dressed: "A, C!", "A, C 👍", "→ A, C", "> A,
C", "{A, C}", "A | C", "1st and 3rd", "first & third", "2nd only". Each dress is common in a
terse answer and none changes which labels it names, so it is written over (the same length:
offsets hold) and the reader's usual forms read what is left. Only a line of at most
``_SHORT`` characters with no word but labels, ordinals and a few fillers; marks that carry
a side (✓, ✗, ✅, ❌) and a question mark stay, as they say something."""

from __future__ import annotations

import re
import unicodedata

from prin_guard.reader._evidence import _Context

_SHORT = 60
_ORDINALS = {
    "1st": 0, "first": 0, "2nd": 1, "second": 1, "3rd": 2, "third": 2, "4th": 3,
    "fourth": 3, "5th": 4, "fifth": 4, "6th": 5, "sixth": 5,
}  # fmt: skip
# not "options": "The second and fourth options." is read as written
_FILLERS = frozenset({"and", "only", "just", "the"})
_WORD = re.compile(r"[^\W\d_]+|\d+(?:st|nd|rd|th)?", re.IGNORECASE)
_SIDED = frozenset("✓✔✗✘✅❌☑☒")
_LEAD = re.compile(r"^(?P<lead>[^\S\n]*(?:→|->|=>|➡️?|>)[^\S\n]*)(?=\S)")
_BRACES = re.compile(r"^[^\S\n]*\{(?P<inner>[^{}\n]*)\}[^\S\n]*[.!]?[^\S\n]*$")
_BAR = re.compile(r"(?<=[A-Z])[^\S\n]*\|[^\S\n]*(?=[A-Z](?![\w-]))")


def _decoration(char: str) -> bool:
    """Whether a trailing character only decorates: "!", an emoji, a variation selector."""
    if char in _SIDED:
        return False
    return char == "!" or unicodedata.category(char) in ("So", "Sk", "Mn", "Cf")


def terse(text: str, ctx: _Context) -> str:
    """``text`` with a terse answer's dress written over by spaces, when it is one."""
    stripped = text.strip()
    if (
        ctx.task != "choice"
        or not stripped
        or len(stripped) > _SHORT
        or "\n" in stripped
        or "?" in stripped
        or any(char in _SIDED for char in stripped)
    ):
        return text
    words = _WORD.findall(stripped)
    ordinals = [word for word in words if word.lower() in _ORDINALS]
    for word in words:
        if word in ctx.keys or word.lower() in _FILLERS or word.lower() in _ORDINALS:
            continue
        return text  # a word of its own: not a terse answer
    out = list(text)
    end = len(text.rstrip())
    while end > 0 and (_decoration(text[end - 1]) or text[end - 1] in " \t"):
        end -= 1
        out[end] = " "
    if end < len(text.rstrip()) and end > 0 and text[end - 1] not in ".":
        out[end] = "."  # "A, C!" as "A, C."
    lead = _LEAD.match(text)
    if lead is not None:
        for at in range(*lead.span("lead")):
            out[at] = " "
    braces = _BRACES.match(text)
    if braces is not None:
        out[braces.start("inner") - 1] = " "
        out[braces.end("inner")] = " "
    for bar in _BAR.finditer(text):
        out[bar.start() + bar.group().index("|")] = ","
    if ordinals and not any(
        word.lower() in _ORDINALS for _, given in ctx.texts.pairs() for word in _WORD.findall(given)
    ):
        for found in _WORD.finditer(text):
            place = _ORDINALS.get(found.group().lower())
            if place is None:
                continue
            if place >= len(ctx.labels) or len(ctx.labels[place]) > len(found.group()):
                return text  # "6th" of five options: not read
            label = ctx.labels[place].ljust(len(found.group()))
            out[found.start() : found.end()] = label
    return "".join(out)
