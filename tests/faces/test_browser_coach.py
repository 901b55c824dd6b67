"""Coaching in Chromium: a short game finished at the table, its coaching panel opened from the
game-over screen (three mistakes drawn as positions, or "no costly plays"), and the player's
page with the game's coaching figures and their chart."""

from __future__ import annotations

import re
import time
from typing import Any

from webtest import ARTIFACTS, Watch, act_once, add_bot, create_table, get_json, needs_browser, sit

pytestmark = needs_browser


def drawn(panel: Any, body: dict[str, Any]) -> None:
    """The panel shows the coaching's mistakes in its words, each position drawn: the seat's
    tiles (the played one marked) and the trick so far."""
    shown = panel.locator("[data-testid=coach-mistake]")
    assert shown.count() == len(body["mistakes"]) <= 3
    for i, mistake in enumerate(body["mistakes"]):
        item = shown.nth(i)
        assert item.locator("[data-testid=coach-position]").text_content() == mistake["position"]
        assert item.locator("[data-testid=coach-advice]").text_content() == mistake["advice"]
        held = mistake["hands"][mistake["seat"]]
        tiles = item.locator(".coach-hand [data-tile]")
        assert [tiles.nth(k).get_attribute("data-tile") for k in range(tiles.count())] == held
        if mistake["kind"] == "play":
            assert (
                item.locator(".coach-hand .coach-played").get_attribute("data-tile")
                == mistake["tile"]
            )
            best = item.locator(".coach-hand .coach-best")
            assert {best.nth(k).get_attribute("data-tile") for k in range(best.count())} == {
                t for t in mistake["best"] if t in held
            }
            trick = item.locator(".coach-trick [data-tile]")
            assert trick.count() == len(mistake["trick_so_far"])
        every = item.locator("[data-testid=coach-all-hands] .coach-seat-hand")
        assert every.count() == len(mistake["hands"])
        for who, tiles in enumerate(mistake["hands"]):
            drawn_tiles = every.nth(who).locator("[data-tile]")
            assert drawn_tiles.count() == len(tiles)


def play_to_game_over(page: Any) -> None:
    """Ann takes the first legal call or tile at each turn until the game is over."""
    page.wait_for_selector("[data-testid=hand] [data-tile]")
    deadline = time.monotonic() + 90
    while not page.locator("[data-testid=game-over]").count():
        assert time.monotonic() < deadline, "the game did not end"
        if not act_once(page):
            time.sleep(0.05)


def a_game_with_mistakes(page: Any, server: str, table: str) -> tuple[int, int]:
    """A finished game at the table in which some seat made a costly play, and that seat: game 1
    if it has one, else rematches until one does (a one-hand game of easy bots can be decided
    whatever anyone plays, then nobody's play cost anything)."""
    for number in range(1, 6):
        if number > 1:
            page.click("[data-testid=rematch]")
            page.wait_for_function(
                "() => document.querySelector('[data-testid=table-page]').dataset.status"
                " === 'playing'"
            )
            play_to_game_over(page)
        for seat in range(4):  # the first ask of a game waits for its review
            if get_json(f"{server}/api/learn/coach/{table}/{number}/{seat}", 120)["mistakes"]:
                return number, seat
    raise AssertionError("five games of easy bots without a costly play")


def test_the_coaching_panel_shows_a_finished_games_mistakes(server: str, browser: Any) -> None:
    watch = Watch(browser)
    page = watch.page
    url = create_table(page, server, "Coach me", target="1")
    table = url.rsplit("/", 1)[1]
    sit(page, 0, "Ann")
    for seat in (1, 2, 3):
        add_bot(page, seat, "easy")
    page.click("[data-testid=start]")
    play_to_game_over(page)

    page.click("[data-testid=coach-button]")
    page.wait_for_selector("[data-testid=coaching] h3", timeout=120_000)
    body = get_json(f"{server}/api/learn/coach/{table}/1/0")
    assert page.text_content("[data-testid=coach-summary]") == body["summary_line"]
    if body["mistakes"]:
        drawn(page.locator("[data-testid=game-over] [data-testid=coaching]"), body)
    else:
        assert page.text_content("[data-testid=coach-none]") == body["no_mistakes_line"]
        assert (body["no_mistakes_line"] or "").startswith("No costly plays")
        assert page.locator("[data-testid=coach-mistake]").count() == 0
    page.screenshot(path=str(ARTIFACTS / "coaching.png"), full_page=True)
    assert page.get_attribute("[data-testid=coach-replay]", "href") == f"/replay/{table}/1"
    # the player's page carries the game's figures, once it is coached
    link = page.get_attribute("[data-testid=seat-0] [data-testid=player-link]", "href") or ""
    assert re.fullmatch(r"/p/[0-9a-f]{16}", link), link
    page.goto(server + link)
    page.wait_for_selector("[data-testid=player-game]")
    # no reload: the page asks again by itself while the game waits for its coaching
    page.wait_for_selector("[data-testid=coach-chart]", timeout=60_000)
    assert page.text_content("[data-testid=coach-trend-title]") == "Coaching over your games"
    figures = body["summary"]
    text = page.text_content("[data-testid=player-game-coaching]") or ""
    assert f"mistakes per 100 plays: {figures['mistake_rate']:g}" in text
    lines = page.locator("[data-testid=coach-trend-lines] li")
    assert (
        lines.first.text_content()
        == f"Mistakes per 100 plays: {figures['mistake_rate']:.1f} over 1 game."
    )
    assert page.locator("[data-testid=coach-chart] circle").count() == 1

    # a seat with mistakes (a bot's, if Ann made none) drawn by the same panel
    page.goto(url)
    number, seat = a_game_with_mistakes(page, server, table)
    page.evaluate(
        """async ([table, number, seat]) => {
          const { coachBlock } = await import('/static/coach.js');
          const box = document.createElement('div');
          box.id = 'coach-check';
          document.body.append(box);
          const draw = () => box.replaceChildren(coachBlock(table, number, seat, draw) || '');
          draw();
          const ask = box.querySelector('[data-testid=coach-button]');
          if (ask) ask.click();  // a seat of game 1 was asked for already
        }""",
        [table, number, seat],
    )
    page.wait_for_selector("#coach-check [data-testid=coach-mistake]")
    coached = get_json(f"{server}/api/learn/coach/{table}/{number}/{seat}")
    drawn(page.locator("#coach-check"), coached)
    page.locator("#coach-check").screenshot(path=str(ARTIFACTS / "coaching-mistakes.png"))
    watch.close()

    other = Watch(browser)  # another device: the page is someone else's, and says whose
    try:
        other.page.goto(server + link)
        other.page.wait_for_selector("[data-testid=coach-trend-title]")
        title = other.page.text_content("[data-testid=coach-trend-title]")
        assert title == "Coaching over Ann's games"
    finally:
        other.close()
