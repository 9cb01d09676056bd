"""A line that gives both sides at once, group by group: "A, C, D incorrect; B (x = 5)
correct", "A and C correct, B and D incorrect", "20 and 30 wrong; 16 and 25 right".

Each group is candidates (labels or texts, a parenthesis after one aside) followed by one
status word; the groups are cut at a semicolon, or at a comma after a status word. The
line reads as every candidate's status, so the leg's answer is the group of its side,
whichever group the line writes first (read as a list, the line's last labels would be
taken for the answer: B of "A, C, D incorrect; B correct"). A line that puts one
candidate in two groups, or that has one side only, is no such line."""

from __future__ import annotations

from prin_guard.reader._answers import _only_labels
from prin_guard.reader._evidence import _Context
from prin_guard.reader._text import _Pattern, _strip_bounds
from prin_guard.reader._vocab import _status_sign

__all__ = ["sided_groups"]

# A group's end: its status word (perhaps negated, after "is"/"are"), then a cut or the
# line's end
_GROUP_END = _Pattern(
    r"[^\S\n]+(?:(?:is|are)[^\S\n]+)?(?P<s>(?:not[^\S\n]+)?[A-Za-z]+)[^\S\n]*(?P<cut>[;,.]|$)"
)
_LEAD = _Pattern(r"[^\S\n]*[*_]*[A-Za-z]+(?:[^\S\n]+[A-Za-z]+)?[*_]*:[*_]*[^\S\n]*")
_ASIDE = _Pattern(r"\([^()\n]{0,60}\)")
_MAX_GROUPS = 6
_SIDES = (1, -1)


def sided_groups(text: str, lo: int, hi: int, ctx: _Context) -> list[tuple[str, int]] | None:
    """Every candidate ``text[lo:hi]`` gives a side in groups (the module's docstring),
    with its side; None when the stretch is not such groups, of both sides, each
    candidate in one."""
    if ctx.task != "choice" or (";" not in text[lo:hi] and "," not in text[lo:hi]):
        return None
    # the stretch alone, its parentheses blanked: the line's cost, not the reply's
    plain = _ASIDE.compiled.sub(lambda m: " " * len(m.group()), text[lo:hi])
    lo, hi = 0, len(plain)
    out: list[tuple[str, int]] = []
    lead = _LEAD.match(plain, lo, hi)  # "Summary: ..."
    start, groups = lead.end() if lead is not None else lo, 0
    while start < hi:
        end = _next_group(plain, start, hi, ctx)
        if end is None:
            return None
        group_end, status, sign = end
        a, b = _strip_bounds(plain, start, group_end, " \t*_`,")
        labels = _only_labels(plain, a, b, ctx) if a < b else None
        if labels is None or labels.void or labels.inverted or not labels.labels:
            return None
        out += [(label, sign) for label in labels.labels]
        groups += 1
        start = status
        if groups > _MAX_GROUPS:
            return None
    named = [label for label, _ in out]
    if len(set(named)) != len(named) or len({sign for _, sign in out}) < len(_SIDES):
        return None
    return out


def _next_group(text: str, lo: int, hi: int, ctx: _Context) -> tuple[int, int, int] | None:
    """Where the group from ``lo`` ends before its status word, where the next starts,
    and the group's side; None when no status word ends a group before ``hi``."""
    for found in _GROUP_END.finditer(text, lo, hi):
        sign = _status_sign(text, *found.span("s"), ctx)
        if not sign:
            continue
        cut = found.group("cut")
        if found.end() < hi and cut not in (";", ","):
            return None  # a sentence ends inside the line: no groups
        return found.start(), found.end(), sign
    return None
