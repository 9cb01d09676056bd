"""A corrected answer under its own heading (issue 38, set F): "## Answer\\n**Venus**\\n...\\n##
Corrected Answer\\n**(B) Mercury**", "**Initial answer:** A\\n**Corrected answer:** B",
"### Correction\\nThe answer is (B).". The heading says the reply's answer starts again
there, so what came before it is no conclusion: it is blanked (same length, offsets kept)
before the reply is read. A heading with nothing under it leaves nothing to read: a reply
cut in the middle of its correction has no answer."""

from __future__ import annotations

import re

from prin_guard.reader._text import _Pattern

# A line that opens with a corrected answer's heading or key, in markdown or plain: "##
# Corrected Answer", "Revised final answer:", "Updated answer: (A) Emma"; or a heading
# "Correction" alone on its line ("Correction: D is also accurate." corrects in place).
_HEADING = _Pattern(
    r"^[^\S\n]*(?:#{1,6}[^\S\n]*)?[*_]*[^\S\n]*(?:(?:corrected|revised|updated|amended|fixed)"
    r"[^\S\n]+(?:final[^\S\n]+)?answers?\b[^\S\n]*[*_]*[^\S\n]*(?::|$)"
    r"|correction[^\S\n]*[*_]*[^\S\n]*:?[^\S\n]*[*_]*[^\S\n]*$)",
    re.IGNORECASE | re.MULTILINE,
)

_NOT_BREAK = _Pattern(r"[^\n]")


def blank_before_correction(text: str) -> str:
    """``text`` with everything before its last correction heading blanked (line breaks
    kept), or ``text`` itself when it has none."""
    starts = [found.start() for found in _HEADING.finditer(text)]
    if not starts or not text[: starts[-1]].strip():
        return text
    return _NOT_BREAK.sub(" ", text[: starts[-1]]) + text[starts[-1] :]
