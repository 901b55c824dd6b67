"""RandomBot: picks uniformly among the legal actions; the baseline every real player must beat."""

from __future__ import annotations

import random

from texas42.core.actions import Action
from texas42.core.errors import IllegalActionError
from texas42.core.reasons import Reason
from texas42.core.view import View
from texas42.core.words import random_words, reason_line
from texas42.players.explain import public_reason
from texas42.players.reasons import Decision


class RandomBot:
    """Uniform over ``view.legal``; the same seed gives the same choices for the same views."""

    def __init__(self, seed: int | None = None, name: str = "Random") -> None:
        self.name = name
        self._rng = random.Random(seed)

    def choose(self, view: View) -> Action:
        return self.explain(view).action

    def explain(self, view: View) -> Decision:
        """The random choice, said as what it is."""
        if not view.legal:
            raise IllegalActionError(f"seat {view.seat} has nothing to do: it is not its turn")
        action = self._rng.choice(view.legal)
        public = public_reason(view, action)
        return Decision(
            action, Reason(reason_line(public, [random_words(len(view.legal))]), public)
        )
