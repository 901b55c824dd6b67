"""Computer players: each one sees only a seat's `View` and answers with one of ``view.legal``.

`Bot` is the protocol every player here follows. Bots are made by name with `make_bot`, from a
spec such as ``"rules"``, ``"expert"`` or ``"pimc:samples=16,inference=on"``:

- ``random``: uniform over the legal actions, the baseline;
- ``rules``: `RulesBot`, rules of thumb, instant;
- ``pimc``: Perfect Information Monte Carlo card play over the deal sampler and the exact
  solver, with bids and trump chosen by simulation (`texas42.players.pimc`); options switch its
  parts on and off for ablations;
- ``expert``: ``pimc`` with inference from the auction and the contract, and the exact endgame;
- ``expert@1``: the expert as it was when the bots' strength work began (issue 19), every
  setting written out, kept for good so that every later expert is measured against it;
- ``eq10``: a stand-in for the field's published champion player: PIMC over 10 uniform deals,
  each solved exactly, maximising the expected points, no inference, simulation bidding over
  10 deals (``docs/bots.md`` says what it is and is not);
- ``engine:CMD``: an outside program speaking the engine protocol (``docs/engine-protocol.md``),
  made by `texas42.services.protocol.make_bot` since it runs a process.

The difficulty levels a player picks from map onto them: ``easy`` (rules of thumb with a
beginner's slips), ``medium`` (``rules``), ``hard`` (``pimc`` with a small budget) and
``expert``. Every bot is deterministic for a given seed: its choice is a function of the seed
and the view alone.
"""

from __future__ import annotations

from typing import Protocol

from texas42.core.actions import Action
from texas42.core.errors import Texas42Error
from texas42.core.view import View
from texas42.extras import extra_error
from texas42.players.random_bot import RandomBot
from texas42.players.rules_bot import RulesBot


class Bot(Protocol):
    """A player: given what its seat may know, it picks one of the legal actions."""

    name: str

    def choose(self, view: View) -> Action: ...


BASELINES = {
    "expert@1": (
        "pimc:samples=24,value_samples=8,bid_samples=48,bid_margin=0,overcall_margin=0,"
        "opponent_makes=0.5,no_loser_marks=0.8,"
        "inference=on,play_inference=off,endgame=on,endgame_worlds=120,endgame_tiles=1,"
        "bidding=simulation,declaring=simulation,time_limit=0,objective=make,call_model=off,"
        "auction=fixed,bidder_model=shipped"
    ),
    "eq10": (
        "pimc:samples=10,value_samples=10,bid_samples=10,bid_margin=0,overcall_margin=0,"
        "opponent_makes=0.5,no_loser_marks=0.8,"
        "inference=off,play_inference=off,endgame=off,endgame_worlds=120,endgame_tiles=1,"
        "bidding=simulation,declaring=simulation,time_limit=0,objective=points,call_model=off,"
        "auction=fixed,bidder_model=shipped"
    ),
}
"""Bots kept for good as yardsticks, each a `pimc` spec with every setting written out, so a
change of a default leaves them as they are; they take no options."""

BOT_NAMES = ("random", "rules", "pimc", "eq10", "expert@1", "expert")
"""The bots `make_bot` knows, weakest first."""

LEVELS = {
    "easy": "easy",
    "medium": "rules",
    "hard": "pimc:samples=12,bid_samples=12",
    "expert": "expert",
}
"""Difficulty levels and the bot spec each one stands for."""


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """``"pimc:samples=16,inference=on"`` -> ``("pimc", {"samples": "16", "inference": "on"})``."""
    name, _, rest = spec.strip().partition(":")
    options: dict[str, str] = {}
    for item in filter(None, (part.strip() for part in rest.split(","))):
        key, sep, value = item.partition("=")
        if not sep or not key.strip() or not value.strip():
            raise Texas42Error(f"bot option {item!r} in {spec!r} is not key=value")
        options[key.strip()] = value.strip()
    return name.strip().lower(), options


def make_bot(spec: str, seed: int = 0, name: str | None = None) -> Bot:
    """The bot a spec names: a bot name or a level, with options after a colon.

    An outside engine (``engine:CMD``) is a process, so it is made one layer up, by
    `texas42.services.protocol.make_bot`, which takes every spec this function takes.
    """
    # the prefix services.protocol.parse_engine_spec reads, tested before parse_spec: an
    # engine's command is not key=value options
    head = spec.strip()[:7].lower()
    if head.startswith("engine") and head[6:7] in ("", "[", ":", " "):
        raise Texas42Error(
            f"{spec!r} runs an outside program: make it with texas42.services.protocol.make_bot"
        )
    kind, options = parse_spec(spec)
    if kind in BASELINES:
        if options:
            raise Texas42Error(f"{kind} is kept as it is: it takes no options, not {spec!r}")
        kind, options = parse_spec(BASELINES[kind])
        name = name or spec.strip()
    if kind in LEVELS and kind not in BOT_NAMES:
        base, base_options = parse_spec(LEVELS[kind])
        if base == "easy":
            from texas42.players.easy_bot import EasyBot

            if options:
                raise Texas42Error(f"the easy level takes no options, not {spec!r}")
            return EasyBot(seed, name or "Easy")
        kind, options = base, {**base_options, **options}
    if kind == "random":
        _no_options(spec, options)
        return RandomBot(seed, name or "Random")
    if kind == "rules":
        _no_options(spec, options)
        return RulesBot(name or "Rules")
    if kind in ("pimc", "expert"):
        try:
            from texas42.players.pimc import PimcBot, PimcSettings
        except ImportError as exc:  # the search bots need the solver's extra
            raise extra_error(exc, f"the {spec.strip()} bot") from None
        settings = PimcSettings.expert() if kind == "expert" else PimcSettings()
        return PimcBot(settings.with_options(options), seed, name or spec.strip())
    known = ", ".join(dict.fromkeys(BOT_NAMES + tuple(LEVELS)))
    raise Texas42Error(f"no bot called {kind!r}: choose from {known}")


def _no_options(spec: str, options: dict[str, str]) -> None:
    if options:
        raise Texas42Error(f"bot {spec!r}: this bot takes no options")


__all__ = [
    "BASELINES",
    "BOT_NAMES",
    "LEVELS",
    "Bot",
    "RandomBot",
    "RulesBot",
    "make_bot",
    "parse_spec",
]
