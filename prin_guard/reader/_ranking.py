"""Reading a ranking from a judge's reply (issue 40, item 4): strict, pure, no I/O.

``read_ranking(reply, labels)`` returns the ranking the reply *declares*, best first as the
judge listed it (a reverse leg's "worst to best" answer comes back worst first: the caller,
who knows the question, reverses it), or ``None`` with the reason it could not be read.

**The forms** (each one a *ranking expression*):

* an ordering line: "Assistant 2 > Assistant 1 = Assistant 3" (LLMZoo), "B > C > A",
  ``>`` a better place, ``=`` a tie; ``>>`` reads as ``>``;
* RankGPT's identifiers: "[2] > [1] > [3]";
* a JSON list: ``["B", "A", "C"]``, ``[2, 1, 3]``, a tie as a nested list
  ``[["A", "B"], "C"]``, also under a key (``{"ranking": [...]}``, ``"order"``, ...) or as a
  string there (``{"ranking": "B > A > C"}``);
* ranks by label in JSON: ``{"A": 2, "B": 1, "C": 3}`` (1 the first place; equal ranks tie;
  the numbers must be the places of a ranking, 1, 2, 3 or 1, 1, 3 or 1, 1, 2: scores such as
  ``{"A": 8, "B": 6}`` are not ranks and are not read);
* numbered lines: "1. Response C" / "2. Response A" / ... (the name right after the number;
  equal numbers tie), read only when the lines hold nothing but the names or a line that
  announces a ranking ("Ranking:", "from best to worst") stands right above them: a
  numbered list that discusses the responses in turn is reasoning, not a ranking;
* bracket tags, one per place: "[[C]], [[A]], [[B]]" (or separated by ``>``);
* after a ranking heading ("Final ranking: C, A, B"), commas separate places.

A response is named by its label, by a noun and a number or letter ("Assistant 2",
"Response C", "Output (a)", "[2]", "[[C]]"; the number or letter is the label itself when
it is one, else a place among the shown labels: 2 is the second), or by a bare label
("C"; a bare number only when the labels are numbers).

**Strict.** A ranking must name every label exactly once: one that leaves a label out,
names one twice or names something that is not a label is unreadable, never completed by
a guess. An ordering of only two responses among more is a comparison, not a ranking, and
is not read at all.

**The conclusion decides.** Each expression has a strength: 2 when it is declared (a JSON
form, bracket tags, numbered lines as above, a line that holds nothing but the ordering,
an ordering after a ranking heading or in a sentence that concludes: "therefore",
"overall", "the final order is", ...); 1 when it merely stands in the reply's last line,
or is a ranking in one respect ("in terms of coherence, A > B > C": judges asked about one
aspect conclude so); 0 when it is a mention elsewhere or hedged ("if brevity matters, A >
B > C"). The reading is the expressions of the highest strength above 0: when they are all the
same ranking (repeated identically is fine), that ranking; when one of them is not a
ranking of every label, or they differ, the reply is unreadable ("several different
rankings"). Only mentions is unreadable too. So "Therefore, Assistant 1 > Assistant 2 in
terms of level of details. ... Therefore, the final order is Assistant 1 = Assistant 2."
reads the tie (LLMZoo's own parser took the first line and recorded 1 > 2).

**Copies of the item.** A ranking that stands in a quotation of the item's texts
(``echo``: the question, the candidates' texts, the context) is the item's, not the
judge's: it is not read, and the reading says ``copied``. The rule is every reader's for a
place (:func:`prin_guard._prompting._quotes.quoted_places`, as for a declared format's place and a
score's declaration): the longest stretch around the ranking that the item holds (case and
spacing aside) holds a word that is no label's. A bare ranking the item also holds
("A > B > C" and nothing else) quotes nothing: it is the judge's.

**JSON** is found by the reader's one scanner (:mod:`prin_guard.reader._json`: its last
values first, within its bounds, raw line breaks in strings allowed).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from prin_guard._prompting._quotes import quoted_places
from prin_guard._ranking import Ranking
from prin_guard.errors import UsageError
from prin_guard.reader._json import json_values

__all__ = ["FORMS", "RankingReading", "read_ranking"]


@dataclass(frozen=True, slots=True)
class RankingReading:
    """A ranking read from a reply, or why none was."""

    ranking: Ranking | None
    """Tiers of labels in the order the reply lists them; ``None`` when unreadable."""
    form: str | None
    """The form it was read from: ``ordering``, ``json-list``, ``json-ranks``, ``numbered``,
    ``tags``, ``headed-list``."""
    reason: str | None
    """Why the reply is unreadable; ``None`` when it was read."""
    span: tuple[int, int] | None = None
    """Where the ranking stands in the reply, ``[start, end)``; ``None`` when several
    identical expressions were read or none."""
    copied: bool = False
    """A ranking stood in text copied from the item (``echo``); it was not read."""


_NOUN = (
    r"(?:assistant|response|output|answer|candidate|summary|model|option|completion|"
    r"reply|passage|document|system|text)s?"
)
_NAME = re.compile(
    r"\[\[\s*(?P<tag>[A-Za-z0-9]{1,4})\s*\]\]"
    r"|\[\s*(?P<ident>\d{1,3}|[A-Za-z]{1,2})\s*\]"
    rf"|\b{_NOUN}\s*(?:#|no\.\s*)?\(?\s*(?P<noun>[A-Za-z]{{1,2}}\b|\d{{1,3}}\b)\s*\)?"
    r"|(?<![\w\[(])(?P<bare>[A-Z]{1,2}|\d{1,3})(?![\w\])])",
    re.IGNORECASE,
)
_ORDER_GAP = re.compile(r"[\s*_`]*(?P<sep>>>|>|=|≻|,)?[\s*_`]*")
_HEADING = re.compile(
    r"^[\s*#_`>-]*(?:(?:my|the|final|overall|suggested|resulting|complete)\s+)*"
    r"(?:ranking|order|ordering|rank)\b[^:\n]{0,40}:",
    re.IGNORECASE,
)
_ANNOUNCE = re.compile(
    r"\b(?:rank(?:ing|ed)?|order(?:ing)?|best to worst|worst to best|from best|from worst)\b",
    re.IGNORECASE,
)
_CONCLUDES = re.compile(
    r"\b(?:therefore|thus|hence|so|overall|in conclusion|in summary|to summari[sz]e|final(?:ly)?|"
    r"conclusion|verdict|based on|consequently|ranking|order(?:ing)?|ranked|rank|answer)\b",
    re.IGNORECASE,
)
_LEAD = re.compile(
    r"^\W*(?:therefore|thus|hence|so|overall|in conclusion|in summary|finally)\b",
    re.IGNORECASE,
)
_CONCLUDED = re.compile(
    r"\W*(?:is|are|would be|as) (?:the |my )?(?:final |overall |resulting )?"
    r"(?:ranking|order|ordering|verdict|answer)\b",
    re.IGNORECASE,
)
_ASPECT = re.compile(
    r"\b(?:in terms of|regarding|with respect to|when it comes to|as far as|"
    r"for (?:the )?(?:aspect|criterion) of)\b",
    re.IGNORECASE,
)
_HEDGED = re.compile(r"\b(?:if|unless|except|might|could|would)\b", re.IGNORECASE)
_NUMBERED = re.compile(
    r"^[ \t]*(?:[-*+][ \t]+)?(?:\*\*|__)?(?:#|rank[ \t]*)?(?P<n>\d{1,2})(?:st|nd|rd|th)?"
    r"[ \t]*[.):][ \t]*(?:\*\*|__)?[ \t]*",
    re.IGNORECASE,
)
_RANK_KEYS = ("ranking", "rankings", "final_ranking", "order", "ordering", "ranked", "rank")
_RANKS_KEYS = ("ranks", "rank_by_label", "positions", "places")


@dataclass(slots=True)
class _Found:
    names: list[list[str | None]]
    """Tiers of resolved labels; ``None`` for a name that is no label."""
    raw: list[list[str]]
    form: str
    strength: int
    start: int
    end: int
    problem: str | None = None


class _Labels:
    def __init__(self, labels: Sequence[str]) -> None:
        self.labels = tuple(labels)
        self.upper = {label.upper(): label for label in self.labels}
        self.numeric = all(label.isdigit() for label in self.labels)

    def resolve(self, token: str, bare: bool = False) -> str | None:
        key = token.strip().upper()
        if key in self.upper:
            return self.upper[key]
        if bare:
            return None
        if key.isdigit():
            number = int(key)
            return self.labels[number - 1] if 1 <= number <= len(self.labels) else None
        if len(key) == 1 and key.isalpha():
            place = ord(key) - ord("A")
            return self.labels[place] if place < len(self.labels) else None
        return None


def _name_token(match: re.Match[str]) -> tuple[str, str]:
    for kind in ("tag", "ident", "noun", "bare"):
        token = match.group(kind)
        if token is not None:
            return kind, token
    raise AssertionError("a name matched no group")


# --------------------------------------------------------------------------- JSON


def _ranking_json(value: object) -> bool:
    """Whether a JSON value may be a ranking: an object, or a list of two or more places
    (``[[1]]`` is a bracket tag; ``[["A", "B"]]`` ties everything)."""
    return isinstance(value, dict) or (
        isinstance(value, list)
        and (
            len(value) >= 2
            or (len(value) == 1 and isinstance(value[0], list) and len(value[0]) >= 2)
        )
    )


def _element(value: object, labels: _Labels) -> tuple[str, str | None] | None:
    """A JSON element naming one response: its raw text and label."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return str(value), labels.resolve(str(value))
    if isinstance(value, str):
        match = _NAME.fullmatch(value.strip())
        if match is None:
            return value, None
        kind, token = _name_token(match)
        return value, labels.resolve(token, bare=kind == "bare" and not token.isdigit())
    return None


def _from_json_list(
    value: list[object], labels: _Labels
) -> tuple[list[list[str | None]], list[list[str]]] | None:
    tiers: list[list[str | None]] = []
    raw: list[list[str]] = []
    for entry in value:
        members = entry if isinstance(entry, list) else [entry]
        if not members:
            return None
        tier: list[str | None] = []
        names: list[str] = []
        for member in members:
            element = _element(member, labels)
            if element is None:
                return None
            names.append(element[0])
            tier.append(element[1])
        tiers.append(tier)
        raw.append(names)
    return tiers, raw


def _from_ranks(
    value: dict[str, object], labels: _Labels
) -> tuple[list[list[str | None]], list[list[str]], str | None] | None:
    ranks: dict[str, int] = {}
    for key, number in value.items():
        if isinstance(number, bool) or not isinstance(number, int):
            return None
        ranks[key] = number
    resolved: dict[str, str | None] = {}
    for key in ranks:
        match = _NAME.fullmatch(key.strip())
        if match is None:
            return None
        kind, token = _name_token(match)
        resolved[key] = labels.resolve(token, bare=kind == "bare" and not token.isdigit())
    ordered = sorted(ranks, key=ranks.__getitem__)
    tiers: list[list[str | None]] = []
    raw: list[list[str]] = []
    problem = None
    for place, key in enumerate(ordered):
        if tiers and ranks[raw[-1][0]] == ranks[key]:
            tiers[-1].append(resolved[key])
            raw[-1].append(key)
            continue
        # a new place: its number is 1 + the names above it (1, 1, 3) or 1 + the places
        # above it (1, 1, 2)
        if ranks[key] not in (place + 1, len(tiers) + 1):
            problem = f"{ranks[key]} is not a place in a ranking of these ranks (scores?)"
        tiers.append([resolved[key]])
        raw.append([key])
    return tiers, raw, problem


def _json_found(text: str, labels: _Labels) -> list[_Found]:
    out: list[_Found] = []
    # the reader's one JSON scanner, its bounds; a value's inside is a part of it, never
    # a value of its own
    values = json_values(text, "[{", outermost=True)
    for start, end, value in reversed([found for found in values if _ranking_json(found[2])]):
        target: object = value
        if isinstance(value, dict):
            lowered = {str(k).lower(): v for k, v in value.items()}
            for key in _RANK_KEYS:
                if key in lowered:
                    target = lowered[key]
                    break
            else:
                for key in _RANKS_KEYS:
                    if key in lowered:
                        target = lowered[key]
                        break
        if isinstance(target, str):
            chains = _chains(target, 0, labels, headed=True)
            for chain in chains:
                out.append(
                    _Found(chain.names, chain.raw, "json-list", 2, start, end, chain.problem)
                )
            continue
        if isinstance(target, list):
            read = _from_json_list(target, labels)
            if read is not None:
                out.append(_Found(read[0], read[1], "json-list", 2, start, end))
            continue
        if isinstance(target, dict) and target:
            ranks = _from_ranks({str(k): v for k, v in target.items()}, labels)
            if ranks is not None:
                out.append(_Found(ranks[0], ranks[1], "json-ranks", 2, start, end, ranks[2]))
    return out


# --------------------------------------------------------------------------- lines


def _names_in(line: str, labels: _Labels) -> list[tuple[int, int, str, str | None, str]]:
    """``(start, end, raw, label, kind)`` of each name in a line."""
    out = []
    for match in _NAME.finditer(line):
        kind, token = _name_token(match)
        if kind == "bare":
            label = labels.resolve(token, bare=True)
            if label is None or (token.isdigit() and not labels.numeric):
                continue
            if token.isalpha() and token != token.upper():
                continue
        else:
            label = labels.resolve(token)
        out.append((match.start(), match.end(), match.group(0), label, kind))
    return out


def _chains(line: str, offset: int, labels: _Labels, *, headed: bool) -> list[_Found]:
    """The orderings of a line: names joined by ``>``/``=`` (or ``,`` after a heading or
    between bracket tags)."""
    names = _names_in(line, labels)
    out: list[_Found] = []
    run: list[tuple[int, int, str, str | None, str]] = []
    seps: list[str] = []

    def close() -> None:
        if len(run) >= 2:
            tiers: list[list[str | None]] = [[run[0][3]]]
            raw: list[list[str]] = [[run[0][2]]]
            for sep, name in zip(seps, run[1:], strict=True):
                if sep == "=":
                    tiers[-1].append(name[3])
                    raw[-1].append(name[2])
                else:
                    tiers.append([name[3]])
                    raw.append([name[2]])
            tags = all(name[4] == "tag" for name in run)
            form = "tags" if tags else ("headed-list" if "," in seps else "ordering")
            out.append(_Found(tiers, raw, form, 0, offset + run[0][0], offset + run[-1][1]))
        run.clear()
        seps.clear()

    for name in names:
        if run:
            gap = line[run[-1][1] : name[0]]
            match = _ORDER_GAP.fullmatch(gap)
            sep = match.group("sep") if match else None
            tags = run[-1][4] == "tag" and name[4] == "tag"
            if match and sep is None and tags and gap.strip() == "":
                sep = ">"
            ok = match is not None and sep is not None and (sep != "," or headed or tags)
            if ok:
                seps.append("=" if sep == "=" else ">")
                if sep == ",":
                    seps[-1] = ","
                run.append(name)
                continue
            close()
        run.append(name)
    close()
    return out


def _strength(text: str, found: _Found, line_start: int, line_end: int, last_line: bool) -> int:
    if found.form == "tags":
        return 2
    line = text[line_start:line_end]
    head = _HEADING.match(line)
    start, end = found.start - line_start, found.end - line_start
    cut = max(line.rfind(". ", 0, start), line.rfind("! ", 0, start), line.rfind("? ", 0, start))
    prefix = line[cut + 1 : start] if cut >= 0 else line[:start]
    after = re.search(r"[.!?](?:\s|$)", line[end:])
    suffix = line[end : end + after.start()] if after else line[end:]
    if _HEDGED.search(prefix) or _HEDGED.search(suffix):
        return 0
    if _ASPECT.search(prefix) or _ASPECT.search(suffix):
        return 1  # a ranking in one respect: read only when none is declared
    if head is not None and head.end() <= start:
        return 2
    before = re.sub(r"[\s*_`#>:.,-]", "", _LEAD.sub("", line[:start]))
    if not before and not re.sub(r"[\s*_`.!)]", "", line[end:]):
        return 2  # the line holds nothing but the ordering
    if _CONCLUDES.search(prefix) or _CONCLUDED.match(suffix):
        return 2
    return 1 if last_line else 0


def _numbered(text: str, labels: _Labels) -> list[_Found]:
    lines = text.splitlines(keepends=True)
    starts = []
    pos = 0
    for line in lines:
        starts.append(pos)
        pos += len(line)
    out: list[_Found] = []
    block: list[tuple[int, int, str, str | None, bool]] = []
    block_first = -1
    block_end = [0]

    def close(before: int) -> None:
        if len(block) >= 2:
            announced = False
            for back in range(before - 1, max(-1, before - 3), -1):
                if lines[back].strip():
                    announced = bool(_ANNOUNCE.search(lines[back]))
                    break
            bare = all(only for *_, only in block)
            if announced or bare:
                numbers = sorted({number for number, *_ in block})
                tiers = [
                    [label for n, _, _, label, _ in block if n == number] for number in numbers
                ]
                raw = [[name for n, _, name, _, _ in block if n == number] for number in numbers]
                problem = None
                place = 1
                for number, tier in zip(numbers, tiers, strict=True):
                    if number != place:
                        problem = f"numbered {number} where place {place} was due"
                        break
                    place += len(tier)
                found = _Found(tiers, raw, "numbered", 2, block[0][1], block_end[0], problem)
                out.append(found)
        block.clear()

    for index, line in enumerate(lines):
        match = _NUMBERED.match(line)
        name = None
        if match:
            rest = line[match.end() :]
            names = _names_in(rest, labels)
            if names and names[0][0] == len(rest) - len(rest.lstrip(" \t*_[(")):
                name = names[0]
        if match and name is not None:
            if not block:
                block_first = index
            trailing = rest[name[1] :]
            only = not re.sub(r"[\s*_`.!)\]]", "", trailing)
            block.append((int(match.group("n")), starts[index], name[2], name[3], only))
            block_end[0] = starts[index] + len(line.rstrip())
        elif line.strip():
            close(block_first)
    close(block_first)
    return out


# --------------------------------------------------------------------------- the reading


def _problem(found: _Found, labels: _Labels) -> str | None:
    if found.problem:
        return found.problem
    seen: set[str] = set()
    for tier, raw in zip(found.names, found.raw, strict=True):
        for label, name in zip(tier, raw, strict=True):
            if label is None:
                return f"{name!r} is not one of the labels {', '.join(labels.labels)}"
            if label in seen:
                return f"the ranking names {label} twice"
            seen.add(label)
    missing = [label for label in labels.labels if label not in seen]
    if missing:
        return f"the ranking leaves out {', '.join(missing)}"
    return None


FORMS: tuple[str, ...] = ("ordering", "json-list", "json-ranks", "numbered", "tags", "headed-list")
"""The forms a ranking is read from (RankGPT's "[2] > [1] > [3]" is an ``ordering``)."""


def read_ranking(
    reply: str, labels: Sequence[str], *, echo: Sequence[str] = (), form: str | None = None
) -> RankingReading:
    """The ranking ``reply`` declares of the responses ``labels`` (shown in that order), or
    why it declares none (see the module). ``form`` (one of :data:`FORMS`): the form the
    judge was asked to write (a template's contract): read first, its expressions alone
    decide when one of them is more than a mention; else the reply is read as a whole."""
    if form is not None and form not in FORMS:
        raise UsageError(f"form: {form!r} is not a ranking form; use one of {', '.join(FORMS)}")
    if len(labels) < 2 or len(set(labels)) != len(labels):
        raise UsageError(f"labels: {list(labels)!r} are not two or more distinct labels")
    names = _Labels(labels)
    text = reply  # copies of the item are dropped where found, below
    found = _json_found(text, names)
    # JSON is read; the rest of the reading sees it blanked
    for item in found:
        text = text[: item.start] + " " * (item.end - item.start) + text[item.end :]
    found += _numbered(text, names)
    lines = text.splitlines(keepends=True)
    last = max((i for i, line in enumerate(lines) if line.strip()), default=-1)
    pos = 0
    for index, line in enumerate(lines):
        headed = bool(_HEADING.match(line))
        for chain in _chains(line, pos, names, headed=headed):
            count = sum(len(tier) for tier in chain.names)
            if chain.form != "tags" and count < 3 and len(names.labels) > 2:
                continue  # a comparison of two among more
            chain.strength = _strength(
                text, chain, pos, pos + len(line.rstrip("\n")), index == last
            )
            found.append(chain)
        pos += len(line)
    quoted = set(quoted_places(reply, [(item.start, item.end) for item in found], echo, labels))
    copied = any((item.start, item.end) in quoted for item in found)
    found = [item for item in found if (item.start, item.end) not in quoted]
    declared = [item for item in found if item.form == form and item.strength > 0]
    if declared:
        found = declared  # what the judge was asked to write decides
    top = max((item.strength for item in found), default=0)
    if top == 0:
        reason = "rankings only in the reasoning" if found else "no ranking"
        return RankingReading(None, None, reason, copied=copied)
    chosen = [item for item in found if item.strength == top]
    for item in chosen:
        problem = _problem(item, names)
        if problem is not None:
            return RankingReading(None, item.form, problem, copied=copied)
    shapes = {tuple(frozenset(tier) for tier in item.names) for item in chosen}
    if len(shapes) > 1:
        return RankingReading(None, None, "several different rankings", copied=copied)
    first = chosen[-1]
    ranking: Ranking = tuple(
        tuple(label for label in tier if label is not None) for tier in first.names
    )
    span = (first.start, first.end) if len(chosen) == 1 else None
    return RankingReading(ranking, first.form, None, span, copied)
