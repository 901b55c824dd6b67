"""The reasons a table keeps for its bots' actions, by where each action stands in the game.

A bot at the web table acts through `texas42.players.reasons.decide`, and its reason goes into
the action's event (`ActionEvent.reason`), so the log and a snapshot keep it and a restart shows
the same "why?". As an event is applied the room files its reason under a `ReasonKey`: the hand's
index in the game, the kind of action (``call``, ``discard``, ``contract``, ``play``) and its
number among the hand's actions of that kind (the third call is 2, the first lead 0), the very
places the state payload shows those actions at (`Hand.calls`, the tiles of ``tricks`` and
``trick`` in play order). Who may read which form of a reason is decided in one place,
`texas42.core.reasons.reason_words`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from texas42.core.actions import Action, Bid, Declare, Discard, Pass
from texas42.core.game import Game
from texas42.core.reasons import Reason
from texas42.faces.server.events import StoredReason

ReasonKind = Literal["call", "discard", "contract", "play"]
ReasonKey = tuple[int, ReasonKind, int]
"""The hand's index in the game, the kind of action and its number among that kind."""


@dataclass(frozen=True, slots=True)
class KeptReason:
    """A bot's reason for the action ``seat`` took."""

    seat: int
    reason: Reason


Kept = dict[int, dict[tuple[ReasonKind, int], KeptReason]]
"""The reasons of a game: by hand index, each action's (`ReasonKey` without the hand)."""

REASON_CHARS = 500
"""The most of each form of a reason a table keeps and sends (an outside engine's words are
its own and may run on): the rest is cut, marked with an ellipsis."""


def reason_key(game: Game, action: Action) -> ReasonKey:
    """Where ``action``, about to be taken in the game's hand in play, stands (`ReasonKey`)."""
    hand = game.hand
    index = len(game.hands) - 1
    if isinstance(action, Pass | Bid):
        return (index, "call", len(hand.calls))
    if isinstance(action, Discard):
        return (index, "discard", len(hand.discards))
    if isinstance(action, Declare):
        return (index, "contract", 0)
    return (index, "play", len(hand.plays))


def stored(reason: Reason | None) -> StoredReason | None:
    """A reason as an event keeps it, each form cut to `REASON_CHARS`."""
    if reason is None:
        return None
    return StoredReason(text=_cut(reason.text), public=_cut(reason.public))


def _cut(words: str) -> str:
    return words if len(words) <= REASON_CHARS else words[: REASON_CHARS - 1] + "…"


def file_reason(kept: Kept, key: ReasonKey, seat: int, reason: StoredReason | None) -> None:
    """File the reason an action's event keeps (None: a person's action, nothing to file)."""
    if reason is not None:
        index, kind, number = key
        kept.setdefault(index, {})[kind, number] = KeptReason(
            seat, Reason(reason.text, reason.public)
        )


def unfile_reason(kept: Kept, key: ReasonKey) -> None:
    """Take back what `file_reason` filed for an action whose commit failed."""
    index, kind, number = key
    kept.get(index, {}).pop((kind, number), None)


def record_reasons(game: Game, kept: Kept) -> list[list[Reason | None]]:
    """Every hand's reasons in the order a record keeps them (the calls, the discards, the
    declaration, the plays; None for a person's action), for
    `texas42.core.record.record_from_game`: a finished game's record shows every tile, so it
    keeps the whole reasons."""
    found: list[list[Reason | None]] = []
    for index, hand in enumerate(game.hands):
        filed = kept.get(index, {})
        places: list[tuple[ReasonKind, int]] = [("call", k) for k in range(len(hand.calls))]
        places += [("discard", k) for k in range(len(hand.discards))]
        if hand.contract is not None:
            places.append(("contract", 0))
        places += [("play", k) for k in range(len(hand.plays))]
        found.append([filed[place].reason if place in filed else None for place in places])
    return found


__all__ = [
    "REASON_CHARS",
    "Kept",
    "KeptReason",
    "ReasonKey",
    "ReasonKind",
    "file_reason",
    "reason_key",
    "record_reasons",
    "stored",
    "unfile_reason",
]
