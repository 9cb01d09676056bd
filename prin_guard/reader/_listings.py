"""Listings of the options inside prose (issue 38, set E's chain-of-thought replies): a
reply that restates the question with every option, each with its own text, in the order
shown ("The options are A) Paris, B) Sydney, C) Rome and D) Toronto."), names no pick
there. Such a listing is blanked (same length, offsets kept) before the reply is read, so
that its labels count neither as a conclusion nor as mentions of one."""

from __future__ import annotations

import functools
import re

from prin_guard.reader._evidence import _Context
from prin_guard.reader._text import _Pattern

# one option of a listing: its label in a listing's form ("A)", "(A)", "A.", "A:"), then
# its text, then a separator ("," "and" "or" ";" a line break) or the listing's end
_SEP = r"(?:[^\S\n]*(?:,|;)?[^\S\n]*(?:\b(?:and|or)\b)?[^\S\n]*|[^\S\n]*\n[^\S\n]*)"


def _item(label: str, text: str) -> str:
    return (
        r"(?:\(" + re.escape(label) + r"\)|(?<![A-Za-z0-9])" + re.escape(label) + r"[).:])"
        r"[^\S\n]*[\"'“]?" + re.escape(text.strip()) + r"[\"'”]?"
    )


# a cheap look first: words that introduce the options, then a label in a listing's form
_ANY = re.compile(
    r"\b(?:options|choices|alternatives|candidates|answers)\b[^\n]{0,30}?\s\(?[A-Za-z0-9]{1,4}[).:]",
    re.IGNORECASE,
)


def _pattern(ctx: _Context) -> re.Pattern[str] | None:
    return _compiled(tuple(ctx.texts.pairs()))


@functools.lru_cache(maxsize=64)
def _compiled(pairs: tuple[tuple[str, str], ...]) -> re.Pattern[str] | None:
    if len(pairs) < 2 or any(not text.strip() for _, text in pairs):
        return None
    items = [_item(label, text) for label, text in pairs]
    return re.compile(_SEP.join(items) + r"(?![A-Za-z0-9])", re.IGNORECASE)


# what introduces a restatement of the options: "the options are", "Options:", "The
# candidate answers are"; the words before it in its sentence give no side
_LEAD = re.compile(
    r"(?:\b(?:options|choices|alternatives|candidates|(?:candidate|possible|answer)\s+answers)"
    r"(?:[^\S\n]+(?:are|were|given\s+are|here\s+are|listed\s+are))?[^\S\n]*:?)\s*\Z",
    re.IGNORECASE,
)
_BOUNDARY = re.compile(r"[.!?\n][^.!?\n]*\Z")
_WORD = re.compile(r"[A-Za-z]+")
_BACK = 80
_NEAR = 4  # the words before the lead that may give it a side ("the incorrect options")
_PICKING = frozenset({"final", "chosen", "pick", "picks", "select", "selected"})


def _introduced(text: str, at: int, ctx: _Context) -> bool:
    """Whether the listing at ``at`` follows words that introduce the options and give no
    side in their sentence ("The options are", not "The incorrect options are")."""
    before = text[max(0, at - _BACK) : at]
    lead = _LEAD.search(before)
    if lead is None:
        return False
    head = before[: lead.start()]
    boundary = _BOUNDARY.search(head.rstrip())
    sentence = head[boundary.start() + 1 :] if boundary else head
    words = [w.group() for w in _WORD.finditer(sentence)][-_NEAR:]
    words += [w.group() for w in _WORD.finditer(lead.group())]
    return not any(ctx.vocab.sign(w) or w.lower() in _PICKING for w in words)


def blank_listings(text: str, ctx: _Context) -> str:
    """The reply with every inline listing of all the options, in the order shown and
    each with its own text, blanked to spaces; only on a choice item, and only when the
    reply says more than the listing (a reply that is only a listing is read as before)."""
    if ctx.task != "choice" or not ctx.leg:
        return text
    if not _ANY.search(text):
        return text
    pattern = _pattern(ctx)
    if pattern is None:
        return text
    found = list(pattern.finditer(text))
    if not found:
        return text
    out = text
    for match in found:
        if not _introduced(text, match.start(), ctx):
            continue
        lo, hi = match.span()
        out = out[:lo] + "".join(c if c == "\n" else " " for c in out[lo:hi]) + out[hi:]
    if not out.strip():
        return text
    return out


# a range of labels after "among", "of" or "out of": "among A through D", "of options A-E"
_RANGE = _Pattern(
    r"\b(?i:among(?:st)?|out\s+of|of)\s+(?i:the\s+)?(?i:(?:options?|choices?|answers?)\s+)?"
    r"\(?(?P<first>[A-Za-z0-9]{1,4})\)?\s*(?i:through|thru|to|-|–|—)\s*"
    r"\(?(?P<last>[A-Za-z0-9]{1,4})\)?(?![A-Za-z0-9])(?:,[^\S\n]*)?"
)


def blank_whole_ranges(text: str, ctx: _Context) -> str:
    """The reply with every range that spans all the options after "among" or "of"
    ("Therefore, among A through D, the answer is D.", "Of options A-E, ...") blanked to
    spaces: it names the set the answer is drawn from, no pick, so its two labels are no
    mentions of the answer's concluding part; only on a choice item of three options or
    more (a range of two is a list of both)."""
    if ctx.task != "choice" or len(ctx.labels) < 3:
        return text
    out = text
    for match in _RANGE.finditer(text):
        if (match.group("first"), match.group("last")) == (ctx.labels[0], ctx.labels[-1]):
            lo, hi = match.span()
            out = out[:lo] + " " * (hi - lo) + out[hi:]
    return out
