"""Structured access logs: one JSON line per request, on the ``texas42.access`` logger.

Each line has the request's ``time`` (UTC, ISO 8601), ``method``, ``path`` (without its query
string), the ``status`` (101 for a WebSocket accepted, its close
code's 403 for one refused), the ``duration`` in seconds (a WebSocket's: how long it was open)
and the ``client`` address. Nothing else of a request is read: no header (a token may ride in
one), nothing of the query string, no body and no message, so no token, seat token, invite code or
tile can reach a log. ``texas42 serve --access-log json`` writes the lines to standard output.
"""

from __future__ import annotations

import json
import logging
import sys
import time
from datetime import UTC, datetime
from typing import Any

ACCESS = logging.getLogger("texas42.access")


class AccessLog:
    """ASGI middleware: log each HTTP request and WebSocket as it ends."""

    def __init__(self, app: Any, logger: logging.Logger = ACCESS) -> None:
        self.app = app
        self.logger = logger

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        start = time.perf_counter()
        status = 0

        async def watch(message: Any) -> None:
            nonlocal status
            kind = message["type"]
            if kind == "http.response.start":
                status = int(message["status"])
            elif kind == "websocket.accept":
                status = 101
            elif kind == "websocket.close" and status == 0:
                status = 403
            elif kind == "websocket.http.response.start":
                status = int(message["status"])
            await send(message)

        try:
            await self.app(scope, receive, watch)
        except BaseException:
            status = status or 500
            raise
        finally:
            self.logger.info(line(scope, status, time.perf_counter() - start))


def line(scope: Any, status: int, duration: float) -> str:
    """A request's log line: what the module says, and nothing more."""
    client = scope.get("client")
    return json.dumps(
        {
            "time": datetime.now(UTC).isoformat(timespec="milliseconds"),
            "method": scope.get("method", "GET") if scope["type"] == "http" else "WEBSOCKET",
            "path": scope.get("path", ""),
            "status": status,
            "duration": round(duration, 4),
            "client": client[0] if client else None,
        },
        ensure_ascii=True,
        separators=(",", ":"),
    )


def to_stdout() -> None:
    """Write the access lines to standard output, one a line (``serve --access-log json``)."""
    handler = logging.StreamHandler(sys.stdout)
    handler.setFormatter(logging.Formatter("%(message)s"))
    ACCESS.addHandler(handler)
    ACCESS.setLevel(logging.INFO)
    ACCESS.propagate = False
