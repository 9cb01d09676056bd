"""A judge's ratings measured against human ratings: SummEval (issue 30, part).

SummEval (Fabbri et al., TACL 2021) rates 1,600 summaries (100 CNN/Daily Mail articles x
16 systems) from 1 to 5 on four aspects; the "human score" is the mean of three experts.
G-Eval (Liu et al., 2023) reports its correlation with that score per article (Spearman's
rho and Kendall's tau over an article's 16 summaries), averaged over the articles; the
figures here are computed the same way, so they compare with G-Eval's table (GPT-4:
coherence 0.582, consistency 0.507, fluency 0.506, relevance 0.547 Spearman). An article
whose ratings (or human scores) are all equal has no correlation and is left out of the
mean (scipy's NaN, which G-Eval's script drops the same way); the count is reported.

Per aspect the summary gives, for the direct leg's score alone and for the guarded rating
(the items it gives one for): Spearman, Kendall, the mean absolute error against the
human score, and flag quality: the direct score's error on flagged items against
unflagged ones (a flag worth having marks the worse ratings).

The articles are CNN/Daily Mail text, which prin-guard does not ship: ``--path`` names the
full file (see ``../shared/data/ratings/SOURCE.md`` for where it came from).
"""

from __future__ import annotations

import itertools
import json
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from prin_guard._output._runs import Section, figure_png, pyplot, write_files
from prin_guard._ranking import average_ranks
from prin_guard.errors import MissingExtraError, UsageError

__all__ = [
    "ASPECTS",
    "RatedItem",
    "kendall_tau_b",
    "load_summeval",
    "per_article",
    "rating_summary",
    "report_text",
    "run_ratings",
    "scatter_plot",
    "spearman",
    "write_report",
]

ASPECTS = {
    "coherence": "the collective quality of all sentences: the summary should be "
    "well-structured and well-organized, building from sentence to sentence to a coherent "
    "body of information about the topic, not a heap of related information",
    "consistency": "the factual alignment between the summary and the article: a "
    "factually consistent summary contains only statements entailed by the article and "
    "penalizes hallucinated facts",
    "fluency": "the quality of the individual sentences: they should have no formatting "
    "problems, capitalization errors or obviously ungrammatical sentences that make the "
    "text difficult to read",
    "relevance": "the selection of important content from the article: the summary should "
    "include only important information and penalizes redundancies and excess information",
}
"""SummEval's four aspects, in the words of its annotation guidelines (abridged)."""


@dataclass(frozen=True, slots=True)
class RatedItem:
    """One summary to rate on one aspect, with its human score and its article."""

    item: dict[str, Any]
    human: float
    article: str


def load_summeval(path: str | Path, aspect: str, *, articles: int | None = None) -> list[RatedItem]:
    """The rating items of ``aspect`` (1-5) from SummEval's file: the article as the
    context, the summary as the response, the experts' mean as the human score; the
    first ``articles`` articles (each with all its summaries, as per-article correlation
    needs), or all."""
    if aspect not in ASPECTS:
        raise UsageError(f"aspect: unknown aspect {aspect!r}; known: {', '.join(ASPECTS)}")
    source = Path(path)
    if not source.is_file():
        raise UsageError(f"--path: no file {source}")
    rows: list[dict[str, Any]] = []
    for number, line in enumerate(source.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            row["expert_mean"][aspect]
        except (ValueError, KeyError, TypeError):
            raise UsageError(
                f"{source}:{number}: not a SummEval record (id, doc_id, source, response, "
                "expert_mean)"
            ) from None
        rows.append(row)
    out: list[RatedItem] = []
    grouped = itertools.groupby(rows, key=lambda row: row["doc_id"])
    for doc_id, group in itertools.islice(grouped, articles):
        for row in group:
            question = (
                f"Summarize the news article in the context. Rate the summary's {aspect}: "
                f"{ASPECTS[aspect]}."
            )
            item = {
                "task": "rating",
                "id": f"{row['id']}:{aspect}",
                "question": question,
                "context": row["source"],
                "response": row["response"],
                "scale": {"min": 1, "max": 5},
            }
            out.append(RatedItem(item, float(row["expert_mean"][aspect]), str(doc_id)))
    return out


def _pearson(x: Sequence[float], y: Sequence[float]) -> float | None:
    n = len(x)
    mx, my = sum(x) / n, sum(y) / n
    sxy = sum((a - mx) * (b - my) for a, b in zip(x, y, strict=True))
    sxx = sum((a - mx) ** 2 for a in x)
    syy = sum((b - my) ** 2 for b in y)
    if sxx == 0 or syy == 0:
        return None
    return sxy / math.sqrt(sxx * syy)


def spearman(x: Sequence[float], y: Sequence[float]) -> float | None:
    """Spearman's rho with average ranks for ties (scipy's ``spearmanr``); ``None`` when
    either side is constant or there are fewer than two pairs."""
    if len(x) != len(y):
        raise ValueError("spearman: x and y differ in length")
    if len(x) < 2:
        return None
    return _pearson(average_ranks(x), average_ranks(y))


def kendall_tau_b(x: Sequence[float], y: Sequence[float]) -> float | None:
    """Kendall's tau-b, which accounts for ties on either side (scipy's ``kendalltau``
    default); ``None`` when either side is constant or there are fewer than two pairs."""
    if len(x) != len(y):
        raise ValueError("kendall_tau_b: x and y differ in length")
    concordant = discordant = ties_x = ties_y = 0
    for i, j in itertools.combinations(range(len(x)), 2):
        dx, dy = x[i] - x[j], y[i] - y[j]
        if dx == 0 and dy == 0:
            continue
        if dx == 0:
            ties_x += 1
        elif dy == 0:
            ties_y += 1
        elif (dx > 0) == (dy > 0):
            concordant += 1
        else:
            discordant += 1
    denominator = math.sqrt((concordant + discordant + ties_x) * (concordant + discordant + ties_y))
    if denominator == 0:
        return None
    return (concordant - discordant) / denominator


def per_article(
    triples: Iterable[tuple[str, float, float]],
) -> dict[str, float | int | None]:
    """G-Eval's figures: Spearman and Kendall over each article's ``(article, predicted,
    human)`` triples, averaged over the articles that have one (see the module)."""
    by_article: dict[str, list[tuple[float, float]]] = {}
    for article, predicted, human in triples:
        by_article.setdefault(article, []).append((predicted, human))
    rhos: list[float] = []
    taus: list[float] = []
    for pairs in by_article.values():
        ours, theirs = [p for p, _ in pairs], [h for _, h in pairs]
        rho, tau = spearman(ours, theirs), kendall_tau_b(ours, theirs)
        if rho is not None and tau is not None:
            rhos.append(rho)
            taus.append(tau)
    return {
        "spearman": sum(rhos) / len(rhos) if rhos else None,
        "kendall": sum(taus) / len(taus) if taus else None,
        "articles": len(by_article),
        "articles_correlated": len(rhos),
    }


def _mae(pairs: Sequence[tuple[float, float]]) -> float | None:
    return sum(abs(p - h) for p, h in pairs) / len(pairs) if pairs else None


def rating_summary(rated: Sequence[RatedItem], verdicts: Sequence[Any]) -> dict[str, Any]:
    """One aspect's figures from its items and their verdicts (in the same order)."""
    if len(rated) != len(verdicts):
        raise ValueError("rating_summary: one verdict per item")
    direct: list[tuple[str, float, float]] = []
    guarded: list[tuple[str, float, float]] = []
    flagged: list[tuple[float, float]] = []
    clean: list[tuple[float, float]] = []
    expected_direct: list[tuple[str, float, float]] = []
    expected: list[tuple[str, float, float]] = []
    for entry, verdict in zip(rated, verdicts, strict=True):
        score = verdict.direct.score if verdict.direct is not None else None
        if score is not None:
            direct.append((entry.article, score, entry.human))
            (flagged if verdict.flags else clean).append((score, entry.human))
        if verdict.rating is not None:
            guarded.append((entry.article, verdict.rating, entry.human))
        leg = verdict.direct.expected_score if verdict.direct is not None else None
        if leg is not None:
            expected_direct.append((entry.article, leg, entry.human))
        if verdict.expected_from == "logprobs" and verdict.expected_rating is not None:
            expected.append((entry.article, verdict.expected_rating, entry.human))
    flags: dict[str, int] = {}
    for verdict in verdicts:
        for flag in verdict.flags:
            flags[flag.value] = flags.get(flag.value, 0) + 1
    n = len(rated)
    return {
        "items": n,
        "direct_read": len(direct),
        "rated": len(guarded),
        "flagged_share": sum(bool(v.flags) for v in verdicts) / n if n else None,
        "flags": flags,
        "direct": {**per_article(direct), "mae": _mae([(p, h) for _, p, h in direct])},
        "guarded": {**per_article(guarded), "mae": _mae([(p, h) for _, p, h in guarded])},
        # G-Eval's expected scores, where the judge gave its token alternatives (none
        # without top_logprobs): the direct leg's, and the guarded expected rating
        "expected_direct": {
            **per_article(expected_direct),
            "mae": _mae([(p, h) for _, p, h in expected_direct]),
            "items": len(expected_direct),
        },
        "expected_guarded": {
            **per_article(expected),
            "mae": _mae([(p, h) for _, p, h in expected]),
            "items": len(expected),
        },
        "flag_quality": {
            "mae_flagged": _mae(flagged),
            "mae_unflagged": _mae(clean),
            "flagged": len(flagged),
            "unflagged": len(clean),
        },
    }


def run_ratings(
    guard: Any,
    path: str | Path,
    *,
    aspects: Sequence[str] = tuple(ASPECTS),
    articles: int | None = None,
    out: str | Path,
) -> dict[str, Any]:
    """Rate SummEval's summaries on each of ``aspects`` with ``guard`` and write
    ``summary.json`` (with the judge's identity and the guard's options), ``items.jsonl``
    (ids, scores, human scores, flags and each whole verdict: no article text) and
    ``report.md`` under ``out``; returns the summary. ``prin-guard calibrate --tolerance``
    reads the directory as it reads an eval run."""
    directory = Path(out)
    directory.mkdir(parents=True, exist_ok=True)
    identity = dict(guard.judge.identity())
    judge = str(identity.get("model") or identity.get("name") or type(guard.judge).__name__)
    summary: dict[str, Any] = {
        "dataset": "summeval",
        "judge": judge,
        "aspects": {},
        # what `prin-guard calibrate` reads to bind an acceptance file to this judge
        "run": {"config": {"judge": identity, "options": guard.options.model_dump(mode="json")}},
    }
    points: dict[str, list[tuple[float, float | None, float | None, bool]]] = {}
    with (directory / "items.jsonl").open("w", encoding="utf-8") as rows:
        for aspect in aspects:
            rated = load_summeval(path, aspect, articles=articles)
            verdicts = guard.check_many([entry.item for entry in rated])
            summary["aspects"][aspect] = rating_summary(rated, verdicts)
            points[aspect] = [
                (
                    entry.human,
                    verdict.direct.score if verdict.direct else None,
                    verdict.rating,
                    bool(verdict.flags),
                )
                for entry, verdict in zip(rated, verdicts, strict=True)
            ]
            for entry, verdict in zip(rated, verdicts, strict=True):
                row = {
                    "id": entry.item["id"],
                    "task": "rating",
                    "aspect": aspect,
                    "human": entry.human,
                    # the scale rated on: what calibrate records, and a guard checks
                    "scale": entry.item["scale"],
                    "direct": verdict.direct.score if verdict.direct else None,
                    "reverse": verdict.reverse.score if verdict.reverse else None,
                    "rating": verdict.rating,
                    "expected_rating": verdict.expected_rating,
                    "expected_from": verdict.expected_from,
                    "flags": [flag.value for flag in verdict.flags],
                    # the whole verdict, as eval runs keep it: what calibrate reads
                    "configs": {"none": verdict.model_dump(mode="json")},
                }
                rows.write(json.dumps(row) + "\n")
    (directory / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    write_report(summary, points, directory)
    return summary


_HEADER = [
    "aspect",
    "items",
    "direct read",
    "rated",
    "flagged",
    "direct ρ",
    "direct τ",
    "direct MAE",
    "guarded ρ",
    "guarded τ",
    "guarded MAE",
    "expected ρ (direct / guarded)",
    "MAE flagged / unflagged",
]


def _rows(summary: dict[str, Any]) -> list[list[str]]:
    rows = []
    for aspect, figures in summary["aspects"].items():
        direct, guarded, quality = figures["direct"], figures["guarded"], figures["flag_quality"]
        rows.append(
            [
                aspect,
                str(figures["items"]),
                str(figures["direct_read"]),
                str(figures["rated"]),
                _number(figures["flagged_share"]),
                _number(direct["spearman"]),
                _number(direct["kendall"]),
                _number(direct["mae"]),
                _number(guarded["spearman"]),
                _number(guarded["kendall"]),
                _number(guarded["mae"]),
                f"{_number(figures['expected_direct']['spearman'])} / "
                f"{_number(figures['expected_guarded']['spearman'])}",
                f"{_number(quality['mae_flagged'])} / {_number(quality['mae_unflagged'])}",
            ]
        )
    return rows


_TEXT = (
    "Spearman and Kendall per article, averaged over the articles (G-Eval's way); MAE "
    "against the experts' mean (1-5). Direct: the direct leg's score alone; guarded: the "
    "reconciled rating, where the legs agree; expected: G-Eval's probability-weighted "
    "scores, with a judge that gives its token alternatives (top_logprobs), else —."
)


def write_report(
    summary: dict[str, Any],
    points: dict[str, list[tuple[float, float | None, float | None, bool]]],
    directory: Path,
) -> Path:
    """``report.md`` and a self-contained ``report.html`` under ``directory``: the table,
    and a scatter plot per aspect of the judge's scores against the experts' mean (the
    direct score, the guarded rating, flagged items marked). Without matplotlib (the
    ``eval`` extra) the report says so in place of the plot. Returns the HTML path."""
    text = _TEXT
    png: bytes | None = None
    try:
        png = scatter_plot(points)
    except MissingExtraError as exc:
        text += f" (No scatter plot: {exc}.)"
    section = Section(
        "Correlation with the experts",
        text,
        header=list(_HEADER),
        rows=_rows(summary),
        figure="scatter.png" if png is not None else None,
        png=png,
    )
    return write_files(directory, f"SummEval ratings: {summary['judge']}", [section])


def scatter_plot(points: dict[str, list[tuple[float, float | None, float | None, bool]]]) -> bytes:
    """One panel per aspect: the experts' mean (x) against the direct score (grey) and the
    guarded rating (blue; flagged items, which have none, marked on the direct score in
    red), with the diagonal."""
    plt = pyplot()
    aspects = list(points)
    fig, axes = plt.subplots(
        1, max(len(aspects), 1), figsize=(3.2 * max(len(aspects), 1), 3.4), squeeze=False
    )
    for ax, aspect in zip(axes[0], aspects, strict=False):
        entries = points[aspect]
        ax.plot([1, 5], [1, 5], color="#bbb", linewidth=1)
        direct = [(h, d) for h, d, _, flagged in entries if d is not None and not flagged]
        flagged = [(h, d) for h, d, _, f in entries if d is not None and f]
        rated = [(h, r) for h, _, r, _ in entries if r is not None]
        for pairs, style in (
            (direct, {"color": "#999", "marker": "o", "label": "direct"}),
            (flagged, {"color": "#c33", "marker": "x", "label": "direct, flagged"}),
            (rated, {"color": "#2a6fb0", "marker": ".", "label": "guarded rating"}),
        ):
            if pairs:
                xs, ys = zip(*pairs, strict=True)
                ax.scatter(xs, ys, s=14, alpha=0.7, linewidths=1, **style)
        ax.set_xlim(0.8, 5.2)
        ax.set_ylim(0.5, 5.5)
        ax.set_xlabel("experts' mean")
        ax.set_title(aspect)
    axes[0][0].set_ylabel("judge's score")
    if axes[0][0].get_legend_handles_labels()[0]:  # nothing plotted: no legend to draw
        axes[0][0].legend(fontsize=7, loc="upper left")
    return figure_png(fig)


def _number(value: Any) -> str:
    return "—" if value is None else f"{value:.3f}"


def report_text(summary: dict[str, Any]) -> str:
    """The summary as a Markdown table, one row per aspect (what the command prints)."""
    lines = [f"# SummEval ratings: {summary['judge']}", "", _TEXT, ""]
    lines.append("| " + " | ".join(_HEADER) + " |")
    lines.append("|" + "|".join("---" for _ in _HEADER) + "|")
    lines += ["| " + " | ".join(row) + " |" for row in _rows(summary)]
    return "\n".join(lines) + "\n"
