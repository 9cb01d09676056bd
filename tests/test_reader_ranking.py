"""The ranking reader (prin_guard.reader._ranking): real listwise replies of a judge, the
six forms and their strictness, and generated phrasings."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from prin_guard.errors import UsageError
from prin_guard.reader._ranking import read_ranking

REPLIES = Path(__file__).parent / "data" / "replies"


def _shape(ranking: object) -> list[set[str]] | None:
    return None if ranking is None else [set(tier) for tier in ranking]  # type: ignore[attr-defined]


def _records(name: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in (REPLIES / name).read_text().splitlines() if line]


# --------------------------------------------------------------------------- real replies

LLMZOO_4 = _records("rankings/llmzoo-order-4.jsonl")


@pytest.mark.parametrize("record", LLMZOO_4, ids=[str(r["id"]) for r in LLMZOO_4])
def test_llmzoo_orderings_of_four_assistants(record: dict[str, object]) -> None:
    got = read_ranking(str(record["reply"]), list(record["labels"]))  # type: ignore[call-overload]
    assert _shape(got.ranking) == _shape(record["expected"]), got.reason
    if record["expected"] is None:
        assert got.reason


def test_llmzoo_figures() -> None:
    """61 replies of gpt-3.5-turbo ranking four assistants: 55 read, each the project's own
    reading; 6 unread (4 ties in prose, one ">=", one ordering that leaves a label out)."""
    read = [r for r in LLMZOO_4 if read_ranking(str(r["reply"]), list(r["labels"])).ranking]  # type: ignore[call-overload]
    assert (len(LLMZOO_4), len(read)) == (61, 55)


LLMZOO_2 = _records("llmzoo-order-gpt35turbo.jsonl")
# the conclusion, read by hand: review 2 concludes "the final order is Assistant 1 =
# Assistant 2" after "Assistant 1 > Assistant 2 in terms of level of details" (the
# project's parser took the first ordering)
LLMZOO_2_EXPECTED = [
    [["2"], ["1"]],
    [["1", "2"]],
    [["2"], ["1"]],
    [["2"], ["3", "1"], ["4"]],
    [["1"], ["2", "3", "4"]],
    [["1"], ["3", "4"], ["2"]],
]


@pytest.mark.parametrize(
    ("record", "expected"),
    list(zip(LLMZOO_2, LLMZOO_2_EXPECTED, strict=True)),
    ids=[f"llmzoo-{n}" for n in range(len(LLMZOO_2))],
)
def test_the_general_corpus_llmzoo_replies(
    record: dict[str, object], expected: list[list[str]]
) -> None:
    labels = [str(label).split()[-1] for label in record["shown_labels"]]  # type: ignore[attr-defined]
    got = read_ranking(str(record["reply"]), labels)
    assert _shape(got.ranking) == _shape(expected)


# --------------------------------------------------------------------------- the forms

ABC = ("A", "B", "C")


@pytest.mark.parametrize(
    ("reply", "labels", "expected", "form"),
    [
        pytest.param(
            "Assistant 2 > Assistant 1 = Assistant 3",
            ABC,
            [["B"], ["A", "C"]],
            "ordering",
            id="llmzoo ordering",
        ),
        pytest.param(
            "[2] > [1] > [3]", ("1", "2", "3"), [["2"], ["1"], ["3"]], "ordering", id="rankgpt"
        ),
        pytest.param(
            "[2] > [3] > [1]", ABC, [["B"], ["C"], ["A"]], "ordering", id="rankgpt places"
        ),
        pytest.param('["B", "A", "C"]', ABC, [["B"], ["A"], ["C"]], "json-list", id="json list"),
        pytest.param(
            '{"ranking": ["Response C", ["Response A", "Response B"]]}',
            ABC,
            [["C"], ["A", "B"]],
            "json-list",
            id="json list tie",
        ),
        pytest.param(
            '```json\n{"ranking": [2, 3, 1]}\n```',
            ABC,
            [["B"], ["C"], ["A"]],
            "json-list",
            id="json numbers",
        ),
        pytest.param(
            '{"ranking": "C > A > B"}', ABC, [["C"], ["A"], ["B"]], "json-list", id="json string"
        ),
        pytest.param(
            '{"A": 2, "B": 1, "C": 3}', ABC, [["B"], ["A"], ["C"]], "json-ranks", id="ranks"
        ),
        pytest.param(
            '{"ranks": {"A": 1, "B": 1, "C": 3}}',
            ABC,
            [["A", "B"], ["C"]],
            "json-ranks",
            id="ranks tie",
        ),
        pytest.param(
            "1. Response C\n2. Response A\n3. Response B",
            ABC,
            [["C"], ["A"], ["B"]],
            "numbered",
            id="numbered",
        ),
        pytest.param(
            "Ranking (best to worst):\n1. **Response B**: concise and right\n"
            "2. Response A - long\n3. Response C (wrong)",
            ABC,
            [["B"], ["A"], ["C"]],
            "numbered",
            id="numbered announced",
        ),
        pytest.param("[[C]], [[A]], [[B]]", ABC, [["C"], ["A"], ["B"]], "tags", id="tags"),
        pytest.param(
            "Final ranking: C, A, B", ABC, [["C"], ["A"], ["B"]], "headed-list", id="headed commas"
        ),
        pytest.param(
            "**Ranking:** Output (b) > Output (c) > Output (a)",
            ABC,
            [["B"], ["C"], ["A"]],
            "ordering",
            id="outputs",
        ),
        pytest.param(
            "A is vague. C is wrong.\n\nTherefore, B > A > C.",
            ABC,
            [["B"], ["A"], ["C"]],
            "ordering",
            id="concludes",
        ),
        pytest.param(
            "In terms of detail, A > B > C. Overall, B > A > C.",
            ABC,
            [["B"], ["A"], ["C"]],
            "ordering",
            id="declared beats aspect",
        ),
        pytest.param(
            "B > A > C. On reflection, C > A > B is my final ranking.",
            ABC,
            [["C"], ["A"], ["B"]],
            "ordering",
            id="revised",
        ),
        pytest.param(
            "B > A > C\n\nB > A > C", ABC, [["B"], ["A"], ["C"]], "ordering", id="repeated"
        ),
        pytest.param(
            "1 > 3 > 2",
            ("1", "2", "3"),
            [["1"], ["3"], ["2"]],
            "ordering",
            id="bare numbers are labels",
        ),
    ],
)
def test_the_forms(
    reply: str, labels: tuple[str, ...], expected: list[list[str]], form: str
) -> None:
    got = read_ranking(reply, labels)
    assert _shape(got.ranking) == _shape(expected), got.reason
    assert got.form == form


@pytest.mark.parametrize(
    ("reply", "reason"),
    [
        pytest.param("Assistant 2 > Assistant 1", "no ranking", id="two of three compared"),
        pytest.param("[[B]], [[A]]", "leaves out C", id="tags missing"),
        pytest.param("A > B > A", "names A twice", id="repeated label"),
        pytest.param("[2] > [1] > [4]", "not one of the labels", id="unknown"),
        pytest.param('["B", "A"]', "leaves out C", id="json short"),
        pytest.param('{"A": 8, "B": 6, "C": 7}', "scores", id="scores are not ranks"),
        pytest.param("B > A > C. Then C > A > B.", "several different", id="two rankings"),
        pytest.param("Therefore, B > A.", "no ranking", id="a comparison"),
        pytest.param(
            "1. Response A is accurate.\n2. Response B is wrong.\n3. Response C is fine.",
            "no ranking",
            id="numbered reasoning",
        ),
        pytest.param("If brevity matters, A > B > C.", "only in the reasoning", id="hedged"),
        pytest.param("2 > 1 > 3", "no ranking", id="bare numbers are no letter labels"),
        pytest.param("a > b > c", "no ranking", id="lower case words"),
        pytest.param("It depends on what you need.", "no ranking", id="none"),
        pytest.param(
            '{"ranking": ["C", "A", "B"]}\nTherefore, A > B > C.',
            "several different",
            id="json against prose",
        ),
        pytest.param("1. A\n1. B\n2. C", "numbered 2 where place 3", id="bad numbering"),
    ],
)
def test_unreadable_never_guessed(reply: str, reason: str) -> None:
    got = read_ranking(reply, ABC)
    assert got.ranking is None
    assert got.reason is not None and reason in got.reason


def test_an_ordering_that_leaves_a_label_out_is_unreadable() -> None:
    got = read_ranking("Therefore: D > A = C", ("A", "B", "C", "D"))
    assert got.ranking is None
    assert got.reason == "the ranking leaves out B"


def test_a_ranking_inside_copied_candidate_text_is_not_the_judges() -> None:
    candidate = "My answer: the order of precedence is C > B > A for these cases."
    reply = f'Response A quotes "{candidate}"\n\nOverall, A > B > C.'
    # unmasked, the copy is a second declared ranking: unreadable, not misread
    assert read_ranking(reply, ABC).reason == "several different rankings"
    assert read_ranking(reply, ABC, echo=[candidate]).ranking == (("A",), ("B",), ("C",))
    only_copy = f'Response A says "{candidate}"'
    assert read_ranking(only_copy, ABC, echo=[candidate]).ranking is None


def test_a_ranking_quoted_from_the_item_in_part_is_not_the_judges() -> None:
    # issue 38, item 5: every reader's copy rule (prin_guard._prompting._quotes): the ranking stands
    # in a stretch the item holds with words of its own, though the judge quoted only a
    # part of the item's line (the exact-copy rule blanked whole texts and lines only, and
    # read two declared rankings here: unreadable)
    candidate = "Well, I think the order of precedence is C > B > A for these cases, surely."
    reply = "Response A claims the order of precedence is C > B > A for these cases.\n\n"
    reply += "Overall, A > B > C."
    got = read_ranking(reply, ABC, echo=[candidate])
    assert (got.ranking, got.copied) == ((("A",), ("B",), ("C",)), True)
    assert read_ranking(reply, ABC).reason == "several different rankings"
    # a bare ranking the item also holds quotes nothing: it is the judge's, as a bare
    # verdict tag is (the exact-copy rule blanked it)
    bare = read_ranking("Overall: A > B > C", ABC, echo=["A > B > C"])
    assert (bare.ranking, bare.copied) == ((("A",), ("B",), ("C",)), False)


def test_a_raw_line_break_in_a_json_string_still_decodes() -> None:
    # issue 38, item 5: the reader's one JSON decoder (strict=False, as llama.cpp's
    # JSON-schema grammar lets a model write); the ranking reader's own refused it
    got = read_ranking('{"ranking": "B > A\n> C"}', ABC)
    assert (got.ranking, got.form) == ((("B",), ("A",), ("C",)), "json-list")


def test_json_nested_too_deep_is_no_ranking_and_no_error() -> None:
    # the ranking reader's own scanner let the decoder's RecursionError out; the reader's
    # one scanner takes a value nested too deep to decode for no value
    got = read_ranking('{"ranking": ' + "[" * 100_000, ABC)
    assert (got.ranking, got.reason) == (None, "no ranking")


def test_labels_must_be_two_or_more_distinct() -> None:
    with pytest.raises(UsageError, match="labels"):
        read_ranking("A > B", ("A", "A"))


# --------------------------------------------------------------------------- generated

LETTERS = "ABCDEFGHIJKL"


@st.composite
def rankings(draw: st.DrawFn) -> tuple[tuple[str, ...], list[list[str]]]:
    n = draw(st.integers(2, 12))
    numeric = draw(st.booleans())
    labels = tuple(str(i) for i in range(1, n + 1)) if numeric else tuple(LETTERS[:n])
    order = draw(st.permutations(labels))
    tiers: list[list[str]] = []
    for label in order:
        if tiers and draw(st.integers(0, 3)) == 0:
            tiers[-1].append(label)
        else:
            tiers.append([label])
    return labels, tiers


NOUNS = ["Response", "Assistant", "Output", "Candidate", "Summary"]


def _render(draw: st.DrawFn, labels: tuple[str, ...], tiers: list[list[str]]) -> str:
    numeric = labels[0] == "1"
    noun = draw(st.sampled_from(NOUNS))
    strict = all(len(tier) == 1 for tier in tiers)
    forms = ["ordering", "rankgpt", "json", "ranks", "numbered", "tags"]
    if not strict:
        forms = ["ordering", "rankgpt", "json", "ranks", "numbered"]
    form = draw(st.sampled_from(forms))
    name = {
        "ordering": lambda x: f"{noun} {x}",
        "rankgpt": lambda x: f"[{labels.index(x) + 1}]",
        "tags": lambda x: f"[[{x}]]",
    }
    if form in ("ordering", "rankgpt"):
        body = " > ".join(" = ".join(name[form](x) for x in tier) for tier in tiers)
        lead = draw(
            st.sampled_from(["", "Therefore, ", "Final ranking: ", "Overall, the order is: "])
        )
        return lead + body + draw(st.sampled_from(["", "."]))
    if form == "tags":
        return ", ".join(name["tags"](x) for tier in tiers for x in tier)
    if form == "json":
        value = [tier[0] if len(tier) == 1 else tier for tier in tiers]
        return json.dumps({"ranking": value} if draw(st.booleans()) else value)
    if form == "ranks":
        ranks, place = {}, 1
        for tier in tiers:
            for x in tier:
                ranks[x] = place
            place += len(tier)
        return json.dumps(ranks)
    lines, place = [], 1
    for tier in tiers:
        for x in tier:
            lines.append(f"{place}. {noun} {x}" if not numeric or noun else f"{place}. {x}")
        place += len(tier)
    return "Ranking from best to worst:\n" + "\n".join(lines)


@settings(max_examples=300, deadline=None)
@given(rankings(), st.data())
def test_generated_phrasings_read_as_written(
    case: tuple[tuple[str, ...], list[list[str]]], data: st.DataObject
) -> None:
    labels, tiers = case
    reply = _render(data.draw, labels, tiers)
    reasoning = data.draw(
        st.sampled_from(
            [
                "",
                f"{labels[0]} is thorough but long. {labels[-1]} misses a step.\n\n",
                f"Looking at Response {labels[-1]} first: it is brief.\n\n",
            ]
        )
    )
    got = read_ranking(reasoning + reply, labels)
    assert _shape(got.ranking) == _shape(tiers), (reasoning + reply, got.reason)


@settings(max_examples=100, deadline=None)
@given(rankings(), st.data())
def test_dropping_a_label_from_a_generated_ranking_is_never_read(
    case: tuple[tuple[str, ...], list[list[str]]], data: st.DataObject
) -> None:
    labels, tiers = case
    if len(labels) < 3:
        return
    dropped = data.draw(st.sampled_from(labels))
    shorter = [[x for x in tier if x != dropped] for tier in tiers]
    shorter = [tier for tier in shorter if tier]
    reply = _render(data.draw, labels, shorter)
    assert read_ranking(reply, labels).ranking is None, reply
