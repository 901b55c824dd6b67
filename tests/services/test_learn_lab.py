"""The hand laboratory's computation: its figures are the solver's, the review's and the
expert's on the same position, an edit changes them as the solver says, and a position shared
as text comes back exactly."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import parse_qs, urlencode, urlparse

import pytest

from texas42.core.actions import Bid, Declare, Play
from texas42.core.contracts import Contract
from texas42.core.errors import NotationError
from texas42.core.hand import Hand
from texas42.core.notation import hand_position, parse_deal, parse_hand_position
from texas42.core.record import Record
from texas42.core.tiles import tile_name
from texas42.players.pimc import PimcBot, PimcSettings
from texas42.players.review import review_record, solve_position
from texas42.search.solver import PlayPosition, Solver
from texas42.services.learn import lab

EXAMPLES = Path(__file__).parents[2] / "examples"
SAMPLES = 8
"""Few deals for the expert's chances: the figures are compared, not judged."""
DEAL = "standard 0-0 1 3 64.63.62.61.43.40.20/53.42.33.31.22.11.00/66.55.54.52.51.41.21/65.60.50.44.32.30.10 0:- - - 0"


def ex14() -> Record:
    return Record.from_json((EXAMPLES / "ex14-marks.json").read_text())


def test_a_random_deal_is_a_position_the_notation_reads_and_the_same_for_a_seed() -> None:
    first = lab.random_position(5)
    assert first == lab.random_position(5)
    assert first != lab.random_position(6)
    hand = lab.read_position(first)
    assert hand.phase.name == "AUCTION" and not hand.calls
    assert lab.write_position(hand) == first


def test_the_bid_figures_are_the_experts_chances_and_the_solvers_totals() -> None:
    hand = lab.read_position(DEAL)
    figures = lab.bid_figures(hand, 0, "31", seed=3, samples=SAMPLES)
    assert (figures.seat, figures.bid, figures.need, figures.samples) == (0, "31", 31, SAMPLES)
    bot = PimcBot(PimcSettings.expert().with_options({"bid_samples": str(SAMPLES)}), 3)
    opening = Hand(hand.rules, hand.shaker, hand.deal).view(0)
    chances = bot.contract_chances(opening)
    assert [c.contract for c in figures.contracts] == [str(c) for c in chances]
    solver = Solver()
    for entry in figures.contracts:
        contract = Contract.parse(entry.contract)
        share, mean = bot.contract_score(opening, contract, chances[contract], 31)
        assert (entry.chance, entry.expected) == (share, mean)
        trial = lab.bid_won(hand, 0, "31")
        trial.apply(Declare(contract))
        position = PlayPosition.from_hand(trial)
        assert (entry.total, entry.makes) == (solver.value(position), solver.makes(position))
        assert entry.makes == (entry.total is not None and entry.total >= 31)
    assert figures.chance == bot.call_value(chances, Bid("31"), opening)[0]


def test_the_figures_are_the_same_for_the_same_seed() -> None:
    hand = lab.read_position(DEAL)
    one = lab.analyse(hand, seed=1, samples=SAMPLES).to_dict()
    assert one == lab.analyse(lab.read_position(DEAL), seed=1, samples=SAMPLES).to_dict()
    assert one["position"] == DEAL
    assert one["play"] is None  # no contract yet: nothing to play
    assert one["bid"]["seat"] == 0 and one["bid"]["bid"] == "30"  # first bidder, lowest bid


def test_the_best_plays_are_the_solvers_and_the_reviews_at_every_point_of_a_hand() -> None:
    record = ex14()
    review = review_record(record, bid_samples=0).hands[0]
    (final,) = lab.record_positions(record)
    hand = lab.read_position(final)
    plays = list(hand.plays)
    for k in (0, 9, 23):
        at = lab.read_position(final)
        while len(at.plays) > k:
            at = lab.take_back(at)
        analysis = lab.analyse(at, samples=SAMPLES)
        assert analysis.play == solve_position(at)
        assert analysis.play is not None
        expected = review.plays[k]
        assert analysis.play.value == expected.value_before
        best = sorted(m.tile for m in analysis.play.moves if m.best)
        assert best == sorted(expected.best)
        values = {m.tile: m.value for m in analysis.play.moves}
        assert values[plays[k]] == expected.value_after
        assert analysis.bid.seat == review.bidder and analysis.bid.bid == review.bid


def test_swapping_a_tile_changes_the_figures_as_the_solver_says() -> None:
    hand = lab.set_contract(lab.read_position(DEAL), 0, "30", "sixes")
    before = lab.analyse(hand, samples=SAMPLES)
    # North's 2-0 for West's 6-5: North holds one trump more
    swapped = lab.swap_tiles(hand, "2-0", "6-5")
    assert swapped.deal[0] >> Play("6-5").tile & 1 and swapped.deal[3] >> Play("2-0").tile & 1
    assert swapped.contract == Contract.parse("sixes") and swapped.high_seat == 0
    after = lab.analyse(swapped, samples=SAMPLES)
    assert before.play is not None and after.play is not None
    solver = Solver()
    assert before.play.value == solver.value(PlayPosition.from_hand(hand)) == 40
    assert after.play.value == solver.value(PlayPosition.from_hand(swapped)) == 42
    legal = {a.tile for a in swapped.legal_actions() if isinstance(a, Play)}
    assert {m.tile for m in after.play.moves} == legal
    sixes_before = next(c for c in before.bid.contracts if c.contract == "sixes")
    sixes_after = next(c for c in after.bid.contracts if c.contract == "sixes")
    assert sixes_before.total == before.play.value  # the same contract, no tile played yet
    assert sixes_after.total == after.play.value
    assert sixes_after.chance is not None and sixes_before.chance is not None
    assert sixes_after.chance > sixes_before.chance  # the expert thinks more of it too


def test_a_swap_between_other_hands_moves_the_deal_but_not_the_bidders_chances() -> None:
    """South's 6-6 for East's 0-0: double dummy North's sixes fall from 40 to 28, and North,
    whose tiles are the same, sees the same chances: they are over the deals it could face."""
    hand = lab.set_contract(lab.read_position(DEAL), 0, "30", "sixes")
    before = lab.analyse(hand, samples=SAMPLES)
    after = lab.analyse(lab.swap_tiles(hand, "6-6", "0-0"), samples=SAMPLES)
    assert before.play is not None and after.play is not None
    assert (before.play.value, after.play.value) == (40, 28)
    assert [c.chance for c in after.bid.contracts] == [c.chance for c in before.bid.contracts]
    assert after.bid.chance == before.bid.chance


def test_a_swap_keeps_the_plays_that_stay_legal_and_drops_the_rest() -> None:
    hand = lab.set_contract(lab.read_position(DEAL), 0, "30", "sixes")
    for tile in ("6-4", "2-2", "6-6", "6-5"):
        hand = lab.play_tile(hand, tile)
    kept = lab.swap_tiles(hand, "4-3", "3-3")  # neither played: every play stays
    assert kept.plays == hand.plays
    cut = lab.swap_tiles(hand, "6-6", "3-2")  # South's 6-6 is West's now: South's play goes
    assert [tile_name(t) for t in cut.plays] == ["6-4", "2-2"]


def test_the_contract_can_be_moved_to_another_seat_and_trump() -> None:
    hand = lab.read_position(DEAL)
    moved = lab.set_contract(hand, 2, "32", "fives")
    assert (moved.high_seat, str(moved.contract)) == (2, "fives")
    assert hand_position(moved).split()[5:7] == ["0:pass.pass.32.pass", "fives"]
    assert moved.turn == 2  # the bidder leads


def test_play_forward_and_back_returns_to_the_same_position() -> None:
    start = lab.set_contract(lab.read_position(DEAL), 0, "30", "sixes")
    text = lab.write_position(start)
    forward = start
    for _ in range(6):
        move = forward.legal_actions()[0]
        assert isinstance(move, Play)
        forward = lab.play_tile(forward, tile_name(move.tile))
    assert len(forward.plays) == 6
    back = forward
    for _ in range(6):
        back = lab.take_back(back)
    assert lab.write_position(back) == text


def test_a_shared_link_holds_the_whole_position_and_restores_it() -> None:
    hand = lab.set_contract(lab.read_position(DEAL), 0, "30", "sixes")
    hand = lab.play_tile(hand, "6-4")
    hand = lab.play_tile(hand, "2-2")
    text = lab.write_position(hand)
    link = "/learn/lab?" + urlencode({"p": text})
    (again,) = parse_qs(urlparse(link).query)["p"]
    restored = lab.read_position(again)
    assert lab.write_position(restored) == text
    assert restored.deal == hand.deal and restored.plays == hand.plays
    assert restored.contract == hand.contract and restored.calls == hand.calls


def test_a_bare_deal_is_read_under_the_standard_rules() -> None:
    deal = DEAL.split()[4]
    assert lab.write_position(lab.read_position(deal)) == DEAL


def test_a_records_hands_open_as_the_positions_they_ended_at() -> None:
    record = ex14()
    (text,) = lab.record_positions(record)
    hand = lab.read_position(text)
    assert hand.is_over  # made after trick 6: the hand ended there
    assert len(hand.plays) == 24 and str(hand.contract) == "sixes"
    assert text.split()[1:3] == ["0-0", "1"]


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("standard 0-0 1 3", "a position has 9 space-separated fields"),
        (DEAL.replace("64.63", "64.64"), "position field 5 (deal), seat 0: tile 64 appears twice"),
        (DEAL.replace("64.63.", ""), "position field 5 (deal)"),
        (DEAL.split()[4].replace("53.42", "53.64"), "tile 6-4 appears twice (seat 0 too)"),
        (DEAL.split()[4].replace(".20/", "/"), "position field 5 (deal)"),
        (DEAL.replace("0:- - - 0", "0:30.pass.pass.pass sixes 66 1"), "play 1 (6-6)"),
        ("x" * 2000, "over 1000 characters"),
    ],
)
def test_a_bad_position_is_refused_naming_what_and_where(text: str, says: str) -> None:
    with pytest.raises(NotationError) as caught:
        lab.read_position(text)
    assert says in str(caught.value)


def test_a_bare_deal_is_read_by_the_notation_s_own_parser() -> None:
    """A deal field alone and the same deal in a full position are refused in the same words."""
    twice = DEAL.split()[4].replace("53.42", "53.64")
    with pytest.raises(NotationError) as bare:
        lab.read_position(twice)
    with pytest.raises(NotationError) as full:
        parse_hand_position(DEAL.replace(DEAL.split()[4], twice))
    assert str(bare.value) == str(full.value)
    assert str(full.value) == "position field 5 (deal), seat 1: tile 6-4 appears twice (seat 0 too)"
    assert list(lab.read_position(DEAL.split()[4]).deal) == parse_deal(DEAL.split()[4], 4)


def test_bad_edits_are_refused_naming_what() -> None:
    hand = lab.read_position(DEAL)
    with pytest.raises(lab.LabError, match="both in seat 0's hand"):
        lab.swap_tiles(hand, "6-4", "6-3")
    with pytest.raises(lab.LabError, match="swap, second tile"):
        lab.swap_tiles(hand, "6-4", "7-7")
    with pytest.raises(lab.LabError, match="not in its play"):
        lab.play_tile(hand, "6-4")
    with pytest.raises(lab.LabError, match="no tile has been played"):
        lab.take_back(hand)
    with pytest.raises(lab.LabError, match="bid: not a bid"):
        lab.set_contract(hand, 0, "29x", "sixes")
    with pytest.raises(lab.LabError, match=r"seat: a seat is 0\.\.3"):
        lab.set_contract(hand, 4, "30", "sixes")
    with pytest.raises(lab.LabError, match="contract"):
        lab.set_contract(hand, 0, "30", "sevenses")
    played = lab.set_contract(hand, 0, "30", "sixes")
    with pytest.raises(lab.LabError, match=r"play \(1-1\)"):
        lab.play_tile(played, "1-1")  # East's tile, and North is to lead
