"""Any texas42 bot as an engine: the engine side of the protocol (``docs/engine-protocol.md``).

`run_engine` reads commands line by line and never stops on bad input: an unknown or malformed
command gets ``info string error: ...`` and is otherwise ignored. The bot thinks in a worker
thread, so ``isready`` and ``stop`` are answered while it thinks, and ``go movetime`` is
answered in time: a bot still thinking when the time is nearly up is overtaken by RulesBot's
instant choice. Run it with ``python -m texas42.services.protocol.engine --bot expert``.

The engine offers three options: ``Level`` (easy, medium, hard, expert, or the bot it was started
with), ``Samples`` (deals per decision for the searching levels; 0 keeps the level's own) and
``Seed``. ``go nodes N`` sets the deals for one decision. With ample time the answers are a
function of the seed, the options and the positions alone.
"""

from __future__ import annotations

import argparse
import random
import sys
import threading
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, TextIO

from texas42.core.actions import Action, Bid, Declare, Pass, Play, action_words
from texas42.core.errors import Texas42Error
from texas42.core.notation import parse_view_position
from texas42.core.numerals import is_digits
from texas42.core.rules import Rules
from texas42.core.view import View
from texas42.players import BOT_NAMES, LEVELS, Bot, make_bot, parse_spec
from texas42.players.reasons import Decision, decide
from texas42.players.rules_bot import RulesBot
from texas42.services.protocol.host import PROTOCOL_VERSION, parse_engine_spec, read_action

if TYPE_CHECKING:
    from texas42.core.contracts import Contract
    from texas42.players.pimc import Chances, PimcBot, PlayEstimate, Weighted

AUTHOR = "the texas42 authors"
LEVEL_NAMES = ("easy", "medium", "hard", "expert")
MAX_SAMPLES = 10_000
MAX_SEED = 2**63 - 1
MARGIN = 0.1
MAX_MOVETIME = 86_400_000
"""The longest ``go movetime`` taken, a day in milliseconds (a timer much longer overflows)."""
"""The share of ``movetime`` kept back for the answer to reach the host."""


def _searches(spec: str) -> bool:
    """Whether the bot a spec names draws deals (PIMC), so Samples and nodes mean something."""
    kind, _ = parse_spec(spec)
    if kind in LEVELS and kind not in BOT_NAMES:
        kind = parse_spec(LEVELS[kind])[0]
    return kind in ("pimc", "expert")


def _with_samples(spec: str, samples: int) -> str:
    """The spec with ``samples`` deals per decision, when it searches and samples is set."""
    if not samples or not _searches(spec):
        return spec
    kind, options = parse_spec(spec)
    options.update(samples=str(samples), bid_samples=str(samples))
    return f"{kind}:" + ",".join(f"{k}={v}" for k, v in options.items())


def _level_of(spec: str) -> str:
    """The Level value the engine starts at: the spec's level, or the spec itself."""
    kind, options = parse_spec(spec)
    if not options and kind == "rules":
        return "medium"
    return kind if not options and kind in LEVEL_NAMES else spec.strip()


class _Engine:
    """The engine's state between commands; see the module docstring."""

    def __init__(self, spec: str, stdout: TextIO, seed: int) -> None:
        if parse_engine_spec(spec) is not None:
            raise Texas42Error("an engine serves one of texas42's own bots, not another engine")
        make_bot(spec)  # an unknown bot or option is refused before anything is read
        self.out = stdout
        self.start_level = _level_of(spec)
        self.level = self.start_level
        self.samples = 0
        self.seed = seed
        self.view: View | None = None
        self.bots: dict[int, tuple[Bot, _Watch | None]] = {}
        self.search: _Search | None = None
        self.lock = threading.Lock()
        self.closed = False

    # -- output ---------------------------------------------------------------------------

    def say(self, *lines: str) -> None:
        with self.lock:
            if self.closed:
                return
            try:
                for line in lines:
                    self.out.write(line + "\n")
                self.out.flush()
            except (OSError, ValueError):  # the host has gone: nobody left to answer
                self.closed = True

    def error(self, message: str) -> None:
        self.say(f"info string error: {message}")

    # -- the bot --------------------------------------------------------------------------

    def bot(self, nodes: int) -> tuple[Bot, _Watch | None]:
        """The bot for ``nodes`` deals per decision (0: the Samples option's), made once per
        game and seeded by Seed, with a watch on it when it searches."""
        samples = nodes or self.samples
        found = self.bots.get(samples)
        if found is None:
            spec = _with_samples("rules" if self.level == "medium" else self.level, samples)
            bot = make_bot(spec, self.seed, f"texas42 {self.level}")
            watch = None
            if _searches(spec):
                from texas42.players.pimc import PimcBot

                assert isinstance(bot, PimcBot)
                watch = _Watch(bot)
            found = self.bots[samples] = (bot, watch)
        return found

    def options(self) -> list[str]:
        levels = list(LEVEL_NAMES)
        if self.start_level not in levels:
            levels.append(self.start_level)
        return [
            f"option name Level type combo default {self.start_level} "
            + " ".join(f"var {name}" for name in levels),
            f"option name Samples type spin default 0 min 0 max {MAX_SAMPLES}",
            f"option name Seed type spin default {self.seed} min 0 max {MAX_SEED}",
        ]

    # -- the commands ---------------------------------------------------------------------

    def handle(self, line: str) -> bool:
        """Carry out one command; False when the engine should exit."""
        command, _, rest = line.strip().partition(" ")
        rest = rest.strip()
        if not command:
            return True
        if command == "quit":
            return False
        if command == "isready":
            self.say("readyok")
            return True
        if command == "stop":
            if self.search is not None:
                self.search.stop()
            return True
        if self.search is not None:
            self.search.wait()  # a go is answered before any later command is carried out
            self.search = None
        handler = {
            "texas42": self.hello,
            "setoption": self.set_option,
            "newgame": self.new_game,
            "position": self.position,
            "legal": self.legal,
            "go": self.go,
        }.get(command)
        if handler is None:
            self.error(f"unknown command {_clip(command)!r}")
        else:
            handler(rest)
        return True

    def hello(self, rest: str) -> None:
        self.say(
            f"id name texas42 {self.level}",
            f"id author {AUTHOR}",
            *self.options(),
            f"protocolversion {PROTOCOL_VERSION}",
            "texas42ok",
        )

    def set_option(self, rest: str) -> None:
        words = rest.split()
        if not words or words[0] != "name" or len(words) < 2:
            self.error("setoption: say setoption name NAME value VALUE")
            return
        at = words.index("value") if "value" in words else len(words)
        name = " ".join(words[1:at]).lower()
        value = " ".join(words[at + 1 :])
        if name == "level":
            levels = {*LEVEL_NAMES, self.start_level}
            if value.lower() not in levels:
                choices = ", ".join(sorted(levels))
                self.error(f"setoption Level: choose from {choices}, not {value!r}")
                return
            self.level = value.lower()
        elif name in ("samples", "seed"):
            most = MAX_SAMPLES if name == "samples" else MAX_SEED
            if not (is_digits(value) and int(value) <= most):
                self.error(f"setoption {name.title()}: a whole number 0..{most}, not {value!r}")
                return
            if name == "samples":
                self.samples = int(value)
            else:
                self.seed = int(value)
        else:
            self.error(f"setoption: no option {name!r} (options: Level, Samples, Seed)")
            return
        self.bots.clear()

    def new_game(self, rest: str) -> None:
        try:
            Rules.parse(rest)  # checked only: every position carries its rules
        except Texas42Error as exc:
            self.error(f"newgame: {exc}")
            return
        self.view = None
        self.bots.clear()

    def position(self, rest: str) -> None:
        self.view = None
        try:
            self.view = parse_view_position(rest)
        except Texas42Error as exc:
            self.error(str(exc))

    def legal(self, rest: str) -> None:
        try:
            rules = self.view.rules if self.view is not None else None
            given = {read_action(words, rules) for words in rest.split(";")}
        except Texas42Error as exc:
            self.error(f"legal: {exc}")
            return
        if self.view is not None and given != set(self.view.legal):
            self.error("legal: not the legal actions of the position, which is the one played")

    def go(self, rest: str) -> None:
        words = rest.split()
        limits = {"movetime": 0, "nodes": 0}
        for key, value in zip(words[::2], words[1::2] + [""]):
            if key not in limits or not (is_digits(value) and int(value) > 0):
                self.error(f"go: say go [movetime MS] [nodes N], not {_clip(rest)!r}")
                return
            limits[key] = int(value)
        if limits["movetime"] > MAX_MOVETIME:
            self.error(f"go: movetime is at most {MAX_MOVETIME} (a day), not {limits['movetime']}")
            return
        if limits["nodes"] > MAX_SAMPLES:
            self.error(f"go: nodes is at most {MAX_SAMPLES}, not {limits['nodes']}")
            return
        if self.view is None or not self.view.legal:
            self.error("go: there is no position with this seat to act (send position first)")
            return
        movetime = limits["movetime"] / 1000
        bot, watch = self.bot(limits["nodes"])
        self.search = _Search(self, bot, watch, self.view, movetime)


class _Search:
    """One ``go``: the bot thinks in a daemon thread; the first of its answer, the clock and a
    ``stop`` writes ``bestaction``, once."""

    def __init__(
        self, engine: _Engine, bot: Bot, watch: _Watch | None, view: View, movetime: float
    ) -> None:
        self.engine = engine
        self.bot = bot
        self.view = view
        self.start = time.perf_counter()
        self.answered = False
        self.done = threading.Event()
        """Set once bestaction is written."""
        self.timer: threading.Timer | None = None
        if movetime:
            self.timer = threading.Timer(movetime * (1 - MARGIN), self.overtake, ("out of time",))
            self.timer.daemon = True
            self.timer.start()
        threading.Thread(target=self.think, args=(bot, watch), daemon=True).start()

    def think(self, bot: Bot, watch: _Watch | None) -> None:
        try:
            if watch is not None:
                watch.begin()
            decision = decide(bot, self.view)
            infos = watch.evaluation(self.view, decision.action) if watch is not None else []
        except Exception as exc:  # a bot's bug must not take the engine down with it
            self.overtake(f"the bot failed ({type(exc).__name__}: {exc})")
            return
        self.answer(decision.action, [*infos, _reason(decision)])

    def overtake(self, why: str) -> None:
        """Answer now with RulesBot's instant choice. The search thread cannot be stopped, so
        its bot is dropped: the next ``go`` gets a fresh one instead of sharing a busy solver."""
        with self.engine.lock:
            for key, (bot, _) in list(self.engine.bots.items()):
                if bot is self.bot:
                    del self.engine.bots[key]
        action = RulesBot().choose(self.view)
        self.answer(action, [f"string {why}: answering with the rules of thumb"])

    def stop(self) -> None:
        if not self.answered:
            self.overtake("stopped")

    def answer(self, action: Action, infos: list[str]) -> None:
        with self.engine.lock:
            if self.answered:
                return
            self.answered = True
        if self.timer is not None:
            self.timer.cancel()
        ms = round((time.perf_counter() - self.start) * 1000)
        info = f"info time {ms}" + "".join(f" {token}" for token in infos)
        self.engine.say(info, f"bestaction {action_words(action)}")
        self.done.set()

    def wait(self) -> None:
        self.done.wait()


class _Watch:
    """What a PIMC bot works out for a decision, kept for the info line: its `estimates` and
    `contract_chances` are wrapped on the instance, so its choices stay exactly its own."""

    def __init__(self, bot: PimcBot) -> None:
        self.bot = bot
        self.nodes = 0
        self.estimates: dict[int, PlayEstimate] | None = None
        self.chances: dict[Contract, Chances] | None = None
        play_estimates, contract_chances = bot._estimates, bot.contract_chances

        def estimates(
            view: View, rng: random.Random
        ) -> tuple[dict[int, PlayEstimate], Weighted, bool]:
            found, worlds, every = play_estimates(view, rng)
            self.estimates = found
            return found, worlds, every

        def chances(view: View) -> dict[Contract, Chances]:
            self.chances = contract_chances(view)
            return self.chances

        setattr(bot, "_estimates", estimates)  # noqa: B010 (an instance attribute on purpose)
        setattr(bot, "contract_chances", chances)  # noqa: B010

    def begin(self) -> None:
        self.nodes = self.bot.solver.nodes
        self.estimates = self.chances = None

    def evaluation(self, view: View, action: Action) -> list[str]:
        """The info tokens for the bot's choice, from what it worked out to make it."""
        bot = self.bot
        tokens = [f"nodes {bot.solver.nodes - self.nodes}"]
        chances = self.chances
        if isinstance(action, Play) and self.estimates is not None:
            assert view.bidder is not None and view.contract is not None
            estimate = self.estimates[action.tile]
            defending = not view.layout.same_side(view.seat, view.bidder)
            chance = 1 - estimate.make if defending else estimate.make
            tokens.append(f"chance {chance:.3f}")
            if view.contract.kind != "nello":
                tokens.append(f"points {estimate.total:.1f}")
        elif isinstance(action, Bid) and chances is not None:
            chance, marks = bot.call_value(chances, action, view)
            tokens.append(f"chance {chance:.3f}")
            if not bot.rolls_out(view):  # else chosen by equity, which the reason gives
                tokens.append(f"marks {_fixed(marks)}")
        elif isinstance(action, Pass) and chances is not None and not bot.rolls_out(view):
            marks = bot.pass_value(view)
            tokens.append(f"marks {_fixed(marks)}")
        elif isinstance(action, Declare) and chances is not None and chances.get(action.contract):
            from texas42.search.solver import points_needed

            share, mean = bot.contract_score(
                view, action.contract, chances[action.contract], points_needed(view)
            )
            tokens.append(f"chance {share:.3f}")
            if action.contract.kind != "nello":
                tokens.append(f"points {min(mean, float(view.layout.total)):.1f}")
        return tokens


def _reason(decision: Decision) -> str:
    """The ``reason`` token: the bot's whole words (the engine speaks for its own seat), last on
    the line since it takes the rest of it."""
    return f"reason {' '.join(decision.reason.text.split())}"


def _fixed(x: float) -> str:
    """Two decimals, never ``-0.00``."""
    text = f"{x:.2f}"
    return "0.00" if text == "-0.00" else text


def _clip(text: str) -> str:
    return text if len(text) <= 60 else text[:57] + "..."


def run_engine(bot_spec: str, stdin: TextIO, stdout: TextIO, *, seed: int = 0) -> int:
    """Serve ``bot_spec`` (``rules``, ``expert``, ``pimc:samples=8`` ...) as an engine over
    ``stdin`` and ``stdout`` until ``quit`` or the end of the input; the exit status (0).

    Raises Texas42Error for an unknown bot, before reading anything. At the end of the input a
    pending ``go`` is answered first; ``quit`` leaves at once.
    """
    engine = _Engine(bot_spec, stdout, seed)
    try:
        for line in iter(stdin.readline, ""):
            if not engine.handle(line):
                break
        else:
            if engine.search is not None:
                engine.search.wait()
    finally:
        with engine.lock:
            engine.closed = True
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m texas42.services.protocol.engine --bot SPEC [--seed N]``."""
    parser = argparse.ArgumentParser(
        prog="python -m texas42.services.protocol.engine",
        description="Serve a texas42 bot over the engine protocol on standard input and output.",
    )
    parser.add_argument("--bot", default="expert", help="the bot or level (default expert)")
    parser.add_argument("--seed", type=int, default=0, help="the Seed option's starting value")
    args = parser.parse_args(argv)
    try:
        return run_engine(args.bot, sys.stdin, sys.stdout, seed=args.seed)
    except Texas42Error as exc:
        print(f"texas42 engine: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
