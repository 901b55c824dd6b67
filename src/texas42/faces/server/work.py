"""The server's expensive work, bounded and shared: reviews, hints and replays.

A double-dummy review of a hand, the hints for a turn and a game's replay frames take from tens
of milliseconds to seconds of CPU. Run in threads of the server's own process they fight the
tables' event loop for the GIL, so a flood of them slows every table's moves. `Work` runs them
in a small pool of worker processes instead (``ServerSettings.work_processes``), admits at most
``per_client`` at once from one client (a WebSocket connection, or an HTTP client's address) and
``limit`` computations in all, ``rate`` requests a second from one client (answers kept
included), and refuses past that at once with `Busy` (the ``busy`` error
code; HTTP 503 with ``Retry-After``). What a finished hand or game gives never changes, so its
answer is kept (`Cache`, bounded by bytes) and shared: every asker after the first gets the kept
text, and askers who come while it is being computed wait for that one computation.

The jobs below are what the pool runs: plain functions of picklable arguments that answer JSON
text, so the cache keeps immutable strings and every request reads its own copy to fill in.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import json
import logging
import multiprocessing
import os
import random
import threading
import time
from collections import Counter, OrderedDict
from collections.abc import Callable, Hashable
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from texas42.core.hand import Hand
from texas42.core.record import Record, RecordError, check_record
from texas42.core.view import View
from texas42.faces.server import outbound as out
from texas42.faces.server.messages import RateLimit
from texas42.faces.server.payload import layout_payload, replay_frames

log = logging.getLogger("texas42.faces.server")

T = TypeVar("T")

RETRY_AFTER = 2
"""Seconds an HTTP client refused with 503 is told to wait (``Retry-After``)."""
WORKER_NICENESS = 10
"""How much lower than the server's process a worker runs (``os.nice``)."""
ORPHAN_CHECK_SECONDS = 1.0
"""How often a worker looks whether the server that started it is still there."""
RATE_CLIENTS = 10_000
"""The most clients whose request rate is remembered (the least recent forgotten first)."""


class Busy(Exception):
    """Too much expensive work asked for: by this client, or in all. Nothing was started."""


class Cache:
    """Answers kept by key, the least recently used dropped first once they pass ``max_bytes``
    (an answer is JSON text, or a status and JSON text: the text's length is its size)."""

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self.size = 0
        self._kept: OrderedDict[Hashable, Any] = OrderedDict()

    def get(self, key: Hashable) -> Any:
        """The answer kept under ``key``, or None."""
        answer = self._kept.get(key)
        if answer is not None:
            self._kept.move_to_end(key)
        return answer

    def put(self, key: Hashable, answer: str | tuple[int, str]) -> None:
        size = _size(answer)
        if size > self.max_bytes // 4:
            return  # one huge answer would push out everything else
        old = self._kept.pop(key, None)
        if old is not None:
            self.size -= _size(old)
        self._kept[key] = answer
        self.size += size
        while self.size > self.max_bytes:
            _, dropped = self._kept.popitem(last=False)
            self.size -= _size(dropped)

    def __len__(self) -> int:
        return len(self._kept)


def _size(answer: str | tuple[int, str]) -> int:
    return len(answer) if isinstance(answer, str) else len(answer[1])


class Work:
    """The pool every expensive request goes through (see the module's docstring).

    ``processes`` 0 runs the jobs in one thread of this process instead: the tests do, so that a
    job replaced with ``monkeypatch`` is the one that runs. Limits and caches are the same."""

    def __init__(
        self,
        processes: int,
        per_client: int,
        limit: int,
        cache_bytes: int,
        rate: float = float("inf"),
    ) -> None:
        self.processes = processes
        self.per_client = per_client
        self.limit = limit
        self.rate = rate
        self.cache = Cache(cache_bytes)
        self._rates: OrderedDict[Hashable, RateLimit] = OrderedDict()
        """Each recent client's bucket (``rate`` a second, twice that at once), kept answers
        too: a kept replay still costs this process its sending."""
        self._clients: Counter[Hashable] = Counter()
        self._flight: dict[Hashable, asyncio.Future[Any]] = {}
        self._running = 0
        self._executor: concurrent.futures.Executor | None = None
        self._stopped = False

    @property
    def pending(self) -> int:
        """Computations started and not yet finished."""
        return self._running

    def allow(self, client: Hashable) -> None:
        """Count one request of ``client`` against its rate; `Busy` past it. A caller that must
        read something before it can `submit` (a game's record) asks this first, so a flood is
        refused before it costs a read."""
        if not self._bucket(client).allow():
            raise Busy(f"at most {self.rate:g} reviews, hints and replays a second: slow down")

    def submit(
        self,
        client: Hashable,
        key: Hashable | None,
        job: Callable[..., T],
        *args: Any,
        counted: bool = False,
    ) -> asyncio.Future[T]:
        """``job(*args)``, or what it gave under ``key`` before, as a future of this loop.

        Raises `Busy` at once, having started nothing, if ``client`` already waits for
        ``per_client`` answers or ``limit`` computations are under way. A kept answer is served
        whatever the limits (it costs nothing); one being computed for another asker is waited
        for, counting against this client but not against the limit. ``counted``: the request
        was already counted against the client's rate (`allow`)."""
        loop = asyncio.get_running_loop()
        mine: asyncio.Future[T] = loop.create_future()
        if not counted:
            self.allow(client)
        if key is not None:
            kept = self.cache.get(key)
            if kept is not None:
                mine.set_result(kept)
                return mine
        if self._stopped:
            raise Busy("the server is stopping")
        if self._clients[client] >= self.per_client:
            raise Busy(f"still working on your last {self.per_client} requests: wait for them")
        shared = self._flight.get(key) if key is not None else None
        if shared is None:
            if self._running >= self.limit:
                raise Busy("the server is busy with other requests: try again in a moment")
            shared = self._start(key, job, args)
        self._clients[client] += 1

        def settle(done: asyncio.Future[Any]) -> None:
            if mine.done():
                return
            if done.cancelled():
                mine.cancel()
            elif done.exception() is not None:
                mine.set_exception(done.exception())  # type: ignore[arg-type]
            else:
                mine.set_result(done.result())

        def release(_: asyncio.Future[T]) -> None:
            self._clients[client] -= 1
            if self._clients[client] <= 0:
                del self._clients[client]

        shared.add_done_callback(settle)
        mine.add_done_callback(release)
        return mine

    def _bucket(self, client: Hashable) -> RateLimit:
        bucket = self._rates.get(client)
        if bucket is None:
            bucket = self._rates[client] = RateLimit(self.rate, max(1.0, 2 * self.rate))
            while len(self._rates) > RATE_CLIENTS:
                self._rates.popitem(last=False)
        self._rates.move_to_end(client)
        return bucket

    def _start(
        self, key: Hashable | None, job: Callable[..., Any], args: Any
    ) -> asyncio.Future[Any]:
        try:
            running = asyncio.wrap_future(self._pool().submit(job, *args))
        except BrokenProcessPool:
            self._executor = None  # a worker died (killed, out of memory): a fresh pool
            running = asyncio.wrap_future(self._pool().submit(job, *args))
        self._running += 1
        if key is not None:
            self._flight[key] = running

        def finished(done: asyncio.Future[Any]) -> None:
            self._running -= 1
            if key is not None:
                self._flight.pop(key, None)
            if done.cancelled():
                return
            error = done.exception()
            if isinstance(error, BrokenProcessPool):
                self._executor = None
            elif error is None and key is not None:
                self.cache.put(key, done.result())

        running.add_done_callback(finished)
        return running

    def _pool(self) -> concurrent.futures.Executor:
        """The executor, made at the first job: its processes start when they are first needed,
        not as the app starts."""
        if self._executor is None:
            if self.processes > 0:
                # spawned, not forked: a fork of a process with threads running may inherit
                # their locks held
                context = multiprocessing.get_context("spawn")
                self._executor = concurrent.futures.ProcessPoolExecutor(
                    self.processes, mp_context=context, initializer=_yield_to_tables
                )
            else:
                self._executor = concurrent.futures.ThreadPoolExecutor(1, "texas42-work")
        return self._executor

    def worker_pids(self) -> list[int]:
        """The worker processes running now (none before the first job, or in threads)."""
        executor = self._executor
        if not isinstance(executor, concurrent.futures.ProcessPoolExecutor):
            return []
        processes = getattr(executor, "_processes", None) or {}
        return [p.pid for p in processes.values() if p.pid is not None and p.is_alive()]

    async def stop(self) -> None:
        """Refuse new work, drop what waits, end the workers (a review under way is not waited
        for: its askers are gone with the server)."""
        self._stopped = True
        executor, self._executor = self._executor, None
        if executor is None:
            return
        if isinstance(executor, concurrent.futures.ProcessPoolExecutor):
            processes = list((getattr(executor, "_processes", None) or {}).values())
            executor.shutdown(wait=False, cancel_futures=True)
            for process in processes:
                with contextlib.suppress(Exception):
                    process.terminate()
            for process in processes:
                await asyncio.to_thread(process.join, 10)
        else:
            executor.shutdown(wait=False, cancel_futures=True)


def _yield_to_tables() -> None:
    """A worker runs at a lower priority than the server's process: where the two want the
    same core, the tables' moves go first and the reviews wait. It also ends when the server
    does, even one killed with no chance to stop it (kill -9), instead of waiting forever for
    work that will not come."""
    with contextlib.suppress(OSError, AttributeError):
        os.nice(WORKER_NICENESS)
    server = os.getppid()

    def watch() -> None:
        while os.getppid() == server:
            time.sleep(ORPHAN_CHECK_SECONDS)
        os._exit(0)

    threading.Thread(target=watch, name="texas42-orphan-watch", daemon=True).start()


# -- the jobs -----------------------------------------------------------------------------------


def review_job(hand: Hand, number: int, samples: int) -> str:
    """A finished hand reviewed (`texas42.players.review.review_hand`): the engine's figures
    for every seat as JSON, before any viewer's words or filtering. ``rng`` is seeded by the
    hand's number, so the answer is the same every time and may be kept."""
    from texas42.players import review

    found = review.review_hand(hand, number, bid_samples=samples, rng=random.Random(number))
    return json.dumps(found.to_dict())


def hint_job(view: View, samples: int, seed: int) -> Any:
    """The legal actions ranked for a turn and the expert's choice with its reason
    (`texas42.players.hints.advise`)."""
    from texas42.players import hints

    return hints.advise(view, samples=samples, seed=seed)


def replay_job(text: str) -> tuple[int, str]:
    """A record's replay frames: (200, the `Replay` as JSON), or (400, a `Failure`) for a record
    that is not one or that breaks the rules (checked with `check_record` first)."""
    try:
        record = Record.from_json(text)
        report = check_record(record)
    except RecordError as exc:
        return 400, out.encode(out.Failure(error=exc.line()))
    except RecursionError:
        return 400, out.encode(out.Failure(error="not JSON: nested too deeply"))
    replay = out.Replay(
        record=record.to_dict(),
        layout=layout_payload(record.rules),
        unit="marks" if record.rules.game == "marks" else "points",
        frames=replay_frames(list(report.hands), record.rules, record.players or ()),
    )
    return 200, out.encode(replay)


__all__ = ["RETRY_AFTER", "Busy", "Cache", "Work", "hint_job", "replay_job", "review_job"]
