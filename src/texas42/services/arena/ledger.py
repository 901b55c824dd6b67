"""A match's records folder as a run that can be stopped and resumed.

Beside the records (two per pair, `texas42.services.arena.report.record_name`) the folder holds
`LEDGER`, JSON lines: the first says what the run is (the bots, the rules, the seed, whole games
or single hands, and the pairs planned), and each one after it is a pair as it ended, with every
number `texas42.services.arena.run.summarize` needs (each game's score, winner, hands, bids made
and forfeit). A pair is saved whole, its records first and then its line, so a run stopped at
any moment (Ctrl-C, a kill mid-write) is resumed by reading the lines back: a torn last line is
ignored, as is a line whose records are missing, and those pairs are played again. A resumed
match plays only the pair indexes not yet in the ledger, on the same deal seeds, so its summary
is the one the run would have given had it never stopped; more pairs than before extend it.

The ledger is named ``.jsonl`` so that the folder's ``*.json`` are its records and nothing else.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from texas42.core.errors import Texas42Error
from texas42.core.record import CheckReport, Record, check_record
from texas42.core.rules import Rules
from texas42.services.arena.match import GameResult, MatchResult, MatchSpec, deal_seed
from texas42.services.arena.report import record_name, record_pair, save_records

LEDGER = "arena.jsonl"
VERSION = 1


def _run_header(
    bot_a: str, bot_b: str, rules: Rules, seed: int, hands: bool, pairs: int
) -> dict[str, Any]:
    return {
        "run": VERSION,
        "bot_a": bot_a,
        "bot_b": bot_b,
        "rules": str(rules),
        "seed": seed,
        "mode": "hands" if hands else "games",
        "planned_pairs": pairs,
    }


RUN_FIELDS = (("bot_a", "bot A"), ("bot_b", "bot B"), ("rules", "rules"), ("seed", "seed"))


def pair_line(result: MatchResult) -> str:
    """One pair of the ledger, as one JSON line without its newline."""
    games = [
        {
            "a_team": game.a_team,
            "score": list(game.score),
            "winner": game.winner,
            "hands": game.hands,
            "bids": list(game.bids),
            "made": list(game.made),
            "forfeit": game.forfeit,
        }
        for game in result.games
    ]
    return json.dumps({"pair": result.spec.index, "deal_seed": result.spec.seed, "games": games})


def _game(data: dict[str, Any]) -> GameResult:
    bids, made = data["bids"], data["made"]
    forfeit = data["forfeit"]
    winner = data["winner"]
    game = GameResult(
        int(data["a_team"]),
        tuple(int(x) for x in data["score"]),
        None if winner is None else int(winner),
        int(data["hands"]),
        (int(bids[0]), int(bids[1])),
        (int(made[0]), int(made[1])),
        None,
        None if forfeit is None else str(forfeit),
    )
    if game.a_team not in (0, 1) or len(bids) != 2 or len(made) != 2:
        raise ValueError("not a game of a pair")
    return game


@dataclass
class Ledger:
    """A records folder opened for a match: the pairs it already holds (``known``, by index,
    only those below the pairs planned) and `save`, which adds a pair as it ends."""

    folder: Path
    known: dict[int, MatchResult] = field(default_factory=dict)
    kept: dict[int, str] = field(default_factory=dict)
    """Every pair line read back whole, by index, those beyond ``pairs`` too (a later resume
    with more pairs counts them)."""

    @property
    def path(self) -> Path:
        return self.folder / LEDGER

    def save(self, result: MatchResult) -> None:
        """Write the pair's records, then its ledger line, in one write: a pair is in the
        ledger only once its records are. (Not synced to disk: a killed run loses nothing the
        system has been handed, and syncing every pair would slow fast bots' runs.)"""
        save_records([result], self.folder)
        line = pair_line(result)
        with self.path.open("a", encoding="utf-8") as ledger:
            ledger.write(line + "\n")
        self.kept[result.spec.index] = line

    def _write(self, header: dict[str, Any]) -> None:
        """The ledger rewritten whole (the run, then the pairs kept in index order), by a
        rename, so a torn line is gone and a stop while writing loses nothing."""
        lines = [json.dumps(header), *(self.kept[i] for i in sorted(self.kept))]
        draft = self.folder / (LEDGER + ".new")
        with draft.open("w", encoding="utf-8") as out:
            out.write("".join(line + "\n" for line in lines))
            out.flush()
            os.fsync(out.fileno())
        draft.replace(self.path)


def _holds_a_run(folder: Path) -> bool:
    """Records, or a ledger with a pair in it (one that stopped before its first pair, an
    engine failing to start say, holds nothing to lose)."""
    if any(folder.glob("pair*.json")):
        return True
    try:
        text = (folder / LEDGER).read_text(encoding="utf-8")
    except FileNotFoundError:
        return False
    except OSError:
        return True
    return bool(text.split("\n", 1)[-1].strip()) or not text.startswith("{")


def _describe(header: dict[str, Any]) -> str:
    return (
        f"{header.get('bot_a')} against {header.get('bot_b')}, rules {header.get('rules')}, "
        f"seed {header.get('seed')}, {header.get('planned_pairs')} pairs of {header.get('mode')}"
    )


def _read_header(path: Path) -> tuple[dict[str, Any], list[str]]:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise Texas42Error(f"cannot read {path}: {exc.strerror}") from None
    lines = text.split("\n")
    try:
        header = json.loads(lines[0])
    except ValueError:
        header = None
    if not isinstance(header, dict) or header.get("run") != VERSION:
        raise Texas42Error(f"{path} is not the ledger of an arena run, so it cannot be resumed")
    return header, lines[1:]


def _differences(header: dict[str, Any], wanted: dict[str, Any]) -> list[str]:
    found = []
    for key, label in RUN_FIELDS:
        if header.get(key) != wanted[key]:
            found.append(f"{label} {wanted[key]} (the run's is {header.get(key)})")
    if header.get("mode") != wanted["mode"]:
        option = "--hands" if wanted["mode"] == "hands" else "--games"
        found.append(f"{option} (the run plays {header.get('mode')})")
    return found


def open_ledger(
    folder: Path,
    bot_a: str,
    bot_b: str,
    rules: Rules,
    pairs: int,
    seed: int = 0,
    *,
    hands: bool = False,
    resume: bool = False,
) -> Ledger:
    """The match's ledger in ``folder`` (which exists): a new run there, or with ``resume`` the
    run already there, its pairs read back. Refused, changing nothing: a folder that already
    holds a run without ``resume``; with it, a run of other bots, rules, seed or mode, or
    records without a ledger."""
    header = _run_header(bot_a, bot_b, rules, seed, hands, pairs)
    spec = MatchSpec(bot_a, bot_b, rules, 0, 0, hands, True)
    ledger = Ledger(folder)
    path = folder / LEDGER
    if not resume:
        if _holds_a_run(folder):
            what = "its records"
            with contextlib.suppress(Texas42Error):
                what = _describe(_read_header(path)[0])
            raise Texas42Error(
                f"{folder} already holds a run ({what}): pass --resume to continue it, "
                "or choose another folder"
            )
        ledger._write(header)
        return ledger
    if not path.exists():
        if _holds_a_run(folder):
            raise Texas42Error(
                f"{folder} holds records but no {LEDGER}, so its run cannot be resumed: "
                "choose another folder"
            )
        ledger._write(header)
        return ledger
    old, lines = _read_header(path)
    differ = _differences(old, header)
    if differ:
        raise Texas42Error(
            f"cannot resume the run in {folder} ({_describe(old)}) with "
            f"{'; '.join(differ)}: pass the same ones, or choose another folder"
        )
    for line in lines:
        result = _read_pair(line, spec, seed)
        if result is not None:
            ledger.kept[result.spec.index] = line
            if result.spec.index < pairs:
                ledger.known[result.spec.index] = result
    for index, result in list(ledger.known.items()):
        if not all((folder / record_name(result, game.a_team)).exists() for game in result.games):
            del ledger.known[index]  # its records are gone: play the pair again
            del ledger.kept[index]
    ledger._write(header)
    return ledger


def _read_pair(line: str, spec: MatchSpec, seed: int) -> MatchResult | None:
    """A pair's line read back, or None for a line that is not one (torn by a kill mid-write,
    say) or whose deal seed is not its index's."""
    try:
        data = json.loads(line)
        index = int(data["pair"])
        if index < 0 or int(data["deal_seed"]) != deal_seed(seed, index):
            return None
        first, second = (_game(game) for game in data["games"])
    except (ValueError, KeyError, TypeError, IndexError):
        return None
    pair_spec = MatchSpec(
        spec.bot_a, spec.bot_b, spec.rules, deal_seed(seed, index), index, spec.hands, True
    )
    return MatchResult(pair_spec, (first, second))


def checked_records(
    folders: Sequence[str | Path], pairs: range | None = None
) -> Iterator[tuple[Path, Record, CheckReport]]:
    """Each game record in the folders (every ``*.json``: a records folder's records, never its
    ledger), in name order, read and replayed; with ``pairs``, only the arena's records of those
    pairs (`record_pair`), so that a fit on a run's first pairs can be checked on the pairs
    played after it. A missing folder, or a record that cannot be read or replayed, is refused
    with its path."""
    for folder in map(Path, folders):
        if not folder.is_dir():
            raise Texas42Error(f"{folder}: no such folder")
        for path in sorted(folder.glob("*.json")):
            if pairs is not None:
                pair = record_pair(path.name)
                if pair is None or pair not in pairs:
                    continue
            try:
                record = Record.from_json(path.read_text(encoding="utf-8"))
                report = check_record(record)
            except (Texas42Error, OSError, UnicodeDecodeError) as error:
                raise Texas42Error(f"{path}: {error}") from None
            yield path, record, report
