"""Why a seat chose an action, in words a player reads (issue 19, item 5).

A `Reason` is made by the player that decided (`texas42.players.reasons.decide`) from the very
numbers it decided on, so the words cannot contradict the choice. It has two forms:

- ``text``: everything the deciding seat knew, its own tiles included ("34: makes in 71% of the
  deals that fit; three sixes with the 6-6");
- ``public``: only what every seat at the table saw (the action itself, the calls and plays so
  far), which is all another player may read while the hand is being played. Once the hand is
  over every tile is shown, and ``text`` may be read by all.

>>> reason = Reason("34: makes in 71% of the deals that fit", "bids 34")
>>> Reason.from_dict(reason.to_dict()) == reason
True
>>> reason.for_reader(hidden=True)
'bids 34'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from texas42.core.errors import Texas42Error


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
