from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import structlog

from prin_guard import Item

SHARED_DATA = Path(__file__).resolve().parents[2] / "shared" / "data"


@pytest.fixture
def table1_item() -> Item:
    """The PRIN paper's Table 1 question."""
    return Item(
        question=(
            "If n is an integer and 101 n^2 is at most 10000, what is the greatest "
            "possible value of n?"
        ),
        candidates=["7", "8", "9", "10", "11"],
        id="table1",
    )


@pytest.fixture
def shared_data() -> Path:
    if not SHARED_DATA.is_dir():
        pytest.skip(f"benchmark data not found at {SHARED_DATA}")
    return SHARED_DATA


@pytest.fixture(autouse=True)
def _reset_structlog() -> Iterator[None]:
    """The CLI configures structlog for its process; don't let that leak between tests."""
    yield
    structlog.reset_defaults()
