"""Every bot of ours says why (issue 19, item 5): its reason comes out of the same computation
as its action, the whole words are told from the numbers it chose on, and the public words are
a function of what every seat saw, so they never name a tile the other seats cannot see."""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import STANDARD, replayed
from texas42 import Hand, Pass, Play, Rules
from texas42.core.actions import Action, Bid
from texas42.core.contracts import tables_for
from texas42.core.notation import view_position
from texas42.core.progress import Phase
from texas42.core.tiles import tiles_of
from texas42.core.view import View
from texas42.core.words import percent
from texas42.players import RandomBot, RulesBot, make_bot
from texas42.players.explain import PublicFacts, public_reason, public_words, unseen
from texas42.players.pimc import PimcBot, PimcSettings
from texas42.players.reasons import Decision, Explaining, decide

TINY = "pimc:samples=4,value_samples=2,bid_samples=4"
TINY_EXPERT = "expert:samples=4,value_samples=2,bid_samples=4"
TILE = re.compile(r"\b[0-6]-[0-6]\b")


def _views(spec: str, seed: int, rules: Rules = STANDARD) -> list[tuple[View, Decision, Action]]:
    """One hand played by four ``spec`` bots through `decide`, each decision with what a fresh
    bot of the same seed chooses for the same view."""
    bots = [make_bot(spec, seed=s) for s in range(rules.layout.seats)]
    twins = [make_bot(spec, seed=s) for s in range(rules.layout.seats)]
    hand = Hand.random(rules, seed % rules.layout.seats, random.Random(f"reasons:{seed}"))
    found = []
    while hand.result is None:
        seat = hand.turn
        view = hand.view(seat)
        decision = decide(bots[seat], view)
        found.append((view, decision, twins[seat].choose(view)))
        hand.apply(decision.action)
    return found


@pytest.mark.parametrize("spec", ["random", "rules", "easy", TINY, TINY_EXPERT])
def test_every_bot_explains_the_action_it_chooses(spec: str) -> None:
    assert isinstance(make_bot(spec), Explaining)
    for seed in range(1 if spec.startswith(("pimc", "expert")) else 3):
        for view, decision, chosen in _views(spec, seed):
            assert decision.action == chosen
            assert decision.action in view.legal
            assert decision.reason.public == public_reason(view, decision.action)
            assert decision.reason.text
            assert "gave no reason" not in decision.reason.text


@pytest.mark.parametrize("spec", ["random", "rules", "easy", TINY, TINY_EXPERT])
def test_public_words_name_no_tile_but_the_one_played(spec: str) -> None:
    for seed in range(1, 2) if spec.startswith(("pimc", "expert")) else range(3, 8):
        for view, decision, _ in _views(spec, seed):
            played = {decision.action.notation} if isinstance(decision.action, Play) else set()
            public_tiles = set(TILE.findall(decision.reason.public))
            assert public_tiles <= played, (decision.reason.public, view.hand)


def _swapped(hand: Hand, seat: int, rng: random.Random) -> Hand | None:
    """The same history from a deal in which ``seat`` traded an unplayed tile with another seat:
    every other seat saw the same table."""
    others = [s for s in range(4) if s != seat and hand.hands[s]]
    if not hand.hands[seat] or not others:
        return None
    other = rng.choice(others)
    x = rng.choice(tiles_of(hand.hands[seat]))
    y = rng.choice(tiles_of(hand.hands[other]))
    deal = list(hand.deal)
    deal[seat] ^= 1 << x | 1 << y
    deal[other] ^= 1 << x | 1 << y
    return replayed(hand, tuple(deal))


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 40))
def test_public_words_are_the_same_when_only_hidden_tiles_change(seed: int, stop: int) -> None:
    rng = random.Random(seed)
    hand = Hand.random(STANDARD, seed % 4, rng)
    model = RulesBot()
    for _ in range(stop):
        if hand.result is not None:
            return
        hand.apply(model.choose(hand.view(hand.turn)))
    if hand.result is not None:
        return
    seat = hand.turn
    world = _swapped(hand, seat, rng)
    if world is None:
        return
    mine, theirs = hand.view(seat), world.view(seat)
    assert mine.hand != theirs.hand
    assert PublicFacts.of(mine) == PublicFacts.of(theirs)
    for action in set(mine.legal) & set(theirs.legal):
        assert public_words(PublicFacts.of(mine), action) == public_reason(theirs, action)


def test_a_play_reason_tells_the_chances_it_was_chosen_on() -> None:
    rules = STANDARD
    hand = Hand.random(rules, 0, random.Random(11))
    model = RulesBot()
    while hand.phase != Phase.PLAY or len(hand.view(hand.turn).legal) < 3:
        hand.apply(model.choose(hand.view(hand.turn)))
    view = hand.view(hand.turn)
    bot = PimcBot(PimcSettings(samples=6, value_samples=6), seed=3)
    decision = bot.explain(view)
    assert isinstance(decision.action, Play)
    rng = random.Random(f"3:{view_position(view)}")
    estimates, worlds = PimcBot(PimcSettings(samples=6, value_samples=6), seed=3).estimates(
        view, rng
    )
    assert view.bidder is not None
    defending = not view.layout.same_side(view.seat, view.bidder)
    chance = estimates[decision.action.tile].make
    said = percent(1 - chance if defending else chance)
    verb = "sets" if defending else "makes"
    assert f"{verb} in {said} of {len(worlds)} deals" in decision.reason.text
    assert decision.reason.text.startswith(decision.reason.public)


def test_a_call_reason_tells_the_chance_and_marks_against_a_pass() -> None:
    hand = Hand.random(STANDARD, 3, random.Random(5))
    view = hand.view(hand.turn)
    bot = PimcBot(PimcSettings(bid_samples=6), seed=1)
    decision = bot.explain(view)
    chances = bot.contract_chances(view)
    pass_value = bot.pass_value(view)
    shown = decision.action
    if not isinstance(shown, Bid):
        bids = [a for a in view.legal if isinstance(a, Bid)]
        shown = max(bids, key=lambda b: (bot.call_value(chances, b, view)[1], -b.id))
    chance, marks = bot.call_value(chances, shown, view)
    text = decision.reason.text
    assert f"{shown.notation} makes in {percent(chance)} of 6 deals" in text
    assert f"{marks:+.2f} marks expected against {pass_value + 0.0:+.2f} for a pass" in text
    assert "trump" in text and "count" in text


def test_rules_bot_names_the_rule_that_fired() -> None:
    # North opens 30, East passes: South, North's partner, never outbids its own side
    hand = Hand.random(STANDARD, 3, random.Random(2))
    hand.apply(Bid("30"))
    hand.apply(Pass())
    view = hand.view(2)
    decision = RulesBot().explain(view)
    assert decision.action == Pass()
    assert decision.reason.public == "passes (partner holds the bid)"
    assert decision.reason.text == (
        "passes (partner holds the bid): rule of thumb: never outbid partner"
    )


def test_the_last_seat_forced_to_bid_says_so() -> None:
    rules = Rules.parse("standard,all_pass=forced")
    hand = Hand.random(rules, 0, random.Random(4))
    for _ in range(3):
        hand.apply(Pass())
    view = hand.view(hand.turn)
    for bot in (RulesBot(), PimcBot(PimcSettings(bid_samples=4))):
        decision = bot.explain(view)
        assert decision.reason.public.endswith("(the last seat must bid when all pass)")


def test_easy_bot_says_when_it_slipped() -> None:
    slips = 0
    for seed in range(4):
        for view, decision, _ in _views("easy", seed):
            rules_choice = RulesBot().choose(view)
            if isinstance(rules_choice, Play) and decision.action != rules_choice:
                slips += 1
                assert "a beginner's slip" in decision.reason.text
    assert slips


def test_random_bot_says_it_chose_at_random_and_keeps_its_sequence() -> None:
    hand = Hand.random(STANDARD, 0, random.Random(1))
    view = hand.view(hand.turn)
    a, b = RandomBot(7), RandomBot(7)
    for _ in range(5):
        assert a.explain(view).action == b.choose(view)
    assert "chosen at random among" in RandomBot(7).explain(view).reason.text


def test_a_bot_without_explain_still_gets_a_reason() -> None:
    class Plain:
        name = "Plain"

        def choose(self, view: View) -> Action:
            return view.legal[0]

    hand = Hand.random(STANDARD, 0, random.Random(1))
    decision = decide(Plain(), hand.view(hand.turn))
    assert decision.reason.text == decision.reason.public
    assert "gave no reason" in decision.reason.text


def test_trumps_still_out_are_counted_from_the_seat_s_own_view() -> None:
    for view, decision, _ in _views("rules", 1):
        match = re.search(r"(\w+) trumps? (?:is|are) still out", decision.reason.text)
        if match is None or view.contract is None:
            continue
        first = PublicFacts.of(view).first_lead
        tables = tables_for(view.contract, view.rules, first_lead=first)
        count = (unseen(view) & tables.trump_mask).bit_count()
        words = ("no", "one", "two", "three", "four", "five", "six", "seven")
        assert match.group(1) == words[count]


def test_a_play_for_partner_s_trick_says_how_often_it_holds() -> None:
    found = 0
    for seed in range(6):
        for view, decision, _ in _views(TINY, seed):
            match = re.search(
                r"(partner's )?([0-6]-[0-6]) holds the trick in (\S+) of", decision.reason.text
            )
            if match is None:
                continue
            found += 1
            assert view.contract is not None and view.contract.kind != "nello"
            # the public words never carry the share: it is reckoned from the seat's deals
            assert "holds the trick" not in decision.reason.public
            if match.group(1):
                assert view.trick, "partner's tile is in the trick already"
        if found:
            break
    assert found
