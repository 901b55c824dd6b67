"""Messages from browsers: size limit, schema and rate limit, checked before anything acts.

Each message is one JSON object of a known ``type`` with exactly its fields (pydantic models
that forbid extras); anything else is a `BadMessage` whose text tells the sender what was wrong.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Annotated, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from texas42.faces.server.outbound import ErrorCode

MAX_MESSAGE_BYTES = 4096
RATE_PER_SECOND = 10.0
RATE_BURST = 20.0

Seat = Annotated[int, Field(ge=0, le=6, strict=True)]
"""A seat number; a table of fewer seats refuses the ones it does not have."""
Level = Annotated[str, Field(min_length=1, max_length=40)]
"""A bot level (easy, medium, hard, expert) or the name of an engine the server offers."""


PlayerSecret = Annotated[str, Field(pattern=r"^[A-Za-z0-9_-]{16,128}$")]
"""The secret a device keeps for its player (16 to 128 letters, digits, ``-`` or ``_``)."""
SeatToken = Annotated[str, Field(pattern=r"^[A-Za-z0-9_-]{32,128}$")]
"""A seat token a client makes itself before it sits (32 to 128 letters, digits, ``-`` or
``_``: 128 bits at least), so it holds the token before the seat is stored."""


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class Hello(_Message):
    type: Literal["hello"]
    token: Annotated[str, Field(max_length=128)] | None = None


class Sit(_Message):
    type: Literal["sit"]
    seat: Seat
    name: Annotated[str, Field(min_length=1, max_length=24)]
    player: PlayerSecret | None = None
    token: SeatToken | None = None


class AddBot(_Message):
    type: Literal["bot"]
    seat: Seat
    level: Level


class Leave(_Message):
    type: Literal["leave"]
    seat: Seat


class Start(_Message):
    type: Literal["start"]


class Act(_Message):
    type: Literal["act"]
    action: Annotated[str, Field(min_length=1, max_length=40)]
    seq: Annotated[int, Field(ge=0)]


class AskHint(_Message):
    type: Literal["hint"]


class AskReview(_Message):
    type: Literal["review"]
    hand: Annotated[int, Field(ge=1, le=1000)]


class Rematch(_Message):
    type: Literal["rematch"]


class Ping(_Message):
    type: Literal["ping"]


class LayDown(_Message):
    """The seat to lead lays its hand down and claims the rest (`texas42.core.hand.Hand.claim`)."""

    type: Literal["claim"]
    seq: Annotated[int, Field(ge=0)]


CHAT_LIMIT = 200
"""The most characters a chat line may have, once trimmed."""
CHAT_RATE = 0.5
CHAT_BURST = 5.0
"""Chat lines a connection may send: five at once, then one every two seconds (5 in 10 s)."""
Reaction = Literal["good one", "sorry partner", "well played", "nice bid", "oops", "thanks"]
REACTIONS: tuple[str, ...] = get_args(Reaction)
"""The quick reactions, as the chat shows them."""


class Chat(_Message):
    type: Literal["chat"]
    text: Annotated[str, Field(max_length=4 * CHAT_LIMIT)]
    name: Annotated[str, Field(max_length=24)] | None = None


class React(_Message):
    type: Literal["react"]
    reaction: Reaction
    name: Annotated[str, Field(max_length=24)] | None = None


class Mute(_Message):
    type: Literal["mute"]
    seat: Seat
    muted: bool


class ChatRules(_Message):
    type: Literal["chat_rules"]
    spectators: bool


class Listing(_Message):
    type: Literal["listing"]
    public: bool


class Replace(_Message):
    """The host gives a person's seat to a bot of the table's bot level."""

    type: Literal["replace"]
    seat: Seat


class OpenSeat(_Message):
    """The host opens a bot's seat for a person."""

    type: Literal["open"]
    seat: Seat


class MakeHost(_Message):
    """The host passes the role to the person at ``seat``."""

    type: Literal["host"]
    seat: Seat


AwaySeconds = Annotated[float, Field(gt=0, le=3600)]
"""The grace a disconnected person gets before the seat's bot plays for them."""
TurnSeconds = Annotated[float, Field(ge=0, le=3600)]
"""A turn's time on the clock; 0 is no clock."""


class ChangeSettings(_Message):
    """The host changes the table's settings; a field left out keeps its value."""

    type: Literal["settings"]
    bot_level: Level | None = None
    away_seconds: AwaySeconds | None = None
    turn_seconds: TurnSeconds | None = None


Message = Annotated[
    Hello
    | Sit
    | AddBot
    | Leave
    | Start
    | Act
    | AskHint
    | AskReview
    | Rematch
    | Ping
    | Chat
    | React
    | Mute
    | ChatRules
    | Listing
    | LayDown
    | Replace
    | OpenSeat
    | MakeHost
    | ChangeSettings,
    Field(discriminator="type"),
]
BROWSER_MESSAGES: TypeAdapter[Message] = TypeAdapter(Message)


class BadMessage(ValueError):
    """A message refused before it reached a table; the text is for the sender."""

    def __init__(self, message: str, code: ErrorCode = "bad-message") -> None:
        super().__init__(message)
        self.code = code


def parse_message(raw: str | bytes) -> Message:
    """A message checked against its size limit and schema."""
    size = len(raw.encode("utf-8", "replace")) if isinstance(raw, str) else len(raw)
    if size > MAX_MESSAGE_BYTES:
        raise BadMessage(f"message too long: {size} bytes, the limit is {MAX_MESSAGE_BYTES}")
    try:
        obj = json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise BadMessage(f"not JSON: {exc}") from None
    except RecursionError:
        raise BadMessage("not JSON: nested too deeply") from None
    if not isinstance(obj, dict):
        raise BadMessage("a message is a JSON object with a type")
    try:  # JSON's \ud800 escapes can spell a lone surrogate, which no reply or database holds
        json.dumps(obj, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        raise BadMessage("not text: a string holds a lone surrogate") from None
    try:
        return BROWSER_MESSAGES.validate_python(obj)
    except ValidationError as exc:
        raise BadMessage(_explain(exc)) from None


def _explain(exc: ValidationError) -> str:
    error = exc.errors()[0]
    where = ".".join(str(part) for part in error["loc"])
    text = str(error["msg"])
    if error["type"] == "union_tag_invalid":
        return "unknown message type: " + str(error.get("input", {}).get("type", "?"))[:32]
    if error["type"] == "union_tag_not_found":
        return "a message needs a type"
    return f"{where}: {text}" if where else text


class RateLimit:
    """A token bucket: ``rate`` messages a second on average, ``burst`` at once."""

    def __init__(self, rate: float = RATE_PER_SECOND, burst: float = RATE_BURST) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.clock: Callable[[], float] = time.monotonic
        self.stamp = self.clock()

    def allow(self) -> bool:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False
