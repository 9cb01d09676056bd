"""A reply's closing lines: notes, sign-offs and offers of help after what it says.

A judge often ends its reply with a line that is about the reply, not about the
candidates: "Note: this is a tricky question.", "I hope this helps!", "Let me know if you
want more detail." Such a line, when it names no label, no option text and no side,
changes nothing a careful reader reads: the reply is read without it (:func:`closers_start`,
once, before any stage). A line of the same shape that names one ("Note: B is also
correct.", "Hope this helps: the answer is B.") is read with the rest.

Whether a reply was cut off is a question of its last substantive part: a reply that stops
open ("... The answer is") is cut off whatever closing lines follow it, even ones that
quote an option's text (:func:`closing_start`, the lines of a closer's shape whatever they
name).
"""

from __future__ import annotations

import re

from prin_guard.reader._evidence import _Context

# What opens a closing line: a note's heading, a sign-off, an offer of help; markdown,
# a bracket or a quote mark before it
_CLOSER = re.compile(
    r"[ \t]*[>*_#(\[]*[ \t]*(?:"
    r"(?P<note>(?:side\s+|final\s+|quick\s+|small\s+)?notes?|n\.?\s?b\.?|p\.\s?s\.?|ps|"
    r"disclaimer|caveat|remark|reminder)[ \t]*[*_)\]]*[ \t]*(?:[:—–-]|(?<=\.)(?=[ \t]))"
    r"|(?P<signoff>(?:i\s+)?hope\s+(?:this|that|it|my\s+\w+)\s+(?:helps|helped|"
    r"(?:was|is)\s+(?:helpful|clear|useful)|clarifies|makes\s+sense)"
    r"|let\s+me\s+know\b|feel\s+free\b|don['’]?t\s+hesitate\b|do\s+not\s+hesitate\b"
    r"|(?:good|best\s+of)\s+luck\b|happy\s+(?:to\s+help|studying|learning|coding)\b"
    r"|glad\s+(?:to|i\s+could)\s+help\b|thanks?\b|thank\s+you\b|cheers\b"
    r"|if\s+you\s+have\s+(?:any\s+)?(?:other\s+|more\s+|further\s+|additional\s+)?"
    r"questions\b|(?:is\s+there\s+)?anything\s+else\b)"
    r")",
    re.IGNORECASE,
)

_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)*")

# Words that name a side, a candidate, a pick or a position, that turn what was said or
# hedge it: a closing line with one of them may carry a verdict ("Note: none of them is
# right.", "Note: the question is ambiguous.")
_VERDICT_WORDS = frozenset(
    {
        "answer", "answers", "answered", "option", "options", "choice", "choices",
        "candidate", "candidates", "output", "outputs", "response", "responses",
        "assistant", "verdict", "conclusion", "result", "label", "labels", "letter",
        "right", "wrong", "correct", "correctly", "incorrect", "incorrectly", "true",
        "false", "best", "better", "worse", "worst", "valid", "invalid", "accurate",
        "inaccurate", "pick", "picked", "picks", "choose", "chose", "chosen", "select",
        "selected", "prefer", "preferred", "agree", "disagree", "yes", "no", "none",
        "all", "both", "neither", "either", "each", "every", "only", "any", "first",
        "second", "third", "fourth", "fifth", "last", "former", "latter", "above",
        "below", "one", "ones", "two", "three", "four", "also", "too", "other",
        "others", "instead", "rather", "not", "never", "nor", "wins", "winner", "tie",
        "tied", "equal", "equally", "same", "except", "but", "however", "actually",
        "wait", "though", "although", "unless", "them", "these", "those", "they",
        "fits", "holds", "applies", "apply", "qualifies", "qualify", "excluded",
        "include", "includes", "included", "exclude", "excludes", "go", "going",
        "ambiguous", "ambiguity", "unsure", "sure", "uncertain", "certain", "unclear",
        "depends", "might", "may", "perhaps", "possibly", "probably", "likely", "arguably",
        "guess", "confident", "doubt", "assume", "assumed", "assuming", "interpretation",
    }
)  # fmt: skip

# Words of an option's text that name nothing on their own
_PLAIN = frozenset(
    {
        "the", "and", "for", "with", "this", "that", "are", "was", "were", "its", "from",
        "into", "has", "have", "had", "you", "your", "our", "his", "her", "their", "can",
        "will", "been", "being", "than", "then", "there", "here", "what", "which", "who",
        "how", "why", "when", "where", "more", "most", "less", "very", "some", "such",
    }
)  # fmt: skip

# What "I" is a label of before it: "I is the answer", "I, too"; before other words
# ("I hope", "I read ...") it is the pronoun
_LABEL_I_NEXT = frozenset(
    {
        "is", "was", "are", "were", "seems", "looks", "and", "or", "would", "could", "might",
        "may", "should", "must", "can", "will", "fits", "wins", "matches", "holds", "remains",
        "stays", "alone", "also", "too", "as", "has", "does",
    }
)  # fmt: skip


_CHUNK = 4096


def _lines_back(text: str, hi: int) -> tuple[int, int] | None:
    """The last line of ``text[:hi]`` with words on it: its start and end."""
    end = hi
    while end:  # stripped a chunk at a time: no copy of the whole text, and a megabyte
        low = max(0, end - _CHUNK)  # of trailing spaces is stepped over at C's speed
        kept = len(text[low:end].rstrip())
        end = low + kept
        if kept:
            break
    if end == 0:
        return None
    return text.rfind("\n", 0, end) + 1, end


def closing_start(text: str) -> int:
    """Where the closing lines of a reply's shape begin (a note, a sign-off, an offer of
    help, whatever they name): ``len(text)`` when it ends on none, never 0 (a reply of
    closing lines alone is all it says)."""
    hi = len(text)
    while (line := _lines_back(text, hi)) is not None:
        start, end = line
        if start == 0 or _CLOSER.match(text, start, end) is None:
            break
        hi = start
    return hi if _lines_back(text, hi) is not None else len(text)


def closers_start(text: str, ctx: _Context) -> int:
    """Where a reply's closing lines that name no label, no option text and no side begin
    (``len(text)`` when it ends on none): the reply is read up to there. A line that
    names one, and every line before it, is read."""
    hi = len(text)
    while (line := _lines_back(text, hi)) is not None:
        start, end = line
        opened = _CLOSER.match(text, start, end) if start else None
        if opened is None or _names_something(text[opened.end() : end], ctx):
            break
        hi = start
    return hi if _lines_back(text, hi) is not None else len(text)


def _names_something(rest: str, ctx: _Context) -> bool:
    """Whether the words of a closing line after its opening may carry a verdict: a
    label, a word of an option's text, a number, a side's or a pick's word."""
    if any(c.isdigit() for c in rest) or "n't" in rest.lower() or "n’t" in rest.lower():
        return True
    sides = ctx.vocab.positive | ctx.vocab.negative | _VERDICT_WORDS
    texts = _text_words(ctx)
    for match in _WORD.finditer(rest):
        word = match.group()
        lower = word.lower()
        if lower in sides or lower in texts or lower in ctx.names:
            return True
        if lower in ctx.vocab.predicate or (ctx.vocab.noun and lower == ctx.vocab.noun):
            return True
        if _is_label(word, rest, match.end(), ctx):
            return True
    return any(_is_label(label, rest, 0, ctx) for label in ctx.labels if not label.isalnum())


def _text_words(ctx: _Context) -> frozenset[str]:
    words = set[str]()
    for _, text in ctx.texts.pairs():
        for match in _WORD.finditer(text.lower()):
            word = match.group()
            if (len(word) >= 3 or any(c.isdigit() for c in word)) and word not in _PLAIN:
                words.add(word)
    return frozenset(words)


def _is_label(word: str, rest: str, after: int, ctx: _Context) -> bool:
    """Whether ``word`` of a closing line (ending at ``after``) names a candidate by its
    label; a label that is not one word ("Output (a)") anywhere in the line."""
    if not word.isalnum():
        return word.lower() in rest.lower()
    if word in ctx.labels:
        if word == "I":
            following = _WORD.match(rest, len(rest) - len(rest[after:].lstrip()))
            next_word = following.group().lower() if following else ""
            pronoun = rest[after : after + 1] in ("'", "’")
            return not pronoun and (not next_word or next_word in _LABEL_I_NEXT)
        return True
    if len(word) == 1 and word.upper() in ctx.keys and word not in ("a", "i"):
        return True  # "b" of label B
    return len(word) > 1 and word.upper() in ctx.keys
