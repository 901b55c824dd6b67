"""Hints rank every legal action of the seat from its view alone."""

from __future__ import annotations

import random
from typing import Any

import pytest

from helpers import EX14_DEAL, contract_hand, hidden_swaps
from texas42 import Hand, Phase, Rules
from texas42.core.errors import IllegalActionError
from texas42.core.notation import view_position
from texas42.players.hints import hints
from texas42.players.pimc import stands_chance


def test_play_hints_cover_every_legal_tile_best_first() -> None:
    """Ex 14: South must not drop 1-1 on North's trick; it is ranked last."""
    hand = contract_hand("sixes", EX14_DEAL, bid="34")
    for word in ["6-6", "6-3", "6-1", "6-0", "6-5", "0-0"]:
        hand.apply(hand.parse_action(word))
    found = hints(hand.view(2), samples=12)
    assert {h.action for h in found} == set(hand.view(2).legal)
    assert found[-1].action.notation == "1-1"
    assert all(h.chance is not None and 0.0 <= h.chance <= 1.0 for h in found)
    chances = [h.chance for h in found]
    assert chances == sorted(chances, reverse=True)  # type: ignore[type-var]


def test_call_and_declaration_hints() -> None:
    hand = Hand(Rules(), 3, EX14_DEAL)
    calls = hints(hand.view(0), samples=8)
    assert {h.action for h in calls} == set(hand.view(0).legal)
    by_name = {h.action.notation: h for h in calls}
    assert by_name["30"].chance is not None and by_name["30"].chance > 0.8
    assert by_name["30"].marks == pytest.approx(2 * by_name["30"].chance - 1)
    assert by_name["31"].chance is not None and by_name["31"].chance < by_name["30"].chance
    assert by_name["pass"].marks == 0.0
    # a point bid also says its chance should it stand: seat 0 opens, so above the chance
    # the call is chosen on; a mark bid and a pass say none
    assert by_name["30"].if_stands == stands_chance(by_name["30"].chance, False, 0)
    assert by_name["30"].if_stands > by_name["30"].chance
    assert by_name["2m"].if_stands is None and by_name["pass"].if_stands is None
    marks = [h.marks for h in calls]
    assert marks == sorted(marks, reverse=True)  # type: ignore[type-var]
    for word in ("34", "pass", "pass", "pass"):
        hand.apply(hand.parse_action(word))
    contracts = hints(hand.view(0), samples=8)
    assert {h.action for h in contracts} == set(hand.view(0).legal)
    assert contracts[0].chance is not None and contracts[0].chance >= 0.5
    assert contracts[0].to_dict()["action"] in ("sixes", "doubles")


def test_a_splash_hint_carries_its_chance_and_marks() -> None:
    """EX14's North holds three doubles: under the house rules a splash (2 marks) is legal and
    hinted with a chance and expected marks like any bid (a plunge needs four)."""
    view = Hand(Rules.parse("house"), 3, EX14_DEAL).view(0)
    by_name = {h.action.notation: h for h in hints(view, samples=8)}
    assert "plunge" not in by_name
    for name, marks in (("splash", 2),):
        hint = by_name[name]
        assert hint.chance is not None and 0.0 <= hint.chance <= 1.0
        assert hint.marks == pytest.approx(marks * (2 * hint.chance - 1))


def test_hints_see_only_the_view() -> None:
    rng = random.Random(5)
    hand = contract_hand("fives", EX14_DEAL, bid="31")
    for word in ["5-5", "5-4", "5-3"]:
        hand.apply(hand.parse_action(word))
    seat = hand.seat_to_act()
    assert seat is not None
    expected = hints(hand.view(seat), samples=6, seed=3)
    worlds = hidden_swaps(hand, seat, rng, 3)
    assert worlds
    for world in worlds:
        assert hints(world.view(seat), samples=6, seed=3) == expected


def test_no_hint_when_it_is_not_the_seats_turn() -> None:
    hand = Hand(Rules(), 3, EX14_DEAL)
    with pytest.raises(IllegalActionError):
        hints(hand.view(2))


def test_a_defenders_chance_is_the_chance_to_set() -> None:
    """East defends North's 34 in sixes: its hint gives the share of deals in which the bid is
    set, the complement of the bot's own chance that it is made."""
    from texas42.players.pimc import PimcBot, PimcSettings

    hand = contract_hand("sixes", EX14_DEAL, bid="34")
    for word in ["6-6", "6-3", "6-1", "6-0", "6-5"]:
        hand.apply(hand.parse_action(word))
    view = hand.view(1)
    found = hints(view, samples=8, seed=2)
    bot = PimcBot(
        PimcSettings.expert().with_options(
            {"samples": "8", "bid_samples": "8", "value_samples": "8"}
        ),
        2,
    )
    estimates = bot.play_estimates(
        view, bot.worlds(view, 8, random.Random(f"2:{view_position(view)}"))
    )
    for h in found:
        assert h.chance == pytest.approx(1.0 - estimates[h.action.tile].make)  # type: ignore[attr-defined]


@pytest.mark.parametrize("preset", ["three-hand", "moon", "six-hand,teams=threes"])
def test_hints_at_other_tables_rank_every_legal_action(preset: str) -> None:
    """Away from four seats a defender's chance is still the chance to set, for its side."""
    rules = Rules.parse(preset)
    rng = random.Random(preset)
    hand = Hand.random(rules, 0, rng)
    while hand.phase != Phase.PLAY or len(hand.legal_actions()) < 2:
        if hand.result is not None:
            hand = Hand.random(rules, 0, rng)
        hand.apply(rng.choice(hand.legal_actions()))
    seat = hand.turn
    found = hints(hand.view(seat), samples=4)
    assert sorted(h.action.id for h in found) == sorted(a.id for a in hand.legal_actions())
    for hint in found:
        assert hint.chance is not None and 0.0 <= hint.chance <= 1.0
        assert hint.points is not None and 0 <= hint.points <= hand.layout.total


def _played_positions(count: int) -> list[Any]:
    """Views of the seat to act, from bot games part played, under standard and house rules."""
    from texas42.players import make_bot

    found = []
    rng = random.Random(5)
    for preset in ("standard", "house"):
        for _ in range(count):
            hand = Hand.random(Rules.parse(preset), rng.randrange(4), rng)
            bot = make_bot("rules", seed=1)
            stop = rng.randrange(4, 24)
            while hand.phase != Phase.DONE and stop:
                seat = hand.seat_to_act()
                assert seat is not None
                hand.apply(bot.choose(hand.view(seat)))
                stop -= hand.phase == Phase.PLAY
            seat = hand.seat_to_act()
            if seat is not None:
                found.append(hand.view(seat))
    return found


def test_advice_is_the_experts_choice_and_reason_with_the_hints_it_was_judged_on() -> None:
    """The expert with the hints' settings chooses and explains exactly what `advise` says, and
    a play's ranking is the one `play_hints` makes by judging the estimates on its own."""
    from texas42.players.hints import PimcBot, PimcSettings, advise, play_hints

    options = {"samples": "6", "bid_samples": "6", "value_samples": "6"}
    for view in _played_positions(4):
        advice = advise(view, samples=6, seed=3)
        bot = PimcBot(PimcSettings.expert().with_options(options), 3)
        decision = bot.explain(view)
        assert (advice.choice, advice.reason) == (decision.action, decision.reason)
        assert advice.reason.text
        assert advice.hints == hints(view, samples=6, seed=3)
        if view.phase == Phase.PLAY:
            assert advice.hints == play_hints(PimcBot(bot.settings, 3), view)
