"""Asides in brackets that name no candidate: "Nitrogen (group 15) and chlorine (group 17,
a halogen) are not noble gases." A subject is read part by part, and an aside ("group
17, a halogen") is no part of it; one that names a candidate ("Shark (B)") is kept, as it
tells which candidate the subject is."""

from __future__ import annotations

import re

from prin_guard.reader._evidence import _Context

_ASIDE = re.compile(r"[^\S\n]*\((?P<in>[^()\n]{2,80})\)")


def without_asides(text: str, ctx: _Context) -> str:
    """``text`` with bracketed asides that are no label written over by spaces (the same
    length: offsets hold)."""
    if "(" not in text:
        return text
    out = list(text)
    for found in _ASIDE.finditer(text):
        inner = found.group("in").strip(" \t*_`")
        if inner.upper() in ctx.keys or ctx.texts.exact(inner):
            continue  # "Shark (B)", "B (Shark)": the candidate named twice
        for at in range(found.start(), found.end()):
            out[at] = " "
    return "".join(out)
