"""Polarity confusion: a reply that reads as an answer to the opposite question."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable

from prin_guard.models import Polarity, Task
from prin_guard.reader._text import WINDOW
from prin_guard.reader._vocab import _Vocab

# Nouns a reply names its answer with: "the correct answer", "options are wrong".
_CONFUSION_NOUN = (
    r"(?:answers?|options?|choices?|ones?|candidates?|responses?|outputs?|criteria|criterion"
    r"|claims?)"
)


def detect_polarity_confusion(
    text: str | None,
    polarity: Polarity,
    *,
    words: tuple[str, str] | None = None,
    task: Task = "choice",
) -> bool:
    """Whether a reply reads as an answer to the opposite question.

    A reverse leg is confused when it speaks of the correct answer(s) and never of
    incorrect ones ("The correct answer is c)"); a direct leg when it speaks only
    of incorrect ones. Replies that mention both are given the benefit of the
    doubt: they usually discuss each option.

    ``words``: the template's ``(positive, negative)`` words, as for
    :func:`parse_reply`, such as ``("accurate", "inaccurate")``: "The accurate answer
    is C." is then confused on the reverse leg. The words the parser always knows for
    the ``task`` (the paper's "correct" and "incorrect", "better" and "worse", "met"
    and "not met", and the bundled templates') count for every template.
    """
    if not text:
        return False
    if len(text) > 2 * WINDOW:  # read as the parse reads a long reply: its two ends
        text = text[:WINDOW] + "\n\n" + text[-WINDOW:]
    positive_phrase, negative_phrase = _confusion_patterns(words, task)
    positive = positive_phrase.search(text) is not None
    negative = negative_phrase.search(text) is not None
    if polarity is Polarity.REVERSE:
        return positive and not negative
    return negative and not positive


@functools.lru_cache(maxsize=64)
def _confusion_patterns(
    words: tuple[str, str] | None, task: Task = "choice"
) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """The phrases that name an answer in positive words ("the correct answer", "options
    are right") and in negative ones ("incorrect options", "answer is not correct"), in
    the vocabulary the parser reads with these ``words``. Built on first use, once per
    pair of words: a template's words are not known at import."""
    vocab = _Vocab.of(words, task)
    positive = _any_of(vocab.positive)
    negative = rf"(?:{_any_of(vocab.negative)}|not\s+{positive})"
    noun = _CONFUSION_NOUN
    return (
        re.compile(
            rf"(?<![\w-])(?<!not )(?<!to ){positive}\s+{noun}\b"
            rf"|\b{noun}\s+(?:is|are)\s+{positive}\b",
            re.IGNORECASE,
        ),
        re.compile(rf"\b{negative}\s+{noun}\b|\b{noun}\s+(?:is|are)\s+{negative}\b", re.IGNORECASE),
    )


def _any_of(words: Iterable[str]) -> str:
    """A group that matches any of ``words`` (a word of several words across any
    spacing), longest first."""
    spelled = {r"\s+".join(map(re.escape, word.split())) for word in words if word.strip()}
    return f"(?:{'|'.join(sorted(spelled, key=lambda word: (-len(word), word)))})"
