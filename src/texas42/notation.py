"""One-line position strings: the full state of a hand in a game, or one seat's view of it.

Nine space-separated fields, a tenth for a seat view::

    standard 0-0 1 3 66.65.64.62.55.33.10/63.54.44.42.31.20.00/61.53.52.43.32.22.11/60.51.50.41.40.30.21 1:34.pass.pass.pass sixes 66.63.61.60.65 3
    rules    score hand shaker deal (by seat, tiles as two digits)   first-bidder:calls  contract  plays  to-act

- ``rules``: the rules string (`Rules.parse`); ``score``: the game score before this hand;
  ``hand``: the hand's number in the game; ``shaker``: its seat.
- ``deal``: the four hands as dealt; in a seat view the other seats are ``?``.
- ``calls``: the first bidder's seat, a colon, and the calls in order (``-`` for none).
- ``contract``: as named, or ``-``; ``plays``: the tiles in play order, or ``-``. In a seat view
  a trick lying face down is ``xW`` (won by seat W), with ``:TT`` for the seat's own tile in it.
- ``to-act``: the seat to act, or ``end``; a seat view ends with ``@seat``.
"""

from __future__ import annotations

from texas42.actions import ACTIONS, Action, Declare, parse_call
from texas42.contracts import Contract
from texas42.errors import NotationError, Texas42Error
from texas42.hand import SEATS, Hand
from texas42.rules import Rules
from texas42.tiles import HAND_SIZE, TILE_CODES, iter_tiles, parse_tile
from texas42.view import Event, HiddenTrick, View, build_view


def _tiles_field(mask: int) -> str:
    return ".".join(TILE_CODES[t] for t in iter_tiles(mask))


def _list(items: list[str]) -> str:
    return ".".join(items) if items else "-"


def _calls_field(first_bidder: int, calls: list[Action] | tuple[Action, ...]) -> str:
    return f"{first_bidder}:{_list([c.notation for c in calls])}"


def hand_position(hand: Hand, score: tuple[int, int] = (0, 0), hand_number: int = 1) -> str:
    """The full position string of a hand (every tile shown)."""
    turn = hand.seat_to_act()
    return " ".join(
        (
            str(hand.rules),
            f"{score[0]}-{score[1]}",
            str(hand_number),
            str(hand.shaker),
            "/".join(_tiles_field(m) for m in hand.deal),
            _calls_field(hand.first_bidder, [ACTIONS[c] for c in hand.calls]),
            str(hand.contract) if hand.contract is not None else "-",
            _list([TILE_CODES[t] for t in hand.plays]),
            "end" if turn is None else str(turn),
        )
    )


def view_position(view: View) -> str:
    """The seat-view position string: hidden tiles never appear in it."""
    deal = ["?"] * SEATS
    deal[view.seat] = _tiles_field(view.dealt)
    plays = []
    for event in view.events:
        if isinstance(event, HiddenTrick):
            own = "" if event.mine is None else f":{TILE_CODES[event.mine]}"
            plays.append(f"x{event.winner}{own}")
        else:
            plays.append(TILE_CODES[event])
    return " ".join(
        (
            str(view.rules),
            f"{view.score[0]}-{view.score[1]}",
            str(view.hand_number),
            str(view.shaker),
            "/".join(deal),
            _calls_field(view.first_bidder, view.calls),
            str(view.contract) if view.contract is not None else "-",
            _list(plays),
            "end" if view.turn is None else str(view.turn),
            f"@{view.seat}",
        )
    )


def _is_count(word: str) -> bool:
    return word.isascii() and word.isdecimal()


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
        a, sep, b = score.partition("-")
        if not (sep and _is_count(a) and _is_count(b)):
            raise NotationError(f"position field 2 (score) should look like 3-2, not {score!r}")
        self.score = (int(a), int(b))
        if not _is_count(number) or int(number) < 1:
            raise NotationError(f"position field 3 (hand number) should be 1 or more, not {number!r}")
        self.hand_number = int(number)
        if shaker not in ("0", "1", "2", "3"):
            raise NotationError(f"position field 4 (shaker) should be a seat 0..3, not {shaker!r}")
        self.shaker = int(shaker)
        hands = self.words[4].split("/")
        if len(hands) != SEATS:
            raise NotationError("position field 5 (deal) needs four hands separated by /")
        self.hands = hands
        first, sep, calls = self.words[5].partition(":")
        if not sep or first not in ("0", "1", "2", "3"):
            raise NotationError("position field 6 (calls) should start with the first bidder, as 1:")
        self.first_bidder = int(first)
        try:
            self.calls = [] if calls == "-" else [parse_call(c) for c in calls.split(".")]
            word = self.words[6]
            self.contract = None if word == "-" else Contract.parse(word)
        except Texas42Error as exc:
            raise NotationError(f"position fields 6-7 (calls, contract): {exc}") from None
        self.plays = [] if self.words[7] == "-" else self.words[7].split(".")
        turn = self.words[8]
        if turn != "end" and turn not in ("0", "1", "2", "3"):
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


def parse_hand_position(text: str) -> tuple[Hand, tuple[int, int], int]:
    """Replay a full position string: the hand, the game score before it, and its number."""
    fields = _Fields(text, 9)
    deal = [_Fields.hand_mask(h, f"position field 5 (deal), seat {i}") for i, h in enumerate(fields.hands)]
    try:
        hand = Hand(fields.rules, fields.shaker, deal)
    except Texas42Error as exc:
        raise NotationError(f"position field 5 (deal): {exc}") from None
    if hand.first_bidder != fields.first_bidder:
        raise NotationError(
            f"position field 6 (calls): the first bidder is seat {hand.first_bidder}, "
            f"not {fields.first_bidder}"
        )
    actions: list[tuple[str, Action]] = [(f"call {i + 1}", c) for i, c in enumerate(fields.calls)]
    if fields.contract is not None:
        actions.append(("contract", Declare(fields.contract)))
    for i, code in enumerate(fields.plays):
        try:
            actions.append((f"play {i + 1}", ACTIONS[parse_tile(code)]))
        except Texas42Error as exc:
            raise NotationError(f"position field 8 (plays), play {i + 1}: {exc}") from None
    for where, action in actions:
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


def parse_view_position(text: str) -> View:
    """Read a seat-view position string back into the `View` it was written from."""
    fields = _Fields(text, 10)
    seat_word = fields.words[9]
    if seat_word not in ("@0", "@1", "@2", "@3"):
        raise NotationError(f"position field 10 (seat) should be @0..@3, not {seat_word!r}")
    seat = int(seat_word[1])
    for i, h in enumerate(fields.hands):
        if (i == seat) == (h == "?"):
            raise NotationError(
                "position field 5 (deal): a seat view shows its own hand and ? for the others"
            )
    dealt = _Fields.hand_mask(fields.hands[seat], "position field 5 (deal)")
    if dealt.bit_count() != HAND_SIZE:
        raise NotationError(
            f"position field 5 (deal): a hand has {HAND_SIZE} tiles, not {dealt.bit_count()}"
        )
    events: list[Event] = []
    for i, code in enumerate(fields.plays):
        try:
            if code.startswith("x") and len(code) >= 2 and code[1] in "0123":
                mine = parse_tile(code[3:]) if code[2:3] == ":" else None
                if len(code) not in (2, 5):
                    raise NotationError(f"not a face-down trick: {code!r}")
                events.append(HiddenTrick(int(code[1]), mine))
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
        )
    except Texas42Error as exc:
        raise NotationError(f"position: {exc}") from None
