"""Text primitives of the reader: lazily compiled patterns, label-shaped tokens, offsets,
normalised candidate texts. No knowledge of tasks or polarity.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import repeat

MAX_TEXT_TOKENS = 32
"""Candidate texts longer than this many tokens are only matched as a whole span."""

PREFIX_WORDS = 3
"""A label written with a text names the candidate whose text begins with it, when it
is that many words or more, or the candidate's whole text."""


_END = sys.maxsize

WINDOW = 32_768
"""A reply longer than twice this many characters is read in its first and last
``WINDOW`` characters (spans still point into the whole reply): judges conclude at either
end, and reading stays fast however long a reply runs (a judge that repeats a long item,
a generation that never stops). What is read of such a reply is marked weak: its middle
was not read."""


class _Pattern:
    """A regular expression compiled on first use, so that importing the parser
    compiles nothing; afterwards each use is one call more than the compiled pattern's (the
    slot read directly: the reader makes hundreds of thousands of them on a long reply)."""

    __slots__ = ("_compiled", "_flags", "pattern")

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self.pattern = pattern
        self._flags = flags
        self._compiled: re.Pattern[str] | None = None

    @property
    def compiled(self) -> re.Pattern[str]:
        compiled = self._compiled
        if compiled is None:
            compiled = self._compiled = re.compile(self.pattern, self._flags)
        return compiled

    def search(self, string: str, pos: int = 0, endpos: int = _END) -> re.Match[str] | None:
        return (self._compiled or self.compiled).search(string, pos, endpos)

    def match(self, string: str, pos: int = 0, endpos: int = _END) -> re.Match[str] | None:
        return (self._compiled or self.compiled).match(string, pos, endpos)

    def fullmatch(self, string: str, pos: int = 0, endpos: int = _END) -> re.Match[str] | None:
        return (self._compiled or self.compiled).fullmatch(string, pos, endpos)

    def finditer(self, string: str, pos: int = 0, endpos: int = _END) -> Iterator[re.Match[str]]:
        return (self._compiled or self.compiled).finditer(string, pos, endpos)

    def sub(self, repl: str, string: str) -> str:
        return (self._compiled or self.compiled).sub(repl, string)


# Any label-shaped token (labels are ``[A-Z][A-Z0-9]{0,3}``, replies may use lower
# case); whether it is one of the item's labels is a dict lookup afterwards.
_LABEL = r"[A-Za-z][A-Za-z0-9]{0,3}"


_NOUN = (
    r"(?:options?|answers?|choices?|candidates?|ones?|letters?|labels?|responses?|outputs?"
    r"|assistants?|models?|completions?|criteria|criterion|claims?|requirements?|items?"
    r"|statements?)"
)


_FILLER = (
    r"(?:a|an|the|both|all|also|only|each|definitely|clearly|indeed|likely|probably|obviously"
    r"|actually|certainly|therefore|thus|then|so|still|considered|deemed|slightly|much|far"
    r"|significantly|marginally|somewhat|overall|generally|substantially|considerably|bit"
    r"|little|lot|way|fully|largely|mostly|entirely|completely)"
)


# "... are (not) (both/the only) incorrect": the polarity a stretch ends on.
_VERB_ADJ_SOURCE = (
    r"\s+(?:(?:is|are|was|were)(?P<nt>n[’']t)?|would\s+be|seems?\s+to\s+be|appears?\s+to\s+be"
    r"|performs?|performed|does|did|fares?|fared)"
    rf"\s+(?P<neg>not\s+)?(?:{_FILLER}\s+){{0,3}}(?P<neg2>not\s+)?(?P<adj>[A-Za-z]+)(?![\w-])"
)


_VERB_ADJ = _Pattern(_VERB_ADJ_SOURCE, re.IGNORECASE)
# The same, to scan a whole text: a match starts where a run of whitespace starts, which a
# leftmost scan finds anyway; not trying every position inside the run keeps a reply of
# blanked copies (long runs of spaces) linear, where ``\s+`` from each of them is quadratic.
_VERB_ADJ_SCAN = _Pattern(r"(?<!\s)\s++" + _VERB_ADJ_SOURCE.removeprefix(r"\s+"), re.IGNORECASE)


# A run of labels: "B and D", "(A), (C)", "options A, C". Possessive: a run is
# scanned once wherever it is matched from, which keeps searches linear.
_TOK = rf"[(\[]?{_LABEL}(?![A-Za-z0-9])[)\]]?"


_SEP = r"(?:\s*[,&/]\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+)"


_RUN = (
    r"(?:(?:the\s+)?(?:options?|choices?|candidates?|answers?|letters?|labels?)\s+)?"
    rf"(?P<run>{_TOK}(?:{_SEP}{_TOK})*+)"
)


_ALNUM = _Pattern(r"[A-Za-z0-9]+")


_SEP_WORDS = frozenset({"and", "or"})


_WORD_RUN = _Pattern(r"\w+")

STEP = 1 << 14
"""How much of a long text one call into the regex engine (or one set update) takes: a
reply is read in a worker thread, and a call into C holds the interpreter lock for as
long as it runs, so the event loop would wait for a whole long reply's scan."""


_NON_WORD = re.compile(r"\W")


def word_runs(text: str) -> list[str]:
    """``_WORD_RUN.findall(text)`` in steps of about :data:`STEP` characters, each cut
    where a run of word characters cannot go on."""
    if len(text) <= STEP:
        return _WORD_RUN.compiled.findall(text)
    runs: list[str] = []
    pos, size = 0, len(text)
    while pos < size:
        cut = _NON_WORD.search(text, min(size, pos + STEP))
        end = cut.start() if cut is not None else size
        runs += _WORD_RUN.compiled.findall(text, pos, end)
        pos = end
    return runs


# Where a sentence ends inside a line; and a sentence or a clause after a colon.
_SENTENCE_END = _Pattern(r"[.!?]+(?=\s|$)")


# Where a sentence ends (a new one starts after it): a full stop and a space, a line end.
_BREAK = _Pattern(r"[.!?]+(?=\s)|\n")


def _line_end(text: str, pos: int) -> int:
    end = text.find("\n", pos)
    return len(text) if end < 0 else end


# A line that opens on a note's lead ("Note:", "N.B.", "P.S.:"): a comment of its own, never
# the answer a lead on the line above left for the next line ("The answer is:\n\nNote: ...")
_NOTE_LINE = _Pattern(
    r"[^\S\n]*[*_>#`]*[^\S\n]*(?:note|n\.?b\.?|p\.?s\.?)[^\S\n]*[*_]*[^\S\n]*[:—–-]",
    re.IGNORECASE,
)


def note_line(text: str, lo: int) -> bool:
    """Whether the line starting at ``lo`` opens on a note's lead ("Note: ...")."""
    return _NOTE_LINE.match(text, lo) is not None


def _next_line(text: str, end: int) -> tuple[int, int] | None:
    """The first line with text after the line ending at ``end``, as offsets."""
    pos = end + 1
    while pos <= len(text) and not text[pos : _line_end(text, pos)].strip():
        pos = _line_end(text, pos) + 1
    return (pos, _line_end(text, pos)) if pos <= len(text) else None


# forms that are unambiguous anywhere: "(C)", "[C]", "c)", "option C"
_MARKED = _Pattern(
    rf"(?:\(\s*(?P<p>{_LABEL})\s*\)"
    rf"|\[\s*(?P<b>{_LABEL})\s*\]"
    rf"|(?<![A-Za-z0-9(])(?P<r>{_LABEL})\s*\)"
    rf"|\b(?:option|choice|candidate)s?[^\S\n]*(?:[:#][^\S\n]*)?(?P<o>{_LABEL})(?![A-Za-z0-9]))",
    re.IGNORECASE,
)


# A labels-only span, read piece by piece: ASCII alphanumeric runs, single other chars.
_LIST_PIECE = _Pattern(r"[A-Za-z0-9]+|.", re.DOTALL)


# Tokens of normalised text: word runs and single other characters.
_TEXT_PIECE = _Pattern(r"\w+|\S")


_WORD_OR_DOT = _Pattern(r"[\w.]")


_WORD = _Pattern(r"\w")


_DOT_DIGIT = _Pattern(r"\.\d")


_PRE = frozenset("\"'*`([")


_POST = frozenset(")]\"'.*`")


_SEP_CHARS = frozenset(",;/&")


def _keys_of(labels: Sequence[str]) -> dict[str, str]:
    """Each label under its upper-case form, the form replies are looked up in.

    This and :func:`_ordered` are a parse's only work per label; they run in C (join,
    zip, filter) so that 20,000 labels cost about a millisecond.
    """
    if "".join(labels).isupper():  # labels of an Item always are
        return dict(zip(labels, labels, strict=True))
    return dict(zip(map(str.upper, labels), labels, strict=True))


def _ordered(found: Iterable[str], labels: Sequence[str]) -> tuple[str, ...]:
    """``found`` in the candidates' order."""
    return tuple(filter(frozenset(found).__contains__, labels))


def _strip_bounds(text: str, lo: int, hi: int, chars: str = " \t\r\n") -> tuple[int, int]:
    """``text[lo:hi]`` without ``chars`` at either end, as offsets."""
    while lo < hi and text[lo] in chars:
        lo += 1
    while hi > lo and text[hi - 1] in chars:
        hi -= 1
    return lo, hi


# Whitespace runs other than a lone space (most texts have only those: leave them).
_SPACES = _Pattern(r"[^\S ]\s*| \s+")


_NORM_STRIP = " \"'`*."


_JOIN = "\x00"  # not whitespace, not changed by casefold

# A numeric ordinal's word: a candidate "3rd" is named "third" as well
_SPELLED_ORDINALS = dict(
    zip(
        ("1st", "2nd", "3rd", "4th", "5th", "6th", "7th", "8th", "9th", "10th"),
        ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth",
         "tenth"),
        strict=True,
    )
)  # fmt: skip


def _norm(text: str) -> str:
    """Whitespace runs as one space, case folded, outer quotes, stars and dots off."""
    return _SPACES.sub(" ", text).casefold().strip(_NORM_STRIP)


# Markup around a text, not part of it: code spans' backticks, stars, a sentence's dot
_MARKUP_STRIP = " `*."


def _as_written(text: str) -> str:
    """:func:`_norm` with the quotes kept (``"0"`` is not ``0``): markup off only."""
    return _SPACES.sub(" ", text).casefold().strip(_MARKUP_STRIP)


# A quote beside a text: a quote twin's text is not read out of a quoted one
_QUOTE = frozenset("\"'“”‘’")


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
    return list(map(str.strip, parts, repeat(_NORM_STRIP, len(parts))))


# a text that ends in a parenthetical ("ghee (unsaturated)"), and a stem that may name it
_PARENTHETICAL_END = _Pattern(r"(?P<stem>.*?\S)\s*\([^()]*\)")
_STEM = _Pattern(r".*[^\W\d_].*[^\W\d_].*", re.DOTALL)


def _quote_twins(
    labels: Sequence[str], texts: Sequence[str], norms: Sequence[str]
) -> dict[str, str]:
    """The texts, as written, of candidates whose texts share a normal form but differ
    as written (``0`` and ``"0"``), each to its label (the first of equal ones)."""
    shared: dict[str, list[int]] = {}
    for i, norm in enumerate(norms):
        if norm:
            shared.setdefault(norm, []).append(i)
    twins: dict[str, str] = {}
    for group in shared.values():
        written = [_as_written(texts[i]) for i in group]
        if len(group) > 1 and len(set(written)) > 1:
            for i, as_written in zip(group, written, strict=True):
                twins.setdefault(as_written, labels[i])
    return twins


class _Texts:
    """The candidates' texts, indexed by normalised text, for one parse.

    The index is built on first use: most replies are read from their labels alone
    and never pay for it. Two texts may share a normal form ("Bb" and "bb"); the
    first one wins, as a reply cannot tell them apart. Texts that differ only by their
    quotes (``0`` and ``"0"``, "quote twins") are told apart by the text as written,
    quotes kept (:meth:`quoted`); their shared normal form names neither.
    """

    def __init__(self, labels: Sequence[str], texts: Sequence[str]) -> None:
        if len(labels) != len(texts):
            raise ValueError(f"{len(labels)} labels but {len(texts)} texts")
        self._labels = labels
        self._texts = texts
        self._by_text: dict[str, str] | None = None
        self._norm_of: dict[str, str] | None = None
        self._phrases: dict[tuple[str, ...], str] | None = None
        self._heads: dict[tuple[str, ...], list[tuple[str, tuple[str, ...]]]] | None = None
        self._firsts: dict[str, list[int]] = {}
        self._longest = 0
        self._twins: dict[str, str] = {}
        self._twin_norms: frozenset[str] = frozenset()

    @property
    def by_text(self) -> dict[str, str]:
        if self._by_text is None:
            # reversed, so that the first of two equal normal forms is the one kept
            norms = _norms(self._texts)
            self._norm_of = dict(zip(self._labels, norms, strict=True))
            by_text = dict(zip(reversed(norms), reversed(self._labels), strict=True))
            by_text.pop("", None)  # a text of quotes and dots only names nothing
            self._twins = _quote_twins(self._labels, self._texts, norms)
            self._twin_norms = frozenset(_norm(written) for written in self._twins)
            for norm in self._twin_norms:
                by_text.pop(norm, None)  # "0" of 0 and "0": quoting tells them apart
            for norm, label in list(by_text.items()):  # "3rd" is also written "third"
                word = _SPELLED_ORDINALS.get(norm)
                if word is not None:
                    by_text.setdefault(word, label)
            # "Ghee" of "Ghee (unsaturated)": a text without its trailing parenthetical,
            # when it has letters, is no other text and no other text has it too
            stems: dict[str, list[str]] = {}
            for norm, label in zip(norms, self._labels, strict=True):
                ended = _PARENTHETICAL_END.fullmatch(norm)
                if ended is not None and _STEM.fullmatch(ended.group("stem")):
                    stems.setdefault(ended.group("stem"), []).append(label)
            for stem, labels in stems.items():
                if len(labels) == 1 and stem not in by_text:
                    by_text[stem] = labels[0]
            self._by_text = by_text
            self._longest = max(map(len, [*by_text, *self._twins]), default=0)
        return self._by_text

    @property
    def longest(self) -> int:
        """The length of the longest normalised text."""
        _ = self.by_text
        return self._longest

    def pairs(self) -> list[tuple[str, str]]:
        """Each candidate's label and text, as given."""
        return list(zip(self._labels, self._texts, strict=True))

    def norm_of(self, label: str) -> str | None:
        """A candidate's normalised text."""
        if self._norm_of is None:
            _ = self.by_text
        assert self._norm_of is not None
        return self._norm_of.get(label)

    def quoted(self, span: str) -> str | None:
        """The quote twin whose text ``span`` is as written, quotes kept (``"0"``, or
        ``0`` in a code span), else None."""
        _ = self.by_text
        return self._twins.get(_as_written(span)) if self._twins else None

    def label_of(self, span: str) -> str | None:
        """The candidate whose text ``span`` is (:func:`_norm`; a quote twin's as
        written)."""
        return self.quoted(span) or self.by_text.get(_norm(span))

    def in_quotes(self, quoted: str, inner: str) -> set[str]:
        """The candidate a quoted span names (``quoted``, its text ``inner``): its inner
        text's, or, when that is a quote twin's, the one ``quoted`` is as written
        (``"0"``; none for ``'0'`` of 0 and ``"0"``)."""
        _ = self.by_text
        return self.exact(quoted if _norm(inner) in self._twin_norms else inner)

    def exact(self, span: str) -> set[str]:
        found = self.label_of(span)
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
        if self._twins:
            found.update(self._twins_inside(span))
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

    def _twins_inside(self, span: str) -> dict[str, str]:
        """Quote twins' texts as written in ``span``: whole words, not inside other
        quotes (``0`` is not in ``'0'``)."""
        folded = _SPACES.sub(" ", span).casefold()
        found: dict[str, str] = {}
        for written, label in self._twins.items():
            at = folded.find(written)
            while at >= 0:
                end = at + len(written)
                left = folded[at - 1] if at else " "
                right = folded[end] if end < len(folded) else " "
                if not (
                    _WORD_OR_DOT.match(left)
                    or left in _QUOTE
                    or _WORD.match(right)
                    or _DOT_DIGIT.match(folded, end)
                    or right in _QUOTE
                ):
                    found[written] = label
                at = folded.find(written, at + 1)
        return found

    def written(self, written: str) -> frozenset[str]:
        """The candidates whose text ``written`` is, case, spacing and punctuation aside:
        their whole text, or its first ``PREFIX_WORDS`` words or more ("developing a
        global regulatory body ..." for "developing a global regulatory body to monitor
        and control genetic engineering")."""
        words = tuple(m.group().casefold() for m in _WORD_RUN.finditer(written))
        if not words:
            return frozenset()
        if self._heads is None:
            heads: dict[tuple[str, ...], list[tuple[str, tuple[str, ...]]]] = {}
            for label, text in zip(self._labels, self._texts, strict=True):
                key = tuple(m.group().casefold() for m in _WORD_RUN.finditer(text))
                if key:
                    heads.setdefault(key[:PREFIX_WORDS], []).append((label, key))
            self._heads = heads
        found = {
            label
            for label, key in self._heads.get(words[:PREFIX_WORDS], ())
            if key == words or (len(words) >= PREFIX_WORDS and key[: len(words)] == words)
        }
        return frozenset(found)

    def covered(
        self, words: Sequence[str], lo: int, hi: int, plain: Callable[[str], bool]
    ) -> list[bool]:
        """Which of ``words[lo:hi]`` (lower-case words of a reply) lie inside a
        candidate's text of at most ``MAX_TEXT_TOKENS`` words that is ``plain``."""
        if self._phrases is None:
            phrases: dict[tuple[str, ...], str] = {}
            for label, text in zip(self._labels, self._texts, strict=True):
                key = tuple(m.group().casefold() for m in _WORD_RUN.finditer(text))
                if 0 < len(key) <= MAX_TEXT_TOKENS and plain(text):
                    phrases.setdefault(key, label)
            self._phrases = phrases
            firsts: dict[str, set[int]] = {}
            for key in phrases:
                firsts.setdefault(key[0], set()).add(len(key))
            self._firsts = {word: sorted(sizes) for word, sizes in firsts.items()}
        out = [False] * (hi - lo)
        for start in range(lo, hi):
            for size in self._firsts.get(words[start], ()):
                if start + size > hi:
                    break
                if tuple(words[start : start + size]) in self._phrases:
                    out[start - lo : start - lo + size] = [True] * size
        return out
