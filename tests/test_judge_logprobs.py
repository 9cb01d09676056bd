"""Token log-probabilities on judge replies (``JudgeResponse.tokens``).

Without a model: how generated ids become a reply and its tokens (``_local_text``), how an
OpenAI-compatible ``logprobs`` block becomes tokens (``_litellm``), and what
``LiteLLMJudge(logprobs=True)`` sends and reads through the real litellm client. With the
real bundled model (``model`` mark): LocalJudge's tokens on a real leg, and LiteLLMJudge's
through llama.cpp's server.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import math
import re
from collections.abc import Iterator, Sequence
from typing import Any

import pytest
from fault_server import Behaviour, FaultServer, ok

from prin_guard import Guard, MemoryCache, UsageError
from prin_guard.datasets import load_mathqa, sample_path
from prin_guard.judges import JudgeResponse, LiteLLMJudge, judge_from_spec
from prin_guard.judges._litellm import _reply_tokens
from prin_guard.judges._local_text import _reply
from prin_guard.models import Polarity

# -- a byte-level vocabulary, decoded as a byte-level BPE tokenizer decodes -------------------

VOCAB: dict[int, bytes] = {
    1: b"Answer",
    2: b":",
    3: b" A",
    4: b"\n",
    5: b" more",
    6: b"  ",
    7: b" caf",
    8: b"\xc3",  # the first byte of "é"
    9: b"\xa9",  # ... and its second
    10: b"",  # end of sequence (special tokens are skipped when decoding)
    11: b"\xf0\x9f",  # the first half of an emoji
    12: b"\x99\x82",  # ... and the second
}


def decode(ids: Sequence[int]) -> str:
    return b"".join(VOCAB[i] for i in ids).decode("utf-8", errors="replace")


@pytest.mark.parametrize(
    ("ids", "cut", "text", "tokens"),
    [
        pytest.param(
            [1, 2, 3, 10],
            True,
            "Answer: A",
            [("Answer", -1.0), (":", -2.0), (" A", -3.0)],
            id="plain-end-of-sequence-dropped",
        ),
        pytest.param(
            [6, 1, 2, 3],
            True,
            "Answer: A",
            [("Answer", -2.0), (":", -3.0), (" A", -4.0)],
            id="leading-whitespace-stripped",
        ),
        pytest.param(
            [1, 2, 3, 4, 5],
            True,
            "Answer: A",
            [("Answer", -1.0), (":", -2.0), (" A", -3.0)],
            id="cut-after-the-answer-line",
        ),
        pytest.param(
            [1, 2, 3, 4, 5],
            False,
            "Answer: A\n more",
            [("Answer", -1.0), (":", -2.0), (" A", -3.0), ("\n", -4.0), (" more", -5.0)],
            id="no-cut",
        ),
        pytest.param(
            [7, 8, 9],
            True,
            "café",
            [("caf", -1.0), ("é", -5.0)],
            id="split-character-merged-and-summed",
        ),
        pytest.param(
            [11, 12, 3],
            True,
            "🙂 A",
            [("🙂", -3.0), (" A", -3.0)],
            id="split-emoji-at-the-start",
        ),
        pytest.param([6, 10], True, "", None, id="nothing-but-whitespace"),
        pytest.param([], True, "", None, id="no-tokens"),
    ],
)
def test_local_reply_tokens_join_to_the_reply(
    ids: list[int], cut: bool, text: str, tokens: list[tuple[str, float]] | None
) -> None:
    logprobs = [-float(n) for n in range(1, len(ids) + 1)]
    got_text, got_tokens = _reply(decode, ids, logprobs, stop_at_answer_line=cut)
    assert got_text == text
    assert got_tokens == (None if tokens is None else tuple(tokens))
    if got_tokens is not None:
        assert "".join(t for t, _ in got_tokens) == got_text


# -- an OpenAI-compatible logprobs block ----------------------------------------------------


def choice(entries: list[tuple[Any, Any]]) -> dict[str, Any]:
    return {"logprobs": {"content": [{"token": t, "logprob": lp} for t, lp in entries]}}


@pytest.mark.parametrize(
    ("text", "entries", "tokens"),
    [
        pytest.param(
            "Answer: A",
            [("Answer", -0.5), (":", -0.25), (" A", -1.0)],
            [("Answer", -0.5), (":", -0.25), (" A", -1.0)],
            id="texts-join-to-the-reply",
        ),
        pytest.param(
            "👌❤️\n",
            [("", -0.5), ("", -0.25), ("", -0.25), ("️", -1.0), ("\n", -2.0)],
            [("👌❤️", -2.0), ("\n", -2.0)],
            id="llama-cpp-empty-partial-tokens",
        ),
        pytest.param(
            "é!",
            [("\ufffd", -0.5), ("é", -0.5), ("!", -1.0)],
            [("é", -1.0), ("!", -1.0)],
            id="replacement-character-partial-token",
        ),
        pytest.param(
            "ok 🙂",
            [("ok", -1.0), (" ", -1.0), ("", -0.5)],
            [("ok", -1.0), (" ", -1.0), ("🙂", -0.5)],
            id="trailing-partial-tokens",
        ),
        pytest.param("Answer: A", [("Answer", -0.5), (": B", -1.0)], None, id="mismatch"),
        pytest.param("Answer: A", [("Answer", -0.5)], None, id="reply-longer-than-tokens"),
        pytest.param("Answer", [("Answer", None)], None, id="missing-logprob"),
        pytest.param("Answer", [("Answer", math.nan)], None, id="nan-logprob"),
        pytest.param("", [("", -1.0)], None, id="empty-reply"),
        pytest.param("Answer", [], None, id="no-tokens"),
    ],
)
def test_litellm_tokens_join_to_the_reply_or_are_none(
    text: str, entries: list[tuple[Any, Any]], tokens: list[tuple[str, float]] | None
) -> None:
    assert _reply_tokens(choice(entries), text) == (None if tokens is None else tuple(tokens))


def test_litellm_tokens_are_none_without_a_logprobs_block() -> None:
    assert _reply_tokens({"logprobs": None}, "Answer: A") is None
    assert _reply_tokens({}, "Answer: A") is None


# -- LiteLLMJudge(logprobs=...) through the real client -------------------------------------


def with_logprobs(text: str, entries: list[tuple[str, float]]) -> Behaviour:
    body = json.loads(ok(text).body)
    body["choices"][0]["logprobs"] = {
        "content": [
            {"token": t, "logprob": lp, "bytes": list(t.encode()), "top_logprobs": []}
            for t, lp in entries
        ]
    }
    return Behaviour(200, json.dumps(body).encode(), {"Content-Type": "application/json"})


@pytest.fixture
def server() -> Iterator[FaultServer]:
    with FaultServer(responder=lambda request: ok("Answer: A")) as running:
        yield running


def judge_at(server: FaultServer, **kwargs: Any) -> LiteLLMJudge:
    return LiteLLMJudge("openai/test-model", api_base=server.base_url, api_key="k", **kwargs)


async def test_logprobs_are_asked_for_and_read_into_tokens(server: FaultServer) -> None:
    server.script(with_logprobs("Answer: A", [("Answer", -0.1), (":", -0.2), (" A", -0.7)]))
    response = await judge_at(server, logprobs=True).complete([{"role": "user", "content": "?"}])
    assert response.text == "Answer: A"
    assert response.tokens == (("Answer", -0.1), (":", -0.2), (" A", -0.7))
    (request,) = server.chat_requests
    assert request.body["logprobs"] is True
    assert request.body["top_logprobs"] == 1  # llama.cpp's server sends none without it


async def test_logprobs_are_off_by_default_and_never_sent(server: FaultServer) -> None:
    server.script(with_logprobs("Answer: A", [("Answer: A", -0.1)]))
    response = await judge_at(server).complete([{"role": "user", "content": "?"}])
    assert response.tokens is None
    (request,) = server.chat_requests
    assert "logprobs" not in request.body
    assert "top_logprobs" not in request.body


async def test_a_reply_without_logprobs_has_no_tokens(server: FaultServer) -> None:
    server.script(ok("Answer: A"))
    response = await judge_at(server, logprobs=True).complete([{"role": "user", "content": "?"}])
    assert response.text == "Answer: A"
    assert response.tokens is None


def test_logprobs_stay_out_of_the_identity(server: FaultServer) -> None:
    plain = judge_at(server).identity()
    assert judge_at(server, logprobs=True).identity() == plain
    assert judge_at(server, logprobs=True, top_logprobs=5).identity() == plain
    assert judge_at(server, top_p=0.5).identity() != plain


def test_logprobs_must_be_a_bool(server: FaultServer) -> None:
    with pytest.raises(UsageError, match="logprobs"):
        judge_at(server, logprobs="yes")


def test_judge_from_spec_turns_logprobs_on_only_when_asked(server: FaultServer) -> None:
    asked = judge_from_spec("openai/test-model", api_base=server.base_url, logprobs=True)
    default = judge_from_spec("openai/test-model", api_base=server.base_url)
    assert isinstance(asked, LiteLLMJudge)
    assert isinstance(default, LiteLLMJudge)
    assert asked.logprobs is True
    assert default.logprobs is False
    with pytest.raises(UsageError, match="logprobs"):
        judge_from_spec("python:json:dumps", logprobs=True)
    with pytest.raises(UsageError, match="logprobs"):
        judge_from_spec("openai/test-model", logprobs=1)  # type: ignore[arg-type]


# -- the real model ---------------------------------------------------------------------------


def confidence(response: JudgeResponse) -> float:
    """exp(sum of the log-probabilities of the tokens that overlap the first label letter)."""
    assert response.text is not None
    assert response.tokens is not None
    found = re.search(r"\b[A-E]\b", response.text)
    start, end = (found.start(), found.end()) if found else (0, len(response.text))
    total, position = 0.0, 0
    for text, logprob in response.tokens:
        if position < end and position + len(text) > start:
            total += logprob
        position += len(text)
    return math.exp(total)


def first_leg_messages() -> list[Any]:
    record = next(itertools.islice(load_mathqa(sample_path("mathqa")), 1))
    return Guard(lambda prompt: "", cache=None).messages(record.item, Polarity.DIRECT)


def check_tokens(response: JudgeResponse) -> None:
    assert response.text
    assert response.tokens
    assert "".join(text for text, _ in response.tokens) == response.text
    for text, logprob in response.tokens:
        assert text
        assert logprob <= 0.0
        assert 0.0 <= math.exp(logprob) <= 1.0


@pytest.mark.model
def test_local_judge_tokens_on_a_real_leg_are_reproducible() -> None:
    from prin_guard import LocalJudge

    judge = LocalJudge(batch_size=1)
    messages = first_leg_messages()
    first = asyncio.run(judge.complete(messages))
    second = asyncio.run(judge.complete(messages))
    check_tokens(first)
    assert first.usage is not None
    assert len(first.tokens or ()) <= (first.usage.completion_tokens or 0)
    # the same reply and tokens; their log-probabilities equal up to float noise: torch's
    # reductions may split differently between calls (other judges in the process set
    # its threads), which moved them in the 5th decimal in 2 of 5 full runs here
    assert (first.text, first.usage) == (second.text, second.usage)
    assert first.tokens is not None and second.tokens is not None
    assert [t for t, _ in first.tokens] == [t for t, _ in second.tokens]
    for (_, a), (_, b) in zip(first.tokens, second.tokens, strict=True):
        assert a == pytest.approx(b, abs=1e-3)
    assert 0.0 < confidence(first) <= 1.0
    assert confidence(first) == pytest.approx(confidence(second), abs=1e-3)


@pytest.mark.model
async def test_litellm_judge_reads_llama_cpp_logprobs(llama_server: str) -> None:
    judge = LiteLLMJudge(
        "openai/smollm2", api_base=llama_server, api_key="no-key", max_tokens=48, logprobs=True
    )
    response = await judge.complete(first_leg_messages())
    check_tokens(response)
    assert 0.0 < confidence(response) <= 1.0
    plain = LiteLLMJudge("openai/smollm2", api_base=llama_server, api_key="no-key")
    assert (
        plain.identity()
        == LiteLLMJudge(
            "openai/smollm2", api_base=llama_server, api_key="no-key", logprobs=True
        ).identity()
    )


# -- top_logprobs: each token's alternatives (a rating's expected score) --------------------


def with_alternatives(text: str, entries: list[tuple[str, float, list[tuple[str, float]]]]):
    body = json.loads(ok(text).body)
    body["choices"][0]["logprobs"] = {
        "content": [
            {
                "token": t,
                "logprob": lp,
                "bytes": list(t.encode()),
                "top_logprobs": [
                    {"token": a, "logprob": alp, "bytes": list(a.encode())} for a, alp in alts
                ],
            }
            for t, lp, alts in entries
        ]
    }
    return Behaviour(200, json.dumps(body).encode(), {"Content-Type": "application/json"})


def _rating_reply(score: str, other: str) -> Behaviour:
    return with_alternatives(
        f"Rating: [[{score}]]",
        [
            ("Rating: [[", 0.0, [("Rating: [[", 0.0)]),
            (score, math.log(0.75), [(score, math.log(0.75)), (other, math.log(0.25))]),
            ("]]", 0.0, [("]]", 0.0)]),
        ],
    )


async def test_top_logprobs_are_asked_for_and_read_into_alternatives(server: FaultServer) -> None:
    server.script(_rating_reply("8", "9"))
    judge = judge_at(server, top_logprobs=20)
    response = await judge.complete([{"role": "user", "content": "?"}])
    (request,) = server.chat_requests
    assert request.body["logprobs"] is True and request.body["top_logprobs"] == 20
    assert response.tokens is not None and response.alternatives is not None
    assert response.alternatives[1] == (("8", math.log(0.75)), ("9", math.log(0.25)))
    with pytest.raises(UsageError, match="top_logprobs"):
        judge_at(server, top_logprobs=21)


def test_a_rating_guarded_through_litellm_has_its_expected_score(server: FaultServer) -> None:
    # over HTTP to a real server on loopback; the answers cached keep their alternatives
    def responder(request: Any) -> Behaviour:
        text = request.body["messages"][-1]["content"]
        mirrored = "how poor the response" in text
        return _rating_reply("3", "4") if mirrored else _rating_reply("8", "9")

    server.responder = responder
    guard = Guard(judge_at(server, top_logprobs=5), cache=MemoryCache())
    item = {"task": "rating", "response": "Paris.", "scale": {"min": 1, "max": 10}}
    first, second = guard.check(item), guard.check(item)
    for verdict in (first, second):
        assert verdict.rating == 8.0 and verdict.expected_from == "logprobs"
        assert verdict.expected_rating == pytest.approx(8.0)  # 8.25 and 7.75 mirrored back
    assert second.cached and len(server.chat_requests) == 2


@pytest.mark.model
async def test_litellm_judge_reads_llama_cpp_top_logprobs(llama_server: str) -> None:
    judge = LiteLLMJudge(
        "openai/smollm2", api_base=llama_server, api_key="no-key", max_tokens=24, top_logprobs=5
    )
    response = await judge.complete(
        [{"role": "user", "content": 'Rate 2 + 2 = 4 on 1 to 10. Reply "Rating: [[n]]".'}]
    )
    check_tokens(response)
    assert response.tokens is not None and response.alternatives is not None
    assert len(response.alternatives) == len(response.tokens)
    for (token, logprob), alternatives in zip(response.tokens, response.alternatives, strict=True):
        assert 1 <= len(alternatives) <= 5
        assert dict(alternatives).get(token, logprob) == pytest.approx(logprob, abs=1e-3)


def test_check_prints_a_ratings_expected_score_with_top_logprobs(
    server: FaultServer, capsys: pytest.CaptureFixture[str]
) -> None:
    from prin_guard.cli import main

    def responder(request: Any) -> Behaviour:
        mirrored = "how poor the response" in request.body["messages"][-1]["content"]
        return _rating_reply("3", "4") if mirrored else _rating_reply("8", "9")

    server.responder = responder
    args = ["check", "--task", "rating", "--question", "Capital of France?"]
    args += ["--response", "Paris.", "--judge", "openai/test-model", "--api-base"]
    args += [server.base_url, "--top-logprobs", "5"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "Rating: 8 on 1-10" in out
    assert "expected rating (from the judge's token probabilities): 8.00" in out
    assert all(r.body["top_logprobs"] == 5 for r in server.chat_requests)
    scripted = ["check", "--task", "rating", "--response", "Paris.", "--judge"]
    assert main([*scripted, "python:nonesuch:judge", "--top-logprobs", "5"]) == 2
    assert "top_logprobs: applies to litellm and local judges only" in capsys.readouterr().err


@pytest.mark.model
def test_the_local_judge_gives_each_tokens_alternatives() -> None:
    from prin_guard import LocalJudge

    judge = LocalJudge(batch_size=1, top_logprobs=5)
    messages = [
        {"role": "user", "content": 'Rate "2 + 2 = 4" from 1 to 10. Reply "Rating: [[n]]".'}
    ]
    response = asyncio.run(judge.complete(messages))
    check_tokens(response)
    assert response.tokens is not None and response.alternatives is not None
    assert len(response.alternatives) == len(response.tokens)
    for (token, logprob), alternatives in zip(response.tokens, response.alternatives, strict=True):
        assert 1 <= len(alternatives) <= 5
        assert dict(alternatives)[token] == pytest.approx(logprob)  # its own among them
        assert [lp for _, lp in alternatives] == sorted(
            (lp for _, lp in alternatives), reverse=True
        )
    plain = asyncio.run(LocalJudge(batch_size=1).complete(messages))
    assert plain.text == response.text and plain.alternatives is None


def test_a_rating_is_asked_in_plain_text_of_a_structured_judge(server: FaultServer) -> None:
    # a judge that constrains labelled answers to a JSON schema of labels must not get one
    # for a rating: its answer is a score
    server.responder = lambda request: ok("Rating: [[8]]")
    judge = judge_at(server, structured=True)
    Guard(judge).check({"task": "rating", "response": "Paris.", "scale": {"min": 1, "max": 10}})
    assert server.chat_requests
    assert all("response_format" not in r.body for r in server.chat_requests)


def test_local_alternatives_are_spelled_as_they_would_have_stood() -> None:
    # a SentencePiece-like decoder drops a token's leading space when it is decoded alone;
    # in context it keeps it, so "7" and "9" compete with " 8" as " 7" and " 9"
    from prin_guard.judges._local_text import _alternatives

    vocab = {1: "Rating:", 2: " 8", 3: " 7", 4: " 9"}

    def decode(ids: Sequence[int]) -> str:
        text = "".join(vocab[i] for i in ids)
        return text.lstrip(" ") if len(ids) == 1 else text

    steps = [[(1, 0.0)], [(2, math.log(0.5)), (3, math.log(0.3)), (4, math.log(0.2))]]
    found = _alternatives(decode, [1, 2], steps, stop_at_answer_line=False)
    assert found == (
        (("Rating:", 0.0),),
        ((" 8", math.log(0.5)), (" 7", math.log(0.3)), (" 9", math.log(0.2))),
    )


# -- log-probabilities a judge should not give (issue 37, item 12) ------------------------


def _rating_with_logprob(logprob: float) -> Any:
    """A function judge rating 7 (4 on the mirrored leg) whose tokens and alternatives
    carry ``logprob`` on items whose response says BAD, honest ones elsewhere."""

    def answer(prompt: str) -> JudgeResponse:
        score = "4" if "how poor the response" in prompt else "7"  # 7 mirrored on 1-10
        value = logprob if "BAD" in prompt else -0.1
        tokens = (("Rating: [[", -0.01), (score, value), ("]]", -0.01))
        text = "".join(token for token, _ in tokens)
        alternatives = tuple(((token, lp), ("x", -5.0)) for token, lp in tokens)
        return JudgeResponse(text=text, tokens=tokens, alternatives=alternatives)

    return answer


@pytest.mark.parametrize(
    "logprob",
    [
        pytest.param(1000.0, id="overflow"),
        pytest.param(0.5, id="positive"),
        pytest.param(math.nan, id="nan"),
        pytest.param(math.inf, id="inf"),
        pytest.param(-math.inf, id="minus-inf"),
    ],
)
def test_bad_log_probabilities_cost_only_their_leg(logprob: float) -> None:
    """Issue 37, item 12: a log-probability of 1000 raised OverflowError for a whole
    check_many (the service answered 500 for the batch), NaN or inf a ValidationError. A
    log-probability is a finite number at most 0: others are dropped on the leg that
    returned them (no expected score there), with a warning; the batch completes."""
    from structlog.testing import capture_logs

    from prin_guard import FunctionJudge

    judge = FunctionJudge(_rating_with_logprob(logprob), name=f"bad-logprobs-{logprob}")
    guard = Guard(judge, checks="reverse")
    items = [
        {"task": "rating", "question": "Say hi.", "response": text, "scale": {"min": 1, "max": 10}}
        for text in ("Hello BAD.", "Hello.")
    ]
    with capture_logs() as events:
        bad, good = guard.check_many(items)
    assert bad.error is None and good.error is None
    assert bad.direct is not None and bad.direct.score == 7
    assert bad.direct.expected_score is None and bad.expected_from == "read"
    assert good.expected_from == "logprobs" and good.expected_rating is not None
    warned = [e for e in events if e["event"] == "judge_logprobs_invalid"]
    assert warned and all(e["log_level"] == "warning" for e in warned)
