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

Separately, each reply is checked for *polarity confusion*: a reverse leg that
speaks of "the correct answer" (or a direct leg of "the incorrect ones") is
answering the opposite question. The literal parse is kept; the flag says so.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass

from prin_guard._models import ParseMethod, ParseStatus, Polarity

__all__ = ["ParseResult", "detect_polarity_confusion", "parse_reply"]


@dataclass(frozen=True, slots=True)
class ParseResult:
    labels: tuple[str, ...]
    status: ParseStatus
    method: ParseMethod | None


_FAILED = ParseResult((), ParseStatus.FAILED, None)

_ANSWER_LINE = re.compile(
    r"^[\s>*#_`-]*(?:final\s+)?answers?\b[\s*_`]*(?:is|are)?\s*[:：=\-]\s*(?P<rest>.*?)\s*$",
    re.IGNORECASE | re.MULTILINE,
)
_NONE_ONLY = re.compile(
    r"^\W*(?:none|no(?:ne)? (?:of (?:them|the (?:options|answers|above)))|"
    r"there (?:are|is) (?:none|no (?:such )?(?:options?|answers?))|"
    r"no (?:options?|answers?)(?: (?:are|is) (?:correct|incorrect|right|wrong))?|n/?a|empty)\W*$",
    re.IGNORECASE,
)
_NONE_WORD = re.compile(r"\bnone\b", re.IGNORECASE)


def _label_alternation(labels: Sequence[str]) -> str:
    return "|".join(re.escape(label) for label in sorted(labels, key=len, reverse=True))


@dataclass(frozen=True, slots=True)
class _Patterns:
    labels: tuple[str, ...]
    lookup: dict[str, str]
    # forms that are unambiguous anywhere: "c)", "(C)", "option C", "[C]"
    marked: re.Pattern[str]
    # a bare label token, only trusted in an answer span or a labels-only reply
    bare: re.Pattern[str]
    labels_only: re.Pattern[str]
    anchored: re.Pattern[str]
    numbered: re.Pattern[str]


_cache: dict[tuple[str, ...], _Patterns] = {}


def _patterns(labels: Sequence[str]) -> _Patterns:
    key = tuple(labels)
    found = _cache.get(key)
    if found is not None:
        return found
    alt = _label_alternation(labels)
    # A label is a token on its own: not inside a word, not a decimal or a unit.
    tok = rf"(?<![A-Za-z0-9])(?:{alt})(?![A-Za-z0-9])"
    marked = re.compile(
        rf"(?:\(\s*(?P<p>{alt})\s*\)"  # (C)
        rf"|\[\s*(?P<b>{alt})\s*\]"  # [C]
        rf"|(?<![A-Za-z0-9(])(?P<r>{alt})\s*\)"  # C)  c )
        rf"|\b(?:option|choice|candidate)s?\s*[:#]?\s*(?P<o>{alt})(?![A-Za-z0-9]))",  # option C
        re.IGNORECASE,
    )
    bare = re.compile(tok, re.IGNORECASE)
    sep = r"(?:\s*(?:,|;|/|&|\band\b|\bor\b)\s*|\s+)"
    labels_only = re.compile(
        rf"^[\s\"'*`(\[]*(?:{tok}[\s)\]\"'.*`]*)(?:{sep}[\s\"'*`(\[]*{tok}[\s)\]\"'.*`]*)*$",
        re.IGNORECASE,
    )
    anchored = re.compile(
        r"\b(?:the\s+)?(?:(?:in)?correct|right|wrong|(?:in)?appropriate)?\s*"
        r"(?:answers?|options?|choices?|ones?)\s+(?:is|are|would be|:)\s*:?\s*"
        r"(?P<span>[^\n.]*)",
        re.IGNORECASE,
    )
    numbered = re.compile(
        rf"^\s*(?:\d+[.)]|[-*•])\s*(?:\*\*)?\s*(?:option\s+)?\(?(?P<n>{alt})(?:\)|\.|:|\s|$|\*\*)",
        re.IGNORECASE | re.MULTILINE,
    )
    found = _Patterns(
        key,
        {label.upper(): label for label in labels},
        marked,
        bare,
        labels_only,
        anchored,
        numbered,
    )
    if len(_cache) > 512:
        _cache.clear()
    _cache[key] = found
    return found


def _ordered(found: set[str], labels: Sequence[str]) -> tuple[str, ...]:
    return tuple(label for label in labels if label in found)


def _marked_labels(span: str, pat: _Patterns) -> set[str]:
    out: set[str] = set()
    for match in pat.marked.finditer(span):
        value = match.group("p") or match.group("b") or match.group("r") or match.group("o")
        out.add(pat.lookup[value.upper()])
    return out


def _span_labels(span: str, pat: _Patterns, texts: Sequence[str]) -> set[str]:
    """Labels in a span that is known to be an answer (after "Answer:")."""
    found = _marked_labels(span, pat)
    if found:
        return found
    if pat.labels_only.fullmatch(span.strip()):
        return {pat.lookup[m.group(0).upper()] for m in pat.bare.finditer(span)}
    return _text_labels(span, pat, texts, whole_words=True)


def _norm(text: str) -> str:
    return " ".join(text.split()).casefold().strip(" \"'`*.")


def _text_labels(span: str, pat: _Patterns, texts: Sequence[str], *, whole_words: bool) -> set[str]:
    """Candidates named by their exact text."""
    norm_span = _norm(span)
    out: set[str] = set()
    for label, text in zip(pat.labels, texts, strict=True):
        norm_text = _norm(text)
        if not norm_text:
            continue
        if norm_span == norm_text:
            return {label}
        if whole_words and re.search(rf"(?<![\w.]){re.escape(norm_text)}(?![\w]|\.\d)", norm_span):
            out.add(label)
    if len(out) > 1:
        # "9" inside "19"-like overlaps are excluded by the lookarounds; a text
        # that is a substring of another ("10" in "10 cm") is dropped in favour
        # of the longer one.
        longest = {
            label
            for label in out
            if not any(
                other != label
                and _norm(texts[pat.labels.index(label)]) in _norm(texts[pat.labels.index(other)])
                for other in out
            )
        }
        out = longest
    return out


def _quoted_texts(text: str, pat: _Patterns, texts: Sequence[str]) -> set[str]:
    out: set[str] = set()
    for match in re.finditer(r"[\"“'`]([^\"”'`\n]{1,200})[\"”'`]", text):
        inner = match.group(1)
        marked = _marked_labels(inner, pat)
        if marked:
            out |= marked
        else:
            out |= _text_labels(inner, pat, texts, whole_words=False)
    return out


def _structured(text: str, pat: _Patterns) -> ParseResult | None:
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
    found = {pat.lookup[v.strip().upper()] for v in values if v.strip().upper() in pat.lookup}
    if len(found) != len(values):
        return None
    if not found:
        return ParseResult((), ParseStatus.NONE, ParseMethod.STRUCTURED)
    return ParseResult(_ordered(found, pat.labels), ParseStatus.OK, ParseMethod.STRUCTURED)


def parse_reply(text: str | None, labels: Sequence[str], texts: Sequence[str]) -> ParseResult:
    """Read the set of labels a reply names. ``labels`` and ``texts`` are the candidates'."""
    if text is None or not text.strip():
        return _FAILED
    pat = _patterns(labels)

    structured = _structured(text, pat)
    if structured is not None:
        return structured

    # 2. the last "Answer:" line that says something readable
    for match in reversed(list(_ANSWER_LINE.finditer(text))):
        rest = match.group("rest").strip().strip("*_`").strip()
        if not rest:
            continue
        if _NONE_ONLY.match(rest):
            return ParseResult((), ParseStatus.NONE, ParseMethod.FINAL_LINE)
        found = _span_labels(rest, pat, texts)
        if found:
            return ParseResult(_ordered(found, labels), ParseStatus.OK, ParseMethod.FINAL_LINE)

    # 3. a reply that only says "none"
    if _NONE_ONLY.match(text.strip()):
        return ParseResult((), ParseStatus.NONE, ParseMethod.NONE_WORD)

    # 4. label forms: a labels-only reply, then anchored phrases, then loose forms
    if pat.labels_only.fullmatch(text.strip()):
        found = {pat.lookup[m.group(0).upper()] for m in pat.bare.finditer(text)}
        return ParseResult(_ordered(found, labels), ParseStatus.OK, ParseMethod.LABEL_FORMS)
    anchored: set[str] = set()
    for match in pat.anchored.finditer(text):
        span = match.group("span")
        anchored |= _marked_labels(span, pat)
        head = re.split(r"\s+(?:because|since|as|which)\b", span, maxsplit=1)[0]
        if not anchored and pat.labels_only.fullmatch(head.strip()):
            anchored |= {pat.lookup[m.group(0).upper()] for m in pat.bare.finditer(head)}
    if anchored:
        return ParseResult(_ordered(anchored, labels), ParseStatus.OK, ParseMethod.LABEL_FORMS)
    loose = _marked_labels(text, pat)
    loose |= {pat.lookup[m.group("n").upper()] for m in pat.numbered.finditer(text)}
    if loose:
        return ParseResult(_ordered(loose, labels), ParseStatus.OK, ParseMethod.LABEL_FORMS)

    # 5. candidate texts
    found = _text_labels(text, pat, texts, whole_words=False) or _quoted_texts(text, pat, texts)
    if not found:
        for match in pat.anchored.finditer(text):
            found |= _text_labels(match.group("span"), pat, texts, whole_words=True)
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
