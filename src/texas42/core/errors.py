"""The errors texas42 raises for bad input: all are ValueErrors with a message a player can read."""

from __future__ import annotations


class Texas42Error(ValueError):
    """Base of every input error texas42 raises."""


class NotationError(Texas42Error):
    """Text that does not spell a tile, call, contract, rule option or position."""


class IllegalActionError(Texas42Error):
    """An action the rules do not allow now; the state is left unchanged."""


class RulesError(Texas42Error):
    """A rule option that does not exist or has a value it cannot take."""
