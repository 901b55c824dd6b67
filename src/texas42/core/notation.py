"""One-line position strings: the full state of a hand in a game, or one seat's view of it.

Nine space-separated fields, a tenth for a seat view::

    standard 0-0 1 3 66.65.64.62.55.33.10/63.54.44.42.31.20.00/61.53.52.43.32.22.11/60.51.50.41.40.30.21 1:34.pass.pass.pass sixes 66.63.61.60.65 3
    rules    score hand shaker deal (by seat, tiles as two digits)   first-bidder:calls  contract  plays  to-act

- ``rules``: the rules string (`Rules.parse`); ``score``: the game score before this hand;
  ``hand``: the hand's number in the game; ``shaker``: its seat.
- ``deal``: the hands as dealt, one per seat; in a seat view the other seats are ``?``. Under
  rules with a widow, ``+`` and the widow's tiles follow (``+?`` in a view that did not take it).
- ``calls``: the first bidder's seat, a colon, and the calls in order (``-`` for none); after a
  widow is taken, ``|`` and the tiles discarded (``?`` for each one a seat view did not see).
- ``score`` is ``3-2`` for two sides; for more sides, or a negative score (Moon), the entries are
  joined by ``:`` (``5:-3:2``).
- ``contract``: as named, or ``-``; ``plays``: the tiles in play order, or ``-``. In a seat view
  a trick lying face down is ``xW`` (won by seat W), with ``:TT`` for the seat's own tile in it.
- A seat on lead that laid its hand down (`Hand.claim`) is ``c`` among the plays, where it
  claimed; in a seat view the claim shows the tiles laid down, ``cS+TTTT`` (seat S, claim held)
  or ``cS-TTTT`` (failed), with ``=N`` for the points it credited when it ended the hand (not
  while the piles lie face down), and a face-down trick ends with ``^TT`` for the tiles in it that came
  from a hand lying face up.
- ``to-act``: the seat to act, or ``end``; a seat view ends with ``@seat``.

A position written is read back to the same hand or view:

>>> import random
>>> from texas42 import Hand, Rules
>>> from texas42.core.notation import (
...     hand_position,
...     parse_hand_position,
...     parse_view_position,
...     view_position,
... )
>>> hand = Hand.random(Rules(), shaker=0, rng=random.Random(7))
>>> again, score, number = parse_hand_position(hand_position(hand))
>>> again.deal == hand.deal, score, number
(True, (0, 0), 1)
>>> view = hand.view(1)
>>> parse_view_position(view_position(view)) == view
True
>>> view_position(view).split()[4].count("?")  # the other seats' hands stay hidden
3
"""

from __future__ import annotations

from collections.abc import Sequence

from texas42.core.actions import ACTIONS, DISCARD_BASE, Action, Declare, parse_call
from texas42.core.contracts import Contract
from texas42.core.errors import NotationError, Texas42Error
from texas42.core.hand import Hand
from texas42.core.layout import layout_of
from texas42.core.numerals import is_digits
from texas42.core.rules import Rules
from texas42.core.tiles import TILE_CODES, TILE_NAMES, iter_tiles, parse_tile
from texas42.core.view import Claim, Event, HiddenTrick, View, build_view


def _tiles_field(mask: int) -> str:
    return ".".join(TILE_CODES[t] for t in iter_tiles(mask))


def _list(items: list[str]) -> str:
    return ".".join(items) if items else "-"


def _calls_field(
    first_bidder: int, calls: Sequence[Action], discards: Sequence[int | None] = ()
) -> str:
    field = f"{first_bidder}:{_list([c.notation for c in calls])}"
    if discards:
        field += "|" + ".".join("?" if t is None else TILE_CODES[t] for t in discards)
    return field


def score_field(score: Sequence[int]) -> str:
    """``3-2`` for two sides; ``5:-3:2`` for more sides or a negative entry."""
    if len(score) == 2 and min(score) >= 0:
        return f"{score[0]}-{score[1]}"
    return ":".join(str(n) for n in score)


def parse_score(text: str) -> tuple[int, ...]:
    """Read a `score_field`; raises NotationError."""
    parts = text.split(":") if ":" in text else text.split("-")
    if len(parts) < 2 or not all(is_digits(p.removeprefix("-")) for p in parts):
        raise NotationError(f"a score looks like 3-2 or 5:-3:2, not {text!r}")
    if ":" not in text and any(not p for p in parts):
        raise NotationError(f"a score looks like 3-2 or 5:-3:2, not {text!r}")
    return tuple(int(p) for p in parts)


def _deal_field(deal: Sequence[str], widow: str | None) -> str:
    return "/".join(deal) + ("" if widow is None else f"+{widow}")


def hand_position(hand: Hand, score: tuple[int, ...] | None = None, hand_number: int = 1) -> str:
    """The full position string of a hand (every tile shown); the score defaults to nothing."""
    turn = hand.seat_to_act()
    if score is None:
        score = (0,) * hand.layout.sides
    return " ".join(
        (
            str(hand.rules),
            score_field(score),
            str(hand_number),
            str(hand.shaker),
            _deal_field(
                [_tiles_field(m) for m in hand.deal],
                _tiles_field(hand.widow) if hand.layout.widow else None,
            ),
            _calls_field(hand.first_bidder, [ACTIONS[c] for c in hand.calls], hand.discards),
            str(hand.contract) if hand.contract is not None else "-",
            _list(_plays_with_claims(hand)),
            "end" if turn is None else str(turn),
        )
    )


CLAIM = "c"
"""A claim among the plays of a full position string."""


def _plays_with_claims(hand: Hand) -> list[str]:
    words = [TILE_CODES[t] for t in hand.plays]
    for at, _ in reversed(hand.claims):
        words.insert(at, CLAIM)
    return words


def _codes(mask: int) -> str:
    return "".join(TILE_CODES[t] for t in iter_tiles(mask))


def view_position(view: View) -> str:
    """The seat-view position string: hidden tiles never appear in it."""
    layout = view.layout
    deal = ["?"] * layout.seats
    deal[view.seat] = _tiles_field(view.dealt)
    widow = None
    if layout.widow:
        widow = _tiles_field(view.widow) if view.widow else "?"
    plays = []
    for event in view.events:
        if isinstance(event, HiddenTrick):
            own = "" if event.mine is None else f":{TILE_CODES[event.mine]}"
            shown = f"^{_codes(event.shown)}" if event.shown else ""
            plays.append(f"x{event.winner}{own}{shown}")
        elif isinstance(event, Claim):
            worth = f"={event.points}" if event.points else ""
            verdict = "+" if event.holds else "-"
            plays.append(f"{CLAIM}{event.seat}{verdict}{_codes(event.tiles)}{worth}")
        else:
            plays.append(TILE_CODES[event])
    return " ".join(
        (
            str(view.rules),
            score_field(view.score),
            str(view.hand_number),
            str(view.shaker),
            _deal_field(deal, widow),
            _calls_field(view.first_bidder, view.calls, view.discards),
            str(view.contract) if view.contract is not None else "-",
            _list(plays),
            "end" if view.turn is None else str(view.turn),
            f"@{view.seat}",
        )
    )


class _Fields:
    """The fields of a position string, read with errors that name the field."""

    def __init__(self, text: str, count: int) -> None:
        self.words = text.split()
        if len(self.words) != count:
            raise NotationError(
                f"a position has {count} space-separated fields, this one has {len(self.words)}"
            )
        rules_text, score, number, shaker = self.words[:4]
        try:
            self.rules = Rules.parse(rules_text)
        except Texas42Error as exc:
            raise NotationError(f"position field 1 (rules): {exc}") from None
        layout = self.layout = layout_of(self.rules)
        seat_words = tuple(str(s) for s in range(layout.seats))
        self.seat_words = seat_words
        try:
            self.score = parse_score(score)
        except NotationError as exc:
            raise NotationError(f"position field 2 (score): {exc}") from None
        if len(self.score) != layout.sides:
            raise NotationError(
                f"position field 2 (score) needs {layout.sides} entries, one per side, not "
                f"{len(self.score)}"
            )
        if not is_digits(number) or int(number) < 1:
            raise NotationError(
                f"position field 3 (hand number) should be 1 or more, not {number!r}"
            )
        self.hand_number = int(number)
        last = layout.seats - 1
        if shaker not in seat_words:
            raise NotationError(
                f"position field 4 (shaker) should be a seat 0..{last}, not {shaker!r}"
            )
        self.shaker = int(shaker)
        deal, plus, widow = self.words[4].partition("+")
        if bool(plus) != bool(layout.widow):
            raise NotationError(
                "position field 5 (deal) needs + and the widow after the hands"
                if layout.widow
                else "position field 5 (deal) has a widow, and these rules have none"
            )
        self.widow = widow if plus else None
        hands = deal.split("/")
        if len(hands) != layout.seats:
            raise NotationError(
                f"position field 5 (deal) needs {layout.seats} hands separated by /"
            )
        self.hands = hands
        first, sep, calls = self.words[5].partition(":")
        if not sep or first not in seat_words:
            raise NotationError(
                "position field 6 (calls) should start with the first bidder, as 1:"
            )
        self.first_bidder = int(first)
        calls, bar, discards = calls.partition("|")
        self.discards: list[str] | None = discards.split(".") if bar else None
        try:
            self.calls = (
                [] if calls == "-" else [parse_call(c, self.rules) for c in calls.split(".")]
            )
            word = self.words[6]
            self.contract = None if word == "-" else Contract.parse(word)
        except Texas42Error as exc:
            raise NotationError(f"position fields 6-7 (calls, contract): {exc}") from None
        self.plays = [] if self.words[7] == "-" else self.words[7].split(".")
        turn = self.words[8]
        if turn != "end" and turn not in seat_words:
            raise NotationError(f"position field 9 (to act) should be a seat or end, not {turn!r}")
        self.turn = None if turn == "end" else int(turn)

    @staticmethod
    def hand_mask(text: str, where: str) -> int:
        mask = 0
        for code in text.split("."):
            try:
                t = parse_tile(code)
            except NotationError as exc:
                raise NotationError(f"{where}: {exc}") from None
            if mask >> t & 1:
                raise NotationError(f"{where}: tile {code} appears twice")
            mask |= 1 << t
        return mask


def parse_deal(text: str, seats: int) -> list[int]:
    """The hands of a position's deal field without its widow (``66.65.../63.54.../...``, a
    hand a seat joined by ``/``) as masks; a tile twice, in one hand or two, is refused with the
    seat named.

    >>> parse_deal("66.65/64.63", 2) == [1 << 27 | 1 << 26, 1 << 25 | 1 << 24]
    True
    >>> parse_deal("66.65/64.66", 2)
    Traceback (most recent call last):
    ...
    texas42.core.errors.NotationError: position field 5 (deal), seat 1: tile 6-6 appears twice (seat 0 too)
    """
    hands = text.split("/")
    if len(hands) != seats:
        raise NotationError(f"position field 5 (deal) needs {seats} hands separated by /")
    masks: list[int] = []
    seen = 0
    for seat, held in enumerate(hands):
        where = f"position field 5 (deal), seat {seat}"
        mask = _Fields.hand_mask(held, where)
        if mask & seen:
            t = next(iter_tiles(mask & seen))
            other = next(k for k, m in enumerate(masks) if m >> t & 1)
            raise NotationError(f"{where}: tile {TILE_NAMES[t]} appears twice (seat {other} too)")
        seen |= mask
        masks.append(mask)
    return masks


def parse_hand_position(text: str) -> tuple[Hand, tuple[int, ...], int]:
    """Replay a full position string: the hand, the game score before it, and its number."""
    fields = _Fields(text, 9)
    deal = parse_deal("/".join(fields.hands), fields.layout.seats)
    widow = None
    if fields.widow is not None:
        widow = (
            _Fields.hand_mask(fields.widow, "position field 5 (deal), widow") if fields.widow else 0
        )
    try:
        hand = Hand(fields.rules, fields.shaker, deal, widow)
    except Texas42Error as exc:
        raise NotationError(f"position field 5 (deal): {exc}") from None
    if hand.first_bidder != fields.first_bidder:
        raise NotationError(
            f"position field 6 (calls): the first bidder is seat {hand.first_bidder}, "
            f"not {fields.first_bidder}"
        )
    actions: list[tuple[str, Action | None]] = [
        (f"call {i + 1}", c) for i, c in enumerate(fields.calls)
    ]
    for i, code in enumerate(fields.discards or ()):
        try:
            actions.append((f"discard {i + 1}", ACTIONS[DISCARD_BASE + parse_tile(code)]))
        except Texas42Error as exc:
            raise NotationError(f"position field 6 (calls), discard {i + 1}: {exc}") from None
    if fields.contract is not None:
        actions.append(("contract", Declare(fields.contract)))
    tiles = 0
    for code in fields.plays:
        if code == CLAIM:  # None stands for the claim of the seat to lead
            actions.append((f"claim after play {tiles}", None))
            continue
        tiles += 1
        try:
            actions.append((f"play {tiles}", ACTIONS[parse_tile(code)]))
        except Texas42Error as exc:
            raise NotationError(f"position field 8 (plays), play {tiles}: {exc}") from None
    for where, action in actions:
        if action is None:
            seat = hand.seat_to_act()
            reason = hand.why_claim_illegal(seat if seat is not None else -1)
            if reason is not None:
                raise NotationError(f"position {where}: {reason}")
            hand.claim(hand.turn)
            continue
        reason = hand.why_illegal(action)
        if reason is not None:
            raise NotationError(f"position {where} ({action}): {reason}")
        hand.apply(action)
    if hand.seat_to_act() != fields.turn:
        expected = hand.seat_to_act()
        raise NotationError(
            f"position field 9 (to act) says {fields.words[8]}, the position gives "
            f"{'end' if expected is None else expected}"
        )
    return hand, fields.score, fields.hand_number


def _codes_mask(text: str) -> int:
    """The tiles of two-digit codes written together (``6665``), each once."""
    if len(text) % 2:
        raise NotationError(f"tiles are two digits each, not {text!r}")
    mask = 0
    for i in range(0, len(text), 2):
        t = parse_tile(text[i : i + 2])
        if mask >> t & 1:
            raise NotationError(f"tile {text[i : i + 2]} appears twice")
        mask |= 1 << t
    return mask


def parse_view_position(text: str) -> View:
    """Read a seat-view position string back into the `View` it was written from."""
    fields = _Fields(text, 10)
    seat_word = fields.words[9]
    if seat_word[1:] not in fields.seat_words or seat_word[:1] != "@":
        last = fields.layout.seats - 1
        raise NotationError(f"position field 10 (seat) should be @0..@{last}, not {seat_word!r}")
    seat = int(seat_word[1])
    for i, h in enumerate(fields.hands):
        if (i == seat) == (h == "?"):
            raise NotationError(
                "position field 5 (deal): a seat view shows its own hand and ? for the others"
            )
    dealt = _Fields.hand_mask(fields.hands[seat], "position field 5 (deal)")
    size = fields.layout.hand_size
    if dealt.bit_count() != size or dealt & ~fields.layout.tiles:
        raise NotationError(
            f"position field 5 (deal): a hand has {size} tiles in play, not {dealt.bit_count()}"
        )
    widow = 0
    if fields.widow not in (None, "?"):
        widow = _Fields.hand_mask(fields.widow or "", "position field 5 (deal), widow")
    discards: list[int | None] = []
    for i, code in enumerate(fields.discards or ()):
        try:
            discards.append(None if code == "?" else parse_tile(code))
        except Texas42Error as exc:
            raise NotationError(f"position field 6 (calls), discard {i + 1}: {exc}") from None
    events: list[Event] = []
    for i, code in enumerate(fields.plays):
        try:
            if code.startswith("x") and len(code) >= 2 and code[1] in fields.seat_words:
                pile, caret, shown = code.partition("^")
                mine = parse_tile(pile[3:]) if pile[2:3] == ":" else None
                if len(pile) not in (2, 5) or (caret and not shown):
                    raise NotationError(f"not a face-down trick: {code!r}")
                events.append(HiddenTrick(int(pile[1]), mine, _codes_mask(shown)))
            elif code.startswith(CLAIM) and code[1:2] in fields.seat_words and code[2:3] in "+-":
                shown, equals, worth = code[3:].partition("=")
                if not shown or (equals and not is_digits(worth)):
                    raise NotationError(f"not a claim: {code!r}")
                points = int(worth) if equals else 0
                events.append(Claim(int(code[1]), _codes_mask(shown), code[2] == "+", points))
            else:
                events.append(parse_tile(code))
        except Texas42Error as exc:
            raise NotationError(f"position field 8 (plays), play {i + 1}: {exc}") from None
    try:
        return build_view(
            fields.rules,
            seat,
            fields.hand_number,
            fields.score,
            fields.shaker,
            fields.first_bidder,
            dealt,
            [c.id for c in fields.calls],
            fields.contract,
            events,
            fields.turn,
            widow,
            discards,
        )
    except Texas42Error as exc:
        raise NotationError(f"position: {exc}") from None
