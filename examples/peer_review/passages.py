"""Five passages of made-up papers, each with an equation taken out (EquInfer-style).

Written for this example. Each passage keeps the sentences around a display equation
and replaces it with [EQUATION]; the candidates, in LaTeX as in a paper's source, are
the equation that was there and three plausible ones that contradict the passage.
``gold`` is the label of the right one.
"""

from __future__ import annotations

from typing import Any

PASSAGES: list[dict[str, Any]] = [
    {
        "id": "ema-weights",
        "context": (
            "To stabilise evaluation we keep an exponential moving average of the model "
            "parameters. After every optimiser step $t$ the average is moved a small way "
            "towards the current parameters $\\theta_t$:\n\n[EQUATION]\n\n"
            "With $\\beta = 0.999$ the average changes slowly and smooths out the noise of "
            "single steps; $\\beta = 0$ would simply copy the current parameters."
        ),
        "question": "Which equation belongs at [EQUATION] in the passage?",
        "candidates": [
            r"\bar\theta_t = (1 - \beta) \bar\theta_{t-1} + \beta \theta_t",
            r"\bar\theta_t = \beta \bar\theta_{t-1} + (1 - \beta) \theta_t",
            r"\bar\theta_t = \beta \bar\theta_{t-1} + \theta_t",
            r"\bar\theta_t = \beta \theta_t + (1 - \beta) \theta_{t-1}",
        ],
        "gold": "B",
    },
    {
        "id": "label-smoothing",
        "context": (
            "Instead of training on one-hot targets $y$ over $K$ classes, we spread a small "
            "probability mass $\\epsilon$ uniformly over all classes, so that the smoothed target "
            "still sums to one:\n\n[EQUATION]\n\n"
            "For $\\epsilon = 0$ this is the usual one-hot target, and the true class keeps "
            "probability $1 - \\epsilon + \\epsilon / K$."
        ),
        "question": "Which equation belongs at [EQUATION] in the passage?",
        "candidates": [
            r"y'_k = (1 - \epsilon) y_k + \epsilon",
            r"y'_k = \epsilon y_k + \frac{1 - \epsilon}{K}",
            r"y'_k = (1 - \epsilon) y_k + \frac{\epsilon}{K}",
            r"y'_k = y_k - \frac{\epsilon}{K}",
        ],
        "gold": "C",
    },
    {
        "id": "cosine-schedule",
        "context": (
            "The learning rate starts at $\\eta_{max}$ and decays to $\\eta_{min}$ over $T$ "
            "steps along a half cosine, so that it falls slowly at first and at the end, and "
            "fastest in the middle of training:\n\n[EQUATION]\n\n"
            "At $t = 0$ the rate is $\\eta_{max}$ and at $t = T$ it is exactly "
            "$\\eta_{min}$; it never goes below $\\eta_{min}$."
        ),
        "question": "Which equation belongs at [EQUATION] in the passage?",
        "candidates": [
            r"\eta_t = \eta_{min} + \frac{1}{2} (\eta_{max} - \eta_{min}) (1 - \cos(\pi t / T))",
            r"\eta_t = \eta_{min} + (\eta_{max} - \eta_{min}) \cos(\pi t / T)",
            r"\eta_t = \eta_{max} + \frac{1}{2} (\eta_{max} - \eta_{min}) (1 + \cos(\pi t / T))",
            r"\eta_t = \eta_{min} + \frac{1}{2} (\eta_{max} - \eta_{min}) (1 + \cos(\pi t / T))",
        ],
        "gold": "D",
    },
    {
        "id": "harmonic-f1",
        "context": (
            "We report the F1 score, the harmonic mean of precision $P$ and recall $R$, "
            "rather than their arithmetic mean, because it is low whenever either of the "
            "two is low:\n\n[EQUATION]\n\n"
            "A system with $P = 1$ and $R = 0$ therefore scores 0, not 0.5."
        ),
        "question": "Which equation belongs at [EQUATION] in the passage?",
        "candidates": [
            r"F_1 = \frac{2 P R}{P + R}",
            r"F_1 = \frac{P + R}{2}",
            r"F_1 = \frac{P R}{P + R}",
            r"F_1 = \frac{2 (P + R)}{P R}",
        ],
        "gold": "A",
    },
    {
        "id": "reverse-inconsistency",
        "context": (
            "A judge is shown a question with the option set $A$ and asked once for the "
            "correct options, giving the set $D$, and once for the incorrect ones, giving "
            "the set $R$. If the judge were consistent, the options it did not call "
            "incorrect would be exactly the ones it called correct, so we measure the "
            "inconsistency as\n\n[EQUATION]\n\n"
            "which is 0 for a consistent judge and 1 when the two answers share nothing."
        ),
        "question": "Which equation belongs at [EQUATION] in the passage?",
        "candidates": [
            r"\mathrm{PRIN} = 1 - F_1(D, R)",
            r"\mathrm{PRIN} = F_1(D, A \setminus R)",
            r"\mathrm{PRIN} = 1 - F_1(D, A \setminus R)",
            r"\mathrm{PRIN} = 1 - F_1(A \setminus D, A \setminus R)",
        ],
        "gold": "C",
    },
]
