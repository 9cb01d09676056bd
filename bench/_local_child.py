"""Fresh-process measurements of the bundled local model (benchmark 5).

    python -m bench._local_child import     # import torch + transformers only (the baseline)
    python -m bench._local_child judge [MAX_NEW_TOKENS VERDICTS THREADS]
                                            # LocalJudge(): load time, verdicts, peak RSS
    python -m bench._local_child phases     # the load split into its phases
    python -m bench._local_child profile    # cProfile of LocalJudge() (cumulative, top entries)
    python -m bench._local_child llamacpp   # the same GGUF via llama-cpp-python, in process

Prints one JSON line.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from typing import Any

from bench._common import max_rss_mb, profile_text, profiled, quiet_logging


def _import() -> dict[str, Any]:
    started = time.perf_counter()
    import torch  # noqa: F401
    import transformers  # noqa: F401

    return {"seconds": time.perf_counter() - started, "rss_peak_mb": max_rss_mb()}


def _judge() -> dict[str, Any]:
    started = time.perf_counter()
    from prin_guard import Guard, LocalJudge
    from prin_guard.datasets import load_dataset

    imported = time.perf_counter()
    threads = int(sys.argv[4]) if len(sys.argv) > 4 else 0
    judge = LocalJudge(
        max_new_tokens=int(sys.argv[2]) if len(sys.argv) > 2 else 48, threads=threads or None
    )
    built = time.perf_counter()
    rss_after_build = max_rss_mb()
    item = next(iter(load_dataset("mathqa", limit=1))).item
    guard = Guard(judge, cache=None)

    async def verdicts() -> list[float]:
        times = []
        for _ in range(int(sys.argv[3]) if len(sys.argv) > 3 else 2):
            t = time.perf_counter()
            await guard.acheck(item)
            times.append(time.perf_counter() - t)
        return times

    times = asyncio.run(verdicts())
    first, second = times[0], times[1] if len(times) > 1 else None
    return {
        "import_prin_guard": imported - started,
        "build": built - imported,
        "load_seconds": judge.load_seconds,
        "loaded_from": str(judge.loaded_from),
        "first_verdict": first,
        "second_verdict": second,
        "rss_after_build_mb": rss_after_build,
        "rss_peak_mb": max_rss_mb(),
    }


def _llamacpp() -> dict[str, Any]:
    """The same GGUF in this process through llama-cpp-python: load time, one leg, RSS."""
    started = time.perf_counter()
    from llama_cpp import Llama

    from prin_guard._prompting._prompts import build_messages, get_template
    from prin_guard.datasets import load_dataset
    from prin_guard.judges._local import LocalJudge
    from prin_guard.models import Polarity

    imported = time.perf_counter()
    llm = Llama(model_path=str(LocalJudge._bundled_gguf()), n_ctx=4096, n_threads=2, verbose=False)
    built = time.perf_counter()
    item = next(iter(load_dataset("mathqa", limit=1))).item
    messages = build_messages(item, Polarity.DIRECT, get_template("v0"), ())
    times = []
    for _ in range(2):
        t = time.perf_counter()
        llm.create_chat_completion(messages=messages, max_tokens=48, temperature=0.0)
        times.append(time.perf_counter() - t)
    return {
        "import": imported - started,
        "build": built - imported,
        "first_leg": times[0],
        "second_leg": times[1],
        "rss_peak_mb": max_rss_mb(),
    }


def _phases() -> dict[str, Any]:
    from prin_guard._infra._settings import model_cache_dir

    times: dict[str, float] = {}
    t = time.perf_counter()
    import torch

    times["import torch"] = time.perf_counter() - t
    t = time.perf_counter()
    import transformers

    times["import transformers"] = time.perf_counter() - t
    t = time.perf_counter()
    from prin_guard.judges._local import LocalJudge, _Fingerprint

    gguf = LocalJudge._bundled_gguf()
    fingerprint = _Fingerprint.of(gguf, model_cache_dir())
    times["find the GGUF + fingerprint (cached by size/mtime)"] = time.perf_counter() - t
    converted = model_cache_dir() / f"{gguf.stem}-{fingerprint[:12]}"
    t = time.perf_counter()
    tokenizer = transformers.AutoTokenizer.from_pretrained(converted, local_files_only=True)
    times["AutoTokenizer.from_pretrained (converted copy)"] = time.perf_counter() - t
    t = time.perf_counter()
    model = transformers.AutoModelForCausalLM.from_pretrained(
        converted, local_files_only=True, dtype=torch.float32
    )
    times["AutoModelForCausalLM.from_pretrained (converted copy)"] = time.perf_counter() - t
    del model, tokenizer
    return {"phases": times, "converted": str(converted)}


def _profile() -> dict[str, Any]:
    from prin_guard import LocalJudge

    with profiled() as profiler:
        LocalJudge()
    return {
        "profile": profile_text(
            profiler,
            top=80,
            sort="cumulative",
            exclude=("<frozen", "{built-in method builtins.", "importlib/__init__", "{method "),
            keep=25,
        )
    }


def main() -> None:
    quiet_logging()
    mode = sys.argv[1]
    result = {
        "import": _import,
        "judge": _judge,
        "phases": _phases,
        "profile": _profile,
        "llamacpp": _llamacpp,
    }[mode]()
    print(json.dumps(result))


if __name__ == "__main__":
    main()
