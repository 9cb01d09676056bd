"""Escalation: a cheap judge, then an expensive one, with one guaranteed error rate.

Two judges with a known error structure. Items are easy, medium or hard (50/30/20%);
each judge errs at a rate set by the class, independently of the other given the
class, and its verdict's PRIN (0, 0.5 or 1) depends on whether it erred:

- cheap: wrong on 8/35/60% of easy/medium/hard items (26.5% overall); a right
  verdict has PRIN 0 (80%) or 0.5, a wrong one PRIN 0 (12%), 0.5 (38%) or 1 (50%);
- strong: wrong on 3/10/35% (11.5% overall, so even it must abstain on some items to
  stay under alpha = 10%); right: PRIN 0 (90%) or 0.5; wrong: PRIN 0 (35%), 0.5 (35%)
  or 1 (30%); each verdict costs 20 times the cheap one.

Three ways to grade, each calibrated at alpha = delta = 0.1 (``prin_guard.calibrate``):
always cheap, always strong, and the cascade (cheap, then strong for what the cheap
judge's rule does not accept; thresholds calibrated jointly).

Part 1 draws ``--reps`` calibration sets of ``--n`` items from the model and computes
each calibrated rule's error among accepted, coverage and calls exactly from the
model (no test-set noise): the share of draws above alpha is what the guarantee
bounds by delta. Part 2 runs the whole pipeline once on ``--items`` items: scripted
judges (``ScriptedJudge``, replies that produce those PRIN values), ``eval`` runs,
``calibrate`` on half the items, and the rules applied verdict by verdict
(``Acceptance.decide``) to the held-out half.

    .venv/bin/python bench/cascade.py            # writes /tmp/notes/cascade-benchmarks.md
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from prin_guard.calibrate import (  # noqa: E402 - after the path set-up
    calibrate,
    evaluate,
    fit_cascade,
    fit_threshold,
    holdout_split,
    load_runs,
)

ALPHA = DELTA = 0.1
CLASSES = np.array([0.5, 0.3, 0.2])
ERR = (np.array([0.08, 0.35, 0.6]), np.array([0.03, 0.1, 0.35]))
PRIN = np.array([0.0, 0.5, 1.0])
P_PRIN = {  # (tier, wrong) -> distribution over PRIN
    (0, False): np.array([0.8, 0.2, 0.0]),
    (0, True): np.array([0.12, 0.38, 0.5]),
    (1, False): np.array([0.9, 0.1, 0.0]),
    (1, True): np.array([0.35, 0.35, 0.3]),
}
COST = (0.0001, 0.002)  # USD per leg: a verdict is two legs
NAMES = ("cheap", "strong")


def draw(rng: np.random.Generator, n: int) -> tuple[list[Any], list[Any]]:
    cls = rng.choice(3, n, p=CLASSES)
    values, wrong = [], []
    for tier in (0, 1):
        bad = rng.random(n) < ERR[tier][cls]
        u = rng.random(n)
        right = np.searchsorted(np.cumsum(P_PRIN[(tier, False)]), u)
        wrongs = np.searchsorted(np.cumsum(P_PRIN[(tier, True)]), u)
        values.append(PRIN[np.minimum(np.where(bad, wrongs, right), 2)])
        wrong.append(bad)
    return values, wrong


def exact(t0: float | None, t1: float | None) -> dict[str, float]:
    """Error among accepted, coverage and strong verdicts per item of the rules: tier 0
    accepts PRIN <= t0, then tier 1 PRIN <= t1 (None: that tier accepts nothing; t1
    None also means the strong judge is never asked)."""

    def below(tier: int, wrong: bool, t: float | None) -> Any:
        return 0.0 if t is None else P_PRIN[(tier, wrong)][t + 1e-12 >= PRIN].sum()

    err0 = ERR[0] * below(0, True, t0)
    acc0 = err0 + (1 - ERR[0]) * below(0, False, t0)
    reach = (1 - acc0) if t1 is not None else 0 * acc0
    err1 = reach * ERR[1] * below(1, True, t1)
    acc1 = err1 + reach * (1 - ERR[1]) * below(1, False, t1)
    accepted = float(CLASSES @ (acc0 + acc1))
    errors = float(CLASSES @ (err0 + err1))
    return {
        "risk": errors / accepted if accepted else 0.0,
        "coverage": accepted,
        "strong": float(CLASSES @ reach),
    }


def part1(reps: int, n: int, seed: int) -> dict[str, list[dict[str, float]]]:
    rng = np.random.default_rng(seed)
    out: dict[str, list[dict[str, float]]] = {
        "always cheap": [],
        "always strong": [],
        "cascade": [],
    }
    calls = [np.full(n, 2.0), np.full(n, 2.0)]
    for _ in range(reps):
        values, wrong = draw(rng, n)
        cheap = fit_threshold(values[0], wrong[0], ALPHA, DELTA, False)
        strong = fit_threshold(values[1], wrong[1], ALPHA, DELTA, False)
        order = rng.permutation(n)
        cut = round(0.3 * n)
        fit = fit_cascade(
            values,
            wrong,
            calls,
            higher_is_better=[False, False],
            alpha=ALPHA,
            delta=DELTA,
            path_items=order[:cut],
            test_items=order[cut:],
        )
        out["always cheap"].append({**exact(cheap.threshold, None), "cheap": 1.0})
        out["always strong"].append({**exact(None, strong.threshold), "strong": 1.0, "cheap": 0.0})
        out["cascade"].append({**exact(*fit.thresholds), "cheap": 1.0})
    return out


# -- part 2: the whole pipeline on scripted judges ---------------------------------------

REPLIES = {  # (wrong, PRIN) -> (direct, reverse); the gold answer is A of four
    (False, 0.0): ("Answer: A", "Answer: B, C, D"),
    (True, 0.0): ("Answer: B", "Answer: A, C, D"),
    (False, 0.5): ("Answer: A", "Answer: B"),
    (True, 0.5): ("Answer: B", "Answer: C"),
    (True, 1.0): ("Answer: B", "Answer: B"),
}


def pipeline(items: int, seed: int) -> dict[str, Any]:
    from prin_guard.eval import run as eval_run
    from prin_guard.judges import ScriptedJudge
    from prin_guard.models import Usage

    values, wrong = draw(np.random.default_rng(seed + 1), items)
    folder = Path(tempfile.mkdtemp(prefix="prin-guard-cascade-"))
    data = folder / "items.jsonl"
    with data.open("w") as handle:
        for i in range(items):
            row = {
                "id": f"item-{i}",
                "question": f"item-{i}: which one is right?",
                "candidates": [f"a{i}", f"b{i}", f"c{i}", f"d{i}"],
                "gold": ["A"],
            }
            handle.write(json.dumps(row) + "\n")
    runs = []
    for tier in (0, 1):
        script = [
            REPLIES[(bool(w), float(v))] for v, w in zip(values[tier], wrong[tier], strict=True)
        ]

        def reply(prompt: str, script: list[tuple[str, str]] = script) -> str:
            match = re.search(r"item-(\d+)", prompt)
            assert match is not None
            direct, reverse = script[int(match.group(1))]
            return reverse if "incorrect ones" in prompt else direct

        judge = ScriptedJudge(fn=reply, name=NAMES[tier], usage=Usage(cost_usd=COST[tier]))
        out = folder / NAMES[tier]
        eval_run(
            judge,
            str(data),
            methods=("direct", "reverse", "synergy"),
            analyses=(),
            mitigations=(),
            cache="memory",
            progress=False,
            out=out,
        )
        runs.append(out)
    results: dict[str, Any] = {}
    for name, tiers in (
        ("always cheap", [[runs[0]]]),
        ("always strong", [[runs[1]]]),
        ("cascade", [[runs[0]], [runs[1]]]),
    ):
        loaded = load_runs(tiers)
        part, held = holdout_split(loaded, 0.5, seed)
        assert held is not None
        started = time.perf_counter()
        result = calibrate(part, alpha=ALPHA, delta=DELTA, signals="prin", seed=seed)
        seconds = time.perf_counter() - started
        outcome = evaluate(result.acceptance, held)
        results[name] = {"acceptance": result.acceptance, "held": outcome, "seconds": seconds}
    return results


# -- the report ------------------------------------------------------------------------


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def render(
    p1: dict[str, list[dict[str, float]]], p2: dict[str, Any], args: argparse.Namespace
) -> str:
    lines = [
        "## Escalation: a cheap judge, then a strong one (bench/cascade.py)",
        "",
        f"Scripted judges with a known error structure (module docstring of bench/cascade.py); "
        f"alpha = delta = {ALPHA}; a verdict is two legs; a strong verdict costs 20 cheap ones.",
        "",
        f"**Repeated calibration draws** ({args.reps} draws of {args.n} calibration items; error, "
        "coverage and calls computed exactly from the model for the rules each draw chose):",
        "",
        "| | error among accepted (mean, max) | draws above alpha | coverage (mean) | strong "
        "verdicts per item | judge calls per item | cost per item (cheap verdicts) |",
        "|---|---|---|---|---|---|---|",
    ]
    for name, rows in p1.items():
        risk = np.array([r["risk"] for r in rows])
        coverage = np.mean([r["coverage"] for r in rows])
        strong = np.mean([r["strong"] for r in rows])
        cheap = np.mean([r["cheap"] for r in rows])
        above = _pct(float((risk > ALPHA).mean()))
        lines.append(
            f"| {name} | {_pct(risk.mean())}, {_pct(risk.max())} | {above} | {_pct(coverage)} "
            f"| {strong:.2f} | {2 * (cheap + strong):.2f} | {cheap + 20 * strong:.2f} |"
        )
    lines += [
        "",
        f"The guarantee bounds the share of draws above alpha by delta = {_pct(DELTA)}.",
        "",
        f"**One pipeline end to end** ({args.items} items; `eval` of each scripted judge, "
        f"`calibrate` on a seeded half, the rules applied verdict by verdict to the other half):",
        "",
        "| | rules | calibration coverage | held-out coverage | held-out error among accepted "
        "| the rules' true error (model) | strong verdicts per item | judge calls per item "
        "| cost per item (USD) |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for name, r in p2.items():
        acc, held = r["acceptance"], r["held"]
        rules = "; ".join(t.rule.text for t in acc.tiers)
        strong_asked = held.asked[-1] / held.n if name != "always cheap" else 0.0
        cost = "-" if held.cost_per_item is None else f"{held.cost_per_item:.5f}"
        error = _pct(held.error_rate or 0.0)
        cuts = [t.rule.threshold for t in acc.tiers]
        true = (
            exact(*cuts)
            if name == "cascade"
            else (exact(cuts[0], None) if name == "always cheap" else exact(None, cuts[0]))
        )
        lines.append(
            f"| {name} | {rules} | {_pct(acc.coverage)} | {_pct(held.coverage)} | {error} | "
            f"{_pct(true['risk'])} | {strong_asked:.2f} | {held.calls_per_item:.2f} | {cost} |"
        )
    lines += [
        "",
        f"Command: `.venv/bin/python bench/cascade.py --reps {args.reps} --n {args.n} "
        f"--items {args.items} --seed {args.seed}`",
        "",
    ]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--reps", type=int, default=300)
    parser.add_argument("--n", type=int, default=1000, help="calibration items per draw")
    parser.add_argument("--items", type=int, default=2000, help="items of the pipeline run")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default="/tmp/notes/cascade-benchmarks.md")
    args = parser.parse_args()
    started = time.perf_counter()
    p1 = part1(args.reps, args.n, args.seed)
    p2 = pipeline(args.items, args.seed)
    text = render(p1, p2, args)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text, encoding="utf-8")
    print(text)
    print(f"({time.perf_counter() - started:.0f} s; written to {out})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
