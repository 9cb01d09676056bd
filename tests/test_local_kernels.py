"""The linear-layer products LocalJudge decodes with (``_local_kernels``), on small layers.

What is promised: each product computes what torch's ``nn.Linear`` computes (to float32
rounding) for any number of rows; oneDNN's gives a row the same bits whether it is
computed alone or with others (what lets a batched reply equal the reply alone); the
dense weight is freed once packed unless another module shares it; the environment
variable picks the product and a bad value is refused by name.
"""

from __future__ import annotations

from typing import Any

import pytest

from prin_guard import UsageError

torch = pytest.importorskip("torch")

from prin_guard.judges import _local_kernels as kernels  # noqa: E402 - needs torch

needs_onednn = pytest.mark.skipif(
    not kernels._onednn_works(torch), reason="torch has no working oneDNN here"
)


def layer_and_input(rows: int, seed: int = 0) -> tuple[Any, Any]:
    generator = torch.Generator().manual_seed(seed)
    layer = torch.nn.Linear(64, 96, bias=True)
    with torch.no_grad():
        layer.weight.copy_(torch.randn(96, 64, generator=generator))
        layer.bias.copy_(torch.randn(96, generator=generator))
    return layer, torch.randn(rows, 1, 64, generator=generator)


@pytest.mark.parametrize("kernel", ["few-row", pytest.param("onednn", marks=needs_onednn)])
@pytest.mark.parametrize("rows", [1, 2, 3, 4, 5, 8, 12, 170])
def test_each_product_computes_what_torch_computes(kernel: str, rows: int) -> None:
    layer, x = layer_and_input(rows, seed=rows)
    with torch.inference_mode():
        expected = torch.nn.functional.linear(x, layer.weight, layer.bias)
        assert kernels.fast_linears(torch.nn.Sequential(layer), torch, kernel) == kernel
        got = layer(x)
    assert got.shape == expected.shape
    assert got.is_contiguous()
    assert torch.allclose(got, expected, atol=1e-4, rtol=1e-5)


@needs_onednn
def test_onednn_gives_a_row_the_same_bits_alone_and_with_others() -> None:
    generator = torch.Generator().manual_seed(7)
    layer = torch.nn.Linear(576, 1536, bias=False)  # the bundled model's MLP shape
    with torch.no_grad():
        layer.weight.copy_(torch.randn(1536, 576, generator=generator))
    x = torch.randn(8, 576, generator=generator)
    kernels.fast_linears(torch.nn.Sequential(layer), torch, "onednn")
    with torch.inference_mode():
        together = layer(x)
        for row in range(8):
            assert torch.equal(layer(x[row : row + 1])[0], together[row])


@needs_onednn
def test_onednn_frees_the_dense_weight_unless_another_module_shares_it() -> None:
    class Tied(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.embed = torch.nn.Embedding(96, 64)
            self.head = torch.nn.Linear(64, 96, bias=False)
            self.head.weight = self.embed.weight  # tied, as small chat models do
            self.inner = torch.nn.Linear(64, 64)

    net = Tied()
    x = torch.randn(3, 64)
    with torch.inference_mode():
        expected_head = torch.nn.functional.linear(x, net.embed.weight)
        expected_inner = torch.nn.functional.linear(x, net.inner.weight, net.inner.bias)
        kernels.fast_linears(net, torch, "onednn")
        assert net.head.weight is net.embed.weight and net.head.weight.numel() == 96 * 64
        assert net.inner.weight.numel() == 0 and net.inner.weight.dtype == torch.float32
        assert torch.allclose(net.head(x), expected_head, atol=1e-4)
        assert torch.allclose(net.inner(x), expected_inner, atol=1e-4)


def test_the_environment_variable_picks_the_product(monkeypatch: pytest.MonkeyPatch) -> None:
    layer, _ = layer_and_input(1)
    monkeypatch.setenv(kernels.ENV, "torch")
    assert kernels.fast_linears(torch.nn.Sequential(layer), torch) == "torch"
    assert "forward" not in vars(layer)  # torch's own nn.Linear, untouched
    monkeypatch.setenv(kernels.ENV, "few-row")
    assert kernels.fast_linears(torch.nn.Sequential(layer), torch) == "few-row"
    monkeypatch.setenv(kernels.ENV, "mkl")
    with pytest.raises(UsageError, match=r"PRIN_GUARD_LOCAL_KERNEL: expected one of .*'mkl'"):
        kernels.fast_linears(torch.nn.Sequential(layer_and_input(1)[0]), torch)


@pytest.mark.model
def test_the_bundled_model_decodes_with_onednn_where_it_works() -> None:
    from prin_guard import LocalJudge

    expected = "onednn" if kernels._onednn_works(torch) else "few-row"
    assert LocalJudge()._loaded.kernel == expected
