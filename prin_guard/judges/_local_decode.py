"""Decoding several :class:`~prin_guard.judges.LocalJudge` calls at once, one token a step.

A :class:`_Batch` holds the calls being generated together: their tokens, one key/value
cache for all of them (left-padded to a common length, with an attention mask and each
row's own positions), and what each has generated with its log-probabilities. Calls join
between two steps (:meth:`_Batch.admit`: the prompt is run alone, reusing the cached keys
and values of the longest prompt prefix it shares with a row already there, or with a
row that finished a moment ago: the legs of a verdict compute their shared prefix once)
and leave as soon as they are done (end of sequence, a finished answer line, or their
token budget), so that a short reply never waits for a long one and a new call never
waits for a batch.

Greedy decoding takes the largest logit; sampling takes the largest logit plus Gumbel
noise drawn from the row's own generator, seeded for that call (a draw from the softmax
at that temperature), so that no row's draw depends on its companions. A row computed
with others (or from a shared prefix) sees logits a few ulps away from those it would get
alone (other matrix shapes, padding); the row notes any step at which that could have
changed its token (a near tie between the two best scores) so that
the scheduler can generate it again alone (see ``_local_batch``).

Everything is run by the scheduler's one thread, under the model's generation lock.
"""

from __future__ import annotations

import collections
import concurrent.futures
import inspect
from dataclasses import dataclass, field
from typing import Any

from prin_guard.judges._local_text import _answer_line_end

__all__ = ["TIE_MARGIN", "_Batch", "_Call", "_Generated"]

TIE_MARGIN = 2e-3
"""How close a batched step may come to choosing another token before the row is redone alone.

Batching moves each log-probability by at most ``D`` (5.3e-5 on the bundled model over
the whole vocabulary, every step of 40 MathQA legs in batches of 8: bench/local_batch.py
and BENCHMARKS.md), so it moves the gap between two logits by at most ``2 D``. A greedy
step whose two best logits are more than this apart chose what the row alone would have
chosen. A draw at temperature ``T`` is the largest of
``logits / T`` plus noise that does not depend on the batch, and its gap moves by at
most ``2 D / T``: the step is safe when that gap, times ``T``, is more than this. The
margin assumes ``D <= 1e-3``, 19 times what was measured.
"""

# Sharing a prefix copies its keys and values; below this many tokens it is not worth it.
_MIN_SHARED = 8
# How many tokens of finished rows' keys and values are kept for later calls to share
# (about 46 KB a token for the bundled model: some 190 MB at most).
_RECENT_TOKENS = 4096


@dataclass(frozen=True, slots=True)
class _Recent:
    """A finished row's tokens (all but its last) and each layer's keys and values."""

    tokens: list[int]
    layers: list[tuple[Any, Any]]
    prompt: int
    """How many of ``tokens`` were its prompt."""


@dataclass(eq=False)
class _Call:
    """One call to generate: the prompt's ids and how to decode the reply."""

    prompt: list[int]
    max_new_tokens: int
    stop_at_answer_line: bool
    temperature: float
    seed: int
    batch_size: int
    batch_wait: float
    threads: int | None
    top_logprobs: int | None = None
    """Keep the likeliest tokens at each step too, this many (a rating's expected score)."""
    future: concurrent.futures.Future[_Generated] = field(default_factory=concurrent.futures.Future)


@dataclass(frozen=True, slots=True)
class _Generated:
    """What generating one call gave: token ids and their raw log-probabilities."""

    ids: list[int]
    logprobs: list[float]
    batched: bool
    """Computed with other rows or from a shared prefix (and not redone alone)."""
    redone: bool
    """Generated again alone after a near tie in the batch."""
    alternatives: list[list[tuple[int, float]]] | None = None
    """With ``top_logprobs``: at each step, the likeliest token ids and log-probabilities."""


@dataclass(eq=False)
class _Row:
    call: _Call
    tokens: list[int]
    """The prompt, then every generated token; all but the last are in the cache."""
    generated: list[int] = field(default_factory=list)
    logprobs: list[float] = field(default_factory=list)
    alternatives: list[list[tuple[int, float]]] = field(default_factory=list)
    generator: Any = None
    batched: bool = False
    """Computed with other rows, or from another row's prompt prefix."""
    shared: int = 0
    """Prompt tokens whose keys and values were copied from another row."""
    close_call: bool = False
    """A step came within TIE_MARGIN of choosing another token."""
    done: bool = False


class _Batch:
    """The rows being decoded together, and their key/value cache."""

    def __init__(self, model: Any, tokenizer: Any, torch: Any, cache_class: Any) -> None:
        self._model = model
        self._tokenizer = tokenizer
        self._torch = torch
        self._cache_class = cache_class
        params = inspect.signature(model.forward).parameters
        # transformers 5 renamed ``past_key_values`` to ``cache``.
        self._cache_argument = "cache" if "cache" in params else "past_key_values"
        eos = model.generation_config.eos_token_id
        eos_ids = set(eos if isinstance(eos, list) else [eos] if eos is not None else [])
        if tokenizer.eos_token_id is not None:
            eos_ids.add(tokenizer.eos_token_id)
        self._eos = frozenset(eos_ids)
        self.rows: list[_Row] = []
        self._cache: Any = None
        self._mask: Any = None  # (rows, cached length): 1 for a token, 0 for padding
        self._recent: collections.deque[_Recent] = collections.deque()

    # -- joining ------------------------------------------------------------------

    def admit(self, call: _Call, *, share: bool = True) -> _Row:
        """Run ``call``'s prompt and add it as a row, with its first generated token.

        Returns the row; one already done (its first token ended it) is not added.
        ``share`` reuses the keys and values of a prompt prefix shared with a row.
        """
        torch = self._torch
        row = _Row(call, list(call.prompt))
        if call.temperature > 0:
            row.generator = torch.Generator(device="cpu").manual_seed(call.seed)
        source, shared = self._best_prefix(call.prompt) if share else (None, 0)
        layers: list[tuple[Any, Any]] = []
        if source is not None:
            # Copies: a contiguous prefix makes the suffix's attention faster than a view
            # of the source's keys and values does (measured: about 0.2 s against 0.3 s for
            # 39 tokens after 2,129 on the bundled model).
            layers = [
                (k[:, :, :shared].clone(), v[:, :, :shared].clone()) for k, v in self._kv_of(source)
            ]
            row.batched = True
            row.shared = shared
        cache = self._cache_class(layers) if layers else self._cache_class()
        suffix = torch.tensor([call.prompt[shared:]], dtype=torch.long)
        positions = torch.arange(shared, len(call.prompt), dtype=torch.long)[None]
        out = self._model(
            input_ids=suffix,
            position_ids=positions,
            use_cache=True,
            logits_to_keep=1,
            **{self._cache_argument: cache},
        )
        self._choose(row, out.logits[0, -1])
        if row.done:
            self._remember(call.prompt, self._tensors(cache), len(call.prompt))
        else:
            self._join(row, cache)
        return row

    def _best_prefix(self, prompt: list[int]) -> tuple[_Row | _Recent | None, int]:
        """The row, or the recently finished row, whose cached tokens share the longest
        prefix with ``prompt`` (at least ``_MIN_SHARED`` tokens), and that length."""
        best: _Row | _Recent | None = None
        best_length = 0
        sources: list[tuple[_Row | _Recent, list[int]]] = [
            (row, row.tokens[: len(row.tokens) - 1]) for row in self.rows
        ]
        # A finished row serves other prompts (a verdict's other legs), never its own
        # again: the same call asked twice is computed alone both times, so it gets the
        # same log-probabilities to the last bit.
        sources += [
            (recent, recent.tokens)
            for recent in reversed(self._recent)
            if not (recent.prompt == len(prompt) and recent.tokens[: len(prompt)] == prompt)
        ]
        for source, cached in sources:
            length = 0
            limit = min(len(cached), len(prompt) - 1)  # the last prompt token is computed
            while length < limit and cached[length] == prompt[length]:
                length += 1
            if length > best_length:
                best, best_length = source, length
        if best_length < _MIN_SHARED:
            return None, 0
        return best, best_length

    def _kv_of(self, source: _Row | _Recent) -> list[tuple[Any, Any]]:
        """Each layer's keys and values of ``source``'s cached tokens, from position 0."""
        if isinstance(source, _Recent):
            return source.layers
        index = self.rows.index(source)
        first = self._mask.shape[1] - (len(source.tokens) - 1)
        return [
            (k[index : index + 1, :, first:], v[index : index + 1, :, first:])
            for k, v in self._layers()
        ]

    def forget(self) -> None:
        """Drop the keys and values kept of finished rows."""
        self._recent.clear()

    def _remember(self, tokens: list[int], layers: list[tuple[Any, Any]], prompt: int) -> None:
        """Keep a finished row's keys and values for a while: a verdict's other legs, or
        the next verdict's, that arrive after it left the batch still share its prefix
        (the shared prefix is computed once). The most recent rows are kept, up to
        ``_RECENT_TOKENS`` tokens in all."""
        self._recent.append(_Recent(list(tokens), layers, prompt))
        while sum(len(recent.tokens) for recent in self._recent) > _RECENT_TOKENS:
            self._recent.popleft()

    def _join(self, row: _Row, cache: Any) -> None:
        torch = self._torch
        new = self._tensors(cache)
        length = len(row.tokens) - 1
        if not self.rows:
            self.rows = [row]
            self._mask = torch.ones((1, length), dtype=torch.long)
            self._cache = cache
            return
        width = max(self._mask.shape[1], length)
        old = [(self._pad(k, width), self._pad(v, width)) for k, v in self._layers()]
        new = [(self._pad(k, width), self._pad(v, width)) for k, v in new]
        mask = torch.ones((1, length), dtype=torch.long)
        self._mask = torch.cat([self._pad(self._mask, width), self._pad(mask, width)])
        self._cache = self._cache_class(
            [
                (torch.cat([ko, kn]), torch.cat([vo, vn]))
                for (ko, vo), (kn, vn) in zip(old, new, strict=True)
            ]
        )
        self.rows.append(row)
        for each in self.rows:
            each.batched = True

    def _pad(self, tensor: Any, width: int) -> Any:
        """``tensor`` left-padded with zeros along its sequence axis to ``width``."""
        axis = 1 if tensor.dim() == 2 else 2
        missing = width - tensor.shape[axis]
        if missing == 0:
            return tensor
        shape = list(tensor.shape)
        shape[axis] = missing
        return self._torch.cat([tensor.new_zeros(shape), tensor], dim=axis)

    # -- one step ------------------------------------------------------------------

    def step(self) -> list[_Row]:
        """Generate one token for every row; returns (and removes) the rows now done."""
        torch = self._torch
        inputs = torch.tensor([[row.tokens[-1]] for row in self.rows], dtype=torch.long)
        positions = torch.tensor([[len(row.tokens) - 1] for row in self.rows], dtype=torch.long)
        mask = torch.cat([self._mask, torch.ones((len(self.rows), 1), dtype=torch.long)], dim=1)
        out = self._model(
            input_ids=inputs,
            position_ids=positions,
            # All ones (no padding): no mask, so that a lone row runs exactly as alone.
            attention_mask=None if bool(mask.all()) else mask,
            use_cache=True,
            **{self._cache_argument: self._cache},
        )
        self._mask = mask
        logits = out.logits[:, -1]
        for index, row in enumerate(self.rows):
            self._choose(row, logits[index])
        return self.drop([row for row in self.rows if row.done])

    def drop(self, rows: list[_Row]) -> list[_Row]:
        """Remove ``rows`` (done or abandoned) from the batch; returns them."""
        if not rows:
            return rows
        for row in rows:
            if row.done and row in self.rows:
                # copies: a view would hold the whole batch's cache alive
                kept = [(k.clone(), v.clone()) for k, v in self._kv_of(row)]
                self._remember(row.tokens[: len(row.tokens) - 1], kept, len(row.call.prompt))
        keep = [i for i, row in enumerate(self.rows) if row not in rows]
        self.rows = [self.rows[i] for i in keep]
        if not keep:
            self._cache = self._mask = None
            return rows
        torch = self._torch
        index = torch.tensor(keep, dtype=torch.long)
        mask = self._mask[index]
        # Columns that are padding in every remaining row are dropped.
        first = int(mask.any(dim=0).nonzero()[0, 0])
        self._mask = mask[:, first:]
        self._cache = self._cache_class(
            [(k[index, :, first:], v[index, :, first:]) for k, v in self._layers()]
        )
        return rows

    def _choose(self, row: _Row, logits: Any) -> None:
        """Pick ``row``'s next token from its logits (float32, unwarped), note its log-prob."""
        torch = self._torch
        logits = logits.float()
        logprobs = torch.log_softmax(logits, dim=-1)
        call = row.call
        if row.generator is None:
            scores, scale = logits, 1.0
        else:
            # Gumbel-max: the largest of logits / T plus Gumbel noise is a draw from
            # softmax(logits / T); the noise comes from the row's own generator, one
            # number per token of the vocabulary per step, whatever the batch holds.
            uniform = torch.rand(logits.shape, generator=row.generator, dtype=torch.float32)
            scores = logits / call.temperature - torch.log(-torch.log(uniform))
            scale = call.temperature
        token = int(torch.argmax(scores))
        top = torch.topk(scores, 2).values
        # The gap to the runner-up, in logits (a drift of D moves it by at most 2 D).
        if float(top[0] - top[1]) * scale < TIE_MARGIN:
            row.close_call = True
        row.tokens.append(token)
        row.generated.append(token)
        row.logprobs.append(float(logprobs[token]))
        if call.top_logprobs:
            best = torch.topk(logprobs, call.top_logprobs)
            row.alternatives.append(
                list(zip(best.indices.tolist(), best.values.tolist(), strict=True))
            )
        row.done = self._finished(row, token)

    def _finished(self, row: _Row, token: int) -> bool:
        if token in self._eos or len(row.generated) >= row.call.max_new_tokens:
            return True
        if not row.call.stop_at_answer_line:
            return False
        # Decoding the whole reply at every step would be quadratic; a line can only have
        # been completed by a token that holds a newline.
        if "\n" not in self._tokenizer.decode([token]):
            return False
        text = self._tokenizer.decode(row.generated, skip_special_tokens=True)
        return _answer_line_end(text) is not None

    # -- the cache ----------------------------------------------------------------------

    def _layers(self) -> list[tuple[Any, Any]]:
        return self._tensors(self._cache)

    @staticmethod
    def _tensors(cache: Any) -> list[tuple[Any, Any]]:
        # Iterating a DynamicCache gives each layer's keys and values first (transformers
        # 4.50 to 5.x alike).
        return [(layer[0], layer[1]) for layer in cache]
