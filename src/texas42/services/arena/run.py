"""Running matches: the executors that map `run_match` over specs, and the match and ladder
drivers that read the results in order and sum them up.

Results are always consumed in the order of the specs, whatever finishes first, and the SPRT
looks at them only there, so the same command gives the same numbers with one worker, eight, or
a Ray cluster. Ray and the process pool are only two ways of calling `run_match`.
"""

from __future__ import annotations

import contextlib
import importlib
import itertools
import os
import re
import signal
import sys
import threading
import time
import traceback
from collections import deque
from collections.abc import Callable, Generator, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from texas42.core.errors import Texas42Error
from texas42.core.rules import Rules
from texas42.extras import extra_error
from texas42.services.arena.match import MatchResult, MatchSpec, match_specs, run_match
from texas42.services.arena.stats import (
    Decision,
    Estimate,
    Proportion,
    Ratings,
    Sprt,
    bradley_terry,
    mean_ci,
    wilson,
)
from texas42.services.protocol import EngineBot, make_bot

AHEAD = 4
"""Matches queued per worker beyond the ones running: enough to keep workers busy, few enough
that an SPRT stop wastes little."""

LADDER_PRIOR = 0.5
"""Virtual wins each way per ladder pairing: one drawn game, so a bot that won every game still
gets a finite rating."""

Progress = Callable[[MatchResult], None]


# -- executors ------------------------------------------------------------------------------


def import_ray() -> Any:
    """The ray module, or a clear error naming the extra that brings it."""
    try:
        return importlib.import_module("ray")
    except ImportError as exc:
        raise extra_error(exc, "--ray") from None


_REFUSED_TOKEN = re.compile(r"authenticat|auth.?token", re.IGNORECASE)
"""What Ray's errors say when the cluster refuses a missing or wrong token (``AuthenticationError:
... Authentication token is missing or incorrect``, ``Unauthenticated``)."""


def _why_ray_cannot_join(exc: BaseException) -> str:
    """Ray's failure to join, in words that say what to do. Ray reports a refused token as a
    ``ConnectionError`` that names only the address, raised from the error that says why; and
    ``ray start --head`` turns token authentication on whenever ``~/.ray/auth_token`` exists (an
    earlier ``ray.init()`` writes it), while a process joining by address sends the token only
    with ``RAY_AUTH_MODE=token``."""
    chain: list[BaseException] = []
    cause: BaseException | None = exc
    while cause is not None and cause not in chain:
        chain.append(cause)
        cause = cause.__cause__ or cause.__context__
    refused = any(
        type(e).__name__ == "AuthenticationError" or _REFUSED_TOKEN.search(str(e)) for e in chain
    )
    if not refused:
        return f"cannot join the cluster: {exc}"
    where = "in ~/.ray/auth_token, in a file named by RAY_AUTH_TOKEN_PATH, or in RAY_AUTH_TOKEN"
    mode = os.environ.get("RAY_AUTH_MODE")
    if (mode or "").lower() != "token":
        here = f"RAY_AUTH_MODE is {mode!r}" if mode else "RAY_AUTH_MODE is not set"
        return (
            "cannot join the cluster: it asks for a token (token authentication, which "
            f"`ray start --head` turns on when ~/.ray/auth_token exists), and {here} here, so "
            f"none was sent: set RAY_AUTH_MODE=token, with the cluster's token {where} "
            "(`ray get-auth-token` on the head node prints it)"
        )
    return (
        "cannot join the cluster: it refused this machine's token (RAY_AUTH_MODE=token): put the "
        f"cluster's token {where} (`ray get-auth-token` on the head node prints it)"
    )


Results = Generator[MatchResult, None, None]
S = TypeVar("S")
R = TypeVar("R")


def map_matches(
    specs: Sequence[MatchSpec], workers: int = 1, ray_address: str | None = None
) -> Results:
    """`run_match` over the specs, results in spec order: here, in a process pool of ``workers``,
    or on the Ray cluster at ``ray_address`` (``local`` starts one on this machine).

    Closing the iterator early cancels the matches not yet started.
    """
    return map_specs(run_match, specs, workers, ray_address)


def map_specs(
    run: Callable[[S], R], specs: Sequence[S], workers: int = 1, ray_address: str | None = None
) -> Generator[R, None, None]:
    """Any picklable pure function ``run`` over picklable specs, results in spec order, by the
    executors of `map_matches` (which is this with `run_match`)."""
    if workers < 1:
        raise Texas42Error(f"work needs one process or more, not {workers}")
    if ray_address is not None:
        return _ray_map(run, specs, ray_address)
    if workers > 1:
        return _pool_map(run, specs, workers)
    return (run(spec) for spec in specs)


def _pool_map(run: Callable[[S], R], specs: Sequence[S], workers: int) -> Generator[R, None, None]:
    """`map_specs` over worker processes, each with a pipe of its own.

    Not `concurrent.futures.ProcessPoolExecutor`: its workers share one result pipe, and a
    worker ended while it writes a result (Ctrl-C ends them at once) leaves half a message that
    the pool's reader waits on for ever, so the run never stops. Here a worker ended mid-write
    loses only its own pipe. Results come back in spec order, at most `AHEAD` per worker waiting
    beyond the next one due. Closed early (an SPRT stop, Ctrl-C) the workers are ended at once,
    and the pairs under way are lost with them."""
    import multiprocessing
    from multiprocessing.connection import wait

    pool: list[_Worker] = []
    todo = enumerate(specs)
    done: dict[int, R] = {}
    due = 0
    window = workers * AHEAD

    def feed(worker: _Worker) -> None:
        for index, spec in itertools.islice(todo, 1):
            worker.give(index, spec)

    finished = False
    try:
        for _ in range(min(workers, len(specs))):
            pool.append(_Worker(multiprocessing.get_context(), run))
            feed(pool[-1])
        while due < len(specs):
            while due not in done:
                ready = wait([w.pipe for w in pool if w.busy] + [w.process.sentinel for w in pool])
                for worker in pool:
                    if worker.pipe in ready and worker.busy:
                        index, result = worker.take()
                        done[index] = result
                        if len(done) < window:
                            feed(worker)
                    elif worker.process.sentinel in ready:
                        raise worker.died()
            result = done.pop(due)
            due += 1
            for worker in pool:  # a worker held back by the window goes on
                if not worker.busy and len(done) < window:
                    feed(worker)
            yield result
        finished = True
    finally:
        _stop(pool, finished)


class _Worker:
    """One process of `_pool_map` and its pipe; ``busy`` while it holds a spec."""

    def __init__(self, context: Any, run: Callable[[Any], Any]) -> None:
        self.pipe, theirs = context.Pipe()
        self.busy = False
        self.process = context.Process(target=_work, args=(run, theirs, self.pipe), daemon=True)
        self.process.start()
        theirs.close()

    def give(self, index: int, spec: Any) -> None:
        try:
            self.pipe.send((index, spec))
        except OSError:
            raise self.died() from None
        self.busy = True

    def take(self) -> tuple[int, Any]:
        """The result of the spec it held; a failure in the worker is raised here."""
        try:
            index, ok, value = self.pipe.recv()
        except (EOFError, OSError):
            raise self.died() from None
        self.busy = False
        if not ok:
            error, trace = value
            raise error from _WorkerTraceback(trace)
        return index, value

    def died(self) -> Texas42Error:
        """What to say of a worker that ended on its own (killed, or out of memory)."""
        self.process.join(timeout=10)
        return Texas42Error(f"a worker process ended with exit code {self.process.exitcode}")


class _WorkerTraceback(Exception):
    """Where in the worker a failure raised in the parent happened: its traceback's text."""


def _stop(pool: list[_Worker], gently: bool) -> None:
    """Gently (every spec done): each worker told to stop. Otherwise (closed early, Ctrl-C, a
    failure) all are ended at once, and what they were doing is lost; an ended worker still
    runs its ``finally`` blocks (`_work`), so the outside engines it started are closed."""
    for worker in pool:
        if gently and not worker.busy:
            with contextlib.suppress(OSError):
                worker.pipe.send(None)
        elif worker.process.is_alive():
            worker.process.terminate()
    for worker in pool:
        worker.process.join(timeout=30)
        if worker.process.is_alive():
            worker.process.kill()
            worker.process.join()
        worker.pipe.close()


def _work(run: Callable[[Any], Any], pipe: Any, parents: Any) -> None:
    """A worker's loop: specs in, ``(index, ok, result or (exception, traceback))`` out, until
    told to stop or the parent is gone. Ctrl-C is the parent's to handle, which stops the match
    and ends the workers; being ended (SIGTERM) unwinds like an exit, running ``finally``."""
    parents.close()  # the parent's end, copied by fork: closed, so a parent gone reads as EOF
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(128 + signum))
    while True:
        try:
            task = pipe.recv()
        except EOFError:
            return
        if task is None:
            return
        index, spec = task
        try:
            answer: tuple[int, bool, Any] = (index, True, run(spec))
        except Exception as exc:  # sent to the parent, which raises it
            answer = (index, False, (exc, traceback.format_exc()))
        try:
            pipe.send(answer)
        except Exception as exc:  # a result or an exception that cannot be sent
            failure = Texas42Error(f"a worker could not send its result: {exc}")
            pipe.send((index, False, (failure, traceback.format_exc())))


@contextlib.contextmanager
def _ctrl_c_deferred() -> Iterator[None]:
    """Ctrl-C waits until the block is done, then stops the run as it would have: a stopped
    match's table then covers exactly the pairs whose records were written. Only the main
    thread can set a signal handler; elsewhere, or where Ctrl-C is ignored, the block runs as it
    is."""
    ignored = signal.getsignal(signal.SIGINT) in (signal.SIG_IGN, None)
    if ignored or threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda signum, frame: caught.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        if caught:
            raise KeyboardInterrupt


def _ray_map(run: Callable[[S], R], specs: Sequence[S], address: str) -> Generator[R, None, None]:
    ray = import_ray()
    try:
        ray.init(address=None if address == "local" else address, ignore_reinit_error=True)
    except Exception as exc:  # Ray raises several kinds when no cluster answers
        raise Texas42Error(f"--ray {address}: {_why_ray_cannot_join(exc)}") from None
    remote = ray.remote(run)
    window = max(1, int(ray.cluster_resources().get("CPU", 1))) * AHEAD
    todo = iter(specs)
    pending: deque[Any] = deque(remote.remote(spec) for spec in itertools.islice(todo, window))
    try:
        while pending:
            result: R = ray.get(pending.popleft())
            pending.extend(remote.remote(spec) for spec in itertools.islice(todo, 1))
            yield result
    finally:
        for ref in pending:
            ray.cancel(ref)


# -- one match ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MatchSummary:
    """A duplicate match summed up: what the arena table and ``--json`` show.

    ``margin`` is A's score minus B's per game (per hand with ``hands``), each bot's score the
    mean over the sides it holds, averaged over each pair and then over pairs; ``wins`` counts A's
    wins among the games (hands) someone won; ``make`` is, for A's sides and B's, the bids made
    out of the hands they won the auction. ``forfeits``
    counts the games (hands) A and B forfeited, an engine of theirs having failed, and
    ``forfeit_reasons`` says why, in the order played.
    """

    bot_a: str
    bot_b: str
    rules: Rules
    hands_mode: bool
    seed: int
    planned_pairs: int
    pairs: int
    games: int
    hands: int
    margin: Estimate
    wins: Proportion
    make: tuple[Proportion, Proportion]
    sprt: Sprt | None
    decision: Decision | None
    seconds: float | None
    played_now: int
    """The games this run played in ``seconds``: all of ``games``, but for a resumed run, which
    read the others back from its records."""
    forfeits: tuple[int, int] = (0, 0)
    forfeit_reasons: tuple[str, ...] = ()

    @property
    def unit(self) -> str:
        """What the margin counts: ``marks per game``, ``points per hand`` (Moon's too)..."""
        kind = "marks" if self.rules.game == "marks" else "points"
        return f"{kind} per {'hand' if self.hands_mode else 'game'}"

    @property
    def llr(self) -> float | None:
        if self.sprt is None:
            return None
        return self.sprt.llr(self.wins.k, self.wins.n - self.wins.k)

    def to_dict(self) -> dict[str, Any]:
        sprt = None
        if self.sprt is not None:
            lower, upper = self.sprt.bounds
            sprt = {
                **self.sprt.to_dict(),
                "llr": self.llr,
                "lower": lower,
                "upper": upper,
                "decision": self.decision,
            }
        return {
            "bot_a": self.bot_a,
            "bot_b": self.bot_b,
            "rules": str(self.rules),
            "mode": "hands" if self.hands_mode else "games",
            "seed": self.seed,
            "planned_pairs": self.planned_pairs,
            "pairs": self.pairs,
            "games": self.games,
            "hands": self.hands,
            "unit": self.unit,
            "margin": self.margin.to_dict(),
            "win_rate": self.wins.to_dict(),
            "make_rate": {"a": self.make[0].to_dict(), "b": self.make[1].to_dict()},
            "sprt": sprt,
            "seconds": self.seconds,
            "played_now": self.played_now,
            "forfeits": {
                "a": self.forfeits[0],
                "b": self.forfeits[1],
                "reasons": list(self.forfeit_reasons),
            },
        }


def summarize(
    results: Sequence[MatchResult],
    seed: int,
    planned_pairs: int | None = None,
    sprt: Sprt | None = None,
    seconds: float | None = None,
    played_now: int | None = None,
) -> MatchSummary:
    """The summary of a match's pair results (at least one), in the order they were played;
    ``seed`` is the match's seed, ``planned_pairs`` the pairs it would have played without an
    SPRT stop, ``played_now`` the games played in ``seconds`` when some were read back (else
    all of them)."""
    if not results:
        raise ValueError("no pairs to sum up")
    spec = results[0].spec
    games = [game for result in results for game in result.games]
    wins = sum(result.a_wins for result in results)
    decided = sum(result.decided for result in results)
    bids = [0, 0]
    made = [0, 0]
    for game in games:
        for bot, parity in enumerate((game.a_team, 1 - game.a_team)):
            bids[bot] += game.bids[parity]
            made[bot] += game.made[parity]
    forfeited = [game for game in games if game.forfeit is not None]
    a_forfeits = sum(game.a_won is False for game in forfeited)
    return MatchSummary(
        bot_a=spec.bot_a,
        bot_b=spec.bot_b,
        rules=spec.rules,
        hands_mode=spec.hands,
        seed=seed,
        planned_pairs=planned_pairs if planned_pairs is not None else len(results),
        pairs=len(results),
        games=len(games),
        hands=sum(game.hands for game in games),
        margin=mean_ci([result.margin for result in results]),
        wins=wilson(wins, decided),
        make=(wilson(made[0], bids[0]), wilson(made[1], bids[1])),
        sprt=sprt,
        decision=sprt.decide(wins, decided - wins) if sprt is not None else None,
        seconds=seconds,
        played_now=len(games) if played_now is None else played_now,
        forfeits=(a_forfeits, len(forfeited) - a_forfeits),
        forfeit_reasons=tuple(game.forfeit for game in forfeited if game.forfeit is not None),
    )


def check_bot(spec: str) -> None:
    """Make the bot once, so an unknown name or option is reported before any game is played."""
    make_bot(spec)


def start_engines(bots: Sequence[tuple[str, str]]) -> None:
    """Start each outside engine among the ``(label, spec)`` bots once, shake hands and set its
    options, then quit it: an engine that cannot play (its program exits, never finishes the
    handshake, lacks an option it is given) stops the run here with one error naming it, instead
    of forfeiting every game."""
    for label, spec in bots:
        bot = make_bot(spec)
        if not isinstance(bot, EngineBot):
            continue
        try:
            bot.start()
        except Texas42Error as exc:
            raise Texas42Error(f"{label} cannot play, so no game was played: {exc}") from None
        finally:
            bot.close()


def play_match(
    bot_a: str,
    bot_b: str,
    rules: Rules,
    pairs: int,
    seed: int = 0,
    *,
    hands: bool = False,
    records: bool = False,
    workers: int = 1,
    ray_address: str | None = None,
    sprt: Sprt | None = None,
    progress: Progress | None = None,
    known: Mapping[int, MatchResult] | None = None,
) -> tuple[MatchSummary, list[MatchResult]]:
    """Play a duplicate match of ``pairs`` pairs (fewer if the SPRT decides first, checked after
    every pair); the summary and every pair's result, in order.

    ``known`` holds pairs already played, by index (a resumed run's, read back by
    `texas42.services.arena.ledger.open_ledger`): they are counted in their place and not played
    again, nor passed to ``progress``, so the summary is the one a run that never stopped gives.

    Ctrl-C (KeyboardInterrupt) stops the match after the pairs already played, which are summed
    up as usual (``planned_pairs`` says how many were meant); with none played it propagates.
    """
    check_bot(bot_a)
    check_bot(bot_b)
    if pairs < 1:
        raise Texas42Error(f"a match needs at least one pair of games, not {pairs}")
    start_engines([("bot A", bot_a), ("bot B", bot_b)])
    specs = match_specs(bot_a, bot_b, rules, pairs, seed, hands=hands, records=records)
    known = known or {}
    todo = [spec for spec in specs if spec.index not in known]
    start = time.perf_counter()
    results: list[MatchResult] = []
    wins = decided = 0
    try:
        with contextlib.closing(map_matches(todo, workers, ray_address)) as played:
            for index in range(pairs):
                old = known.get(index)
                result = old if old is not None else next(played)
                with _ctrl_c_deferred():  # a pair is counted and shown (saved) whole, or not
                    results.append(result)
                    wins += result.a_wins
                    decided += result.decided
                    if progress is not None and old is None:
                        progress(result)
                if sprt is not None and sprt.decide(wins, decided - wins) is not None:
                    break
    except KeyboardInterrupt:
        if not results:
            raise
    seconds = time.perf_counter() - start
    played_now = sum(len(result.games) for i, result in enumerate(results) if i not in known)
    return summarize(results, seed, pairs, sprt, seconds, played_now), results


# -- a ladder -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class LadderSummary:
    """Every pairing's match and the Bradley-Terry ratings fitted to the game wins.

    ``wins[i][j]`` is the games bot i won against bot j; ratings are anchored on the first bot.
    """

    bots: tuple[str, ...]
    rules: Rules
    seed: int
    pairings: tuple[MatchSummary, ...]
    wins: tuple[tuple[int, ...], ...]
    ratings: Ratings
    seconds: float

    def games(self, i: int) -> int:
        return sum(self.wins[i][j] + self.wins[j][i] for j in range(len(self.bots)))

    def won(self, i: int) -> int:
        return sum(self.wins[i])

    def order(self) -> list[int]:
        """The bots strongest first."""
        return sorted(range(len(self.bots)), key=lambda i: -self.ratings.strength[i])

    def to_dict(self) -> dict[str, Any]:
        return {
            "bots": list(self.bots),
            "rules": str(self.rules),
            "seed": self.seed,
            "prior": LADDER_PRIOR,
            "ratings": [
                {
                    "bot": bot,
                    "elo": self.ratings.elo(i),
                    "elo_half_width": self.ratings.elo_half_width(i),
                    "strength": self.ratings.strength[i],
                    "stderr": self.ratings.stderr[i],
                    "games": self.games(i),
                    "wins": self.won(i),
                }
                for i, bot in enumerate(self.bots)
            ],
            "wins": [list(row) for row in self.wins],
            "pairings": [pairing.to_dict() for pairing in self.pairings],
            "seconds": self.seconds,
        }


def play_ladder(
    bots: Sequence[str],
    rules: Rules,
    pairs: int,
    seed: int = 0,
    *,
    workers: int = 1,
    ray_address: str | None = None,
    progress: Progress | None = None,
) -> LadderSummary:
    """A duplicate match of ``pairs`` pairs between every two bots, all on the same deals, and
    the ratings fitted to the game wins (with `LADDER_PRIOR`)."""
    if len(bots) < 2:
        raise Texas42Error("a ladder needs at least two bots")
    twice = sorted({bot for bot in bots if bots.count(bot) > 1})
    if twice:
        raise Texas42Error(f"each bot plays the ladder once, not {', '.join(twice)} twice")
    for bot in bots:
        check_bot(bot)
    if pairs < 1:
        raise Texas42Error(f"a pairing needs at least one pair of games, not {pairs}")
    start_engines([(bot, bot) for bot in bots])
    pairings = list(itertools.combinations(range(len(bots)), 2))
    specs = [
        spec for i, j in pairings for spec in match_specs(bots[i], bots[j], rules, pairs, seed)
    ]
    start = time.perf_counter()
    results: list[MatchResult] = []
    with contextlib.closing(map_matches(specs, workers, ray_address)) as played:
        for result in played:
            results.append(result)
            if progress is not None:
                progress(result)
    seconds = time.perf_counter() - start
    wins = [[0] * len(bots) for _ in bots]
    summaries = []
    for k, (i, j) in enumerate(pairings):
        summary = summarize(results[k * pairs : (k + 1) * pairs], seed)
        summaries.append(summary)
        wins[i][j] = summary.wins.k
        wins[j][i] = summary.wins.n - summary.wins.k
    return LadderSummary(
        tuple(bots),
        rules,
        seed,
        tuple(summaries),
        tuple(tuple(row) for row in wins),
        bradley_terry(wins, prior=LADDER_PRIOR),
        seconds,
    )
