"""The host side of the engine protocol (``docs/engine-protocol.md``): an outside program seated
anywhere a bot can sit.

`AsyncEngine` is the core. It starts the engine with ``asyncio.create_subprocess_exec``, shakes
hands, and for each decision sends the seat's view and its legal actions and reads the answer,
checking every line and never waiting without a deadline. `EngineBot` is the synchronous `Bot`
over it: the EngineBots of a process share one event loop in a daemon thread, and each closes
its engine on `close`, at the end of a ``with`` block, when garbage-collected and at exit, so no
engine process outlives its host.

Whatever an engine does wrong (no answer in time, an illegal or unreadable line, a crash, a bad
handshake, a flood of output) raises `EngineError` with the engine's name and the offending
line, and the engine is stopped: a broken engine is never asked again.
"""

from __future__ import annotations

import asyncio
import atexit
import concurrent.futures
import contextlib
import math
import os
import re
import shlex
import shutil
import signal
import threading
import weakref
from collections import deque
from collections.abc import Awaitable, Coroutine, Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any, TypeVar

from texas42.core.actions import (
    MAX_POINT_BID,
    Action,
    Pass,
    action_words,
    parse_action_words,
)
from texas42.core.errors import NotationError, Texas42Error
from texas42.core.notation import view_position
from texas42.core.numerals import whole_number
from texas42.core.reasons import Reason
from texas42.core.rules import Rules
from texas42.core.view import View
from texas42.core.words import engine_reason
from texas42.players.reasons import Decision

PROTOCOL_VERSION = 1
"""The version of the protocol this host speaks (``protocolversion 1``)."""

MOVE_TIME = 5.0
"""Seconds an engine has for a decision unless told otherwise (``go movetime 5000``)."""

MAX_LINE = 1 << 16
"""The longest line the host reads from an engine, in bytes."""

MAX_LINES = 10_000
"""The most lines an engine may send while the host waits for one reply: more is a flood."""

STDERR_LINES = 10
"""Lines of an engine's standard error kept for the report of a crash."""

QUIT_WAIT = 1.0
"""Seconds an engine gets to exit after ``quit`` (or after closing its output) before it is
killed."""

OPTION_TYPES = ("spin", "check", "combo", "string")

_CLIP = 200
_OPTION_KEYS = ("default", "min", "max", "var")
_VERBS = ("play", "bid", "declare", "discard", "pass")
MAX_TOTAL = MAX_POINT_BID + 1
"""The most points a hand holds under any rules (three-hand's 44): the top of ``info points``."""
_KILL = getattr(signal, "SIGKILL", signal.SIGTERM)


def _kill_group(pid: int) -> None:
    """Kill the engine and every process of its session (it leads one on POSIX)."""
    try:
        if os.name == "posix":
            os.killpg(pid, _KILL)
        else:
            os.kill(pid, _KILL)
    except OSError:
        pass


T = TypeVar("T")


def read_action(text: str, rules: Rules | None = None) -> Action:
    """Read action words (``play 6-4``, ``bid 31``, ``discard 5-0``, ``pass``) the way a table
    under ``rules`` means them: where a hand holds more than 42 points (three-hand) ``bid 42``
    is a point bid, not one mark, and in Moon ``bid 21`` shoots the moon. NotationError if
    they are not an action."""
    return parse_action_words(text, rules or Rules())


def _clip(text: str) -> str:
    return text if len(text) <= _CLIP else text[: _CLIP - 3] + "..."


class EngineError(Texas42Error):
    """An engine misbehaved. ``kind`` says how: ``start``, ``handshake``, ``timeout``,
    ``illegal``, ``unreadable``, ``flood``, ``crashed`` or ``closed`` (asked again after an
    earlier error); ``line`` is the offending line (None when the engine sent nothing), and a
    crash carries the exit code and the last lines of the engine's standard error."""

    def __init__(
        self,
        engine: str,
        kind: str,
        problem: str,
        line: str | None = None,
        returncode: int | None = None,
        stderr: tuple[str, ...] = (),
    ) -> None:
        self.engine = engine
        self.kind = kind
        self.problem = problem
        self.line = line
        self.returncode = returncode
        self.stderr = stderr
        message = f"engine {engine}: {problem}"
        if line is not None:
            message += f": {_clip(line)!r}"
        if stderr:
            message += f" (its last error output: {' | '.join(stderr)})"
        super().__init__(message)

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        args = (self.engine, self.kind, self.problem, self.line, self.returncode, self.stderr)
        return (type(self), args)


# -- what engines say ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class EngineOption:
    """An option an engine offers in its handshake (``option name ... type ...``)."""

    name: str
    type: str
    default: str
    min: int | None = None
    max: int | None = None
    vars: tuple[str, ...] = ()

    def check(self, value: str | int | bool) -> str:
        """The value as ``setoption`` sends it, or Texas42Error if the option cannot take it."""
        text = str(value).lower() if isinstance(value, bool) else str(value).strip()
        where = f"option {self.name} ({self.type})"
        if self.type == "spin":
            number = whole_number(text, signed=True)
            assert self.min is not None and self.max is not None
            if number is None or not self.min <= number <= self.max:
                raise Texas42Error(
                    f"{where} takes a whole number {self.min}..{self.max}, not {text!r}"
                )
            return str(number)
        if self.type == "check":
            if text.lower() not in ("true", "false"):
                raise Texas42Error(f"{where} takes true or false, not {text!r}")
            return text.lower()
        if self.type == "combo":
            for var in self.vars:
                if var.lower() == text.lower():
                    return var
            raise Texas42Error(f"{where} takes one of {', '.join(self.vars)}, not {text!r}")
        if "\n" in text or "\r" in text:
            raise Texas42Error(f"{where} takes one line of text")
        return text


def parse_option(text: str) -> EngineOption:
    """Read an ``option name NAME type TYPE [default D] [min N] [max N] [var V]...`` line."""
    words = text.split()
    try:
        at = words.index("type", 3) if words[:2] == ["option", "name"] else -1
    except ValueError:
        at = -1
    if at < 0 or at + 1 >= len(words):
        raise NotationError("an option line reads: option name NAME type TYPE [default D] ...")
    name, kind = " ".join(words[2:at]), words[at + 1]
    if kind not in OPTION_TYPES:
        raise NotationError(f"option {name}: type {kind!r} is not one of {', '.join(OPTION_TYPES)}")
    found: dict[str, str] = {}
    vars_: list[str] = []
    rest = words[at + 2 :]
    i = 0
    while i < len(rest):
        key = rest[i]
        if key == "default" and kind == "string":
            value = " ".join(rest[i + 1 :])
            found["default"] = "" if value == "<empty>" else value
            break
        j = i + 1
        while j < len(rest) and rest[j] not in _OPTION_KEYS:
            j += 1
        value = " ".join(rest[i + 1 : j])
        if key not in _OPTION_KEYS or not value or (key != "var" and key in found):
            raise NotationError(f"option {name}: cannot read {' '.join(rest[i:j])!r}")
        if key == "var":
            vars_.append(value)
        else:
            found[key] = value
        i = j
    default = found.get("default", "" if kind == "string" else None)
    if default is None:
        raise NotationError(f"option {name}: a {kind} option needs a default")
    low, high = found.get("min"), found.get("max")
    if kind != "spin" and (low is not None or high is not None):
        raise NotationError(f"option {name}: only a spin option has min and max")
    if kind != "combo" and vars_:
        raise NotationError(f"option {name}: only a combo option has vars")
    if kind == "spin":
        start, least, most = (
            whole_number(w, signed=True) if w is not None else None for w in (default, low, high)
        )
        if start is None or least is None or most is None:
            raise NotationError(f"option {name}: a spin option needs a whole default, min and max")
        if not least <= start <= most:
            raise NotationError(f"option {name}: default {start} is not within {least}..{most}")
        return EngineOption(name, kind, str(start), least, most)
    if kind == "check" and default not in ("true", "false"):
        raise NotationError(f"option {name}: a check option's default is true or false")
    if kind == "combo" and default not in vars_:
        raise NotationError(f"option {name}: the default {default!r} is not one of its vars")
    option = EngineOption(name, kind, default, vars=tuple(vars_))
    return option


@dataclass(frozen=True, slots=True)
class Info:
    """One ``info`` line: what the engine thinks, each field None (or empty) when not said.

    ``time`` in milliseconds and ``nodes`` are the effort so far; ``chance`` (0..1) that the
    engine's side gets what it plays for (bidders make, defenders set); ``points`` the bidders'
    expected total at the end of the hand (0 to the hand's total, 44 at most); ``marks`` the
    marks the engine's side expects from the hand; ``line`` the actions it expects, its own next
    action first; ``reason`` words for people; ``string`` anything else (``string error: ...``
    for problems).
    """

    time: int | None = None
    nodes: int | None = None
    chance: float | None = None
    points: float | None = None
    marks: float | None = None
    line: tuple[Action, ...] = ()
    reason: str | None = None
    string: str | None = None


def _info_number(key: str, word: str) -> int | float:
    if key in ("time", "nodes"):
        whole = whole_number(word, signed=True)
        if whole is None or whole < 0:
            raise NotationError(f"info {key} is a whole number of 0 or more, not {word!r}")
        return whole
    try:
        value = float(word)
    except ValueError:
        raise NotationError(f"info {key} is a number, not {word!r}") from None
    top = {"chance": (0.0, 1.0), "points": (0.0, float(MAX_TOTAL))}
    bounds = top.get(key, (-math.inf, math.inf))
    if not (math.isfinite(value) and bounds[0] <= value <= bounds[1]):
        raise NotationError(f"info {key} {word} is out of range")
    return value


def parse_info(text: str, rules: Rules | None = None) -> Info:
    """Read an ``info`` line; a token this version does not know is skipped (later versions may
    add some), a known one with a value it cannot read is a NotationError. ``rules`` reads the
    bids of a ``line`` as that table means them (`read_action`)."""
    words = text.split()
    if not words or words[0] != "info":
        raise NotationError("an info line starts with info")
    found: dict[str, Any] = {}
    i = 1
    while i < len(words):
        key = words[i]
        if key in ("reason", "string"):
            found[key] = " ".join(words[i + 1 :])
            break
        if key in ("time", "nodes", "chance", "points", "marks"):
            if i + 1 >= len(words):
                raise NotationError(f"info {key} needs a value")
            found[key] = _info_number(key, words[i + 1])
            i += 2
        elif key == "line":
            actions: list[Action] = []
            i += 1
            while i < len(words) and words[i] in _VERBS:
                if words[i] == "pass":
                    actions.append(Pass())
                    i += 1
                    continue
                if i + 1 >= len(words):
                    raise NotationError(f"info line: {words[i]} needs what to {words[i]}")
                actions.append(read_action(f"{words[i]} {words[i + 1]}", rules))
                i += 2
            if not actions:
                raise NotationError("info line needs at least one action")
            found["line"] = tuple(actions)
        else:
            i += 1
    return Info(**found)


@dataclass(frozen=True, slots=True)
class Answer:
    """An engine's answer to ``go``: the action, the info lines before it, the seconds taken."""

    action: Action
    info: tuple[Info, ...]
    seconds: float

    @property
    def evaluation(self) -> Info:
        """The latest value of each info field over the answer's info lines, as one Info."""
        latest: dict[str, Any] = {}
        for info in self.info:
            for field in fields(Info):
                value = getattr(info, field.name)
                if value is not None and value != ():
                    latest[field.name] = value
        return Info(**latest)


@dataclass(frozen=True, slots=True)
class EngineSpec:
    """An outside engine as a bot spec names it: ``engine:CMD``, or with settings,
    ``engine[movetime=500,nodes=2000,Threads=2]:CMD``.

    ``move_time`` (seconds; ``movetime`` in the spec, in milliseconds) and ``nodes`` go with
    every ``go``; every other setting is an engine option, sent as ``setoption`` after the
    handshake and checked against the options the engine offers there.
    """

    command: str
    move_time: float = MOVE_TIME
    nodes: int | None = None
    options: tuple[tuple[str, str], ...] = ()


_ENGINE_SPEC = re.compile(r"engine\s*(?:\[(?P<settings>[^\]]*)\])?\s*:(?P<command>.*)", re.I | re.S)


def parse_engine_spec(spec: str) -> EngineSpec | None:
    """The engine a bot spec names, or None when it names none (``rules``, ``pimc:samples=8``);
    Texas42Error for an engine spec that cannot be read. The command itself is checked when
    the bot is made."""
    text = spec.strip()
    head = text[:7].lower()
    if not (head.startswith("engine") and head[6:7] in ("", "[", ":", " ")):
        return None
    found = _ENGINE_SPEC.fullmatch(text)
    if found is None:
        raise Texas42Error(
            f"engine spec {text!r}: write engine:CMD, or engine[movetime=MS,NAME=VALUE,...]:CMD"
        )
    settings: dict[str, tuple[str, str]] = {}
    for item in (part.strip() for part in (found["settings"] or "").split(",")):
        if not item:
            continue
        key, sep, value = (word.strip() for word in item.partition("="))
        if not sep or not key:
            raise Texas42Error(f"engine spec {text!r}: setting {item!r} is not NAME=VALUE")
        if key.lower() in settings:
            raise Texas42Error(f"engine spec {text!r}: {key} is set twice")
        settings[key.lower()] = (key, value)
    limits: dict[str, int] = {}
    for key, unit in (("movetime", "milliseconds"), ("nodes", "a node count")):
        if key in settings:
            value = settings.pop(key)[1]
            number = whole_number(value, signed=True)
            if number is None or number < 1:
                raise Texas42Error(
                    f"engine spec {text!r}: {key} is {unit}, a whole number from 1, not {value!r}"
                )
            limits[key] = number
    return EngineSpec(
        found["command"].strip(),
        limits["movetime"] / 1000 if "movetime" in limits else MOVE_TIME,
        limits.get("nodes"),
        tuple(settings.values()),
    )


def split_command(command: str | Sequence[str]) -> list[str]:
    """An engine command's argument list, checked: it names a program that can be run."""
    if isinstance(command, str):
        try:
            argv = shlex.split(command)
        except ValueError as exc:
            raise Texas42Error(f"engine command {command!r}: {exc}") from None
    else:
        argv = [str(word) for word in command]
    if not argv:
        raise Texas42Error("an engine command names a program to run, such as ./mybot")
    if shutil.which(argv[0]) is None:
        raise Texas42Error(
            f"engine command {shlex.join(argv)!r}: no program {argv[0]!r} that can be run"
        )
    return argv


# -- the asyncio core ---------------------------------------------------------------------------


class AsyncEngine:
    """One engine process and its side of the protocol; see the module docstring.

    ``timeout`` bounds every wait outside ``go`` (the handshake, ``isready``); ``move_time`` is
    the default time for a decision, sent as ``go movetime``; ``grace`` is how long after
    ``stop`` the host still waits for the answer. Use ``async with`` or `close`.
    """

    def __init__(
        self,
        command: str | Sequence[str],
        *,
        name: str | None = None,
        timeout: float = 10.0,
        move_time: float = MOVE_TIME,
        grace: float = 1.0,
    ) -> None:
        if not (timeout > 0 and move_time > 0 and grace >= 0):
            raise Texas42Error(
                "an engine's timeout and move time are more than 0 and its grace 0 or more"
            )
        self.argv = split_command(command)
        self.command = command.strip() if isinstance(command, str) else shlex.join(self.argv)
        self.given_name = name
        self.timeout = timeout
        self.move_time = move_time
        self.grace = grace
        self.id_name: str | None = None
        self.id_author: str | None = None
        self.protocol_version: int | None = None
        self.options: dict[str, EngineOption] = {}
        """The options the engine offers, by lower-case name."""
        self.messages: deque[str] = deque(maxlen=STDERR_LINES)
        """The last ``info string`` texts the engine sent between answers (its complaints)."""
        self.last_answer: Answer | None = None
        self.failure: EngineError | None = None
        self._process: asyncio.subprocess.Process | None = None
        self._stderr: deque[str] = deque(maxlen=STDERR_LINES)
        self._stderr_task: asyncio.Task[None] | None = None
        self._rules: Rules | None = None
        self._hand_number = 0
        self._last_line: str | None = None

    @property
    def name(self) -> str:
        """The name given, else the one the engine gave (``id name``), else the command."""
        return self.given_name or self.id_name or self.command

    @property
    def label(self) -> str:
        """How errors name the engine: its name, with the command when that differs."""
        return repr(self.name) if self.name == self.command else f"{self.name!r} ({self.command})"

    @property
    def pid(self) -> int | None:
        return None if self._process is None else self._process.pid

    @property
    def running(self) -> bool:
        return self._process is not None and self._process.returncode is None

    async def __aenter__(self) -> AsyncEngine:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # -- the commands ---------------------------------------------------------------------

    async def start(self) -> None:
        """Start the engine and shake hands (``texas42`` ... ``texas42ok``, ``isready``)."""
        if self.failure is not None:
            raise self._closed_error()
        if self._process is not None:
            raise Texas42Error(f"engine {self.label} is already started")
        pipe = asyncio.subprocess.PIPE
        try:
            # a session of its own, so that killing the engine also kills what a wrapper
            # script started (a shell script that runs the real engine without exec)
            self._process = await asyncio.create_subprocess_exec(
                *self.argv,
                stdin=pipe,
                stdout=pipe,
                stderr=pipe,
                limit=MAX_LINE,
                start_new_session=os.name == "posix",
            )
        except OSError as exc:
            self.failure = EngineError(self.label, "start", f"cannot be started: {exc}")
            raise self.failure from None
        self._stderr_task = asyncio.create_task(self._drain_stderr(self._process))
        await self._guarded(self._handshake())

    async def set_option(self, name: str, value: str | int | bool) -> None:
        """``setoption name NAME value VALUE``, checked against what the engine offered."""
        await self._started()
        option = self.options.get(name.lower())
        if option is None:
            offered = ", ".join(o.name for o in self.options.values()) or "none"
            raise Texas42Error(f"engine {self.label} has no option {name!r} (it offers: {offered})")
        try:
            text = option.check(value)
        except Texas42Error as exc:
            raise Texas42Error(f"engine {self.label}: {exc}") from None
        await self._guarded(self._command(f"setoption name {option.name} value {text}"))

    async def new_game(self, rules: Rules) -> None:
        """``newgame RULES``: a game starts (sent by `go` itself when the rules change or the
        hand number goes back)."""
        await self._started()
        await self._guarded(self._new_game(rules))

    async def go(
        self, view: View, time_limit: float | None = None, nodes: int | None = None
    ) -> Answer:
        """Ask for the action of the seat to act in ``view``: the checked answer, or
        EngineError. Sends only ``view_position(view)`` (what the seat may know) and its legal
        actions; the engine has ``time_limit`` seconds (default ``move_time``) and the grace."""
        if not view.legal:
            raise Texas42Error(f"seat {view.seat} has nothing to do: it is not its turn")
        limit = self.move_time if time_limit is None else time_limit
        if not limit > 0:
            raise Texas42Error(f"a time limit is positive, not {limit}")
        if nodes is not None and nodes < 1:
            raise Texas42Error(f"a node limit is 1 or more, not {nodes}")
        await self._started()
        return await self._guarded(self._go(view, limit, nodes))

    async def choose(self, view: View, time_limit: float | None = None) -> Action:
        """The action the engine chooses for ``view`` (see `go`)."""
        return (await self.go(view, time_limit)).action

    async def close(self) -> None:
        """Say ``quit``, give the engine `QUIT_WAIT` seconds to exit, then kill it. Safe to
        call twice, and after a failure."""
        process = self._process
        if process is None:
            return
        if process.returncode is None and self.failure is None and process.stdin is not None:
            try:
                process.stdin.write(b"quit\n")
                await asyncio.wait_for(process.stdin.drain(), QUIT_WAIT)
                await asyncio.wait_for(process.wait(), QUIT_WAIT)
            except (TimeoutError, OSError):
                pass
        await self._stop()

    def kill(self) -> None:
        """Kill the engine process at once, from any thread (for finalizers)."""
        process = self._process
        if process is not None:
            _kill_group(process.pid)

    # -- the conversation -----------------------------------------------------------------

    async def _started(self) -> None:
        if self._process is None:
            await self.start()

    async def _guarded(self, work: Coroutine[Any, Any, T]) -> T:
        """Run one exchange; an engine that fails it is stopped for good."""
        if self.failure is not None:
            work.close()
            raise self._closed_error()
        try:
            return await work
        except EngineError as exc:
            self.failure = exc
            await self._stop()
            raise
        except asyncio.CancelledError:
            self.failure = EngineError(self.label, "closed", "was stopped: the host gave up")
            self.kill()
            raise

    def _closed_error(self) -> EngineError:
        assert self.failure is not None
        problem = f"was stopped after an earlier error ({self.failure.problem})"
        return EngineError(self.label, "closed", problem)

    async def _handshake(self) -> None:
        await self._send("texas42")
        deadline = self._deadline(self.timeout)
        for _ in range(MAX_LINES):
            line = await self._read(deadline, "texas42ok")
            if line is None:
                raise self._late(f"did not say texas42ok within {self.timeout:g} s", "handshake")
            word, _, rest = line.strip().partition(" ")
            rest = rest.strip()
            if word == "id":
                key, _, value = rest.partition(" ")
                if key == "name" and value.strip():
                    self.id_name = value.strip()
                elif key == "author" and value.strip():
                    self.id_author = value.strip()
            elif word == "option":
                try:
                    option = parse_option(line)
                except NotationError as exc:
                    problem = f"offered an unreadable option ({exc})"
                    raise EngineError(self.label, "handshake", problem, line) from None
                self.options[option.name.lower()] = option
            elif word == "protocolversion":
                version = whole_number(rest, signed=True)
                if version != PROTOCOL_VERSION:
                    problem = (
                        f"speaks protocol version {rest or '?'}; "
                        f"this host speaks version {PROTOCOL_VERSION}"
                    )
                    raise EngineError(self.label, "handshake", problem, line)
                self.protocol_version = version
            elif word == "texas42ok":
                if self.protocol_version is None:
                    problem = "said texas42ok without protocolversion first"
                    raise EngineError(self.label, "handshake", problem, line)
                await self._ready()
                return
            # anything else before texas42ok (a banner, an info line) is let pass
        raise self._flood("texas42ok")

    async def _new_game(self, rules: Rules) -> None:
        self._rules = rules
        self._hand_number = 0
        await self._command(f"newgame {rules}")

    async def _command(self, line: str) -> None:
        """Send a command that has no answer, then make sure the engine took it."""
        await self._send(line)
        await self._ready()

    async def _ready(self) -> None:
        """``isready`` ... ``readyok``; info lines on the way are kept, anything else is an
        error."""
        await self._send("isready")
        deadline = self._deadline(self.timeout)
        for _ in range(MAX_LINES):
            line = await self._read(deadline, "readyok")
            if line is None:
                raise self._late(f"did not say readyok within {self.timeout:g} s")
            if line.strip() == "readyok":
                return
            word = line.strip().partition(" ")[0]
            if word == "info":
                info = self._info(line)
                if info.string is not None:
                    self.messages.append(_clip(info.string))
            elif word:
                problem = "sent this while the host waited for readyok"
                raise EngineError(self.label, "unreadable", problem, line)
        raise self._flood("readyok")

    async def _go(self, view: View, limit: float, nodes: int | None) -> Answer:
        if view.rules != self._rules or view.hand_number < self._hand_number:
            await self._new_game(view.rules)
        self._hand_number = view.hand_number
        await self._send(f"position {view_position(view)}")
        await self._send("legal " + ";".join(action_words(a) for a in view.legal))
        await self._ready()
        command = f"go movetime {max(1, round(limit * 1000))}"
        if nodes is not None:
            command += f" nodes {nodes}"
        loop = asyncio.get_running_loop()
        start = loop.time()
        await self._send(command)
        deadline = start + limit
        stopped = False
        infos: list[Info] = []
        for _ in range(MAX_LINES):
            line = await self._read(deadline, "bestaction")
            if line is None:
                if stopped:
                    raise self._late(
                        f"gave no bestaction within {limit:g} s and {self.grace:g} s of grace"
                    )
                await self._send("stop")
                stopped = True
                deadline += self.grace
                continue
            word, _, rest = line.strip().partition(" ")
            if word == "info":
                infos.append(self._info(line))
            elif word == "bestaction":
                try:
                    action = read_action(rest, view.rules)
                except NotationError as exc:
                    problem = f"answered with no action ({exc})"
                    raise EngineError(self.label, "unreadable", problem, line) from None
                if action not in view.legal:
                    legal = ", ".join(action_words(a) for a in view.legal)
                    raise EngineError(
                        self.label,
                        "illegal",
                        f"chose {action_words(action)}, which is not legal here (legal: {legal})",
                        line,
                    )
                answer = Answer(action, tuple(infos), loop.time() - start)
                self.last_answer = answer
                return answer
            elif word:
                raise EngineError(
                    self.label, "unreadable", "sent this while the host waited for bestaction", line
                )
        raise self._flood("bestaction")

    def _info(self, line: str) -> Info:
        try:
            return parse_info(line, self._rules)
        except NotationError as exc:
            problem = f"sent an unreadable info line ({exc})"
            raise EngineError(self.label, "unreadable", problem, line) from None

    def _late(self, problem: str, kind: str = "timeout") -> EngineError:
        """A wait that ran out, with the last line the engine sent (if any) to show where it
        stood."""
        last = self._last_line
        if last is not None:
            problem += "; its last line"
        return EngineError(self.label, kind, problem, last)

    def _flood(self, waiting: str) -> EngineError:
        return EngineError(
            self.label,
            "flood",
            f"sent {MAX_LINES} lines while the host waited for {waiting}",
            self._last_line,
        )

    # -- the pipes ------------------------------------------------------------------------

    @staticmethod
    def _deadline(seconds: float) -> float:
        return asyncio.get_running_loop().time() + seconds

    async def _send(self, line: str) -> None:
        process = self._process
        assert process is not None and process.stdin is not None
        try:
            process.stdin.write(line.encode() + b"\n")
            await asyncio.wait_for(process.stdin.drain(), self.timeout)
        except TimeoutError:
            raise EngineError(self.label, "timeout", "stopped reading its input", line) from None
        except (BrokenPipeError, ConnectionResetError):
            raise await self._crash(f"the host sent {line.split(' ', maxsplit=1)[0]}") from None

    async def _read(self, deadline: float, waiting: str) -> str | None:
        """The next line, or None when the deadline passes first."""
        process = self._process
        assert process is not None and process.stdout is not None
        remaining = deadline - asyncio.get_running_loop().time()
        if remaining <= 0:
            return None
        try:
            raw = await asyncio.wait_for(process.stdout.readline(), remaining)
        except TimeoutError:
            return None
        except ValueError:  # the reader's limit: a line too long to be protocol
            raise EngineError(
                self.label, "unreadable", f"sent a line longer than {MAX_LINE} bytes"
            ) from None
        if not raw:
            raise await self._crash(f"the host waited for {waiting}")
        line = raw.decode("utf-8", "replace").rstrip("\r\n")
        self._last_line = line
        return line

    async def _crash(self, when: str) -> EngineError:
        process = self._process
        assert process is not None
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(process.wait(), QUIT_WAIT)
        await self._stderr_done()
        code = process.returncode
        if code is None:
            problem = "closed its output but kept running"
        elif code < 0:
            problem = f"was killed by signal {-code}"
        else:
            problem = f"exited with code {code}"
        stderr = tuple(self._stderr)
        return EngineError(self.label, "crashed", f"{problem} while {when}", None, code, stderr)

    async def _drain_stderr(self, process: asyncio.subprocess.Process) -> None:
        """Keep the last lines of the engine's standard error, so it never blocks on a full
        pipe and a crash can be reported with them."""
        stream = process.stderr
        assert stream is not None
        partial = b""
        while chunk := await stream.read(4096):
            *lines, partial = (partial + chunk).split(b"\n")
            for raw in lines:
                self._stderr.append(_clip(raw.decode("utf-8", "replace").rstrip("\r")))
            partial = partial[-MAX_LINE:]
        if partial.strip():
            self._stderr.append(_clip(partial.decode("utf-8", "replace")))

    async def _stderr_done(self) -> None:
        task = self._stderr_task
        if task is not None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(task), QUIT_WAIT / 2)

    async def _stop(self) -> None:
        """Kill the process if it still runs and wait for its end: asyncio sees a process end
        only once its pipes are drained too, so what is left of its output is read and dropped.
        A pipe held open by a process of the engine's own is waited for `QUIT_WAIT` at most."""
        process = self._process
        assert process is not None
        _kill_group(process.pid)
        if process.stdin is not None:
            process.stdin.close()
        ending: list[Awaitable[object]] = [process.wait(), self._drain(process.stdout)]
        if self._stderr_task is not None and not self._stderr_task.done():
            ending.append(asyncio.shield(self._stderr_task))
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.gather(*ending), QUIT_WAIT)
        if self._stderr_task is not None:
            self._stderr_task.cancel()

    @staticmethod
    async def _drain(stream: asyncio.StreamReader | None) -> None:
        if stream is not None:
            while await stream.read(MAX_LINE):
                pass


# -- the synchronous facade -----------------------------------------------------------------------


class _Runner:
    """The event loop every EngineBot of this process talks through, in a daemon thread."""

    def __init__(self) -> None:
        self.pid = os.getpid()
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(
            target=self.loop.run_forever, name="texas42-engines", daemon=True
        )
        self.thread.start()


_runner: _Runner | None = None
_runner_lock = threading.Lock()
_live: weakref.WeakSet[EngineBot] = weakref.WeakSet()


def _the_runner() -> _Runner:
    """The process's runner, made on first use (and again in a forked child, whose copy of the
    parent's has no thread)."""
    global _runner  # noqa: PLW0603 (one runner a process, made on first use under the lock)
    with _runner_lock:
        if _runner is None or _runner.pid != os.getpid():
            _runner = _Runner()
        return _runner


class EngineBot:
    """An outside engine as a `Bot`: ``choose(view)`` blocks until the engine answers (within
    ``time_limit`` seconds and the grace) and returns a checked legal action, or raises
    `EngineError`.

    The process starts on the first `choose` (or `start`); the constructor only checks that
    the command names a program. ``seed`` is sent as the engine's ``Seed`` option when it offers
    one, then ``options`` are set; ``nodes`` is sent with every ``go``.
    """

    def __init__(
        self,
        command: str | Sequence[str],
        *,
        name: str | None = None,
        seed: int | None = None,
        time_limit: float = MOVE_TIME,
        nodes: int | None = None,
        options: Mapping[str, str | int | bool] | None = None,
        timeout: float = 10.0,
        grace: float = 1.0,
    ) -> None:
        self.engine = AsyncEngine(
            command, name=name, timeout=timeout, move_time=time_limit, grace=grace
        )
        self.name = name or self.engine.command
        self.seed = seed
        self.nodes = nodes
        self.options = dict(options or {})
        self._owner = os.getpid()
        self._started = False
        self._closed = False
        self._lock = threading.Lock()  # one exchange at a time, whatever thread asks
        _live.add(self)

    @property
    def last_answer(self) -> Answer | None:
        """The engine's last answer, with its info lines."""
        return self.engine.last_answer

    def start(self) -> None:
        """Start the engine now and set its options (else the first `choose` does)."""
        with self._lock:
            if self._closed:
                raise Texas42Error(f"engine {self.engine.label} is closed")
            if not self._started:
                self._started = True
                self._run(self._start(), 2 * self.engine.timeout + 5)

    async def _start(self) -> None:
        engine = self.engine
        await engine.start()
        seed = engine.options.get("seed")
        if self.seed is not None and seed is not None and seed.type == "spin":
            assert seed.min is not None and seed.max is not None
            await engine.set_option(seed.name, seed.min + self.seed % (seed.max - seed.min + 1))
        for key, value in self.options.items():
            await engine.set_option(key, value)

    def choose(self, view: View) -> Action:
        return self.explain(view).action

    def explain(self, view: View) -> Decision:
        """The engine's action and its ``info ... reason`` words, made printable, as the
        reason's text (the engine saw only its seat, but nobody checked that its words name no
        tile another seat cannot see, so the public form is a neutral sentence)."""
        self.start()
        engine = self.engine
        wait = engine.move_time + engine.grace + 3 * engine.timeout + 5
        with self._lock:
            answer = self._run(engine.go(view, nodes=self.nodes), wait)
        text, public = engine_reason(self.name, answer.evaluation.reason)
        return Decision(answer.action, Reason(text, public))

    def close(self) -> None:
        """Quit the engine (killing it if it does not go); safe to call twice."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            _live.discard(self)
            if self.engine.pid is None or os.getpid() != self._owner:
                return
            try:
                self._run(self.engine.close(), 3 * QUIT_WAIT + 1)
            except (EngineError, RuntimeError, concurrent.futures.CancelledError):
                self.engine.kill()

    def __enter__(self) -> EngineBot:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        if not getattr(self, "_closed", True) and os.getpid() == self._owner:
            self.engine.kill()

    def _run(self, work: Coroutine[Any, Any, T], wait: float) -> T:
        """Run a coroutine on the shared loop and wait for it, never longer than ``wait``."""
        runner = _the_runner()
        if threading.current_thread() is runner.thread:
            work.close()
            raise RuntimeError("an EngineBot cannot wait on its own loop: use AsyncEngine there")
        future = asyncio.run_coroutine_threadsafe(work, runner.loop)
        try:
            return future.result(wait)
        except concurrent.futures.TimeoutError:
            future.cancel()
            self.engine.kill()
            raise EngineError(
                self.engine.label, "timeout", f"the host gave up after {wait:g} s"
            ) from None


@atexit.register
def _close_all() -> None:
    """Quit every engine still open when the host exits."""
    for bot in list(_live):
        bot.close()
