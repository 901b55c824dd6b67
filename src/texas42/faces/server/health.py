"""Health and readiness, for a supervisor or a load balancer (docs/deploy.md).

``GET /healthz``: liveness, the process answers (it reads nothing). ``GET /readyz``: readiness,
the database answers within `READY_SECONDS` and its schema is the one this code needs
(`texas42.faces.server.migrate`); 503 with the reason otherwise, so a balancer sends no browser
to a process that cannot serve it.
"""

from __future__ import annotations

import asyncio

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from texas42.faces.server import migrate
from texas42.faces.server.storage import Storage

READY_SECONDS = 5.0
"""How long ``/readyz`` waits for the database before it says it is not ready."""

health = APIRouter()
"""The two probes; no limit of the API's applies to them but the gate's (Host and Origin)."""

NO_STORE = {"Cache-Control": "no-store"}


@health.get("/healthz")
async def healthz() -> JSONResponse:
    return JSONResponse({"status": "ok"}, headers=NO_STORE)


@health.get("/readyz")
async def readyz(request: Request) -> JSONResponse:
    storage: Storage = request.app.state.storage
    try:
        problem = await asyncio.wait_for(asyncio.to_thread(schema_problem, storage), READY_SECONDS)
    except TimeoutError:
        problem = f"the database did not answer within {READY_SECONDS:g} s"
    except Exception as exc:  # the database is down or refuses us: say so, never crash
        reason = str(getattr(exc, "orig", None) or exc).splitlines()[0] if str(exc) else ""
        problem = f"the database does not answer: {type(exc).__name__} {reason}".strip()
    if problem is not None:
        return JSONResponse(
            {"status": "not ready", "reason": problem}, status_code=503, headers=NO_STORE
        )
    return JSONResponse({"status": "ready"}, headers=NO_STORE)


def schema_problem(storage: Storage) -> str | None:
    """Why ``storage``'s database cannot serve now (it does not answer, or its schema is not
    this code's), or None. Blocking: run it off the event loop."""
    return migrate.state(storage.engine).problem()
