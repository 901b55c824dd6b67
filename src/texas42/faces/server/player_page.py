"""A player's page: their finished games, and what they came to, from the games' records.

A player is a display name and a secret kept on their device; the server knows only the
secret's public id (`texas42.faces.server.room.player_id`). Storage says which player sat in
which seat of each finished game (``game_players``); everything else here is read from the
game's record, replayed by `texas42.core.record.check_record`, whose hand results say who won
each bid and whether it was made. Only finished games are ever stored there, so the page can
carry nothing of a game still being played: no tile at all, in fact, only names and figures.
"""

from __future__ import annotations

import logging
import re
import threading
from collections import OrderedDict
from collections.abc import Mapping

from texas42.core.errors import Texas42Error
from texas42.core.layout import layout_of
from texas42.core.record import Record, check_record
from texas42.core.rules import Rules
from texas42.faces.server import outbound as out
from texas42.faces.server.coaching import figures_body, game_figures, trend_lines
from texas42.faces.server.storage import PlayerSeats

PLAYER_ID = re.compile(r"^[0-9a-f]{16}$")
"""A player's public id as `player_id` makes it; any other text names no player."""
PLAYER_GAMES_LIMIT = 500
"""A page shows (and counts) a player's latest games up to this many."""
_BIDS_CACHED = 4096

Bids = tuple[tuple[int, bool], ...]
"""Each hand's bid winner and whether the bid was made, for the hands that had a bidder."""

_bids: OrderedDict[tuple[str, int], Bids] = OrderedDict()
_bids_lock = threading.Lock()
log = logging.getLogger("texas42.faces.server")


def game_bids(table_id: str, number: int, record: str) -> Bids:
    """Who won each hand's bid and whether it was made, from the game's record (kept for the
    latest games asked about: a finished game's record never changes)."""
    key = (table_id, number)
    with _bids_lock:
        if key in _bids:
            _bids.move_to_end(key)
            return _bids[key]
    try:
        report = check_record(Record.from_json(record))
    except Texas42Error as exc:
        # a record this server's rules no longer replay counts no bids rather than no page
        log.error("table %s, game %d: its record does not replay: %s", table_id, number, exc)
        return ()
    found = tuple(
        (result.bidder, bool(result.made))
        for result in report.results
        if result.bidder is not None and result.made is not None
    )
    with _bids_lock:
        _bids[key] = found
        while len(_bids) > _BIDS_CACHED:
            _bids.popitem(last=False)
    return found


Coached = Mapping[tuple[str, int, int], Mapping[str, int]]
"""Games' coaching figures by (table, game, seat), as `Storage.coaching` reads them."""


def player_game(entry: PlayerSeats, coached: Coached | None = None) -> out.PlayerGame:
    """One game of the page, seen from the seats the player held (with their coaching figures,
    if ``coached`` has them)."""
    game = entry.game
    layout = layout_of(Rules.parse(game.rules))
    mine = set(entry.seats)
    side = layout.side_of[entry.seats[0]]
    names = list(game.players)
    partners = [
        names[s] for s in range(layout.seats) if layout.side_of[s] == side and s not in mine
    ]
    opponents = [names[s] for s in range(layout.seats) if layout.side_of[s] != side]
    bids = [
        made
        for bidder, made in game_bids(game.table_id, game.number, game.record)
        if bidder in mine
    ]
    here = (game.table_id, game.number)
    rows = {seat: row for (t, n, seat), row in (coached or {}).items() if (t, n) == here}
    figures = game_figures(game.rules, sorted(mine), rows) if rows else None
    return out.PlayerGame(
        table=game.table_id,
        game=game.number,
        name=entry.table_name,
        rules=game.rules,
        finished=game.finished,
        seats=sorted(mine),
        side=side,
        won=game.winner == side,
        partners=partners,
        opponents=opponents,
        score=list(game.score),
        bids=len(bids),
        made=sum(bids),
        replay=f"/replay/{game.table_id}/{game.number}",
        record=f"/api/tables/{game.table_id}/games/{game.number}/record",
        coaching=figures_body(figures) if figures is not None else None,
    )


def player_page(
    player: str, entries: list[PlayerSeats], coached: Coached | None = None
) -> out.PlayerPage:
    """The page of ``player`` from their finished games, newest first, with the trend of their
    coaching figures (those ``coached`` has) from the oldest game to the newest."""
    by_game: dict[tuple[str, int], dict[tuple[str, int, int], Mapping[str, int]]] = {}
    for found, row in (coached or {}).items():
        by_game.setdefault(found[:2], {})[found] = row
    games = [player_game(e, by_game.get((e.game.table_id, e.game.number), {})) for e in entries]
    names = list(dict.fromkeys(name for entry in entries for name in entry.names))
    return out.PlayerPage(
        id=player,
        names=names,
        played=len(games),
        won=sum(g.won for g in games),
        bids=sum(g.bids for g in games),
        made=sum(g.made for g in games),
        games=games,
        trend_lines=trend_lines([g.coaching for g in reversed(games) if g.coaching is not None]),
    )
