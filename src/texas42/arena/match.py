"""One duplicate pair: a deal seed played twice, bot A sitting North-South and then East-West.

`run_match` is the one pure function every executor maps over `MatchSpec` values: it makes its
own bots, plays both games and returns plain numbers (and, when asked, the records as JSON text),
so it runs the same in this process, in a process pool or on a Ray cluster.

Both games of a pair see the same deals seat by seat: a `Game` draws its first shaker and every
deal from its own random source seeded by the deal seed, and nothing else draws from it, so two
games with the same seed get the same deals hand by hand for as long as both last. A single hand
(``hands=True``) is dealt once from the seed and given to both games. Each seat's bot is seeded by
the deal seed and the seat, not by which bot sits there, so a bot against itself plays the same
game twice and the pair scores exactly 0.

An outside engine (``engine:CMD``) that fails during a game (no answer in time, an illegal or
unreadable answer, a crash) forfeits it: its side loses the game, whose score is the score so far
with the winners' raised to the game's target (a single hand: the winners score its stake, the
marks bid or one mark, 42 points in a points game), and the reason is kept in the result.
"""

from __future__ import annotations

import dataclasses
import hashlib
import random
from dataclasses import dataclass

from texas42.bots import Bot, make_bot
from texas42.errors import IllegalActionError
from texas42.game import Game
from texas42.hand import SEATS, Hand
from texas42.protocol.client import EngineError
from texas42.record import record_from_game
from texas42.rules import Rules


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


@dataclass(frozen=True, slots=True)
class GameResult:
    """One game (or single hand) of a pair, by team: team 0 is North-South.

    ``score`` is the final total, never capped; ``bids`` counts the hands each team won the
    auction and ``made`` those it made. ``winner`` is None for a single hand both teams scored
    the same on (everyone passed, under the reshake rule). ``forfeit`` says why the losing
    side forfeited the game (its engine failed), or is None.
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
    def margin(self) -> int:
        """A's score minus B's."""
        return self.score[self.a_team] - self.score[1 - self.a_team]

    @property
    def a_won(self) -> bool | None:
        return None if self.winner is None else self.winner == self.a_team


@dataclass(frozen=True, slots=True)
class MatchResult:
    """Both games of a pair, A North-South first."""

    spec: MatchSpec
    games: tuple[GameResult, GameResult]

    @property
    def margin(self) -> float:
        """A's score minus B's per game, over the pair: the duplicate score, luck cancelled."""
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
    """Play the pair: the same deals with A North-South, then with A East-West."""
    return MatchResult(spec, (_play(spec, 0), _play(spec, 1)))


def _seat_bots(spec: MatchSpec, a_team: int) -> list[Bot]:
    """A bot for each seat, seeded by the deal seed and the seat; when A and B are the same bot
    their names get an A and a B, so records tell the sides apart."""
    bots = []
    for seat in range(SEATS):
        bot_spec = spec.bot_a if seat % 2 == a_team else spec.bot_b
        bots.append(make_bot(bot_spec, spec.seed * SEATS + seat))
    a, b = bots[a_team], bots[1 - a_team]
    if a.name == b.name:
        for seat, bot in enumerate(bots):
            bot.name = f"{bot.name} {'A' if seat % 2 == a_team else 'B'}"
    return bots


def _new_game(spec: MatchSpec) -> Game:
    if not spec.hands:
        return Game(spec.rules, spec.seed)
    rng = random.Random(spec.seed)
    shaker = rng.randrange(SEATS)
    deal = Hand.random(spec.rules, shaker, rng).deal
    return Game(spec.rules, spec.seed, first_shaker=shaker, deals=[deal])


def _play(spec: MatchSpec, a_team: int) -> GameResult:
    bots = _seat_bots(spec, a_team)
    try:
        return _play_game(spec, a_team, bots)
    finally:
        for bot in bots:
            close = getattr(bot, "close", None)
            if close is not None:  # an engine's process ends with its game
                close()


def _play_game(spec: MatchSpec, a_team: int, bots: list[Bot]) -> GameResult:
    game = _new_game(spec)
    forfeit: tuple[int, str] | None = None
    while not game.is_over() and not (spec.hands and game.results):
        seat = game.seat_to_act()
        assert seat is not None
        bot = bots[seat]
        try:
            action = bot.choose(game.view(seat))
        except EngineError as exc:
            side = "A" if seat % 2 == a_team else "B"
            forfeit = (seat % 2, f"{side} forfeits at seat {seat}: {exc}")
            break
        try:
            game.apply(action)
        except IllegalActionError as exc:
            raise IllegalActionError(f"{bot.name} at seat {seat} chose {action}: {exc}") from None
    results = game.results[:1] if spec.hands else game.results
    bids = [0, 0]
    made = [0, 0]
    for result in results:
        if result.bidder is not None:
            bids[result.bidder % 2] += 1
            made[result.bidder % 2] += bool(result.made)
    if forfeit is not None:
        winner: int | None = 1 - forfeit[0]
        score = _forfeit_score(spec, game, 1 - forfeit[0])
    elif spec.hands:
        score = results[0].score
        winner = None if score[0] == score[1] else int(score[1] > score[0])
    else:
        outcome = game.outcome()
        assert outcome is not None
        score, winner = game.score, outcome.winner
    record = None
    if spec.records:
        seats = [bot.name for bot in bots]
        full = record_from_game(game, seats)
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


def _forfeit_score(spec: MatchSpec, game: Game, winner: int) -> tuple[int, ...]:
    """The score of a forfeited game: the score so far with the winners' raised to the target;
    of a forfeited single hand: its stake to the winners."""
    rules = spec.rules
    if spec.hands:
        score = [0, 0]
        score[winner] = 42 if rules.game == "points" else max(1, game.hands[-1].bid_marks)
    else:
        score = list(game.score)
        score[winner] = max(score[winner], rules.winning_target)
    return (score[0], score[1])
