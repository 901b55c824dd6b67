"""``texas42 bidder train`` and ``info`` end to end on a tiny run: the model file, its
metadata, reproducibility, and clear refusals."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from bidder_fixture import write_run
from texas42 import Rules
from texas42.core.errors import Texas42Error
from texas42.faces.cli import app
from texas42.services.bidder import read_run, train

runner = CliRunner()


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_run(tmp_path_factory.mktemp("data") / "r0", games=16, seed=2)


def _arrays(path: Path) -> dict[str, np.ndarray]:
    with np.load(path) as data:
        return {k: data[k] for k in data.files}


def test_train_writes_a_model_whose_metadata_says_how_it_was_made(
    run: Path, tmp_path: Path
) -> None:
    out = tmp_path / "m.npz"
    result = runner.invoke(app, ["bidder", "train", str(run), "--out", str(out), "--seed", "4"])
    assert result.exit_code == 0, result.output
    assert f"wrote {out}" in result.output and "held out, trump" in result.output
    shown = runner.invoke(app, ["bidder", "info", str(out), "--json"])
    assert shown.exit_code == 0, shown.output
    meta = json.loads(shown.output)
    assert meta["seed"] == 4 and meta["format"] == "texas42-bidder/1"
    assert meta["command"] == f"texas42 bidder train {run} --out {out} --seed 4"
    [source] = meta["runs"]
    assert source["folder"] == "r0" and source["seed"] == 2 and source["parts"] == 2
    assert source["hands"] == len(read_run(run).arrays["hands_game"])
    trump = meta["rows"]["trump"]
    assert trump["train"] > 0 and trump["held_out"] > 0
    scores = meta["held_out"]["trump"]
    assert 0 < scores["model"]["log_loss"] < 1 and 0 < scores["calibrated"]["brier"] < 1
    assert meta["bytes"] == out.stat().st_size < 5_000_000
    text = runner.invoke(app, ["bidder", "info", str(out)])
    assert "r0: " in text.output and "seed 4" in text.output


def test_the_same_data_and_seed_give_the_same_weights(run: Path, tmp_path: Path) -> None:
    a, b, c = (tmp_path / f"{k}.npz" for k in "abc")
    train([run], a, seed=7)
    train([run], b, seed=7)
    train([run], c, seed=8)
    first, second, other = _arrays(a), _arrays(b), _arrays(c)
    assert first.keys() == second.keys()
    for key in first:
        assert np.array_equal(first[key], second[key]), key
    assert not np.array_equal(first["trump_weights"], other["trump_weights"])


def test_two_runs_train_one_model(run: Path, tmp_path: Path) -> None:
    second = write_run(tmp_path / "r1", games=6, seed=9, rules=("standard",))
    meta = train([run, second], tmp_path / "m.npz", seed=1)
    assert [r["folder"] for r in meta["runs"]] == ["r0", "r1"]


def test_bad_data_is_refused_with_one_line(run: Path, tmp_path: Path) -> None:
    result = runner.invoke(app, ["bidder", "train", str(tmp_path / "none"), "--out", "x.npz"])
    assert result.exit_code == 2 and "holds no self-play run" in result.output
    (tmp_path / "empty").mkdir()
    (tmp_path / "empty" / "run.json").write_text((run / "run.json").read_text())
    with pytest.raises(Texas42Error, match="has no parts"):
        read_run(tmp_path / "empty")
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "run.json").write_text("{}")
    with pytest.raises(Texas42Error, match="is not a texas42-selfplay/1 run"):
        train([tmp_path / "other"], tmp_path / "m.npz")
    with pytest.raises(Texas42Error, match="held-out share"):
        train([tmp_path / "other"], tmp_path / "m.npz", holdout=1.5)
    result = runner.invoke(app, ["bidder", "info", str(tmp_path / "missing.npz")])
    assert result.exit_code == 2 and "cannot read the bidder model" in result.output


def test_the_fits_recover_what_made_the_data() -> None:
    """Outcomes drawn from known logistic models: the fits find the weights again."""
    from texas42.services.bidder.fit import fit_binary, fit_cumulative, fit_multinomial

    rng = np.random.default_rng(0)
    n = 4000
    z = rng.normal(size=(n, 2))
    true_w = np.array([1.5, -0.7])
    # points: a latent score with logistic noise, thresholds at 30..33
    latent = z @ true_w + rng.logistic(size=n)
    levels = (30, 31, 32, 33)
    cuts = np.array([-1.0, 0.0, 0.5, 2.0])
    points = 29 + (latent[:, None] > cuts[None, :]).sum(axis=1)
    w, a = fit_cumulative(z, points, levels, l2=0.1)
    assert np.allclose(w, true_w, atol=0.15)
    assert np.allclose(a, -cuts, atol=0.15) and np.all(np.diff(a) <= 0)
    made = rng.random(n) < 1 / (1 + np.exp(-(z @ true_w + 0.3)))
    wb, b = fit_binary(z, made, l2=0.1)
    assert np.allclose(wb, true_w, atol=0.15) and abs(b[0] - 0.3) < 0.15
    scores = np.stack([z @ true_w, -z @ true_w, np.zeros(n)], axis=1)
    p = np.exp(scores) / np.exp(scores).sum(axis=1, keepdims=True)
    labels = np.array([rng.choice(3, p=row) for row in p])
    allowed = np.ones((n, 3), dtype=bool)
    weights, _ = fit_multinomial(z, labels, allowed, 3, l2=0.1, steps=600)
    # softmax weights are known up to a common shift: compare differences from the last class
    assert np.allclose(weights[0] - weights[2], true_w, atol=0.2)
    assert np.allclose(weights[1] - weights[2], -true_w, atol=0.2)


def test_rebuild_plays_its_own_games_and_keeps_the_better_model(run: Path, tmp_path: Path) -> None:
    """Two tiny rounds (two-mark games, RulesBot's play-outs): each round's self-play bot is
    the learned bidder of the model before, and the kept model is written."""
    start = tmp_path / "start.npz"
    train([run], start, seed=0)
    out = tmp_path / "rebuild"
    args = [
        "bidder",
        "rebuild",
        "--out",
        str(out),
        "--rounds",
        "2",
        "--games",
        "2",
        "--bot",
        "pimc:samples=2,value_samples=1,bid_samples=2",
        "--playout",
        "rules",
        "--rules",
        "standard,target=2",
        "--bid-samples",
        "2",
        "--chunk",
        "1",
        "--start",
        str(start),
        "--json",
    ]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    first = report["rounds"][0]
    assert first["played_with"] == str(start) and first["round"] == 1
    spec = json.loads((out / "round-1" / "run.json").read_text())["bot"]
    assert "bidding=learned" in spec and f"bidder_model={start.resolve()}" in spec
    assert (out / "bidder.npz").read_bytes() == Path(report["kept"]).read_bytes()
    kept_round = 0 if report["kept"] == str(start) else int(Path(report["kept"]).stem.split("-")[1])
    assert all(r["improved"] for r in report["rounds"][:kept_round])
    if len(report["rounds"]) < 2:
        assert not report["rounds"][-1]["improved"]
    again = runner.invoke(app, args)  # the rounds' runs are resumed, not replayed
    assert again.exit_code == 0 and json.loads(again.output)["kept"] == report["kept"]


@pytest.mark.parametrize(
    ("option", "value", "said"),
    [("--workers", "0", "one process or more, not 0"), ("--rules", "bogus", "'bogus'")],
)
def test_a_rebuild_that_cannot_run_is_refused_before_any_file(
    tmp_path: Path, option: str, value: str, said: str
) -> None:
    out = tmp_path / "rounds"
    args = ["bidder", "rebuild", "--out", str(out), "--rounds", "1", "--games", "1"]
    result = CliRunner().invoke(app, [*args, option, value])
    assert result.exit_code == 2
    assert said in result.output
    assert not out.exists()


def test_the_executors_refuse_fewer_than_one_worker() -> None:
    from texas42.services.arena.run import map_specs

    with pytest.raises(Texas42Error, match="one process or more, not 0"):
        map_specs(abs, [1, 2], workers=0)


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An arena's records: 20 pairs of single hands, RulesBot against a random player."""
    folder = tmp_path_factory.mktemp("arena") / "records"
    args = ["arena", "rules", "random", "--hands", "40", "--seed", "3", "--records", str(folder)]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    return folder


def test_calls_refits_the_call_part_from_records_and_keeps_the_rest(
    records: Path, tmp_path: Path
) -> None:
    from texas42.core.actions import Pass
    from texas42.core.record import Record
    from texas42.services.bidder import shipped_path

    out = tmp_path / "m.npz"
    args = ["bidder", "calls", str(records), "--out", str(out), "--seed", "2"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    files = sorted(records.glob("*.json"))
    calls = sum(len(hand.auction) for f in files for hand in Record.from_json(f.read_text()).hands)
    assert (
        f"the call and pass parts from {len(files)} hands in {len(files)} records" in result.output
    )
    base_path = shipped_path()
    assert base_path is not None
    base, new = _arrays(Path(base_path)), _arrays(out)
    assert base.keys() == new.keys()
    assert not np.array_equal(base["call_weights"], new["call_weights"])
    assert not np.array_equal(base["pass_weights"], new["pass_weights"])
    for key in base:
        if not key.startswith(("call_", "pass_")) and key != "meta":
            assert np.array_equal(base[key], new[key]), key
    meta = json.loads(runner.invoke(app, ["bidder", "info", str(out), "--json"]).output)
    assert meta["call_records"] == {
        "folders": ["records"],
        "files": len(files),
        "hands": len(files),
        "seed": 2,
        "holdout": 0.2,
    }
    rows = meta["rows"]["call"]
    assert rows["train"] + rows["held_out"] == calls
    passes = sum(
        1
        for f in files
        for hand in Record.from_json(f.read_text()).hands
        for call in hand.auction
        if isinstance(call, Pass)
    )
    assert meta["rows"]["pass"]["train"] + meta["rows"]["pass"]["held_out"] == passes > 0
    assert (
        meta["rows"]["trump"]
        == json.loads(runner.invoke(app, ["bidder", "info", "--json"]).output)["rows"]["trump"]
    )
    assert meta["command"].endswith(f"; then texas42 bidder calls {records} --out {out} --seed 2")
    for part in ("call", "pass"):
        assert {"model", "frequencies", "base_model"} <= meta["held_out"][part].keys()
    shown = runner.invoke(app, ["bidder", "info", str(out)]).output
    assert f"refitted on records: records, {len(files)} hands in {len(files)} records" in shown
    again = tmp_path / "again.npz"
    assert runner.invoke(app, [*args[:3], "--out", str(again), "--seed", "2"]).exit_code == 0
    assert np.array_equal(_arrays(again)["call_weights"], new["call_weights"])


def test_calls_refuses_bad_records_and_names_them(records: Path, tmp_path: Path) -> None:
    out = tmp_path / "m.npz"
    missing = tmp_path / "nowhere"
    result = runner.invoke(app, ["bidder", "calls", str(missing), "--out", str(out)])
    assert result.exit_code == 2 and f"{missing}: no such folder" in result.output
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "a.json").write_text('{"format": "texas42-game", "hands": [')
    result = runner.invoke(app, ["bidder", "calls", str(broken), "--out", str(out)])
    assert result.exit_code == 2 and f"{broken / 'a.json'}:" in result.output
    empty = tmp_path / "empty"
    empty.mkdir()
    result = runner.invoke(app, ["bidder", "calls", str(empty), "--out", str(out)])
    assert result.exit_code == 2 and "no four-seat marks-game calls" in result.output
    assert not out.exists()


def test_calls_read_the_score_before_each_hand_of_a_game(tmp_path: Path) -> None:
    """In whole games the score a seat calls at is the marks of the hands before: both sides'
    scores appear, and never the winning one (the game ends there)."""
    from texas42.players.learned import seat_features
    from texas42.services.bidder import record_call_rows

    folder = tmp_path / "games"
    args = ["arena", "rules", "random", "--games", "2", "--seed", "5", "--records", str(folder)]
    assert runner.invoke(app, args).exit_code == 0
    rows, counts = record_call_rows([folder])
    assert counts["files"] == 2 and counts["hands"] > 2
    at = len(seat_features(0, Rules(), (), (0, 0))) - 7  # ours / 7 and theirs / 7, then flags
    scores = {(round(7 * x[at]), round(7 * x[at + 1])) for x in rows["call"].x}
    assert (0, 0) in scores and len(scores) > 2
    assert all(0 <= ours < 7 and 0 <= theirs < 7 for ours, theirs in scores)


def test_both_halves_of_an_arena_pair_fall_on_the_same_side(records: Path, tmp_path: Path) -> None:
    """A pair's two records deal the same tiles: one held out and the other trained on would
    let the held-out score see its own deals."""
    from texas42.services.bidder import record_call_rows

    sides = set()
    for first in sorted(records.glob("*-north-south.json")):
        pair = tmp_path / first.name.split("-")[0]
        pair.mkdir()
        for half in records.glob(f"{first.name.split('-')[0]}-*.json"):
            (pair / half.name).write_text(half.read_text())
        rows, counts = record_call_rows([pair], seed=2)
        assert counts["files"] == 2
        held = set(rows["call"].held) | set(rows["pass"].held)
        assert len(held) == 1, pair.name
        sides |= held
    assert sides == {True, False}
