"""PettingZoo AEC environment: four seats play 42 through the fixed action ids, with masks.

Agents are ``"seat_0"`` .. ``"seat_3"`` (seats 0 and 2 are one team). The agent to act is the
seat the rules say acts next (trick winners lead, a Nel-O partner sits out), so the order is not
a fixed cycle. ``observe(agent)`` gives ``{"observation": vector, "action_mask": int8 mask}``
built from that seat's `View` alone; ``infos[agent]`` holds the view and its position string.

Rewards come once per hand, to all four seats: the hand's score for the seat's team minus the
other team's, in marks (``reward="marks"``) or points (``reward="points"``), so the two teams'
rewards cancel and a seat's total over a game is its team's lead in the final score. An
episode is a game to the rules' target (``episode="game"``) or a single hand (``"hand"``).
"""

from __future__ import annotations

from typing import Any, ClassVar, Literal

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv  # type: ignore[import-untyped]

from texas42.core.actions import ACTIONS
from texas42.core.actions import FOUR_SEAT_ACTIONS as NUM_ACTIONS
from texas42.core.errors import IllegalActionError, Texas42Error
from texas42.core.game import Game
from texas42.core.hand import Hand
from texas42.core.notation import view_position
from texas42.core.rules import Rules
from texas42.core.tiles import TILE_NAMES, hand_name
from texas42.core.view import View
from texas42.services.env.observation import (
    OBSERVATION_SIZE,
    SEAT_NAMES,
    SEATS,
    Vector,
    observe,
)

RewardUnit = Literal["marks", "points"]
EpisodeKind = Literal["game", "hand"]
AGENTS = tuple(f"seat_{s}" for s in range(SEATS))
Mask = npt.NDArray[np.int8]


def read_rules(rules: Rules | str | None) -> Rules:
    """Rules given as a value, a rules string such as ``"standard,nello"``, or None (standard);
    the environments seat four players in two partnerships, so other tables are refused."""
    value = _read_rules(rules)
    if value.seats != 4 or value.teams != "partners":
        raise Texas42Error(
            f"the environments seat four players in two partnerships; {value} does not"
        )
    return value


def _read_rules(rules: Rules | str | None) -> Rules:
    if rules is None:
        return Rules()
    if isinstance(rules, str):
        return Rules.parse(rules)
    if isinstance(rules, Rules):
        return rules
    raise Texas42Error(f"rules must be a Rules value or a rules string, not {rules!r}")


def choose_option(name: str, value: object, choices: tuple[object, ...]) -> Any:
    """The value if it is one of the choices, else an error naming them."""
    if value not in choices:
        raise Texas42Error(f"{name} must be one of {', '.join(map(repr, choices))}, not {value!r}")
    return value


def action_mask(legal: int) -> Mask:
    """The legal-action bitmask as an int8 array over the ``NUM_ACTIONS`` ids."""
    raw = np.frombuffer(legal.to_bytes((NUM_ACTIONS + 7) // 8, "little"), dtype=np.uint8)
    return np.unpackbits(raw, bitorder="little")[:NUM_ACTIONS].astype(np.int8)


def hand_score(hand: Hand, unit: RewardUnit) -> tuple[int, ...]:
    """What a finished hand scores for each team, in marks or in points.

    In the game's own unit this is the hand's score. Otherwise it is the score the other kind of
    game gives: marks to the side that won the hand (1, or the bid's marks), or points (made:
    each side its points, a made Nel-O the bid; set: the defenders their points plus the bid).
    """
    result = hand.result
    if result is None:
        raise Texas42Error("the hand is not over")
    if unit == hand.rules.game or result.bidder is None:
        return result.score
    bidders = result.bidder & 1
    score = [0, 0]
    if unit == "marks":
        score[bidders if result.made else 1 - bidders] = hand.bid_marks or 1
    elif not result.made:
        score[1 - bidders] = result.points[1 - bidders] + hand.high_value
    elif hand.contract is not None and hand.contract.kind == "nello":
        score[bidders] = hand.high_value
    else:
        score = list(result.points)
    return score[0], score[1]


class Episode:
    """One episode's game: the state both environments drive, with the rewards hands pay."""

    def __init__(self, rules: Rules, seed: int, unit: RewardUnit, kind: EpisodeKind) -> None:
        self.game = Game(rules, seed)
        self.unit = unit
        self.kind = kind
        self.over = False
        self._ended: tuple[Hand, tuple[int, ...], int] | None = None

    def seat_to_act(self) -> int | None:
        return None if self.over else self.game.seat_to_act()

    def legal_mask(self) -> int:
        return 0 if self.over else self.game.legal_mask()

    def shown(self) -> tuple[Hand, tuple[int, ...], int]:
        """The hand on the table, the score before it and its number: after a one-hand
        episode, that hand as it ended (the game has dealt the next one)."""
        if self._ended is not None:
            return self._ended
        game = self.game
        return game.hand, game.score_before_hand(), game.hand_number

    def view(self, seat: int) -> View:
        """What the seat may know of the hand on the table."""
        hand, score, number = self.shown()
        return hand.view(seat, score, number)

    def why_illegal(self, action: int) -> str | None:
        if self.over:
            return "the episode is over"
        if not 0 <= action < NUM_ACTIONS:
            return f"no action has id {action}"
        return self.game.why_illegal(action)

    def apply(self, action: int) -> tuple[int, ...] | None:
        """Take a legal action; when it ends a hand, that hand's score for each team."""
        game = self.game
        hand, before, number = game.hand, game.score_before_hand(), game.hand_number
        finished = len(game.results)
        game.apply(action)
        if len(game.results) == finished:
            return None
        if self.kind == "hand" or game.is_over():
            self.over = True
            if not game.is_over():
                self._ended = (hand, before, number)
        return hand_score(hand, self.unit)


def team_reward(score: tuple[int, ...], seat: int) -> int:
    """A seat's reward for a hand's score: its team's share minus the other team's."""
    team = seat & 1
    return score[team] - score[1 - team]


def read_action(action: object) -> int:
    """An action id from an int, a numpy integer or a 0-d integer array (what a policy's
    ``predict`` often returns); anything else is a clear error."""
    if isinstance(action, np.ndarray) and action.ndim == 0 and action.dtype.kind in "iu":
        action = action.item()
    if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
        raise IllegalActionError(f"an action is an id 0..{NUM_ACTIONS - 1}, not {action!r}")
    return int(action)


def illegal_message(who: str, action: int, why: str) -> str:
    name = ACTIONS[action].notation if 0 <= action < NUM_ACTIONS else f"id {action}"
    return f"{who} cannot {name}: {why}"


def render_text(hand: Hand, score: tuple[int, ...], number: int) -> str:
    """The table as text, every hand open: for a person watching, never for an agent."""
    rules = hand.rules
    lines = [
        (
            f"hand {number}, score {score[0]}-{score[1]} ({rules.game} to {rules.winning_target}), "
            f"shaker {SEAT_NAMES[hand.shaker]}"
        )
    ]
    for seat in range(SEATS):
        held = hand_name(hand.hands[seat]) or "-"
        lines.append(f"  {SEAT_NAMES[seat]:<6} {held}")
    calls = [
        f"{SEAT_NAMES[(hand.first_bidder + i) % SEATS]} {ACTIONS[c].notation}"
        for i, c in enumerate(hand.calls)
    ]
    lines.append("calls: " + (", ".join(calls) if calls else "-"))
    if hand.contract is not None and hand.declarer is not None:
        trump = hand.trump_description() or ""
        lines.append(
            f"contract: {hand.contract} by {SEAT_NAMES[hand.declarer]} ({trump}); "
            f"points {hand.points[0]}-{hand.points[1]}, tricks {hand.tricks_won[0]}-"
            f"{hand.tricks_won[1]}"
        )
    if hand.trick:
        played = zip(hand.trick_seats, hand.trick)
        lines.append("trick: " + ", ".join(f"{SEAT_NAMES[s]} {TILE_NAMES[t]}" for s, t in played))
    turn = hand.seat_to_act()
    if turn is not None:
        lines.append(f"to act: {SEAT_NAMES[turn]}")
    elif hand.result is not None:
        result = hand.result
        outcome = "reshake" if result.reshaken else ("made" if result.made else "set")
        lines.append(f"hand over: {outcome}, {result.score[0]}-{result.score[1]}")
    return "\n".join(lines) + "\n"


class Texas42Env(AECEnv):  # type: ignore[misc]
    """Four-seat 42 as a PettingZoo AEC environment (see the module docstring)."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "texas42_v1",
        "render_modes": ["ansi"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        rules: Rules | str | None = None,
        reward: RewardUnit = "marks",
        episode: EpisodeKind = "game",
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self.rules = read_rules(rules)
        self.reward_unit: RewardUnit = choose_option("reward", reward, ("marks", "points"))
        self.episode_kind: EpisodeKind = choose_option("episode", episode, ("game", "hand"))
        self.render_mode = choose_option("render_mode", render_mode, ("ansi", None))
        self.possible_agents = list(AGENTS)
        observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, (OBSERVATION_SIZE,), np.float32),
                "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8),
            }
        )
        self.observation_spaces = dict.fromkeys(AGENTS, observation_space)
        self.action_spaces = {a: spaces.Discrete(NUM_ACTIONS) for a in AGENTS}
        self.np_random, self.np_random_seed = seeding.np_random(None)
        self._episode: Episode | None = None
        self._views: list[View] = []

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    @property
    def episode(self) -> Episode:
        if self._episode is None:
            raise Texas42Error("call reset() before using the environment")
        return self._episode

    @property
    def game(self) -> Game:
        """The game being played (its full state: for tests and watchers, not for agents)."""
        return self.episode.game

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self.np_random, self.np_random_seed = seeding.np_random(seed)
        game_seed = int(self.np_random.integers(2**63))
        self._episode = Episode(self.rules, game_seed, self.reward_unit, self.episode_kind)
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(AGENTS, 0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self._refresh()
        self.agent_selection = AGENTS[self._seat_to_act()]

    def observe(self, agent: str) -> dict[str, Vector | Mask]:
        seat = AGENTS.index(agent)
        legal = self.episode.legal_mask() if seat == self.episode.seat_to_act() else 0
        return {"observation": observe(self._views[seat]), "action_mask": action_mask(legal)}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        aid = read_action(action)
        why = self.episode.why_illegal(aid)
        if why is not None:
            raise IllegalActionError(illegal_message(agent, aid, why))
        self._cumulative_rewards[agent] = 0
        for a in self.agents:
            self.rewards[a] = 0
        score = self.episode.apply(aid)
        if score is not None:
            for s, a in enumerate(AGENTS):
                self.rewards[a] = team_reward(score, s)
        self._refresh()
        if self.episode.over:
            self.terminations = dict.fromkeys(self.agents, True)
            self.agent_selection = agent
        else:
            self.agent_selection = AGENTS[self._seat_to_act()]
        self._accumulate_rewards()

    def _seat_to_act(self) -> int:
        seat = self.episode.seat_to_act()
        assert seat is not None, "a live episode always has a seat to act"
        return seat

    def _refresh(self) -> None:
        self._views = [self.episode.view(s) for s in range(SEATS)]
        self.infos = {
            a: {"view": v, "position": view_position(v)} for a, v in zip(AGENTS, self._views)
        }

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        return render_text(*self.episode.shown())

    def close(self) -> None:
        """Nothing to release: the environment holds no files, windows or processes."""
