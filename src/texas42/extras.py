"""Which optional extra brings which library, and the error that names the extra to install.

A plain ``pip install texas42`` brings the core, records, SVG, the rule bots, the terminal game
and the CLI; the solver, the web table and the full-screen table come with extras
(``pip install 'texas42[solver]'``; README, "Install"). Whatever needs an extra that is missing
says so in one line instead of a traceback.
"""

from __future__ import annotations

from texas42.core.errors import Texas42Error

EXTRAS = {
    "numpy": "solver",
    "numba": "solver",
    "llvmlite": "solver",
    "fastapi": "server",
    "starlette": "server",
    "uvicorn": "server",
    "sqlalchemy": "server",
    "segno": "server",
    "alembic": "server",
    "textual": "tui",
    "matplotlib": "plot",
    "ray": "dist",
    "psycopg": "postgres",
    "gymnasium": "env",
    "pettingzoo": "env",
    "pyspiel": "rl",
}
"""The extra that brings each library, by the name it is imported as."""


class MissingExtraError(Texas42Error):
    """Something needs a library that an extra brings, and this install lacks it."""

    def __init__(self, what: str, library: str, extra: str) -> None:
        self.library = library
        self.extra = extra
        super().__init__(
            f"{what} needs {library}, which is not installed: pip install 'texas42[{extra}]'"
        )


def extra_error(exc: ImportError, what: str) -> Exception:
    """What to raise for a failed import of something ``what`` needs: a `MissingExtraError`
    naming the extra when the missing module is an extra's library, else the ImportError itself
    (a missing module of our own is a bug, to be shown as it is)."""
    library = (exc.name or "").partition(".")[0]
    extra = EXTRAS.get(library)
    return exc if extra is None else MissingExtraError(what, library, extra)
