"""The negation-explanation wording (issue 38, set F): a prompt that explains the reverse
question as "which options do not answer the question?" gets replies in those words: "The
options that do not answer the question are A, C and D.", "Options that don't answer the
question: B, D". Such a phrase is the reverse side's status ("the incorrect options"), and
"the options that answer the question" the direct side's. It is written over in the
reader's own status words (same length, offsets kept) before the reply is read, so every
stage reads it as it reads "The incorrect options are ...", on either leg."""

from __future__ import annotations

import re

_NOUN = r"(?P<n>options?|choices?|ones?|answers?|candidates?)"
_PHRASE = re.compile(
    rf"\b{_NOUN}[^\S\n]+(?:that|which)[^\S\n]+(?:(?P<neg>(?:do|does)[^\S\n]+not|don[’']t"
    r"|doesn[’']t|fail[^\S\n]+to|cannot|can[’']t)[^\S\n]+)?(?:(?:correctly|actually|really)"
    r"[^\S\n]+)?answers?[^\S\n]+(?:the|this)[^\S\n]+question\b",
    re.IGNORECASE,
)
_ANY = re.compile(r"answers?[^\S\n]+(?:the|this)[^\S\n]+question", re.IGNORECASE)


def _status(match: re.Match[str]) -> str:
    words = ("incorrect " if match.group("neg") else "correct ") + match.group("n")
    return words.ljust(len(match.group()))


def in_status_words(text: str) -> str:
    """``text`` with each "options that (do not) answer the question" written over as
    "(in)correct options"."""
    if _ANY.search(text) is None:
        return text
    return _PHRASE.sub(_status, text)
