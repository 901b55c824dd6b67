"""Building positions for tests through the engine: deals from named holdings, an auction that
makes a chosen seat the bidder, and plays written the way rules.md writes them."""

from __future__ import annotations

import contextlib
import copy
import os
import random
import signal
import subprocess
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from texas42 import Declare, Hand, Phase, Play, Rules
from texas42.core.actions import ACTIONS, PASS_ID, Action
from texas42.core.contracts import SEVENS_DISTANCE_MASKS
from texas42.core.errors import RulesError
from texas42.core.rules import OPTION_CHOICES, OPTION_NAMES, PRESETS
from texas42.core.tiles import (
    ALL_TILES,
    DOUBLES,
    HAND_SIZE,
    SUIT_MASKS,
    hand_name,
    mask_of,
    parse_hand,
    tiles_of,
)
from texas42.core.view import View
from texas42.players.rules_bot import RulesBot
from texas42.search.sampler import DealSampler

STANDARD = Rules.preset("standard")
N, E, S, W = 0, 1, 2, 3
PLAY_BITS = (1 << PASS_ID) - 1


def tiles(text: str) -> int:
    """A set of tiles: ``tiles("6-4 5-5")``."""
    return parse_hand(text)


def suit(pip: int, *, trump: int | None = None, doubles: bool = True) -> int:
    """Tiles carrying ``pip``, without the trumps of suit ``trump`` and optionally without doubles."""
    mask = SUIT_MASKS[pip]
    if trump is not None:
        mask &= ~SUIT_MASKS[trump]
    if not doubles:
        mask &= ~DOUBLES
    return mask


def sevens_distance(*distances: int) -> int:
    """Tiles whose pip total is at one of these distances from 7."""
    mask = 0
    for d in distances:
        mask |= SEVENS_DISTANCE_MASKS[d]
    return mask


def fill_deal(
    holdings: Mapping[int, str], avoid: Mapping[int, int] | None = None
) -> tuple[int, ...]:
    """A full deal where each seat holds the named tiles; the rest are filled from the unused
    tiles, never giving a seat a tile of its ``avoid`` mask (so fillers cannot change a ruling)."""
    avoid = avoid or {}
    deal = [tiles(holdings.get(seat, "")) for seat in range(4)]
    used = 0
    for mask in deal:
        assert not used & mask, "a tile is named for two seats"
        used |= mask
    # the most constrained seats pick first, lowest tiles first (blanks and ones rarely matter)
    order = sorted(range(4), key=lambda s: -(avoid.get(s, 0) & ALL_TILES & ~used).bit_count())
    for seat in order:
        for t in sorted(tiles_of(ALL_TILES & ~used & ~avoid.get(seat, 0))):
            if deal[seat].bit_count() == HAND_SIZE:
                break
            deal[seat] |= 1 << t
            used |= 1 << t
        assert deal[seat].bit_count() == HAND_SIZE, f"cannot fill seat {seat}"
    return tuple(deal)


def auction(hand: Hand, bidder: int, bid: str) -> None:
    """Run the auction so that ``bidder`` wins with ``bid`` and everyone else passes."""
    while hand.phase == Phase.AUCTION:
        seat = hand.seat_to_act()
        hand.apply(hand.parse_action(bid if seat == bidder else "pass"))


def contract_hand(
    contract: str,
    deal: tuple[int, ...],
    *,
    bidder: int = N,
    bid: str = "30",
    rules: Rules = STANDARD,
) -> Hand:
    """A hand in play: ``bidder`` (bidding first, left of the shaker) won with ``bid`` and named
    ``contract``; the declarer is on lead."""
    hand = Hand(rules, (bidder - 1) % 4, deal)
    auction(hand, bidder, bid)
    hand.apply(Declare(contract))
    return hand


def play(hand: Hand, text: str) -> None:
    """Play tiles in order: ``play(hand, "6-6 6-3 6-1 6-0")``."""
    for word in text.split():
        hand.apply(Play(word))


def legal_tiles(hand: Hand) -> str:
    """The tiles the seat to act may play, as players read them."""
    return hand_name(hand.legal_mask() & PLAY_BITS)


EX14_DEAL = (
    tiles("6-6 6-5 6-4 6-2 5-5 3-3 1-0"),
    tiles("6-3 5-4 4-4 4-2 3-1 2-0 0-0"),
    tiles("6-1 5-3 5-2 4-3 3-2 2-2 1-1"),
    tiles("6-0 5-1 5-0 4-1 4-0 3-0 2-1"),
)
"""rules.md Ex 14: shaker West, so North bids first."""

CLAIM_HOLDS = (
    "6-6 6-5 6-4 6-3 6-2 6-1 6-0",
    "5-5 5-2 4-4 4-1 3-2 3-0 2-0",
    "5-4 5-1 4-3 4-0 3-1 2-2 1-1",
    "5-3 5-0 4-2 3-3 2-1 1-0 0-0",
)
"""A deal where North, laying down sixes, holds every trump; the others' tiles are spread so
that no bot outbids 2 marks (the terminal tables' claim tests)."""
CLAIM_FAILS = (
    "6-6 6-5 6-4 6-3 6-2 6-1 1-0",
    "6-0 1-1 5-5 4-2 3-1 2-0 0-0",
    "5-4 5-1 4-4 4-0 3-2 2-2 2-1",
    "5-3 5-2 5-0 4-3 4-1 3-3 3-0",
)
"""A deal where North's claim fails: East keeps the 1-1 for North's 1-0."""

EX14_PLAYS = (
    "6-6 6-3 6-1 6-0  6-5 0-0 1-1 2-1  5-5 5-4 5-2 5-1  3-3 3-1 4-3 3-0 "
    "6-4 2-0 3-2 4-0  6-2 4-2 2-2 4-1  1-0 4-4 5-3 5-0"
)

# found by search: North bids in sixes; North-South take 4 tricks with 5-5, 6-4, 5-0 and 4-1
# (34 points), East-West 3 tricks with 3-2 (8 points)
EX16_DEAL = (
    tiles("6-6 6-5 5-5 4-4 4-2 3-1 3-0"),
    tiles("6-4 6-2 6-1 5-2 3-3 2-1 2-0"),
    tiles("6-3 6-0 5-3 5-1 5-0 4-1 1-0"),
    tiles("5-4 4-3 4-0 3-2 2-2 1-1 0-0"),
)
EX16_PLAYS = (
    "6-6 6-2 6-3 1-1  6-5 6-4 6-0 0-0  3-1 3-3 5-3 3-2  5-2 5-0 5-4 5-5 "
    "4-4 2-1 4-1 4-0  3-0 6-1 1-0 4-3  2-0 5-1 2-2 4-2"
)


# -- game records -------------------------------------------------------------------------------

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
EXAMPLE_NAMES = ["ex14-marks", "ex14-points", "ex14-too-long", "ex15-nello"]
"""The example records beside the README, each with the ``check`` output it must give."""

EX14_HAND: dict[str, Any] = {
    "shaker": 3,
    "deal": [hand_name(mask) for mask in EX14_DEAL],
    "auction": ["34", "pass", "pass", "pass"],
    "contract": "sixes",
    "play": EX14_PLAYS.split()[:24],
}
"""rules.md Ex 14 as a record's hand in a marks game: North bids 34 in sixes and makes it after
trick 6."""


def record(*hands: dict[str, Any], rules: Any = "standard") -> dict[str, Any]:
    """A game record of these hands, as its JSON reads."""
    return {
        "format": "texas42",
        "version": 1,
        "rules": rules,
        "hands": [copy.deepcopy(hand) for hand in hands],
    }


# -- random rules for property tests ------------------------------------------------------------

EXAMPLES_SCALE = int(os.environ.get("TEXAS42_EXAMPLES_SCALE", "1"))


def examples(n: int) -> int:
    """How many hypothesis examples to run: ``n``, times the scale for a long run."""
    return n * EXAMPLES_SCALE


CHOICES: dict[str, tuple[object, ...]] = dict(OPTION_CHOICES)
BOOLS = (
    "follow_me",
    "doubles_trump",
    "doubles_choice",
    "first_lead_trump",
    "nello",
    "plunge",
    "plunge_needs_66",
    "splash",
    "sevens",
    "cap_score",
    "count",
    "see_partner",
    "claims",
)
RANGES = {
    "min_bid": (1, 41),
    "max_opening_marks": (1, 7),
    "mark_raise": (1, 2),
    "max_bid_marks": (1, 7),
    "nello_min_marks": (1, 7),
    "plunge_marks": (1, 7),
    "splash_marks": (1, 7),
    "sevens_min_marks": (1, 7),
    "seats": (3, 7),
    "hand_size": (1, 9),
    "widow": (0, 2),
    "trick_points": (0, 3),
}
OPTION_STRATEGIES: dict[str, st.SearchStrategy[object]] = {
    **{name: st.sampled_from(values) for name, values in CHOICES.items()},
    **{name: st.booleans() for name in BOOLS},
    **{name: st.integers(low, high) for name, (low, high) in RANGES.items()},
    "target": st.none() | st.integers(1, 100_000),
    "removed": st.sampled_from(("", "1-0", "0-0", "6-0+5-0+4-0+3-0+2-0+1-0")),
}


@st.composite
def any_rules(draw: st.DrawFn) -> Rules:
    """A preset with a random handful of options changed to any value they may take, one at a
    time, each change kept only where the table it makes is one the rules allow."""
    rules = Rules.preset(draw(st.sampled_from(sorted(PRESETS))))
    names = draw(st.lists(st.sampled_from(OPTION_NAMES), unique=True, max_size=8))
    for name in names:
        value = draw(OPTION_STRATEGIES[name])
        with contextlib.suppress(RulesError):
            rules = rules.replace(**{name: value})
    return rules


@st.composite
def playable_rules(draw: st.DrawFn) -> Rules:
    """Random rules whose games end in a few hands: the target is kept small."""
    rules = draw(any_rules())
    if rules.game == "moon":  # random bidders are set more often than not: keep Moon short
        target = draw(st.integers(1, 7))
    elif rules.game == "marks":
        target = draw(st.none() | st.integers(1, 7))
    else:
        target = draw(st.none() | st.integers(1, 300))
    return rules.replace(target=target)


def replayed(hand: Hand, deal: tuple[int, ...]) -> Hand | None:
    """The same calls, contract and plays from another deal, or None if they are illegal there."""
    world = Hand(hand.rules, hand.shaker, deal)
    actions: list[Action] = [ACTIONS[c] for c in hand.calls]
    if hand.contract is not None:
        actions.append(Declare(hand.contract))
    actions.extend(Play(t) for t in hand.plays)
    for action in actions:
        if not world.is_legal(action):
            return None
        world.apply(action)
    return world


def hidden_swaps(hand: Hand, seat: int, rng: random.Random, count: int) -> list[Hand]:
    """Worlds where two other seats trade unplayed tiles and the history stays legal."""
    worlds = []
    others = [s for s in range(4) if s != seat]
    for _ in range(count * 4):
        a, b = rng.sample(others, 2)
        if not hand.hands[a] or not hand.hands[b]:
            continue
        x = rng.choice(tiles_of(hand.hands[a]))
        y = rng.choice(tiles_of(hand.hands[b]))
        deal = list(hand.deal)
        deal[a] ^= 1 << x | 1 << y
        deal[b] ^= 1 << x | 1 << y
        world = replayed(hand, tuple(deal))
        if world is not None and world.first_bidder == hand.first_bidder:
            worlds.append(world)
        if len(worlds) == count:
            break
    return worlds


def endgame_hands(count: int, rules: Rules, most_worlds: int = 150) -> list[Hand]:
    """Hands stopped where the seat to play holds three tiles and at most ``most_worlds`` deals
    fit its view, from RulesBot games on seeded deals."""
    model = RulesBot()
    found: list[Hand] = []
    for k in range(2000):
        hand = Hand.random(rules, k % 4, random.Random(f"endgame:{k}"))
        while hand.result is None:
            seat = hand.turn
            view = hand.view(seat)
            endgame = view.phase == Phase.PLAY and view.hand.bit_count() == 3
            if (
                endgame
                and len(view.legal) > 1
                and DealSampler(view).worlds(most_worlds) is not None
            ):
                found.append(hand)
                if len(found) == count:
                    return found
                break
            hand.apply(model.choose(view))
    return found


def endgame_views(count: int, rules: Rules, most_worlds: int = 150) -> list[View]:
    """The views of the seats to play in `endgame_hands`."""
    return [hand.view(hand.turn) for hand in endgame_hands(count, rules, most_worlds)]


def deal_around(*hands: int) -> tuple[int, ...]:
    """A deal whose first seats hold ``hands``; the other tiles go to the rest, seven each, in
    tile order."""
    rest = tiles_of(ALL_TILES & ~sum(hands))
    extra = [mask_of(rest[k : k + HAND_SIZE]) for k in range(0, len(rest), HAND_SIZE)]
    return (*hands, *extra)


def decision_point(rules: Rules, seed: int, steps: int) -> Hand:
    """A hand at any table moved on by random legal actions, stopped where some seat must act."""
    rng = random.Random(seed)
    hand = Hand.random(rules, seed % rules.seats, rng)
    for _ in range(steps):
        if hand.result is not None:
            break
        hand.apply(rng.choice(hand.legal_actions()))
    if hand.result is not None:
        hand.undo()
    return hand


def interrupted_arena(command: list[str], folder: Path, records: int) -> tuple[int, str, str]:
    """Run an arena command saving records in ``folder``, press Ctrl-C (SIGINT to its whole
    process group, as a terminal does) once ``records`` of them are saved, and give its exit
    status, stdout and stderr. A run that hangs is killed, so it cannot outlive the test."""
    arena = subprocess.Popen(
        [*command, "--records", str(folder)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        # a test runner may ignore SIGINT; the arena under test must not
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),  # noqa: PLW1509
    )
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and len(list(folder.glob("*.json"))) < records:
            time.sleep(0.05)
        os.killpg(arena.pid, signal.SIGINT)
        out, err = arena.communicate(timeout=30)
    finally:
        if arena.poll() is None:
            os.killpg(arena.pid, signal.SIGKILL)
            arena.wait()
    return arena.returncode, out, err
