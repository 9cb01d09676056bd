"""Revisions: what a reply takes back, changes, adds to or keeps of what it said before
("wait, no", "actually", "on second thought", "Correction:", "Corrected answer:", "scratch
that", "I misspoke", "C is also incorrect"), decided in one place for every stage that
asks.

A reply's *marks* are where it revises ("wait", "actually", "hmm", "correction"); the
strong ones retract every statement before them ("wait, no", "on second thought",
"Correction:"); a recheck ("let me double-check") reopens a conclusion without saying
which way; a heading ("Corrected answer:") gives a new answer in place of the old one.
:class:`Revisions` answers, for one text, whether a revision stands between two places,
where what stands begins, and, given an answer and the statements that follow it, the
final stance of each candidate after all the revisions in order (:meth:`Revisions.final`):

- a later statement about a candidate replaces an earlier one ("C is wrong. No wait, C is
  right.": C is back);
- "X is also <side>" adds X to that side. On the leg's own side that adds X to the answer.
  On the other side, "also" needs another candidate the reply put there; when there is
  none, it can only mean the answer itself, which then answers the other leg's question:
  no reading;
- a candidate put on the leg's side that the answer never held, without "also", replaces
  the answer ("Answer: C\n\nActually, no — A was right after all."), keeping what the
  revisions themselves said;
- a whole answer ("the answer is B") replaces all; one in the other leg's words that
  disagrees with the sides so far ("Answer: B, D\n\nCorrection: the correct ones are B and
  D." on the reverse leg) is no reading;
- a question ("C is wrong? No, C is fine.") revises nothing; a revision after the last
  statement read makes the reading weak (what it said last was taken back in words no
  stage reads).

A retraction followed only by statements that move candidates stated before it to the
other side changes those alone ("B and D are incorrect. On second thought, B is
correct.": D stands); else it takes back everything before it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from prin_guard.reader._text import _Pattern

# What revises an earlier conclusion (between two claims that disagree, the later stands).
_REVISION = _Pattern(
    r"(?<![\w-])(?:wait|actually|on\s+(?:second|further)\s+thought|on\s+reflection"
    r"|upon\s+(?:further\s+)?(?:reflection|review|consideration|closer\s+inspection)"
    r"|correction|i\s+made\s+a\s+mistake|i\s+was\s+wrong|i\s+misspoke|scratch\s+that|hmm|no,"
    r"|no\.|let\s+me\s+re(?:consider|-?evaluate|check|think)|reconsider\w*|re-?evaluat\w*)"
    r"(?![\w-])",
    re.IGNORECASE,
)
# What retracts every statement before it ("C is correct. Wait, no: B is correct."): the
# strong revisions. "Actually" and "hmm" are not: "A is correct. Actually, B is too."
_RETRACTION = _Pattern(
    r"(?<![\w-])(?:wait[\s,.:;!-]+no\b|no[\s,]+wait\b|on\s+second\s+thought|scratch\s+that"
    r"|correction\s*:|i\s+made\s+a\s+mistake|i\s+was\s+wrong|i\s+misspoke|i\s+take\s+(?:that"
    r"|it)\s+back|let\s+me\s+correct\s+(?:that|myself))(?![\w-])",
    re.IGNORECASE,
)
# A statement that adds to the earlier ones rather than replacing them.
_ADDITIVE = _Pattern(r"(?<![\w-])(?:also|too|as\s+well|additionally)(?![\w-])", re.IGNORECASE)
# A heading that gives the answer anew: "Corrected answer:", "Revised final answer:"
_CORRECTED = _Pattern(
    r"(?<![\w-])(?:corrected|revised|updated|amended)\s+(?:final\s+)?answer(?![\w-])",
    re.IGNORECASE,
)
# Where a clause ends, for what "also" adds to
_CLAUSE_END = _Pattern(r"[.!?](?=\s|$)|[\n;:,]|(?<![\w-])(?:and|but)(?![\w-])", re.IGNORECASE)
# A recheck: the conclusion before it may be about to change.
_RECHECK = _Pattern(
    r"(?<![\w-])(?:double[\s-]?check\w*|re-?check\w*|let\s+me\s+(?:check|verify|recount|look)"
    r"|on\s+closer)(?![\w-])",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class Said:
    """A statement that puts candidates on a side, where it stands in the text."""

    at: int
    end: int
    labels: frozenset[str]
    sign: int
    """+1 the direct question's side (correct, met), -1 the reverse's."""
    span: tuple[int, int] | None = None
    """Where its labels stand, tight around them."""
    whole: bool = False
    """It states a whole side ("the answer is B", "the incorrect ones are B and D"), not
    one candidate's status."""
    weak: bool = False


@dataclass(frozen=True, slots=True)
class Final:
    """The answer after every revision: the leg's side, and whether a weak statement or a
    doubt went into it."""

    labels: frozenset[str]
    weak: bool = False


@dataclass(frozen=True, slots=True)
class Revisions:
    """The revisions of one text."""

    text: str

    def between(self, lo: int, hi: int, *, hmm: bool = True, recheck: bool = False) -> bool:
        """Whether a revision stands in ``text[lo:hi]``; ``hmm``: a "hmm" counts;
        ``recheck``: a recheck ("let me double-check") counts."""
        text = self.text
        if recheck and _RECHECK.search(text, lo, hi):
            return True
        if hmm:
            return _REVISION.search(text, lo, hi) is not None
        return any(found.group().lower() != "hmm" for found in _REVISION.finditer(text, lo, hi))

    def first_after(self, at: int) -> int | None:
        """Where the first revision after ``at`` ends."""
        found = _REVISION.search(self.text, at)
        return None if found is None else found.end()

    def stands_from(self, lo: int, hi: int, *, hmm: bool = False, bare_no: bool = True) -> int:
        """Where what stands in ``text[lo:hi]`` begins: after its last revision (a "hmm"
        only when ``hmm``; a bare "no," or "no." only when ``bare_no``: where the text
        answers questions or lines with it, "Is 9 prime? No.", "Sydney - no.", it revises
        nothing), else ``lo``."""
        skipped = ({"hmm"} if not hmm else set()) | ({"no,", "no."} if not bare_no else set())
        found = [
            match.end()
            for match in _REVISION.finditer(self.text, lo, hi)
            if match.group().lower() not in skipped
        ]
        return max(found, default=lo)

    def retracted_before(self, statements: Sequence[tuple[int, str | None, int]]) -> int:
        """Where the statements that stand start: after the last retraction ("wait, no",
        "on second thought") that has statements on both sides and is not followed by an
        additive one ("B is correct too"), nor only by statements that move candidates
        stated before it to the other side ("B and D are incorrect. On second thought, B is
        correct.": B's own stance changes, D's stands; not "A and C are correct. Wait, no:
        only A is correct."); 0 when none retracts. ``statements``: where each statement
        starts, of which candidate (None: "the rest") and its side, in order."""
        if len(statements) < 2:
            return 0
        text = self.text
        first, last = statements[0][0], statements[-1][0]
        ordered = sorted(statements, key=lambda statement: statement[0])
        cut = 0
        for match in _RETRACTION.finditer(text, first, last):
            after = [at for at, _, _ in statements if at >= match.end()]
            if not after:
                break
            sentence_end = text.find(".", after[0])
            window_end = sentence_end if sentence_end >= 0 else len(text)
            if _ADDITIVE.search(text, match.end(), window_end) is not None:
                continue
            upto = _RETRACTION.search(text, match.end(), last + 1)
            stop = len(text) if upto is None else upto.start()
            was = {label: sign for at, label, sign in ordered if at < match.start()}
            moved = [
                label is not None and was.get(label, sign) != sign
                for at, label, sign in statements
                if match.end() <= at < stop
            ]
            if not all(moved):
                cut = match.end()
        return cut

    def adds(self, span: tuple[int, int] | None, stop: int | None = None) -> bool:
        """Whether the sentence holding ``span`` adds to an answer ("C is correct too",
        "D is also accurate"); it is read up to ``stop`` at most."""
        if span is None:
            return False
        text = self.text
        start = max(text.rfind(mark, 0, span[0]) for mark in (". ", "\n")) + 1
        ends = [at for mark in (". ", "\n") if (at := text.find(mark, span[1])) >= 0]
        end = min(ends, default=len(text))
        return bool(_ADDITIVE.search(text, start, end if stop is None else min(end, stop)))

    def _adds_in_clause(self, at: int, end: int) -> bool:
        """Whether the clause holding ``text[at:end]`` adds ("E is incorrect too, and C is
        correct": E's adds, C's does not)."""
        text = self.text
        starts = [found.end() for found in _CLAUSE_END.finditer(text, max(0, at - 80), at)]
        stop = _CLAUSE_END.search(text, end)
        return bool(
            _ADDITIVE.search(
                text, max(starts, default=0), len(text) if stop is None else stop.start()
            )
        )

    def answered_anew(self, after: int, span: tuple[int, int] | None) -> bool:
        """Whether the conclusion at ``span`` follows ``after`` (where an answer ended)
        behind a revision, or under a heading that gives the answer anew on its own line
        ("Corrected answer: B")."""
        if span is None or span[0] < after:
            return False
        text = self.text
        line = text.rfind("\n", 0, span[0]) + 1
        upto = text.find("\n", span[0])
        upto = len(text) if upto < 0 else upto
        return self.between(after, span[0]) or bool(_CORRECTED.search(text, max(after, line), upto))

    def asked(self, at: int) -> bool:
        """Whether the sentence holding ``at`` is a question ("C is wrong?")."""
        end = self._sentence_end(at)
        return self.text.startswith("?", end) or self.text[:end].rstrip().endswith("?")

    def final(
        self,
        answer: frozenset[str],
        said: Iterable[Said],
        leg: int,
        labels: Sequence[str],
        *,
        before: Iterable[Said] = (),
    ) -> Final | None:
        """The leg's side after the statements ``said`` (those after the answer), in
        order, revise ``answer`` (see the module's docstring); ``before``: statements
        before the answer, the antecedents "also" may refer to. None: an addition to the
        other side with no antecedent there ("Answer: A\n\nCorrection: C is also
        incorrect." on the direct leg): which leg's answer it is cannot be told."""
        side = {label: leg if label in answer else -leg for label in labels}
        other = {label for item in before if item.sign == -leg for label in item.labels}
        stated: set[str] = set()
        weak = False
        end = 0
        for item in sorted(said, key=lambda item: item.at):
            if self.asked(item.end):
                continue  # "C is wrong? No, C is fine."
            end = max(end, self._sentence_end(item.end))
            weak = weak or item.weak
            if item.whole and not item.sign:
                item = replace(item, sign=leg)  # "the answer is B": the leg's question
            if item.whole and item.sign == -leg:
                if item.labels != {label for label in labels if side[label] == -leg}:
                    return None  # "Answer: B, D\n\nCorrection: the correct ones are B and D."
                continue
            if item.whole:
                for label in labels:
                    side[label] = item.sign if label in item.labels else -item.sign
                stated = set(labels)
                continue
            adds = self._adds_in_clause(item.at, item.end)
            if item.sign == -leg and adds and not other - item.labels:
                return None  # "also incorrect", and only the answer was incorrect
            new = {label for label in item.labels if label not in answer}
            if item.sign == leg and not adds and new and not new <= stated:
                for label in labels:  # "Answer: C\n\nActually, no — A was right."
                    if label not in stated:
                        side[label] = -leg
            for label in item.labels:
                side[label] = item.sign
            stated |= item.labels
            if item.sign == -leg:
                other |= item.labels
        # what it said last, itself revised in words no statement read ("A is also correct.
        # No, wait, 4 = 2 x 2, A is not."): the stances may not be the last
        weak = weak or (end > 0 and self.between(end, len(self.text), hmm=False))
        return Final(frozenset(label for label in labels if side[label] == leg), weak)

    def _sentence_end(self, at: int) -> int:
        text = self.text
        ends = [found for mark in (". ", "! ", "? ", "\n") if (found := text.find(mark, at)) >= 0]
        return min(ends, default=len(text))
