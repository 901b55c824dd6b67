"""Hints for people: a seat's legal actions ranked, each with its chance and expected points.

The numbers come from the PIMC bot's own evaluation (`texas42.players.pimc`), so a hint is what the
``expert`` bot thinks from the same seat, seeing only what the seat sees:

- a play: the chance the contract is made (for the bidding side) or set (for the defenders)
  over deals that fit the view, and the bidders' expected total at the end of the hand;
- a call: the bot's calibrated chance of making the bid with its best contract (a pass has
  none), the one the call is chosen on, with the expected marks of the call; and for a point
  bid, its chance of being made should it stand;
- a contract: the chance of making the bid with it and the expected total.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from texas42.core.actions import Action, Bid, Declare, Pass, Play
from texas42.core.contracts import Contract
from texas42.core.errors import IllegalActionError
from texas42.core.notation import view_position
from texas42.core.progress import Phase
from texas42.core.reasons import Reason
from texas42.core.view import View
from texas42.players.explain import PlayGrounds
from texas42.players.pimc import Chances, PimcBot, PimcSettings
from texas42.search.solver import points_needed


@dataclass(frozen=True, slots=True)
class Hint:
    """One legal action with what the bot expects of it; ``chance`` is for the seat's side
    (make when bidding, set when defending), ``points`` the bidders' expected total (None where
    it does not apply), ``marks`` the expected marks of a call."""

    action: Action
    chance: float | None
    points: float | None
    marks: float | None = None
    if_stands: float | None = None
    """A point bid's chance of being made should nobody outbid it
    (`texas42.players.pimc.chance_if_it_stands`); ``chance`` is the one the call is chosen on."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "action": self.action.notation,
            "chance": None if self.chance is None else round(self.chance, 4),
            "points": None if self.points is None else round(self.points, 2),
            "marks": None if self.marks is None else round(self.marks, 3),
            "if_stands": None if self.if_stands is None else round(self.if_stands, 4),
        }


@dataclass(frozen=True, slots=True)
class Advice:
    """A turn's hints, best first, and what the expert would do there with its reason in
    words: the reason is told from the numbers the hints show, judged once."""

    hints: list[Hint]
    choice: Action
    reason: Reason


def hints(view: View, *, samples: int = 32, seed: int = 0) -> list[Hint]:
    """The seat's legal actions, best first, judged from its view alone."""
    return advise(view, samples=samples, seed=seed).hints


def advise(view: View, *, samples: int = 32, seed: int = 0) -> Advice:
    """The hints for the seat's turn and the expert's choice with its reason."""
    if not view.legal:
        raise IllegalActionError(f"seat {view.seat} has nothing to do: it is not its turn")
    bot = PimcBot(
        PimcSettings.expert().with_options(
            {"samples": str(samples), "bid_samples": str(samples), "value_samples": str(samples)}
        ),
        seed,
    )
    choice, grounds = bot.judge(view)
    reason = bot.reason(view, choice, grounds)
    if view.phase == Phase.PLAY:
        if isinstance(grounds, PlayGrounds):
            return Advice(_ranked_plays(view, grounds), choice, reason)
        return Advice(play_hints(bot, view), choice, reason)  # one tile to play: not judged
    chances = bot.contract_chances(view)  # kept by the bot: judged once, if judged above
    if view.phase == Phase.DECLARE:
        return Advice(_declare_hints(bot, view, chances), choice, reason)
    return Advice(_call_hints(bot, view, chances), choice, reason)


def _ranked_plays(view: View, grounds: PlayGrounds) -> list[Hint]:
    """The plays as the bot ranked them, each with its side's chance and the bidders' total."""
    if view.rules.game == "points" or grounds.chances is None:
        return [Hint(Play(tile), None, None) for tile in grounds.order]
    return [
        Hint(Play(tile), grounds.chances[tile], grounds.points.get(tile)) for tile in grounds.order
    ]


def play_hints(bot: PimcBot, view: View) -> list[Hint]:
    """The legal plays as ``bot``'s own estimates rank them, each with its side's chance and the
    bidders' total (marks games), judged without the bot's choice."""
    rng = random.Random(f"{bot.seed}:{view_position(view)}")
    estimates, _ = bot.estimates(view, rng)
    scores = bot.play_scores(view, estimates)
    assert view.bidder is not None
    defending = not view.layout.same_side(view.seat, view.bidder)
    points_game = view.rules.game == "points"
    found = []
    for action in view.legal:
        assert isinstance(action, Play)
        estimate = estimates[action.tile]
        if points_game:
            hint = Hint(action, None, None)
        else:
            chance = 1.0 - estimate.make if defending else estimate.make
            hint = Hint(action, chance, estimate.total)
        found.append((scores[action.tile], hint))
    found.sort(key=lambda pair: pair[0], reverse=True)
    return [hint for _, hint in found]


def _call_hints(bot: PimcBot, view: View, chances: dict[Contract, Chances]) -> list[Hint]:
    found = []
    for action in view.legal:
        if isinstance(action, Pass):
            found.append(Hint(action, None, None, bot.pass_value(view)))
        elif isinstance(action, Bid):
            chance, marks = bot.call_value(chances, action, view)
            stands = bot.stands_chance(view, chances, action, chance)
            found.append(Hint(action, chance, None, marks, stands))
        else:
            found.append(Hint(action, None, None, None))
    found.sort(key=lambda h: -1e9 if h.marks is None else h.marks, reverse=True)
    return found


def _declare_hints(bot: PimcBot, view: View, chances: dict[Contract, Chances]) -> list[Hint]:
    need = points_needed(view)
    found = []
    for action in view.legal:
        assert isinstance(action, Declare)
        values = chances.get(action.contract)
        if not values:
            found.append(Hint(action, None, None))
            continue
        share, mean = bot.contract_score(view, action.contract, values, need)
        found.append(Hint(action, share, mean))
    found.sort(
        key=lambda h: (-1.0, 0.0) if h.chance is None else (h.chance, h.points or 0.0), reverse=True
    )
    return found
