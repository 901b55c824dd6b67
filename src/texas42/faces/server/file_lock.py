"""One server process per SQLite file: an exclusive lock on a file beside the database.

SQLite serves one process (every table is held in that process's memory), so a second
``texas42 serve`` on the same file is refused while the first runs. The lock is the operating
system's (``flock``, or ``msvcrt.locking`` on Windows), held on an open file: it goes when the
process ends, however it ends (``kill -9`` included), so a stale lock file never blocks a start.
PostgreSQL needs no such lock.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator
from pathlib import Path

import sqlalchemy as sa

from texas42.core.errors import Texas42Error


def lock_path(url: str) -> Path | None:
    """The lock file of an SQLite file's URL (``texas42.sqlite.lock``), or None when the
    database needs none (PostgreSQL, or SQLite in memory)."""
    parsed = sa.engine.make_url(url)
    if parsed.get_backend_name() != "sqlite" or parsed.database in (None, "", ":memory:"):
        return None
    return (
        Path(parsed.database).expanduser().resolve().with_name(Path(parsed.database).name + ".lock")
    )


@contextlib.contextmanager
def one_server(url: str) -> Iterator[None]:
    """Hold the database's lock while the server runs; refuse if another process holds it."""
    path = lock_path(url)
    if path is None:
        yield
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    handle = open(path, "a+")  # noqa: SIM115  held open for as long as the server runs
    try:
        if not _try_lock(handle.fileno()):
            handle.seek(0)
            holder = handle.read().strip()
            raise Texas42Error(
                f"another texas42 serve{f' (process {holder})' if holder.isdigit() else ''} "
                f"is using {path.with_suffix('')}: SQLite serves one process; stop that one, "
                "or run several on PostgreSQL (docs/deploy.md)"
            )
        handle.seek(0)
        handle.truncate()
        handle.write(str(os.getpid()))
        handle.flush()
        yield
    finally:
        handle.close()


def _try_lock(fd: int) -> bool:
    if sys.platform == "win32":
        import msvcrt

        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True
    import fcntl

    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    return True
