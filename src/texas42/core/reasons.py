"""Why a seat chose an action, in words a player reads (issue 19, item 5).

A `Reason` is made by the player that decided (`texas42.players.reasons.decide`) from the very
numbers it decided on, so the words cannot contradict the choice. It has two forms:

- ``text``: everything the deciding seat knew, its own tiles included ("34: makes in 71% of the
  deals that fit; three sixes with the 6-6");
- ``public``: only what every seat at the table saw (the action itself, the calls and plays so
  far), which is all another player may read while the hand is being played, and for good if
  the hand ends with some of the seat's tiles never shown (`reads_whole`, the one rule every
  face follows).

>>> reason = Reason("34: makes in 71% of the deals that fit", "bids 34")
>>> Reason.from_dict(reason.to_dict()) == reason
True
>>> reason.for_reader(hidden=True)
'bids 34'
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from texas42.core.errors import Texas42Error
from texas42.core.hand import Hand
from texas42.core.tiles import mask_of


@dataclass(frozen=True, slots=True)
class Reason:
    """A decision explained: ``text`` for the deciding seat (and for all once the hand is
    over), ``public`` for anyone else while the hand is on."""

    text: str
    public: str

    def for_reader(self, *, hidden: bool) -> str:
        """The words a reader may see: ``public`` while the deciding seat's tiles are hidden
        from them, else ``text``."""
        return self.public if hidden else self.text

    def to_dict(self) -> dict[str, str]:
        return {"text": self.text, "public": self.public}

    @classmethod
    def from_dict(cls, data: Any) -> Reason:
        """A reason read back from `to_dict`'s form; a clear error for anything else."""
        if not isinstance(data, dict):
            raise Texas42Error(f"a reason is an object with text and public, not {data!r:.60}")
        text, public = data.get("text"), data.get("public")
        if not isinstance(text, str) or not isinstance(public, str):
            raise Texas42Error("a reason needs text and public, each a string")
        return cls(text, public)


def reads_whole(hand: Hand, seat: int, readers: Collection[int]) -> bool:
    """Whether the player of the seats ``readers`` (none: a spectator) may read the whole
    reasons of the actions ``seat`` took in ``hand``. A whole reason names what the deciding
    seat knew, its own tiles included, so it is read only where every one of those is known: by
    the player of that seat (a bot played for them while they were away), and by everyone once
    the hand is over with every tile the seat held in it shown face up (played, or laid down by
    a claim). Anyone else reads the public form: a partner, the opponents and spectators while
    the hand is on, and for good after a hand that ended with some of the seat's tiles unshown
    (set early, all passed, a face-down discard)."""
    return seat in readers or _all_shown(hand, seat)


def reason_words(reason: Reason, hand: Hand, seat: int, readers: Collection[int]) -> str:
    """The words of a reason for an action ``seat`` took in ``hand`` that the player of
    ``readers`` may read (`reads_whole`)."""
    return reason.for_reader(hidden=not reads_whole(hand, seat, readers))


def _all_shown(hand: Hand, seat: int) -> bool:
    """The hand is over and every tile ``seat`` held in it (with the widow, if it took it) was
    shown to every seat."""
    if hand.result is None:
        return False
    held = hand.deal[seat] | (hand.widow if hand.declarer == seat else 0)
    shown = mask_of(hand.plays)
    for _, claim in hand.claims:
        shown |= claim.tiles
    return held & ~shown == 0
