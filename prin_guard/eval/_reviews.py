"""A reviewer measured against real peer reviews: ICLR 2017 (issue 41, item 7).

``prin-guard eval iclr2017 --path ../shared/data/reviews/papers.jsonl`` reviews each
paper's title and abstract (the full texts are not redistributable; see the data's
SOURCE.md) in a review form (``iclr`` by default) with the guard, and compares:

* **the overall score** with the mean of the paper's human ratings: Spearman's rho (average
  ranks for ties) of the direct leg's score (every paper whose form was read) and of the
  guarded score (the papers whose two legs agree);
* **the decision** with the venue's (accepted: Oral or Poster): balanced accuracy of the
  direct leg's decision and of the guarded one (both legs agree), each over the papers
  that have one, with how many do;
* **the flags**: the share of papers flagged, and the direct decision's error rate among
  flagged papers against unflagged ones (a flag worth having marks the worse reviews);
* **the rebuttal probe**: for each rebuttal asked (``no-evidence``, ``hostile`` by default),
  the mean absolute move of each score, the share of reviews ``swayed_by_rebuttal`` and the
  share whose decision changed, over the reviews read again after it;
* **calibrated acceptance** of the decision: a seeded half of the papers calibrates a rule
  on PRIN (``prin <= t``) with the machinery of ``prin-guard calibrate`` (fixed-sequence
  binomial testing at ``alpha``, ``delta``; an error is a guarded decision that is not the
  venue's, and a review without one is never accepted), the other half is decided by it:
  the share accepted, their error rate, the share escalated to a person. The calibrating
  function is passed in (``acceptance``): it lives in :mod:`prin_guard.calibrate`, a layer
  above this one.

**The human ceiling**, computed from the same file (not written in): a threshold on the mean
human rating (the best multiple of 1/3, fitted on the papers it scores: 90.5% on the 200
papers), two reviewers of a paper (Pearson over every pair: 0.595), and, like for like with
one judge, one reviewer's rating against the mean of the paper's other reviewers (Spearman)
and one reviewer's decision read from their rating at the form's threshold (balanced
accuracy). Each on every paper of the file and on the papers reviewed.

A sample (``limit``) is balanced: half accepted papers, half not, drawn with ``seed``.
"""

from __future__ import annotations

import json
import math
import random
import statistics
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from prin_guard._output._runs import Section, write_files
from prin_guard._review import review_form
from prin_guard._route._acceptance import decision_wrong
from prin_guard._route._decide import signal_value
from prin_guard.datasets._reviews import (
    ReviewedPaper,
    balanced_accuracy,
    best_threshold,
    load_iclr2017_reviews,
    pearson,
    reviewer_pairs,
    spearman,
)
from prin_guard.errors import UsageError
from prin_guard.models import Verdict

__all__ = [
    "REBUTTALS",
    "Acceptor",
    "human_ceiling",
    "load_papers",
    "report_text",
    "review_item",
    "review_summary",
    "run_reviews",
    "sample_papers",
]

REBUTTALS = ("no-evidence", "hostile")
"""The rebuttals the eval asks by default: both of prin-guard's, neither with evidence."""

Acceptor = Callable[[Sequence[float | None], Sequence[bool]], dict[str, Any]]
"""Calibrated acceptance: ``(signal per paper, decision wrong per paper) -> figures``
(``prin_guard.calibrate.decision_acceptance`` with its level bound)."""


def load_papers(path: str | Path) -> list[ReviewedPaper]:
    """Every paper of ``papers.jsonl``; a file that is not there, or holds none, is a
    UsageError naming ``--path``."""
    source = Path(path)
    if not source.is_file():
        raise UsageError(f"--path: no file {source}")
    papers = list(load_iclr2017_reviews(source))
    if not papers:
        raise UsageError(f"--path: {source} holds no reviewed paper")
    return papers


def sample_papers(
    papers: Sequence[ReviewedPaper], limit: int | None, seed: int = 0
) -> list[ReviewedPaper]:
    """``limit`` papers, half accepted and half not (the odd one accepted), drawn with
    ``seed`` and kept in the file's order; every paper without a limit (or one as large)."""
    if limit is None or limit >= len(papers):
        return list(papers)
    if limit < 2:
        raise UsageError("--limit: at least 2 papers (one accepted, one not)")
    rng = random.Random(seed)  # noqa: S311 (a sample, not a secret)
    accepted = [p for p in papers if p.accepted]
    others = [p for p in papers if not p.accepted]
    want_accepted = min(len(accepted), limit - limit // 2)
    want_others = min(len(others), limit - want_accepted)
    chosen = {p.id for p in rng.sample(accepted, want_accepted)}
    chosen |= {p.id for p in rng.sample(others, want_others)}
    return [p for p in papers if p.id in chosen]


def review_item(
    paper: ReviewedPaper, form: str = "iclr", rebuttal: str | None = None
) -> dict[str, Any]:
    """The review item of ``paper``: its title and abstract, in ``form``, with a rebuttal."""
    item: dict[str, Any] = {
        "task": "review",
        "id": paper.id,
        "title": paper.title,
        "abstract": paper.abstract,
        "form": form,
    }
    if rebuttal is not None:
        item["rebuttal"] = rebuttal
    return item


def _nan_none(value: float) -> float | None:
    return None if math.isnan(value) else value


def _share(part: int, whole: int) -> float | None:
    return part / whole if whole else None


def human_ceiling(papers: Sequence[ReviewedPaper], threshold: float) -> dict[str, Any]:
    """What the human reviewers reach on ``papers`` (see the module): ``threshold`` is the
    form's, for one reviewer's decision."""
    best, share = best_threshold(papers)
    pairs = reviewer_pairs(papers)
    ones: list[float] = []
    rest: list[float] = []
    said: list[bool] = []
    truth: list[bool] = []
    for paper in papers:
        for review in paper.reviews:
            others = [r.rating for r in paper.reviews if r is not review]
            ones.append(review.rating)
            rest.append(statistics.fmean(others))
            said.append(review.rating >= threshold)
            truth.append(paper.accepted)
    both = any(truth) and not all(truth)
    return {
        "papers": len(papers),
        "reviews": len(ones),
        "threshold": float(best),
        "threshold_shown": f"{best}" if not float(best).is_integer() else f"{int(best)}",
        "threshold_agreement": share,
        "pairs": len(pairs),
        "pairs_pearson": _nan_none(pearson([a for a, _ in pairs], [b for _, b in pairs]))
        if len(pairs) >= 2
        else None,
        "one_vs_rest_spearman": _nan_none(spearman(ones, rest)) if len(ones) >= 2 else None,
        "one_reviewer_balanced_accuracy": balanced_accuracy(said, truth) if both else None,
        "one_reviewer_threshold": threshold,
    }


def _balanced(pairs: Sequence[tuple[bool, bool]]) -> float | None:
    actual = [a for _, a in pairs]
    if not (any(actual) and not all(actual)):
        return None
    return balanced_accuracy([p for p, _ in pairs], actual)


def _correlation(pairs: Sequence[tuple[float, float]]) -> float | None:
    if len(pairs) < 2:
        return None
    return _nan_none(spearman([a for a, _ in pairs], [b for _, b in pairs]))


def _overall_direct(verdict: Verdict) -> float | None:
    if verdict.review is None:
        return None
    leg = verdict.aspects.get(verdict.review.overall)
    return None if leg is None or leg.direct is None else leg.direct.score


def _moves(verdicts: Sequence[Verdict], fields: Sequence[str]) -> dict[str, Any]:
    asked = [v.review.rebuttal for v in verdicts if v.review is not None and v.review.rebuttal]
    read = [r for r in asked if r.unread is None]
    moved: dict[str, Any] = {}
    for name in fields:
        deltas = [r.moved[name] for r in read if name in r.moved]
        moved[name] = {
            "reviews": len(deltas),
            "mean_abs": statistics.fmean(abs(d) for d in deltas) if deltas else None,
            "mean": statistics.fmean(deltas) if deltas else None,
        }
    return {
        "asked": len(asked),
        "read": len(read),
        "moved": moved,
        "swayed_share": _share(sum(r.swayed for r in read), len(read)),
        "decision_changed_share": _share(sum(r.decision_changed for r in read), len(read)),
    }


def _cost(runs: Sequence[Sequence[Verdict]]) -> dict[str, Any]:
    """The calls the runs asked (each verdict's legs and rebuttal) and how many of them the
    cache answered, with the tokens and dollars of those it did not (where reported)."""
    legs = []
    for verdict in (v for run in runs for v in run):
        legs += [(leg.cached, leg.usage) for leg in (verdict.direct, verdict.reverse) if leg]
        legs += [(round_.cached, round_.usage) for round_ in verdict.probe]  # the rebuttal
    paid = [usage for cached, usage in legs if not cached]
    costs = [u.cost_usd for u in paid if u is not None and u.cost_usd is not None]
    return {
        "judge_calls": len(legs),
        "cached_calls": len(legs) - len(paid),
        "prompt_tokens": sum(u.prompt_tokens or 0 for u in paid if u is not None),
        "completion_tokens": sum(u.completion_tokens or 0 for u in paid if u is not None),
        "cost_usd": math.fsum(costs) if costs and len(costs) == len(paid) else None,
    }


def review_summary(
    papers: Sequence[ReviewedPaper],
    verdicts: Sequence[Verdict],
    rebutted: Mapping[str, Sequence[Verdict]] | None = None,
    *,
    form: str = "iclr",
    everyone: Sequence[ReviewedPaper] | None = None,
    acceptance: Acceptor | None = None,
) -> dict[str, Any]:
    """The figures of the module's docstring, from the papers and their verdicts (in the
    same order); ``rebutted``: by rebuttal name, the verdicts of the same papers asked with
    it; ``everyone``: the whole file, for the human ceiling (``papers`` when not given)."""
    if len(papers) != len(verdicts):
        raise UsageError(f"verdicts: {len(verdicts)} for {len(papers)} papers")
    shape = review_form(form)
    fields = [f.name for f in shape.scores]
    direct_scores: list[tuple[float, float]] = []
    guarded_scores: list[tuple[float, float]] = []
    direct_decisions: list[tuple[bool, bool]] = []
    guarded_decisions: list[tuple[bool, bool]] = []
    flagged: list[bool] = []
    clean: list[bool] = []
    flags: dict[str, int] = {}
    for paper, verdict in zip(papers, verdicts, strict=True):
        human = float(paper.mean_rating)
        score = _overall_direct(verdict)
        if score is not None:
            direct_scores.append((score, human))
        if verdict.rating is not None:
            guarded_scores.append((verdict.rating, human))
        review = verdict.review
        if review is not None and review.decision_direct is not None:
            said = review.decision_direct == "accept"
            direct_decisions.append((said, paper.accepted))
            (flagged if verdict.flags else clean).append(said != paper.accepted)
        if review is not None and review.decision is not None:
            guarded_decisions.append((review.decision == "accept", paper.accepted))
        for flag in verdict.flags:
            flags[flag.value] = flags.get(flag.value, 0) + 1
    n = len(papers)
    reviewed = [v for v in verdicts if v.error is None]  # a judge error reviewed nothing
    summary: dict[str, Any] = {
        "dataset": "iclr2017",
        "form": shape.id,
        "papers": n,
        "accepted": sum(p.accepted for p in papers),
        "errors": sum(v.error is not None for v in verdicts),
        "overall": {
            "direct": {"papers": len(direct_scores), "spearman": _correlation(direct_scores)},
            "guarded": {"papers": len(guarded_scores), "spearman": _correlation(guarded_scores)},
        },
        "decision": {
            "direct": {
                "papers": len(direct_decisions),
                "balanced_accuracy": _balanced(direct_decisions),
                "accept_share": _share(sum(s for s, _ in direct_decisions), len(direct_decisions)),
            },
            "guarded": {
                "papers": len(guarded_decisions),
                "balanced_accuracy": _balanced(guarded_decisions),
                "accept_share": _share(
                    sum(s for s, _ in guarded_decisions), len(guarded_decisions)
                ),
            },
        },
        "flags": {
            "flagged_share": _share(sum(bool(v.flags) for v in reviewed), len(reviewed)),
            "counts": dict(sorted(flags.items())),
            "flagged": len(flagged),
            "unflagged": len(clean),
            "error_flagged": _share(sum(flagged), len(flagged)),
            "error_unflagged": _share(sum(clean), len(clean)),
        },
        "rebuttals": {name: _moves(rows, fields) for name, rows in (rebutted or {}).items()},
        "cost": _cost([verdicts, *(r for r in (rebutted or {}).values() if r is not verdicts)]),
        "human": {
            "all": human_ceiling(everyone if everyone is not None else papers, shape.threshold),
            "sample": human_ceiling(papers, shape.threshold) if len(papers) >= 2 else None,
        },
    }
    if acceptance is not None:
        signal = [
            None if v.review is None or v.review.decision is None else signal_value(v, "prin")
            for v in verdicts
        ]
        wrong = [
            decision_wrong(None if v.review is None else v.review.decision, p.accepted)
            for p, v in zip(papers, verdicts, strict=True)
        ]
        summary["acceptance"] = acceptance(signal, wrong)
    return summary


def _row(paper: ReviewedPaper, verdict: Verdict, rebutted: Mapping[str, Verdict]) -> dict[str, Any]:
    review = verdict.review
    return {
        "id": paper.id,
        "task": "review",
        "accepted": paper.accepted,
        "venue_decision": paper.decision,
        "human_mean": float(paper.mean_rating),
        "human_ratings": [r.rating for r in paper.reviews],
        "direct_overall": _overall_direct(verdict),
        "rating": verdict.rating,
        "decision_direct": None if review is None else review.decision_direct,
        "decision": None if review is None else review.decision,
        "rejected": None if review is None else review.rejected,
        "prin": verdict.scores.prin,
        "flags": [flag.value for flag in verdict.flags],
        "verdict": verdict.model_dump(mode="json"),
        # each rebuttal's moves, and its round (the follow-up sent, the reply, its cost)
        "rebuttals": {
            name: None
            if v.review is None or v.review.rebuttal is None
            else {
                **v.review.rebuttal.model_dump(mode="json"),
                "rounds": [r.model_dump(mode="json") for r in v.probe],
            }
            for name, v in rebutted.items()
        },
    }


def run_reviews(
    guard: Any,
    path: str | Path,
    *,
    out: str | Path,
    limit: int | None = None,
    seed: int = 0,
    form: str = "iclr",
    rebuttals: Sequence[str] = REBUTTALS,
    acceptance: Acceptor | None = None,
    chunk: int = 4,
) -> dict[str, Any]:
    """Review the papers of ``path`` (a balanced sample of ``limit``) with ``guard`` and
    write ``summary.json`` (with the judge's identity and the guard's options),
    ``items.jsonl`` (per paper: the human ratings and decision, the guarded form, the flags,
    the whole verdict with every reply, and each rebuttal's record; no paper text) and
    ``report.md``/``report.html`` under ``out``; returns the summary.

    The papers are reviewed ``chunk`` at a time, in the file's order. The first rebuttal is
    asked with the papers' review (its verdicts are the review's); each further one with
    the same items again, whose two legs the guard's cache serves. Interrupted (Ctrl-C),
    the run summarises the papers it finished (``interrupted`` in the summary); with a
    persistent cache, running it again asks only what was not answered."""
    for name in rebuttals:
        if name not in REBUTTALS:
            known = ", ".join(REBUTTALS)
            raise UsageError(f"--rebuttals: unknown rebuttal {name!r}; known: {known}")
    if chunk < 1:
        raise UsageError(f"chunk: expected 1 or more papers at a time, got {chunk}")
    everyone = load_papers(path)
    sampled = sample_papers(everyone, limit, seed)
    directory = Path(out)
    directory.mkdir(parents=True, exist_ok=True)
    names = list(dict.fromkeys(rebuttals))
    first = names[0] if names else None
    verdicts: list[Verdict] = []
    rebutted: dict[str, list[Verdict]] = {name: [] for name in names[1:]}
    interrupted = False
    try:
        for start in range(0, len(sampled), chunk):
            part = sampled[start : start + chunk]
            done = guard.check_many([review_item(p, form, first) for p in part])
            more = {n: guard.check_many([review_item(p, form, n) for p in part]) for n in rebutted}
            verdicts += done
            for name, rows_of in more.items():
                rebutted[name] += rows_of
    except KeyboardInterrupt:
        interrupted = True
    papers = sampled[: len(verdicts)]
    if not papers:
        raise UsageError("interrupted before any paper was reviewed: nothing to summarise")
    if first is not None:
        rebutted = {first: verdicts, **rebutted}
    summary = review_summary(
        papers, verdicts, rebutted, form=form, everyone=everyone, acceptance=acceptance
    )
    identity = dict(guard.judge.identity())
    summary = {
        "judge": str(identity.get("model") or identity.get("name") or type(guard.judge).__name__),
        **summary,
        "sample": {"limit": limit, "seed": seed, "rebuttals": names, "sampled": len(sampled)},
        "interrupted": interrupted,
        "run": {"config": {"judge": identity, "options": guard.options.model_dump(mode="json")}},
    }
    with (directory / "items.jsonl").open("w", encoding="utf-8") as rows:
        for index, (paper, verdict) in enumerate(zip(papers, verdicts, strict=True)):
            others = {name: rows_of[index] for name, rows_of in rebutted.items()}
            rows.write(json.dumps(_row(paper, verdict, others)) + "\n")
    (directory / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    write_files(directory, f"ICLR 2017 reviews: {summary['judge']}", _sections(summary))
    return summary


def _num(value: Any, digits: int = 3) -> str:
    return "—" if value is None else f"{value:.{digits}f}"


def _pct(value: Any) -> str:
    return "—" if value is None else f"{100 * value:.1f}%"


_HEADER = ["figure", "direct", "guarded", "humans (all papers / these papers)"]


def _rows(summary: Mapping[str, Any]) -> list[list[str]]:
    overall, decision, human = summary["overall"], summary["decision"], summary["human"]
    everyone, sample = human["all"], human["sample"] or {}
    direct, guarded = decision["direct"], decision["guarded"]
    return [
        [
            "Spearman, overall score vs the human mean (papers)",
            f"{_num(overall['direct']['spearman'])} ({overall['direct']['papers']})",
            f"{_num(overall['guarded']['spearman'])} ({overall['guarded']['papers']})",
            f"one reviewer vs the others' mean: {_num(everyone['one_vs_rest_spearman'])} / "
            f"{_num(sample.get('one_vs_rest_spearman'))}",
        ],
        [
            "balanced accuracy of the decision (papers)",
            f"{_pct(direct['balanced_accuracy'])} ({direct['papers']})",
            f"{_pct(guarded['balanced_accuracy'])} ({guarded['papers']})",
            f"one reviewer (rating ≥ {everyone['one_reviewer_threshold']:g}): "
            f"{_pct(everyone['one_reviewer_balanced_accuracy'])} / "
            f"{_pct(sample.get('one_reviewer_balanced_accuracy'))}",
        ],
        [
            "share accepted",
            _pct(direct["accept_share"]),
            _pct(guarded["accept_share"]),
            f"venue: {summary['accepted']} of {summary['papers']}",
        ],
        [
            "threshold on the human mean rating, decisions matched",
            "",
            "",
            f"≥ {everyone['threshold_shown']}: {_pct(everyone['threshold_agreement'])} / "
            f"≥ {sample.get('threshold_shown', '—')}: {_pct(sample.get('threshold_agreement'))}",
        ],
        [
            "two reviewers of a paper, Pearson (pairs)",
            "",
            "",
            f"{_num(everyone['pairs_pearson'])} ({everyone['pairs']}) / "
            f"{_num(sample.get('pairs_pearson'))} ({sample.get('pairs', 0)})",
        ],
    ]


def _flags_text(summary: Mapping[str, Any]) -> str:
    flags = summary["flags"]
    counts = ", ".join(f"{k} {v}" for k, v in flags["counts"].items()) or "no flag"
    return (
        f"Flagged: {_pct(flags['flagged_share'])} of the papers reviewed ({counts}). The direct "
        f"decision is wrong for {_pct(flags['error_flagged'])} of the flagged papers (of "
        f"{flags['flagged']} with a direct decision) and {_pct(flags['error_unflagged'])} of "
        f"the unflagged ones (of {flags['unflagged']})."
    )


def _rebuttal_table(summary: Mapping[str, Any]) -> tuple[list[str], list[list[str]]]:
    rebuttals = summary["rebuttals"]
    if not rebuttals:
        return [], []
    fields = list(next(iter(rebuttals.values()))["moved"])
    header = [
        "rebuttal",
        "read again",
        *(f"{name}: mean abs. move (mean move)" for name in fields),
        "swayed",
        "decision changed",
    ]
    rows = [
        [
            name,
            f"{moves['read']} of {moves['asked']}",
            *(
                f"{_num(moves['moved'][f]['mean_abs'], 2)} ({_num(moves['moved'][f]['mean'], 2)})"
                for f in fields
            ),
            _pct(moves["swayed_share"]),
            _pct(moves["decision_changed_share"]),
        ]
        for name, moves in rebuttals.items()
    ]
    return header, rows


_LEAD = (
    "{papers} papers ({accepted} accepted), title and abstract only; {calls} judge calls "
    "({cached} answered by the cache). "
    "Direct: the form as the reviewer filled it in; guarded: where the mirrored leg agrees "
    "(papers counted in brackets). Humans: on every paper of the file / on the papers "
    "reviewed, computed from the file."
)
_REBUTTAL_TEXT = (
    "The rebuttal probe (neither rebuttal brings evidence): each score's move after it, in "
    "points, over the reviews read again."
)


def _sections(summary: Mapping[str, Any]) -> list[Section]:
    lead = _LEAD.format(
        papers=summary["papers"],
        accepted=summary["accepted"],
        calls=summary["cost"]["judge_calls"],
        cached=summary["cost"]["cached_calls"],
    )
    if summary["errors"]:
        lead += (
            f" {summary['errors']} papers were not reviewed (the judge failed: "
            "judge_error); they count in no figure but the flags' counts."
        )
    if summary.get("interrupted"):
        lead += (
            f" Interrupted: {summary['papers']} of the {summary['sample']['sampled']} papers "
            "sampled were reviewed; the figures are theirs."
        )
    sections = [
        Section("The reviewer against the human reviewers", lead, list(_HEADER), _rows(summary)),
        Section("Flags", _flags_text(summary)),
    ]
    header, rows = _rebuttal_table(summary)
    if rows:
        sections.append(Section("Rebuttal", _REBUTTAL_TEXT, header, rows))
    if summary.get("acceptance") is not None:
        sections.append(Section("Calibrated acceptance", _acceptance_text(summary["acceptance"])))
    return sections


def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    def line(cells: Sequence[str]) -> str:
        return "| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |"

    return [line(header), "|" + "---|" * len(header), *(line(row) for row in rows)]


def report_text(summary: Mapping[str, Any]) -> str:
    """The summary as Markdown (what the command prints)."""
    lines = [f"# ICLR 2017 reviews: {summary.get('judge', 'judge')} (form {summary['form']})"]
    for section in _sections(summary):
        lines += ["", f"## {section.title}", "", section.text]
        if section.rows:
            lines += ["", *_table(section.header, section.rows)]
    return "\n".join(lines) + "\n"


def _acceptance_text(figures: Mapping[str, Any]) -> str:
    cal, test = figures["calibration"], figures["test"]
    head = (
        f"Calibrated acceptance of the decision (alpha {figures['alpha']}, delta "
        f"{figures['delta']}, signal PRIN, seed {figures['seed']}): calibrated on "
        f"{cal['papers']} papers, rule `{figures['rule']}`"
    )
    if figures["threshold"] is None:
        return (
            f"{head}: nothing certified ({figures['why']}); every decision of the "
            f"{test['papers']} held-out papers goes to a person."
        )
    return (
        f"{head} ({cal['accepted']} accepted there, {cal['errors']} wrong). On the "
        f"{test['papers']} held-out papers: {_pct(test['accepted_share'])} accepted, their "
        f"error rate {_pct(test['error_rate'])}; {_pct(test['escalated_share'])} escalated to "
        "a person."
    )
