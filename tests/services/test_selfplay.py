"""Self-play data (`texas42.services.selfplay`): one game's rows, the stored run and its resume,
the reader's checks, the executors and the command. Tiny bots and two double-dummy deals keep it
quick."""

from __future__ import annotations

import json
import multiprocessing
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from typer.testing import CliRunner

from texas42.core.actions import ACTIONS, PLUNGE_ID, SPLASH_ID, Bid, Declare
from texas42.core.errors import Texas42Error
from texas42.core.hand import Hand
from texas42.core.rules import Rules
from texas42.core.tiles import ALL_TILES, count_points
from texas42.faces.cli import app
from texas42.players.pimc import PimcBot, PimcSettings
from texas42.players.rules_bot import candidate_contracts
from texas42.services.arena.run import map_specs
from texas42.services.protocol import make_bot
from texas42.services.selfplay import contract_calls, play_out
from texas42.services.selfplay.store import (
    COLUMNS,
    TABLES,
    RunConfig,
    load,
    part_path,
    read_part,
    run_selfplay,
)

runner = CliRunner()
SAMPLES = 2


def config(games: int, chunk: int = 1, **changes: Any) -> RunConfig:
    values: dict[str, Any] = {
        "bot": "rules",
        "playout": "rules",
        "rules": ("standard",),
        "seed": 5,
        "games": games,
        "chunk": chunk,
        "bid_samples": SAMPLES,
    }
    values.update(changes)
    return RunConfig(**values)


@pytest.fixture(scope="module")
def straight(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, np.ndarray]]:
    """Two games of the house rules (Nel-O, plunge, splash, Sevens) and standard, one a part."""
    folder = tmp_path_factory.mktemp("straight")
    summary = run_selfplay(folder, config(2, rules=("standard", "house")))
    assert (summary.parts_written, summary.games_played, summary.stopped) == (2, 2, False)
    return folder, load(folder)


def test_columns_have_their_shapes(straight: tuple[Path, dict[str, np.ndarray]]) -> None:
    _folder, data = straight
    assert set(data) == set(COLUMNS)
    for table in TABLES:
        lengths = {len(data[name]) for name in COLUMNS if name.startswith(table + "_")}
        assert len(lengths) == 1, table
    for name, (dtype, width) in COLUMNS.items():
        assert data[name].dtype == np.dtype(dtype), name
        if width is not None:
            assert data[name].shape[1] == (SAMPLES if isinstance(width, str) else width), name
    assert list(data["games_game"]) == [0, 1]
    assert [int((data["hands_game"] == g).sum()) for g in (0, 1)] == list(data["games_hands"])
    assert len(data["calls_game"]) == 4 * len(data["hands_game"])


def test_deals_and_scores(straight: tuple[Path, dict[str, np.ndarray]]) -> None:
    _folder, data = straight
    for dealt in data["hands_dealt"]:
        masks = [int(m) for m in dealt]
        assert [m.bit_count() for m in masks] == [7, 7, 7, 7]
        assert masks[0] | masks[1] | masks[2] | masks[3] == ALL_TILES
        assert sum(masks) == ALL_TILES  # disjoint: no tile twice
    for g in (0, 1):
        rows = np.flatnonzero(data["hands_game"] == g)
        score = np.zeros(2, dtype=int)
        for row in rows:
            assert list(data["hands_score"][row]) == list(score)
            score += data["hands_marks"][row]
            assert data["hands_points"][row].sum() <= 42
        assert max(score) >= 7 and int(np.argmax(score)) == data["games_winner"][g]


def test_calls_replay_to_the_recorded_contract(
    straight: tuple[Path, dict[str, np.ndarray]],
) -> None:
    _folder, data = straight
    rules = [Rules.parse("standard"), Rules.parse("house")]
    for row in range(len(data["hands_game"])):
        game, number = data["hands_game"][row], data["hands_hand"][row]
        hand = Hand(
            rules[data["hands_rules"][row]],
            int(data["hands_shaker"][row]),
            [int(m) for m in data["hands_dealt"][row]],
        )
        calls = np.flatnonzero((data["calls_game"] == game) & (data["calls_hand"] == number))
        assert list(data["calls_position"][calls]) == [0, 1, 2, 3]
        for k, call in enumerate(calls):
            seat = int(data["calls_seat"][call])
            assert seat == hand.turn
            assert data["calls_dealt"][call] == data["hands_dealt"][row][seat]
            before = [int(a) for a in data["calls_before"][call] if a >= 0]
            assert before == hand.calls[:k]
            hand.apply(int(data["calls_action"][call]))
        bidder = data["hands_bidder"][row]
        assert (hand.high_seat if hand.high_seat is not None else -1) == bidder
        assert (hand.high_id if hand.high_id is not None else -1) == data["hands_bid"][row]
        if bidder >= 0:
            hand.apply(int(data["hands_declare"][row]))  # the recorded contract is legal here
            won = [data["calls_seat"][c] % 2 == bidder % 2 for c in calls]
            assert list(data["calls_won"][calls]) == won
            marks = data["hands_marks"][row]
            for call in calls:
                side = data["calls_seat"][call] % 2
                assert data["calls_marks"][call] == marks[side] - marks[1 - side]
                assert data["calls_points"][call] == data["hands_points"][row][side]
            assert data["hands_made"][row] == int(marks[bidder % 2] > 0)


def test_contracts_are_every_candidate_of_every_seat(
    straight: tuple[Path, dict[str, np.ndarray]],
) -> None:
    _folder, data = straight
    rules = [Rules.parse("standard"), Rules.parse("house")]
    specials = 0
    for row in range(len(data["hands_game"])):
        game, number = data["hands_game"][row], data["hands_hand"][row]
        table = rules[data["hands_rules"][row]]
        deal = [int(m) for m in data["hands_dealt"][row]]
        hand = Hand(table, int(data["hands_shaker"][row]), deal)
        for seat in range(4):
            rows = np.flatnonzero(
                (data["contracts_game"] == game)
                & (data["contracts_hand"] == number)
                & (data["contracts_seat"] == seat)
            )
            expected = contract_calls(table, hand, seat)
            assert len(rows) == len(expected) >= len(candidate_contracts(table, deal[seat]))
            for r, (call, contract) in zip(rows, expected, strict=True):
                assert data["contracts_dealt"][r] == deal[seat]
                assert data["contracts_bid"][r] == call
                assert list(data["contracts_score"][r]) == [
                    data["hands_score"][row][seat % 2],
                    data["hands_score"][row][1 - seat % 2],
                ]
                assert 0 <= data["contracts_points"][r] <= 42
                assert 0 <= data["contracts_tricks"][r] <= 7
                dd = data["contracts_dd"][r]
                if contract is None:
                    specials += 1
                    assert call in (PLUNGE_ID, SPLASH_ID) and list(dd) == [-1] * SAMPLES
                    assert data["contracts_made"][r] == (data["contracts_tricks"][r] == 7)
                    continue
                assert data["contracts_declare"][r] == Declare(contract).id
                if contract.kind == "nello":
                    assert set(dd) <= {0, 1}
                    assert data["contracts_made"][r] == (data["contracts_tricks"][r] == 0)
                else:
                    assert all(0 <= v <= 42 for v in dd)
                if contract.kind in ("suit", "doubles", "follow-me"):
                    assert call == Bid("30").id
                    assert data["contracts_made"][r] == (data["contracts_points"][r] >= 30)
    assert specials == int(np.isin(data["contracts_bid"], [PLUNGE_ID, SPLASH_ID]).sum())


def test_double_dummy_figures_are_the_bidders(
    straight: tuple[Path, dict[str, np.ndarray]],
) -> None:
    """contracts_dd is what a simulation bidder seeded as the seat's bot computes for each
    contract on the seat's opening view, deals drawn from its tiles alone."""
    _folder, data = straight
    rules = Rules.parse("standard")
    row = 0  # game 0 (standard rules), its first hand
    hand = Hand(rules, int(data["hands_shaker"][row]), [int(m) for m in data["hands_dealt"][row]])
    seed = int(data["games_seed"][0])
    for seat in range(4):
        judge = PimcBot(PimcSettings(bid_samples=SAMPLES), seed * 4 + seat)
        chances = judge.contract_chances(hand.view(seat, (0, 0), 1))
        rows = np.flatnonzero(
            (data["contracts_game"] == 0)
            & (data["contracts_hand"] == 0)
            & (data["contracts_seat"] == seat)
        )
        for r, (_call, contract) in zip(rows, contract_calls(rules, hand, seat), strict=True):
            assert contract is not None
            assert list(data["contracts_dd"][r]) == [value for value, _w in chances[contract]]


def test_play_outs_go_to_the_last_trick() -> None:
    """42 points and 7 tricks between the sides in every play-out of a deal, even a Nel-O set
    at the first trick and a 30 made early (in Nel-O the partner sits out, so its count is
    never played)."""
    rules = Rules.parse("house")
    hand = Hand(rules, 0, _deal_with_doubles())
    players = [make_bot("rules", seat) for seat in range(4)]
    kinds = set()
    for seat in range(4):
        for call, contract in contract_calls(rules, hand, seat):
            declare, _made, points, tricks = play_out(rules, hand, seat, call, contract, players)
            out = (
                hand.deal[(seat + 2) % 4]
                if contract is not None and contract.kind == "nello"
                else 0
            )
            assert sum(points) == 42 - count_points(out) and sum(tricks) == 7
            kinds.add(ACTIONS[call].notation if contract is None else contract.kind)
            if contract is None:  # partner named the trump
                assert ACTIONS[declare].notation in {str(d) for d in _trumps()}
    assert {"plunge", "splash", "nello", "sevens"} <= kinds


def _deal_with_doubles() -> list[int]:
    """North holds five doubles (plunge and splash are open to it), the rest dealt in order."""
    from texas42.core.tiles import parse_hand

    north = parse_hand("6-6 5-5 4-4 3-3 2-2 6-5 6-4")
    rest = [t for t in range(28) if not north >> t & 1]
    others = [sum(1 << t for t in rest[k * 7 : (k + 1) * 7]) for k in range(3)]
    return [north, *others]


def _trumps() -> list[Declare]:
    return [Declare(name) for name in ("blanks", "ones", "twos", "threes", "fours", "fives")] + [
        Declare("sixes"),
        Declare("doubles"),
        Declare("follow-me"),
    ]


def test_a_stopped_run_resumes_to_the_same_arrays(
    tmp_path: Path, straight: tuple[Path, dict[str, np.ndarray]]
) -> None:
    _folder, expected = straight
    plan = config(2, rules=("standard", "house"))
    played: list[int] = []

    def stop_at_the_second(data: Any) -> None:
        played.append(data.index)
        if len(played) == 2:
            raise KeyboardInterrupt

    first = run_selfplay(tmp_path, plan, progress=stop_at_the_second)
    assert (first.stopped, first.parts_written) == (True, 1)
    assert part_path(tmp_path, 0).exists() and not part_path(tmp_path, 1).exists()
    found: list[int] = []
    second = run_selfplay(tmp_path, plan, found_games=found.append)
    assert (second.stopped, second.parts_found, second.parts_written) == (False, 1, 1)
    assert found == [1]
    again = load(tmp_path)
    for name in COLUMNS:
        np.testing.assert_array_equal(again[name], expected[name], err_msg=name)
    done = run_selfplay(tmp_path, plan)
    assert (done.parts_found, done.parts_written) == (2, 0)


def test_more_games_replay_a_short_last_part(tmp_path: Path) -> None:
    short = run_selfplay(tmp_path, config(1, chunk=2))
    assert (short.parts_written, short.games_played) == (1, 1)
    longer = run_selfplay(tmp_path, config(2, chunk=2))
    assert (longer.parts_found, longer.parts_written, longer.games_played) == (0, 1, 2)
    assert json.loads((tmp_path / "run.json").read_text())["games"] == 2
    fewer = run_selfplay(tmp_path, config(1, chunk=2))
    assert (fewer.parts_found, fewer.parts_written) == (1, 0)
    assert list(load(tmp_path)["games_game"]) == [0, 1]


def test_another_run_is_refused(straight: tuple[Path, dict[str, np.ndarray]]) -> None:
    folder, _data = straight
    for change in ({"playout": "random"}, {"seed": 6}, {"bid_samples": 3}, {"rules": ("house",)}):
        with pytest.raises(Texas42Error, match="holds another self-play run"):
            run_selfplay(folder, config(2, **{"rules": ("standard", "house"), **change}))


def test_refused_before_playing(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(Texas42Error, match="not empty"):
        run_selfplay(tmp_path, config(1))
    for bad, words in (
        (config(0), "at least one game"),
        (config(1, chunk=0), "at least one game"),
        (config(1, bid_samples=0), "bid samples"),
        (config(1, rules=("three-hand",)), "four seats"),
        (config(1, rules=("standard,game=points",)), "marks games"),
        (config(1, bot="nobody"), "nobody"),
    ):
        with pytest.raises(Texas42Error, match=words):
            run_selfplay(tmp_path / "new", bad)
        assert not (tmp_path / "new").exists()


@pytest.mark.parametrize(
    ("damage", "words"),
    [
        (lambda path: path.write_bytes(b"not a zip"), "is damaged"),
        (lambda path: _rewrite(path, "calls_seat", lambda a: a.astype("float64")), "calls_seat"),
        (lambda path: _rewrite(path, "hands_bid", lambda a: a[:-1]), "hands_bid has"),
        (lambda path: _rewrite(path, "contracts_dd", lambda a: a[:, :1]), "contracts_dd"),
    ],
)
def test_a_damaged_part_is_named(
    tmp_path: Path,
    straight: tuple[Path, dict[str, np.ndarray]],
    damage: Callable[[Path], None],
    words: str,
) -> None:
    folder, _data = straight
    copy = tmp_path / "copy"
    copy.mkdir()
    for name in ("run.json", "part-00000.npz", "part-00001.npz"):
        (copy / name).write_bytes((folder / name).read_bytes())
    damage(copy / "part-00001.npz")
    with pytest.raises(Texas42Error, match=words) as caught:
        load(copy)
    assert "part-00001.npz" in str(caught.value)


def _rewrite(path: Path, name: str, change: Callable[[np.ndarray], np.ndarray]) -> None:
    with np.load(path) as npz:
        arrays = {key: npz[key] for key in npz.files}
    arrays[name] = change(arrays[name])
    with path.open("wb") as file:
        np.savez(file, **arrays)  # type: ignore[arg-type]


def test_load_refuses_a_folder_without_a_run(tmp_path: Path) -> None:
    with pytest.raises(Texas42Error, match=r"no run\.json"):
        load(tmp_path)
    (tmp_path / "run.json").write_text('{"format": "something/9"}')
    with pytest.raises(Texas42Error, match="not a texas42-selfplay/1 run"):
        load(tmp_path)


def _negate(n: int) -> int:
    return -n


def test_map_specs_keeps_the_order_in_a_pool() -> None:
    assert list(map_specs(_negate, [3, 1, 2, 5, 4], workers=2)) == [-3, -1, -2, -5, -4]
    assert list(map_specs(_negate, [3, 1])) == [-3, -1]
    # the slow first spec holds the rest back in order; more specs than the window of results
    slow = [0.3, *[0.0] * 40]
    assert list(map_specs(_wait_then_negate, slow, workers=2)) == [-s for s in slow]
    assert not multiprocessing.active_children()


def _wait_then_negate(seconds: float) -> float:
    time.sleep(seconds)
    return -seconds


def _fail_or_end(n: int) -> int:
    if n == 3:
        raise ValueError("three is not allowed")
    if n == 4:
        os._exit(7)  # a worker that dies without a word
    return n


def test_map_specs_raises_a_workers_failure_and_ends_its_workers() -> None:
    with pytest.raises(ValueError, match="three is not allowed") as failure:
        list(map_specs(_fail_or_end, [1, 2, 3, 1], workers=2))
    assert "in _fail_or_end" in str(failure.value.__cause__)  # the worker's traceback
    assert not multiprocessing.active_children()
    with pytest.raises(Texas42Error, match="a worker process ended with exit code 7"):
        list(map_specs(_fail_or_end, [1, 4, 2], workers=2))
    assert not multiprocessing.active_children()


def test_map_specs_closed_early_ends_its_workers_at_once() -> None:
    """An SPRT stop or Ctrl-C closes the results: workers still busy are ended, not waited for
    (a whole expert game can be under way)."""
    results = map_specs(_wait_then_negate, [0.0, 600.0, 600.0], workers=2)
    assert next(results) == 0.0
    results.close()
    assert not multiprocessing.active_children()


class FakeRay:
    """Stands in for the ray module: a task runs its function when its result is asked for."""

    def __init__(self) -> None:
        self.addresses: list[str | None] = []

    def init(self, address: str | None, ignore_reinit_error: bool) -> None:
        self.addresses.append(address)

    def cluster_resources(self) -> dict[str, float]:
        return {"CPU": 1.0}

    def remote(self, function: Callable[[Any], Any]) -> Any:
        class Remote:
            def remote(self, spec: Any) -> tuple[Callable[[Any], Any], Any]:
                return function, spec

        return Remote()

    def get(self, ref: tuple[Callable[[Any], Any], Any]) -> Any:
        return ref[0](ref[1])

    def cancel(self, ref: object) -> None:
        pass


def test_ray_plays_the_same_run(
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    straight: tuple[Path, dict[str, np.ndarray]],
) -> None:
    folder, _data = straight
    expected = read_part(part_path(folder, 0), SAMPLES)
    ray = FakeRay()
    monkeypatch.setitem(sys.modules, "ray", ray)
    run_selfplay(tmp_path, config(1, rules=("standard", "house")), ray_address="head:6379")
    assert ray.addresses == ["head:6379"]
    there = load(tmp_path)
    for name in COLUMNS:
        np.testing.assert_array_equal(there[name], expected[name], err_msg=name)


def test_the_command(tmp_path: Path) -> None:
    out = tmp_path / "run"
    args = ["selfplay", str(out), "--games", "1", "--bot", "rules", "--playout", "rules"]
    args += ["--rules", "standard", "--bid-samples", "2", "--seed", "5"]
    done = runner.invoke(app, args)
    assert done.exit_code == 0, done.output
    assert done.stdout.startswith(f"{out}: wrote 1 parts (1 games; rows: ")
    assert json.loads((out / "run.json").read_text())["playout"] == "rules"
    again = runner.invoke(app, args)
    assert again.exit_code == 0 and "1 parts (1 games) were there already" in again.stdout
    other = runner.invoke(app, [*args, "--chunk", "3"])
    assert other.exit_code == 2
    assert "holds another self-play run (chunk 5 there, 3 here)" in other.stderr


@pytest.mark.parametrize(
    ("extra", "words"),
    [
        (["--games", "0"], "at least one game"),
        (["--games", "1", "--workers", "0"], "--workers: at least 1"),
        (["--games", "1", "--rules", "no-such-preset"], "--rules:"),
        (["--games", "1", "--rules", "three-hand"], "four seats"),
        (["--games", "1", "--playout", "pimc:nonsense=1"], "nonsense"),
        (["--games", "1", "--bid-samples", "0"], "bid samples"),
    ],
)
def test_bad_arguments(tmp_path: Path, extra: list[str], words: str) -> None:
    done = runner.invoke(app, ["selfplay", str(tmp_path / "run"), *extra])
    assert done.exit_code == 2
    assert words in done.stderr
    assert not (tmp_path / "run").exists()
