"""A conclusion that names a computed value, an option's text, instead of its label.

A math reply often ends on the value it computed: "So the speed is 45 km/h.", "Together
they take 4 days.", "The final answer is: $\\boxed{4}$" (the options: "40 km/h", "45 km/h",
...; "3 days", "4 days", ...). On the direct leg of a choice item, that value is the answer
when all of these hold:

- it is the value of the reply's *concluding statement*: a LaTeX box on its last line (what
  follows it only closes a display), "the answer is <value>" / "Answer: <value>" / "<value>
  is the answer" / "So, <value>." / GSM8K's "#### <value>", a last line of its own holding
  the value alone, or a last sentence that states it of a subject ("the speed is ...",
  "Area = πr² = ... = 154 cm²", "Together they take ..."); a value earlier in the
  derivation is no conclusion, nor an equation whose left side is an expression ("3x =
  36") or a variable the question does not ask about ("x = 12" unless it asks for x);
- nothing in that statement qualifies it: no negation, condition, possibility, bound ("more
  than"), alternative, or word of the other side ("the wrong answer is ...");
- it equals exactly one option's text, numbers compared exactly (45 = 45.0, 1,250 = 1250,
  3/4 = \\frac{3}{4} = 0.75, −5 = -5, {3, 4} = {4, 3}) and units when both sides give one
  (km/h, "degrees" for °, "percent" for %, "dollars" for $; no unit matches any);
  "approximately 290" is 290, never a rounding of another option;
- no other option holds that number as a part ("12 and 18" beside "12"), and it is not an
  option's label ("4" where the labels are 1 to 5).

A statement of a subject is read confidently when its subject names what the question
asks, in the question's words (a word of its ask, and no word the question does not
hold: "the average speed of the car" for "A car covers ... What is its average speed?"),
or is "the result" / "the answer"; else it is read marked weak ("The son is 12 years
old." when it asks how old the father is, "The speed over the first hour is ...", "The
sum is 42." for "What is 17 + 25?"): it may be a value on the way. None is read when the
question asks in the negative ("Which is NOT prime?": "The prime is 23." answers the
other question), or when the subject names an option by its label ("Note: option C is 90
km/h." describes an option). The reverse leg is not read here (a computed value there
answers the direct question; the pipeline's other rules say what that leg reads).
"""

from __future__ import annotations

import functools
import math
import re
from dataclasses import dataclass

from prin_guard.reader._evidence import _Context, _Reading
from prin_guard.reader._text import _Pattern

_MAX_OPTIONS = 64
"""Items with more options than this are not read by value (a value list is short)."""
_MAX_BOXES = 16
"""More LaTeX boxes than this in one reply: none is read as its value."""
_MAX_STATEMENT = 400
"""The longest concluding statement looked at, in characters."""

Rational = tuple[int, int]


@dataclass(frozen=True, slots=True)
class _Value:
    """A number with its unit (normalised, "" for none), or a set of numbers."""

    number: Rational | None
    unit: str
    members: frozenset[Rational] | None = None
    factor: bool = False
    """The unit is a factor of the number ("49π", "3√2"), not a measure: a value written
    without it is another number."""


# -- numbers and units -----------------------------------------------------------------

_NUMBER = r"[-−+]?(?:\d{1,3}(?:,\d{3})+|\d+)?(?:\.\d+)?(?:/\d+)?"
_CURRENCY = r"(?:[$€£¥₹]|rs\.?\s?|usd\s|inr\s)"
_UNIT_WORD = r"(?:[%°′″²³π√$€£¥₹¢]|[^\W\d_])[^\s.,;:!?()\[\]{}]*"
_VALUE = _Pattern(
    rf"(?P<cur>{_CURRENCY})?(?P<num>{_NUMBER})(?P<unit>\s*{_UNIT_WORD}(?:\s+{_UNIT_WORD}){{0,2}})?",
    re.IGNORECASE,
)
_SET = _Pattern(r"\{(?P<m>[^{}]{0,120})\}")
_MEMBER = _Pattern(r"\s*(?P<num>[-−+]?\d+(?:\.\d+)?(?:/\d+)?)\s*")
_DIGITS = _Pattern(r"(?<![\d.,])(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?![\d]|[.,]\d)")

# What a unit may be written as: each spelling to one form
_UNIT_ALIASES = {
    "degrees": "°", "degree": "°", "deg": "°", "°": "°",
    "percent": "%", "per cent": "%", "pct": "%", "percentage": "%",
    "dollars": "$", "dollar": "$", "usd": "$", "us$": "$", "$": "$",
    "euros": "€", "euro": "€", "eur": "€", "pounds": "£", "£": "£",
    "rupees": "₹", "rs": "₹", "rs.": "₹", "inr": "₹", "₹": "₹",
    "cents": "¢", "cent": "¢",
    "kmph": "km/h", "km/hr": "km/h", "kmh": "km/h", "kph": "km/h",
    "km per hour": "km/h", "kilometers per hour": "km/h", "kilometres per hour": "km/h",
    "kilometer per hour": "km/h", "kilometre per hour": "km/h",
    "mph": "mi/h", "miles per hour": "mi/h",
    "m/sec": "m/s", "mps": "m/s", "meters per second": "m/s", "metres per second": "m/s",
    "meter per second": "m/s", "metre per second": "m/s",
    "meters": "m", "metres": "m", "meter": "m", "metre": "m",
    "centimeters": "cm", "centimetres": "cm", "centimeter": "cm", "centimetre": "cm",
    "millimeters": "mm", "millimetres": "mm", "kilometers": "km", "kilometres": "km",
    "kilometer": "km", "kilometre": "km",
    "kilograms": "kg", "kilogram": "kg", "kgs": "kg", "grams": "g", "gram": "g",
    "liters": "l", "litres": "l", "liter": "l", "litre": "l",
    "seconds": "s", "second": "s", "sec": "s", "secs": "s",
    "minutes": "min", "minute": "min", "mins": "min",
    "hours": "h", "hour": "h", "hrs": "h", "hr": "h",
    "days": "day", "weeks": "week", "months": "month", "years": "year", "yrs": "year",
    "years old": "year", "year old": "year",
}  # fmt: skip
# A unit that multiplies its number: the number alone is another value
_FACTORS = frozenset({"π", "pi", "√", "i", "e", "x", "y", "n", "k"})
# Words that may end a statement after its value without changing it
_TRAILING = _Pattern(r"\s+(?:in\s+total|altogether|in\s+all|overall|exactly)\s*$", re.IGNORECASE)


def _rational(written: str) -> Rational | None:
    """An exact number from "1,250", "-3.5", "−5", "3/4"; None if it is none, or a
    fraction not in lowest terms ("240/3" is a division still to do, not a value)."""
    written = written.replace("−", "-").replace(",", "").replace(" ", "")
    sign = -1 if written.startswith("-") else 1
    written = written.lstrip("+-")
    if not written:
        return None
    top, _, bottom = written.partition("/")
    num = _decimal(top)
    if num is None:
        return None
    if bottom:
        den = _decimal(bottom)
        if den is None or den[0] == 0 or num[1] != 1 or den[1] != 1:
            return None
        if math.gcd(num[0], den[0]) != 1:
            return None
        num = (num[0], den[0])
    whole = math.gcd(num[0], num[1]) or 1
    return (sign * num[0] // whole, num[1] // whole)


def _decimal(written: str) -> Rational | None:
    whole, dot, part = written.partition(".")
    if not (whole or part) or not (whole.isdigit() or not whole) or (dot and not part.isdigit()):
        return None
    scale = 10 ** len(part)
    return (int(whole or "0") * scale + int(part or "0"), scale)


def _unit(written: str) -> str:
    """A unit's one form: "Degrees" and "°" are "°", "cm^2" and "sq cm" are "cm²"."""
    unit = " ".join(written.casefold().split())
    if not unit:
        return ""
    unit = unit.replace("^2", "²").replace("^3", "³")
    for square in ("square ", "sq. ", "sq "):
        if unit.startswith(square):
            unit = _unit(unit[len(square) :]) + "²"
    if unit in _UNIT_ALIASES:
        return _UNIT_ALIASES[unit]
    if unit.endswith(("²", "³")) and unit[:-1] in _UNIT_ALIASES:
        return _UNIT_ALIASES[unit[:-1]] + unit[-1]
    if unit.endswith(("2", "3")) and unit[:-1] in {"cm", "m", "mm", "km", "in", "ft"}:
        return unit[:-1] + {"2": "²", "3": "³"}[unit[-1]]
    if unit.endswith("s") and len(unit) > 3 and " " not in unit and unit[:-1].isalpha():
        return unit[:-1]  # "students", "student"
    return unit.replace(" ", "")


@functools.lru_cache(maxsize=2048)
def _parse_value(written: str) -> _Value | None:
    """The value a text is, whole: "45 km/h", "$1,250", "3/4", "15%", "-5", "{3, 4}",
    "70°"; None when it is something else ("Paris", "12 and 18")."""
    text = _plain_math(written)[0].strip().rstrip(".").strip()
    if not text:
        return None
    found = _SET.fullmatch(text)
    if found is not None:
        members = [_MEMBER.fullmatch(part) for part in found.group("m").split(",")]
        if not found.group("m").strip():
            return _Value(None, "", frozenset())
        if any(member is None for member in members):
            return None
        numbers = [_rational(member.group("num")) for member in members if member is not None]
        if any(number is None for number in numbers):
            return None
        return _Value(None, "", frozenset(n for n in numbers if n is not None))
    found = _VALUE.fullmatch(text)
    if found is None or not any(ch.isdigit() for ch in found.group("num")):
        return None
    number = _rational(found.group("num"))
    if number is None:
        return None
    cur = _unit(found.group("cur") or "")
    unit = _unit(found.group("unit") or "")
    if cur and unit:
        return None  # "$12 per item": not one measure
    unit = cur or unit
    factor = unit in _FACTORS or any(ch in unit for ch in "π√")
    return _Value(number, unit, factor=factor)


def _same(said: _Value, option: _Value) -> bool:
    """Whether a value said is an option's: equal numbers (or sets), and units that agree
    (one side may leave it out, unless it multiplies the number: "49" is not "49π")."""
    if said.members is not None or option.members is not None:
        return said.members == option.members
    if said.number != option.number:
        return False
    if said.unit and option.unit:
        return said.unit == option.unit
    return not (said.factor or option.factor)


# -- LaTeX as plain text, keeping where each character came from ----------------------

_LATEX = _Pattern(
    r"\\[dt]?frac\s*\{(?P<a>[^{}]*)\}\s*\{(?P<b>[^{}]*)\}"
    r"|\\[dt]?frac(?P<c>\d)(?P<d>\d)"
    r"|\\(?:text|mathrm|textbf|mathbf|textrm|operatorname|mbox|mathit)\s*\{(?P<t>[^{}]*)\}"
    r"|\^\s*\{?\s*\\circ\s*\}?|\\circ|\\degree|°"
    r"|\^\s*\{\s*(?P<p>[23])\s*\}|\^\s*(?P<q>[23])"
    r"|\\%|\\\$|\\\{|\\\}|\{,\}"
    r"|\\(?:left|right)(?![A-Za-z])|\\[,;:! ]|~"
    r"|\\approx|\\sim|\\pi|\\times|\\cdot|\\div|\\pm|\\sqrt"
    r"|\\\(|\\\)|\\\[|\\\]|\$\$"
)
_LATEX_AS = {
    "\\%": "%", "\\$": "$", "\\{": "{", "\\}": "}", "{,}": ",", "~": " ",
    "\\approx": "≈", "\\sim": "~", "\\pi": "π", "\\times": "×", "\\cdot": "·", "\\div": "÷",
    "\\pm": "±", "\\sqrt": "√", "\\(": " ", "\\)": " ", "\\[": " ", "\\]": " ", "$$": " ",
}  # fmt: skip


def _plain_math(text: str) -> tuple[str, list[int]]:
    """``text`` with LaTeX's forms of a value written plainly ("\\frac{3}{4}" as "3/4",
    "\\text{ km/h}" as " km/h", "70^\\circ" as "70°", "\\%" as "%"), its math delimiters
    as spaces, and, for each character of the result, where it came from in ``text``."""
    out: list[str] = []
    origin: list[int] = []

    def put(piece: str, lo: int, hi: int) -> None:
        for at, char in enumerate(piece):
            out.append(char)
            origin.append(hi - 1 if at == len(piece) - 1 and at else lo)

    at = 0
    for found in _LATEX.finditer(text):
        for pos in range(at, found.start()):
            out.append(text[pos])
            origin.append(pos)
        lo, hi = found.span()
        written = found.group()
        if found.group("a") is not None:
            put(f"{found.group('a').strip()}/{found.group('b').strip()}", lo, hi)
        elif found.group("c") is not None:
            put(f"{found.group('c')}/{found.group('d')}", lo, hi)
        elif found.group("t") is not None:
            put(found.group("t"), lo, hi)
        elif found.group("p") is not None or found.group("q") is not None:
            put("²" if (found.group("p") or found.group("q")) == "2" else "³", lo, hi)
        elif "circ" in written or "degree" in written or written == "°":
            put("°", lo, hi)
        elif written.startswith(("\\left", "\\right")):
            pass
        elif written in _LATEX_AS:
            put(_LATEX_AS[written], lo, hi)
        else:
            put(" ", lo, hi)  # "\\," and the other spaces
        at = hi
    for pos in range(at, len(text)):
        out.append(text[pos])
        origin.append(pos)
    plain = "".join(out)
    # inline math "$...$" on one line: its dollars are delimiters, not a currency
    for found in _DOLLARS.finditer(plain):
        for pos in (found.start(), found.end() - 1):
            out[pos] = " "
    return "".join(out), origin


_DOLLARS = _Pattern(r"\$(?=[^\s$\d])[^$\n]*\$|\$[^$\n]*\$(?![\d])")


# -- where a reply concludes -----------------------------------------------------------

_BOX = _Pattern(r"\\(?:boxed|fbox)\s*\{")
# What may follow the last box: closing a display or a sentence
_AFTER_BOX = _Pattern(r"[\s$.)\]\\}*_`]*")
_DISPLAY_LINE = _Pattern(r"[^\S\n]*(?:\\\[|\\\]|\$\$|```\w*)?[^\S\n]*")

_APPROX = r"(?:(?:approximately|approx\.?|about|around|roughly|exactly|≈|~)\s*)?"
_ANSWER_NOUN = (
    r"(?:the\s+)?(?:(?:final|correct|right|best|closest|nearest|true)\s+)*"
    r"(?:answer|option|choice|solution)"
)
# "the answer is V", "Final answer: V", "the correct option would be V"
_ANSWER_IS = _Pattern(
    rf"(?:^|(?<=[\s,;:(]))(?P<lead>{_ANSWER_NOUN})\s*(?:(?:is|would\s+be|will\s+be|should\s+be"
    rf"|must\s+be|=)\s*:?|:)\s*{_APPROX}(?P<v>\S.*?)\s*[.!]?\s*$",
    re.IGNORECASE,
)
# "V is the answer", "V is the correct option"
_IS_ANSWER = _Pattern(
    rf"^(?:(?:so|thus|therefore|hence)\s*,?\s*)?(?P<v>\S.*?)\s+(?:is|would\s+be)\s+"
    rf"{_ANSWER_NOUN}\s*[.!]?\s*$",
    re.IGNORECASE,
)
# "So, V.", "#### V"
_SO_VALUE = _Pattern(
    r"^(?:(?:so|thus|therefore|hence|finally)\s*[,:]?|\#{2,6})\s*" + _APPROX + r"(?P<v>\S.*?)"
    r"\s*[.!]?\s*$",
    re.IGNORECASE,
)
# "<subject> is V", "<subject> = ... = V", "Together they take V"
_LINK = (
    r"is|are|was|were|will\s+be|would\s+be|should\s+be|must\s+be|equals?|equal\s+to"
    r"|comes?\s+(?:out\s+)?to|came\s+(?:out\s+)?to|works?\s+out\s+(?:to|as)|worked\s+out\s+to"
    r"|amounts?\s+to|amounted\s+to|totals?|totaled|totalled|gives?|gave|yields?|takes?|took"
    r"|needs?|needed|requires?|required|costs?|weighs?|measures?|becomes?|became|remains?"
    r"|reaches|reached|makes?|made|earns?|earned|pays?|paid|gets?|got|covers?|covered"
    r"|travels?|travell?ed|runs?|holds?|contains?"
)
_STATEMENT = _Pattern(
    rf"(?P<subject>.*)(?:(?<![\w-])(?P<link>{_LINK})(?![\w-])|(?P<eq>[=≈]))\s*{_APPROX}"
    r"(?P<v>[^\s=≈].*?)\s*[.!]?\s*$",
    re.IGNORECASE,
)
# Words that qualify a statement: a negation, a condition, a possibility, a bound, an
# alternative, an exception
_QUALIFIED = _Pattern(
    r"(?<![\w-])(?:not|no|never|neither|nor|none|without|except|besides|instead|other\s+than"
    r"|rather|if|unless|whether|suppose|supposing|assuming|assume|maybe|perhaps|possibly"
    r"|might|could|may|either|or|than|over|under|above|below|least|most|nearly|almost"
    r"|close\s+to|up\s+to|between|initially|earlier|previously|wait|check|verify"
    r"|\w+n[’']t|cannot)(?![\w-])|\?",
    re.IGNORECASE,
)
_SOFTENED = _Pattern(
    r"(?<![\w-])(?:probably|likely|arguably|presumably|seemingly|i\s+guess)(?![\w-])",
    re.IGNORECASE,
)
# What a subject may open with before the thing it names: "So, we find that the speed"
_OPENERS = _Pattern(
    r"^(?:\s*(?:so|thus|therefore|hence|then|finally|overall|and|in\s+conclusion|in\s+total"
    r"|altogether|this\s+means|which\s+means|that\s+means|we\s+(?:get|find|see|have)|i\s+get"
    r"|that|,))+\s*",
    re.IGNORECASE,
)
_CLAUSE_BREAK = _Pattern(
    r".*(?:[,;:]|(?<![\w-])(?:so|thus|therefore|hence|then|which\s+means|meaning))\s+",
    re.IGNORECASE,
)
_SENTENCE_END = _Pattern(r"(?<!\bapprox)(?<!\bRs)(?<!\be\.g)(?<!\bi\.e)(?<!\bvs)[.!?](?=\s)")
_WORD = _Pattern(r"[^\W\d_]+")
_SYMBOLS = _Pattern(r"[+\-−×*/÷^=<>≤≥±√∫∑]|\d")

# A subject that names the answer itself: "the final result", "the value we want"
_GENERIC = _Pattern(r"(?<![\w-])(?:result|answer|solution|value)(?![\w-])", re.IGNORECASE)
# Words of a subject or a question that name no quantity
_STOPWORDS = frozenset(
    {
        "the", "and", "its", "their", "his", "her", "our", "your", "this", "that", "these",
        "those", "there", "here", "what", "which", "how", "many", "much", "does", "did", "do",
        "is", "are", "was", "were", "will", "would", "can", "could", "should", "has", "have",
        "had", "for", "from", "with", "into", "onto", "then", "than", "when", "where", "who",
        "whom", "whose", "why", "value", "values", "find", "calculate", "compute", "determine",
        "following", "options", "option", "answer", "answers", "choice", "choices", "given", "use",
        "using", "let", "each", "one", "all", "some", "any", "per", "about", "approximately",
        "final", "result", "results", "total", "also", "just", "only", "exactly", "roughly",
        "around", "get", "gets", "got", "we", "they", "you", "she", "him", "them", "it",
    }
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class _Statement:
    """The concluding statement: the value's text (plain) and span (in the reply), what
    leads into it, its subject when it states a value of one, and whether it is an answer
    in so many words (a box, "the answer is")."""

    value: str
    span: tuple[int, int]
    lead: str
    subject: str | None
    link: str = ""


def _concluding(text: str, lo: int, hi: int) -> _Statement | None:
    """The reply's concluding statement of a value, if it ends on one (see the module)."""
    lo, hi = _trimmed(text, lo, hi)
    if lo >= hi:
        return None
    boxed = _last_box(text, lo, hi)
    if boxed is not None:
        return boxed
    line = _line_start(text, lo, hi)
    while line > lo and _DISPLAY_LINE.fullmatch(text, line, hi):
        _, hi = _trimmed(text, lo, line)  # a line that only closes a display: the one before
        line = _line_start(text, lo, hi)
    if hi - line > 2 * _MAX_STATEMENT:
        return None
    plain, origin = _plain_math(text[line:hi])
    start = 0
    for mark in _SENTENCE_END.finditer(plain):
        if mark.end() < len(plain.rstrip()):
            start = mark.end()
    opened = _BULLET.match(plain, start)
    at = opened.end() if opened is not None else start
    sentence = plain[at:].rstrip(" \t*_`")
    if not sentence or len(sentence) > _MAX_STATEMENT:
        return None
    trailing = _TRAILING.search(sentence.rstrip(" .!"))
    if trailing is not None:
        sentence = sentence[: trailing.start()] + "."

    def made(found: re.Match[str], subject: str | None, link: str = "") -> _Statement:
        v_lo, v_hi = found.span("v")
        span = (line + origin[at + v_lo], line + origin[at + v_hi - 1] + 1)
        return _Statement(found.group("v"), span, sentence[: found.start("v")], subject, link)

    found: re.Match[str] | None
    for form in (_ANSWER_IS.search, _IS_ANSWER.match, _SO_VALUE.match):
        found = form(sentence)
        if found is not None and _parse_value(found.group("v")) is not None:
            return made(found, None)
    before = _line_start(text, lo, line - 1) if line > lo else lo
    if not start and (line == lo or not text[before : line - 1].strip()):
        # a value alone on the last line, in its own paragraph (or the whole reply)
        found = _ALONE.match(sentence)
        lead = text[_line_start(text, lo, before - 1) : before].strip() if before > lo else ""
        listed = lead.endswith(":") and _ANSWER_LEAD.search(lead) is None  # "Options:"
        if found is not None and _parse_value(found.group("v")) is not None and not listed:
            return made(found, None)
    found = _STATEMENT.match(sentence)
    if found is None:
        return None
    return made(found, found.group("subject"), found.group("link") or found.group("eq"))


# A lead-in that introduces an answer: "The final answer is:", "Therefore:"
_ANSWER_LEAD = _Pattern(
    r"(?<![\w-])(?:answer|result|solution|so|thus|therefore|hence|final)(?![\w-])", re.IGNORECASE
)
_BULLET = _Pattern(r"[\s*_>]*(?:[-•]\s+|\d{1,2}[.)]\s+)?")
_ALONE = _Pattern(r"(?P<v>.*?)\s*[.!]?\s*$")


def _line_start(text: str, lo: int, at: int) -> int:
    """Where the line holding ``text[at]`` starts, not before ``lo``."""
    return max(lo, text.rfind("\n", lo, at) + 1)


def _trimmed(text: str, lo: int, hi: int) -> tuple[int, int]:
    while lo < hi and text[lo] in " \t\r\n":
        lo += 1
    while hi > lo and text[hi - 1] in " \t\r\n":
        hi -= 1
    return lo, hi


def _last_box(text: str, lo: int, hi: int) -> _Statement | None:
    """A LaTeX box that ends the reply (what follows only closes a display or a
    sentence), every box in the reply holding the same value, with its lead-in: its own
    line before it, or the line before when the box stands alone."""
    boxes: list[tuple[int, int]] = []
    at = lo
    while (found := _BOX.search(text, at, hi)) is not None:
        if len(boxes) == _MAX_BOXES:
            return None
        depth, at = 1, found.end()
        stop = min(hi, at + _MAX_STATEMENT)
        while at < stop and depth:
            depth += {"{": 1, "}": -1}.get(text[at], 0) if text[at - 1] != "\\" else 0
            at += 1
        if depth:
            return None  # never closed, or too long to hold a value
        boxes.append((found.end(), at - 1))  # a box inside it is part of its value
    if not boxes:
        return None
    last = boxes[-1]
    if not _AFTER_BOX.fullmatch(text, last[1] + 1, hi):
        return None
    values = {_parse_value(text[b_lo:b_hi]) for b_lo, b_hi in boxes}
    if len(values) != 1:
        return None
    line = max(_line_start(text, lo, last[0]), last[0] - _MAX_STATEMENT)
    lead = _BOX.compiled.sub(" ", _plain_math(text[line : last[0]])[0])
    end = line - 1
    while not lead.strip(" \t$") and end > lo:
        # the box alone on its line: what leads into it is the line before (displays aside)
        start = _line_start(text, lo, end)
        if not _DISPLAY_LINE.fullmatch(text, start, end):
            lead = _plain_math(text[max(start, end - _MAX_STATEMENT) : end])[0]
        end = start - 1
    # its last sentence: "Since 3/5 is not 1/2, ... The answer is" reads "The answer is"
    cut = max((found.end() for found in _SENTENCE_END.finditer(lead.rstrip())), default=0)
    value = _plain_math(text[last[0] : last[1]])[0]
    return _Statement(value, last, lead[cut:], None)


# -- the question's own ask ----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Asked:
    """What a question asks for: the words of its ask (its last sentence with a question
    mark, else its last sentence), all its words, and whether it asks in the negative
    ("Which is NOT prime?": a value stated of a subject may answer the positive)."""

    ask: frozenset[str]
    words: frozenset[str]
    negative: bool


@functools.lru_cache(maxsize=256)
def _asked(question: str) -> _Asked:
    end = question.rfind("?")
    end = len(question) if end < 0 else end
    start = max(question.rfind(mark, 0, end) for mark in (". ", "! ", "? ", "\n")) + 1
    negative = _NEGATIVE_ASK.search(question) is not None
    return _Asked(_words(question[start:end]), _words(question), negative)


_NEGATIVE_ASK = _Pattern(
    r"(?<![\w-])(?:not|\w+n[’']t|cannot|except|never|none|neither|false|incorrect|wrong)"
    r"(?![\w-])",
    re.IGNORECASE,
)


_ARTICLE_AFTER = _Pattern(r" [a-z]{2}")  # "A train": an article, not a variable


def _words(text: str) -> frozenset[str]:
    """Content words (three letters or more, no stop words, a plural's -s off) and
    single-letter variables ("x", "A" that is no article) of ``text``."""
    words: set[str] = set()
    for found in _WORD.finditer(text):
        word = found.group()
        if len(word) == 1:
            article = word == "A" and _ARTICLE_AFTER.match(text, found.end()) is not None
            if word not in ("a", "I") and not article:
                words.add(word)
            continue
        folded = word.casefold()
        if len(folded) < 3 or folded in _STOPWORDS:
            continue
        words.add(folded[:-1] if folded.endswith("s") and len(folded) > 3 else folded)
    return frozenset(words)


# -- the rule ------------------------------------------------------------------------


def read_value(text: str, lo: int, hi: int, ctx: _Context) -> _Reading | None:
    """The option a direct leg's choice reply concludes on by its value (see the module);
    None when the reply does not conclude on exactly one option's value."""
    if ctx.task != "choice" or ctx.leg != 1 or len(ctx.labels) > _MAX_OPTIONS:
        return None
    options = [(label, _parse_value(written)) for label, written in ctx.texts.pairs()]
    if not any(value is not None for _, value in options):
        return None
    said = _concluding(text, lo, hi)
    if said is None:
        return None
    whole = said.lead + " " + said.value
    if _QUALIFIED.search(whole) or any(
        ctx.vocab.sign(word.group()) == -1 for word in _WORD.finditer(whole)
    ):
        return None  # "The speed is not 80 km/h.", "The wrong answer is 70 km/h."
    value = _parse_value(said.value)
    if value is None:
        return None
    same = [label for label, option in options if option is not None and _same(value, option)]
    if len(same) != 1:
        return None  # no option's value, or two ("45" of "45 km/h" and "45 m/s")
    if value.number is not None and _a_part_elsewhere(value.number, same[0], ctx):
        return None
    if _APPROXIMATE.search(said.lead) and _near_another(value, same[0], options):
        return None  # "approximately 290" beside 288.7: which it rounds says not
    weak = bool(_SOFTENED.search(whole))
    if said.subject is not None:
        subject = _subject(said.subject, said.link)
        asked = _asked(ctx.vocab.question)
        if subject is None or asked.negative or _names_an_option(subject, ctx):
            # "3x = 36"; "Which is NOT prime?" answered by "The prime is 23."; "Note:
            # option C is 90 km/h." (a listing's line, not a conclusion)
            return None
        if len(subject) == 1 and subject not in asked.ask:
            return None  # "x = 12": a variable of the derivation the question asks not for
        named = _words(subject)
        generic = not named and _GENERIC.search(subject) is not None  # "the final result"
        # the subject names what the question asks ("the average speed of the train"),
        # in its words; else it may be a value on the way ("the son", "the first half")
        asks = bool(named & asked.ask) and named <= asked.words
        weak = weak or not (asks or generic)  # a question of numbers alone: weak
    return _Reading(frozenset(same), said.span, weak=weak)


# An option named by its label in a subject: "option C", "choice (b)", "(C)", "C)"
_OPTION_REF = _Pattern(
    r"(?<![\w-])(?:(?:options?|choices?|answers?|letters?)\s*\(?(?P<a>[A-Za-z0-9]{1,4})\)?"
    r"|\((?P<b>[A-Za-z0-9]{1,4})\)|(?P<c>[A-Za-z0-9]{1,4})\))(?![\w-])",
    re.IGNORECASE,
)


def _names_an_option(subject: str, ctx: _Context) -> bool:
    """Whether a subject names an option by its label as an option ("option C is ...")."""
    for found in _OPTION_REF.finditer(subject):
        label = found.group("a") or found.group("b") or found.group("c") or ""
        if label.upper() in ctx.keys:
            return True
    return False


# A value said to be approximate: "approximately 290", "≈ 290"
_APPROXIMATE = _Pattern(
    r"(?:(?<![\w-])(?:approximately|approx\.?|about|around|roughly)|[≈~])\s*$", re.IGNORECASE
)
_NEAR = 0.025
"""How near (relatively) another option's number makes an approximate value ambiguous."""


def _near_another(value: _Value, label: str, options: list[tuple[str, _Value | None]]) -> bool:
    """Whether another option's number lies within ``_NEAR`` of the value's."""
    if value.number is None:
        return False
    said = value.number[0] / value.number[1]
    for other, option in options:
        if other == label or option is None or option.number is None:
            continue
        number = option.number[0] / option.number[1]
        if abs(number - said) <= _NEAR * max(abs(said), abs(number)):
            return True
    return False


def _subject(clause: str, link: str) -> str | None:
    """What a statement states its value of: the clause before its verb ("the speed" of
    "So the speed is"), the first side of an equation ("Speed" of "Speed = 240 / 3 ="),
    None when that is an expression ("3x", "1/6 + 1/12")."""
    broken = _CLAUSE_BREAK.match(clause)
    if broken is not None:
        clause = clause[broken.end() :]
    if link in ("=", "≈"):
        clause = clause.replace("≈", "=").split("=")[0]
    elif "=" in clause or "≈" in clause:
        return None
    subject = _OPENERS.sub("", clause).strip(" \t*_`,:")
    if _SYMBOLS.search(subject) and link in ("=", "≈"):
        return None  # "3x = 36", "1/6 + 1/12 = 1/4": an expression's value
    return subject


def _a_part_elsewhere(number: Rational, label: str, ctx: _Context) -> bool:
    """Whether the number is an option's label ("4" of labels 1 to 5), or a part of
    another option's text that is not a value of its own ("12" in "12 and 18")."""
    if number[1] == 1 and str(number[0]) in ctx.keys:
        return True
    for other, written in ctx.texts.pairs():
        if other == label or _parse_value(written) is not None:
            continue
        for found in _DIGITS.finditer(written):
            if _rational(found.group()) == number:
                return True
    return False
