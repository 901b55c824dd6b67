"""Games: the first shaker, the draw, the shake moving left, game end (Ex 21 and Ex 23), the
points game, targets and the capped score, and undo across hands."""

from __future__ import annotations

import random

import pytest

from helpers import EX14_DEAL, EX14_PLAYS, EX16_DEAL, EX16_PLAYS, STANDARD, E, N, S, W
from texas42 import Game, IllegalActionError, NotationError, Play, Rules
from texas42.core.actions import parse_call
from texas42.core.notation import hand_position


def bid_and_play(game: Game, calls: str, contract: str, plays: str = "") -> None:
    for word in calls.split():
        game.apply(parse_call(word, game.rules))
    game.apply(game.parse_action(contract))
    for word in plays.split():
        game.apply(Play(word))


def ex14_game(rules=STANDARD, score=(0, 0), deals=(EX14_DEAL,)) -> Game:
    return Game(rules, 0, first_shaker=W, deals=deals, score=score)


# -- the first shaker -----------------------------------------------------------------------


def test_random_first_shaker() -> None:
    rules = STANDARD.replace(first_shaker="random")
    shakers = set()
    for seed in range(20):
        game = Game(rules, seed)
        assert game.draw_rounds == []
        assert game.hand.shaker == random.Random(seed).randrange(4)
        shakers.add(game.hand.shaker)
    assert shakers == {0, 1, 2, 3}


def test_first_shaker_given() -> None:
    assert Game(STANDARD, 1, first_shaker=E).hand.shaker == E
    with pytest.raises(NotationError, match=r"the shaker is a seat 0\.\.3"):
        Game(STANDARD, 1, first_shaker=4)


# -- the shake moves left; all pass ----------------------------------------------------------


def test_shake_moves_left_every_hand() -> None:
    game = ex14_game()
    bid_and_play(game, "34 pass pass pass", "sixes", " ".join(EX14_PLAYS.split()[:24]))
    assert len(game.hands) == 2 and game.hand.shaker == N and game.hand.first_bidder == E
    assert game.score == (1, 0) and game.score_history() == [(1, 0)]
    assert game.hand_number == 2


def test_ex21_reshake_next_player_shakes_nobody_scores() -> None:
    game = Game(Rules.preset("tournament"), 5, first_shaker=S)
    for _ in range(4):
        game.apply(game.parse_action("pass"))
    assert game.results[0].reshaken and game.results[0].score == (0, 0)
    assert game.hand.shaker == W and game.score == (0, 0) and len(game.hands) == 2
    assert game.hands[1].deal != game.hands[0].deal


def test_ex21_forced_shaker_must_bid_in_a_game() -> None:
    game = Game(STANDARD, 5, first_shaker=S)
    for _ in range(3):
        game.apply(game.parse_action("pass"))
    assert game.seat_to_act() == S
    with pytest.raises(IllegalActionError, match="South, the last to call, must bid"):
        game.apply(game.parse_action("pass"))


# -- game end ----------------------------------------------------------------------------------


def test_ex23_game_end_counts_every_mark() -> None:
    game = ex14_game(score=(6, 0))
    bid_and_play(game, "2m pass pass pass", "sixes", EX14_PLAYS)
    outcome = game.outcome()
    assert outcome is not None and game.is_over()
    assert (outcome.winner, outcome.score, outcome.hands) == (0, (8, 0), 1)
    assert game.score == (8, 0)
    assert game.legal_actions() == [] and game.legal_mask() == 0 and game.seat_to_act() is None
    assert game.why_illegal(Play("1-0")) == "the game is over"
    with pytest.raises(IllegalActionError, match="the game is over"):
        game.apply(Play("1-0"))


def test_ex23_cap_score_shows_seven() -> None:
    game = ex14_game(STANDARD.replace(cap_score=True), score=(6, 0))
    bid_and_play(game, "2m pass pass pass", "sixes", EX14_PLAYS)
    outcome = game.outcome()
    assert outcome is not None and outcome.score == (7, 0)
    assert game.score == (8, 0)  # the running total itself is never capped


def test_marks_target() -> None:
    game = ex14_game(STANDARD.replace(target=1))
    bid_and_play(game, "34 pass pass pass", "sixes", " ".join(EX14_PLAYS.split()[:24]))
    outcome = game.outcome()
    assert outcome is not None and (outcome.winner, outcome.score) == (0, (1, 0))
    game = ex14_game(STANDARD.replace(target=2))
    bid_and_play(game, "34 pass pass pass", "sixes", " ".join(EX14_PLAYS.split()[:24]))
    assert game.outcome() is None


def test_points_game_score_and_target() -> None:
    rules = STANDARD.replace(game="points")
    game = ex14_game(rules, score=(200, 240))
    bid_and_play(game, "34 pass pass pass", "sixes", EX14_PLAYS)
    assert game.outcome() is None and game.score == (242, 240)  # 250 to win
    game = ex14_game(rules, score=(210, 240))
    bid_and_play(game, "34 pass pass pass", "sixes", EX14_PLAYS)
    outcome = game.outcome()
    assert outcome is not None and (outcome.winner, outcome.score) == (0, (252, 240))
    game = ex14_game(rules.replace(target=300), score=(210, 240))
    bid_and_play(game, "34 pass pass pass", "sixes", EX14_PLAYS)
    assert game.outcome() is None


def test_points_game_both_teams_past_the_target_higher_total_wins() -> None:

    rules = STANDARD.replace(game="points", target=100)
    game = Game(rules, 0, first_shaker=W, deals=[EX16_DEAL], score=(70, 95))
    bid_and_play(game, "34 pass pass pass", "sixes", EX16_PLAYS)
    outcome = game.outcome()
    # North-South 70 + 34 = 104, East-West 95 + 8 = 103: both past 100, the higher wins
    assert outcome is not None and (outcome.winner, outcome.score) == (0, (104, 103))


def test_points_game_mark_bid_set_scores_42_a_mark() -> None:
    rules = STANDARD.replace(game="points")
    game = ex14_game(rules)
    bid_and_play(game, "2m pass pass pass", "sixes", " ".join(EX14_PLAYS.split()[:16]))
    for word in [
        "1-0",
        "2-0",
        "3-2",
        "4-1",
        "4-0",
        "6-4",
        "4-2",
        "2-2",
        "6-2",
        "4-4",
        "5-3",
        "5-0",
    ]:
        game.apply(Play(word))
    result = game.results[0]
    # all 7 tricks are played; North-South lost the fifth, so East-West score 11 + 2 x 42
    assert [t.winner for t in game.hands[0].tricks] == [N, N, N, N, W, N, N]
    assert (result.made, result.tricks, result.points, result.score) == (
        False,
        7,
        (31, 11),
        (0, 95),
    )


# -- undo, copy and positions across hands ------------------------------------------------------


def test_undo_across_the_start_of_a_hand_restores_the_same_next_deal() -> None:
    game = Game(STANDARD, 3, first_shaker=W, deals=[EX14_DEAL])
    bid_and_play(game, "34 pass pass pass", "sixes", " ".join(EX14_PLAYS.split()[:24]))
    second = game.position()
    assert len(game.hands) == 2
    game.undo()
    assert len(game.hands) == 1 and game.results == [] and game.hand.result is None
    game.apply(Play("4-1"))
    assert game.position() == second
    while True:
        try:
            game.undo()
        except IllegalActionError as exc:
            assert "the game has just begun" in str(exc)
            break
    assert game.position() == Game(STANDARD, 3, first_shaker=W, deals=[EX14_DEAL]).position()


def test_undo_after_the_game_is_over() -> None:
    game = ex14_game(score=(6, 0))
    bid_and_play(game, "2m pass pass pass", "sixes", EX14_PLAYS)
    game.undo()
    assert game.outcome() is None and game.score == (6, 0)
    game.apply(Play("5-0"))
    assert game.outcome() is not None


def test_copy_is_independent() -> None:
    game = Game(STANDARD, 8)
    clone = game.copy()
    clone.apply(clone.legal_actions()[0])
    assert game.hand.calls == [] and len(clone.hand.calls) == 1
    assert game.position() != clone.position()


def test_from_position_of_a_finished_hand_starts_the_next() -> None:
    game = ex14_game()
    bid_and_play(game, "34 pass pass pass", "sixes", " ".join(EX14_PLAYS.split()[:23]))
    game.apply(Play("4-1"))
    first = hand_position(game.hands[0])
    again = Game.from_position(first, seed=1)
    assert again.score == (1, 0) and again.hand.shaker == N and again.hand_number == 2


def test_view_carries_the_score_before_the_hand() -> None:
    game = ex14_game(score=(3, 4))
    assert game.view(N).score == (3, 4)
    bid_and_play(game, "34 pass pass pass", "sixes", " ".join(EX14_PLAYS.split()[:24]))
    assert game.view(N).score == (4, 4) and game.view(N).hand_number == 2
