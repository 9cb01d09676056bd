"""A review guarded with the bundled model (issue 41): the mechanics on a real judge, never
its quality (SmolLM2-135M cannot review a paper: its forms are mostly unread, and that is
what the verdict must say, not a guess)."""

from __future__ import annotations

import pytest

from prin_guard import Flag, Guard
from prin_guard.judges import LocalJudge
from prin_guard.models import ParseStatus, Polarity

pytestmark = pytest.mark.model

PAPER = {
    "task": "review",
    "id": "iclr2017-learning-to-remember",
    "title": "Learning to Remember Rare Events",
    "abstract": (
        "Despite recent advances, memory-augmented deep neural networks are still limited "
        "when it comes to life-long and one-shot learning. We present a large-scale "
        "life-long memory module for use in deep learning that remembers rare events."
    ),
    "form": "iclr",
    "rebuttal": "no-evidence",
}
KNOWN = {
    Flag.UNPARSEABLE_DIRECT,
    Flag.UNPARSEABLE_REVERSE,
    Flag.INCONSISTENT,
    Flag.POLARITY_CONFUSION,
    Flag.DECISION_AGAINST_THRESHOLD,
    Flag.CONFIDENCE_DISOWNED,
    Flag.SWAYED_BY_REBUTTAL,
}


def test_a_review_by_the_bundled_model_is_guarded_end_to_end() -> None:
    guard = Guard(LocalJudge(max_new_tokens=160))
    verdict = guard.check(PAPER)
    assert verdict.task == "review" and verdict.review is not None
    assert verdict.item_id == PAPER["id"] and verdict.review.form == "iclr"
    assert verdict.direct is not None and verdict.direct.polarity is Polarity.DIRECT
    assert verdict.reverse is not None and verdict.reverse.raw_text is not None
    assert set(verdict.aspects) == {"Rating", "Confidence"}
    assert set(verdict.flags) <= KNOWN
    # a form not read is said so, with a reason, and nothing is guessed
    if verdict.direct.parse_status is ParseStatus.FAILED:
        assert Flag.UNPARSEABLE_DIRECT in verdict.flags and verdict.rating is None
        assert verdict.review.unread and verdict.review.rebuttal is None
        assert verdict.judge_calls == 2
    else:  # a form read: the rebuttal was asked of its conversation
        assert verdict.review.rebuttal is not None and verdict.judge_calls == 3
    again = guard.check(PAPER)  # every call the cache's now
    assert again.cached and (again.rating, again.flags) == (verdict.rating, verdict.flags)
    assert again.review == verdict.review.model_copy(
        update={"rebuttal": again.review.rebuttal if again.review else None}
    )
