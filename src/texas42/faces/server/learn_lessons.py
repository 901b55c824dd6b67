"""The lessons over HTTP (issue 17): the course, a lesson from its start, and a move judged.

``GET /api/learn/lessons`` lists the course; ``GET /api/learn/lessons/{lesson}`` gives a lesson
up to the learner's first move (the positions of the moves the lesson makes itself, every tile
shown: a lesson is played open), and with ``?at=STEP`` (a step of the learner's) the lesson's
own moves replayed up to that step, for a learner going on where they left off;
``POST /api/learn/check`` with ``{"lesson", "step", "move"}`` judges a move with
`texas42.services.learn.lessons.check` and, for the lesson's own move, plays on to the
learner's next one. Judging a move runs the solver, so it goes through the server's
pool for expensive work (`texas42.faces.server.work`), whose cache keeps every answer: the
lessons are fixed, so an answer never changes. Nothing here keeps any state: where the learner
is in a lesson is the browser's to remember.
"""

from __future__ import annotations

import json

from fastapi import APIRouter, HTTPException, Query, Request, Response
from pydantic import BaseModel, ConfigDict, Field

from texas42.core.actions import Play
from texas42.core.errors import Texas42Error
from texas42.core.layout import layout_of
from texas42.core.words import action_said
from texas42.faces.server import outbound as out
from texas42.faces.server.payload import layout_payload, replay_frame, seat_labels
from texas42.faces.server.work import RETRY_AFTER, Busy
from texas42.services.learn.lessons import (
    Lesson,
    LessonError,
    check,
    choices,
    lesson,
    lessons,
    situation,
)

LESSON_CHECK_BYTES = 512
"""The most a move's request takes (``POST /api/learn/check``): an id, a step and a move."""

router = APIRouter(prefix="/api/learn")


class LessonMove(BaseModel):
    """A learner's move at a step of a lesson."""

    model_config = ConfigDict(extra="forbid")
    lesson: str = Field(min_length=1, max_length=48)
    step: int = Field(ge=0, le=200)
    move: str = Field(min_length=1, max_length=32)


def turn(found: Lesson, after: int) -> out.LessonTurn:
    """The lesson from step ``after`` (the learner's move just made, or 0) to the learner's next
    move: a frame for the position at ``after`` and after each move the lesson makes."""
    rules = found.record.rules
    names = seat_labels(layout_of(rules), found.record.players or ())
    names[found.seat] = "You"  # the learner, as the terminal's lessons call them
    upcoming = found.next_step(after)
    end = len(found.actions) if upcoming is None else upcoming
    score = (0,) * layout_of(rules).sides
    hand = found.hand_at(after)
    caption = (
        "The deal"
        if after == 0
        else action_said(names[found.seats[after - 1]], found.actions[after - 1], own=True)
    )
    frames = [replay_frame(hand, score, 1, caption, names)]
    for k in range(after, end):
        hand.apply(found.actions[k])
        said = action_said(names[found.seats[k]], found.actions[k], own=True)
        frames.append(replay_frame(hand, score, 1, said, names))
    if upcoming is None:
        return out.LessonTurn(
            frames=frames, step=None, situation=None, teach=None, choices=[], done=True
        )
    return out.LessonTurn(
        frames=frames,
        step=upcoming,
        situation=situation(found, upcoming),
        teach=found.teach.get(upcoming),
        choices=choices(found, upcoming),
        done=False,
    )


def _lesson_or_404(lesson_id: str) -> Lesson:
    try:
        return lesson(lesson_id)
    except LessonError as exc:
        raise HTTPException(404, str(exc)) from None


def check_job(lesson_id: str, step: int, move: str) -> tuple[int, str]:
    """A move judged, as the pool runs it: (200, the `LessonVerdict`), or (400, a `Failure`)."""
    found = lesson(lesson_id)
    try:
        verdict = check(found, step, move)
    except LessonError as exc:
        return 400, out.encode(out.Failure(error=str(exc)))
    after = turn(found, step + 1) if verdict.right else None
    body = out.LessonVerdict(**verdict.to_dict(), turn=after)
    return 200, out.encode(body)


@router.get("/lessons")
async def lesson_list() -> Response:
    body = out.LessonList(
        lessons=[
            out.LessonSummary(id=x.id, title=x.title, summary=x.summary, moves=len(x.steps))
            for x in lessons()
        ]
    )
    return Response(out.encode(body), media_type="application/json")


@router.get("/lessons/{lesson_id}")
async def lesson_page(lesson_id: str, at: int = Query(0, ge=0, le=200)) -> Response:
    found = _lesson_or_404(lesson_id)
    if at and at not in found.steps:  # a lesson goes on only from a move of the learner's
        upcoming = ", ".join(str(k) for k in found.steps)
        raise HTTPException(400, f"at: {at} is not one of your steps ({upcoming})")
    body = out.LessonPage(
        id=found.id,
        title=found.title,
        summary=found.summary,
        seat=found.seat,
        intro=list(found.intro),
        layout=layout_payload(found.record.rules),
        steps=list(found.steps),
        turn=turn(found, at),
    )
    return Response(out.encode(body), media_type="application/json")


@router.post("/check")
async def lesson_check(body: LessonMove, request: Request) -> Response:
    found = _lesson_or_404(body.lesson)
    try:  # refuse a step or a move that is none at once, before it costs the pool anything
        if body.step not in found.steps:
            check(found, body.step, body.move)
        hand = found.hand_at(body.step)
        action = hand.parse_action(body.move)
        if isinstance(action, Play) and not hand.hands[found.seat] >> action.tile & 1:
            check(found, body.step, body.move)
    except LessonError as exc:
        raise HTTPException(400, str(exc)) from None
    except Texas42Error as exc:  # a move the hand cannot read
        raise HTTPException(400, f"move: {body.move[:32]!r} is no move here: {exc}") from None
    client = ("http", request.client.host if request.client else "")
    work = request.app.state.tables.work
    key = ("lesson", found.id, body.step, body.move.strip().lower())
    try:
        status, text = await work.submit(client, key, check_job, found.id, body.step, body.move)
    except Busy as exc:
        return Response(
            out.encode(out.Failure(error=str(exc))),
            503,
            media_type="application/json",
            headers={"Retry-After": str(RETRY_AFTER)},
        )
    if status != 200:
        raise HTTPException(status, json.loads(text)["error"])
    return Response(text, status, media_type="application/json")


__all__ = ["LESSON_CHECK_BYTES", "LessonMove", "check_job", "router", "turn"]
