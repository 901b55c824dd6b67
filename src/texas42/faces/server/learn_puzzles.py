"""The play puzzles' pages and API (`texas42.services.learn.puzzles`), hooked into the app.

- ``GET /api/learn/puzzles``: the set, by grade, without tiles or answers;
- ``GET /api/learn/puzzles/daily?date=YYYY-MM-DD``: the day's puzzle for the date on the
  learner's device (the browser sends it), the same for everyone that day;
- ``GET /api/learn/puzzles/{id}``: one puzzle's position, every hand shown (a puzzle is double
  dummy: it is not a live game, so no tile here is hidden from anyone);
- ``POST /api/learn/puzzles/answer`` with ``{"id", "tile"}``: the verdict, the line of best play
  after the tile and, for a wrong tile, the answer's line as well.

A bad id, date or tile is refused with 400 (404 for an id of no puzzle), ``detail`` naming the
field; nothing is computed here beyond replaying the stored lines, so no answer needs the
server's pool of expensive work. The API's handlers are plain functions, which FastAPI runs in
its threads: reading the set the first time (a quarter of a second) never holds up the tables'
event loop.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Query
from fastapi.responses import FileResponse
from pydantic import BaseModel, ConfigDict, Field

from texas42.core.words import PUZZLES_INTRO, puzzle_grade_words
from texas42.services.learn import puzzles

WEB_DIR = Path(__file__).parent / "web"

ANSWER_BYTES = 256
"""The most a ``POST /api/learn/puzzles/answer`` body takes."""

ANSWER_PATH = "/api/learn/puzzles/answer"

router = APIRouter()
"""Both the pages and the API; the app includes it beside its own routers."""


class PuzzleAnswer(BaseModel):
    """An answer: the puzzle's id and the tile played (``6-4`` or ``64``)."""

    model_config = ConfigDict(extra="forbid")
    id: str = Field(max_length=16)
    tile: str = Field(max_length=8)


def _refused(exc: puzzles.PuzzleError) -> HTTPException:
    return HTTPException(404 if isinstance(exc, puzzles.UnknownPuzzle) else 400, str(exc))


def _page() -> FileResponse:
    return FileResponse(WEB_DIR / "index.html", media_type="text/html")


@router.get("/learn/puzzles", include_in_schema=False)
async def puzzles_page() -> FileResponse:
    return _page()


@router.get("/learn/puzzles/{puzzle_id}", include_in_schema=False)
async def puzzle_page(puzzle_id: str) -> FileResponse:
    return _page()


@router.get("/api/learn/puzzles")
def puzzle_list() -> dict[str, Any]:
    listed = [puzzles.summary(p) for p in puzzles.load()]
    grades = sorted({p["grade"] for p in listed})
    return {
        "intro": PUZZLES_INTRO,
        "puzzles": listed,
        "grades": [{"grade": g, "words": puzzle_grade_words(g)} for g in grades],
    }


@router.get("/api/learn/puzzles/daily")
def daily_puzzle(date: Annotated[str, Query(max_length=16)] = "") -> dict[str, Any]:
    try:
        day = puzzles.parse_date(date)
        puzzle = puzzles.daily(day)
    except puzzles.PuzzleError as exc:
        raise _refused(exc) from None
    return {**puzzles.show(puzzle), "date": day.isoformat()}


@router.get("/api/learn/puzzles/{puzzle_id}")
def puzzle_detail(puzzle_id: str) -> dict[str, Any]:
    try:
        return puzzles.show(puzzles.by_id(puzzle_id))
    except puzzles.PuzzleError as exc:
        raise _refused(exc) from None


@router.post(ANSWER_PATH)
def puzzle_answer(body: PuzzleAnswer) -> dict[str, Any]:
    try:
        return puzzles.answer(puzzles.by_id(body.id), body.tile)
    except puzzles.PuzzleError as exc:
        raise _refused(exc) from None
