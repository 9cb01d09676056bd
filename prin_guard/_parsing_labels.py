"""Label sets and candidate texts, read from one stretch of a reply: the parser's
lowest layer (see :mod:`prin_guard._parsing`). Pure functions, no I/O.

Every function takes a stretch ``text[lo:hi]`` and returns, with what it read, the
offsets in ``text`` of what it read it from, so that the parser can report where a
reply's answer is. Patterns are compiled once, at import, and match any
*label-shaped* token; whether a token is one of the item's labels is a dict lookup.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import repeat

__all__ = [
    "LABEL",
    "MARKED",
    "MAX_TEXT_TOKENS",
    "NORM_STRIP",
    "Reading",
    "Texts",
    "keys_of",
    "labels_only",
    "marked_labels",
    "ordered",
    "strip_bounds",
    "union",
]

MAX_TEXT_TOKENS = 32
"""Candidate texts longer than this many tokens are only matched as a whole span."""

# Any label-shaped token (labels are ``[A-Z][A-Z0-9]{0,3}``, replies may use lower
# case); whether it is one of the item's labels is a dict lookup afterwards.
LABEL = r"[A-Za-z][A-Za-z0-9]{0,3}"


@dataclass(frozen=True, slots=True)
class Reading:
    """What one place of a reply says: a label set (empty: "none") and where."""

    labels: frozenset[str]
    span: tuple[int, int] | None
    """``[start, end)`` in the text read, tight around the labels; None: not one place."""
    inverted: bool = False
    """``labels`` are the labels *not* named: "all" is ``()`` inverted, "all except B"
    ``("B",)`` inverted. Nothing reads every label until the parse's result is built,
    so "all except" costs nothing per label, however often a reply says it."""

    @property
    def names_some(self) -> bool:
        """Whether the reading may name a label (it is not a plain "none")."""
        return self.inverted or bool(self.labels)


def union(readings: Iterable[Reading]) -> tuple[frozenset[str], bool]:
    """The labels that readings name together, as ``(labels, inverted)``."""
    named: set[str] = set()
    excluded: frozenset[str] | None = None
    for reading in readings:
        if reading.inverted:
            excluded = reading.labels if excluded is None else excluded & reading.labels
        else:
            named |= reading.labels
    if excluded is None:
        return frozenset(named), False
    return excluded - named, True


# forms that are unambiguous anywhere: "(C)", "[C]", "c)", "option C"
MARKED = re.compile(
    rf"(?:\(\s*(?P<p>{LABEL})\s*\)"
    rf"|\[\s*(?P<b>{LABEL})\s*\]"
    rf"|(?<![A-Za-z0-9(])(?P<r>{LABEL})\s*\)"
    rf"|\b(?:option|choice|candidate)s?\s*(?:[:#]\s*)?(?P<o>{LABEL})(?![A-Za-z0-9]))",
    re.IGNORECASE,
)
# A labels-only span, read piece by piece: ASCII alphanumeric runs, single other chars.
_LIST_PIECE = re.compile(r"[A-Za-z0-9]+|.", re.DOTALL)
_ALNUM = re.compile(r"[A-Za-z0-9]+")
# Tokens of normalised text: word runs and single other characters.
_TEXT_PIECE = re.compile(r"\w+|\S")
_WORD_OR_DOT = re.compile(r"[\w.]")
_WORD = re.compile(r"\w")
_DOT_DIGIT = re.compile(r"\.\d")

_PRE = frozenset("\"'*`([")
_POST = frozenset(")]\"'.*`")
_SEP_CHARS = frozenset(",;/&")
_SEP_WORDS = frozenset({"and", "or"})


def keys_of(labels: Sequence[str]) -> dict[str, str]:
    """Each label under its upper-case form, the form replies are looked up in.

    This and :func:`ordered` are a parse's only work per label; they run in C (join,
    zip, filter) so that 20,000 labels cost about a millisecond.
    """
    if "".join(labels).isupper():  # labels of an Item always are
        return dict(zip(labels, labels, strict=True))
    return dict(zip(map(str.upper, labels), labels, strict=True))


def ordered(found: Iterable[str], labels: Sequence[str]) -> tuple[str, ...]:
    """``found`` in the candidates' order."""
    return tuple(filter(frozenset(found).__contains__, labels))


def strip_bounds(text: str, lo: int, hi: int, chars: str = " \t\r\n") -> tuple[int, int]:
    """``text[lo:hi]`` without ``chars`` at either end, as offsets."""
    while lo < hi and text[lo] in chars:
        lo += 1
    while hi > lo and text[hi - 1] in chars:
        hi -= 1
    return lo, hi


def marked_labels(text: str, lo: int, hi: int, keys: Mapping[str, str]) -> Reading | None:
    """The labels written in a marked form ("(C)", "c)", "option C") in ``text[lo:hi]``."""
    found: set[str] = set()
    first, last = hi, lo
    for match in MARKED.finditer(text, lo, hi):
        group = match.lastgroup or "p"
        label = keys.get(match.group(group).upper())
        if label is not None:
            found.add(label)
            first, last = min(first, match.start(group)), max(last, match.end(group))
    return Reading(frozenset(found), (first, last)) if found else None


def _gap_ok(gap: Sequence[str]) -> bool:
    """Whether what lies between two labels separates them.

    The grammar is ``closing* separator opening*``: closing marks ``) ] " ' . * ```,
    opening marks ``" ' * ` ( [``, and one separator (``, ; / &``, "and", "or") or
    whitespace between them.
    """
    seps = [i for i, piece in enumerate(gap) if piece in _SEP_CHARS or piece.lower() in _SEP_WORDS]
    if len(seps) > 1:
        return False
    if seps:
        at = seps[0]
        return all(p.isspace() or p in _POST for p in gap[:at]) and all(
            p.isspace() or p in _PRE for p in gap[at + 1 :]
        )
    # No separator word or mark: whitespace must sit between the closing and the
    # opening marks ("C) (D" reads, "C)(D" does not).
    last_not_pre = max((i for i, p in enumerate(gap) if not (p.isspace() or p in _PRE)), default=-1)
    first_not_post = next(
        (i for i, p in enumerate(gap) if not (p.isspace() or p in _POST)), len(gap)
    )
    return any(gap[i].isspace() for i in range(last_not_pre + 1, first_not_post))


def labels_only(
    text: str, lo: int, hi: int, keys: Mapping[str, str], *, upper: bool = False
) -> Reading | None:
    """The labels of ``text[lo:hi]`` when it is made of nothing but labels ("C, D and
    E", "(B)"), else None. ``upper``: a label written in lower case counts only as a
    single letter ("a and c", but not "it" for the label IT)."""
    lo, hi = strip_bounds(text, lo, hi)
    found: set[str] = set()
    gap: list[str] = []
    first = last = -1
    for match in _LIST_PIECE.finditer(text, lo, hi):
        piece = match.group(0)
        if not _ALNUM.fullmatch(piece):
            gap.append(piece)
            continue
        if first >= 0 and piece.lower() in _SEP_WORDS:
            # "C and D" is two labels even when AND is a label too (4,000+ options)
            gap.append(piece)
            continue
        label = keys.get(piece.upper())
        if label is None or (upper and len(piece) > 1 and not piece.isupper()):
            return None
        if first >= 0:
            if not _gap_ok(gap):
                return None
        elif not all(p.isspace() or p in _PRE for p in gap):
            return None
        found.add(label)
        if first < 0:
            first = match.start()
        last = match.end()
        gap = []
    if first < 0 or not all(p.isspace() or p in _POST for p in gap):
        return None
    return Reading(frozenset(found), (first, last))


# Whitespace runs other than a lone space (most texts have only those: leave them).
_SPACES = re.compile(r"[^\S ]\s*| \s+")
NORM_STRIP = " \"'`*."
_JOIN = "\x00"  # not whitespace, not changed by casefold


def _norm(text: str) -> str:
    """Whitespace runs as one space, case folded, outer quotes, stars and dots off."""
    return _SPACES.sub(" ", text).casefold().strip(NORM_STRIP)


def _norms(texts: Sequence[str]) -> list[str]:
    """``[_norm(t) for t in texts]``, done on all texts at once.

    The same steps on one joined string run in C rather than once per text in
    Python (20,000 texts: a few milliseconds instead of tens); casefold maps each
    character on its own, so joining does not change the result.
    """
    joined = _JOIN.join(texts)
    if joined.count(_JOIN) != max(len(texts) - 1, 0):
        return [_norm(text) for text in texts]  # a text holds the separator itself
    parts = _SPACES.sub(" ", joined).casefold().split(_JOIN)
    return list(map(str.strip, parts, repeat(NORM_STRIP, len(parts))))


class Texts:
    """The candidates' texts, indexed by normalised text, for one parse.

    The index is built on first use: most replies are read from their labels alone
    and never pay for it. Two texts may share a normal form ("Bb" and "bb"); the
    first one wins, as a reply cannot tell them apart.
    """

    def __init__(self, labels: Sequence[str], texts: Sequence[str]) -> None:
        if len(labels) != len(texts):
            raise ValueError(f"{len(labels)} labels but {len(texts)} texts")
        self._labels = labels
        self._texts = texts
        self._by_text: dict[str, str] | None = None
        self._longest = 0

    @property
    def by_text(self) -> dict[str, str]:
        if self._by_text is None:
            # reversed, so that the first of two equal normal forms is the one kept
            norms = _norms(self._texts)
            by_text = dict(zip(reversed(norms), reversed(self._labels), strict=True))
            by_text.pop("", None)  # a text of quotes and dots only names nothing
            self._by_text = by_text
            self._longest = max(map(len, by_text), default=0)
        return self._by_text

    def exact(self, span: str) -> set[str]:
        found = self.by_text.get(_norm(span))
        return {found} if found is not None else set()

    def inside(self, span: str) -> set[str]:
        """Candidates whose text occurs in ``span`` as whole words.

        An occurrence must not touch a word character or a dot on its left, nor a
        word character or a decimal part (".5") on its right: "9" is not in "19"
        or in "9.5". It therefore starts and ends on token boundaries, so only
        windows of whole tokens are looked up: at most ``MAX_TEXT_TOKENS`` of them,
        and no longer than the longest text, from each token.
        """
        by_text = self.by_text
        norm_span = _norm(span)
        pieces = [m.span() for m in _TEXT_PIECE.finditer(norm_span)]
        found: dict[str, str] = {}
        for s, (start, _) in enumerate(pieces):
            if start and _WORD_OR_DOT.match(norm_span, start - 1):
                continue
            for _, end in pieces[s : s + MAX_TEXT_TOKENS]:
                if end - start > self._longest:
                    break
                label = by_text.get(norm_span[start:end])
                if label is None:
                    continue
                if _WORD.match(norm_span, end) or _DOT_DIGIT.match(norm_span, end):
                    continue
                found[norm_span[start:end]] = label
        if len(found) > 1:
            # A text that is a run of tokens of another found text ("10" in "10 cm")
            # is dropped in favour of the longer one. Found texts have at most
            # MAX_TEXT_TOKENS tokens, which bounds the windows looked at.
            shorter: set[str] = set()
            for norm in found:
                spans = [m.span() for m in _TEXT_PIECE.finditer(norm)]
                for i, (left, _) in enumerate(spans):
                    for _, right in spans[i:]:
                        window = norm[left:right]
                        if window != norm and window in found:
                            shorter.add(window)
            found = {norm: label for norm, label in found.items() if norm not in shorter}
        return set(found.values())
