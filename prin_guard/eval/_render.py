"""Laying report sections out as Markdown and self-contained HTML.

A report is a list of :class:`Section` (a title, a sentence saying how to read
it, a table, maybe a plot); the renderers here only lay those out. Plots are
PNG bytes, carried by their section, embedded in the HTML as data URIs and
written next to the Markdown.
"""

from __future__ import annotations

import base64
import html
import io
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from prin_guard._exceptions import MissingExtraError

__all__ = ["Section", "figure_png", "num", "pct", "pyplot", "write_files"]


@dataclass
class Section:
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
