"""Reading a label set out of a judge's reply. Pure functions, no I/O.

Rules, tried in order; the first that yields a result wins and is recorded as the
leg's ``parse_method``:

1. ``structured``: a JSON object ``{"labels": [...]}`` (structured output).
2. ``final_line``: the last ``Answer: ...`` line, as the prompt asks. Its labels
   may be written ``C``, ``c)``, ``(C)``, ``option C``, ``C) 9``; its candidate texts
   (``Answer: 9``) count too; ``Answer: none`` is the empty set.
3. ``none_word``: a reply that only says there are none.
4. ``label_forms``: label forms small models produce in free text. Anchored forms
   ("the answer is C", "correct options are B and D") win over loose ones
   ("c)", "(C)", "option C", numbered list lines "1. C") anywhere in the text; a
   reply made of nothing but labels ("C, D, E") is read as that list.
5. ``candidate_text``: a candidate's exact text as the whole reply, quoted, or after
   "the answer is".

Nothing found is a parse failure (``ParseStatus.FAILED``), never an exception.

Cost. Parsing is linear in the reply's length (plus one pass over the item's labels
and texts), whatever the number of candidates: every pattern is compiled once, at
import, and matches any *label-shaped* token (a letter and up to three letters or
digits, in any case); a token counts only if it is in the item's label set, a dict
lookup. There is no per-label-set pattern and no cache. Candidate texts are found
through a dict from normalised text to label: a whole span is one lookup, and a text
*inside* a span is looked for only at token boundaries, for the token counts that
candidate texts actually have, and only for texts of at most
``MAX_TEXT_TOKENS`` tokens (a longer text still matches when it is the whole span).

Echoes. A judge may copy parts of its prompt, and the prompt holds text the caller
does not control (the question, the context, candidate texts, reasoning paths). The
caller passes those texts, or the prompt itself, as ``echo``; an ``Answer:`` line
that is a verbatim copy of one of their lines is not the judge's answer and is
skipped. A reply that repeats the prompt (its "please output the ... ones." sentence
and most of the options) is reported as ``echoed`` so the caller can flag it, and
only what follows that sentence, less the copied lines, is read: a bare echo is a
parse failure, not "every option".

Separately, each reply is checked for *polarity confusion*: a reverse leg that
speaks of "the correct answer" (or a direct leg of "the incorrect ones") is
answering the opposite question. The literal parse is kept; the flag says so.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import repeat

from prin_guard._models import ParseMethod, ParseStatus, Polarity

__all__ = [
    "MAX_TEXT_TOKENS",
    "ParseResult",
    "detect_echo",
    "detect_polarity_confusion",
    "parse_reply",
]

MAX_TEXT_TOKENS = 32
"""Candidate texts longer than this many tokens are only matched as a whole span."""


@dataclass(frozen=True, slots=True)
class ParseResult:
    labels: tuple[str, ...]
    status: ParseStatus
    method: ParseMethod | None
    echoed: bool = False
    """The reply repeats the prompt (see :func:`detect_echo`)."""


_FAILED = ParseResult((), ParseStatus.FAILED, None)

# Horizontal whitespace only at line starts: a class that also takes newlines would
# rescan every following blank line from every line start (quadratic).
_ANSWER_LINE = re.compile(
    r"^(?:[^\S\n]|[>*#_`-])*(?:final\s+)?answers?\b[\s*_`]*(?:(?:is|are)\s*)?[:：=\-]\s*"
    r"(?P<rest>[^\n]*)",
    re.IGNORECASE | re.MULTILINE,
)
_NONE_ONLY = re.compile(
    r"^\W*(?:none|no(?:ne)? (?:of (?:them|the (?:options|answers|above)))|"
    r"there (?:are|is) (?:none|no (?:such )?(?:options?|answers?))|"
    r"no (?:options?|answers?)(?: (?:are|is) (?:correct|incorrect|right|wrong))?|n/?a|empty)\W*$",
    re.IGNORECASE,
)
_NONE_WORD = re.compile(r"\bnone\b", re.IGNORECASE)

# Any label-shaped token (labels are ``[A-Z][A-Z0-9]{0,3}``, replies may use lower
# case); whether it is one of the item's labels is a dict lookup afterwards.
_LABEL = r"[A-Za-z][A-Za-z0-9]{0,3}"
# forms that are unambiguous anywhere: "(C)", "[C]", "c)", "option C"
_MARKED = re.compile(
    rf"(?:\(\s*(?P<p>{_LABEL})\s*\)"
    rf"|\[\s*(?P<b>{_LABEL})\s*\]"
    rf"|(?<![A-Za-z0-9(])(?P<r>{_LABEL})\s*\)"
    rf"|\b(?:option|choice|candidate)s?\s*(?:[:#]\s*)?(?P<o>{_LABEL})(?![A-Za-z0-9]))",
    re.IGNORECASE,
)
_NUMBERED = re.compile(
    rf"^[^\S\n]*(?:\d+[.)]|[-*•])\s*(?:\*\*\s*)?(?:option\s+)?\(?(?P<n>{_LABEL})"
    r"(?:\)|\.|:|\s|$|\*\*)",
    re.IGNORECASE | re.MULTILINE,
)
_ANCHORED = re.compile(
    r"\b(?:the\s+)?(?:(?:(?:in)?correct|right|wrong|(?:in)?appropriate)\s*)?"
    r"(?:answers?|options?|choices?|ones?)\s+(?:is|are|would be|:)\s*(?::\s*)?"
    r"(?P<span>[^\n.]*)",
    re.IGNORECASE,
)
_BECAUSE = re.compile(r"\s+(?:because|since|as|which)\b")
_QUOTED = re.compile(r"[\"“'`]([^\"”'`\n]{1,200})[\"”'`]")
# A labels-only span, read piece by piece: ASCII alphanumeric runs, single other chars.
_LIST_PIECE = re.compile(r"[A-Za-z0-9]+|.", re.DOTALL)
_ALNUM = re.compile(r"[A-Za-z0-9]+")
# Tokens of normalised text: word runs and single other characters.
_TEXT_PIECE = re.compile(r"\w+|\S")
_WORD_OR_DOT = re.compile(r"[\w.]")
_WORD = re.compile(r"\w")
_DOT_DIGIT = re.compile(r"\.\d")
# The sentence every template's prompt has, in any wording (v0-v4, paraphrases).
_ECHO_SENTENCE = re.compile(r"please\s+output\s+the\s+[\w-]+\s+ones\b", re.IGNORECASE)

_PRE = frozenset("\"'*`([")
_POST = frozenset(")]\"'.*`")
_SEP_CHARS = frozenset(",;/&")
_SEP_WORDS = frozenset({"and", "or"})


def _keys(labels: Sequence[str]) -> dict[str, str]:
    """Each label under its upper-case form, the form replies are looked up in.

    This and ``_ordered`` are a parse's only work per label; they run in C (join,
    zip, filter) so that 20,000 labels cost about a millisecond.
    """
    if "".join(labels).isupper():  # labels of an Item always are
        return dict(zip(labels, labels, strict=True))
    return dict(zip(map(str.upper, labels), labels, strict=True))


def _ordered(found: set[str], labels: Sequence[str]) -> tuple[str, ...]:
    return tuple(filter(found.__contains__, labels))


def _marked_labels(span: str, keys: Mapping[str, str]) -> set[str]:
    out: set[str] = set()
    for match in _MARKED.finditer(span):
        value = match.group("p") or match.group("b") or match.group("r") or match.group("o")
        label = keys.get(value.upper())
        if label is not None:
            out.add(label)
    return out


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


def _labels_only(span: str, keys: Mapping[str, str]) -> set[str] | None:
    """The labels of a span made of nothing but labels ("C, D and E", "(B)"), else None."""
    found: set[str] = set()
    gap: list[str] = []
    started = False
    for match in _LIST_PIECE.finditer(span.strip()):
        piece = match.group(0)
        if not _ALNUM.fullmatch(piece):
            gap.append(piece)
            continue
        if started and piece.lower() in _SEP_WORDS:
            # "C and D" is two labels even when AND is a label too (4,000+ options)
            gap.append(piece)
            continue
        label = keys.get(piece.upper())
        if label is None:
            return None
        if started:
            if not _gap_ok(gap):
                return None
        elif not all(p.isspace() or p in _PRE for p in gap):
            return None
        found.add(label)
        started = True
        gap = []
    if not started or not all(p.isspace() or p in _POST for p in gap):
        return None
    return found


# Whitespace runs other than a lone space (most texts have only those: leave them).
_SPACES = re.compile(r"[^\S ]\s*| \s+")
_NORM_STRIP = " \"'`*."
_JOIN = "\x00"  # not whitespace, not changed by casefold


def _norm(text: str) -> str:
    """Whitespace runs as one space, case folded, outer quotes, stars and dots off."""
    return _SPACES.sub(" ", text).casefold().strip(_NORM_STRIP)


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


class _Texts:
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


def _span_labels(span: str, keys: Mapping[str, str], texts: _Texts) -> set[str]:
    """Labels in a span that is known to be an answer (after "Answer:")."""
    found = _marked_labels(span, keys)
    if found:
        return found
    listed = _labels_only(span, keys)
    if listed is not None:
        return listed
    return texts.exact(span) or texts.inside(span)


def _quoted_texts(text: str, keys: Mapping[str, str], texts: _Texts) -> set[str]:
    out: set[str] = set()
    for match in _QUOTED.finditer(text):
        inner = match.group(1)
        marked = _marked_labels(inner, keys)
        out |= marked or texts.exact(inner)
    return out


def _structured(text: str, keys: Mapping[str, str], labels: Sequence[str]) -> ParseResult | None:
    stripped = text.strip()
    if stripped.startswith("```"):
        stripped = stripped.strip("`").removeprefix("json").strip()
    if not stripped.startswith("{"):
        return None
    try:
        payload = json.loads(stripped)
    except ValueError:
        return None
    values = payload.get("labels") if isinstance(payload, dict) else None
    if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
        return None
    found = {keys[v.strip().upper()] for v in values if v.strip().upper() in keys}
    if len(found) != len(values):
        return None
    if not found:
        return ParseResult((), ParseStatus.NONE, ParseMethod.STRUCTURED)
    return ParseResult(_ordered(found, labels), ParseStatus.OK, ParseMethod.STRUCTURED)


def _line_key(line: str) -> str:
    return " ".join(line.split())


def _echo_lines(echo: Sequence[str]) -> set[str]:
    return {key for text in echo for line in text.splitlines() if (key := _line_key(line))}


def _line_at(text: str, start: int) -> str:
    end = text.find("\n", start)
    return text[start : end if end >= 0 else len(text)]


def detect_echo(text: str | None, labels: Sequence[str]) -> bool:
    """Whether a reply repeats the prompt: it has the prompt's "please output the
    ... ones." sentence and names more than half of the options as ``X)``, the
    way the prompt lists them. Linear in the reply's length."""
    if not text or not _ECHO_SENTENCE.search(text):
        return False
    keys = _keys(labels)
    named = {
        label
        for match in _MARKED.finditer(text)
        if match.group("r") and (label := keys.get(match.group("r").upper())) is not None
    }
    return 2 * len(named) > len(keys)


def parse_reply(
    text: str | None,
    labels: Sequence[str],
    texts: Sequence[str],
    *,
    echo: Sequence[str] = (),
) -> ParseResult:
    """Read the set of labels a reply names. ``labels`` and ``texts`` are the candidates'.

    ``echo``: texts the judge may copy from its prompt (the item's question, context,
    candidate texts and reasoning paths, or the prompt itself). ``Answer:`` lines
    that copy one of their lines verbatim are not read; when the reply repeats the
    prompt (``echoed``), only the lines after its question sentence that are not
    copies are read.
    """
    if text is None or not text.strip():
        return _FAILED
    keys = _keys(labels)
    copied = _echo_lines(echo)
    echoed = detect_echo(text, labels)
    if echoed:
        # Keep only what the judge wrote after the repeated prompt: the prompt lists
        # every option, and would otherwise read as "all of them". The text before
        # its question sentence is the question and the options (however mangled);
        # after it come the prompt's own lines, dropped when copied verbatim.
        lines = text.splitlines()
        last = max(i for i, line in enumerate(lines) if _ECHO_SENTENCE.search(line))
        text = "\n".join(line for line in lines[last + 1 :] if _line_key(line) not in copied)
    result = _parse(text, keys, labels, _Texts(labels, texts), copied)
    return ParseResult(result.labels, result.status, result.method, echoed)


def _parse(
    text: str, keys: Mapping[str, str], labels: Sequence[str], texts: _Texts, copied: set[str]
) -> ParseResult:
    if not text.strip():
        return _FAILED
    structured = _structured(text, keys, labels)
    if structured is not None:
        return structured

    # 2. the last "Answer:" line that says something readable and is the judge's own
    for match in reversed(list(_ANSWER_LINE.finditer(text))):
        if copied and _line_key(_line_at(text, match.start())) in copied:
            continue
        rest = match.group("rest").strip().strip("*_`").strip()
        if not rest:
            continue
        if _NONE_ONLY.match(rest):
            return ParseResult((), ParseStatus.NONE, ParseMethod.FINAL_LINE)
        found = _span_labels(rest, keys, texts)
        if found:
            return ParseResult(_ordered(found, labels), ParseStatus.OK, ParseMethod.FINAL_LINE)

    # 3. a reply that only says "none"
    if _NONE_ONLY.match(text.strip()):
        return ParseResult((), ParseStatus.NONE, ParseMethod.NONE_WORD)

    # 4. label forms: a labels-only reply, then anchored phrases, then loose forms
    listed = _labels_only(text, keys)
    if listed is not None:
        return ParseResult(_ordered(listed, labels), ParseStatus.OK, ParseMethod.LABEL_FORMS)
    anchored: set[str] = set()
    for match in _ANCHORED.finditer(text):
        span = match.group("span")
        anchored |= _marked_labels(span, keys)
        if not anchored:
            head = _BECAUSE.split(span, maxsplit=1)[0]
            anchored |= _labels_only(head, keys) or set()
    if anchored:
        return ParseResult(_ordered(anchored, labels), ParseStatus.OK, ParseMethod.LABEL_FORMS)
    loose = _marked_labels(text, keys)
    for match in _NUMBERED.finditer(text):
        label = keys.get(match.group("n").upper())
        if label is not None:
            loose.add(label)
    if loose:
        return ParseResult(_ordered(loose, labels), ParseStatus.OK, ParseMethod.LABEL_FORMS)

    # 5. candidate texts
    found = texts.exact(text) or _quoted_texts(text, keys, texts)
    if not found:
        for match in _ANCHORED.finditer(text):
            found |= texts.inside(match.group("span"))
    if found:
        return ParseResult(_ordered(found, labels), ParseStatus.OK, ParseMethod.CANDIDATE_TEXT)
    if _NONE_WORD.search(text) and len(text) < 80:
        return ParseResult((), ParseStatus.NONE, ParseMethod.NONE_WORD)
    return _FAILED


_POSITIVE = r"(?:correct|right|appropriate|true|valid)"
_NEGATIVE = r"(?:incorrect|wrong|inappropriate|false|invalid|not\s+correct|not\s+right)"
_NOUN = r"(?:answers?|options?|choices?|ones?|candidates?)"
_POSITIVE_PHRASE = re.compile(
    rf"(?<![\w-])(?<!in)(?<!not ){_POSITIVE}\s+{_NOUN}\b|\b{_NOUN}\s+(?:is|are)\s+{_POSITIVE}\b",
    re.IGNORECASE,
)
_NEGATIVE_PHRASE = re.compile(
    rf"\b{_NEGATIVE}\s+{_NOUN}\b|\b{_NOUN}\s+(?:is|are)\s+{_NEGATIVE}\b",
    re.IGNORECASE,
)


def detect_polarity_confusion(text: str | None, polarity: Polarity) -> bool:
    """Whether a reply reads as an answer to the opposite question.

    A reverse leg is confused when it speaks of the correct answer(s) and never of
    incorrect ones ("The correct answer is c)"); a direct leg when it speaks only
    of incorrect ones. Replies that mention both are given the benefit of the
    doubt: they usually discuss each option.
    """
    if not text:
        return False
    positive = bool(_POSITIVE_PHRASE.search(text))
    negative = bool(_NEGATIVE_PHRASE.search(text))
    if polarity is Polarity.REVERSE:
        return positive and not negative
    return negative and not positive
