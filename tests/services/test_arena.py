"""The arena: duplicate pairs are exact (same deals by seat, seats swapped), results do not depend
on how the matches are run, the statistics give known answers on synthetic data, and the
``arena`` and ``ladder`` commands work end to end and turn bad input into one line."""

from __future__ import annotations

import dataclasses
import json
import math
import os
import pickle
import random
import re
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from helpers import interrupted_arena
from texas42 import Record, Rules, check_record
from texas42.core.errors import Texas42Error
from texas42.core.layout import layout_of
from texas42.faces.cli import app
from texas42.players import make_bot
from texas42.services.arena import (
    MatchSpec,
    Sprt,
    bradley_terry,
    deal_seed,
    match_specs,
    mean_ci,
    play_ladder,
    play_match,
    run_match,
    summarize,
    wilson,
)
from texas42.services.arena.match import GameResult, MatchResult, sides_held
from texas42.services.arena.plot import margin_step
from texas42.services.arena.report import record_name
from texas42.services.arena.stats import ELO_PER_NAT, t_cdf, t_quantile
from texas42.services.protocol.host import EngineError

TEXAS42 = str(Path(sys.executable).parent / "texas42")
STANDARD = Rules()
runner = CliRunner()


def records_of(spec: MatchSpec) -> tuple[Record, Record]:
    """The records of a pair's two games, A North-South first."""
    result = run_match(dataclasses.replace(spec, records=True))
    first, second = (Record.from_json(game.record or "") for game in result.games)
    return first, second


# -- duplicate pairs --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "rules", ["standard", "house", "standard,first_shaker=random,draw_order=deal"]
)
def test_the_two_games_of_a_pair_see_the_same_deals_with_the_seats_swapped(rules: str) -> None:
    lengths_differ = False
    for spec in match_specs("rules", "random", Rules.parse(rules), 6, seed=3):
        first, second = records_of(spec)
        assert first.players == ("Rules", "Random", "Rules", "Random")
        assert second.players == ("Random", "Rules", "Random", "Rules")
        common = min(len(first.hands), len(second.hands))
        lengths_differ |= len(first.hands) != len(second.hands)
        for a, b in zip(first.hands[:common], second.hands[:common]):
            assert (a.shaker, a.deal) == (b.shaker, b.deal)
        assert [h.auction for h in first.hands] != [h.auction for h in second.hands]
    assert lengths_differ, "no pair whose games lasted a different number of hands"


def test_single_hands_pair_on_one_deal_and_one_shaker() -> None:
    shakers = set()
    for spec in match_specs("easy", "rules", STANDARD, 8, seed=1, hands=True):
        first, second = records_of(spec)
        assert len(first.hands) == len(second.hands) == 1
        assert (first.hands[0].shaker, first.hands[0].deal) == (
            second.hands[0].shaker,
            second.hands[0].deal,
        )
        assert first.players == ("Easy", "Rules", "Easy", "Rules")
        assert second.players == ("Rules", "Easy", "Rules", "Easy")
        shakers.add(first.hands[0].shaker)
    assert len(shakers) > 1


@pytest.mark.parametrize("bot", ["random", "rules", "easy"])
@pytest.mark.parametrize("hands", [False, True])
def test_a_bot_against_itself_plays_the_same_game_twice_and_scores_zero(
    bot: str, hands: bool
) -> None:
    for spec in match_specs(bot, bot, STANDARD, 4, seed=9, hands=hands):
        result = run_match(spec)
        first, second = result.games
        assert first.score == second.score
        assert first.winner == second.winner
        assert result.margin == 0
        assert result.a_wins == result.decided / 2


def test_records_of_a_match_check_clean_and_agree_with_its_results() -> None:
    for spec in match_specs("rules", "easy", STANDARD, 3, seed=5, records=True):
        for game in run_match(spec).games:
            report = check_record(Record.from_json(game.record or ""))
            assert report.score == game.score
            assert report.winner == game.winner
            assert len(report.results) == game.hands
            contracts = [(r.bidder % 2, r.made) for r in report.results if r.bidder is not None]
            for team in (0, 1):
                assert game.bids[team] == sum(t == team for t, _ in contracts)
                assert game.made[team] == sum(t == team and made for t, made in contracts)


def test_same_bot_twice_gets_sides_in_its_name() -> None:
    first, second = records_of(match_specs("rules", "rules", STANDARD, 1)[0])
    assert first.players == ("Rules A", "Rules B", "Rules A", "Rules B")
    assert second.players == ("Rules B", "Rules A", "Rules B", "Rules A")


def test_deal_seeds_are_fixed_and_distinct() -> None:
    seeds = [deal_seed(0, i) for i in range(1000)]
    assert len(set(seeds)) == 1000
    assert all(0 <= s < 2**48 for s in seeds)
    assert deal_seed(0, 0) == deal_seed(0, 0) != deal_seed(1, 0)


# -- determinism and executors ----------------------------------------------------------------


def test_run_match_is_a_pure_function_of_its_picklable_spec() -> None:
    spec = match_specs("easy", "random", Rules.parse("house"), 1, seed=11, records=True)[0]
    copy = pickle.loads(pickle.dumps(spec))
    assert copy == spec
    result = run_match(spec)
    assert run_match(copy) == result
    assert pickle.loads(pickle.dumps(result)) == result


def test_workers_do_not_change_the_results() -> None:
    one, results_one = play_match("rules", "easy", STANDARD, 6, seed=2, workers=1)
    two, results_two = play_match("rules", "easy", STANDARD, 6, seed=2, workers=2)
    assert results_one == results_two
    assert one.to_dict() | {"seconds": None} == two.to_dict() | {"seconds": None}


def test_sprt_stops_at_the_same_pair_whatever_the_workers() -> None:
    test = Sprt(0.5, 0.55)
    one, results = play_match("rules", "random", STANDARD, 100, workers=1, sprt=test)
    two, _ = play_match("rules", "random", STANDARD, 100, workers=2, sprt=test)
    # rules beats random every game: 31 straight wins are needed, so the 16th pair decides
    assert (one.pairs, one.decision, one.planned_pairs) == (16, "H1", 100)
    assert len(results) == 16
    assert one.to_dict() | {"seconds": None} == two.to_dict() | {"seconds": None}


def test_summary_adds_up_the_pairs() -> None:
    results = [run_match(spec) for spec in match_specs("rules", "easy", STANDARD, 5, seed=4)]
    summary = summarize(results, seed=4)
    games = [g for r in results for g in r.games]
    assert (summary.pairs, summary.games) == (5, 10)
    assert summary.hands == sum(g.hands for g in games)
    assert summary.margin.mean == pytest.approx(sum(g.margin for g in games) / 10)
    assert summary.wins.k == sum(g.winner == g.a_team for g in games)
    assert summary.wins.n == 10
    assert summary.make[0].n == sum(g.bids[g.a_team] for g in games)
    assert summary.make[1].k == sum(g.made[1 - g.a_team] for g in games)
    assert summary.unit == "marks per game"


def test_a_match_needs_known_bots_and_a_pair() -> None:
    with pytest.raises(Texas42Error, match="no bot called 'nobody'"):
        play_match("rules", "nobody", STANDARD, 1)
    with pytest.raises(Texas42Error, match="at least one pair"):
        play_match("rules", "random", STANDARD, 0)


# -- statistics -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("df", "t"),
    [(1, 12.7062047), (2, 4.3026527), (5, 2.5705818), (10, 2.2281389), (30, 2.0422725)],
)
def test_t_quantiles_match_the_tables(df: int, t: float) -> None:
    assert t_quantile(0.975, df) == pytest.approx(t, abs=1e-6)
    assert t_quantile(0.025, df) == pytest.approx(-t, abs=1e-6)
    assert t_cdf(t, df) == pytest.approx(0.975, abs=1e-8)


def test_mean_interval_by_hand() -> None:
    estimate = mean_ci([1, 2, 3, 4, 5])
    half = 2.7764451 * math.sqrt(2.5) / math.sqrt(5)
    assert estimate.mean == 3
    assert (estimate.low, estimate.high) == (pytest.approx(3 - half), pytest.approx(3 + half))
    one = mean_ci([4.0])
    assert (one.mean, one.low, one.high) == (4.0, -math.inf, math.inf)
    assert one.to_dict()["low"] is None
    flat = mean_ci([2.5] * 7)
    assert (flat.low, flat.high) == (2.5, 2.5)


def test_mean_interval_covers_95_percent_of_small_samples() -> None:
    # with five values the normal quantile would cover only about 88%
    rng = random.Random(7)
    trials = 4000
    covered = 0
    for _ in range(trials):
        estimate = mean_ci([rng.gauss(1.0, 3.0) for _ in range(5)])
        covered += estimate.low <= 1.0 <= estimate.high
    assert 0.935 < covered / trials < 0.965


@pytest.mark.parametrize(
    ("k", "n", "low", "high"),
    [
        (0, 10, 0.0, 0.2775328),
        (5, 10, 0.2365931, 0.7634069),
        (10, 10, 0.7224672, 1.0),
        (81, 263, 0.2553, 0.3662),
    ],
)
def test_wilson_intervals_match_known_values(k: int, n: int, low: float, high: float) -> None:
    p = wilson(k, n)
    assert (p.low, p.high) == (pytest.approx(low, abs=1e-4), pytest.approx(high, abs=1e-4))
    assert p.share == k / n


def test_wilson_with_no_trials_is_the_whole_range() -> None:
    p = wilson(0, 0)
    assert (p.low, p.high, p.to_dict()["share"]) == (0.0, 1.0, None)
    with pytest.raises(ValueError):
        wilson(3, 2)


def test_sprt_on_streams_with_known_stopping_points() -> None:
    test = Sprt(0.5, 0.55, 0.05, 0.05)
    assert test.bounds == (pytest.approx(-math.log(19)), pytest.approx(math.log(19)))
    # a win adds ln(1.1), a loss ln(0.9): 31 wins pass ln 19 = 2.944, 28 losses pass -2.944
    assert test.run([True] * 100) == ("H1", 31)
    assert test.run([False] * 100) == ("H0", 28)
    # a win and a loss add ln(0.99): 293 such pairs are needed
    assert test.run([True, False] * 400) == ("H0", 586)
    assert test.run([True] * 30) == (None, 30)


def test_sprt_error_rates_on_simulated_streams() -> None:
    test = Sprt(0.5, 0.6, 0.05, 0.05)
    rng = random.Random(3)
    runs = 400

    def decisions(chance: float) -> list[str | None]:
        return [test.run(rng.random() < chance for _ in range(10_000))[0] for _ in range(runs)]

    at_p0, at_p1 = decisions(0.5), decisions(0.6)
    assert None not in at_p0 + at_p1
    assert at_p0.count("H1") / runs < 0.08
    assert at_p1.count("H0") / runs < 0.08


@pytest.mark.parametrize(
    ("p0", "p1", "alpha", "beta"),
    [
        (0.5, 0.5, 0.05, 0.05),
        (0.6, 0.5, 0.05, 0.05),
        (0.5, 1.0, 0.05, 0.05),
        (0.5, 0.55, 0.0, 0.05),
        (0.5, 0.55, 0.05, 0.5),
    ],
)
def test_sprt_refuses_settings_that_mean_nothing(
    p0: float, p1: float, alpha: float, beta: float
) -> None:
    with pytest.raises(Texas42Error):
        Sprt(p0, p1, alpha, beta)


def test_bradley_terry_two_players_exactly() -> None:
    ratings = bradley_terry([[0, 30], [10, 0]])
    assert ratings.strength == (0.0, pytest.approx(-math.log(3)))
    assert ratings.stderr[1] == pytest.approx(math.sqrt(1 / (40 * 0.75 * 0.25)))
    assert ratings.win_chance(0, 1) == pytest.approx(0.75)
    assert ratings.elo(1) == pytest.approx(-ELO_PER_NAT * math.log(3))


def test_bradley_terry_recovers_known_strengths() -> None:
    truth = [0.0, 0.8, -0.5, 1.5, 0.3]
    rng = random.Random(11)
    k = len(truth)
    wins = [[0] * k for _ in range(k)]
    for i in range(k):
        for j in range(i + 1, k):
            for _ in range(600):
                chance = 1 / (1 + math.exp(truth[j] - truth[i]))
                if rng.random() < chance:
                    wins[i][j] += 1
                else:
                    wins[j][i] += 1
    ratings = bradley_terry(wins)
    for i in range(1, k):
        assert abs(ratings.strength[i] - truth[i]) < 3 * ratings.stderr[i]
        assert 0.05 < ratings.stderr[i] < 0.15
    # the fit solves the likelihood equations: expected wins equal the wins
    for i in range(k):
        played = [(j, wins[i][j] + wins[j][i]) for j in range(k) if j != i]
        expected = sum(n * ratings.win_chance(i, j) for j, n in played)
        assert expected == pytest.approx(sum(wins[i]), rel=1e-6)


def test_bradley_terry_needs_a_prior_for_a_perfect_record() -> None:
    perfect = [[0, 20, 15], [0, 0, 12], [0, 8, 0]]
    with pytest.raises(ValueError, match="won or lost every game"):
        bradley_terry(perfect)
    ratings = bradley_terry(perfect, prior=0.5)
    assert ratings.strength[0] > ratings.strength[1] > ratings.strength[2]
    assert all(math.isfinite(s) for s in ratings.stderr)


def test_ladder_rates_three_bots() -> None:
    ladder = play_ladder(["random", "rules", "easy"], STANDARD, 3, seed=1)
    assert [p.bot_a + "-" + p.bot_b for p in ladder.pairings] == [
        "random-rules",
        "random-easy",
        "rules-easy",
    ]
    for (i, j), pairing in zip([(0, 1), (0, 2), (1, 2)], ladder.pairings):
        assert pairing.games == 6
        assert (ladder.wins[i][j], ladder.wins[j][i]) == (pairing.wins.k, 6 - pairing.wins.k)
    assert ladder.ratings.strength[0] == 0
    assert ladder.order()[-1] == 0  # random is last
    assert ladder.games(0) == 12


# -- the commands -----------------------------------------------------------------------------


def test_arena_command_end_to_end(tmp_path: Path) -> None:
    folder = tmp_path / "games"
    done = subprocess.run(
        [TEXAS42, "arena", "rules", "random", "--games", "3", "--json", "--records", str(folder)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == "--games 3: playing 4, two on each deal\n"
    result = json.loads(done.stdout)
    assert (result["pairs"], result["games"], result["mode"]) == (2, 4, "games")
    assert result["unit"] == "marks per game"
    assert result["win_rate"]["n"] == 4
    assert (folder / "arena.jsonl").is_file()  # the run's ledger, which --resume reads back
    saved = sorted(p.name for p in folder.glob("*.json"))
    assert saved == [
        "pair00001-A-east-west.json",
        "pair00001-A-north-south.json",
        "pair00002-A-east-west.json",
        "pair00002-A-north-south.json",
    ]
    wins = 0
    hands = 0
    for name in saved:
        report = check_record(Record.from_json((folder / name).read_text()))
        assert report.winner is not None
        a_team = 0 if "north-south" in name else 1
        wins += report.winner == a_team
        hands += len(report.results)
    assert (wins, hands) == (result["win_rate"]["k"], result["hands"])


def test_arena_table_and_hands_mode() -> None:
    done = runner.invoke(app, ["arena", "easy", "rules", "--hands", "6", "--seed", "4"])
    assert done.exit_code == 0, done.output
    out = done.stdout
    assert "A = easy, B = rules: 3 duplicate pairs of hands; rules: standard; seed 4" in out
    assert "A - B, marks per hand" in out
    assert "hand win rate" in out
    assert "games played" not in out
    points = runner.invoke(
        app, ["arena", "easy", "rules", "--hands", "4", "--json", "--rules", "standard,game=points"]
    )
    assert json.loads(points.stdout)["unit"] == "points per hand"


def test_arena_sprt_line() -> None:
    done = runner.invoke(app, ["arena", "rules", "random", "--games", "200", "--sprt"])
    assert done.exit_code == 0, done.output
    assert "16 duplicate pairs" in done.stdout
    assert (
        "SPRT (p0 0.5, p1 0.55, alpha 0.05, beta 0.05): H1 accepted: A wins with chance "
        "p1 = 0.55 or more after 32 decided games, LLR 3.05 (bounds -2.94, 2.94)"
    ) in done.stdout


def test_arena_plot(tmp_path: Path) -> None:
    path = tmp_path / "margin.png"
    done = runner.invoke(app, ["arena", "rules", "easy", "--games", "6", "--plot", str(path)])
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        assert done.exit_code == 2
        assert done.stderr == (
            "--plot needs matplotlib, which is not installed: pip install 'texas42[plot]'\n"
        )
        assert not path.exists()
    else:
        assert done.exit_code == 0, done.output
        assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize(
    ("module", "option", "extra"), [("matplotlib", "--plot", "plot"), ("ray", "--ray", "dist")]
)
def test_missing_optional_module_is_one_clear_line(
    module: str, option: str, extra: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, module, None)
    value = str(tmp_path / "x.png") if option == "--plot" else "auto"
    done = runner.invoke(app, ["arena", "rules", "random", "--games", "2", option, value])
    assert done.exit_code == 2
    assert done.stdout == ""
    assert done.stderr.endswith(f"not installed: pip install 'texas42[{extra}]'\n")
    assert done.stderr.count("\n") == 1


def test_ladder_command() -> None:
    done = runner.invoke(app, ["ladder", "random", "rules", "easy", "--games", "2", "--json"])
    assert done.exit_code == 0, done.output
    result = json.loads(done.stdout)
    assert [r["bot"] for r in result["ratings"]] == ["random", "rules", "easy"]
    assert result["ratings"][0]["elo"] == 0
    assert [r["games"] for r in result["ratings"]] == [4, 4, 4]
    assert len(result["pairings"]) == 3
    table = runner.invoke(app, ["ladder", "random", "rules", "--games", "2"])
    assert "Bradley-Terry ratings, Elo scale with random at 0" in table.stdout
    assert "anchor" in table.stdout


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["arena", "random:x=1", "rules"], "bot A: bot 'random:x=1': this bot takes no options"),
        (
            ["arena", "rules", "random", "--rules", "standard,nelo"],
            "--rules: unknown rule option 'nelo' in 'standard,nelo'",
        ),
        (["arena", "rules", "random", "--games", "0"], "--games: at least 1, not 0"),
        (["arena", "rules", "random", "--hands", "-2"], "--hands: at least 1, not -2"),
        (
            ["arena", "rules", "random", "--games", "2", "--hands", "2"],
            "--games and --hands: choose one",
        ),
        (["arena", "rules", "random", "--workers", "0"], "--workers: at least 1, not 0"),
        (
            ["arena", "rules", "random", "--sprt", "--sprt-p1", "0.4"],
            "--sprt: the SPRT needs 0 < p0 < p1 < 1, not p0=0.5, p1=0.4",
        ),
        (
            ["arena", "rules", "random", "--sprt", "--sprt-beta", "0.7"],
            "--sprt: the SPRT's beta is an error rate in (0, 0.5), not 0.7",
        ),
        (["ladder", "rules"], "a ladder needs at least two bots"),
        (
            ["ladder", "rules", "rules"],
            "texas42 ladder: each bot plays the ladder once, not rules twice",
        ),
        (["ladder", "rules", "random", "--games", "0"], "--games: at least 1, not 0"),
        (
            ["ladder", "rules", "random", "--rules", "casino"],
            "--rules: unknown rules preset 'casino'; presets: standard, tournament, house, two-hand, three-hand, moon, five-hand, six-hand, seven-hand",
        ),
    ],
)
def test_bad_input_is_one_line_and_status_2(args: list[str], line: str) -> None:
    done = runner.invoke(app, args)
    assert (done.exit_code, done.stdout, done.stderr) == (2, "", line + "\n")


@pytest.mark.parametrize(
    ("args", "start"),
    [(["arena", "rules", "nobody"], "bot B: "), (["ladder", "nobody", "rules"], "bot nobody: ")],
)
def test_unknown_bot_is_one_line_and_status_2(args: list[str], start: str) -> None:
    done = runner.invoke(app, args)
    assert (done.exit_code, done.stdout) == (2, "")
    assert done.stderr.startswith(f"{start}no bot called 'nobody': choose from random, rules")
    assert done.stderr.count("\n") == 1


def test_records_folder_that_is_a_file(tmp_path: Path) -> None:
    taken = tmp_path / "taken"
    taken.write_text("")
    done = runner.invoke(app, ["arena", "rules", "random", "--records", str(taken)])
    assert (done.exit_code, done.stderr) == (2, f"--records: {taken} is not a folder\n")


class FakeRay:
    """Stands in for the ray module: tasks run when their result is asked for."""

    def __init__(self, fail: BaseException | None = None) -> None:
        self.fail = fail
        self.addresses: list[str | None] = []
        self.cancelled = 0

    def init(self, address: str | None, ignore_reinit_error: bool) -> None:
        if self.fail is not None:
            raise self.fail
        self.addresses.append(address)

    def cluster_resources(self) -> dict[str, float]:
        return {"CPU": 1.0}

    def remote(self, function: object) -> object:
        outer = self

        class Remote:
            def remote(self, spec: MatchSpec) -> tuple[object, MatchSpec]:
                return outer, spec

        return Remote()

    def get(self, ref: tuple[object, MatchSpec]) -> object:
        return run_match(ref[1])

    def cancel(self, ref: object) -> None:
        self.cancelled += 1


def test_ray_runs_the_same_matches(monkeypatch: pytest.MonkeyPatch) -> None:
    ray = FakeRay()
    monkeypatch.setitem(sys.modules, "ray", ray)
    test = Sprt(0.5, 0.55)
    _here, results_here = play_match("rules", "random", STANDARD, 40, seed=3, sprt=test)
    _there, results_there = play_match(
        "rules", "random", STANDARD, 40, seed=3, sprt=test, ray_address="local"
    )
    assert results_there == results_here
    assert ray.addresses == [None]
    assert ray.cancelled == 4  # the queued matches after the SPRT stop, one CPU times AHEAD
    done = runner.invoke(app, ["arena", "rules", "random", "--games", "4", "--ray", "head:6379"])
    assert done.exit_code == 0, done.output
    assert ray.addresses == [None, "head:6379"]


def test_ray_cluster_that_does_not_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", FakeRay(fail=ConnectionError("nobody there")))
    done = runner.invoke(app, ["arena", "rules", "random", "--games", "2", "--ray", "nowhere:1"])
    assert (done.exit_code, done.stdout) == (2, "")
    assert done.stderr == "texas42 arena: --ray nowhere:1: cannot join the cluster: nobody there\n"


def refused_token(address: str) -> ConnectionError:
    """What Ray 2.60's ``ray.init(address=...)`` raises when the cluster wants a token and none
    is sent: a ConnectionError naming the address, from a RuntimeError holding Ray's traceback
    of the AuthenticationError (its text as Ray prints it, shortened)."""
    try:
        try:
            raise RuntimeError(
                "Failed to connect to GCS. Last connection error: Traceback (most recent call "
                'last):\n  File "python/ray/includes/common.pxi", line 119, in '
                "ray._raylet.check_status\nray.exceptions.AuthenticationError: RPC error: "
                "InvalidAuthToken: Authentication token is missing or incorrect. Note: "
                "RAY_AUTH_MODE is currently 'disabled' (not 'token')."
            )
        except RuntimeError as exc:
            raise ConnectionError(f"Failed to connect to Ray cluster at {address}") from exc
    except ConnectionError as exc:
        return exc


@pytest.mark.parametrize("mode", [None, "disabled"])
def test_ray_cluster_that_wants_a_token_names_ray_auth_mode(
    monkeypatch: pytest.MonkeyPatch, mode: str | None
) -> None:
    if mode is None:
        monkeypatch.delenv("RAY_AUTH_MODE", raising=False)
    else:
        monkeypatch.setenv("RAY_AUTH_MODE", mode)
    monkeypatch.setitem(sys.modules, "ray", FakeRay(fail=refused_token("10.0.0.1:6379")))
    args = ["arena", "rules", "random", "--games", "2", "--ray", "10.0.0.1:6379"]
    done = runner.invoke(app, args)
    assert (done.exit_code, done.stdout) == (2, "")
    here = "RAY_AUTH_MODE is not set" if mode is None else "RAY_AUTH_MODE is 'disabled'"
    assert done.stderr == (
        "texas42 arena: --ray 10.0.0.1:6379: cannot join the cluster: it asks for a token "
        "(token authentication, which `ray start --head` turns on when ~/.ray/auth_token "
        f"exists), and {here} here, so none was sent: set RAY_AUTH_MODE=token, with the "
        "cluster's token in ~/.ray/auth_token, in a file named by RAY_AUTH_TOKEN_PATH, or in "
        "RAY_AUTH_TOKEN (`ray get-auth-token` on the head node prints it)\n"
    )
    monkeypatch.setenv("RAY_AUTH_MODE", "token")
    done = runner.invoke(app, args)
    assert done.exit_code == 2
    assert "it refused this machine's token (RAY_AUTH_MODE=token)" in done.stderr


def test_a_match_stopped_by_ctrl_c_sums_up_the_pairs_already_played(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen = []

    def interrupt_after_three(result: MatchResult) -> None:
        seen.append(result)
        if len(seen) == 3:
            raise KeyboardInterrupt

    summary, results = play_match(
        "rules", "random", STANDARD, 50, seed=4, progress=interrupt_after_three
    )
    assert (summary.pairs, summary.planned_pairs, len(results)) == (3, 50, 3)
    assert summary == summarize(results, 4, 50, None, summary.seconds)

    def nothing_played(*args: object) -> Iterator[MatchResult]:
        raise KeyboardInterrupt
        yield  # a generator, like map_matches

    monkeypatch.setattr("texas42.services.arena.run.map_matches", nothing_played)
    with pytest.raises(KeyboardInterrupt):
        play_match("rules", "random", STANDARD, 5)


def test_arena_command_stopped_by_ctrl_c_keeps_its_games_and_shows_them(tmp_path: Path) -> None:
    """Ctrl-C at a terminal (SIGINT to the whole process group) ends a long run at once with
    status 130; the table covers the pairs played, and each of them was saved as it ended."""
    folder = tmp_path / "games"
    command = [
        TEXAS42,
        "arena",
        "random",
        "random",
        "--games",
        "200000",
        "--workers",
        "2",
    ]
    returncode, out, err = interrupted_arena(command, folder, 20)
    assert returncode == 130, err
    played = re.search(r"Stopped by Ctrl-C after (\d+) of 100000 pairs", out)
    assert played is not None, out
    pairs = int(played.group(1))
    assert f"{pairs} duplicate pairs of games" in out
    assert len(list(folder.glob("*.json"))) == 2 * pairs
    assert "Traceback" not in err


# -- every table size -------------------------------------------------------------------------

TABLES = [
    "two-hand",
    "three-hand",
    "moon",
    "five-hand",
    "six-hand",
    "six-hand,teams=threes",
    "seven-hand",
]


def bot_of_seat(rules: Rules, seat: int, a_team: int) -> str:
    """Which bot holds a seat in the game of a pair where A holds the sides of ``a_team``."""
    return "A" if layout_of(rules).side_of[seat] % 2 == a_team else "B"


@pytest.mark.parametrize("table", TABLES)
def test_every_table_plays_each_seat_once_by_each_bot_and_its_records_replay(table: str) -> None:
    rules = Rules.parse(table)
    layout = layout_of(rules)
    names = {"A": "Rules", "B": "Random"}
    for spec in match_specs("rules", "random", rules, 2, seed=7, records=True):
        result = run_match(spec)
        first, second = (Record.from_json(game.record or "") for game in result.games)
        for a_team, record in enumerate((first, second)):
            seats = tuple(names[bot_of_seat(rules, s, a_team)] for s in range(layout.seats))
            assert record.players == seats
        assert first.players is not None and second.players is not None
        for seat in range(layout.seats):
            assert {first.players[seat], second.players[seat]} == {"Rules", "Random"}
        for a, b in zip(first.hands, second.hands):
            assert (a.shaker, a.deal, a.widow) == (b.shaker, b.deal, b.widow)
        for game in result.games:
            assert json.loads(game.record or "").get("seats", 4) == layout.seats
            report = check_record(Record.from_json(game.record or ""))
            assert (report.score, report.winner) == (game.score, game.winner)
            assert len(report.score) == layout.sides
            assert len(report.results) == game.hands
            parities = [
                (layout.side_of[r.bidder] % 2, r.made)
                for r in report.results
                if r.bidder is not None
            ]
            for parity in (0, 1):
                assert game.bids[parity] == sum(p == parity for p, _ in parities)
                assert game.made[parity] == sum(p == parity and made for p, made in parities)


@pytest.mark.parametrize("table", TABLES)
@pytest.mark.parametrize("hands", [False, True])
def test_a_bot_against_itself_scores_zero_at_every_table(table: str, hands: bool) -> None:
    rules = Rules.parse(table)
    for spec in match_specs("rules", "rules", rules, 2, seed=9, hands=hands, records=True):
        result = run_match(spec)
        first, second = result.games
        assert first.score == second.score
        assert result.margin == 0
        assert result.a_wins == result.decided / 2
        players = Record.from_json(first.record or "").players
        assert players == tuple(
            f"Rules {bot_of_seat(rules, s, 0)}" for s in range(layout_of(rules).seats)
        )


@pytest.mark.parametrize("table", TABLES)
def test_single_hands_at_every_table_share_the_deal_and_the_widow(table: str) -> None:
    rules = Rules.parse(table)
    for spec in match_specs("easy", "rules", rules, 3, seed=2, hands=True, records=True):
        result = run_match(spec)
        first, second = (Record.from_json(game.record or "") for game in result.games)
        assert len(first.hands) == len(second.hands) == 1
        a, b = first.hands[0], second.hands[0]
        assert (a.shaker, a.deal, a.widow) == (b.shaker, b.deal, b.widow)
        assert (a.widow is not None) == (layout_of(rules).widow > 0)
        for game in result.games:
            assert game.hands == 1
            # a hand's winner is the one side that scored the most, or nobody on a shared top
            best = max(game.score)
            if game.score.count(best) == 1:
                assert game.winner == game.score.index(best)
            else:
                assert game.winner is None


def test_a_bots_score_is_the_mean_of_the_sides_it_holds() -> None:
    three = GameResult(0, (3, 1, 5), 2, 4, (1, 0), (1, 0))
    assert (three.margin, three.a_won) == (3.0, True)
    other = dataclasses.replace(three, a_team=1)
    assert (other.margin, other.a_won) == (-3.0, False)
    seven = GameResult(1, (4, 0, 2, 7, 0, 1, 7), 3, 9, (2, 3), (1, 2))
    assert seven.margin == pytest.approx((0 + 7 + 1) / 3 - (4 + 2 + 0 + 7) / 4)
    assert seven.a_won is True
    assert GameResult(0, (2, 5), None, 1, (0, 0), (0, 0)).a_won is None
    assert [sides_held(2, 0), sides_held(2, 1), sides_held(3, 0), sides_held(7, 1)] == [
        (0,),
        (1,),
        (0, 2),
        (1, 3, 5),
    ]


@pytest.mark.parametrize(
    ("table", "step"),
    [
        ("standard", 1 / 2),
        ("three-hand", 1 / 4),
        ("moon", 1 / 4),
        ("five-hand", 1 / 12),
        ("six-hand", 1 / 4),
        ("six-hand,teams=threes", 1 / 2),
        ("seven-hand", 1 / 24),
    ],
)
def test_pair_margins_are_whole_multiples_of_the_tables_step(table: str, step: float) -> None:
    rules = Rules.parse(table)
    assert margin_step(rules) == pytest.approx(step)
    _, results = play_match("rules", "random", rules, 4, seed=6, hands=True)
    for result in results:
        assert result.margin / step == pytest.approx(round(result.margin / step), abs=1e-9)


@pytest.mark.parametrize(("table", "stake"), [("three-hand", 1), ("moon", 7), ("six-hand", 1)])
def test_a_failing_bot_forfeits_to_every_side_of_the_other(
    table: str, stake: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    class Failing:
        name = "Failing"

        def choose(self, view: object) -> object:
            raise EngineError("failing", "crashed", "gone")

    def bots(spec: str, seed: int = 0) -> object:
        return Failing() if spec == "failing" else make_bot(spec, seed)

    monkeypatch.setattr("texas42.services.arena.match.make_bot", bots)
    rules = Rules.parse(table)
    target = rules.winning_target
    for hands, top in ((False, target), (True, stake)):
        result = run_match(MatchSpec("failing", "rules", rules, seed=5, hands=hands))
        for game in result.games:
            b_sides = sides_held(len(game.score), 1 - game.a_team)
            assert game.a_won is False and game.winner == b_sides[0]
            assert game.forfeit is not None and game.forfeit.startswith("A forfeits at seat ")
            assert all(game.score[side] >= top for side in b_sides)
            if hands:
                assert all(game.score[side] == 0 for side in sides_held(3, game.a_team))


def test_arena_command_at_three_seats(tmp_path: Path) -> None:
    folder = tmp_path / "games"
    done = runner.invoke(
        app,
        [
            "arena",
            "rules",
            "random",
            "--rules",
            "three-hand",
            "--games",
            "4",
            "--seed",
            "1",
            "--records",
            str(folder),
        ],
    )
    assert done.exit_code == 0, done.output
    assert "rules: three-hand; seed 1" in done.stdout
    assert "A made its bids" in done.stdout
    assert "each deal twice: A holds North+West, then East; B the rest" in done.stdout
    assert sorted(p.name for p in folder.glob("*.json")) == [
        "pair00001-A-east.json",
        "pair00001-A-north+west.json",
        "pair00002-A-east.json",
        "pair00002-A-north+west.json",
    ]
    for path in folder.glob("*.json"):
        record = Record.from_json(path.read_text())
        assert record.rules.seats == 3
        assert check_record(record).winner is not None
    six = runner.invoke(app, ["arena", "rules", "easy", "--rules", "six-hand", "--games", "2"])
    assert "A's team made its bid" in six.stdout
    moon = runner.invoke(
        app, ["arena", "rules", "easy", "--rules", "moon", "--hands", "4", "--json"]
    )
    assert json.loads(moon.stdout)["unit"] == "points per hand"


def test_a_game_that_never_ends_is_one_line_and_status_2(monkeypatch: pytest.MonkeyPatch) -> None:
    # three random bots at Moon overbid, are set, and drift below zero for ever
    monkeypatch.setattr("texas42.services.arena.match.MAX_HANDS", 20)
    done = runner.invoke(app, ["arena", "random", "random", "--rules", "moon", "--games", "2"])
    assert (done.exit_code, done.stdout) == (2, "")
    assert done.stderr.startswith(
        "texas42 arena: a game of random and random went 20 hands without a winner (score -"
    )
    assert done.stderr.endswith("); measure single hands with --hands\n")


def test_a_ladder_at_five_seats() -> None:
    ladder = play_ladder(["random", "rules"], Rules.parse("five-hand"), 2, seed=3)
    assert ladder.pairings[0].games == 4
    assert ladder.wins[0][1] + ladder.wins[1][0] == 4
    assert ladder.order() == [1, 0]


def test_arena_plot_at_five_seats(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    path = tmp_path / "margin.png"
    done = runner.invoke(
        app,
        ["arena", "rules", "random", "--rules", "five-hand", "--hands", "12", "--plot", str(path)],
    )
    assert done.exit_code == 0, done.output
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_ctrl_c_while_a_pair_is_saved_waits_until_both_of_its_records_are_written(
    tmp_path: Path,
) -> None:
    """The stop comes between pairs, never inside one: a Ctrl-C that lands while the third
    pair's two records are written stops the match after that pair, both files on disk."""
    written: list[str] = []

    def save(result: MatchResult) -> None:
        for game in result.games:
            name = record_name(result, game.a_team)
            (tmp_path / name).write_text(game.record or "")
            written.append(name)
            if result.spec.index == 2 and len(written) == 5:  # between the third pair's files
                os.kill(os.getpid(), signal.SIGINT)

    # as at a terminal: a run in the background of a shell (as CI's is) ignores Ctrl-C
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        summary, results = play_match(
            "random", "random", Rules(), 50, 3, records=True, progress=save
        )
    finally:
        signal.signal(signal.SIGINT, previous)
    assert summary.pairs == len(results) == 3
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(written) and len(written) == 6
