"""Information-set search for the last tricks of a marks game.

PIMC solves each sampled deal on its own, so in each deal it may plan a different continuation:
it "knows" where the missing tiles are in every one (strategy fusion). Near the end of a hand few
deals still fit the view, and this search removes that flaw for the seat deciding: its own plays
form one plan for all the deals it cannot tell apart, and a plan may only branch on what the seat
will have seen (the tiles the others play). The other seats play each deal as they like best,
seeing it whole: opponents against the seat (the cautious, "paranoid" assumption), partner with
it. This is the vector search of Cazenave and Ventos's alpha-mu with an unbounded number of the
seat's own moves, written for a seat's few last tiles where it is cheap.

Each deal is scored for the seat's side as ``100 * made + total`` (the defenders negate both;
Nel-O's total counts the bidder's tricks, so its sign flips), which orders outcomes as
`PimcBot.play_scores` does: the contract first, then the points.
"""

from __future__ import annotations

from dataclasses import dataclass

from texas42.solver import PlayPosition, Solver
from texas42.tiles import iter_tiles

Outcomes = dict[int, tuple[float, bool, int]]
"""Per deal index: (score for the seat's side, contract made, bidders' final total)."""


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
        self.weights = weights
        self.solver = solver

    def estimates(self, positions: list[PlayPosition]) -> dict[int, EndgameEstimate]:
        """For each tile the seat may play now (it is to play in every position)."""
        items = list(enumerate(positions))
        first = positions[0]
        assert first.turn == self.seat
        total_weight = sum(self.weights)
        found: dict[int, EndgameEstimate] = {}
        for t in iter_tiles(first.legal()):
            outcomes = self._search([(i, p.play(t)) for i, p in items])
            make = sum(self.weights[i] for i, (_, made, _) in outcomes.items() if made)
            total = sum(self.weights[i] * value for i, (_, _, value) in outcomes.items())
            found[t] = EndgameEstimate(make / total_weight, total / total_weight)
        return found

    def _search(self, items: list[tuple[int, PlayPosition]]) -> Outcomes:
        first = items[0][1]
        if len(items) == 1 or first.hands[self.seat].bit_count() <= 1:
            # one deal left, or no choice left for the seat (its last tile is forced): each
            # deal's double-dummy value is exact
            return {i: self._solved(p) for i, p in items}
        seat = first.turn
        if seat == self.seat:
            best: Outcomes | None = None
            best_score = 0.0
            for t in iter_tiles(first.legal()):
                outcomes = self._search([(i, p.play(t)) for i, p in items])
                score = sum(self.weights[i] * outcomes[i][0] for i in outcomes)
                if best is None or score > best_score + 1e-9:
                    best, best_score = outcomes, score
            assert best is not None
            return best
        friendly = (seat & 1) == (self.seat & 1)
        union = 0
        for _, p in items:
            union |= p.legal()
        chosen: Outcomes = {}
        for t in iter_tiles(union):
            branch = [(i, p.play(t)) for i, p in items if p.legal() >> t & 1]
            for i, outcome in self._search(branch).items():
                known = chosen.get(i)
                if known is None or (outcome[0] > known[0] if friendly else outcome[0] < known[0]):
                    chosen[i] = outcome
        return chosen

    def _solved(self, position: PlayPosition) -> tuple[float, bool, int]:
        total = position.taken + self.solver.value(position)
        made = total == 0 if position.nello else total >= position.goal
        bidders = (self.seat & 1) == position.bidders
        sign = 1.0 if bidders else -1.0
        value_sign = -sign if position.nello else sign
        return sign * 100.0 * made + value_sign * total, made, total
