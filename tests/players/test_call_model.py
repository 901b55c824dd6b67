"""Inference from the calls, learned: a deal where a seat's tiles explain its call weighs more
than one where they do not, and the bot with the call model still plays legally."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bidder_fixture import write_run
from texas42 import Hand, Phase, Rules
from texas42.core.actions import Pass
from texas42.players import make_bot
from texas42.players.call_model import call_weigher
from texas42.players.learned import BidderModel, LearnedBidder, best_trump
from texas42.players.pimc import PimcBot, PimcSettings
from texas42.search.sampler import DealSampler, World


@pytest.fixture(scope="module")
def model(tmp_path_factory: pytest.TempPathFactory) -> BidderModel:
    root = tmp_path_factory.mktemp("calls")
    from texas42.services.bidder import train

    train([write_run(root / "run", games=30, seed=4)], root / "m.npz", seed=1)
    return BidderModel.read(root / "m.npz")


def _after_calls(seed: int) -> tuple[Hand, int, int, int]:
    """A hand whose auction RulesBot finished with one seat bidding (the bidder) and a later
    seat passing, the viewer a third seat; the bidder, the passer, the viewer."""
    rules = Rules()
    bot = make_bot("rules")
    rng = random.Random(seed)
    while True:
        hand = Hand.random(rules, 0, rng)
        calls = []
        while hand.phase == Phase.AUCTION:
            seat = hand.seat_to_act()
            assert seat is not None
            action = bot.choose(hand.view(seat))
            calls.append((seat, action))
            hand.apply(action)
        bidder = hand.high_seat
        passers = [s for s, a in calls if a is Pass() and s != bidder]
        if bidder is None or len(passers) < 2:
            continue
        return hand, bidder, passers[0], passers[1]


def test_deals_that_explain_the_calls_weigh_more(model: BidderModel) -> None:
    """Swapping the bidder's tiles with a passer's gives a deal that explains the auction
    worse: in most hands its weight falls."""
    lower = 0
    trials = 12
    for seed in range(trials):
        hand, bidder, passer, viewer = _after_calls(seed)
        view = hand.view(viewer)
        weigh = call_weigher(view, model=model)
        assert weigh is not None
        true = World(tuple(hand.hands), (), 0)
        swapped_hands = list(hand.hands)
        swapped_hands[bidder], swapped_hands[passer] = hand.hands[passer], hand.hands[bidder]
        if (
            best_trump(hand.hands[bidder], view.rules)[1].points
            <= best_trump(hand.hands[passer], view.rules)[1].points
        ):
            trials -= 1
            continue
        swapped = World(tuple(swapped_hands), (), 0)
        assert weigh(true) > 0 and weigh(swapped) > 0
        lower += weigh(swapped) < weigh(true)
    assert trials >= 6 and lower >= trials - 1


def test_the_weigher_multiplies_the_base_and_stays_out_where_it_cannot_speak(
    model: BidderModel,
) -> None:
    hand, _, _, viewer = _after_calls(1)
    view = hand.view(viewer)
    world = DealSampler(view).sample(random.Random(0))
    alone = call_weigher(view, model=model)
    doubled = call_weigher(view, lambda w: 2.0, model=model)
    assert alone is not None and doubled is not None
    assert doubled(world) == pytest.approx(2 * alone(world))
    fresh = Hand.random(Rules(), 0, random.Random(5))
    first = fresh.seat_to_act()
    assert first is not None
    base = lambda w: 1.0  # noqa: E731
    assert call_weigher(fresh.view(first), base, model=model) is base  # no calls yet
    moon = Hand.random(Rules.preset("moon"), 0, random.Random(5))
    assert call_weigher(moon.view(0), None, model=model) is None


def test_a_bot_with_the_call_model_plays_legally(
    model: BidderModel, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import texas42.players.call_model as call_model

    monkeypatch.setattr(call_model, "load_model", lambda path=None: model)
    bot = PimcBot(PimcSettings(call_model=True, inference=True, samples=3, value_samples=1))
    bot.learned = LearnedBidder(model)
    hand, _, _, _ = _after_calls(2)
    for _ in range(6):
        seat = hand.seat_to_act()
        assert seat is not None
        view = hand.view(seat)
        action = bot.choose(view)
        assert action in view.legal
        hand.apply(action)
