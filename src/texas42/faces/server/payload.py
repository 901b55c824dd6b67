"""What the server tells one recipient about a game, built from that recipient's views.

This module is the only place a message about a game's tiles is made (as the classes of
`texas42.faces.server.outbound`), and it reads nothing but
views (those of the seats the recipient plays, or the public part of one for a spectator) and
finished hands' results and tricks (`turned_up`: once a hand is over its face-down piles are
turned up, every tile in them having been played face up). So a payload can hold no tile its recipient could not see at the table,
which the leak tests check against every message of whole games.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from texas42.core.actions import ACTIONS, Action, Bid, Declare, Discard, Pass, Play, action_words
from texas42.core.game import Game
from texas42.core.hand import Hand, HandResult
from texas42.core.layout import Layout, layout_of
from texas42.core.progress import Phase
from texas42.core.reasons import reads_whole
from texas42.core.rules import Rules
from texas42.core.tiles import TILE_NAMES, tiles_of
from texas42.core.view import View, turned_up
from texas42.core.words import (
    action_said,
    choice_words,
    claim_line,
    claim_outcome,
    contract_line,
    contract_words,
    game_over_line,
    hand_heading,
    hand_headline,
    hand_result_lines,
    next_hand_line,
    pile_line,
    seat_roles,
    shaker_line,
    side_labels,
    trick_taken,
)
from texas42.faces.server import outbound as out
from texas42.faces.server.reasons import Kept

PHASES: tuple[out.PhaseWord, ...] = ("auction", "declare", "play", "done", "discard")
"""The words for `Phase` values, by number."""


def layout_payload(rules: Rules) -> out.Layout:
    layout = layout_of(rules)
    return out.Layout(
        seats=layout.seats,
        seat_names=list(layout.seat_names),
        sides=layout.sides,
        side_names=list(layout.side_names),
        side_of=list(layout.side_of),
        partner=list(layout.partner_of),
        teams=layout.teams,
        hand_size=layout.hand_size,
        widow=layout.widow,
        total=layout.total,
        see_partner=rules.see_partner,
    )


def seat_labels(layout: Layout, players: Sequence[str] = ()) -> list[str]:
    """Each seat as the sentences sent to browsers name it: its player's name, with the compass
    where one name sits in two seats (two-hand), or the compass name of an empty seat."""
    names = [p.strip() for p in players] + [""] * (layout.seats - len(players))
    labels = []
    for seat, compass in enumerate(layout.seat_names):
        name = names[seat]
        if not name:
            labels.append(compass)
        elif names.count(name) > 1:
            labels.append(f"{name} ({compass})")
        else:
            labels.append(name)
    return labels


def action_label(action: Action) -> str:
    """How a button names an action: ``30``, ``2 marks``, ``Pass``, ``fives``, ``6-4``."""
    if isinstance(action, Pass):
        return "Pass"
    if isinstance(action, Bid):
        if action.special == "moon":
            return "Moon (21)"
        if action.special:
            return action.special.capitalize()
        if action.marks:
            return f"{action.marks} mark" + ("s" if action.marks > 1 else "")
        return action.notation
    if isinstance(action, Declare):
        return contract_words(action.contract)
    assert isinstance(action, (Play, Discard))
    return action.notation


def legal_payload(rules: Rules, action: Action) -> out.Legal:
    """A legal action for its button: its words, label, heading and meaning (`choice_words`)."""
    group, meaning = choice_words(rules, action)
    return out.Legal(
        action=action_words(action), label=action_label(action), group=group, meaning=meaning
    )


def result_payload(result: HandResult, view: View) -> out.Result:
    """The result of the hand ``view`` shows: its points only where the view shows them, since
    a hand set early under face-down piles would otherwise tell the count in those tricks."""
    return out.Result(
        bidder=result.bidder,
        bid=result.bid,
        contract=result.contract,
        declarer=result.declarer,
        made=result.made,
        points=list(result.points) if view.points is not None else None,
        score=list(result.score),
        tricks=result.tricks,
        reshaken=result.reshaken,
    )


def hand_payload(
    view: View,
    *,
    public: bool,
    result: HandResult | None = None,
    illegal: dict[str, str] | None = None,
    names: Sequence[str] | None = None,
    mine: Sequence[int] | None = None,
    can_claim: bool = False,
    reasons: list[out.Why] | None = None,
) -> out.Hand:
    """The hand as ``view`` shows it; ``public`` drops everything about the view's own seat
    (its tiles, its widow and discards, its legal actions, its tiles in face-down tricks) for a
    spectator or for another seat's hand. ``illegal`` gives why the seat's tiles it may not play
    are refused (`illegal_reasons`). Its sentences name the seats ``names`` (`seat_labels`) and
    call partners the partners of ``mine`` (the view's seat unless given; nobody's if public).
    ``can_claim``: the view's seat may lay its hand down now (`Game.can_claim`). ``reasons``:
    the bots' reasons for the hand's actions, as the recipient may read them (`hand_reasons`)."""
    own_turn = not public and view.turn == view.seat
    names = list(view.layout.seat_names) if names is None else names
    tricks = []
    for number, trick in enumerate(view.tricks, 1):
        plays = []
        for k, seat in enumerate(trick.seats):
            if trick.tiles is not None:
                tile: str | None = TILE_NAMES[trick.tiles[k]]
            elif seat == view.seat and trick.mine is not None and not public:
                tile = TILE_NAMES[trick.mine]
            else:
                tile = None
            plays.append(out.TilePlay(seat=seat, tile=tile))
        tricks.append(
            out.Trick(
                leader=trick.leader,
                winner=trick.winner,
                points=trick.points,
                plays=plays,
                taken=trick_taken(names[trick.winner], number, trick.points),
            )
        )
    seats = view.layout.seats
    sides = side_labels(view.layout, names)
    partners_of = () if public else mine
    return out.Hand(
        seat=None if public else view.seat,
        shaker=view.shaker,
        first_bidder=view.first_bidder,
        phase=PHASES[view.phase],
        turn=view.turn,
        tiles=[] if public else [TILE_NAMES[t] for t in view.tiles_in_order()],
        widow=[] if public else [TILE_NAMES[t] for t in tiles_of(view.widow)],
        discards=[None if public or t is None else TILE_NAMES[t] for t in view.discards],
        calls=[
            out.Call(seat=(view.first_bidder + i) % seats, call=call.notation)
            for i, call in enumerate(view.calls)
        ],
        bidder=view.bidder,
        bid=view.bid.notation if view.bid is not None else None,
        bid_marks=view.bid_marks,
        declarer=view.declarer,
        out_seat=view.out_seat,
        contract=str(view.contract) if view.contract is not None else None,
        trump=view.trump,
        trick=[out.TilePlay(seat=seat, tile=TILE_NAMES[t]) for seat, t in view.trick],
        tricks=tricks,
        points=list(view.points) if view.points is not None else None,
        tricks_won=list(view.tricks_won),
        tiles_left=list(view.tiles_left),
        piles_face_down=view.piles_face_down and view.points is None,
        legal=[legal_payload(view.rules, a) for a in view.legal] if own_turn else [],
        illegal=illegal or {},
        result=result_payload(result, view)
        if result is not None and result.made is not None
        else None,
        shaker_line=shaker_line(names[view.shaker]),
        contract_line=contract_line(view, names),
        roles=[seat_roles(view, s, partners_of) for s in range(seats)],
        piles=[pile_line(view, side) for side in range(view.layout.sides)],
        headline=hand_headline(view, result, sides) if result is not None else None,
        result_lines=hand_result_lines(view, result, sides) if result is not None else [],
        face_up=[
            out.FaceUp(seat=s, tiles=[TILE_NAMES[t] for t in view.in_holding_order(shown)])
            for s, shown in enumerate(view.face_up)
            if shown
        ],
        can_claim=can_claim and own_turn,
        reasons=reasons or [],
    )


def hand_reasons(game: Game, index: int, kept: Kept, reader: Sequence[int]) -> list[out.Why]:
    """The bots' reasons for the calls, contract and plays of the game's hand ``index``, in the
    words the player of ``reader`` may read (`reads_whole`, asked once a seat)."""
    hand = game.hands[index]
    whole: dict[int, bool] = {}
    found = []
    for (kind, number), entry in kept.get(index, {}).items():
        if kind == "discard":
            continue
        seat = entry.seat
        if seat not in whole:
            whole[seat] = reads_whole(hand, seat, reader)
        text = entry.reason.for_reader(hidden=not whole[seat])
        found.append(out.Why(kind=kind, index=number, seat=seat, text=text))
    return found


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
    return hand.view(seat, before, game.first_hand + index)


def acting_seat(game: Game, seats: Sequence[int]) -> int | None:
    """Which of the seats a recipient plays the hand is shown from: the one to act, else the
    first. None for a spectator."""
    if not seats:
        return None
    turn = game.seat_to_act()
    return turn if turn in seats else seats[0]


def game_payload(
    game: Game,
    seats: Sequence[int] = (),
    names: Sequence[str] | None = None,
    reasons: Kept | None = None,
) -> out.Game:
    """The game as the player of ``seats`` sees it (in two-hand a person plays a seat and its
    partner's), or as a spectator does (no seats). ``hand`` is shown from the seat to act among
    them; ``held`` gives the tiles of each of them. Sentences name the seats ``names``.
    ``reasons``: the bots' reasons the table keeps, shown with the hand in play and the last."""
    seat = acting_seat(game, seats)
    labels = list(game.layout.seat_names) if names is None else names
    public = seat is None
    looking = 0 if seat is None else seat
    rules: Rules = game.rules
    index = len(game.hands) - 1
    hand = game.hand
    current_view = game.view(looking)
    if hand.result is not None:
        current_view = turned_up(current_view, hand.tricks)
    current = hand_payload(
        current_view,
        public=public,
        result=hand.result,
        illegal=None if seat is None else illegal_reasons(hand, seat),
        names=labels,
        mine=seats,
        can_claim=seat is not None and game.can_claim(seat),
        reasons=hand_reasons(game, index, reasons, seats) if reasons else None,
    )
    held = [
        out.Held(seat=s, tiles=[TILE_NAMES[t] for t in game.view(s).tiles_in_order()])
        for s in seats
    ]
    last_hand = None
    finished = index if hand.result is None else index + 1
    if finished > 0:
        last = game.hands[finished - 1]
        assert last.result is not None
        ended = hand_payload(
            turned_up(_hand_view(game, finished - 1, looking), last.tricks),
            public=public,
            result=last.result,
            names=labels,
            mine=seats,
            reasons=hand_reasons(game, finished - 1, reasons, seats) if reasons else None,
        )
        following = ""
        if hand.result is None:  # the next hand is under way beneath this one's summary
            to_act = seat is not None and hand.seat_to_act() in seats
            following = next_hand_line(game.hand_number, hand.phase == Phase.AUCTION, to_act)
        last_hand = out.LastHand(
            **out.fields_of(ended), number=game.first_hand + finished - 1, next_line=following
        )
    outcome = game.outcome()
    return out.Game(
        hand_number=game.hand_number,
        score=list(game.score),
        target=rules.winning_target,
        unit="marks" if rules.game == "marks" else "points",
        history=[list(s) for s in game.score_history()],
        draw=[[(s, TILE_NAMES[t]) for s, t in rnd] for rnd in game.draw_rounds],
        hand=current,
        held=held,
        last_hand=last_hand,
        outcome=out.Outcome(winner=outcome.winner, score=list(outcome.score), hands=outcome.hands)
        if outcome is not None
        else None,
        over_line=game_over_line(rules, outcome, side_labels(game.layout, labels))
        if outcome is not None
        else None,
    )


def replay_frame(
    hand: Hand, score: tuple[int, ...], number: int, caption: str, names: Sequence[str]
) -> out.Frame:
    """A position of the replay of a finished game, every tile shown: the public hand plus
    what each seat still holds, the widow and the discards."""
    public = hand_payload(hand.view(0, score, number), public=True, result=hand.result, names=names)
    tricks = [
        out.Trick(
            leader=trick.leader,
            winner=trick.winner,
            points=trick.points,
            plays=[
                out.TilePlay(seat=s, tile=TILE_NAMES[t]) for s, t in zip(trick.seats, trick.tiles)
            ],
            taken=trick_taken(names[trick.winner], k, trick.points),
        )
        for k, trick in enumerate(hand.tricks, 1)
    ]
    points = list(hand.points)
    result = public.result
    shown = replace(
        public,
        tricks=tricks,
        points=points,
        result=replace(result, points=points) if result is not None else None,
        widow=[TILE_NAMES[t] for t in tiles_of(hand.widow)],
        discards=[TILE_NAMES[t] for t in hand.discards],
    )
    return out.Frame(
        caption=caption,
        hand_number=number,
        score=list(score),
        hands=[[TILE_NAMES[t] for t in tiles_of(hand.hands[s])] for s in range(hand.layout.seats)],
        hand=shown,
    )


def replay_frames(hands: list[Hand], rules: Rules, players: Sequence[str] = ()) -> list[out.Frame]:
    """Every position of finished hands, each with a caption, played again from their deals;
    the seats are named by their ``players``."""
    names = seat_labels(layout_of(rules), players)
    frames = []
    score = (0,) * layout_of(rules).sides
    for number, played in enumerate(hands, 1):
        hand = Hand(rules, played.shaker, played.deal, played.widow)
        heading = hand_heading(number, names[hand.shaker])
        frames.append(replay_frame(hand, score, number, heading, names))
        claims = [at for at, _ in played.claims]
        for seat, aid in _actions_of(played):
            if isinstance(ACTIONS[aid], Play):
                frames += _claim_frames(hand, claims, score, number, names)
            hand.apply(aid)
            caption = action_said(names[seat], ACTIONS[aid], own=True)
            frames.append(replay_frame(hand, score, number, caption, names))
        frames += _claim_frames(hand, claims, score, number, names)
        if hand.result is None:
            break
        score = tuple(a + b for a, b in zip(score, hand.result.score))
    return frames


def _claim_frames(
    hand: Hand, claims: list[int], score: tuple[int, ...], number: int, names: Sequence[str]
) -> list[out.Frame]:
    """The claims made after as many tiles as ``hand`` has played, made again: a frame each,
    captioned with the tiles laid down and the verdict."""
    frames = []
    while claims and claims[0] == len(hand.plays):
        claims.pop(0)
        seat = hand.turn
        claim = hand.claim(seat)
        caption = f"{claim_line(names[seat], claim.tiles)}. {claim_outcome(hand.view(seat), claim, names)}."
        frames.append(replay_frame(hand, score, number, caption, names))
    return frames


def _actions_of(hand: Hand) -> list[tuple[int, int]]:
    """(seat, action id) of every action of a hand, in order."""
    seats = hand.layout.seats
    actions = [((hand.first_bidder + i) % seats, c) for i, c in enumerate(hand.calls)]
    declarer = hand.declarer
    if declarer is not None:
        actions.extend((declarer, Discard(t).id) for t in hand.discards)
        if hand.contract is not None:
            actions.append((declarer, Declare(hand.contract).id))
    actions.extend(zip(hand.play_seats, hand.plays))
    return actions
