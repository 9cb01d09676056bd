"""5. Local judge: the bundled SmolLM2-135M through LocalJudge, and the same GGUF in llama.cpp.

On ~10 MathQA items (median of per-item ratios, every pair timed back to back):
- a verdict (two legs) vs one leg (the direct question alone, asked the same way):
  target ≤ 1.5×; beside it, what batching the two legs into one ``generate`` would give;
- ``LocalJudge()`` in a fresh process once the GGUF has been converted: target ≤ 3 s;
- peak RSS of that process after two verdicts: target ≤ 1.5 GB;
- the same verdict through the same GGUF served by llama.cpp's OpenAI-compatible server
  (``LiteLLMJudge("openai/smollm2", api_base=...)``, started as the tests start it):
  the ratio local-transformers / llama.cpp.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from bench._common import (
    Context,
    Figure,
    Section,
    fmt,
    local_judge,
    md_table,
    median,
    paired,
    ratios,
    run_child,
    spread,
)

NAME = "local"
TITLE = "5. Local judge (bundled model)"
TARGET = (
    "verdict ≤ 1.5× one leg; `LocalJudge()` load ≤ 3 s after the first conversion (fresh "
    "process); peak RSS ≤ 1.5 GB; local-transformers / llama.cpp reported"
)
VERDICT_LIMIT = 1.5
LOAD_LIMIT = 3.0
RSS_LIMIT_MB = 1.5 * 1024


@contextlib.contextmanager
def _generation_thread() -> Iterator[Any]:
    """What-if: LocalJudge's generations all on one dedicated worker thread.

    LocalJudge runs each generation with ``asyncio.to_thread``, so the two legs of a
    verdict run on two different pool threads, and each thread that enters torch gets
    an OpenMP thread team of its own. Yields a context manager that, while entered,
    swaps the ``asyncio`` module seen by ``prin_guard.judges._local`` for one whose
    ``to_thread`` submits to a single long-lived thread (one team). Library unchanged.
    """
    import functools
    from concurrent.futures import ThreadPoolExecutor

    import prin_guard.judges._local as local_module

    executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="bench-generate")
    real = local_module.asyncio

    class _Asyncio:
        def __getattr__(self, name: str) -> Any:
            return getattr(real, name)

        @staticmethod
        async def to_thread(fn: Any, /, *args: Any, **kwargs: Any) -> Any:
            loop = real.get_running_loop()
            return await loop.run_in_executor(executor, functools.partial(fn, *args, **kwargs))

    @contextlib.contextmanager
    def entered() -> Iterator[None]:
        local_module.asyncio = _Asyncio()  # type: ignore[assignment]
        try:
            yield
        finally:
            local_module.asyncio = real

    try:
        yield entered
    finally:
        executor.shutdown(wait=True)


def _once(index: int, runs: dict[str, Any]) -> dict[str, float]:
    """Each measurement once, back to back; the order flips with ``index``."""
    names = list(runs) if index % 2 == 0 else list(runs)[::-1]
    return {name: runs[name]() for name in names}


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextlib.contextmanager
def llama_server(timeout: float, threads: int = 2) -> Iterator[str]:
    """llama.cpp's server on the bundled GGUF, started exactly as tests/conftest.py does."""
    from prin_guard.judges._local import LocalJudge

    gguf = LocalJudge._bundled_gguf()
    port = _free_port()
    log = tempfile.NamedTemporaryFile(  # noqa: SIM115 - closed in finally
        prefix="bench-llama-server-", suffix=".log", delete=False
    )
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "llama_cpp.server",
            "--model",
            str(gguf),
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
        ],
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}/v1"
    try:
        deadline = time.monotonic() + timeout
        while True:
            try:
                with urllib.request.urlopen(f"{base}/models", timeout=2) as response:
                    if response.status == 200:
                        break
            except OSError:
                pass
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(
                    "llama.cpp server did not start: " + Path(log.name).read_text()[-1500:]
                )
            time.sleep(0.2)
        yield base
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()
        os.unlink(log.name)


def run(ctx: Context) -> Section:
    from prin_guard import Guard
    from prin_guard.datasets import load_dataset

    section = Section(NAME, TITLE, TARGET)
    records = list(load_dataset("mathqa", limit=ctx.pick(10, 1)))
    started = time.perf_counter()
    judge = local_judge(ctx)  # converts the GGUF on the very first run on a machine
    build_seconds = time.perf_counter() - started
    guard = Guard(judge, cache=None)
    one_thread = None if ctx.smoke else local_judge(ctx, threads=1)  # shares the weights
    # One event loop for every measurement, as in a long-running application: its default
    # executor (where LocalJudge runs generations) keeps its threads from call to call.
    runner = asyncio.Runner()
    try:
        return _measure(ctx, section, judge, guard, one_thread, records, runner, build_seconds)
    finally:
        runner.close()


def _measure(
    ctx: Context,
    section: Section,
    judge: Any,
    guard: Any,
    one_thread: Any,
    records: list[Any],
    runner: asyncio.Runner,
    build_seconds: float,
) -> Section:
    from prin_guard import Guard
    from prin_guard.models import Polarity

    def legs_of(item: Any) -> tuple[list[Any], list[Any]]:
        return (
            guard.messages(item, Polarity.DIRECT),
            guard.messages(item, Polarity.REVERSE),
        )

    # Warm up: the first verdict in a process pays one-off costs (measured in the child),
    # and it starts the executor threads that later verdicts reuse.
    if not ctx.smoke:
        runner.run(guard.acheck(records[0].item))

    # -- verdict vs one leg -------------------------------------------------------------------
    # Per item, back to back (order flipping item by item): each leg alone, the verdict,
    # and what-if variants: the verdict with every generation on one dedicated thread, and
    # the direct leg and the verdict with LocalJudge(threads=1).
    one_guard = None if one_thread is None else Guard(one_thread, cache=None)
    rows: list[dict[str, Any]] = []
    with _generation_thread() as single_thread:
        if not ctx.smoke:
            with single_thread():
                runner.run(guard.acheck(records[0].item))  # warm the dedicated thread
        for index, record in enumerate(records):
            item = record.item
            direct, reverse = legs_of(item)
            got: dict[str, Any] = {}

            def leg(
                messages: list[Any],
                key: str,
                item: Any = item,
                got: dict[str, Any] = got,
                which: Any = judge,
            ) -> float:
                t = time.perf_counter()
                response = runner.run(which.complete(messages, labels=item.labels))
                took = time.perf_counter() - t
                got[key] = response.usage.completion_tokens if response.usage else 0
                return took

            def verdict(
                key: str, item: Any = item, got: dict[str, Any] = got, which: Any = guard
            ) -> float:
                t = time.perf_counter()
                v = runner.run(which.acheck(item))
                took = time.perf_counter() - t
                got[f"{key}_tokens"] = v.usage.completion_tokens
                return took

            def single(item: Any = item, got: dict[str, Any] = got) -> float:
                with single_thread():
                    return verdict("verdict_single", item, got)

            runs: dict[str, Any] = {
                "direct": lambda direct=direct: leg(direct, "direct_tokens"),
                "reverse": lambda reverse=reverse: leg(reverse, "reverse_tokens"),
                "verdict": lambda: verdict("verdict"),
                "verdict_single": single,
            }
            if one_guard is not None:
                runs["direct_1t"] = lambda direct=direct: leg(
                    direct, "direct_1t_tokens", which=one_thread
                )
                runs["verdict_1t"] = lambda: verdict("verdict_1t", which=one_guard)
            times = _once(index, runs)
            rows.append({**times, **got, "id": item.key})

    direct_t = [r["direct"] for r in rows]
    verdict_t = [r["verdict"] for r in rows]
    section.add(
        paired(
            "`guard.acheck(item)`, LocalJudge (defaults), cache off",
            verdict_t,
            "the direct leg alone (`judge.complete`)",
            direct_t,
            unit="s",
            target=f"≤ {VERDICT_LIMIT}×",
            limit=VERDICT_LIMIT,
            note=f"median over {len(rows)} MathQA items",
        )
    )
    section.add(
        paired(
            "`guard.acheck(item)`",
            verdict_t,
            "direct leg + reverse leg, one after the other",
            [r["direct"] + r["reverse"] for r in rows],
            unit="s",
            note="1.0× = the legs do not overlap at all",
        )
    )
    section.add(
        paired(
            "`guard.acheck(item)`",
            verdict_t,
            "the slower of the two legs (perfect overlap)",
            [max(r["direct"], r["reverse"]) for r in rows],
            unit="s",
        )
    )
    section.add(
        paired(
            "what-if: `guard.acheck(item)` with every generation on one dedicated thread",
            [r["verdict_single"] for r in rows],
            "`guard.acheck(item)` as is (`asyncio.to_thread`)",
            verdict_t,
            unit="s",
            note="monkeypatched; same replies",
        )
    )
    section.add(
        paired(
            "what-if: the same, vs one leg",
            [r["verdict_single"] for r in rows],
            "the direct leg alone",
            direct_t,
            unit="s",
        )
    )
    if one_guard is not None:
        section.add(
            paired(
                "the direct leg, LocalJudge default threads (torch's: 2 here)",
                direct_t,
                "the same leg with `LocalJudge(threads=1)`",
                [r["direct_1t"] for r in rows],
                unit="s",
                note="same weights, same reply",
            )
        )
        section.add(
            paired(
                "`guard.acheck(item)` with `LocalJudge(threads=1)`",
                [r["verdict_1t"] for r in rows],
                "its direct leg alone, `threads=1`",
                [r["direct_1t"] for r in rows],
                unit="s",
                target=f"≤ {VERDICT_LIMIT}× (context)",
                note="the structural ratio, with less scheduling noise",
            )
        )
    section.tables.append(
        (
            "Per item (seconds; completion tokens in brackets)",
            md_table(
                [
                    "item",
                    "direct leg",
                    "reverse leg",
                    "verdict",
                    "verdict / direct",
                    "verdict, one generation thread (what-if)",
                ],
                [
                    [
                        r["id"],
                        f"{r['direct']:.2f} ({r['direct_tokens']})",
                        f"{r['reverse']:.2f} ({r['reverse_tokens']})",
                        f"{r['verdict']:.2f} ({r['verdict_tokens']})",
                        f"{r['verdict'] / r['direct']:.2f}×",
                        f"{r['verdict_single']:.2f}",
                    ]
                    for r in rows
                ],
            ),
        )
    )
    section.notes.append(
        "`LocalJudge` batches the calls that arrive together (section 5b): the two legs "
        "of a verdict are decoded side by side on the process's torch thread, so a "
        "verdict costs little more than its longer leg. The what-if rows (every "
        "generation on one dedicated thread; both legs in one `model.generate`) describe "
        "the judge as it was before batching and are kept for comparison. All rows of an "
        "item are timed back to back on one event loop (order flipping item by item), "
        "after a first verdict that warmed the process up."
    )

    _batching(ctx, section, judge, records, legs_of, rows)
    _llama(ctx, section, judge, guard, records, rows, runner)
    _fresh_process(ctx, section, build_seconds)
    _explain(section, rows)
    return section


def _explain(section: Section, rows: list[dict[str, Any]]) -> None:
    """The why of each missed target, from this run's own figures."""
    parts = []
    verdict = section.find("`guard.acheck(item)`, LocalJudge (defaults)")
    if verdict is not None and verdict.met is False:
        overlap = median(
            ratios([r["verdict"] for r in rows], [r["direct"] + r["reverse"] for r in rows])
        )
        single = section.find("what-if: the same, vs one leg")
        batch = section.find("what-if: both legs batched")
        text = (
            f"verdict / one leg = {verdict.ratio:.3f}×: the two legs never overlap, the "
            f"verdict costs {overlap:.3f}× the sum of its legs. `LocalJudge` serialises "
            "generations with its process-wide `_generation_lock` (torch already uses every "
            "core for one generation), and runs each on an `asyncio.to_thread` pool thread."
        )
        if single is not None and single.ratio is not None:
            text += (
                f" What-ifs: every generation on one dedicated thread, {single.ratio:.3f}× one leg"
            )
            if batch is not None and batch.ratio is not None:
                text += (
                    f"; both legs in one batched `generate`, {batch.ratio:.3f}× one leg of "
                    "the same length"
                )
            text += "."
        parts.append(text)
    load = section.find("`LocalJudge()` in a fresh process (imports")
    if load is not None and load.met is False:
        imported = next(
            (f for f in section.figures if f.name == "`LocalJudge()` in a fresh process"), None
        )
        proper = section.find("of which the model load proper")
        llama = section.find("what-if: the same GGUF loaded")
        text = f"`LocalJudge()` takes {load.value:.2f} s in a fresh process"
        if imported is not None and imported.baseline_value is not None:
            text += (
                ", of which importing torch and transformers alone is "
                f"{imported.baseline_value:.2f} s"
            )
        if proper is not None:
            text += (
                f"; `judge.load_seconds` ({proper.value:.2f} s) is mostly transformers "
                "importing its llama modelling stack on the first `from_pretrained` (phases "
                "table and profile below), not reading the weights"
            )
        if llama is not None:
            text += f". The same GGUF through llama-cpp-python is ready in {llama.value:.2f} s"
        parts.append(text + ".")
    if parts:
        section.why(" ".join(parts))


def _batching(
    ctx: Context,
    section: Section,
    judge: Any,
    records: list[Any],
    legs_of: Any,
    rows: list[dict[str, Any]],
) -> None:
    """What-if: both legs in one ``generate`` (batch of 2, left-padded) vs one leg alone.

    Both runs are forced to the same number of new tokens (the longer leg's), so the
    ratio is the price of the second sequence in the batch, nothing else.
    """
    import torch

    model, tokenizer = judge._loaded.model, judge._loaded.tokenizer
    saved = (tokenizer.padding_side, tokenizer.pad_token)
    single_t: list[float] = []
    batch_t: list[float] = []
    try:
        tokenizer.padding_side = "left"
        if tokenizer.pad_token is None:
            tokenizer.pad_token = tokenizer.eos_token
        for record, row in zip(records, rows, strict=True):
            direct, reverse = legs_of(record.item)
            texts = [
                tokenizer.apply_chat_template(m, add_generation_prompt=True, tokenize=False)
                for m in (direct, reverse)
            ]
            length = 1 if ctx.smoke else max(row["direct_tokens"], row["reverse_tokens"], 1)
            one = tokenizer(texts[:1], return_tensors="pt", padding=True)
            two = tokenizer(texts, return_tensors="pt", padding=True)

            def generate(inputs: Any, length: int = length) -> float:
                t = time.perf_counter()
                previous = torch.get_num_threads()
                with judge._generation_lock, torch.inference_mode():
                    if judge.threads is not None:  # as LocalJudge does
                        torch.set_num_threads(judge.threads)
                    try:
                        model.generate(
                            **inputs,
                            max_new_tokens=length,
                            min_new_tokens=length,
                            do_sample=False,
                            pad_token_id=tokenizer.pad_token_id,
                        )
                    finally:
                        torch.set_num_threads(previous)
                return time.perf_counter() - t

            got = _once(
                len(single_t),
                {"one": lambda one=one: generate(one), "two": lambda two=two: generate(two)},
            )
            single_t.append(got["one"])
            batch_t.append(got["two"])
    finally:
        tokenizer.padding_side, tokenizer.pad_token = saved
    section.add(
        paired(
            "what-if: both legs batched in one `generate` (batch of 2)",
            batch_t,
            "one leg alone, same number of new tokens",
            single_t,
            unit="s",
            note="simulated with the loaded model; the library is unchanged",
        )
    )


def _llama(
    ctx: Context,
    section: Section,
    judge: Any,
    guard: Any,
    records: list[Any],
    rows: list[dict[str, Any]],
    runner: asyncio.Runner,
) -> None:
    from prin_guard import Guard, LiteLLMJudge

    try:
        with llama_server(timeout=ctx.pick(180, 40), threads=ctx.pick(2, 1)) as base:
            remote = LiteLLMJudge(
                "openai/smollm2", api_base=base, api_key="no-key", max_tokens=judge.max_new_tokens
            )
            remote_guard = Guard(remote, cache=None)

            async def warm() -> None:
                await remote_guard.acheck(records[0].item)

            if not ctx.smoke:
                runner.run(warm())
            local_t: list[float] = []
            remote_t: list[float] = []
            local_tok: list[int] = []
            remote_tok: list[int] = []
            for record in records:
                item = record.item

                def local(item: Any = item) -> float:
                    t = time.perf_counter()
                    v = runner.run(guard.acheck(item))
                    local_tok.append(v.usage.completion_tokens or 0)
                    return time.perf_counter() - t

                def served(item: Any = item) -> float:
                    t = time.perf_counter()
                    v = runner.run(remote_guard.acheck(item))
                    remote_tok.append(v.usage.completion_tokens or 0)
                    return time.perf_counter() - t

                if ctx.smoke:  # reuse the verdict timed above: smoke figures mean nothing
                    row = rows[len(local_t)]
                    got = {"llama": served(), "local": row["verdict"]}
                    local_tok.append(row["verdict_tokens"] or 0)
                else:
                    got = _once(len(local_t), {"local": local, "llama": served})
                local_t.append(got["local"])
                remote_t.append(got["llama"])
    except RuntimeError as exc:
        message = f"llama.cpp comparison skipped: {exc}"
        if not ctx.smoke:
            raise
        section.notes.append(message)
        return
    section.add(
        paired(
            "verdict, local transformers (`LocalJudge`)",
            local_t,
            "the same verdict, same GGUF, llama.cpp server via `LiteLLMJudge`",
            remote_t,
            unit="s",
            note=f"{len(local_t)} items",
        )
    )
    per_token = ratios(
        [t / max(k, 1) for t, k in zip(local_t, local_tok, strict=True)],
        [t / max(k, 1) for t, k in zip(remote_t, remote_tok, strict=True)],
    )
    section.add(
        Figure(
            "the same, per completion token (the two engines may stop at different lengths)",
            median(per_token),
            unit="×",
            spread=spread(per_token),
            note=(
                f"completion tokens per verdict: local {median(local_tok):.0f}, "
                f"llama.cpp {median(remote_tok):.0f} (medians)"
            ),
        )
    )
    section.notes.append(
        "The llama.cpp server is started as tests/conftest.py starts it (`--n_ctx 4096 "
        "--n_threads 2`); it handles one request at a time, so its two legs do not overlap "
        "either. `max_tokens` is LocalJudge's `max_new_tokens`; LocalJudge also stops after "
        "the `Answer:` line, llama.cpp does not."
    )


def _fresh_process(ctx: Context, section: Section, build_seconds: float) -> None:
    rounds = ctx.pick(3, 1)
    judge_tokens = ctx.pick(48, 4)
    verdicts = ctx.pick(2, 1)
    threads = ctx.pick("0", "1")  # 0: LocalJudge's default
    imports: list[dict[str, Any]] = []
    judges: list[dict[str, Any]] = []
    passive: list[dict[str, Any]] = []
    for index in range(rounds):
        order = ["import", "judge", "passive"]
        if index % 2:
            order.reverse()
        if ctx.smoke:
            order = ["judge"]  # the baselines are skipped to keep the smoke short
        for mode in order:
            got = run_child(
                [
                    "-m",
                    "bench._local_child",
                    "import" if mode == "import" else "judge",
                    str(judge_tokens),
                    str(verdicts),
                    threads,
                ],
                timeout=900,
                env={"OMP_WAIT_POLICY": "PASSIVE"} if mode == "passive" else None,
            )
            {"import": imports, "judge": judges, "passive": passive}[mode].append(got)
    build = [j["build"] for j in judges]
    section.add(
        Figure(
            "`LocalJudge()` in a fresh process (imports torch + transformers, loads the "
            "converted copy)",
            median(build),
            unit="s",
            baseline="target",
            baseline_value=LOAD_LIMIT,
            ratio=median(build) / LOAD_LIMIT,
            spread=spread([b / LOAD_LIMIT for b in build]),
            target=f"≤ {LOAD_LIMIT:g} s",
            met=median(build) <= LOAD_LIMIT,
            note=f"origin: {Path(judges[0]['loaded_from']).name}",
        )
    )
    if imports:
        section.add(
            paired(
                "`LocalJudge()` in a fresh process",
                build,
                "`import torch, transformers` alone in a fresh process",
                [i["seconds"] for i in imports],
                unit="s",
            )
        )
    load = [j["load_seconds"] for j in judges]
    section.add(
        Figure(
            "of which the model load proper (`judge.load_seconds`)",
            median(load),
            unit="s",
            baseline="target",
            baseline_value=LOAD_LIMIT,
            ratio=median(load) / LOAD_LIMIT,
            spread=spread([v / LOAD_LIMIT for v in load]),
            note="tokenizer + weights, after torch/transformers are imported",
        )
    )
    if all(j["second_verdict"] is not None for j in judges):
        section.add(
            paired(
                "first verdict in a fresh process",
                [j["first_verdict"] for j in judges],
                "the same verdict again",
                [j["second_verdict"] for j in judges],
                unit="s",
                note="what a fresh process pays on its first generation, if anything",
            )
        )
    if passive:
        section.add(
            paired(
                "first verdict in a fresh process started with `OMP_WAIT_POLICY=PASSIVE`",
                [p["first_verdict"] for p in passive],
                "first verdict, default OpenMP wait policy (same round)",
                [j["first_verdict"] for j in judges],
                unit="s",
                note="OpenMP threads sleep instead of spinning when idle",
            )
        )
    rss = [j["rss_peak_mb"] for j in judges]
    section.add(
        Figure(
            f"peak RSS of that process after {verdicts} verdict(s)",
            median(rss),
            unit="MiB",
            baseline="target",
            baseline_value=RSS_LIMIT_MB,
            ratio=median(rss) / RSS_LIMIT_MB,
            spread=spread([r / RSS_LIMIT_MB for r in rss]),
            target="≤ 1.5 GB (1,536 MiB)",
            met=median(rss) <= RSS_LIMIT_MB,
            note=f"{median([j['rss_after_build_mb'] for j in judges]):.0f} MiB right after "
            "`LocalJudge()`",
        )
    )
    if imports:
        section.add(
            paired(
                "peak RSS with the model",
                rss,
                "`import torch, transformers` alone",
                [i["rss_peak_mb"] for i in imports],
                unit="MiB",
            )
        )
    section.notes.append(
        f"Fresh-process figures: {rounds} rounds, each spawning the import-only baseline, the "
        "judge process and the judge process with `OMP_WAIT_POLICY=PASSIVE` back to back "
        "(order alternating). In this benchmark's own process "
        f"`LocalJudge()` took {build_seconds:.2f} s (a conversion, if any, happened there)."
    )
    if not ctx.smoke:
        llama = [
            run_child(["-m", "bench._local_child", "llamacpp"], timeout=900) for _ in range(rounds)
        ]
        section.add(
            paired(
                "what-if: the same GGUF loaded in a fresh process by llama-cpp-python "
                "(`Llama(model_path=...)`, import included)",
                [x["import"] + x["build"] for x in llama],
                "`LocalJudge()` in a fresh process",
                build,
                unit="s",
                note="not round-paired: separate processes after the rounds above",
            )
        )
        section.add(
            paired(
                "what-if: peak RSS of that llama-cpp-python process after two legs",
                [x["rss_peak_mb"] for x in llama],
                "LocalJudge process",
                rss,
                unit="MiB",
            )
        )
        phases = run_child(["-m", "bench._local_child", "phases"], timeout=900)
        section.tables.append(
            (
                "Where a fresh-process load goes (one process, phases timed in order; each "
                "phase pays the imports it triggers)",
                md_table(
                    ["phase", "seconds"],
                    [[name, fmt(s, "s")] for name, s in phases["phases"].items()],
                ),
            )
        )
    if ctx.smoke:
        return
    profile = run_child(["-m", "bench._local_child", "profile"], timeout=900)
    section.blocks.append(
        (
            "cProfile of `LocalJudge()` in a fresh process, by cumulative time (import "
            "machinery rows dropped; times inflated by the profiler)",
            profile["profile"],
        )
    )
