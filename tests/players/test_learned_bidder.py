"""The learned bidder: its chances are probabilities that never rise with the bid, its model
round-trips through its file, and the bot's calls and contracts are legal wherever it acts."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from bidder_fixture import write_run
from texas42 import Hand, Phase, Rules
from texas42.core.actions import Bid, Declare, Pass, Play
from texas42.core.errors import Texas42Error
from texas42.players import make_bot
from texas42.players.learned import (
    LEVELS,
    BidderModel,
    LearnedBidder,
    contract_features,
    load_model,
)
from texas42.players.pimc import PimcBot, PimcSettings
from texas42.players.rules_bot import candidate_contracts
from texas42.services.bidder import train


@pytest.fixture(scope="module")
def model_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("learned")
    run = write_run(root / "run", games=24)
    out = root / "bidder.npz"
    train([run], out, seed=5)
    return out


@pytest.fixture(scope="module")
def bidder(model_file: Path) -> LearnedBidder:
    return LearnedBidder(BidderModel.read(model_file))


def _auction_views(rules: Rules, n: int, seed: int) -> list:  # type: ignore[type-arg]
    """Views at every call of ``n`` auctions played by RulesBot."""
    rng = random.Random(seed)
    views = []
    bot = make_bot("rules")
    for k in range(n):
        hand = Hand.random(rules, k % 4, rng)
        while hand.phase == Phase.AUCTION:
            seat = hand.seat_to_act()
            assert seat is not None
            views.append(hand.view(seat))
            hand.apply(bot.choose(hand.view(seat)))
    return views


def test_chances_are_probabilities_that_never_rise_with_the_bid(bidder: LearnedBidder) -> None:
    rng = random.Random(3)
    model = bidder.model
    assert model is not None
    for rules in (Rules(), Rules.preset("house")):
        for _ in range(40):
            hand = Hand.random(rules, 0, rng).deal[rng.randrange(4)]
            for contract in candidate_contracts(rules, hand):
                if contract.kind in ("nello", "sevens"):
                    chance = model.special_chance(contract.kind, hand, rules)
                    assert chance is not None and 0.0 <= chance <= 1.0
                    continue
                chances = model.trump_chances(hand, rules, contract)
                assert chances.shape == (len(LEVELS),)
                assert np.all((chances >= 0) & (chances <= 1))
                assert np.all(np.diff(chances) <= 1e-12)


def test_a_stronger_hand_gets_a_better_chance(bidder: LearnedBidder) -> None:
    """Six trumps with the double against a hand of one low trump, same contract."""
    from helpers import tiles

    rules = Rules()
    sixes = Declare("sixes").contract
    model = bidder.model
    assert model is not None
    strong = model.trump_chances(tiles("6-6 6-5 6-4 6-3 6-2 6-1 5-5"), rules, sixes)
    weak = model.trump_chances(tiles("6-0 5-1 4-2 3-1 2-0 1-0 4-3"), rules, sixes)
    assert np.all(strong > weak)


def test_the_model_round_trips_through_its_file(model_file: Path, tmp_path: Path) -> None:
    model = BidderModel.read(model_file)
    again = load_model(str(model_file))
    assert again is not None
    rules = Rules()
    hand = Hand.random(rules, 0, random.Random(9)).deal[1]
    for contract in candidate_contracts(rules, hand):
        if contract.kind == "suit":
            assert np.array_equal(
                model.trump_chances(hand, rules, contract),
                again.trump_chances(hand, rules, contract),
            )
    assert model.meta["seed"] == 5 and model.meta["format"] == "texas42-bidder/1"
    assert set(model.parts) >= {"trump", "pass", "call"}
    broken = tmp_path / "broken.npz"
    broken.write_bytes(b"not a model")
    with pytest.raises(Texas42Error, match="cannot read the bidder model"):
        BidderModel.read(broken)
    no_meta = tmp_path / "empty.npz"
    np.savez(no_meta, x=np.zeros(2))
    with pytest.raises(Texas42Error, match="not a bidder model"):
        BidderModel.read(no_meta)


@pytest.mark.parametrize("preset", ["standard", "house", "tournament"])
def test_the_learned_calls_and_contracts_are_legal(bidder: LearnedBidder, preset: str) -> None:
    rules = Rules.preset(preset)
    bot = PimcBot(PimcSettings(bidding="learned", declaring="learned", samples=2, bid_samples=2))
    bot.learned = bidder
    rng = random.Random(preset)
    for k in range(12):
        hand = Hand.random(rules, k % 4, rng)
        while hand.phase in (Phase.AUCTION, Phase.DECLARE):
            seat = hand.seat_to_act()
            assert seat is not None
            view = hand.view(seat)
            action = bot.choose(view)
            assert action in view.legal
            chance = bidder.make_chance(view, action)
            if isinstance(action, Pass):
                assert chance is None
            elif view.phase == Phase.AUCTION or isinstance(action, Declare):
                assert chance is None or 0.0 <= chance <= 1.0
            hand.apply(action)


def test_values_follow_the_equity_and_a_pass_is_valued_by_its_learned_outcomes(
    bidder: LearnedBidder,
) -> None:
    for view in _auction_views(Rules(), 6, seed=2):
        values = bidder.call_values(view)
        assert {v.action for v in values} == set(view.legal)
        for value in values:
            assert 0.0 <= value.equity <= 1.0
            if isinstance(value.action, Bid):
                assert value.chance is not None
                me = bidder.equity(view)
                side = view.layout.side_of[view.seat]
                ours, theirs = view.score[side], view.score[1 - side]
                expected = value.chance * me.after(ours, theirs, value.marks) + (
                    1 - value.chance
                ) * me.after(ours, theirs, -value.marks)
                assert value.equity == pytest.approx(expected)
        best = max(values, key=lambda v: v.equity)
        assert bidder.call(view).id in {
            v.action.id for v in values if v.equity >= best.equity - 1e-12
        }


def test_the_score_changes_what_a_call_is_worth(bidder: LearnedBidder) -> None:
    """At 6-6 a made point bid wins the game and a set loses it: its equity is its chance."""
    from dataclasses import replace

    view = _auction_views(Rules(), 1, seed=4)[0]
    late = replace(view, score=(6, 6))
    for value in bidder.call_values(late):
        if isinstance(value.action, Bid) and not value.action.marks and value.chance is not None:
            assert value.equity == pytest.approx(value.chance)


def test_the_model_speaks_only_for_the_table_it_learned_and_falls_back_elsewhere(
    bidder: LearnedBidder,
) -> None:
    moon = _auction_views(Rules.preset("moon"), 1, seed=1)[0]
    points = _auction_views(Rules().replace(game="points"), 1, seed=1)[0]
    assert not bidder.applies(moon) and not bidder.applies(points)
    assert bidder.make_chance(points, points.legal[0]) is None
    bot = PimcBot(PimcSettings(bidding="learned", samples=2, bid_samples=2))
    bot.learned = bidder
    assert bot.choose(points) in points.legal  # simulation decides
    hand = Hand.random(Rules(), 0, random.Random(1))
    view = hand.view(hand.seat_to_act() or 0)
    assert bidder.make_chance(view, Play(view.hand.bit_length() - 1)) is None


def test_learned_is_a_choice_of_the_pimc_options() -> None:
    bot = make_bot("pimc:bidding=learned,declaring=learned,call_model=on")
    assert isinstance(bot, PimcBot)
    assert bot.settings.bidding == "learned" and bot.settings.call_model
    with pytest.raises(Texas42Error, match="simulation or rules or learned"):
        make_bot("pimc:bidding=guess")


def test_features_are_cheap_lookups_of_fixed_length() -> None:
    rules = Rules()
    hand = Hand.random(rules, 0, random.Random(2)).deal[0]
    lengths = {len(contract_features(hand, rules, c)) for c in candidate_contracts(rules, hand)}
    assert len(lengths) == 1


def test_a_spec_names_the_model_file_and_a_bad_one_is_refused(
    model_file: Path, tmp_path: Path
) -> None:
    bot = make_bot(f"pimc:bidding=learned,bidder_model={model_file}")
    assert isinstance(bot, PimcBot) and bot.learned is not None
    assert bot.learned.model is not None and bot.learned.model.meta["seed"] == 5
    with pytest.raises(Texas42Error, match="cannot read the bidder model"):
        make_bot(f"pimc:call_model=on,bidder_model={tmp_path / 'none.npz'}")


def test_a_learned_decision_gives_its_reason_from_its_numbers(bidder: LearnedBidder) -> None:
    bot = PimcBot(PimcSettings(bidding="learned", declaring="learned", samples=2, bid_samples=2))
    bot.learned = bidder
    seen_bid = seen_declare = False
    rng = random.Random(8)
    for k in range(8):
        hand = Hand.random(Rules(), k % 4, rng)
        while hand.phase in (Phase.AUCTION, Phase.DECLARE):
            seat = hand.seat_to_act()
            assert seat is not None
            view = hand.view(seat)
            decision = bot.explain(view)
            assert decision.action is bot.choose(view)
            text, public = decision.reason.text, decision.reason.public
            assert text.startswith(public)
            if isinstance(decision.action, Bid) and len(view.legal) > 1:
                seen_bid = True
                chance = bidder.make_chance(view, decision.action)
                assert chance is not None and f"{round(100 * chance)}% of the time" in text
                assert bot.make_chance(view, decision.action) == chance
                assert "to win the game after it" in text
            if isinstance(decision.action, Declare):
                seen_declare = True
                assert "of the time with such tiles in self-play" in text
                assert "self-play" not in public  # the others see only the news
            hand.apply(decision.action)
    assert seen_bid and seen_declare
