"""The engine protocol: a line protocol over standard input and output through which a program in
any language plays at a texas42 table, and any texas42 bot plays for other programs.

The protocol itself is specified in ``docs/engine-protocol.md`` (version `PROTOCOL_VERSION`).
This package holds both sides of it:

- `texas42.protocol.client`: the host side. `AsyncEngine` (asyncio) starts an engine process,
  shakes hands and asks it for actions, checking every answer; `EngineBot` wraps it as a `Bot`
  that sits anywhere a bot can (``make_bot("engine:./mybot --flag")``). A misbehaving engine
  raises `EngineError`, naming the engine and the offending line.
- `texas42.protocol.engine`: the engine side. `run_engine` serves any texas42 bot over the
  protocol (``python -m texas42.protocol.engine --bot expert``); it is not imported here, so
  that running it with ``-m`` imports it once.
"""

from texas42.protocol.client import (
    PROTOCOL_VERSION,
    Answer,
    AsyncEngine,
    EngineBot,
    EngineError,
    EngineOption,
    Info,
    parse_info,
    parse_option,
)

__all__ = [
    "PROTOCOL_VERSION",
    "Answer",
    "AsyncEngine",
    "EngineBot",
    "EngineError",
    "EngineOption",
    "Info",
    "parse_info",
    "parse_option",
]
