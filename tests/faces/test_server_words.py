"""The words a 42 player reads at the web table, as the server sends them: the contract box's
choices grouped and explained, the hand held in the contract's order, a face-down hand's piles
turned up once it is over (and never a tile still held), the rules and the lobby's options in a
player's words, and what a summary says of the hand under way beneath it."""

from __future__ import annotations

import json
import random
from dataclasses import asdict
from typing import Any

from texas42.core import words
from texas42.core.actions import Declare, action_words
from texas42.core.contracts import Contract
from texas42.core.game import Game
from texas42.core.progress import Phase
from texas42.core.rules import OPTION_CHOICES, OPTION_NAMES, Rules
from texas42.core.tiles import TILE_NAMES, tiles_of
from texas42.faces.server.outbound import SERVER_MESSAGES, State
from texas42.faces.server.payload import game_payload
from webtest import (
    TILE_WORD,
    Socket,
    TestClient,
    new_table,
    room_of,
    tiles_in,
    visible_tiles,
)

NAMES = ["Ann", "Bob", "Cat", "Dan"]
HOUSE = Rules.parse("house")


def to_declare(rules: Rules, seed: int, bid: str = "bid 2m") -> Game:
    """A game in which North makes ``bid`` at its first call and everyone else passes, stopped
    where North names the contract."""
    game = Game(rules, seed)
    while True:
        turn = game.seat_to_act()
        said = [action_words(a) for a in game.legal_actions()]
        if game.hand.phase == Phase.DECLARE and turn == 0:
            return game
        if turn == 0 and bid in said:
            choice = bid
        elif "pass" in said:
            choice = "pass"
        else:
            choice = said[0]
        game.apply(game.legal_actions()[said.index(choice)])


def play_out(game: Game, rng: random.Random) -> None:
    """Every seat plays a random legal tile until the hand in play is over."""
    hands = len(game.results)
    while len(game.results) == hands:
        game.apply(rng.choice(game.legal_actions()))


# -- the contract box -----------------------------------------------------------------------------


def test_the_contract_box_groups_every_legal_contract_and_says_what_it_means() -> None:
    game = to_declare(HOUSE, 3)
    hand = game_payload(game, (0,), NAMES).hand
    assert hand.phase == "declare" and hand.legal
    groups = [legal.group for legal in hand.legal]
    # one group after another, never split
    assert groups == sorted(groups, key=groups.index)
    assert set(groups) == {"Suits", "Doubles", "Follow-me", "Specials"}
    by_action = {legal.action: legal for legal in hand.legal}
    assert [a for a in by_action if by_action[a].group == "Suits"] == [
        f"declare {suit}"
        for suit in ("blanks", "ones", "twos", "threes", "fours", "fives", "sixes")
    ]
    follow = by_action["declare follow-me:high"]
    assert follow.label == "follow-me (doubles high)"
    assert follow.meaning == (
        "No trump: the led tile's high end is the suit; doubles are the highest of their suit"
    )
    by_lead = by_action["declare by-lead"]
    assert by_lead.group == "Specials"
    assert by_lead.meaning == "You lead first; the high end of the tile you lead becomes trump"
    nello = by_action["declare nello:own"]
    assert nello.label == "Nel-O (doubles own)" and nello.group == "Specials"
    assert "partner sits out" in nello.meaning
    assert by_action["declare sevens"].label == "Sevens"
    for legal in hand.legal:
        assert legal.meaning, legal
        contract = Contract.parse(legal.action.removeprefix("declare "))
        assert legal.meaning == words.contract_meaning(HOUSE, contract)
        assert "nello" not in legal.label


def test_the_box_offers_only_what_the_tables_rules_allow() -> None:
    plain = Rules.parse("tournament,follow_me=false,undeclared_trump=forbidden")
    game = to_declare(plain, 5)
    legal = game_payload(game, (0,), NAMES).hand.legal
    assert {entry.group for entry in legal} == {"Suits", "Doubles"}
    assert not any("follow-me" in entry.action or "nello" in entry.action for entry in legal)
    # a 1-mark bid may not play Nel-O where it needs 2
    house = to_declare(HOUSE.replace(sevens=False), 5, "bid 1m")
    shown = [entry.action for entry in game_payload(house, (0,), NAMES).hand.legal]
    assert "declare nello" not in shown and "declare by-lead" in shown


def test_the_bid_box_groups_calls_and_explains_the_special_bids() -> None:
    game = Game(HOUSE, 11)
    while game.seat_to_act() != 0:
        said = [action_words(a) for a in game.legal_actions()]
        game.apply(game.legal_actions()[said.index("pass")])
    legal = game_payload(game, (0,), NAMES).hand.legal
    groups = {entry.action: entry.group for entry in legal}
    assert groups["pass"] == "" and groups["bid 2m"] == "Marks"
    assert all(groups[a] == "Points" for a in groups if a.startswith("bid 3") or a == "bid 41")
    specials = [entry for entry in legal if entry.group == "Specials"]
    for entry in specials:  # a plunge or a splash, when this hand may bid one
        assert "your partner names trump" in entry.meaning


def test_nel_o_is_spelled_so_in_the_contract_line_and_the_news() -> None:
    game = to_declare(HOUSE, 3)
    said = [action_words(a) for a in game.legal_actions()]
    game.apply(game.legal_actions()[said.index("declare nello")])
    hand = game_payload(game, (1,), NAMES).hand
    assert "Nel-O (no trump, doubles high)" in hand.contract_line
    assert "nello" not in hand.contract_line
    assert words.action_said("Ann", Declare(Contract.parse("nello"))) == "Ann named Nel-O"


# -- the hand held as a player holds it -----------------------------------------------------------


def test_the_tiles_are_sent_in_the_contracts_order_once_trump_is_named() -> None:
    game = to_declare(Rules(), 8)
    before = game_payload(game, (0,), NAMES).hand.tiles
    dealt = [TILE_NAMES[t] for t in tiles_of(game.hand.hands[0])]
    assert before == dealt, "during the auction and before trump, as dealt"
    said = [action_words(a) for a in game.legal_actions()]
    game.apply(game.legal_actions()[said.index("declare doubles")])
    after = game_payload(game, (0,), NAMES).hand.tiles
    assert sorted(after) == sorted(before)
    doubles = [t[0] == t[2] for t in after]
    assert doubles == sorted(doubles, reverse=True), after
    shown = [t for t in after if t[0] == t[2]]
    assert shown == sorted(shown, reverse=True), "the trumps highest first"
    assert after == [TILE_NAMES[t] for t in game.view(0).tiles_in_order()]
    held = game_payload(game, (0,), NAMES).held
    assert held[0].tiles == after


# -- face-down piles turned up --------------------------------------------------------------------


def test_a_face_down_hand_shows_its_tricks_once_over_and_never_a_tile_still_held() -> None:
    rng = random.Random(4)
    seen_early = 0
    for seed in range(40):
        game = to_declare(Rules(), seed)
        said = [action_words(a) for a in game.legal_actions()]
        game.apply(game.legal_actions()[said.index("declare sixes")])
        during = game_payload(game, (1,), NAMES).hand
        assert during.piles_face_down
        play_out(game, rng)
        ended = game.hands[0]
        held_after = {TILE_NAMES[t] for seat in range(4) for t in tiles_of(ended.hands[seat])}
        # the hand after it is under way: the tiles still held when this one ended are those
        for seat in [0, 1, 2, 3, None]:
            seats = () if seat is None else (seat,)
            last = game_payload(game, seats, NAMES).last_hand
            assert last is not None and last.result is not None
            assert not last.piles_face_down
            assert last.points == list(ended.points)
            assert last.result.points == list(ended.points)
            shown = [p.tile for trick in last.tricks for p in trick.plays]
            assert shown == [TILE_NAMES[t] for trick in ended.tricks for t in trick.tiles]
            assert [t.points for t in last.tricks] == [t.points for t in ended.tricks]
            assert f"Points: North-South {ended.points[0]}, East-West {ended.points[1]}" in (
                last.result_lines
            )
            # what stayed in the hands when the bid was decided is never shown but to its holder
            own = (
                {TILE_NAMES[t] for t in tiles_of(ended.hands[seat])} if seat is not None else set()
            )
            assert not (held_after - own) & set(TILE_WORD.findall(json.dumps(_plain(last))))
            assert set(last.tiles) == own
            assert tiles_in(last) <= visible_tiles(game, seat)
        seen_early += bool(held_after)
    assert seen_early, "some hand was decided before its last trick"


def _plain(value: Any) -> Any:
    return asdict(value)


def test_no_message_of_a_face_down_game_shows_a_tile_its_reader_could_not_see(
    client: TestClient,
) -> None:
    """Four people play two-mark hands (each first bidder bids 2 marks, everyone else passes)
    to the end of the second hand; every message each one is sent, and the watcher's, holds only
    tiles they saw, while every finished hand's tricks show."""
    table = new_table(client, "standard")
    players = [Socket(client, table) for _ in range(4)]
    watcher = Socket(client, table)
    for seat, sock in enumerate(players):
        sock.hello()
        sock.send(type="sit", seat=seat, name=NAMES[seat])
        sock.until("seated")
    watcher.hello()
    players[0].send(type="start")
    room = room_of(client, table)
    rng = random.Random(7)
    turned = 0
    everyone: list[tuple[Socket, int | None]] = [(s, k) for k, s in enumerate(players)]
    everyone.append((watcher, None))
    for seq in range(400):
        for sock, _ in everyone:
            sock.until("state", lambda m, seq=seq: m["seq"] == seq and m["game"] is not None)
        game = room.game
        assert game is not None
        for sock, seat in everyone:
            allowed = visible_tiles(game, seat)
            for message in sock.log:
                typed = SERVER_MESSAGES.validate_python(message)
                shown = set(TILE_WORD.findall(json.dumps(message))) | tiles_in(typed)
                assert shown <= allowed, (seat, shown - allowed)
                if isinstance(typed, State) and typed.game and typed.game.last_hand:
                    last = typed.game.last_hand
                    assert all(p.tile is not None for t in last.tricks for p in t.plays)
                    turned += 1
            sock.log.clear()
        if len(game.results) >= 2 or game.is_over():
            break
        turn = game.seat_to_act()
        assert turn is not None
        legal = players[turn].state["game"]["hand"]["legal"]
        actions = [entry["action"] for entry in legal]
        if "bid 2m" in actions and not game.hand.calls:
            action = "bid 2m"
        elif "pass" in actions:
            action = "pass"
        else:
            action = rng.choice(actions)
        players[turn].send(type="act", action=action, seq=seq)
    assert turned, "a finished face-down hand was shown"


# -- the rules and the lobby's options in words ---------------------------------------------------


def test_the_table_tells_its_rules_as_sentences(client: TestClient) -> None:
    table = new_table(client, "standard,nello=true,suit_doubles=low")
    info = client.get(f"/api/tables/{table}").json()
    assert Rules.parse(info["rules"]) == Rules.parse("standard,nello,suit_doubles=low")
    text = info["rules_text"]
    assert text == words.rules_text(Rules.parse(info["rules"]))
    assert "specials: Nel-O from 2 marks" in text
    assert "Doubles in a trump suit: doubles are the lowest of their suit" in text
    assert "Trick piles face down: for bids of 2 marks or more" in text
    assert not any("=" in line or "_" in line for line in text)


def test_every_option_has_a_players_label_a_help_line_and_choices_by_meaning(
    client: TestClient,
) -> None:
    options = client.get("/api/options").json()["options"]
    assert sorted(o["name"] for o in options) == sorted(OPTION_NAMES)
    for option in options:
        assert option["label"] and "_" not in option["label"], option
        assert option["help"].endswith("."), option
        if option["kind"] == "choice":
            assert option["choices"] == list(OPTION_CHOICES[option["name"]])
            assert len(option["choice_labels"]) == len(option["choices"])
            assert all(label for label in option["choice_labels"])
        else:
            assert option["choice_labels"] == []
    by_name = {o["name"]: o for o in options}
    assert by_name["nello"]["label"] == "Nel-O"
    hide = by_name["hide_tricks"]
    assert dict(zip(hide["choices"], hide["choice_labels"], strict=True))["two-marks"] == (
        "for bids of 2 marks or more"
    )


# -- the summary over the next auction ------------------------------------------------------------


def test_a_summary_says_the_next_hand_is_bidding_and_whose_call_it_is() -> None:
    rng = random.Random(2)
    game = to_declare(Rules(), 1)
    said = [action_words(a) for a in game.legal_actions()]
    game.apply(game.legal_actions()[said.index("declare fives")])
    play_out(game, rng)
    turn = game.seat_to_act()
    assert turn is not None and game.hand.phase == Phase.AUCTION
    for seat in range(4):
        last = game_payload(game, (seat,), NAMES).last_hand
        assert last is not None
        if seat == turn:
            assert last.next_line == (
                "Hand 2's bidding has begun and it is your call: close this summary to bid."
            )
        else:
            assert last.next_line == "Hand 2's bidding has begun."
    while game.hand.phase == Phase.AUCTION:
        game.apply(game.legal_actions()[-1])
    last = game_payload(game, (), NAMES).last_hand
    assert last is not None and last.next_line.startswith("Hand 2 ")
