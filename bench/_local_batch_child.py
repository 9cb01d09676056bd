"""Fresh-process measurements for bench/local_batch.py (benchmark 5b). Prints one JSON line.

    python -m bench._local_batch_child throughput KIND ITEMS CONCURRENCY [API_BASE]
        time to first verdict, then verdicts per minute over ITEMS MathQA items;
        KIND: batched (LocalJudge()), unbatched (batch_size=1) or llama (LiteLLMJudge)
    python -m bench._local_batch_child legs KIND[,KIND] ITEMS
        per item, back to back: the direct leg alone and the verdict
    python -m bench._local_batch_child drift ITEMS
        both legs of ITEMS items in batches of 8 and alone: same replies? how far apart
        are the log-probabilities (whole vocabulary), how close the nearest tie
    python -m bench._local_batch_child steps [ROUNDS]
        one decoding step of the model for several numbers of rows, and one 170-token
        prompt, with each product of _local_kernels and with torch's own kernel
    python -m bench._local_batch_child [--smoke] COMMAND [+ COMMAND ...]
        several commands: one after the other in this one process (one load of torch and
        the model), the line is then ``{"runs": [...]}``, one result each; ``--smoke``:
        replies of 4 new tokens, one torch thread, as bench._common.local_judge's

Run from the copied tree of the code before batching, ``prin_guard`` is that code.
"""

from __future__ import annotations

import asyncio
import json
import statistics
import sys
import time
from typing import Any

from bench._common import quiet_logging

_SIZE: dict[str, Any] = {}
"""What the judges are built with besides their kind: LocalJudge's defaults (48 new
tokens), or ``--smoke``'s."""
_SMOKE = {"max_new_tokens": 4, "threads": 1}
_STEPS: dict[str, Any] = {"rows": (1, 2, 4, 6, 8, 12), "cached": 160, "threads": 0}
"""``steps``: the rows of a decoding step, the tokens cached before it, torch's threads
(0: its default); ``--smoke``: 1 and 12 rows (a lone row, padded by the few-row product;
more rows than it takes), 16 tokens, one thread."""


def _records(n: int) -> list[Any]:
    import itertools

    from prin_guard.datasets import load_mathqa, sample_path

    return list(itertools.islice(load_mathqa(sample_path("mathqa")), n))


def _judge(kind: str, api_base: str | None) -> Any:
    from prin_guard import LiteLLMJudge, LocalJudge

    size = {"max_new_tokens": 48, **_SIZE}
    if kind == "llama":
        return LiteLLMJudge(
            "openai/smollm2",
            api_base=api_base,
            api_key="no-key",
            max_tokens=size["max_new_tokens"],
        )
    if kind == "unbatched":
        return LocalJudge(**size, batch_size=1)
    return LocalJudge(**size)  # batched (defaults), or the old code


def _stats(judge: Any) -> dict[str, Any] | None:
    stats = getattr(judge, "batch_stats", None)
    return None if stats is None else dict(vars(stats))


async def _throughput(kind: str, items: int, concurrency: int, api_base: str | None) -> Any:
    """Time to first verdict, then verdicts per minute over ``items`` MathQA items."""
    started = time.perf_counter()
    from prin_guard import Guard

    records = _records(items)
    judge = _judge(kind, api_base)
    built = time.perf_counter()
    guard = Guard(judge, cache=None, concurrency=concurrency)
    await guard.acheck(records[0].item)
    first = time.perf_counter()
    before = _stats(judge)
    verdicts = await guard.acheck_many([r.item for r in records])
    seconds = time.perf_counter() - first
    after = _stats(judge)
    return {
        "build": built - started,
        "first_verdict": first - built,
        "to_first_verdict": first - started,
        "seconds": seconds,
        "verdicts": len(verdicts),
        "per_minute": 60 * len(verdicts) / seconds,
        "completion_tokens": sum(v.usage.completion_tokens or 0 for v in verdicts),
        "stats": None
        if before is None or after is None
        else {k: after[k] - before[k] if k != "largest" else after[k] for k in after},
    }


async def _legs(kinds: list[str], items: int) -> Any:
    """Per item, back to back: the direct leg alone and the verdict, for each judge kind."""
    from prin_guard import Guard
    from prin_guard.models import Polarity

    records = _records(items)
    judges = {kind: _judge(kind, None) for kind in kinds}
    guards = {kind: Guard(judge, cache=None) for kind, judge in judges.items()}
    for guard in guards.values():
        await guard.acheck(records[0].item)  # warm up
    rows = []
    for index, record in enumerate(records):
        row: dict[str, Any] = {"id": record.item.key}
        runs = [(kind, part) for kind in kinds for part in ("leg", "verdict")]
        for kind, part in runs if index % 2 == 0 else runs[::-1]:
            guard = guards[kind]
            t = time.perf_counter()
            if part == "leg":
                messages = guard.messages(record.item, Polarity.DIRECT)
                response = await judges[kind].complete(messages, labels=record.item.labels)
                tokens = response.usage.completion_tokens if response.usage else 0
            else:
                verdict = await guard.acheck(record.item)
                tokens = verdict.usage.completion_tokens
            row[f"{kind}_{part}"] = time.perf_counter() - t
            row[f"{kind}_{part}_tokens"] = tokens
        rows.append(row)
    return {"rows": rows}


def _drift(items: int) -> Any:
    """Batched (8 rows) against alone, step by step, over the whole vocabulary."""
    import torch

    from prin_guard import Guard, LocalJudge
    from prin_guard.judges import _local_decode
    from prin_guard.models import Polarity

    judge = LocalJudge(**_SIZE)
    tokenizer, model = judge._loaded.tokenizer, judge._loaded.model
    guard = Guard(judge, cache=None)
    prompts = [
        list(
            tokenizer.apply_chat_template(
                [dict(m) for m in guard.messages(r.item, polarity)],
                add_generation_prompt=True,
                return_dict=True,
            )["input_ids"]
        )
        for r in _records(items)
        for polarity in (Polarity.DIRECT, Polarity.REVERSE)
    ]
    seen: dict[Any, list[Any]] = {}
    choose = _local_decode._Batch._choose

    def recording(self: Any, row: Any, logits: Any) -> None:
        seen.setdefault(row.call, []).append(torch.log_softmax(logits.float(), dim=-1))
        choose(self, row, logits)

    _local_decode._Batch._choose = recording  # type: ignore[method-assign]

    def generate(group: list[Any]) -> list[list[int]]:
        batch = _local_decode._Batch(model, tokenizer, torch, judge._rt.transformers.DynamicCache)
        rows = []
        with torch.inference_mode():
            for call in group:
                rows.append(batch.admit(call))
            while batch.rows:
                batch.step()
        return [row.generated for row in rows]

    def call(prompt: list[int]) -> Any:
        return _local_decode._Call(prompt, judge.max_new_tokens, True, 0.0, 0, 8, 0.0, None)

    drift, gap, same = 0.0, float("inf"), 0
    try:
        for start in range(0, len(prompts), 8):
            group = [call(p) for p in prompts[start : start + 8]]
            together = generate(group)
            for one, ids in zip(group, together, strict=True):
                alone_call = call(one.prompt)
                (alone,) = generate([alone_call])
                same += alone == ids
                for a, b in zip(seen[alone_call], seen[one], strict=False):
                    drift = max(drift, float((a - b).abs().max()))
                    top = torch.topk(a, 2).values
                    gap = min(gap, float(top[0] - top[1]))
    finally:  # a later command in the same process decodes as the library does
        _local_decode._Batch._choose = choose  # type: ignore[method-assign]
    return {"legs": len(prompts), "same": same, "drift": drift, "closest_gap": gap}


def _steps(rounds: int) -> Any:
    """One decoding step for several batch sizes, and one prompt, with each linear product.

    Run with ``PRIN_GUARD_LOCAL_KERNEL=torch`` (the parent sets it), so the loaded model
    keeps torch's own layers; each product gets a copy of it. Everything runs on the
    torch thread, as LocalJudge's generations do.
    """
    import copy

    import torch

    from prin_guard import LocalJudge
    from prin_guard.judges._local_kernels import fast_linears
    from prin_guard.judges._local_thread import TorchThread

    judge = LocalJudge()
    base = judge._loaded.model
    if judge._loaded.kernel != "torch":
        raise RuntimeError("run with PRIN_GUARD_LOCAL_KERNEL=torch")

    def measure() -> dict[str, float]:
        models = {"torch": base}
        for kernel in ("few-row", "onednn"):
            models[kernel] = copy.deepcopy(base)
            if fast_linears(models[kernel], torch, kernel) != kernel:
                del models[kernel]  # oneDNN does not work here
        sizes = _STEPS["rows"]
        if _STEPS["threads"]:
            torch.set_num_threads(_STEPS["threads"])
        times: dict[str, list[float]] = {}
        with torch.inference_mode():
            caches = {
                rows: base(
                    input_ids=torch.randint(100, 1000, (rows, _STEPS["cached"])),
                    use_cache=True,
                    logits_to_keep=1,
                ).past_key_values
                for rows in sizes
            }
            prompt = torch.randint(100, 1000, (1, 170))
            for round_ in range(rounds):
                kernels = list(models) if round_ % 2 else list(models)[::-1]
                for kernel in kernels:
                    model = models[kernel]
                    for rows in sizes:
                        cache = caches[rows]
                        t = time.perf_counter()
                        model(input_ids=torch.randint(100, 1000, (rows, 1)), past_key_values=cache)
                        times.setdefault(f"{rows}-{kernel}", []).append(time.perf_counter() - t)
                        cache.crop(-1)
                    t = time.perf_counter()
                    model(input_ids=prompt, use_cache=True, logits_to_keep=1)
                    times.setdefault(f"prompt-{kernel}", []).append(time.perf_counter() - t)
        return {key: statistics.median(values) for key, values in times.items()}

    return TorchThread.get().call(measure)


def _command(argv: list[str]) -> dict[str, Any]:
    mode, *rest = argv
    result: dict[str, Any]
    if mode == "throughput":
        api_base = rest[3] if len(rest) > 3 else ""
        result = asyncio.run(_throughput(rest[0], int(rest[1]), int(rest[2]), api_base or None))
    elif mode == "legs":
        result = asyncio.run(_legs(rest[0].split(","), int(rest[1])))
    elif mode == "drift":
        result = _drift(int(rest[0]))
    else:
        result = _steps(int(rest[0]) if rest else 8)
    return result


def main(argv: list[str]) -> None:
    quiet_logging()
    if argv[:1] == ["--smoke"]:
        _SIZE.update(_SMOKE)
        _STEPS.update(rows=(1, 12), cached=16, threads=1)
        argv = argv[1:]
    commands: list[list[str]] = [[]]
    for arg in argv:
        if arg == "+":
            commands.append([])
        else:
            commands[-1].append(arg)
    runs = [_command(command) for command in commands]
    result: dict[str, Any] = runs[0] if len(runs) == 1 else {"runs": runs}
    import prin_guard.judges._local as local

    result["local_judge_module"] = local.__file__
    print(json.dumps(result))


if __name__ == "__main__":
    main(sys.argv[1:])
