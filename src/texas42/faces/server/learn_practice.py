"""Bidding practice on the web (issue 17, item 2): the page ``/learn/bids`` and its API.

``GET /api/learn/bids/next?rules=standard&n=0`` answers question ``n`` of the rotation
(`texas42.services.learn.practice`): the seat's tiles, the calls before it, the score and the
legal calls, made from the seat's view alone. ``POST /api/learn/bids/answer`` with
``{"id": ..., "call": ...}`` answers with every call's figures, the expert's call and reason,
the verdict and the whole deal. The answers are in the shipped practice set, so no request
searches anything; the running score is the browser's (localStorage).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import APIRouter, HTTPException, Query
from fastapi.responses import FileResponse
from pydantic import BaseModel, ConfigDict, Field

from texas42.services.learn.practice import MAX_N, PracticeError, shipped

BODY_BYTES = 1024
"""The most an answer's request may hold: an id and a call."""

ANSWER_PATH = "/api/learn/bids/answer"

router = APIRouter()


class PracticeAnswer(BaseModel):
    """The learner's call on a practice question."""

    model_config = ConfigDict(extra="forbid")
    id: str = Field(min_length=1, max_length=64)
    call: str = Field(min_length=1, max_length=16)


def _refused(exc: PracticeError, where: str) -> HTTPException:
    return HTTPException(422, [{"loc": [where, exc.field], "msg": str(exc), "type": "value_error"}])


@router.get("/learn/bids", include_in_schema=False)
async def practice_page() -> FileResponse:
    return FileResponse(Path(__file__).parent / "web" / "index.html", media_type="text/html")


@router.get("/api/learn/bids/next")
async def next_question(
    rules: str = Query("standard", max_length=20), n: int = Query(0, ge=0, le=MAX_N)
) -> dict[str, Any]:
    """Question ``n`` of the practice rotation under ``rules`` (``standard`` or ``house``)."""
    try:
        return shipped().question(rules, n)
    except PracticeError as exc:
        raise _refused(exc, "query") from None


@router.post(ANSWER_PATH)
async def answer_question(body: PracticeAnswer) -> dict[str, Any]:
    """The answer to a practice question for the learner's call."""
    try:
        return shipped().answer(body.id, body.call)
    except PracticeError as exc:
        raise _refused(exc, "body") from None
