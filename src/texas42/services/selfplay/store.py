"""Self-play runs on disk (format ``texas42-selfplay/1``): ``run.json`` and parts of ``chunk``
games as numpy ``.npz`` files, written atomically, so a stopped run resumes by playing only the
parts it lacks; and `load`, which checks every part and concatenates them.

Part k holds games ``[k*chunk, (k+1)*chunk)`` (the last part of a run may hold fewer: a later run
with more ``games`` plays it again whole). ``docs/selfplay.md`` describes every column.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import time
import zipfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from texas42 import __version__
from texas42.core.errors import Texas42Error
from texas42.core.rules import Rules
from texas42.extras import extra_error
from texas42.services.arena.run import _ctrl_c_deferred, check_bot, map_specs
from texas42.services.selfplay.play import (
    GameData,
    SelfPlaySpec,
    check_selfplay_rules,
    play_selfplay,
)

try:
    import numpy as np
except ImportError as exc:  # pragma: no cover - numpy comes with the solver extra
    raise extra_error(exc, "self-play data") from None

FORMAT = "texas42-selfplay/1"
RUN_FILE = "run.json"
PART_NAME = re.compile(r"part-(\d{5})\.npz")

DD_WIDTH = "bid_samples"
"""The width of ``contracts_dd``: the run's ``bid_samples``."""

COLUMNS: dict[str, tuple[str, int | str | None]] = {
    "calls_game": ("int32", None),
    "calls_hand": ("int16", None),
    "calls_rules": ("int8", None),
    "calls_seat": ("int8", None),
    "calls_position": ("int8", None),
    "calls_dealt": ("int32", None),
    "calls_before": ("int16", 3),
    "calls_score": ("int8", 2),
    "calls_action": ("int16", None),
    "calls_won": ("bool", None),
    "calls_marks": ("int8", None),
    "calls_points": ("int8", None),
    "contracts_game": ("int32", None),
    "contracts_hand": ("int16", None),
    "contracts_rules": ("int8", None),
    "contracts_seat": ("int8", None),
    "contracts_dealt": ("int32", None),
    "contracts_score": ("int8", 2),
    "contracts_bid": ("int16", None),
    "contracts_declare": ("int16", None),
    "contracts_points": ("int8", None),
    "contracts_tricks": ("int8", None),
    "contracts_made": ("bool", None),
    "contracts_dd": ("int8", DD_WIDTH),
    "hands_game": ("int32", None),
    "hands_hand": ("int16", None),
    "hands_rules": ("int8", None),
    "hands_shaker": ("int8", None),
    "hands_dealt": ("int32", 4),
    "hands_score": ("int8", 2),
    "hands_bidder": ("int8", None),
    "hands_bid": ("int16", None),
    "hands_declare": ("int16", None),
    "hands_points": ("int8", 2),
    "hands_marks": ("int8", 2),
    "hands_made": ("int8", None),
    "games_game": ("int32", None),
    "games_seed": ("int64", None),
    "games_winner": ("int8", None),
    "games_hands": ("int16", None),
}
"""Every column of the format: its dtype and its width (None: one value a row)."""

TABLES = ("calls", "contracts", "hands", "games")
"""The tables: columns with the same prefix have one row per thing, the same length."""

CHECKED = ("bot", "playout", "rules", "seed", "chunk", "bid_samples")
"""What a resumed run must share with the folder's ``run.json``."""


@dataclass(frozen=True, slots=True)
class RunConfig:
    """A self-play run: what ``run.json`` says."""

    bot: str
    playout: str
    rules: tuple[str, ...]
    seed: int
    games: int
    chunk: int
    bid_samples: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "bot": self.bot,
            "playout": self.playout,
            "rules": list(self.rules),
            "seed": self.seed,
            "games": self.games,
            "chunk": self.chunk,
            "bid_samples": self.bid_samples,
            "texas42": __version__,
        }

    @property
    def parts(self) -> int:
        return -(-self.games // self.chunk)

    def part_games(self, part: int) -> range:
        """The games part ``part`` holds in this plan."""
        return range(part * self.chunk, min((part + 1) * self.chunk, self.games))


@dataclass(frozen=True, slots=True)
class RunSummary:
    """What a call of `run_selfplay` did: parts written now and found already there, the games
    they hold, and the rows written now."""

    folder: Path
    planned: int
    parts_written: int
    parts_found: int
    games_played: int
    games_found: int
    rows: dict[str, int]
    seconds: float
    stopped: bool


def game_seed(seed: int, index: int) -> int:
    """The deal seed of game ``index`` of a run seeded ``seed``: 48 bits of a hash, apart from
    the arena's deals (`texas42.services.arena.match.deal_seed`)."""
    digest = hashlib.blake2b(f"texas42-selfplay:{seed}:{index}".encode(), digest_size=6).digest()
    return int.from_bytes(digest, "big")


def part_path(folder: Path, part: int) -> Path:
    return folder / f"part-{part:05d}.npz"


def game_specs(config: RunConfig, games: range) -> list[SelfPlaySpec]:
    rules = [Rules.parse(text) for text in config.rules]
    return [
        SelfPlaySpec(
            config.bot,
            config.playout,
            rules[g % len(rules)],
            game_seed(config.seed, g),
            g,
            config.bid_samples,
            g % len(rules),
        )
        for g in games
    ]


def to_arrays(data: Sequence[GameData], bid_samples: int) -> dict[str, np.ndarray]:
    """The games' rows as the format's arrays."""
    out: dict[str, np.ndarray] = {}
    for name, (dtype, width) in COLUMNS.items():
        values = [value for game in data for value in game.columns.get(name, [])]
        array = np.asarray(values, dtype=dtype)
        if width is not None:
            array = array.reshape(len(values), bid_samples if isinstance(width, str) else width)
        out[name] = array
    return out


def write_part(folder: Path, part: int, arrays: dict[str, np.ndarray]) -> Path:
    """Write a part atomically: a temporary file renamed over the part's name."""
    path = part_path(folder, part)
    temp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with temp.open("wb") as file:
            np.savez_compressed(file, **arrays)  # type: ignore[arg-type]
        os.replace(temp, path)
    finally:
        temp.unlink(missing_ok=True)
    return path


def read_config(folder: Path) -> RunConfig:
    """The run ``folder/run.json`` describes, checked."""
    path = folder / RUN_FILE
    try:
        raw = json.loads(path.read_text())
    except FileNotFoundError:
        raise Texas42Error(f"{folder} holds no self-play run: no {RUN_FILE}") from None
    except (OSError, ValueError) as exc:
        raise Texas42Error(f"{path} cannot be read: {exc}") from None
    if not isinstance(raw, dict) or raw.get("format") != FORMAT:
        found = raw.get("format") if isinstance(raw, dict) else None
        raise Texas42Error(f"{path} is not a {FORMAT} run (format {found!r})")
    try:
        config = RunConfig(
            bot=_typed(raw, "bot", str),
            playout=_typed(raw, "playout", str),
            rules=tuple(_typed(raw, "rules", list)),
            seed=_typed(raw, "seed", int),
            games=_typed(raw, "games", int),
            chunk=_typed(raw, "chunk", int),
            bid_samples=_typed(raw, "bid_samples", int),
        )
    except (KeyError, TypeError) as exc:
        raise Texas42Error(f"{path} is damaged: {exc.args[0]}") from None
    if not config.rules or not all(isinstance(r, str) for r in config.rules):
        raise Texas42Error(f"{path} is damaged: rules is not a list of rules strings")
    if config.chunk < 1 or config.bid_samples < 1 or config.games < 0:
        raise Texas42Error(f"{path} is damaged: games, chunk or bid_samples out of range")
    return config


def _typed(raw: dict[str, Any], key: str, kind: type) -> Any:
    if key not in raw:
        raise KeyError(f"no {key!r}")
    value = raw[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise TypeError(f"{key!r} is not a {kind.__name__}")
    return value


def _write_config(folder: Path, config: RunConfig) -> None:
    path = folder / RUN_FILE
    temp = path.with_name(f".{RUN_FILE}.{os.getpid()}.tmp")
    temp.write_text(json.dumps(config.to_dict(), indent=1) + "\n")
    os.replace(temp, path)


def _mismatch(old: RunConfig, new: RunConfig) -> list[str]:
    return [
        f"{key} {getattr(old, key)!r} there, {getattr(new, key)!r} here"
        for key in CHECKED
        if getattr(old, key) != getattr(new, key)
    ]


def read_part(path: Path, bid_samples: int) -> dict[str, np.ndarray]:
    """One part's arrays, each checked against the format; a damaged part is named."""
    try:
        with np.load(path, allow_pickle=False) as npz:
            arrays = {name: npz[name] for name in npz.files}
    except (OSError, ValueError, EOFError, zipfile.BadZipFile, KeyError) as exc:
        raise Texas42Error(f"{path} is damaged: {exc}") from None
    missing = [name for name in COLUMNS if name not in arrays]
    if missing:
        raise Texas42Error(f"{path} is damaged: no {', '.join(missing)}")
    lengths: dict[str, int] = {}
    for name, (dtype, width) in COLUMNS.items():
        array = arrays[name]
        shape = (bid_samples if width == DD_WIDTH else width,) if width is not None else ()
        if (
            array.dtype != np.dtype(dtype)
            or array.shape[1:] != shape
            or array.ndim != 1 + len(shape)
        ):
            raise Texas42Error(
                f"{path} is damaged: {name} is {array.dtype}{list(array.shape)}, "
                f"not {dtype} [n{''.join(f', {w}' for w in shape)}]"
            )
        table = name.partition("_")[0]
        known = lengths.setdefault(table, len(array))
        if len(array) != known:
            raise Texas42Error(
                f"{path} is damaged: {name} has {len(array)} rows, the other {table}_ "
                f"columns {known}"
            )
    return {name: arrays[name] for name in COLUMNS}


def _part_games(path: Path, bid_samples: int) -> set[int] | None:
    """The games a part holds, or None when it cannot be read (it is played again)."""
    try:
        return {int(g) for g in read_part(path, bid_samples)["games_game"]}
    except Texas42Error:
        return None


def parts_in(folder: Path) -> list[tuple[int, Path]]:
    found = []
    for path in folder.iterdir():
        match = PART_NAME.fullmatch(path.name)
        if match:
            found.append((int(match.group(1)), path))
    return sorted(found)


def load(folder: str | Path) -> dict[str, np.ndarray]:
    """Every part of the run in ``folder``, checked and concatenated in game order: one array
    per column of the format."""
    folder = Path(folder)
    config = read_config(folder)
    parts = []
    for part, path in parts_in(folder):
        arrays = read_part(path, config.bid_samples)
        games = arrays["games_game"]
        inside = (games >= part * config.chunk) & (games < (part + 1) * config.chunk)
        if not inside.all():
            raise Texas42Error(
                f"{path} is damaged: it holds games outside part {part} of chunk {config.chunk}"
            )
        parts.append(arrays)
    if not parts:
        return to_arrays([], config.bid_samples)
    return {name: np.concatenate([p[name] for p in parts]) for name in COLUMNS}


Progress = Callable[[GameData], None]


def check_config(config: RunConfig) -> None:
    """Refuse a run that cannot be played (its bots, sizes and rules), before any file is made."""
    check_bot(config.bot)
    check_bot(config.playout)
    if config.games < 1:
        raise Texas42Error(f"a self-play run needs at least one game, not {config.games}")
    if config.chunk < 1:
        raise Texas42Error(f"a part holds at least one game, not {config.chunk}")
    if config.bid_samples < 1 or config.bid_samples > 127:
        raise Texas42Error(f"bid samples are 1 to 127, not {config.bid_samples}")
    if not config.rules:
        raise Texas42Error("a self-play run needs rules")
    for text in config.rules:
        check_selfplay_rules(Rules.parse(text))


def prepare_run(folder: Path, config: RunConfig) -> list[int]:
    """Check the bots and rules, make the folder or check its ``run.json`` against ``config``
    (refusing another run's folder), write ``run.json``, and return the parts left to play."""
    check_config(config)
    if folder.exists() and not folder.is_dir():
        raise Texas42Error(f"{folder} is a file, not a folder")
    if folder.is_dir() and (folder / RUN_FILE).exists():
        old = read_config(folder)
        differ = _mismatch(old, config)
        if differ:
            raise Texas42Error(
                f"{folder} holds another self-play run ({'; '.join(differ)}): "
                "choose another folder or the same settings"
            )
    elif folder.is_dir() and any(folder.iterdir()):
        raise Texas42Error(f"{folder} is not empty and holds no {RUN_FILE}: choose another folder")
    folder.mkdir(parents=True, exist_ok=True)
    _write_config(folder, config)
    todo = []
    for part in range(config.parts):
        path = part_path(folder, part)
        held = _part_games(path, config.bid_samples) if path.exists() else None
        if held is None or not set(config.part_games(part)) <= held:
            todo.append(part)
    return todo


def run_selfplay(
    folder: str | Path,
    config: RunConfig,
    *,
    workers: int = 1,
    ray_address: str | None = None,
    progress: Progress | None = None,
    found_games: Callable[[int], None] | None = None,
) -> RunSummary:
    """Play the parts of the run that ``folder`` lacks, each written whole as its last game
    ends; Ctrl-C (KeyboardInterrupt) stops after the last whole part, ``stopped`` says so.
    ``progress`` is called with each game played, ``found_games`` first with the number of
    games already there."""
    folder = Path(folder)
    todo = prepare_run(folder, config)
    found = [part for part in range(config.parts) if part not in todo]
    if found_games is not None:
        found_games(sum(len(config.part_games(p)) for p in found))
    start = time.perf_counter()
    specs = [spec for part in todo for spec in game_specs(config, config.part_games(part))]
    rows = dict.fromkeys(TABLES, 0)
    written = played = 0
    stopped = False
    pending: list[GameData] = []
    parts = iter(todo)
    part = next(parts, None)
    try:
        with contextlib.closing(map_specs(play_selfplay, specs, workers, ray_address)) as results:
            for data in results:
                with _ctrl_c_deferred():  # a part is written whole, or not at all
                    pending.append(data)
                    if progress is not None:
                        progress(data)
                    assert part is not None
                    if len(pending) == len(config.part_games(part)):
                        arrays = to_arrays(pending, config.bid_samples)
                        write_part(folder, part, arrays)
                        for table in TABLES:
                            rows[table] += len(arrays[f"{table}_game"])
                        written += 1
                        played += len(pending)
                        pending = []
                        part = next(parts, None)
    except KeyboardInterrupt:
        stopped = True
    return RunSummary(
        folder,
        config.games,
        written,
        len(found),
        played,
        sum(len(config.part_games(p)) for p in found),
        rows,
        time.perf_counter() - start,
        stopped,
    )
