"""Gymnasium single-agent environment: the learner holds one seat, texas42 bots the other three.

The observation is the learner's vector (`texas42.services.env.observation`); the legal actions are in
``info["action_mask"]`` and ``action_masks()`` (the form maskable learners ask for). Each step
takes the learner's action, lets the bots play until the learner is to act again (or the
episode ends) and returns the rewards of the hands that ended meanwhile, as in `Texas42Env`.

An illegal action raises `IllegalActionError` (a ValueError) saying why, or, with
``illegal="penalty"``, changes nothing and costs ``penalty`` (the reason is in
``info["illegal"]``), which lets unmasked learners and generic checkers explore.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from texas42.core.actions import FOUR_SEAT_ACTIONS as NUM_ACTIONS
from texas42.core.errors import IllegalActionError, Texas42Error
from texas42.core.rules import Rules
from texas42.players import Bot
from texas42.services.env.aec import (
    Episode,
    EpisodeKind,
    RewardUnit,
    action_mask,
    choose_option,
    illegal_message,
    read_action,
    read_rules,
    render_text,
    team_reward,
)
from texas42.services.env.observation import (
    OBSERVATION_SIZE,
    SEAT_NAMES,
    SEATS,
    Vector,
    observe,
)
from texas42.services.protocol import make_bot

Illegal = Literal["raise", "penalty"]


class Texas42GymEnv(gymnasium.Env[Vector, np.int64]):
    """One seat of 42 against (and beside) texas42 bots (see the module docstring).

    ``seat`` is the learner's seat, or ``"random"`` for a new one each episode; ``bots`` is one
    bot spec for the three other seats or three specs, for the seats after the learner's in
    turn order (next, partner, previous).
    """

    metadata = {"render_modes": ["ansi"], "render_fps": 1}  # noqa: RUF012 (gymnasium.Env declares it so)

    def __init__(
        self,
        rules: Rules | str | None = None,
        bots: str | Sequence[str] = "rules",
        seat: int | Literal["random"] = 0,
        reward: RewardUnit = "marks",
        episode: EpisodeKind = "game",
        illegal: Illegal = "raise",
        penalty: float = 1.0,
        render_mode: str | None = None,
    ) -> None:
        self.rules = read_rules(rules)
        specs = (bots,) * 3 if isinstance(bots, str) else tuple(bots)
        if len(specs) != SEATS - 1:
            raise Texas42Error(f"give one bot spec or three (one per other seat), not {len(specs)}")
        for spec in specs:
            make_bot(spec)  # a bad spec fails here, not in the middle of an episode
        self.bot_specs = specs
        if seat != "random" and not (isinstance(seat, int) and 0 <= seat < SEATS):
            raise Texas42Error(f"seat must be 0..3 or 'random', not {seat!r}")
        self.seat_option = seat
        self.reward_unit: RewardUnit = choose_option("reward", reward, ("marks", "points"))
        self.episode_kind: EpisodeKind = choose_option("episode", episode, ("game", "hand"))
        self.illegal: Illegal = choose_option("illegal", illegal, ("raise", "penalty"))
        self.penalty = float(penalty)
        self.render_mode = choose_option("render_mode", render_mode, ("ansi", None))
        self.observation_space = spaces.Box(0.0, 1.0, (OBSERVATION_SIZE,), np.float32)
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        self.seat = 0 if seat == "random" else seat
        self._episode: Episode | None = None
        self._bots: dict[int, Bot] = {}

    @property
    def episode(self) -> Episode:
        if self._episode is None:
            raise Texas42Error("call reset() before using the environment")
        return self._episode

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Vector, dict[str, Any]]:
        super().reset(seed=seed)
        rng = self.np_random
        if self.seat_option == "random":
            self.seat = int(rng.integers(SEATS))
        self._episode = Episode(
            self.rules, int(rng.integers(2**63)), self.reward_unit, self.episode_kind
        )
        seats = [(self.seat + k) % SEATS for k in (1, 2, 3)]
        self._bots = {
            s: make_bot(spec, int(rng.integers(2**31)), SEAT_NAMES[s])
            for s, spec in zip(seats, self.bot_specs)
        }
        self._play_bots()
        return self._seen()

    def step(self, action: Any) -> tuple[Vector, float, bool, bool, dict[str, Any]]:
        episode = self.episode
        if episode.over:
            raise IllegalActionError("the episode is over: call reset()")
        aid = read_action(action)
        why = episode.why_illegal(aid)
        if why is not None:
            message = illegal_message(SEAT_NAMES[self.seat], aid, why)
            if self.illegal == "raise":
                raise IllegalActionError(message)
            obs, info = self._seen(message)
            return obs, -self.penalty, False, False, info
        reward = self._apply(aid) + self._play_bots()
        obs, info = self._seen()
        return obs, float(reward), episode.over, False, info

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions now, as booleans over the action ids."""
        return action_mask(self._legal()).astype(bool)

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        return render_text(*self.episode.shown())

    def _apply(self, aid: int) -> int:
        score = self.episode.apply(aid)
        return 0 if score is None else team_reward(score, self.seat)

    def _play_bots(self) -> int:
        """Let the bots act until the learner is to act or the episode ends; their rewards."""
        episode = self.episode
        reward = 0
        while (seat := episode.seat_to_act()) is not None and seat != self.seat:
            reward += self._apply(self._bots[seat].choose(episode.view(seat)).id)
        return reward

    def _legal(self) -> int:
        episode = self.episode
        return episode.legal_mask() if episode.seat_to_act() == self.seat else 0

    def _seen(self, illegal: str | None = None) -> tuple[Vector, dict[str, Any]]:
        """The learner's observation and info: its view, the legal mask, its seat."""
        view = self.episode.view(self.seat)
        info: dict[str, Any] = {
            "action_mask": action_mask(self._legal()),
            "view": view,
            "seat": self.seat,
        }
        if illegal is not None:
            info["illegal"] = illegal
        return observe(view), info
