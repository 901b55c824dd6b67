"""A long arena run survives being stopped: ``--records DIR --resume`` reads back the pairs
already played (the folder's ledger) and plays only the missing ones, and the summary is the one
a run that never stopped gives."""

from __future__ import annotations

import dataclasses
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from helpers import interrupted_arena
from texas42 import Rules
from texas42.faces.cli import app
from texas42.services.arena import MatchSpec, play_match, run_match
from texas42.services.arena.ledger import LEDGER, checked_records, open_ledger, pair_line
from texas42.services.arena.match import MatchResult
from texas42.services.arena.report import record_pair

TEXAS42 = str(Path(sys.executable).parent / "texas42")
runner = CliRunner()
MATCH = ["arena", "random", "rules", "--seed", "7"]


def arena_json(*args: str) -> dict[str, Any]:
    """The arena's summary as JSON, the time and the games it took (all a resumed run changes)
    left out."""
    done = runner.invoke(app, [*MATCH, *args, "--json"])
    assert done.exit_code == 0, done.output
    summary = json.loads(done.stdout)
    del summary["seconds"], summary["played_now"]
    return summary


def refused(*args: str) -> str:
    done = runner.invoke(app, [*MATCH, *args])
    assert done.exit_code == 2, done.output
    return done.stderr


def ledger_pairs(folder: Path) -> list[int]:
    lines = (folder / LEDGER).read_text().splitlines()
    assert json.loads(lines[0])["run"] == 1
    return [json.loads(line)["pair"] for line in lines[1:]]


def stop_after(folder: Path, pairs: int, stopped: int) -> None:
    """A run of ``pairs`` single-hand pairs of MATCH into ``folder``, stopped by Ctrl-C as its
    pair ``stopped`` ends (saved, as the command saves each pair)."""
    rules = Rules()
    ledger = open_ledger(folder, "random", "rules", rules, pairs, 7, hands=True)

    def save(result: MatchResult) -> None:
        ledger.save(result)
        if result.spec.index + 1 == stopped:
            raise KeyboardInterrupt

    summary, _ = play_match(
        "random", "rules", rules, pairs, 7, hands=True, records=True, progress=save
    )
    assert summary.pairs == stopped


def test_a_run_stopped_after_3_of_6_pairs_and_resumed_sums_up_as_a_straight_run(
    tmp_path: Path,
) -> None:
    straight = arena_json("--hands", "12", "--records", str(tmp_path / "straight"))
    folder = tmp_path / "stopped"
    folder.mkdir()
    stop_after(folder, 6, 3)
    assert ledger_pairs(folder) == [0, 1, 2]
    assert len(list(folder.glob("*.json"))) == 6
    resumed = arena_json("--hands", "12", "--records", str(folder), "--resume")
    assert resumed == straight
    assert ledger_pairs(folder) == [0, 1, 2, 3, 4, 5]
    assert sorted(p.name for p in folder.glob("*.json")) == sorted(
        p.name for p in (tmp_path / "straight").glob("*.json")
    )
    # resumed once more, nothing is left to play and the summary stands
    assert arena_json("--hands", "12", "--records", str(folder), "--resume") == straight


def test_a_resumed_run_times_only_the_games_it_played(tmp_path: Path) -> None:
    """The rate is of the games played now: a resume that reads every pair back plays nothing
    and says so, rather than dividing thousands of games by the milliseconds of reading them."""
    folder = tmp_path / "stopped"
    folder.mkdir()
    stop_after(folder, 6, 4)
    args = [*MATCH, "--hands", "12", "--records", str(folder), "--resume"]
    done = runner.invoke(app, [*args, "--json"])
    assert done.exit_code == 0, done.output
    summary = json.loads(done.stdout)
    assert (summary["games"], summary["played_now"]) == (12, 4)
    shown = runner.invoke(app, args, env={"COLUMNS": "200"})
    assert shown.exit_code == 0, shown.output
    assert "hands played now" not in shown.stdout  # nothing left to play: nothing timed
    assert "nothing played" in shown.stdout
    assert "hands a minute" not in shown.stdout
    again = tmp_path / "again"
    again.mkdir()
    stop_after(again, 6, 4)
    shown = runner.invoke(app, [*args[:-2], str(again), "--resume"], env={"COLUMNS": "200"})
    assert shown.exit_code == 0, shown.output
    row = next(line for line in shown.stdout.splitlines() if "hands played now" in line)
    assert row.split("│")[2].strip() == "4"


def test_only_the_missing_pairs_are_played(tmp_path: Path) -> None:
    folder = tmp_path / "run"
    folder.mkdir()
    stop_after(folder, 6, 4)
    ledger = open_ledger(folder, "random", "rules", Rules(), 6, 7, hands=True, resume=True)
    assert sorted(ledger.known) == [0, 1, 2, 3]
    played: list[int] = []
    summary, results = play_match(
        "random",
        "rules",
        Rules(),
        6,
        7,
        hands=True,
        records=True,
        progress=lambda result: played.append(result.spec.index),
        known=ledger.known,
    )
    assert played == [4, 5]
    assert [r.spec.index for r in results] == list(range(6))
    straight, straight_results = play_match("random", "rules", Rules(), 6, 7, hands=True)
    unrecorded = [
        tuple(dataclasses.replace(game, record=None) for game in r.games) for r in results
    ]
    assert unrecorded == [r.games for r in straight_results]
    assert summary.margin == straight.margin and summary.wins == straight.wins


def test_more_games_extend_the_run_on_the_same_deals(tmp_path: Path) -> None:
    folder = tmp_path / "run"
    assert arena_json("--hands", "6", "--records", str(folder))["pairs"] == 3
    extended = arena_json("--hands", "12", "--records", str(folder), "--resume")
    assert extended == arena_json("--hands", "12", "--records", str(tmp_path / "straight"))
    assert extended["planned_pairs"] == 6
    assert json.loads((folder / LEDGER).read_text().splitlines()[0])["planned_pairs"] == 6


def test_fewer_games_count_only_the_first_pairs_and_keep_the_rest(tmp_path: Path) -> None:
    folder = tmp_path / "run"
    arena_json("--hands", "12", "--records", str(folder))
    assert arena_json("--hands", "6", "--records", str(folder), "--resume") == arena_json(
        "--hands", "6", "--records", str(tmp_path / "straight")
    )
    assert ledger_pairs(folder) == [0, 1, 2, 3, 4, 5]


def test_a_torn_last_line_is_ignored_and_its_pair_played_again(tmp_path: Path) -> None:
    straight = arena_json("--hands", "12", "--records", str(tmp_path / "straight"))
    folder = tmp_path / "run"
    arena_json("--hands", "12", "--records", str(folder))
    path = folder / LEDGER
    lines = path.read_text().splitlines()
    path.write_text("\n".join(lines[:-1]) + "\n" + lines[-1][: len(lines[-1]) // 2])  # killed
    ledger = open_ledger(folder, "random", "rules", Rules(), 6, 7, hands=True, resume=True)
    assert sorted(ledger.known) == [0, 1, 2, 3, 4]
    assert path.read_text().endswith("\n")  # the torn line is gone, so the next one is whole
    assert arena_json("--hands", "12", "--records", str(folder), "--resume") == straight
    assert ledger_pairs(folder) == [0, 1, 2, 3, 4, 5]


def test_a_pair_whose_records_are_missing_is_played_again(tmp_path: Path) -> None:
    straight = arena_json("--hands", "12", "--records", str(tmp_path / "straight"))
    folder = tmp_path / "run"
    arena_json("--hands", "12", "--records", str(folder))
    lost = folder / "pair00002-A-east-west.json"
    kept = lost.read_text()
    lost.unlink()
    ledger = open_ledger(folder, "random", "rules", Rules(), 6, 7, hands=True, resume=True)
    assert sorted(ledger.known) == [0, 2, 3, 4, 5]
    assert arena_json("--hands", "12", "--records", str(folder), "--resume") == straight
    assert lost.read_text() == kept
    assert sorted(ledger_pairs(folder)) == [0, 1, 2, 3, 4, 5]


def test_a_line_of_another_deal_seed_or_garbage_is_not_counted(tmp_path: Path) -> None:
    folder = tmp_path / "run"
    arena_json("--hands", "4", "--records", str(folder))
    forged = run_match(MatchSpec("random", "rules", Rules(), 12345, 1, True, True))
    with (folder / LEDGER).open("a") as ledger:
        ledger.write(pair_line(forged) + "\n")  # pair 1 on a deal that is not pair 1's
        ledger.write('{"pair": 0, "games": "no"}\n[]\n')
    resumed = open_ledger(folder, "random", "rules", Rules(), 2, 7, hands=True, resume=True)
    assert sorted(resumed.known) == [0, 1]
    assert resumed.known[1].spec.seed != 12345
    assert ledger_pairs(folder) == [0, 1]


def test_a_folder_holding_a_run_is_refused_without_resume(tmp_path: Path) -> None:
    folder = tmp_path / "run"
    arena_json("--hands", "4", "--records", str(folder))
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    why = refused("--hands", "4", "--records", str(folder))
    assert "already holds a run (random against rules, rules standard, seed 7" in why
    assert "pass --resume to continue it, or choose another folder" in why
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == before
    # records saved before there were ledgers are a run too, which cannot be resumed
    (folder / LEDGER).unlink()
    assert "already holds a run (its records)" in refused("--hands", "4", "--records", str(folder))
    why = refused("--hands", "4", "--records", str(folder), "--resume")
    assert f"holds records but no {LEDGER}, so its run cannot be resumed" in why


@pytest.mark.parametrize(
    ("change", "named"),
    [
        (["arena", "random", "random", "--seed", "7"], "bot B random (the run's is rules)"),
        (["arena", "rules", "rules", "--seed", "7"], "bot A rules (the run's is random)"),
        ([*MATCH[:3], "--seed", "8"], "seed 8 (the run's is 7)"),
        ([*MATCH, "--rules", "house"], "rules house (the run's is standard)"),
    ],
)
def test_a_resumed_run_with_other_bots_rules_or_seed_is_refused_naming_what_differs(
    tmp_path: Path, change: list[str], named: str
) -> None:
    folder = tmp_path / "run"
    arena_json("--hands", "4", "--records", str(folder))
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    done = runner.invoke(app, [*change, "--hands", "4", "--records", str(folder), "--resume"])
    assert done.exit_code == 2, done.output
    assert named in done.stderr and "cannot resume the run in" in done.stderr
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == before


def test_a_resumed_run_of_the_other_mode_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "run"
    arena_json("--hands", "4", "--records", str(folder))
    why = refused("--games", "4", "--records", str(folder), "--resume")
    assert "--games (the run plays hands)" in why


def test_resume_needs_a_folder_and_starts_a_new_run_in_an_empty_one(tmp_path: Path) -> None:
    assert "--resume: name the run's folder with --records DIR" in refused(
        "--hands", "4", "--resume"
    )
    folder = tmp_path / "new"
    assert arena_json("--hands", "4", "--records", str(folder), "--resume") == arena_json(
        "--hands", "4", "--records", str(tmp_path / "straight")
    )


def test_a_run_that_played_no_pair_holds_nothing_to_refuse(tmp_path: Path) -> None:
    folder = tmp_path / "run"
    folder.mkdir()
    open_ledger(folder, "random", "rules", Rules(), 2, 7, hands=True)
    assert arena_json("--hands", "4", "--records", str(folder))["pairs"] == 2


def test_resume_with_workers_and_an_sprt_stop(tmp_path: Path) -> None:
    sprt = ["--sprt", "--sprt-p0", "0.3", "--sprt-p1", "0.4"]
    straight = arena_json("--hands", "200", *sprt, "--records", str(tmp_path / "straight"))
    assert straight["sprt"]["decision"] is not None and straight["pairs"] < 100
    folder = tmp_path / "run"
    folder.mkdir()
    stop_after(folder, 100, 3)
    resumed = arena_json(
        "--hands", "200", *sprt, "--records", str(folder), "--resume", "--workers", "2"
    )
    assert resumed == straight
    assert ledger_pairs(folder) == list(range(straight["pairs"]))


class FakeRay:
    """Stands in for the ray module: tasks run when their result is asked for."""

    def __init__(self) -> None:
        self.ran: list[int] = []

    def init(self, address: str | None, ignore_reinit_error: bool) -> None:
        pass

    def cluster_resources(self) -> dict[str, float]:
        return {"CPU": 1.0}

    def remote(self, function: object) -> object:
        class Remote:
            def remote(self, spec: MatchSpec) -> MatchSpec:
                return spec

        return Remote()

    def get(self, spec: MatchSpec) -> MatchResult:
        self.ran.append(spec.index)
        return run_match(spec)

    def cancel(self, ref: object) -> None:
        pass


def test_resume_on_ray_plays_only_the_missing_pairs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ray = FakeRay()
    monkeypatch.setitem(sys.modules, "ray", ray)
    straight = arena_json("--hands", "12", "--records", str(tmp_path / "straight"))
    folder = tmp_path / "run"
    folder.mkdir()
    stop_after(folder, 6, 2)
    resumed = arena_json("--hands", "12", "--records", str(folder), "--resume", "--ray", "local")
    assert resumed == straight
    assert ray.ran == [2, 3, 4, 5]


def test_ctrl_c_then_resume_loses_no_finished_pair(tmp_path: Path) -> None:
    """A real Ctrl-C (SIGINT to the process group) in a run with two workers: every pair the
    stopped run counted is in the ledger, and resumed a little further the run gives the
    summary of a straight run of that length."""
    folder = tmp_path / "games"
    command = [TEXAS42, *MATCH[:3], "--seed", "7", "--games", "200000", "--workers", "2"]
    returncode, out, err = interrupted_arena(command, folder, 10)
    assert returncode == 130, err
    pairs = len(ledger_pairs(folder))
    assert f"Stopped by Ctrl-C after {pairs} of 100000 pairs" in out
    assert ledger_pairs(folder) == list(range(pairs))
    assert len(list(folder.glob("*.json"))) == 2 * pairs
    games = str(2 * (pairs + 2))
    resumed = arena_json("--games", games, "--records", str(folder), "--resume")
    assert resumed == arena_json("--games", games, "--records", str(tmp_path / "straight"))
    assert ledger_pairs(folder) == list(range(pairs + 2))


def test_the_records_of_chosen_pairs_are_read_by_their_names(tmp_path: Path) -> None:
    """A fit on a run's first pairs is checked on the pairs after them: `checked_records` with
    ``pairs`` reads only those pairs' records, told by the names the arena gives them."""
    folder = tmp_path / "run"
    arena_json("--hands", "8", "--records", str(folder))
    every = [path.name for path, _, _ in checked_records([folder])]
    assert [record_pair(name) for name in every] == [1, 1, 2, 2, 3, 3, 4, 4]
    later = [path.name for path, _, _ in checked_records([folder], range(3, 5))]
    assert later == every[4:]
    (folder / "notes.json").write_text("{}")  # not a record: no pair, so never read for one
    assert record_pair("notes.json") is None and record_pair("pair1-A-north-south.json") is None
    assert [path.name for path, _, _ in checked_records([folder], range(1, 2))] == every[:2]
