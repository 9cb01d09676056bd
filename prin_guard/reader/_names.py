"""Names of candidates ("Output (a)", "Response 2", "the first response", "criterion 3")
written over by their labels, so every later stage knows one form.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from prin_guard.reader._evidence import _Context
from prin_guard.reader._text import _Pattern
from prin_guard.reader._vocab import _NATIVE_NOUNS
from prin_guard.tasks._words import TASK_WORDS


@dataclass(frozen=True, slots=True)
class _View:
    """The reply with every candidate's name written as its label, and where each
    label written stands in the reply (its letter, number or ordinal)."""

    text: str
    starts: Mapping[int, int]
    ends: Mapping[int, int]

    def original(self, span: tuple[int, int] | None) -> tuple[int, int] | None:
        if span is None or not self.starts:
            return span
        start, end = span
        return self.starts.get(start, start), self.ends.get(end, end)


_ORDINALS = {
    word: i
    for i, words in enumerate(
        (
            ("first", "1st"), ("second", "2nd"), ("third", "3rd"), ("fourth", "4th"),
            ("fifth", "5th"), ("sixth", "6th"), ("seventh", "7th"), ("eighth", "8th"),
            ("ninth", "9th"), ("tenth", "10th"),
        ),
        start=1,
    )
    for word in words
}  # fmt: skip


# "the first response", "Output (a)", "Response 2", "Assistant B", "criterion #3"
_NAME = _Pattern(
    r"(?<![\w-])(?P<det>(?:[Tt]he|[Tt]his|[Tt]hat)[^\S\n]+)?"
    r"(?P<ord>(?i:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth"
    r"|1st|2nd|3rd|[4-9]th|10th))[^\S\n]+(?P<onoun>[A-Za-z]+)(?![\w-])"
    r"|(?<![\w-])(?P<noun>[A-Za-z]{2,})"
    r"(?:[^\S\n]*(?:\((?P<p>[A-Za-z0-9]{1,4})\)|\[(?P<b>[A-Za-z0-9]{1,4})\])"
    r"|[^\S\n]+(?:(?:#|[Nn]o\.|[Nn]umber)[^\S\n]*)?(?P<t>[A-Z][A-Z0-9]{0,3}|[0-9]{1,3})"
    r"(?![\w-]|\.\d))"
)


# More names after one: "claims 1 and 3", "Output (a) and (b)", "criteria A, C"
_NAME_MORE = _Pattern(
    r"(?:[^\S\n]*[,&/][^\S\n]*(?:and[^\S\n]+|or[^\S\n]+)?|[^\S\n]+(?:and|or)[^\S\n]+)"
    r"(?:\((?P<p>[A-Za-z0-9]{1,4})\)|(?P<t>[A-Z][A-Z0-9]{0,3}|[0-9]{1,3})(?![\w-]|\.\d))"
)


# With one candidate: "the criterion", "this claim"
_NAME_ONE = _Pattern(
    r"(?<![\w-])(?:[Tt]he[^\S\n]+(?:given|only|single)|[Tt]he|[Tt]his|[Tt]hat)[^\S\n]+"
    r"(?P<noun>[A-Za-z]+)(?![\w-])(?![^\S\n]*(?:[(\[#]|[A-Z0-9]))"
)


_ORD = (
    r"(?i:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|last"
    r"|1st|2nd|3rd|[4-9]th|10th)"
)
# Several options named by position: "the first, third and fourth options", "the second
# and the last choices"; the list ends on a plural noun
_ORD_LIST = _Pattern(
    rf"(?<![\w-])(?P<ords>{_ORD}(?:(?:[^\S\n]*,[^\S\n]*(?:and[^\S\n]+)?|[^\S\n]+and[^\S\n]+)"
    rf"(?:[Tt]he[^\S\n]+)?{_ORD})+)[^\S\n]+(?P<noun>[A-Za-z]+s)(?![\w-])"
)
_THE = _Pattern(r"(?<![\w-])[Tt]he(?![\w-])")
_ORD_WORD = _Pattern(rf"(?<![\w-]){_ORD}(?![\w-])")


def _ordinal_lists(
    text: str, ctx: _Context, nouns: frozenset[str], starts: dict[int, int], ends: dict[int, int]
) -> str:
    """``text`` with each list of positions before a plural noun of the candidates ("the
    first and third options") written as their labels ("the A     and C     "), the noun
    written over by spaces. Not when a candidate's text is itself a position ("first",
    "last"), which the list could mean."""
    if not _ORD_WORD.search(text) or any(
        _ORD_WORD.fullmatch(ctx.texts.norm_of(label) or "") for label in ctx.labels
    ):
        return text
    out = list(text)
    for match in _ORD_LIST.finditer(text):
        if not _is_noun(match.group("noun"), nouns):
            continue
        found = list(_ORD_WORD.finditer(text, match.start("ords"), match.end("ords")))
        labels = [
            ctx.labels[-1]
            if word.group().lower() == "last"
            else _nth_label(_ORDINALS[word.group().lower()], ctx)
            for word in found
        ]
        if any(
            label is None or len(label) > len(word.group())
            for label, word in zip(labels, found, strict=True)
        ):
            continue
        for label, word in zip(labels, found, strict=True):
            assert label is not None
            at = word.start()
            out[at : word.end()] = label + " " * (word.end() - at - len(label))
            starts[at] = at
            ends[at + len(label)] = word.end()
        for the in _THE.finditer(text, found[0].end(), found[-1].start()):
            out[the.start() : the.end()] = " " * (the.end() - the.start())  # "and the last"
        out[match.start("noun") - 1 : match.end("noun")] = " " * (
            match.end("noun") - match.start("noun") + 1
        )
    return "".join(out)


def _name_labels(text: str, ctx: _Context, extra: Iterable[str]) -> _View:
    """``text`` with each name of a candidate ("Output (a)", "Response 2", "the first
    response", "criterion 3") written over by the candidate's label, padded with spaces
    to the name's length. A letter or a number after a noun is the label itself when it
    is one ("Response B"), else a position among the shown labels ("Output (a)" is the
    first, "claim 2" the second). Names with choice's own nouns and a label ("option
    C") are read as they are."""
    nouns = TASK_WORDS[ctx.task].names | {word.strip().lower() for word in extra}
    starts: dict[int, int] = {}
    ends: dict[int, int] = {}
    if ctx.task == "choice":
        text = _ordinal_lists(text, ctx, nouns, starts, ends)
    out: list[str] = []
    pos = 0

    def write(lo: int, hi: int, token_start: int, token_end: int, label: str) -> None:
        """Write ``label`` over ``text[lo:hi]``, at its token ``[token_start,
        token_end)`` where it fits."""
        nonlocal pos
        at = min(token_start, hi - len(label))
        if at < lo:
            return
        out.append(text[pos:lo])
        out.append(" " * (at - lo) + label + " " * (hi - at - len(label)))
        starts[at] = token_start
        ends[at + len(label)] = token_end
        pos = hi

    search_at = 0
    while (match := _NAME.search(text, search_at)) is not None:
        search_at = match.end()
        if match.group("ord"):
            onoun = match.group("onoun")
            if _is_noun(onoun, nouns) or (onoun.lower() == "one" and match.group("det")):
                label = _nth_label(_ORDINALS[match.group("ord").lower()], ctx)
                if label is not None:
                    write(match.start(), match.end(), match.start("ord"), match.end("ord"), label)
            continue
        noun = match.group("noun")
        if not _is_noun(noun, nouns):
            search_at = match.start() + len(noun)  # the token may start a name itself
            continue
        native = noun.lower().rstrip("s") in _NATIVE_NOUNS
        group = "p" if match.group("p") else "b" if match.group("b") else "t"
        label = _named(match.group(group), ctx, marked=group != "t")
        if label is None:
            continue
        if not (native and match.group(group).upper() == label.upper()):
            write(match.start(), match.end(), match.start(group), match.end(group), label)
        while (more := _NAME_MORE.match(text, search_at)) is not None:
            group = "p" if more.group("p") else "t"
            label = _named(more.group(group), ctx, marked=group == "p")
            if label is None:
                break
            search_at = more.end()
            if not (native and more.group(group).upper() == label.upper()):
                lo = more.start(group) - (group == "p")
                write(
                    lo, more.end(group) + (group == "p"), more.start(group), more.end(group), label
                )
    out.append(text[pos:])
    written = "".join(out)
    if len(ctx.labels) == 1:
        written = _name_the_one(written, ctx, nouns, starts, ends)
    return _View(written, starts, ends)


def _name_the_one(
    text: str, ctx: _Context, nouns: frozenset[str], starts: dict[int, int], ends: dict[int, int]
) -> str:
    """With one candidate, "the criterion" and "this claim" name it."""
    label = ctx.labels[0]
    out: list[str] = []
    pos = 0
    for match in _NAME_ONE.finditer(text):
        lo, hi = match.span()
        at = match.start("noun")
        if not _is_noun(match.group("noun"), nouns) or at + len(label) > hi:
            continue
        out.append(text[pos:lo])
        out.append(" " * (at - lo) + label + " " * (hi - at - len(label)))
        starts[at] = at
        ends[at + len(label)] = match.end("noun")
        pos = hi
    out.append(text[pos:])
    return "".join(out)


def _is_noun(word: str, nouns: frozenset[str]) -> bool:
    word = word.lower()
    return (
        word in nouns
        or (word.endswith("s") and word[:-1] in nouns)
        or (word.endswith("es") and word[:-2] in nouns)
    )


def _nth_label(position: int, ctx: _Context) -> str | None:
    return ctx.labels[position - 1] if 1 <= position <= len(ctx.labels) else None


def _named(token: str, ctx: _Context, *, marked: bool) -> str | None:
    """The label a name's letter or number stands for: the label itself when it is one
    (in capitals, or marked "(b)"), else its position ("2", "(b)")."""
    if token.isdigit():
        return _nth_label(int(token), ctx)
    label = ctx.keys.get(token.upper())
    if label is not None and (marked or token.isupper()):
        return label
    if len(token) == 1 and token.isalpha() and (marked or token.isupper()):
        return _nth_label(ord(token.lower()) - ord("a") + 1, ctx)
    return None
