"""What the command line shows a person: progress, verdicts and summaries.

Every piece has two forms. On a terminal it is drawn with rich (a live progress
bar, tables); anywhere else (a pipe, a file, a CI log, a test's capture) it is
plain text, one line at a time, so logs stay readable and the output stays
stable for tools and tests that read it.

rich is imported inside the functions that draw with it: ``import prin_guard``
and ``prin-guard --help`` must not pay for it.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Mapping, Sequence
from types import TracebackType
from typing import TYPE_CHECKING, Any, TextIO

from prin_guard._route._usage import UsageSummary, UsageTally, usage_line
from prin_guard.models import STATUS_WORDS, ParseStatus, Polarity

if TYPE_CHECKING:
    from rich.console import Console
    from rich.progress import Progress as RichProgress
    from rich.progress import TaskID

    from prin_guard._review import ReviewForm
    from prin_guard.models import Decision, Leg, Member, Verdict

__all__ = [
    "Progress",
    "duration",
    "eval_summary_text",
    "isatty",
    "print_eval_summary",
    "print_probe_table",
    "print_verdict",
    "probe_table",
    "ranking_lines",
    "ranking_text",
    "rating_lines",
    "render_verdict",
    "review_lines",
]

# In plain form a progress line is written at most this often (and once at the end):
# a CI log of a long run stays short.
PLAIN_INTERVAL_S = 5.0


def isatty(stream: Any) -> bool:
    """Whether ``stream`` is a terminal (no ``isatty``, or a closed file: not one)."""
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        # no isatty, or a closed file: not a terminal either way
        return False


def _console(file: TextIO) -> Console:
    from rich.console import Console

    # Only called once the stream says it is a terminal; forcing keeps rich from
    # second-guessing that (it would not for a wrapped or fake stream). No automatic
    # highlighting: numbers in candidate texts are data, not syntax.
    return Console(file=file, force_terminal=True, highlight=False)


# ----------------------------------------------------------------------- progress


class Progress:
    """Progress of a run over ``total`` items: done, elapsed, ETA and the running PRIN.

    Call :meth:`update` once per finished item with its PRIN (None when it has
    none), and :meth:`close` at the end, or use it as a context manager. On a
    terminal it is a rich progress bar; otherwise a plain line is written at most
    every 5 s and once when the last item is done::

        [ 3/10]  30%  elapsed 12s  ETA 28s  PRIN 0.333
    """

    def __init__(
        self,
        total: int,
        *,
        stream: TextIO | None = None,
        show_prin: bool = True,
        label: str = "",
    ) -> None:
        self.total = total
        self.show_prin = show_prin
        self.label = label
        self.stream: TextIO = stream if stream is not None else sys.stderr
        self.done = 0
        self.prin_sum = 0.0
        self.prin_n = 0
        self.started = time.monotonic()
        self._last_line = 0.0
        self._unreported = False
        self._closed = False
        self._bar: RichProgress | None = None
        self._task: TaskID | None = None
        if isatty(self.stream):
            self._start_bar()

    @property
    def prin(self) -> float | None:
        """The mean PRIN of the items that had one so far."""
        return self.prin_sum / self.prin_n if self.prin_n else None

    def update(self, prin: float | None) -> None:
        """Count one more finished item, with its PRIN score (None: it has none)."""
        self.done += 1
        if prin is not None:
            self.prin_sum += prin
            self.prin_n += 1
        if self._closed:
            return
        if self._bar is not None:
            self._update_bar()
            return
        now = time.monotonic()
        self._unreported = True
        if now - self._last_line < PLAIN_INTERVAL_S and self.done < self.total:
            return
        self._write_line(now)

    def close(self) -> None:
        """Finish the display; calling it again does nothing.

        On a terminal this stops the bar (left on screen as it ended). In plain form
        it writes a last line only if items finished since the last one, so an
        interrupted run's log shows where it stopped.
        """
        if self._closed:
            return
        self._closed = True
        if self._bar is not None:
            self._bar.stop()
        elif self._unreported:
            self._write_line(time.monotonic())

    def __enter__(self) -> Progress:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    # plain form ------------------------------------------------------------------

    def _write_line(self, now: float) -> None:
        self._last_line = now
        self._unreported = False
        elapsed = now - self.started
        rate = self.done / elapsed if elapsed > 0 else 0.0
        eta = (self.total - self.done) / rate if rate > 0 else 0.0
        width = len(str(self.total))
        line = (
            (f"{self.label} " if self.label else "")
            + f"[{self.done:>{width}}/{self.total}] {100 * self.done / max(self.total, 1):3.0f}%"
            + f"  elapsed {duration(elapsed)}  ETA {duration(eta)}"
            + (f"  PRIN {self._shown_prin()}" if self.show_prin else "")
        )
        self.stream.write(line + "\n")
        self.stream.flush()

    def _shown_prin(self) -> str:
        prin = self.prin
        return "-" if prin is None else f"{prin:.3f}"

    # terminal form ---------------------------------------------------------------

    def _start_bar(self) -> None:
        from rich import progress as rp

        columns: list[rp.ProgressColumn] = []
        if self.label:
            columns.append(rp.TextColumn(self.label, markup=False))
        columns += [
            rp.BarColumn(),
            rp.MofNCompleteColumn(),
            rp.TextColumn("elapsed"),
            rp.TimeElapsedColumn(),
            rp.TextColumn("ETA"),
            rp.TimeRemainingColumn(),
        ]
        if self.show_prin:
            columns.append(rp.TextColumn("PRIN {task.fields[prin]}", markup=False))
        self._bar = rp.Progress(
            *columns,
            console=_console(self.stream),
            # Lines printed to stderr while the bar runs (skipped rows, warnings) are
            # shown above it instead of tearing it, but only when the bar is on
            # stderr itself; stdout is taken over only when it is a terminal too, so
            # results piped to a file never end up on the bar's stream.
            redirect_stderr=self.stream is sys.stderr,
            redirect_stdout=isatty(sys.stdout),
        )
        self._task = self._bar.add_task("", total=self.total, prin="-")
        self._bar.start()

    def _update_bar(self) -> None:
        assert self._bar is not None
        assert self._task is not None
        self._bar.update(self._task, completed=self.done, prin=self._shown_prin())
        if self.done >= self.total:
            # The last item is in: stop now, so a caller that never closes still
            # leaves the terminal as it found it (cursor shown, bar drawn in full).
            self.close()


def duration(seconds: float) -> str:
    """``42s``, ``3m07s``, ``2h05m``: an elapsed time or an ETA on a progress line."""
    seconds = int(seconds)
    if seconds < 60:
        return f"{seconds}s"
    if seconds < 3600:
        return f"{seconds // 60}m{seconds % 60:02d}s"
    return f"{seconds // 3600}h{seconds % 3600 // 60:02d}m"


# ------------------------------------------------------------------------ verdict


def _one_line(text: str | None, width: int = 100) -> str:
    if text is None:
        return "(no reply)"
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: width - 1] + "…"


def _verdict_rows(verdict: Verdict, texts: Sequence[str]) -> list[tuple[str, str, str, str, str]]:
    """label, candidate, direct, reverse, verdict: one row per candidate (a panel: the
    number of members calling it correct and incorrect), in the task's words."""
    positive, negative = STATUS_WORDS[verdict.task]
    marks = {c.label: _mark(c.status, positive) for c in verdict.candidates}
    correct = set(verdict.correct)

    def mark(label: str) -> str:
        # the verdict's own word for the candidate (a verdict read back without its
        # candidates: from its correct set)
        return marks.get(label, positive.upper() if label in correct else "")

    if verdict.members:
        voters = [m for m in verdict.members if not m.abstained]
        return [
            (
                label,
                text,
                f"{sum(label in m.correct for m in voters)}/{len(verdict.members)}",
                f"{sum(label not in m.correct for m in voters)}/{len(verdict.members)}",
                mark(label),
            )
            for label, text in zip(verdict.labels, texts, strict=True)
        ]
    direct = set(verdict.direct.labels) if verdict.direct else set()
    reverse = set(verdict.reverse.labels) if verdict.reverse else set()
    unread_direct, unread_reverse = _unread(verdict.direct), _unread(verdict.reverse)

    def side(unread: bool, named: bool, word: str) -> str:
        return "unread" if unread else word if named else "-"

    def verdict_mark(label: str) -> str:
        # a candidate neither answer names because one answer could not be read is not
        # a contradiction: the judge said nothing about it there (the verdict says unread)
        if marks.get(label) == "contradicted" and (unread_direct or unread_reverse):
            return "unreadable"
        return mark(label)

    return [
        (
            label,
            text,
            side(unread_direct, label in direct, positive),
            side(unread_reverse, label in reverse, negative),
            verdict_mark(label),
        )
        for label, text in zip(verdict.labels, texts, strict=True)
    ]


def _unread(leg: Leg | None) -> bool:
    """Whether ``leg`` was asked and nothing could be read from its reply."""
    return leg is not None and leg.parse_status is ParseStatus.FAILED


def _mark(status: str, positive: str) -> str:
    """The verdict column: the task's positive word in capitals, ``contradicted`` (named
    in both answers or in neither), ``unreadable`` (one answer not read), or nothing for
    the negative side."""
    if status == positive:
        return status.upper()
    return {"contradicted": "contradicted", "unread": "unreadable"}.get(status, "")


def _leg_lines(leg: Leg, indent: str = "") -> list[str]:
    how = leg.parse_method.value if leg.parse_method else "unparseable"
    source = "cache" if leg.cached else f"{leg.latency_ms / 1000:.2f} s"
    name = f"{leg.polarity.value.capitalize():<7} leg"
    if leg.order is not None:
        name += f", order {''.join(leg.order)}"
    # the judge's own probability of the answer it gave (from its token log-probabilities)
    confidence = "" if leg.confidence is None else f", answer probability {leg.confidence:.2f}"
    return [
        f"{indent}{name} ({leg.template}, {source}{confidence}): {_one_line(leg.raw_text, 70)!r}",
        f"{indent}        read as {{{', '.join(leg.labels)}}} ({leg.parse_status.value}, {how})"
        + ("  ! answers the opposite question" if leg.polarity_confusion else ""),
    ]


def _score_line(verdict: Verdict) -> str:
    scores = verdict.scores
    parts = [f"PRIN {scores.prin:.3f}" if scores.prin is not None else "PRIN n/a"]
    if scores.order_inconsistency is not None:
        parts.append(f"order {scores.order_inconsistency:.3f}")
    if scores.panel_agreement is not None:
        parts.append(f"panel agreement {scores.panel_agreement:.3f}")
    if scores.confidence is not None:
        parts.append(f"confidence {scores.confidence:.3f} (the legs' lowest answer probability)")
    return ", ".join(parts) + ": " + ("consistent" if verdict.consistent else "INCONSISTENT")


def _verdict_tail(verdict: Verdict) -> list[str]:
    """The legs, the reconciliation and the verdict: the lines after the table."""
    lines = []
    for leg in (verdict.direct, verdict.reverse, *verdict.permuted):
        if leg is not None:
            lines += _leg_lines(leg)
    for member in verdict.members:
        vote = (
            "abstains: " + (member.reason or "")
            if member.abstained
            else ("votes {" + ", ".join(member.correct) + "}")
        )
        lines.append(f"Member {member.judge} {vote}")
        for leg in (member.direct, member.reverse, *member.permuted):
            if leg is not None:
                lines += _leg_lines(leg, "  ")
    if verdict.error is not None:
        lines.append(f"Error: {verdict.error.message}")
    else:
        if not verdict.members and verdict.reverse is not None:
            lines.append(_implied_line(verdict))
        lines.append(_score_line(verdict))
    lines.append(f"Flags: {', '.join(f.value for f in verdict.flags) or 'none'}")
    shown = ", ".join(verdict.correct) or "(none)"
    lines.append(f"Verdict ({verdict.policy}): {shown}")
    if verdict.task == "pairwise" and verdict.error is None:
        if verdict.tie:
            lines.append("Tie: both answers call the responses equally good")
        elif verdict.winner is not None:
            lines.append(f"Winner: {verdict.winner} ({_one_line(verdict.winner_text or '', 60)!r})")
        else:
            lines.append("Winner: none (the two answers do not agree on one)")
    if verdict.task == "checklist" and verdict.score is not None:
        met = len(verdict.correct)
        lines.append(f"Score: {verdict.score:.3g} ({met} of {len(verdict.labels)} met)")
    if verdict.error is None:
        lines.append(f"Cost: {_verdict_cost(verdict)}")
    if verdict.decision is not None:
        lines.append(_decision_line(verdict.decision))
    return lines


def _implied_line(verdict: Verdict) -> str:
    """What the reverse leg implies, in the task's words."""
    implied = verdict.reverse_implied
    if _unread(verdict.reverse):
        return "Reverse leg implies nothing: its reply could not be read"
    if verdict.task == "pairwise":
        if len(implied) == 1:
            return f"Reverse leg implies the better one: {implied[0]}"
        return "Reverse leg implies a tie" if implied else "Reverse leg implies no better one"
    word = STATUS_WORDS[verdict.task][0]
    return f"Reverse leg implies {word}: {{{', '.join(implied)}}}"


def _heading(verdict: Verdict, question: str, response: str | None) -> list[str]:
    """What was judged, in the task's words: the question (a pair's instruction), and a
    checklist's response (its question only when it has one)."""
    if verdict.task == "pairwise":
        return [f"Instruction: {_one_line(question, 200)}"]
    if verdict.task == "checklist":
        lines = [f"Question: {_one_line(question, 200)}"] if question else []
        return [*lines, f"Response: {_one_line(response, 200)}"] if response else lines
    return [f"Question: {_one_line(question, 200)}"]


def _verdict_cost(verdict: Verdict) -> str:
    """What this verdict cost, by the summaries' rule (``_usage``), on one line."""
    tally = UsageTally()
    tally.add(verdict)
    return usage_line(tally.summary())


def _rating_leg_lines(leg: Leg, low: int, high: int, indent: str = "") -> list[str]:
    """What one rating leg said and the score read from it (a mirrored leg's read back)."""
    source = "cache" if leg.cached else f"{leg.latency_ms / 1000:.2f} s"
    name = "Mirrored" if leg.polarity.value == "reverse" else "Direct"
    said = f"{indent}{name} leg ({leg.template}, {source}): {_one_line(leg.raw_text, 70)!r}"
    if leg.score is None:
        return [said, f"{indent}  score unread ({leg.parse_status.value})"]
    if leg.polarity.value == "reverse":
        back = low + high - leg.score
        read = (
            f"score {leg.score:g} on the mirrored scale ({low} = excellent, {high} = very "
            f"poor): {back:g} read back"
        )
    else:
        read = f"score {leg.score:g}"
    return [said, f"{indent}  {read}"]


def _rating_legs(verdict: Verdict | Member, low: int, high: int, indent: str) -> list[str]:
    lines: list[str] = []
    for leg in (verdict.direct, verdict.reverse):
        if leg is not None:
            lines += _rating_leg_lines(leg, low, high, indent)
    for leg in verdict.permuted:  # the order check's: the rubric's levels from the top down
        lines += [
            line.replace(" leg (", ", rubric reversed leg (", 1) if i == 0 else line
            for i, line in enumerate(_rating_leg_lines(leg, low, high, indent))
        ]
    return lines


def rating_lines(
    verdict: Verdict, low: int, high: int, *, expected_asked: bool = False
) -> list[str]:
    """A rating's verdict as plain lines: the rating, what each leg said and the score read
    from it (a panel's members', an item's aspects'), the expected rating, PRIN, the
    flags, the cost and the acceptance rule's decision. ``expected_asked``: the judge was
    asked for token alternatives (say so when it gave none usable)."""
    rating = "none (the legs disagree or one was not read)"
    if verdict.rating is not None:
        rating = f"{verdict.rating:g} on {low}-{high}"
    if verdict.aspects:
        rating = f"per aspect ({len(verdict.aspects)})"
    lines = [f"Rating: {rating}", *_rating_legs(verdict, low, high, "  ")]
    for member in verdict.members:
        vote = (
            f"abstains: {member.reason or ''}"
            if member.abstained
            else f"rates {member.rating:g}"
            if member.rating is not None
            else "gives no rating"
        )
        lines.append(f"  Member {member.judge} {vote}")
        lines += _rating_legs(member, low, high, "    ")
    for name, aspect in verdict.aspects.items():
        given = "none" if aspect.rating is None else f"{aspect.rating:g}"
        flags = ", ".join(flag.value for flag in aspect.flags) or "none"
        lines.append(f"  Aspect {name}: rating {given}; flags {flags}")
        # the aspect's legs with their replies (kept once, on the first aspect's legs)
        lines += _rating_legs(verdict.aspect(name), low, high, "    ")
    if verdict.expected_from == "logprobs" and verdict.expected_rating is not None:
        lines.append(
            "  expected rating (from the judge's token probabilities): "
            f"{verdict.expected_rating:.2f}"
        )
    elif verdict.expected_from == "read" and expected_asked:
        lines.append("  expected rating: none (the judge gave no usable token alternatives)")
    if verdict.prin_score is not None:
        lines.append(f"  PRIN: {verdict.prin_score:.2f}")
    lines.append(f"  Flags: {', '.join(flag.value for flag in verdict.flags) or 'none'}")
    if verdict.error is not None:
        lines.append(f"  Error: {verdict.error.message}")
    else:
        lines.append(f"  Cost: {_verdict_cost(verdict)}")
    if verdict.decision is not None:
        lines.append(f"  {_decision_line(verdict.decision)}")
    return lines


def ranking_text(ranking: Sequence[Sequence[str]] | None, *, worst_first: bool = False) -> str:
    """A ranking as one line, best first: ``B > A = C`` (``=`` a tie); listed worst first
    (a reverse leg's): ``C = A < B``; ``""`` for none."""
    if ranking is None:
        return ""
    return (" < " if worst_first else " > ").join(" = ".join(tier) for tier in ranking)


def _ranking_leg_line(leg: Leg, indent: str) -> str:
    """What a ranking leg said: its ranking as read (the reverse leg's worst first), its
    pick (best-of-n), or that it was not read."""
    shown = f" (shown as {', '.join(leg.order)})" if leg.order else ""
    if leg.ranking is not None:
        worst_first = leg.polarity is Polarity.REVERSE
        listed = "worst first" if worst_first else "best first"
        said = f"{ranking_text(leg.ranking, worst_first=worst_first)} ({listed})"
    elif leg.labels:
        said = ("best " if leg.polarity is Polarity.DIRECT else "worst ") + leg.labels[0]
    else:
        said = "unreadable"
    cached = ", cached" if leg.cached else ""
    return f"{indent}{leg.polarity.value} leg{shown}: {said}{cached}"


def ranking_lines(verdict: Verdict, texts: Sequence[str] = ()) -> list[str]:
    """A ranking's verdict as plain lines: the ranking, the best and the worst (with their
    texts, shortened), what each leg said, the scores, the flags, the cost and the
    acceptance rule's decision."""
    by_label = dict(zip(verdict.labels, texts, strict=False))
    ranking = ranking_text(verdict.ranking) or "none (a leg was not read)"
    lines = [f"Ranking: {ranking}"]
    for name, label in (("Best", verdict.best), ("Worst", verdict.worst)):
        if label is not None:
            text = by_label.get(label)
            lines.append(f"  {name}: {label}" + (f"  {_one_line(text, 80)}" if text else ""))
    for leg in (verdict.direct, verdict.reverse, *verdict.permuted):
        if leg is not None:
            lines.append(_ranking_leg_line(leg, "  "))
    scores = verdict.scores
    parts = []
    if scores.legs_tau is not None:
        parts.append(f"legs' Kendall tau {scores.legs_tau:.2f}")
    if scores.prin is not None:
        parts.append(f"PRIN (Kendall distance) {scores.prin:.2f}")
    if scores.orders_tau is not None:
        parts.append(f"orders' tau {scores.orders_tau:.2f}")
    if scores.order_inconsistency is not None:
        parts.append(f"order inconsistency {scores.order_inconsistency:.2f}")
    if scores.position_bias is not None:
        parts.append(f"position bias r {scores.position_bias:.2f}")
    if parts:
        lines.append(f"  Scores: {'; '.join(parts)} (tolerance {verdict.threshold:g})")
    lines.append(f"  Flags: {', '.join(flag.value for flag in verdict.flags) or 'none'}")
    if verdict.error is not None:
        lines.append(f"  Error: {verdict.error.message}")
    else:
        lines.append(f"  Cost: {_verdict_cost(verdict)}")
    if verdict.decision is not None:
        lines.append(f"  {_decision_line(verdict.decision)}")
    return lines


def review_lines(verdict: Verdict, form: ReviewForm) -> list[str]:
    """A review's verdict as plain lines: what each leg said, the form (each score asked
    directly and on its mirrored scale, read back, and the guarded value), the decision
    and its reverse question, the coherence rules broken, the rebuttal probe's moves, the
    reviewer's text, PRIN, the flags and the cost."""
    review = verdict.review
    lines = [f"Review, form {form.id} v{form.version}: {form.title}"]
    if verdict.error is not None or review is None:
        error = verdict.error.message if verdict.error is not None else "no review"
        return [*lines, f"  Error: {error}"]
    for leg in (verdict.direct, verdict.reverse):
        if leg is not None:
            source = "cache" if leg.cached else f"{leg.latency_ms / 1000:.2f} s"
            name = "Mirrored" if leg.polarity.value == "reverse" else "Direct"
            lines.append(f"  {name} leg ({source}): {_one_line(leg.raw_text, 70)!r}")
    lines.append("  Form: direct | mirrored (read back) | guarded")
    width = max(len(f"{f.name} ({f.scale.min}-{f.scale.max})") for f in form.scores)
    for field in form.scores:
        aspect = verdict.aspects.get(field.name)
        if aspect is None:
            continue
        low, high = field.scale.min, field.scale.max
        direct = aspect.direct.score if aspect.direct is not None else None
        mirrored = aspect.reverse.score if aspect.reverse is not None else None
        shown_mirrored = (
            "unread" if mirrored is None else f"{mirrored:g} ({low + high - mirrored:g})"
        )
        guarded = "none" if aspect.rating is None else f"{aspect.rating:g}"
        flags = ", ".join(flag.value for flag in aspect.flags)
        label = f"{field.name} ({low}-{high})".ljust(width)
        lines.append(
            f"    {label}  {'unread' if direct is None else f'{direct:g}':>6} | "
            f"{shown_mirrored:>11} | {guarded:>5}" + (f"  [{flags}]" if flags else "")
        )
    asked = {None: "unread", True: "yes (reject)", False: "no (accept)"}[review.rejected]
    outcome = review.decision or (
        "none: the two disagree" if review.decision_inconsistent else "none"
    )
    lines.append(
        f'  Decision: direct {review.decision_direct or "unread"}; reverse "should it be '
        f'rejected?" {asked}; guarded {outcome}'
    )
    rules = ", ".join(flag.value for flag in review.coherence) or "none broken"
    lines.append(f"  Coherence: {rules}")
    if review.disowning is not None:
        lines.append(f"    the text disowns the assessment: {review.disowning!r}")
    rebuttal = review.rebuttal
    if rebuttal is not None:
        if rebuttal.unread is not None:
            moved = f"no form read after it ({rebuttal.unread})"
        else:
            moved = ", ".join(f"{name} {delta:+g}" for name, delta in rebuttal.moved.items())
            moved += f"; decision {review.decision_direct or 'unread'} -> "
            moved += f"{rebuttal.decision or 'unread'}"
        sway = "swayed" if rebuttal.swayed else "not swayed"
        lines.append(f"  Rebuttal ({rebuttal.follow_up}): {moved}; {sway}")
    for name, text in review.text.items():
        if isinstance(text, str):
            shown = text
        elif isinstance(text, list):
            shown = "; ".join(item if isinstance(item, str) else json.dumps(item) for item in text)
        else:
            shown = json.dumps(text)
        lines.append(f"  {name}: {_one_line(shown, 200)}")
    if verdict.prin_score is not None:
        lines.append(f"  PRIN: {verdict.prin_score:.2f}")
    lines.append(f"  Flags: {', '.join(flag.value for flag in verdict.flags) or 'none'}")
    lines.append(f"  Cost: {_verdict_cost(verdict)}")
    return lines


def _decision_line(decision: Decision) -> str:
    """What the acceptance rule decided: accepted or not, the rule, the score, the tier."""
    score = "missing" if decision.score is None else f"{decision.score:.10g}"
    asked = f", {decision.tiers_asked} tiers asked" if decision.tiers_asked > 1 else ""
    outcome = "accepted" if decision.accepted else "not accepted"
    return (
        f"Decision: {outcome} by the rule {decision.rule} "
        f"(score {score}, tier {decision.tier}{asked})"
    )


def render_verdict(
    verdict: Verdict, question: str, texts: Sequence[str], *, response: str | None = None
) -> str:
    """A verdict as plain text a person can read: what was judged (the question, a
    checklist's ``response``), a table, the legs."""
    lines = [*_heading(verdict, question, response), ""]
    width = max([len(t) for t in texts] + [9])
    width = min(width, 40)
    lines.append(f"  {'label':<5}  {'candidate':<{width}}  {'direct':<8}  {'reverse':<9}  verdict")
    for label, text, direct, reverse, mark in _verdict_rows(verdict, texts):
        lines.append(
            f"  {label:<5}  {_one_line(text, width):<{width}}  {direct:<8}  {reverse:<9}  {mark}"
        )
    lines.append("")
    lines += _verdict_tail(verdict)
    return "\n".join(lines)


def print_verdict(
    verdict: Verdict,
    question: str,
    texts: Sequence[str],
    file: TextIO | None = None,
    *,
    response: str | None = None,
) -> None:
    """Print a verdict to ``file`` (stdout): a rich table on a terminal, else plain text."""
    out = file if file is not None else sys.stdout
    if not isatty(out):
        print(render_verdict(verdict, question, texts, response=response), file=out, flush=True)
        return
    from rich.table import Table
    from rich.text import Text

    console = _console(out)
    for line in _heading(verdict, question, response):
        console.print(Text(line))
    table = Table(show_edge=False)
    table.add_column("label")
    table.add_column("candidate", max_width=60)
    table.add_column("direct")
    table.add_column("reverse")
    table.add_column("verdict")
    for label, text, direct, reverse, mark in _verdict_rows(verdict, texts):
        # Text, not str: a candidate such as "[1, 2]" is data, not rich markup.
        table.add_row(
            Text(label),
            Text(_one_line(text, 200)),
            Text(direct),
            Text(reverse),
            Text(mark, style="bold green"),
        )
    console.print(table)
    for line in _verdict_tail(verdict):
        style = "bold red" if line.startswith("PRIN") and line.endswith("INCONSISTENT") else ""
        if line.startswith("Decision: "):
            style = "bold red" if line.startswith("Decision: not") else "bold green"
        console.print(Text(line, style=style))


# ---------------------------------------------------------------------- summaries


def _pct1(value: Any) -> str:
    return "-" if value is None else f"{100 * value:.1f}%"


def _pct2(value: Any) -> str:
    return "-" if value is None else f"{100 * value:.2f}"


def _judged_line(summary: Mapping[str, Any]) -> str:
    return f"items judged: {summary.get('items_judged', 0)} of {summary.get('items', 0)}" + (
        " (partial run)" if summary.get("run", {}).get("partial") else ""
    )


def _eval_extra_lines(summary: Mapping[str, Any]) -> list[str]:
    """Self-consistency and flag quality: the lines after the per-config rows."""
    lines = []
    sc = summary.get("self_consistency")
    if sc:
        lines.append(f"  self-consistency (k={sc['samples']}) accuracy {_pct1(sc['accuracy'])}")
    quality = (summary.get("flag_quality") or {}).get("inconsistent_flag")
    if quality:
        lines.append(
            f"  error rate: flagged inconsistent {_pct1(quality['error_rate_flagged'])}, "
            f"not flagged {_pct1(quality['error_rate_unflagged'])}"
        )
    selective = summary.get("reverse_legs")
    if selective:
        saved = selective.get("cost_saved_usd")
        lines.append(
            f"  reverse legs skipped on {selective['confident']} of {selective['verdicts']} "
            f"verdicts (a confident direct leg; monitored {selective['monitored']}): "
            f"{selective['judge_calls_saved']} judge calls saved"
            + ("" if saved is None else f" (about ${saved:.4f})")
            + f"; errors among them {_pct1(selective.get('confident_error_rate'))}, "
            f"among the uncertain {_pct1(selective.get('uncertain_error_rate'))}"
        )
    usage = (summary.get("cost") or {}).get("usage")
    if usage:
        lines.append(f"  {usage_line(UsageSummary.model_validate(usage))}")
    lines.extend(f"  warning: {f['message']}" for f in summary.get("uninformative") or ())
    return lines


def eval_summary_text(summary: Mapping[str, Any]) -> str:
    """An evaluation summary (the ``summary.json`` form) as a few plain lines."""
    lines = [_judged_line(summary)]
    for key, block in (summary.get("configs") or {}).items():
        methods = block["methods"]
        lines.append(
            f"  {key:<13} PRIN {_pct1(block['prin']):>6}   accuracy: direct "
            f"{_pct1(methods['direct']['accuracy'])}, "
            f"reverse {_pct1(methods['reverse']['accuracy'])}"
            f", synergy {_pct1(methods['synergy']['accuracy'])}"
        )
    lines += _eval_extra_lines(summary)
    return "\n".join(lines)


def print_eval_summary(summary: Mapping[str, Any], file: TextIO | None = None) -> None:
    """Print an evaluation summary to ``file`` (stdout): a table on a terminal."""
    out = file if file is not None else sys.stdout
    if not isatty(out):
        print(eval_summary_text(summary), file=out, flush=True)
        return
    from rich.table import Table
    from rich.text import Text

    console = _console(out)
    table = Table(title=Text(_judged_line(summary)), title_justify="left")
    table.add_column("mitigations")
    for name in ("PRIN", "direct acc.", "reverse acc.", "synergy acc."):
        table.add_column(name, justify="right")
    for key, block in (summary.get("configs") or {}).items():
        methods = block["methods"]
        table.add_row(
            Text(str(key)),
            _pct1(block["prin"]),
            _pct1(methods["direct"]["accuracy"]),
            _pct1(methods["reverse"]["accuracy"]),
            _pct1(methods["synergy"]["accuracy"]),
        )
    console.print(table)
    for line in _eval_extra_lines(summary):
        console.print(Text(line))


_PROBE_COLUMNS = ("Before", "M.", "M. Rate", "E->R")
_PROBE_KEYS = ("accuracy_before", "modification", "modification_rate", "e_to_r_rate")


def probe_table(summary: Mapping[str, Any]) -> str:
    """A probe summary (the ``summary.json`` form) as a plain table, percentages."""
    rows = summary["by_type"] or summary["by_round"]
    lines = [
        f"items judged: {summary['items_judged']} of {summary['items']}",
        f"{'follow-up':<10} {'Before':>7} {'M.':>7} {'M. Rate':>8} {'E->R':>7}",
    ]
    for name, block in rows.items():
        lines.append(
            f"{name:<10} {_pct2(block['accuracy_before']):>7} {_pct2(block['modification']):>7} "
            f"{_pct2(block['modification_rate']):>8} {_pct2(block['e_to_r_rate']):>7}"
        )
    return "\n".join(lines)


def print_probe_table(summary: Mapping[str, Any], file: TextIO | None = None) -> None:
    """Print a probe summary to ``file`` (stdout): a rich table on a terminal."""
    out = file if file is not None else sys.stdout
    if not isatty(out):
        print(probe_table(summary), file=out, flush=True)
        return
    from rich.table import Table
    from rich.text import Text

    console = _console(out)
    table = Table(
        title=Text(f"items judged: {summary['items_judged']} of {summary['items']}"),
        title_justify="left",
    )
    table.add_column("follow-up")
    for name in _PROBE_COLUMNS:
        table.add_column(name, justify="right")
    for name, block in (summary["by_type"] or summary["by_round"]).items():
        table.add_row(Text(str(name)), *(_pct2(block[key]) for key in _PROBE_KEYS))
    console.print(table)
