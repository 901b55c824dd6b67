"""``texas42 bidder``: train the learned bidder from self-play runs, show a model's metadata,
and rebuild it from scratch by rounds of self-play with its own calls."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from texas42.core.errors import Texas42Error
from texas42.core.words import printable

bidder_app = typer.Typer(
    help="The learned bidder: train it from self-play runs, show a model, rebuild it.",
    no_args_is_help=True,
)


def _fail(message: str) -> typer.Exit:
    typer.echo(printable(f"texas42 bidder: {message}"), err=True)
    return typer.Exit(2)


def _summary(meta: dict[str, object]) -> list[str]:
    """A model's metadata in a few lines: the rows used and the held-out scores."""
    lines = []
    rows = meta.get("rows")
    if isinstance(rows, dict):
        for name, count in rows.items():
            lines.append(
                f"  {name}: {count['train']} rows trained on, {count['held_out']} held out"
            )
    held = meta.get("held_out")
    if isinstance(held, dict):
        for name, scores in held.items():
            parts = [
                f"{who} " + ", ".join(f"{k} {v}" for k, v in values.items())
                for who, values in scores.items()
                if isinstance(values, dict)
            ]
            lines.append(f"  held out, {name}: " + "; ".join(parts))
    return lines


@bidder_app.command()
def train(
    data: Annotated[list[str], typer.Argument(help="Self-play folders (run.json and parts).")],
    out: Annotated[str, typer.Option(help="The model file to write (.npz).")],
    seed: Annotated[int, typer.Option(help="Seed of the held-out split.")] = 0,
    holdout: Annotated[float, typer.Option(help="Share of the games held out and scored.")] = 0.2,
    as_json: Annotated[bool, typer.Option("--json", help="Print the metadata as JSON.")] = False,
) -> None:
    """Fit the learned bidder on self-play data and write the model with its metadata."""
    from texas42.services.bidder import train as fit

    command = " ".join(["texas42 bidder train", *data, f"--out {out}", f"--seed {seed}"])
    if holdout != 0.2:
        command += f" --holdout {holdout}"
    try:
        meta = fit(data, out, seed=seed, command=command, holdout=holdout)
    except Texas42Error as exc:
        raise _fail(str(exc)) from None
    if as_json:
        typer.echo(json.dumps(meta, sort_keys=True))
        return
    typer.echo(f"wrote {out}")
    for line in _summary(meta):
        typer.echo(line)


@bidder_app.command()
def calls(
    records: Annotated[list[str], typer.Argument(help="Folders of game records (an arena's).")],
    out: Annotated[str, typer.Option(help="The model file to write (.npz).")],
    base: Annotated[
        str | None, typer.Option(help="The model whose other parts are kept (default: shipped).")
    ] = None,
    seed: Annotated[int, typer.Option(help="Seed of the held-out split.")] = 0,
    holdout: Annotated[float, typer.Option(help="Share of the records held out and scored.")] = 0.2,
    as_json: Annotated[bool, typer.Option("--json", help="Print the metadata as JSON.")] = False,
) -> None:
    """Refit the models of how seats call (the inference from the calls, call_model=on) and
    of what a pass comes to, on the auctions of game records, keeping the rest of the base
    model."""
    from texas42.services.bidder import train_calls

    command = " ".join(["texas42 bidder calls", *records, f"--out {out}", f"--seed {seed}"])
    if base is not None:
        command += f" --base {base}"
    if holdout != 0.2:
        command += f" --holdout {holdout}"
    try:
        meta = train_calls(records, out, base=base, seed=seed, command=command, holdout=holdout)
    except Texas42Error as exc:
        raise _fail(str(exc)) from None
    if as_json:
        typer.echo(json.dumps(meta, sort_keys=True))
        return
    found = meta["call_records"]
    hands, files = found["hands"], found["files"]
    typer.echo(f"wrote {out}: the call and pass parts from {hands} hands in {files} records")
    for line in _summary(meta):
        typer.echo(line)


@bidder_app.command()
def info(
    model: Annotated[
        str | None, typer.Argument(help="A model file (default: the one shipped).")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the metadata as JSON.")] = False,
) -> None:
    """Show how a model was made: its data, rows, seed, command and held-out scores."""
    from texas42.services.bidder import info as read_info
    from texas42.services.bidder import shipped_path

    path = model or shipped_path()
    if path is None:
        raise _fail("this package ships no bidder model")
    try:
        meta = read_info(path)
    except (Texas42Error, OSError) as exc:
        raise _fail(str(exc)) from None
    if as_json:
        typer.echo(json.dumps(meta, sort_keys=True))
        return
    typer.echo(f"{path}: {meta['bytes']} bytes, parts {', '.join(meta['parts'])}")
    typer.echo(f"  command: {meta.get('command')}")
    typer.echo(f"  seed {meta.get('seed')}, held out {meta.get('holdout')} of the games")
    for run in meta.get("runs", []):
        typer.echo(
            f"  data {run['folder']}: {run['hands']} hands, bot {run['bot']}, playout "
            f"{run['playout']}, rules {', '.join(run['rules'])}, seed {run['seed']}"
        )
    calls = meta.get("call_records")
    if isinstance(calls, dict):
        typer.echo(
            f"  call and pass parts refitted on records: {', '.join(calls['folders'])}, "
            f"{calls['hands']} hands in {calls['files']} records, seed {calls['seed']}"
        )
    for line in _summary(meta):
        typer.echo(line)


@bidder_app.command()
def rebuild(
    out: Annotated[str, typer.Option(help="The rebuild's folder (rounds, models, bidder.npz).")],
    rounds: Annotated[int, typer.Option(help="Rounds at most: self-play, then retrain.")] = 3,
    games: Annotated[int, typer.Option(help="Self-play games in each round.")] = 100,
    bot: Annotated[str, typer.Option(help="The bot whose calls the model makes.")] = "expert",
    playout: Annotated[
        str | None, typer.Option(help="The play-outs' bot (default: as texas42 selfplay).")
    ] = None,
    rules: Annotated[
        list[str] | None, typer.Option(help="Rules of the games, repeatable (as selfplay).")
    ] = None,
    seed: Annotated[int, typer.Option(help="Seed of the rounds' deals and of the split.")] = 0,
    chunk: Annotated[int, typer.Option(help="Games in each part file.")] = 10,
    bid_samples: Annotated[int, typer.Option(help="Deals of the double-dummy figures.")] = 16,
    workers: Annotated[int, typer.Option(help="Processes to play in.")] = 1,
    start: Annotated[
        str | None, typer.Option(help="The model of the first round (default: the shipped one).")
    ] = None,
    data: Annotated[
        list[str] | None,
        typer.Option(help="Self-play folders to train the first round's model on, repeatable."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the rounds as JSON.")] = False,
) -> None:
    """Retrain the learned bidder on its own games, round by round, until a round's model is
    no better on that round's held-out games; the model kept is OUT/bidder.npz."""
    from texas42.services.bidder.rebuild import rebuild as run_rounds

    try:
        report = run_rounds(
            out,
            rounds,
            games,
            bot=bot,
            playout=playout,
            rules=tuple(rules or ["standard"]),
            seed=seed,
            chunk=chunk,
            bid_samples=bid_samples,
            workers=workers,
            start=start,
            data=tuple(data or ()),
        )
    except Texas42Error as exc:
        raise _fail(str(exc)) from None
    except KeyboardInterrupt:
        raise _fail("stopped: the same command resumes the rounds") from None
    if as_json:
        typer.echo(json.dumps(report, sort_keys=True))
        return
    for entry in report["rounds"]:
        verdict = "better" if entry["improved"] else "no better: stopped"
        typer.echo(
            f"round {entry['round']}: held-out log loss {entry['log_loss_before']} -> "
            f"{entry['log_loss_after']} on {entry['held_out_rows']} rows, {verdict}"
        )
    typer.echo(f"kept {report['kept']} as {out}/bidder.npz")
