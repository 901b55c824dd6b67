"""42 as an OpenSpiel Python game, ``python_texas42`` (the ``rl`` extra; importing registers it).

Four players (0 and 2 a team), sequential, imperfect information, explicit chance: a chance node
picks the first shaker (uniform, as the high draw is) and each hand is dealt by 28 chance nodes
drawing tiles in turn, handed out in the rules' draw order. Player actions are the fixed action
ids of `texas42.core.actions` (99 of them). Returns are terminal: each player's team's score minus the
other team's, in the game's own unit (marks or points), so the game is zero-sum.

Parameters: ``rules`` (a rules string, default ``standard``) and ``episode``: ``hand`` (the
default, one deal as OpenSpiel's card games are) or ``game`` (hands to the rules' target).

Observations are one seat's `View`: the tensor is `texas42.services.env.observation.observe` and the
string its seat-view position. The information state string (perfect recall) is the seat's
dealt tiles and every action of each hand so far, all of which the seat saw made.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found]

from texas42.core.actions import ACTIONS
from texas42.core.actions import FOUR_SEAT_ACTIONS as NUM_ACTIONS
from texas42.core.deal import deal_from_order
from texas42.core.hand import Hand
from texas42.core.notation import hand_position, view_position
from texas42.core.rules import MAX_MARKS, Rules
from texas42.core.tiles import TILE_COUNT, TILE_NAMES, TOTAL_POINTS, hand_name
from texas42.services.env.aec import choose_option, read_rules
from texas42.services.env.observation import OBSERVATION_SIZE, SEAT_NAMES, SEATS, observe

_HAND_LENGTH = TILE_COUNT + SEATS + 1 + TILE_COUNT
"""The most actions a hand takes: the draws, the calls, the contract and the plays."""

_GAME_TYPE = pyspiel.GameType(
    short_name="python_texas42",
    long_name="Python Texas 42",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=SEATS,
    min_num_players=SEATS,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"rules": "standard", "episode": "hand"},
)


def _most_per_hand(rules: Rules) -> int:
    """The largest score one hand can give a team: a set 7-mark bid."""
    if rules.game == "marks":
        return MAX_MARKS
    return TOTAL_POINTS + 42 * MAX_MARKS


def _game_info(rules: Rules, episode: str) -> Any:
    most = _most_per_hand(rules)
    hands = 1
    if episode == "game":
        # every hand but a reshaken one gives some team at least a mark or a point
        most += rules.winning_target - 1
        hands = 2 * rules.winning_target - 1
    return pyspiel.GameInfo(
        num_distinct_actions=NUM_ACTIONS,
        max_chance_outcomes=TILE_COUNT,
        num_players=SEATS,
        min_utility=-float(most),
        max_utility=float(most),
        utility_sum=0.0,
        max_game_length=1 + hands * _HAND_LENGTH,  # the first shaker, then the hands
    )


class Texas42Game(pyspiel.Game):  # type: ignore[misc]
    """The game object OpenSpiel loads by name: ``pyspiel.load_game("python_texas42")``."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**_GAME_TYPE.parameter_specification, **(params or {})}
        self.rules = read_rules(str(params["rules"]))
        self.episode = choose_option("episode", params["episode"], ("hand", "game"))
        super().__init__(_GAME_TYPE, _game_info(self.rules, self.episode), params)

    def new_initial_state(self) -> Texas42State:
        return Texas42State(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> Texas42Observer:
        default = pyspiel.IIGObservationType(perfect_recall=False)
        return Texas42Observer(iig_obs_type or default, params)


class Texas42State(pyspiel.State):  # type: ignore[misc]
    """Hands of 42 in an OpenSpiel state: the deal by chance, then the seats' actions."""

    def __init__(self, game: Texas42Game) -> None:
        super().__init__(game)
        self.rules = game.rules
        self.episode = game.episode
        self.shaker: int | None = None
        self.order: list[int] = []
        self.hands: list[Hand] = []
        self.before: list[tuple[int, int]] = []
        self.score = (0, 0)
        self.over = False

    @property
    def hand(self) -> Hand | None:
        """The hand being played (or the last, once the game is over); None while dealing."""
        if not self.hands or self.order or (self.hands[-1].is_over and not self.over):
            return None
        return self.hands[-1]

    def drawn_by(self, player: int) -> int:
        """The tiles the player has drawn so far in the deal being drawn."""
        shaker = (self.shaker or 0) + len(self.hands)
        positions = deal_from_order(
            range(TILE_COUNT), shaker % SEATS, self.rules.draw_order, self.rules.layout
        )
        return sum(1 << t for i, t in enumerate(self.order) if positions[player] >> i & 1)

    def view_score(self) -> tuple[tuple[int, int], int]:
        """The score before the current hand, and its number."""
        return self.before[-1], len(self.hands)

    def current_player(self) -> int:
        if self.over:
            return int(pyspiel.PlayerId.TERMINAL)
        hand = self.hand
        if hand is None:
            return int(pyspiel.PlayerId.CHANCE)
        return hand.turn

    def _legal_actions(self, player: int) -> list[int]:
        hand = self.hand
        assert hand is not None and player == hand.turn
        return hand.legal_ids()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.shaker is None:
            return [(s, 1 / SEATS) for s in range(SEATS)]
        left = sorted(set(range(TILE_COUNT)).difference(self.order))
        return [(t, 1 / len(left)) for t in left]

    def _apply_action(self, action: int) -> None:
        if self.is_chance_node():
            self._draw(action)
            return
        hand = self.hands[-1]
        hand.apply(action)
        if hand.result is None:
            return
        self.score = (self.score[0] + hand.result.score[0], self.score[1] + hand.result.score[1])
        target = self.rules.winning_target
        if self.episode == "hand" or max(self.score) >= target:
            self.over = True

    def _draw(self, action: int) -> None:
        if self.shaker is None:
            self.shaker = action
            return
        self.order.append(action)
        if len(self.order) < TILE_COUNT:
            return
        shaker = (self.shaker + len(self.hands)) % SEATS
        deal = deal_from_order(self.order, shaker, self.rules.draw_order, self.rules.layout)
        self.hands.append(Hand(self.rules, shaker, deal))
        self.before.append(self.score)
        self.order = []

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if self.shaker is None:
                return f"shaker {SEAT_NAMES[action]}"
            return f"draw {TILE_NAMES[action]}"
        return ACTIONS[action].notation

    def is_terminal(self) -> bool:
        return self.over

    def returns(self) -> list[float]:
        """Terminal returns: nothing until the episode ends (OpenSpiel's terminal reward model)."""
        if not self.over:
            return [0.0] * SEATS
        a, b = self.score
        return [float(a - b), float(b - a)] * 2

    def __str__(self) -> str:
        hand = self.hand
        if hand is None:
            return f"dealing: {len(self.order)} of {TILE_COUNT} tiles drawn, score {self.score}"
        return hand_position(hand, *self.view_score())


class Texas42Observer:
    """One seat's view as a tensor and a string (the PyObserver interface of OpenSpiel)."""

    def __init__(self, iig_obs_type: Any, params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"python_texas42 observations take no parameters, not {params}")
        if iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER:
            raise ValueError("python_texas42 observes one seat's view (private_info=SINGLE_PLAYER)")
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.tensor = np.zeros(0 if self.perfect_recall else OBSERVATION_SIZE, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: Texas42State, player: int) -> None:
        if self.perfect_recall:
            return
        hand = state.hand
        if hand is None:
            self.tensor.fill(0)
        else:
            self.tensor[:] = observe(hand.view(player, *state.view_score()))

    def string_from(self, state: Texas42State, player: int) -> str:
        if self.perfect_recall:
            return _history(state, player)
        hand = state.hand
        if hand is None:
            return f"dealing, drawn {hand_name(state.drawn_by(player)) or '-'} @{player}"
        return view_position(hand.view(player, *state.view_score()))


def _history(state: Texas42State, player: int) -> str:
    """Everything the seat has seen: per hand, its dealt tiles and each action in order."""
    parts = [f"seat {player}"]
    if state.shaker is not None:
        parts.append(f"first shaker {state.shaker}")
    for hand in state.hands:
        actions = [ACTIONS[c].notation for c in hand.calls]
        if hand.contract is not None:
            actions.append(str(hand.contract))
        actions.extend(TILE_NAMES[t] for t in hand.plays)
        parts.append(f"dealt {hand_name(hand.deal[player])}: {' '.join(actions)}")
    if state.order:
        parts.append(f"drawing {hand_name(state.drawn_by(player))}")
    return "; ".join(parts)


pyspiel.register_game(_GAME_TYPE, Texas42Game)
