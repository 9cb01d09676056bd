"""torch and transformers for :class:`~prin_guard.judges.LocalJudge`, imported on first use.

Nothing here imports them at module level: ``import prin_guard`` must stay fast for
users who only judge with hosted models, so :class:`_Runtime` imports them when the
first judge is built. It also holds what is built on their classes (the stopping rule
and the seeded sampler), which cannot be defined before they are imported, and the
switch that keeps transformers' progress bars out of the output while a model loads.
"""

from __future__ import annotations

import contextlib
import importlib
import math
import re
import threading
from collections.abc import Iterator
from typing import Any, ClassVar

from prin_guard._exceptions import MissingExtraError

__all__ = ["_Runtime", "_answer_line_end"]

# A completed "Answer: ..." line: optional markdown (bold, italics, heading, quote) before
# the word, something other than markdown after the colon (so that "**Answer:**" alone on
# a line, with the labels on the next line, is not cut off), then the newline.
_ANSWER_LINE = re.compile(
    r"^[ \t>#*_`]*answer[ \t*_`]*:[ \t*_`]*[^\s*_`][^\n]*\n", re.IGNORECASE | re.MULTILINE
)


def _answer_line_end(text: str) -> int | None:
    """Where the first finished ``Answer:`` line ends (just past its newline)."""
    match = _ANSWER_LINE.search(text)
    return None if match is None else match.end()


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
                    done = _answer_line_end(text) is not None
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
