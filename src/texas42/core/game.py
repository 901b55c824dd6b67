"""A game of 42: hands until a team reaches the target, the shake moving left each hand.

`Game` has the same state API as `Hand` (``legal_actions``, ``apply``, ``undo``, ``view`` ...) and
deals the next hand itself when one ends, from its own seeded random source (or from the deals it
was given, as when a record is replayed).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from texas42.core.actions import Action
from texas42.core.deal import draw_for_shaker
from texas42.core.errors import IllegalActionError, NotationError
from texas42.core.hand import Hand, HandResult
from texas42.core.layout import layout_of
from texas42.core.notation import hand_position, parse_hand_position
from texas42.core.rules import Rules
from texas42.core.view import Claim, View


@dataclass(frozen=True, slots=True)
class Outcome:
    """The end of a game: the winning side (0 = seats 0 and 2 at four seats) and the final score."""

    winner: int
    score: tuple[int, ...]
    hands: int


class Game:
    """A whole game: a sequence of hands under one set of rules, with the score."""

    def __init__(
        self,
        rules: Rules | None = None,
        seed: int | None = None,
        *,
        first_shaker: int | None = None,
        deals: Iterable[Sequence[int]] = (),
        score: tuple[int, ...] | None = None,
        first_hand: int = 1,
        widows: Iterable[int | None] = (),
    ) -> None:
        self.rules = rules if rules is not None else Rules.preset("standard")
        self.layout = layout_of(self.rules)
        self.rng = random.Random(seed)
        self.draw_rounds: list[tuple[tuple[int, int], ...]] = []
        seats = self.layout.seats
        if first_shaker is None:
            if self.rules.first_shaker == "random":
                first_shaker = self.rng.randrange(seats)
            else:
                first_shaker, self.draw_rounds = draw_for_shaker(self.rng, self.layout)
        if score is None:
            score = (0,) * self.layout.sides
        if len(score) != self.layout.sides:
            raise NotationError(f"a score has {self.layout.sides} entries under these rules")
        self.start_score = tuple(int(n) for n in score)
        self.first_hand = first_hand
        self._deals = [tuple(d) for d in deals]
        self._widows = list(widows)
        self._next_deal = 0
        self._hand_starts: list[tuple[object, int]] = []
        self.hands: list[Hand] = []
        self.results: list[HandResult] = []
        self._outcome: Outcome | None = None
        self._start_hand(first_shaker)

    # -- reading the state ---------------------------------------------------------------

    @property
    def hand(self) -> Hand:
        """The hand being played (the last one, once the game is over)."""
        return self.hands[-1]

    @property
    def score(self) -> tuple[int, ...]:
        """The running total, marks or points, never capped: one entry per side."""
        history = self.score_history()
        return history[-1] if history else self.start_score

    def score_history(self) -> list[tuple[int, ...]]:
        """The running total after each finished hand."""
        total = list(self.start_score)
        totals = []
        for result in self.results:
            for side, n in enumerate(result.score):
                total[side] += n
            totals.append(tuple(total))
        return totals

    def outcome(self) -> Outcome | None:
        return self._outcome

    def is_over(self) -> bool:
        return self._outcome is not None

    def legal_mask(self) -> int:
        return 0 if self._outcome else self.hand.legal_mask()

    def legal_actions(self) -> list[Action]:
        return [] if self._outcome else self.hand.legal_actions()

    def is_legal(self, action: Action | int) -> bool:
        return self._outcome is None and self.hand.is_legal(action)

    def why_illegal(self, action: Action | int) -> str | None:
        if self._outcome is not None:
            return "the game is over"
        return self.hand.why_illegal(action)

    def parse_action(self, text: str) -> Action:
        return self.hand.parse_action(text)

    def seat_to_act(self) -> int | None:
        return None if self._outcome else self.hand.seat_to_act()

    def view(self, seat: int) -> View:
        """What one seat may know (see `texas42.core.view`)."""
        return self.hand.view(seat, self.score_before_hand(), self.hand_number)

    def score_before_hand(self) -> tuple[int, ...]:
        """The score as the current hand began (the last hand's, once the game is over)."""
        before = self.score
        if len(self.results) == len(self.hands):
            last = self.results[-1].score
            before = tuple(a - b for a, b in zip(before, last))
        return before

    @property
    def hand_number(self) -> int:
        """The current hand's number in the game, counting from 1."""
        return self.first_hand + len(self.hands) - 1

    def position(self) -> str:
        """The full one-line position string of the current hand (`texas42.core.notation`)."""
        return hand_position(self.hand, self.score_before_hand(), self.hand_number)

    @classmethod
    def from_position(cls, text: str, seed: int | None = None) -> Game:
        """A game at the position a full position string gives; later deals come from ``seed``."""
        hand, score, number = parse_hand_position(text)
        game = cls(
            hand.rules,
            seed,
            first_shaker=hand.shaker,
            deals=[hand.deal],
            score=score,
            first_hand=number,
            widows=[hand.widow],
        )
        game.hands[0] = hand
        if hand.result is not None:
            game.results.append(hand.result)
            game._outcome = game._decide(hand)
            if game._outcome is None:
                game._start_hand((hand.shaker + 1) % game.layout.seats)
        return game

    # -- changing the state --------------------------------------------------------------

    def apply(self, action: Action | int) -> None:
        if self._outcome is not None:
            raise IllegalActionError("the game is over")
        hand = self.hand
        hand.apply(action)
        if hand.result is None:
            return
        self.results.append(hand.result)
        self._outcome = self._decide(hand)
        if self._outcome is None:
            self._start_hand((hand.shaker + 1) % self.layout.seats)

    def why_claim_illegal(self, seat: int) -> str | None:
        """None when ``seat`` may lay its hand down now (`Hand.why_claim_illegal`)."""
        if self._outcome is not None:
            return "the game is over"
        return self.hand.why_claim_illegal(seat)

    def can_claim(self, seat: int) -> bool:
        return self.why_claim_illegal(seat) is None

    def claim(self, seat: int) -> Claim:
        """``seat`` lays its hand down and claims the rest (`Hand.claim`); a claim that ends the
        hand is scored and the next hand dealt, as after the last play."""
        if self._outcome is not None:
            raise IllegalActionError("the game is over")
        hand = self.hand
        claim = hand.claim(seat)
        if hand.result is not None:
            self._hand_over(hand)
        return claim

    def _hand_over(self, hand: Hand) -> None:
        assert hand.result is not None
        self.results.append(hand.result)
        self._outcome = self._decide(hand)
        if self._outcome is None:
            self._start_hand((hand.shaker + 1) % self.layout.seats)

    def undo(self) -> None:
        """Take back the last action, across the start of a hand if need be."""
        if len(self.results) == len(self.hands):
            self.results.pop()
            self._outcome = None
        elif not self.hand.action_count:
            if len(self.hands) == 1:
                raise IllegalActionError("nothing to undo: the game has just begun")
            self.hands.pop()
            rng_state, self._next_deal = self._hand_starts.pop()
            self.rng.setstate(rng_state)  # type: ignore[arg-type]
            self.results.pop()
        self.hand.undo()

    def copy(self) -> Game:
        clone = object.__new__(Game)
        clone.rules = self.rules
        clone.layout = self.layout
        clone._widows = self._widows
        clone.rng = random.Random()
        clone.rng.setstate(self.rng.getstate())
        clone.draw_rounds = list(self.draw_rounds)
        clone.start_score = self.start_score
        clone.first_hand = self.first_hand
        clone._deals = self._deals
        clone._next_deal = self._next_deal
        clone._hand_starts = list(self._hand_starts)
        clone.hands = [h.copy() for h in self.hands]
        clone.results = list(self.results)
        clone._outcome = self._outcome
        return clone

    def _start_hand(self, shaker: int) -> None:
        self._hand_starts.append((self.rng.getstate(), self._next_deal))
        if self._next_deal < len(self._deals):
            deal = self._deals[self._next_deal]
            widow = self._widows[self._next_deal] if self._next_deal < len(self._widows) else None
            self._next_deal += 1
            self.hands.append(Hand(self.rules, shaker, deal, widow))
        else:
            self.hands.append(Hand.random(self.rules, shaker, self.rng))

    def _decide(self, hand: Hand) -> Outcome | None:
        """Whether the game is won: the side at the target; if more than one, the highest total,
        and on a tie the side that bid the last hand (else the first of them round the table)."""
        target = self.rules.winning_target
        total = self.score
        reached = [side for side, n in enumerate(total) if n >= target]
        if not reached:
            return None
        best = max(total[side] for side in reached)
        leaders = [side for side in reached if total[side] == best]
        winner = hand.bidder_team if hand.bidder_team in leaders else leaders[0]
        shown = total
        if self.rules.cap_score:
            shown = tuple(min(n, target) for n in total)
        return Outcome(winner, shown, len(self.hands))
