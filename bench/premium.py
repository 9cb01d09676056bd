"""13. The guard's premium: what a guarded verdict costs over one unguarded call.

Run in one go, side by side, on a pairwise item of about 2,000 tokens (real text: LLMBar
Natural instructions and outputs), a new item every round so that no round reads another's
cache:

A. llama.cpp's server (llama-cpp-python, the bundled GGUF, on loopback; one request at a
   time, ``--interrupt_requests false`` so that a streamed reply is not cut short by the
   next request): the unguarded call (the direct question alone), the guarded verdict
   with its legs sent at once (``stagger="off"``), staggered (``stagger="auto"``, the
   judge told that the server caches any prefix: ``prompt_cache=0``), staggered with the
   swap check (three legs: the direct question again with the responses swapped) and with
   the order check (four legs, a pair's default). Every configuration names its checks.
   Wall time, and the prompt tokens each request took from
   the server's cache as the server reports them (its log's ``prefix-match hit``).
   Beside them, in the same run, a rating of the same text (the pair's question and its
   first response, on 1-10): one call (its direct question alone), the guarded rating
   (the direct and the mirrored leg, staggered) in prin-guard's own wording ``rating@2``
   (the item first, each leg's instruction after it), and the two legs of ``rating@1``
   (the instruction first), as the guard sent them before issue 39 (at once, unmarked;
   their messages made by that commit's code, :data:`RATING_BEFORE`).
B. The same requests' tokens repriced with litellm's price table for an Anthropic model
   (reads 0.1x, writes 1.25x) and OpenAI models (reads 0.25x and 0.5x): the billed cost
   of each configuration over the unguarded call's (a rating's over its one call).
   Legs sent at once all miss a hosted provider's cache (none has been written yet), so
   they are priced fresh; staggered legs read the prefix the first one wrote (OpenAI: in
   steps of 128 tokens, from 1,024).
C. The local judge (LocalJudge, the bundled model in this process): the guarded verdict
   against its direct leg alone, and against its longer leg alone, on the same item size
   and on 170-token MathQA items.
D. The prompt layout (pairwise@1, before this benchmark's issue, against pairwise@2, what
   the legs share first): the bundled model's winners under both layouts against the
   winners under an edit that changes nothing (a trailing space), and the reader on the
   1,000 recorded LLMBar replies with either layout's prompt frame.

    .venv/bin/python bench/run.py --only premium
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib.util
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
import types
import urllib.request
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench._common import ROOT, Context, Figure, Section, md_table, median, spread
from bench._moved import moved_imports

NAME = "premium"
TITLE = "13. The guard's premium (prompt caches, staggered legs, prefix reuse)"
TARGET = (
    "two legs on a 2,000-token pairwise item ≤ 1.3× one call's billed cost where cached "
    "reads cost ≤ 0.25× (≤ 1.45× with Anthropic's 1.25× writes; about 1.5× at 0.5× reads), "
    "four legs ≤ 2.0×, wall time ≤ 1.2× one call; the local judge's guarded verdict ≤ 1.15× "
    "one leg; the layout changes no verdict beyond noise; a rating's two legs priced beside "
    "the pair's, its mirrored leg reading the item from the cache"
)
BEFORE = "f6ee851"
"""The commit before the layout of issue 31 (pairwise@1)."""
RATING_BEFORE = "65f9ae7"
"""The commit before the rating layout of issue 39, item 6 (rating@1, legs at once)."""
SHARED_DATA = next(
    (
        folder / "shared" / "data" / "llmbar"
        for folder in (ROOT.parent, ROOT.parents[1])
        if (folder / "shared" / "data" / "llmbar").is_dir()
    ),
    ROOT.parent / "shared" / "data" / "llmbar",
)
"""The 1,000 recorded replies of five judges (beside the checkout, or beside a worktree's
folder of worktrees)."""
_PREFIX_HIT = re.compile(r"Llama\.generate: (\d+) prefix-match hit, remaining (\d+) prompt tokens")

PRICED = (
    ("anthropic", "claude-sonnet-4-5", "Anthropic Claude Sonnet 4.5 (reads 0.1×, writes 1.25×)"),
    ("openai", "gpt-4.1", "OpenAI GPT-4.1 (reads 0.25×)"),
    ("openai", "gpt-5", "OpenAI GPT-5 (reads 0.1×)"),
    ("openai", "gpt-4o", "OpenAI GPT-4o (reads 0.5×)"),
)


# -- the items ---------------------------------------------------------------------------


def _llmbar_rows() -> list[dict[str, Any]]:
    path = ROOT / "prin_guard" / "data" / "llmbar" / "natural.jsonl"
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _big_pair(index: int, chars: int) -> Any:
    """A pairwise item of about ``chars`` characters of real text: an LLMBar instruction
    with other instructions as its context, and two real outputs."""
    from prin_guard import Item

    rows = _llmbar_rows()
    first = rows[index % len(rows)]
    context, n = [], index + 1
    while sum(len(part) for part in context) < chars:
        context.append(rows[n % len(rows)]["instruction"])
        n += 1
    question = (
        "Read the notes below, then follow the instruction after them.\n\n"
        + "\n\n".join(context)
        + "\n\nInstruction: "
        + first["instruction"]
    )
    return Item(
        task="pairwise",
        question=question,
        candidates=[first["output_1"], first["output_2"]],
        id=f"big-{index}",
    )


def _big_rating(pair: Any) -> dict[str, Any]:
    """The rating of the same text as ``pair``: its question and its first response."""
    return {
        "task": "rating",
        "question": pair.question,
        "response": pair.candidates[0].text,
        "scale": {"min": 1, "max": 10},
        "id": f"{pair.id}-rating",
    }


def _old_rating_messages(items: Sequence[dict[str, Any]]) -> list[list[Any]]:
    """Each rating item's direct and mirrored messages in rating@1, as the code of
    :data:`RATING_BEFORE` writes them (run from that commit's tree, in a child process)."""
    script = (
        "import json, sys\n"
        "from prin_guard import Guard\n"
        "guard = Guard(lambda prompt: '', cache=None)\n"
        "items = json.load(sys.stdin)\n"
        "print(json.dumps([[guard.messages(item, leg) for leg in ('direct', 'reverse')] "
        "for item in items]))\n"
    )
    with tempfile.TemporaryDirectory(prefix="bench-premium-rating-") as folder:
        tree = subprocess.run(
            ["git", "-C", str(ROOT), "archive", RATING_BEFORE, "prin_guard"],
            check=True,
            capture_output=True,
        ).stdout
        subprocess.run(["tar", "-x", "-C", folder], input=tree, check=True)
        out = subprocess.run(
            [sys.executable, "-c", script],
            input=json.dumps(list(items)),
            env={**os.environ, "PYTHONPATH": folder},
            cwd=folder,  # python -c puts the working directory first on sys.path
            check=True,
            capture_output=True,
            text=True,
        ).stdout
    messages: list[list[Any]] = json.loads(out)
    if not all(legs[0][-1]["content"].startswith("[Instruction]\n") for legs in messages):
        raise RuntimeError(f"not rating@1's layout (the instruction first): {RATING_BEFORE}")
    return messages


# -- llama.cpp's server ------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class _Server:
    base: str
    log: Path

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def tokens(self, text: str) -> int:
        request = urllib.request.Request(
            self.base.removesuffix("/v1") + "/extras/tokenize",
            data=json.dumps({"input": text}).encode(),
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=60) as response:
            return len(json.loads(response.read())["tokens"])


@contextlib.contextmanager
def _llama_server(*extra: str, threads: int = 2) -> Iterator[_Server]:
    from prin_guard.judges._local import LocalJudge

    port = _free_port()
    handle, name = tempfile.mkstemp(prefix="bench-premium-llama-", suffix=".log")
    os.close(handle)
    log = Path(name)
    with log.open("wb") as out:
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "llama_cpp.server",
                "--model",
                str(LocalJudge._bundled_gguf()),
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
                "--model_alias",
                "smollm2",
                "--n_ctx",
                "4096",
                "--n_threads",
                str(threads),
                "--interrupt_requests",
                "false",
                *extra,
            ],
            stdout=out,
            stderr=subprocess.STDOUT,
        )
        base = f"http://127.0.0.1:{port}/v1"
        try:
            deadline = time.monotonic() + 180
            while True:
                try:
                    with urllib.request.urlopen(f"{base}/models", timeout=2) as response:
                        if response.status == 200:
                            break
                except OSError:
                    pass
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("llama.cpp server did not start: " + log.read_text()[-1500:])
                time.sleep(0.2)
            yield _Server(base, log)
        finally:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
            log.unlink(missing_ok=True)


@dataclass
class _Request:
    """One request as the server reported it: prompt tokens, those from its cache."""

    prompt: int
    cached: int


@dataclass
class _Run:
    """One configuration on one item: wall time, the server's requests, the legs."""

    seconds: float
    requests: list[_Request]
    completion: list[int]
    """Completion tokens per leg (the reply tokenized by the server)."""
    groups: int = 1
    """Legs sharing a prefix come in groups of two (the order check: two groups)."""
    legs: list[Any] = field(default_factory=list)


CONFIGS = {
    "unguarded": "one call: the direct question alone",
    "parallel": "guarded, two legs at once (checks reverse, `stagger='off'`)",
    "staggered": "guarded, two legs staggered (checks reverse)",
    "staggered4": "guarded, four legs staggered (checks reverse, order)",
    "staggered3": "guarded, three legs staggered (checks reverse, swap)",
}

CHECKS = {
    "parallel": "reverse",
    "staggered": "reverse",
    "staggered4": "reverse,order",
    "staggered3": "reverse,swap",
}
"""The checks each guarded configuration runs, named: a pairwise item's default checks are
not two legs' (the order check is on by default for pairs), so a configuration that named
none measured four legs under a two-leg name."""

LEGS = {"parallel": 2, "staggered": 2, "staggered4": 4, "staggered3": 3}
"""The judge calls each guarded configuration's verdict makes, as its name says."""

RATING_CONFIGS = {
    "rating_unguarded": "rating: one call, the direct question alone (rating@2)",
    "rating_v1": "rating@1 (instruction first): two legs at once, as the guard sent them",
    "rating_staggered": "rating@2 (the item first): guarded, two legs staggered",
}
"""A rating of the same text, side by side with the pair."""
PRICED_AS = {
    "rating_unguarded": "unguarded",
    "rating_v1": "parallel",
    "rating_staggered": "staggered",
}
"""How each rating configuration is billed: as the pair's configuration that sends its
calls the same way (one call; legs at once; two legs staggered)."""


def guard_options(config: str) -> dict[str, Any]:
    """The guard's options for a guarded configuration: its checks named, never left to
    the item's task's default."""
    options: dict[str, Any] = {"cache": None, "checks": CHECKS[config]}
    if config == "parallel":
        options["stagger"] = "off"
    return options


async def _measure(server: _Server, judge: Any, item: Any, config: str) -> _Run:
    from prin_guard import Guard
    from prin_guard.models import Polarity

    # Every configuration starts from a server that has not seen the item: its one cached
    # context is replaced by an unrelated prompt first.
    await judge.complete([{"role": "user", "content": f"Say hello. ({config} {item.id})"}])
    before = len(_PREFIX_HIT.findall(server.output()))
    started = time.perf_counter()
    legs: list[Any]
    if config == "unguarded":
        guard = Guard(judge, cache=None)
        response = await judge.complete(guard.messages(item, Polarity.DIRECT), labels=item.labels)
        seconds = time.perf_counter() - started
        texts = [response.text or ""]
        legs = []
        groups = 0
    else:
        verdict = await Guard(judge, **guard_options(config)).acheck(item)
        seconds = time.perf_counter() - started
        legs = list(verdict.legs())
        if len(legs) != LEGS[config]:  # a configuration measures the legs its name says
            raise RuntimeError(f"{config}: {len(legs)} legs asked, {LEGS[config]} named")
        texts = [leg.raw_text or "" for leg in legs]
        groups = 2 if config in ("staggered4", "staggered3") else 1
    hits = _PREFIX_HIT.findall(server.output())[before:]
    requests = [_Request(int(a) + int(b), int(a)) for a, b in hits]
    completion = [server.tokens(text) if text else 0 for text in texts]
    return _Run(seconds, requests, completion, groups, legs)


async def _measure_rating(
    server: _Server, judge: Any, item: dict[str, Any], config: str, old: list[Any]
) -> _Run:
    """One rating configuration on one item, as :func:`_measure` measures a pair's."""
    from prin_guard import Guard

    await judge.complete([{"role": "user", "content": f"Say hello. ({config} {item['id']})"}])
    before = len(_PREFIX_HIT.findall(server.output()))
    started = time.perf_counter()
    legs: list[Any] = []
    if config == "rating_unguarded":
        response = await judge.complete(Guard(judge, cache=None).messages(item, "direct"))
        texts = [response.text or ""]
    elif config == "rating_v1":
        # the old guard sent both legs at once; the server takes them one after the other
        replies = [await judge.complete(messages) for messages in old]
        texts = [reply.text or "" for reply in replies]
    else:
        verdict = await Guard(judge, cache=None).acheck(item)
        legs = list(verdict.legs())
        if len(legs) != 2:
            raise RuntimeError(f"{config}: {len(legs)} legs asked, 2 named")
        texts = [leg.raw_text or "" for leg in legs]
    seconds = time.perf_counter() - started
    hits = _PREFIX_HIT.findall(server.output())[before:]
    requests = [_Request(int(a) + int(b), int(a)) for a, b in hits]
    completion = [server.tokens(text) if text else 0 for text in texts]
    return _Run(seconds, requests, completion, 0 if config == "rating_unguarded" else 1, legs)


# -- repricing ---------------------------------------------------------------------------


def _price(
    litellm: Any,
    provider: str,
    model: str,
    prompt: int,
    completion: int,
    *,
    read: int = 0,
    write: int = 0,
) -> float:
    """What one call costs at ``model``'s prices (litellm's table): ``read`` of its prompt
    tokens from the provider's cache, ``write`` written to it."""
    if provider == "openai":
        # OpenAI caches prompts of 1,024 tokens and more, in steps of 128 tokens
        read = read // 128 * 128 if prompt >= 1024 else 0
        write = 0
    usage = litellm.Usage(
        prompt_tokens=prompt,
        completion_tokens=completion,
        total_tokens=prompt + completion,
        prompt_tokens_details={"cached_tokens": read},
        cache_read_input_tokens=read,
        cache_creation_input_tokens=write,
    )
    cost_in, cost_out = litellm.cost_per_token(
        model=model,
        custom_llm_provider=provider,
        prompt_tokens=prompt,
        completion_tokens=completion,
        cache_read_input_tokens=read,
        cache_creation_input_tokens=write,
        usage_object=usage,
    )
    return float(cost_in + cost_out)


def _billed(
    litellm: Any, provider: str, model: str, run: _Run, config: str, shared: int, common: int
) -> float:
    """The run's requests at ``model``'s prices, as the provider would bill them.

    At once (``unguarded``, ``parallel``): every request fresh (legs sent together all
    miss: nothing has been cached yet). Staggered, Anthropic: each pair of legs sharing a
    prefix marks it (``cache_control``): the pair's first request writes those ``shared``
    tokens (1.25x), the second reads them (0.1x); the order check's second pair reads the
    ``common`` part every leg shares (marked by the first pair's first leg, which it
    waited for) and writes the rest of its prefix. Staggered,
    OpenAI: every request reads what the server read from its cache (OpenAI caches any
    prompt prefix automatically, and the legs of an item go to one cache by their
    ``prompt_cache_key``), in steps of 128 tokens from 1,024; writing costs nothing.
    """
    completions = list(run.completion) + [0] * max(0, len(run.requests) - len(run.completion))
    if config in ("unguarded", "parallel"):
        return sum(
            _price(litellm, provider, model, request.prompt, completion)
            for request, completion in zip(run.requests, completions, strict=False)
        )
    total = 0.0
    if provider == "anthropic" and config == "staggered3":
        # the first leg writes the prefix its pair shares (what every leg shares marked in
        # it); of the two that wait for it, the reverse leg reads that prefix and the swap
        # check's leg what every leg shares (it marks that block only: no write)
        reads = [0, shared, common]
        writes = [shared, 0, 0]
        return sum(
            _price(
                litellm,
                provider,
                model,
                request.prompt,
                completions[index],
                read=reads[index],
                write=writes[index],
            )
            for index, request in enumerate(run.requests[:3])
        )
    if provider == "anthropic":
        pairs = len(run.requests) // 2
        # the server took the requests in the order they came: the pairs' first legs, then
        # their second ones (each sent once its first had begun answering)
        for index, request in enumerate(run.requests):
            if index >= pairs:
                read, written = shared, 0
            elif index == 0:
                read, written = 0, shared
            else:
                read, written = common, shared - common
            total += _price(
                litellm,
                provider,
                model,
                request.prompt,
                completions[index],
                read=read,
                write=written,
            )
        return total
    for request, completion in zip(run.requests, completions, strict=False):
        total += _price(litellm, provider, model, request.prompt, completion, read=request.cached)
    return total


# -- the layout --------------------------------------------------------------------------


def _old_prompts() -> types.ModuleType:
    """``prin_guard/_prompts.py`` as it was at :data:`BEFORE` (pairwise@1), its imports
    pointed at where those modules live now (the package was regrouped since)."""
    source = subprocess.run(
        ["git", "-C", str(ROOT), "show", f"{BEFORE}:prin_guard/_prompts.py"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    source = moved_imports(source)
    spec = importlib.util.spec_from_loader("bench_old_prompts", loader=None)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    exec(compile(source, "prompts@" + BEFORE, "exec"), module.__dict__)
    return module


def _winner(direct: Any, reverse: Any) -> str:
    if not direct.ok or not reverse.ok:
        return "unread"
    chosen = set(direct.labels) & ({"A", "B"} - set(reverse.labels))
    return "tie" if len(chosen) == 2 else next(iter(chosen)) if chosen else "none"


async def _layout_verdicts(judge: Any, items: Sequence[Any]) -> dict[str, list[str]]:
    """The bundled model's winner per item under the old layout, the new one, and the new
    one with a trailing space after the instruction (an edit that changes nothing)."""
    from prin_guard import read_reply
    from prin_guard._prompting._prompts import build_messages, get_template
    from prin_guard.models import Polarity

    old = _old_prompts()
    old_template = old.TEMPLATES["pairwise"]
    new_template = get_template("pairwise")
    out: dict[str, list[str]] = {"old": [], "new": [], "noise": []}
    for item in items:
        edited = item.model_copy(update={"question": (item.question or "") + " "})
        readings: dict[str, list[Any]] = {name: [] for name in out}
        for polarity in (Polarity.DIRECT, Polarity.REVERSE):
            asked = {
                "old": old.build_messages(item, polarity, old_template, ()),
                "new": build_messages(item, polarity, new_template, ()),
                "noise": build_messages(edited, polarity, new_template, ()),
            }
            replies = await asyncio.gather(*(judge.complete(m) for m in asked.values()))
            for name, reply in zip(asked, replies, strict=True):
                readings[name].append(
                    read_reply(reply.text, item, template="pairwise", polarity=polarity)
                )
        for name in out:
            out[name].append(_winner(*readings[name]))
    return out


def _reader_on_recorded(frames: dict[str, Any]) -> tuple[int, int, int]:
    """Readings of the 1,000 recorded LLMBar replies with the old layout's prompt frame
    and the new one's: (replies, same reading, readings that differ)."""
    from prin_guard import Item
    from prin_guard.models import Polarity
    from prin_guard.reader import parse_reply

    folder = SHARED_DATA
    items = {
        row["id"]: row
        for row in map(json.loads, (folder / "natural.jsonl").read_text().splitlines())
    }
    records = [json.loads(line) for line in (folder / "natural-recorded-judges.jsonl").open()]
    same = differ = 0
    for record in records:
        row = items[record["id"]]
        first, second = ("output_1", "output_2")
        if record["shown_order"] == "2-1":
            first, second = second, first
        item = Item(
            task="pairwise", question=row["instruction"], candidates=[row[first], row[second]]
        )
        got = []
        for build in frames.values():
            result = parse_reply(
                record["reply"],
                ("A", "B"),
                (row[first], row[second]),
                task="pairwise",
                polarity=Polarity.DIRECT,
                words=("better", "worse"),
                nouns=("output", "response", "assistant"),
                echo=(row["instruction"], row[first], row[second]),
                prompt=build(item),
            )
            got.append((result.status, result.labels))
        same += got[0] == got[1]
        differ += got[0] != got[1]
    return len(records), same, differ


def _frames() -> dict[str, Any]:
    """Each layout's prompt frame (the prompt's own words, the item's texts taken out)."""
    from prin_guard._prompting._prompts import build_messages, get_template
    from prin_guard._route import _reading
    from prin_guard.models import Polarity

    old = _old_prompts()

    def frame(template: Any, build: Any) -> Any:
        def of(item: Any) -> tuple[str, ...]:
            original = _reading.build_messages
            _reading.build_messages = build
            _reading._frame.cache_clear()
            try:
                return _reading.prompt_frame(item, Polarity.DIRECT, template, ())
            finally:
                _reading.build_messages = original
                _reading._frame.cache_clear()

        return of

    return {
        "old": frame(
            old.TEMPLATES["pairwise"],
            lambda item, polarity, template, mitigations, **_: old.build_messages(
                item, polarity, template, mitigations
            ),
        ),
        "new": frame(get_template("pairwise"), build_messages),
    }


# -- the local judge ---------------------------------------------------------------------


async def _local_times(judge: Any, items: Sequence[Any], rounds: int) -> list[dict[str, float]]:
    """Per item, back to back in alternating order: the verdict (checks reverse: its two
    legs, named, since a pair's default checks ask four), its direct leg alone, its
    reverse leg alone."""
    from prin_guard import Guard
    from prin_guard.models import Polarity

    guard = Guard(judge, cache=None, checks="reverse")
    await guard.acheck(items[0])  # warm up
    rows = []
    for index, item in enumerate(items[:rounds]):
        times: dict[str, float] = {}
        parts = ["verdict", "direct", "reverse"]
        for part in parts if index % 2 == 0 else parts[::-1]:
            # each from scratch: nothing kept of the item's prefix by the one before
            judge._scheduler.forget()
            started = time.perf_counter()
            if part == "verdict":
                await guard.acheck(item)
            else:
                polarity = Polarity.DIRECT if part == "direct" else Polarity.REVERSE
                await judge.complete(guard.messages(item, polarity), labels=item.labels)
            times[part] = time.perf_counter() - started
        rows.append(times)
    return rows


# -- the benchmark -----------------------------------------------------------------------


def run(
    ctx: Context,
    *,
    configs: Sequence[str] = tuple(CONFIGS),
    local: bool = True,
    rounds: int | None = None,
    chars: int | None = None,
) -> Section:
    """The benchmark: every part (``bench/run.py``); or, from :func:`main`, the server's
    part (A and B) alone, for the pair's ``configs`` (``unguarded`` among them) and the
    rating beside them, on ``rounds`` items of ``chars`` characters."""
    import litellm

    from prin_guard import LiteLLMJudge
    from prin_guard.datasets import load_dataset

    section = Section(NAME, TITLE, TARGET)
    rounds = rounds if rounds is not None else ctx.pick(4, 1)
    chars = chars if chars is not None else ctx.pick(6800, 600)
    max_tokens = ctx.pick(30, 4)
    pair_configs = {name: CONFIGS[name] for name in CONFIGS if name in configs}
    items = [_big_pair(index, chars) for index in range(rounds + 1)]
    ratings = [_big_rating(item) for item in items]
    old_ratings = _old_rating_messages(ratings)

    # -- A. llama.cpp's server ------------------------------------------------------------
    runs: dict[str, list[_Run]] = {name: [] for name in pair_configs}
    rating_runs: dict[str, list[_Run]] = {name: [] for name in RATING_CONFIGS}
    # smoke: one thread, as benchmark 5's server (two spin against a busy machine)
    with _llama_server(threads=ctx.pick(2, 1)) as server:
        judge = LiteLLMJudge(
            "openai/smollm2",
            api_base=server.base,
            api_key="no-key",
            max_tokens=max_tokens,
            timeout=600,
            prompt_cache=0,
        )

        async def measure_all() -> None:
            if not ctx.smoke:
                await _measure(server, judge, items[-1], "staggered")  # warm up
            for index, item in enumerate(items[:rounds]):
                order = list(pair_configs) if index % 2 == 0 else list(pair_configs)[::-1]
                for config in order:
                    runs[config].append(await _measure(server, judge, item, config))
                rated = list(RATING_CONFIGS) if index % 2 == 0 else list(RATING_CONFIGS)[::-1]
                for config in rated:
                    rating_runs[config].append(
                        await _measure_rating(
                            server, judge, ratings[index], config, old_ratings[index]
                        )
                    )

        asyncio.run(measure_all())
        prompt_tokens = [run.requests[0].prompt for run in runs["unguarded"] if run.requests]
        shared, common = [], []
        for item in items[:rounds]:
            from prin_guard import Guard
            from prin_guard._route._legs import permuted_item, second_order, shared_prefix
            from prin_guard.models import Polarity

            guard = Guard(judge)
            legs = [guard.messages(item, polarity) for polarity in Polarity]
            prefix = shared_prefix(legs)
            shared.append(server.tokens(prefix.split(legs[0])[0]) if prefix else 0)
            # what the order check's legs share with these: the instruction, not the pair
            swapped, _ = permuted_item(item, second_order(item.labels, item.key))
            every = shared_prefix([legs[0], guard.messages(swapped, Polarity.DIRECT)])
            common.append(server.tokens(every.split(legs[0])[0]) if every else 0)
        # what a rating's two legs share, in either wording (system message and all)
        rating_shared: dict[str, list[int]] = {"rating_v1": [], "rating_staggered": []}
        for rating, old in zip(ratings[:rounds], old_ratings, strict=False):
            from prin_guard import Guard
            from prin_guard._route._legs import shared_prefix

            for config, legs in (
                ("rating_v1", old),
                (
                    "rating_staggered",
                    [Guard(judge).messages(rating, p) for p in ("direct", "reverse")],
                ),
            ):
                prefix = shared_prefix(legs)
                text = "".join(m["content"] for m in legs[0][:-1])
                shown = text + (prefix.split(legs[0])[0] if prefix is not None else "")
                rating_shared[config].append(server.tokens(shown) if shown else 0)

    size = median(prompt_tokens) if prompt_tokens else 0
    rating_size = median(
        [run.requests[0].prompt for run in rating_runs["rating_unguarded"] if run.requests] or [0]
    )
    section.notes.append(
        "The rating: the pair's question and its first response on 1-10, "
        f"{rating_size:,.0f} "
        "prompt tokens (median); rating@1's legs are the messages the code of "
        f"{RATING_BEFORE} writes, sent to the server as that guard sent them (at once, "
        "unmarked: the server takes them one after the other); rating@2's are the guard's "
        "own (`Guard(judge, cache=None).acheck(item)`, staggered: the judge says its "
        "server caches any prefix, `prompt_cache=0`). A hosted provider bills legs sent at "
        "once fresh, so rating@1 is priced so; rating@2 as the pair's two staggered legs."
    )
    section.notes.append(
        f"The item: {size:,.0f} prompt tokens (median over {rounds} items; SmolLM2's "
        f"tokenizer, as the server counts them), of which the legs share "
        f"{median(shared):,.0f} before their own instruction (with the order check's "
        f"legs, {median(common):,.0f}: the instruction); replies capped at "
        f"{max_tokens} tokens (`max_tokens`)."
    )
    base_seconds = [run.seconds for run in runs["unguarded"]]
    for config in (c for c in ("parallel", "staggered", "staggered3", "staggered4") if c in runs):
        seconds = [run.seconds for run in runs[config]]
        per = [s / b for s, b in zip(seconds, base_seconds, strict=True)]
        read = [max((r.cached for r in run.requests[1:]), default=0) for run in runs[config]]
        section.add(
            Figure(
                f"wall time, llama.cpp server: {CONFIGS[config]}",
                median(seconds),
                unit="s",
                baseline=f"{CONFIGS['unguarded']}",
                baseline_value=median(base_seconds),
                ratio=median(per),
                spread=spread(per),
                target="≤ 1.2×" if config == "staggered" else None,
                met=(median(per) <= 1.2) if config == "staggered" else None,
                note=f"the second leg read {median(read):,.0f} prompt tokens from the server's "
                f"cache (the shared prefix: {median(shared):,.0f})",
            )
        )
    table = []
    for config, described in pair_configs.items():
        for index, run in enumerate(runs[config]):
            table.append(
                [
                    described if index == 0 else "",
                    index + 1,
                    f"{run.seconds:.2f}",
                    ", ".join(f"{r.cached}/{r.prompt}" for r in run.requests),
                    ", ".join(str(c) for c in run.completion),
                ]
            )
    section.tables.append(
        (
            "llama.cpp's server, request by request (prompt tokens read from its cache / "
            "prompt tokens, as its log reports them; completion tokens per leg)",
            md_table(["configuration", "item", "wall (s)", "cached / prompt", "completion"], table),
        )
    )
    for config in ("rating_v1", "rating_staggered"):
        read = [max((r.cached for r in run.requests[1:]), default=0) for run in rating_runs[config]]
        prompts = [
            max((r.prompt for r in run.requests[1:]), default=0) for run in rating_runs[config]
        ]
        section.add(
            Figure(
                f"llama.cpp server, a rating's mirrored leg: prompt tokens from the cache, "
                f"{RATING_CONFIGS[config]}",
                median(read),
                unit=f"of {median(prompts):,.0f}",
                note=f"the legs share {median(rating_shared[config]):,.0f} tokens before "
                "their own instruction (the system message included)",
            )
        )
    base_seconds = [run.seconds for run in rating_runs["rating_unguarded"]]
    for config in ("rating_v1", "rating_staggered"):
        seconds = [run.seconds for run in rating_runs[config]]
        per = [s / b for s, b in zip(seconds, base_seconds, strict=True)]
        section.add(
            Figure(
                f"wall time, llama.cpp server: {RATING_CONFIGS[config]}",
                median(seconds),
                unit="s",
                baseline=RATING_CONFIGS["rating_unguarded"],
                baseline_value=median(base_seconds),
                ratio=median(per),
                spread=spread(per),
            )
        )
    table = []
    for config, described in RATING_CONFIGS.items():
        for index, run in enumerate(rating_runs[config]):
            table.append(
                [
                    described if index == 0 else "",
                    index + 1,
                    f"{run.seconds:.2f}",
                    ", ".join(f"{r.cached}/{r.prompt}" for r in run.requests),
                    ", ".join(str(c) for c in run.completion),
                ]
            )
    section.tables.append(
        (
            "The rating of the same text on llama.cpp's server, request by request (as above)",
            md_table(["configuration", "item", "wall (s)", "cached / prompt", "completion"], table),
        )
    )

    # -- B. repriced -----------------------------------------------------------------------
    priced_rows = []
    for provider, model, described in PRICED:
        base = [
            _billed(litellm, provider, model, r, "unguarded", k, c)
            for r, k, c in zip(runs["unguarded"], shared, common, strict=True)
        ]
        row = [described, f"${median(base) * 1000:.3f}"]
        for config in (
            c for c in ("parallel", "staggered", "staggered3", "staggered4") if c in runs
        ):
            billed = [
                _billed(litellm, provider, model, r, config, k, c)
                for r, k, c in zip(runs[config], shared, common, strict=True)
            ]
            per = [b / u for b, u in zip(billed, base, strict=True)]
            ratio = median(per)
            row.append(f"{ratio:.2f}×")
            limit = None
            if config == "staggered":
                limit = {"claude-sonnet-4-5": 1.45, "gpt-4.1": 1.3, "gpt-5": 1.3}.get(model)
            if config == "staggered4":
                limit = 2.0
            target = None if limit is None else f"≤ {limit}×"
            note = ""
            if model == "gpt-4o" and config == "staggered":
                note = "cached reads at 0.5×: about 1.5× is what such a model allows"
            section.add(
                Figure(
                    f"billed cost, {described}: {CONFIGS[config]}",
                    median(billed) * 1000,
                    unit="m$",
                    baseline=CONFIGS["unguarded"],
                    baseline_value=median(base) * 1000,
                    ratio=ratio,
                    spread=spread(per),
                    target=target,
                    met=None if limit is None else ratio <= limit,
                    note=note,
                )
            )
        rating_base = [
            _billed(litellm, provider, model, r, "unguarded", 0, 0)
            for r in rating_runs["rating_unguarded"]
        ]
        row.append(f"${median(rating_base) * 1000:.3f}")
        for config in ("rating_v1", "rating_staggered"):
            billed = [
                _billed(litellm, provider, model, r, PRICED_AS[config], k, k)
                for r, k in zip(rating_runs[config], rating_shared[config], strict=True)
            ]
            per = [b / u for b, u in zip(billed, rating_base, strict=True)]
            row.append(f"{median(per):.2f}×")
            section.add(
                Figure(
                    f"billed cost, {described}: {RATING_CONFIGS[config]}",
                    median(billed) * 1000,
                    unit="m$",
                    baseline=RATING_CONFIGS["rating_unguarded"],
                    baseline_value=median(rating_base) * 1000,
                    ratio=median(per),
                    spread=spread(per),
                )
            )
        priced_rows.append(row)
    section.tables.append(
        (
            "The same requests repriced with litellm's price table (per verdict; one call = "
            "the unguarded call's cost)",
            md_table(
                [
                    "priced as",
                    "one call",
                    *(
                        header
                        for config, header in (
                            ("parallel", "2 legs at once"),
                            ("staggered", "2 legs staggered"),
                            ("staggered3", "3 legs staggered"),
                            ("staggered4", "4 legs staggered"),
                        )
                        if config in runs
                    ),
                    "rating: one call",
                    "rating@1: 2 legs at once",
                    "rating@2: 2 legs staggered",
                ],
                priced_rows,
            ),
        )
    )

    missed = [f for f in section.figures if f.met is False and f.name.startswith("billed cost")]
    if any("GPT-4.1" in f.name and "two legs" in f.name for f in missed):
        section.why(
            "at 0.25× reads (GPT-4.1) the second leg's cached prompt alone costs about 0.23 "
            "of a call, and what no cache serves (its own instruction, and the tokens lost to "
            "OpenAI's 128-token steps: some 7% of the prompt) another 0.07: two legs come to "
            "about 1.30× before the replies' cost, which a 30-token reply at 4× a prompt token "
            "raises by 0.02. Where reads cost 0.1× (GPT-5) two legs come to 1.23×."
        )
    if any("0.5×" in f.name and "four legs" in f.name for f in missed):
        section.why(
            "at 0.5× reads (GPT-4o) every leg after the first costs at least half a call: "
            "four legs cannot come under 2.0×."
        )

    if not local:
        return section

    # -- C. the local judge ---------------------------------------------------------------------
    from bench._common import local_judge

    local = local_judge(ctx)
    mathqa = [record.item for record in load_dataset("mathqa", limit=ctx.pick(10, 1))]
    for label, subjects, limit in (
        (f"a {size:,.0f}-token pairwise item", items, 1.15),
        ("170-token MathQA items", mathqa, None),
    ):
        rows = asyncio.run(_local_times(local, subjects, ctx.pick(len(subjects), 1)))
        verdicts = [row["verdict"] for row in rows]
        directs = [row["direct"] for row in rows]
        longer = [max(row["direct"], row["reverse"]) for row in rows]
        for baseline, values, target in (
            ("its direct leg alone", directs, limit),
            ("its longer leg alone", longer, None),
        ):
            per = [v / b for v, b in zip(verdicts, values, strict=True)]
            section.add(
                Figure(
                    f"local judge: guarded verdict (checks reverse: two legs) on {label}",
                    median(verdicts),
                    unit="s",
                    baseline=baseline,
                    baseline_value=median(values),
                    ratio=median(per),
                    spread=spread(per),
                    target=None if target is None else f"≤ {target}×",
                    met=None if target is None else median(per) <= target,
                )
            )

    local_missed = [
        f for f in section.figures if f.met is False and f.name.startswith("local judge")
    ]
    if local_missed:
        section.why(
            "the local judge computes the shared prefix once, and its guarded verdict costs "
            "on top of one leg: the second leg's own instruction (about 40 tokens) attending "
            "to the whole prefix (about 0.13 s after 2,100 tokens on this machine), joining "
            "its keys and values to the batch's (transformers' DynamicCache copies them, "
            "0.1-0.25 s), and decoding two rows instead of one (the cache of every row is "
            "copied at each step: 5-10 ms a step). A preallocated cache, or attention over "
            "the shared prefix computed once for both rows, would take most of it away."
        )

    # -- D. the layout ---------------------------------------------------------------------------
    from prin_guard import Item

    pairs = [
        Item(
            task="pairwise",
            question=row["instruction"],
            candidates=[row["output_1"], row["output_2"]],
            id=row["id"],
        )
        for row in _llmbar_rows()[: ctx.pick(20, 1)]
    ]
    winners = asyncio.run(_layout_verdicts(local, pairs))
    changed = sum(a != b for a, b in zip(winners["old"], winners["new"], strict=True))
    noise = sum(a != b for a, b in zip(winners["new"], winners["noise"], strict=True))
    section.add(
        Figure(
            "bundled model: winners that change from pairwise@1's layout to pairwise@2's",
            changed,
            unit=f"of {len(pairs)}",
            baseline="winners that change with a trailing space after the instruction",
            baseline_value=noise,
            note="greedy replies; a change of layout within the model's noise changes "
            "about as many winners as an edit that means nothing",
        )
    )
    if SHARED_DATA.is_dir():
        total, same, differ = _reader_on_recorded(_frames())
        section.add(
            Figure(
                "recorded LLMBar replies (five judges) read the same with either layout's "
                "prompt frame",
                same,
                unit=f"of {total}",
                note=f"{differ} readings differ; the recorded judges cannot be asked again "
                "(their replies are recorded, with their own prompts)",
            )
        )
    section.notes.append(
        "llama-cpp-python's server answers one request at a time: the legs' decoding "
        "cannot overlap there, so a guarded verdict's wall time is the unguarded call's "
        "plus the second leg's (its prompt mostly from the cache) plus the first leg's "
        "decoding. A hosted provider answers the legs at once: staggered, the second "
        "waits only for the first leg's first token."
    )
    section.notes.append(
        "Repricing: each request's prompt and completion tokens, and the prompt tokens the "
        "server took from its cache, priced with `litellm.cost_per_token` (the price table "
        "bundled with litellm) as the named model would bill them. Legs sent at once all "
        "miss a hosted provider's cache, so they are priced fresh (llama.cpp's one-request "
        "server reused its context for them anyway); staggered, the first leg of a pair "
        "writes the prefix (Anthropic bills the write at 1.25×; OpenAI writes for free) "
        "and the second reads it (OpenAI: from 1,024 tokens, in steps of 128)."
    )
    return section


def main(argv: Sequence[str] | None = None) -> int:
    """The server's part alone (A and B: llama.cpp's server, the requests repriced) for a
    pair's one call and two staggered legs and the rating beside them, printed as
    BENCHMARKS.md writes a section; for a machine too busy for the whole benchmark."""
    import argparse

    from bench._common import quiet_logging
    from bench.run import render_section

    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("--rounds", type=int, default=3, help="items (default 3)")
    parser.add_argument("--chars", type=int, default=2000, help="characters of context an item")
    parser.add_argument(
        "--configs",
        default="unguarded,staggered",
        help=f"the pair's configurations, comma-separated: {', '.join(CONFIGS)}",
    )
    args = parser.parse_args(argv)
    configs = [name.strip() for name in args.configs.split(",") if name.strip()]
    if "unguarded" not in configs or not set(configs) <= set(CONFIGS):
        parser.error(f"--configs: unguarded and any of {', '.join(CONFIGS)}")
    quiet_logging()
    started = time.perf_counter()
    section = run(Context(), configs=configs, local=False, rounds=args.rounds, chars=args.chars)
    section.seconds = time.perf_counter() - started
    print(render_section(section))
    return 0


if __name__ == "__main__":
    sys.exit(main())
