"""The server fixtures every face test may ask for: an in-process ``client``, and a real
``server`` process with a Chromium ``browser`` on it (one of each per test module)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pg import Cluster, cluster
from webtest import CHROMIUM, PLAYWRIGHT, TestClient, chromium, make_client, serve


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with make_client(tmp_path / "t.sqlite") as c:
        yield c


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    if not (PLAYWRIGHT and os.path.exists(CHROMIUM)):
        pytest.skip("needs the playwright package and /usr/bin/chromium")
    with serve(tmp_path_factory.mktemp("web")) as base:
        yield base


@pytest.fixture(scope="module")
def browser(server: str) -> Iterator[Any]:
    with chromium() as browser:
        yield browser


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[Cluster]:
    """A throwaway PostgreSQL cluster for the whole session (`pg.cluster`); never skipped."""
    try:
        context = cluster()
        running = context.__enter__()
    except RuntimeError as exc:
        pytest.fail(str(exc), pytrace=False)
    try:
        yield running
    finally:
        context.__exit__(None, None, None)


@pytest.fixture
def pg_url(pg_cluster: Cluster) -> str:
    """A new empty PostgreSQL database for one test: its URL."""
    return pg_cluster.create_database()
