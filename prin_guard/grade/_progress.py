"""The progress of a grading run: done, ETA, items per second and the running flag rate.

On a terminal a rich progress bar; anywhere else one plain line at most every
5 seconds (and one at the end), so a CI log of a long run stays short::

    [ 5000/10000]  50%  elapsed 16s  ETA 16s  312.4 items/s  flagged 41.3%
"""

from __future__ import annotations

import sys
import time
from typing import TYPE_CHECKING, Any, TextIO

from prin_guard._output._terminal import PLAIN_INTERVAL_S, duration, isatty

if TYPE_CHECKING:
    from prin_guard.grade._summary import GradeStats

__all__ = ["GradeProgress"]


class GradeProgress:
    """Shows ``stats`` against ``total`` rows to write; :meth:`update` after each row."""

    def __init__(
        self, total: int | None, stats: GradeStats, *, stream: TextIO | None = None
    ) -> None:
        self.total = total
        self.stats = stats
        self.stream: TextIO = stream if stream is not None else sys.stderr
        self._last = 0.0
        self._unreported = False
        self._closed = False
        self._bar: Any = None
        self._task: Any = None
        if isatty(self.stream):
            self._start_bar()

    def already_done(self, rows: int) -> None:
        """Rows a resumed run skips: they are not to do."""
        if self.total is not None:
            self.total = max(self.total - rows, 0)
            if self._bar is not None:
                self._bar.update(self._task, total=self.total)

    def update(self) -> None:
        if self._closed:
            return
        now = time.monotonic()
        if self._bar is not None:
            if now - self._last >= 0.1:
                self._last = now
                self._bar.update(self._task, completed=self.stats.items, **self._fields(now))
            return
        self._unreported = True
        finished = self.total is not None and self.stats.items >= self.total
        if now - self._last >= PLAIN_INTERVAL_S or finished:
            self._line(now)

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        if self._bar is not None:
            now = time.monotonic()
            self._bar.update(self._task, completed=self.stats.items, **self._fields(now))
            self._bar.stop()
        elif self._unreported:
            self._line(time.monotonic())

    def _fields(self, now: float) -> dict[str, str]:
        elapsed = now - self.stats.started
        rate = self.stats.items / elapsed if elapsed > 0 else 0.0
        flagged = self.stats.flag_rate
        return {
            "rate": f"{rate:.1f} items/s",
            "flagged": "-" if flagged is None else f"{100 * flagged:.1f}%",
        }

    def _line(self, now: float) -> None:
        self._last = now
        self._unreported = False
        done = self.stats.items
        elapsed = now - self.stats.started
        rate = done / elapsed if elapsed > 0 else 0.0
        fields = self._fields(now)
        if self.total:
            eta = (self.total - done) / rate if rate > 0 else 0.0
            width = len(str(self.total))
            head = (
                f"[{done:>{width}}/{self.total}] {100 * done / self.total:3.0f}%"
                f"  elapsed {duration(elapsed)}  ETA {duration(max(eta, 0))}"
            )
        else:
            head = f"[{done}]  elapsed {duration(elapsed)}"
        self.stream.write(f"{head}  {fields['rate']}  flagged {fields['flagged']}\n")
        self.stream.flush()

    def _start_bar(self) -> None:
        from rich import progress as rp
        from rich.console import Console

        self._bar = rp.Progress(
            rp.BarColumn(),
            rp.MofNCompleteColumn(),
            rp.TextColumn("elapsed"),
            rp.TimeElapsedColumn(),
            rp.TextColumn("ETA"),
            rp.TimeRemainingColumn(),
            rp.TextColumn("{task.fields[rate]}  flagged {task.fields[flagged]}", markup=False),
            console=Console(file=self.stream, force_terminal=True, highlight=False),
            redirect_stderr=self.stream is sys.stderr,
            redirect_stdout=isatty(sys.stdout),
        )
        self._task = self._bar.add_task("", total=self.total, rate="-", flagged="-")
        self._bar.start()
