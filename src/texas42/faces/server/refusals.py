"""The server's answer to a request its schema refuses (FastAPI's 422), safe for any input.

FastAPI's own handler echoes the input it refused, and its JSON writer encodes to UTF-8 as it
is: a lone surrogate (``"\\ud800"`` in the request's JSON) made that answer itself fail, a 500.
This one says where and what (``loc``, ``msg``, ``type``, as the browser's ``net.js`` reads
them) and never echoes the input: a refusal is no larger than its explanation, and its JSON is
ASCII (``json.dumps`` escapes every other character)."""

from __future__ import annotations

import json

from fastapi import FastAPI, Request, Response
from fastapi.exceptions import RequestValidationError


async def invalid_request(request: Request, exc: Exception) -> Response:
    """A 422 with each problem's place and message, in ASCII JSON."""
    errors = exc.errors() if isinstance(exc, RequestValidationError) else []
    detail = [
        {
            "loc": [str(part) for part in error.get("loc", ())],
            "msg": str(error.get("msg", "")),
            "type": str(error.get("type", "")),
        }
        for error in errors
    ]
    return Response(json.dumps({"detail": detail}), status_code=422, media_type="application/json")


def install(app: FastAPI) -> None:
    """Answer every request the schema refuses with `invalid_request`."""
    app.add_exception_handler(RequestValidationError, invalid_request)
