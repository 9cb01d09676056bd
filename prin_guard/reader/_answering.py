"""The negation-explanation wording (issue 38, set F): a prompt that explains the reverse
question as "which options do not answer the question?" gets replies in those words: "The
options that do not answer the question are A, C and D.", "Options that don't answer the
question: B, D". Such a phrase is the reverse side's status ("the incorrect options"), and
"the options that answer the question" the direct side's. It is written over in the
reader's own status words (same length, offsets kept) before the reply is read, so every
stage reads it as it reads "The incorrect options are ...", on either leg."""

from __future__ import annotations

import functools
import re

from prin_guard.reader._evidence import _Context
from prin_guard.reader._text import _Pattern
from prin_guard.tasks._words import TASK_WORDS

_NOUN = r"(?P<n>options?|choices?|ones?|answers?|candidates?)"
_PHRASE = _Pattern(
    rf"\b{_NOUN}[^\S\n]+(?:that|which)[^\S\n]+(?:(?P<neg>(?:do|does)[^\S\n]+not|don[’']t"
    r"|doesn[’']t|fail[^\S\n]+to|cannot|can[’']t)[^\S\n]+)?(?:(?:correctly|actually|really)"
    r"[^\S\n]+)?answers?[^\S\n]+(?:the|this)[^\S\n]+question\b",
    re.IGNORECASE,
)
_ANY = _Pattern(r"answers?[^\S\n]+(?:the|this)[^\S\n]+question", re.IGNORECASE)
# Cheap looks first, so that a reply without these forms reads no candidate text: a
# label's stop inside a line ("are A. Peru"), a list item that ends on a label ("* Rome (C)")
_INLINE_STOP = _Pattern(r"\S[^\S\n]+[*_]*\(?[A-Za-z0-9]{1,3}\.[^\S\n]+\S")
_TEXT_FIRST_ITEM = _Pattern(
    r"^[^\S\n]*(?:[-*•+]|\d{1,2}[.)])[^\S\n]+[^\n()]{1,200}\([A-Za-z0-9]{1,3}\)",
    re.MULTILINE,
)


def _status(match: re.Match[str]) -> str:
    words = ("incorrect " if match.group("neg") else "correct ") + match.group("n")
    return words.ljust(len(match.group()))


def in_status_words(text: str) -> str:
    """``text`` with each "options that (do not) answer the question" written over as
    "(in)correct options"."""
    if _ANY.search(text) is None:
        return text
    return _PHRASE.compiled.sub(_status, text)


def label_marks(text: str, ctx: _Context) -> str:
    """``text`` with a label's full stop written as ")" where the label's own candidate
    text follows it ("The correct answers are A. Peru and C. Chile." as "A) Peru and C)
    Chile"): the stop marks the label, it ends no sentence. Only after a word on its line:
    at a line's head, under a bullet or a box, "A. Peru" is an option's own line."""
    if _INLINE_STOP.search(text) is None:
        return text
    if (pattern := _marked(tuple(ctx.texts.pairs()))) is None:
        return text

    def mark(found: re.Match[str]) -> str:
        line = text[text.rfind("\n", 0, found.start()) + 1 : found.start()]
        if _WORD.search(line) is None:
            return found.group()  # an option's own line ("B. Sydney", "- [x] B. Sydney")
        return found.group()[:-1] + ")"

    return pattern.sub(mark, text)


_WORD = _Pattern(r"[A-Za-z]{2,}")


@functools.lru_cache(maxsize=64)
def _marked(pairs: tuple[tuple[str, str], ...]) -> re.Pattern[str] | None:
    forms = [
        rf"{re.escape(label)}(?=\.[^\S\n]+[*_]*{re.escape(text.strip())}(?!\w))"
        for label, text in pairs
        if text.strip() and label.strip()
    ]
    if not forms:
        return None
    return re.compile(rf"(?<![\w.])(?:{'|'.join(forms)})\.", re.IGNORECASE)


def labels_first(text: str, ctx: _Context) -> str:
    """``text`` with each list item written text first ("* **Hamlet** (A)") written label
    first ("* (A) **Hamlet**", the same characters): the form every list reader reads.
    Only where the text is the label's own candidate's."""
    if _TEXT_FIRST_ITEM.search(text) is None:
        return text
    pairs = tuple(ctx.texts.pairs())
    if (pattern := _text_first(pairs)) is None:
        return text
    own = {label.casefold(): text.strip().casefold() for label, text in pairs}

    def swap(found: re.Match[str]) -> str:
        said = found.group("t").strip("*_").casefold()
        if own.get(found.group("l").casefold()) != said:
            return found.group()
        return found.group("p") + "(" + found.group("l") + ")" + found.group("g") + found.group("t")

    return pattern.sub(swap, text)


@functools.lru_cache(maxsize=64)
def _text_first(pairs: tuple[tuple[str, str], ...]) -> re.Pattern[str] | None:
    texts = sorted({text.strip() for _, text in pairs if text.strip()}, key=len, reverse=True)
    labels = sorted({label.strip() for label, _ in pairs if label.strip()}, key=len, reverse=True)
    if not texts or not labels:
        return None
    return re.compile(
        r"^(?P<p>[^\S\n]*(?:[-*•+]|\d{1,2}[.)])[^\S\n]+)"
        rf"(?P<t>[*_]*(?:{'|'.join(map(re.escape, texts))})[*_]*)(?P<g>[^\S\n]*)"
        rf"\((?P<l>{'|'.join(map(re.escape, labels))})\)",
        re.IGNORECASE | re.MULTILINE,
    )


def in_own_nouns(text: str, ctx: _Context) -> str:
    """``text`` with the question's own noun after a status word written over as
    "ones"/"one" (same length, offsets kept): "the incorrect numbers are B and D" reads as
    "the incorrect ones are B and D" on "Which of these numbers are prime?", as every
    stage reads the task's nouns. Only after the task's own status words ("correct",
    "wrong"), not the question's predicate ("the prime numbers are ...", read by its own
    stages); only a noun of four letters or more, so that the word fits."""
    noun = ctx.vocab.noun
    if ctx.task != "choice" or not noun or noun.lower() not in text.lower():
        return text
    pattern = _own_noun(noun)
    if pattern is None:
        return text
    words = TASK_WORDS[ctx.task].positive | TASK_WORDS[ctx.task].negative

    def write(found: re.Match[str]) -> str:
        if found.group("adj").lower() not in words:
            return found.group()
        plural = found.group("n").lower() != noun
        over = "ones" if plural else "one"
        return found.group()[: found.start("n") - found.start()] + over.ljust(len(found.group("n")))

    return pattern.sub(write, text)


@functools.lru_cache(maxsize=64)
def _own_noun(noun: str) -> re.Pattern[str] | None:
    forms = {noun + "s", noun + "es"} | ({noun[:-1] + "ies"} if noun.endswith("y") else set())
    forms = {form for form in forms if len(form) >= len("ones")}
    if len(noun) >= len("one"):
        forms.add(noun)
    if not forms:
        return None
    alternatives = "|".join(sorted(map(re.escape, forms), key=len, reverse=True))
    return re.compile(
        rf"(?<![\w-])(?P<adj>[A-Za-z]+)[^\S\n]+(?P<n>{alternatives})(?![\w-])", re.IGNORECASE
    )
