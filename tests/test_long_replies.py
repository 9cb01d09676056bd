"""Long items and long replies (issue 27, item 5): the event loop keeps serving while
they are planned and read, a long scan never holds the interpreter lock for the whole
text, and what the reader keeps of long texts is bounded.

How fast the loop stays is measured by bench/long_replies.py (BENCHMARKS.md section 12),
never timed here."""

from __future__ import annotations

import random
import re
import sys
import threading
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from prin_guard import Guard, Item, read_reply
from prin_guard._infra import _offloop
from prin_guard._route import _legs
from prin_guard._route._judging import VerdictEngine
from prin_guard.reader import _copies, _text
from prin_guard.tasks import _ratings

WORDS = ["rivers", "meet", "where", "trade", "grows", "cities", "don't", "état", "x_1"]


def _essay(size: int, seed: int) -> str:
    rng = random.Random(seed)
    out: list[str] = []
    while sum(map(len, out)) < size:
        out.append(" ".join(rng.choice(WORDS) for _ in range(12)).capitalize() + ".\n")
    return "".join(out)


@pytest.mark.parametrize(
    "text",
    [
        pytest.param(_essay(3 * _text.STEP + 17, 1), id="prose"),
        pytest.param("a" * (2 * _text.STEP + 5) + " b", id="one-word-longer-than-a-step"),
        pytest.param(("ab " * _text.STEP)[: 2 * _text.STEP], id="cut-on-a-space"),
        pytest.param("é" * _text.STEP + "-" + "ß" * _text.STEP, id="unicode-words"),
        pytest.param("", id="empty"),
    ],
)
def test_word_runs_in_steps_are_the_runs_of_the_whole_text(text: str) -> None:
    assert _text.word_runs(text) == re.findall(r"\w+", text)


@pytest.mark.parametrize("size", [2, _copies.COPY_WORDS])
@pytest.mark.parametrize("count", [0, 1, 5, _text.STEP, _text.STEP + 3, 3 * _text.STEP + 1])
def test_runs_in_steps_are_every_run_of_the_words(size: int, count: int) -> None:
    words = [f"w{n % 997}" for n in range(count)]
    found: set[tuple[str, ...]] = set()
    _copies._runs_into(found, words, size)
    every = set(zip(*(words[k:] for k in range(size)), strict=False))
    assert found == every


def _spy_threads(monkeypatch: pytest.MonkeyPatch, module: Any, name: str) -> list[str]:
    """Record the name of the thread each call of ``module.name`` runs in."""
    threads: list[str] = []
    original = getattr(module, name)

    def spy(*args: Any, **kwargs: Any) -> Any:
        threads.append(threading.current_thread().name)
        return original(*args, **kwargs)

    monkeypatch.setattr(module, name, spy)
    return threads


async def test_a_long_item_is_planned_and_its_replies_read_in_the_one_worker_thread(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    plans = _spy_threads(monkeypatch, VerdictEngine, "plan")
    reads = _spy_threads(monkeypatch, _legs, "read_answer")
    response = _essay(3 * _legs.OFF_LOOP_CHARS, 2)
    long = {"task": "checklist", "response": response, "candidates": ["Names a city."]}
    short = {"task": "checklist", "response": "Rome is a city.", "candidates": ["Names a city."]}

    def echo(prompt: str) -> str:
        return f"{prompt}\n\nAnswer: A"

    loop_thread = threading.current_thread().name
    for item, off in ((short, False), (long, True)):
        plans.clear()
        reads.clear()
        verdicts = await Guard(echo, cache=None, max_chars=10**6).acheck_many([item, item])
        assert all(v.error is None for v in verdicts)
        assert plans and reads
        for name in (*plans, *reads):
            if off:
                # one thread for all of it: reading is Python, which holds the lock
                assert name.startswith("prin-guard-read")
            else:
                assert name == loop_thread
    # a single check too
    plans.clear()
    await Guard(echo, cache=None, max_chars=10**6).acheck(long)
    assert plans and all(name.startswith("prin-guard-read") for name in plans)


async def test_a_ratings_long_replies_are_read_in_the_one_worker_thread(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A rating's replies (both legs, the probe's rounds, aspects asked together) are
    read off the event loop when long, as a label leg's are (issue 37, item 3): a
    looping local model's long rating reply stalled /healthz for 17 s."""
    scores = _spy_threads(monkeypatch, _ratings, "read_score")
    aspects = _spy_threads(monkeypatch, _ratings, "read_aspect_scores")
    padding = " " * (2 * _legs.OFF_LOOP_CHARS)

    def judge(prompt: str, long: bool) -> str:
        tail = padding if long else ""
        if "Fluency" in prompt:
            return f"Fluency: [[4]]\nClarity: [[4]]{tail}"
        return f"Rating: [[{3 if 'how poor' in prompt else 8}]]{tail}"

    rating = {"task": "rating", "response": "Paris.", "scale": {"min": 1, "max": 10}}
    both = {**rating, "scale": {"min": 1, "max": 7}, "aspects": ["Fluency", "Clarity"]}
    loop_thread = threading.current_thread().name
    for long in (False, True):
        scores.clear()
        aspects.clear()

        def ask(prompt: str, long: bool = long) -> str:
            return judge(prompt, long)

        one = await Guard(ask, cache=None, probe="progressive").acheck(rating)
        two = await Guard(ask, cache=None, rating_aspects="together").acheck(both)
        assert one.rating == 8.0 and two.error is None
        assert len(scores) >= 4 and aspects  # two legs and their follow-ups; two legs
        for name in (*scores, *aspects):
            assert name.startswith("prin-guard-read") if long else name == loop_thread


def test_the_reader_keeps_few_indexes_of_long_texts() -> None:
    """A long text's copy index is about ten times its size; a service reading many long
    items kept hundreds of them (256 echoes, 4096 texts)."""
    _copies._echo_index.cache_clear()
    _copies._text_index.cache_clear()
    for seed in range(8):
        response = _essay(_copies._LONG + 100, seed)
        item = {"task": "checklist", "response": response, "candidates": ["Names a city."]}
        read_reply(f"{response}\n\nAnswer: A", item)
    assert _copies._echo_index._long.cache_info().currsize <= 4
    assert _copies._text_index._long.cache_info().currsize <= 4
    # short texts keep their cache: every leg of every item of a shape shares it
    item = Item(task="checklist", response="Rome is a city.", candidates=["Names a city."])
    for _ in range(3):
        read_reply("Rome is a city.\nAnswer: A", item)
    assert _copies._text_index._short.cache_info().hits >= 1


def test_serving_shortens_the_thread_switch_interval(monkeypatch: pytest.MonkeyPatch) -> None:
    """The loop takes the interpreter lock back from the worker thread after each wait on a
    socket: with Python's 5 ms interval that wait made /healthz slow under long replies."""
    from prin_guard.server import _serve

    interval = sys.getswitchinterval()
    try:
        sys.setswitchinterval(0.005)
        _serve._responsive()
        assert sys.getswitchinterval() == pytest.approx(_serve.SWITCH_INTERVAL, rel=0.05)
        sys.setswitchinterval(0.0001)  # an operator's own, shorter one is kept
        _serve._responsive()
        assert sys.getswitchinterval() == pytest.approx(0.0001, rel=0.05)
    finally:
        sys.setswitchinterval(interval)


def test_long_scans_are_cut_into_steps(monkeypatch: pytest.MonkeyPatch) -> None:
    """No single call into the regex engine or one set update spans a long text."""
    text = _essay(4 * _text.STEP, 3)
    calls: list[tuple[int, int]] = []
    pattern = _text._WORD_RUN.compiled

    class Recording:
        def findall(self, text: str, pos: int = 0, endpos: int = sys.maxsize) -> list[str]:
            calls.append((pos, min(endpos, len(text))))
            return pattern.findall(text, pos, endpos)

    monkeypatch.setattr(_text._WORD_RUN, "_compiled", Recording())
    runs = _text.word_runs(text)
    assert runs == pattern.findall(text)
    assert len(calls) >= 4
    assert all(hi - lo <= _text.STEP + 64 for lo, hi in calls)  # cut at the next space
    assert [lo for lo, _ in calls[1:]] == [hi for _, hi in calls[:-1]]
    assert (calls[0][0], calls[-1][1]) == (0, len(text))


@pytest.mark.parametrize(
    ("reply", "item", "said"),
    [
        pytest.param(
            "Fine." + " " * 5000 + "\n" * 3000 + "Rating:" + " " * 900 + "[[8]]" + "\t" * 700,
            {"task": "rating", "response": "Paris.", "scale": {"min": 1, "max": 10}},
            "8",
            id="rating",
        ),
        pytest.param(
            " " * 5000 + "Paris is right." + "\n" * 300 + "Answer: B" + " " * 70_000 + "ok",
            {"task": "pairwise", "question": "Capital?", "candidates": ["Lyon", "Paris"]},
            "B",
            id="pairwise-cut-to-its-ends",
        ),
    ],
)
def test_long_runs_of_whitespace_are_read_short_and_spans_point_into_the_reply(
    reply: str, item: dict[str, Any], said: str
) -> None:
    # a run of whitespace is read as its first 64 characters (issue 37, item 3); what is
    # read and where it stands are the reply's
    reading = read_reply(reply, item)
    assert reading.span is not None
    assert reply[slice(*reading.span)] == said


@given(st.lists(st.sampled_from(["a", "b", " ", "\n", "\t", " " * 70, "\n" * 66, " \n" * 40])))
def test_a_squeezed_text_maps_back_character_for_character(pieces: list[str]) -> None:
    text = "".join(pieces)
    squeezed, offsets = _offloop.squeeze(text)
    assert squeezed.split() == text.split()  # only whitespace goes
    assert squeezed.count("\n") >= min(text.count("\n"), 1)  # a line break stays one
    for at, char in enumerate(squeezed):
        lo, hi = _offloop.unsqueeze((at, at + 1), offsets)  # type: ignore[misc]
        assert text[lo:hi] == char
