"""From generated token ids to a :class:`~prin_guard.judges.LocalJudge` reply and its tokens.

Pure functions over a tokenizer's ``decode``: where each token's text lies in the decoded
reply, and the reply cut at its answer line and stripped, with the token texts cut the
same way, so that they join to exactly the reply's text.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

__all__ = ["_answer_line_end", "_pieces", "_reply", "_token_ends"]

# A completed "Answer: ..." line: optional markdown (bold, italics, heading, quote) before
# the word, something other than markdown after the colon (so that "**Answer:**" alone on
# a line, with the labels on the next line, is not cut off), then the newline.
_ANSWER_LINE = re.compile(
    r"^[ \t>#*_`]*answer[ \t*_`]*:[ \t*_`]*[^\s*_`][^\n]*\n", re.IGNORECASE | re.MULTILINE
)

_REPLACEMENT = "\ufffd"  # what decoding shows for the bytes of an unfinished character

Decode = Callable[[Sequence[int]], str]
"""``ids -> text``, special tokens skipped (the tokenizer's ``decode``)."""


def _answer_line_end(text: str) -> int | None:
    """Where the first finished ``Answer:`` line ends (just past its newline)."""
    match = _ANSWER_LINE.search(text)
    return None if match is None else match.end()


def _token_ends(decode: Decode, ids: Sequence[int]) -> tuple[str, list[int]]:
    """The decoded text of ``ids`` and, for each token, where its text ends in it.

    A token's text is what decoding one more token adds to the text. A character that
    byte-level tokens split (an accent, an emoji) belongs to the token that completes
    it: the tokens before it end where it starts (their text is empty). When the tokens
    decoded one by one already join to the text (the usual case), that is their text;
    otherwise every prefix is decoded, which is quadratic and still cheap for replies of
    a few hundred tokens.
    """
    full = decode(ids)
    pieces = [decode([token]) for token in ids]
    if "".join(pieces) == full and not any(_REPLACEMENT in piece for piece in pieces):
        ends, end = [], 0
        for piece in pieces:
            end += len(piece)
            ends.append(end)
        return full, ends
    ends = []
    end = 0
    for count in range(1, len(ids)):
        prefix = decode(ids[:count])
        same = 0
        limit = min(len(prefix), len(full))
        while same < limit and prefix[same] == full[same]:
            same += 1
        end = max(end, same)
        ends.append(end)
    if ids:
        ends.append(len(full))
    return full, ends


def _window(
    decode: Decode, ids: Sequence[int], *, stop_at_answer_line: bool
) -> tuple[str, list[int], int, int]:
    """The decoded text of ``ids``, where each token ends in it, and the reply's window
    in it: cut after the first finished answer line (when asked; the token that finished
    the line may carry text past the newline), then stripped."""
    full, ends = _token_ends(decode, ids)
    text = full
    if stop_at_answer_line:
        cut = _answer_line_end(full)
        if cut is not None:
            text = full[:cut]
    return full, ends, len(text) - len(text.lstrip()), len(text.rstrip())


def _reply(
    decode: Decode,
    ids: Sequence[int],
    logprobs: Sequence[float],
    *,
    stop_at_answer_line: bool,
) -> tuple[str, tuple[tuple[str, float], ...] | None]:
    """The reply's text and its tokens with their log-probabilities.

    The text is cut after the first finished answer line (when asked) and stripped;
    each token's text is cut the same way, tokens left with no text are dropped, and
    a token whose text is empty inside the reply (the first bytes of a character that
    the next token completes) is merged into the next one, log-probabilities summed,
    so that every entry spells something and the entries join to exactly the text.
    ``None`` tokens for an empty reply.
    """
    full, ends, start, stop = _window(decode, ids, stop_at_answer_line=stop_at_answer_line)
    if start >= stop:
        return "", None
    return full[start:stop], _pieces(full, ends, logprobs, start, stop)


def _pieces(
    full: str, ends: Sequence[int], logprobs: Sequence[float], start: int, stop: int
) -> tuple[tuple[str, float], ...]:
    """The tokens' texts within ``full[start:stop]``, with their log-probabilities.

    Token ``i`` spells ``full[ends[i-1]:ends[i]]``. Texts are cut to the window and
    tokens left with none are dropped, except a token with no text of its own inside the
    window (the first bytes of a character the next token completes): its
    log-probability goes to the next token that spells something.
    """
    tokens: list[tuple[str, float]] = []
    pending = 0.0
    begin = 0
    for end, logprob in zip(ends, logprobs, strict=True):
        left, right = max(begin, start), min(end, stop)
        if left < right:
            tokens.append((full[left:right], logprob + pending))
            pending = 0.0
        elif begin == end and start <= end < stop:
            pending += logprob
        begin = end
    return tuple(tokens)


def _alternatives(
    decode: Decode,
    ids: Sequence[int],
    steps: Sequence[Sequence[tuple[int, float]]],
    *,
    stop_at_answer_line: bool,
) -> tuple[tuple[tuple[str, float], ...], ...] | None:
    """For each token of :func:`_reply`'s tokens, the likeliest tokens at its step as
    texts with their log-probabilities (its own among them, spelled as in the reply);
    ``None`` unless every token of the reply is one generated token (none merged) whose
    step's alternatives are known. The reply's first token loses the whitespace the reply
    was stripped of, and so do its alternatives (one that does not start with it is left
    out)."""
    full, ends, start, stop = _window(decode, ids, stop_at_answer_line=stop_at_answer_line)
    if start >= stop or len(steps) != len(ids):
        return None
    out: list[tuple[tuple[str, float], ...]] = []
    begin = 0
    for index, end in enumerate(ends):
        left, right = max(begin, start), min(end, stop)
        if left < right:
            if begin == end:
                return None  # a token with no text of its own: merged into the next
            own = full[begin:end]
            lost = full[begin:left]  # the stripped whitespace, on the first token only
            chosen = full[left:right]
            entries: list[tuple[str, float]] = []
            # an alternative is spelled as it would have stood here: decoded after the
            # tokens before it (a SentencePiece token decoded alone drops its space)
            before = decode(list(ids[:index]))
            for token, logprob in steps[index]:
                if token == ids[index]:
                    entries.append((chosen, logprob))
                    continue
                joined = decode([*ids[:index], token])
                if not joined.startswith(before):
                    continue
                spelled = joined[len(before) :]
                if _REPLACEMENT in spelled or not spelled.startswith(lost) or spelled == own:
                    continue
                entries.append((spelled[len(lost) :], logprob))
            out.append(tuple(entries))
        elif begin == end and start <= end < stop:
            return None
        begin = end
    return tuple(out)
