"""Self-play data: games played by the current bots, with every call, every real hand and, for
every hand and seat, the play-out of each contract the seat could have named and the double-dummy
figures the bidder computes (format ``texas42-selfplay/1``, ``docs/selfplay.md``).

`play_selfplay` plays one game (`texas42.services.selfplay.play`); `run_selfplay` maps it over
a run's games with the arena's executors and writes resumable parts, which `load` reads back
(`texas42.services.selfplay.store`, which needs numpy).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from texas42.services.selfplay.play import (
    GameData,
    SelfPlaySpec,
    check_selfplay_rules,
    contract_calls,
    play_out,
    play_selfplay,
)

if TYPE_CHECKING:
    import numpy as np


def load(folder: str | Path) -> dict[str, np.ndarray]:
    """Every column of the run in ``folder``, its parts checked and concatenated
    (`texas42.services.selfplay.store.load`; numpy is imported only here)."""
    from texas42.services.selfplay.store import load as load_run

    return load_run(folder)


__all__ = [
    "GameData",
    "SelfPlaySpec",
    "check_selfplay_rules",
    "contract_calls",
    "load",
    "play_out",
    "play_selfplay",
]
