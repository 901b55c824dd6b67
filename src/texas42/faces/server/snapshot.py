"""A room's snapshot: its whole state as one JSON text, so a table loads without its whole log.

A table is its event log (`texas42.faces.server.room`), and a long-lived one's log grows with
every game it plays. Every `ServerSettings.snapshot_events` events, and when it leaves memory, the
room writes a snapshot of its state after its events before ``seq`` (storage keeps the latest);
loading it is then the snapshot and the events after it. The snapshot holds the room's own fields
(seats with their token digests, host, settings, the chat lines kept, mutes, listing, the game's
number, seed and ``seq``) and the game in play as the steps (`ActionEvent`, `ClaimEvent`) taken
since its deal, which `replay` applies to a fresh `Game` of that seed. `Room.take_snapshot` makes
one and `Room.restore` reads one (`read`), so this module knows the format, not the room. A room restored from its
snapshot equals the one its whole log gives (`tests/faces/test_server_tables.py`); a snapshot
that cannot be read raises `BadSnapshot`, and the table is read from its whole log instead.
Like the log, a snapshot holds deal seeds and digests, and is never sent to anyone.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from texas42.core.actions import parse_action_words
from texas42.core.errors import Texas42Error
from texas42.core.game import Game
from texas42.core.rules import Rules
from texas42.faces.server import outbound as out
from texas42.faces.server.events import ActionEvent, ClaimEvent, EventSeat
from texas42.faces.server.reasons import Kept, file_reason, reason_key

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


def read(data: str, seq: int, table_id: str, seats: int) -> RoomSnapshot:
    """The snapshot stored at ``seq`` for a table of ``seats`` seats; a `BadSnapshot` if the
    text is not one of this table."""
    try:
        snapshot = RoomSnapshot.model_validate_json(data)
    except ValidationError as exc:
        # where and why only: the input may hold digests and seeds, never for a log
        error = exc.errors()[0]
        where = ".".join(str(part) for part in error["loc"]) or "data"
        raise BadSnapshot(f"table {table_id}: the snapshot is not readable: {where}") from None
    except (ValueError, RecursionError):
        raise BadSnapshot(f"table {table_id}: the snapshot is not readable") from None
    if snapshot.next_event != seq or len(snapshot.seats) != seats:
        raise BadSnapshot(f"table {table_id}: the snapshot is not of this table at event {seq}")
    named = [snapshot.host, *snapshot.muted, *(line.seat for line in snapshot.chat)]
    named += [seat.holder for seat in snapshot.seats]
    named += [snapshot.last.seat if snapshot.last is not None else None]
    if any(seat is not None and seat >= seats for seat in named):
        raise BadSnapshot(f"table {table_id}: the snapshot names a seat the table does not have")
    if snapshot.status != "lobby" and snapshot.game_number < 1:
        raise BadSnapshot(f"table {table_id}: the snapshot's game has no number")
    return snapshot


def replay(snapshot: RoomSnapshot, game: Game, rules: Rules, table_id: str) -> Kept:
    """Take the snapshot's steps in ``game``, freshly dealt from its seed, and give back the
    bots' reasons its actions keep, filed as the room files them (`reasons.reason_key`); a
    `BadSnapshot` if one is not legal there or the game's end and the table's status disagree."""
    reasons: Kept = {}
    try:
        for step in snapshot.steps:
            if step.game != snapshot.game_number:
                raise Texas42Error(f"a step of game {step.game} in game {snapshot.game_number}")
            if step.seat != game.seat_to_act():
                raise Texas42Error(f"seat {step.seat} acted out of turn")
            if isinstance(step, ActionEvent):
                action = parse_action_words(step.action, rules)
                key = reason_key(game, action)
                game.apply(action)
                file_reason(reasons, key, step.seat, step.reason)
            else:
                why = game.why_claim_illegal(step.seat)
                if why is not None:
                    raise Texas42Error(why)
                game.claim(step.seat)
    except Texas42Error as exc:
        raise BadSnapshot(
            f"table {table_id}: the snapshot's game cannot be replayed: {exc}"
        ) from None
    if game.is_over() != (snapshot.status == "over"):
        raise BadSnapshot(f"table {table_id}: the snapshot's game and status disagree")
    return reasons


__all__ = ["VERSION", "BadSnapshot", "RoomSnapshot", "SeatSnapshot", "read", "replay"]
