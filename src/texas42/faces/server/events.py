"""The events of a table's log: one frozen class per kind, and the one way to read a stored one.

A table is the sequence of its events (`texas42.faces.server.room`): the server commits an event
before it applies it, and a restart applies the stored ones again. A stored event is a row of
its ``kind`` and its ``data`` (JSON of every field but the kind), the shape logs have always
had, so an old database restores unchanged. `read_event` refuses a row that is not an event it
knows with a `BadEvent` that names the table and the event's number.
"""

from __future__ import annotations

import json
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from texas42.core.errors import Texas42Error

EventSeat = Annotated[int, Field(ge=0, le=6)]
"""A seat number; `Room` refuses one its table does not have."""


class _Event(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class SitEvent(_Event):
    """A person took a seat (in two-hand, its partner's too); only the token's digest is kept,
    and of the player's secret only their public id (None: no player secret was sent, as in
    every log written before players)."""

    kind: Literal["sit"] = "sit"
    seat: EventSeat
    name: str
    digest: str
    player: str | None = None


class BotEvent(_Event):
    """A bot of ``level`` took an empty seat."""

    kind: Literal["bot"] = "bot"
    seat: EventSeat
    level: str
    name: str


class LeaveEvent(_Event):
    """A seat (with the seats its person also plays) was emptied before the start."""

    kind: Literal["leave"] = "leave"
    seat: EventSeat


class StartEvent(_Event):
    """The first game began; ``seed`` deals it and is never sent to anyone."""

    kind: Literal["start"] = "start"
    game: Annotated[int, Field(ge=1)]
    seed: int


class RematchEvent(_Event):
    """Another game began with the same seats."""

    kind: Literal["rematch"] = "rematch"
    game: Annotated[int, Field(ge=1)]
    seed: int


class StoredReason(_Event):
    """A bot's reason for an action (`texas42.core.reasons.Reason`), both its forms: ``text``,
    what the deciding seat knew, and ``public``, what every seat saw."""

    text: str
    public: str


class ActionEvent(_Event):
    """The seat to act in game ``game`` took ``action``, spelled as in the ``act`` message;
    ``reason`` is why, when a bot took it (None: a person's action, and every action of a log
    written before bots gave reasons), kept so a restart shows the same "why?"."""

    kind: Literal["action"] = "action"
    game: Annotated[int, Field(ge=1)]
    seat: EventSeat
    action: str
    reason: StoredReason | None = None


class ClaimEvent(_Event):
    """The seat to lead in game ``game`` laid its hand down and claimed the rest; whether the
    claim held follows from the game, so a restart judges it again the same way."""

    kind: Literal["claim"] = "claim"
    game: Annotated[int, Field(ge=1)]
    seat: EventSeat


class ListingEvent(_Event):
    """The table was listed in the lobby (``public``) or made private (its link only)."""

    kind: Literal["listing"] = "listing"
    public: bool


class ChatEvent(_Event):
    """A line of the table's chat: the seat that wrote it (None: a spectator), the name it was
    written under, its text as typed (trimmed) or a quick reaction's words, and when."""

    kind: Literal["chat"] = "chat"
    seat: EventSeat | None
    name: str
    text: str
    reaction: bool = False
    at: float


class MuteEvent(_Event):
    """The host muted a seat's chat (``muted``) or let it speak again."""

    kind: Literal["mute"] = "mute"
    seat: EventSeat
    muted: bool


class ChatRulesEvent(_Event):
    """The host let spectators write in the chat (``spectators``) or made it the players' only."""

    kind: Literal["chat_rules"] = "chat_rules"
    spectators: bool


class TakeoverEvent(_Event):
    """A person's seat went to a bot of ``level`` (``names``: one per seat the person played,
    two in two-hand), because the person left a game (``why`` ``leave``) or the host replaced
    them (``replace``); their token no longer gives the seat."""

    kind: Literal["takeover"] = "takeover"
    seat: EventSeat
    level: str
    names: list[str]
    why: Literal["leave", "replace"] = "leave"


class OpenEvent(_Event):
    """The host opened a bot's seat for a person: emptied at once outside a game; during a
    game the bot plays on until a person sits, who takes the seat as a new hand begins."""

    kind: Literal["open"] = "open"
    seat: EventSeat


class AwayEvent(_Event):
    """A person the table waited on stayed away past the grace; the seat's bot plays for them."""

    kind: Literal["away"] = "away"
    seat: EventSeat


class BackEvent(_Event):
    """An away person came back with their token and plays their seat again."""

    kind: Literal["back"] = "back"
    seat: EventSeat


class HostEvent(_Event):
    """The host passed the host role to the person at ``seat``."""

    kind: Literal["host"] = "host"
    seat: EventSeat


class SettingsEvent(_Event):
    """The table's settings, as set at creation or by the host; a field left None keeps its
    value (the server's default until one is set)."""

    kind: Literal["settings"] = "settings"
    bot_level: str | None = None
    away_seconds: float | None = None
    turn_seconds: float | None = None
    """0 turns the turn timer off."""


Event = Annotated[
    SitEvent
    | BotEvent
    | LeaveEvent
    | StartEvent
    | RematchEvent
    | ActionEvent
    | ListingEvent
    | ChatEvent
    | MuteEvent
    | ChatRulesEvent
    | ClaimEvent
    | TakeoverEvent
    | OpenEvent
    | AwayEvent
    | BackEvent
    | HostEvent
    | SettingsEvent,
    Field(discriminator="kind"),
]
_EVENT: TypeAdapter[Event] = TypeAdapter(Event)


class BadEvent(Texas42Error):
    """A stored event the server cannot take: the table is not restored, nothing is applied."""


def event_row(event: Event) -> tuple[str, str]:
    """The ``kind`` and ``data`` columns an event is stored as; a person's action is stored
    without a ``reason``, as every action was before bots gave reasons."""
    left_out = {"kind"}
    if isinstance(event, ActionEvent) and event.reason is None:
        left_out.add("reason")
    return event.kind, json.dumps(event.model_dump(exclude=left_out))


def read_event(table_id: str, seq: int, kind: str, data: str) -> Event:
    """The event a stored row holds; a `BadEvent` naming the table and event if it holds none."""
    where = f"table {table_id}, event {seq}"
    try:
        fields = json.loads(data)
    except (json.JSONDecodeError, RecursionError):
        raise BadEvent(f"{where} ({kind}): its data is not JSON") from None
    if not isinstance(fields, dict) or "kind" in fields:
        raise BadEvent(f"{where} ({kind}): its data is not an object of fields")
    try:
        return _EVENT.validate_python({"kind": kind, **fields})
    except ValidationError as exc:
        error = exc.errors()[0]
        if error["type"] == "union_tag_invalid":
            raise BadEvent(f"{where}: unknown kind {kind[:32]!r}") from None
        field = ".".join(str(part) for part in error["loc"][1:])
        raise BadEvent(f"{where} ({kind}): {field or 'data'}: {error['msg']}") from None
