"""What one client may cost the server: the bytes of a request, the time it takes to send one,
and the connections it holds.

- `BodyLimit`, an ASGI middleware, refuses a request body over its route's limit with 413 and
  a `Failure`: by its ``Content-Length`` before a byte of it is read, and while it streams in
  (a chunked body, or one longer than it said), so memory never grows with what a client sends;
  a body that has not all arrived after ``seconds`` is refused with 408.
- `http_protocol` is uvicorn's HTTP protocol with what uvicorn lacks: a connection whose request
  headers are not all in within ``header_seconds`` (of opening, or of its last response) is
  closed, headers over `HEADER_BYTES` are refused, and beyond ``max_connections`` (HTTP
  connections and WebSockets together) a new connection gets a 503 and is closed at once, while
  the ones the server has go on being served.
- `open_files_limit` and `connection_cap` keep the cap under the process's descriptor limit.

``texas42 serve`` sets them from `ServerSettings`; ``docs/deploy.md`` shows a proxy doing the same.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections.abc import Mapping
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from texas42.faces.server import outbound as out

log = logging.getLogger("texas42.faces.server")

HEADER_BYTES = 32_768
"""The most bytes a request's target and headers may take together (a browser sends about 1,000)."""
DESCRIPTORS_KEPT = 100
"""Descriptors left under the process's limit for what is not a client: the database, engines'
pipes, logs, and a connection being refused."""
LINGER_SECONDS = 1.0
"""How long a refused connection stays half-closed, its input dropped, so the client reads the
503 instead of a reset; at most `LINGERING` at once, and the rest are closed at once."""
LINGERING = DESCRIPTORS_KEPT // 2
READ_BYTES = 262_144
"""The most one read of a socket gives (asyncio's): a request's head is refused once more than
`HEADER_BYTES` and one read more have come without its end, whatever the parser keeps."""
FULL_LOG_SECONDS = 60.0
"""The log says the cap is reached at most once in this long, with the connections refused."""
BodyLimits = Mapping[tuple[str, str], tuple[int, str]]
"""The most bytes of body each route takes, by (method, path), and what its body is, to say so
when one is refused (``a record``); a route not named takes none."""


def _raw_refusal(status: bytes, error: str) -> bytes:
    """A whole HTTP response refusing a connection the app never sees: ``status`` and a `Failure`."""
    headers, body = _failure(error)
    lines = b"".join(name + b": " + value + b"\r\n" for name, value in headers)
    return b"HTTP/1.1 " + status + b"\r\n" + lines + b"\r\n" + body


def _failure(error: str) -> tuple[list[tuple[bytes, bytes]], bytes]:
    """The headers and body of a refusal: a `Failure`, and the connection closed after it."""
    body = out.encode(out.Failure(error=error)).encode()
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        (b"connection", b"close"),
    ]
    return headers, body


async def refuse(send: Send, status: int, error: str) -> None:
    """Answer with a `Failure` and close the connection, so what is left of the body is never read."""
    headers, body = _failure(error)
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


class BodyLimit:
    """Reads a request's body, at most its route's limit, before the app sees the request; the
    app then gets the body whole in one message."""

    def __init__(self, app: ASGIApp, limits: BodyLimits, seconds: float) -> None:
        self.app = app
        self.limits = limits
        self.seconds = seconds

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length: bytes | None = None
        chunked = False
        for name, value in scope["headers"]:
            if name == b"content-length":
                length = value
            elif name == b"transfer-encoding":
                chunked = True
        if length is None and not chunked:  # HTTP/1.1: no body at all
            await self.app(scope, receive, send)
            return
        limit, what = self.limits.get((scope["method"], scope["path"]), (0, ""))
        if length is not None and not length.strip().isdigit():
            await refuse(send, 400, "Content-Length is not a number")
            return
        if length is not None and int(length) > limit:
            await refuse(send, 413, _too_long(scope, limit, what))
            return
        body = bytearray()
        try:
            async with asyncio.timeout(self.seconds):
                while True:
                    message = await receive()
                    if message["type"] == "http.disconnect":
                        return  # the client left: nobody to answer
                    body += message.get("body", b"")
                    if len(body) > limit:
                        await refuse(send, 413, _too_long(scope, limit, what))
                        return
                    if not message.get("more_body", False):
                        break
        except TimeoutError:
            await refuse(send, 408, f"the request's body did not arrive within {self.seconds:g} s")
            return
        await self.app(scope, _replay(bytes(body), receive), send)


def _too_long(scope: Scope, limit: int, what: str) -> str:
    if limit == 0:
        return f"{scope['method']} {scope['path']} takes no body"
    return f"{what} is at most {limit} bytes"


def _replay(body: bytes, receive: Receive) -> Receive:
    """A ``receive`` that gives the body already read, then whatever the connection says next
    (its disconnect)."""
    given = False

    async def replay() -> Message:
        nonlocal given
        if given:
            return await receive()
        given = True
        return {"type": "http.request", "body": body, "more_body": False}

    return replay


def open_files_limit() -> int | None:
    """Raise the process's soft limit on open descriptors to its hard limit; the soft limit now
    (None where there is none, or no way to ask)."""
    try:
        import resource
    except ImportError:  # not on this platform
        return None
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != hard:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
            soft = hard
        except (ValueError, OSError):  # some systems refuse an unlimited soft limit: keep it
            pass
    return None if soft == resource.RLIM_INFINITY else soft


def connection_cap(wanted: int, descriptors: int | None) -> int:
    """The connections to allow: ``wanted``, but `DESCRIPTORS_KEPT` under the descriptor limit."""
    if descriptors is None:
        return wanted
    return max(1, min(wanted, descriptors - DESCRIPTORS_KEPT))


@dataclasses.dataclass
class _Refusals:
    """The connections a server's protocol has refused: lingering now, and since it last said so."""

    lingering: int = 0
    refused: int = 0
    told: float = -FULL_LOG_SECONDS


def http_protocol(max_connections: int, header_seconds: float) -> type[asyncio.Protocol]:
    """Uvicorn's HTTP protocol (``uvicorn.run(http=...)``) with a header timeout, a header size
    limit and a connection cap; uvicorn's own keep-alive timeout closes idle connections."""
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

    full = _raw_refusal(b"503 Service Unavailable", "the server is full: try again in a moment")
    full = full.replace(b"\r\n\r\n", b"\r\nretry-after: 5\r\n\r\n", 1)
    too_long = _raw_refusal(
        b"431 Request Header Fields Too Large",
        f"a request's headers are at most {HEADER_BYTES} bytes",
    )
    refusals = _Refusals()

    class GuardedProtocol(HttpToolsProtocol):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.header_timer: asyncio.TimerHandle | None = None
            self.header_bytes = 0
            self.head_read: int | None = 0
            """Bytes read since the request's head began, None once the head is in: the parser
            keeps a header it has not seen the end of, so an endless one is counted here."""
            self.refused = False
            self.cut = False
            """The head ran past its limit: the 431 is sent, the connection closes."""
            self.lingering = False

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            if len(self.connections) >= max_connections:
                # refused before any state is made: the answer is one write, then the close
                self.refused = True
                self.transport = transport
                transport.write(full)
                if refusals.lingering < LINGERING and transport.can_write_eof():
                    refusals.lingering += 1
                    self.lingering = True
                    transport.write_eof()
                    self.loop.call_later(LINGER_SECONDS, transport.close)
                else:
                    transport.close()
                refusals.refused += 1
                if self.loop.time() - refusals.told >= FULL_LOG_SECONDS:
                    log.warning(
                        "full at %d connections: %d refused", max_connections, refusals.refused
                    )
                    refusals.told, refusals.refused = self.loop.time(), 0
                return
            super().connection_made(transport)
            self._wait_for_headers()

        def connection_lost(self, exc: Exception | None) -> None:
            self._stop_waiting()
            if self.lingering:
                refusals.lingering -= 1
                self.lingering = False
            if not self.refused:
                super().connection_lost(exc)

        def data_received(self, data: bytes) -> None:
            if self.refused or self.cut:  # what a refused client sends is dropped unread
                return
            if self.head_read is not None:
                self.head_read += len(data)
                if self.head_read > HEADER_BYTES + READ_BYTES:
                    self.head_read = None
                    self.cut = True
                    self._stop_waiting()
                    self.transport.write(too_long)
                    self.transport.close()
                    return
            super().data_received(data)

        def on_headers_complete(self) -> None:
            self.head_read = None
            super().on_headers_complete()

        def on_message_complete(self) -> None:
            super().on_message_complete()
            self.head_read = 0  # what comes next is the next request's head

        def on_message_begin(self) -> None:
            self.header_bytes = 0
            super().on_message_begin()

        def on_url(self, url: bytes) -> None:
            self._count(len(url))
            super().on_url(url)

        def on_header(self, name: bytes, value: bytes) -> None:
            self._count(len(name) + len(value))
            super().on_header(name, value)

        def _count(self, size: int) -> None:
            # raised out of a parser callback, this stops the parse: uvicorn answers 400, closes
            self.header_bytes += size
            if self.header_bytes > HEADER_BYTES:
                raise ValueError(f"headers over {HEADER_BYTES} bytes")

        def handle_websocket_upgrade(self) -> None:
            self._stop_waiting()  # the WebSocket's protocol takes the connection over
            super().handle_websocket_upgrade()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing():
                self._wait_for_headers()  # the next request's headers get the same time

        def _wait_for_headers(self) -> None:
            self._stop_waiting()
            self.header_timer = self.loop.call_later(header_seconds, self._headers_late)

        def _stop_waiting(self) -> None:
            if self.header_timer is not None:
                self.header_timer.cancel()
                self.header_timer = None

        def _headers_late(self) -> None:
            self.header_timer = None
            # a request whose headers came is being answered (its body has its own time)
            waiting = self.cycle is None or self.cycle.response_complete
            if waiting and self.transport.get_protocol() is self:
                self.transport.close()

    return GuardedProtocol
