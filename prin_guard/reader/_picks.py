"""A pick in the first person that names candidates by their texts: "I'd go with neon and
argon — both ...", "I'll pick Paris and Rome.", "I would choose Python, Rust and Haskell."
The labels' form ("I'd go with A and C") is read with the other first-person picks in
``_prose``; this one reads the object of the verb as a subject of candidate texts, every
part of it a candidate ("neon and argon"), or nothing ("I'd go with the noble ones")."""

from __future__ import annotations

import re
from collections.abc import Iterator

from prin_guard.reader._answers import _named
from prin_guard.reader._evidence import _Context, _Reading

# "I", its auxiliaries, the verb: "I'd go with", "I'll pick", "I am going with", "I choose"
FIRST_PERSON = (
    r"(?<![\w-])I(?:\s+would|'d|’d|\s+will|'ll|’ll|'m|’m|\s+am|\s+must|\s+therefore|\s+thus"
    r"|\s+definitely|\s+ultimately|\s+overall)*\s+"
)
_VERB = r"(?:choose|pick|select|go\s+with|going\s+with)"
_TEXT_PICK = re.compile(
    rf"{FIRST_PERSON}{_VERB}\s+(?P<s>[^.;:!?\n—–()]{{1,200}}?)"
    r"(?=\s*(?:[.;:!?\n—–(]|\s-\s|$|,\s+(?:both|since|because|as|which|each|all|they)\b))",
)


def picked_texts(text: str, ctx: _Context) -> Iterator[tuple[int, int, _Reading]]:
    """Where a first-person pick names candidates by their texts, and which: the verb's
    start, the object's end, and the candidates (the object's span)."""
    if ctx.task != "choice" or "I" not in text:
        return
    for match in _TEXT_PICK.finditer(text):
        subject = match.group("s")
        if len(subject.strip()) <= 4 and subject.strip().isupper():
            continue  # labels: the labels' own pick reads them
        named = _named(subject, ctx)
        if named:
            yield match.start(), match.end("s"), _Reading(frozenset(named), match.span("s"))


_AS_SIDE = re.compile(
    r"\s*,?\s+as\s+(?:the\s+|my\s+)?(?P<w>[A-Za-z-]+)\s+(?:ones?|options?|answers?|choices?)\b",
    re.IGNORECASE,
)


def pick_side(text: str, end: int, ctx: _Context) -> int:
    """The side a pick ending at ``end`` takes: the one its words give ("I'll select B and
    D as the incorrect ones": -1), else the direct question's (1)."""
    found = _AS_SIDE.match(text, end)
    sign = ctx.vocab.sign(found.group("w")) if found is not None else 0
    return sign or 1
