"""Contracts (what the declarer names) and the lookup tables that decide following and tricks.

Every rule question during play is a table lookup, exactly per ``rules.md`` section 16:

- ``led[t]``: the suit a tile calls when led: a pip 0..6, ``TRUMP`` or ``DOUBLES_SUIT``;
- ``follow[s]``: the mask of tiles that follow suit ``s``;
- ``power[s][t]``: how strongly tile ``t`` plays to a trick led in suit ``s``: 0 for a tile that
  neither follows nor trumps, 1..9 for a follower, 20 and up for a trump. The trick goes to the
  first tile of the highest power, which also gives Sevens its earliest-wins tie rule.

>>> from texas42 import Contract, Rules
>>> from texas42.core.contracts import legal_plays, tables_for
>>> from texas42.core.tiles import hand_name, parse_hand, parse_tile
>>> sixes = Contract.parse("6")
>>> str(sixes), str(Contract.parse("no-trump:low"))
('sixes', 'follow-me:low')
>>> tables = tables_for(sixes, Rules())
>>> tables.description, tables.follows(parse_tile("6-1"), 1)  # the 6-1 is a trump, not a one
('sixes are trump', False)
>>> held = parse_hand("5-4 4-4 3-1 6-3")
>>> hand_name(legal_plays(Rules(), tables, held, [parse_tile("5-5")], first_trick=True))
'5-4'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Literal

from texas42.core.errors import NotationError
from texas42.core.rules import Rules
from texas42.core.tiles import HI, LO, PIPS, TILE_COUNT

TRUMP = 7
DOUBLES_SUIT = 8
SUIT_COUNT = 9

SUIT_NAMES = ("blanks", "ones", "twos", "threes", "fours", "fives", "sixes")
_SUIT_ALIASES = {
    **{name: pip for pip, name in enumerate(SUIT_NAMES)},
    **{str(pip): pip for pip in range(7)},
    "aces": 1,
    "deuces": 2,
    "treys": 3,
}
SUIT_WORDS = SUIT_NAMES + ("trumps", "doubles")
"""How a led suit is named in messages, by suit index."""

Kind = Literal["suit", "doubles", "follow-me", "nello", "sevens", "by-lead"]
Treatment = Literal["high", "low", "own", "own-inverted"]
FOLLOW_ME_TREATMENTS: tuple[Treatment, ...] = ("high", "low", "own")
NELLO_TREATMENTS: tuple[Treatment, ...] = ("high", "low", "own", "own-inverted")


@dataclass(frozen=True, slots=True)
class Contract:
    """What the declarer names: a pip suit, doubles, follow-me, Nel-O, Sevens or nothing (by lead).

    ``treatment`` is the doubles treatment named with follow-me or Nel-O; ``None`` means the
    rules' default, which is kept apart so that a record says what the player said.
    """

    kind: Kind
    trump: int | None = None
    treatment: Treatment | None = None

    @staticmethod
    def parse(text: str) -> Contract:
        """Read ``"fives"``, ``"5"``, ``"doubles"``, ``"follow-me:low"`` (or ``"no-trump"``),
        ``"nello"``, ``"by-lead"``."""
        word = text.strip().lower()
        base, _, treatment = word.partition(":")
        if base in ("no-trump", "no-trumps", "notrump", "notrumps"):
            base = (
                "follow-me"  # the same contract: no trump suit (rules.md 6.4; Moon says no-trump)
            )
        if base in _SUIT_ALIASES and not treatment:
            return Contract("suit", _SUIT_ALIASES[base])
        if base in ("doubles", "sevens", "by-lead") and not treatment:
            return Contract(base)  # type: ignore[arg-type]
        if base in ("follow-me", "nello"):
            allowed = FOLLOW_ME_TREATMENTS if base == "follow-me" else NELLO_TREATMENTS
            if not treatment:
                return Contract(base)  # type: ignore[arg-type]
            if treatment in allowed:
                return Contract(base, None, treatment)  # type: ignore[arg-type]
            raise NotationError(f"{base} doubles may be {', '.join(allowed)}, not {treatment!r}")
        raise NotationError(
            f"not a contract: {text!r} (a suit such as fives, doubles, follow-me, nello, sevens "
            "or by-lead)"
        )

    def __str__(self) -> str:
        if self.kind == "suit":
            assert self.trump is not None
            return SUIT_NAMES[self.trump]
        if self.treatment is not None:
            return f"{self.kind}:{self.treatment}"
        return self.kind

    def treatment_under(self, rules: Rules) -> Treatment:
        """The doubles treatment in force: the one named, else the rules' default for the kind."""
        if self.treatment is not None:
            return self.treatment
        if self.kind == "nello":
            return rules.nello_doubles
        if self.kind == "follow-me":
            return rules.follow_me_doubles
        return rules.suit_doubles


@dataclass(frozen=True, slots=True)
class PlayTables:
    """Precomputed answers for one way of playing the tiles (see the module docstring)."""

    led: tuple[int, ...]
    follow: tuple[int, ...]
    power: tuple[tuple[int, ...], ...]
    trump_mask: int
    sevens: bool
    description: str

    def follows(self, t: int, suit: int) -> bool:
        return bool(self.follow[suit] >> t & 1)

    def trick_winner(self, tiles: list[int] | tuple[int, ...]) -> int:
        """Index in ``tiles`` (in play order) of the tile that takes the trick."""
        ranks = self.power[self.led[tiles[0]]]
        best, best_power = 0, ranks[tiles[0]]
        for i in range(1, len(tiles)):
            p = ranks[tiles[i]]
            if p > best_power:
                best, best_power = i, p
        return best


SEVENS_DISTANCE_MASKS: tuple[int, ...] = tuple(
    sum(1 << t for t in range(TILE_COUNT) if abs(PIPS[t] - 7) == d) for d in range(8)
)
"""Tiles by distance of their pip total from 7; a Sevens player must play from the first that meets
their hand."""


@cache
def play_tables(kind: str, trump: int | None, treatment: str) -> PlayTables:
    """Tables for a resolved contract: ``kind`` is suit/doubles/follow-me/nello/sevens."""
    if kind == "sevens":
        closeness = tuple(10 - abs(PIPS[t] - 7) for t in range(TILE_COUNT))
        return PlayTables(
            led=(0,) * TILE_COUNT,
            follow=(0,) * SUIT_COUNT,
            power=(closeness,) * SUIT_COUNT,
            trump_mask=0,
            sevens=True,
            description="sevens: closest to 7 wins, earliest on ties",
        )

    def is_trump(t: int) -> bool:
        if kind == "suit":
            return trump in (HI[t], LO[t])
        if kind == "doubles":
            return HI[t] == LO[t]
        return False

    own_suit = kind in ("follow-me", "nello") and treatment in ("own", "own-inverted")
    doubles_apart = kind == "doubles" or own_suit
    low_doubles = treatment == "low"

    def led_suit(t: int) -> int:
        if is_trump(t):
            return TRUMP
        if HI[t] == LO[t] and own_suit:
            return DOUBLES_SUIT
        return HI[t]

    def follows(t: int, s: int) -> bool:
        if s == TRUMP:
            return is_trump(t)
        if is_trump(t):
            return False
        if s == DOUBLES_SUIT:
            return HI[t] == LO[t]
        if HI[t] == LO[t] and doubles_apart:
            return False
        return s in (HI[t], LO[t])

    def rank(t: int, s: int) -> int:
        """Rank within a suit, higher wins, before the offsets that order followers and trumps."""
        if s == DOUBLES_SUIT:
            return HI[t] if treatment == "own" else 6 - HI[t]
        if s == TRUMP and kind == "doubles":
            return HI[t]
        if HI[t] == LO[t]:
            return -1 if low_doubles else 7
        pip = trump if s == TRUMP else s
        return LO[t] if HI[t] == pip else HI[t]

    led = tuple(led_suit(t) for t in range(TILE_COUNT))
    follow = tuple(
        sum(1 << t for t in range(TILE_COUNT) if follows(t, s)) for s in range(SUIT_COUNT)
    )
    trump_mask = follow[TRUMP]
    power = tuple(
        tuple(
            20 + rank(t, TRUMP)
            if trump_mask >> t & 1
            else 2 + rank(t, s)
            if follow[s] >> t & 1
            else 0
            for t in range(TILE_COUNT)
        )
        for s in range(SUIT_COUNT)
    )
    if kind == "suit":
        assert trump is not None
        description = f"{SUIT_NAMES[trump]} are trump"
    elif kind == "doubles":
        description = "doubles are trump"
    else:
        description = f"no trump, doubles {treatment}"
    if kind == "suit" and treatment == "low":
        description += ", doubles low"
    return PlayTables(led, follow, power, trump_mask, False, description)


def tables_for(contract: Contract, rules: Rules, first_lead: int | None = None) -> PlayTables:
    """The play tables of a contract under the rules; ``by-lead`` needs the first tile led."""
    kind: str = contract.kind
    trump = contract.trump
    if kind == "by-lead":
        if first_lead is None:
            raise ValueError("a by-lead contract has no tables until the first tile is led")
        kind, trump = "suit", HI[first_lead]
    if kind in ("suit", "doubles"):
        treatment: str = rules.suit_doubles
    elif kind == "sevens":
        treatment = "high"
    else:
        treatment = contract.treatment_under(rules)
    return play_tables(kind, trump, treatment)


def trump_description(contract: Contract | None, tables: PlayTables | None) -> str | None:
    """What is trump, in a player's words: the tables' description, or, for a by-lead contract
    before its first lead (no tables yet), that the lead will name it; None before a contract.
    `Hand.trump_description` and every seat's `View.trump` say it this one way."""
    if tables is not None:
        return tables.description
    return None if contract is None else "trump is named by the first tile led"


def legal_plays(
    rules: Rules, tables: PlayTables | None, hand: int, trick: Sequence[int], first_trick: bool
) -> int:
    """The mask of tiles a seat holding ``hand`` may play to ``trick`` (tiles so far)."""
    if tables is None:
        return hand
    if tables.sevens:
        for closest in SEVENS_DISTANCE_MASKS:
            if hand & closest:
                return hand & closest
    if not trick:
        if rules.first_lead_trump and first_trick and hand & tables.trump_mask:
            return hand & tables.trump_mask
        return hand
    following = hand & tables.follow[tables.led[trick[0]]]
    return following or hand


def holding_order(
    rules: Rules, contract: Contract | None, hand: int, first_lead: int | None = None
) -> tuple[int, ...]:
    """The tiles of ``hand`` (a mask) as a 42 player holds them once trump is named: the trumps
    together, highest first, then the doubles where they are a suit of their own, then each suit
    by its high end (sixes first), highest first; at Sevens the tiles closest to 7 first.
    Before a contract (``None``) the tiles keep the order they are listed in (`tiles_of`, the
    highest tile first), so the hand does not move under the player's fingers in the auction. A by-lead contract groups
    by suit with doubles as the rules rank them until ``first_lead`` names trump.

    >>> from texas42.core.tiles import TILE_NAMES, parse_hand, parse_tile
    >>> held = parse_hand("6-6 6-1 5-5 5-3 3-1 2-2 1-0")
    >>> def said(order: tuple[int, ...]) -> str:
    ...     return " ".join(TILE_NAMES[t] for t in order)
    >>> said(holding_order(Rules(), None, held))
    '6-6 6-1 5-5 5-3 3-1 2-2 1-0'
    >>> said(holding_order(Rules(), Contract.parse("ones"), held))
    '6-1 3-1 1-0 6-6 5-5 5-3 2-2'
    >>> said(holding_order(Rules(), Contract.parse("doubles"), held))
    '6-6 5-5 2-2 6-1 5-3 3-1 1-0'
    >>> said(holding_order(Rules(), Contract.parse("follow-me:low"), held))
    '6-1 6-6 5-3 5-5 3-1 2-2 1-0'
    >>> by_lead = Contract.parse("by-lead")
    >>> said(holding_order(Rules(), by_lead, held, first_lead=parse_tile("5-3")))
    '5-5 5-3 6-6 6-1 3-1 2-2 1-0'
    """
    tiles = [t for t in range(TILE_COUNT - 1, -1, -1) if hand >> t & 1]
    if contract is None:
        return tuple(tiles)
    if contract.kind == "by-lead" and first_lead is None:
        tables = play_tables("follow-me", None, rules.suit_doubles)
    else:
        tables = tables_for(contract, rules, first_lead)
    if tables.sevens:
        closeness = tables.power[0]
        return tuple(sorted(tiles, key=lambda t: (-closeness[t], -HI[t], -LO[t])))
    group_order = {TRUMP: -2, DOUBLES_SUIT: -1, **{pip: 6 - pip for pip in range(7)}}

    def place(t: int) -> tuple[int, int, int]:
        suit = tables.led[t]
        return (group_order[suit], -tables.power[suit][t], -t)

    return tuple(sorted(tiles, key=place))
