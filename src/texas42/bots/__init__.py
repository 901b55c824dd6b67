"""Computer players: each one sees only a seat's `View` and answers with one of ``view.legal``.

`Bot` is the protocol every player here follows; `RandomBot` is the baseline and `RulesBot` the
rule-of-thumb player the terminal game seats around a human.
"""

from __future__ import annotations

from typing import Protocol

from texas42.actions import Action
from texas42.bots.random_bot import RandomBot
from texas42.bots.rules_bot import RulesBot
from texas42.view import View


class Bot(Protocol):
    """A player: given what its seat may know, it picks one of the legal actions."""

    name: str

    def choose(self, view: View) -> Action: ...


__all__ = ["Bot", "RandomBot", "RulesBot"]
