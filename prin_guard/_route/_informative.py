"""Whether a judge's answers carry information: a run's check that no single verdict can make.

A judge that says the same thing to everything passes every per-verdict check: asked
which response is better it says "tie", asked which is worse it says "tie", and a tie
in both orders is consistent. Only a run can tell (a 1.5B model answered "Answer: tie"
on 86 of 96 legs of LLMBar Natural; every verdict was a clean tie). :class:`AnswerTally`
counts a run's legs as they come and :meth:`AnswerTally.findings` says, with the share
and the threshold, when the answers carry no information:

- ``one_answer``: of the legs of one polarity that were read, the same answer on at
  least :data:`ONE_ANSWER_SHARE` of them (a tie, a "none", the first position, one
  score). An answer is taken as the judge wrote it: a leg asked with the candidates in a
  second order counts the positions it named, not the candidates they map back to, so
  "A" to everything is one answer whatever the order.
- ``same_position``: of the order check's pairs of direct legs that were both read and
  named one candidate each, the same position in both orders (so a different
  candidate) on at least :data:`SAME_POSITION_SHARE` of them: the position decides,
  not the content.
- ``unreadable``: at least :data:`UNREADABLE_SHARE` of all legs could not be read.

Nothing is said before :data:`MIN_VERDICTS` verdicts with legs: on a handful of items
the same answer everywhere is as likely to be right as not. The functions are pure
(no I/O, no logging); eval, grade, the service and the verdict stream call them and
each says it its own way, once per run.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Literal

from prin_guard.models import Leg, Verdict

__all__ = [
    "MIN_VERDICTS",
    "ONE_ANSWER_SHARE",
    "SAME_POSITION_SHARE",
    "UNREADABLE_SHARE",
    "AnswerTally",
    "Uninformative",
    "uninformative",
]

ONE_ANSWER_SHARE: Final = 0.9
"""The share of a polarity's read legs giving one answer from which it is a finding."""
SAME_POSITION_SHARE: Final = 0.8
"""The share of the order check's direct pairs naming one position in both orders."""
UNREADABLE_SHARE: Final = 0.5
"""The share of unreadable legs from which it is a finding."""
MIN_VERDICTS: Final = 10
"""The fewest verdicts with legs a finding is made on."""

Kind = Literal["one_answer", "same_position", "unreadable"]


@dataclass(frozen=True, slots=True)
class Uninformative:
    """One way a run's answers carry no information, with its share and threshold."""

    kind: Kind
    share: float
    """The share found (of ``total``)."""
    threshold: float
    """The share from which it is a finding."""
    count: int
    total: int
    answer: str = ""
    """``one_answer``: the answer and the legs it was given on (``"tie" (direct legs read)``)."""

    @property
    def message(self) -> str:
        """The finding in one sentence, for a summary or a warning."""
        said = {
            "one_answer": f"one answer, {self.answer}, on {self.count} of {self.total}",
            "same_position": f"the same position preferred in both candidate orders on "
            f"{self.count} of {self.total} pairs of direct legs",
            "unreadable": f"{self.count} of {self.total} legs unreadable",
        }[self.kind]
        return (
            f"the judge's answers carry no information: {said} ({self.share:.0%}; warned "
            f"from {self.threshold:.0%})"
        )

    def as_dict(self) -> dict[str, Any]:
        """The finding as JSON-ready fields (summaries, events)."""
        return {
            "kind": self.kind,
            "share": round(self.share, 4),
            "threshold": self.threshold,
            "count": self.count,
            "total": self.total,
            "answer": self.answer,
            "message": self.message,
        }


def _field(leg: Leg | Mapping[str, Any], name: str) -> Any:
    if isinstance(leg, Leg):
        value = getattr(leg, name)
        return getattr(value, "value", value)  # enums as their JSON values
    return leg.get(name)


def _get(owner: Any, name: str) -> Any:
    return owner.get(name) if isinstance(owner, Mapping) else getattr(owner, name)


def _answer(leg: Leg | Mapping[str, Any], labels: Sequence[str]) -> str | None:
    """The answer as the judge wrote it (positions, a score, "none"); ``None`` unread."""
    status = _field(leg, "parse_status")
    if status == "failed":
        return None
    score = _field(leg, "score")
    if score is not None:
        return f"{score:g}"
    if status == "none":
        return "none"
    order = _field(leg, "order")
    ranking = _field(leg, "ranking")
    if ranking:  # a ranking's leg: its ranking as written, by the positions shown
        at = {label: index for index, label in enumerate(order or ())}
        return " > ".join(
            " = ".join(labels[at[label]] if label in at else label for label in tier)
            for tier in ranking
        )
    named = list(_field(leg, "labels") or ())
    if order:  # back to the positions shown: the judge wrote labels by position
        at = {label: index for index, label in enumerate(order)}
        named = sorted(labels[at[label]] for label in named if label in at)
    if len(labels) == 2 and sorted(named) == sorted(labels):
        return "tie"  # both of a pair: what a pairwise tie is read as
    return ", ".join(named)


@dataclass(slots=True)
class AnswerTally:
    """A run's answers counted as verdicts come (:meth:`add`, or :meth:`add_record` for
    a verdict as JSON); :meth:`findings` at any time."""

    verdicts: int = 0
    legs: int = 0
    unread: int = 0
    answers: dict[str, Counter[str]] = field(default_factory=dict)
    """By polarity: each answer and how many read legs gave it."""
    pairs: int = 0
    same_position: int = 0
    said: set[str] = field(default_factory=set)
    """The kinds :meth:`news` has returned: each is said once per run."""

    def add(self, verdict: Verdict | Mapping[str, Any]) -> None:
        """Count one verdict's legs (a panel's members' and a rating's aspects' too); a
        verdict without legs (an invalid item, a judge error) is not counted."""
        if isinstance(verdict, Verdict):
            labels: Sequence[str] = verdict.labels
            owners: list[Any] = [verdict, *verdict.members]
            aspects: Iterable[Any] = verdict.aspects.values()
        else:
            labels = tuple(verdict.get("labels") or ())
            owners = [verdict, *(verdict.get("members") or ())]
            aspects = (verdict.get("aspects") or {}).values()
        for aspect in aspects:  # each aspect's legs are a rating's own
            self.add(aspect)
        counted = False
        for owner in owners:
            legs = [_get(owner, "direct"), _get(owner, "reverse"), *(_get(owner, "permuted") or ())]
            own = swapped = None
            for leg in legs:
                if not leg:
                    continue
                counted = True
                self.legs += 1
                answer = _answer(leg, labels)
                if answer is None:
                    self.unread += 1
                    continue
                polarity = str(_field(leg, "polarity"))
                self.answers.setdefault(polarity, Counter())[answer] += 1
                if polarity == "direct" and _field(leg, "order"):
                    swapped = answer
                elif polarity == "direct":
                    own = answer
            # the order check's direct pair, one candidate named in each order
            if own in labels and swapped in labels:
                self.pairs += 1
                self.same_position += own == swapped
        self.verdicts += counted

    add_record = add

    def merge(self, other: AnswerTally) -> None:
        """Add the counts of ``other``, another part of the same run (a Ray batch)."""
        self.verdicts += other.verdicts
        self.legs += other.legs
        self.unread += other.unread
        self.pairs += other.pairs
        self.same_position += other.same_position
        for polarity, counts in other.answers.items():
            self.answers.setdefault(polarity, Counter()).update(counts)

    def measures(self) -> list[Uninformative]:
        """Each kind's share so far, finding or not (none before :data:`MIN_VERDICTS`
        verdicts): ``one_answer`` for the polarity whose commonest answer has the largest
        share."""
        if self.verdicts < MIN_VERDICTS:
            return []
        out: list[Uninformative] = []
        common = [
            (count / sum(counts.values()), count, sum(counts.values()), polarity, answer)
            for polarity, counts in sorted(self.answers.items())
            for answer, count in counts.most_common(1)
            if sum(counts.values()) >= MIN_VERDICTS
        ]
        if common:
            share, count, total, polarity, answer = max(common, key=lambda entry: entry[0])
            said = f'"{answer}" ({polarity} legs read)'
            out.append(Uninformative("one_answer", share, ONE_ANSWER_SHARE, count, total, said))
        if self.pairs >= MIN_VERDICTS:
            share = self.same_position / self.pairs
            out.append(
                Uninformative(
                    "same_position", share, SAME_POSITION_SHARE, self.same_position, self.pairs
                )
            )
        if self.legs:
            share = self.unread / self.legs
            out.append(Uninformative("unreadable", share, UNREADABLE_SHARE, self.unread, self.legs))
        return out

    def findings(self) -> list[Uninformative]:
        """Every way the answers counted so far carry no information: the
        :meth:`measures` at or over their thresholds."""
        return [m for m in self.measures() if m.share >= m.threshold]

    def news(self, *, final: bool = False) -> list[Uninformative]:
        """The findings not returned before, for a run that says each once: checked at
        every doubling of the verdicts from :data:`MIN_VERDICTS` (a long run warns early,
        and the check costs nothing in between) and, with ``final``, at the end."""
        n = self.verdicts
        checked = n == MIN_VERDICTS or (n > MIN_VERDICTS and n & (n - 1) == 0)
        if not (final or checked):
            return []
        found = [f for f in self.findings() if f.kind not in self.said]
        self.said.update(f.kind for f in found)
        return found


def uninformative(verdicts: Iterable[Verdict | Mapping[str, Any]]) -> list[Uninformative]:
    """Every way ``verdicts``' answers carry no information (see the module)."""
    tally = AnswerTally()
    for verdict in verdicts:
        tally.add(verdict)
    return tally.findings()
