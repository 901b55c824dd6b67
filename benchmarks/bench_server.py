"""How many tables the web server carries: N tables of bots played over real WebSockets on loopback.

    .venv/bin/python benchmarks/bench_server.py [--tables N] [--seconds S] [--bot-delay D]
                                                [--think T] [--spectators] [--no-compression] [--flood N]
                                                [--processes N] [--db URL | --postgres]

Starts ``texas42 serve`` as a process of its own (a fresh SQLite file, a free port), then opens
``--tables`` tables (default 200). At each one a client of this benchmark sits at seat 0, puts
``medium`` bots in the other three seats, starts the game and, whenever it is seat 0's turn, sends
the first legal action, at once or after ``--think`` seconds (a person's pause); a finished game is followed by a rematch, so every table keeps
playing. The bots wait ``--bot-delay`` seconds (default 0.7, what ``texas42 serve`` uses) before
each action, as they do for people. With ``--spectators`` every table also has one spectator.

Once every table is playing, ``--seconds`` (default 30) are measured. The latency is from the
moment the client sends ``act`` to the moment it receives the ``state`` with the new ``seq``: the
server's whole path from an action to its broadcast (checks, the SQLite commit, the payload,
the socket), with no bot thinking in it. A spectator's latency is from that same ``act`` to the
spectator's copy of the state. Also printed: actions, hands and games a second over all tables,
and the server's resident memory and CPU. Both processes share the machine, so the client's own
CPU is printed too, and so is what every other process used meanwhile: the latency tail is only
the server's own when that is near 0. The clients keep to the server's rate limit (ten messages
a second, bursts of twenty) by waiting before they send; a refused message is counted and
printed, never hidden.

With ``--processes N`` (and ``--db postgresql://...``, or ``--postgres`` for a throwaway cluster
made as the tests make theirs, ``tests/pg.py``) N server processes share one database, and the
clients are spread over them as a proxy without sticky sessions would: table ``i`` is created
at process ``i mod N``, its player connects there, and its spectator (``--spectators``) at the
next process, so the spectator's latency is an action's way from one process to another (its
commit, the NOTIFY, the other process reading the log and broadcasting). Each process's CPU and
memory is printed.

With ``--flood N`` a game of one hand (``target=1``) is played to its end first, then, beside
the tables, N clients ask for expensive work as fast as they are answered, none of it paced:
each keeps a spectator's socket on the finished game asking for the review of its hand, and
asks over HTTP for that game's replay and for the replay of an imported record made different
every time (so no answer kept can serve it). Printed: how many were served and refused
(``busy`` over the socket, 503 over HTTP), beside the tables' latency.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import Counter
from collections.abc import Coroutine
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psutil
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

sys.path.insert(0, str(Path(__file__).parent))

import contextlib

from bench_engine import machine
from texas42.faces.server.app import GC_THRESHOLDS

START_SECONDS = 30
SETUP_AT_ONCE = 20
"""Tables being set up at the same time, so the start is not one burst of hundreds of sockets."""
RATE, BURST = 9.0, 18.0
"""Every client keeps under the server's limit on one connection (``texas42.faces.server.messages``:
ten a second, bursts of twenty), with a margin for messages bunched on the way."""


FLOOD_RECORD = Path(__file__).parents[1] / "examples" / "ex14-marks.json"
"""The record the flood imports, its trailing whitespace different every time."""


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


@dataclass
class Stats:
    """What the clients saw while the window was open."""

    measuring: bool = False
    latencies: list[float] = field(default_factory=list)
    spectator_latencies: list[float] = field(default_factory=list)
    actions: int = 0
    hands: int = 0
    games: int = 0
    own_actions: int = 0
    paced: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    dropped: int = 0
    watching: int = 0
    """Spectators connected."""
    flood: Counter[str] = field(default_factory=Counter)
    """Flood requests by kind and answer (``review served``, ``import refused``...)."""


class Pace:
    """The client's copy of the server's token bucket: it waits rather than be refused."""

    def __init__(self, stats: Stats) -> None:
        self.stats = stats
        self.tokens = BURST
        self.stamp = time.monotonic()

    async def send(self, ws: ClientConnection, message: dict[str, Any]) -> float:
        """Send ``message`` once the bucket allows; the moment it went out."""
        while True:
            now = time.monotonic()
            self.tokens = min(BURST, self.tokens + (now - self.stamp) * RATE)
            self.stamp = now
            if self.tokens >= 1:
                break
            self.stats.paced += 1
            await asyncio.sleep((1 - self.tokens) / RATE)
        self.tokens -= 1
        sent = time.perf_counter()
        await ws.send(json.dumps(message))
        return sent


@dataclass
class Table:
    id: str
    sent: dict[tuple[int, int], float] = field(default_factory=dict)
    """(game, seq) of each of seat 0's actions -> when it was sent, for the spectator."""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_server(
    folder: Path, port: int, bot_delay: float, db: str | None = None, index: int = 0
) -> subprocess.Popen[bytes]:
    command = [
        sys.executable,
        "-m",
        "texas42",
        "serve",
        "--port",
        str(port),
        "--db",
        db or str(folder / "bench.sqlite"),
        "--bot-delay",
        str(bot_delay),
        "--create-burst",  # every table of the run comes from this one address
        "100000",
        "--max-connections",
        "5000",
    ]
    log_path = folder / (f"server-{index}.log" if index else "server.log")
    with open(log_path, "wb") as log:
        process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + START_SECONDS
    while True:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/options", timeout=5):
                return process
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                sys.exit("the server did not start:\n" + log_path.read_text())
            time.sleep(0.05)


def create_table(base: str, number: int, rules: str = "standard") -> str:
    body = json.dumps({"rules": rules, "name": f"Bench {number}"}).encode()
    request = urllib.request.Request(
        base + "/api/tables", body, {"Content-Type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        table: str = json.loads(response.read())["id"]
        return table


async def receive(ws: ClientConnection, kind: str, stats: Stats) -> dict[str, Any]:
    while True:
        message: dict[str, Any] = json.loads(await ws.recv())
        if message["type"] == "error":
            stats.errors[message["code"]] += 1
        elif message["type"] == kind:
            return message


async def player(
    url: str,
    table: Table,
    stats: Stats,
    compression: str | None,
    setup: asyncio.Semaphore,
    ready: asyncio.Event,
    think: float = 0.0,
) -> None:
    """Seat 0: sets the table up, then acts on every turn (at once, or after ``think`` seconds,
    as a person would) and rematches every game."""
    pace = Pace(stats)
    async with connect(url, compression=compression, max_size=None, open_timeout=60) as ws:
        async with setup:
            await sit_with_bots(ws, pace, stats)
            while (await receive(ws, "state", stats))["table"]["status"] != "playing":
                pass
        ready.set()
        game_number, seq, hand_done, rematch = 1, 0, 0, 0
        latest: dict[str, Any] | None = None
        pending: tuple[int, int, float] | None = None

        async def move(state: dict[str, Any]) -> None:
            """Rematch a finished game, or act at once on seat 0's turn."""
            nonlocal pending, rematch
            number, game = state["table"]["game_number"], state["game"]
            if game["outcome"] is not None:
                if rematch < number:
                    rematch = number
                    await pace.send(ws, {"type": "rematch"})
            elif game["hand"]["legal"] and pending is None:
                if think:  # a person's pause: not part of the latency, which starts at the send
                    await asyncio.sleep(think)
                action = game["hand"]["legal"][0]["action"]
                sent = await pace.send(ws, {"type": "act", "action": action, "seq": state["seq"]})
                pending = (number, state["seq"], sent)
                table.sent[(number, state["seq"])] = sent
                if stats.measuring:
                    stats.own_actions += 1

        async for raw in ws:
            got = time.perf_counter()
            message = json.loads(raw)
            if message["type"] == "error":
                # Only acts and rematches are sent now; a refused one changed nothing, so it
                # is sent again from the last state (a rate refusal is followed by no state).
                stats.errors[message["code"]] += 1
                pending, rematch = None, 0
                if latest is not None:
                    await move(latest)
                continue
            if message["type"] != "state" or message["game"] is None:
                continue
            latest = message
            number, now = message["table"]["game_number"], message["seq"]
            if number != game_number:
                game_number, seq, hand_done = number, 0, 0
            if pending is not None and (number, now) > pending[:2]:
                if stats.measuring:
                    stats.latencies.append(got - pending[2])
                pending = None
            game = message["game"]
            last = game["last_hand"]["number"] if game["last_hand"] is not None else 0
            if stats.measuring:
                stats.actions += max(0, now - seq)
                stats.hands += max(0, last - hand_done)
                stats.games += game["outcome"] is not None and now > seq
            seq, hand_done = max(seq, now), max(hand_done, last)
            await move(message)


async def spectator(
    url: str,
    table: Table,
    stats: Stats,
    compression: str | None,
    setup: asyncio.Semaphore,
    ready: asyncio.Event,
) -> None:
    """Watches one table: how long seat 0's actions take to reach someone who only watches.
    It comes once its table is playing, as many at once as tables are set up."""
    await ready.wait()
    async with setup:
        ws = await connect(url, compression=compression, max_size=None, open_timeout=60)
        await Pace(stats).send(ws, {"type": "hello"})
        stats.watching += 1
    async with ws:
        async for raw in ws:
            got = time.perf_counter()
            message = json.loads(raw)
            if message["type"] != "state" or message["last"] is None:
                continue
            key = (message["table"]["game_number"], message["seq"] - 1)
            sent = table.sent.pop(key, None)
            if sent is not None and message["last"]["seat"] == 0 and stats.measuring:
                stats.spectator_latencies.append(got - sent)


async def sit_with_bots(ws: ClientConnection, pace: Pace, stats: Stats) -> None:
    """Join, sit at seat 0, put medium bots in the other seats and start the game."""
    await pace.send(ws, {"type": "hello"})
    await receive(ws, "welcome", stats)
    await pace.send(ws, {"type": "sit", "seat": 0, "name": "Bench"})
    await receive(ws, "seated", stats)
    for seat in (1, 2, 3):
        await pace.send(ws, {"type": "bot", "seat": seat, "level": "medium"})
    await pace.send(ws, {"type": "start"})


async def finished_game(base: str, ws_base: str, stats: Stats) -> str:
    """A table whose one-hand game is over (seat 0 this client, bots elsewhere): its id."""
    table = await asyncio.to_thread(create_table, base, -1, "standard,target=1")
    pace = Pace(stats)
    async with connect(f"{ws_base}/ws/{table}", max_size=None, open_timeout=60) as ws:
        await sit_with_bots(ws, pace, stats)
        acted = -1
        while True:
            state = await receive(ws, "state", stats)
            game = state["game"]
            if game is None:
                continue
            if game["outcome"] is not None:
                return table
            if game["hand"]["legal"] and state["seq"] != acted:
                acted = state["seq"]
                action = game["hand"]["legal"][0]["action"]
                await pace.send(ws, {"type": "act", "action": action, "seq": acted})


async def http(host: str, port: int, method: str, path: str, body: bytes = b"") -> int:
    """One HTTP request on a connection of its own; its status (the body is read and dropped)."""
    reader, writer = await asyncio.open_connection(host, port)
    try:
        head = (
            f"{method} {path} HTTP/1.1\r\nHost: {host}:{port}\r\nConnection: close\r\n"
            f"Content-Length: {len(body)}\r\nContent-Type: application/json\r\n\r\n"
        )
        writer.write(head.encode() + body)
        await writer.drain()
        status = int((await reader.readline()).split()[1])
        while await reader.read(1 << 16):
            pass
        return status
    finally:
        writer.close()
        with contextlib.suppress(Exception):
            await writer.wait_closed()


async def flooder(base: str, ws_base: str, table: str, number: int, stats: Stats) -> None:
    """One client of the flood: a review over its socket, then the game's replay, then an
    imported record's replay, again and again; a refusal is counted and the next one asked."""
    host, port = base.removeprefix("http://").split(":")
    record = FLOOD_RECORD.read_bytes()
    pace = Pace(stats)
    count = 0
    async with connect(f"{ws_base}/ws/{table}", max_size=None, open_timeout=60) as ws:
        await pace.send(ws, {"type": "hello"})
        await receive(ws, "welcome", stats)
        while True:
            await pace.send(ws, {"type": "review", "hand": 1})
            while True:
                message = json.loads(await ws.recv())
                if message["type"] == "review" or message["type"] == "error":
                    break
            served = message["type"] == "review"
            count += 1
            answers = [
                ("review", served),
                (
                    "replay",
                    await http(host, int(port), "GET", f"/api/tables/{table}/games/1/replay")
                    == 200,
                ),
                (
                    "import",
                    await http(
                        host,
                        int(port),
                        "POST",
                        "/api/replay",
                        record + b" " * count + b"\n" * number,
                    )
                    == 200,
                ),
            ]
            for kind, ok in answers:
                if stats.measuring:
                    stats.flood[f"{kind} {'served' if ok else 'refused'}"] += 1
            if not all(ok for _, ok in answers):
                await asyncio.sleep(0.01)  # refused at once: not a spin of the client's own CPU


async def counted(client: Coroutine[Any, Any, None], stats: Stats) -> None:
    """A client to the end of its socket: one the server closes is counted, never hidden."""
    with contextlib.suppress(ConnectionClosed):
        await client
    stats.dropped += 1


async def all_set(readies: list[asyncio.Event]) -> None:
    """Every table is playing: the measured window may open."""
    for ready in readies:
        await ready.wait()


async def run(
    args: argparse.Namespace, bases: list[str], servers: list[psutil.Process]
) -> dict[str, Any]:
    stats = Stats()
    base = bases[0]
    ws_base = base.replace("http://", "ws://")
    ws_bases = [b.replace("http://", "ws://") for b in bases]
    count = len(bases)
    compression = None if args.no_compression else "deflate"
    began = time.perf_counter()
    ids = [await asyncio.to_thread(create_table, bases[n % count], n) for n in range(args.tables)]
    tables = [Table(table_id) for table_id in ids]
    flood: list[asyncio.Task[None]] = []
    if args.flood:
        over = await finished_game(base, ws_base, stats)
        flood = [
            asyncio.create_task(counted(flooder(base, ws_base, over, n, stats), stats))
            for n in range(args.flood)
        ]
    setup = asyncio.Semaphore(SETUP_AT_ONCE)
    readies = [asyncio.Event() for _ in tables]
    tasks = [
        asyncio.create_task(
            counted(
                player(
                    f"{ws_bases[n % count]}/ws/{t.id}",
                    t,
                    stats,
                    compression,
                    setup,
                    ready,
                    args.think,
                ),
                stats,
            )
        )
        for n, (t, ready) in enumerate(zip(tables, readies))
    ]
    if args.spectators:  # at the next process: an action's way from one process to another
        tasks += [
            asyncio.create_task(
                counted(
                    spectator(
                        f"{ws_bases[(n + 1) % count]}/ws/{t.id}",
                        t,
                        stats,
                        compression,
                        setup,
                        ready,
                    ),
                    stats,
                )
            )
            for n, (t, ready) in enumerate(zip(tables, readies))
        ]
        spectators = asyncio.Event()
        readies.append(spectators)  # the window opens once every spectator watches too

        async def all_watching() -> None:
            while stats.watching < len(tables):
                await asyncio.sleep(0.2)
            spectators.set()

        flood.append(asyncio.create_task(all_watching()))  # not a client: cancelled at the end
    waiting = asyncio.create_task(all_set(readies))
    done, _ = await asyncio.wait([waiting, *tasks], return_when=asyncio.FIRST_COMPLETED)
    if waiting not in done:
        failed = next(iter(done))
        why = failed.exception() or "the server closed its socket"
        raise RuntimeError(f"a table could not be set up: {why!r}")
    setup_seconds = time.perf_counter() - began
    me = psutil.Process()
    rss_start = [server.memory_info().rss for server in servers]
    server_cpu = [sum(server.cpu_times()[:2]) for server in servers]
    database = database_processes(servers)
    database_cpu = sum(_cpu(p) for p in database)
    client_cpu = sum(me.cpu_times()[:2])
    machine_busy = busy_seconds()
    rss_peak = list(rss_start)
    stats.measuring = True
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < args.seconds:
        await asyncio.sleep(min(0.5, args.seconds - elapsed))
        rss_peak = [max(p, s.memory_info().rss) for p, s in zip(rss_peak, servers)]
    stats.measuring = False
    seconds = time.perf_counter() - start
    server_cpu = [sum(s.cpu_times()[:2]) - c for s, c in zip(servers, server_cpu)]
    database_cpu = sum(_cpu(p) for p in database) - database_cpu
    client_cpu = sum(me.cpu_times()[:2]) - client_cpu
    machine_busy = busy_seconds() - machine_busy
    rss_end = [server.memory_info().rss for server in servers]
    for task in [*tasks, *flood]:
        task.cancel()
    await asyncio.gather(*tasks, *flood, return_exceptions=True)
    return {
        "stats": stats,
        "seconds": seconds,
        "setup": setup_seconds,
        "rss": list(zip(rss_start, rss_peak, rss_end)),
        "server_cpu": [cpu / seconds for cpu in server_cpu],
        "database_cpu": database_cpu / seconds,
        "client_cpu": client_cpu / seconds,
        "others_cpu": max(0.0, machine_busy - sum(server_cpu) - database_cpu - client_cpu)
        / seconds,
    }


def database_processes(servers: list[psutil.Process]) -> list[psutil.Process]:
    """The ``postgres`` processes on this machine (none on SQLite): the database's CPU, counted
    apart from every other process's (with ``--postgres`` they are the throwaway cluster's)."""
    found = []
    for process in psutil.process_iter(["name", "cmdline"]):
        with contextlib.suppress(psutil.Error):
            if process.info["name"] == "postgres":
                found.append(process)
    return found


def _cpu(process: psutil.Process) -> float:
    try:
        return float(sum(process.cpu_times()[:2]))
    except psutil.Error:
        return 0.0


def busy_seconds() -> float:
    """CPU seconds the whole machine has spent busy, over all cores."""
    times = psutil.cpu_times()
    return float(
        times.user
        + times.nice
        + times.system
        + getattr(times, "irq", 0.0)
        + getattr(times, "softirq", 0.0)
    )


def latency_row(name: str, values: list[float]) -> str:
    if not values:
        return f"| {name} | 0 | | | | |"
    ms = [v * 1e3 for v in values]
    return (
        f"| {name} | {len(ms)} | {percentile(ms, 0.5):.1f} | {percentile(ms, 0.9):.1f} "
        f"| {percentile(ms, 0.99):.1f} | {max(ms):.1f} |"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=200, help="tables at once (default 200)")
    parser.add_argument("--seconds", type=float, default=30.0, help="seconds measured (default 30)")
    parser.add_argument(
        "--bot-delay",
        type=float,
        default=0.7,
        help="seconds a bot waits before it acts (default 0.7)",
    )
    parser.add_argument(
        "--think",
        type=float,
        default=0.0,
        help="seconds seat 0 waits before it acts, as a person would (default 0: at once)",
    )
    parser.add_argument("--spectators", action="store_true", help="one spectator at every table")
    parser.add_argument(
        "--no-compression", action="store_true", help="no permessage-deflate (browsers ask for it)"
    )
    parser.add_argument(
        "--flood",
        type=int,
        default=0,
        help="clients asking for reviews and replays beside the tables, unpaced (default 0)",
    )
    parser.add_argument(
        "--processes", type=int, default=1, help="server processes on one database (default 1)"
    )
    parser.add_argument(
        "--db", default=None, help="the servers' database (default: a new SQLite file)"
    )
    parser.add_argument(
        "--postgres",
        action="store_true",
        help="a throwaway PostgreSQL cluster for the run, as the tests make (tests/pg.py)",
    )
    args = parser.parse_args(argv)
    if args.processes < 1:
        parser.error("--processes must be positive")
    if args.processes > 1 and not args.postgres and not (args.db or "").startswith("postgres"):
        parser.error("--processes over 1 needs --db postgresql://... or --postgres")
    if args.tables < 1 or args.seconds <= 0 or min(args.bot_delay, args.think, args.flood) < 0:
        parser.error(
            "--tables and --seconds must be positive, --bot-delay, --think and --flood not negative"
        )
    # the clients are the measuring instrument: a full collection of their thousands of
    # sockets would stall every reading, as the server's own would (`app.GC_THRESHOLDS`)
    gc.set_threshold(*GC_THRESHOLDS)
    print("texas42 server benchmark (server and client processes on one machine)")
    for line in machine():
        print(f"  {line}")
    print(f"  command: {' '.join([Path(sys.argv[0]).name, *sys.argv[1:]])}")
    print(
        f"  tables: {args.tables}, bots: medium at seats 1-3 with --bot-delay {args.bot_delay}, "
        f"seat 0 acts after --think {args.think} s, "
        f"spectators: {'one a table' if args.spectators else 'none'}, "
        f"compression: {'none' if args.no_compression else 'permessage-deflate'}"
    )
    if args.flood:
        print(f"  flood: {args.flood} clients asking for reviews and replays, unpaced")
    where = "a throwaway PostgreSQL" if args.postgres else "PostgreSQL" if args.db else "SQLite"
    print(f"  server processes: {args.processes} on {where}")
    print()
    with contextlib.ExitStack() as stack:
        folder = stack.enter_context(tempfile.TemporaryDirectory(prefix="texas42-bench-"))
        db = args.db
        if args.postgres:
            sys.path.insert(0, str(Path(__file__).parents[1] / "tests"))
            import pg

            db = stack.enter_context(pg.cluster()).create_database()
        ports = [free_port() for _ in range(args.processes)]
        processes: list[subprocess.Popen[bytes]] = []
        try:
            for index, port in enumerate(ports):
                processes.append(start_server(Path(folder), port, args.bot_delay, db, index))
            servers = [psutil.Process(process.pid) for process in processes]
            rss_idle = [server.memory_info().rss for server in servers]
            bases = [f"http://127.0.0.1:{port}" for port in ports]
            result = asyncio.run(run(args, bases, servers))
        finally:
            for process in processes:
                process.terminate()
            for process in processes:
                try:
                    process.wait(10)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()
    stats: Stats = result["stats"]
    seconds: float = result["seconds"]
    mib = 1 << 20
    print(f"set-up of {args.tables} tables: {result['setup']:.1f} s; measured {seconds:.1f} s")
    print()
    print("| latency, act to state | count | p50 ms | p90 ms | p99 ms | max ms |")
    print("|---|---:|---:|---:|---:|---:|")
    print(latency_row("player (its own state)", stats.latencies))
    if args.spectators:
        far = " at another process" if args.processes > 1 else ""
        print(latency_row(f"spectator{far} (the same state)", stats.spectator_latencies))
    print()
    print("| throughput | total | per second |")
    print("|---|---:|---:|")
    print(f"| actions (all seats) | {stats.actions} | {stats.actions / seconds:.1f} |")
    print(f"| actions by seat 0 | {stats.own_actions} | {stats.own_actions / seconds:.1f} |")
    print(f"| hands finished | {stats.hands} | {stats.hands / seconds:.2f} |")
    print(f"| games finished | {stats.games} | {stats.games / seconds:.3f} |")
    print()
    for index, (idle, (rss_start, rss_peak, rss_end), cpu) in enumerate(
        zip(rss_idle, result["rss"], result["server_cpu"])
    ):
        print(f"| server process {index + 1} | |" if args.processes > 1 else "| server process | |")
        print("|---|---:|")
        print(f"| RSS idle, before any table | {idle / mib:.1f} MiB |")
        print(
            f"| RSS with the tables playing: start, peak, end | {rss_start / mib:.1f}, "
            f"{rss_peak / mib:.1f}, {rss_end / mib:.1f} MiB |"
        )
        print(f"| RSS per table | {(rss_end - idle) / args.tables / 1024:.0f} KiB |")
        print(f"| CPU (1.0 = one core busy) | {cpu:.2f} |")
        print()
    print("| the rest of the machine | |")
    print("|---|---:|")
    if args.postgres or args.db:
        print(f"| PostgreSQL's CPU | {result['database_cpu']:.2f} |")
    print(f"| the benchmark's own CPU | {result['client_cpu']:.2f} |")
    print(f"| every other process's CPU (should be near 0) | {result['others_cpu']:.2f} |")
    print()
    refused = ", ".join(f"{code} {n}" for code, n in sorted(stats.errors.items())) or "none"
    print(
        f"messages refused by the server: {refused}; sends held back to keep the rate limit: "
        f"{stats.paced}; sockets closed by the server: {stats.dropped}"
    )
    if args.flood:
        print()
        print("| flood requests, measured window | served | refused (busy / 503) |")
        print("|---|---:|---:|")
        for kind in ("review", "replay", "import"):
            served, refused_n = stats.flood[f"{kind} served"], stats.flood[f"{kind} refused"]
            print(f"| {kind} | {served} | {refused_n} |")


if __name__ == "__main__":
    main()
