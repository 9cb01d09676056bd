"""What a grading run did: running counts while it runs, a summary at the end."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Mapping
from typing import Any, Final

from pydantic import BaseModel, ConfigDict

from prin_guard._route._informative import AnswerTally
from prin_guard._route._usage import UsageSummary, UsageTally, usage_line
from prin_guard.models import Verdict

__all__ = ["MAX_CHANGED_LINES", "GradeStats", "GradeSummary", "summary_text"]

MAX_CHANGED_LINES: Final = 20
_SUMS: Final = (
    "items",
    "skipped",
    "changed",
    "invalid",
    "judge_errors",
    "flagged",
    "accepted",
    "decided",
    "reverse_skipped",
    "winners",
    "ties",
    "undecided",
    "scored",
    "score_sum",
    "rated",
    "unrated",
    "rating_sum",
    "rated_plain",
)


_SKIPPED_FLAGS: Final = frozenset({"inconsistent", "unparseable_reverse", "order_sensitive"})
"""The flags a verdict of a confident direct leg alone cannot carry (``could_fire``)."""


class GradeSummary(BaseModel):
    """The summary of one grading run (this run's rows only; a resumed run's earlier
    rows count as ``skipped``)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    output: str
    engine: str = "local"
    items: int
    """Rows written by this run (invalid rows included)."""
    skipped: int = 0
    """Input rows already in the output (resumed), not judged again."""
    changed: int = 0
    """Skipped rows whose input changed since their output row was written (another
    ``id`` or ``input_sha`` on that line): they keep their old row; remove it from the
    output (or grade into a new file) to judge them again."""
    changed_lines: tuple[int, ...] = ()
    """The first lines of those (at most 20)."""
    invalid: int = 0
    """Rows written as ``invalid_item``."""
    judge_errors: int = 0
    flagged: int = 0
    """Rows with at least one flag."""
    flag_counts: dict[str, int] = {}
    accepted: int | None = None
    """Rows the acceptance rule accepted; ``None`` when no row had a decision."""
    winners: int = 0
    """Pairwise rows whose verdict names a better response."""
    ties: int = 0
    """Pairwise rows whose verdict is a tie."""
    undecided: int = 0
    """Pairwise rows judged with neither (the two answers do not agree on one)."""
    scored: int = 0
    """Checklist rows with a score."""
    mean_score: float | None = None
    """The mean score (weighted share met) of those; ``None`` without any."""
    rated: int = 0
    """Rating rows with a rating (both legs read and agreeing; with aspects, on every
    aspect)."""
    unrated: int = 0
    """Rating rows judged without one (the legs disagree, or one was unread)."""
    mean_rating: float | None = None
    """The mean rating of the rated rows without aspects (on their own scales); ``None``
    without any."""
    reverse_skipped: int = 0
    """Rows of a confident direct leg alone (``reverse_legs='uncertain'``): no reverse
    or order check ran on them, so ``flag_rates`` of the flags those checks raise are over
    the other rows."""
    judge_calls: int = 0
    """Judge calls made by this run (cache hits excluded)."""
    prompt_tokens: int | None = 0
    """Tokens and cost of this run's judge calls (answers from the cache cost nothing
    now); ``None`` where the judge reported none (``usage`` says more)."""
    completion_tokens: int | None = 0
    cost_usd: float | None = 0.0
    usage: UsageSummary = UsageSummary()
    """What this run's verdicts cost (paid now, saved by the cache, the provider's prompt
    cache at work, the guard's premium), by the one rule of ``Verdict.usage``."""
    wall_seconds: float = 0.0
    interrupted: bool = False
    """Stopped by Ctrl-C: the output holds what was finished; run again to resume."""
    logs: str | None = None
    """Where the engine's own logs went (the Ray engine: the Ray session's log folder)."""
    uninformative: tuple[dict[str, Any], ...] = ()
    """How this run's judge answers carry no information (one answer to most items, one
    position whatever the order, most legs unreadable), each with its share and threshold
    (:mod:`prin_guard._route._informative`); empty when they do."""

    @property
    def items_per_second(self) -> float:
        return self.items / self.wall_seconds if self.wall_seconds > 0 else 0.0

    @property
    def flag_rates(self) -> dict[str, float]:
        """Each flag's share of this run's rows that could carry it (a confident direct
        leg alone ran no reverse or order check)."""
        rates = {}
        for flag, n in self.flag_counts.items():
            could = self.items - (self.reverse_skipped if flag in _SKIPPED_FLAGS else 0)
            if could:
                rates[flag] = n / could
        return rates


class GradeStats:
    """Running counts of a grading run; :meth:`summary` freezes them."""

    def __init__(self) -> None:
        self.started = time.monotonic()
        self.items = 0
        self.skipped = 0
        self.changed = 0
        self.changed_lines: list[int] = []
        self.invalid = 0
        self.judge_errors = 0
        self.flagged = 0
        self.flags: Counter[str] = Counter()
        self.accepted = 0
        self.decided = 0
        self.reverse_skipped = 0
        self.usage = UsageTally()
        self.judge_calls = 0
        self.winners = 0
        self.ties = 0
        self.undecided = 0
        self.scored = 0
        self.score_sum = 0.0
        self.rated = 0
        self.unrated = 0
        self.rating_sum = 0.0
        self.rated_plain = 0
        self.answers = AnswerTally()

    @property
    def flag_rate(self) -> float | None:
        return self.flagged / self.items if self.items else None

    def add(self, row: Mapping[str, Any], verdict: Verdict | None = None) -> None:
        """Count one written row (and, for a judged item, what its judge calls cost)."""
        self.items += 1
        flags = row["flags"]
        self.flagged += bool(flags)
        self.flags.update(flags)
        self.invalid += "invalid_item" in flags
        self.judge_errors += row["error_kind"] == "judge"
        if row.get("accepted") is not None:
            self.decided += 1
            self.accepted += bool(row["accepted"])
        judged = row["error_kind"] is None
        if row.get("task") == "pairwise" and judged:
            if row.get("winner") is not None:
                self.winners += 1
            elif row.get("tie"):
                self.ties += 1
            else:
                self.undecided += 1
        if row.get("score") is not None:
            self.scored += 1
            self.score_sum += float(row["score"])
        if row.get("task") == "rating" and judged:
            aspects = row.get("aspect_ratings") or []
            if aspects:  # rated when every aspect is; on scales of their own: not averaged
                all_rated = all(not entry.endswith(":") for entry in aspects)
                self.rated += all_rated
                self.unrated += not all_rated
            elif row.get("rating") is not None:
                self.rated += 1
                self.rating_sum += float(row["rating"])
                self.rated_plain += 1
            else:
                self.unrated += 1
        if verdict is not None:
            self.add_cost(verdict)
            self.add_answers(verdict)

    def add_answers(self, verdict: Verdict) -> None:
        """Count what ``verdict``'s legs answered (whether the judge's answers carry
        information; where rows are counted without their verdicts, as ``add_cost``)."""
        self.answers.add(verdict)

    def add_cost(self, verdict: Verdict) -> None:
        """Count what ``verdict``'s judge calls of this run cost (a cached answer cost
        nothing now), and whether it asked its reverse legs (where rows are counted
        without their verdicts: the Ray engine's driver)."""
        self.usage.add(verdict)
        self.reverse_skipped += verdict.selected == "confident"

    def skip(self, line: int, *, changed: bool = False) -> None:
        """Count an input row that is in the output already (``changed``: with other
        content than now)."""
        self.skipped += 1
        if changed:
            self.changed += 1
            if len(self.changed_lines) < MAX_CHANGED_LINES:
                self.changed_lines.append(line)

    def merge(self, other: GradeStats) -> None:
        """Add the counts of ``other``, another part of the same run (a Ray batch); its
        judge calls aside (the Ray engine counts those per worker)."""
        for name in _SUMS:
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.flags.update(other.flags)
        self.usage.merge(other.usage)
        self.answers.merge(other.answers)
        self.changed_lines = sorted(self.changed_lines + other.changed_lines)[:MAX_CHANGED_LINES]

    def summary(
        self,
        output: str,
        *,
        engine: str = "local",
        interrupted: bool = False,
        logs: str | None = None,
    ) -> GradeSummary:
        usage = self.usage.summary()
        return GradeSummary(
            output=output,
            engine=engine,
            items=self.items,
            skipped=self.skipped,
            changed=self.changed,
            changed_lines=tuple(sorted(self.changed_lines)),
            invalid=self.invalid,
            judge_errors=self.judge_errors,
            flagged=self.flagged,
            flag_counts=dict(self.flags.most_common()),
            accepted=self.accepted if self.decided else None,
            winners=self.winners,
            ties=self.ties,
            undecided=self.undecided,
            scored=self.scored,
            mean_score=round(self.score_sum / self.scored, 6) if self.scored else None,
            rated=self.rated,
            unrated=self.unrated,
            mean_rating=round(self.rating_sum / self.rated_plain, 6) if self.rated_plain else None,
            reverse_skipped=self.reverse_skipped,
            judge_calls=self.judge_calls,
            prompt_tokens=usage.prompt_tokens,
            completion_tokens=usage.completion_tokens,
            cost_usd=usage.cost_usd,
            usage=usage,
            wall_seconds=round(time.monotonic() - self.started, 3),
            interrupted=interrupted,
            logs=logs,
            uninformative=tuple(f.as_dict() for f in self.answers.findings()),
        )


def _lines(summary: GradeSummary) -> str:
    shown = ", ".join(str(line) for line in summary.changed_lines)
    return shown + (", ..." if summary.changed > len(summary.changed_lines) else "")


def summary_text(summary: GradeSummary) -> str:
    """A grading summary as a few plain lines."""
    items = summary.items
    lines = [
        f"graded {items:,} items in {summary.wall_seconds:.1f} s "
        f"({summary.items_per_second:.1f} items/s, engine {summary.engine})"
        + (" - interrupted: run again to resume" if summary.interrupted else ""),
        f"  already done (skipped): {summary.skipped:,}; invalid rows: {summary.invalid:,}; "
        f"judge errors: {summary.judge_errors:,}",
    ]
    if summary.changed:
        lines.append(
            f"  changed since written (kept as they were, not judged again): "
            f"{summary.changed:,} rows, lines {_lines(summary)}; remove their rows from "
            "the output, or grade into a new file, to judge them again"
        )
    if items:
        rates = ", ".join(f"{flag} {100 * rate:.1f}%" for flag, rate in summary.flag_rates.items())
        lines.append(
            f"  flagged {100 * summary.flagged / items:.1f}%" + (f": {rates}" if rates else "")
        )
    pairs = summary.winners + summary.ties + summary.undecided
    if pairs:
        lines.append(
            f"  pairs: {summary.winners:,} with a winner, {summary.ties:,} ties, "
            f"{summary.undecided:,} undecided (the answers agree on neither)"
        )
    if summary.mean_score is not None:
        lines.append(
            f"  checklists: {summary.scored:,} scored, mean score {summary.mean_score:.3f}"
        )
    if summary.rated or summary.unrated:
        mean = "" if summary.mean_rating is None else f", mean rating {summary.mean_rating:.3f}"
        lines.append(
            f"  ratings: {summary.rated:,} rated, {summary.unrated:,} without a rating (the "
            f"legs disagree or one was unread){mean}"
        )
    if summary.reverse_skipped:
        lines.append(
            f"  reverse legs skipped on {summary.reverse_skipped:,} of {items:,} rows (a "
            "confident direct leg); inconsistent and order_sensitive rates are over the others"
        )
    if summary.accepted is not None:
        lines.append(f"  accepted {summary.accepted:,} of {items:,}")
    # the judge calls of the whole run (a Ray run counts them per worker), the rest from
    # the verdicts' usage
    lines.append(f"  {usage_line(summary.usage, calls=summary.judge_calls)}")
    lines.extend(f"  warning: {finding['message']}" for finding in summary.uninformative)
    lines.append(f"  output: {summary.output}")
    if summary.logs is not None:
        lines.append(f"  {summary.engine} logs: {summary.logs}")
    return "\n".join(lines)
