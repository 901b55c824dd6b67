"""A room's snapshot: its whole state as one JSON text, so a table loads without its whole log.

A table is its event log (`texas42.faces.server.room`), and a long-lived one's log grows with
every game it plays. Every `ServerSettings.snapshot_events` events, and when it leaves memory, the
room writes a snapshot of its state after its events before ``seq`` (storage keeps the latest);
loading it is then the snapshot and the events after it. The snapshot holds the room's own fields
(seats with their token digests, host, settings, the chat lines kept, mutes, listing, the game's
number, seed and ``seq``) and the game in play as the steps (`ActionEvent`, `ClaimEvent`) taken
since its deal, which `Room` applies to a fresh `Game` of that seed. A room restored from its
snapshot equals the one its whole log gives (`tests/faces/test_server_tables.py`); a snapshot
that cannot be read raises `BadSnapshot`, and the table is read from its whole log instead.
Like the log, a snapshot holds deal seeds and digests, and is never sent to anyone.
"""

from __future__ import annotations

from collections import deque
from dataclasses import asdict
from typing import TYPE_CHECKING, Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from texas42.core.actions import parse_action_words
from texas42.core.errors import Texas42Error
from texas42.faces.server import outbound as out
from texas42.faces.server.events import ActionEvent, ClaimEvent, EventSeat

if TYPE_CHECKING:
    from texas42.faces.server.room import Room

VERSION: Literal[1] = 1
"""The snapshot's format; one of another version is not read (the log is)."""

Step = Annotated[ActionEvent | ClaimEvent, Field(discriminator="kind")]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class SeatSnapshot(_Model):
    kind: out.SeatKind
    name: str
    level: str | None
    digest: str | None
    holder: EventSeat | None
    player: str | None
    away: bool
    open: bool
    pending: tuple[str, str, str | None] | None


class RoomSnapshot(_Model):
    """Everything a room keeps beyond its id, name and rules (the table's row has those)."""

    version: Literal[1]
    next_event: Annotated[int, Field(ge=0)]
    status: out.TableStatus
    seats: list[SeatSnapshot]
    host: EventSeat | None
    public: bool
    spectators_chat: bool
    muted: list[EventSeat]
    chat: list[out.ChatLine]
    bot_level: str
    away_seconds: float | None
    turn_seconds: float
    game_number: Annotated[int, Field(ge=0)]
    seed: int
    seq: Annotated[int, Field(ge=0)]
    last: out.Last | None
    steps: list[Step]
    """The current game's steps since its deal, in order; empty before the first game."""


class BadSnapshot(Texas42Error):
    """A stored snapshot the server cannot take: the table is read from its whole log."""


def take(room: Room) -> str:
    """The room's state now, after its events before ``room.next_event``."""
    snapshot = RoomSnapshot(
        version=VERSION,
        next_event=room.next_event,
        status=room.status,
        seats=[SeatSnapshot(**asdict(seat)) for seat in room.seats],
        host=room.host,
        public=room.public,
        spectators_chat=room.spectators_chat,
        muted=sorted(room.muted),
        chat=list(room.chat),
        bot_level=room.bot_level,
        away_seconds=room.away_seconds,
        turn_seconds=room.turn_seconds,
        game_number=room.game_number,
        seed=room.seed,
        seq=room.seq,
        last=room.last,
        steps=list(room.steps),
    )
    return snapshot.model_dump_json()


def fill(room: Room, data: str, seq: int) -> None:
    """Set a new room's state from its snapshot stored at ``seq``; a `BadSnapshot` if the text
    is not a snapshot of this table (nothing of the room is to be used then)."""
    from texas42.faces.server.room import SeatState

    try:
        snapshot = RoomSnapshot.model_validate_json(data)
    except ValidationError as exc:
        # where and why only: the input may hold digests and seeds, never for a log
        error = exc.errors()[0]
        where = ".".join(str(part) for part in error["loc"]) or "data"
        raise BadSnapshot(f"table {room.id}: the snapshot is not readable: {where}") from None
    except (ValueError, RecursionError):
        raise BadSnapshot(f"table {room.id}: the snapshot is not readable") from None
    seats = room.layout.seats
    if snapshot.next_event != seq or len(snapshot.seats) != seats:
        raise BadSnapshot(f"table {room.id}: the snapshot is not of this table at event {seq}")
    named = [snapshot.host, *snapshot.muted, *(line.seat for line in snapshot.chat)]
    named += [seat.holder for seat in snapshot.seats]
    named += [snapshot.last.seat if snapshot.last is not None else None]
    if any(seat is not None and seat >= seats for seat in named):
        raise BadSnapshot(f"table {room.id}: the snapshot names a seat the table does not have")
    if snapshot.status != "lobby" and snapshot.game_number < 1:
        raise BadSnapshot(f"table {room.id}: the snapshot's game has no number")
    room.seats = [SeatState(**seat.model_dump()) for seat in snapshot.seats]
    room.next_event = snapshot.next_event
    room.host = snapshot.host
    room.public = snapshot.public
    room.spectators_chat = snapshot.spectators_chat
    room.muted = set(snapshot.muted)
    room.chat = deque(snapshot.chat, maxlen=room.chat.maxlen)
    room.bot_level = snapshot.bot_level
    room.away_seconds = snapshot.away_seconds
    room.turn_seconds = snapshot.turn_seconds
    room.game_number = snapshot.game_number
    room.seed = snapshot.seed
    room.seq = snapshot.seq
    room.last = snapshot.last
    room.status = snapshot.status
    room.steps = list(snapshot.steps)
    if snapshot.status == "lobby":
        return
    try:
        game = room.deal(snapshot.seed)
        for step in snapshot.steps:
            if step.game != snapshot.game_number:
                raise Texas42Error(f"a step of game {step.game} in game {snapshot.game_number}")
            if step.seat != game.seat_to_act():
                raise Texas42Error(f"seat {step.seat} acted out of turn")
            if isinstance(step, ActionEvent):
                game.apply(parse_action_words(step.action, room.rules))
            else:
                why = game.why_claim_illegal(step.seat)
                if why is not None:
                    raise Texas42Error(why)
                game.claim(step.seat)
    except Texas42Error as exc:
        raise BadSnapshot(
            f"table {room.id}: the snapshot's game cannot be replayed: {exc}"
        ) from None
    if game.is_over() != (snapshot.status == "over"):
        raise BadSnapshot(f"table {room.id}: the snapshot's game and status disagree")
    room.game = game
    if snapshot.status == "playing":
        room.bots = {
            seat: room._make_bot(state.level, snapshot.seed + seat, state.name)
            for seat, state in enumerate(room.seats)
            if state.kind == "bot" and state.level is not None
        }
