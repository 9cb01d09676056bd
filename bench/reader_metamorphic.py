"""The reader under rewrites whose effect on the reading is known (issue 38): metamorphic tests
on every record of the visible choice corpora.

A corpus measures the reader on the replies someone wrote; a set written by someone else finds
the confident misreads those replies did not. Rewriting each reply in ways that cannot change
what a careful person reads (or that change it in a known way) finds misreads without a new
set: a rule that reads ``Answer: B`` but misreads ``**Answer: B**``, or reads the labels of a
phrasing instead of its meaning, shows up as a variant whose reading is not the original's.

Each transformation below returns a variant record (item, reply and ``expected``) or ``None``
where its effect is not certain for that record (it is then skipped, never guessed):

- ``rename``: the labels renamed consistently in the item and the reply (A and I are kept:
  they are words too), the expected labels renamed; positions unchanged;
- ``reorder``: the same renaming with the candidates put back in label order, so each text
  moves with its label (skipped where the reply names a position: "the first", "option 2");
- ``note``, ``signoff``: a closing line that names no label, option or side;
- ``preamble``: an opening sentence that names none;
- ``bold``, ``fence``: the last answer line ("Answer: ...") in markdown bold, in a code fence;
- ``upper``, ``lower``: the case of the answer line's keyword ("ANSWER:", "answer:");
- ``crlf``: Windows line ends;
- ``shuffle``: a run of lines that give each option its own line, reversed (skipped where a
  line leans on another: "same as", "also", "likewise", positions).

Outcomes as in ``bench.reader_choice_freetext`` (right, unread, weak misread, confident
misread), per transformation; ``original`` is the records themselves.

    python -m bench.reader_metamorphic             # the table
    python -m bench.reader_metamorphic --misses    # and each confident misread of a variant
    python -m bench.reader_metamorphic --only rename,bold --corpus choice-holdout-a
"""

from __future__ import annotations

import argparse
import re
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

from bench.reader_choice_freetext import CORPUS, Outcome, read, records

REPLIES = CORPUS.parent
CORPORA = (
    "choice-freetext",
    "choice-holdout",
    *(f"choice-holdout-{x}" for x in "abcdefgh"),
    "choice-real-b",
    "choice-real-c",
    "choice-vault",
    "choice-vault-2",
)
"""The visible choice corpora (choice-vault and choice-vault-2 are retired: their replies
are known)."""

Record = dict[str, Any]
Transform = Callable[[Record], Record | None]

# Letters that are words too: never renamed.
_WORD_LETTERS = frozenset("AI")
_TOKEN = re.compile(r"(?<![A-Za-z0-9])([A-Z])(?![A-Za-z0-9])")
_LOWER_TOKEN = re.compile(r"(?<![A-Za-z0-9.])([a-z])(?![A-Za-z0-9])(?!\.[a-z]\.)")
# A letter beside these is a variable or part of a formula, not a label.
_MATH_SIDE = set("$\\_^{}=+*/<>|~′")
_RUN = re.compile(r"(?<![A-Za-z0-9])[A-Z]{2,}(?![A-Za-z0-9])")
_RANGE = re.compile(
    r"(?<![A-Za-z0-9])[A-Z]\s*(?:-|–|—|\.\.|to|through|thru)\s*[A-Z](?![A-Za-z0-9])"
)
_POSITION = re.compile(
    r"\b(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|last|former|"
    r"latter|previous|preceding|next|above|below|top|bottom|\d+(?:st|nd|rd|th))\b|"
    r"\b(?:option|choice|candidate|answer|number|no\.|#)\s*\(?\d",
    re.IGNORECASE,
)
_LEANS = re.compile(r"\b(?:same|also|likewise|too|either|neither|ditto|similarly|as well)\b", re.I)


def _old(record: Record) -> tuple[str, ...]:
    return tuple(c["label"] for c in record["item"]["candidates"])


def _mapping(labels: tuple[str, ...], how: str) -> dict[str, str]:
    """A renaming of the labels that are only labels: each moved one place on (``cycle``) or
    their order reversed (``reverse``)."""
    movable = [x for x in labels if x not in _WORD_LETTERS]
    if len(movable) < 2:
        return {}
    moved = movable[1:] + movable[:1] if how == "cycle" else movable[::-1]
    return dict(zip(movable, moved, strict=True))


def _renamable(record: Record, mapping: dict[str, str]) -> bool:
    """Every capital letter of ``mapping`` the reply, the question and the candidate texts
    hold is a label: none in a formula, in a run of capitals ("ACE", "BD"), in a range
    ("B-D"), in lower case; the item's own texts hold none."""
    item = record["item"]
    texts = [item["question"], *(c["text"] for c in item["candidates"])]
    if any(m.group(1) in mapping for t in texts for m in _TOKEN.finditer(t)):
        return False
    reply = record["reply"] or ""
    if any(set(run) & set(mapping) for run in _RUN.findall(reply)) or _RANGE.search(reply):
        return False
    if any(m.group(1).upper() in mapping for m in _LOWER_TOKEN.finditer(reply)):
        return False
    for m in _TOKEN.finditer(reply):
        if m.group(1) not in mapping:
            continue
        before = reply[m.start() - 1] if m.start() else " "
        after = reply[m.end()] if m.end() < len(reply) else " "
        if before in _MATH_SIDE or after in _MATH_SIDE:
            return False
    return True


def _renamed(record: Record, mapping: dict[str, str], reorder: bool) -> Record:
    item = record["item"]
    candidates = [{**c, "label": mapping.get(c["label"], c["label"])} for c in item["candidates"]]
    if reorder:
        order = {x: i for i, x in enumerate(_old(record))}
        candidates.sort(key=lambda c: order[c["label"]])
    reply = _TOKEN.sub(lambda m: mapping.get(m.group(1), m.group(1)), record["reply"] or "")
    expected = record["expected"]
    if expected is not None:
        expected = sorted(mapping.get(x, x) for x in expected)
    return {
        **record,
        "item": {**item, "candidates": candidates},
        "reply": reply,
        "expected": expected,
    }


def rename(record: Record, how: str = "cycle") -> Record | None:
    mapping = _mapping(_old(record), how)
    if not mapping or not _renamable(record, mapping):
        return None
    return _renamed(record, mapping, reorder=False)


def reorder(record: Record) -> Record | None:
    mapping = _mapping(_old(record), "reverse")
    if not mapping or not _renamable(record, mapping) or _POSITION.search(record["reply"] or ""):
        return None
    return _renamed(record, mapping, reorder=True)


def _with_reply(record: Record, reply: str | None) -> Record | None:
    return None if reply is None or reply == record["reply"] else {**record, "reply": reply}


def note(record: Record) -> Record | None:
    return _with_reply(
        record, (record["reply"] or "").rstrip() + "\n\nNote: this is a tricky question."
    )


def signoff(record: Record) -> Record | None:
    return _with_reply(record, (record["reply"] or "").rstrip() + "\n\nI hope this helps!")


def preamble(record: Record) -> Record | None:
    return _with_reply(record, "Let me think this through carefully.\n\n" + (record["reply"] or ""))


_ANSWER_LINE = re.compile(
    r"^[ \t]*((?:the )?(?:final |correct )?answers?)([ \t]*(?:is|are)?[ \t]*:)(.*\S.*)$",
    re.IGNORECASE | re.MULTILINE,
)


def _last_answer_line(reply: str) -> re.Match[str] | None:
    found = list(_ANSWER_LINE.finditer(reply))
    if not found or any(mark in found[-1].group(0) for mark in ("*", "`", "_", "#")):
        return None
    return found[-1]


def bold(record: Record) -> Record | None:
    reply = record["reply"] or ""
    line = _last_answer_line(reply)
    if line is None:
        return None
    text = line.group(0).strip()
    return _with_reply(record, reply[: line.start()] + f"**{text}**" + reply[line.end() :])


def fence(record: Record) -> Record | None:
    reply = record["reply"] or ""
    line = _last_answer_line(reply)
    if line is None:
        return None
    text = line.group(0).strip()
    return _with_reply(record, reply[: line.start()] + f"```\n{text}\n```" + reply[line.end() :])


def _keyword_case(record: Record, case: Callable[[str], str]) -> Record | None:
    reply = record["reply"] or ""
    line = _last_answer_line(reply)
    if line is None:
        return None
    start, end = line.span(1)
    return _with_reply(record, reply[:start] + case(line.group(1)) + reply[end:])


def upper(record: Record) -> Record | None:
    return _keyword_case(record, str.upper)


def lower(record: Record) -> Record | None:
    return _keyword_case(record, str.lower)


def note_labels(record: Record) -> Record | None:
    """A closing note that names every label and gives none a side."""
    labels = _old(record)
    named = ", ".join(labels[:-1]) + f" and {labels[-1]}"
    reply = (record["reply"] or "").rstrip()
    return _with_reply(record, reply + f"\n\nNote: I considered each of the options {named}.")


def note_text(record: Record) -> Record | None:
    """A closing note that names the first candidate by its text and gives it no side."""
    text = record["item"]["candidates"][0]["text"].strip()
    if not text or len(text) > 80:
        return None
    reply = (record["reply"] or "").rstrip()
    return _with_reply(record, reply + f'\n\nNote: I read "{text}" carefully.')


def bracketed(record: Record) -> Record | None:
    """The labels of the last answer line, each in brackets: "Answer: (A), (C)"."""
    reply = record["reply"] or ""
    line = _last_answer_line(reply)
    if line is None:
        return None
    labels = {c["label"] for c in record["item"]["candidates"]}
    slot = line.group(3)
    pieces = [piece.strip() for piece in re.split(r",|\band\b|&", slot.strip().rstrip("."))]
    if not pieces or any(piece not in labels for piece in pieces):
        return None  # only a slot of bare labels
    start, end = line.span(3)
    new = " " + ", ".join(f"({piece})" for piece in pieces)
    return _with_reply(record, reply[:start] + new + reply[end:])


def final(record: Record) -> Record | None:
    """The last answer line's keyword "Answer" said "Final answer"."""
    reply = record["reply"] or ""
    line = _last_answer_line(reply)
    if line is None or line.group(1).lower() != "answer":
        return None
    start, end = line.span(1)
    return _with_reply(record, reply[:start] + "Final answer" + reply[end:])


def heading(record: Record) -> Record | None:
    """The last answer line as a heading and the answer under it: "## Answer\nA, C"."""
    reply = record["reply"] or ""
    line = _last_answer_line(reply)
    if line is None:
        return None
    said = f"## {line.group(1).strip().capitalize()}\n{line.group(3).strip()}"
    return _with_reply(record, reply[: line.start()] + said + reply[line.end() :])


def question(record: Record) -> Record | None:
    """The question restated first, as a reply that opens on the prompt."""
    return _with_reply(
        record, f"Question: {record['item']['question']}\n\n" + (record["reply"] or "")
    )


def options(record: Record) -> Record | None:
    """The options restated first, each on its own line, before the reply."""
    listed = "\n".join(f"{c['label']}) {c['text']}" for c in record["item"]["candidates"])
    return _with_reply(record, f"The options are:\n{listed}\n\n" + (record["reply"] or ""))


_STATUS = re.compile(r"\b(is|are)(\s+not)?\s+(in)?correct\b")


def synonyms(record: Record) -> Record | None:
    """ "is correct" said "is right", "are incorrect" said "are wrong"."""
    reply = record["reply"] or ""
    return _with_reply(
        record,
        _STATUS.sub(lambda m: f"{m[1]}{m[2] or ''} {'wrong' if m[3] else 'right'}", reply),
    )


def repeated(record: Record) -> Record | None:
    """The last answer line said again at the end."""
    reply = record["reply"] or ""
    line = _last_answer_line(reply)
    if line is None:
        return None
    return _with_reply(record, reply.rstrip() + "\n\n" + line.group(0).strip())


def crlf(record: Record) -> Record | None:
    return _with_reply(record, (record["reply"] or "").replace("\n", "\r\n"))


def _option_line(labels: tuple[str, ...]) -> re.Pattern[str]:
    names = "|".join(labels)
    return re.compile(
        rf"^[ \t]*(?:[-*•][ \t]*)?(?:\*\*)?(?:option[ \t]+)?\(?({names})(?:\*\*)?[).:\]]",
        re.IGNORECASE,
    )


def shuffle(record: Record) -> Record | None:
    """The one run of lines that gives each label its own line, each label once, reversed."""
    reply = record["reply"] or ""
    labels = _old(record)
    start_of = _option_line(labels)
    lines = reply.split("\n")
    runs: list[tuple[int, int]] = []
    i = 0
    while i < len(lines):
        j = i
        seen: list[str] = []
        while j < len(lines) and (m := start_of.match(lines[j])):
            seen.append(m.group(1).upper())
            j += 1
        if len(seen) == len(labels) and sorted(seen) == sorted(labels):
            runs.append((i, j))
        i = max(j, i + 1)
    if len(runs) != 1:
        return None
    i, j = runs[0]
    block = lines[i:j]
    if any(_LEANS.search(x) or _POSITION.search(x) for x in block):
        return None
    return _with_reply(record, "\n".join(lines[:i] + block[::-1] + lines[j:]))


TRANSFORMS: dict[str, Transform] = {
    "rename": rename,
    "rename-reverse": lambda record: rename(record, "reverse"),
    "reorder": reorder,
    "note": note,
    "signoff": signoff,
    "preamble": preamble,
    "bold": bold,
    "fence": fence,
    "upper": upper,
    "lower": lower,
    "crlf": crlf,
    "note-labels": note_labels,
    "question": question,
    "options": options,
    "synonyms": synonyms,
    "repeated": repeated,
    "note-text": note_text,
    "bracketed": bracketed,
    "final": final,
    "heading": heading,
    "shuffle": shuffle,
}


def corpus_records(corpora: tuple[str, ...] = CORPORA) -> Iterator[Record]:
    for name in corpora:
        for record in records(REPLIES / name):
            yield {**record, "corpus": name}


def variants(
    record: Record, only: tuple[str, ...] = tuple(TRANSFORMS)
) -> Iterator[tuple[str, Record]]:
    for name in only:
        variant = TRANSFORMS[name](record)
        if variant is not None:
            yield name, variant


def run(
    corpora: tuple[str, ...] = CORPORA, only: tuple[str, ...] = tuple(TRANSFORMS)
) -> list[tuple[str, Record, Outcome]]:
    """(transformation, original record, the variant's outcome) for every variant, and
    ``("original", record, outcome)`` for each record."""
    results: list[tuple[str, Record, Outcome]] = []
    for record in corpus_records(corpora):
        results.append(("original", record, read(record)))
        for name, variant in variants(record, only):
            results.append((name, record, read(variant)))
    return results


def table(results: list[tuple[str, Record, Outcome]]) -> list[str]:
    rows: dict[str, Counter[str]] = {}
    for name, _, outcome in results:
        row = rows.setdefault(name, Counter())
        row["variants"] += 1
        row[outcome.kind] += 1
    lines = [
        "| transformation | variants | right | unread | weak misread | confident misread |",
        "|---|---|---|---|---|---|",
    ]
    for name, row in rows.items():
        right = row["right"] + row["right_weak"]
        lines.append(
            f"| {name} | {row['variants']} | {right} | {row['unread']} | {row['weak']} | "
            f"{row['confident']} |"
        )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--misses", action="store_true", help="print each confident misread")
    parser.add_argument("--corpus", default=",".join(CORPORA), help="corpora, comma-separated")
    parser.add_argument("--only", default=",".join(TRANSFORMS), help="transformations")
    args = parser.parse_args()
    corpora = tuple(args.corpus.split(","))
    if any(name.startswith(("choice-vault-", "vault")) and name not in CORPORA for name in corpora):
        parser.error("the vaults are not measured here")
    results = run(corpora, tuple(args.only.split(",")))
    print("\n".join(table(results)))
    if not args.misses:
        return
    for name, record, outcome in results:
        if outcome.kind != "confident":
            continue
        variant = outcome.record
        print(
            f"\n{record['id']} [{name}] {record['polarity']}: expected {variant['expected']!r}, "
            f"read {outcome.read!r} ({outcome.reading.method})"
        )
        if name != "original":
            print("  original:", (record["reply"] or "")[-400:].replace("\n", "\n    "))
        print("  variant: ", (variant["reply"] or "")[-400:].replace("\n", "\n    "))


if __name__ == "__main__":
    main()
