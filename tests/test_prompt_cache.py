"""The guard's legs and a provider's prompt cache: what the legs share comes first, byte for
byte; the first leg goes ahead, marked for the cache (Anthropic's ``cache_control``,
OpenAI's ``prompt_cache_key``), and the others once it has begun answering; the usage the
provider reports (cached and written prompt tokens) reaches every leg.

The provider is a real HTTP server on loopback that litellm talks to as it would to
Anthropic or OpenAI (``fault_server``), with a prompt cache of its own: a prompt's prefix
is cached once the provider has begun answering it, and a later prompt that starts with
it is billed as read from the cache.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator, Sequence
from typing import Any

import pytest
from _helpers import HANG
from fault_server import (
    Behaviour,
    FaultServer,
    RecordedRequest,
    anthropic_message,
    anthropic_stream,
    ok,
    openai_stream,
)

from prin_guard import Guard, Item, LiteLLMJudge
from prin_guard._prompting._prompts import build_messages, get_template
from prin_guard._route._legs import shared_prefix
from prin_guard.errors import TransientJudgeError
from prin_guard.judges import JudgeResponse, SharedPrefix, Stagger
from prin_guard.models import Candidate, Message, Mitigation, Polarity

# -- a provider with a prompt cache, on loopback --------------------------------------------


def _words(seed: str, n: int) -> str:
    vocabulary = ["river", "stone", "light", "garden", "window"]
    vocabulary += ["morning", "letter", "silver", "quiet", "market"]
    return " ".join(f"{vocabulary[(i * 7 + len(seed)) % 10]}{i % 13}" for i in range(n))


LONG_PAIR = Item(
    task="pairwise",
    question="Summarise the report below in two sentences.\n" + _words("report", 600),
    candidates=["The report says " + _words("a", 400), "In short, " + _words("bb", 400)],
    id="long-pair",
)
"""A pairwise item of about 2,000 tokens: long enough for every provider's cache."""
SHORT_PAIR = Item(task="pairwise", question="Name a colour.", candidates=["Blue.", "Seven."])


def _tokens(text: str) -> int:
    return len(text) // 4


class CachingProvider:
    """Answers like Anthropic (``/v1/messages``) or OpenAI (``/chat/completions``), and
    caches prompt prefixes: Anthropic's up to the block marked ``cache_control``, OpenAI's
    whole prompt, each once the provider has begun answering it (its first byte).

    ``together``: hold every answer until that many requests have arrived (legs sent at
    once arrive before any answer has begun, as they do at a real provider).
    """

    def __init__(self, together: int = 0) -> None:
        self.cached: list[str] = []
        self.events: list[tuple[str, int]] = []
        """("arrived", n) and ("began", n) in the order they happened."""
        self._lock = threading.Lock()
        self._arrivals = threading.Condition(self._lock)
        self._together = together
        self.server = FaultServer(responder=self)

    def __call__(self, request: RecordedRequest) -> Behaviour:
        with self._lock:
            number = sum(1 for kind, _ in self.events if kind == "arrived")
            self.events.append(("arrived", number))
            self._arrivals.notify_all()
            if self._together:
                self._arrivals.wait_for(
                    lambda: (
                        sum(1 for kind, _ in self.events if kind == "arrived") >= self._together
                    ),
                    timeout=HANG,
                )
            text, marked = _prompt(request.body)
            anthropic = request.path.endswith("/messages")
            if anthropic:  # a marked prefix, whole, up to one of this prompt's marks
                read = max((len(p) for p in self.cached if p in marked), default=0)
            else:  # any prefix of a prompt seen, in steps of 128 tokens
                read = max((_common(text, p) for p in self.cached), default=0) // 512 * 512
        reverse = "worse one" in text
        answer = "Answer: B" if reverse else "Answer: A"
        cacheable = marked if anthropic else [text]

        def began() -> None:
            with self._lock:
                self.events.append(("began", number))
                self.cached.extend(cacheable)

        prompt, cached = _tokens(text), _tokens(text[:read])
        stream = bool(request.body.get("stream"))
        if anthropic:
            written = _tokens(marked[-1]) - cached if marked else 0
            usage = {
                "input_tokens": prompt - cached - written,
                "cache_read_input_tokens": cached,
                "cache_creation_input_tokens": written,
                "output_tokens": 4,
            }
            maker = anthropic_stream if stream else anthropic_message
            return maker(answer, usage, on_first_byte=began)
        usage = {
            "prompt_tokens": prompt,
            "completion_tokens": 4,
            "total_tokens": prompt + 4,
            "prompt_tokens_details": {"cached_tokens": cached},
        }
        if stream:
            return openai_stream(answer, usage, on_first_byte=began)
        return Behaviour(**{**ok(answer, usage).__dict__, "on_first_byte": began})

    def began_before_arrived(self, first: int, second: int) -> bool:
        return self.events.index(("began", first)) < self.events.index(("arrived", second))


def _common(a: str, b: str) -> int:
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


def _prompt(body: Any) -> tuple[str, list[str]]:
    """The prompt's text (every message's content joined) and its parts up to the end of
    each block marked for Anthropic's cache."""
    text, marked = "", []
    for message in [
        *([{"content": body["system"]}] if body.get("system") else []),
        *body["messages"],
    ]:
        content = message["content"]
        if isinstance(content, str):
            text += content
            continue
        for block in content:
            text += block.get("text", "")
            if "cache_control" in block:
                marked.append(text)
    return text, marked


@pytest.fixture
def provider() -> Iterator[CachingProvider]:
    made = CachingProvider()
    with made.server:
        yield made


@pytest.fixture
def together() -> Iterator[CachingProvider]:
    made = CachingProvider(together=2)
    with made.server:
        yield made


def anthropic(provider: CachingProvider) -> LiteLLMJudge:
    return LiteLLMJudge(
        "anthropic/claude-sonnet-4-5",
        api_base=f"http://127.0.0.1:{provider.server.port}",
        api_key="sk-ant-test",
        timeout=HANG,
    )


def openai(provider: CachingProvider) -> LiteLLMJudge:
    # an OpenAI model behind a gateway of one's own: litellm knows it caches
    return LiteLLMJudge(
        "openai/gpt-4.1", api_base=provider.server.base_url, api_key="sk-test", timeout=HANG
    )


# -- the layout -----------------------------------------------------------------------------


class Recording:
    """A judge that records each prompt with the prefix it was given; its provider
    caches prefixes as ``mode`` says."""

    def __init__(self, mode: Stagger | None) -> None:
        self.mode = mode
        self.calls: list[tuple[str, SharedPrefix | None]] = []

    def identity(self) -> dict[str, Any]:
        return {"kind": "test", "name": "recording"}

    def prefix_caching(self, messages: Sequence[Message], prefix: SharedPrefix) -> Stagger | None:
        return self.mode

    async def complete(
        self,
        messages: Sequence[Message],
        *,
        labels: Sequence[str] = (),
        prefix: SharedPrefix | None = None,
    ) -> JudgeResponse:
        text = messages[-1]["content"]
        self.calls.append((text, prefix))
        return JudgeResponse(
            text="Answer: B" if "worse one" in text or "incorrect" in text else "Answer: A"
        )


@pytest.mark.parametrize(
    ("item", "template"),
    [
        pytest.param(LONG_PAIR, "pairwise", id="pairwise"),
        pytest.param(
            Item(task="checklist", response="It rained.", candidates=["Short", "Polite"]),
            "criteria",
            id="criteria",
        ),
        pytest.param(
            Item(
                task="checklist",
                response="It rained.",
                candidates=["It rained", "It snowed"],
                context="The log says rain.",
            ),
            "claims",
            id="claims",
        ),
    ],
)
@pytest.mark.parametrize("cot", [False, True], ids=["plain", "cot"])
def test_the_legs_share_the_whole_item_first_and_differ_only_in_their_instruction(
    item: Item, template: str, cot: bool
) -> None:
    reasoned = item.model_copy(
        update={
            "candidates": tuple(
                Candidate(text=c.text, label=c.label, reasoning=f"Because {c.label}.")
                for c in item.candidates
            )
        }
    )
    mitigations = (Mitigation.COT, Mitigation.NEG_EXP) if cot else (Mitigation.NEG_EXP,)
    legs = [
        build_messages(reasoned, polarity, get_template(template), mitigations)
        for polarity in Polarity
    ]
    prefix = shared_prefix(legs)
    assert prefix is not None
    shared, own = prefix.split(legs[0])
    for candidate in reasoned.candidates:
        assert candidate.text.strip() in shared
        if cot:
            assert f"Because {candidate.label}." in shared  # the reasoning paths too
    # what is left is the leg's own instruction: its word, the answer format
    assert own.startswith("Now please output")
    assert len(own) < 400
    assert prefix.split(legs[1])[0] == shared


RATED = {
    "task": "rating",
    "question": "Summarize the report in two sentences.",
    "response": "The report finds that sales rose. " * 20,
    "scale": {"min": 1, "max": 5},
}


@pytest.mark.parametrize(
    ("item", "options"),
    [
        pytest.param(RATED, {}, id="plain"),
        pytest.param(
            {**RATED, "reference": "Sales rose 4%.", "context": "A quarterly report."},
            {},
            id="reference-context",
        ),
        pytest.param(
            {
                **RATED,
                "scale": {
                    "min": 1,
                    "max": 5,
                    "rubric": {str(n): f"level {n}" for n in range(1, 6)},
                },
            },
            {"checks": "reverse,order"},
            id="rubric-order",
        ),
        pytest.param({**RATED, "aspects": ["coherence", "fluency"]}, {}, id="an-aspect"),
        pytest.param(
            {**RATED, "aspects": ["coherence", "fluency"]},
            {"rating_aspects": "together"},
            id="aspects-together",
        ),
    ],
)
def test_a_ratings_legs_share_the_whole_item_first(item: dict, options: dict) -> None:
    # issue 39, item 6: the default rating prompt put its instruction first, so the
    # mirrored leg shared the system message and a few words with the direct one (25 of
    # about 700 prompt tokens from llama.cpp's cache); the item comes first now
    prompts = Guard(lambda prompt: "", cache=None, **options).prompts(item)
    legs = [leg.messages for leg in prompts if not leg.name.startswith("fluency")]
    prefix = shared_prefix(legs)
    assert prefix is not None
    shared, own = prefix.split(legs[0])
    for text in (item["question"], item["response"], item.get("reference"), item.get("context")):
        assert text is None or text in shared
    # what is left is each leg's own instruction (its question, its scale, its rubric)
    assert shared.endswith("[The End of Assistant's Answer]\n\n[Instruction]\n")
    assert own.startswith("Please act as an impartial judge") and item["response"] not in own
    for leg in legs[1:]:
        assert prefix.split(leg)[0] == shared


async def test_the_second_order_legs_share_their_own_prefix() -> None:
    judge = Recording("delay")
    await Guard(judge, cache=None, checks="reverse,order", stagger_delay=0.0).acheck(LONG_PAIR)
    shown_first = [prefix for text, prefix in judge.calls if "Response A:\n```\nThe report" in text]
    shown_second = [prefix for text, prefix in judge.calls if "Response A:\n```\nIn short" in text]
    assert len(shown_first) == len(shown_second) == 2
    assert None not in shown_first + shown_second
    assert len({p.key for p in shown_first}) == len({p.key for p in shown_second}) == 1  # type: ignore[union-attr]
    assert shown_first[0].key != shown_second[0].key  # type: ignore[union-attr]


async def test_the_papers_choice_templates_keep_their_sentence_unless_asked() -> None:
    item = Item(question="2 + 2?", candidates=["3", "4"])
    (paper,) = build_messages(item, Polarity.DIRECT, get_template("v0"), ())
    assert '"A) 3", "B) 4", please output the correct ones.\n' in paper["content"]
    (shared,) = build_messages(item, Polarity.DIRECT, get_template("v0"), (), layout="shared_first")
    assert '"A) 3", "B) 4".\nNow please output the correct ones.\n' in shared["content"]
    # another prompt, so another answer: not one from the cache of the other layout
    judge = Recording(None)
    guard = Guard(judge)
    await guard.acheck(item)
    await Guard(judge, cache=guard.cache, prompt_layout="shared_first").acheck(item)
    assert len(judge.calls) == 4
    # for a task template both layouts are the same prompt: the same cached answers
    await guard.acheck(SHORT_PAIR)
    await Guard(judge, cache=guard.cache, prompt_layout="shared_first").acheck(SHORT_PAIR)
    assert len(judge.calls) == 8  # the pair's four legs (both orders), asked once


# -- staggered legs, through litellm, at a provider with a prompt cache ------------------------


async def test_anthropic_legs_mark_the_shared_block_and_the_second_reads_it(
    provider: CachingProvider,
) -> None:
    guard = Guard(anthropic(provider), cache=None, checks="reverse")
    verdict = await guard.acheck(LONG_PAIR)
    assert verdict.winner == "A" and verdict.consistent
    first, second = provider.server.chat_requests
    assert provider.began_before_arrived(0, 1)  # the second went once the first had begun
    assert first.body.get("stream") is True
    blocks = [request.body["messages"][-1]["content"] for request in (first, second)]
    for content, polarity in zip(blocks, Polarity, strict=True):
        assert content[0]["cache_control"] == {"type": "ephemeral"}
        assert "cache_control" not in content[1]
        # the blocks join to the prompt as the guard writes it: nothing else changed
        joined = "".join(block["text"] for block in content)
        assert joined == guard.messages(LONG_PAIR, polarity)[-1]["content"]
    assert blocks[0][0]["text"] == blocks[1][0]["text"]  # byte for byte
    assert len(blocks[0][0]["text"]) > 0.9 * len("".join(b["text"] for b in blocks[0]))
    assert verdict.direct is not None and verdict.reverse is not None
    direct, reverse = verdict.direct.usage, verdict.reverse.usage
    assert direct is not None and reverse is not None
    assert direct.cache_write_tokens and not direct.cached_prompt_tokens
    assert reverse.cached_prompt_tokens == direct.cache_write_tokens
    assert verdict.usage.cached_prompt_tokens == reverse.cached_prompt_tokens
    assert verdict.usage.cache_write_tokens == direct.cache_write_tokens
    # priced by litellm at Anthropic's prices: writes 1.25x (in the direct leg's price
    # too), reads 0.1x
    assert verdict.premium is not None and 1.0 < verdict.premium < 1.3


LONG_RATING = {
    "task": "rating",
    "question": LONG_PAIR.question,
    "response": LONG_PAIR.candidates[0].text,
    "scale": {"min": 1, "max": 10},
    "id": "long-rating",
}


async def test_a_ratings_mirrored_leg_waits_for_the_direct_one_and_reads_the_item(
    provider: CachingProvider,
) -> None:
    # issue 39, item 6: a rating's legs went at once, unmarked: each paid the whole prompt
    guard = Guard(anthropic(provider), cache=None)
    verdict = await guard.acheck(LONG_RATING)
    first, second = provider.server.chat_requests
    assert provider.began_before_arrived(0, 1)
    assert first.body.get("stream") is True
    blocks = [request.body["messages"][-1]["content"] for request in (first, second)]
    for content, polarity in zip(blocks, Polarity, strict=True):
        assert content[0]["cache_control"] == {"type": "ephemeral"}
        joined = "".join(block["text"] for block in content)
        assert joined == guard.messages(LONG_RATING, polarity)[-1]["content"]
    assert blocks[0][0]["text"] == blocks[1][0]["text"]
    assert LONG_RATING["response"] in blocks[0][0]["text"]
    assert verdict.direct is not None and verdict.reverse is not None
    direct, reverse = verdict.direct.usage, verdict.reverse.usage
    assert direct is not None and reverse is not None
    assert direct.cache_write_tokens and reverse.cached_prompt_tokens == direct.cache_write_tokens
    assert verdict.premium is not None and 1.0 < verdict.premium < 1.3


async def test_openai_legs_carry_one_prompt_cache_key_and_the_second_reads_the_cache(
    provider: CachingProvider,
) -> None:
    guard = Guard(openai(provider), cache=None, checks="reverse")
    verdict = await guard.acheck(LONG_PAIR)
    first, second = provider.server.chat_requests
    assert provider.began_before_arrived(0, 1)
    assert first.body["stream"] is True
    assert first.body["stream_options"] == {"include_usage": True}
    assert "stream" not in second.body
    keys = {request.body["prompt_cache_key"] for request in (first, second)}
    assert len(keys) == 1 and keys.pop().startswith("prin-guard-")

    for request, polarity in zip((first, second), Polarity, strict=True):
        # OpenAI caches by prefix on its own: the prompt is sent as the guard writes it
        assert request.body["messages"] == guard.messages(LONG_PAIR, polarity)
    assert verdict.reverse is not None and verdict.reverse.usage is not None
    assert verdict.reverse.usage.cached_prompt_tokens
    assert verdict.direct is not None and verdict.direct.usage is not None
    assert verdict.direct.usage.cached_prompt_tokens == 0
    assert verdict.premium is not None and verdict.premium < 1.5


async def test_every_leg_of_a_verdict_carries_the_items_prompt_cache_key(
    provider: CachingProvider,
) -> None:
    # the second order's legs share another prefix, but meet the same cache: its common
    # part with the first order's (the instruction) is read too
    other = Item(**{**LONG_PAIR.model_dump(), "id": "another"})
    guard = Guard(openai(provider), cache=None, checks="reverse,order")
    await guard.acheck(LONG_PAIR)
    await guard.acheck(other)
    keys = [request.body.get("prompt_cache_key") for request in provider.server.chat_requests]
    assert len(keys) == 8 and None not in keys
    assert len(set(keys[:4])) == 1 and len(set(keys[4:])) == 1 and keys[0] != keys[4]


async def test_the_order_checks_legs_read_what_every_leg_shares(
    provider: CachingProvider,
) -> None:
    verdict = await Guard(anthropic(provider), cache=None, checks="reverse,order").acheck(LONG_PAIR)
    requests = provider.server.chat_requests
    assert len(requests) == 4
    blocks = [request.body["messages"][-1]["content"] for request in requests]
    # what every leg shares (the instruction), what each order's legs share, the leg's own
    assert all(len(content) == 3 for content in blocks)
    assert len({content[0]["text"] for content in blocks}) == 1
    assert all("cache_control" in content[1] for content in blocks)
    # the second order's first leg went once the first order's had begun, and read the
    # instruction from the cache; its second leg read its whole prefix
    assert provider.began_before_arrived(0, 1) and provider.began_before_arrived(0, 2)
    second_order = verdict.permuted
    assert second_order[0].usage is not None and second_order[1].usage is not None
    common = _tokens(blocks[0][0]["text"])
    assert second_order[0].usage.cached_prompt_tokens == common
    assert (second_order[1].usage.cached_prompt_tokens or 0) > common
    assert verdict.premium is not None and verdict.premium < 2.6


async def test_the_swap_checks_one_leg_waits_for_the_first_and_reads_the_instruction(
    provider: CachingProvider,
) -> None:
    # three legs: the swapped direct leg shares only the instruction with the others; sent
    # at once it would miss the cache and cost more than the order check's four legs
    verdict = await Guard(anthropic(provider), cache=None, checks="reverse,swap").acheck(LONG_PAIR)
    requests = provider.server.chat_requests
    assert len(requests) == 3
    blocks = [request.body["messages"][-1]["content"] for request in requests]
    swapped = next(b for b, r in zip(blocks, requests, strict=True) if len(b) == 2)
    assert "cache_control" in swapped[0] and swapped[0]["text"] == blocks[0][0]["text"]
    assert provider.began_before_arrived(0, 1) and provider.began_before_arrived(0, 2)
    (second,) = verdict.permuted
    assert second.usage is not None
    assert second.usage.cached_prompt_tokens == _tokens(swapped[0]["text"]) > 0
    assert verdict.premium is not None and verdict.premium < 2.6


async def test_with_stagger_off_the_legs_go_at_once_unmarked_and_miss_the_cache(
    together: CachingProvider,
) -> None:
    # both requests must arrive before either is answered, or the provider waits (HANG)
    verdict = await Guard(anthropic(together), cache=None, stagger="off", checks="reverse").acheck(
        LONG_PAIR
    )
    for request in together.server.chat_requests:
        assert "stream" not in request.body
        content = request.body["messages"][-1]["content"]
        assert all("cache_control" not in block for block in content)
    assert verdict.reverse is not None and verdict.reverse.usage is not None
    assert verdict.reverse.usage.cached_prompt_tokens == 0
    assert verdict.premium is not None and verdict.premium > 1.9


async def test_a_prompt_below_the_providers_minimum_goes_at_once(
    together: CachingProvider,
) -> None:
    await Guard(openai(together), cache=None, checks="reverse").acheck(SHORT_PAIR)
    for request in together.server.chat_requests:
        assert "prompt_cache_key" not in request.body and "stream" not in request.body


async def test_a_model_litellm_knows_no_cache_of_goes_at_once(together: CachingProvider) -> None:
    judge = LiteLLMJudge(
        "openai/my-model", api_base=together.server.base_url, api_key="k", timeout=HANG
    )
    await Guard(judge, cache=None, checks="reverse").acheck(LONG_PAIR)
    assert all("prompt_cache_key" not in r.body for r in together.server.chat_requests)


async def test_a_server_said_to_cache_any_prefix_staggers_without_markers(
    provider: CachingProvider,
) -> None:
    # llama.cpp's or vLLM's prefix cache: prompt_cache=0, no key, no blocks
    judge = LiteLLMJudge(
        "openai/my-model",
        api_base=provider.server.base_url,
        api_key="k",
        timeout=HANG,
        prompt_cache=0,
    )
    verdict = await Guard(judge, cache=None, checks="reverse").acheck(LONG_PAIR)
    first, _ = provider.server.chat_requests
    assert provider.began_before_arrived(0, 1)
    assert "prompt_cache_key" not in first.body and isinstance(
        first.body["messages"][-1]["content"], str
    )
    assert verdict.reverse is not None and verdict.reverse.usage is not None
    assert verdict.reverse.usage.cached_prompt_tokens


async def test_with_log_probabilities_the_first_leg_is_not_streamed(
    provider: CachingProvider,
) -> None:
    judge = LiteLLMJudge(
        "openai/gpt-4.1",
        api_base=provider.server.base_url,
        api_key="sk-test",
        timeout=HANG,
        logprobs=True,
    )
    # the others wait the delay, or until the first has answered, whichever comes first
    await Guard(judge, cache=None, stagger_delay=30.0, checks="reverse").acheck(LONG_PAIR)
    first, second = provider.server.chat_requests
    assert "stream" not in first.body
    assert first.body["prompt_cache_key"] == second.body["prompt_cache_key"]
    assert provider.began_before_arrived(0, 1)


# -- what a provider reports ------------------------------------------------------------------


async def test_a_reply_without_cache_details_leaves_them_unknown() -> None:
    with FaultServer(responder=lambda _: ok("Answer: A")) as server:
        judge = LiteLLMJudge("openai/my-model", api_base=server.base_url, api_key="k")
        response = await judge.complete([{"role": "user", "content": "Which?"}])
    assert response.usage is not None and response.usage.prompt_tokens == 12
    assert response.usage.cached_prompt_tokens is None
    assert response.usage.cache_write_tokens is None


def _streaming(server: FaultServer) -> LiteLLMJudge:
    return LiteLLMJudge(
        "openai/my-model", api_base=server.base_url, api_key="k", timeout=HANG, prompt_cache=0
    )


async def test_a_stream_without_usage_leaves_the_usage_unknown_not_estimated() -> None:
    # llama-cpp-python's server streams no usage; litellm would estimate it with another
    # model's tokenizer: a made-up count, not reported
    began: list[bool] = []
    with FaultServer(responder=lambda _: openai_stream("Answer: A", with_usage=False)) as server:
        prefix = SharedPrefix(chars=5, key="k", started=lambda: began.append(True))
        response = await _streaming(server).complete(
            [{"role": "user", "content": "Which?\nAnswer."}], prefix=prefix
        )
        (request,) = server.chat_requests
    assert began == [True] and request.body["stream"] is True
    assert response.text == "Answer: A"
    assert response.usage is None


async def test_a_streamed_reply_from_a_model_litellm_cannot_price_prints_nothing(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # litellm's stream builder printed its provider list to stdout for every streamed
    # leg of a model it has no price for (the server names it "test-model")
    import litellm

    before = litellm.suppress_debug_info
    with FaultServer(responder=lambda _: openai_stream("Answer: A")) as server:
        prefix = SharedPrefix(chars=5, key="k", started=lambda: None)
        response = await _streaming(server).complete(
            [{"role": "user", "content": "Which?\nAnswer."}], prefix=prefix
        )
    assert response.text == "Answer: A"
    assert capsys.readouterr().out == ""
    assert litellm.suppress_debug_info is before


async def test_a_stream_cut_short_is_a_transient_failure_not_a_short_reply() -> None:
    with FaultServer(responder=lambda _: openai_stream("Answer: A", finish=False)) as server:
        prefix = SharedPrefix(chars=5, key="k", started=lambda: None)
        with pytest.raises(TransientJudgeError):
            await _streaming(server).complete(
                [{"role": "user", "content": "Which?\nAnswer."}], prefix=prefix
            )


# -- the engine's side: when the others go --------------------------------------------------


class Holding:
    """A judge whose provider caches prefixes: the first leg tells it has begun, then
    holds its answer until a second leg has arrived (so a test hangs, and fails on
    ``HANG``, if the others waited for the first to finish)."""

    def __init__(self, mode: Stagger | None = "stream") -> None:
        self.mode = mode
        self.calls: list[tuple[str, SharedPrefix | None]] = []
        self.arrived = asyncio.Event()
        self.asked_before_start: int | None = None

    def identity(self) -> dict[str, Any]:
        return {"kind": "test", "name": "holding"}

    def prefix_caching(self, messages: Sequence[Message], prefix: SharedPrefix) -> Stagger | None:
        return self.mode

    async def complete(
        self,
        messages: Sequence[Message],
        *,
        labels: Sequence[str] = (),
        prefix: SharedPrefix | None = None,
    ) -> JudgeResponse:
        reverse = "worse one" in messages[-1]["content"]
        self.calls.append(("reverse" if reverse else "direct", prefix))
        if prefix is not None and prefix.started is not None:
            for _ in range(20):  # the others, asked at once, would have arrived by now
                await asyncio.sleep(0)
            self.asked_before_start = len(self.calls)
            prefix.started()
            await asyncio.wait_for(self.arrived.wait(), HANG)
        else:
            self.arrived.set()
        return JudgeResponse(text="Answer: B" if reverse else "Answer: A")


async def test_the_other_legs_go_once_the_first_has_begun_answering() -> None:
    judge = Holding()
    verdict = await Guard(judge, cache=None, checks="reverse").acheck(SHORT_PAIR)
    assert verdict.winner == "A"
    assert judge.asked_before_start == 1  # only the first, until it had begun
    (lead, lead_prefix), (other, other_prefix) = judge.calls
    assert (lead, other) == ("direct", "reverse")
    assert lead_prefix is not None and other_prefix is not None
    assert lead_prefix.key == other_prefix.key and other_prefix.started is None


async def test_a_judge_that_cannot_tell_when_it_began_releases_the_others_when_it_answers() -> None:
    class Answering(Holding):
        async def complete(self, messages: Sequence[Message], **kwargs: Any) -> JudgeResponse:
            reverse = "worse one" in messages[-1]["content"]
            self.calls.append(("reverse" if reverse else "direct", kwargs.get("prefix")))
            return JudgeResponse(text="Answer: B" if reverse else "Answer: A")

    judge = Answering(mode="delay")
    # a delay far beyond HANG: only the first leg's answer can release the second
    verdict = await asyncio.wait_for(
        Guard(judge, cache=None, stagger_delay=30.0, checks="reverse").acheck(SHORT_PAIR), HANG
    )
    assert verdict.winner == "A"
    assert [name for name, _ in judge.calls] == ["direct", "reverse"]
    assert judge.calls[0][1] is not None and judge.calls[0][1].started is None


@pytest.mark.parametrize(
    ("mode", "options"),
    [
        pytest.param(None, {}, id="no-prefix-cache"),
        pytest.param("stream", {"stagger": "off"}, id="stagger-off"),
    ],
)
async def test_otherwise_every_leg_goes_at_once_without_a_prefix(
    mode: Stagger | None, options: dict[str, Any]
) -> None:
    class AtOnce(Holding):
        async def complete(self, messages: Sequence[Message], **kwargs: Any) -> JudgeResponse:
            reverse = "worse one" in messages[-1]["content"]
            self.calls.append(("reverse" if reverse else "direct", kwargs.get("prefix")))
            if len(self.calls) == 2:
                self.arrived.set()
            await asyncio.wait_for(self.arrived.wait(), HANG)  # both in flight at once
            return JudgeResponse(text="Answer: B" if reverse else "Answer: A")

    judge = AtOnce(mode)
    await Guard(judge, cache=None, **options, checks="reverse").acheck(SHORT_PAIR)
    assert [prefix for _, prefix in judge.calls] == [None, None]


async def test_an_answer_in_the_cache_is_not_waited_for() -> None:
    judge = Holding()
    guard = Guard(judge, checks="reverse")
    await guard.acheck(SHORT_PAIR)
    judge.calls.clear()
    # the direct leg is cached now; a new reverse leg (another item's) ... and this one:
    # nothing to stagger, the cached answer costs no call
    again = await guard.acheck(SHORT_PAIR)
    assert again.cached and judge.calls == []
