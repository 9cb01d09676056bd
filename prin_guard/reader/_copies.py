"""Copies: stretches of the reply copied from the item (or the prompt) that would read as
an answer are blanked before reading; a reply that repeats its whole prompt is echoed.
"""

from __future__ import annotations

import functools
import re
from bisect import bisect_right
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from prin_guard.reader._evidence import _Context
from prin_guard.reader._text import _MARKED, _WORD_RUN, STEP, _keys_of, _Pattern, word_runs
from prin_guard.reader._vocab import _SELECTIONS, _STATUS_SIGNS

_K = TypeVar("_K")
_V = TypeVar("_V")

COPY_WORDS = 4
"""A run of this many words that the echo holds is a copied stretch."""


MAX_SHORT_COPIES = 64
"""Short copied stretches (fewer than ``COPY_WORDS`` words) looked up in the echo's
text per reply: bounds the cost of a reply made of many of them."""


# The sentence every template's prompt has, in any wording (v0-v4, paraphrases, tasks).
_ECHO_SENTENCE = _Pattern(
    r"please\s+output\s+the\s+(?:[\w-]+\s+ones?|criteria|claims)\b", re.IGNORECASE
)


def _echo_lines(echo: Sequence[str]) -> set[str]:
    return {key for text in echo for line in text.splitlines() if (key := _line_key(line))}


def detect_echo(text: str | None, labels: Sequence[str], prompt: Sequence[str] = ()) -> bool:
    """Whether a reply repeats the prompt: it has the prompt's "please output the
    ... ones." sentence and names more than half of the options as ``X)``, the way the
    bundled prompts list them; or, given the prompt's own text (``prompt``: its frame,
    the pieces between the item's texts, for any template), it holds at least half of
    the frame's runs of ``COPY_WORDS`` words (and at least ``COPY_WORDS`` of them).
    Linear in the reply's length."""
    if not text:
        return False
    if _ECHO_SENTENCE.search(text):
        keys = _keys_of(labels)
        named = {
            label
            for match in _MARKED.finditer(text)
            if match.group("r") and (label := keys.get(match.group("r").upper())) is not None
        }
        if 2 * len(named) > len(keys):
            return True
    frame = _frame_grams(tuple(prompt))
    if len(frame) < COPY_WORDS:
        return False
    held = {gram for gram in _Words(text).grams() if gram in frame}
    return 2 * len(held) >= len(frame)


@functools.lru_cache(maxsize=256)
def _frame_grams(prompt: tuple[str, ...]) -> frozenset[tuple[str, ...]]:
    """The runs of ``COPY_WORDS`` words of a prompt's frame (cached: a frame is shared by
    every item of a shape)."""
    return frozenset(gram for piece in prompt for gram in _Words(piece).grams())


def _own_lines(
    text: str, copied: set[str], prompt: Sequence[str] = ()
) -> tuple[str, list[int], list[int]]:
    """What the judge wrote after a repeated prompt: the lines after its question
    sentence (or, for another template, after the last line holding a run of the
    prompt's own words) that are not copies, joined, with each kept line's offset in
    that text and in ``text``.

    The prompt lists every option, and would otherwise read as "all of them". The
    text before its question sentence is the question and the options (however
    mangled); after it come the prompt's own lines, dropped when copied verbatim.
    """
    lines = text.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))
    marked = [i for i, line in enumerate(lines) if _ECHO_SENTENCE.search(line)]
    if not marked:
        frame = _frame_grams(tuple(prompt))
        marked = [
            i for i, line in enumerate(lines) if any(g in frame for g in _Words(line).grams())
        ]
    last = max(marked, default=-1)
    kept: list[str] = []
    read_at: list[int] = []
    text_at: list[int] = []
    position = 0
    for i in range(last + 1, len(lines)):
        line = (lines[i].splitlines() or [""])[0]
        if _line_key(line) in copied:
            continue
        kept.append(line)
        read_at.append(position)
        text_at.append(starts[i])
        position += len(line) + 1
    return "\n".join(kept), read_at, text_at


def _map_span(
    span: tuple[int, int] | None, read_at: list[int], text_at: list[int]
) -> tuple[int, int] | None:
    """A span of the kept lines' text as offsets in the reply."""
    if span is None or not read_at:
        return span

    def back(offset: int) -> int:
        line = bisect_right(read_at, offset) - 1
        return text_at[line] + offset - read_at[line]

    start, end = span
    return back(start), back(end - 1) + 1


def _line_key(line: str) -> str:
    return " ".join(line.split())


_PIECE_END = _Pattern(r"[.!?]+(?=\s|$)|:(?=\s)")


# Words that make a copied stretch an answer (besides the task's polarity words).
_CUE_WORDS = frozenset(
    {
        "answer", "answers", "verdict", "result", "winner", "decision", "conclusion",
        "choice", "prefer", "preferred", "met", "unmet", "pass", "passed", "fail",
        "failed", "fails", "supported", "unsupported", "satisfied", "incorrect",
        "correct", "wrong", "right", "better", "worse",
    }
)  # fmt: skip


_CUE_MARKS = ("[[", "{", "<", "✓", "✗", "✔", "✘", "❌", "✅", "[x]", "[X]", "[ ]", "☑", "☐", "☒")


_CUE_MARK = _Pattern("|".join(re.escape(mark) for mark in _CUE_MARKS))


_QUANT_WORDS = frozenset({"all", "none", "both", "neither", "tie", "every", "nothing"})


@dataclass(slots=True)
class _EchoIndex:
    """What the judge was shown: every run of ``COPY_WORDS`` words, every line, sentence
    and clause (as lower-case words), and the whole text (lower case, one space between
    words) for stretches too short to trust their words alone."""

    grams: set[tuple[str, ...]]
    pieces: set[str]
    echo: Sequence[str]
    _flat: str | None = None
    _pairs: set[tuple[str, ...]] | None = None

    @property
    def pairs(self) -> set[tuple[str, ...]]:
        """Every two words in a row of the echo (lower case), built on first use."""
        if self._pairs is None:
            pairs: set[tuple[str, ...]] = set()
            for text in self.echo:
                if text:
                    _runs_into(pairs, word_runs(text.casefold()), 2)
            self._pairs = pairs
        return self._pairs

    @classmethod
    def of(cls, echo: Sequence[str]) -> _EchoIndex:
        grams: set[tuple[str, ...]] = set()
        pieces: set[str] = set()
        for text in echo:
            if text:
                own_grams, own_pieces = _text_index(text)
                grams |= own_grams
                pieces |= own_pieces
        pieces.discard("")
        return cls(grams, pieces, echo)

    def holds(self, text: str, seen: dict[str, bool]) -> bool:
        """Whether the echo holds ``text`` as written (marks included, case and spacing
        aside): "[[A]]" copied, not only the word "a". ``seen``: the reply's lookups so
        far; past ``MAX_SHORT_COPIES`` of them a stretch counts as held. (Per reply: the
        index is cached and shared, and a bound kept on it would make a reply's reading
        depend on the replies read before it.)"""
        key = " ".join(text.casefold().split())
        if key not in seen:
            if len(seen) >= MAX_SHORT_COPIES:
                return True
            if self._flat is None:
                self._flat = "\x00".join(" ".join(t.casefold().split()) for t in self.echo)
            seen[key] = key in self._flat
        return seen[key]


_QUICK_WORDS = 64
"""Replies of at most this many words (most answers) are first tested against the echo's
flattened words: when none of their runs or pieces occurs there at all, nothing in them
is a copy, and the echo need not be indexed."""


_LONG = 1 << 16
"""Echo texts longer than this (in characters, together) are indexed in a cache of their
own that keeps only a few: an item's legs share the index, but a long text's index is
some ten times its size, and a service that reads long items would otherwise keep
hundreds of them."""


class _SizedCache(Generic[_K, _V]):
    """An LRU cache of ``fn`` that keeps up to ``many`` results for short arguments and
    only ``few`` for long ones (``size(arg) > _LONG``)."""

    def __init__(self, fn: Callable[[_K], _V], size: Callable[[_K], int], many: int) -> None:
        self._size = size
        self._short = functools.lru_cache(maxsize=many)(fn)
        self._long = functools.lru_cache(maxsize=4)(fn)
        functools.update_wrapper(self, fn)

    def __call__(self, arg: _K) -> _V:
        return (self._long if self._size(arg) > _LONG else self._short)(arg)

    def cache_clear(self) -> None:
        self._short.cache_clear()
        self._long.cache_clear()


def _echo_size(echo: tuple[str, ...]) -> int:
    return sum(map(len, echo))


def _text_size(text: str) -> int:
    return len(text)


def _sized(
    size: Callable[[_K], int], many: int
) -> Callable[[Callable[[_K], _V]], _SizedCache[_K, _V]]:
    return lambda fn: _SizedCache(fn, size, many)


@_sized(_echo_size, 256)
def _flat_echo(echo: tuple[str, ...]) -> str:
    """The echo's words, lower case, one space apart, each text between spaces and the
    texts apart by a NUL (so a word run is looked for as `` run ``, whole words)."""
    texts = (" ".join(word_runs(t.casefold())) for t in echo if t)
    return "".join(f" {words} \x00" for words in texts)


def _may_hold(words: _Words, echo: tuple[str, ...]) -> bool:
    """Whether the echo may hold a copied run or piece of the reply: each run of
    ``COPY_WORDS`` words and each piece is looked for in the flattened echo (a superset
    of what the index finds: a miss here is a miss there)."""
    flat = _flat_echo(echo)
    return any(probe in flat for probe in words.probes)


@_sized(_echo_size, 256)
def _echo_index(echo: tuple[str, ...]) -> _EchoIndex:
    """The index of an echo (cached: every leg of an item has the same echo, and every
    item of a shape the same prompt frame)."""
    return _EchoIndex.of(echo)


@_sized(_text_size, 4096)
def _text_index(text: str) -> tuple[frozenset[tuple[str, ...]], frozenset[str]]:
    """One echo text's runs of ``COPY_WORDS`` words and its pieces (lines, sentences,
    clauses) as lower-case words. Cached: an item's texts are the echo of each of its
    legs, and a prompt is read once per leg."""
    words = _Words(text)
    pieces = frozenset(" ".join(words.words[i:j]) for _, _, i, j in words.pieces())
    grams: set[tuple[str, ...]] = set()
    _runs_into(grams, words.words, COPY_WORDS)
    return frozenset(grams), pieces


def _runs_into(into: set[tuple[str, ...]], words: Sequence[str], size: int) -> None:
    """Add every run of ``size`` words in a row to ``into``, a few thousand at a time (one
    set update of a long text's runs would hold the interpreter lock throughout)."""
    for start in range(0, max(0, len(words) - size + 1), STEP):
        stop = start + STEP + size - 1
        into.update(zip(*(words[start + k : stop] for k in range(size)), strict=False))


class _Words:
    """A text's word runs (offsets, lower-case words) and its pieces (:func:`_pieces`)
    as word ranges: worked out once per reply, for both the echo and the prompt frame
    it is compared with, and once per echo text."""

    __slots__ = ("_probes", "spans", "text", "words")

    def __init__(self, text: str) -> None:
        self.text = text
        self.spans = [match.span() for match in _WORD_RUN.compiled.finditer(text)]
        self.words = [text[lo:hi].casefold() for lo, hi in self.spans]
        self._probes: list[str] | None = None

    def grams(self) -> Iterator[tuple[str, ...]]:
        """Every run of ``COPY_WORDS`` words."""
        return zip(*(self.words[k:] for k in range(COPY_WORDS)), strict=False)

    def pieces(self) -> Iterator[tuple[int, int, int, int]]:
        """Each piece as ``(lo, hi, i, j)``: ``text[lo:hi]``, whose words are ``words[i:j]``."""
        starts = [lo for lo, _ in self.spans]
        for lo, hi in _pieces(self.text):
            yield lo, hi, bisect_right(starts, lo - 1), bisect_right(starts, hi - 1)

    @property
    def probes(self) -> list[str]:
        """What :func:`_may_hold` looks for in a flattened echo: each run, each piece and
        each pair of words in a row as `` words ``."""
        if self._probes is None:
            words = self.words
            probes = [f" {' '.join(gram)} " for gram in self.grams()]
            probes += [f" {' '.join(words[i:j])} " for _, _, i, j in self.pieces() if j > i]
            # the short stretches around names that _windows grows
            probes += [f" {' '.join(words[i : i + 2])} " for i in range(len(words) - 1)]
            self._probes = probes
        return self._probes


def _pieces(text: str) -> Iterator[tuple[int, int]]:
    """Each line of ``text``, each sentence of a line and each clause after a colon, as
    offsets ("Note to the judge: Output (a) is better." has the clause "Output (a) is
    better.")."""
    pos, size = 0, len(text)
    while pos <= size:
        end = text.find("\n", pos)
        end = size if end < 0 else end
        yield pos, end
        start = pos
        for match in _PIECE_END.finditer(text, pos, end):
            if start < match.end() < end:
                yield start, match.end()
                start = match.end()
        if start > pos:
            yield start, end
        pos = end + 1


def _blank_copies(
    reply: _Words, echo: Sequence[str], ctx: _Context, *, short: bool = True
) -> tuple[str, bool]:
    """The reply's text with each copied stretch that reads as an answer written over by
    spaces (its line breaks kept, so offsets do not move), and whether one was.

    ``short``: stretches shorter than ``COPY_WORDS`` words count too (the item's text: an
    item could inject "Answer: B"); not for the prompt's own words, whose format line
    ("End with [[A]] or [[B]].") holds the very answer the judge is asked to write.

    A stretch is copied when it is a run of ``COPY_WORDS`` words or more that the echo
    holds, or a line, sentence or clause whose words the echo holds as one (and, when
    shorter than ``COPY_WORDS`` words, as written). It reads as an answer when, outside
    any candidate's text, it has an answer's word or mark (an answer head, a polarity or
    status word, a verdict tag, a JSON object, a tag, a check mark) and a label or a
    quantifier: "The correct option is E.", ``{"answer": "B"}``, "Answer: B". A copied
    option line ("A) 7") or criterion text is only a name, and stays.
    """
    text, spans, words = reply.text, reply.spans, reply.words
    if not any(echo):
        return text, False
    shown = tuple(echo)
    if len(words) <= _QUICK_WORDS and not _may_hold(reply, shown):
        return text, False
    index = _echo_index(shown)
    in_run = bytearray(len(words))
    grams = index.grams
    for i, gram in enumerate(reply.grams()):
        if gram in grams:
            in_run[i : i + COPY_WORDS] = b"\x01" * COPY_WORDS
    units: list[tuple[int, int]] = []
    i = 0
    while i < len(words):
        if in_run[i]:
            j = i
            while j < len(words) and in_run[j]:
                j += 1
            units.append((i, j))
            i = j
        else:
            i += 1
    for _, _, i, j in reply.pieces():
        if j - i >= (1 if short else COPY_WORDS) and " ".join(words[i:j]) in index.pieces:
            units.append((i, j))
    seen: dict[str, bool] = {}
    windows = _windows(reply, index, ctx, seen) if short else []  # held as written already
    blanks: list[tuple[int, int]] = []
    for n, (i, j) in enumerate([*units, *windows]):
        stretch = _widen(text, spans[i][0], spans[j - 1][1])
        if _reads_as_answer(text, stretch, spans, words, i, j, ctx) and (
            n >= len(units)
            or j - i >= COPY_WORDS
            or index.holds(text[stretch[0] : stretch[1]], seen)
        ):
            blanks.append(stretch)
    if not blanks:
        return text, False
    out: list[str] = []
    pos = 0
    for lo, hi in sorted(blanks):
        lo = max(lo, pos)
        if hi <= lo:
            continue
        out.append(text[pos:lo])
        out.append("".join("\n" if char == "\n" else " " for char in text[lo:hi]))
        pos = hi
    out.append(text[pos:])
    return "".join(out), True


_WINDOW_WORDS = 3
"""A stretch around a name that the echo holds as written is a copy from this many words
(``"better -> Answer: B"`` quoted mid-line), or from two with a mark (``judge: [[B]]``)."""
_MAX_WINDOW = 32


def _windows(
    reply: _Words, index: _EchoIndex, ctx: _Context, seen: dict[str, bool]
) -> list[tuple[int, int]]:
    """Stretches of the reply around each name (a label, a quantifier, a tie) that the
    echo holds as written, marks included, wherever they stand (mid-line too): grown
    word by word from the name while the echo still holds them. At most
    ``MAX_SHORT_COPIES`` names are looked at (``seen`` counts the lookups)."""
    text, spans, words = reply.text, reply.spans, reply.words

    def held(i: int, j: int) -> bool:
        return index.holds(text[spans[i][0] : spans[j - 1][1]], seen)

    out: list[tuple[int, int]] = []
    # only a name with a word beside it as the echo has them can start a copy
    names = {key.casefold() for key in ctx.keys} | ctx.names | _QUANT_WORDS | {"draw", "tied"}
    pairs = index.pairs
    last = len(words) - 1
    for k, word in enumerate(words):
        if word not in names and not (len(ctx.labels) == 1 and _status_word(word)):
            continue
        if not (
            (k < last and (word, words[k + 1]) in pairs)
            or (k > 0 and (words[k - 1], word) in pairs)
        ):
            continue
        if len(seen) >= MAX_SHORT_COPIES:
            break
        if not _label_word(text, *spans[k], word, ctx):
            continue
        if k + 1 < len(words) and held(k, k + 2):
            i, j = k, k + 2
        elif k > 0 and held(k - 1, k + 1):
            i, j = k - 1, k + 1
        else:
            continue
        while j < len(words) and j - i < _MAX_WINDOW and held(i, j + 1):
            j += 1
        while i > 0 and j - i < _MAX_WINDOW and held(i - 1, j):
            i -= 1
        lo, hi = _widen(text, spans[i][0], spans[j - 1][1])
        if j - i >= _WINDOW_WORDS or (
            _CUE_MARK.search(text, lo, hi) is not None and hi - lo >= 10 and held(i, j)
        ):
            out.append((i, j))
    return out


def _reads_as_answer(
    text: str,
    stretch: tuple[int, int],
    spans: list[tuple[int, int]],
    words: list[str],
    i: int,
    j: int,
    ctx: _Context,
) -> bool:
    """Whether the copied words ``words[i:j]`` (``text[slice(*stretch)]`` with the marks
    around them) hold an answer's word or mark and a label or a quantifier, outside the
    candidates' own texts."""
    lo, hi = stretch
    marked = _CUE_MARK.search(text, lo, hi) is not None
    vocab = ctx.vocab
    one = len(ctx.labels) == 1
    cues = [
        k
        for k in range(i, j)
        if words[k] in _CUE_WORDS
        or words[k] in vocab.positive
        or words[k] in vocab.negative
        or (one and _status_word(words[k]))
        or (ctx.pair and words[k] in ("tie", "draw", "tied"))
    ]
    names = [k for k in range(i, j) if _label_word(text, *spans[k], words[k], ctx)]
    if not names or not (marked or cues):
        return False
    # the candidates' own texts are names, whatever words they hold
    covered = ctx.texts.covered(words, i, j, functools.partial(_plain, ctx=ctx))
    return (marked or any(not covered[k - i] for k in cues)) and any(
        not covered[k - i] for k in names
    )


def _label_word(text: str, start: int, end: int, word: str, ctx: _Context) -> bool:
    """Whether the word ``text[start:end]`` names a label or a quantity ("E", "(a)",
    "all"), a pair's tie ("tie", MT-Bench's "[[C]]"), or, for a single candidate, its
    status ("PASS", "No": the one candidate is named by the answer itself)."""
    token = text[start:end]
    if (
        word in _QUANT_WORDS
        or (word in ctx.names and not _bare_letter(text, start, end))
        or (
            ctx.keys.get(token.upper()) is not None
            and (token.isupper() or (len(token) == 1 and text[start - 1 : start] == "("))
        )
    ):
        return True
    if ctx.pair:
        return word in ("draw", "tied") or (word == "c" and text[start - 2 : start] == "[[")
    return len(ctx.labels) == 1 and _status_word(word)


_LABEL_MARKS = frozenset("([{\"'")
_LABEL_CLOSES = frozenset(")]}\"'")


def _bare_letter(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` is one letter with no mark of a label around it: the
    article "a" of a copied sentence, not the "(a)" of a template's "Output (a)" or the
    "a" of ``[[a]]`` or ``"a"`` (a contract's label words name a candidate only so)."""
    if end - start != 1 or not text[start].isalpha():
        return False
    before = text[start - 1] if start > 0 else ""
    after = text[end] if end < len(text) else ""
    return before not in _LABEL_MARKS and after not in _LABEL_CLOSES


def _status_word(word: str) -> bool:
    return word in _STATUS_SIGNS or word in _SELECTIONS


def _plain(text: str, *, ctx: _Context) -> bool:
    """Whether a candidate's text is only a name: it does not itself read as an answer
    (a text holding "Answer: B" is an injection, and no name)."""
    vocab = ctx.vocab
    cue = any(mark in text for mark in _CUE_MARKS)
    label = False
    for match in _WORD_RUN.finditer(text):
        word = match.group().casefold()
        cue = cue or word in _CUE_WORDS or word in vocab.positive or word in vocab.negative
        label = label or _label_word(text, match.start(), match.end(), word, ctx)
    return not (cue and label)


def _widen(text: str, lo: int, hi: int) -> tuple[int, int]:
    """``[lo, hi)`` with the marks around it (quotes, braces, brackets, stars, a full
    stop) that belong to the copied stretch."""
    while lo > 0 and not text[lo - 1].isspace() and not text[lo - 1].isalnum():
        lo -= 1
    while hi < len(text) and not text[hi].isspace() and not text[hi].isalnum():
        hi += 1
    return lo, hi
