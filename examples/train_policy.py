"""Train a small 42 policy on the CPU with numpy alone, and print its learning curve.

REINFORCE with a learned baseline on the Gymnasium environment, one hand per episode: the
learner holds seat 0, bots (``random`` by default) hold the other three, partner included. The
policy is a one-hidden-layer network over the observation vector; illegal actions are masked out
of its softmax. At 500, 1000, 2000, 4000 ... hands (and when time is up) it prints the average
reward (marks per hand, the team's minus the other team's) and the share of hands its team won
since the line before, then compares the greedy policy with a random player on the same
held-out deals.

    .venv/bin/python examples/train_policy.py              # about three minutes
    .venv/bin/python examples/train_policy.py --minutes 1 --bots rules

Needs the ``env`` extra (pettingzoo, gymnasium). See docs/env.md.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass, field

import gymnasium
import numpy as np
import numpy.typing as npt

import texas42.services.env  # noqa: F401  (registers the Gymnasium ids)
from texas42.core.actions import NUM_ACTIONS
from texas42.services.env import OBSERVATION_SIZE

Array = npt.NDArray[np.float64]


@dataclass
class Policy:
    """Masked softmax over a tanh hidden layer, and a linear value baseline."""

    hidden: int
    rng: np.random.Generator
    params: dict[str, Array] = field(init=False)

    def __post_init__(self) -> None:
        h, n = self.hidden, OBSERVATION_SIZE
        self.params = {
            "w1": self.rng.normal(0, 1 / np.sqrt(n), (n, h)),
            "b1": np.zeros(h),
            "w2": self.rng.normal(0, 0.01, (h, NUM_ACTIONS)),
            "b2": np.zeros(NUM_ACTIONS),
            "v": np.zeros(n),
            "v0": np.zeros(1),
        }

    def probabilities(self, obs: Array, mask: npt.NDArray[np.bool_]) -> tuple[Array, Array]:
        """Hidden activations and action probabilities for a batch of observations."""
        p = self.params
        h = np.tanh(obs @ p["w1"] + p["b1"])
        logits = h @ p["w2"] + p["b2"]
        logits = np.where(mask, logits, -np.inf)
        logits -= logits.max(axis=-1, keepdims=True)
        e = np.exp(logits)
        return h, e / e.sum(axis=-1, keepdims=True)

    def act(self, obs: Array, mask: npt.NDArray[np.bool_], greedy: bool = False) -> int:
        _, probs = self.probabilities(obs[None], mask[None])
        if greedy:
            return int(np.argmax(probs[0]))
        return int(self.rng.choice(NUM_ACTIONS, p=probs[0]))

    def gradients(
        self,
        obs: Array,
        masks: npt.NDArray[np.bool_],
        actions: npt.NDArray[np.int64],
        returns: Array,
    ) -> dict[str, Array]:
        """Ascent directions: policy gradient with the baseline, and the baseline's own fit."""
        p = self.params
        baseline = obs @ p["v"] + p["v0"][0]
        advantage = returns - baseline
        advantage = (advantage - advantage.mean()) / (advantage.std() + 1e-8)
        h, probs = self.probabilities(obs, masks)
        dlogits = -probs
        dlogits[np.arange(len(actions)), actions] += 1
        dlogits *= advantage[:, None] / len(actions)
        dh = dlogits @ p["w2"].T * (1 - h * h)
        error = (returns - baseline) / len(actions)
        return {
            "w1": obs.T @ dh,
            "b1": dh.sum(axis=0),
            "w2": h.T @ dlogits,
            "b2": dlogits.sum(axis=0),
            "v": obs.T @ error,
            "v0": np.array([error.sum()]),
        }


class Adam:
    """Adam, for gradient ascent on a dict of arrays."""

    def __init__(self, params: dict[str, Array], lr: float) -> None:
        self.lr, self.t = lr, 0
        self.m = {k: np.zeros_like(v) for k, v in params.items()}
        self.s = {k: np.zeros_like(v) for k, v in params.items()}

    def step(self, params: dict[str, Array], grads: dict[str, Array]) -> None:
        self.t += 1
        for k, g in grads.items():
            self.m[k] = 0.9 * self.m[k] + 0.1 * g
            self.s[k] = 0.999 * self.s[k] + 0.001 * g * g
            m = self.m[k] / (1 - 0.9**self.t)
            s = self.s[k] / (1 - 0.999**self.t)
            params[k] += self.lr * m / (np.sqrt(s) + 1e-8)


def play_hand(
    env: gymnasium.Env, policy: Policy | None, seed: int | None, greedy: bool = False
) -> tuple[float, list[tuple[Array, npt.NDArray[np.bool_], int]]]:
    """One hand: the reward and the learner's (observation, mask, action) steps. With no policy,
    the learner plays uniformly among its legal actions."""
    obs, info = env.reset(seed=seed)
    steps, total, done = [], 0.0, False
    while not done:
        mask = info["action_mask"].astype(bool)
        x = obs.astype(np.float64)
        if policy is None:
            action = int(env.np_random.choice(np.flatnonzero(mask)))
        else:
            action = policy.act(x, mask, greedy)
        steps.append((x, mask, action))
        obs, reward, done, _, info = env.step(action)
        total += reward
    return total, steps


def evaluate(env: gymnasium.Env, policy: Policy | None, hands: int) -> tuple[float, float]:
    """Average reward and share of hands won on the held-out deals (seeds 10**6 onward)."""
    rewards = np.array([play_hand(env, policy, 10**6 + i, greedy=True)[0] for i in range(hands)])
    return float(rewards.mean()), float((rewards > 0).sum() / max(1, (rewards != 0).sum()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=3.0, help="training time budget")
    parser.add_argument("--bots", default="random", help="bot spec for the three other seats")
    parser.add_argument("--hidden", type=int, default=64, help="hidden units")
    parser.add_argument("--lr", type=float, default=3e-3, help="Adam step size")
    parser.add_argument("--batch", type=int, default=64, help="hands per update")
    parser.add_argument(
        "--report",
        type=int,
        default=500,
        help="hands in the first line of the curve; each later line covers twice as many",
    )
    parser.add_argument("--eval", type=int, default=2000, help="held-out hands to compare on")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    env = gymnasium.make("texas42/Texas42Hand-v1", bots=args.bots).unwrapped
    policy = Policy(args.hidden, np.random.default_rng(args.seed))
    adam = Adam(policy.params, args.lr)
    base_reward, base_wins = evaluate(env, None, args.eval)
    print(
        f"random player vs {args.bots}: {base_reward:+.3f} marks/hand, wins {base_wins:.1%} "
        f"of hands ({args.eval} held-out hands)"
    )
    print(f"{'hands':>8} {'minutes':>8} {'reward':>8} {'won':>7}")

    env.reset(seed=args.seed)
    start, hands, report = time.monotonic(), 0, args.report
    window: list[float] = []
    batch: list[tuple[float, list[tuple[Array, npt.NDArray[np.bool_], int]]]] = []
    while time.monotonic() - start < 60 * args.minutes:
        reward, steps = play_hand(env, policy, None)
        hands += 1
        window.append(reward)
        if steps:
            batch.append((reward, steps))
        if len(batch) == args.batch:
            obs = np.array([x for _, s in batch for x, _, _ in s])
            masks = np.array([m for _, s in batch for _, m, _ in s])
            actions = np.array([a for _, s in batch for _, _, a in s])
            returns = np.array([r for r, s in batch for _ in s], dtype=np.float64)
            adam.step(policy.params, policy.gradients(obs, masks, actions, returns))
            batch = []
        if hands == report or time.monotonic() - start >= 60 * args.minutes:
            report *= 2
            r = np.array(window)
            won = (r > 0).sum() / max(1, (r != 0).sum())
            minutes = (time.monotonic() - start) / 60
            print(f"{hands:>8} {minutes:>8.2f} {r.mean():>+8.3f} {won:>7.1%}", flush=True)
            window = []

    reward, wins = evaluate(env, policy, args.eval)
    print(
        f"greedy policy vs {args.bots}: {reward:+.3f} marks/hand, wins {wins:.1%} of hands "
        f"(random player: {base_reward:+.3f}, {base_wins:.1%})"
    )


if __name__ == "__main__":
    main()
