"""EasyBot: a beginner: plays like `RulesBot` but slips now and then, and never bids a mark.

It takes RulesBot's choice except, with a fixed chance, a random legal play in its place (a
beginner's slip), and it turns RulesBot's mark bids into the lowest point bid. The chance of a
slip is drawn from the seed and the view alone, so the same view always gets the same answer.
"""

from __future__ import annotations

import random

from texas42.core.actions import Action, Bid, Play
from texas42.core.errors import IllegalActionError
from texas42.core.notation import view_position
from texas42.core.reasons import Reason
from texas42.core.view import View
from texas42.core.words import NO_MARK_BIDS, reason_line, slip_words
from texas42.players.explain import public_reason
from texas42.players.reasons import Decision
from texas42.players.rules_bot import RulesBot

SLIP_CHANCE = 0.25
"""How often a play is a random legal tile instead of RulesBot's."""


class EasyBot:
    def __init__(self, seed: int = 0, name: str = "Easy") -> None:
        self.name = name
        self.seed = seed
        self._rules = RulesBot(name)

    def choose(self, view: View) -> Action:
        return self.explain(view).action

    def explain(self, view: View) -> Decision:
        """RulesBot's choice and reason, or the slip or the point bid made in its place."""
        if not view.legal:
            raise IllegalActionError(f"seat {view.seat} has nothing to do: it is not its turn")
        decision = self._rules.explain(view)
        if len(view.legal) == 1:  # a slip could only pick the same tile
            return decision
        choice = decision.action
        rng = random.Random(f"{self.seed}:{view_position(view)}")
        if isinstance(choice, Play) and rng.random() < SLIP_CHANCE:
            slip = rng.choice(view.legal)
            public = public_reason(view, slip)
            return Decision(
                slip, Reason(reason_line(public, [slip_words(len(view.legal))]), public)
            )
        if isinstance(choice, Bid) and (choice.marks or choice.special):
            points = [a for a in view.legal if isinstance(a, Bid) and not a.marks and not a.special]
            if points:
                bid = min(points, key=lambda bid: bid.points)
                public = public_reason(view, bid)
                said = reason_line(public, [NO_MARK_BIDS, decision.reason.text])
                return Decision(bid, Reason(said, public))
        return decision
