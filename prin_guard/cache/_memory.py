"""The default cache: a bounded LRU in this process's memory."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping, Sequence

__all__ = ["MemoryCache"]


class MemoryCache:
    """Least-recently-used cache of at most ``max_entries`` values.

    Not shared between processes; use ``RedisCache`` for that. Values are kept
    as the JSON text the engine wrote, so what is read back is exactly what a
    shared cache would return.
    """

    def __init__(self, max_entries: int = 100_000) -> None:
        if max_entries < 1:
            raise ValueError("max_entries: must be at least 1")
        self.max_entries = max_entries
        self._data: OrderedDict[str, str] = OrderedDict()
        self.hits = 0
        self.misses = 0

    async def get_many(self, keys: Sequence[str]) -> list[str | None]:
        out: list[str | None] = []
        for key in keys:
            value = self._data.get(key)
            if value is None:
                self.misses += 1
            else:
                self.hits += 1
                self._data.move_to_end(key)
            out.append(value)
        return out

    async def set_many(self, entries: Mapping[str, str]) -> None:
        for key, value in entries.items():
            self._data[key] = value
            self._data.move_to_end(key)
        while len(self._data) > self.max_entries:
            self._data.popitem(last=False)

    def __len__(self) -> int:
        return len(self._data)

    def clear(self) -> None:
        self._data.clear()
