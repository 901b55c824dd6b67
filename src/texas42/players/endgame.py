"""Information-set search for the last tricks of a marks game.

PIMC solves each sampled deal on its own, so in each deal it may plan a different continuation:
it "knows" where the missing tiles are in every one (strategy fusion). Near the end of a hand few
deals still fit the view, and this search removes that flaw for the seat deciding: its own plays
form one plan for all the deals it cannot tell apart, and a plan may only branch on what the seat
will have seen (the tiles the others play). The other seats play each deal as they like best,
seeing it whole: opponents against the seat (the cautious, "paranoid" assumption), partner with
it. This is Cazenave and Ventos's alpha-mu with no bound on the seat's own moves: each node
returns its Pareto front, every plan not matched or beaten in every deal by another, because
which deals reach a later decision depends on the opponents' choices, which depend on the plan;
keeping only the plan best on average at each node can miss the best plan.

On a table of any size the sides are those of the contract: the bid winner's side against every
other seat together. Each deal is scored for the seat's side as ``100 * made + total`` (the
defenders negate both; Nel-O's total counts the bidder's tricks, so its sign flips). Per deal that
puts the contract first and the points second; a plan is judged by its weighted mean score.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from texas42.core.tiles import iter_tiles
from texas42.search.solver import PlayPosition, Solver

FRONT_LIMIT = 64
"""The most plans a front keeps; past it the plans best on average over the node's deals are
kept (never reached in the positions measured, where fronts stay under ten)."""


@dataclass(frozen=True, slots=True)
class Plan:
    """What one plan of the seat's gives in every deal of the root (entries for deals that do
    not reach the node are meaningless): the score for the seat's side, whether the contract
    is made, and the bidders' final total."""

    score: np.ndarray
    made: np.ndarray
    total: np.ndarray


@dataclass(frozen=True, slots=True)
class EndgameEstimate:
    """For one tile: the weighted chance the contract is made and the bidders' expected total."""

    make: float
    total: float


class InformationSetSearch:
    """One decision's search: the seat, the deals with their weights, and a solver for the
    positions where a single deal is left (there the seat knows everything)."""

    def __init__(self, seat: int, weights: list[float], solver: Solver) -> None:
        self.seat = seat
        self.weights = np.asarray(weights, dtype=float)
        self.solver = solver

    def estimates(self, positions: list[PlayPosition]) -> dict[int, EndgameEstimate]:
        """For each tile the seat may play now (it is to play in every position): what the best
        plan after it gives."""
        first = positions[0]
        assert first.turn == self.seat
        total_weight = float(self.weights.sum())
        found: dict[int, EndgameEstimate] = {}
        for t in iter_tiles(first.legal()):
            plan = self.best_plan([(i, p.play(t)) for i, p in enumerate(positions)])
            found[t] = EndgameEstimate(
                float(self.weights @ plan.made) / total_weight,
                float(self.weights @ plan.total) / total_weight,
            )
        return found

    def best_plan(self, items: list[tuple[int, PlayPosition]]) -> Plan:
        """The plan best on average over the deals of ``items`` (every deal of the root)."""
        return max(self.front(items), key=lambda plan: float(self.weights @ plan.score))

    def front(self, items: list[tuple[int, PlayPosition]]) -> list[Plan]:
        """The plans not dominated in every deal of ``items``: alpha-mu's Pareto front."""
        first = items[0][1]
        present = np.zeros(len(self.weights), dtype=bool)
        present[[i for i, _ in items]] = True
        if len(items) == 1 or first.hands[self.seat].bit_count() <= 1:
            # one deal left, or no choice left for the seat (its last tile is forced): each
            # deal's double-dummy value is exact
            return [self._solved(items)]
        seat = first.turn
        if seat == self.seat:
            plans = [
                plan
                for t in iter_tiles(first.legal())
                for plan in self.front([(i, p.play(t)) for i, p in items])
            ]
            return self._pruned(plans, present)
        # another seat sees its deal and picks per deal: the opponents the worst plan value for
        # the seat, partners (every seat on its side of the contract) the best; a plan of the
        # seat's names one plan per tile played
        friendly = first.maximizing(seat) == first.maximizing(self.seat)
        start = -np.inf if friendly else np.inf
        size = len(self.weights)
        fronts = [Plan(np.full(size, start), np.zeros(size, dtype=bool), np.zeros(size))]
        union = 0
        for _, p in items:
            union |= p.legal()
        for t in iter_tiles(union):
            branch = [(i, p.play(t)) for i, p in items if p.legal() >> t & 1]
            reach = np.zeros(size, dtype=bool)
            reach[[i for i, _ in branch]] = True
            combined = []
            for mine in fronts:
                for theirs in self.front(branch):
                    better = theirs.score > mine.score if friendly else theirs.score < mine.score
                    take = reach & better
                    combined.append(
                        Plan(
                            np.where(take, theirs.score, mine.score),
                            np.where(take, theirs.made, mine.made),
                            np.where(take, theirs.total, mine.total),
                        )
                    )
            fronts = self._pruned(combined, present)
        return fronts

    def _pruned(self, plans: list[Plan], present: np.ndarray) -> list[Plan]:
        """``plans`` without those another plan matches or beats in every present deal."""
        kept: list[Plan] = []

        def average(plan: Plan) -> float:
            known = present & np.isfinite(plan.score)
            return float(self.weights @ np.where(known, plan.score, 0.0))

        for plan in sorted(plans, key=average, reverse=True):
            score = plan.score[present]
            if not any(np.all(other.score[present] >= score) for other in kept):
                kept.append(plan)
        return kept[:FRONT_LIMIT]

    def _solved(self, items: list[tuple[int, PlayPosition]]) -> Plan:
        size = len(self.weights)
        score, made, total = np.zeros(size), np.zeros(size, dtype=bool), np.zeros(size)
        for i, position in items:
            value = position.taken + self.solver.value(position)
            makes = value == 0 if position.nello else value >= position.goal
            sign = 1.0 if position.layout.same_side(self.seat, position.bidder) else -1.0
            value_sign = -sign if position.nello else sign
            score[i] = sign * 100.0 * makes + value_sign * value
            made[i], total[i] = makes, value
        return Plan(score, made, total)
