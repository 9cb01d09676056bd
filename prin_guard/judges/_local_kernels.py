"""Faster linear layers for LocalJudge's decoding on CPU.

A decoding step multiplies a handful of rows (one per call in the batch) by every weight
matrix of the model; a prompt multiplies a few hundred. torch computes ``x @ W.T`` for
``nn.Linear`` with MKL, whose kernels for a few rows were measured 2 to 3 times slower
here (torch 2.13 CPU build, 2 cores of an AMD EPYC) than reading the weights once costs.
Two replacements, tried in this order by :func:`fast_linears`:

``onednn``
    The weight is reordered once, at load, into oneDNN's blocked layout and every product
    is ``torch.ops.mkldnn._linear_pointwise`` (what ``torch.compile`` uses for linear
    layers on CPU). Measured over the bundled model's weight matrices: 8 rows about twice
    as fast as torch's kernel, a 170-token prompt about 1.6 times (bench/local_batch.py,
    "One decoding step"). A row's result does not depend on the rows computed with it.
    The dense weight is then freed (unless another module shares it: the tied output
    layer), so the model does not hold its weights twice. Used when torch was built with
    oneDNN and a product on a small layer matches torch's own.
``few-row``
    ``(W @ x.T).T`` in chunks of at most :data:`_CHUNK` rows (a lone row padded with a
    zero row) for up to :data:`_NARROW_ROWS` rows, torch's kernel for more: the BLAS
    kernel for that layout is the fast one for a few rows.

Both differ from torch's own results in the last bits only; which code runs depends only
on the number of rows, never on their content.
"""

from __future__ import annotations

import os
import types
from typing import Any, Literal

from prin_guard.errors import UsageError

__all__ = ["ENV", "KERNELS", "fast_linears", "narrow_linears"]

_CHUNK = 4
_NARROW_ROWS = 8
_ONEDNN_ROWS_HINT = 8
"""The batch size oneDNN lays the weights out for (the default ``batch_size``)."""

Kernel = Literal["onednn", "few-row"]


KERNELS = ("onednn", "few-row", "torch")
ENV = "PRIN_GUARD_LOCAL_KERNEL"
"""Environment variable that picks the product: ``onednn`` (the default, when it works),
``few-row`` or ``torch`` (torch's own ``nn.Linear``, nothing replaced)."""


def fast_linears(model: Any, torch: Any, wanted: str | None = None) -> Kernel | Literal["torch"]:
    """Give every ``nn.Linear`` of ``model`` a faster CPU product; returns which one.

    ``wanted`` (default: the ``PRIN_GUARD_LOCAL_KERNEL`` environment variable) names one
    of :data:`KERNELS`; ``onednn`` falls back to ``few-row`` where oneDNN does not work.
    """
    wanted = wanted or os.environ.get(ENV) or "onednn"
    if wanted not in KERNELS:
        raise UsageError(f"{ENV}: expected one of {', '.join(KERNELS)}, got {wanted!r}")
    if wanted == "torch":
        return "torch"
    if wanted == "onednn" and _onednn_works(torch):
        _onednn_linears(model, torch)
        return "onednn"
    narrow_linears(model, torch)
    return "few-row"


# -- oneDNN --------------------------------------------------------------------------------


def _onednn_ops(torch: Any) -> Any:
    mkldnn = getattr(torch.backends, "mkldnn", None)
    if mkldnn is None or not mkldnn.is_available():
        return None
    ops = torch.ops.mkldnn
    try:
        ops._reorder_linear_weight  # noqa: B018 - resolving the op is the check
        ops._linear_pointwise  # noqa: B018
    except (AttributeError, RuntimeError):
        return None
    return ops


def _onednn_works(torch: Any) -> bool:
    """Whether oneDNN's packed product runs here and agrees with torch's on a small layer."""
    ops = _onednn_ops(torch)
    if ops is None:
        return False
    generator = torch.Generator().manual_seed(0)
    weight = torch.randn(48, 32, generator=generator)
    bias = torch.randn(48, generator=generator)
    x = torch.randn(5, 32, generator=generator)
    try:
        with torch.inference_mode():
            packed = ops._reorder_linear_weight(weight, _ONEDNN_ROWS_HINT)
            got = ops._linear_pointwise(x, packed, bias, "none", [], "")
            expected = torch.nn.functional.linear(x, weight, bias)
    except RuntimeError:
        return False
    return bool(got.shape == expected.shape and torch.allclose(got, expected, atol=1e-4))


def _onednn_linears(model: Any, torch: Any) -> None:
    ops = _onednn_ops(torch)

    def forward(self: Any, x: Any) -> Any:
        width = x.shape[-1]
        flat = x.reshape(-1, width)
        if not flat.is_contiguous():
            flat = flat.contiguous()
        out = ops._linear_pointwise(flat, self._prin_guard_packed, self.bias, "none", [], "")
        return out.reshape(*x.shape[:-1], out.shape[-1])

    linears = [
        m
        for m in model.modules()
        if isinstance(m, torch.nn.Linear)
        and m.weight.device.type == "cpu"
        and m.weight.dtype == torch.float32
        and "forward" not in vars(m)
    ]
    # A weight another module also uses (the output layer tied to the embeddings) is kept.
    others = {
        p.data_ptr()
        for m in model.modules()
        if not isinstance(m, torch.nn.Linear)
        for p in m.parameters(recurse=False)
    }
    with torch.no_grad():
        for module in linears:
            weight = module.weight
            module._prin_guard_packed = ops._reorder_linear_weight(
                weight.detach(), _ONEDNN_ROWS_HINT
            )
            module.forward = types.MethodType(forward, module)
            if weight.data_ptr() not in others:
                # The packed copy is the weight now; keep a parameter of the right dtype
                # for code that asks a module for its dtype or device.
                module.weight = torch.nn.Parameter(weight.new_empty(0), requires_grad=False)
        # The weights may be views of the checkpoint file, mapped into memory: the packed
        # copies are only the weights once nothing else holds on to that mapping, so what
        # is left (embeddings, norms, a tied output layer) gets memory of its own.
        for tensor in [*model.parameters(), *model.buffers()]:
            if tensor.numel():
                tensor.data = tensor.data.clone()


# -- few rows through BLAS -------------------------------------------------------------------


def narrow_linears(model: Any, torch: Any) -> None:
    """Give every ``nn.Linear`` of ``model`` the few-row product (once; CPU only)."""
    functional = torch.nn.functional

    def product(weight: Any, rows: Any) -> Any:
        count = rows.shape[0]
        if count == 1:
            rows = torch.cat([rows, rows.new_zeros(1, rows.shape[1])])
        return (weight @ rows.T).T[:count]

    def forward(self: Any, x: Any) -> Any:
        width = x.shape[-1]
        rows = x.numel() // width if width else 0
        if rows == 0 or rows > _NARROW_ROWS or x.device.type != "cpu":
            return functional.linear(x, self.weight, self.bias)
        flat = x.reshape(rows, width)
        if rows <= _CHUNK:
            out = product(self.weight, flat).contiguous()
        else:
            out = torch.cat([product(self.weight, chunk) for chunk in flat.split(_CHUNK)])
        if self.bias is not None:
            out = out + self.bias
        return out.reshape(*x.shape[:-1], self.weight.shape[0])

    for module in model.modules():
        if isinstance(module, torch.nn.Linear) and "forward" not in vars(module):
            module.forward = types.MethodType(forward, module)
