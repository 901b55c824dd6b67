"""One self-play game: the real game with one bot at every seat, and for every hand the
counterfactual play-outs of every contract each seat could have named (format
``texas42-selfplay/1``, `texas42.services.selfplay.store`).

`play_selfplay` is the one pure function the executors map over `SelfPlaySpec` values (the
arena's plumbing, `texas42.services.arena.run.map_specs`): it makes its own bots, plays, and
returns `GameData`, plain lists of numbers keyed by the format's column names, so it runs the same
here, in a process pool or on a Ray cluster.

The play-outs: the same deal played from the start with every other seat passing and the bidder
winning the auction at the lowest call that allows the contract, declaring it (after a plunge or
splash its partner names the trump), and the hand played by the ``playout`` bots. A marks hand
ends as soon as its bid is decided; a play-out goes on to the last trick, so its points and tricks
serve every bid from 30 to 42: once the hand is decided, the same actions are replayed on the
same deal under the rules with ``game=points`` (which plays every trick) and the play goes on
there. Whether the contract was made is the real rules' verdict, given when the hand decided it.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from texas42.core.actions import ACTIONS, PASS_ID, PLUNGE_ID, SPLASH_ID, Declare
from texas42.core.auction import call_value, legal_calls, legal_declarations
from texas42.core.contracts import Contract
from texas42.core.errors import IllegalActionError, Texas42Error
from texas42.core.game import Game
from texas42.core.hand import Hand
from texas42.core.progress import Phase
from texas42.core.rules import Rules
from texas42.players import Bot
from texas42.players.pimc import PimcBot, PimcSettings, _opening_view
from texas42.players.rules_bot import candidate_contracts
from texas42.services.arena.match import MAX_HANDS
from texas42.services.protocol import close_bot, make_bot

Columns = dict[str, list[Any]]

DEFAULT_PLAYOUT = "expert:objective=points,samples=24,value_samples=24"
"""The play-outs' bot when none is named: the expert playing for the expected points over all
its 24 play deals (as it played when this was measured; the expert itself now draws 48), so a
play-out's total serves every bid of the contract and is played about as the expert plays
(docs/selfplay.md has the figures behind the choice)."""


@dataclass(frozen=True, slots=True)
class SelfPlaySpec:
    """What `play_selfplay` plays: the bot at every seat of the real game, the bot of the
    play-outs, the rules (and their index in the run's list), the game's deal seed and index,
    and the deals drawn for the double-dummy figures."""

    bot: str
    playout: str
    rules: Rules
    seed: int
    index: int
    bid_samples: int
    rules_index: int = 0


@dataclass(frozen=True, slots=True)
class GameData:
    """One game's rows: ``columns`` maps each column of the format to its values, one per row
    (a list of numbers for the columns that have a width)."""

    index: int
    columns: Columns


def check_selfplay_rules(rules: Rules) -> None:
    """Self-play data covers four-seat marks games without a widow: refuse anything else."""
    layout = rules.layout
    if layout.seats != 4 or layout.sides != 2:
        raise Texas42Error(
            f"self-play data is for four seats in two teams, not {rules} ({layout.seats} seats)"
        )
    if rules.game != "marks":
        raise Texas42Error(f"self-play data is for marks games, not a {rules.game} game ({rules})")
    if rules.widow:
        raise Texas42Error(f"self-play data is for games without a widow ({rules})")


def play_selfplay(spec: SelfPlaySpec) -> GameData:
    """Play one game to its target with ``spec.bot`` at every seat (seeded as the arena seeds
    them), and every hand's play-outs with ``spec.playout``; the rows of all four tables."""
    check_selfplay_rules(spec.rules)
    seats = spec.rules.layout.seats
    bots = [make_bot(spec.bot, spec.seed * seats + seat) for seat in range(seats)]
    players = [make_bot(spec.playout, spec.seed * seats + seat) for seat in range(seats)]
    judges = [
        PimcBot(PimcSettings(bid_samples=spec.bid_samples), spec.seed * seats + seat)
        for seat in range(seats)
    ]
    try:
        game = _play_game(spec, bots)
        columns: Columns = {}
        befores = [game.start_score, *game.score_history()]
        for number, (hand, result) in enumerate(zip(game.hands, game.results, strict=True)):
            _record_hand(spec, columns, number, hand, result.score, befores[number])
            for seat in range(seats):
                _record_contracts(spec, columns, number, hand, seat, befores[number], players)
                _record_chances(spec, columns, number, hand, seat, befores[number], judges[seat])
        outcome = game.outcome()
        assert outcome is not None
        _add(
            columns,
            games_game=spec.index,
            games_seed=spec.seed,
            games_winner=outcome.winner,
            games_hands=len(game.hands),
        )
        return GameData(spec.index, columns)
    finally:
        for bot in (*bots, *players):
            close_bot(bot)


def _play_game(spec: SelfPlaySpec, bots: list[Bot]) -> Game:
    game = Game(spec.rules, spec.seed)
    while not game.is_over():
        if len(game.hands) > MAX_HANDS:
            raise Texas42Error(
                f"a self-play game of {spec.bot} went {MAX_HANDS} hands without a winner"
            )
        seat = game.seat_to_act()
        assert seat is not None
        action = bots[seat].choose(game.view(seat))
        try:
            game.apply(action)
        except IllegalActionError as exc:
            raise IllegalActionError(f"{spec.bot} at seat {seat} chose {action}: {exc}") from None
    return game


def _add(columns: Columns, **values: Any) -> None:
    for name, value in values.items():
        columns.setdefault(name, []).append(value)


def _by_side(score: tuple[int, ...], side: int) -> list[int]:
    """A two-side score as (this side's, the other's)."""
    return [score[side], score[1 - side]]


def _record_hand(
    spec: SelfPlaySpec,
    columns: Columns,
    number: int,
    hand: Hand,
    gained: tuple[int, ...],
    before: tuple[int, ...],
) -> None:
    result = hand.summary()
    layout = hand.layout
    bidder = hand.high_seat
    played = bidder is not None
    declare = Declare(hand.contract).id if hand.contract is not None else -1
    _add(
        columns,
        hands_game=spec.index,
        hands_hand=number,
        hands_rules=spec.rules_index,
        hands_shaker=hand.shaker,
        hands_dealt=list(hand.deal),
        hands_score=list(before),
        hands_bidder=-1 if bidder is None else bidder,
        hands_bid=-1 if hand.high_id is None else hand.high_id,
        hands_declare=declare,
        hands_points=list(result.points),
        hands_marks=list(gained),
        hands_made=-1 if not played else int(bool(result.made)),
    )
    seat = hand.first_bidder
    for position, action in enumerate(hand.calls):
        side = layout.side_of[seat]
        before_calls = hand.calls[:position][-3:]
        won = played and layout.side_of[bidder] == side  # type: ignore[index]
        _add(
            columns,
            calls_game=spec.index,
            calls_hand=number,
            calls_rules=spec.rules_index,
            calls_seat=seat,
            calls_position=position,
            calls_dealt=hand.deal[seat],
            calls_before=before_calls + [-1] * (3 - len(before_calls)),
            calls_score=_by_side(before, side),
            calls_action=action,
            calls_won=won,
            calls_marks=gained[side] - gained[1 - side],
            calls_points=result.points[side] if played else -1,
        )
        seat = (seat + 1) % layout.seats


def contract_calls(rules: Rules, hand: Hand, seat: int) -> list[tuple[int, Contract | None]]:
    """The play-outs of ``seat`` in this deal: (call, contract) for each contract of
    `candidate_contracts` at the lowest call that allows it, then plunge and splash (contract None: the
    partner names it) when the seat may call them with every seat before it passing."""
    before = (seat - hand.first_bidder) % rules.layout.seats
    legal = legal_calls(rules, before, None, 0, hand.deal[seat])
    calls = [aid for aid in range(len(ACTIONS)) if legal >> aid & 1 and aid != PASS_ID]
    plain = [aid for aid in calls if aid not in (PLUNGE_ID, SPLASH_ID)]
    plain.sort(key=lambda aid: call_value(rules, aid, 0)[1])
    out: list[tuple[int, Contract | None]] = []
    for contract in candidate_contracts(rules, hand.deal[seat]):
        declare = Declare(contract).id
        for aid in plain:
            marks = call_value(rules, aid, 0)[0]
            if legal_declarations(rules, aid, marks) >> declare & 1:
                out.append((aid, contract))
                break
    out.extend((aid, None) for aid in (PLUNGE_ID, SPLASH_ID) if aid in calls)
    return out


def _record_contracts(
    spec: SelfPlaySpec,
    columns: Columns,
    number: int,
    real: Hand,
    seat: int,
    before: tuple[int, ...],
    players: list[Bot],
) -> None:
    side = real.layout.side_of[seat]
    for call, contract in contract_calls(spec.rules, real, seat):
        declare, made, points, tricks = play_out(spec.rules, real, seat, call, contract, players)
        _add(
            columns,
            contracts_game=spec.index,
            contracts_hand=number,
            contracts_rules=spec.rules_index,
            contracts_seat=seat,
            contracts_dealt=real.deal[seat],
            contracts_score=_by_side(before, side),
            contracts_bid=call,
            contracts_declare=declare,
            contracts_points=points[side],
            contracts_tricks=tricks[side],
            contracts_made=made,
        )


def play_out(
    rules: Rules,
    real: Hand,
    seat: int,
    call: int,
    contract: Contract | None,
    players: list[Bot],
) -> tuple[int, bool, tuple[int, ...], tuple[int, ...]]:
    """Play ``real``'s deal with ``seat`` winning the auction by ``call`` and naming
    ``contract`` (None: a plunge or splash, its partner's bot names it), every other seat
    passing, to the last trick; the contract's `Declare` id, whether it was made, and the points
    and tricks of each side over all the tricks."""
    hand = Hand(rules, real.shaker, real.deal)
    done: list[int] = []

    def apply(aid: int) -> None:
        hand.apply(aid)
        done.append(aid)

    while hand.phase == Phase.AUCTION:
        apply(call if hand.turn == seat else PASS_ID)
    declarer = hand.turn
    if contract is not None:
        apply(Declare(contract).id)
    else:
        apply(players[declarer].choose(hand.view(declarer)).id)
    declare = done[-1]
    tricks = rules.layout.tricks
    while not hand.is_over:
        apply(players[hand.turn].choose(hand.view(hand.turn)).id)
    assert hand.result is not None
    made = bool(hand.result.made)
    if len(hand.tricks) < tricks:
        hand = _played_on(rules, real, done)
        while not hand.is_over:
            hand.apply(players[hand.turn].choose(hand.view(hand.turn)))
    return declare, made, hand.points, hand.tricks_won


def _played_on(rules: Rules, real: Hand, done: list[int]) -> Hand:
    """The same deal and actions under the rules of a points game, which plays every trick."""
    hand = Hand(dataclasses.replace(rules, game="points"), real.shaker, real.deal)
    for aid in done:
        hand.apply(aid)
    return hand


def _record_chances(
    spec: SelfPlaySpec,
    columns: Columns,
    number: int,
    real: Hand,
    seat: int,
    before: tuple[int, ...],
    judge: PimcBot,
) -> None:
    """The double-dummy figures of the seat's play-outs, in their order: `contract_chances` on
    the seat's opening view (-1 padding; plunge and splash have none)."""
    start = Hand(spec.rules, real.shaker, real.deal)
    view = _opening_view(start.view(seat, before, number + 1))
    chances = judge.contract_chances(view)
    width = spec.bid_samples
    for _call, contract in contract_calls(spec.rules, real, seat):
        values = [value for value, _weight in chances[contract]] if contract is not None else []
        values = [round(v) for v in values[:width]]
        _add(columns, contracts_dd=values + [-1] * (width - len(values)))
