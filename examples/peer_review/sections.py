"""A reviewer's checklist, and the experiments sections of three made-up papers.

Written for this example. ``keywords`` are read only by the stand-in judge of
``checklist.py`` (a model judge sees the criterion's text alone); ``met`` lists the
criteria a reviewer marked met, to compare the verdicts with.
"""

from __future__ import annotations

from typing import Any

CHECKLIST: list[dict[str, Any]] = [
    {"text": "Names the datasets used and where they come from", "keywords": ["dataset"]},
    {
        "text": "Reports results over several random seeds, with their spread",
        "keywords": ["seeds", "standard deviation", "±"],
    },
    {"text": "Compares with a baseline under the same compute budget", "keywords": ["baseline"]},
    {"text": "States a limitation of the method", "keywords": ["limitation", "fails when"]},
]

SECTIONS: list[dict[str, Any]] = [
    {
        "id": "sparse-attention",
        "text": (
            "We train on the WikiText-103 dataset (Merity et al., 2016) and evaluate "
            "perplexity on its test split. Our sparse attention reaches 18.2 ± 0.3 "
            "perplexity over five seeds, against 18.9 ± 0.2 for the dense baseline trained "
            "for the same number of GPU hours. A limitation: the kernel needs sequence "
            "lengths that are multiples of 64."
        ),
        "met": ["A", "B", "C", "D"],
    },
    {
        "id": "data-pruning",
        "text": (
            "Pruning 30% of the training examples by loss keeps 99% of the accuracy on "
            "CIFAR-10 (a single run). Random pruning of the same share loses 2 points. We "
            "expect the method to transfer to larger datasets."
        ),
        "met": ["A", "C"],
    },
    {
        "id": "rl-finetuning",
        "text": (
            "Fine-tuning with our reward model raises the win rate against the SFT model "
            "from 50% to 61% in human comparisons. The method fails when the reward model "
            "is smaller than the policy, which we leave to future work."
        ),
        "met": ["D"],
    },
]
