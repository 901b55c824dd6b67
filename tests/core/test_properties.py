"""Properties of random legal play under random rules: games end, hands add up, undo and copy are
exact, position strings round-trip, a view never depends on tiles its seat cannot see, and illegal
actions change nothing."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import examples, playable_rules
from texas42 import Game, Hand, IllegalActionError, Phase
from texas42.core.actions import MOON_ID, NUM_ACTIONS
from texas42.core.layout import layout_of
from texas42.core.notation import hand_position, parse_view_position, view_position
from texas42.core.tiles import COUNT_VALUE, mask_of, tiles_of

SEEDS = st.integers(0, 2**32 - 1)
MAX_HANDS = 200


def random_game(rules, seed: int) -> tuple[Game, list[int]]:
    """A game played to its end with random legal actions; returns it and the actions taken."""
    rng = random.Random(seed)
    game = Game(rules, seed)
    actions: list[int] = []
    while not game.is_over():
        assert len(game.hands) <= MAX_HANDS
        ids = game.hand.legal_ids()
        if rules.bids == "tricks" and game.hand.phase == Phase.AUCTION:
            # a random Moon bid is set more often than not, and the scores would drift below
            # zero for ever: bid the lowest, and shoot the moon now and then
            ids = ids[:2] + [MOON_ID] * (rng.random() < 0.05)
        action = rng.choice(ids)
        game.apply(action)
        actions.append(action)
    return game, actions


def mask_of_all(masks: list[int]) -> int:
    out = 0
    for m in masks:
        out |= m
    return out


def random_hand(rules, seed: int) -> tuple[Hand, list[int]]:
    rng = random.Random(seed)
    hand = Hand.random(rules, rng.randrange(rules.seats), rng)
    actions: list[int] = []
    while not hand.is_over:
        action = rng.choice(hand.legal_ids())
        hand.apply(action)
        actions.append(action)
    return hand, actions


def rules_seats(game: Game) -> int:
    return game.rules.seats


def snapshot(game: Game) -> tuple[object, ...]:
    views = tuple(game.view(seat) for seat in range(rules_seats(game)))
    return (
        game.position(),
        game.legal_mask(),
        views,
        tuple(view_position(v) for v in views),
        game.score,
    )


@settings(max_examples=examples(80))
@given(playable_rules(), SEEDS)
def test_random_games_end_and_every_hand_adds_up(rules, seed) -> None:
    game, _ = random_game(rules, seed)
    outcome = game.outcome()
    assert outcome is not None and outcome.hands == len(game.hands) == len(game.results)
    layout = layout_of(rules)
    target = rules.winning_target
    assert max(game.score) >= target and game.score[outcome.winner] == max(game.score)
    assert game.score == tuple(map(sum, zip(*(r.score for r in game.results))))
    zeros = (0,) * layout.sides
    for hand, result in zip(game.hands, game.results):
        assert hand.phase == Phase.DONE and hand.summary() == result
        assert len(result.score) == len(result.points) == layout.sides
        if result.reshaken:
            assert rules.all_pass == "reshake" and hand.plays == [] and result.score == zeros
            continue
        # every tile in play is in exactly one place: a hand, played, discarded, the widow
        # still face down (only before it is taken) or set aside
        places = [*hand.hands, mask_of(hand.plays), mask_of(hand.discards), hand.set_aside]
        assert sum(m.bit_count() for m in places) == layout.tiles.bit_count()
        assert mask_of_all(places) == layout.tiles
        out_of_play = sum(COUNT_VALUE[t] for t in tiles_of(hand.set_aside)) if layout.count else 0
        assert (
            sum(t.points for t in hand.tricks) == sum(result.points) <= layout.total - out_of_play
        )
        assert result.tricks == len(hand.tricks) and len(hand.plays) == sum(
            len(t.tiles) for t in hand.tricks
        )
        nello = result.contract is not None and result.contract.startswith("nello")
        bidders = layout.side_of[result.bidder]
        others = [side for side in range(layout.sides) if side != bidders]
        if rules.game != "marks":
            assert result.tricks == layout.tricks
            if nello:
                assert len(hand.plays) == layout.tricks * (layout.seats - 1)
            else:
                assert len(hand.plays) == layout.dealt
                assert sum(result.points) == layout.total - out_of_play
        if rules.game == "points" and not nello:
            if result.made:
                assert result.score == result.points
            else:
                assert result.score[bidders] == 0
        elif rules.game == "moon":
            assert all(result.score[side] == result.points[side] for side in others)
            bid = hand.high_value if hand.high_id != MOON_ID else 21
            assert (
                result.score[bidders] == (result.points[bidders] if hand.high_id != MOON_ID else 21)
                if result.made
                else -bid
            )
            assert result.made == (result.points[bidders] >= min(bid, layout.total))
        elif rules.game == "marks":
            marks = hand.bid_marks or 1
            expected = [0] * layout.sides
            for side in [bidders] if result.made else others:
                expected[side] = marks
            assert list(result.score) == expected


@settings(max_examples=examples(40))
@given(playable_rules(), SEEDS)
def test_undo_restores_the_exact_state(rules, seed) -> None:
    rng = random.Random(seed)
    game = Game(rules, seed)
    history = [snapshot(game)]
    while not game.is_over() and len(history) < 400:
        action = rng.choice(game.hand.legal_ids())
        game.apply(action)
        after = snapshot(game)
        game.undo()
        assert snapshot(game) == history[-1]
        game.apply(action)
        assert snapshot(game) == after
        history.append(after)
    for expected in reversed(history[:-1]):
        game.undo()
        assert snapshot(game) == expected
    assert game.hand_number == 1 and game.hand.action_count == 0


@settings(max_examples=examples(50))
@given(playable_rules(), SEEDS, st.integers(0, 120), st.integers(1, 30))
def test_copy_is_independent(rules, seed, split, more) -> None:
    rng = random.Random(seed)
    game = Game(rules, seed)
    for _ in range(split):
        if game.is_over():
            return
        game.apply(rng.choice(game.hand.legal_ids()))
    clone = game.copy()
    before = snapshot(game)
    for _ in range(more):
        if clone.is_over():
            break
        clone.apply(rng.choice(clone.hand.legal_ids()))
    assert snapshot(game) == before
    cloned = snapshot(clone)
    for _ in range(more):
        if game.is_over():
            break
        game.apply(rng.choice(game.hand.legal_ids()))
    assert snapshot(clone) == cloned


@settings(max_examples=examples(50))
@given(playable_rules(), SEEDS)
def test_position_strings_round_trip(rules, seed) -> None:
    rng = random.Random(seed)
    game = Game(rules, seed)
    steps = 0
    while not game.is_over() and steps < 150:
        text = game.position()
        assert Game.from_position(text).position() == text
        for seat in range(rules.seats):
            view = game.view(seat)
            assert parse_view_position(view_position(view)) == view
        game.apply(rng.choice(game.hand.legal_ids()))
        steps += 1
    assert Game.from_position(game.position()).position() == game.position()


@settings(max_examples=examples(200))
@given(playable_rules(), SEEDS, st.data())
def test_a_view_ignores_tiles_hidden_from_its_seat(rules, seed, data) -> None:
    hand, actions = random_hand(rules, seed)
    cut = data.draw(st.integers(0, len(actions)), label="actions replayed")
    seat = data.draw(st.integers(0, rules.seats - 1), label="seat")
    a, b = data.draw(st.permutations([s for s in range(rules.seats) if s != seat]))[:2]
    first = Hand(rules, hand.shaker, hand.deal, hand.widow)
    for action in actions[:cut]:
        first.apply(action)
    held_a, held_b = first.hands[a] & hand.deal[a], first.hands[b] & hand.deal[b]
    if not held_a or not held_b:
        return
    x = data.draw(st.sampled_from(tiles_of(held_a)), label="tile from a")
    y = data.draw(st.sampled_from(tiles_of(held_b)), label="tile from b")
    deal = list(hand.deal)
    deal[a] ^= 1 << x | 1 << y
    deal[b] ^= 1 << x | 1 << y
    one, other = (
        Hand(rules, hand.shaker, hand.deal, hand.widow),
        Hand(rules, hand.shaker, deal, hand.widow),
    )
    if one.first_bidder != other.first_bidder:
        return  # under holder-1-0 the first call shows who holds the 1-0
    assert one.view(seat) == other.view(seat)
    for action in actions[:cut]:
        if not other.is_legal(action):
            return
        one.apply(action)
        other.apply(action)
        view = one.view(seat)
        assert view == other.view(seat)
        assert view_position(view) == view_position(other.view(seat))


@settings(max_examples=examples(60))
@given(playable_rules(), SEEDS)
def test_illegal_actions_change_nothing(rules, seed) -> None:
    hand, actions = random_hand(rules, seed)
    rng = random.Random(seed ^ 0x42)
    replay = Hand(rules, hand.shaker, hand.deal, hand.widow)
    for action in actions + [None]:
        mask = replay.legal_mask()
        text = hand_position(replay)
        for aid in range(NUM_ACTIONS):
            legal = bool(mask >> aid & 1)
            assert replay.is_legal(aid) == legal
            reason = replay.why_illegal(aid)
            assert (reason is None) == legal
            assert legal or reason
        illegal = [aid for aid in range(NUM_ACTIONS) if not mask >> aid & 1]
        for aid in rng.sample(illegal, min(5, len(illegal))) + [NUM_ACTIONS, -1, 10**6]:
            try:
                replay.apply(aid)
            except IllegalActionError:
                pass
            else:
                raise AssertionError(f"action {aid} was taken though illegal")
            assert hand_position(replay) == text and replay.legal_mask() == mask
        if action is not None:
            replay.apply(action)
    assert hand_position(replay) == hand_position(hand)
    assert replay.legal_mask() == 0 and hand.phase == Phase.DONE
    layout = layout_of(rules)
    assert sum(m.bit_count() for m in hand.deal) == layout.dealt
    assert mask_of_all([*hand.deal, hand.widow, hand.set_aside]) == layout.tiles


@settings(max_examples=examples(60))
@given(playable_rules(), SEEDS)
def test_views_agree_with_the_hand(rules, seed) -> None:
    rng = random.Random(seed)
    hand = Hand.random(rules, rng.randrange(rules.seats), rng)
    while True:
        for seat in range(rules.seats):
            view = hand.view(seat)
            assert view.hand == hand.hands[seat] and view.phase == hand.phase
            assert view.turn == hand.seat_to_act() and view.trump == hand.trump_description()
            assert view.tricks_won == hand.tricks_won
            assert view.points == (None if hand.tricks_hidden else hand.points)
            assert view.tiles_left == tuple(m.bit_count() for m in hand.hands)
            assert [t.winner for t in view.tricks] == [t.winner for t in hand.tricks]
            if seat == hand.seat_to_act():
                assert list(view.legal) == hand.legal_actions()
            else:
                assert view.legal == ()
        if hand.is_over:
            break
        hand.apply(rng.choice(hand.legal_ids()))
