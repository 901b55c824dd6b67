"""A throwaway PostgreSQL cluster for the tests: Debian's ``postgresql`` package (``make test``
installs it), a cluster made by ``initdb`` in a temporary folder, listening only on a unix socket
in that folder, and stopped (and the folder removed) at the end, also when a test fails.

``initdb`` and ``postgres`` refuse to run as root: as root, the cluster belongs to ``nobody``
and its commands run through ``runuser``; the tests connect over the socket as the cluster's
superuser ``postgres`` (trust authentication, the socket is reachable from this machine only).

The fixtures (``pg_cluster`` once a session, ``pg_url`` a new database per test) are in
``tests/faces/conftest.py``.
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

MISSING = (
    "PostgreSQL is not installed: the tests need Debian's postgresql package "
    "(and the postgres extra, psycopg); `make test` installs both"
)


def pg_bin() -> Path:
    """The folder of the newest installed PostgreSQL's programs (initdb, pg_ctl)."""
    found = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/initdb"),
        key=lambda path: int(Path(path).parent.parent.name),
    )
    if not found:
        on_path = shutil.which("initdb")
        if on_path is None:
            raise RuntimeError(MISSING)
        return Path(on_path).parent
    return Path(found[-1]).parent


@dataclass(frozen=True)
class Cluster:
    """A running cluster: its folder (which holds its socket) and its programs."""

    folder: Path
    bin: Path
    port: int = 5432

    def url(self, database: str = "postgres") -> str:
        """The URL of one of the cluster's databases, as ``--db`` takes it."""
        return f"postgresql://postgres@/{database}?host={self.folder}&port={self.port}"

    def create_database(self) -> str:
        """A new empty database; its URL."""
        name = "t" + uuid.uuid4().hex[:12]
        self.sql(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def sql(self, statement: str) -> None:
        """Run one statement on the ``postgres`` database (as the superuser, over the socket)."""
        import psycopg

        with psycopg.connect(
            host=str(self.folder), port=self.port, user="postgres", dbname="postgres"
        ) as conn:
            conn.autocommit = True
            conn.execute(statement)  # type: ignore[arg-type]


def _as_owner(command: list[str]) -> list[str]:
    """``command`` as the cluster's owner: ``nobody`` when we are root, else ourselves."""
    if os.geteuid() == 0:
        return ["runuser", "-u", "nobody", "--", *command]
    return command


@contextlib.contextmanager
def cluster() -> Iterator[Cluster]:
    """Make and start a cluster in a new temporary folder; stop it and remove the folder after."""
    try:
        import psycopg  # noqa: F401
    except ImportError:
        raise RuntimeError(MISSING) from None
    bin_dir = pg_bin()
    # under /tmp itself: never pytest's root-only folder or a root-only TMPDIR, which ``nobody``
    # cannot reach, and short enough for a unix socket's path (at most 107 bytes)
    folder = Path(tempfile.mkdtemp(prefix="texas42-pg-", dir="/tmp"))
    data = folder / "data"
    if os.geteuid() == 0:
        os.chmod(folder, 0o755)
        os.chown(folder, 65534, 65534)
    try:
        subprocess.run(
            _as_owner(
                [
                    str(bin_dir / "initdb"),
                    "-D",
                    str(data),
                    "-U",
                    "postgres",
                    "-A",
                    "trust",
                    "-E",
                    "UTF8",
                    "--no-sync",
                ]
            ),
            check=True,
            capture_output=True,
        )
        options = (
            f"-c listen_addresses='' -c unix_socket_directories='{folder}' "
            "-c fsync=off -c synchronous_commit=off -c full_page_writes=off "
            "-c max_connections=200"
        )
        subprocess.run(
            _as_owner(
                [
                    str(bin_dir / "pg_ctl"),
                    "-D",
                    str(data),
                    "-o",
                    options,
                    "-l",
                    str(folder / "log"),
                    "-w",
                    "-t",
                    "60",
                    "start",
                ]
            ),
            check=True,
            capture_output=True,
        )
    except subprocess.CalledProcessError as exc:
        log = folder / "log"
        detail = log.read_text(errors="replace") if log.exists() else ""
        shutil.rmtree(folder, ignore_errors=True)
        raise RuntimeError(
            f"PostgreSQL would not start: {exc.stderr.decode(errors='replace')}{detail}"
        ) from None
    try:
        yield Cluster(folder, bin_dir)
    finally:
        subprocess.run(
            _as_owner([str(bin_dir / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"]),
            capture_output=True,
            check=False,
        )
        shutil.rmtree(folder, ignore_errors=True)
