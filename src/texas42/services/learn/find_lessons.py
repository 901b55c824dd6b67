"""Find the lessons' deals: ``python -m texas42.services.learn.find_lessons [DIR [NAME...]]``.

Each lesson wants a deal on which its point comes up at one of the learner's moves. For each
lesson this draws deals from a fixed seed, one after another, plays each out with every seat
making the solver's best play (ties to the highest tile), and keeps the first deal, among the
first ``TRIES`` that fit, on which the learner's moves are least often a tie between equally good
tiles (a tie is refused in a lesson, so fewer is kinder). What "fits" is the lesson's test
below, judged by the solver: the learner must follow with exactly one tile of the suit, pulling
trump is worth more than any other lead, and so on. The files it writes are the package's
``data/lessons``; running it again writes the same files.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from texas42.core.actions import Action, Bid, Declare, Pass, Play
from texas42.core.contracts import Contract
from texas42.core.hand import Hand
from texas42.core.progress import Phase
from texas42.core.record import HandRecord, Record
from texas42.core.rules import Rules
from texas42.core.tiles import COUNT_VALUE, TILE_NAMES, iter_tiles
from texas42.search.solver import PlayPosition, Solver
from texas42.services.learn.lessons import contract_values, play_values

LEARNER = 2
"""The learner sits South, at the foot of the table."""
SHAKER = 1
"""East shakes, so the learner bids first."""
TRIES = 6
"""How many fitting deals each lesson chooses among."""
LIMIT = 400
"""How many deals a lesson draws at most."""


@dataclass
class Move:
    """A learner's play as the search saw it: the hand before, each tile's value for the
    learner's side, the tile played and who won its trick."""

    step: int
    hand: Hand
    own: dict[int, int]
    bidders: dict[int, int]
    tile: int
    winner: int | None = None


@dataclass
class Trial:
    hand: Hand
    calls: list[Action]
    contract: Contract
    moves: list[Move]
    bid: int


def _own(hand: Hand, bidders_total: int) -> int:
    assert hand.high_seat is not None
    if hand.contract is not None and hand.contract.kind == "nello":
        return -bidders_total  # the learner bids Nel-O: fewer tricks are better
    mine = hand.layout.side_of[hand.high_seat] == hand.layout.side_of[LEARNER]
    return bidders_total if mine else hand.layout.total - bidders_total


def _calls(bidder: int, bid: str) -> list[Action]:
    order = [(SHAKER + 1 + k) % 4 for k in range(4)]
    return [Bid(bid) if seat == bidder else Pass() for seat in order]


def play_out(
    solver: Solver,
    deal: tuple[int, ...],
    bidder: int,
    bid_of: Callable[[int], int | None],
    rules: Rules | None = None,
    call: str | None = None,
    named: str | None = None,
) -> Trial | None:
    """The hand with ``bidder`` bidding what ``bid_of`` makes of its best total (or ``call``),
    naming its best trump (or ``named``), and every seat playing best; None when ``bid_of``
    says no bid fits."""
    rules = rules or Rules()
    probe = Hand(rules, SHAKER, deal)
    for action in _calls(bidder, call or "30"):
        probe.apply(action)
    bid: int | None = 0
    if named is None:
        values = contract_values(solver, probe)
        named = max(values, key=lambda name: (values[name], name))
        if call is None:
            bid = bid_of(values[named])
    if bid is None:
        return None
    hand = Hand(rules, SHAKER, deal)
    calls = _calls(bidder, call or str(bid))
    for action in calls:
        hand.apply(action)
    contract = Contract.parse(named)
    hand.apply(Declare(contract))
    if call is not None:
        bid = PlayPosition.from_hand(hand).goal
    moves = []
    step = len(calls) + 1
    while hand.phase == Phase.PLAY:
        totals = play_values(solver, hand)
        maximizing = PlayPosition.from_hand(hand).maximizing(hand.turn)
        target = max(totals.values()) if maximizing else min(totals.values())
        tile = max(t for t, v in totals.items() if v == target)
        if hand.turn == LEARNER:
            own = {t: _own(hand, v) for t, v in totals.items()}
            moves.append(Move(step, hand.copy(), own, totals, tile))
        tricks = len(hand.tricks)
        hand.apply(Play(tile))
        if len(hand.tricks) > tricks:
            for move in moves:
                if move.winner is None:
                    move.winner = hand.tricks[-1].winner
        step += 1
    return Trial(hand, calls, contract, moves, bid)


def _unique(move: Move) -> bool:
    return all(v < move.own[move.tile] for t, v in move.own.items() if t != move.tile)


def _spread(move: Move) -> int:
    return move.own[move.tile] - min(move.own.values())


def _count_in_trick(move: Move) -> bool:
    return any(COUNT_VALUE[t] for t in move.hand.trick)


def fits_count(trial: Trial) -> Move | None:
    for m in trial.moves:
        counted = COUNT_VALUE[m.tile] or _count_in_trick(m)
        ours = m.winner is not None and trial.hand.layout.side_of[m.winner] == 0
        if _unique(m) and _spread(m) >= 10 and counted and ours:
            return m
    return None


def fits_follow(trial: Trial) -> Move | None:
    for m in trial.moves:
        held = m.hand.hands[LEARNER]
        legal = m.hand.legal_mask() & held
        if m.hand.trick and legal.bit_count() == 1 and held.bit_count() >= 4:
            return m
    return None


def fits_ends(trial: Trial) -> Move | None:
    for m in trial.moves:
        if not m.hand.trick or _spread(m) < 5 or not _unique(m):
            continue
        led = TILE_NAMES[m.hand.trick[0]]
        if led[0] == led[2]:
            continue
        held = m.hand.hands[LEARNER]
        legal = m.hand.legal_mask() & held
        if any(led[2] in TILE_NAMES[t] for t in iter_tiles(held & ~legal)):
            return m
    return None


def fits_doubles(trial: Trial) -> Move | None:
    tables = trial.hand.tables
    assert tables is not None
    for m in trial.moves:
        name = TILE_NAMES[m.tile]
        double = name[0] == name[2] and not tables.trump_mask >> m.tile & 1
        if double and m.winner == LEARNER and _unique(m) and _spread(m) >= 5:
            return m
    return None


def fits_bid(trial: Trial) -> Move | None:
    return trial.moves[0] if trial.moves else None


def fits_pull(trial: Trial) -> Move | None:
    tables = trial.hand.tables
    assert tables is not None
    first = trial.moves[0] if trial.moves else None
    if first is None or first.hand.trick or not tables.trump_mask >> first.tile & 1:
        return None
    others = [v for t, v in first.own.items() if not tables.trump_mask >> t & 1]
    if others and max(others) + 5 <= first.own[first.tile]:
        return first
    return None


def fits_partner(trial: Trial) -> Move | None:
    for m in trial.moves:
        late = len(m.hand.trick) >= 2 and m.winner == 0
        if late and COUNT_VALUE[m.tile] and _unique(m) and _spread(m) >= 5:
            return m
    return None


def fits_set(trial: Trial) -> Move | None:
    for m in trial.moves:
        keeps = m.bidders[m.tile] < trial.bid
        gives = any(v >= trial.bid for v in m.bidders.values())
        if keeps and gives:
            return m
    return None


def fits_nello(trial: Trial) -> Move | None:
    result = trial.hand.result
    if result is None or not result.made:
        return None
    return next((m for m in trial.moves if _unique(m) and _spread(m) >= 1), None)


def fits_sevens(trial: Trial) -> Move | None:
    result = trial.hand.result
    if len(trial.moves) < 3 or result is None or not result.made:
        return None
    for m in trial.moves:
        held = m.hand.hands[LEARNER]
        if held.bit_count() >= 3 and m.hand.legal_mask() & held != held:
            return m
    return None


def fits_plunge(trial: Trial) -> Move | None:
    result = trial.hand.result
    return trial.moves[0] if result is not None and result.made and trial.moves else None


def four_doubles(deal: tuple[int, ...]) -> bool:
    doubles = sum(1 << t for t in range(28) if TILE_NAMES[t][0] == TILE_NAMES[t][2])
    return (deal[LEARNER] & doubles).bit_count() >= 4


def sevens_held(deal: tuple[int, ...]) -> bool:
    """The learner's side holds every tile of 7 pips (6-1, 5-2, 4-3), as a made Sevens mostly
    needs."""
    sevens = sum(1 << t for t in range(28) if int(TILE_NAMES[t][0]) + int(TILE_NAMES[t][2]) == 7)
    return (deal[LEARNER] | deal[0]) & sevens == sevens


def making(total: int) -> int | None:
    return min(total, 41) if total >= 30 else None


def exact(total: int) -> int | None:
    return total if 30 <= total <= 41 else None


def overbid(total: int) -> int | None:
    return total + 1 if 29 <= total <= 40 else None


@dataclass(frozen=True)
class Spec:
    name: str
    bidder: int
    bid_of: Callable[[int], int | None]
    fits: Callable[[Trial], Move | None]
    auto: int
    title: str
    summary: str
    intro: tuple[str, ...]
    teach: str
    teach_bid: str = ""
    rules: str = "standard"
    call: str | None = None
    """The learner's call, where the lesson is about a special bid (else a point bid)."""
    named: str | None = None
    """The contract named, where the lesson is about one (else the bidder's best trump)."""
    at_bid: bool = False
    """The point comes up at the learner's call (step 0), not at a play."""
    holds: Callable[[tuple[int, ...]], bool] | None = None
    """A cheap test of the deal before any search (the learner's doubles for a plunge)."""
    limit: int = LIMIT


SPECS = (
    Spec(
        "01-count",
        2,
        making,
        fits_count,
        5,
        "The count tiles",
        "Five tiles carry the points: win the tricks they fall in.",
        (
            (
                "A hand of 42 is worth 42 points: one for each of the seven tricks, and 35 on the count "
                "tiles. 5-5 and 6-4 count 10 each; 5-0, 4-1 and 3-2 count 5 each."
            ),
            (
                "You sit South and play with North against East and West. All four hands are shown: "
                "play your tiles, and the lesson tells you what each play is worth."
            ),
        ),
        "The side that wins a trick takes its count. Here the count decides which tile is best.",
    ),
    Spec(
        "02-follow",
        1,
        making,
        fits_follow,
        5,
        "Following suit",
        "When a suit is led, play one of that suit if you hold one.",
        (
            (
                "The first tile of a trick sets its suit. Every other player must play a tile of that "
                "suit if they hold one; only a player who holds none may play any tile."
            ),
        ),
        "A suit was led and you hold exactly one tile of it: the rules choose your play.",
    ),
    Spec(
        "03-ends",
        0,
        making,
        fits_ends,
        5,
        "Trump, and which end leads",
        "A tile led is of its higher end's suit, unless an end is trump.",
        (
            (
                "The bid winner names trump: a suit whose tiles beat every other tile. A tile led "
                "belongs to the suit of its higher end; a tile with a trump end is a trump and belongs "
                "to no other suit."
            ),
        ),
        "Look at which end of the led tile sets the suit: one of your tiles shares its other "
        "end, and that does not make it follow.",
    ),
    Spec(
        "04-doubles",
        2,
        making,
        fits_doubles,
        5,
        "Doubles",
        "A double is the highest tile of its suit.",
        (
            (
                "A double (6-6, 5-5 ... 0-0) belongs to one suit only, and it is the highest tile of "
                "it: the 4-4 beats every other four unless a trump is played."
            ),
        ),
        "A double is the top of its suit: play it to win this trick.",
    ),
    Spec(
        "05-bid",
        2,
        exact,
        fits_bid,
        0,
        "The auction: what a bid promises",
        "A bid of 34 promises that your side takes at least 34 of the 42 points.",
        (
            (
                "Each player bids once, from 30 points up, or passes. The highest bidder names trump "
                "and must take at least the points bid with their partner, or the bid is set and the "
                "other side scores. Here every hand is shown, so the lesson can say exactly what your "
                "side can take."
            ),
        ),
        "How many points can your side take with its best trump? Bid that many.",
        "Name the trump that takes the most points.",
    ),
    Spec(
        "06-pull-trump",
        2,
        making,
        fits_pull,
        5,
        "Pulling trump",
        "The bidder leads trumps first, to draw the other side's trumps.",
        (
            (
                "A trump the other side still holds can take one of your good tiles later. Leading "
                "trumps first makes everyone play theirs, and then your other tiles win."
            ),
        ),
        "Your lead: the solver values every lead, and a trump lead is worth the most.",
    ),
    Spec(
        "07-give-count",
        0,
        making,
        fits_partner,
        5,
        "Giving count to partner's trick",
        "When partner's tile will win the trick, put a count tile on it.",
        (
            (
                "Count tiles go to whoever wins the trick they are played in. When your partner's "
                "tile will win the trick, playing a count tile on it gives your side its points."
            ),
        ),
        "Your partner's tile wins this trick: give it count.",
    ),
    Spec(
        "08-set",
        1,
        overbid,
        fits_set,
        5,
        "Setting a contract",
        "Defending, you win by keeping the bidders short of their bid.",
        (
            (
                "When the other side wins the bid, your side's aim is to set them: to take enough "
                "points that they cannot reach their bid. 42 less their bid, plus one, is enough."
            ),
        ),
        "One tile here keeps the bid set; others let it make.",
    ),
    Spec(
        "09-nello",
        2,
        making,
        fits_nello,
        5,
        "Nel-O",
        "A bid to lose every trick: your partner sits out, and one trick taken sets it.",
        (
            (
                "Nel-O is a bid to lose every trick. The bidder's partner lays their tiles down "
                "and sits out, the bidder leads, and there is no trump; the bidder must take no "
                "trick at all, or the bid is set."
            ),
        ),
        "One tile here keeps you from taking a trick; another lets the other side make you "
        "take one.",
        rules="standard,nello=true",
        call="2m",
        named="nello",
    ),
    Spec(
        "10-plunge",
        2,
        making,
        fits_plunge,
        0,
        "Plunge",
        "With four doubles, bid 4 marks: your partner names trump and leads.",
        (
            (
                "A player holding four doubles or more may plunge before anyone has bid: a bid "
                "of 4 marks. Their partner names trump and leads, and the side must take all "
                "seven tricks."
            ),
        ),
        "You hold four doubles or more: with your partner's best trump, can your side take "
        "every trick?",
        rules="standard,plunge=true",
        call="plunge",
        at_bid=True,
        holds=four_doubles,
        limit=4000,
    ),
    Spec(
        "11-sevens",
        2,
        making,
        fits_sevens,
        5,
        "Sevens",
        "Everyone plays the tile closest to 7 pips; the closest wins the trick.",
        (
            (
                "In Sevens there is no suit to follow: every player, the leader too, must play a "
                "tile whose pips come closest to 7, the closest tile wins the trick (the first "
                "played on a tie), and the bidders must win every trick."
            ),
        ),
        "Count the pips: only the tiles closest to 7 may be played.",
        rules="standard,sevens=true",
        call="1m",
        named="sevens",
        holds=sevens_held,
        limit=4000,
    ),
)


def find(spec: Spec, solver: Solver, seed: int = 42) -> tuple[Trial, Move]:
    """The lesson's deal: among the first `TRIES` that fit, the one with fewest tied moves."""
    rng = random.Random(f"{seed}:{spec.name}")
    rules = Rules.parse(spec.rules)
    found: list[tuple[int, int, Trial, Move]] = []
    for k in range(spec.limit):
        deal = tuple(Hand.random(rules, SHAKER, rng).deal)
        if spec.holds is not None and not spec.holds(deal):
            continue
        trial = play_out(solver, deal, spec.bidder, spec.bid_of, rules, spec.call, spec.named)
        if trial is None or not trial.moves:
            continue
        move = spec.fits(trial)
        if move is None:
            continue
        ties = sum(1 for m in trial.moves if not _unique(m))
        found.append((ties, k, trial, move))
        if len(found) >= TRIES:
            break
    if not found:
        raise SystemExit(f"{spec.name}: no deal of {spec.limit} fits")
    _, _, trial, move = min(found, key=lambda f: (f[0], f[1]))
    return trial, move


def lesson_file(spec: Spec, trial: Trial, move: Move) -> dict[str, Any]:
    hand = trial.hand
    played = HandRecord(
        shaker=SHAKER,
        deal=tuple(hand.deal),
        auction=tuple(trial.calls),
        contract=trial.contract,
        play=tuple(hand.plays),
    )
    out = Record(hand.rules, (played,)).to_dict()
    teach = {str(move.step): spec.teach}
    if spec.at_bid:
        teach = {"0": spec.teach}
    if spec.teach_bid:
        teach = {"0": spec.teach, str(len(trial.calls)): spec.teach_bid}
    out["lesson"] = {
        "title": spec.title,
        "summary": spec.summary,
        "seat": LEARNER,
        "auto": spec.auto,
        "intro": list(spec.intro),
        "teach": teach,
    }
    return out


def main(argv: list[str]) -> int:
    folder = Path(argv[0]) if argv else Path(__file__).parent / "data" / "lessons"
    folder.mkdir(parents=True, exist_ok=True)
    solver = Solver()
    only = set(argv[1:])
    for spec in SPECS:
        if only and spec.name not in only:
            continue
        trial, move = find(spec, solver)
        text = json.dumps(lesson_file(spec, trial, move), indent=1) + "\n"
        (folder / f"{spec.name}.json").write_text(text, "utf-8")
        print(f"{spec.name}: step {move.step}, {len(trial.moves)} moves", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
