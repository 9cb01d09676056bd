"""What a run writes, shared by ``eval``, ``probe`` and ``calibrate``.

A run directory holds ``items.jsonl`` (one JSON record per finished item, appended
as items finish: :func:`write_records`), ``summary.json`` (a :class:`SparseModel`)
and the report (``report.md`` and a self-contained ``report.html``, laid out from
:class:`Section` objects by :func:`write_files`). :func:`drive` runs a runner to the
end or to Ctrl-C: either way the records already written stay, and the caller
summarises what is there (a partial run says so). Re-running is cheap because judge
calls are cached (``sqlite`` by default, under ``PRIN_GUARD_HOME``): finished items
cost nothing the second time.

Nothing here knows what a record holds: the runners, summaries and report sections
are the callers'.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import html
import io
import json
import re
import sys
from collections.abc import Awaitable, Callable, Coroutine, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from pydantic import BaseModel, ConfigDict, SerializerFunctionWrapHandler, model_serializer

from prin_guard._infra._json import dumps, finite
from prin_guard.cache import Cache, open_cache
from prin_guard.datasets import SkipHandler
from prin_guard.errors import MissingExtraError, UsageError

if TYPE_CHECKING:
    from prin_guard._output._terminal import Progress

__all__ = [
    "ITEMS",
    "SUMMARY",
    "Failure",
    "Section",
    "SparseModel",
    "SummaryModel",
    "drive",
    "figure_png",
    "new_run_dir",
    "num",
    "open_run_cache",
    "pct",
    "progress_meter",
    "pyplot",
    "read_records",
    "say",
    "skip_reporter",
    "write_files",
    "write_records",
]

# ------------------------------------------------------------- run directory

T = TypeVar("T")
_Item = TypeVar("_Item")

ITEMS = "items.jsonl"
SUMMARY = "summary.json"


def say(message: str) -> None:
    """A progress note for the person running a run (stderr; never the results)."""
    print(message, file=sys.stderr, flush=True)


def skip_reporter(
    on_skip: SkipHandler | None, skipped: list[tuple[int, str]] | None = None
) -> SkipHandler:
    """A skip handler that records each skipped row in ``skipped`` (when given) and
    passes it to ``on_skip``, or says it on stderr."""

    def skip(line: int, reason: str) -> None:
        if skipped is not None:
            skipped.append((line, reason))
        if on_skip is not None:
            on_skip(line, reason)
        else:
            say(f"prin-guard: skipped row at line {line}: {reason}")

    return skip


@contextlib.contextmanager
def progress_meter(
    total: int, *, enabled: bool = True, show_prin: bool = True
) -> Iterator[Progress | None]:
    """The run's progress display (closed at the end), or None when ``enabled`` is off."""
    if not enabled:
        yield None
        return
    from prin_guard._output._terminal import Progress

    meter = Progress(total, show_prin=show_prin)
    try:
        yield meter
    finally:
        meter.close()


def open_run_cache(spec: Cache | str | None) -> Cache | None:
    """The cache of an ``eval`` or ``probe`` run: :func:`~prin_guard.cache.open_cache` with
    runs' defaults (``sqlite`` is ``eval-cache.sqlite3`` under ``PRIN_GUARD_HOME``, so
    re-runs resume; Redis namespace ``eval``)."""
    return open_cache(spec, namespace="eval", sqlite_name="eval-cache.sqlite3")


def new_run_dir(out: str | Path | None, *parts: str) -> Path:
    """``out``, or ``runs/<parts joined by '-'>-<time>``; created."""
    if out is not None:
        path = Path(out)
    else:
        stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
        name = "-".join(re.sub(r"[/:\\\s]+", "_", part)[:40] for part in (*parts, stamp))
        path = Path("runs") / name
    path.mkdir(parents=True, exist_ok=True)
    return path


def drive(runner: Coroutine[Any, Any, T]) -> tuple[T | None, bool]:
    """Run ``runner`` on a new event loop; ``(result, interrupted)``.

    Ctrl-C cancels the runner (which keeps every record it wrote) and returns
    ``(None, True)`` instead of raising, so the caller can summarise the partial
    run. Not callable inside a running event loop.
    """
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        pass
    else:
        runner.close()
        raise UsageError("a run drives its own event loop: call it outside async code")
    try:
        return asyncio.run(runner), False
    except KeyboardInterrupt:
        say("\nprin-guard: interrupted; writing the partial results")
        return None, True


# -------------------------------------------------------------------- records


async def write_records(
    items: Iterable[_Item],
    work: Callable[[_Item], Awaitable[dict[str, Any]]],
    path: Path,
    *,
    concurrency: int,
    on_record: Callable[[dict[str, Any]], None] | None = None,
) -> int:
    """Run ``work`` on every item, ``concurrency`` at a time, and write each record to
    ``path`` (one JSON line) as soon as it is done; return how many were written.

    Records are in the order items finish. Cancelling (Ctrl-C) leaves ``path``
    holding every finished record. ``on_record`` sees each record once written.
    """
    slots = asyncio.Semaphore(concurrency)
    path.parent.mkdir(parents=True, exist_ok=True)
    written = 0
    with path.open("w", encoding="utf-8") as handle:

        async def one(item: _Item) -> None:
            nonlocal written
            async with slots:
                record = await work(item)
            handle.write(dumps(finite(record), ensure_ascii=False) + "\n")
            handle.flush()
            written += 1
            if on_record is not None:
                on_record(record)

        tasks = [asyncio.create_task(one(item)) for item in items]
        try:
            await asyncio.gather(*tasks)
        finally:
            for task in tasks:
                task.cancel()
    return written


def read_records(path: Path) -> list[dict[str, Any]]:
    """The records of ``items.jsonl`` (none when the run wrote none)."""
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


# ------------------------------------------------------------------ summaries


class SummaryModel(BaseModel):
    """A frozen model: a summary is a record of a run, not a thing to edit."""

    model_config = ConfigDict(frozen=True)


class SparseModel(SummaryModel):
    """A model whose optional fields are left out of its dump when they were never set.

    A field given (or read from JSON) as None stays None; one never given is absent,
    as the key was absent from the dict summaries this JSON layout comes from.
    """

    @model_serializer(mode="wrap")
    def _drop_unset(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        data: dict[str, Any] = handler(self)
        unset = type(self).model_fields.keys() - self.model_fields_set
        return {key: value for key, value in data.items() if key not in unset}

    def to_json(self) -> str:
        """The JSON of ``summary.json``: ``model_dump(mode="json")``, indented by two."""
        # json.dumps rather than model_dump_json: byte for byte what the dict
        # summaries were written as (ASCII escapes, Python's float repr).
        # figures that cannot be computed (a rate of nothing) are null, never NaN
        return dumps(finite(self.model_dump(mode="json")), indent=2)


class Failure(SummaryModel):
    """An item whose judge failed after retries."""

    id: str
    """The item's id."""
    error: str
    """The error, as the record holds it."""


# ------------------------------------------------------------------- reports


@dataclass
class Section:
    """One section of a report: a title, a sentence saying how to read it, a table,
    maybe a plot (PNG bytes, embedded in the HTML as a data URI and written next to
    the Markdown)."""

    title: str
    text: str
    header: list[str] = field(default_factory=list)
    rows: list[list[str]] = field(default_factory=list)
    figure: str | None = None
    """File name of the plot, when the section has one."""
    png: bytes | None = None
    """The plot, as PNG bytes; without it the section shows no plot."""


def pct(value: float | None) -> str:
    return "–" if value is None else f"{100 * value:.1f}"


def num(value: float | None, digits: int = 3) -> str:
    return "–" if value is None else f"{value:.{digits}f}"


def markdown(title: str, sections: Sequence[Section], figures: dict[str, bytes]) -> str:
    lines = [f"# {title}", ""]
    for section in sections:
        lines += [f"## {section.title}", "", section.text, ""]
        if section.figure and section.figure in figures:
            lines += [f"![{section.title}]({section.figure})", ""]
        if section.header:
            lines.append("| " + " | ".join(section.header) + " |")
            lines.append("|" + "|".join("---" for _ in section.header) + "|")
            for row in section.rows:
                lines.append("| " + " | ".join(c.replace("|", "\\|") for c in row) + " |")
            lines.append("")
    return "\n".join(lines)


_CSS = """
body { font-family: system-ui, sans-serif; max-width: 960px; margin: 2em auto; color: #222;
       padding: 0 1em; line-height: 1.45; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; font-size: 0.92em; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: right; }
th:first-child, td:first-child { text-align: left; }
th { background: #f3f3f3; }
img { max-width: 100%; display: block; margin: 0.5em 0; }
p.note { color: #555; }
"""


def to_html(title: str, sections: Sequence[Section], figures: dict[str, bytes]) -> str:
    esc = html.escape
    parts = [
        "<!doctype html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{esc(title)}</title><style>{_CSS}</style></head><body>",
        f"<h1>{esc(title)}</h1>",
    ]
    for section in sections:
        parts.append(f"<h2>{esc(section.title)}</h2>")
        parts.append(f'<p class="note">{esc(section.text)}</p>')
        if section.figure and section.figure in figures:
            data = base64.b64encode(figures[section.figure]).decode("ascii")
            parts.append(f'<img alt="{esc(section.title)}" src="data:image/png;base64,{data}">')
        if section.header:
            parts.append("<table><thead><tr>")
            parts.extend(f"<th>{esc(h)}</th>" for h in section.header)
            parts.append("</tr></thead><tbody>")
            for row in section.rows:
                parts.append("<tr>" + "".join(f"<td>{esc(c)}</td>" for c in row) + "</tr>")
            parts.append("</tbody></table>")
    parts.append("</body></html>")
    return "\n".join(parts)


def pyplot() -> Any:
    """matplotlib's pyplot on the Agg backend (no display), or an error naming the extra."""
    try:
        import matplotlib

        matplotlib.use("Agg", force=True)
        import matplotlib.pyplot as plt
    except ImportError as exc:
        raise MissingExtraError("The evaluation report", "eval", "matplotlib") from exc
    return plt


def figure_png(fig: Any) -> bytes:
    """A finished matplotlib figure as PNG bytes (the figure is closed)."""
    plt = pyplot()
    buffer = io.BytesIO()
    fig.tight_layout()
    fig.savefig(buffer, format="png", dpi=110)
    plt.close(fig)
    return buffer.getvalue()


def write_files(
    folder: Path,
    title: str,
    sections: Sequence[Section],
    figures: dict[str, bytes] | None = None,
) -> Path:
    """Write report.md, report.html and the plots into ``folder``; return the HTML path.

    The plots are the sections' own (``figure`` and ``png``) and any in ``figures``.
    """
    figures = {
        **{s.figure: s.png for s in sections if s.figure and s.png is not None},
        **(figures or {}),
    }
    folder.mkdir(parents=True, exist_ok=True)
    for name, data in figures.items():
        (folder / name).write_bytes(data)
    (folder / "report.md").write_text(markdown(title, sections, figures), encoding="utf-8")
    html_path = folder / "report.html"
    html_path.write_text(to_html(title, sections, figures), encoding="utf-8")
    return html_path
