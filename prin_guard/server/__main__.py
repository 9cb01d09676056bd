"""``python -m prin_guard.server``: the same as ``prin-guard serve``."""

from __future__ import annotations

import argparse
import sys

from prin_guard.errors import PrinGuardError
from prin_guard.server._cli import add_serve_arguments, run_serve


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m prin_guard.server", description="Serve prin-guard over HTTP."
    )
    add_serve_arguments(parser)
    args = parser.parse_args(argv)
    try:
        return run_serve(args)
    except PrinGuardError as exc:
        print(f"prin-guard: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
