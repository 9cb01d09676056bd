"""docs/cli.md's reference of every command and flag, written from the parser itself.

``python -m prin_guard.cli._reference`` (``make cli-docs``) rewrites everything below the
page's marker line; ``--check`` exits 1 when the page differs from what the parser gives
(tests/test_cli.py runs it), so the page cannot drift from the flags. The text above the
marker (examples) is the page's own.

Rendered from the parser's actions, not from ``format_help``: argparse wraps its help to
the terminal's width, and the page must not depend on who wrote it.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Sequence
from pathlib import Path

__all__ = ["MARKER", "page", "reference"]

MARKER = (
    "<!-- Everything below is written from the parser by `make cli-docs` "
    "(python -m prin_guard.cli._reference): edit the help in prin_guard/cli, not here. -->"
)
_PAGE = Path(__file__).resolve().parents[2] / "docs" / "cli.md"
_MARKDOWN = re.compile(r"([\\`*_\[\]<>|])")


def _text(text: str | None) -> str:
    """Help text as Markdown that shows it as written (no emphasis, links or tags)."""
    flat = " ".join((text or "").split()).replace("%%", "%")
    return _MARKDOWN.sub(r"\\\1", flat)


def _spelling(action: argparse.Action) -> str:
    if not action.option_strings:
        return str(action.metavar or action.dest)
    if action.nargs == 0:
        return ", ".join(action.option_strings)
    metavar = action.metavar or (action.dest.upper() if not action.choices else None)
    value = str(metavar) if metavar else "{" + ",".join(map(str, action.choices or ())) + "}"
    if action.nargs == "?":
        value = f"[{value}]"
    elif action.nargs in ("+", "*"):
        value = f"{value} ..."
    return ", ".join(f"{option} {value}" for option in action.option_strings)


def _details(action: argparse.Action) -> str:
    notes = []
    if action.choices is not None and action.metavar is not None:
        notes.append("one of " + ", ".join(f"`{choice}`" for choice in action.choices))
    if isinstance(action, argparse._AppendAction):
        notes.append("repeatable")
    if action.required and action.option_strings:
        notes.append("required")
    default = action.default
    if default not in (None, False, [], argparse.SUPPRESS) and action.nargs != 0:
        notes.append(f"default `{default}`")
    return f" ({'; '.join(notes)})" if notes else ""


def _arguments(parser: argparse.ArgumentParser) -> list[str]:
    lines = []
    for action in parser._actions:
        if isinstance(action, argparse._HelpAction | argparse._SubParsersAction):
            continue
        help_text = _text(action.help)
        lines.append(
            f"- `{_spelling(action)}`{_details(action)}" + (f": {help_text}" if help_text else "")
        )
    return lines


def _commands(parser: argparse.ArgumentParser) -> list[tuple[str, argparse.ArgumentParser, str]]:
    (sub,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    helps = {choice.dest: choice.help for choice in sub._choices_actions}
    return [(name, command, helps.get(name) or "") for name, command in sub.choices.items()]


def reference(parser: argparse.ArgumentParser, exit_codes: dict[int, str]) -> str:
    """The reference of ``parser``'s commands and flags, and the exit statuses, as Markdown."""
    commands = _commands(parser)
    lines = ["## Commands", ""]
    lines += [f"- [`{name}`](#prin-guard-{name}): {_text(text)}" for name, _, text in commands]
    lines += ["", "`-h`, `--help` after a command's name shows its help; before any command:", ""]
    lines += _arguments(parser)
    lines += ["", "## Exit status", ""]
    lines += [f"- `{code}`: {_text(meaning)}" for code, meaning in exit_codes.items()]
    for name, command, _ in commands:
        lines += ["", f"## prin-guard {name}", ""]
        if command.description:
            lines += [_text(command.description), ""]
        lines += _arguments(command)
    return "\n".join(lines) + "\n"


def page(current: str) -> str:
    """docs/cli.md as it should read: its own text above :data:`MARKER`, then the
    reference the parser gives."""
    from prin_guard.cli import _parser
    from prin_guard.cli._common import EXIT_CODES

    head = current.split(MARKER)[0].rstrip("\n")
    return f"{head}\n\n{MARKER}\n\n{reference(_parser(), EXIT_CODES)}"


def main(argv: Sequence[str] | None = None) -> int:
    check = "--check" in (argv if argv is not None else sys.argv[1:])
    current = _PAGE.read_text(encoding="utf-8")
    wanted = page(current)
    if check:
        if current != wanted:
            print(f"{_PAGE} differs from the parser: run make cli-docs", file=sys.stderr)
            return 1
        return 0
    _PAGE.write_text(wanted, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
