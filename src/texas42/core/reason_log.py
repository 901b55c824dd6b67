"""Why each action of a game was taken, kept as the game goes (issue 19, item 5).

A face or the arena adds every action's reason (None for a person's) as it applies the action;
the log gives a hand's reasons to show, and all of them, aligned with each hand's actions, to
`texas42.core.record.record_from_game` so that a record keeps them.

>>> from texas42.core.game import Game
>>> from texas42.core.reasons import Reason
>>> game = Game(seed=1)
>>> log = ReasonLog()
>>> log.add(game, 1, Reason("passes: weak", "passes"))
>>> log.add(game, 2, None)
>>> log.said(0)
[(1, Reason(text='passes: weak', public='passes'))]
>>> log.by_hand()
[[Reason(text='passes: weak', public='passes'), None]]
"""

from __future__ import annotations

from texas42.core.game import Game
from texas42.core.reasons import Reason


class ReasonLog:
    """By hand (its index in ``game.hands``), each action's seat and reason, in order."""

    def __init__(self) -> None:
        self._hands: list[list[tuple[int, Reason | None]]] = []

    def add(self, game: Game, seat: int, reason: Reason | None) -> None:
        """Note the reason for the action ``seat`` is about to take in the game's current hand
        (call it before applying the action, since the last one starts the next hand)."""
        index = len(game.hands) - 1
        self._hands.extend([] for _ in range(index + 1 - len(self._hands)))
        self._hands[index].append((seat, reason))

    def said(self, index: int) -> list[tuple[int, Reason]]:
        """Hand ``index``'s reasons that were given, with the seat of each."""
        if not 0 <= index < len(self._hands):
            return []
        return [(seat, reason) for seat, reason in self._hands[index] if reason is not None]

    def by_hand(self) -> list[list[Reason | None]]:
        """Every hand's reasons in the order of its actions, for `record_from_game`."""
        return [[reason for _, reason in hand] for hand in self._hands]
