"""SVG drawings: well-formed, the real pip layouts, hands in order, and a table that shows only
what its seat can see."""

from __future__ import annotations

import math
import random
import xml.etree.ElementTree as ET

import pytest

from helpers import STANDARD, E, N, S, W, auction, fill_deal, hidden_swaps, play, tiles
from texas42 import Bid, Declare, Hand, NotationError, Pass, Rules
from texas42.core.layout import layout_of
from texas42.core.notation import parse_view_position, view_position
from texas42.core.progress import Phase
from texas42.core.svg import PIP_SPOTS, SVG, hand_svg, table_svg, tile_svg
from texas42.core.tiles import HI, LO, TILE_NAMES, hand_name, parse_tile, tiles_of

NS = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == f"{NS}svg"
    return root


def tile_groups(root: ET.Element) -> list[ET.Element]:
    return [g for g in root.iter(f"{NS}g") if "tile" in g.get("class", "").split()]


def pips(element: ET.Element) -> list[tuple[float, float]]:
    return [
        (float(c.get("cx", "nan")), float(c.get("cy", "nan")))
        for c in element.iter(f"{NS}circle")
        if c.get("class") == "pip"
    ]


def shown_tiles(element: ET.Element) -> list[str]:
    return [g.get("data-tile", "") for g in tile_groups(element) if g.get("data-tile")]


def random_hand(seed: int, steps: int, rules: Rules = STANDARD) -> Hand:
    """A hand after up to ``steps`` random legal actions."""
    rng = random.Random(seed)
    hand = Hand.random(rules, rng.randrange(4), rng)
    while steps and hand.result is None:
        hand.apply(rng.choice(hand.legal_actions()))
        steps -= 1
    return hand


# -- tiles -------------------------------------------------------------------------------------


@pytest.mark.parametrize("vertical", [False, True])
def test_every_tile_has_as_many_pips_as_its_ends(vertical: bool) -> None:
    for t in range(28):
        root = parse(tile_svg(t, vertical=vertical))
        assert len(circles := pips(root)) == HI[t] + LO[t], TILE_NAMES[t]
        assert len(root.findall(f".//{NS}circle")) == len(circles)
        assert shown_tiles(root) == [TILE_NAMES[t]]


def test_pips_follow_the_die_layouts() -> None:
    size = 40.0  # pip centres are in the tile's own frame: (0, 0) is its top-left corner
    # 6-6 upright: each end shows two columns of three
    six = pips(parse(tile_svg(parse_tile("6-6"), size=size, vertical=True)))
    top = [(x, y) for x, y in six if y < size]
    assert len(top) == 6
    assert len({x for x, _ in top}) == 2 and len({y for _, y in top}) == 3
    # lying down, the same six shows two rows of three
    flat = [(x, y) for x, y in pips(parse(tile_svg(parse_tile("6-6"), size=size))) if x < size]
    assert len({y for _, y in flat}) == 2 and len({x for x, _ in flat}) == 3
    # 1-0: one pip, in the centre of the high end (the left end when lying down)
    assert pips(parse(tile_svg(parse_tile("1-0"), size=size))) == [(size / 2, size / 2)]
    # 5-4 upright: four corners plus centre on top, four corners below
    five_four = pips(parse(tile_svg(parse_tile("5-4"), size=size, vertical=True)))
    assert len(five_four) == 9
    assert (size / 2, size / 2) in five_four and (size / 2, 1.5 * size) not in five_four
    # 2 and 3 lie on one diagonal
    for number in (2, 3):
        spots = PIP_SPOTS[number]
        assert len({x for x, _ in spots}) == number and all(x == y for x, y in spots)


def test_divider_and_rounded_corners() -> None:
    root = parse(tile_svg(parse_tile("6-4"), size=50))
    face = root.find(f".//{NS}rect[@class='face']")
    assert face is not None and float(face.get("rx", "0")) > 0
    assert face.get("width") == "100" and face.get("height") == "50"
    divider = root.find(f".//{NS}line[@class='divider']")
    assert divider is not None and divider.get("x1") == divider.get("x2") == "50"


def test_face_down_tile_shows_no_pips_and_no_name() -> None:
    svg = tile_svg(parse_tile("6-4"), face_down=True)
    root = parse(svg)
    assert root.findall(f".//{NS}circle") == []
    assert "6-4" not in svg
    assert [g.get("class") for g in tile_groups(root)] == ["tile face-down"]


def test_highlight_marks_the_tile() -> None:
    root = parse(tile_svg(parse_tile("3-2"), highlight=True))
    assert [g.get("class") for g in tile_groups(root)] == ["tile legal"]
    assert len(pips(root)) == 5


def test_results_render_in_notebooks() -> None:
    for svg in (tile_svg(0), hand_svg(tiles("6-6 1-0")), table_svg(random_hand(1, 3).view(0))):
        assert isinstance(svg, SVG) and isinstance(svg, str)
        assert svg._repr_svg_() is svg


# -- hands -------------------------------------------------------------------------------------


def test_hand_is_drawn_high_to_low_with_legal_tiles_highlighted() -> None:
    mask = tiles("1-0 6-6 3-2 5-5 6-4 0-0 4-1")
    root = parse(hand_svg(mask, legal=tiles("6-4 3-2")))
    assert shown_tiles(root) == hand_name(mask).split()
    assert shown_tiles(root) == ["6-6", "6-4", "5-5", "4-1", "3-2", "1-0", "0-0"]
    assert [g.get("data-tile") for g in tile_groups(root) if g.get("class") == "tile legal"] == [
        "6-4",
        "3-2",
    ]
    assert len(pips(root)) == sum(HI[t] + LO[t] for t in tiles_of(mask))
    xs = [g.get("transform") for g in tile_groups(root)]
    assert len(set(xs)) == 7


def test_empty_hand_is_still_a_picture() -> None:
    root = parse(hand_svg(0))
    assert tile_groups(root) == []


# -- bad input ---------------------------------------------------------------------------------


@pytest.mark.parametrize("bad", [28, -1, "6-4", 6.0, True, None])
def test_bad_tile_is_a_clear_error(bad: object) -> None:
    with pytest.raises(ValueError, match=r"not a tile: .* \(a tile is an index 0\.\.27\)"):
        tile_svg(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("size", [0, -5, math.nan, math.inf, "40", True])
def test_bad_size_is_a_clear_error(size: object) -> None:
    with pytest.raises(ValueError, match="a tile size is a positive number of pixels"):
        tile_svg(3, size=size)  # type: ignore[arg-type]


def test_bad_hands_are_clear_errors() -> None:
    with pytest.raises(ValueError, match="the hand must be a set of tiles"):
        hand_svg(1 << 28)
    with pytest.raises(ValueError, match="the hand must be a set of tiles"):
        hand_svg(-1)
    with pytest.raises(ValueError, match="the hand must be a set of tiles"):
        hand_svg("6-6 6-5")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="the legal tiles must be a set of tiles"):
        hand_svg(tiles("6-6"), legal=None)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="the legal tiles must be tiles of the hand"):
        hand_svg(tiles("6-6 6-5"), legal=tiles("6-4"))


def test_bad_table_input_is_a_clear_error() -> None:
    hand = random_hand(2, 0)
    with pytest.raises(NotationError, match="table_svg draws a View"):
        table_svg(hand)  # type: ignore[arg-type]
    with pytest.raises(NotationError, match="names must be four strings"):
        table_svg(hand.view(0), names=["Ann", "Bob"])
    with pytest.raises(NotationError, match="names must be four strings"):
        table_svg(hand.view(0), names="ABCD")


# -- the table ---------------------------------------------------------------------------------


def test_table_shows_the_seat_its_own_tiles_and_the_others_as_backs() -> None:
    for seed in range(30):
        hand = random_hand(seed, random.Random(seed).randrange(40))
        for seat in range(4):
            view = hand.view(seat)
            root = parse(table_svg(view))
            groups = {
                int(g.get("data-seat", "-1")): g
                for g in root.iter(f"{NS}g")
                if g.get("class", "").startswith("seat")
            }
            assert shown_tiles(groups[seat]) == hand_name(view.hand).split()
            for other in range(4):
                if other != seat:
                    backs = tile_groups(groups[other])
                    assert len(backs) == view.tiles_left[other]
                    assert all(g.get("class") == "tile face-down" for g in backs)
                    assert pips(groups[other]) == []
            trick = root.find(f".//{NS}g[@class='trick']")
            assert trick is not None
            assert sorted(shown_tiles(trick)) == sorted(TILE_NAMES[t] for _, t in view.trick)
            visible = set(hand_name(view.hand).split()) | {TILE_NAMES[t] for _, t in view.trick}
            assert set(shown_tiles(root)) == visible


def test_table_highlights_legal_plays_on_the_seats_turn() -> None:
    deal = fill_deal({N: "6-6 6-3", E: "6-5 6-4 2-2", S: "6-2 5-5", W: "6-1 1-1"})
    hand = Hand(STANDARD, W, deal)
    auction(hand, N, "30")
    hand.apply(Declare("threes"))
    play(hand, "6-6")
    root = parse(table_svg(hand.view(E)))
    legal = [g.get("data-tile") for g in tile_groups(root) if g.get("class") == "tile legal"]
    assert legal == ["6-5", "6-4"]
    other = parse(table_svg(hand.view(S)))
    assert [g for g in tile_groups(other) if g.get("class") == "tile legal"] == []


def test_table_texts_show_bid_contract_roles_piles_and_score() -> None:
    deal = fill_deal({N: "6-6 6-3", E: "6-5 6-4 2-2", S: "6-2 5-5", W: "6-1 1-1"})
    hand = Hand(STANDARD, W, deal)
    auction(hand, N, "30")
    hand.apply(Declare("sixes"))
    play(hand, "6-6 6-5 6-2 6-1  6-3")
    view = hand.view(S, score=(3, 5), hand_number=4)
    root = parse(table_svg(view))
    texts = [t.text for t in root.iter(f"{NS}text")]
    assert "Hand 4" in texts
    assert "North-South 3 [A], East-West 5 [AL] (marks to 7)" in texts
    assert "North bid 30 · sixes (sixes are trump)" in texts
    assert "partner · bid 30" in texts  # North, South's partner
    assert "shaker" in texts  # West
    assert "to act" in texts  # East, after North led 6-3
    assert "1 trick · 1 point" in texts  # North-South took 6-6 6-5 6-2 6-1: no count
    assert "0 tricks · 0 points" in texts


def test_face_down_piles_show_counts_without_points() -> None:
    rules = Rules.preset("standard")
    deal = fill_deal({N: "6-6 6-5 6-4 6-3", E: "6-2", S: "6-1", W: "6-0"})
    hand = Hand(rules, W, deal)
    auction(hand, N, "2m")
    hand.apply(Declare("sixes"))
    play(hand, "6-6 6-2 6-1 6-0")
    view = hand.view(E)
    assert view.points is None
    texts = [t.text for t in parse(table_svg(view)).iter(f"{NS}text")]
    assert "1 trick · face down" in texts
    assert "0 tricks" in texts
    assert not any("points" in (t or "") for t in texts)


def test_nello_partner_is_shown_sitting_out() -> None:
    rules = Rules.parse("standard,nello=true")
    hand = Hand(rules, W, fill_deal({}))
    auction(hand, N, "2m")
    hand.apply(Declare("nello"))
    root = parse(table_svg(hand.view(E)))
    out = [g for g in root.iter(f"{NS}g") if g.get("class") == "seat out"]
    assert [g.get("data-seat") for g in out] == [str(S)]
    assert len(tile_groups(out[0])) == 7
    assert "sits out" in [t.text for t in root.iter(f"{NS}text")]


def test_player_names_are_escaped() -> None:
    names = ['<Ann & "Bo">', "Bob", "Cy", "Di]]>"]
    svg = table_svg(random_hand(4, 2).view(0), names=names)
    texts = [t.text for t in parse(svg).iter(f"{NS}text")]
    assert names[0] in texts and names[3] in texts
    assert "<Ann" not in svg
    assert f"{names[0]} & Cy" in " ".join(t or "" for t in texts)


def test_table_is_well_formed_through_whole_hands() -> None:
    rules = Rules.parse("house")
    for seed in range(12):
        hand = random_hand(seed, 0, rules)
        rng = random.Random(seed)
        while True:
            for seat in range(4):
                parse(table_svg(hand.view(seat)))
            if hand.result is not None:
                break
            hand.apply(rng.choice(hand.legal_actions()))


# -- hidden information ------------------------------------------------------------------------


def test_table_in_the_auction_does_not_depend_on_hidden_tiles() -> None:
    north = tiles("6-6 6-5 5-5 4-2 3-1 1-0 0-0")
    rest = [t for t in range(28) if not north >> t & 1]
    rng = random.Random(42)
    drawings = set()
    for _ in range(6):
        rng.shuffle(rest)
        deal = (
            north,
            sum(1 << t for t in rest[:7]),
            sum(1 << t for t in rest[7:14]),
            sum(1 << t for t in rest[14:]),
        )
        hand = Hand(STANDARD, W, deal)
        for call in (Bid("30"), Pass(), Bid("31")):
            hand.apply(call)
        drawings.add(table_svg(hand.view(N)))
    assert len(drawings) == 1


def test_table_in_play_does_not_depend_on_hidden_tiles() -> None:
    """Swap two unplayed tiles between two other seats, replay the same actions: same picture."""
    compared = 0
    for seed in range(200):
        rng = random.Random(seed)
        hand = random_hand(seed, rng.randrange(6, 30))
        seat = rng.randrange(4)
        for other in hidden_swaps(hand, seat, rng, 1):
            assert table_svg(other.view(seat)) == table_svg(hand.view(seat))
            compared += 1
    assert compared >= 50


def test_table_from_a_seat_view_position_string_is_the_same_picture() -> None:
    for seed in range(20):
        hand = random_hand(seed, random.Random(seed).randrange(30))
        for seat in range(4):
            view = hand.view(seat, score=(2, 5), hand_number=3)
            assert table_svg(parse_view_position(view_position(view))) == table_svg(view)


@pytest.mark.parametrize("preset", ["three-hand", "moon", "five-hand", "six-hand", "seven-hand"])
def test_round_tables_draw_every_seat_and_only_this_seats_tiles(preset: str) -> None:
    rules = Rules.parse(preset)
    hand = Hand.random(rules, 1, random.Random(3))
    while hand.phase != Phase.PLAY or len(hand.trick) < 2:
        hand.apply(hand.legal_actions()[-1])  # the top bid, then the lowest tiles
    layout = layout_of(rules)
    for seat in range(layout.seats):
        view = hand.view(seat)
        root = parse(table_svg(view))
        groups = {
            int(g.get("data-seat", -1)): g
            for g in root.iter(f"{NS}g")
            if g.get("data-seat") is not None
        }
        assert sorted(groups) == list(range(layout.seats))
        assert sorted(shown_tiles(groups[seat])) == sorted(hand_name(view.hand).split())
        for other in set(groups) - {seat}:
            assert shown_tiles(groups[other]) == []
            assert len(tile_groups(groups[other])) == view.tiles_left[other]
        trick = next(g for g in root.iter(f"{NS}g") if g.get("class") == "trick")
        assert sorted(shown_tiles(trick)) == sorted(TILE_NAMES[t] for _, t in view.trick)
        texts = [t.text for t in root.iter(f"{NS}text")]
        assert all(name in texts for name in layout.seat_names)
        score = ", ".join(f"{side} 0" for side in layout.side_names)
        assert f"{score} ({rules.game} to {rules.winning_target})" in texts
        piles = [g for g in root.iter(f"{NS}g") if g.get("class") == "pile"]
        assert len(piles) == layout.sides


def test_round_table_names_need_one_per_seat() -> None:
    view = Hand.random(Rules.parse("moon"), 0, random.Random(2)).view(0)
    with pytest.raises(
        NotationError, match="names must be 3 strings, one per seat North, East, West"
    ):
        table_svg(view, names=["Ann", "Bob", "Cat", "Dan"])
    texts = [t.text for t in parse(table_svg(view, names=["Ann", "Bob", "Cat"])).iter(f"{NS}text")]
    assert "Ann 0, Bob 0, Cat 0 (moon to 21)" in texts
