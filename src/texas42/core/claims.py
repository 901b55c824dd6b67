"""Laying down: whether a claim on the rest of a hand holds against any defence.

A seat on lead may lay its hand down and claim (`texas42.core.hand.Hand.claim`): its side says it
takes every remaining trick whatever the others play. In 42 a trick is worth at least a point
(``trick_points``), so taking every trick and taking every remaining point are the same claim. In
Nel-O only the bidder claims, and says the opposite: it takes none of the rest.

The verdict is exact, with every tile known: a small AND-OR search over the rest of the play, in
which the claimant's side chooses its plays (one good line is enough) and every other seat plays
anything legal (every line must fail to break the claim). A trick the claim does not allow ends
that line at once, so a false claim is refuted quickly; positions between tricks are remembered,
so a claim that holds is proved without walking every order of the same tricks.

>>> from texas42 import Contract, Rules
>>> from texas42.core.contracts import tables_for
>>> from texas42.core.tiles import parse_hand
>>> sixes = Contract.parse("sixes")
>>> hands = (
...     parse_hand("6-6 6-5"),
...     parse_hand("5-5 4-4"),
...     parse_hand("6-4 3-3"),
...     parse_hand("2-2 1-1"),
... )
>>> claim_holds(Rules(), sixes, tables_for(sixes, Rules()), hands, 0, None, 0b0101, True, False)
True
>>> hands = (
...     parse_hand("6-6 2-0"),
...     parse_hand("5-5 4-4"),
...     parse_hand("5-4 3-3"),
...     parse_hand("2-2 1-1"),
... )
>>> claim_holds(Rules(), sixes, tables_for(sixes, Rules()), hands, 0, None, 0b0101, True, False)
False
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from texas42.core.contracts import Contract, PlayTables, legal_plays, tables_for
from texas42.core.layout import Layout
from texas42.core.progress import next_player, trick_size
from texas42.core.rules import Rules
from texas42.core.tiles import iter_tiles

__all__ = ["claim_holds", "side_taking_rest"]


def side_taking_rest(layout: Layout, seat: int, out_seat: int | None, own: bool) -> int:
    """The side credited with the tricks left when a claim by ``seat`` ends the hand: its own
    (``own``: a claim that holds), else the side against it, the first seat clockwise that plays
    and is not on its side (the only such side at most tables). A Nel-O bidder's claim that
    holds gives the rest to the defenders, so it passes ``own`` False."""
    if own:
        return layout.side_of[seat]
    other = layout.next_seat(seat)
    while layout.same_side(other, seat) or other == out_seat:
        other = layout.next_seat(other)
    return layout.side_of[other]


def claim_holds(
    rules: Rules,
    contract: Contract,
    tables: PlayTables | None,
    hands: Sequence[int],
    leader: int,
    out_seat: int | None,
    claimers: int,
    take_all: bool,
    first_trick: bool,
) -> bool:
    """Whether the seats of ``claimers`` (a mask of seat bits) can make every remaining trick go
    their way against any defence, from a trick about to be led by ``leader``.

    ``take_all`` True: they win every trick; False (Nel-O): none of them wins a trick. ``tables``
    is None for a by-lead contract before its first lead; ``first_trick`` says no trick is
    complete yet (the first-lead-trump rule). ``out_seat`` sits the hand out and never plays.

    The verdicts of the last positions asked are remembered, so a face may judge a claim on a
    copy of the hand in a worker thread and then make it at once.
    """
    return _claim_holds(
        rules, contract, tables, tuple(hands), leader, out_seat, claimers, take_all, first_trick
    )


@lru_cache(maxsize=64)
def _claim_holds(
    rules: Rules,
    contract: Contract,
    tables: PlayTables | None,
    hands: tuple[int, ...],
    leader: int,
    out_seat: int | None,
    claimers: int,
    take_all: bool,
    first_trick: bool,
) -> bool:
    layout = rules.layout
    seats = layout.seats
    size = trick_size(layout, out_seat)
    known: dict[tuple[tuple[int, ...], int], bool] = {}

    def from_lead(held: tuple[int, ...], lead: int, tabs: PlayTables, first: bool) -> bool:
        if not held[lead]:
            return True
        key = (held, lead)
        found = known.get(key)
        if found is None:
            found = known[key] = in_trick(list(held), lead, [], [], tabs, first)
        return found

    def in_trick(
        held: list[int],
        seat: int,
        tiles: list[int],
        order: list[int],
        tabs: PlayTables | None,
        first: bool,
    ) -> bool:
        ours = bool(claimers >> seat & 1)
        legal = legal_plays(rules, tabs, held[seat], tiles, first)
        choices = list(iter_tiles(legal))
        if not ours and tabs is not None and tiles:
            # the defence's strongest tiles first: a refutation is usually found at once
            ranks = tabs.power[tabs.led[tiles[0]]]
            choices.sort(key=lambda t: ranks[t], reverse=take_all)
        for t in choices:
            now = tabs if tabs is not None else tables_for(contract, rules, first_lead=t)
            held[seat] ^= 1 << t
            tiles.append(t)
            order.append(seat)
            if len(tiles) == size:
                winner = order[now.trick_winner(tiles)]
                good = bool(claimers >> winner & 1) == take_all and from_lead(
                    tuple(held), winner, now, False
                )
            else:
                good = in_trick(held, next_player(seats, seat, out_seat), tiles, order, now, first)
            tiles.pop()
            order.pop()
            held[seat] ^= 1 << t
            if good == ours:
                return good
        return not ours

    if tables is None:
        return in_trick(list(hands), leader, [], [], None, first_trick)
    return from_lead(tuple(hands), leader, tables, first_trick)
