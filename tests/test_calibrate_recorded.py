"""Calibrating a real pairwise judge: GPT-4's recorded verdicts on LLMBar's Natural set.

``../shared/data/llmbar/natural-recorded-judges.jsonl`` holds GPT-4's replies to every
pair of LLMBar Natural in both orders (output 1 shown first, then output 2 first), with
the output it picked. A scripted judge replays them: asked which response is better, it
names the one GPT-4 picked in the order shown (so the order check's second order is
GPT-4's own swapped verdict); asked which is worse, it names the other one (the reverse
leg answered consistently, as the issue's setting has it). The replies are given as
``Answer: A`` lines: what is measured is calibration, not the reading of GPT-4's prose.

GPT-4 is right on 92 of the 100 pairs; its two orders agree on 93, of which 4 are wrong,
and disagree on 7, of which 4 are wrong (the verdict is the item order's). PRIN is 0
everywhere (the reverse leg is consistent by construction), so PRIN cannot tell right
from wrong and a rule on it accepts everything or nothing; the order check can.

The issue reports, on GPT-4's replies to 419 LLMBar pairs (the adversarial sets
included, which are not here), that ``--signal auto`` picked ``prin`` and accepted
nothing. On these 100 pairs the same happens at ``alpha = 0.1`` with the earlier
``auto``: every signal tested on all items at ``delta / 3`` (Bonferroni), none passes,
and the first, ``prin``, is reported. These tests pin that down and show what ``auto``
does now: it chooses on a part kept apart, and a signal that ranks the verdicts wins
there over one that cannot.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from prin_guard import GuardOptions
from prin_guard.calibrate import CalibrationData, calibrate, evaluate, fit_threshold, load_runs
from prin_guard.cli import main
from prin_guard.eval import run as eval_run
from prin_guard.judges import ScriptedJudge

NAMES = ("prin", "order_inconsistency", "inconsistency")


def replay_gpt4(shared: Path) -> ScriptedJudge:
    pairs = {}
    for line in (shared / "llmbar" / "natural.jsonl").read_text().splitlines():
        row = json.loads(line)
        pairs[row["instruction"].strip()] = row
    picked = {}
    for line in (shared / "llmbar" / "natural-recorded-judges.jsonl").read_text().splitlines():
        row = json.loads(line)
        if row["judge"] == "GPT-4":
            picked[(row["id"], row["shown_order"])] = row["winner"]

    def reply(prompt: str) -> str:
        instruction = re.search(r"Given this instruction\n(`{3,})\n(.*?)\n\1", prompt, re.S)
        first = re.search(r"Response A:\n(`{3,})\n(.*?)\n\1", prompt, re.S)
        assert instruction is not None and first is not None
        pair = pairs[instruction.group(2).strip()]
        order = "1-2" if first.group(2).strip() == pair["output_1"].strip() else "2-1"
        winner = picked[(pair["id"], order)]
        better = "A" if winner == order[0] else "B"
        worse = "B" if better == "A" else "A"
        asked_worse = "please output the worse one." in prompt
        return f"Answer: {worse if asked_worse else better}"

    return ScriptedJudge(fn=reply, name="gpt-4-recorded")


@pytest.fixture(scope="module")
def gpt4_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from tests.conftest import SHARED_DATA

    if not (SHARED_DATA / "llmbar" / "natural-recorded-judges.jsonl").is_file():
        pytest.skip("the recorded LLMBar replies are not here")
    out = tmp_path_factory.mktemp("gpt4") / "run"
    eval_run(
        replay_gpt4(SHARED_DATA),
        "llmbar",
        options=GuardOptions(checks=("reverse", "order")),
        methods=("synergy",),
        analyses=(),
        mitigations=(),
        cache="memory",
        progress=False,
        out=out,
    )
    return out


@pytest.fixture(scope="module")
def gpt4(gpt4_run: Path) -> CalibrationData:
    return load_runs([[gpt4_run]])


def test_the_replayed_verdicts_are_gpt4s(gpt4_run: Path, gpt4: CalibrationData) -> None:
    summary = json.loads((gpt4_run / "summary.json").read_text())
    assert summary["task"] == "pairwise"
    assert summary["pairwise"]["winner_accuracy"] == 0.92
    flags = summary["checks"]["flag_quality"]["order_sensitive"]
    assert (flags["flagged"], flags["unflagged"]) == (7, 93)
    assert flags["error_rate_flagged"] == round(4 / 7, 4)
    assert flags["error_rate_unflagged"] == round(4 / 93, 4)
    assert gpt4.task == "pairwise"
    assert set(gpt4.tiers[0].signal("prin")) == {0.0}  # PRIN cannot rank these verdicts
    assert int(gpt4.wrong(0).sum()) == 8


def _bonferroni(data: CalibrationData, alpha: float, delta: float) -> dict[str, int]:
    """What ``auto`` did before: every signal on every item at delta / 3."""
    wrong = data.wrong(0)
    return {
        name: fit_threshold(
            data.tiers[0].signal(name), wrong, alpha, delta / len(NAMES), False
        ).accepted
        for name in NAMES
    }


def test_the_earlier_auto_accepted_nothing_where_the_order_check_certifies(
    gpt4: CalibrationData,
) -> None:
    # the failure, on these pairs at alpha 0.1: nothing passes at delta / 3, and
    # the report named the first signal, prin
    assert _bonferroni(gpt4, 0.1, 0.1) == dict.fromkeys(NAMES, 0)
    assert calibrate(gpt4, alpha=0.1, delta=0.1, signals="prin").acceptance.accepted == 0
    named = calibrate(gpt4, alpha=0.1, delta=0.1, signals="order_inconsistency").acceptance
    assert (named.accepted, named.errors, named.tested) == (93, 4, 100)
    # the most permissive grid threshold under 1 accepts exactly the consistent ones
    assert named.tiers[0].rule.text == "order_inconsistency <= 0.99999999"


def test_auto_now_chooses_the_order_check_on_a_part_kept_apart(
    gpt4_run: Path, gpt4: CalibrationData, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "acceptance.json"
    args = ["calibrate", str(gpt4_run), "--alpha", "0.15", "--delta", "0.1", "--out", str(out)]
    assert main([*args, "--json"]) == 0
    payload: dict[str, Any] = json.loads(capsys.readouterr().out)
    acc = payload["acceptance"]
    assert acc["task"] == "pairwise"
    assert (acc["n"], acc["selection"], acc["tested"]) == (100, 30, 70)
    assert acc["signals_compared"] == list(NAMES)
    # on the 30 items kept apart every signal certifies them all (2 wrong): a tie. PRIN
    # takes one value there, so the order check, which ranks the verdicts, is chosen
    # and tested alone on the other 70
    selection = payload["selection"]
    assert {name: s["certified_coverage"] for name, s in selection.items()} == dict.fromkeys(
        NAMES, 1.0
    )
    assert [name for name, s in selection.items() if s["chosen"]] == ["order_inconsistency"]
    assert acc["tiers"][0]["rule"] == {"signal": "order_inconsistency", "threshold": 0.99999999}
    assert (acc["accepted"], acc["errors"]) == (64, 3)  # coverage 91%, error 4.7%
    assert acc["errors"] / acc["accepted"] <= 0.15
    # the earlier auto, on all 100 items at delta / 3, took prin and accepted everything
    # (8% wrong): right at this alpha, but only because PRIN's one rule is "accept all"
    assert _bonferroni(gpt4, 0.15, 0.1)["prin"] == 100
    # the rule on the 30 items it was chosen on, for comparison (not a held-out figure)
    from prin_guard import Acceptance

    rule = Acceptance.load(out)
    order = np.random.default_rng([0, 2]).permutation(gpt4.n)
    kept_apart = evaluate(rule, gpt4.subset(sorted(order[:30])))
    assert (kept_apart.accepted, kept_apart.errors) == (29, 1)


def test_auto_certifies_at_alpha_010_on_most_selection_draws_where_bonferroni_never_did(
    gpt4: CalibrationData,
) -> None:
    # how the split's draw matters on only 100 items: the order check's 4 caught errors
    # land in the 30 items kept apart or not. Earlier: never (the 93-item rule's
    # p = 0.04 is above delta / 3).
    accepted = [
        calibrate(gpt4, alpha=0.1, delta=0.1, seed=seed).acceptance.accepted for seed in range(20)
    ]
    certified = [a for a in accepted if a]
    assert len(certified) == 14
    assert min(certified) >= 65  # of the 70 tested: the order check's consistent verdicts
