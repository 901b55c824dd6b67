"""The engine protocol's ``info ... reason`` (issue 19, item 5): texas42's engine sends its bot's
whole reason before its answer, and the host reads an outside engine's reason into the
Decision's text, printable, with a neutral public sentence."""

from __future__ import annotations

import io
import random
import sys
from pathlib import Path

from texas42 import Game, Hand, Rules
from texas42.core.notation import view_position
from texas42.core.progress import Phase
from texas42.players import make_bot
from texas42.players.reasons import decide
from texas42.services.protocol.engine import run_engine
from texas42.services.protocol.host import EngineBot, parse_info

ENGINE = """
import sys

legal = []
for line in sys.stdin:
    command, _, rest = line.strip().partition(" ")
    if command == "texas42":
        print("id name Talker")
        print("protocolversion 1")
        print("texas42ok")
    elif command == "isready":
        print("readyok")
    elif command == "legal":
        legal = rest.split(";")
    elif command == "go":
        print("info chance 0.5 reason " + WORDS)
        print("bestaction " + legal[0])
    elif command == "quit":
        break
    sys.stdout.flush()
"""


def _serve(commands: str, spec: str) -> list[str]:
    out = io.StringIO()
    assert run_engine(spec, io.StringIO(commands), out) == 0
    return out.getvalue().splitlines()


def test_our_engine_sends_the_bots_whole_reason_before_its_answer() -> None:
    game = Game(Rules(), 2)
    for spec in ("rules", "random", "pimc:samples=4,bid_samples=4"):
        view = game.view(game.seat_to_act() or 0)
        lines = _serve(f"position {view_position(view)}\ngo\n", spec)
        info, best = lines[-2], lines[-1]
        assert best.startswith("bestaction ")
        reason = parse_info(info).reason
        assert reason == decide(make_bot(spec), view).reason.text


def test_our_engine_gives_a_reason_for_a_play() -> None:
    hand = Hand.random(Rules(), 0, random.Random(3))
    bot = make_bot("rules")
    while hand.phase != Phase.PLAY:
        hand.apply(bot.choose(hand.view(hand.turn)))
    view = hand.view(hand.turn)
    lines = _serve(f"position {view_position(view)}\ngo\n", "rules")
    reason = parse_info(lines[-2]).reason
    assert reason is not None and "rule of thumb" in reason


def _talker(tmp_path: Path, words: str) -> list[str]:
    script = tmp_path / "talker.py"
    script.write_text(f"WORDS = {words!r}\n" + ENGINE)
    return [sys.executable, str(script)]


def test_the_host_reads_an_outside_engines_reason_as_text_only(tmp_path: Path) -> None:
    game = Game(Rules(), 1)
    view = game.view(game.seat_to_act() or 0)
    with EngineBot(_talker(tmp_path, "I hold the 6-6 and three sixes"), name="Talker") as bot:
        decision = decide(bot, view)
    assert decision.action == view.legal[0]
    assert decision.reason.text == "Talker: I hold the 6-6 and three sixes"
    assert "6-6" not in decision.reason.public
    assert decision.reason.public == (
        "Talker is an outside engine; its reasons are shown after the hand"
    )


def test_an_outside_engines_words_are_made_printable(tmp_path: Path) -> None:
    game = Game(Rules(), 1)
    view = game.view(game.seat_to_act() or 0)
    with EngineBot(_talker(tmp_path, "pulls \x1b[31mtrump\u202e"), name="Talker") as bot:
        text = decide(bot, view).reason.text
    assert "\x1b" not in text and "\u202e" not in text
    assert text == "Talker: pulls \\x1b[31mtrump\\u202e"


def test_an_engine_that_gives_no_reason_says_so() -> None:
    game = Game(Rules(), 1)
    view = game.view(game.seat_to_act() or 0)
    script = Path(__file__).resolve().parents[2] / "docs" / "engine-protocol.md"
    code = script.read_text().split("## A minimal engine", 1)[1].split("```python\n", 1)[1]
    code = code.split("```", 1)[0].replace('print("info reason the first legal action")\n', "")
    with EngineBot([sys.executable, "-c", code], name="First") as bot:
        decision = decide(bot, view)
    assert decision.reason.text == "First gave no reason"


def test_a_rolled_out_call_reports_no_marks_it_was_not_chosen_by() -> None:
    """With ``auction=rollout`` a call is chosen by match equity: the info line keeps a bid's
    chance but gives no expected marks, which would contradict the choice; ``auction=fixed``
    chooses by those marks and gives them."""
    game = Game(Rules(), 2)
    view = game.view(game.seat_to_act() or 0)  # the first seat to call
    for auction, with_marks in (("fixed", True), ("rollout", False)):
        lines = _serve(
            f"position {view_position(view)}\ngo\n", f"pimc:bid_samples=4,auction={auction}"
        )
        tokens = lines[-2].split(" reason ")[0].split()
        assert ("marks" in tokens) is with_marks, lines[-2]
