"""Scores per option as a choice reply's last word ("A: 9/10, B: 2/10, C: 8/10, D: 1/10").

A score is no verdict: the judge said how likely each option is, not which ones it
picks, and where the line between them falls is the reader's guess unless the reply
states it (a threshold, or a conclusion: read by the stages before this one). So scores
alone read only when that guess is no guess: every option scored once on one stated
scale ("/10", "out of 5"), each score in its top or bottom :data:`_BAND` of it, both
bands used. The reading is always weak. The high band is the side the scores measure:
the direct question's, unless the lines before them say otherwise ("Scores (how likely
each option is incorrect):"); on the reverse leg, scores whose side no line states are
not read ("A: 9/10" may rate A's correctness or its being the incorrect one)."""

from __future__ import annotations

from prin_guard.reader._evidence import _Context, _Reading
from prin_guard.reader._text import _line_end, _Pattern, _strip_bounds
from prin_guard.reader._vocab import _name_sign

__all__ = ["option_scores"]

_PAIR = (
    r"[(\[]?(?P<l>[A-Z])[)\]]?[^\S\n]*[:=–—-][^\S\n]*(?P<n>\d{1,3}(?:\.\d+)?)"
    r"(?:[^\S\n]*/[^\S\n]*(?P<of>\d{1,3})|[^\S\n]+out[^\S\n]+of[^\S\n]+(?P<out>\d{1,3}))?"
)
_ONE = _Pattern(_PAIR)
_LINE = _Pattern(rf"(?:[^\S\n]*[-*•]?[^\S\n]*{_PAIR}[^\S\n]*[,;|/]?)+[^\S\n]*[.]?")
_BAND = 0.3
_MAX_LINES = 32


def option_scores(text: str, lo: int, hi: int, ctx: _Context) -> _Reading | None:
    """The options scored in the band of the side the leg asks (the module's docstring),
    weak; None when the reply does not end on such scores."""
    if ctx.task != "choice" or not ctx.leg or ("/" not in text and "out of" not in text):
        return None
    lines: list[tuple[int, int]] = []
    pos = lo
    while pos <= hi and len(lines) <= _MAX_LINES:
        end = min(_line_end(text, pos), hi)
        a, b = _strip_bounds(text, pos, end)
        if a < b:
            lines.append((a, b))
        pos = end + 1
    first = len(lines)
    while first and _LINE.fullmatch(text, *lines[first - 1]):
        first -= 1
    if first == len(lines):
        return None
    scores: dict[str, float] = {}
    scales: set[str] = set()
    start = lines[first][0]
    for match in _ONE.finditer(text, start, hi):
        label = ctx.keys.get(match.group("l"))
        if label is None or label in scores:
            return None
        scores[label] = float(match.group("n"))
        scales.add(match.group("of") or match.group("out") or "")
    if (
        len(scores) != len(ctx.labels)
        or len(scales) != 1
        or not (scale := float(scales.pop() or 0))
    ):
        return None
    high = frozenset(label for label, score in scores.items() if score >= (1 - _BAND) * scale)
    low = frozenset(label for label, score in scores.items() if score <= _BAND * scale)
    if not high or not low or len(high) + len(low) != len(scores):
        return None
    head = text[lines[first - 1][0] : lines[first - 1][1]] if first else ""
    named = _name_sign(head, ctx) if head.rstrip(" *_`").endswith(":") else None
    side = named[0] if named else 0
    if not side and ctx.leg < 0:
        return None  # a reverse leg's scores, of no stated side
    side = side or 1
    return _Reading(high if side == ctx.leg else low, (start, hi), weak=True)
