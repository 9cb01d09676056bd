"""A faster matrix product for the few-row linear layers of decoding, on CPU.

A decoding step multiplies a handful of rows (one per call in the batch) by every weight
matrix of the model; it is memory-bound, so a step costs what reading the weights costs.
torch computes ``x @ W.T`` for ``nn.Linear``. With a few rows, the BLAS kernel it reaches
for that layout was measured 2 to 3 times slower here (torch 2.13 CPU, MKL, 2 cores) than
the one it uses for ``W @ x.T``, and a single row (a matrix-vector product) ran faster
as two rows through the latter. Whole decoding steps of the bundled model, median over
rounds (bench/local_batch.py has the end-to-end figures):

======  ==============  ===============================
rows    torch's kernel  ``(W @ x.T).T``, chunks of <= 4
======  ==============  ===============================
1       41 ms           25 ms
2       64 ms           26 ms
4       61 ms           32 ms
6       81 ms           52 ms
8       75 ms           64 ms
12      83 ms           92 ms
======  ==============  ===============================

So the model's linear layers compute ``(W @ x.T).T`` in chunks of at most
:data:`_CHUNK` rows (a lone row padded with a zero row) for up to :data:`_NARROW_ROWS`
rows, and keep torch's kernel for more (prompts, big batches). The results differ from
torch's in the last bits only; which kernel runs depends only on the number of rows.
"""

from __future__ import annotations

import types
from typing import Any

__all__ = ["narrow_linears"]

_CHUNK = 4
_NARROW_ROWS = 8


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
