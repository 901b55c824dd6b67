"""How a hand moves on: its phases, shared by `texas42.core.hand` and the seat views."""

from __future__ import annotations

import enum


class Phase(enum.IntEnum):
    AUCTION = 0
    DECLARE = 1
    PLAY = 2
    DONE = 3
    DISCARD = 4
    """The bid winner has taken the widow and lays tiles face down (Moon); before DECLARE."""
