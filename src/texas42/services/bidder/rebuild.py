"""Rebuilding the learned bidder on its own games, round by round, until it stops improving.

A bidder trained on another bidder's games learns that bidder's hands: the hands it bid. Played
by the learned bidder itself, the auctions change (it bids hands the old one passed, and those
outcomes come back as data), so the model is retrained on its own games. Each round plays
``games`` self-play games (`texas42.services.selfplay`) with the current model bidding and
declaring at every seat, retrains on every round's data so far, and scores the new model and the
current one on the new round's held-out games (the chance of making each level of the trump
contracts, log loss: games neither model was fitted on). When the new model is no better, the
rounds stop and the current one is kept.

The folder holds ``round-K/`` (each round's self-play run, resumable), ``model-K.npz`` (the
model after round K; ``model-0.npz`` when the first round's model was trained from ``data``),
``rounds.json`` (the scores of each round) and ``bidder.npz``, the model kept.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from texas42.core.errors import Texas42Error
from texas42.players.learned import LEVELS, BidderModel
from texas42.services.bidder import HOLDOUT, collect, read_run, shipped_path, train
from texas42.services.bidder.fit import log_loss
from texas42.services.selfplay.play import DEFAULT_PLAYOUT, GameData
from texas42.services.selfplay.store import RunConfig, check_config, run_selfplay


def held_out_loss(
    model: BidderModel, folders: Sequence[str | Path], seed: int, holdout: float = HOLDOUT
) -> tuple[float, int]:
    """The model's log loss over the levels of the trump contracts in the held-out games of
    ``folders`` (the split `texas42.services.bidder.train` makes with ``seed``), and the rows."""
    rows, _ = collect([read_run(f) for f in folders], seed, holdout)
    x, points, held = rows["trump"].arrays()
    if not held.any():
        return float("nan"), 0
    part = model.parts["trump"]
    z = (x[held] - part.mean) / part.scale
    p = 1 / (1 + np.exp(-((z @ part.weights)[:, None] + part.offsets[None, :])))
    targets = np.stack([points[held] >= b for b in LEVELS], axis=1).astype(float)
    return log_loss(p, targets), int(held.sum())


def learned_spec(bot: str, model: str | Path) -> str:
    """``bot`` bidding and declaring with the learned bidder of file ``model``."""
    options = f"bidding=learned,declaring=learned,bidder_model={model}"
    return f"{bot},{options}" if ":" in bot else f"{bot}:{options}"


def rebuild(
    out: str | Path,
    rounds: int,
    games: int,
    *,
    bot: str = "expert",
    playout: str | None = None,
    rules: Sequence[str] = ("standard",),
    seed: int = 0,
    chunk: int = 10,
    bid_samples: int = 16,
    workers: int = 1,
    ray_address: str | None = None,
    start: str | Path | None = None,
    data: Sequence[str | Path] = (),
    holdout: float = HOLDOUT,
    progress: Callable[[GameData], None] | None = None,
) -> dict[str, Any]:
    """Run up to ``rounds`` rounds into the folder ``out`` (module docstring); what each round
    scored and which model was kept (also written as ``rounds.json``)."""
    if rounds < 1 or games < 1:
        raise Texas42Error(
            f"a rebuild plays one round or more of one game or more, not {rounds} x {games}"
        )
    if workers < 1:
        raise Texas42Error(f"a rebuild plays in one process or more, not {workers}")
    # every round's run is this one with the learned model bidding: refused now, before any file
    check_config(
        RunConfig(bot, playout or DEFAULT_PLAYOUT, tuple(rules), seed, games, chunk, bid_samples)
    )
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    folders: list[Path] = [Path(d) for d in data]
    current: Path | None
    if folders:
        current = folder / "model-0.npz"
        train(
            folders,
            current,
            seed,
            command=f"texas42 bidder rebuild: round 0 on {', '.join(map(str, folders))}",
            holdout=holdout,
        )
    else:
        found = start or shipped_path()
        current = Path(found) if found is not None else None
    if current is None:
        raise Texas42Error(
            "a rebuild needs a model for its first round: --start FILE or --data FOLDER"
        )
    report: dict[str, Any] = {"start": str(current), "rounds": [], "seed": seed}
    for k in range(1, rounds + 1):
        run = folder / f"round-{k}"
        config = RunConfig(
            learned_spec(bot, current.resolve()),
            playout or DEFAULT_PLAYOUT,
            tuple(rules),
            seed + k,
            games,
            chunk,
            bid_samples,
        )
        summary = run_selfplay(
            run, config, workers=workers, ray_address=ray_address, progress=progress
        )
        if summary.stopped:
            raise KeyboardInterrupt
        folders.append(run)
        new = folder / f"model-{k}.npz"
        train(folders, new, seed, command=f"texas42 bidder rebuild: round {k}", holdout=holdout)
        before, rows = held_out_loss(BidderModel.read(current), [run], seed, holdout)
        after, _ = held_out_loss(BidderModel.read(new), [run], seed, holdout)
        improved = bool(rows) and after < before
        report["rounds"].append(
            {
                "round": k,
                "played_with": str(current),
                "model": str(new),
                "held_out_rows": rows,
                "log_loss_before": round(before, 5),
                "log_loss_after": round(after, 5),
                "improved": improved,
            }
        )
        if not improved:
            break
        current = new
    report["kept"] = str(current)
    shutil.copyfile(current, folder / "bidder.npz")
    (folder / "rounds.json").write_text(json.dumps(report, indent=1))
    return report
