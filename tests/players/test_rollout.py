"""Calls valued by rolling the rest of the auction out (`texas42.players.rollout`): the last seat's
figures are exact, a reshake leaves the score's equity, the rollouts are deterministic for a
seed, and the expert that bids by them plays whole games legally and says why."""

from __future__ import annotations

import dataclasses
import random

import pytest

from texas42 import Hand, Phase, Rules
from texas42.core.actions import PASS_ID, Bid, Pass
from texas42.core.game import Game
from texas42.players import make_bot
from texas42.players.learned import BidderModel, hand_bid_chance, load_model, match_equity
from texas42.players.pimc import PimcBot, PimcSettings
from texas42.players.rollout import call_equities, rollout_applies
from texas42.search.sampler import DealSampler, World

ROLLOUT = PimcSettings.expert().with_options({"auction": "rollout"})


@pytest.fixture(scope="module")
def model() -> BidderModel:
    found = load_model()
    assert found is not None and rollout_applies_to_standard(found)
    return found


def rollout_applies_to_standard(model: BidderModel) -> bool:
    hand = Hand.random(Rules(), 0, random.Random(0))
    return rollout_applies(hand.view(hand.first_bidder), model)


def _last_seat(rules: Rules, seed: int, calls: list[str]) -> Hand:
    """A hand whose first three calls are ``calls``: the fourth seat is to call."""
    hand = Hand.random(rules, seed % 4, random.Random(seed))
    for call in calls:
        hand.apply(Pass() if call == "pass" else Bid(call))
    return hand


def _worlds(hand: Hand, seat: int, n: int = 6) -> list[tuple[World, float]]:
    worlds = DealSampler(hand.view(seat)).samples(n, random.Random(1))
    return [(w, 1 / n) for w in worlds]


def test_the_last_seat_passing_leaves_the_high_bidder_its_learned_chance(
    model: BidderModel,
) -> None:
    rules = Rules()
    hand = _last_seat(rules, 3, ["31", "pass", "pass"])
    seat = hand.seat_to_act()
    assert seat is not None
    view = hand.view(seat)
    worlds = _worlds(hand, seat)
    bidder = hand.first_bidder  # an opponent of the last seat
    me = match_equity(rules.winning_target, model.shares)
    expected = 0.0
    for world, weight in worlds:
        chance = hand_bid_chance(model, world.hands[bidder], rules, Bid("31").id)
        expected += weight * (chance * me.after(0, 0, -1) + (1 - chance) * me.after(0, 0, 1))
    (passing,) = call_equities(view, [PASS_ID], lambda aid: 0.0, worlds, model, random.Random(2))
    assert passing.equity == pytest.approx(expected)
    assert passing.stands == 0.0
    assert passing.marks < 1.0


def test_the_last_seat_bid_always_stands_at_its_own_chance(model: BidderModel) -> None:
    rules = Rules()
    hand = _last_seat(rules, 5, ["pass", "30", "pass"])
    seat = hand.seat_to_act()
    assert seat is not None
    worlds = _worlds(hand, seat)
    (bid,) = call_equities(
        hand.view(seat),
        [Bid("32").id],
        lambda aid: 0.75,
        worlds,
        model,
        random.Random(2),
    )
    me = match_equity(rules.winning_target, model.shares)
    assert bid.stands == pytest.approx(1.0)
    assert bid.equity == pytest.approx(0.75 * me.after(0, 0, 1) + 0.25 * me.after(0, 0, -1))
    assert bid.marks == pytest.approx(0.5)


def test_a_reshake_after_four_passes_leaves_the_score_as_it_is(model: BidderModel) -> None:
    rules = dataclasses.replace(Rules(), all_pass="reshake")
    hand = _last_seat(rules, 7, ["pass", "pass", "pass"])
    seat = hand.seat_to_act()
    assert seat is not None
    view = hand.view(seat)
    (passing,) = call_equities(
        view,
        [PASS_ID],
        lambda aid: 0.0,
        _worlds(hand, seat),
        model,
        random.Random(2),
    )
    assert passing.equity == pytest.approx(match_equity(7, model.shares)(0, 0))
    assert passing.marks == 0.0


def test_rollouts_follow_the_seed_and_judge_every_call_on_the_same_draws(
    model: BidderModel,
) -> None:
    hand = Hand.random(Rules(), 0, random.Random(11))
    seat = hand.seat_to_act()
    assert seat is not None
    view = hand.view(seat)
    worlds = _worlds(hand, seat, 8)
    calls = [PASS_ID, Bid("30").id, Bid("34").id]
    first = call_equities(view, calls, lambda aid: 0.6, worlds, model, random.Random(4))
    again = call_equities(view, calls, lambda aid: 0.6, worlds, model, random.Random(4))
    assert first == again
    for outlook in first:
        assert 0.0 <= outlook.equity <= 1.0 and 0.0 <= outlook.stands <= 1.0
    # the first seat's pass never stands; a bid stands unless a later seat outbids it
    assert first[0].stands == 0.0 and first[1].stands > 0.0
    # 34 leaves the later seats fewer bids than 30: it is outbid no more often
    assert first[2].stands >= first[1].stands


def test_the_rolled_out_expert_plays_whole_games_legally_and_says_why() -> None:
    """Standard and house rules (Nel-O, plunge, splash, Sevens): every call is legal, and a bid's
    reason gives its chance of standing and the equity it leaves against a pass's."""
    said: list[str] = []
    for rules, seed in ((Rules(), 2), (Rules.preset("house"), 3)):
        game = Game(dataclasses.replace(rules, target=2), seed)
        bots = [PimcBot(ROLLOUT, seed * 4 + s) for s in range(4)]
        while not game.is_over():
            seat = game.seat_to_act()
            assert seat is not None
            view = game.view(seat)
            if view.phase == Phase.AUCTION:
                decision = bots[seat].explain(view)
                assert decision.action in view.legal
                said.append(decision.reason.text)
                game.apply(decision.action)
            else:
                game.apply(bots[seat].choose(view))
    rolled = [words for words in said if "to win the game after it" in words]
    assert rolled, said
    assert any("outbid" in words for words in rolled), rolled


def test_the_expert_at_other_tables_keeps_its_fixed_pass_value() -> None:
    """Three seats: no model of the calls was learned there, so the rollout does not apply and
    the bot bids as before, in expected marks."""
    rules = Rules.preset("three-hand")
    hand = Hand.random(rules, 0, random.Random(1))
    seat = hand.seat_to_act()
    assert seat is not None
    view = hand.view(seat)
    assert not rollout_applies(view, load_model())
    bot = make_bot("expert:auction=rollout", 1)
    assert bot.choose(view) == make_bot("expert:auction=fixed", 1).choose(view)
