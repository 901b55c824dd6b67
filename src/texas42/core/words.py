"""The words of the game: every sentence a player reads about a hand or a game, made once.

The command line, both terminal tables, the SVG table and (through the server) the browser render
these strings instead of writing their own, so every face says the same thing the same way.
Plain values in, strings out: no printing and no markup, so any face can call them. Each takes
the names to use, one a seat (``names``) or one a side (``sides``), defaulting to the table's
(North, North-South); a face passes its own ("You", "Ann (bot)"). The past tense throughout, so
that "You" and "Ann" take the same verb, but for the shaker before the first call
(`shaker_line`).

Everything here reads a `View` (what one seat may know) or a public result, so no sentence can
name a tile its reader could not see. The rules as sentences are `Rules.describe`.

A hand to show the words with, rules.md Ex 14 (North bids 34 in sixes and makes it after trick 6):

>>> from texas42.core.hand import Hand
>>> from texas42.core.tiles import parse_hand
>>> deal = [
...     parse_hand("6-6 6-5 6-4 6-2 5-5 3-3 1-0"),
...     parse_hand("6-3 5-4 4-4 4-2 3-1 2-0 0-0"),
...     parse_hand("6-1 5-3 5-2 4-3 3-2 2-2 1-1"),
...     parse_hand("6-0 5-1 5-0 4-1 4-0 3-0 2-1"),
... ]
>>> hand = Hand(Rules(), shaker=3, deal=deal)
>>> for call in ("34", "pass", "pass", "pass", "sixes"):
...     hand.apply(hand.parse_action(call))
>>> contract_line(hand.view(1))
'North bid 34 · sixes (sixes are trump)'
>>> for tile in "6-6 6-3 6-1 6-0 6-5 0-0 1-1 2-1 5-5 5-4 5-2 5-1".split():
...     hand.apply(hand.parse_action(tile))
>>> pile_line(hand.view(1), 0)
'3 tricks · 13 points'
>>> for tile in "3-3 3-1 4-3 3-0 6-4 2-0 3-2 4-0 6-2 4-2 2-2 4-1".split():
...     hand.apply(hand.parse_action(tile))
>>> assert hand.result is not None
>>> hand_headline(hand.view(1), hand.result)
'North-South made it'
>>> for line in hand_result_lines(hand.view(1), hand.result):
...     print(line)
Points: North-South 36, East-West 0
Tricks: North-South 6, East-West 0
Scored: North-South +1 mark
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from texas42.core.actions import Action, Bid, Declare, Discard, Pass, Play
from texas42.core.contracts import SUIT_NAMES, Contract
from texas42.core.errors import NotationError
from texas42.core.game import Outcome
from texas42.core.hand import HandResult
from texas42.core.layout import Layout, layout_of
from texas42.core.progress import Phase
from texas42.core.rules import Rules
from texas42.core.tiles import hand_name
from texas42.core.view import Claim, View

_ALL = ("", "/", "/\\", "A", "A|", "AL", "AL|", "ALL")
"""The word as it grows: A is drawn in three strokes (/, \\, -), each L in two (|, _)."""

STROKES = len(_ALL) - 1


def marks_tally(marks: int) -> str:
    """``marks`` drawn as strokes of "ALL"; past seven (a game can end 8-x) a new word starts.

    >>> marks_tally(4), marks_tally(9)
    ('A|', 'ALL /\\\\')
    """
    if marks < 0:
        raise ValueError(f"a tally counts marks from 0, not {marks}")
    words = ["ALL"] * (marks // STROKES)
    if marks % STROKES:
        words.append(_ALL[marks % STROKES])
    return " ".join(words)


def plural(count: int, word: str) -> str:
    """A count as players say it.

    >>> plural(1, "trick"), plural(6, "point"), plural(-1, "mark")
    ('1 trick', '6 points', '-1 mark')
    """
    return f"{count} {word}" if abs(count) == 1 else f"{count} {word}s"


def gain(rules: Rules, amount: int) -> str:
    """What a hand scored one side, signed, in the game's unit (marks, or points in a points
    game and Moon).

    >>> gain(Rules(), 1), gain(Rules.parse("moon"), -5)
    ('+1 mark', '-5 points')
    """
    unit = "mark" if rules.game == "marks" else "point"
    return f"{'+' if amount > 0 else ''}{plural(amount, unit)}"


def _verb(subject: str, singular: str, plural: str) -> str:
    """The verb's form after one player's name: "You" takes the plural, as a team does."""
    return plural if subject.lower() == "you" else singular


def _seat_names(view: View, names: Sequence[str] | None) -> Sequence[str]:
    return view.layout.seat_names if names is None else names


def side_labels(layout: Layout, seats: Sequence[str]) -> list[str]:
    """Each side as the sentences name it, from how they name the seats: a side of one seat is
    its player (Moon: "Ann made it"), a team its compass pair (North-South).

    >>> side_labels(Rules.parse("moon").layout, ["Ann", "Bob", "Cat"])
    ['Ann', 'Bob', 'Cat']
    >>> side_labels(Rules().layout, ["Ann", "Bob", "Cat", "Dan"])
    ['North-South', 'East-West']
    """
    labels = []
    for side, compass in enumerate(layout.side_names):
        members = layout.side_seats(side)
        labels.append(seats[members[0]] if len(members) == 1 else compass)
    return labels


def _side_names(rules: Rules, sides: Sequence[str] | None) -> Sequence[str]:
    return layout_of(rules).side_names if sides is None else sides


def score_line(rules: Rules, score: Sequence[int], sides: Sequence[str] | None = None) -> str:
    """The game score, one entry a side (a team, or a player where everyone scores alone), marks
    also as strokes of "ALL".

    >>> score_line(Rules(), (3, 1))
    'North-South 3 [A], East-West 1 [/]'
    """
    names = _side_names(rules, sides)
    if len(score) != len(names):
        raise ValueError(f"a score under these rules has {len(names)} entries, not {len(score)}")
    parts = []
    for name, amount in zip(names, score):
        tally = marks_tally(amount) if rules.game == "marks" else ""
        parts.append(f"{name} {amount}" + (f" [{tally}]" if tally else ""))
    return ", ".join(parts)


def auction_line(view: View, names: Sequence[str] | None = None) -> str:
    """The calls so far, each after its seat's name.

    >>> import random
    >>> from texas42.core.hand import Hand
    >>> hand = Hand.random(Rules(), 3, random.Random(1))
    >>> for call in ("30", "pass"):
    ...     hand.apply(hand.parse_action(call))
    >>> auction_line(hand.view(0))
    'North 30, East pass'
    """
    seat_names = _seat_names(view, names)
    seats = view.layout.seats
    calls = [
        f"{seat_names[(view.first_bidder + i) % seats]} {call.notation}"
        for i, call in enumerate(view.calls)
    ]
    return ", ".join(calls) if calls else "no calls yet"


def action_said(who: str, action: Action, *, own: bool = False) -> str:
    """An action as news of the table: who did what. A tile laid face down is named only to the
    player who laid it (``own``).

    >>> action_said("East", Bid("31")), action_said("You", Declare("fives"))
    ('East bid 31', 'You named fives')
    >>> action_said("West", Discard("5-0")), action_said("You", Discard("5-0"), own=True)
    ('West laid a tile face down', 'You laid 5-0 face down')
    """
    if isinstance(action, Play):
        return f"{who} played {action.notation}"
    if isinstance(action, Bid):
        return f"{who} bid {action.notation}"
    if isinstance(action, Declare):
        return f"{who} named {contract_words(action.contract)}"
    if isinstance(action, Discard):
        return f"{who} laid {action.notation if own else 'a tile'} face down"
    return f"{who} passed"


def shaker_line(who: str) -> str:
    """Who shakes the hand, shown on the table before the first call (under the draw for the
    first shake), when the shake is still news.

    >>> shaker_line("West"), shaker_line("You")
    ('West shakes.', 'You shake.')
    """
    return f"{who} {_verb(who, 'shakes', 'shake')}."


def hand_heading(number: int, who: str) -> str:
    """A hand's heading in a log or a replay: its number in the game and who shook it.

    >>> hand_heading(3, "Ann")
    'Hand 3: Ann shook'
    """
    return f"Hand {number}: {who} shook"


def bot_replaced(who: str, problem: str) -> str:
    """Why a seat's bot (an outside engine, most often) was replaced by the rules bot, which the
    tables do rather than end a game over one broken player.

    >>> bot_replaced("Ann (bot)", "the engine exited with status 3")
    "Ann (bot)'s bot failed (the engine exited with status 3); the rules bot takes the seat."
    """
    return f"{who}'s bot failed ({problem}); the rules bot takes the seat."


def trick_taken(who: str, number: int, points: int | None) -> str:
    """Who took a trick and what it was worth; ``points`` is None for a trick laid face down.

    >>> trick_taken("Bob", 1, 6), trick_taken("You", 2, None)
    ('Bob took trick 1 (6 points)', 'You took trick 2 (face down)')
    """
    worth = "face down" if points is None else plural(points, "point")
    return f"{who} took trick {number} ({worth})"


def widow_taken(who: str, widow: int | None = None) -> str:
    """Who took the widow (Moon's bid winner), and its tiles (a mask) for the one who took
    them: every other seat sees only that it was taken.

    >>> from texas42.core.tiles import parse_hand
    >>> widow_taken("East"), widow_taken("You", parse_hand("6-6 3-1"))
    ('East took the widow', 'You took the widow: 6-6 3-1')
    """
    tiles = f": {hand_name(widow)}" if widow else ""
    return f"{who} took the widow{tiles}"


def contract_line(
    view: View, names: Sequence[str] | None = None, contract: Contract | None = None
) -> str:
    """The hand's bid and contract so far, as one line over the table: who bid what, who named
    what if another seat did (a plunge), what is trump and who sits out (Nel-O).

    ``contract`` is the contract as named, for a reader who saw every tile (a record): a seat's
    view of a by-lead hand whose first trick lies face down holds only the suit that lead named.

    >>> import random
    >>> from texas42.core.hand import Hand
    >>> nello = Rules.parse("standard,nello,nello_min_marks=1")
    >>> hand = Hand.random(nello, 3, random.Random(1))
    >>> contract_line(hand.view(0))
    'Bidding: no calls yet'
    >>> for call in ("1m", "pass", "pass", "pass"):
    ...     hand.apply(hand.parse_action(call))
    >>> contract_line(hand.view(0))
    'North bid 1m · North to name trump'
    >>> hand.apply(hand.parse_action("nello"))
    >>> contract_line(hand.view(0))
    'North bid 1m · Nel-O (no trump, doubles high) · South sits out'
    """
    seat_names = _seat_names(view, names)
    if view.phase == Phase.AUCTION:
        return "Bidding" if view.calls else "Bidding: no calls yet"
    if view.bidder is None or view.bid is None or view.declarer is None:
        return "Everyone passed: the hand is reshaken"
    line = f"{seat_names[view.bidder]} bid {view.bid.notation}"
    declarer = seat_names[view.declarer]
    if view.phase == Phase.DISCARD:
        left = plural(view.layout.widow - len(view.discards), "tile")
        return f"{line} · {declarer} took the widow: {left} to lay down"
    named = view.contract if contract is None else contract
    if named is None:
        return f"{line} · {declarer} to name trump"
    # the trump words tell a named doubles treatment: "Nel-O (no trump, doubles own)"
    said = contract_words(named, treatment=not view.trump)
    if view.declarer != view.bidder:
        line += f" · {declarer} named {said}"
    else:
        line += f" · {said}"
    if view.trump and view.trump != str(named):
        line += f" ({view.trump})"
    if view.out_seat is not None:
        out = seat_names[view.out_seat]
        line += f" · {out} {_verb(out, 'sits', 'sit')} out"
    return line


CONTRACT_NAMES = {"nello": "Nel-O", "sevens": "Sevens"}
"""Contracts players write with capitals, as the rules and the lobby spell them."""


def contract_words(contract: Contract, *, treatment: bool = True) -> str:
    """A contract as players name it: ``sixes``, ``doubles``, ``follow-me (doubles low)``,
    ``Nel-O``, ``Sevens``, ``by-lead``; the doubles treatment named with it unless
    ``treatment`` is false (where the trump's words already say it).

    >>> contract_words(Contract.parse("nello:own")), contract_words(Contract.parse("6"))
    ('Nel-O (doubles own)', 'sixes')
    >>> contract_words(Contract.parse("nello:own-inverted"), treatment=False)
    'Nel-O'
    """
    if contract.kind == "suit":
        assert contract.trump is not None
        return SUIT_NAMES[contract.trump]
    name = CONTRACT_NAMES.get(contract.kind, contract.kind)
    if contract.treatment is None or not treatment:
        return name
    how = "own, inverted" if contract.treatment == "own-inverted" else contract.treatment
    return f"{name} (doubles {how})"


_PIP_WORDS = ("blank", "one", "two", "three", "four", "five", "six")


def _doubles_in_suits(treatment: str) -> str:
    if treatment == "low":
        return "doubles are the lowest of their suit"
    if treatment == "own":
        return "the doubles are a suit of their own, the double-six highest"
    if treatment == "own-inverted":
        return "the doubles are a suit of their own, the double-blank highest"
    return "doubles are the highest of their suit"


def contract_meaning(rules: Rules, contract: Contract) -> str:
    """What a contract means at this table, in one line, for the player about to name it.

    >>> contract_meaning(Rules(), Contract.parse("follow-me:high"))
    "No trump: the led tile's high end is the suit; doubles are the highest of their suit"
    >>> contract_meaning(Rules(), Contract.parse("by-lead"))
    'You lead first; the high end of the tile you lead becomes trump'
    >>> contract_meaning(Rules(), Contract.parse("fives"))
    'Tiles with a five are trump, the double-five highest'
    """
    treatment = contract.treatment_under(rules)
    if contract.kind == "suit":
        assert contract.trump is not None
        pip = contract.trump
        trumps = f"Tiles with a {_PIP_WORDS[pip]} are trump, the double-{_PIP_WORDS[pip]}"
        if treatment == "low":
            return f"{trumps} lowest; {_doubles_in_suits(treatment)}"
        return f"{trumps} highest"
    if contract.kind == "doubles":
        return "The doubles are trump, double-six highest; the other tiles follow the high end led"
    if contract.kind == "follow-me":
        return f"No trump: the led tile's high end is the suit; {_doubles_in_suits(treatment)}"
    if contract.kind == "nello":
        return (
            "You must lose every trick while your partner sits out; no trump, "
            f"{_doubles_in_suits(treatment)}"
        )
    if contract.kind == "sevens":
        return (
            "Each trick goes to the tile closest to 7 pips (the first on a tie), everyone "
            "plays their closest; your side must take every trick"
        )
    return "You lead first; the high end of the tile you lead becomes trump"


def contract_group(contract: Contract) -> str:
    """The heading a contract is offered under: Suits, Doubles, Follow-me or Specials.

    >>> [contract_group(Contract.parse(c)) for c in ("sixes", "follow-me:low", "nello")]
    ['Suits', 'Follow-me', 'Specials']
    """
    if contract.kind == "suit":
        return "Suits"
    if contract.kind == "doubles":
        return "Doubles"
    if contract.kind == "follow-me":
        return "Follow-me"
    return "Specials"


def choice_words(rules: Rules, action: Action) -> tuple[str, str]:
    """The heading a call or a contract is offered under and what it means, in one line each
    (``""`` where the button says it all: a pass, a plain bid, a tile).

    >>> choice_words(Rules(), Declare("doubles"))
    ('Doubles', 'The doubles are trump, double-six highest; the other tiles follow the high end led')
    >>> choice_words(Rules(), Bid("30")), choice_words(Rules(), Bid("2m"))
    (('Points', ''), ('Marks', ''))
    """
    if isinstance(action, Declare):
        return contract_group(action.contract), contract_meaning(rules, action.contract)
    if not isinstance(action, Bid):
        return "", ""
    if action.special == "moon":
        return "Specials", "Shoot the moon: you must take every trick"
    if action.special in ("plunge", "splash"):
        plunge = action.special == "plunge"
        marks = rules.plunge_marks if plunge else rules.splash_marks
        doubles = "four doubles" if plunge else "three doubles"
        return "Specials", (
            f"With {doubles} or more: your partner names trump and leads, and your side "
            f"must take every trick ({plural(marks, 'mark')})"
        )
    if action.marks:
        return "Marks", ""
    return ("Tricks" if rules.bids == "tricks" else "Points"), ""


def seat_roles(view: View, seat: int, mine: Sequence[int] | None = None) -> list[str]:
    """Short words for a seat's part in the hand, as labels by its name: partner (of the
    reader's ``mine`` seats, default the view's), shaker, the winning bid, declarer when that is
    not the bidder (a plunge), sits out (Nel-O).

    >>> import random
    >>> from texas42.core.hand import Hand
    >>> nello = Rules.parse("standard,nello,nello_min_marks=1")
    >>> hand = Hand.random(nello, 3, random.Random(1))
    >>> for call in ("1m", "pass", "pass", "pass", "nello"):
    ...     hand.apply(hand.parse_action(call))
    >>> [seat_roles(hand.view(1), seat) for seat in range(4)]
    [['bid 1m'], [], ['sits out'], ['partner', 'shaker']]
    """
    own = (view.seat,) if mine is None else mine
    layout = view.layout
    roles = []
    if seat not in own and any(layout.same_side(seat, s) for s in own):
        roles.append("partner")
    if seat == view.shaker:
        roles.append("shaker")
    if seat == view.bidder and view.bid is not None and view.phase != Phase.AUCTION:
        roles.append(f"bid {view.bid.notation}")
    if seat == view.declarer and view.contract is not None and view.declarer != view.bidder:
        roles.append("declarer")
    if seat == view.out_seat:
        roles.append("sits out")
    return roles


def pile_line(view: View, side: int) -> str:
    """A side's trick pile: how many tricks, and their points unless the piles lie face down."""
    won = view.tricks_won[side]
    pile = plural(won, "trick")
    if view.points is not None:
        return f"{pile} · {plural(view.points[side], 'point')}"
    return f"{pile} · face down" if won else pile


def next_hand_line(number: int, bidding: bool, to_act: bool) -> str:
    """What a finished hand's summary says of the hand that followed it, which is under way
    beneath the summary: its bidding has begun (and it is the reader's call), or its play.

    >>> next_hand_line(2, True, True)
    "Hand 2's bidding has begun and it is your call: close this summary to bid."
    >>> next_hand_line(3, True, False), next_hand_line(3, False, False)
    ("Hand 3's bidding has begun.", 'Hand 3 is under way.')
    """
    if not bidding:
        return f"Hand {number} is under way."
    if to_act:
        return f"Hand {number}'s bidding has begun and it is your call: close this summary to bid."
    return f"Hand {number}'s bidding has begun."


def hand_headline(view: View, result: HandResult, sides: Sequence[str] | None = None) -> str:
    """A hand's result in a few words: whose bid was made or set; ``view`` is a seat's view of
    that hand.

    >>> import random
    >>> from texas42.core.hand import Hand
    >>> hand = Hand.random(Rules.parse("tournament"), 0, random.Random(0))
    >>> for _ in range(4):
    ...     hand.apply(hand.parse_action("pass"))
    >>> assert hand.result is not None
    >>> hand_headline(hand.view(0), hand.result)
    'Reshaken'
    """
    if result.reshaken:
        return "Reshaken"
    if result.bidder is None or result.made is None:
        return "In progress"
    side = _side_names(view.rules, sides)[view.layout.side_of[result.bidder]]
    return f"{side} {'made it' if result.made else 'went set'}"


def hand_result_lines(
    view: View,
    result: HandResult,
    sides: Sequence[str] | None = None,
    points: Sequence[int] | None = None,
) -> list[str]:
    """What a hand came to, a line each: the points taken (unless the piles lie face down), the
    tricks (at Nel-O: how many of those played the bidder's side took), what each side scored.

    ``view`` is a seat's view of that hand, so nothing hidden from that seat is told. A reader
    who saw every tile (a record) passes the result's ``points``, shown even when the piles lay
    face down.

    >>> import random
    >>> from texas42.core.hand import Hand
    >>> hand = Hand.random(Rules.parse("tournament"), 0, random.Random(0))
    >>> for _ in range(4):
    ...     hand.apply(hand.parse_action("pass"))
    >>> assert hand.result is not None
    >>> hand_result_lines(hand.view(0), hand.result)
    ['Everyone passed: the hand was reshaken, nobody scored']
    """
    if result.reshaken:
        return ["Everyone passed: the hand was reshaken, nobody scored"]
    rules = view.rules
    names = _side_names(rules, sides)
    layout = view.layout

    def each(values: Sequence[int]) -> str:
        return ", ".join(f"{name} {n}" for name, n in zip(names, values))

    lines = []
    nello = view.contract is not None and view.contract.kind == "nello"
    taken = view.points if points is None else points
    if taken is not None and layout.count and not nello:
        lines.append(f"Points: {each(taken)}")
    if nello and result.bidder is not None:
        side = layout.side_of[result.bidder]
        won = plural(view.tricks_won[side], "trick")
        lines.append(f"{names[side]} took {won} of the {len(view.tricks)} played")
    else:
        lines.append(f"Tricks: {each(view.tricks_won)}")
    if result.made is not None:
        gains = [f"{names[s]} {gain(rules, n)}" for s, n in enumerate(result.score) if n]
        lines.append(f"Scored: {', '.join(gains) or 'nothing'}")
    return lines


def winner_words(rules: Rules, winner: int | None, sides: Sequence[str] | None = None) -> str:
    """Who won the game, with the verb that fits: a team and "You" win, one player wins.

    >>> winner_words(Rules(), 0), winner_words(Rules.parse("moon"), 2), winner_words(Rules(), None)
    ('North-South win', 'West wins', 'no winner yet')
    """
    if winner is None:
        return "no winner yet"
    name = _side_names(rules, sides)[winner]
    return f"{name} {_verb(name, 'wins', 'win') if layout_of(rules).alone else 'win'}"


def game_over_line(rules: Rules, outcome: Outcome, sides: Sequence[str] | None = None) -> str:
    """The end of the game: after how many hands, who won, and the final score.

    >>> from texas42.core.game import Outcome
    >>> game_over_line(Rules(), Outcome(winner=1, score=(3, 7), hands=9))
    'Game over after 9 hands: East-West win, 7 to 3'
    >>> game_over_line(Rules.parse("moon"), Outcome(winner=1, score=(12, 21, 5), hands=6))
    'Game over after 6 hands: East wins; North 12, East 21, West 5'
    """
    score = outcome.score
    won = winner_words(rules, outcome.winner, sides)
    hands = plural(outcome.hands, "hand")
    if len(score) == 2:
        high, low = score[outcome.winner], score[1 - outcome.winner]
        return f"Game over after {hands}: {won}, {high} to {low}"
    return f"Game over after {hands}: {won}; {score_line(rules, score, sides)}"


def _possessive(who: str) -> str:
    return "your" if who.lower() == "you" else f"{who}'s"


def play_review_line(
    who: str, trick: int, tile: str, best: Sequence[str], cost: int, unit: str = "point"
) -> str:
    """A play as the double-dummy review tells it: what the best play was and what this one
    cost the player's side, in ``unit`` (``point``, or ``trick`` at Nel-O).

    >>> play_review_line("You", 2, "5-0", ["6-4"], 10)
    'Trick 2: best play here was 6-4; your 5-0 cost 10 points.'
    >>> play_review_line("Bob", 3, "3-3", ["2-2", "1-1"], 1, "trick")
    "Trick 3: best play here was 2-2 or 1-1; Bob's 3-3 cost 1 trick."
    >>> play_review_line("Bob", 1, "5-5", ["5-5"], 0)
    "Trick 1: Bob's 5-5 was as good as the best."
    """
    if cost <= 0:
        return f"Trick {trick}: {_possessive(who)} {tile} was as good as the best."
    best_play = " or ".join(best)
    return (
        f"Trick {trick}: best play here was {best_play}; "
        f"{_possessive(who)} {tile} cost {plural(cost, unit)}."
    )


def contract_said(notation: str) -> str:
    """A contract given in its notation, as players name it inside a sentence's parentheses:
    ``nello:own`` is ``Nel-O, doubles own``.

    >>> contract_said("nello:own"), contract_said("fives")
    ('Nel-O, doubles own', 'fives')
    """
    try:
        contract = Contract.parse(notation)
    except NotationError:
        return notation
    name = contract_words(contract, treatment=False)
    said = contract_words(contract)
    return name if said == name else f"{name}, {said[len(name) + 2 : -1]}"


def bid_review_line(who: str, bid: str, contract: str, make_share: float) -> str:
    """A bid as the review tells it: in what share of the deals its bidder could have held
    (those that fit what they saw) ``contract`` makes it.

    >>> bid_review_line("You", "31", "fives", 0.724)
    'Your bid 31 (fives) makes in 72% of the deals you could have held.'
    >>> bid_review_line("Bob", "2m", "sixes", 0.5)
    "Bob's bid 2m (sixes) makes in 50% of the deals they could have held."
    """
    owner = _possessive(who)
    held_by = "you" if who.lower() == "you" else "they"
    return (
        f"{owner[0].upper()}{owner[1:]} bid {bid} ({contract_said(contract)}) makes in "
        f"{round(make_share * 100)}% of the deals {held_by} could have held."
    )


def trick_of_play(view: View, play: int) -> int:
    """The number of the trick in which the hand's ``play``-th tile (from 1) was played, as a
    review names it: each trick holds a tile from each seat that played it (one fewer at Nel-O).

    >>> import random
    >>> from texas42.core.hand import Hand
    >>> nello = Rules.parse("standard,nello,nello_min_marks=1")
    >>> hand = Hand.random(nello, 3, random.Random(1))
    >>> for call in ("1m", "pass", "pass", "pass", "nello"):
    ...     hand.apply(hand.parse_action(call))
    >>> for _ in range(4):
    ...     hand.apply(hand.legal_actions()[0])
    >>> [trick_of_play(hand.view(0), play) for play in (1, 3, 4)]
    [1, 1, 2]
    """
    played = 0
    for number, trick in enumerate(view.tricks, 1):
        played += len(trick.seats)
        if play <= played:
            return number
    return len(view.tricks) + 1


def no_costly_plays(plays: int, who: str | None = None) -> str:
    """What a review says when none of the ``plays`` it looked at cost anything: of ``who``'s
    plays, or of everyone's.

    >>> no_costly_plays(5)
    'No costly plays: every play reviewed was as good as the best.'
    >>> no_costly_plays(3, "You"), no_costly_plays(0, "You")
    ('No costly plays: every play of yours was as good as the best.', 'You had no plays to review.')
    """
    if not plays:
        return f"{who} had no plays to review." if who else "No plays to review."
    whose = "reviewed" if who is None else "of yours" if who.lower() == "you" else f"of {who}'s"
    return f"No costly plays: every play {whose} was as good as the best."


def bid_shares_line(shares: Mapping[str, float], samples: int) -> str:
    """How often each contract a bidder could have named makes, over the deals a bid review
    drew.

    >>> bid_shares_line({"sixes": 0.72, "fives": 0.1}, 64)
    'Each contract over the 64 deals drawn: sixes 72%, fives 10%.'
    """
    each = ", ".join(
        f"{contract_said(name)} {round(share * 100)}%" for name, share in shares.items()
    )
    return f"Each contract over the {plural(samples, 'deal')} drawn: {each}."


def best_play_line(
    view: View,
    total: int,
    unit: str = "point",
    taken: int | None = None,
    sides: Sequence[str] | None = None,
) -> str:
    """What the bidders end the hand with if every seat plays its best (double dummy), in
    ``unit`` (``point``, or ``trick`` at Nel-O): from the start of play, or from a position in
    which they have ``taken`` some already.

    >>> import random
    >>> from texas42.core.hand import Hand
    >>> hand = Hand.random(Rules(), 3, random.Random(1))
    >>> for call in ("34", "pass", "pass", "pass", "sixes"):
    ...     hand.apply(hand.parse_action(call))
    >>> best_play_line(hand.view(0), 42)
    'With best play throughout, North-South would end with 42 points.'
    >>> best_play_line(hand.view(0), 1, "trick", taken=1)
    'With best play from here, North-South would end with 1 trick (1 taken, 0 to come).'
    """
    if view.bidder is None:
        raise ValueError("best play is for the bidders, and this hand has none")
    side = _side_names(view.rules, sides)[view.layout.side_of[view.bidder]]
    end = f"{side} would end with {plural(total, unit)}"
    if taken is None:
        return f"With best play throughout, {end}."
    return f"With best play from here, {end} ({taken} taken, {total - taken} to come)."


def coach_position_words(
    hand: int,
    trick: int,
    contract: str,
    held: Sequence[str],
    trick_so_far: Sequence[tuple[str, str]],
    who: str = "You",
) -> str:
    """Where a coached play (or bid, at trick 0) was made: the hand, the trick, the contract (as
    `contract_line` says it), the tiles the player held and what the trick held so far.

    >>> coach_position_words(2, 3, "North bid 34 · sixes", ["6-4", "5-0"], [("East", "6-6")])
    'Hand 2, trick 3. North bid 34 · sixes. You held 6-4 5-0; East led 6-6.'
    >>> coach_position_words(1, 1, "You bid 30 · fives", ["5-5"], [], who="Bob")
    'Hand 1, trick 1. You bid 30 · fives. Bob held 5-5 and was to lead.'

    Trick 0 is the bidding, before any tile is played:

    >>> coach_position_words(3, 0, "You bid 34 · sixes", ["6-6", "6-1"], [])
    'Hand 3, the bidding. You bid 34 · sixes. You held 6-6 6-1.'
    """
    if trick == 0:
        return f"Hand {hand}, the bidding. {contract}. {who} held {' '.join(held)}."
    line = f"Hand {hand}, trick {trick}. {contract}. {who} held {' '.join(held)}"
    if not trick_so_far:
        return f"{line} and {_verb(who, 'was', 'were')} to lead."
    (leader, led), *rest = trick_so_far
    played = "".join(f", {seat} played {tile}" for seat, tile in rest)
    return f"{line}; {leader} led {led}{played}."


def coach_play_words(
    tile: str,
    best: Sequence[str],
    cost: int,
    bidders: str,
    values: tuple[int, int],
    made: tuple[bool, bool],
    *,
    defending: bool,
    unit: str = "point",
    who: str = "You",
) -> str:
    """What a costly play gave up, double dummy: the better play, what it was worth to the
    player's side (``cost`` in ``unit``), where the bidders end with best play after the best
    play and after the one made (``values``), and whether the contract is made after each
    (``made``).

    >>> coach_play_words("5-0", ["6-4"], 12, "the bidders", (31, 43), (False, True), defending=True)
    'You played 5-0: 6-4 would have kept 12 more points: the bidders end on 31 instead of 43, and the contract would have been set.'
    >>> coach_play_words(
    ...     "3-3",
    ...     ["2-2", "1-1"],
    ...     5,
    ...     "North-South",
    ...     (36, 31),
    ...     (True, True),
    ...     defending=False,
    ...     who="Bob",
    ... )
    'Bob played 3-3: 2-2 or 1-1 would have won 5 more points: North-South end on 36 instead of 31; the contract is made either way.'
    >>> coach_play_words(
    ...     "4-1", ["5-0"], 1, "North", (1, 0), (False, True), defending=True, unit="trick"
    ... )
    'You played 4-1: 5-0 would have given the bidder 1 more trick: North end on 1 instead of 0, and the contract would have been set.'
    """
    more = f"{cost} more {unit if cost == 1 else unit + 's'}"
    if unit == "trick":
        worth = f"given the bidder {more}" if defending else f"saved {plural(cost, unit)}"
    else:
        worth = f"kept {more}" if defending else f"won {more}"
    better, played = values
    made_better, made_played = made
    if made_better == made_played:
        outcome = f"; the contract is {'made' if made_played else 'set'} either way"
    else:
        outcome = f", and the contract would have been {'made' if made_better else 'set'}"
    return (
        f"{who} played {tile}: {' or '.join(best)} would have {worth}: "
        f"{bidders} end on {better} instead of {played}{outcome}."
    )


def coach_bid_words(
    bid: str,
    contract: str,
    samples: int,
    bidders: str,
    total: int,
    short: int,
    unit: str = "point",
    who: str = "You",
) -> str:
    """A winning bid that could not be made: it made in none of the ``samples`` deals its
    bidder could have held, and on the deal itself the bidders end ``short`` of it with best
    play throughout (``total``, in ``unit``).

    >>> coach_bid_words("34", "sixes", 12, "North-South", 28, 6)
    'Your bid 34 (sixes) made in none of the 12 deals you could have held; on this deal, with best play throughout, North-South end on 28 points, 6 short.'
    >>> coach_bid_words("1m", "nello", 8, "Bob", 1, 1, "trick", who="Bob")
    "Bob's bid 1m (Nel-O) made in none of the 8 deals they could have held; on this deal, with best play throughout, Bob end on 1 trick, 1 too many."
    """
    owner = _possessive(who)
    held_by = "you" if who.lower() == "you" else "they"
    miss = f"{short} too many" if unit == "trick" else f"{short} short"
    return (
        f"{owner[0].upper()}{owner[1:]} bid {bid} ({contract_said(contract)}) made in none of "
        f"the {plural(samples, 'deal')} {held_by} could have held; on this deal, with best play "
        f"throughout, {bidders} end on {plural(total, unit)}, {miss}."
    )


def coach_summary_words(
    plays: int, mistakes: int, given_up: int, bids: int, made: int, who: str = "You"
) -> str:
    """A game's coaching in one line: the player's plays, the costly ones and the points they
    gave up, the bids won and made.

    >>> coach_summary_words(24, 2, 10, 2, 1)
    'You made 24 plays: 2 of them costly, 10 points given up in all. Bids won: 2, made: 1.'
    >>> coach_summary_words(7, 0, 0, 0, 0, who="Bob"), coach_summary_words(7, 1, 0, 1, 0)[:34]
    ('Bob made 7 plays: none of them costly. Bids won: 0, made: 0.', 'You made 7 plays: 1 of them costly')
    """
    if not plays:
        return f"{who} made no plays. Bids won: {bids}, made: {made}."
    costly = f"{mistakes or 'none'} of them costly"
    if given_up:
        costly += f", {plural(given_up, 'point')} given up in all"
    return f"{who} made {plural(plays, 'play')}: {costly}. Bids won: {bids}, made: {made}."


def coach_trend_words(label: str, first: float, last: float, games: int, *, lower: bool) -> str:
    """How one of a player's rates moved over their games, by the least-squares line through
    them (oldest to newest): ``lower`` says whether a lower value is the better one.

    >>> coach_trend_words("Mistakes per 100 plays", 12.5, 8.0, 6, lower=True)
    'Mistakes per 100 plays: from 12.5 to 8.0 over 6 games (better).'
    >>> coach_trend_words("Bids made", 50.0, 50.0, 1, lower=False)
    'Bids made: 50.0 over 1 game.'
    """
    if games < 2 or round(first, 1) == round(last, 1):
        return f"{label}: {last:.1f} over {plural(games, 'game')}."
    better = (last < first) == lower
    return (
        f"{label}: from {first:.1f} to {last:.1f} over {plural(games, 'game')} "
        f"({'better' if better else 'worse'})."
    )


def hint_facts(
    view: View,
    chance: float | None,
    points: float | None,
    marks: float | None = None,
    if_stands: float | None = None,
) -> str:
    """What a bot expects of an action it hints at the seat of ``view``: the side's chance (to
    set the bid when the seat defends it in play, else to make it), a bid's chance should it
    stand, the bidders' expected points, a call's expected marks.

    >>> import random
    >>> from texas42.core.hand import Hand
    >>> hand = Hand.random(Rules(), 3, random.Random(1))
    >>> hint_facts(hand.view(0), 0.64, None, 0.25)
    '64% to make · 0.25 marks expected'
    >>> hint_facts(hand.view(0), 0.52, None, 0.04, 0.584)
    '52% to make (58% if it stands) · 0.04 marks expected'
    >>> hint_facts(hand.view(0), None, None)
    'no estimate'
    """
    defending = (
        view.phase == Phase.PLAY
        and view.bidder is not None
        and not view.layout.same_side(view.bidder, view.seat)
    )
    facts = []
    if chance is not None:
        fact = f"{round(chance * 100)}% {'to set' if defending else 'to make'}"
        if if_stands is not None:
            fact += f" ({round(if_stands * 100)}%{_IF_STANDS})"
        facts.append(fact)
    if points is not None:
        facts.append(f"the bidders take {points:.1f} points on average")
    if marks is not None:
        facts.append(f"{marks:.2f} marks expected")
    return " · ".join(facts) or "no estimate"


def claim_line(who: str, tiles: int) -> str:
    """A seat on lead laid its hand down (`texas42.core.hand.Hand.claim`), showing its tiles.

    >>> from texas42.core.tiles import parse_hand
    >>> claim_line("Ann", parse_hand("6-6 6-5 4-4"))
    'Ann laid the hand down and claimed the rest: 6-6 6-5 4-4'
    """
    return f"{who} laid the hand down and claimed the rest: {hand_name(tiles)}"


def claim_outcome(
    view: View,
    claim: Claim,
    names: Sequence[str] | None = None,
    sides: Sequence[str] | None = None,
) -> str:
    """Whether a claim held, told from ``view``, a seat's view just after it (so the tricks
    still to play are those left when it was made). A side is named as `side_labels` names it
    from ``names`` unless ``sides`` are given.

    >>> import random
    >>> from texas42.core.hand import Hand
    >>> from texas42.core.tiles import parse_hand
    >>> deal = [
    ...     parse_hand("6-6 6-5 6-4 6-3 6-2 6-1 6-0"),
    ...     parse_hand("5-5 5-4 5-3 5-2 5-1 5-0 4-4"),
    ...     parse_hand("4-3 4-2 4-1 4-0 3-3 3-2 3-1"),
    ...     parse_hand("3-0 2-2 2-1 2-0 1-1 1-0 0-0"),
    ... ]
    >>> hand = Hand(Rules(), shaker=3, deal=deal)
    >>> for call in ("30", "pass", "pass", "pass", "sixes"):
    ...     hand.apply(hand.parse_action(call))
    >>> claim_outcome(hand.view(1), hand.claim(0), ["Ann", "Bob", "Cat", "Dan"])
    "Ann's claim held: North-South took the last 7 tricks"
    """
    layout = view.layout
    seat_names = _seat_names(view, names)
    who = seat_names[claim.seat]
    whose = _possessive(who)
    whose = whose[:1].upper() + whose[1:]
    side_names = side_labels(layout, seat_names) if sides is None else sides
    left = plural(layout.tricks - len(view.tricks), "trick").split(" ", 1)
    last = f"the last {left[0]} {left[1]}" if left[0] != "1" else "the last trick"
    nello = view.contract is not None and view.contract.kind == "nello"
    if claim.holds:
        if nello:
            return f"{whose} claim held: {who} took none of {last}"
        return f"{whose} claim held: {side_names[layout.side_of[claim.seat]]} took {last}"
    if view.rules.false_claim == "set":
        bidders = view.bidder is not None and layout.same_side(view.bidder, claim.seat)
        result = "went set" if bidders else "made the bid"
        side = view.bidder if view.bidder is not None else claim.seat
        return (
            f"{whose} claim failed and counts as lost: {side_names[layout.side_of[side]]} {result}"
        )
    return f"{whose} claim failed: play goes on with that hand face up"


# -- the house rules in a player's words --------------------------------------------------------


@dataclass(frozen=True, slots=True)
class OptionWords:
    """A house-rule option as players read it: what they call it, what it does in one line,
    and what each of its choices means (for a choice option), by value."""

    label: str
    help: str
    choices: Mapping[str, str] = field(default_factory=dict)


_DOUBLES_CHOICES = {
    "high": "doubles are the highest of their suit",
    "low": "doubles are the lowest of their suit",
    "own": "doubles are a suit of their own, double-six highest",
    "own-inverted": "doubles are a suit of their own, double-blank highest",
}

OPTION_WORDS: dict[str, OptionWords] = {
    "first_shaker": OptionWords(
        "First shaker",
        "Who shakes the first hand.",
        {"high-draw": "each player draws a tile; the highest shakes", "random": "a random player"},
    ),
    "draw_order": OptionWords(
        "Drawing the hands",
        "In what order the players take their tiles from the shaken pile.",
        {
            "opponents-first": "the shaker's opponents first, the shaker last",
            "shaker-last": "round the table, the shaker last",
            "deal": "dealt round the table",
        },
    ),
    "first_bidder": OptionWords(
        "First bidder",
        "Who calls first in the bidding; the calls go clockwise from there.",
        {
            "left-of-shaker": "the player left of the shaker",
            "holder-1-0": "whoever holds the one-blank",
            "shaker": "the shaker",
        },
    ),
    "min_bid": OptionWords("Lowest bid", "The lowest bid in points."),
    "max_opening_marks": OptionWords(
        "Highest opening mark bid", "The most marks a first mark bid may be."
    ),
    "mark_raise": OptionWords(
        "Mark raise", "After a mark bid, how many marks more the next bid may go."
    ),
    "max_bid_marks": OptionWords("Highest mark bid", "The most marks any bid may be."),
    "all_pass": OptionWords(
        "When all pass",
        "What happens when nobody bids.",
        {"forced": "the shaker must bid", "reshake": "the tiles are shaken again, no score"},
    ),
    "follow_me": OptionWords("Follow-me", "The bidder may name no trump (follow-me)."),
    "doubles_trump": OptionWords("Doubles as trump", "The bidder may name the doubles as trump."),
    "follow_me_doubles": OptionWords(
        "Doubles in follow-me",
        "Where the doubles rank when no trump is named.",
        {k: v for k, v in _DOUBLES_CHOICES.items() if k != "own-inverted"},
    ),
    "doubles_choice": OptionWords(
        "Bidder picks doubles high or low",
        "In follow-me and Nel-O the bidder may say where the doubles rank.",
    ),
    "suit_doubles": OptionWords(
        "Doubles in a trump suit",
        "Where each double ranks in its suit when a suit is trump.",
        {k: _DOUBLES_CHOICES[k] for k in ("high", "low")},
    ),
    "undeclared_trump": OptionWords(
        "Trump not named",
        "Whether the bidder may lead without naming trump.",
        {
            "first-lead": "allowed: the high end of the first tile led is trump",
            "forbidden": "the bidder must name trump",
        },
    ),
    "first_lead_trump": OptionWords(
        "First lead names trump", "The first lead must be a trump when the leader holds one."
    ),
    "nello": OptionWords(
        "Nel-O",
        "The bidder may play to lose every trick while their partner sits out.",
    ),
    "nello_min_marks": OptionWords(
        "Nel-O needs a bid of (marks)", "The least bid, in marks, that may play Nel-O."
    ),
    "nello_doubles": OptionWords(
        "Doubles in Nel-O", "Where the doubles rank in Nel-O.", _DOUBLES_CHOICES
    ),
    "plunge": OptionWords(
        "Plunge",
        "With four doubles, bid a plunge: the partner names trump and the side must take every "
        "trick.",
    ),
    "plunge_marks": OptionWords("Plunge is worth (marks)", "What a plunge bids, in marks."),
    "plunge_needs_66": OptionWords(
        "Plunge needs the double-six", "A plunge needs the double-six among its doubles."
    ),
    "splash": OptionWords(
        "Splash", "As a plunge, with three doubles: the side must take every trick."
    ),
    "splash_marks": OptionWords("Splash is worth (marks)", "What a splash bids, in marks."),
    "plunge_timing": OptionWords(
        "When to plunge or splash",
        "When a plunge or a splash may be bid.",
        {
            "first-bid": "only before anyone has bid",
            "jump": "at any time, one mark over the bid if that is more",
        },
    ),
    "sevens": OptionWords(
        "Sevens",
        "The bidder may name Sevens: the tile closest to 7 pips takes each trick.",
    ),
    "sevens_min_marks": OptionWords(
        "Sevens needs a bid of (marks)", "The least bid, in marks, that may play Sevens."
    ),
    "claims": OptionWords(
        "Laying down",
        "The player on lead may lay the hand down and claim the rest of the tricks.",
    ),
    "false_claim": OptionWords(
        "A claim that fails",
        "What happens when a hand laid down could lose a trick.",
        {
            "play-on": "play goes on with that hand face up",
            "set": "the claiming side loses the hand",
        },
    ),
    "hide_tricks": OptionWords(
        "Trick piles face down",
        "When won tricks are turned face down, so nobody may look back at them.",
        {
            "two-marks": "for bids of 2 marks or more",
            "never": "never",
            "mark-bids": "for every mark bid",
        },
    ),
    "game": OptionWords(
        "Play for",
        "How the game is scored.",
        {
            "marks": "marks: a hand ends once the bid is made or set",
            "points": "points: every trick is played, both sides score their count",
            "moon": "Moon: three players, each for themselves",
        },
    ),
    "target": OptionWords("Game to", "The score that wins (empty: 7 marks, 250 points, 21 Moon)."),
    "cap_score": OptionWords(
        "Cap the score", "A winning score shows as the target (8 marks shows as 7)."
    ),
    "seats": OptionWords("Players", "How many seats the table has."),
    "teams": OptionWords(
        "Teams",
        "How the seats make sides.",
        {
            "partners": "two teams of two, partners across",
            "pairs": "three teams of two",
            "threes": "two teams of three",
            "bidder-alone": "the bid winner alone against the rest",
            "solo": "everyone for themselves",
        },
    ),
    "removed": OptionWords("Tiles left out", "Tiles taken out of the set for this table."),
    "hand_size": OptionWords("Tiles a hand", "How many tiles each player draws."),
    "widow": OptionWords("Widow", "Tiles left aside for the bid winner to take."),
    "trick_points": OptionWords("Points a trick", "What each trick is worth beside its count."),
    "count": OptionWords("Count", "The count scores: the tiles of five and ten points."),
    "bids": OptionWords(
        "Bids in",
        "What a bid counts.",
        {"points": "points", "tricks": "tricks (Moon)"},
    ),
    "see_partner": OptionWords(
        "Two-hand", "Each player holds both hands of a partnership and sees both."
    ),
}
"""Every option of `Rules` (`texas42.core.rules.OPTION_NAMES`) in a player's words: the lobby's
"More house rules" shows them, and `rules_text` tells a table's rules by them."""

_SAID_BY_DESCRIBE = frozenset(
    {
        "game", "target", "seats", "teams", "removed", "hand_size", "widow", "trick_points",
        "count", "bids", "see_partner", "min_bid", "max_opening_marks", "mark_raise", "all_pass",
        "nello", "nello_min_marks", "plunge", "plunge_marks", "splash", "splash_marks", "sevens",
        "sevens_min_marks",
    }
)  # fmt: skip
"""The options `Rules.describe` already puts in words."""


def option_value_words(name: str, value: object) -> str:
    """An option's value as players read it: a choice's meaning, yes or no, a number.

    >>> option_value_words("hide_tricks", "never"), option_value_words("plunge_needs_66", True)
    ('never', 'yes')
    """
    words = OPTION_WORDS[name]
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "as usual"
    return words.choices.get(str(value), str(value))


def rules_text(rules: Rules) -> list[str]:
    """A table's house rules in words, a line each: `Rules.describe`, then when the trick piles
    lie face down, then every other option the table plays unlike the standard one.

    >>> rules_text(Rules.parse("standard,suit_doubles=low"))[-2:]
    ['Trick piles face down: for bids of 2 marks or more', 'Doubles in a trump suit: doubles are \
the lowest of their suit']
    """
    lines = rules.describe()
    lines.append(
        f"{OPTION_WORDS['hide_tricks'].label}: {option_value_words('hide_tricks', rules.hide_tricks)}"
    )
    standard = Rules()
    for name, said in OPTION_WORDS.items():
        if name in _SAID_BY_DESCRIBE or name == "hide_tricks":
            continue
        value = getattr(rules, name)
        if value != getattr(standard, name):
            lines.append(f"{said.label}: {option_value_words(name, value)}")
    return lines


# -- seats changing hands at a table ----------------------------------------------------------


def bot_label(name: str, level: str) -> str:
    """A bot seat as a table shows it: its name and its level.

    >>> bot_label("Rosa", "medium")
    'Rosa (medium)'
    """
    return f"{name} ({level})"


def seat_left(who: str, bot: str, compass: str) -> str:
    """A person left a game under way and a bot took the seat, so the game goes on.

    >>> seat_left("Ann", "Rosa (medium)", "North")
    'Ann left; Rosa (medium) plays North now.'
    """
    return f"{who} left; {bot} plays {compass} now."


def seat_replaced(who: str, bot: str, compass: str) -> str:
    """The host gave a person's seat to a bot.

    >>> seat_replaced("Ann", "Rosa (medium)", "North")
    'The host gave North to Rosa (medium); Ann watches now.'
    """
    return f"The host gave {compass} to {bot}; {who} watches now."


def seat_opened(compass: str, *, now: bool) -> str:
    """The host opened a bot's seat for a person: at once (no game under way) or when a person
    sits, at the next hand.

    >>> seat_opened("East", now=True)
    'East is open for a player.'
    >>> seat_opened("East", now=False)
    'East is open for a player: whoever sits there takes it from the next hand; its bot plays until then.'
    """
    if now:
        return f"{compass} is open for a player."
    return (
        f"{compass} is open for a player: whoever sits there takes it from the next hand;"
        " its bot plays until then."
    )


def seat_joined(who: str, compass: str) -> str:
    """A person who sat in an opened seat during a game takes it as a new hand begins.

    >>> seat_joined("Bo", "East")
    'Bo plays East from this hand.'
    """
    return f"{who} plays {compass} from this hand."


def seat_away(who: str, bot: str) -> str:
    """A person the table waited on did not come back within the grace period.

    >>> seat_away("Ann", "Rosa (medium)")
    'Ann is away; Rosa (medium) plays for them until they come back.'
    """
    return f"{who} is away; {bot} plays for them until they come back."


def seat_back(who: str) -> str:
    """An away person came back and plays their seat again.

    >>> seat_back("Ann")
    'Ann is back.'
    """
    return f"{who} is back."


def host_passed(who: str) -> str:
    """Who runs the table now.

    >>> host_passed("Bo")
    'Bo is the host now.'
    """
    return f"{who} is the host now."


def time_ran_out(who: str, bot: str) -> str:
    """A turn's clock ran out and the seat's bot played that one action.

    >>> time_ran_out("Ann", "Rosa (medium)")
    'Time ran out for Ann; Rosa (medium) played for them.'
    """
    return f"Time ran out for {who}; {bot} played for them."


def printable(text: str) -> str:
    """Free text from a record or a user (a player's name) made safe to print on a terminal:
    every character that is not printable (control characters, ESC and the rest of a terminal
    escape sequence's introducers, bidi overrides, zero-width and unassigned characters, lone
    surrogates) is shown as its escape, so it is seen and does nothing.

    >>> printable("Ann")
    'Ann'
    >>> printable("\\x1b[31mEve\\u202e")
    '\\\\x1b[31mEve\\\\u202e'
    """
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else _escape(ch) for ch in text)


def _escape(ch: str) -> str:
    code = ord(ch)
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def duration(seconds: float) -> str:
    """A stretch of time as people say it, in its largest whole unit.

    >>> duration(86_400), duration(5_400), duration(120), duration(1.5)
    ('24 hours', '90 minutes', '2 minutes', '1.5 seconds')
    """
    for unit, size in (("hour", 3600), ("minute", 60)):
        if (seconds >= size and seconds % size == 0) or seconds >= 10 * size:
            count = round(seconds / size)
            return f"{count} {unit}{'s' if count != 1 else ''}"
    count_s = f"{seconds:g}"
    return f"{count_s} second{'s' if count_s != '1' else ''}"


def too_many_tables(wait: float) -> str:
    """Why a new table was refused: this address made too many of them just now.

    >>> too_many_tables(7.2)
    'Too many new tables from your address: try again in 8 seconds.'
    """
    whole = max(1, math.ceil(wait))
    return f"Too many new tables from your address: try again in {duration(whole)}."


# -- why a bot chose (issue 19, item 5) ------------------------------------------------------
# A bot's reason is made of these pieces: the decision as public news (`decision_words` with
# `call_context` or `play_effect`), then the facts behind it that only its seat knew. The bots
# compute the numbers (`texas42.players.explain`); these functions only say them.

_COUNT_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven")


def count_words(count: int, word: str) -> str:
    """A small count in words, for reasons: ``two trumps``, ``no trump``, ``9 tiles``.

    >>> count_words(0, "trump"), count_words(2, "trump"), count_words(9, "tile")
    ('no trump', 'two trumps', '9 tiles')
    """
    number = _COUNT_WORDS[count] if 0 <= count < len(_COUNT_WORDS) else str(count)
    return f"{number} {word}" if count in {0, 1} else f"{number} {word}s"


def decision_words(action: Action, *, own: bool = False) -> str:
    """A decision as a reason opens it, in the present: a tile laid face down is named only to
    the seat that laid it (``own``).

    >>> from texas42.core.actions import Pass
    >>> decision_words(Bid("34")), decision_words(Declare("sixes")), decision_words(Pass())
    ('bids 34', 'names sixes', 'passes')
    >>> decision_words(Discard("5-0")), decision_words(Discard("5-0"), own=True)
    ('lays a tile face down', 'lays 5-0 face down')
    """
    if isinstance(action, Play):
        return f"plays {action.notation}"
    if isinstance(action, Bid):
        return f"bids {action.notation}"
    if isinstance(action, Declare):
        return f"names {contract_words(action.contract)}"
    if isinstance(action, Discard):
        return f"lays {action.notation if own else 'a tile'} face down"
    return "passes"


CALL_CONTEXTS = {
    "opens": "the first bid of the hand",
    "over": "over the standing bid",
    "forced": "the last seat must bid when all pass",
    "partner": "partner holds the bid",
    "opponent": "an opponent holds the bid",
    "none": "no bid yet",
}
"""What every seat saw about a call: who held the bid when it was made."""


def call_context(action: Action, context: str) -> str:
    """A call as public news: the call and the state of the auction it was made in (a key of
    `CALL_CONTEXTS`).

    >>> from texas42.core.actions import Pass
    >>> call_context(Bid("30"), "opens"), call_context(Pass(), "partner")
    ('bids 30 (the first bid of the hand)', 'passes (partner holds the bid)')
    """
    return f"{decision_words(action)} ({CALL_CONTEXTS[context]})"


PLAY_EFFECTS = {
    "pulls": "pulls trump with {tile}",
    "leads_trump": "leads trump: {tile}",
    "leads": "leads {tile}",
    "leads_count": "leads {tile}, {points} count",
    "trumps_in": "trumps in with {tile}",
    "takes": "takes the lead in the trick with {tile}",
    "overtakes": "plays {tile} over partner's tile",
    "gives_count": "gives {points} count to partner's trick with {tile}",
    "under_partner": "plays {tile} under partner's tile",
    "follows": "follows with {tile}",
    "follows_count": "follows with {tile}, giving up {points} count",
    "throws_off": "throws off {tile}",
    "throws_count": "throws off {tile}, giving up {points} count",
}
"""What a tile does in the trick, as every seat saw it (`play_effect`)."""


def play_effect(effect: str, tile: str, points: int = 0) -> str:
    """What a played tile did, as public news (a key of `PLAY_EFFECTS`).

    >>> play_effect("pulls", "6-6"), play_effect("gives_count", "5-5", 10)
    ('pulls trump with 6-6', "gives 10 count to partner's trick with 5-5")
    """
    return PLAY_EFFECTS[effect].format(tile=tile, points=points)


def reason_line(head: str, facts: Sequence[str]) -> str:
    """A reason: its head (the public news of the decision) and the facts behind it.

    >>> reason_line("bids 34", ["makes in 71% of 48 deals", "three sixes with 6-6"])
    'bids 34: makes in 71% of 48 deals; three sixes with 6-6'
    >>> reason_line("passes", [])
    'passes'
    """
    facts = [fact for fact in facts if fact]
    return f"{head}: {'; '.join(facts)}" if facts else head


def percent(chance: float) -> str:
    """A chance as a reason says it: ``71%``, or ``<1%`` and ``>99%`` near the ends, so that a
    chance that is not certain never reads as certain.

    >>> percent(0.714), percent(0.001), percent(1.0), percent(0.999)
    ('71%', '<1%', '100%', '>99%')
    """
    if 0 < chance < 0.005:
        return "<1%"
    if 0.995 <= chance < 1:
        return ">99%"
    return f"{round(chance * 100)}%"


def deals_words(deals: int, every: bool) -> str:
    """Over what a chance was judged: a sample of deals that fit the seat's view, or all of
    them.

    >>> deals_words(24, False), deals_words(6, True), deals_words(1, True)
    ('24 deals that fit', 'all 6 deals that fit', 'the only deal that fits')
    """
    if every:
        return "the only deal that fits" if deals == 1 else f"all {deals} deals that fit"
    return f"{plural(deals, 'deal')} that fit"


def play_chance_words(
    chance: float, deals: int, every: bool, *, defending: bool, next_best: tuple[str, float] | None
) -> str:
    """A play's chance for its side (to make the bid, or to set it), over the deals it was
    judged on, against the next best tile's.

    >>> play_chance_words(0.75, 24, False, defending=False, next_best=("5-5", 0.5))
    'makes in 75% of 24 deals that fit (50% with 5-5)'
    >>> play_chance_words(0.2, 8, True, defending=True, next_best=None)
    'sets in 20% of all 8 deals that fit'
    """
    verb = "sets" if defending else "makes"
    line = f"{verb} in {percent(chance)} of {deals_words(deals, every)}"
    if next_best is not None:
        line += f" ({percent(next_best[1])} with {next_best[0]})"
    return line


def points_words(points: float, next_best: tuple[str, float] | None, *, side: str) -> str:
    """An expected total, for the side named (``we``: the deciding seat's, or ``bidders``),
    against the next best choice's.

    >>> points_words(31.46, ("4-4", 29.0), side="bidders")
    'the bidders take 31.5 points on average (29.0 with 4-4)'
    >>> points_words(2.0, None, side="we")
    'our side gains 2.0 points on average'
    """
    head = (
        f"the bidders take {points:.1f} points on average"
        if side == "bidders"
        else f"our side gains {points:.1f} points on average"
    )
    return head if next_best is None else f"{head} ({next_best[1]:.1f} with {next_best[0]})"


ONLY_CHOICE = "the only legal choice"
"""The reason for an action when no other was legal."""


def holds_words(winner: str, share: float, deals: int, every: bool) -> str:
    """How often the side's winning tile holds the trick: the share of the deals in which no
    opponent still to play holds a tile that may beat it.

    >>> holds_words("partner's 5-5", 0.9, 10, False)
    "partner's 5-5 holds the trick in 90% of 10 deals that fit"
    """
    return f"{winner} holds the trick in {percent(share)} of {deals_words(deals, every)}"


TIE_BREAKS = {
    "rules": "tied with the best: the rule-of-thumb choice among them",
    "lowest": "tied with the best: the lowest of them, keeping the high ones",
}
"""How a PIMC play was picked among tiles the deals rated the same."""


def trumps_out_words(count: int) -> str:
    """How many trumps the deciding seat cannot see (neither held nor played).

    >>> trumps_out_words(2), trumps_out_words(1), trumps_out_words(0)
    ('two trumps are still out', 'one trump is still out', 'no trump is out')
    """
    if count == 0:
        return "no trump is out"
    return f"{count_words(count, 'trump')} {'is' if count == 1 else 'are'} still out"


def holding_words(trumps: int, tops: Sequence[str], count: int) -> str:
    """What in a hand makes a contract: how many trumps, the top ones (outranking every trump
    the seat cannot see), the count held.

    >>> holding_words(3, ["6-6", "6-5", "6-4"], 10)
    'three trumps with 6-6, 6-5 and 6-4 on top; 10 count'
    >>> holding_words(1, [], 0)
    'one trump; no count'
    """
    held = count_words(trumps, "trump")
    if tops:
        listed = tops[0] if len(tops) == 1 else f"{', '.join(tops[:-1])} and {tops[-1]}"
        held += f" with {listed} on top"
    return f"{held}; {f'{count} count' if count else 'no count'}"


def marks_words(value: float, pass_value: float | None) -> str:
    """A call's expected marks, against what a pass is worth.

    >>> marks_words(0.42, 0.0), marks_words(-0.2, None)
    ('+0.42 marks expected against +0.00 for a pass', '-0.20 marks expected')
    """
    line = f"{round(value, 2) + 0.0:+.2f} marks expected"
    return (
        line
        if pass_value is None
        else f"{line} against {round(pass_value, 2) + 0.0:+.2f} for a pass"
    )


def bid_chance_words(
    bid: str, chance: float, deals: int, contract: str | None, if_stands: float | None = None
) -> str:
    """A bid's chance of being made (``contract``: the one it would be played in), and
    ``if_stands``, the chance it is made should nobody outbid it.

    >>> bid_chance_words("34", 0.71, 48, "sixes")
    '34 makes in 71% of 48 deals that fit (in sixes)'
    >>> bid_chance_words("30", 0.52, 48, "sixes", 0.584)
    '30 makes in 52% of 48 deals that fit (in sixes), 58% if it stands'
    """
    line = f"{bid} makes in {percent(chance)} of {deals_words(deals, False)}"
    line = line if contract is None else f"{line} (in {contract})"
    return line if if_stands is None else f"{line}, {percent(if_stands)}{_IF_STANDS}"


_IF_STANDS = " if it stands"

_SAID_PERCENT = {"<1%": 0.005, ">99%": 0.995}


class BidChanceSaid(NamedTuple):
    """A bid's chances as a reason states them (`bid_chance_words`)."""

    bid: str
    chance: float
    """The chance over the deals that fit, the one the call was chosen on."""
    if_stands: float | None
    """The chance of being made should nobody outbid it, where the reason says it."""

    @property
    def predicted(self) -> float:
        """What the bot predicts for the bid should it be played: ``if_stands`` where said."""
        return self.chance if self.if_stands is None else self.if_stands


def _said_percent(said: str) -> float | None:
    if said in _SAID_PERCENT:
        return _SAID_PERCENT[said]
    number = said.removesuffix("%")
    if not said.endswith("%") or not number.isdigit() or int(number) > 100:
        return None
    return int(number) / 100


def bid_chance_said(text: str) -> BidChanceSaid | None:
    """The bid and its chances as `bid_chance_words` put them in a reason, read back (None where
    the reason states none: a forced bid, a pass with partner holding the bid), so that records
    of bots' games can be set against what happened. ``<1%`` and ``>99%`` read as 0.5% and
    99.5%; a percentage is as exact as its rounding.

    >>> bid_chance_said("bids 34: " + bid_chance_words("34", 0.71, 48, "sixes") + "; 5 count")
    BidChanceSaid(bid='34', chance=0.71, if_stands=None)
    >>> said = bid_chance_said("bids 30: " + bid_chance_words("30", 0.52, 48, "fives", 0.58))
    >>> said.chance, said.if_stands, said.predicted
    (0.52, 0.58, 0.58)
    >>> bid_chance_said("passes: the best bid: 2m makes in <1% of 48 deals that fit")
    BidChanceSaid(bid='2m', chance=0.005, if_stands=None)
    >>> bid_chance_said("passes (partner holds the bid)") is None
    True
    """
    head, found, rest = text.partition(" makes in ")
    if not found:
        return None
    bid = head.rsplit(" ", 1)[-1]
    chance = _said_percent(rest.split(" ", 1)[0])
    if chance is None:
        return None
    if_stands = None
    before, stands, _ = rest.partition(_IF_STANDS)
    if stands:
        if_stands = _said_percent(before.rsplit(", ", 1)[-1])
    return BidChanceSaid(bid, chance, if_stands)


def contract_choice_words(
    contract: str, chance: float, points: float, next_best: tuple[str, float] | None, need: str
) -> str:
    """A contract's chance of making the bid (``need``: ``34``, ``every trick``) against the
    next best contract's.

    >>> contract_choice_words("sixes", 0.8, 35.2, ("fives", 0.55), "34")
    'makes 34 in 80% of the deals (55% in fives); 35.2 points on average'
    """
    line = f"makes {need} in {percent(chance)} of the deals"
    if next_best is not None:
        line += f" ({percent(next_best[1])} in {next_best[0]})"
    return f"{line}; {points:.1f} points on average"


RULES_OF_THUMB = {
    "forced": "the last seat must bid: the lowest bid",
    "moon": "every trick is sure: shoot the moon",
    "nello": "no tile can be forced to take a trick: Nel-O",
    "sevens": "every lead wins in Sevens",
    "plunge": "too weak to bid but rich in doubles: plunge",
    "splash": "too weak to bid but rich in doubles: splash",
    "partner": "never outbid partner",
    "sure": "every trick is sure: bid marks",
    "worth": "bid the lowest bid the hand is worth",
    "short": "the hand is worth less than the next bid",
    "best_trump": "name the trump the hand is worth most in",
    "discard": "lay down the tile the hand misses least",
    "naming_lead": "name trump by leading the best tile of the best suit",
    "pull_top": "pull trump with the top trump",
    "force_trump": "lead a low trump to force out the high one",
    "cash": "cash the best winner left",
    "trump_last": "lead trump when nothing else wins",
    "defend_cash": "cash a winner the bidders cannot trump",
    "lead_low": "lead the cheapest tile",
    "count_partner": "partner holds the trick for sure: give it count",
    "partner_cheap": "partner holds the trick: keep the good tiles",
    "cover_partner": "cover partner's tile where an opponent could beat it",
    "win_safe": "take the trick with a tile that holds",
    "win_risky": "try for the trick with the lowest tile that takes it now",
    "cheap": "throw the cheapest tile",
    "nello_lead": "Nel-O: lead the tile the most outstanding tiles beat",
    "nello_duck": "Nel-O: duck under the trick with the highest tile that stays under",
    "nello_low": "Nel-O: play low",
    "nello_forced": "Nel-O: forced over, play the lowest",
    "nello_let": "Nel-O: the bidder is winning, so stay under it",
}
"""The rules of thumb `texas42.players.rules_bot.RulesBot` plays by, each as it names it."""


def rule_words(rule: str, facts: Sequence[str] = ()) -> str:
    """A rule of thumb that fired, with the facts that made it fire.

    >>> rule_words("worth", ["estimate 31.4 points in sixes"])
    'rule of thumb: bid the lowest bid the hand is worth (estimate 31.4 points in sixes)'
    """
    shown = [fact for fact in facts if fact]
    line = f"rule of thumb: {RULES_OF_THUMB[rule]}"
    return f"{line} ({'; '.join(shown)})" if shown else line


def worth_words(points: float, contract: str, bid: int | None, losers: int) -> str:
    """What RulesBot counts a hand worth: its estimate in the best contract, the highest bid
    that supports (when it bids), the tiles likely to lose a trick.

    >>> worth_words(31.44, "sixes", 32, 2)
    'worth 31.4 points in sixes, a bid of 32; 2 likely losers'
    >>> worth_words(40.0, "fives", None, 0)
    'worth 40.0 points in fives; no likely loser'
    """
    line = f"worth {points:.1f} points in {contract}"
    if bid is not None:
        line += f", a bid of {bid}"
    lost = "no likely loser" if not losers else f"{plural(losers, 'likely loser')}"
    return f"{line}; {lost}"


NO_MARK_BIDS = "a beginner never bids a mark: the lowest point bid instead"
"""Why EasyBot bid points where its rule of thumb bid marks."""


def slip_words(legal: int) -> str:
    """A beginner's slip: a random tile instead of the rule of thumb's.

    >>> slip_words(4)
    "a beginner's slip: a tile at random of 4"
    """
    return f"a beginner's slip: a tile at random of {legal}"


def random_words(legal: int) -> str:
    """A random player's choice.

    >>> random_words(5)
    'chosen at random among 5 legal actions'
    """
    return f"chosen at random among {legal} legal actions"


WHY_HINT = "Type why at your next turn for the bots' reasons in this hand."
"""After a hand at the line table: how to see why the bots did what they did."""

NO_REASONS_YET = "No hand has finished yet: the bots' reasons are shown once a hand is over."
"""The line table's answer to ``why`` before the first hand is over."""

NO_BOT_REASONS = "No bot has acted yet: its reasons are shown here, whole once the hand is over."
"""The full-screen table's why panel before any bot has acted."""


def why_line(who: str, words: str) -> str:
    """A seat's reason as a face lists it.

    >>> why_line("Ann (bot)", "passes (partner holds the bid)")
    'Ann (bot): passes (partner holds the bid)'
    """
    return f"{who}: {words}"


def why_heading(number: int, *, finished: bool = True) -> str:
    """Over a hand's reasons: whole once the hand is over, else what every seat saw.

    >>> why_heading(3), why_heading(4, finished=False)
    ('Why, in hand 3 (every tile shown now):', 'Why, in hand 4 so far (what every seat saw):')
    """
    if finished:
        return f"Why, in hand {number} (every tile shown now):"
    return f"Why, in hand {number} so far (what every seat saw):"


def engine_reason(name: str, words: str | None) -> tuple[str, str]:
    """An outside engine's reason, made printable: its words for the table's own seat (they
    may name its tiles, which nobody checked) and a neutral sentence for everyone else.

    >>> engine_reason("Eve", "pulls trump")
    ('Eve: pulls trump', 'Eve is an outside engine; its reasons are shown after the hand')
    >>> engine_reason("Eve", None)[0]
    'Eve gave no reason'
    """
    public = f"{printable(name)} is an outside engine; its reasons are shown after the hand"
    if not words or not words.strip():
        return f"{printable(name)} gave no reason", public
    return f"{printable(name)}: {printable(words.strip())}", public


def learned_chance_words(bid: str, chance: float, contract: str | None) -> str:
    """A bid's chance as the learned bidder gives it (``contract``: the one it would be played
    in): learned from self-play hands played out, not from deals drawn now.

    >>> learned_chance_words("34", 0.71, "sixes")
    '34 makes 71% of the time with such tiles in self-play (in sixes)'
    """
    line = f"{bid} makes {percent(chance)} of the time with such tiles in self-play"
    return line if contract is None else f"{line} (in {contract})"


def stands_words(share: float) -> str:
    """How often a bid was not outbid when the rest of the auction was played out (a share of
    sampled auctions: even 1 is no proof that nobody can outbid it).

    >>> stands_words(0.8)
    'nobody outbids it in 80% of the auctions played out'
    >>> stands_words(0.998)
    'nobody outbids it in >99% of the auctions played out'
    >>> stands_words(1.0)
    'nobody outbids it in any of the auctions played out'
    """
    if share >= 1.0 - 1e-9:
        return "nobody outbids it in any of the auctions played out"
    return f"nobody outbids it in {percent(share)} of the auctions played out"


def equity_words(equity: float, pass_equity: float | None) -> str:
    """The chance of winning the game after a call, against after a pass (None: no pass was
    allowed).

    >>> equity_words(0.546, 0.49)
    '54.6% to win the game after it, against 49.0% after a pass'
    >>> equity_words(0.41, None)
    '41.0% to win the game after it'
    """
    if pass_equity is None:
        return f"{100 * equity:.1f}% to win the game after it"
    return (
        f"{100 * equity:.1f}% to win the game after it, against {100 * pass_equity:.1f}% "
        "after a pass"
    )


def learned_contract_words(
    contract: str, chance: float, next_best: tuple[str, float] | None, need: str
) -> str:
    """A contract's learned chance of making the bid (``need``) against the next best's.

    >>> learned_contract_words("sixes", 0.8, ("fives", 0.55), "34")
    'makes 34 80% of the time with such tiles in self-play (55% in fives)'
    """
    line = f"makes {need} {percent(chance)} of the time with such tiles in self-play"
    if next_best is not None:
        line += f" ({percent(next_best[1])} in {next_best[0]})"
    return line


# -- lessons (issue 17): what a learner is told about a move, from the engine's figures -------


def lesson_outcome(own: int, unit: str, bid: str | None, bidding: bool, made: bool) -> str:
    """What the learner's side ends the hand with under best play by every seat, and what that
    does to the bid (``bidding``: the learner's side holds it).

    >>> lesson_outcome(36, "point", "34", True, True)
    'your side ends the hand with 36 points, so your bid of 34 is made'
    >>> lesson_outcome(10, "point", "31", False, True)
    'your side ends the hand with 10 points, so their bid of 31 is made'
    """
    line = f"your side ends the hand with {plural(own, unit)}"
    if bid is None:
        return line
    whose = "your" if bidding else "their"
    return f"{line}, so {whose} bid of {bid} is {'made' if made else 'set'}"


def lesson_right_play(tile: str, also: Sequence[str], outcome: str) -> str:
    """A learner's play that the solver finds best (``also``: the other tiles as good).

    >>> lesson_right_play("6-4", [], "your side ends the hand with 31 points")
    'Right: 6-4 is the best play here. With best play from here your side ends the hand with 31 points.'
    >>> lesson_right_play("6-4", ["6-1"], "your side ends the hand with 31 points")[:47]
    'Right: 6-4 is one of the best plays here (6-1 i'
    """
    if also:
        verb = "is" if len(also) == 1 else "are"
        head = f"Right: {tile} is one of the best plays here ({' and '.join(also)} {verb} as good)"
    else:
        head = f"Right: {tile} is the best play here"
    return f"{head}. With best play from here {outcome}."


def lesson_tied_play(tile: str, lesson_tile: str, outcome: str) -> str:
    """A play the solver values exactly as the lesson's: right, and the lesson goes on with its
    own.

    >>> lesson_tied_play("6-1", "6-4", "your side ends the hand with 31 points")
    'Right: 6-1 is as good as 6-4 here: with best play from here your side ends the hand with 31 points either way; the lesson goes on with 6-4.'
    """
    return (
        f"Right: {tile} is as good as {lesson_tile} here: with best play from here {outcome} "
        f"either way; the lesson goes on with {lesson_tile}."
    )


def lesson_tied_contract(chosen: str, best: str, total: int, bid: str) -> str:
    """A trump the solver values exactly as the lesson's: right, and the lesson goes on with
    its own.

    >>> lesson_tied_contract("fives", "sixes", 36, "34")
    'Right: with fives trump and best play your side takes 36 points, as good as sixes and enough for the bid of 34; the lesson goes on with sixes.'
    """
    return (
        f"Right: with {chosen} trump and best play your side takes {plural(total, 'point')}, "
        f"as good as {best} and enough for the bid of {bid}; the lesson goes on with {best}."
    )


def lesson_worse_play(
    tile: str, best: str, best_own: int, own: int, unit: str, outcome: str
) -> str:
    """A legal play the solver finds worse than the lesson's: what each keeps for the learner's
    side, and what this one gives up.

    >>> lesson_worse_play("3-3", "6-4", 31, 21, "point", "your side ends the hand with 21 points")
    '6-4 keeps 31 points for your side; 3-3 gives up 10 of them: with best play after 3-3 your side ends the hand with 21 points. Play 6-4.'
    """
    return (
        f"{best} keeps {plural(best_own, unit)} for your side; {tile} gives up "
        f"{best_own - own} of them: with best play after {tile} {outcome}. Play {best}."
    )


def lesson_illegal_play(tile: str, why: str, detail: str, best: str) -> str:
    """A tile the rules do not allow here: the rules' own reason, why the tile does not follow,
    and the lesson's play.

    >>> lesson_illegal_play(
    ...     "6-2", "South must follow fives: 5-4", "6-2 is not one of the fives", "5-4"
    ... )
    'Not allowed: South must follow fives: 5-4. 6-2 is not one of the fives. Play 5-4.'
    """
    tail = f" {detail}." if detail else ""
    return f"Not allowed: {why}.{tail} Play {best}."


def lesson_not_following(tile: str, suit: str, pip: int | None, trump: str | None) -> str:
    """Why a tile does not follow the suit led: it is not of that suit, or it carries the
    number led (``pip``) but is a trump (of ``trump``).

    >>> lesson_not_following("6-2", "fives", None, None)
    '6-2 is not one of the fives'
    >>> lesson_not_following("5-2", "twos", 2, "fives")
    '5-2 has a two but is a trump (fives are trump): a trump follows only trumps'
    """
    if pip is not None and trump is not None:
        return (
            f"{tile} has a {_PIP_WORDS[pip]} but is a trump ({trump} are trump): a trump follows "
            "only trumps"
        )
    return f"{tile} is not one of the {suit}"


def lesson_situation(
    led: str | None, suit: str | None, legal: Sequence[str], holds_suit: bool, trump: str | None
) -> str:
    """The learner's turn to play, as the rules make it: a lead, a suit to follow (``legal``:
    the tiles that may be played), or none of it held (``holds_suit`` false).

    >>> lesson_situation(None, None, ["6-4", "3-3"], False, "fives")
    'Your lead (fives are trump): any tile may be led.'
    >>> lesson_situation(None, None, ["6-4", "3-3"], False, None)
    'Your lead (no trump): any tile may be led.'
    >>> lesson_situation("6-2", "sixes", ["6-4"], True, "fives")
    '6-2 was led, so sixes were led: you must follow with 6-4.'
    >>> lesson_situation("6-2", "sixes", ["4-4", "3-1"], False, "fives")
    '6-2 was led, so sixes were led: you hold none, so any tile may be played.'
    >>> lesson_situation("3-0", "blanks", ["5-0"], True, "threes")
    '3-0 was led, so blanks were led: you must follow with 5-0.'
    """
    if led is None:
        trumps = f" ({trump} are trump)" if trump else " (no trump)"
        return f"Your lead{trumps}: any tile may be led."
    head = f"{led} was led, so {suit} were led"
    if not holds_suit:
        return f"{head}: you hold none, so any tile may be played."
    return f"{head}: you must follow with {' or '.join(legal)}."


def _or_list(items: Sequence[str]) -> str:
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} or {items[-1]}"


def lesson_call_prompt(calls: Sequence[Action]) -> str:
    """What the learner may call at their turn in the auction, from the legal calls.

    >>> lesson_call_prompt([Pass(), Bid("30"), Bid("31"), Bid("41"), Bid("1m"), Bid("2m")])
    'Your bid: points from 30 to 41, marks (1m or 2m), or pass.'
    >>> lesson_call_prompt([Pass(), Bid("30"), Bid("41"), Bid("1m"), Bid("plunge")])
    'Your bid: points from 30 to 41, marks (1m), plunge, or pass.'
    """
    bids = [c for c in calls if isinstance(c, Bid)]
    points = [b.points for b in bids if not b.special and not b.is_mark_bid]
    marks = [b.notation for b in bids if not b.special and b.is_mark_bid]
    parts = []
    if points:
        low, high = min(points), max(points)
        parts.append(f"points from {low} to {high}" if low < high else f"{low} points")
    if marks:
        parts.append(f"marks ({_or_list(marks)})")
    parts.extend(b.notation for b in bids if b.special)
    if any(isinstance(c, Pass) for c in calls):
        parts.append("pass")
    if len(parts) == 1:
        return f"Your bid: {parts[0]}."
    return f"Your bid: {', '.join(parts[:-1])}, or {parts[-1]}."


def lesson_declare_prompt(contracts: Sequence[str]) -> str:
    """What the learner may name after winning the bid: the contracts the lesson rates.

    >>> lesson_declare_prompt(["blanks", "sixes", "doubles", "follow-me"])
    'You won the bid: name the contract: blanks, sixes, doubles or follow-me.'
    """
    return f"You won the bid: name the contract: {_or_list(contracts)}."


def lesson_bid_words(
    call: str,
    lesson_call: str,
    best: int,
    contract: str,
    makes: bool,
    right: bool,
    *,
    higher_set: bool = True,
) -> str:
    """A learner's call against the most the side can take double dummy (``best`` points with
    ``contract`` trump): ``makes`` says whether the call's bid would be made, ``higher_set``
    whether any higher bid would be set (not when the side takes every point).

    >>> lesson_bid_words("34", "34", 34, "sixes", True, True)
    'Right: with sixes trump and best play your side takes 34 points, so a bid of 34 is made; a higher bid would be set.'
    >>> lesson_bid_words("38", "34", 34, "sixes", False, False)[:60]
    'A bid of 38 promises 38 points, but with sixes trump and bes'
    """
    take = f"with {contract} trump and best play your side takes {plural(best, 'point')}"
    if right:
        higher = "; a higher bid would be set" if higher_set else ""
        return f"Right: {take}, so a bid of {call} is made{higher}."
    if call == "pass":
        return f"A pass gives up a bid your side can make: {take}, enough for {lesson_call}. Bid {lesson_call}."
    if not makes:
        promise = f"{call} points" if call.isdigit() else "every trick"
        return (
            f"A bid of {call} promises {promise}, but {take}: {call} would be set. "
            f"Bid {lesson_call}."
        )
    return (
        f"{call} would be made, but {take}: {lesson_call} is the most your side can promise "
        f"and make. Bid {lesson_call}."
    )


def lesson_contract_words(
    chosen: str, chosen_total: int, best: str, best_total: int, bid: str, need: int
) -> str:
    """A learner's trump against the best one the solver finds for the bid (``need`` points).

    >>> lesson_contract_words("sixes", 36, "sixes", 36, "34", 34)
    'Right: with sixes trump and best play your side takes 36 points, enough for the bid of 34.'
    >>> lesson_contract_words("fours", 28, "sixes", 36, "34", 34)[:62]
    'With fours trump and best play your side takes 28 points, so t'
    """

    def said(name: str, total: int) -> str:
        return f"with {name} trump and best play your side takes {plural(total, 'point')}"

    if chosen == best:
        return f"Right: {said(chosen, chosen_total)}, enough for the bid of {bid}."
    verdict = "enough for" if chosen_total >= need else "so the bid would be set: short of"
    return (
        f"{said(chosen, chosen_total)[0].upper()}{said(chosen, chosen_total)[1:]}, {verdict} "
        f"the bid of {bid}; {said(best, best_total)}. Name {best}."
    )


def lesson_nello_outcome(tricks: int, bidding: bool) -> str:
    """At Nel-O, the tricks the bidder takes with best play by every seat (the learner is the
    bidder when ``bidding``), and what that does to the bid.

    >>> lesson_nello_outcome(0, True)
    'you take no trick, so your Nel-O is made'
    >>> lesson_nello_outcome(2, False)
    'the bidder takes 2 tricks, so their Nel-O is set'
    """
    taken = "no trick" if tricks == 0 else plural(tricks, "trick")
    who, whose = ("you take", "your") if bidding else ("the bidder takes", "their")
    return f"{who} {taken}, so {whose} Nel-O is {'made' if tricks == 0 else 'set'}"


def lesson_worse_nello(tile: str, best: str, best_tricks: int, tricks: int, outcome: str) -> str:
    """At Nel-O, a play that lets the other side force the bidder to take more tricks.

    >>> lesson_worse_nello("6-6", "2-0", 0, 1, "you take 1 trick, so your Nel-O is set")
    'After 6-6 the other side can make you take 1 trick more than after 2-0: with best play after 6-6 you take 1 trick, so your Nel-O is set. Play 2-0.'
    """
    more = plural(tricks - best_tricks, "trick")
    return (
        f"After {tile} the other side can make you take {more} more than after {best}: with "
        f"best play after {tile} {outcome}. Play {best}."
    )


def lesson_sevens_situation(legal: Sequence[str]) -> str:
    """The learner's turn at Sevens: only the tiles closest to 7 pips may be played.

    >>> lesson_sevens_situation(["5-2"])
    'Sevens: you must play a tile closest to 7 pips: 5-2.'
    """
    return f"Sevens: you must play a tile closest to 7 pips: {' or '.join(legal)}."


def lesson_sevens_detail(tile: str, pips: int, closest: int) -> str:
    """Why a tile may not be played at Sevens: how far its pips are from 7, against the
    closest the hand holds.

    >>> lesson_sevens_detail("6-6", 12, 0)
    '6-6 has 12 pips, 5 from 7, and you hold a tile of 7'
    >>> lesson_sevens_detail("3-0", 3, 1)
    '3-0 has 3 pips, 4 from 7, and you hold one 1 from 7'
    """
    held = "a tile of 7" if closest == 0 else f"one {closest} from 7"
    return f"{tile} has {pips} pips, {abs(7 - pips)} from 7, and you hold {held}"


# -- play puzzles (texas42.services.learn.puzzles) ----------------------------------------------

PUZZLE_GRADES = ("warm-up", "easy", "medium", "hard", "fiendish")
"""The puzzles' grades 1 to 5 as the learner reads them."""


def puzzle_grade_words(grade: int) -> str:
    """A puzzle's grade, 1 to 5, in a word.

    >>> puzzle_grade_words(1), puzzle_grade_words(5)
    ('warm-up', 'fiendish')
    """
    return PUZZLE_GRADES[min(max(grade, 1), len(PUZZLE_GRADES)) - 1]


def _puzzle_goal(make: bool) -> str:
    return "makes the contract" if make else "sets the contract"


def puzzle_task(who: str, make: bool) -> str:
    """What the learner must find: the play of the seat to move that gets its side its way.

    >>> puzzle_task("North", True)
    'North to play: find the play that makes the contract, with best play after it by every seat.'
    """
    return f"{who} to play: find the play that {_puzzle_goal(make)}, with best play after it by every seat."


def puzzle_standing(bidders: str, score: int, needed: int, unit: str, tricks: int) -> str:
    """Where the hand stands: the bidders' points so far and the goal; at Nel-O (``unit``
    ``trick``) ``bidders`` names the bidder, who plays alone, and ``score`` its tricks.

    >>> puzzle_standing("North-South", 12, 30, "point", 3)
    'After 3 tricks, North-South have 12 points of the 30 they need.'
    >>> puzzle_standing("East", 0, 0, "trick", 2)
    'After 2 tricks, East has taken 0 tricks: at Nel-O the bidder must take none.'
    """
    if unit == "trick":
        return (
            f"After {plural(tricks, 'trick')}, {bidders} has taken {plural(score, 'trick')}: "
            "at Nel-O the bidder must take none."
        )
    return (
        f"After {plural(tricks, 'trick')}, {bidders} have {plural(score, 'point')} of the "
        f"{needed} they need."
    )


def puzzle_result(bidders: str, made: bool, score: int, needed: int, unit: str, tricks: int) -> str:
    """How a line of play ended the hand, after its last trick.

    >>> puzzle_result("North-South", True, 31, 30, "point", 6)
    'North-South made it after trick 6, with 31 points of the 30 they needed.'
    >>> puzzle_result("East-West", False, 12, 34, "point", 5)
    'East-West were set after trick 5, with 12 points of the 34 they needed.'
    >>> puzzle_result("North-South", False, 1, 0, "trick", 3)
    'North-South were set after trick 3: the bidder took a trick at Nel-O.'
    """
    verdict = "made it" if made else "were set"
    if unit == "trick":
        how = "the bidder took no trick" if made else "the bidder took a trick at Nel-O"
        return f"{bidders} {verdict} after trick {tricks}: {how}."
    return (
        f"{bidders} {verdict} after trick {tricks}, with {plural(score, 'point')} of the "
        f"{needed} they needed."
    )


def puzzle_verdict(
    right: bool,
    tile: str,
    answers: Sequence[str],
    make: bool,
    bidders: str,
    total: int,
    needed: int,
    unit: str,
) -> str:
    """The verdict on a puzzle's answer, from the solver's total for the bidders after it,
    every trick played out with best play: said so, since the line that proves it stops where
    the hand is decided, with the points taken by then (`puzzle_result`).

    >>> puzzle_verdict(True, "5-5", ["5-5"], True, "North-South", 34, 30, "point")
    'Right: 5-5 makes the contract. With best play after it and every trick played out, North-South would end with 34 points, 30 needed.'
    >>> puzzle_verdict(False, "6-4", ["5-5", "5-0"], True, "North-South", 28, 30, "point")
    'Not 6-4: with best play after it and every trick played out, North-South would end with 28 points, 30 needed, and be set. The plays that make the contract: 5-5 or 5-0.'
    >>> puzzle_verdict(False, "6-6", ["3-1"], True, "North-South", 1, 0, "trick")
    'Not 6-6: with best play after it the bidder would be forced to take 1 trick, and be set. The play that makes the contract: 3-1.'
    """
    made = total <= 0 if unit == "trick" else total >= needed
    if unit == "trick":
        end = f"the bidder would be forced to take {plural(total, 'trick')}"
    else:
        end = (
            f"and every trick played out, {bidders} would end with {plural(total, 'point')}, "
            f"{needed} needed"
        )
    if right:
        others = [a for a in answers if a != tile]
        also = f" So would {' or '.join(others)}." if others else ""
        return f"Right: {tile} {_puzzle_goal(make)}. With best play after it {end}.{also}"
    outcome = "and still make it" if made else "and be set"
    many = len(answers) > 1
    verb = ("make" if make else "set") + ("" if many else "s")
    return (
        f"Not {tile}: with best play after it {end}, {outcome}. "
        f"The play{'s' if many else ''} that {verb} the contract: {' or '.join(answers)}."
    )


PUZZLES_INTRO = (
    "Each position comes from a deal the bots played, solved with every tile known: one play, "
    "or two, gets the side to move its way, and you find it. The grade comes from the search: "
    "how many plays lose, how many tricks are left, how long the winning line takes."
)
"""What the play puzzles are, said once at the head of their list."""


def puzzle_line_title(tile: str, *, proves: bool, after_answer: bool = False) -> str:
    """The heading of a puzzle's line: the line that proves an answer, or refutes a wrong tile.

    >>> puzzle_line_title("6-4", proves=True, after_answer=True)
    'The line that proves it, after 6-4'
    >>> puzzle_line_title("6-4", proves=False), puzzle_line_title("5-5", proves=True)
    ('The line that refutes 6-4', 'The line that proves 5-5')
    """
    if proves and after_answer:
        return f"The line that proves it, after {tile}"
    return f"The line that {'proves' if proves else 'refutes'} {tile}"


def puzzle_label(contract: str, tricks_left: int, who: str, make: bool) -> str:
    """A puzzle in the list: its contract, the tricks left and the task, without its tiles.

    >>> puzzle_label("sixes", 3, "East", False)
    'sixes · 3 tricks left · East to set it'
    """
    return f"{contract} · {plural(tricks_left, 'trick')} left · {who} to {'make' if make else 'set'} it"


# -- bidding practice (issue 17: texas42.services.learn.practice) -------------------------------

PRACTICE_CATEGORIES = {
    "pass": "an easy pass",
    "clear": "a clear bid",
    "hard": "a hard case",
    "mark": "a mark bid",
    "special": "a special bid",
}
"""The kinds of question bidding practice draws in turn, as the expert's estimate sorts them."""

_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh")


def practice_position_words(
    seat: str, order: int, passes: int, standing: str | None, holder: str
) -> str:
    """Where the learner sits at the table and in the auction: ``order`` calls came before
    (``passes`` of them passes), the standing bid and who holds it (``partner``, ``an
    opponent``).

    >>> practice_position_words("North", 0, 0, None, "")
    'You sit North, the first to call.'
    >>> practice_position_words("East", 2, 1, "30", "partner")
    'You sit East, the third to call: one pass, and partner holds the bid at 30.'
    >>> practice_position_words("West", 3, 3, None, "")
    'You sit West, the fourth to call: three passes, and no bid yet.'
    """
    line = f"You sit {seat}, the {_ORDINALS[order]} to call"
    if order == 0:
        return line + "."
    counts = ("no pass", "one pass", "two passes", "three passes", "four passes")
    said = counts[passes] if passes < len(counts) else f"{passes} passes"
    bid = "no bid yet" if standing is None else f"{holder} holds the bid at {standing}"
    return f"{line}: {said}, and {bid}."


def practice_score_words(ours: int, theirs: int, target: int, unit: str) -> str:
    """The game score as the question gives it.

    >>> practice_score_words(6, 2, 7, "marks")
    'Your side has 6 marks, theirs 2, in a game to 7.'
    """
    return f"Your side has {ours} {unit}, theirs {theirs}, in a game to {target}."


def practice_verdict_words(call: str, expert: str, given_up: float) -> str:
    """How the learner's call compares with the expert's, in the expert's expected marks.

    >>> practice_verdict_words("30", "30", 0.0)
    'You bid 30, as the expert does.'
    >>> practice_verdict_words("pass", "31", 0.234)
    'You passed; the expert bids 31. By its estimate that gave up 0.23 marks.'
    >>> practice_verdict_words("32", "31", 0.0)
    'You bid 32; the expert bids 31. By its estimate that gave up nothing.'
    """
    yours = "You passed" if call == "pass" else f"You bid {call}"
    theirs = "passes" if expert == "pass" else f"bids {expert}"
    if call == expert:
        return f"{yours}, as the expert does."
    cost = "nothing" if round(given_up, 2) <= 0 else f"{given_up:.2f} marks"
    return f"{yours}; the expert {theirs}. By its estimate that gave up {cost}."


def practice_deal_words(call: str, contract: str | None, value: int, unit: str, made: bool) -> str:
    """What a call would have come to on the actual deal, double dummy, the other seats
    passing after it (``contract``: the best one for it; None for a pass).

    >>> practice_deal_words("30", "fives", 34, "points", True)
    '30 in fives: your side takes 34 points with best play, made'
    >>> practice_deal_words("1 mark", "Nel-O", 1, "tricks", False)
    '1 mark in Nel-O: you take 1 trick with best play, set'
    >>> practice_deal_words("pass", None, 0, "points", False)
    'pass: no contract for your side'
    """
    if contract is None:
        return f"{call}: no contract for your side"
    who = "you take" if unit == "tricks" else "your side takes"
    units = unit[:-1] if value == 1 else unit
    return (
        f"{call} in {contract}: {who} {value} {units} with best play, {'made' if made else 'set'}"
    )


def practice_share_words(share: float, samples: int, contract: str) -> str:
    """A bid's make share double dummy over the deals the learner could have faced, as
    ``texas42 analyze`` reports it.

    >>> practice_share_words(0.5938, 64, "threes")
    'made double dummy in 59% of 64 deals you could have faced (in threes)'
    """
    return (
        f"made double dummy in {percent(share)} of {samples} deals you could have faced "
        f"(in {contract})"
    )


def practice_about_words(category: str, expert_samples: int, review_samples: int) -> str:
    """Where an answer's numbers come from (``category``: a `PRACTICE_CATEGORIES` value).

    >>> practice_about_words("a clear bid", 48, 64)[:60]
    'This question was a clear bid. Chances and expected marks ar'
    """
    return (
        f"This question was {category}. Chances and expected marks are the expert's estimate "
        f"over {expert_samples} deals that fit your tiles; the double-dummy share is over "
        f"{review_samples} deals you could have faced, as texas42 analyze reports it; the "
        "other seats pass after your call."
    )


def practice_summary_words(asked: int, agreed: int, given_up: float) -> str:
    """A practice session's running score.

    >>> practice_summary_words(3, 2, 0.41)
    '3 questions, 2 agreed with the expert, 0.41 expected marks given up'
    """
    return (
        f"{asked} question{'' if asked == 1 else 's'}, {agreed} agreed with the expert, "
        f"{given_up:.2f} expected marks given up"
    )


# -- the hand laboratory --------------------------------------------------------------------


def lab_contract_line(
    who: str,
    bid: str,
    contract: str,
    chance: float | None,
    deals: int,
    total: int | None,
    makes: bool | None,
    unit: str = "point",
) -> str:
    """The hand laboratory's figures for one contract: the chance the expert gives ``who``'s
    bid in it over the deals that fit ``who``'s tiles (None: a contract it does not consider
    for them), and what best play by every seat gives on the deal set up (``total`` in
    ``unit``; None where the bid does not allow the contract).

    >>> lab_contract_line("North", "30", "sixes", 0.497, 48, 40, True)
    'North bidding 30 in sixes: makes in 50% of 48 deals that fit; on this deal, with best play, 40 points: made.'
    >>> lab_contract_line("You", "1m", "nello", None, 48, 1, False, "trick")
    'You bidding 1m in Nel-O: not one the expert weighs for these tiles; on this deal, with best play, 1 trick: set.'
    >>> lab_contract_line("East", "30", "nello", 0.2, 48, None, None)
    'East bidding 30 in Nel-O: makes in 20% of 48 deals that fit; a bid of 30 does not allow it.'
    """
    head = f"{who} bidding {bid} in {contract_said(contract)}: "
    if chance is None:
        head += "not one the expert weighs for these tiles"
    else:
        head += f"makes in {percent(chance)} of {deals_words(deals, False)}"
    if total is None:
        return f"{head}; a bid of {bid} does not allow it."
    verdict = "made" if makes else "set"
    return f"{head}; on this deal, with best play, {plural(total, unit)}: {verdict}."
