"""LiteLLMJudge against a real model behind a real OpenAI-compatible server:
llama.cpp's server with the bundled SmolLM2 GGUF, on loopback. Assertions are
about structure, not about the tiny model's accuracy."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import urllib.request
from collections.abc import Callable

import pytest
from conftest import LlamaServer

from prin_guard import Guard, Item, LiteLLMJudge
from prin_guard._route._legs import shared_prefix
from prin_guard.models import ParseMethod, ParseStatus, Polarity

pytestmark = pytest.mark.model

QUESTION = (
    "If n is an integer and 101 n^2 is at most 10000, what is the greatest possible value of n?"
)


def _item() -> dict[str, object]:
    return {"question": QUESTION, "candidates": ["7", "8", "9", "10", "11"], "id": "table1"}


async def test_text_format_both_legs_and_usage(llama_server: str) -> None:
    judge = LiteLLMJudge("openai/smollm2", api_base=llama_server, api_key="no-key")
    verdict = await Guard(judge).acheck(_item())
    for leg in (verdict.direct, verdict.reverse):
        assert leg is not None
        assert leg.output_format == "text"
        assert leg.raw_text
        assert leg.usage is not None
        assert (leg.usage.prompt_tokens or 0) > 50
        assert (leg.usage.completion_tokens or 0) > 0
    assert verdict.prin_score is not None
    assert verdict.usage.prompt_tokens == (
        verdict.direct.usage.prompt_tokens + verdict.reverse.usage.prompt_tokens  # type: ignore[union-attr, operator]
    )


async def test_structured_format_constrains_the_answer_to_labels(llama_server: str) -> None:
    # llama.cpp holds the answer to the schema with a grammar, but its string rule admits
    # raw line breaks, and the tiny model may reason until max_tokens (with none, to the
    # context's end: CI once timed out at litellm's 60 s). A complete object is read as the
    # answer; a cut-off one is never read as one. Temperature 0: on this build the
    # reverse leg closes its object (117 tokens), the direct leg runs to the bound.
    judge = LiteLLMJudge(
        "openai/smollm2",
        api_base=llama_server,
        api_key="no-key",
        structured="json_object",
        max_tokens=512,
        timeout=600.0,
    )
    verdict = await Guard(judge).acheck(_item())
    read = 0
    for leg in (verdict.direct, verdict.reverse):
        assert leg is not None
        assert leg.output_format == "json"
        text = leg.raw_text or ""
        assert text.lstrip().startswith("{")  # the grammar held from the first token
        try:
            payload = json.loads(text, strict=False)
        except ValueError:
            assert leg.parse_method is not ParseMethod.STRUCTURED
            continue
        read += 1
        assert set(payload["labels"]) <= set("ABCDE")
        assert leg.parse_method is ParseMethod.STRUCTURED
        assert leg.parse_status in (ParseStatus.OK, ParseStatus.NONE)
        assert set(leg.labels) == set(payload["labels"])
    assert read >= 1


async def test_batch_is_cached_and_second_pass_makes_no_calls(llama_server: str) -> None:
    judge = LiteLLMJudge("openai/smollm2", api_base=llama_server, api_key="no-key", max_tokens=24)
    guard = Guard(judge, concurrency=2)
    items = [
        {"question": f"What is {a} + {b}?", "candidates": [str(a + b), str(a + b + 1)]}
        for a, b in [(1, 2), (3, 4), (5, 6)]
    ]
    first = await guard.acheck_many(items)
    assert guard.judge_calls == 6
    second = await guard.acheck_many(items)
    assert guard.judge_calls == 6
    assert all(v.cached for v in second)
    assert [v.correct for v in first] == [v.correct for v in second]


def test_cli_check_against_the_llama_cpp_server(llama_server: str) -> None:
    args = [
        "check",
        "--judge",
        "openai/smollm2",
        "--api-base",
        llama_server,
        "--question",
        QUESTION,
        "--json",
    ]
    for candidate in ["7", "8", "9", "10", "11"]:
        args += ["--candidate", candidate]
    env_without_key = {k: v for k, v in __import__("os").environ.items() if k != "OPENAI_API_KEY"}
    out = subprocess.run(
        [sys.executable, "-m", "prin_guard.cli", *args],
        capture_output=True,
        text=True,
        timeout=300,
        env=env_without_key,
        check=False,
    )
    assert out.returncode == 0, out.stderr
    verdict = json.loads(out.stdout)  # stdout holds the verdict only
    assert verdict["direct"]["raw_text"] and verdict["reverse"]["raw_text"]
    assert 0.0 <= verdict["prin_score"] <= 1.0


# -- the server's prompt cache: the second leg reads the prefix the legs share ---------------

_PREFIX_HIT = re.compile(r"Llama\.generate: (\d+) prefix-match hit, remaining (\d+) prompt tokens")


def _pair(n: int) -> Item:
    words = ["river", "stone", "light", "garden", "window", "morning", "letter", "silver"]
    text = " ".join(f"{words[(i * 3 + n) % 8]}{i % 11}" for i in range(220))
    return Item(
        task="pairwise",
        question=f"Item {n}. Summarise these notes in one sentence.\n{text}",
        candidates=[f"The notes list {words[n]} and more.", f"They are about {words[n + 1]}."],
        id=f"notes-{n}",
    )


def _tokens(server: LlamaServer, text: str) -> int:
    request = urllib.request.Request(
        server.base.removesuffix("/v1") + "/extras/tokenize",
        data=json.dumps({"input": text}).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        return len(json.loads(response.read())["tokens"])


@pytest.mark.parametrize(
    "slots",
    [
        # one cached context, the server's last prompt: verdicts one after the other
        pytest.param((), id="one-slot"),
        # several saved contexts (llama-cpp-python's RAM cache of prompt states): two
        # verdicts at once, their legs interleaved at the server
        pytest.param(("--cache", "true"), id="several-slots"),
    ],
)
async def test_the_second_leg_reads_the_shared_prefix_from_the_servers_cache(
    start_llama_server: Callable[..., LlamaServer], slots: tuple[str, ...]
) -> None:
    # A streamed reply must not be cut short when the next leg arrives.
    server = start_llama_server("--interrupt_requests", "false", *slots)
    judge = LiteLLMJudge(
        "openai/smollm2", api_base=server.base, api_key="no-key", max_tokens=8, prompt_cache=0
    )
    guard = Guard(judge, cache=None)
    items = [_pair(0), _pair(1)]
    if slots:
        verdicts = await guard.acheck_many(items)
    else:
        verdicts = [await guard.acheck(item) for item in items]
    # the server's own report: per request, the prompt tokens it took from its cache and
    # those it computed
    hits = [(int(a), int(b)) for a, b in _PREFIX_HIT.findall(server.output())]
    for item, verdict in zip(items, verdicts, strict=True):
        legs = [guard.messages(item, polarity) for polarity in Polarity]
        prefix = shared_prefix(legs)
        assert prefix is not None
        shared = _tokens(server, prefix.split(legs[0])[0])
        assert shared > 300
        reverse = verdict.reverse
        assert reverse is not None and reverse.usage is not None
        # the reverse leg went second (after the direct one had begun answering)
        read = [cached for cached, left in hits if cached + left == reverse.usage.prompt_tokens]
        assert read and max(read) >= 0.8 * shared, (read, shared, hits)
