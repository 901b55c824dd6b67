"""A perft-style oracle: the number of legal play sequences from the first lead of fixed deals.

The counts were computed once and are kept as constants, so any change in what the engine allows
(a following rule, who plays next, when a hand ends) shows up as a changed count. The walk uses
apply/undo; a second count uses only ``legal_actions`` on copies, and a third walk checks every
legal set and trick winner against a separate implementation of rules.md section 16.
"""

from __future__ import annotations

import random

import pytest

from helpers import N, W, auction
from texas42 import Declare, Hand, Rules
from texas42.core.contracts import Contract
from texas42.core.notation import hand_position
from texas42.core.tiles import HI, LO, PIPS, iter_tiles

# (rules, deal seed, winning bid by North, contract, depth, leaf count)
CASES = [
    ("standard", 1, "30", "sixes", 8, 5355),
    ("standard", 1, "30", "sixes", 12, 263077),
    ("standard", 2, "1m", "follow-me", 8, 5405),
    ("standard", 2, "1m", "follow-me", 12, 309733),
    ("standard", 3, "30", "doubles", 8, 29551),
    ("standard", 3, "35", "by-lead", 8, 22669),
    ("house", 1, "2m", "nello", 8, 2756),
    ("house", 1, "2m", "nello", 12, 68597),
    ("house", 2, "1m", "sevens", 8, 80),
]
"""Depth 12 (three tricks) is kept for the cheaper walks; doubles and by-lead on deal 3 branch
widely (3 and 1.3 million leaves at depth 12), so they stop at depth 8. The Sevens walk ends
early: every line is set within two tricks."""


def start(preset: str, seed: int, bid: str, contract: str) -> Hand:
    """Deal ``seed`` shaken by West; North wins the auction with ``bid`` and names ``contract``."""
    hand = Hand.random(Rules.parse(preset), W, random.Random(seed))
    auction(hand, N, bid)
    hand.apply(Declare(contract))
    return hand


def perft(hand: Hand, depth: int) -> int:
    """Leaves of the play tree: sequences of ``depth`` plays, or shorter ones that end the hand."""
    if depth == 0 or hand.is_over:
        return 1
    total = 0
    for action in hand.legal_ids():
        hand.apply(action)
        total += perft(hand, depth - 1)
        hand.undo()
    return total


def perft_on_copies(hand: Hand, depth: int) -> int:
    """The same count without undo: each branch plays on its own copy."""
    if depth == 0 or hand.is_over:
        return 1
    total = 0
    for action in hand.legal_actions():
        branch = hand.copy()
        branch.apply(action)
        total += perft_on_copies(branch, depth - 1)
    return total


@pytest.mark.parametrize(("preset", "seed", "bid", "contract", "depth", "count"), CASES)
def test_perft(preset, seed, bid, contract, depth, count) -> None:
    hand = start(preset, seed, bid, contract)
    before = hand_position(hand)
    assert perft(hand, depth) == count
    assert hand_position(hand) == before


def test_perft_on_copies_agrees() -> None:
    hand = start("standard", 3, "30", "doubles")
    assert perft_on_copies(hand, 8) == 29551
    nello = start("house", 1, "2m", "nello")
    assert perft_on_copies(nello, 8) == 2756


# -- rules.md section 16, written out again, to check every node of the walks -------------------

TRUMP, DOUBLES = "trump", "doubles"


class Reference:
    """isTrump, ledSuit, follows, legalPlays, rank and trickWinner of rules.md section 16."""

    def __init__(self, contract: Contract, rules: Rules, first_lead: int | None) -> None:
        self.kind = contract.kind
        self.trump = contract.trump
        if self.kind == "by-lead":
            assert first_lead is not None
            self.kind, self.trump = "suit", HI[first_lead]
        if self.kind in ("suit", "doubles"):
            self.doubles = rules.suit_doubles
        elif self.kind == "follow-me":
            self.doubles = contract.treatment or rules.follow_me_doubles
        elif self.kind == "nello":
            self.doubles = contract.treatment or rules.nello_doubles
        else:
            self.doubles = "high"
        self.own = self.kind in ("follow-me", "nello") and self.doubles in ("own", "own-inverted")

    def is_trump(self, t: int) -> bool:
        if self.kind == "suit":
            return self.trump in (HI[t], LO[t])
        return self.kind == "doubles" and HI[t] == LO[t]

    def led(self, t: int) -> object:
        if self.is_trump(t):
            return TRUMP
        if HI[t] == LO[t] and self.own:
            return DOUBLES
        return HI[t]

    def follows(self, t: int, s: object) -> bool:
        if s == TRUMP:
            return self.is_trump(t)
        if self.is_trump(t):
            return False
        if s == DOUBLES:
            return HI[t] == LO[t]
        if HI[t] == LO[t] and (self.kind == "doubles" or self.own):
            return False
        return s in (HI[t], LO[t])

    def legal(self, hand: list[int], trick: list[int]) -> set[int]:
        if self.kind == "sevens":
            best = min(abs(PIPS[t] - 7) for t in hand)
            return {t for t in hand if abs(PIPS[t] - 7) == best}
        if not trick:
            return set(hand)
        following = {t for t in hand if self.follows(t, self.led(trick[0]))}
        return following or set(hand)

    def rank(self, t: int, s: object) -> int:
        if s == TRUMP and self.kind == "suit":
            if HI[t] == LO[t]:
                return 7 if self.doubles == "high" else -1
            return LO[t] if HI[t] == self.trump else HI[t]
        if s == TRUMP:
            return HI[t]
        if s == DOUBLES:
            return HI[t] if self.doubles == "own" else -HI[t]
        if HI[t] == LO[t]:
            return -1 if self.doubles == "low" else 7
        return LO[t] if HI[t] == s else HI[t]

    def winner(self, tiles: list[int]) -> int:
        if self.kind == "sevens":
            return min(range(len(tiles)), key=lambda i: (abs(PIPS[tiles[i]] - 7), i))
        trumps = [i for i, t in enumerate(tiles) if self.is_trump(t)]
        if trumps:
            return max(trumps, key=lambda i: self.rank(tiles[i], TRUMP))
        s = self.led(tiles[0])
        followers = [i for i, t in enumerate(tiles) if self.follows(t, s) or i == 0]
        return max(followers, key=lambda i: self.rank(tiles[i], s))


def checked_walk(hand: Hand, depth: int) -> int:
    """Perft that also compares every legal set and trick winner with `Reference`."""
    if depth == 0 or hand.is_over:
        return 1
    assert hand.contract is not None
    first = hand.plays[0] if hand.plays else None
    reference = None
    if first is not None or hand.contract.kind != "by-lead":
        reference = Reference(hand.contract, hand.rules, first)
    seat = hand.seat_to_act()
    assert seat is not None
    tiles = list(iter_tiles(hand.hands[seat]))
    if reference is None:  # a by-lead contract is fixed by the first lead, which may be anything
        assert set(hand.legal_ids()) == set(tiles)
    else:
        assert set(hand.legal_ids()) == reference.legal(tiles, list(hand.trick))
    total = 0
    for action in hand.legal_ids():
        trick, seats = list(hand.trick) + [action], list(hand.trick_seats) + [seat]
        tricks = len(hand.tricks)
        hand.apply(action)
        if len(hand.tricks) > tricks:
            judge = reference or Reference(hand.contract, hand.rules, action)
            assert hand.tricks[-1].winner == seats[judge.winner(trick)]
        total += checked_walk(hand, depth - 1)
        hand.undo()
    return total


@pytest.mark.parametrize(
    ("preset", "seed", "bid", "contract", "depth", "count"),
    [case for case in CASES if case[4] == 8]
    + [
        ("standard", 2, "1m", "follow-me:low", 8, None),
        ("standard", 2, "1m", "follow-me:own", 8, None),
        ("house", 3, "2m", "nello:own-inverted", 8, None),
        ("house", 3, "2m", "nello:low", 8, None),
        ("standard", 1, "30", "blanks", 8, None),
        ("standard,suit_doubles=low", 1, "30", "sixes", 8, None),
        ("standard,suit_doubles=low", 3, "30", "doubles", 8, None),
    ],
)
def test_every_node_matches_the_reference_rules(preset, seed, bid, contract, depth, count) -> None:
    hand = start(preset, seed, bid, contract)
    total = checked_walk(hand, depth)
    if count is not None:
        assert total == count
