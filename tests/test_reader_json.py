"""The reader's one JSON scanner (prin_guard.reader._json): where values are tried, which
are found, its bounds, and that every reader finds JSON through it (issue 38, item 5)."""

from __future__ import annotations

import pytest

from prin_guard._prompting import _rating
from prin_guard._review import review_form
from prin_guard.models import ParseMethod
from prin_guard.reader import MAX_JSON_TRIES, parse_reply, read_score
from prin_guard.reader._json import MAX_JSON_FAILURES, json_values, members, whole_json
from prin_guard.reader._ranking import read_ranking
from prin_guard.reader._review import read_review

TEN = _rating.Scale(1, 10)
STRUCTURED = ParseMethod.STRUCTURED


def _found(text: str, openers: str = "{", **options: bool) -> list[tuple[int, int, object]]:
    return list(json_values(text, openers, **options))


def test_the_last_values_come_first_and_nested_ones_too() -> None:
    text = 'a {"x": 1} b {"y": {"z": 2}} c'
    assert [value for _, _, value in _found(text)] == [{"z": 2}, {"y": {"z": 2}}, {"x": 1}]
    outer = _found(text, outermost=True)
    assert [value for _, _, value in outer] == [{"y": {"z": 2}}, {"x": 1}]
    start, end, _ = outer[0]
    assert text[start:end] == '{"y": {"z": 2}}'


def test_an_object_is_tried_only_where_a_key_or_its_end_follows() -> None:
    # "\boxed{A}" and "{x}" are no JSON: not tried, so they spend none of the failures
    text = '{"answer": "A"}' + " \\boxed{A} {x}" * (2 * MAX_JSON_FAILURES)
    assert [value for _, _, value in _found(text)] == [{"answer": "A"}]
    found = _found('{ }{"a": [1, 2]}', "[{")
    assert found == [(9, 15, [1, 2]), (3, 16, {"a": [1, 2]}), (0, 3, {})]


def test_values_decoded_are_bounded() -> None:
    values = [f"[{n}, 0]" for n in range(MAX_JSON_TRIES + 4)]
    found = _found(" ".join(values), "[")
    assert [value for _, _, value in found] == [[n, 0] for n in reversed(range(4, 20))]


def test_failed_tries_are_bounded() -> None:
    # each failed decode counts the lines before it: a reply full of open objects is read
    # in linear time, and an answer behind more than MAX_JSON_FAILURES of them is not found
    answer, broken = '{"answer": "A"}', ' {"a": '
    assert _found(answer + broken * (MAX_JSON_FAILURES - 1)) != []
    assert _found(answer + broken * MAX_JSON_FAILURES) == []


def test_a_raw_line_break_in_a_string_decodes_and_nothing_else_is_relaxed() -> None:
    assert _found('{"why": "one\ntwo"}') == [(0, 18, {"why": "one\ntwo"})]
    assert _found("{'why': 1}") == []
    assert _found("{'why': 1}", literals=True) == [(0, 10, {"why": 1})]


def test_a_value_nested_too_deep_is_not_one() -> None:
    assert _found('{"a": ' + "[" * 100_000) == []
    assert whole_json("[" * 100_000 + "]" * 100_000) is None


def test_members_keep_every_key_and_their_places() -> None:
    text = '{"a": 1, "a": "x"}'
    found, end = members(text, 0)
    assert end == len(text)
    assert [(key, value, text[lo:hi]) for key, value, lo, hi in found] == [
        ("a", 1, "1"),
        ("a", "x", '"x"'),
    ]
    for broken in ('{"a" 1}', '{"a": 1 "b": 2}', "[1]", "{1: 2}"):
        with pytest.raises(ValueError, match=r"^not an? (object|member)$"):
            members(broken, 0)


def test_a_whole_value_is_the_text_and_nothing_else() -> None:
    assert whole_json(' \n{"a": 1}\n ') == {"a": 1}
    assert whole_json('{"a": 1} and more') is None
    assert whole_json("") is None


def test_every_reader_finds_its_json_through_the_scanner(monkeypatch: pytest.MonkeyPatch) -> None:
    # one scanner: emptied, no reader finds a JSON value (each falls back to its other forms)
    def nothing(*_: object, **__: object) -> list[object]:
        return []

    for module in ("_structures", "_declared", "_ranking", "_scores"):
        monkeypatch.setattr(f"prin_guard.reader.{module}.json_values", nothing)
    monkeypatch.setattr("prin_guard.reader._review.whole_json", nothing)
    assert parse_reply('{"answer": "B"}', ["A", "B"], ["x", "y"]).method is not STRUCTURED
    assert read_score('{"score": 7}', TEN).score is None
    assert read_ranking('{"ranking": ["B", "A", "C"]}', ("A", "B", "C")).ranking is None
    assert not read_review('{"Overall": 7}', review_form("ai-scientist")).found


def test_a_score_is_looked_for_in_the_last_values_as_every_reader_does() -> None:
    # issue 38, item 5: the score reader decoded the reply's first 16 objects; it reads
    # the last ones now, as the label reader and the declared formats do (a reply of more
    # than MAX_JSON_TRIES JSON values was read in part before and is now)
    notes = " ".join(f'{{"note": {n}}}' for n in range(MAX_JSON_TRIES + 4))
    assert read_score(f'{notes} {{"score": 7}}', TEN).score == 7
    assert read_score(f'{{"score": 7}} {notes}', TEN).score is None
    few = " ".join(f'{{"note": {n}}}' for n in range(MAX_JSON_TRIES - 2))
    assert read_score(f'{{"score": 7}} {few} {{"rating": 3}}', TEN).status == "ambiguous"
