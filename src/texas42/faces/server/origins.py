"""The names and origins the server answers to, so a page elsewhere cannot borrow it (DNS
rebinding).

A page at ``evil.test`` whose name is made to resolve to ``127.0.0.1`` reaches a server on
loopback with ``Host: evil.test`` and ``Origin: http://evil.test``: a server that trusted the
Host header would let that page watch tables and take empty seats. So the server knows its own
names instead, found once when ``texas42 serve`` starts (`bound_hosts`): the address it listens
on with its port (``127.0.0.1`` also as ``localhost`` and ``[::1]``; a wildcard as every address
`invite.reachable_addresses` finds, and loopback), the ``--public-url``'s host and the hosts of
the ``--allow-origin`` values. `Gate` holds what follows from them: a request naming another
host is refused (HTTP 421, a WebSocket closed with 1008), and a WebSocket or a POST from a page
is let in only from the server's own origins, the ``--public-url``'s and the ``--allow-origin``
ones. Programs that send no Origin (bots, benchmarks, scripts) cannot be tricked by a page, so
they connect as before.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from texas42.faces.server.guard import refuse
from texas42.faces.server.invite import WILDCARDS, local_addresses, local_only, reachable_addresses

if TYPE_CHECKING:
    from texas42.faces.server.room import ServerSettings

LOOPBACK = ("127.0.0.1", "localhost", "::1")
"""The names of this machine a browser on it may use for a server listening on loopback."""
MISDIRECTED = 421
"""HTTP's status for a request sent to a server that does not answer to the name it gives."""
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


def _shown(address: str) -> str:
    """An address as a Host header names it: an IPv6 one in brackets."""
    return f"[{address}]" if ":" in address and not address.startswith("[") else address


def bound_hosts(
    host: str, port: int, discover: Callable[[], Iterable[str]] = local_addresses
) -> tuple[str, ...]:
    """The Host headers a browser sends to a server listening on ``host`` and ``port``, lower
    case: ``host:port`` (and plain ``host`` on port 80 or 443, where the port is left out).

    >>> bound_hosts("127.0.0.1", 4242)
    ('127.0.0.1:4242', 'localhost:4242', '[::1]:4242')
    >>> bound_hosts("0.0.0.0", 80, lambda: ["192.168.1.20", "127.0.0.1"])[:2]
    ('192.168.1.20:80', '192.168.1.20')
    >>> bound_hosts("Tables.Lan", 4242)
    ('tables.lan:4242',)
    """
    if host in WILDCARDS:
        addresses = [*reachable_addresses(host, discover), *LOOPBACK]
    elif local_only(host):
        addresses = [host, *LOOPBACK]
    else:
        addresses = [host]
    names: list[str] = []
    for address in addresses:
        shown = _shown(address.lower())
        names.append(f"{shown}:{port}")
        if port in (80, 443):
            names.append(shown)
    return tuple(dict.fromkeys(names))


def _netloc(origin: str) -> str:
    """The host (and port) an origin names, as a Host header gives it."""
    try:
        return urlsplit(origin).netloc.lower()
    except ValueError:
        return ""


@dataclass(frozen=True)
class Gate:
    """Who may reach the server: the Host headers it answers to (none known: any, as in the
    in-process tests) and the origins whose pages may open its WebSockets or POST to it."""

    hosts: frozenset[str]
    origins: frozenset[str]

    @classmethod
    def of(cls, settings: ServerSettings) -> Gate:
        given = [*settings.allowed_origins, *([settings.public_url] if settings.public_url else [])]
        given = [origin.lower().rstrip("/") for origin in given]
        bound = {name.lower() for name in settings.hosts}
        own = {f"{scheme}://{name}" for name in bound for scheme in ("http", "https")}
        # with no bound names known (in-process), any Host is taken: nothing to add to
        hosts = bound | {_netloc(origin) for origin in given} if bound else set()
        return cls(hosts=frozenset(hosts - {""}), origins=frozenset(own | set(given)))

    def host_ok(self, host: str | None) -> bool:
        """A request with no Host header is no browser's; one with a Host must name us."""
        return host is None or not self.hosts or host.lower() in self.hosts

    def origin_ok(self, origin: str | None) -> bool:
        return origin is None or origin.lower() in self.origins

    def refusal(self, host: str | None, origin: str | None, method: str) -> tuple[int, str] | None:
        """Why an HTTP request is refused, with its status, or None: a name the server does not
        answer to (421), or a request that changes something from another site's page (403)."""
        if not self.host_ok(host):
            return MISDIRECTED, (
                f"this server does not answer to the name {(host or '')[:80]!r}: open it at one "
                "of its own addresses, or start it with --public-url (or --allow-origin) naming "
                "this one"
            )
        if method not in SAFE_METHODS and not self.origin_ok(origin):
            return 403, f"requests from pages of {(origin or '')[:80]!r} are not allowed here"
        return None


class GateMiddleware:
    """Refuse HTTP requests `Gate.refusal` refuses, before the app reads anything of them (the
    WebSockets are checked by their routes, which close a refused one with 1008)."""

    def __init__(self, app: Any, gate: Gate) -> None:
        self.app = app
        self.gate = gate

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
            refused = self.gate.refusal(
                headers.get("host"), headers.get("origin"), str(scope.get("method", "GET"))
            )
            if refused is not None:
                status, why = refused
                await refuse(send, status, why)
                return
        await self.app(scope, receive, send)


__all__ = ["Gate", "GateMiddleware", "bound_hosts"]
