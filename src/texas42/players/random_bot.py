"""RandomBot: picks uniformly among the legal actions; the baseline every real player must beat."""

from __future__ import annotations

import random

from texas42.core.actions import Action
from texas42.core.errors import IllegalActionError
from texas42.core.view import View


class RandomBot:
    """Uniform over ``view.legal``; the same seed gives the same choices for the same views."""

    def __init__(self, seed: int | None = None, name: str = "Random") -> None:
        self.name = name
        self._rng = random.Random(seed)

    def choose(self, view: View) -> Action:
        if not view.legal:
            raise IllegalActionError(f"seat {view.seat} has nothing to do: it is not its turn")
        return self._rng.choice(view.legal)
