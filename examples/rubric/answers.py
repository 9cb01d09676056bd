"""Short answers to three questions, each question with a grading rubric.

Written for this example. Every criterion has ``keywords``: only the stand-in judge of
``grade_answers.py`` reads them (a model judge sees the criterion's text alone), and
``met`` lists the criteria a teacher marked met, to compare the verdicts with.
"""

from __future__ import annotations

from typing import Any

QUESTIONS: list[dict[str, Any]] = [
    {
        "id": "photosynthesis",
        "question": "Explain what photosynthesis is and why it matters.",
        "rubric": [
            {"text": "Says that plants use light energy", "keywords": ["light"], "weight": 1},
            {
                "text": "Names carbon dioxide and water as what plants take in",
                "keywords": ["carbon dioxide", "co2"],
                "weight": 1,
            },
            {
                "text": "Says that glucose (sugar) is made",
                "keywords": ["glucose", "sugar"],
                "weight": 1,
            },
            {"text": "Says that oxygen is released", "keywords": ["oxygen"], "weight": 1},
        ],
        "answers": [
            {
                "student": "s1",
                "text": "Plants use sunlight to turn carbon dioxide and water into glucose, and "
                "they release oxygen, which animals need.",
                "met": ["A", "B", "C", "D"],
            },
            {
                "student": "s2",
                "text": "Photosynthesis is how plants make sugar. It matters because it gives us "
                "oxygen.",
                "met": ["C", "D"],
            },
        ],
    },
    {
        "id": "mean-median",
        "question": "When is the median a better summary than the mean?",
        "rubric": [
            {"text": "Mentions outliers or extreme values", "keywords": ["outlier", "extreme"]},
            {"text": "Mentions skewed distributions", "keywords": ["skew"]},
            {"text": "Gives a concrete example", "keywords": ["income", "salar", "house price"]},
        ],
        "answers": [
            {
                "student": "s1",
                "text": "When the data are skewed or have outliers, like incomes, where a few "
                "very rich people pull the mean up.",
                "met": ["A", "B", "C"],
            },
            {
                "student": "s2",
                "text": "The median is better when there are extreme values.",
                "met": ["A"],
            },
        ],
    },
    {
        "id": "http-status",
        "question": "What do HTTP status codes 404 and 503 mean?",
        "rubric": [
            {"text": "404: the resource was not found", "keywords": ["not found"]},
            {
                "text": "503: the service is unavailable (overloaded or down)",
                "keywords": ["unavailable", "overloaded"],
            },
            {
                "text": "Says which side is at fault (client or server)",
                "keywords": ["client", "server"],
            },
        ],
        "answers": [
            {
                "student": "s1",
                "text": "404 means the page was not found; 503 means the server is unavailable, "
                "for instance overloaded.",
                "met": ["A", "B", "C"],
            },
            {
                "student": "s2",
                "text": "404 is not found. 503 is an error on the server side.",
                "met": ["A", "C"],
            },
        ],
    },
]
