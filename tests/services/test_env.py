"""The RL environments: PettingZoo's and Gymnasium's own checkers, the observation layout,
masks, seeding, rewards against the game's score, and hidden tiles never reaching a vector."""

from __future__ import annotations

import doctest
import itertools
import random
import re
import warnings
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

pytest.importorskip("pettingzoo")
gymnasium = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

from helpers import EX14_DEAL, S, W, hidden_swaps  # noqa: E402
from texas42 import Hand, IllegalActionError, Play, Rules, Texas42Error  # noqa: E402
from texas42.core.actions import NUM_ACTIONS, PASS_ID  # noqa: E402
from texas42.core.contracts import TRUMP  # noqa: E402
from texas42.core.notation import view_position  # noqa: E402
from texas42.core.tiles import parse_tile  # noqa: E402
from texas42.services.env import (  # noqa: E402
    GYM_IDS,
    LAYOUT,
    OBSERVATION_SIZE,
    SLICES,
    Texas42Env,
    Texas42GymEnv,
    hand_score,
    observe,
)

ROOT = Path(__file__).resolve().parents[2]


def bits(mask: int) -> list[int]:
    return [i for i in range(NUM_ACTIONS) if mask >> i & 1]


def part(obs: np.ndarray, name: str) -> np.ndarray:
    s = SLICES[name]
    return obs[s.start : s.stop]


# -- the observation vector --------------------------------------------------------------------


def layout_rows(text: str) -> list[tuple[int, int, str]]:
    """(start, size, name) from the rows of an offsets table in reStructuredText or Markdown."""
    rows = re.findall(r"^\|?\s*(\d+)\s+\|?\s*(\d+)\s+\|?\s*`?([a-z_]+)`?", text, re.M)
    return [(int(a), int(b), c) for a, b, c in rows]


def test_layout_is_contiguous_and_documented() -> None:
    from texas42.services.env import observation

    expected = [(s.start, s.size, s.name) for s in LAYOUT]
    assert expected[0][0] == 0 and OBSERVATION_SIZE == 397
    assert all(a[0] + a[1] == b[0] for a, b in itertools.pairwise(expected))
    assert layout_rows(observation.__doc__ or "") == expected
    assert layout_rows((ROOT / "docs" / "env.md").read_text()) == expected


def test_docs_examples_run_as_shown() -> None:
    result = doctest.testfile(str(ROOT / "docs" / "env.md"), module_relative=False)
    assert result.attempted > 10 and result.failed == 0


def test_observation_of_a_trick_in_progress() -> None:
    # Ex 14's deal: North passes, East bids 31, names fives and leads 5-4; South follows 5-3
    hand = Hand(Rules(), W, EX14_DEAL)
    for call in ("pass", "31", "pass", "pass"):
        hand.apply(hand.parse_action(call))
    hand.apply(hand.parse_action("fives"))
    hand.apply(Play("5-4"))
    hand.apply(Play("5-3"))
    obs = observe(hand.view(S))
    assert obs.shape == (OBSERVATION_SIZE,) and obs.dtype == np.float32
    # relative seats from South: South 0, West 1, North 2, East 3
    held = [t for t in range(28) if part(obs, "hand")[t]]
    assert sorted(held) == sorted(parse_tile(t) for t in ["6-1", "5-2", "4-3", "3-2", "2-2", "1-1"])
    trick = part(obs, "trick").reshape(4, 28)
    assert np.flatnonzero(trick[3]).tolist() == [parse_tile("5-4")]
    assert np.flatnonzero(trick[0]).tolist() == [parse_tile("5-3")]
    assert not trick[1].any() and not trick[2].any()
    assert (part(obs, "played").reshape(4, 28) == trick).all()
    assert part(obs, "trick_leader").tolist() == [0, 0, 0, 1]
    assert part(obs, "trick_winning").tolist() == [0, 0, 0, 1]  # 5-4 over 5-3 in fives
    assert np.flatnonzero(part(obs, "led_suit")).tolist() == [TRUMP]
    assert part(obs, "to_act").tolist() == [0, 1, 0, 0]
    assert part(obs, "phase").tolist() == [0, 0, 1, 0]
    assert part(obs, "shaker").tolist() == [0, 1, 0, 0]
    assert part(obs, "first_bidder").tolist() == [0, 0, 1, 0]
    assert part(obs, "bidder").tolist() == part(obs, "declarer").tolist() == [0, 0, 0, 1]
    assert part(obs, "bid").tolist() == pytest.approx([31 / 42, 0])
    calls = part(obs, "calls").reshape(4, 6)
    assert calls[2].tolist() == [1, 1, 0, 0, 0, 0]  # North passed
    assert calls[3].tolist() == pytest.approx([1, 0, 31 / 42, 0, 0, 0])
    assert part(obs, "contract").tolist() == [1, 0, 0, 0, 0, 0]
    assert np.flatnonzero(part(obs, "trump")).tolist() == [5]
    assert part(obs, "doubles").tolist() == [1, 0, 0, 0]
    assert part(obs, "tiles_left").tolist() == pytest.approx([6 / 7, 1, 1, 6 / 7])
    assert part(obs, "rules").tolist() == [0, 1, 1, 1, 0, 0, 0, 0]
    assert not part(obs, "voids").any() and not part(obs, "score").any()
    # West, to act, sees the same public facts from its own chair
    west = observe(hand.view(W))
    assert part(west, "trick_leader").tolist() == [0, 0, 1, 0]
    assert part(west, "to_act").tolist() == [1, 0, 0, 0]


@given(st.integers(0, 10**6), st.integers(0, 40), st.sampled_from(["standard", "house"]))
def test_hidden_tiles_never_change_an_observation(seed: int, depth: int, rules: str) -> None:
    rng = random.Random(seed)
    hand = Hand.random(Rules.parse(rules), rng.randrange(4), rng)
    for _ in range(depth):
        if hand.is_over:
            break
        hand.apply(rng.choice(hand.legal_actions()))
    for seat in range(4):
        mine = observe(hand.view(seat))
        for world in hidden_swaps(hand, seat, rng, 2):
            assert np.array_equal(observe(world.view(seat)), mine)
            changed = [s for s in range(4) if world.deal[s] != hand.deal[s]]
            # the seats whose tiles moved do see the difference
            assert all(
                not np.array_equal(observe(world.view(s)), observe(hand.view(s))) for s in changed
            )


# -- the PettingZoo environment --------------------------------------------------------------


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"episode": "hand"},
        {"rules": "house", "reward": "points"},
        {"rules": "standard,game=points"},
    ],
)
def test_pettingzoo_api(options: dict[str, str]) -> None:
    with warnings.catch_warnings():
        # dict observations are how PettingZoo's own card games give masks, but its checker
        # only knows them by name and warns for others
        warnings.filterwarnings("ignore", "Observation is not a NumPy array")
        warnings.filterwarnings("ignore", "Observation space for each agent probably")
        api_test(Texas42Env(**options), num_cycles=200)


def test_pettingzoo_seed_test() -> None:
    seed_test(lambda: Texas42Env(rules="house"), num_cycles=100)
    seed_test(lambda: Texas42Env(episode="hand"), num_cycles=100)


def random_game(env: Texas42Env, seed: int) -> list[tuple[str, int, dict[str, int]]]:
    """Play masked random actions to the end; (agent, action, rewards) at each step."""
    rng = random.Random(seed)
    env.reset(seed=seed)
    steps = []
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        action = rng.choice(np.flatnonzero(obs["action_mask"]).tolist())
        env.step(action)
        steps.append((agent, action, dict(env.rewards)))
    return steps


def test_same_seed_same_trajectory() -> None:
    env = Texas42Env()
    first = random_game(env, 7)
    first_obs = observe(env.game.view(0))
    again = random_game(env, 7)
    assert again == first and np.array_equal(observe(env.game.view(0)), first_obs)
    assert random_game(env, 8) != first
    env.reset(seed=3)
    deal = env.game.hand.deal
    env.reset()  # an unseeded reset continues the seeded stream: a new deal, reproducibly
    follow = env.game.hand.deal
    env.reset(seed=3)
    assert env.game.hand.deal == deal
    env.reset()
    assert env.game.hand.deal == follow != deal


def test_masks_are_the_legal_actions_and_views_are_each_seats() -> None:
    env = Texas42Env(rules="house")
    env.reset(seed=11)
    rng = random.Random(11)
    for agent in env.agent_iter():
        _, _, term, _, _info = env.last()
        if term:
            env.step(None)
            continue
        game = env.game
        for s, a in enumerate(env.agents):
            mask = env.observe(a)["action_mask"]
            legal = game.legal_mask() if a == agent else 0
            assert np.flatnonzero(mask).tolist() == bits(legal)
            view = env.infos[a]["view"]
            assert view == game.view(s) and env.infos[a]["position"] == view_position(view)
            assert np.array_equal(env.observe(a)["observation"], observe(view))
        assert agent == f"seat_{game.seat_to_act()}"
        env.step(rng.choice(bits(game.legal_mask())))


@pytest.mark.parametrize(
    ("rules", "unit"),
    [("standard", "marks"), ("standard,game=points", "points"), ("house,target=3", "marks")],
)
def test_rewards_are_zero_sum_and_add_up_to_the_score(rules: str, unit: str) -> None:
    env = Texas42Env(rules=rules, reward=unit)
    for seed in range(3):
        steps = random_game(env, seed)
        totals = dict.fromkeys(env.possible_agents, 0)
        for _, _, rewards in steps:
            assert sum(rewards.values()) == 0
            assert rewards.get("seat_0") == rewards.get("seat_2")
            for a, r in rewards.items():
                totals[a] += r
        a, b = env.game.score
        assert env.game.is_over()
        assert totals == {"seat_0": a - b, "seat_1": b - a, "seat_2": a - b, "seat_3": b - a}
        assert not env.agents  # every agent was told and removed


def test_one_hand_episode_ends_with_that_hand_on_the_table() -> None:
    env = Texas42Env(episode="hand", render_mode="ansi")
    steps = random_game(env, 5)
    game = env.game
    assert len(game.results) == 1 and len(game.hands) == 2  # the game dealt on; the episode did not
    (first,) = game.results
    final = [r for _, _, r in steps if any(r.values())]
    assert len(final) == 1 and final[0]["seat_0"] == first.score[0] - first.score[1]
    assert env.episode.view(0) == game.hands[0].view(0)
    assert "hand over" in (env.render() or "")


def test_hand_score_in_the_other_unit() -> None:
    # Ex 14: North bids 34 in sixes and makes it after six tricks
    hand = Hand(Rules(), W, EX14_DEAL)
    for call in ("34", "pass", "pass", "pass", "sixes"):
        hand.apply(hand.parse_action(call))
    while not hand.is_over:
        hand.apply(hand.legal_actions()[-1])
    assert hand.result is not None and hand.result.made
    points = hand.result.points
    assert hand_score(hand, "marks") == (1, 0)
    assert hand_score(hand, "points") == points
    set_hand = Hand(Rules(game="points"), W, EX14_DEAL)
    for call in ("2m", "pass", "pass", "pass", "blanks"):
        set_hand.apply(set_hand.parse_action(call))
    while not set_hand.is_over:
        set_hand.apply(set_hand.legal_actions()[0])
    result = set_hand.result
    assert result is not None and not result.made
    assert hand_score(set_hand, "points") == result.score == (0, result.points[1] + 84)
    assert hand_score(set_hand, "marks") == (0, 2)


def test_illegal_actions_are_refused_with_the_reason() -> None:
    env = Texas42Env()
    env.reset(seed=1)
    with pytest.raises(IllegalActionError, match="tiles are played after the auction"):
        env.step(parse_tile("6-6"))
    with pytest.raises(IllegalActionError, match="no action has id 99"):
        env.step(99)
    with pytest.raises(IllegalActionError, match="an action is an id"):
        env.step("pass")
    with pytest.raises(Texas42Error, match="reward must be one of"):
        Texas42Env(reward="tricks")  # type: ignore[arg-type]
    with pytest.raises(Texas42Error, match="unknown rule option"):
        Texas42Env(rules="standard,tricks")


# -- the Gymnasium environment ---------------------------------------------------------------


@pytest.mark.parametrize("env_id", sorted(GYM_IDS))
def test_gymnasium_checker(env_id: str) -> None:
    # the checker steps with unmasked random actions, which the penalty option allows
    env = gymnasium.make(env_id, illegal="penalty", bots="random")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env.unwrapped)
    assert env.unwrapped.episode_kind == GYM_IDS[env_id]


def play_gym(env: Texas42GymEnv, seed: int) -> tuple[float, list[int]]:
    rng = random.Random(seed)
    obs, info = env.reset(seed=seed)
    total, actions = 0.0, []
    while True:
        assert env.observation_space.contains(obs)
        assert np.array_equal(obs, observe(info["view"]))
        assert np.array_equal(info["action_mask"], env.action_masks())
        legal = env.episode.legal_mask()
        assert np.flatnonzero(env.action_masks()).tolist() == bits(legal)
        assert info["view"].seat == env.seat == env.episode.seat_to_act()
        action = rng.choice(np.flatnonzero(info["action_mask"]).tolist())
        actions.append(action)
        obs, reward, terminated, truncated, info = env.step(action)
        total += reward
        assert not truncated
        if terminated:
            assert not info["action_mask"].any()
            return total, actions


@pytest.mark.parametrize("seat", [0, 3, "random"])
def test_gym_plays_whole_games_with_random_masked_actions(seat: int | str) -> None:
    env = Texas42GymEnv(bots="random", seat=seat)  # type: ignore[arg-type]
    seats = set()
    for seed in range(4):
        total, _ = play_gym(env, seed)
        game = env.episode.game
        team = env.seat & 1
        assert game.is_over() and total == game.score[team] - game.score[1 - team]
        seats.add(env.seat)
    assert (seat == "random" and len(seats) > 1) or seats == {seat}


def test_gym_hand_episodes_and_seeding() -> None:
    env = gymnasium.make("texas42/Texas42Hand-v1").unwrapped
    runs = []
    for seed in (4, 4, 5, 6):
        runs.append(play_gym(env, seed))
        (result,) = env.episode.game.results
        assert runs[-1][0] == result.score[0] - result.score[1]  # the learner sits North
    assert runs[0] == runs[1] and runs[1] != runs[2] != runs[3]


def test_gym_bots_sit_where_asked() -> None:
    env = Texas42GymEnv(bots=("random", "rules", "easy"), seat=1)
    env.reset(seed=0)
    assert {s: b.name for s, b in env._bots.items()} == {2: "South", 3: "West", 0: "North"}
    assert [type(env._bots[s]).__name__ for s in (2, 3, 0)] == ["RandomBot", "RulesBot", "EasyBot"]
    with pytest.raises(Texas42Error, match="one bot spec or three"):
        Texas42GymEnv(bots=("rules", "rules"))
    with pytest.raises(Texas42Error, match="no bot called"):
        Texas42GymEnv(bots="grandmaster")
    with pytest.raises(Texas42Error, match="seat must be"):
        Texas42GymEnv(seat=4)


def test_gym_illegal_action_raise_or_penalty() -> None:
    env = Texas42GymEnv()
    obs, info = env.reset(seed=2)
    assert info["view"].phase == 0  # the auction: a tile cannot be played yet
    with pytest.raises(ValueError, match="North cannot 6-6: tiles are played after the auction"):
        env.step(parse_tile("6-6"))
    env = Texas42GymEnv(illegal="penalty", penalty=0.5)
    obs, info = env.reset(seed=2)
    again, reward, terminated, _, info2 = env.step(parse_tile("6-6"))
    assert reward == -0.5 and not terminated and np.array_equal(again, obs)
    assert "tiles are played after the auction" in info2["illegal"]
    # a legal action moves on
    _, _, _, _, info3 = env.step(PASS_ID if info2["action_mask"][PASS_ID] else 29 + 30)
    assert "illegal" not in info3 and info3["view"] != info2["view"]
    env.render_mode = "ansi"
    assert "North" in (env.render() or "")


# -- OpenSpiel (the rl extra) ----------------------------------------------------------------


def test_openspiel_random_simulation() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    from texas42.services.env import openspiel_game  # noqa: F401

    game = pyspiel.load_game("python_texas42")
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)
    house = pyspiel.load_game("python_texas42", {"rules": "house"})
    pyspiel.random_sim_test(house, num_sims=5, serialize=False, verbose=False)
    whole = pyspiel.load_game("python_texas42", {"episode": "game", "rules": "standard,target=3"})
    pyspiel.random_sim_test(whole, num_sims=2, serialize=False, verbose=False)


def test_a_policy_may_answer_with_a_0d_integer_array() -> None:
    env = Texas42GymEnv(bots="random")
    _, info = env.reset(seed=4)
    legal = int(np.flatnonzero(info["action_mask"])[0])
    env.step(np.array(legal))  # what a policy's predict() often hands back
    for bad in (np.array(float(legal)), np.array([legal])):
        with pytest.raises(IllegalActionError, match=r"an action is an id 0\.\.98"):
            env.step(bad)
