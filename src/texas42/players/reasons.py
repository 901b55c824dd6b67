"""A bot's decision together with its reason, for every face that shows one (issue 19, item 5).

Faces call `decide` instead of ``bot.choose`` wherever they show why a bot acted: the web
table's "why?", the terminal games, ``replay`` of a record made by bots and the engine protocol's
``info ... reason`` line. A bot that can explain itself has an ``explain(view) -> Decision``
method that returns the action ``choose(view)`` would (same seed, same view, same action) with
the reason made from the numbers it chose on.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from texas42.core.actions import Action
from texas42.core.reasons import Reason
from texas42.core.view import View

if TYPE_CHECKING:  # the bots' own modules import this one, and the package imports them
    from texas42.players import Bot


@dataclass(frozen=True, slots=True)
class Decision:
    """What a bot chose and why."""

    action: Action
    reason: Reason


@runtime_checkable
class Explaining(Protocol):
    """A bot that can say why: ``explain(view).action == choose(view)``."""

    name: str

    def choose(self, view: View) -> Action: ...

    def explain(self, view: View) -> Decision: ...


def decide(bot: Bot, view: View) -> Decision:
    """The bot's action for the view and the reason for it."""
    if isinstance(bot, Explaining):
        return bot.explain(view)
    action = bot.choose(view)
    said = f"{bot.name} chose {action.notation} and gave no reason"
    return Decision(action, Reason(said, said))
