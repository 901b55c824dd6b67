"""A fuzz that stays (issue 18, item 8): every reader of outside text, given any text or bytes
and mutations of valid input (fields dropped, types swapped, huge numbers, deep nesting, odd
unicode), either reads it or raises its documented error, never anything else; valid input
round-trips. ``TEXAS42_EXAMPLES_SCALE=25`` (``make test-slow``) runs 25 times the examples."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from helpers import EXAMPLE_NAMES, EXAMPLES, examples, playable_rules
from texas42 import Game, Rules
from texas42.core.actions import parse_call
from texas42.core.contracts import Contract
from texas42.core.errors import Texas42Error
from texas42.core.notation import (
    hand_position,
    parse_hand_position,
    parse_score,
    parse_view_position,
    view_position,
)
from texas42.core.record import (
    BROKEN,
    UNREADABLE,
    Record,
    RecordError,
    check_record,
    record_from_game,
)
from texas42.core.rules import OPTION_CHOICES, OPTION_NAMES, PRESETS
from texas42.core.tiles import parse_hand, parse_tile
from texas42.faces.cli import app
from texas42.faces.server.messages import BROWSER_MESSAGES, BadMessage, parse_message

# -- text, odd and plain -------------------------------------------------------------------------

ANY_CHARACTER = st.characters(codec=None, exclude_categories=())
"""Any code point, lone surrogates, controls, bidi overrides and unassigned ones included."""
ODD_TEXT = st.text(ANY_CHARACTER, max_size=40)
ODD_WORDS = st.sampled_from(
    [
        "",
        " ",
        "\x00",
        "\x1b[2J",
        "\u202e",
        "\ud800",
        "\udcff",
        "\ufeff",
        "９",
        "²",
        "1e999",
        "NaN",
        "-0",
        "9" * 50,
        "9" * 5000,
        "@",
        ":",
        "/",
        "+",
        "|",
        ".",
        "-",
    ]
)
"""Words that have broken parsers somewhere: controls, a lone surrogate, a BOM, non-ASCII
digits, huge numbers, the notation's own separators."""
TEXT = ODD_TEXT | ODD_WORDS | st.text(max_size=40)


def huge() -> st.SearchStrategy[int]:
    return st.integers(min_value=10**40, max_value=10**5000) | st.integers(max_value=-(10**40))


JSON_LEAF = (
    st.none()
    | st.booleans()
    | st.integers()
    | huge()
    | st.floats(allow_nan=True, allow_infinity=True)
    | TEXT
)
JSON_VALUE = st.recursive(
    JSON_LEAF,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXT, inner, max_size=4),
    max_leaves=12,
)


class Nested:
    """Lists and objects nested ``depth`` deep around a number, written by `dumps` as text
    (Python's own json would itself run out of stack past about 1,000)."""

    def __init__(self, depth: int) -> None:
        self.depth = depth

    def __repr__(self) -> str:
        return f"Nested({self.depth})"


def dumps(value: Any) -> str:
    """JSON text of any value: numbers of any size, lone surrogates (escaped) and `Nested`
    included."""
    if isinstance(value, Nested):
        half = value.depth // 2
        return '{"a": [' * half + "1" + "]}" * half
    if isinstance(value, bool) or value is None or isinstance(value, float | str):
        return json.dumps(value)
    if isinstance(value, int):
        return str(value) if abs(value) < 10**4000 else ("-" if value < 0 else "") + "9" * 4500
    if isinstance(value, list):
        return "[" + ", ".join(map(dumps, value)) + "]"
    return "{" + ", ".join(f"{json.dumps(k)}: {dumps(v)}" for k, v in value.items()) + "}"


# -- records -----------------------------------------------------------------------------------

EXAMPLE_RECORDS = [json.loads((EXAMPLES / f"{name}.json").read_text()) for name in EXAMPLE_NAMES]


def read_record(text: str) -> Record | None:
    """The record, or None when it is refused with a RecordError of a documented status (a
    deal that breaks a rule is found as it is read); a record read is also checked."""
    try:
        record = Record.from_json(text)
    except RecordError as exc:
        assert exc.status in (BROKEN, UNREADABLE) and str(exc)
        return None
    try:
        check_record(record)
    except RecordError as exc:
        assert exc.status in (BROKEN, UNREADABLE) and str(exc)
    return record


@st.composite
def mutated(draw: st.DrawFn, value: Any, rounds: int = 3) -> Any:
    """``value`` with a few changes at random places: a field dropped, a value replaced by any
    JSON value (another type, a huge number, odd text), nested deep, or a list cut short."""
    value = copy.deepcopy(value)
    for _ in range(draw(st.integers(1, rounds))):
        path: list[Any] = []
        here = value
        while isinstance(here, dict | list) and here and draw(st.booleans()):
            key = draw(
                st.sampled_from(sorted(here) if isinstance(here, dict) else range(len(here)))
            )
            path.append(key)
            here = here[key]
        if not path:
            continue
        parent = value
        for key in path[:-1]:
            parent = parent[key]
        last = path[-1]
        change = draw(st.sampled_from(["drop", "replace", "nest", "cut", "text"]))
        if change == "drop":
            del parent[last]
        elif change == "replace":
            parent[last] = draw(JSON_VALUE)
        elif change == "nest":
            parent[last] = Nested(draw(st.sampled_from([2, 40, 1000, 100_000])))
        elif change == "cut" and isinstance(parent[last], list | str):
            parent[last] = parent[last][: draw(st.integers(0, max(0, len(parent[last]) - 1)))]
        elif change == "text" and isinstance(parent[last], str):
            at = draw(st.integers(0, len(parent[last])))
            parent[last] = parent[last][:at] + draw(TEXT) + parent[last][at:]
    return value


@settings(max_examples=examples(60))
@given(st.text(ANY_CHARACTER) | st.binary().map(lambda b: b.decode("utf-8", "surrogateescape")))
def test_any_text_is_a_record_or_a_record_error(text: str) -> None:
    read_record(text)


@settings(max_examples=examples(100))
@given(st.sampled_from(EXAMPLE_RECORDS).flatmap(mutated))
def test_a_mutated_record_is_read_or_refused_with_a_record_error(value: Any) -> None:
    read_record(dumps(value))


@settings(max_examples=examples(40))
@given(JSON_VALUE, st.sampled_from(["format", "version", "rules", "seats", "players", "hands"]))
def test_any_value_in_any_field_is_read_or_refused(value: Any, field: str) -> None:
    record = dict(EXAMPLE_RECORDS[0])
    record[field] = value
    read_record(dumps(record))


@settings(max_examples=examples(20))
@given(playable_rules(), st.integers(0, 2**32 - 1), st.lists(TEXT, min_size=7, max_size=7))
def test_a_valid_record_round_trips_and_its_names_too(rules: Rules, seed: int, names: Any) -> None:
    game, rng = Game(rules, seed), random.Random(seed)
    for _ in range(rng.randrange(1, 120)):
        if game.is_over():
            break
        game.apply(rng.choice(game.legal_actions()))
    text_names = [name for name in names if name.encode("utf-8", "surrogatepass").isascii()]
    players = (text_names + ["Ann"] * 7)[: game.layout.seats]
    record = record_from_game(game, players)
    again = Record.from_json(record.to_json())
    assert again == record and again.to_json() == record.to_json()
    check_record(again)


# -- positions -------------------------------------------------------------------------------


@st.composite
def positions(draw: st.DrawFn) -> tuple[str, str]:
    """A hand position and a seat view of the same hand, somewhere in a random game."""
    rules = draw(playable_rules())
    seed = draw(st.integers(0, 2**32 - 1))
    game, rng = Game(rules, seed), random.Random(seed)
    for _ in range(draw(st.integers(0, 60))):
        if game.is_over():
            break
        game.apply(rng.choice(game.legal_actions()))
    hand = game.hand
    seat = draw(st.integers(0, hand.layout.seats - 1))
    return (
        hand_position(hand, game.score, game.hand_number),
        view_position(hand.view(seat, game.score, game.hand_number)),
    )


@st.composite
def mutated_position(draw: st.DrawFn, text: str) -> str:
    """A position string with a field replaced, dropped, doubled or swapped, or odd text
    spliced into a field."""
    words = text.split()
    for _ in range(draw(st.integers(1, 3))):
        if not words:
            break
        at = draw(st.integers(0, len(words) - 1))
        change = draw(st.sampled_from(["replace", "drop", "double", "swap", "splice"]))
        if change == "replace":
            words[at] = draw(TEXT)
        elif change == "drop":
            del words[at]
        elif change == "double":
            words.insert(at, words[at])
        elif change == "swap":
            other = draw(st.integers(0, len(words) - 1))
            words[at], words[other] = words[other], words[at]
        else:
            cut = draw(st.integers(0, len(words[at])))
            words[at] = words[at][:cut] + draw(TEXT) + words[at][cut:]
    return " ".join(words)


def read_position(text: str) -> None:
    for parse in (parse_hand_position, parse_view_position):
        try:
            parse(text)
        except Texas42Error as exc:
            assert str(exc)


@settings(max_examples=examples(60))
@given(TEXT | st.text(ANY_CHARACTER))
def test_any_text_is_a_position_or_a_texas42_error(text: str) -> None:
    read_position(text)


@settings(max_examples=examples(60))
@given(positions().flatmap(lambda both: st.sampled_from(both).flatmap(mutated_position)))
def test_a_mutated_position_is_read_or_refused(text: str) -> None:
    read_position(text)


@settings(max_examples=examples(20))
@given(positions())
def test_valid_positions_round_trip(both: tuple[str, str]) -> None:
    full, seat = both
    hand, score, number = parse_hand_position(full)
    assert hand_position(hand, score, number) == full
    assert view_position(parse_view_position(seat)) == seat


@settings(max_examples=examples(60))
@given(TEXT, st.sampled_from(sorted(PRESETS)))
def test_the_other_text_readers_read_or_raise_texas42_error(text: str, preset: str) -> None:
    rules = Rules.preset(preset)
    for read in (
        parse_tile,
        parse_hand,
        parse_score,
        Contract.parse,
        lambda t: parse_call(t, rules),
    ):
        try:
            read(text)
        except Texas42Error as exc:
            assert str(exc)


# -- rules -------------------------------------------------------------------------------------


@st.composite
def near_rules(draw: st.DrawFn) -> str:
    """A rules string of a preset and options, each value a right one, another option's, a
    huge number or odd text."""
    words = [draw(st.sampled_from(sorted(PRESETS)))]
    for _ in range(draw(st.integers(0, 4))):
        name = draw(st.sampled_from(OPTION_NAMES) | TEXT)
        value = draw(
            st.sampled_from([v for choices in OPTION_CHOICES.values() for v in choices])
            | st.sampled_from(["true", "false", "0", "1", "7", "-1", "default"])
            | st.integers(39, 5000).map(lambda n: "9" * n)
            | TEXT
        )
        words.append(draw(st.sampled_from([f"{name}={value}", name, f"{name}=", f"={value}"])))
    return draw(st.sampled_from([",", " ", ", "])).join(words)


@settings(max_examples=examples(80))
@given(near_rules() | TEXT | st.text(ANY_CHARACTER))
def test_a_rules_string_is_rules_or_a_texas42_error(text: str) -> None:
    try:
        rules = Rules.parse(text)
    except Texas42Error as exc:
        assert str(exc)
        return
    assert Rules.parse(str(rules)) == rules


@settings(max_examples=examples(40))
@given(st.dictionaries(st.sampled_from(OPTION_NAMES) | TEXT, JSON_VALUE, max_size=4))
def test_a_rules_object_is_rules_or_a_texas42_error(options: dict[str, Any]) -> None:
    try:
        rules = Rules.from_dict(options)
    except Texas42Error:
        return
    assert Rules.from_dict(rules.to_dict()) == rules


@settings(max_examples=examples(20))
@given(playable_rules())
def test_rules_round_trip(rules: Rules) -> None:
    assert Rules.parse(str(rules)) == rules and Rules.from_dict(rules.to_dict()) == rules


# -- the WebSocket message decoder ----------------------------------------------------------------

SCHEMA = BROWSER_MESSAGES.json_schema()
KINDS = sorted(SCHEMA["$defs"].values(), key=lambda d: d["title"])


def example_value(spec: dict[str, Any], draw: st.DrawFn) -> Any:
    """A value that fits one field's JSON schema (or comes near it)."""
    if "const" in spec:
        return spec["const"]
    if "enum" in spec:
        return draw(st.sampled_from(spec["enum"]))
    if "anyOf" in spec:
        return example_value(draw(st.sampled_from(spec["anyOf"])), draw)
    kind = spec.get("type")
    if kind == "integer":
        return draw(st.integers(spec.get("minimum", -5), spec.get("maximum", 10)))
    if kind == "number":
        return draw(st.floats(0.5, 3600))
    if kind == "boolean":
        return draw(st.booleans())
    if kind == "null":
        return None
    if "pattern" in spec:
        return draw(st.from_regex(spec["pattern"], fullmatch=True))
    return draw(st.text(min_size=spec.get("minLength", 0), max_size=spec.get("maxLength", 20)))


@st.composite
def messages(draw: st.DrawFn) -> dict[str, Any]:
    """A message of any type whose fields fit the schema, the optional ones now and then."""
    kind = draw(st.sampled_from(KINDS))
    message = {}
    for name, spec in kind["properties"].items():
        if name in kind.get("required", ()) or draw(st.booleans()):
            message[name] = example_value(spec, draw)
    return message


def read_message(raw: str | bytes) -> None:
    try:
        parse_message(raw)
    except BadMessage as exc:
        assert str(exc).encode("utf-8") and exc.code in ("bad-message",)


@settings(max_examples=examples(60))
@given(st.text(ANY_CHARACTER) | st.binary() | TEXT)
def test_any_text_or_bytes_is_a_message_or_bad_message(raw: str | bytes) -> None:
    read_message(raw)


@settings(max_examples=examples(100))
@given(messages().flatmap(mutated))
def test_a_mutated_message_is_read_or_refused_with_bad_message(message: Any) -> None:
    raw = dumps(message)
    read_message(raw)
    read_message(raw.encode("utf-8", "surrogatepass"))


@settings(max_examples=examples(60))
@given(messages())
def test_a_valid_message_round_trips(message: dict[str, Any]) -> None:
    parsed = parse_message(json.dumps(message))
    assert parse_message(parsed.model_dump_json()) == parsed
    assert parsed.model_dump(exclude_unset=True) == message


# -- the command line ---------------------------------------------------------------------------

TRACEBACK = "Traceback (most recent call last)"


def run_cli(args: list[str], stdin: bytes | None = None) -> None:
    """Status 0, 1 or 2, no traceback, and nothing but printable text and line breaks."""
    done = CliRunner().invoke(app, args, input=stdin)
    assert done.exception is None or isinstance(done.exception, SystemExit), done.exception
    assert done.exit_code in (0, 1, 2), (args, done.exit_code, done.stderr)
    for out in (done.stdout, done.stderr):
        assert TRACEBACK not in out
        assert all(ch.isprintable() or ch == "\n" for ch in out), out


@settings(max_examples=examples(30))
@given(st.sampled_from(EXAMPLE_RECORDS).flatmap(mutated).map(dumps) | st.text(ANY_CHARACTER))
def test_check_of_any_input_exits_0_1_or_2_without_a_traceback(text: str) -> None:
    data = text.encode("utf-8", "surrogatepass")
    run_cli(["check", "-"], data)
    run_cli(["check", "--json", "-"], data)


@settings(max_examples=examples(15))
@given(positions().flatmap(lambda both: st.sampled_from(both).flatmap(mutated_position)))
def test_hint_of_any_position_exits_0_1_or_2_without_a_traceback(text: str) -> None:
    surrogates = any(0xD800 <= ord(ch) <= 0xDFFF for ch in text)
    if "\x00" in text or surrogates:  # no command line can carry these
        text = text.replace("\x00", "").encode("utf-8", "replace").decode()
    run_cli(["hint", "--samples", "1", text])


def test_the_examples_stay_valid(tmp_path: Path) -> None:
    """The fuzz starts from the example records: each still reads and checks."""
    for record in EXAMPLE_RECORDS:
        assert read_record(json.dumps(record)) is not None
