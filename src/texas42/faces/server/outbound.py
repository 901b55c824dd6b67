"""What the server sends: one frozen class for every message and HTTP body, and `encode`.

Browsers read these shapes, ``docs/web.md`` describes them, and a test holds the doc to their
schema (`texas42.faces.server.schema`). Messages over the WebSocket carry a ``type`` and are
joined in `ServerMessage`; the classes without one are their parts, or HTTP bodies. Fields that
name a seat are None where no seat is meant (no bidder yet, no partner). Fields of words (a
hand's ``contract_line``, ``roles``, ``headline``...) are sentences `texas42.core.words` made from
the recipient's own view; the browser shows them as they come. The payload functions
(`texas42.faces.server.payload`, `Room`) build them; `encode` is the one place they become JSON.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields
from dataclasses import field as dataclass_field
from typing import (
    TYPE_CHECKING,
    Annotated,
    Any,
    Literal,
    TypeVar,
    dataclass_transform,
    get_args,
)

from pydantic import ConfigDict, Field, TypeAdapter, with_config

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

B = TypeVar("B")
_FORBID = ConfigDict(
    extra="forbid", json_schema_serialization_defaults_required=True, use_attribute_docstrings=True
)


@dataclass_transform(frozen_default=True, kw_only_default=True)
def sent(cls: type[B]) -> type[B]:
    """A class of what the server sends: a frozen dataclass, so building one costs no more
    than a dict (mypy checks the types), whose reader refuses fields it does not have."""
    return dataclass(frozen=True, slots=True, kw_only=True)(with_config(_FORBID)(cls))


SeatNumber = Annotated[int, Field(ge=0, le=6)]
Tile = Annotated[str, Field(pattern=r"^[0-6]-[0-6]$")]
"""A tile as records write it, higher end first: ``6-4``."""
PhaseWord = Literal["auction", "declare", "play", "done", "discard"]
SeatKind = Literal["empty", "human", "bot"]
TableStatus = Literal["lobby", "playing", "over"]
ErrorCode = Literal["bad-message", "not-allowed", "illegal", "stale", "rate", "busy", "not-found"]


# -- the table ------------------------------------------------------------------------------


@sent
class Layout:
    """The table's shape, for drawing it: seats round the oval, sides for the score."""

    seats: int
    seat_names: list[str]
    sides: int
    side_names: list[str]
    side_of: list[int]
    partner: list[SeatNumber | None]
    teams: str
    hand_size: int
    widow: int
    total: int
    see_partner: bool


@sent
class Seat:
    seat: SeatNumber
    name: str
    kind: SeatKind
    level: str | None
    connected: bool
    compass: str
    side: int
    holder: SeatNumber | None
    """In two-hand, the seat of the person who plays this one too."""
    player: str | None = None
    """The public id of the player who sits here (their page is ``/p/{player}``), or None."""
    label: str = ""
    """The seat as the table shows it: a person's name, a bot's name and level."""
    away: bool = False
    """Its person is away and the seat's bot plays for them until they come back."""
    open: bool = False
    """The host opened this bot's seat for a person; the bot plays until one sits."""


@sent
class Table:
    id: str
    name: str
    rules: str
    rules_text: list[str]
    status: TableStatus
    game_number: int
    layout: Layout
    seats: list[Seat]
    host: int | None
    public: bool
    """Listed in the lobby; otherwise only its link finds it."""
    spectators_chat: bool
    """Whether spectators may write in the chat."""
    muted: list[SeatNumber]
    """The seats the host has muted."""
    spectators: int
    bot_level: str = "medium"
    away_seconds: float = 60.0
    turn_seconds: float = 0.0


# -- a hand ---------------------------------------------------------------------------------


@sent
class TilePlay:
    """A seat's tile in a trick; None where it lies face down and is not the recipient's."""

    seat: SeatNumber
    tile: Tile | None


@sent
class Trick:
    leader: SeatNumber
    winner: SeatNumber
    points: int | None
    plays: list[TilePlay]
    taken: str
    """Who took it and what it was worth, in words (`texas42.core.words.trick_taken`)."""


@sent
class Call:
    seat: SeatNumber
    call: str


@sent
class Why:
    """Why a bot took an action of the hand, in the words the recipient may read
    (`texas42.core.reasons.reason_words`)."""

    kind: Literal["call", "contract", "play"]
    index: int
    """The call's place in ``calls``, or the tile's among the hand's plays (0: the first lead);
    0 for the contract."""
    seat: SeatNumber
    text: str


@sent
class Legal:
    """A legal action: ``action`` as the ``act`` message spells it, ``label`` for its button."""

    action: str
    label: str
    group: str = ""
    """The heading the box offers it under (``Suits``, ``Specials``...), "" for a pass or a tile."""
    meaning: str = ""
    """What the choice means, in one line (`texas42.core.words.choice_words`), or ""."""


@sent
class Result:
    bidder: SeatNumber | None
    bid: str | None
    contract: str | None
    declarer: SeatNumber | None
    made: bool | None
    points: list[int] | None
    score: list[int]
    tricks: int
    reshaken: bool


@sent
class Hand:
    """A hand as one seat sees it (``seat``), or as a spectator does (``seat`` None)."""

    seat: SeatNumber | None
    shaker: SeatNumber
    first_bidder: SeatNumber
    phase: PhaseWord
    turn: SeatNumber | None
    tiles: list[Tile]
    widow: list[Tile]
    discards: list[Tile | None]
    calls: list[Call]
    bidder: SeatNumber | None
    bid: str | None
    bid_marks: int
    declarer: SeatNumber | None
    out_seat: SeatNumber | None
    contract: str | None
    trump: str | None
    trick: list[TilePlay]
    tricks: list[Trick]
    points: list[int] | None
    tricks_won: list[int]
    tiles_left: list[int]
    piles_face_down: bool
    legal: list[Legal]
    illegal: dict[Tile, str]
    result: Result | None
    shaker_line: str
    contract_line: str
    roles: list[list[str]]
    piles: list[str]
    headline: str | None
    result_lines: list[str]
    face_up: list[FaceUp]
    can_claim: bool
    reasons: list[Why] = dataclass_field(default_factory=list)
    """Why the bots took the hand's calls, contract and plays, for a "why?" beside each."""


@sent
class FaceUp:
    """A hand laid down (a claim): it lies face up for everyone for the rest of the hand."""

    seat: SeatNumber
    tiles: list[Tile]


@sent
class LastHand(Hand):
    """The hand before the one in play, as it ended."""

    number: int
    next_line: str = ""
    """What became of the hand after it, which goes on beneath this one's summary, in words."""


# -- a game ---------------------------------------------------------------------------------


@sent
class Held:
    seat: SeatNumber
    tiles: list[Tile]


@sent
class Outcome:
    winner: int
    score: list[int]
    hands: int


@sent
class Game:
    hand_number: int
    score: list[int]
    target: int
    unit: Literal["marks", "points"]
    history: list[list[int]]
    draw: list[list[tuple[SeatNumber, Tile]]]
    hand: Hand
    held: list[Held]
    last_hand: LastHand | None
    outcome: Outcome | None
    over_line: str | None


@sent
class You:
    seat: SeatNumber | None
    seats: list[SeatNumber]


@sent
class Last:
    """The action that made a state; a discard is ``discard``, without its tile."""

    seat: SeatNumber
    action: str
    text: str


# -- answers to requests --------------------------------------------------------------------


@sent
class Hint:
    action: str
    chance: float | None
    points: float | None
    marks: float | None
    if_stands: float | None
    """A point bid's chance of being made should nobody outbid it; ``chance`` is the one the
    call is chosen on."""
    text: str


@sent
class PlayReview:
    index: int
    seat: SeatNumber
    tile: Tile
    value_before: int
    value_after: int
    best: list[Tile]
    cost: int
    text: str


@sent
class BidReview:
    index: int
    seat: SeatNumber
    bid: str
    contract: str
    make_share: float
    samples: int
    shares: dict[str, float]
    text: str


# -- messages over the WebSocket ------------------------------------------------------------


@sent
class Welcome:
    type: Literal["welcome"] = "welcome"
    seat: SeatNumber | None


@sent
class Seated:
    type: Literal["seated"] = "seated"
    seat: SeatNumber
    token: str
    link: str


@sent
class State:
    type: Literal["state"] = "state"
    seq: int
    table: Table
    you: You
    last: Last | None
    game: Game | None
    turn_left: float | None = None
    """Seconds left on the turn clock when this was sent; None with no clock running."""


@sent
class Hints:
    type: Literal["hints"] = "hints"
    seq: int
    hints: list[Hint]
    game: int
    """The game (`Table.game_number`) the hints are for: ``seq`` starts again with each game."""
    choice: str
    """What the expert would do here, in the words of `Hint.action`."""
    reason: str
    """Why, in words, told from the numbers the hints show."""


@sent
class Review:
    type: Literal["review"] = "review"
    hand: int
    bidder: SeatNumber | None
    bid: str | None
    contract: str | None
    unit: str
    plays: list[PlayReview]
    mistakes: list[int]
    no_costly_line: str | None
    bids: list[BidReview]


@sent
class Error:
    type: Literal["error"] = "error"
    message: str
    code: ErrorCode


@sent
class Notice:
    type: Literal["notice"] = "notice"
    message: str


@sent
class Pong:
    type: Literal["pong"] = "pong"


@sent
class Presence:
    """Who is at the table now, for the connections already there: what of a `State` changes
    when someone comes or goes, so a newcomer is not a whole new state for everyone."""

    type: Literal["presence"] = "presence"
    spectators: int
    connected: list[bool]
    """Each seat's `Seat.connected`, by seat."""


@sent
class ChatLine:
    """A line of a table's chat; ``name`` and ``text`` are what a person typed."""

    seat: SeatNumber | None
    name: str
    text: str
    reaction: bool
    at: float


@sent
class Chat:
    type: Literal["chat"] = "chat"
    lines: list[ChatLine]
    history: bool
    """True when ``lines`` are the recent chat sent on joining: they replace what is shown."""


@sent
class LobbyTable:
    """A public table in the lobby's list: nothing in it comes from a hand."""

    id: str
    name: str
    url: str
    status: TableStatus
    rules: str
    rules_text: list[str]
    seats: int
    seats_free: list[SeatNumber]
    players: list[str]
    bots: list[str]
    spectators: int


@sent
class Lobby:
    type: Literal["lobby"] = "lobby"
    tables: list[LobbyTable]


ServerMessage = Annotated[
    Welcome | Seated | State | Hints | Review | Error | Notice | Pong | Chat | Lobby | Presence,
    Field(discriminator="type"),
]


# -- HTTP bodies ----------------------------------------------------------------------------


@sent
class TableChoice:
    players: int
    rules: str
    label: str
    default: bool


@sent
class Option:
    name: str
    label: str
    kind: Literal["choice", "bool", "int"]
    choices: list[str]
    default: bool | int | str | None
    common: bool
    help: str = ""
    """What the option does, in one line (`texas42.core.words.OPTION_WORDS`)."""
    choice_labels: list[str] = dataclass_field(default_factory=list)
    """What each of ``choices`` means, in the same order."""


@sent
class Options:
    """``GET /api/options``: what the lobby offers."""

    tables: list[TableChoice]
    presets: dict[str, dict[str, bool | int | str | None]]
    options: list[Option]
    levels: list[str]
    bots: list[str]


@sent
class Created:
    """``POST /api/tables``: the new table."""

    id: str
    url: str


@sent
class TableSummary(Table):
    """``GET /api/tables/{table}``: the table and, once a game is on, its score."""

    score: list[int] | None
    hand_number: int | None


@sent
class GameSummary:
    """An entry of ``GET /api/history``."""

    table: str
    game: int
    rules: str
    players: list[str]
    score: list[int]
    winner: int
    finished: float
    name: str


@sent
class Frame:
    """A position of a replay, every tile shown."""

    caption: str
    hand_number: int
    score: list[int]
    hands: list[list[Tile]]
    hand: Hand


@sent
class Replay:
    """A finished game's replay: its record (``record-format.md``), table and positions."""

    record: dict[str, Any]
    layout: Layout
    unit: Literal["marks", "points"]
    frames: list[Frame]


@sent
class Failure:
    """Why an HTTP request was refused (``POST /api/replay``)."""

    error: str


@sent
class Invite:
    """``GET /api/tables/{table}/invite``: the link that brings a friend to the table."""

    url: str


@sent
class PlayerGame:
    """One finished game of a player's page."""

    table: str
    game: int
    name: str
    rules: str
    finished: float
    seats: list[SeatNumber]
    side: int
    won: bool
    partners: list[str]
    opponents: list[str]
    score: list[int]
    bids: int
    made: int
    replay: str
    record: str
    coaching: CoachFigures | None = None


@sent
class PlayerPage:
    """``GET /api/players/{player}``: a player's finished games and their figures."""

    id: str
    names: list[str]
    played: int
    won: int
    bids: int
    made: int
    games: list[PlayerGame]
    trend_lines: list[str] = dataclass_field(default_factory=list)
    coaching_pending: int = 0


@sent
class CoachFigures:
    """A game's coaching figures for a player's seats, and the rates drawn from them."""

    plays: int
    mistakes: int
    given_up: int
    hands: int
    bids: int
    made: int
    mistake_rate: float
    given_up_per_hand: float
    make_rate: float | None


@sent
class CoachMistake:
    """One of the three costliest mistakes of a coaching: a play, or a bid never makeable."""

    kind: Literal["play", "bid"]
    hand: int
    index: int
    trick: int
    seat: SeatNumber
    tile: Tile | None
    best: list[Tile]
    bid: str
    contract: str
    bidder: SeatNumber
    cost: int
    unit: str
    value_best: int
    value_played: int
    made_best: bool
    made_played: bool
    make_share: float | None
    samples: int | None
    hands: list[list[Tile]]
    trick_so_far: list[tuple[SeatNumber, Tile]]
    position: str
    advice: str


@sent
class Coaching:
    """``GET /api/learn/coach/{table}/{game}/{seat}``: a finished game coached for a seat."""

    table: str
    game: int
    seat: SeatNumber
    seats: list[SeatNumber]
    name: str
    seat_names: list[str]
    summary: CoachFigures
    summary_line: str
    mistakes: list[CoachMistake]
    no_mistakes_line: str | None
    version: int
    samples: int
    replay: str


@sent
class HouseRules:
    """House rules saved under a name (``POST /api/house-rules``)."""

    name: str
    rules: str
    rules_text: list[str]
    saved: float


@sent
class HouseRulesList:
    """``GET /api/house-rules``: the saved house rules, latest first."""

    house_rules: list[HouseRules]


# -- lessons (issue 17) ----------------------------------------------------------------------


@sent
class LessonSummary:
    """A lesson of the course, as the ``/learn`` hub lists it."""

    id: str
    title: str
    summary: str
    moves: int
    """How many moves the learner makes in it."""


@sent
class LessonList:
    """``GET /api/learn/lessons``: the course, in order."""

    lessons: list[LessonSummary]


@sent
class LessonTurn:
    """Where a lesson stands after the lesson's own moves: their positions, and the learner's
    next move (none when the lesson is over)."""

    frames: list[Frame]
    step: int | None
    situation: str | None
    teach: str | None
    choices: list[str]
    done: bool


@sent
class LessonPage:
    """``GET /api/learn/lessons/{lesson}``: a lesson from its start."""

    id: str
    title: str
    summary: str
    seat: SeatNumber
    intro: list[str]
    layout: Layout
    steps: list[int]
    turn: LessonTurn


@sent
class LessonVerdict:
    """``POST /api/learn/check``: the learner's move judged, and, if it was the lesson's, where
    the lesson goes on."""

    step: int
    move: str
    right: bool
    legal: bool
    text: str
    better: str | None
    turn: LessonTurn | None


# -- the hand laboratory (``/learn/lab``) ---------------------------------------------------------


@sent
class LabBoard:
    """``GET /api/learn/lab/random``, ``POST /api/learn/lab/edit``: a lab position (every tile
    shown: the learner set it up) and what the page draws of it."""

    position: str
    layout: Layout
    rules: str
    shaker: SeatNumber
    first_bidder: SeatNumber
    hands: list[list[Tile]]
    held: list[list[Tile]]
    calls: list[str]
    bidder: SeatNumber | None
    bid: str | None
    contract: str | None
    contract_name: str | None
    phase: PhaseWord
    turn: SeatNumber | None
    plays: list[Tile]
    trick: list[Tile]
    legal: list[Tile]
    contracts: list[str]
    back: str | None
    start: str | None


@sent
class LabContract:
    """One contract for the lab's chosen seat: the expert's chance and expected total, and the
    double-dummy total and result on this deal."""

    contract: str
    chance: float | None
    expected: float | None
    total: int | None
    makes: bool | None
    line: str


@sent
class LabMove:
    """A legal tile at the lab's position and its double-dummy value."""

    tile: Tile
    value: int
    best: bool


@sent
class LabFigures:
    """``POST /api/learn/lab``: the figures of a lab position."""

    position: str
    seat: SeatNumber
    bid: str
    need: int
    samples: int
    chance: float
    bid_line: str
    contracts: list[LabContract]
    unit: Literal["points", "tricks"] | None
    value: int | None
    best_line: str | None
    moves: list[LabMove]


@sent
class LabHands:
    """``POST /api/learn/lab/record``: each hand of a record as the lab position it ended at."""

    positions: list[str]


HttpBody = (
    Options
    | Created
    | TableSummary
    | GameSummary
    | Replay
    | Failure
    | PlayerPage
    | HouseRules
    | HouseRulesList
    | Invite
    | Coaching
    | LessonList
    | LessonPage
    | LessonVerdict
    | LabBoard
    | LabFigures
    | LabHands
)
HTTP_BODIES: tuple[type, ...] = get_args(HttpBody)

SERVER_MESSAGES: TypeAdapter[ServerMessage] = TypeAdapter(ServerMessage)
"""Reads a message as a browser gets it, refusing any field its class does not have."""

_ADAPTERS: dict[type, TypeAdapter[Any]] = {}


def _adapter(cls: type[B]) -> TypeAdapter[B]:
    """The serialiser (and reader) of a class, built when first asked for: building one for
    every class at import would cost each process a third of a second."""
    adapter = _ADAPTERS.get(cls)
    if adapter is None:
        adapter = _ADAPTERS[cls] = TypeAdapter(cls)
    return adapter


def encode(body: ServerMessage | HttpBody | Sequence[GameSummary]) -> str:
    """The JSON text of a message or body (or a list of bodies), as it goes out."""
    if isinstance(body, Sequence):
        return "[" + ",".join(encode(item) for item in body) + "]"
    return _adapter(type(body)).dump_json(body).decode()


def read(cls: type[B], data: object) -> B:
    """A body of ``cls`` from plain data (another layer's ``to_dict``), checked field by field."""
    return _adapter(cls).validate_python(data)


def fields_of(body: DataclassInstance) -> dict[str, Any]:
    """A body's fields by name, not copied: to build a body that extends another's class."""
    return {field.name: getattr(body, field.name) for field in fields(body)}
