"""Actions: calls in the auction, the declaration, and plays, each one interned value with one id.

The fixed integer action space (``NUM_ACTIONS`` ids) serves RL masks and compact logs:

======  ==========================================================
id      action
======  ==========================================================
0-27    ``Play(tile)``: the tile with that index
28      ``Pass()``
29-70   ``Bid(p)``: a point bid of ``p = id - 29`` (only 30..41 by default)
71-77   ``Bid("Nm")``: a mark bid of ``N = id - 70`` marks
78      ``Bid("plunge")``
79      ``Bid("splash")``
80-86   ``Declare(suit)``: blanks .. sixes are trump
87      ``Declare("doubles")``
88-91   ``Declare("follow-me")``, ``follow-me:high``, ``follow-me:low``, ``follow-me:own``
92-96   ``Declare("nello")``, ``nello:high``, ``nello:low``, ``nello:own``, ``nello:own-inverted``
97      ``Declare("sevens")``
98      ``Declare("by-lead")``: no trump named; the first tile led names it
99-100  ``Bid(42)``, ``Bid(43)``: point bids on a hand of more than 42 points (three-hand)
101     ``Bid("moon")``: shoot the moon, all the tricks for 21 (Moon)
102-129 ``Discard(tile)``: lay a tile face down after taking the widow (Moon)
======  ==========================================================

Ids 0..98 are the four-player game's (``FOUR_SEAT_ACTIONS``); the other table sizes only append.

``Play("6-4") is Play("4-6")``: constructing an action returns the one interned value, so
actions compare and hash by identity and cost nothing to create.

>>> from texas42 import Bid, Pass, Play, action_from_id
>>> Bid("31").id, Pass().id, Play("6-4").id
(60, 28, 25)
>>> action_from_id(60) is Bid("31") and Play("4-6") is Play("6-4")
True
>>> str(Bid("2m")), str(Play("4-6"))
('2m', '6-4')
"""

from __future__ import annotations

from typing import Any

from texas42.core.contracts import Contract
from texas42.core.errors import NotationError
from texas42.core.numerals import is_digits
from texas42.core.rules import MAX_MARKS, Rules
from texas42.core.tiles import TILE_COUNT, TILE_NAMES, parse_tile

PLAY_BASE = 0
PASS_ID = 28
POINT_BID_BASE = 29
MARK_BID_BASE = 70
PLUNGE_ID = 78
SPLASH_ID = 79
DECLARE_BASE = 80
FOUR_SEAT_ACTIONS = 99
HIGH_POINT_BIDS = {42: 99, 43: 100}
MOON_ID = 101
DISCARD_BASE = 102
NUM_ACTIONS = 130
MAX_POINT_BID = 43

_DECLARATIONS: tuple[str, ...] = (
    "blanks",
    "ones",
    "twos",
    "threes",
    "fours",
    "fives",
    "sixes",
    "doubles",
    "follow-me",
    "follow-me:high",
    "follow-me:low",
    "follow-me:own",
    "nello",
    "nello:high",
    "nello:low",
    "nello:own",
    "nello:own-inverted",
    "sevens",
    "by-lead",
)


class Action:
    """One action; subclasses say which kind. Compare by identity: every action is interned."""

    __slots__ = ("id", "notation")
    id: int
    notation: str

    def __str__(self) -> str:
        return self.notation

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.notation!r})"

    def __reduce__(self) -> tuple[Any, tuple[int]]:
        return (action_from_id, (self.id,))


class Play(Action):
    """Play a tile: ``Play("6-4")`` or ``Play(26)``."""

    __slots__ = ("tile",)
    tile: int

    def __new__(cls, tile: str | int) -> Play:
        if isinstance(tile, str):
            return _PLAYS[parse_tile(tile)]
        if isinstance(tile, int) and 0 <= tile < TILE_COUNT:
            return _PLAYS[tile]
        raise NotationError(f"not a tile: {tile!r}")

    def __repr__(self) -> str:
        return f"Play({self.notation!r})"


class Pass(Action):
    """Pass in the auction."""

    __slots__ = ()

    def __new__(cls) -> Pass:
        return _PASS


class Bid(Action):
    """A bid: points ``Bid("31")``/``Bid(31)``, marks ``Bid("2m")``, ``Bid("plunge")``/``"splash"``.

    ``"42"`` is read as ``"1m"`` and ``"84"`` as ``"2m"``; the canonical spelling is written.
    """

    __slots__ = ("marks", "points", "special")
    points: int
    marks: int
    special: str | None

    def __new__(cls, text: str | int) -> Bid:
        return _BIDS[_bid_id(text)]

    @property
    def is_mark_bid(self) -> bool:
        return self.marks > 0

    @property
    def is_point_bid(self) -> bool:
        """A bid of points (30, 31, ...): not marks, a plunge, a splash or the moon, whose
        ``points`` say what they are worth in points rather than what they bid."""
        return not self.marks and not self.special


class Discard(Action):
    """Lay a tile face down after taking the widow: ``Discard("6-4")``."""

    __slots__ = ("tile",)
    tile: int

    def __new__(cls, tile: str | int) -> Discard:
        if isinstance(tile, str):
            return _DISCARDS[parse_tile(tile)]
        if isinstance(tile, int) and not isinstance(tile, bool) and 0 <= tile < TILE_COUNT:
            return _DISCARDS[tile]
        raise NotationError(f"not a tile: {tile!r}")


class Declare(Action):
    """Name the contract: ``Declare("fives")``, ``Declare("follow-me:low")``,
    ``Declare("nello")``."""

    __slots__ = ("contract",)
    contract: Contract

    def __new__(cls, text: str | Contract) -> Declare:
        contract = text if isinstance(text, Contract) else Contract.parse(text)
        return _DECLARES[_DECLARATIONS.index(str(contract))]


def _bid_id(text: str | int) -> int:
    if isinstance(text, bool) or not isinstance(text, (str, int)):
        raise NotationError(f"not a bid: {text!r}")
    if isinstance(text, int):
        text = str(text)
    word = text.strip().lower().replace(" ", "")
    if word in ("plunge", "splash"):
        return PLUNGE_ID if word == "plunge" else SPLASH_ID
    if word in ("moon", "shoot", "shootthemoon"):
        return MOON_ID
    for suffix in ("marks", "mark", "m"):
        if word.endswith(suffix) and is_digits(word[: -len(suffix)]):
            marks = int(word[: -len(suffix)])
            if 1 <= marks <= MAX_MARKS:
                return MARK_BID_BASE + marks
            raise NotationError(f"not a bid: {text!r} (mark bids go from 1m to {MAX_MARKS}m)")
    if is_digits(word):
        points = int(word)
        if points % 42 == 0 and 1 <= points // 42 <= MAX_MARKS:
            return MARK_BID_BASE + points // 42
        if 0 <= points <= 41:
            return POINT_BID_BASE + points
        if points in HIGH_POINT_BIDS:
            return HIGH_POINT_BIDS[points]
    raise NotationError(f"not a bid: {text!r} (say 30..41, 1m, 2m, ..., plunge or splash)")


def _make(cls: type[Action], action_id: int, notation: str, **fields: Any) -> Any:
    action = object.__new__(cls)
    object.__setattr__(action, "id", action_id)
    object.__setattr__(action, "notation", notation)
    for name, value in fields.items():
        object.__setattr__(action, name, value)
    return action


_PLAYS: tuple[Play, ...] = tuple(
    _make(Play, PLAY_BASE + t, TILE_NAMES[t], tile=t) for t in range(TILE_COUNT)
)
_PASS: Pass = _make(Pass, PASS_ID, "pass")
_STANDARD = Rules()
_BIDS: dict[int, Bid] = {}
for _points in range(42):
    _BIDS[POINT_BID_BASE + _points] = _make(
        Bid, POINT_BID_BASE + _points, str(_points), points=_points, marks=0, special=None
    )
for _marks in range(1, MAX_MARKS + 1):
    _BIDS[MARK_BID_BASE + _marks] = _make(
        Bid, MARK_BID_BASE + _marks, f"{_marks}m", points=42 * _marks, marks=_marks, special=None
    )
for _special, _id in (("plunge", PLUNGE_ID), ("splash", SPLASH_ID)):
    _BIDS[_id] = _make(Bid, _id, _special, points=0, marks=0, special=_special)
for _points, _id in HIGH_POINT_BIDS.items():
    _BIDS[_id] = _make(Bid, _id, str(_points), points=_points, marks=0, special=None)
_BIDS[MOON_ID] = _make(Bid, MOON_ID, "moon", points=21, marks=0, special="moon")
_DECLARES: tuple[Declare, ...] = tuple(
    _make(Declare, DECLARE_BASE + i, name, contract=Contract.parse(name))
    for i, name in enumerate(_DECLARATIONS)
)
_DISCARDS: tuple[Discard, ...] = tuple(
    _make(Discard, DISCARD_BASE + t, TILE_NAMES[t], tile=t) for t in range(TILE_COUNT)
)

ACTIONS: tuple[Action, ...] = (
    *_PLAYS,
    _PASS,
    *(_BIDS[i] for i in range(POINT_BID_BASE, SPLASH_ID + 1)),
    *_DECLARES,
    *(_BIDS[i] for i in (*HIGH_POINT_BIDS.values(), MOON_ID)),
    *_DISCARDS,
)
assert len(ACTIONS) == NUM_ACTIONS and all(a.id == i for i, a in enumerate(ACTIONS))


def action_from_id(action_id: int) -> Action:
    """The action with this id in the fixed action space."""
    if not isinstance(action_id, int) or not 0 <= action_id < NUM_ACTIONS:
        raise NotationError(f"no action has id {action_id!r} (ids are 0..{NUM_ACTIONS - 1})")
    return ACTIONS[action_id]


def actions_in(mask: int) -> tuple[Action, ...]:
    """The actions whose ids are set in ``mask``, lowest id first: a legal-action mask read out.
    It visits only the set bits, not all 130 ids, since every seat view reads its mask."""
    out = []
    while mask:
        low = mask & -mask
        out.append(ACTIONS[low.bit_length() - 1])
        mask ^= low
    return tuple(out)


def parse_call(text: str, rules: Rules) -> Action:
    """A call in the auction under ``rules``: ``"pass"`` or a bid.

    The table is required because the same words mean different calls at different tables: on
    a hand of 44 points (three-hand) a bare ``42`` is a point bid, not one mark, and two marks
    are ``88``, not ``84``; in Moon, where bids count tricks, ``21`` shoots the moon.

    >>> from texas42 import Rules
    >>> str(parse_call("42", Rules())), str(parse_call("42", Rules.parse("three-hand")))
    ('1m', '42')
    >>> str(parse_call("21", Rules.parse("moon")))
    'moon'
    """
    total = rules.layout.total
    tricks = rules.bids == "tricks"
    word = text.strip().lower()
    if word in ("pass", "p", "-"):
        return _PASS
    if tricks and word == "21":
        return _BIDS[MOON_ID]
    if total == 42:
        return Bid(text)
    if not is_digits(word.replace(" ", "")):
        try:
            return Bid(text)
        except NotationError:
            choices = "4..7 or moon" if tricks else f"30..{total - 1}, 1m, 2m, ..."
            raise NotationError(f"not a bid: {text!r} (say {choices})") from None
    points = int(word.replace(" ", ""))
    top = total if tricks else total - 1
    if points <= min(top, MAX_POINT_BID):
        return _BIDS[POINT_BID_BASE + points if points <= 41 else HIGH_POINT_BIDS[points]]
    if not tricks and points % total == 0 and 1 <= points // total <= MAX_MARKS:
        return _BIDS[MARK_BID_BASE + points // total]
    marks = "" if tricks else ", 1m, 2m, ..."
    raise NotationError(f"not a bid: {text!r} (a hand holds {total}: say 0..{top}{marks})")


def parse_action(text: str) -> Action:
    """Read any action where its spelling is unambiguous.

    ``"30"`` could be a bid or the tile 3-0, so this reads a bare number as a bid and a tile only
    when written with a dash; a state's own ``parse_action`` reads by phase instead. Bids are
    read as the standard table means them (four seats, 42 points: ``42`` is one mark); where
    the table matters, `parse_call` and `parse_action_words` take it.
    """
    word = text.strip()
    if "-" in word and len(word) == 3 and word[0].isdigit():
        return Play(word)
    if word.lower().startswith("discard "):
        return Discard(word[8:])
    try:
        return parse_call(word, _STANDARD)
    except NotationError:
        pass
    try:
        return Declare(word)
    except NotationError:
        raise NotationError(f"not an action: {text!r}") from None


_VERBS = {Play: "play", Bid: "bid", Declare: "declare", Discard: "discard"}


def action_words(action: Action) -> str:
    """An action with its verb, as a table or an engine says it: ``"play 6-4"``, ``"bid 31"``,
    ``"declare fives"``, ``"pass"``."""
    verb = _VERBS.get(type(action))
    return f"{verb} {action.notation}" if verb else action.notation


def parse_action_words(text: str, rules: Rules) -> Action:
    """Read ``"play 6-4"``, ``"bid 31"``, ``"bid 2m"``, ``"declare fives"``, ``"discard 5-0"`` or
    ``"pass"``; bids are read under ``rules`` as `parse_call` reads them (three-hand, Moon)."""
    if not isinstance(text, str):
        raise NotationError(f"an action is text such as 'play 6-4', not {text!r}")
    verb, _, rest = text.strip().lower().partition(" ")
    rest = rest.strip()
    if verb == "pass" and not rest:
        return _PASS
    if verb == "play" and rest:
        return ACTIONS[PLAY_BASE + parse_tile(rest)]
    if verb == "bid" and rest:
        bid = parse_call(rest, rules)
        if isinstance(bid, Bid):
            return bid
    if verb == "declare" and rest:
        return Declare(rest)
    if verb == "discard" and rest:
        return Discard(rest)
    raise NotationError(
        f"not an action: {text!r} (say 'play 6-4', 'bid 31', 'bid 2m', 'declare fives' or 'pass')"
    )
