"""One answer written as several marked labels side by side: labels in brackets ("Answer:
(A)(C)", "(A) (C) (E)", "[B][D]") and LaTeX boxes ("\\boxed{A}, \\boxed{C}, and
\\boxed{E}", "$\\boxed{B}$ and $\\boxed{D}$"). Each mark alone reads as an answer of one
label, so the first or the last was read and the others dropped; written as one list
("A, C", "\\boxed{A, C, E}") the reader's usual forms read them all.

The rewrites keep the text's length, so offsets hold. A run is joined only when every
mark in it holds a label shown and nothing but separators stands between the marks;
"(A)(B) = 12", "P(A)(B)" and "\\boxed{A} or \\boxed{C}" stay as written."""

from __future__ import annotations

import itertools
import re

from prin_guard.reader._evidence import _Context

_BRACKETED = re.compile(
    r"(?<![\w)\]])(?:[(\[][^\S\n]*[A-Z][^\S\n]*[)\]][^\S\n]*){2,8}"
    r"(?![\w(\[])(?![^\S\n]*[=*/^+<>-])"
)
_ONE = re.compile(r"[(\[][^\S\n]*(?P<l>[A-Z])[^\S\n]*[)\]]")

_BOX = r"\\boxed\s*\{[^\S\n]*(?P<l>[A-Z])[^\S\n]*\}"
# between two boxes: commas, "and", "&", math's delimiters, spaces
_BETWEEN = r"(?:[^\S\n]|,|&|\$|\\\(|\\\)|\band\b)*"
_BOXES = re.compile(rf"{_BOX}(?:{_BETWEEN}{_BOX.replace('?P<l>', '')})+")
_BOX_ONE = re.compile(_BOX)


def side_by_side(text: str, ctx: _Context) -> str:
    """``text`` with runs of bracketed labels written as a list ("(A)(C)" as "A, C  ") and
    runs of boxed labels as one box ("\\boxed{A}, \\boxed{C}" as "\\boxed{A,        C}");
    the same length. Choice replies only."""
    if ctx.task != "choice" or ("(" not in text and "[" not in text and "\\boxed" not in text):
        return text
    out = list(text)
    for run in _BRACKETED.finditer(text):
        marks = list(_ONE.finditer(text, run.start(), run.end()))
        if not all(mark.group("l") in ctx.keys for mark in marks):
            continue
        for k, mark in enumerate(marks):
            for at in range(mark.start(), mark.end()):
                out[at] = " "
            out[mark.start()] = mark.group("l")
            if k + 1 < len(marks):
                out[mark.start() + 1] = ","
    if "\\boxed" in text:
        for run in _BOXES.finditer(text):
            marks = list(_BOX_ONE.finditer(text, run.start(), run.end()))
            if not all(mark.group("l") in ctx.keys for mark in marks):
                continue
            for before, mark in itertools.pairwise(marks):
                out[before.end() - 1] = " "  # the box closes after the last label
                for at in range(before.end(), mark.start()):
                    if text[at] in "$\\()":
                        out[at] = " "
                for at in range(mark.start(), mark.start("l")):
                    out[at] = " "
                between = text[before.end() : mark.start()]
                if not any(joint in between for joint in (",", "&", "and")):
                    out[before.end() - 1] = ","  # "\boxed{A} \boxed{C}": a list of two
    return "".join(out)
