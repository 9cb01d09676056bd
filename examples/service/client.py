"""Ask a running ``prin-guard serve`` for verdicts, with nothing but the standard library.

    export PRIN_GUARD_API_KEY=...            # one of the server's PRIN_GUARD_API_KEYS
    python examples/service/client.py --url http://127.0.0.1:8000
    python examples/service/client.py --url http://127.0.0.1:8000 --batch
    python examples/service/client.py --url http://127.0.0.1:8000 --rating

POST /v1/verdicts with ``{"item": {...}, "options": {...}}`` answers ``{"verdict": ...}``;
with ``{"items": [...]}`` it answers ``{"verdicts": [...]}``, in input order. Errors come
back as ``{"error": {"type": ..., "message": ...}}`` with an HTTP error status.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import urllib.error
import urllib.request
from collections.abc import Sequence
from typing import Any

TABLE1 = {
    "id": "table1",
    "question": "If n is an integer and 101 n^2 is at most 10000, "
    "what is the greatest possible value of n?",
    "candidates": ["7", "8", "9", "10", "11"],
}
CAPITAL = {
    "id": "capital",
    "question": "Which city is the capital of Australia?",
    "candidates": ["Sydney", "Canberra", "Melbourne"],
}

# a rating: how good the response is on 1-10, checked against how poor on the mirrored scale
BOILING = {
    "task": "rating",
    "id": "boiling",
    "question": "At what temperature does water boil at sea level?",
    "response": "At 100 degrees Celsius (212 degrees Fahrenheit) at standard pressure.",
    "scale": {"min": 1, "max": 10},
}


class ServiceError(Exception):
    """The server answered with an error status."""

    def __init__(self, status: int, body: dict[str, Any]) -> None:
        error = body.get("error", {})
        self.status = status
        self.type = error.get("type", "http_error")
        super().__init__(f"HTTP {status} {self.type}: {error.get('message', body)}")


def post_verdicts(url: str, key: str, body: dict[str, Any], *, timeout: float = 120) -> Any:
    """POST ``body`` to ``<url>/v1/verdicts`` and return the decoded JSON answer."""
    request = urllib.request.Request(  # noqa: S310 - the caller picks the URL
        url.rstrip("/") + "/v1/verdicts",
        data=json.dumps(body).encode(),
        method="POST",
        headers={
            "Authorization": f"Bearer {key}",
            "Content-Type": "application/json",
            "Accept": "application/json",
        },
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:  # noqa: S310
            return json.load(response)
    except urllib.error.HTTPError as exc:
        try:
            detail = json.load(exc)
        except ValueError:
            detail = {}
        raise ServiceError(exc.code, detail if isinstance(detail, dict) else {}) from None


def show(verdict: dict[str, Any]) -> None:
    flags = ", ".join(verdict.get("flags", [])) or "none"
    if verdict.get("task") == "rating":
        rating = verdict.get("rating")
        legs = [
            "-" if (verdict.get(leg) or {}).get("score") is None else f"{verdict[leg]['score']:g}"
            for leg in ("direct", "reverse")
        ]
        print(
            f"{verdict['item_id']}: rating {'-' if rating is None else f'{rating:g}'} "
            f"(how good {legs[0]}, how poor {legs[1]} on the mirrored scale); flags {flags}"
        )
        return
    correct = ", ".join(verdict.get("correct", [])) or "none"
    prin = verdict.get("prin_score")
    print(
        f"{verdict['item_id']}: correct {correct}; "
        f"PRIN {'-' if prin is None else f'{prin:.2f}'}; flags {flags}"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", default="http://127.0.0.1:8000", help="the server's base URL")
    parser.add_argument(
        "--key",
        default=os.environ.get("PRIN_GUARD_API_KEY"),
        help="API key (default: $PRIN_GUARD_API_KEY)",
    )
    parser.add_argument("--batch", action="store_true", help="send two items in one request")
    parser.add_argument(
        "--rating", action="store_true", help="send a rating item (a response rated on 1-10)"
    )
    parser.add_argument("--json", action="store_true", help="print the whole answer as JSON")
    args = parser.parse_args(argv)
    if not args.key:
        parser.error("no API key: pass --key or set PRIN_GUARD_API_KEY")

    options = {"template": "v0", "mitigations": ["neg_exp"]}
    body: dict[str, Any] = (
        {"items": [TABLE1, CAPITAL], "options": options}
        if args.batch
        else {"item": BOILING}
        if args.rating
        else {"item": TABLE1, "options": options}
    )
    try:
        answer = post_verdicts(args.url, args.key, body)
    except ServiceError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"error: cannot reach {args.url}: {exc}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(answer, indent=2, ensure_ascii=False))
        return 0
    for verdict in answer["verdicts"] if args.batch else [answer["verdict"]]:
        show(verdict)
    return 0


if __name__ == "__main__":
    sys.exit(main())
