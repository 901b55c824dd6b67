"""Coaching at the web table and on a player's page (`texas42.services.learn.coach`).

A finished game is coached once, in the server's work pool (`work.Work`: rate-limited, shared,
kept): `coach_job` reviews its record (`review_record`, as ``texas42 analyze --samples N``) and
coaches every seat, a seat with the seats its person plays (both hands of a partnership in
two-hand). Only finished games are coached: their records are already public through the replay,
and a game being played is not in ``games`` at all, so no tile of a live game can come this way.

Each seat's figures are kept in the ``coaching`` table (`Storage.save_coaching`), written when a
player's page asks (`fill_coaching`, a few games a request, in the background): the page reads the figures, never
a review. `trend_lines` says how a player's rates move over their games.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Hashable, Mapping, Sequence
from typing import Any

from texas42.core import words
from texas42.core.layout import layout_of
from texas42.core.record import Record, RecordError
from texas42.core.rules import Rules, seats_held
from texas42.faces.server import outbound as out
from texas42.faces.server.storage import PlayerSeats, Storage
from texas42.faces.server.work import Busy, Work
from texas42.services.learn.coach import COACH_VERSION, coach_record

log = logging.getLogger("texas42.faces.server")

FILL_PER_REQUEST = 2
"""Older games a player's page starts coaching per request (the rest wait for the next)."""

Figures = Mapping[str, int]
_filling: set[asyncio.Task[None]] = set()
"""Coachings started for a page, held until they are stored."""


def coach_job(record: str, samples: int) -> tuple[int, str]:
    """A finished game's record coached for every seat: (200, a JSON list by seat of
    `Coaching.to_dict` with its ``seats``), or (400, a `Failure`) for a record that does not
    replay. Seeded (0), so the answer is the same every time and may be kept."""
    try:
        parsed = Record.from_json(record)
        groups = [seats_held(parsed.rules, s) for s in range(layout_of(parsed.rules).seats)]
        found = coach_record(parsed, groups, bid_samples=samples, seed=0)
    except RecordError as exc:
        return 400, out.encode(out.Failure(error=exc.line()))
    return 200, json.dumps(
        [{**c.to_dict(), "seats": list(group)} for c, group in zip(found, groups)]
    )


def _key(table_id: str, number: int, samples: int) -> tuple[Hashable, ...]:
    return ("coach", table_id, number, samples)


def submit(
    work: Work,
    client: Hashable,
    table_id: str,
    number: int,
    record: str,
    samples: int,
    *,
    counted: bool = False,
) -> asyncio.Future[tuple[int, str]]:
    """The game's coaching from the pool (kept, or being computed for another, or started);
    `Busy` at once if this client or the server has too much under way (``counted``: the
    request was already counted against the client's rate)."""
    key = _key(table_id, number, samples)
    return work.submit(client, key, coach_job, record, samples, counted=counted)


def kept(work: Work, table_id: str, number: int, samples: int) -> tuple[int, str] | None:
    answer: tuple[int, str] | None = work.cache.get(_key(table_id, number, samples))
    return answer


async def store(storage: Storage, table_id: str, number: int, answer: tuple[int, str]) -> None:
    """Keep a coaching's figures for every seat in ``coaching``."""
    status, text = answer
    if status != 200:
        return
    seats = [entry["summary"] for entry in json.loads(text)]
    await storage.run(storage.save_coaching, table_id, number, seats, COACH_VERSION)


def fill_coaching(
    work: Work,
    storage: Storage,
    client: Hashable,
    missing: Sequence[PlayerSeats],
    samples: int,
) -> None:
    """Start coaching up to `FILL_PER_REQUEST` of these games (finished, without figures) in
    the background, their figures stored when done; stop at the first the pool refuses."""
    for entry in missing[:FILL_PER_REQUEST]:
        game = entry.game
        try:
            pending = submit(work, client, game.table_id, game.number, game.record, samples)
        except Busy:
            return

        task = asyncio.ensure_future(_stored(storage, game.table_id, game.number, pending))
        _filling.add(task)
        task.add_done_callback(_filling.discard)


async def _stored(
    storage: Storage, table_id: str, number: int, pending: asyncio.Future[tuple[int, str]]
) -> None:
    try:
        await store(storage, table_id, number, await pending)
    except Exception:
        log.exception("table %s, game %d: no coaching", table_id, number)


def game_figures(rules: str, seats: Sequence[int], rows: Mapping[int, Figures]) -> Figures | None:
    """A player's figures in one game: their seats' (each person's seats counted once), or
    None if a seat of theirs has none stored yet."""
    parsed = Rules.parse(rules)
    groups: dict[tuple[int, ...], int] = {}
    for seat in seats:
        groups.setdefault(tuple(sorted(seats_held(parsed, seat))), seat)
    total = dict.fromkeys(("plays", "mistakes", "given_up", "hands", "bids", "made"), 0)
    for seat in groups.values():
        if seat not in rows:
            return None
        for name in total:
            total[name] += rows[seat][name]
    return total


def figures_body(figures: Figures) -> out.CoachFigures:
    plays, hands, bids = figures["plays"], figures["hands"], figures["bids"]
    return out.CoachFigures(
        plays=plays,
        mistakes=figures["mistakes"],
        given_up=figures["given_up"],
        hands=hands,
        bids=bids,
        made=figures["made"],
        mistake_rate=round(100 * figures["mistakes"] / plays, 2) if plays else 0.0,
        given_up_per_hand=round(figures["given_up"] / hands, 2) if hands else 0.0,
        make_rate=round(100 * figures["made"] / bids, 2) if bids else None,
    )


def trend(values: Sequence[float]) -> tuple[float, float]:
    """The least-squares line through ``values`` (oldest first): its value at the first and at
    the last.

    >>> trend([10.0, 8.0, 6.0]), trend([5.0])
    ((10.0, 6.0), (5.0, 5.0))
    """
    n = len(values)
    if n < 2:
        return (values[0], values[0]) if values else (0.0, 0.0)
    mean_x, mean_y = (n - 1) / 2, sum(values) / n
    slope = sum((x - mean_x) * (y - mean_y) for x, y in enumerate(values)) / sum(
        (x - mean_x) ** 2 for x in range(n)
    )
    return mean_y - slope * mean_x, mean_y + slope * (n - 1 - mean_x)


def trend_lines(coached: Sequence[out.CoachFigures]) -> list[str]:
    """How the rates move over a player's coached games (oldest first), a line each."""
    if not coached:
        return []
    lines = []
    rates: list[tuple[str, list[float], bool]] = [
        ("Mistakes per 100 plays", [c.mistake_rate for c in coached], True),
        ("Points given up per hand", [c.given_up_per_hand for c in coached], True),
        ("Bids made, in %", [c.make_rate for c in coached if c.make_rate is not None], False),
    ]
    for label, values, lower in rates:
        if values:
            first, last = trend(values)
            lines.append(words.coach_trend_words(label, first, last, len(values), lower=lower))
    return lines


def coaching_body(
    text: str, table_id: str, number: int, seat: int, names: Sequence[str], samples: int
) -> out.Coaching:
    """The coaching of ``seat`` out of a game's coaching for every seat (`coach_job`), whose
    seats its words call ``names``."""
    entry: dict[str, Any] = json.loads(text)[seat]
    return out.read(
        out.Coaching,
        {
            "table": table_id,
            "game": number,
            "seat": seat,
            "seats": entry["seats"],
            "name": entry["name"],
            "seat_names": list(names),
            "summary": out.fields_of(figures_body(entry["summary"])),
            "summary_line": entry["summary_line"],
            "mistakes": entry["mistakes"],
            "no_mistakes_line": entry["no_mistakes_line"],
            "version": entry["version"],
            "samples": samples,
            "replay": f"/replay/{table_id}/{number}",
        },
    )


__all__ = [
    "FILL_PER_REQUEST",
    "coach_job",
    "coaching_body",
    "fill_coaching",
    "game_figures",
    "kept",
    "store",
    "submit",
    "trend",
    "trend_lines",
]
