"""The hand laboratory's page and API (``/learn/lab``): any deal the learner sets up, its edits,
and the engine's figures for it (`texas42.services.learn.lab`).

- ``GET /learn/lab``: the page (the browser app, `web/lab.js`); ``?p=`` holds the position.
- ``GET /api/learn/lab/random``: a deal shaken at random (``?seed=`` for a given one).
- ``POST /api/learn/lab/edit``: a position read, and optionally edited (two tiles swapped, the
  contract given to a seat at a bid, a tile played, the last play taken back): its board.
- ``POST /api/learn/lab``: a position's figures, computed in the server's pool of expensive work
  (`work.Work`: rate-limited, and kept, since a position's figures never change).
- ``POST /api/learn/lab/record``: each hand of a game record as the position it ended at.

The lab takes only what the learner gives it: a position, or a record. No route here takes a
table's id, so no live table's hidden tiles can reach it; the replay page's "Open in the lab"
link sends the record of a game that is over (a game in play has no replay).
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import Annotated

from fastapi import APIRouter, Query, Request
from fastapi.responses import FileResponse, Response
from pydantic import BaseModel, ConfigDict, Field

from texas42.core import words
from texas42.core.actions import ACTIONS, Declare, Play
from texas42.core.errors import Texas42Error
from texas42.core.hand import Hand
from texas42.core.progress import Phase
from texas42.core.record import MAX_RECORD_BYTES, Record, RecordError
from texas42.core.tiles import iter_tiles, tile_name
from texas42.faces.server import outbound as out
from texas42.faces.server.payload import PHASES, layout_payload
from texas42.faces.server.work import RETRY_AFTER, Busy, Work
from texas42.services.learn import lab

WEB_DIR = Path(__file__).parent / "web"
REQUEST_BYTES = 4096
"""The most a lab request's body takes: a position of at most `lab.MAX_POSITION_CHARS` and a
few short fields, every character escaped."""
SAMPLES = lab.DEFAULT_SAMPLES
"""Deals the expert draws for the lab's chances: as many as it draws to bid."""
SEED = 0
"""The expert's seed: the same position always gets the same figures (and they may be kept)."""
LAB_BODY_LIMITS = {
    ("POST", "/api/learn/lab"): (REQUEST_BYTES, "a lab request"),
    ("POST", "/api/learn/lab/edit"): (REQUEST_BYTES, "a lab request"),
    ("POST", "/api/learn/lab/record"): (MAX_RECORD_BYTES, "a record"),
}
"""The lab's routes in the server's `guard.BodyLimit`."""

Position = Annotated[str, Field(min_length=1, max_length=lab.MAX_POSITION_CHARS)]
Word = Annotated[str, Field(min_length=1, max_length=20)]

router = APIRouter()
"""The lab's page and its JSON API."""


class FiguresRequest(BaseModel):
    """``POST /api/learn/lab``: the position, and the seat and bid to judge (the bid's winner
    and its bid, or the first bidder and the lowest bid, when not given)."""

    model_config = ConfigDict(extra="forbid")
    position: Position
    seat: int | None = Field(default=None, ge=0, le=6)
    bid: Word | None = None


class ContractEdit(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seat: int = Field(ge=0, le=6)
    bid: Word
    contract: Word


class EditRequest(BaseModel):
    """``POST /api/learn/lab/edit``: the position and at most one edit of it."""

    model_config = ConfigDict(extra="forbid")
    position: Position
    swap: list[Word] | None = Field(default=None, min_length=2, max_length=2)
    contract: ContractEdit | None = None
    play: Word | None = None
    back: bool = False


def _failure(status: int, error: str) -> Response:
    return Response(out.encode(out.Failure(error=error)), status, media_type="application/json")


def _names(tiles: int) -> list[str]:
    return [tile_name(t) for t in sorted(iter_tiles(tiles), reverse=True)]


def board(hand: Hand) -> out.LabBoard:
    """What the page draws of a lab position, and the positions one step back and at the first
    lead (None where there is no play to undo)."""
    seat = lab.default_seat(hand)
    try:
        trial = lab.bid_won(hand, seat, lab.default_bid(hand, seat))
        contracts = [str(a.contract) for a in trial.legal_actions() if isinstance(a, Declare)]
    except Texas42Error:
        contracts = []
    start = None
    if hand.plays:
        first = hand.copy()
        while first.plays or first.claims:
            first.undo()
        start = lab.write_position(first)
    playing = hand.phase == Phase.PLAY
    return out.LabBoard(
        position=lab.write_position(hand),
        layout=layout_payload(hand.rules),
        rules=str(hand.rules),
        shaker=hand.shaker,
        first_bidder=hand.first_bidder,
        hands=[_names(m) for m in hand.deal],
        held=[_names(m) for m in hand.hands],
        calls=[ACTIONS[c].notation for c in hand.calls],
        bidder=hand.high_seat,
        bid=None if hand.high_id is None else ACTIONS[hand.high_id].notation,
        contract=None if hand.contract is None else str(hand.contract),
        contract_name=None if hand.contract is None else words.contract_said(str(hand.contract)),
        phase=PHASES[hand.phase],
        turn=hand.seat_to_act(),
        plays=[tile_name(t) for t in hand.plays],
        trick=[tile_name(t) for t in hand.trick] if playing else [],
        legal=[tile_name(a.tile) for a in hand.legal_actions() if isinstance(a, Play)],
        contracts=contracts,
        back=lab.write_position(lab.take_back(hand)) if hand.plays or hand.claims else None,
        start=start,
    )


def figures_job(position: str, seat: int | None, bid: str | None, samples: int) -> tuple[int, str]:
    """A position's figures (`lab.analyse`) as (200, `LabFigures`), or (400, a `Failure`
    naming what is wrong): a job of the server's pool."""
    try:
        hand = lab.read_position(position)
        found = lab.analyse(hand, seat, bid, seed=SEED, samples=samples)
    except Texas42Error as exc:
        return 400, out.encode(out.Failure(error=str(exc)))
    names = hand.layout.seat_names
    figures = found.bid
    contracts = [
        out.LabContract(
            **c.to_dict(),
            line=words.lab_contract_line(
                names[figures.seat],
                figures.bid,
                c.contract,
                c.chance,
                figures.samples,
                c.total,
                c.makes,
                "trick" if c.contract.startswith("nello") else "point",
            ),
        )
        for c in figures.contracts
    ]
    play = found.play
    best_line = None
    if play is not None:
        unit = "trick" if play.unit == "tricks" else "point"
        view = hand.view(play.turn)
        best_line = words.best_play_line(view, play.value, unit, play.taken)
    answer = out.LabFigures(
        position=found.position,
        seat=figures.seat,
        bid=figures.bid,
        need=figures.need,
        samples=figures.samples,
        chance=round(figures.chance, 4),
        bid_line=words.bid_chance_words(
            figures.bid, figures.chance, figures.samples, _best_contract(figures)
        ),
        contracts=contracts,
        unit=None if play is None else "tricks" if play.unit == "tricks" else "points",
        value=None if play is None else play.value,
        best_line=best_line,
        moves=[]
        if play is None
        else [out.LabMove(tile=tile_name(m.tile), value=m.value, best=m.best) for m in play.moves],
    )
    return 200, out.encode(answer)


def _best_contract(figures: lab.BidFigures) -> str | None:
    """The contract the expert gives the bid its best chance in, in words."""
    rated = [c for c in figures.contracts if c.chance is not None]
    if not rated:
        return None
    return words.contract_said(max(rated, key=lambda c: c.chance or 0.0).contract)


def record_job(text: str) -> tuple[int, str]:
    """Each hand of a record as a lab position (`lab.record_positions`), or (400, a `Failure`)."""
    try:
        positions = lab.record_positions(Record.from_json(text))
    except RecordError as exc:
        return 400, out.encode(out.Failure(error=exc.line()))
    except Texas42Error as exc:
        return 400, out.encode(out.Failure(error=str(exc)))
    except RecursionError:
        return 400, out.encode(out.Failure(error="not JSON: nested too deeply"))
    return 200, out.encode(out.LabHands(positions=positions))


async def _pooled(
    request: Request, key: tuple[object, ...], job: Callable[..., tuple[int, str]], *args: object
) -> Response:
    """``job(*args)`` from the server's pool of expensive work, kept under ``key``; 503 with
    ``Retry-After`` when this client or the server has too much under way."""
    client = ("http", request.client.host if request.client else "")
    work: Work = request.app.state.tables.work
    try:
        status, text = await work.submit(client, key, job, *args)
    except Busy as exc:
        return Response(
            out.encode(out.Failure(error=str(exc))),
            503,
            media_type="application/json",
            headers={"Retry-After": str(RETRY_AFTER)},
        )
    return Response(text, status, media_type="application/json")


@router.get("/learn/lab", include_in_schema=False)
async def lab_page() -> FileResponse:
    return FileResponse(WEB_DIR / "index.html", media_type="text/html")


@router.get("/api/learn/lab/random")
async def random_deal(seed: Annotated[int | None, Query(ge=0, le=2**31)] = None) -> Response:
    chosen = secrets.randbelow(2**31) if seed is None else seed
    hand = lab.read_position(lab.random_position(chosen))
    return Response(out.encode(board(hand)), media_type="application/json")


@router.post("/api/learn/lab/edit")
async def edit(body: EditRequest) -> Response:
    edits = [body.swap is not None, body.contract is not None, body.play is not None, body.back]
    if sum(edits) > 1:
        return _failure(400, "edit: give at most one of swap, contract, play and back")
    try:
        hand = lab.read_position(body.position)
    except Texas42Error as exc:
        return _failure(400, f"position: {exc}")
    try:
        if body.swap is not None:
            hand = lab.swap_tiles(hand, body.swap[0], body.swap[1])
        elif body.contract is not None:
            edit = body.contract
            hand = lab.set_contract(hand, edit.seat, edit.bid, edit.contract)
        elif body.play is not None:
            hand = lab.play_tile(hand, body.play)
        elif body.back:
            hand = lab.take_back(hand)
    except Texas42Error as exc:
        return _failure(400, str(exc))
    return Response(out.encode(board(hand)), media_type="application/json")


@router.post("/api/learn/lab")
async def figures(body: FiguresRequest, request: Request) -> Response:
    key = ("lab", body.position, body.seat, body.bid)
    return await _pooled(request, key, figures_job, body.position, body.seat, body.bid, SAMPLES)


@router.post("/api/learn/lab/record")
async def record_hands(request: Request) -> Response:
    body = await request.body()  # at most MAX_RECORD_BYTES: LAB_BODY_LIMITS
    key = ("lab-record", hashlib.sha256(body).digest())
    return await _pooled(request, key, record_job, body.decode("utf-8", errors="replace"))


__all__ = ["LAB_BODY_LIMITS", "board", "figures_job", "record_job", "router"]
