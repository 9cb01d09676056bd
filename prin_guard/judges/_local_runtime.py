"""torch and transformers for :class:`~prin_guard.judges.LocalJudge`, imported on first use.

Nothing here imports them at module level: ``import prin_guard`` must stay fast for
users who only judge with hosted models, so :class:`_Runtime` imports them when the
first judge is built. It also holds the switch that keeps transformers' progress bars
out of the output while a model loads.
"""

from __future__ import annotations

import contextlib
import importlib
import re
import threading
from collections.abc import Iterator
from typing import Any, ClassVar

from prin_guard.errors import MissingExtraError

__all__ = ["_Runtime"]


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

    @contextlib.contextmanager
    def quiet_loading(self) -> Iterator[None]:
        """transformers' progress bars off while a model loads, then as they were.

        A load draws bars on stderr ("Loading weights", and "Writing model shards" when
        the converted copy is saved), which would land in the middle of the CLI's output
        (and of the application's). The switch is process-wide, so it is put back as
        found; loads are serialised (``_Registry``), so two of them never interleave
        their switching. The bar of a GGUF file's dequantization (first load only) is
        drawn by tqdm directly, out of this switch's reach.
        """
        logging = self.transformers.utils.logging
        if not logging.is_progress_bar_enabled():
            yield
            return
        # transformers' switch also flips huggingface_hub's global one; when the
        # application had turned that one off, it must stay off afterwards.
        hub = self._require("huggingface_hub.utils")
        hub_disabled = hub.are_progress_bars_disabled()
        logging.disable_progress_bar()
        try:
            yield
        finally:
            logging.enable_progress_bar()
            if hub_disabled:
                hub.disable_progress_bars()
