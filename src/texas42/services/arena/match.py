"""One duplicate pair: a deal seed played twice, the bots' seats swapped between the games.

Sides (what a score belongs to: a team, or a player alone) are numbered round the table from
North's. In the first game of a pair bot A holds the even sides and bot B the odd ones; in the
second, the other way round. At four seats that is A North-South, then A East-West; at six in
pairs A holds two of the three teams, then one; with players alone A sits at every other seat
(North, East, West... at three: North and West, then East). So every seat's cards are played
once by each bot, and each game of a pair is the mirror of the other with the bots' names
swapped. The figure is per side: A's mean score over the sides it holds minus B's.

`run_match` is the one pure function every executor maps over `MatchSpec` values: it makes its
own bots, plays both games and returns plain numbers (and, when asked, the records as JSON text),
so it runs the same in this process, in a process pool or on a Ray cluster.

Both games of a pair see the same deals seat by seat: a `Game` draws its first shaker and every
deal (and widow) from its own random source seeded by the deal seed, and nothing else draws from
it, so two games with the same seed get the same deals hand by hand for as long as both last. A
single hand (``hands=True``) is dealt once from the seed and given to both games. Each seat's bot
is seeded by the deal seed and the seat, not by which bot sits there, so a bot against itself
plays the same game twice and the pair scores exactly 0.

An outside engine (``engine:CMD``) that fails during a game (no answer in time, an illegal or
unreadable answer, a crash) forfeits it: its bot's sides lose the game, whose score is the score
so far with the other bot's sides raised to the game's target (a single hand: they score its
stake, the marks bid or one mark, the hand's total in a points or Moon game), and the reason is
kept in the result.
"""

from __future__ import annotations

import dataclasses
import hashlib
import random
from dataclasses import dataclass

from texas42.core.errors import IllegalActionError, Texas42Error
from texas42.core.game import Game
from texas42.core.hand import Hand
from texas42.core.layout import Layout, layout_of
from texas42.core.reason_log import ReasonLog
from texas42.core.record import record_from_game
from texas42.core.rules import Rules
from texas42.players import Bot
from texas42.players.reasons import decide
from texas42.services.protocol import close_bot, make_bot
from texas42.services.protocol.host import EngineError

MAX_HANDS = 300
"""Hands a game of the arena may last. Marks games end in about ten, but in Moon a bidder who is
set loses the bid, so bots that keep overbidding can drift below zero for ever."""


@dataclass(frozen=True, slots=True)
class MatchSpec:
    """What `run_match` plays: two bot specs, the rules, a deal seed, whole games or one hand."""

    bot_a: str
    bot_b: str
    rules: Rules
    seed: int
    index: int = 0
    hands: bool = False
    records: bool = False


def sides_held(sides: int, parity: int) -> tuple[int, ...]:
    """The sides a bot holds in the game of a pair where it holds ``parity``: every other side
    round the table, from side ``parity`` (at four seats 0 is North-South, 1 East-West)."""
    return tuple(range(parity, sides, 2))


@dataclass(frozen=True, slots=True)
class GameResult:
    """One game (or single hand) of a pair, by side (`texas42.core.layout`).

    A holds the sides of parity ``a_team`` (0: sides 0, 2..., at four seats North-South) and B
    the others. ``score`` is the final total, one entry per side, never capped; ``bids`` counts
    the hands the even sides and the odd sides won the auction, ``made`` those they made.
    ``winner`` is the side that won the game, or of a single hand the side that scored the most;
    None for a single hand whose top score is shared (everyone passed under the reshake rule,
    say). ``forfeit`` says why the losing bot forfeited the game (its engine failed), or is None.
    """

    a_team: int
    score: tuple[int, ...]
    winner: int | None
    hands: int
    bids: tuple[int, int]
    made: tuple[int, int]
    record: str | None = None
    forfeit: str | None = None

    @property
    def margin(self) -> float:
        """A's mean score over its sides minus B's (at four seats, A's score minus B's)."""
        a = self.score[self.a_team :: 2]
        b = self.score[1 - self.a_team :: 2]
        return sum(a) / len(a) - sum(b) / len(b)

    @property
    def a_won(self) -> bool | None:
        return None if self.winner is None else self.winner % 2 == self.a_team


@dataclass(frozen=True, slots=True)
class MatchResult:
    """Both games of a pair, A holding the even sides first."""

    spec: MatchSpec
    games: tuple[GameResult, GameResult]

    @property
    def margin(self) -> float:
        """A's margin per game over the pair: the duplicate score, luck cancelled."""
        return (self.games[0].margin + self.games[1].margin) / 2

    @property
    def a_wins(self) -> int:
        return sum(game.a_won is True for game in self.games)

    @property
    def decided(self) -> int:
        """Games with a winner (all of them, in whole games)."""
        return sum(game.a_won is not None for game in self.games)


def deal_seed(seed: int, index: int) -> int:
    """The deal seed of pair ``index`` in a match seeded ``seed``: 48 bits of a hash, so nearby
    match seeds share no deals and every pairing of a ladder plays the same ones."""
    digest = hashlib.blake2b(f"texas42-arena:{seed}:{index}".encode(), digest_size=6).digest()
    return int.from_bytes(digest, "big")


def match_specs(
    bot_a: str,
    bot_b: str,
    rules: Rules,
    pairs: int,
    seed: int = 0,
    *,
    hands: bool = False,
    records: bool = False,
) -> list[MatchSpec]:
    """The specs of a duplicate match of ``pairs`` pairs."""
    return [
        MatchSpec(bot_a, bot_b, rules, deal_seed(seed, i), i, hands, records) for i in range(pairs)
    ]


def run_match(spec: MatchSpec) -> MatchResult:
    """Play the pair: the same deals with A on the even sides, then on the odd ones."""
    return MatchResult(spec, (_play(spec, 0), _play(spec, 1)))


def _seat_bots(spec: MatchSpec, layout: Layout, a_team: int) -> list[Bot]:
    """A bot for each seat, seeded by the deal seed and the seat; when A and B are the same bot
    their names get an A and a B, so records tell the sides apart."""
    seats = layout.seats
    is_a = [layout.side_of[seat] % 2 == a_team for seat in range(seats)]
    bots = [
        make_bot(spec.bot_a if is_a[seat] else spec.bot_b, spec.seed * seats + seat)
        for seat in range(seats)
    ]
    a, b = bots[is_a.index(True)], bots[is_a.index(False)]
    if a.name == b.name:
        for seat, bot in enumerate(bots):
            bot.name = f"{bot.name} {'A' if is_a[seat] else 'B'}"
    return bots


def _new_game(spec: MatchSpec, layout: Layout) -> Game:
    if not spec.hands:
        return Game(spec.rules, spec.seed)
    rng = random.Random(spec.seed)
    shaker = rng.randrange(layout.seats)
    hand = Hand.random(spec.rules, shaker, rng)
    return Game(spec.rules, spec.seed, first_shaker=shaker, deals=[hand.deal], widows=[hand.widow])


def _play(spec: MatchSpec, a_team: int) -> GameResult:
    layout = layout_of(spec.rules)
    bots = _seat_bots(spec, layout, a_team)
    try:
        return _play_game(spec, layout, a_team, bots)
    finally:
        for bot in bots:
            close_bot(bot)  # an engine's process ends with its game


def _play_game(spec: MatchSpec, layout: Layout, a_team: int, bots: list[Bot]) -> GameResult:
    game = _new_game(spec, layout)
    forfeit: tuple[int, str] | None = None
    reasons = ReasonLog()
    while not game.is_over() and not (spec.hands and game.results):
        if len(game.hands) > MAX_HANDS:
            raise Texas42Error(
                f"a game of {spec.bot_a} and {spec.bot_b} went {MAX_HANDS} hands without a winner "
                f"(score {_score_text(game.score)}); measure single hands with --hands"
            )
        seat = game.seat_to_act()
        assert seat is not None
        bot = bots[seat]
        try:
            decision = decide(bot, game.view(seat))
            action = decision.action
        except EngineError as exc:
            parity = layout.side_of[seat] % 2
            forfeit = (parity, f"{'A' if parity == a_team else 'B'} forfeits at seat {seat}: {exc}")
            break
        reasons.add(game, seat, decision.reason)
        try:
            game.apply(action)
        except IllegalActionError as exc:
            raise IllegalActionError(f"{bot.name} at seat {seat} chose {action}: {exc}") from None
    results = game.results[:1] if spec.hands else game.results
    bids = [0, 0]
    made = [0, 0]
    for result in results:
        if result.bidder is not None:
            parity = layout.side_of[result.bidder] % 2
            bids[parity] += 1
            made[parity] += bool(result.made)
    winner: int | None
    if forfeit is not None:
        winner = 1 - forfeit[0]
        score = _forfeit_score(spec, game, winner)
    elif spec.hands:
        score = results[0].score
        best = max(score)
        winner = score.index(best) if score.count(best) == 1 else None
    else:
        outcome = game.outcome()
        assert outcome is not None
        score, winner = game.score, outcome.winner
    record = None
    if spec.records:
        seats = [bot.name for bot in bots]
        full = record_from_game(game, seats, reasons.by_hand())
        if forfeit is None:  # a forfeited game keeps the hand it stopped in
            full = dataclasses.replace(full, hands=full.hands[: len(results)])
        record = full.to_json()
    return GameResult(
        a_team,
        score,
        winner,
        len(game.hands) if forfeit is not None else len(results),
        (bids[0], bids[1]),
        (made[0], made[1]),
        record,
        forfeit[1] if forfeit is not None else None,
    )


def _score_text(score: tuple[int, ...]) -> str:
    return "-".join(map(str, score)) if len(score) == 2 else ":".join(map(str, score))


def _forfeit_score(spec: MatchSpec, game: Game, parity: int) -> tuple[int, ...]:
    """The score of a game forfeited to the sides of ``parity``: the score so far with theirs
    raised to the target; of a forfeited single hand: its stake to each of them."""
    rules = spec.rules
    if spec.hands:
        stake = max(1, game.hands[-1].bid_marks) if rules.game == "marks" else game.layout.total
        score = [0] * game.layout.sides
        for side in sides_held(len(score), parity):
            score[side] = stake
    else:
        score = list(game.score)
        for side in sides_held(len(score), parity):
            score[side] = max(score[side], rules.winning_target)
    return tuple(score)
