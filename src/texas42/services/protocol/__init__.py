"""The engine protocol: a line protocol over standard input and output through which a program in
any language plays at a texas42 table, and any texas42 bot plays for other programs.

The protocol itself is specified in ``docs/engine-protocol.md`` (version `PROTOCOL_VERSION`).
This package holds both sides of it:

- `texas42.services.protocol.host`: the host side. `AsyncEngine` (asyncio) starts an engine process,
  shakes hands and asks it for actions, checking every answer; `EngineBot` wraps it as a `Bot`
  that sits anywhere a bot can (``make_bot("engine:./mybot --flag")``). A misbehaving engine
  raises `EngineError`, naming the engine and the offending line.
- `texas42.services.protocol.engine`: the engine side. `run_engine` serves any texas42 bot over the
  protocol (``python -m texas42.services.protocol.engine --bot expert``); it is not imported here, so
  that running it with ``-m`` imports it once.
"""

from texas42.players import Bot
from texas42.players import make_bot as make_builtin_bot
from texas42.services.protocol.host import (
    PROTOCOL_VERSION,
    Answer,
    AsyncEngine,
    EngineBot,
    EngineError,
    EngineOption,
    EngineSpec,
    Info,
    parse_engine_spec,
    parse_info,
    parse_option,
)


def make_bot(spec: str, seed: int = 0, name: str | None = None) -> Bot:
    """The bot a spec names, outside engines included: ``engine:CMD`` runs the command CMD as an
    `EngineBot`, ``engine[movetime=500,Threads=2]:CMD`` with a move time and options (see
    `EngineSpec`); every other spec is one of the players' bots (`texas42.players.make_bot`)."""
    engine = parse_engine_spec(spec)
    if engine is None:
        return make_builtin_bot(spec, seed, name)
    return EngineBot(
        engine.command,
        name=name,
        seed=seed,
        time_limit=engine.move_time,
        nodes=engine.nodes,
        options=dict(engine.options),
    )


def close_bot(bot: Bot) -> None:
    """Quit an outside engine when its game ends: an ``engine:CMD`` bot is a process, which
    `close` ends; the built-in bots hold nothing to close."""
    close = getattr(bot, "close", None)
    if close is not None:
        close()


__all__ = [
    "PROTOCOL_VERSION",
    "Answer",
    "AsyncEngine",
    "EngineBot",
    "EngineError",
    "EngineOption",
    "EngineSpec",
    "Info",
    "close_bot",
    "make_bot",
    "parse_engine_spec",
    "parse_info",
    "parse_option",
]
