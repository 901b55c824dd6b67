"""Laying down: a seat on lead claims the rest of the hand (`Hand.claim`), judged exactly."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import STANDARD, E, N, S, W, contract_hand, examples, play, playable_rules, tiles
from texas42 import Game, Hand, Rules
from texas42.core.errors import IllegalActionError
from texas42.core.notation import hand_position, parse_view_position, view_position
from texas42.core.progress import Phase
from texas42.core.record import BROKEN, Record, RecordError, check_record, record_from_game
from texas42.core.tiles import count_points, mask_of, tiles_of
from texas42.core.view import Claim, HiddenTrick
from texas42.core.words import claim_line, claim_outcome

HOUSE = Rules.preset("house")

# North holds every trump: a claim on the first lead in sixes holds
HOLD_DEAL = (
    tiles("6-6 6-5 6-4 6-3 6-2 6-1 6-0"),
    tiles("5-5 5-4 5-3 5-2 5-1 5-0 4-4"),
    tiles("4-3 4-2 4-1 4-0 3-3 3-2 3-1"),
    tiles("3-0 2-2 2-1 2-0 1-1 1-0 0-0"),
)
# North's 1-0 is the last tile it can lead, and East keeps the 1-1 to take it
FAIL_DEAL = (
    tiles("6-6 6-5 6-4 6-3 6-2 6-1 1-0"),
    tiles("6-0 1-1 5-5 5-4 5-3 5-2 5-1"),
    tiles("5-0 4-4 4-3 4-2 4-1 4-0 3-3"),
    tiles("3-2 3-1 3-0 2-2 2-1 2-0 0-0"),
)
# Nel-O: South (sitting out) holds every double; North's tiles are each the lowest of a suit
# that East or West must follow, so North can be made to take no trick...
NELLO_HOLD = (
    tiles("1-0 2-0 3-0 4-0 5-0 6-0 2-1"),
    tiles("3-1 4-1 5-1 6-1 3-2 4-2 5-2"),
    tiles("6-6 5-5 4-4 3-3 2-2 1-1 0-0"),
    tiles("6-2 4-3 5-3 6-3 5-4 6-4 6-5"),
)
# ...but with the 6-5, North must at last take a six led under it
NELLO_FAIL = (
    tiles("1-0 2-0 3-0 4-0 5-0 6-0 6-5"),
    tiles("2-1 3-1 4-1 5-1 6-1 3-2 4-2"),
    tiles("6-6 5-5 4-4 3-3 2-2 1-1 0-0"),
    tiles("5-2 6-2 4-3 5-3 6-3 5-4 6-4"),
)


def test_a_claim_that_holds_ends_the_hand_scored_as_played_out() -> None:
    hand = contract_hand("sixes", HOLD_DEAL)
    claim = hand.claim(N)
    assert claim == Claim(N, HOLD_DEAL[N], True, 42)
    assert hand.is_over and hand.seat_to_act() is None
    result = hand.result
    assert result is not None and result.made is True and result.score == (1, 0)
    assert result.points == (42, 0) and hand.tricks_won == (7, 0)
    assert (result.claimant, result.claimed, result.tricks) == (N, 7, 0)


def test_a_claim_after_some_tricks_credits_only_the_rest() -> None:
    hand = contract_hand("sixes", HOLD_DEAL)
    play(hand, "6-6 5-5 4-3 3-0  6-5 5-4 4-2 2-2")
    assert hand.claim(N).holds
    assert hand.result is not None and hand.result.points == (42, 0)
    assert hand.tricks_won == (7, 0) and (hand.result.tricks, hand.result.claimed) == (2, 5)


def test_a_claim_that_fails_plays_on_with_the_hand_face_up() -> None:
    hand = contract_hand("sixes", FAIL_DEAL)
    before = hand_position(hand)
    claim = hand.claim(N)
    assert claim == Claim(N, FAIL_DEAL[N], False, 0)
    assert not hand.is_over and hand.seat_to_act() == N and hand.points == (0, 0)
    assert hand.face_up == (FAIL_DEAL[N], 0, 0, 0)
    for seat in range(4):
        view = hand.view(seat)
        assert view.face_up == (FAIL_DEAL[N], 0, 0, 0)
        assert Claim(N, FAIL_DEAL[N], False) in view.events
        assert parse_view_position(view_position(view)) == view
    assert hand_position(hand) == before.replace(" - 0", " c 0")
    play(hand, "6-6 6-0 5-0 3-2")
    assert hand.face_up[N] == FAIL_DEAL[N] & ~tiles("6-6")
    assert all(hand.view(s).face_up[N] == hand.face_up[N] for s in range(4))
    # the claimant may claim again as the position changes; here it still fails
    assert hand.claim(N).holds is False


def test_every_other_tile_stays_hidden_after_a_claim() -> None:
    """East's view is the same whichever of South and West holds the tiles they swap: the
    claim shows North's hand and nothing else."""
    swapped = list(HOLD_DEAL)
    x, y = tiles("4-3"), tiles("3-0")
    swapped[S] ^= x | y
    swapped[W] ^= x | y
    one, other = contract_hand("sixes", HOLD_DEAL), contract_hand("sixes", tuple(swapped))
    one.claim(N)
    other.claim(N)
    assert one.view(E) == other.view(E)
    assert view_position(one.view(E)) == view_position(other.view(E))


def test_a_face_up_hand_shows_its_tiles_in_face_down_piles() -> None:
    hand = contract_hand("sixes", FAIL_DEAL, bid="2m")
    assert hand.tricks_hidden
    hand.claim(N)
    play(hand, "6-6 6-0 5-0 3-2")
    for seat in range(4):
        view = hand.view(seat)
        trick = view.events[-1]
        assert isinstance(trick, HiddenTrick) and trick.shown == tiles("6-6")
        assert view.tricks[0].tiles is None and view.face_up[N] == hand.hands[N]
        assert parse_view_position(view_position(view)) == view
    assert "^66" in view_position(hand.view(E)) and "c0-" in view_position(hand.view(E))


def test_a_false_claim_counts_as_set_under_the_house_rule() -> None:
    rules = STANDARD.replace(false_claim="set")
    hand = contract_hand("sixes", FAIL_DEAL, rules=rules)
    claim = hand.claim(N)
    assert not claim.holds and hand.is_over and claim.points == 42
    assert hand.result is not None and hand.result.made is False
    assert hand.result.score == (0, 1) and hand.result.points == (0, 42)
    for seat in range(4):
        assert hand.view(seat).turn is None and hand.view(seat).tricks_won == (0, 7)


def test_a_defenders_false_claim_makes_the_bid_under_the_house_rule() -> None:
    rules = STANDARD.replace(false_claim="set")
    hand = contract_hand("sixes", FAIL_DEAL, rules=rules)
    play(hand, "1-0 1-1 4-1 3-1")  # East takes the 1-0 and leads
    assert hand.seat_to_act() == E
    assert not hand.claim(E).holds
    assert hand.result is not None and hand.result.made is True
    assert hand.result.score == (1, 0) and hand.tricks_won == (6, 1)


def test_a_defenders_claim_that_holds_sets_the_bid() -> None:
    # East holds every trump of North's sixes, trumps North's 0-0 lead, and claims the rest
    deal = (HOLD_DEAL[W], HOLD_DEAL[N], HOLD_DEAL[E], HOLD_DEAL[S])
    hand = contract_hand("sixes", deal)
    play(hand, "0-0 6-0 5-0 4-0")
    assert hand.seat_to_act() == E
    assert hand.claim(E).holds
    assert hand.result is not None and hand.result.made is False
    assert hand.result.score == (0, 1) and hand.result.points == (0, 42)
    assert hand.tricks_won == (0, 7) and hand.result.claimant == E


def test_nello_bidder_claims_to_take_none_of_the_rest() -> None:
    hand = contract_hand("nello", NELLO_HOLD, bid="2m", rules=HOUSE)
    assert hand.out_seat == S
    claim = hand.claim(N)
    assert claim.holds and hand.result is not None
    assert hand.result.made is True and hand.result.score == (2, 0)
    assert hand.tricks_won == (0, 7) and hand.result.claimed == 7
    # South's doubles are never played: the 5-5's count is no one's
    assert hand.result.points == (0, 42 - 10)


def test_nello_claim_that_fails() -> None:
    hand = contract_hand("nello", NELLO_FAIL, bid="2m", rules=HOUSE)
    assert hand.claim(N).holds is False
    assert not hand.is_over and hand.face_up[N] == NELLO_FAIL[N]


def test_only_the_nello_bidder_may_claim() -> None:
    hand = contract_hand("nello", NELLO_HOLD, bid="2m", rules=HOUSE)
    play(hand, "1-0 3-1 6-2")  # East takes it and leads
    assert hand.seat_to_act() == E
    assert hand.why_claim_illegal(E) == (
        "in Nel-O only the bidder may lay down, to take none of the rest"
    )


def test_who_may_claim_and_why_not() -> None:
    hand = Hand(STANDARD, 3, HOLD_DEAL)
    assert hand.why_claim_illegal(N) == (
        "a hand is laid down during the play, by the seat to lead a trick"
    )
    hand = contract_hand("sixes", HOLD_DEAL)
    assert hand.can_claim(N) and not hand.can_claim(E)
    assert hand.why_claim_illegal(E) == "East may lay down only when leading; North leads"
    play(hand, "6-6")
    assert hand.why_claim_illegal(E) == (
        "East may lay down only when leading a trick, not in the middle of one"
    )
    assert hand.why_claim_illegal(7) == "a seat is 0..3, not 7"
    before = hand_position(hand)
    with pytest.raises(IllegalActionError, match="not in the middle"):
        hand.claim(E)
    assert hand_position(hand) == before
    off = contract_hand("sixes", HOLD_DEAL, rules=STANDARD.replace(claims=False))
    assert off.why_claim_illegal(N) == (
        "these rules do not allow laying down: every hand is played out"
    )
    assert "no laying down: every hand is played out" in STANDARD.replace(claims=False).describe()


def test_undo_takes_a_claim_back() -> None:
    for deal in (HOLD_DEAL, FAIL_DEAL):
        hand = contract_hand("sixes", deal)
        play(hand, "6-6 5-5 4-3 3-0" if deal is HOLD_DEAL else "6-6 6-0 5-0 3-2")
        before = (hand_position(hand), [hand.view(s) for s in range(4)], hand.legal_mask())
        copy = hand.copy()
        hand.claim(N)
        assert hand_position(copy) == before[0] and copy.claims == []
        hand.undo()
        assert (hand_position(hand), [hand.view(s) for s in range(4)], hand.legal_mask()) == before
        assert hand.result is None and hand.phase == Phase.PLAY and hand.face_up == (0,) * 4


def test_a_game_deals_the_next_hand_after_a_claim_and_undoes_across_it() -> None:
    game = Game(STANDARD, 5, first_shaker=3, deals=[HOLD_DEAL])
    for word in ("30", "pass", "pass", "pass", "sixes"):
        game.apply(game.parse_action(word))
    before = game.position()
    game.claim(N)
    assert game.score == (1, 0) and game.hand_number == 2 and game.hand.shaker == 0
    assert game.why_claim_illegal(N) is not None  # the new hand is in its auction
    again = Game.from_position(before)
    again.claim(N)
    assert again.score == (1, 0)
    game.undo()
    assert game.position() == before and game.hand_number == 1


def test_position_strings_carry_claims() -> None:
    hand = contract_hand("sixes", FAIL_DEAL)
    hand.claim(N)
    play(hand, "6-6 6-0 5-0 3-2")
    game = Game.from_position(hand_position(hand))
    assert game.position() == hand_position(hand) and game.hand.face_up == hand.face_up


def test_a_record_writes_claims_and_check_replays_them() -> None:
    game = Game(STANDARD, 5, first_shaker=3, deals=[FAIL_DEAL, HOLD_DEAL])
    for word in ("30", "pass", "pass", "pass", "sixes"):
        game.apply(game.parse_action(word))
    game.claim(N)  # fails: play goes on
    for word in ["6-6", "6-0", "5-0", "3-2"]:
        game.apply(game.parse_action(word))
    game.claim(N)  # fails again
    while game.hand_number == 1:
        game.apply(game.legal_actions()[0])
    record = record_from_game(game)
    assert record.hands[0].claims == (0, 4)
    text = record.to_json()
    assert '"claims": [' in text
    again = Record.from_json(text)
    assert again == record
    report = check_record(again)
    assert report.results[0] == game.results[0]
    old = Record.from_json(text.replace('"claims"', '"unused"'))
    assert old.hands[0].claims == () and check_record(old).results[0] == game.results[0]


def test_check_reports_a_claim_that_ended_the_hand() -> None:
    game = Game(STANDARD, 5, first_shaker=3, deals=[HOLD_DEAL])
    for word in ("30", "pass", "pass", "pass", "sixes"):
        game.apply(game.parse_action(word))
    game.claim(N)
    report = check_record(Record.from_json(record_from_game(game).to_json()))
    first = report.to_dict()["hands"][0]
    assert first["claimant"] == N and first["claimed"] == 7 and first["made"] is True


def test_a_record_with_a_claim_out_of_turn_breaks_a_rule() -> None:
    game = Game(STANDARD, 5, first_shaker=3, deals=[FAIL_DEAL])
    for word in ("30", "pass", "pass", "pass", "sixes", "6-6", "6-0"):
        game.apply(game.parse_action(word))
    obj = record_from_game(game).to_dict()
    obj["hands"][0]["claims"] = [1]
    with pytest.raises(RecordError) as caught:
        check_record(Record.from_dict(obj))
    assert caught.value.status == BROKEN and caught.value.field == "claims"
    assert "not in the middle" in str(caught.value)


def test_the_words_of_a_claim() -> None:
    names = ["Ann", "Bob", "Cat", "Dan"]
    hand = contract_hand("sixes", FAIL_DEAL)
    claim = hand.claim(N)
    assert claim_line("Ann", claim.tiles) == (
        "Ann laid the hand down and claimed the rest: 6-6 6-5 6-4 6-3 6-2 6-1 1-0"
    )
    assert claim_outcome(hand.view(E), claim, names) == (
        "Ann's claim failed: play goes on with that hand face up"
    )
    hand = contract_hand("sixes", HOLD_DEAL)
    play(hand, "6-6 5-5 4-3 3-0  6-5 5-4 4-2 2-2  6-4 5-3 4-1 2-1  6-3 5-2 4-0 2-0")
    claim = hand.claim(N)
    assert claim_outcome(hand.view(E), claim, names) == (
        "Ann's claim held: North-South took the last 3 tricks"
    )
    assert claim_outcome(hand.view(N), claim, ["You", *names[1:]]) == (
        "Your claim held: North-South took the last 3 tricks"
    )
    hand = contract_hand("nello", NELLO_HOLD, bid="2m", rules=HOUSE)
    claim = hand.claim(N)
    assert claim_outcome(hand.view(W), claim, names) == (
        "Ann's claim held: Ann took none of the last 7 tricks"
    )
    hand = contract_hand("sixes", FAIL_DEAL, rules=STANDARD.replace(false_claim="set"))
    claim = hand.claim(N)
    assert claim_outcome(hand.view(W), claim, names) == (
        "Ann's claim failed and counts as lost: North-South went set"
    )


PRESETS = ("standard", "house", "tournament", "two-hand", "six-hand", "three-hand", "moon")


def test_the_verdict_agrees_with_the_exact_solver() -> None:
    """Over seeded random positions: a claim by the bid winner's side holds iff the solver
    gives that side every remaining point; a defender's claim at a table of two sides iff it
    gives the bidders none (a trick is worth at least a point); Nel-O iff the bidder can be
    held to no trick."""
    solver_module = pytest.importorskip("texas42.search.solver")
    rng = random.Random(42)
    checked = held = 0
    while checked < 80:
        rules = Rules.preset(rng.choice(PRESETS))
        hand = Hand.random(rules, rng.randrange(rules.seats), rng)
        while hand.phase not in (Phase.PLAY, Phase.DONE):
            hand.apply(rng.choice(hand.legal_ids()))
        lead_at = rng.randrange(rules.layout.tricks)
        while not hand.is_over and (len(hand.tricks) < lead_at or hand.trick):
            hand.apply(rng.choice(hand.legal_ids()))
        if hand.is_over or not hand.can_claim(hand.turn):
            continue
        seat = hand.turn
        position = solver_module.PlayPosition.from_hand(hand)
        value = solver_module.Solver(table_bits=12).value(position)
        holds = hand.copy().claim(seat).holds
        layout = rules.layout
        assert hand.contract is not None and hand.high_seat is not None
        if hand.contract.kind == "nello":
            assert holds == (value == 0)
        elif layout.same_side(seat, hand.high_seat):
            assert holds == (value == position.remaining_bound())
        elif layout.sides == 2:
            assert holds == (value == 0)
        elif holds:
            assert value == 0
        checked += 1
        held += holds
    assert 5 <= held < checked  # both verdicts were tested


def test_the_sampler_deals_a_face_up_hand_to_its_seat() -> None:
    from texas42.search.sampler import DealSampler

    hand = contract_hand("sixes", FAIL_DEAL)
    hand.claim(N)
    play(hand, "6-6 6-0 5-0 3-2")
    sampler = DealSampler(hand.view(E))
    rng = random.Random(3)
    for world in sampler.samples(20, rng):
        assert world.hands[N] == hand.hands[N]


# -- properties under random rules ----------------------------------------------------------------


def each_view(game: Game) -> list[object]:
    return [game.view(seat) for seat in range(game.rules.seats)]


@settings(max_examples=examples(40), deadline=None)
@given(playable_rules(), st.integers(0, 2**32 - 1))
def test_claims_keep_every_invariant_under_random_rules(rules: Rules, seed: int) -> None:
    """Random games in which the seat on lead claims now and then: views agree with the hand
    and round-trip, a hand a claim ends accounts for every trick and every point in play, undo
    takes a claim back exactly, and records and positions carry the claims."""
    rng = random.Random(seed ^ 7)
    game = Game(rules, seed)
    layout = rules.layout
    claims = 0
    while not game.is_over() and len(game.hands) <= 40:
        seat = game.seat_to_act()
        if seat is None or not game.can_claim(seat) or rng.random() >= 0.3:
            ids = game.hand.legal_ids()
            if rules.bids == "tricks" and game.hand.phase == Phase.AUCTION:
                ids = ids[:2]  # random Moon bids are set for ever: bid low
            game.apply(rng.choice(ids))
            continue
        before = (game.position(), each_view(game))
        hand = game.hand
        held = hand.hands[seat]
        claim = game.claim(seat)
        claims += 1
        assert claim.tiles == held
        for s in range(layout.seats):
            view = hand.view(s)
            assert view.face_up[seat] == hand.hands[seat]
            assert view.tricks_won == hand.tricks_won
            assert view.points == (None if hand.tricks_hidden else hand.points)
            assert parse_view_position(view_position(view)) == view
        if hand.result is not None:
            assert hand.result.claimant == seat and sum(hand.tricks_won) == layout.tricks
            if layout.count:
                out = hand.hands[hand.out_seat] if hand.out_seat is not None else 0
                # only the tiles no one plays keep their count: set aside, discarded, Nel-O's
                unplayed = hand.set_aside | out | mask_of(hand.discards)
                assert sum(hand.points) == layout.total - count_points(unplayed)
        text = game.position()
        assert Game.from_position(text).position() == text
        after = (text, each_view(game))
        game.undo()
        assert (game.position(), each_view(game)) == before
        game.claim(seat)
        assert (game.position(), each_view(game)) == after
    record = record_from_game(game)
    again = Record.from_json(record.to_json())
    assert again == record
    report = check_record(again)
    assert list(report.results) == [h.summary() for h in game.hands]
    assert sum(len(h.claims) for h in game.hands) == claims


@settings(max_examples=examples(60), deadline=None)
@given(playable_rules(), st.integers(0, 2**32 - 1), st.data())
def test_a_view_after_claims_ignores_tiles_hidden_from_its_seat(
    rules: Rules, seed: int, data: st.DataObject
) -> None:
    """Two deals that differ by a swap between two seats whose hands the viewer cannot see (and
    that lay nothing down) give the viewer the same view at every step, claims included."""
    rng = random.Random(seed)
    hand = Hand.random(rules, rng.randrange(rules.seats), rng)
    steps: list[int | None] = []  # None: the seat on lead claims
    probe = hand.copy()
    while not probe.is_over:
        seat = probe.turn
        if probe.can_claim(seat) and rng.random() < 0.3:
            probe.claim(seat)
            steps.append(None)
        else:
            action = rng.choice(probe.legal_ids())
            probe.apply(action)
            steps.append(action)
    # the claimants' tiles are shown; a claim that ends the hand credits the count the tricks
    # left would have shown, so the Nel-O partner's count, never played, is what the rest is
    # not (as a hand played out tells it): neither may take part in the swap
    claimants = {claim.seat for _, claim in probe.claims}
    seat = data.draw(st.integers(0, rules.seats - 1), label="seat")
    excluded = claimants | {probe.out_seat}
    others = [s for s in range(rules.seats) if s != seat and s not in excluded]
    if len(others) < 2:
        return
    a, b = data.draw(st.permutations(others))[:2]
    x = data.draw(st.sampled_from(tiles_of(hand.deal[a])), label="tile from a")
    y = data.draw(st.sampled_from(tiles_of(hand.deal[b])), label="tile from b")
    deal = list(hand.deal)
    deal[a] ^= 1 << x | 1 << y
    deal[b] ^= 1 << x | 1 << y
    one = Hand(rules, hand.shaker, hand.deal, hand.widow)
    other = Hand(rules, hand.shaker, deal, hand.widow)
    if one.first_bidder != other.first_bidder:
        return
    for step in steps:
        if step is None:
            if one.claim(one.turn).holds != other.claim(other.turn).holds:
                return  # the swap changed the verdict, which every seat is told
        else:
            if not other.is_legal(step):
                return
            one.apply(step)
            other.apply(step)
        view = one.view(seat)
        assert view == other.view(seat)
        assert view_position(view) == view_position(other.view(seat))


def test_judging_a_claim_changes_nothing_and_a_claim_can_end_the_game() -> None:
    game = Game(STANDARD.replace(target=1), 5, first_shaker=3, deals=[HOLD_DEAL])
    for word in ("30", "pass", "pass", "pass", "sixes"):
        game.apply(game.parse_action(word))
    before = game.position()
    assert game.hand.judge_claim(N) is True and game.position() == before
    with pytest.raises(IllegalActionError):
        game.hand.judge_claim(E)
    game.claim(N)
    outcome = game.outcome()
    assert outcome is not None and outcome.winner == 0 and len(game.hands) == 1
    assert game.why_claim_illegal(N) == "the game is over"
    with pytest.raises(IllegalActionError, match="the game is over"):
        game.claim(N)
    game.undo()
    assert game.position() == before and game.outcome() is None


def test_at_moon_a_claim_names_the_player_who_takes_the_rest() -> None:
    rules = Rules.preset("moon")
    rng = random.Random(11)
    names = ["Ann", "Bob", "Cat"]
    for _ in range(100):
        hand = Hand.random(rules, rng.randrange(3), rng)
        while not hand.is_over:
            if hand.phase == Phase.PLAY and hand.can_claim(hand.turn):
                seat, left = hand.turn, rules.layout.tricks - len(hand.tricks)
                copy = hand.copy()
                claim = copy.claim(seat)
                if claim.holds:
                    said = claim_outcome(copy.view(0), claim, names)
                    last = "the last trick" if left == 1 else f"the last {left} tricks"
                    assert said == f"{names[seat]}'s claim held: {names[seat]} took {last}"
                    assert copy.result is not None and copy.result.claimant == seat
                    return
            ids = hand.legal_ids()
            hand.apply(rng.choice(ids[:2] if hand.phase == Phase.AUCTION else ids))
    raise AssertionError("no claim held in 100 Moon hands")
