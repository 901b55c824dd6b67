"""Whole numbers read from text: what every reader of notation, options and protocol lines uses.

Plain ASCII digits only (``int()`` would also take other scripts' digits, and ``"²"`` fails), and
at most `MAX_DIGITS` of them: ``int()`` refuses more than 4,300 digits with a ValueError, and no
number in 42 (a seat, a bid, a count, a score, a time in milliseconds) has more than a few.
"""

from __future__ import annotations

MAX_DIGITS = 40
"""The most digits a number may have anywhere a number is read."""


def is_digits(word: str) -> bool:
    """Whether ``word`` is a whole number without sign that `int` reads."""
    return word.isascii() and word.isdecimal() and len(word) <= MAX_DIGITS


def whole_number(word: str, *, signed: bool = False) -> int | None:
    """The number ``word`` spells (with a leading ``-`` if ``signed``), or None."""
    digits = word[1:] if signed and word[:1] == "-" else word
    return int(word) if is_digits(digits) else None


__all__ = ["MAX_DIGITS", "is_digits", "whole_number"]
