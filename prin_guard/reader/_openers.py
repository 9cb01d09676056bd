"""A choice reply's opening lines that say nothing about the answer (issue 38): a sentence
that names no label, no candidate's text, no side, no quantifier and no position ("Let me
think this through carefully."), the item's question restated ("Question: <the
question>"), or the item's options restated whole, each label with its own text, in the
order shown ("The options are:\\nA) Paris\\nB) Rome ..."). None of them is the judge's
answer, and a rule that reads a terse reply ("B, D", "B. 1914", "Canberra.") needs the
answer to be the whole reply: they are written over by spaces (line breaks kept: offsets
hold), so what follows is read as if it were the whole reply.

Nothing is written over unless some reply is left after it; an opening line that says
anything (a label, a text, a side, "none", "the first", a number, a negation, a partial
list of options, a line leading into what follows with a colon) ends the opener, and the
rest of the reply is read whole, as written."""

from __future__ import annotations

import re
from collections.abc import Callable

from prin_guard.reader._evidence import _Context

_MAX_SENTENCE = 160
_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*")
_SAYS = frozenset({
    "not", "no", "none", "neither", "nor", "never", "nothing", "all", "both", "each", "every",
    "any", "only", "except", "but", "other", "others", "rest", "remaining", "one", "ones",
    "two", "three", "four", "five", "six", "first", "second", "third", "fourth", "fifth",
    "last", "former", "latter", "above", "below", "previous", "next", "these", "those", "they",
    "them", "their", "answer", "answers", "answered", "option", "options", "choice", "choices",
    "candidate", "candidates", "pick", "picks", "picked", "choose", "chose", "chosen",
    "select", "selected", "selection", "correct", "incorrect", "right", "wrong", "true",
    "false", "yes", "agree", "disagree", "same", "also", "too", "either", "likewise",
    "exclude", "excluded", "eliminate", "rule", "odd", "even", "best", "worst", "better",
    "worse", "fine", "valid", "invalid", "wins", "win", "winner", "tie",
})  # fmt: skip
"""Words that may say something of the candidates (a side, a quantifier, a position, a
choice): a sentence holding one is no opener."""
_STOP = frozenset({
    "the", "a", "an", "of", "and", "or", "to", "in", "on", "at", "by", "for", "is", "are",
    "was", "be", "it", "its", "with", "as",
})  # fmt: skip
_QUESTION_HEAD = re.compile(
    r"^[^\S\n]*(?:\*\*|__)?(?:question|q|the question(?: is| asks)?)[^\S\n]*(?:\*\*|__)?"
    r"[^\S\n]*:[^\S\n]*(?:\*\*|__)?[^\S\n]*",
    re.IGNORECASE,
)
_OPTIONS_HEAD = re.compile(
    r"^[^\S\n]*(?:\*\*|__)?(?:the )?(?:options|choices|candidates|answer choices)"
    r"(?: are| were| given| given are)?[^\S\n]*(?:\*\*|__)?[^\S\n]*:[^\S\n]*(?:\*\*|__)?[^\S\n]*$",
    re.IGNORECASE,
)
_OPTION_LINE = re.compile(
    r"^[^\S\n]*(?:[-*•][^\S\n]*)?(?:\*\*)?\(?(?P<label>[^\W_]{1,3})\)?(?:\*\*)?"
    r"(?:[).:\]]|[^\S\n]+-)[^\S\n]*(?P<text>.*?)[^\S\n]*$"
)


def _same(a: str, b: str) -> bool:
    """``a`` and ``b`` the same text, case, spacing, emphasis and a closing stop aside."""

    def norm(s: str) -> str:
        return " ".join(s.replace("**", "").replace("__", "").split()).rstrip(".").casefold()

    return bool(norm(a)) and norm(a) == norm(b)


def _text_words(ctx: _Context) -> frozenset[str]:
    return frozenset(
        word.casefold()
        for _, given in ctx.texts.pairs()
        for word in _WORD.findall(given)
        if word.casefold() not in _STOP
    )


def _says_nothing(line: str, ctx: _Context, named: Callable[[], frozenset[str]]) -> bool:
    """Whether ``line`` is a sentence that names no label, text, side, quantifier or
    position: "Let me think this through carefully."."""
    said = line.strip()
    if not said or len(said) > _MAX_SENTENCE or said[-1] not in ".!…":
        return False
    if any(char.isdigit() for char in said) or any(mark in said for mark in ':;"“”()[]{}*`#|'):
        return False
    words = _WORD.findall(said)
    if len(words) < 2:
        return False
    sides = ctx.vocab.positive | ctx.vocab.negative
    labels = set(ctx.labels)
    folded = {label.casefold() for label in ctx.labels}
    for word in words:
        low = word.casefold()
        if word in labels or (len(word) == 1 and low in folded and low not in ("a", "i")):
            return False
        if low in _SAYS or low in sides or low.endswith(("n't", "n’t")):
            return False
    if any(word.casefold() in ctx.vocab.asks for word in words):
        return False  # in the question's own words: it may answer it
    texts = named()  # the candidates' words, looked at last
    return not any(_names(word.casefold(), texts) for word in words)


def _names(word: str, texts: frozenset[str]) -> bool:
    """Whether ``word`` may be one of the candidates' words, in any form ("apples" of
    "apple", "flowering" of "flower"): one begins the other, three letters or more."""
    if word in texts:
        return True
    return len(word) >= 3 and any(
        len(given) >= 3 and (word.startswith(given) or given.startswith(word)) for given in texts
    )


def _question_lines(lines: list[str], at: int, ctx: _Context) -> int:
    """How many lines from ``at`` restate the item's question (0: none)."""
    asked = ctx.vocab.question.strip()
    if not asked:
        return 0
    count = asked.count("\n") + 1
    if at + count > len(lines):
        return 0
    first = _QUESTION_HEAD.sub("", lines[at], count=1)
    said = "\n".join([first, *lines[at + 1 : at + count]])
    return count if _same(said, asked) else 0


def _option_lines(lines: list[str], at: int, ctx: _Context) -> int:
    """How many lines from ``at`` restate the item's options whole, in order, each label
    with its own text, after a head ("The options are:") or none (0: none)."""
    start = at + 1 if _OPTIONS_HEAD.match(lines[at]) else at
    first = _OPTION_LINE.match(lines[start]) if start < len(lines) else None
    if first is None or not ctx.labels or first.group("label") != ctx.labels[0]:
        return 0  # no list of the options: their texts are not looked at
    pairs = list(ctx.texts.pairs())
    if len(pairs) < 2 or start + len(pairs) > len(lines):
        return 0
    for (label, given), line in zip(pairs, lines[start : start + len(pairs)], strict=False):
        found = _OPTION_LINE.match(line)
        if found is None or found.group("label") != label or not _same(found["text"], given):
            return 0
    return start - at + len(pairs)


def blank_openers(text: str, ctx: _Context, written: str | None = None) -> str:
    """``text`` with its opening lines that say nothing about the answer written over by
    spaces, when a reply is left after them. ``written``: the same reply before copies
    were blanked in it (same offsets), where the opener is told: a restated question
    that holds an answer's words is already blanked in ``text``, and must still be
    told a copy."""
    if ctx.task != "choice" or "\n" not in text.strip():
        return text  # one line: no reply after an opener
    lines = (text if written is None or len(written) != len(text) else written).split("\n")
    words: list[frozenset[str]] = []

    def named() -> frozenset[str]:
        if not words:
            words.append(_text_words(ctx))
        return words[0]

    at = 0
    opened = 0  # the lines of the opener
    while at < len(lines):
        if not lines[at].strip():
            at += 1
            continue
        taken = (
            _question_lines(lines, at, ctx)
            or _option_lines(lines, at, ctx)
            or int(_says_nothing(lines[at], ctx, named))
        )
        if not taken:
            break
        at += taken
        opened = at
    end = len("\n".join(lines[:opened]))
    if not opened or not text[end:].strip():
        return text
    return "".join(char if char == "\n" else " " for char in text[:end]) + text[end:]
