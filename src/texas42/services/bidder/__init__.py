"""Training the learned bidder (`texas42.players.learned`) from self-play runs.

`train` reads one or more self-play folders (``docs/selfplay.md``), turns their rows into the
players' features (`contract_features`, `special_features`, `seat_features`: the one home of
each feature, shared with play), holds out a share of the games, fits every part
(`texas42.services.bidder.fit`) and writes the model file with its metadata: the runs it came
from (each run.json's identity and the parts read), the rows used, the seed and the command, and
the held-out scores next to the current bidder's calibrated chance on the same rows.
`info` reads a model file's metadata back.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from texas42 import __version__
from texas42.core.actions import ACTIONS, PASS_ID, PLUNGE_ID, SPLASH_ID, Declare
from texas42.core.contracts import tables_for
from texas42.core.errors import Texas42Error
from texas42.core.rules import Rules
from texas42.players.equity import marks_shares
from texas42.players.learned import (
    CALL_CLASSES,
    LEVELS,
    MARKS_RANGE,
    MODEL_FORMAT,
    SHIPPED,
    SPECIAL_KINDS,
    TRUMP_KINDS,
    BidderModel,
    call_class,
    contract_features,
    legal_classes,
    seat_features,
    special_features,
)
from texas42.players.pimc import CALIBRATION, MARK_CHANCE, NO_LOSER_MARK_CHANCE, SURE_MARK_CHANCE
from texas42.players.rules_bot import estimate
from texas42.services.bidder.fit import (
    brier,
    fit_binary,
    fit_cumulative,
    fit_multinomial,
    log_loss,
    softmax,
    standardise,
)

HOLDOUT = 0.2
"""The share of each run's games kept out of the fit and scored."""


@dataclass
class Run:
    """One self-play folder read: its run.json, its rules and its arrays (all parts)."""

    folder: str
    meta: dict[str, Any]
    rules: list[Rules]
    arrays: dict[str, np.ndarray]
    parts: int


def read_run(folder: str | Path) -> Run:
    """A self-play folder's run.json and every part's arrays, read and checked by
    `texas42.services.selfplay.load`."""
    from texas42.services.selfplay.store import load, parts_in, read_config

    path = Path(folder)
    config = read_config(path)
    parts = len(parts_in(path))
    if not parts:
        raise Texas42Error(f"{path} has no parts yet (part-*.npz)")
    arrays = load(path)
    rules = [Rules.parse(text) for text in config.rules]
    return Run(str(path), config.to_dict(), rules, arrays, parts)


@dataclass
class Rows:
    """One part's rows: features, labels, whether each is held out (its game is), and what
    the baseline needs."""

    x: list[tuple[float, ...]] = field(default_factory=list)
    y: list[int] = field(default_factory=list)
    held: list[bool] = field(default_factory=list)
    fold: list[int] = field(default_factory=list)
    allowed: list[int] = field(default_factory=list)
    baseline: list[tuple[float, ...]] = field(default_factory=list)

    def place(self, where: tuple[bool, int]) -> None:
        """Record the last row's side of the split and its fold."""
        self.held.append(where[0])
        self.fold.append(where[1])

    def arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        return np.array(self.x, dtype=float), np.array(self.y), np.array(self.held, dtype=bool)


def _four_seat_marks(rules: Rules) -> bool:
    return rules.layout.seats == 4 and rules.layout.total == 42 and rules.game == "marks"


FOLDS = 3
"""The folds of the games trained on, in which the penalty of a part is chosen."""

L2_GRID = (1.0, 10.0, 100.0, 1000.0, 10000.0)
"""The penalties tried on the trump and made-or-set parts (by cross-validation over `FOLDS`)."""

L2_CLASSES_GRID = (3.0, 10.0, 30.0, 100.0)
"""The penalties tried on the multinomial parts (the pass and the call model)."""


def held_out(seed: int, run: Run, game: int, holdout: float = HOLDOUT) -> tuple[bool, int]:
    """Whether a game of a run is held out, and its fold among the others: a hash of the
    training seed, the run's own seed and bot and the game (below ``holdout``: held out), so a
    game stays on its side of the split whatever other runs are trained with it and however
    many games its run has when it is read."""
    key = f"texas42-bidder:{seed}:{run.meta.get('seed')}:{run.meta.get('bot')}:{game}"
    return _split(key, holdout)


def _split(key: str, holdout: float) -> tuple[bool, int]:
    """Whether what ``key`` names is held out (its hash below ``holdout``), and its fold."""
    value = int.from_bytes(hashlib.blake2b(key.encode(), digest_size=8).digest(), "big")
    return value / 2**64 < holdout, value % FOLDS


def collect(
    runs: Sequence[Run], seed: int = 0, holdout: float = HOLDOUT
) -> tuple[dict[str, Rows], list[int]]:
    """Every part's rows from the runs, each marked held out or not by its game
    (`held_out`), and the marks each side gained per real hand (of the games trained on)."""
    rows: dict[str, Rows] = {name: Rows() for name in ("trump", *SPECIAL_KINDS, "pass", "call")}
    gained: list[int] = []
    for run in runs:
        a = run.arrays
        cache: dict[int, tuple[bool, int]] = {}

        def held(
            game: int, run: Run = run, cache: dict[int, tuple[bool, int]] = cache
        ) -> tuple[bool, int]:
            if game not in cache:
                cache[game] = held_out(seed, run, game, holdout)
            return cache[game]

        for i in range(len(a["contracts_game"])):
            rules = run.rules[int(a["contracts_rules"][i])]
            if not _four_seat_marks(rules):
                continue
            dealt = int(a["contracts_dealt"][i])
            game = held(int(a["contracts_game"][i]))
            bid = int(a["contracts_bid"][i])
            made = int(bool(a["contracts_made"][i]))
            if bid in (PLUNGE_ID, SPLASH_ID):
                kind = "plunge" if bid == PLUNGE_ID else "splash"
                part = rows[kind]
                part.x.append(special_features(dealt, rules, kind))
                part.y.append(made)
                part.place(game)
                continue
            action = ACTIONS[int(a["contracts_declare"][i])]
            if not isinstance(action, Declare):
                continue
            contract = action.contract
            if contract.kind in ("nello", "sevens"):
                part = rows[contract.kind]
                part.x.append(special_features(dealt, rules, contract.kind))
                part.y.append(made)
                part.place(game)
                continue
            if contract.kind not in TRUMP_KINDS:
                continue
            part = rows["trump"]
            part.x.append(contract_features(dealt, rules, contract))
            part.y.append(int(a["contracts_points"][i]))
            part.place(game)
            dd = [int(v) for v in a["contracts_dd"][i] if v >= 0]
            value = estimate(dealt, tables_for(contract, rules), rules.layout)
            mean = sum(dd) / len(dd) if dd else float("nan")
            share = sum(1 for v in dd if v == 42) / len(dd) if dd else float("nan")
            part.baseline.append((mean, value.points, share, value.losers, float(value.sure)))
        for i in range(len(a["calls_game"])):
            rules = run.rules[int(a["calls_rules"][i])]
            if not _four_seat_marks(rules):
                continue
            add_call(
                rows,
                rules,
                int(a["calls_action"][i]),
                int(a["calls_dealt"][i]),
                tuple(int(v) for v in a["calls_before"][i] if v >= 0),
                (int(a["calls_score"][i][0]), int(a["calls_score"][i][1])),
                int(a["calls_marks"][i]),
                held(int(a["calls_game"][i])),
            )
        for i in range(len(a["hands_game"])):
            if (
                _four_seat_marks(run.rules[int(a["hands_rules"][i])])
                and not held(int(a["hands_game"][i]))[0]
            ):
                gained.extend(int(v) for v in a["hands_marks"][i])
    return rows, gained


def add_call(
    rows: dict[str, Rows],
    rules: Rules,
    aid: int,
    dealt: int,
    before: tuple[int, ...],
    score: tuple[int, int],
    marks: int | None,
    where: tuple[bool, int],
) -> None:
    """One call's rows: the ``call`` part's (the call given the seat's dealt tiles, the calls
    before it and the score, its side's first), and for a pass the ``pass`` part's (``marks``:
    what its side netted on the hand; None while the hand is unfinished). Calls the model does
    not know (`call_class`) are left out."""
    k = call_class(aid)
    if k is None:
        return
    x = seat_features(dealt, rules, before, score)
    calls = rows["call"]
    calls.x.append(x)
    calls.y.append(k)
    calls.place(where)
    calls.allowed.append(legal_classes(rules, before, dealt) | 1 << k)
    if aid == PASS_ID and marks is not None:
        passes = rows["pass"]
        passes.x.append(x)
        passes.y.append(min(max(marks, -MARKS_RANGE), MARKS_RANGE) + MARKS_RANGE)
        passes.place(where)


def _mask_rows(masks: list[int], classes: int) -> np.ndarray:
    return np.array([[m >> k & 1 for k in range(classes)] for m in masks], dtype=bool)


def _calibrated_chance(base: np.ndarray) -> np.ndarray:
    """The current bidder's chance (`PimcBot.point_chance` and `mark_chance` at the default
    settings, from the double-dummy totals and RulesBot's estimate) of each level in `LEVELS`,
    per row: the yardstick the held-out scores are set beside, not a feature of the model."""
    mean, points, share, losers, sure = (base[:, j] for j in range(5))
    a, b, c, spread = CALIBRATION
    expected = a + b * mean + c * points
    levels = np.array(LEVELS[:-1], dtype=float)
    z = (expected[:, None] - levels[None, :] + 0.5) / spread
    normal = 0.5 * (1 + np.vectorize(math.erf)(z / math.sqrt(2)))
    ma, mb, mc = MARK_CHANCE
    logistic = 1 / (1 + np.exp(-(ma + mb * share + mc * np.minimum(losers, 3))))
    mark = np.where(
        sure > 0, SURE_MARK_CHANCE, np.where(losers == 0, NO_LOSER_MARK_CHANCE, logistic)
    )
    return np.concatenate([normal, mark[:, None]], axis=1)


def _scores(p: np.ndarray, y: np.ndarray) -> dict[str, float]:
    return {"log_loss": round(log_loss(p, y), 4), "brier": round(brier(p, y), 4)}


def _choose_l2(z: np.ndarray, y: np.ndarray, folds: np.ndarray, levels: bool) -> float:
    """The penalty of `L2_GRID` with the least log loss over the folds (each fold predicted by
    a fit on the others): the trump part's levels, or a made-or-set part."""
    best: tuple[float, float] | None = None
    for l2 in L2_GRID:
        loss, n = 0.0, 0
        for k in range(FOLDS):
            test = folds == k
            fit = ~test
            if not test.any() or len(np.unique(y[fit])) < 2:
                continue
            if levels:
                w, a = fit_cumulative(z[fit], y[fit], LEVELS, l2)
                p = 1 / (1 + np.exp(-((z[test] @ w)[:, None] + a[None, :])))
                t = np.stack([y[test] >= b for b in LEVELS], axis=1).astype(float)
            else:
                w, a = fit_binary(z[fit], y[fit], l2)
                p = 1 / (1 + np.exp(-(z[test] @ w + a[0])))
                t = y[test].astype(float)
            loss += log_loss(p, t) * int(test.sum())
            n += int(test.sum())
        if n and (best is None or loss / n < best[0] - 1e-12):
            best = (loss / n, l2)
    return best[1] if best is not None else L2_GRID[1]


def _choose_l2_classes(
    z: np.ndarray, y: np.ndarray, allowed: np.ndarray, classes: int, folds: np.ndarray
) -> float:
    """The penalty of `L2_CLASSES_GRID` with the least log loss over the folds, for a
    multinomial part."""
    best: tuple[float, float] | None = None
    for l2 in L2_CLASSES_GRID:
        loss, n = 0.0, 0
        for k in range(FOLDS):
            test = folds == k
            if not test.any() or test.all():
                continue
            fit = ~test
            w, b = fit_multinomial(z[fit], y[fit], allowed[fit], classes, l2)
            p = softmax(z[test] @ w.T + b, allowed[test])
            loss -= float(np.log(np.clip(p[np.arange(int(test.sum())), y[test]], 1e-6, 1)).sum())
            n += int(test.sum())
        if n and (best is None or loss / n < best[0] - 1e-12):
            best = (loss / n, l2)
    return best[1] if best is not None else L2_CLASSES_GRID[1]


def fit_parts(
    rows: dict[str, Rows], l2: float | None = None, l2_classes: float | None = None
) -> tuple[dict[str, np.ndarray], dict[str, Any], dict[str, Any]]:
    """Fit every part with rows on the rows not held out; the arrays for the model file, the
    row counts (and the penalties used) and the held-out scores. The trump and made-or-set
    parts take ``l2`` as the penalty on their weights (standardised features, summed log
    loss), or when it is None the one of `L2_GRID` that predicts best across `FOLDS` folds of
    the games trained on; the multinomial parts take ``l2_classes``, or when it is None the
    one of `L2_CLASSES_GRID` chosen the same way."""
    arrays: dict[str, np.ndarray] = {}
    counts: dict[str, Any] = {}
    scores: dict[str, Any] = {}
    chosen: dict[str, float] = {}
    for name, part in rows.items():
        x, y, out = part.arrays()
        if len(x) == 0:
            continue
        train = ~out
        if train.sum() < 5 or len(np.unique(y[train])) < 2:
            continue  # too few rows, or one outcome only: nothing to learn
        mean, scale = standardise(x[train])
        z = (x - mean) / scale
        folds = np.array(part.fold)[train]
        if name == "trump":
            penalty = l2 if l2 is not None else _choose_l2(z[train], y[train], folds, True)
            chosen[name] = penalty
            w, offsets = fit_cumulative(z[train], y[train], LEVELS, penalty)
            weights = w
            if out.any():
                targets = np.stack([y[out] >= b for b in LEVELS], axis=1).astype(float)
                p = 1 / (1 + np.exp(-(z[out] @ w)[:, None] - offsets[None, :]))
                base = np.array(part.baseline, dtype=float)[out]
                ok = ~np.isnan(base[:, 0])
                scores[name] = {
                    "model": _scores(p[ok], targets[ok]),
                    "calibrated": _scores(_calibrated_chance(base[ok]), targets[ok]),
                    "rows": int(ok.sum()),
                    "levels": list(LEVELS),
                }
        elif name in SPECIAL_KINDS:
            penalty = l2 if l2 is not None else _choose_l2(z[train], y[train], folds, False)
            chosen[name] = penalty
            weights, offsets = fit_binary(z[train], y[train], penalty)
            if out.any():
                p = 1 / (1 + np.exp(-(z[out] @ weights + offsets[0])))
                rate = np.full(int(out.sum()), y[train].mean())
                scores[name] = {
                    "model": _scores(p, y[out]),
                    "base_rate": _scores(rate, y[out]),
                    "rows": int(out.sum()),
                }
        else:
            classes = CALL_CLASSES if name == "call" else 2 * MARKS_RANGE + 1
            allowed = (
                _mask_rows(part.allowed, classes)
                if name == "call"
                else np.ones((len(x), classes), dtype=bool)
            )
            penalty = (
                l2_classes
                if l2_classes is not None
                else _choose_l2_classes(z[train], y[train], allowed[train], classes, folds)
            )
            chosen[name] = penalty
            weights, offsets = fit_multinomial(z[train], y[train], allowed[train], classes, penalty)
            if out.any():
                p = softmax(z[out] @ weights.T + offsets, allowed[out])
                picked = p[np.arange(int(out.sum())), y[out]]
                freq = np.bincount(y[train], minlength=classes) + 0.5
                prior = softmax(np.tile(np.log(freq), (int(out.sum()), 1)), allowed[out])
                scores[name] = {
                    "model": {
                        "log_loss": round(float(-np.log(np.clip(picked, 1e-6, 1)).mean()), 4)
                    },
                    "frequencies": {
                        "log_loss": round(
                            float(
                                -np.log(
                                    np.clip(prior[np.arange(len(prior)), y[out]], 1e-6, 1)
                                ).mean()
                            ),
                            4,
                        )
                    },
                    "rows": int(out.sum()),
                }
        arrays[f"{name}_mean"] = mean
        arrays[f"{name}_scale"] = scale
        arrays[f"{name}_weights"] = np.asarray(weights)
        arrays[f"{name}_offsets"] = np.atleast_1d(np.asarray(offsets, dtype=float))
        counts[name] = {
            "train": int(train.sum()),
            "held_out": int(out.sum()),
            "l2": chosen[name],
        }
    return arrays, counts, scores


def train(
    folders: Sequence[str | Path],
    out: str | Path,
    seed: int = 0,
    command: str = "",
    holdout: float = HOLDOUT,
) -> dict[str, Any]:
    """Fit the learned bidder on the self-play runs in ``folders`` and write it to ``out``;
    the model's metadata (also written into the file)."""
    if not folders:
        raise Texas42Error("name at least one self-play folder to train on")
    if not 0 <= holdout < 1:
        raise Texas42Error(f"the held-out share is from 0 to below 1, not {holdout}")
    runs = [read_run(f) for f in folders]
    rows, gained = collect(runs, seed, holdout)
    if not rows["trump"].x:
        raise Texas42Error("the runs hold no four-seat marks-game contracts to learn from")
    arrays, counts, scores = fit_parts(rows)
    meta = {
        "format": MODEL_FORMAT,
        "texas42": __version__,
        "seed": seed,
        "holdout": holdout,
        "command": command,
        "runs": [
            {
                "folder": os.path.basename(os.path.normpath(r.folder)),
                "parts": r.parts,
                "hands": len(r.arrays["hands_game"]),
                **{
                    k: r.meta.get(k)
                    for k in (
                        "format",
                        "bot",
                        "playout",
                        "rules",
                        "seed",
                        "games",
                        "chunk",
                        "bid_samples",
                        "texas42",
                    )
                },
            }
            for r in runs
        ],
        "rows": counts,
        "held_out": scores,
    }
    arrays["marks_shares"] = np.array(marks_shares(gained), dtype=float)
    arrays["meta"] = np.array(json.dumps(meta, sort_keys=True))
    BidderModel(arrays)  # the file must read back as a model
    write_model(arrays, out)
    return meta


def record_call_rows(
    folders: Sequence[str | Path], seed: int = 0, holdout: float = HOLDOUT
) -> tuple[dict[str, Rows], dict[str, int]]:
    """The ``call`` and ``pass`` parts' rows from game records (an arena's ``--records``
    folders), as `collect` reads them from self-play: every call of every four-seat marks
    game's auction with the seat's dealt tiles, the calls before it and the score before the
    hand; every pass with the marks its side then netted on the hand. A record is held out (and
    given its fold) by a hash of the seed and its name up to the first ``-`` (an arena's pair:
    both halves of a pair of deals fall on the same side). Also the files and hands read."""
    from texas42.services.arena.ledger import checked_records

    rows = {"call": Rows(), "pass": Rows()}
    counts = {"files": 0, "hands": 0}
    for file, record, report in checked_records(folders):
        counts["files"] += 1
        if not _four_seat_marks(record.rules):
            continue
        where = _split(f"texas42-calls:{seed}:{file.name.split('-')[0]}", holdout)
        score = [0, 0]
        layout = record.rules.layout
        for hand, played, result in zip(record.hands, report.hands, report.results):
            counts["hands"] += 1
            # a hand the record leaves unfinished has no outcome for its passes yet
            nets = [result.score[side] - result.score[1 - side] for side in (0, 1)]
            ids = [call.id for call in hand.auction]
            for i, aid in enumerate(ids):
                seat = (played.first_bidder + i) % layout.seats
                side = layout.side_of[seat]
                add_call(
                    rows,
                    record.rules,
                    aid,
                    hand.deal[seat],
                    tuple(ids[:i]),
                    (score[side], score[1 - side]),
                    nets[side] if result.made is not None else None,
                    where,
                )
            for side, marks in enumerate(result.score):
                score[side] += marks
    return rows, counts


def train_calls(
    folders: Sequence[str | Path],
    out: str | Path,
    base: str | Path | None = None,
    seed: int = 0,
    command: str = "",
    holdout: float = HOLDOUT,
) -> dict[str, Any]:
    """Refit the model's ``call`` part (how seats call, given their tiles: the inference from
    the calls, `texas42.players.call_model`) and ``pass`` part (what a pass comes to, which the
    learned bidder values a pass by) on the auctions of game records, keep every other part of
    ``base`` (default: the shipped model) and write the model to ``out``; the new metadata,
    which keeps the base's and adds where the two parts came from."""
    if not folders:
        raise Texas42Error("name at least one folder of game records to train on")
    if not 0 <= holdout < 1:
        raise Texas42Error(f"the held-out share is from 0 to below 1, not {holdout}")
    base_path = str(base) if base is not None else shipped_path()
    if base_path is None:
        raise Texas42Error("no base model: this package ships none, name one with --base")
    try:
        with np.load(base_path, allow_pickle=False) as data:
            arrays = {k: data[k] for k in data.files}
    except (OSError, ValueError) as exc:
        raise Texas42Error(f"cannot read the bidder model {base_path}: {exc}") from None
    before = BidderModel(arrays)
    old = before.meta
    rows, counts = record_call_rows(folders, seed, holdout)
    if not rows["call"].x:
        raise Texas42Error("the records hold no four-seat marks-game calls to learn from")
    fitted, fitted_counts, scores = fit_parts(rows)
    if fitted_counts.keys() != {"call", "pass"}:
        raise Texas42Error(
            f"too few calls to fit: {len(rows['call'].x)} calls, {len(rows['pass'].x)} passes"
        )
    for name, part in rows.items():
        held = [k for k, out in enumerate(part.held) if out]
        if name in before.parts and held and name in scores:
            picked = [
                before.outcome_chances(name, part.x[k], part.allowed[k] if part.allowed else -1)[
                    part.y[k]
                ]
                for k in held
            ]
            loss = float(-np.log(np.clip(np.array(picked), 1e-6, 1)).mean())
            scores[name]["base_model"] = {"log_loss": round(loss, 4)}
    arrays.update({k: v for k, v in fitted.items() if k.startswith(("call_", "pass_"))})
    meta = {
        **old,
        "texas42": __version__,
        "command": command if not old.get("command") else f"{old['command']}; then {command}",
        "call_records": {
            "folders": [os.path.basename(os.path.normpath(str(f))) for f in folders],
            **counts,
            "seed": seed,
            "holdout": holdout,
        },
        "rows": {**old.get("rows", {}), **fitted_counts},
        "held_out": {**old.get("held_out", {}), **scores},
    }
    arrays["meta"] = np.array(json.dumps(meta, sort_keys=True))
    BidderModel(arrays)  # the file must read back as a model
    write_model(arrays, out)
    return meta


def write_model(arrays: dict[str, np.ndarray], out: str | Path) -> None:
    """Write the model file atomically (a temporary file renamed into place)."""
    path = Path(out)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".npz")
    os.close(fd)
    try:
        np.savez_compressed(tmp, **arrays)  # type: ignore[arg-type]
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def shipped_path() -> str | None:
    """Where the package's own model file is, None if it ships none."""
    source = resources.files("texas42.players").joinpath("data", SHIPPED)
    return str(source) if source.is_file() else None


def info(path: str | Path) -> dict[str, Any]:
    """A model file's metadata, its parts and its size."""
    model = BidderModel.read(path)
    return {
        **model.meta,
        "parts": sorted(model.parts),
        "marks_shares": [round(x, 4) for x in model.shares],
        "bytes": Path(path).stat().st_size,
    }
