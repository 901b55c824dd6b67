"""The search bots and the bot registry: legal choices only, nothing hidden read, deterministic,
and the PIMC parts doing what they say (simulation bids, inference weights, the endgame)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import (
    EX14_DEAL,
    contract_hand,
    deal_around,
    decision_point,
    endgame_hands,
    endgame_views,
    examples,
    hidden_swaps,
)
from texas42 import Bid, Declare, Hand, Phase, Play, Rules
from texas42.core.actions import DISCARD_BASE, Discard
from texas42.core.contracts import tables_for
from texas42.core.errors import Texas42Error
from texas42.core.layout import layout_of
from texas42.core.notation import hand_position, view_position
from texas42.core.tiles import tiles_of
from texas42.core.view import View
from texas42.players import BOT_NAMES, LEVELS, make_bot, parse_spec
from texas42.players.pimc import NO_LOSER_MARK_CHANCE, PimcBot, PimcSettings
from texas42.search.sampler import DealSampler

FAST = "pimc:samples=4,bid_samples=4,value_samples=2"
FAST_EXPERT = "expert:samples=4,bid_samples=4,value_samples=2,endgame_worlds=30"
FAST_PLAYS = FAST_EXPERT + ",play_inference=on"


@settings(max_examples=examples(25))
@given(
    seed=st.integers(0, 2**31),
    steps=st.integers(0, 30),
    preset=st.sampled_from(["standard", "house", "standard,game=points", "tournament"]),
    spec=st.sampled_from([FAST, FAST_EXPERT, FAST_PLAYS, "easy"]),
)
def test_bots_only_choose_legal_actions(seed: int, steps: int, preset: str, spec: str) -> None:
    hand = decision_point(Rules.parse(preset), seed, steps)
    seat = hand.seat_to_act()
    assert seat is not None
    bot = make_bot(spec, seed)
    action = bot.choose(hand.view(seat))
    assert hand.is_legal(action), (spec, hand_position(hand), action)


@pytest.mark.parametrize("spec", [FAST, FAST_EXPERT, FAST_PLAYS, "easy"])
def test_decisions_never_depend_on_hidden_tiles(spec: str) -> None:
    """Worlds that differ only in tiles the seat cannot see get the same choice, whichever is
    asked first and with the bot reused."""
    checked = 0
    for seed in range(12):
        hand = decision_point(Rules(), seed, 10 + seed)
        seat = hand.seat_to_act()
        assert seat is not None
        bot = make_bot(spec, 7)
        first = bot.choose(hand.view(seat))
        for world in hidden_swaps(hand, seat, random.Random(seed), 2):
            assert world.view(seat) == hand.view(seat)
            assert make_bot(spec, 7).choose(world.view(seat)) == first
            assert bot.choose(world.view(seat)) == first
            checked += 1
    assert checked >= 10


def test_the_information_set_endgame_never_depends_on_hidden_tiles() -> None:
    """In the endgame every deal that fits is searched: hands that differ only in tiles the seat
    cannot see give it the same view and the same choice, with play inference on too."""
    spec = "expert:samples=4,bid_samples=4,value_samples=2,play_inference=on,endgame_tiles=3"
    checked = 0
    for hand in endgame_hands(4, Rules(), most_worlds=120):
        seat = hand.turn
        first = make_bot(spec, 5).choose(hand.view(seat))
        for world in hidden_swaps(hand, seat, random.Random(seat), 2):
            assert world.view(seat) == hand.view(seat)
            assert make_bot(spec, 5).choose(world.view(seat)) == first
            checked += 1
    assert checked >= 4


def test_same_seed_same_game_different_seed_may_differ() -> None:
    hand = decision_point(Rules(), 3, 12)
    seat = hand.seat_to_act()
    assert seat is not None
    view = hand.view(seat)
    assert make_bot(FAST, 1).choose(view) == make_bot(FAST, 1).choose(view)


def test_registry_names_levels_and_options() -> None:
    assert BOT_NAMES == ("random", "rules", "pimc", "eq10", "expert@1", "expert")
    assert set(LEVELS) == {"easy", "medium", "hard", "expert"}
    for name in (*BOT_NAMES, *LEVELS):
        assert make_bot(name).name
    assert parse_spec(" PIMC : samples=8 , inference=on ") == (
        "pimc",
        {"samples": "8", "inference": "on"},
    )
    bot = make_bot("pimc:samples=8,inference=on,bidding=rules")
    assert isinstance(bot, PimcBot)
    assert bot.settings == PimcSettings(samples=8, inference=True, bidding="rules")
    expert = make_bot("expert")
    assert isinstance(expert, PimcBot)
    assert expert.settings == PimcSettings(
        inference=True, endgame=True, bid_samples=48, samples=48, opponent_makes=0.6
    )
    assert make_bot("pimc:time_limit=5").settings.time_limit == 5.0  # type: ignore[attr-defined]
    hard = make_bot("hard")
    assert isinstance(hard, PimcBot) and not hard.settings.inference


@pytest.mark.parametrize(
    "spec, words",
    [
        ("grandmaster", "no bot called 'grandmaster'"),
        ("rules:samples=3", "takes no options"),
        ("pimc:samples", "not key=value"),
        ("pimc:samples=0", "positive whole number"),
        ("pimc:samples=-2", "positive whole number"),
        ("pimc:bid_margin=two", "a whole number"),
        ("pimc:samples=\u00b2", "positive whole number"),
        ("pimc:bid_margin=-\u00b2", "a whole number"),
        ("pimc:depth=3", "no option 'depth'"),
        ("pimc:inference=maybe", "on or off"),
        ("pimc:bidding=psychic", "simulation or rules"),
        ("pimc:opponent_makes=1.5", "a chance from 0 to 1, not '1.5'"),
        ("pimc:no_loser_marks=most", "a chance from 0 to 1, not 'most'"),
        ("pimc:no_loser_marks=nan", "a chance from 0 to 1, not 'nan'"),
        ("pimc:opponent_makes=-0.1", "a chance from 0 to 1, not '-0.1'"),
        ("pimc:time_limit=-1", "a number of seconds, 0 or more, not '-1'"),
        ("pimc:time_limit=inf", "a number of seconds, 0 or more, not 'inf'"),
        ("easy:samples=2", "takes no options"),
    ],
)
def test_bad_specs_are_refused_with_the_reason(spec: str, words: str) -> None:
    with pytest.raises(Texas42Error, match=words):
        make_bot(spec)


@pytest.mark.parametrize("spec", ["engine", "engine:./mybot --fast", "Engine[movetime=50]:bot"])
def test_engine_specs_are_sent_to_the_services_layer(spec: str) -> None:
    with pytest.raises(Texas42Error, match="runs an outside program"):
        make_bot(spec)


def test_simulation_bids_a_cold_hand_and_passes_a_weak_one() -> None:
    """North's Ex 14 hand (top three sixes, 5-5, 3-3) makes 36 double dummy in every deal
    drawn, so it opens: 30, or 2 marks when nearly every deal gives it all 42; West's hand
    (6-0 5-1 5-0 4-1 4-0 3-0 2-1: no double, no six but the 6-0) passes."""
    bot = PimcBot(PimcSettings(bid_samples=8), seed=1)
    hand = Hand(Rules(), 3, EX14_DEAL)
    call = bot.choose(hand.view(0))
    assert call.notation in ("30", "2m")
    for word in ("30", "pass", "pass"):
        hand.apply(hand.parse_action(word))
    assert bot.choose(hand.view(3)).notation == "pass"
    chances = bot.contract_chances(hand.view(0))
    assert str(next(iter(chances))) == "sixes"
    assert all(v >= 36 for v, _ in chances[next(iter(chances))])


def test_bid_margin_may_be_negative_for_a_bolder_bidder() -> None:
    bot = make_bot("pimc:bid_margin=-3")
    assert isinstance(bot, PimcBot) and bot.settings.bid_margin == -3


def test_the_overcall_margin_lowers_a_bid_over_an_opponent_and_nothing_else() -> None:
    """The same hand at the same bid: over an opponent's 30 the margin takes two points off its
    expected total; over partner's, and as the opener, the chance is as without it."""
    plain = PimcBot(PimcSettings(bid_samples=8), seed=1)
    careful = PimcBot(PimcSettings(bid_samples=8, overcall_margin=2), seed=1)
    for calls, lower in ((["30"], True), (["pass"], False), (["30", "pass"], False)):
        hand = Hand(Rules(), 3, EX14_DEAL)
        for word in calls:
            hand.apply(hand.parse_action(word))
        seat = hand.seat_to_act()
        assert seat is not None
        view = hand.view(seat)
        chances = plain.contract_chances(view)
        contract = next(iter(chances))
        want = plain.point_chance(view, contract, chances[contract], 33)
        got = careful.point_chance(view, contract, chances[contract], 33)
        if lower:
            assert got < want
            assert got == pytest.approx(plain.point_chance(view, contract, chances[contract], 35))
        else:
            assert got == want


def test_mark_bids_need_a_hand_without_losers_not_just_double_dummy() -> None:
    """Double dummy giving all 42 in every deal is not enough for a mark bid: in play such a
    hand with a loser made 42 well under half the time. A sure hand is nearly certain."""
    from texas42.core.contracts import Contract, tables_for
    from texas42.core.tiles import parse_hand
    from texas42.players.rules_bot import estimate

    bot = PimcBot(PimcSettings(bid_samples=8), seed=1)
    sixes = Contract.parse("sixes")
    every_deal_all_42 = [(42, 1.0)] * 8
    sure = parse_hand("6-6 6-5 6-4 6-3 6-2 6-1 6-0")
    losers = parse_hand("6-6 6-5 6-4 5-5 3-3 2-1 1-0")
    rules = Rules()
    assert estimate(sure, tables_for(sixes, rules)).sure
    assert estimate(losers, tables_for(sixes, rules)).losers >= 1
    for holding, low, high in ((sure, 0.95, 1.0), (losers, 0.0, 0.5)):
        deal = deal_around(holding)
        view = Hand(rules, 3, deal).view(0)
        assert low <= bot.mark_chance(view, sixes, every_deal_all_42) <= high
    # no loser counted but not sure (6-5 is out): the setting, 0.73 unless told (fitted on
    # such bids in the arena's records); the yardsticks keep the 0.8 they were frozen with
    open_trump = parse_hand("6-6 6-4 6-3 6-2 6-1 5-5 4-4")
    value = estimate(open_trump, tables_for(sixes, rules))
    assert value.losers == 0 and not value.sure
    view = Hand(rules, 3, deal_around(open_trump)).view(0)
    assert bot.mark_chance(view, sixes, every_deal_all_42) == NO_LOSER_MARK_CHANCE == 0.73
    frozen = make_bot("expert@1")
    assert isinstance(frozen, PimcBot)
    assert frozen.mark_chance(view, sixes, every_deal_all_42) == 0.8


def test_simulation_declares_the_contract_most_likely_to_make() -> None:
    hand = Hand(Rules(), 3, EX14_DEAL)
    for word in ("34", "pass", "pass", "pass"):
        hand.apply(hand.parse_action(word))
    bot = PimcBot(PimcSettings(bid_samples=8), seed=2)
    named = bot.choose(hand.view(0))
    view = hand.view(0)
    chances = bot.contract_chances(view)
    score = {str(c): bot.contract_score(view, c, values, 34) for c, values in chances.items()}
    assert named.notation in score and score[named.notation] == max(score.values())
    assert score["sixes"][0] >= 0.5


def test_pimc_defender_and_bidder_play_to_the_contract() -> None:
    """In Ex 14 after 6-6 6-3 6-1 6-0 and 6-5 0-0, South must not waste 1-1 on North's trick:
    double dummy that costs 6 points, and every sampled deal agrees."""
    hand = contract_hand("sixes", EX14_DEAL, bid="34")
    for word in ["6-6", "6-3", "6-1", "6-0", "6-5", "0-0"]:
        hand.apply(hand.parse_action(word))
    bot = PimcBot(PimcSettings(samples=12), seed=3)
    choice = bot.choose(hand.view(2))
    assert isinstance(choice, Play) and choice.notation != "1-1"


def test_inference_weights_favour_deals_that_explain_the_bid() -> None:
    """East sees North bid 34 and name sixes: deals where North holds many sixes get more
    weight than deals where it holds few."""
    hand = contract_hand("sixes", EX14_DEAL, bid="34")
    view = hand.view(1)
    bot = PimcBot(PimcSettings(samples=200, inference=True), seed=4)
    worlds = bot.worlds(view, 200, random.Random(4))
    from texas42.core.tiles import SUIT_MASKS

    def sixes(world_hands: tuple[int, int, int, int]) -> int:
        return (world_hands[0] & SUIT_MASKS[6]).bit_count()

    heavy = [w for world, w in worlds if sixes(world.hands) >= 4]
    light = [w for world, w in worlds if sixes(world.hands) <= 1]
    assert heavy and light
    assert min(heavy) > max(light)
    assert abs(sum(w for _, w in worlds) - 1.0) < 1e-9


def test_endgame_solves_every_deal_that_fits() -> None:
    hand = contract_hand("sixes", EX14_DEAL, bid="34", rules=Rules.parse("standard,game=points"))
    for word in [
        "6-6",
        "6-3",
        "6-1",
        "6-0",
        "6-5",
        "0-0",
        "1-1",
        "2-1",
        "5-5",
        "5-4",
        "5-2",
        "5-1",
        "3-3",
        "3-1",
        "4-3",
        "3-0",
        "6-4",
    ]:
        hand.apply(hand.parse_action(word))
    assert hand.phase == Phase.PLAY
    view = hand.view(1)
    every = DealSampler(view).worlds(1000)
    assert every is not None
    bot = PimcBot(PimcSettings(endgame=True, endgame_worlds=1000), seed=5)
    worlds = bot.worlds(view, 3, random.Random(5))
    assert sorted(w.hands for w, _ in worlds) == sorted(w.hands for w in every)


def test_play_inference_favours_deals_in_which_the_plays_were_rulesbots() -> None:
    """Three seats play like RulesBot and East plays at random. From East's seat the true deal
    explains every other seat's play (no disagreement), while other deals that fit the view do
    not, so with ``play_inference`` the true deal outweighs them; East's own random plays count
    for nothing."""
    from texas42.players.pimc import _disagreements, _weigher
    from texas42.players.rules_bot import RulesBot

    rng = random.Random(8)
    hand = Hand.random(Rules(), 0, rng)
    model = RulesBot()
    while hand.phase != Phase.PLAY or len(hand.plays) < 13:
        seat = hand.turn
        if hand.phase == Phase.PLAY and seat == 1:
            hand.apply(rng.choice(hand.legal_actions()))
        else:
            hand.apply(model.choose(hand.view(seat)))
    view = hand.view(1)
    sequence = list(hand.plays)
    assert _disagreements(view, hand.deal, sequence) == 0
    worlds = DealSampler(view).samples(40, random.Random(9))
    counts = [_disagreements(view, _dealt(view, w.hands), sequence) for w in worlds]
    assert max(counts) > 0
    with_plays, without = _weigher(view, plays=True), _weigher(view, plays=False)
    for world, count in zip(worlds, counts):
        assert with_plays(world) == pytest.approx(without(world) * 0.5**count)


def _dealt(view: View, hands: tuple[int, ...]) -> tuple[int, ...]:
    """Each seat's dealt tiles in a world: what it holds now plus what it played."""
    played = [0, 0, 0, 0]
    for trick in view.tricks:
        for s, t in zip(trick.seats, trick.tiles or ()):
            played[s] |= 1 << t
    for s, t in view.trick:
        played[s] |= 1 << t
    return tuple(h | p for h, p in zip(hands, played))


@pytest.mark.parametrize("call", ["plunge", "splash"])
def test_simulation_weighs_plunge_and_splash_by_their_chance(
    call: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A plunge or splash is called when its marks times (2 * chance - 1) beats every other
    call, and not otherwise; its chance comes from deals in which partner names trump."""
    from texas42.core.tiles import parse_hand

    deal = deal_around(parse_hand("6-6 5-5 4-4 1-1 5-0 3-1 2-0"))
    view = Hand(Rules.parse(f"standard,{call}=true"), 3, deal).view(0)
    bot = PimcBot(PimcSettings(bid_samples=8), seed=1)
    chance = bot.special_chance(view, Bid(call))
    assert 0.0 < chance < 0.5
    assert bot.choose(view).notation != call
    monkeypatch.setattr(PimcBot, "special_chance", lambda self, view, bid: 0.95)
    assert bot.choose(view).notation == call


def _fused_and_per_deal(view: View, t: int) -> tuple[float, float]:
    """The seat's mean score after tile ``t``: with one plan for every deal (the search), and
    with a plan per deal (double dummy, what PIMC assumes)."""
    from texas42.players.endgame import InformationSetSearch
    from texas42.search.solver import PlayPosition, Solver

    worlds = DealSampler(view).worlds(2000)
    assert worlds is not None
    positions = [PlayPosition.from_view(view, w.hands, w.hidden) for w in worlds]
    search = InformationSetSearch(view.seat, [1.0] * len(positions), Solver())
    children = [(i, p.play(t)) for i, p in enumerate(positions)]
    fused = float(search.best_plan(children).score.sum()) / len(positions)
    per_deal = sum(float(search._solved([(i, c)]).score[i]) for i, c in children)
    return fused, per_deal / len(positions)


def test_information_set_endgame_never_beats_solving_each_deal_and_sometimes_falls_short() -> None:
    """One plan for every deal can do no better than a plan per deal, and in some positions it
    does worse: those are the positions where PIMC's per-deal plans fuse strategies the seat
    cannot follow."""
    strictly_worse = 0
    views = endgame_views(8, Rules.parse("standard,game=points"))
    assert len(views) == 8
    for view in views:
        for action in view.legal:
            assert isinstance(action, Play)
            fused, per_deal = _fused_and_per_deal(view, action.tile)
            assert fused <= per_deal + 1e-9
            strictly_worse += fused < per_deal - 1e-9
    assert strictly_worse > 0


@pytest.mark.parametrize(
    "position, tile, best, greedy",
    [
        # East, partner of West's 2-mark bid: after 1-1 the best plan scores -27.80 a deal; a
        # search keeping one plan per node (the plan best over every deal reaching it, even deals
        # an opponent would steer elsewhere) found only -28.30
        (
            (
                "standard,hide_tricks=never 0-0 1 2 ?/65.53.43.32.21.11.10/?/? 3:38.1m.pass.2m threes "
                "44.42.54.10.30.61.33.53.63.43.31.51.55.65.40.64.66 1 @1"
            ),
            "1-1",
            -27.80,
            -28.30,
        ),
        # North defending East's 36 at follow-me: after 1-0 the best plan scores 25.25, not 25.0
        (
            (
                "standard,hide_tricks=never 0-0 1 0 64.63.51.44.32.22.10/?/?/? 1:31.32.34.36 follow-me:own "
                "51.65.53.54.42.66.40.64.63.55.60.62.22.33.00.43.52.61.30 0 @0"
            ),
            "1-0",
            25.25,
            25.0,
        ),
    ],
)
def test_information_set_endgame_finds_the_best_plan_not_just_a_good_one(
    position: str, tile: str, best: float, greedy: float
) -> None:
    """Alpha-mu keeps every plan not beaten in every deal (a Pareto front), since which deals
    reach a later decision depends on the opponents' choices, which depend on the plan."""
    from texas42.core.notation import parse_view_position
    from texas42.core.tiles import parse_tile

    fused, per_deal = _fused_and_per_deal(parse_view_position(position), parse_tile(tile))
    assert fused == pytest.approx(best, abs=0.005)
    assert greedy < fused <= per_deal


def test_expert_uses_the_information_set_search_in_a_marks_endgame(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from texas42.players import endgame

    calls = []
    original = endgame.InformationSetSearch.estimates

    def spy(self, positions):  # type: ignore[no-untyped-def]
        calls.append(len(positions))
        return original(self, positions)

    monkeypatch.setattr(endgame.InformationSetSearch, "estimates", spy)
    (view,) = endgame_views(1, Rules(), most_worlds=30)
    bot = make_bot(FAST_EXPERT + ",endgame_tiles=3", seed=3)
    action = bot.choose(view)
    assert action in view.legal and calls
    calls.clear()
    make_bot(FAST_EXPERT + ",endgame_tiles=2", seed=3).choose(view)
    assert not calls


def test_a_standing_plunge_counts_its_marks_when_valuing_a_splash_over_it() -> None:
    """Under jump timing a splash over a four-mark plunge costs five marks, so the bidder must
    see the plunge as 4 marks (168 on the one scale), not as a bid of 0 points."""
    from texas42.core.actions import SPLASH_ID
    from texas42.core.auction import special_bid_marks
    from texas42.core.tiles import parse_hand
    from texas42.players.pimc import _standing_bid

    plunger = parse_hand("6-6 5-5 4-4 3-3 6-0 5-0 4-0")
    deal = deal_around(plunger, parse_hand("2-2 1-1 0-0 6-5 5-4 4-3 3-2"))
    rules = Rules.parse("standard,plunge=true,splash=true,plunge_timing=jump")
    hand = Hand(rules, 3, deal)
    hand.apply(Bid("plunge"))
    view = hand.view(1)
    assert Bid("splash") in view.legal
    assert _standing_bid(view) == 168
    assert special_bid_marks(rules, SPLASH_ID, _standing_bid(view)) == 5


# -- every table size ------------------------------------------------------------------------------

TABLES = ["three-hand", "moon", "five-hand", "six-hand", "six-hand,teams=threes", "seven-hand"]


def _replay(hand: Hand, deal: tuple[int, ...], widow: int) -> Hand | None:
    """The same calls, discards, contract and plays on another deal, or None where illegal."""
    try:
        world = Hand(hand.rules, hand.shaker, deal, widow)
    except Texas42Error:
        return None
    actions: list[int] = list(hand.calls) + [DISCARD_BASE + t for t in hand.discards]
    if hand.contract is not None:
        actions.append(Declare(hand.contract).id)
    actions.extend(hand.plays)
    for aid in actions:
        if not world.legal_mask() >> aid & 1:
            return None
        world.apply(aid)
    return world


@pytest.mark.parametrize("preset", TABLES)
@pytest.mark.parametrize("spec", [FAST, FAST_EXPERT])
def test_a_whole_hand_at_every_table_is_played_legally(preset: str, spec: str) -> None:
    rules = Rules.parse(preset)
    hand = Hand.random(rules, 1, random.Random(preset))
    bots = [make_bot(spec, seat) for seat in range(rules.seats)]
    while hand.result is None:
        seat = hand.seat_to_act()
        assert seat is not None
        action = bots[seat].choose(hand.view(seat))
        assert hand.is_legal(action), (preset, hand_position(hand), action)
        hand.apply(action)
    assert len(hand.result.score) == hand.layout.sides


@pytest.mark.parametrize("preset", TABLES)
def test_choices_at_every_table_never_depend_on_hidden_tiles(preset: str) -> None:
    """Moving a tile the seat cannot see (between two other hands, or into the tiles set aside
    or the widow) leaves its view and its choice unchanged."""
    rules = Rules.parse(preset)
    checked = 0
    for seed in range(6):
        rng = random.Random(seed)
        hand = Hand.random(rules, seed % rules.seats, rng)
        for _ in range(rng.randrange(rules.seats, 4 * rules.seats)):
            if hand.result is not None:
                break
            hand.apply(rng.choice(hand.legal_actions()))
        if hand.result is not None:
            hand.undo()
        seat = hand.seat_to_act()
        assert seat is not None
        first = make_bot(FAST_EXPERT, 3).choose(hand.view(seat))
        others = [s for s in range(rules.seats) if s != seat and hand.hands[s]]
        for _ in range(8):
            a = rng.choice(others)
            x = rng.choice(tiles_of(hand.hands[a]))
            deal, widow = list(hand.deal), hand.widow
            hidden = hand.set_aside | (widow if hand.declarer is None else 0)
            if hidden and rng.random() < 0.5:
                y = rng.choice(tiles_of(hidden))
                if widow >> y & 1:
                    widow ^= 1 << x | 1 << y
            else:
                b = rng.choice([s for s in others if s != a] or [a])
                y = rng.choice(tiles_of(hand.hands[b]))
                deal[b] ^= 1 << x | 1 << y
            deal[a] ^= 1 << x | 1 << y
            world = _replay(hand, tuple(deal), widow)
            if world is None or world.view(seat) != hand.view(seat):
                continue
            assert make_bot(FAST_EXPERT, 3).choose(world.view(seat)) == first
            checked += 1
    assert checked >= 6


def test_the_widow_taker_lays_down_a_tile_off_the_trump_it_names() -> None:
    """Moon: after winning the auction the bot holds eight tiles and lays down one of them, not
    a trump of the contract it then names."""
    rules = Rules.parse("moon")
    bot = make_bot(FAST, 1)
    found = 0
    for seed in range(30):
        hand = Hand.random(rules, seed % 3, random.Random(seed))
        while hand.phase == Phase.AUCTION:
            hand.apply(bot.choose(hand.view(hand.turn)))
        if hand.phase != Phase.DISCARD:
            continue
        view = hand.view(hand.turn)
        assert view.hand.bit_count() == 8 and view.widow
        discard = bot.choose(view)
        hand.apply(discard)
        declare = bot.choose(hand.view(hand.turn))
        assert isinstance(declare, Declare)
        tables = tables_for(declare.contract, rules)
        assert isinstance(discard, Discard)
        assert not tables.trump_mask >> discard.tile & 1 or not view.hand & ~tables.trump_mask
        found += 1
        if found == 3:
            break
    assert found == 3


# -- every table size --------------------------------------------------------------------------

TABLE_PRESETS = (
    "two-hand",
    "three-hand",
    "moon",
    "five-hand",
    "six-hand",
    "six-hand,teams=threes",
    "seven-hand",
)
TINY_HARD = "pimc:samples=2,bid_samples=2,value_samples=1"


@pytest.mark.parametrize("preset", TABLE_PRESETS)
def test_hard_bots_with_tiny_budgets_play_whole_hands_legally(preset: str) -> None:
    rules = Rules.parse(preset)
    layout = layout_of(rules)
    for number in range(2):
        hand = Hand.random(rules, number % layout.seats, random.Random(number))
        bots = [make_bot(TINY_HARD, seed=10 * number + s) for s in range(layout.seats)]
        while (seat := hand.seat_to_act()) is not None:
            view = hand.view(seat, (0,) * layout.sides)
            action = bots[seat].choose(view)
            assert action in view.legal, (preset, number, view_position(view), action)
            hand.apply(action)
        assert hand.result is not None and len(hand.result.score) == layout.sides
