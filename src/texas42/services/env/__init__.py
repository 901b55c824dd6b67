"""Reinforcement-learning environments for 42 (the ``env`` extra: pettingzoo and gymnasium).

- `Texas42Env` (`texas42.services.env.aec`): the PettingZoo AEC environment, four learning seats;
- `Texas42GymEnv` (`texas42.services.env.gym`): one learning seat, texas42 bots in the other three,
  registered with Gymnasium as ``texas42/Texas42-v1`` (a game to the target) and
  ``texas42/Texas42Hand-v1`` (one hand);
- `observe` (`texas42.services.env.observation`): a seat's `View` as the documented vector;
- ``python_texas42``, an OpenSpiel game (`texas42.services.env.openspiel_game`), registered when
  OpenSpiel (the ``rl`` extra) is installed.

See ``docs/env.md`` for the observation layout, the action ids, rewards and seeding.
"""

from __future__ import annotations

import importlib.util

try:
    import gymnasium
    import pettingzoo  # type: ignore[import-untyped]  # noqa: F401
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise ImportError(
        f"texas42.services.env needs pettingzoo and gymnasium ({exc.name} is missing): "
        "pip install 'texas42[env]'"
    ) from exc

from texas42.services.env.aec import AGENTS, Texas42Env, hand_score
from texas42.services.env.gym import Texas42GymEnv
from texas42.services.env.observation import LAYOUT, OBSERVATION_SIZE, SLICES, observe

if importlib.util.find_spec("pyspiel") is not None:
    from texas42.services.env import openspiel_game  # noqa: F401  (registers python_texas42)

GYM_IDS = {"texas42/Texas42-v1": "game", "texas42/Texas42Hand-v1": "hand"}
"""Gymnasium ids and the episode each one plays."""

for _id, _episode in GYM_IDS.items():
    if _id not in gymnasium.registry:
        gymnasium.register(
            id=_id,
            entry_point="texas42.services.env.gym:Texas42GymEnv",
            kwargs={"episode": _episode},
        )

__all__ = [
    "AGENTS",
    "GYM_IDS",
    "LAYOUT",
    "OBSERVATION_SIZE",
    "SLICES",
    "Texas42Env",
    "Texas42GymEnv",
    "hand_score",
    "observe",
]
