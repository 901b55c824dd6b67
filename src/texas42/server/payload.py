"""What the server tells one recipient about a game: JSON built from that recipient's `View`.

This module is the only place a message about a game's tiles is made, and it reads nothing but
views (a seat's, or the public part of one for a spectator) and finished hands' results. So a
payload can hold no tile its recipient could not see at the table, which the leak tests check
against every message of whole games.
"""

from __future__ import annotations

from typing import Any

from texas42.actions import ACTIONS, Action, Bid, Declare, Pass, Play, action_words
from texas42.game import Game
from texas42.hand import SEAT_NAMES, SEATS, Hand, HandResult, Phase
from texas42.rules import Rules
from texas42.tally import marks_tally
from texas42.tiles import TILE_NAMES, tiles_of
from texas42.view import View, view_of

PHASES = ("auction", "declare", "play", "done")


def action_label(action: Action) -> str:
    """How a button names an action: ``30``, ``2 marks``, ``Pass``, ``fives``, ``6-4``."""
    if isinstance(action, Pass):
        return "Pass"
    if isinstance(action, Bid):
        if action.special:
            return action.special.capitalize()
        if action.marks:
            return f"{action.marks} mark" + ("s" if action.marks > 1 else "")
        return action.notation
    if isinstance(action, Declare):
        return action.notation.replace(":", " (doubles ") + (")" if ":" in action.notation else "")
    assert isinstance(action, Play)
    return action.notation


def result_payload(result: HandResult) -> dict[str, Any]:
    return {
        "bidder": result.bidder,
        "bid": result.bid,
        "contract": result.contract,
        "declarer": result.declarer,
        "made": result.made,
        "points": list(result.points),
        "score": list(result.score),
        "tricks": result.tricks,
        "reshaken": result.reshaken,
    }


def hand_payload(view: View, *, public: bool, result: HandResult | None = None) -> dict[str, Any]:
    """The hand as ``view`` shows it; ``public`` drops everything about the view's own seat
    (its tiles, its legal actions, its tiles in face-down tricks) for a spectator."""
    own_turn = not public and view.turn == view.seat
    tricks = []
    for trick in view.tricks:
        plays = []
        for k, seat in enumerate(trick.seats):
            if trick.tiles is not None:
                tile: str | None = TILE_NAMES[trick.tiles[k]]
            elif seat == view.seat and trick.mine is not None and not public:
                tile = TILE_NAMES[trick.mine]
            else:
                tile = None
            plays.append({"seat": seat, "tile": tile})
        tricks.append(
            {"leader": trick.leader, "winner": trick.winner, "points": trick.points, "plays": plays}
        )
    legal = [{"action": action_words(a), "label": action_label(a)} for a in view.legal]
    payload: dict[str, Any] = {
        "shaker": view.shaker,
        "first_bidder": view.first_bidder,
        "phase": PHASES[view.phase],
        "turn": view.turn,
        "tiles": [] if public else [TILE_NAMES[t] for t in tiles_of(view.hand)],
        "calls": [
            {"seat": (view.first_bidder + i) % SEATS, "call": call.notation}
            for i, call in enumerate(view.calls)
        ],
        "bidder": view.bidder,
        "bid": view.bid.notation if view.bid is not None else None,
        "bid_marks": view.bid_marks,
        "declarer": view.declarer,
        "out_seat": view.out_seat,
        "contract": str(view.contract) if view.contract is not None else None,
        "trump": view.trump,
        "trick": [{"seat": seat, "tile": TILE_NAMES[t]} for seat, t in view.trick],
        "tricks": tricks,
        "points": list(view.points) if view.points is not None else None,
        "tricks_won": list(view.tricks_won),
        "tiles_left": list(view.tiles_left),
        "piles_face_down": view.piles_face_down,
        "legal": legal if own_turn else [],
        "illegal": {},
        "result": result_payload(result) if result is not None and result.made is not None else None,
    }
    return payload


def illegal_reasons(hand: Hand, seat: int) -> dict[str, str]:
    """Why each of the seat's tiles that it may not play now is refused, on its turn in play.

    The reasons name only the seat's own tiles and the suit led, which the seat knows."""
    if hand.phase != Phase.PLAY or hand.seat_to_act() != seat:
        return {}
    reasons = {}
    for t in tiles_of(hand.hands[seat]):
        why = hand.why_illegal(Play(t))
        if why is not None:
            reasons[TILE_NAMES[t]] = why
    return reasons


def _hand_view(game: Game, index: int, seat: int) -> View:
    hand = game.hands[index]
    history = game.score_history()
    before = history[index - 1] if index > 0 else game.start_score
    return view_of(hand, seat, before, game.first_hand + index)


def game_payload(game: Game, seat: int | None) -> dict[str, Any]:
    """The game as one seat sees it, or as a spectator does (``seat`` None)."""
    public = seat is None
    looking = 0 if seat is None else seat
    rules: Rules = game.rules
    index = len(game.hands) - 1
    hand = game.hand
    current = hand_payload(game.view(looking), public=public, result=hand.result)
    if not public and seat is not None:
        current["illegal"] = illegal_reasons(hand, seat)
    last_hand = None
    finished = index if hand.result is None else index + 1
    if finished > 0:
        last = game.hands[finished - 1]
        assert last.result is not None
        last_hand = hand_payload(_hand_view(game, finished - 1, looking), public=public,
                                 result=last.result)  # fmt: skip
        last_hand["number"] = game.first_hand + finished - 1
    outcome = game.outcome()
    score = game.score
    marks = rules.game == "marks"
    return {
        "hand_number": game.hand_number,
        "score": list(score),
        "target": rules.winning_target,
        "unit": "marks" if marks else "points",
        "tally": [marks_tally(max(0, s)) if marks else "" for s in score],
        "history": [list(s) for s in game.score_history()],
        "draw": [[[s, TILE_NAMES[t]] for s, t in rnd] for rnd in game.draw_rounds],
        "hand": current,
        "last_hand": last_hand,
        "outcome": (
            {"winner": outcome.winner, "score": list(outcome.score), "hands": outcome.hands}
            if outcome is not None
            else None
        ),
    }


def full_hand_payload(hand: Hand, score: tuple[int, ...], number: int) -> dict[str, Any]:
    """A hand with every tile shown, for the replay of a finished game: the public hand plus
    what each seat still holds."""
    public = hand_payload(view_of(hand, 0, score, number), public=True, result=hand.result)
    public["tricks"] = [
        {
            "leader": trick.leader,
            "winner": trick.winner,
            "points": trick.points,
            "plays": [{"seat": s, "tile": TILE_NAMES[t]} for s, t in zip(trick.seats, trick.tiles)],
        }
        for trick in hand.tricks
    ]
    public["points"] = list(hand.points)
    return {
        "hand_number": number,
        "score": list(score),
        "hands": [[TILE_NAMES[t] for t in tiles_of(hand.hands[s])] for s in range(SEATS)],
        "hand": public,
    }


def replay_frames(hands: list[Hand], rules: Rules) -> list[dict[str, Any]]:
    """Every position of finished hands, each with a caption, played again from their deals."""
    frames = []
    score = (0, 0)
    for number, played in enumerate(hands, 1):
        hand = Hand(rules, played.shaker, played.deal)
        frame = full_hand_payload(hand, score, number)
        frame["caption"] = f"Hand {number}: {SEAT_NAMES[hand.shaker]} shook"
        frames.append(frame)
        for seat, aid in _actions_of(played):
            hand.apply(aid)
            frame = full_hand_payload(hand, score, number)
            frame["caption"] = describe_action(seat, ACTIONS[aid])
            frames.append(frame)
        if hand.result is None:
            break
        score = (score[0] + hand.result.score[0], score[1] + hand.result.score[1])
    return frames


def _actions_of(hand: Hand) -> list[tuple[int, int]]:
    """(seat, action id) of every action of a hand, in order."""
    actions = [((hand.first_bidder + i) % SEATS, c) for i, c in enumerate(hand.calls)]
    if hand.contract is not None:
        actions.append((hand.declarer, Declare(hand.contract).id))
    actions.extend(zip(hand.play_seats, hand.plays))
    return actions


def describe_action(seat: int, action: Action) -> str:
    """``West bids 30``: the caption of an action at the table."""
    who = SEAT_NAMES[seat]
    if isinstance(action, Play):
        return f"{who} plays {action.notation}"
    if isinstance(action, Declare):
        return f"{who} names {action.notation}"
    if isinstance(action, Bid):
        return f"{who} bids {action_label(action).lower()}"
    return f"{who} passes"
