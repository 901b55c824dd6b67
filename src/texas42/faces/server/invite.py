"""Invite links that reach friends: where other machines can open the server, its public URL,
and the QR code of a table's invite link.

``texas42 serve`` prints `start_message`; `reachable_addresses` finds this machine's addresses
without the internet (no packet is sent), and takes the discovery as an argument so a test can
say what the machine has. A server behind a proxy or a tunnel names its public address with
``--public-url``, checked by `check_public_url`; every invite and seat link then starts with it.
"""

from __future__ import annotations

import contextlib
import io
import ipaddress
import re
import socket
from collections.abc import Callable, Iterable
from pathlib import Path
from urllib.parse import urlsplit

from texas42.core.errors import Texas42Error

WILDCARDS = ("0.0.0.0", "::", "")
"""Hosts that listen on every address of the machine: ``::`` also takes IPv4 where the system
maps it (Linux does by default)."""

PROBES = (
    (socket.AF_INET, ("10.254.254.254", 9)),
    (socket.AF_INET6, ("2001:db8::1", 9, 0, 0)),
)
"""Addresses a UDP socket is connected to, to learn the source address the system would use
toward them: connecting a UDP socket sends nothing."""

Address = ipaddress.IPv4Address | ipaddress.IPv6Address

HOST_NAME = re.compile(
    r"(?:[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?\.)*[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?\.?"
)
"""A host name's labels (an IPv4 address is one too)."""


def check_public_url(text: str) -> str:
    """The public URL as links start with: ``scheme://host[:port]``, the scheme and host in
    lower case, no default port, no trailing slash; a `Texas42Error` saying what is wrong.

    The app's pages and files live at absolute paths (``/t/...``, ``/static/...``), so the URL
    names the server itself and has no path:

    >>> check_public_url("HTTPS://Tables.Example.org:443/")
    'https://tables.example.org'
    >>> check_public_url("http://[fd00::2]:9999")
    'http://[fd00::2]:9999'
    >>> check_public_url("ftp://example.org")
    Traceback (most recent call last):
    texas42.core.errors.Texas42Error: a public URL starts with http:// or https://, not 'ftp://example.org'
    """
    raw = text.strip()
    if not raw or any(not ch.isprintable() or ch.isspace() for ch in raw):
        raise Texas42Error(f"a public URL is an http:// or https:// address, not {text!r}")
    if "?" in raw or "#" in raw:
        raise Texas42Error(f"a public URL has no query (?) or fragment (#): {text!r}")
    try:
        parts = urlsplit(raw)
        host = parts.hostname or ""
    except ValueError:
        raise Texas42Error(f"a public URL's host is not an address: {text!r}") from None
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https") or not raw.lower().startswith(f"{scheme}://"):
        raise Texas42Error(f"a public URL starts with http:// or https://, not {text!r}")
    if parts.username is not None or parts.password is not None:
        raise Texas42Error(f"a public URL carries no user or password: {text!r}")
    try:
        port = parts.port
    except ValueError:
        raise Texas42Error(f"a public URL's port is a number 1..65535: {text!r}") from None
    if not host:
        raise Texas42Error(f"a public URL names a host: {text!r}")
    if parts.path not in ("", "/"):
        raise Texas42Error(
            f"a public URL is the server's own address, without a path ({parts.path!r}): the "
            "table's pages live at /t/... on it"
        )
    if ":" in host:
        try:
            host = f"[{ipaddress.IPv6Address(host)}]"
        except ValueError:
            raise Texas42Error(f"a public URL's host is not an address: {text!r}") from None
    else:
        try:
            host = host.encode("idna").decode("ascii").lower()
        except UnicodeError:
            raise Texas42Error(f"a public URL's host is not a host name: {text!r}") from None
        if not HOST_NAME.fullmatch(host):
            raise Texas42Error(f"a public URL's host is not a host name: {text!r}")
    if port == 0:
        raise Texas42Error(f"a public URL's port is a number 1..65535: {text!r}")
    default = 80 if scheme == "http" else 443
    shown = "" if port in (None, default) else f":{port}"
    return f"{scheme}://{host}{shown}"


def table_link(base: str, table_id: str) -> str:
    """A table's invite link on ``base`` (a public URL, a request's base URL, or "" for a link
    relative to the page): it carries no seat token."""
    return f"{base.rstrip('/')}/t/{table_id}"


# -- this machine's addresses -------------------------------------------------------------------


def fib_trie_addresses(text: str) -> list[str]:
    """The IPv4 addresses of this machine's interfaces in Linux's ``/proc/net/fib_trie``: the
    leaves (``|-- 192.168.1.20``) followed by a ``/32 host LOCAL`` line."""
    found: list[str] = []
    leaf: str | None = None
    for line in text.splitlines():
        words = line.replace("|--", " |-- ").split()
        if words[:1] == ["|--"] and len(words) > 1:
            leaf = words[1]
        elif words[:3] == ["/32", "host", "LOCAL"] and leaf is not None:
            found.append(leaf)
            leaf = None
    return found


def if_inet6_addresses(text: str) -> list[str]:
    """The IPv6 addresses in Linux's ``/proc/net/if_inet6``: the first column of each line, 32
    hex digits."""
    found = []
    for line in text.splitlines():
        words = line.split()
        if words and len(words[0]) == 32:
            with contextlib.suppress(ValueError):
                found.append(str(ipaddress.IPv6Address(int(words[0], 16))))
    return found


def _read(path: str) -> str:
    try:
        return Path(path).read_text(encoding="ascii", errors="replace")
    except OSError:
        return ""


def _probe(
    family: socket.AddressFamily, target: tuple[str, int] | tuple[str, int, int, int]
) -> str:
    """The source address the system would use toward ``target`` ("" where it has no route)."""
    try:
        with socket.socket(family, socket.SOCK_DGRAM) as probe:
            probe.connect(target)
            return str(probe.getsockname()[0])
    except OSError:
        return ""


def local_addresses() -> list[str]:
    """Every address this machine answers on as far as it can tell without the network: its
    host name's addresses, the source address of its routes, and on Linux every interface's
    addresses. Loopback ones are among them; `reachable_addresses` leaves them out."""
    found: list[str] = []
    with contextlib.suppress(OSError, UnicodeError):
        for *_, sockaddr in socket.getaddrinfo(socket.gethostname(), None):
            found.append(str(sockaddr[0]))
    found += [_probe(family, target) for family, target in PROBES]
    found += fib_trie_addresses(_read("/proc/net/fib_trie"))
    found += if_inet6_addresses(_read("/proc/net/if_inet6"))
    return [address for address in found if address]


def _address(text: str) -> Address | None:
    try:
        return ipaddress.ip_address(text.partition("%")[0])
    except ValueError:
        return None


def reachable_addresses(
    host: str, discover: Callable[[], Iterable[str]] = local_addresses
) -> list[str]:
    """The addresses other machines can open a server listening on ``host`` at: with a wildcard
    (``0.0.0.0`` IPv4, ``::`` both) every address ``discover`` names that is not loopback,
    link-local (a browser cannot open those), multicast or unspecified, IPv4 first; with one
    address or name, that one unless it is loopback; none for loopback.

    >>> reachable_addresses("0.0.0.0", lambda: ["127.0.0.1", "192.168.1.20", "fd00::20"])
    ['192.168.1.20']
    >>> reachable_addresses("::", lambda: ["::1", "fe80::1%eth0", "fd00::20", "10.0.0.5"])
    ['10.0.0.5', 'fd00::20']
    >>> reachable_addresses("127.0.0.1")
    []
    """
    if host not in WILDCARDS:
        return [] if local_only(host) else [host]
    kept: set[Address] = set()
    for text in discover():
        address = _address(text)
        if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
            address = address.ipv4_mapped
        if address is None or (address.version == 6 and host == "0.0.0.0"):
            continue
        if (
            address.is_loopback
            or address.is_link_local
            or address.is_multicast
            or address.is_unspecified
        ):
            continue
        kept.add(address)
    return [str(address) for address in sorted(kept, key=lambda a: (a.version, int(a)))]


def local_only(host: str) -> bool:
    """Whether a server listening on ``host`` can be opened from this machine alone."""
    if host.lower() == "localhost" or host.lower().endswith(".localhost"):
        return True
    address = _address(host)
    return address is not None and address.is_loopback


def url_of(host: str, port: int) -> str:
    """The page of a server at ``host`` and ``port``: ``http://192.168.1.20:4242/``, an IPv6
    address in brackets (``http://[fd00::20]:4242/``)."""
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/"


def start_message(
    host: str,
    port: int,
    where: str,
    public_url: str | None = None,
    discover: Callable[[], Iterable[str]] = local_addresses,
) -> list[str]:
    """What ``texas42 serve`` prints when it starts, a line each: where to open the table here,
    where other machines open it (or how to let them), and where invite links point."""
    here = "localhost" if host in WILDCARDS or local_only(host) else host
    lines = [f"texas42 table: open {url_of(here, port)}  (games in {where}; Ctrl-C stops)"]
    if local_only(host):
        lines.append(
            "  Only this machine can open it; to let other machines on your network join, "
            "add --host 0.0.0.0"
        )
    elif host in WILDCARDS:
        addresses = reachable_addresses(host, discover)
        if addresses:
            lines.append("  Other machines on your network can open:")
            lines += [f"    {url_of(address, port)}" for address in addresses]
        else:
            lines.append(
                f"  Other machines open this machine's address, port {port} "
                "(no network address was found here)"
            )
    if public_url is not None:
        lines.append(f"  Invite and seat links start with {public_url}/ (--public-url)")
    return lines


# -- the QR code --------------------------------------------------------------------------------


def qr_svg(link: str) -> str:
    """The QR code of ``link`` as a standalone SVG document (black on white, the standard quiet
    zone of four modules, sized by its viewBox), titled with the link it says."""
    import segno

    code = segno.make_qr(link, error="m")
    buffer = io.BytesIO()
    code.save(
        buffer,
        kind="svg",
        border=4,
        omitsize=True,
        xmldecl=False,
        title=link,
        svgclass="qr",
        lineclass=None,
        dark="#000",
        light="#fff",
    )
    return buffer.getvalue().decode("utf-8")


__all__ = [
    "check_public_url",
    "local_addresses",
    "local_only",
    "qr_svg",
    "reachable_addresses",
    "start_message",
    "table_link",
    "url_of",
]
