"""Players and house rules in Chromium: a player's page with a finished game's replay and record,
and house rules saved by name in the lobby and picked again to create a table."""

from __future__ import annotations

import re
import time
from typing import Any

from webtest import (
    ARTIFACTS,
    Watch,
    act_once,
    add_bot,
    create_table,
    get_json,
    needs_browser,
    sit,
)

pytestmark = needs_browser


def test_a_player_page_lists_a_finished_game_with_its_replay_and_record(
    server: str, browser: Any
) -> None:
    watch = Watch(browser)
    page = watch.page
    create_table(page, server, "Page of mine", target="1")
    sit(page, 0, "Ann")
    for seat in (1, 2, 3):
        add_bot(page, seat, "easy")
    page.click("[data-testid=start]")
    page.wait_for_selector("[data-testid=hand] [data-tile]")
    # the seat's name links to the player's page
    link = page.get_attribute("[data-testid=seat-0] [data-testid=player-link]", "href") or ""
    assert re.fullmatch(r"/p/[0-9a-f]{16}", link), link
    secret = page.evaluate("() => localStorage.getItem('texas42:player-secret')")
    assert re.fullmatch(r"[0-9a-f]{64}", secret) and secret not in link
    deadline = time.monotonic() + 60
    while not page.locator("[data-testid=game-over]").count():
        assert time.monotonic() < deadline, "the game did not end"
        if not act_once(page):
            time.sleep(0.05)

    # the lobby's "My games" card leads to the page
    page.goto(server + "/")
    page.click("[data-testid=my-games-link]")
    page.wait_for_url(re.compile(re.escape(link) + "$"))
    page.wait_for_selector("[data-testid=player-game]")
    assert page.text_content("[data-testid=player-names]") == "Ann"
    figures = page.text_content("[data-testid=player-figures]") or ""
    body = get_json(server + "/api" + link.replace("/p/", "/players/"))
    assert body["played"] == 1
    assert f"Games played: 1 · won: {body['won']} · bids won: {body['bids']}" in figures
    assert page.locator("[data-testid=player-game]").count() == 1
    page.screenshot(path=str(ARTIFACTS / "player-page.png"), full_page=True)

    record_href = page.get_attribute("[data-testid=player-record]", "href") or ""
    record = get_json(server + record_href)
    assert record["format"] == "texas42" and record["players"][0] == "Ann"
    page.click("[data-testid=player-replay]")
    page.wait_for_url(re.compile(r"/replay/[^/]+/1$"))
    page.wait_for_selector("[data-testid=replay-caption]")
    assert page.locator("[data-testid^=replay-seat-] [data-tile]").count() == 28
    watch.close()


def test_house_rules_saved_by_name_are_picked_again_to_create_a_table(
    server: str, browser: Any
) -> None:
    watch = Watch(browser)
    page = watch.page
    page.goto(server + "/")
    page.wait_for_selector("[data-testid=create-form]")
    page.check("[data-testid=option-nello]")
    page.dispatch_event("[data-testid=option-nello]", "change")
    page.fill("[data-testid=option-target]", "3")
    page.dispatch_event("[data-testid=option-target]", "change")
    page.fill("[data-testid=house-rules-name]", "Grandma's rules")
    page.click("[data-testid=save-house-rules]")
    page.wait_for_function(
        "() => document.querySelector('[data-testid=saved-rules]').value === \"Grandma's rules\""
    )
    saved = get_json(server + "/api/house-rules")["house_rules"]
    grandma = next(h for h in saved if h["name"] == "Grandma's rules")
    assert grandma["rules"] == "standard,nello=true,target=3"

    # a fresh lobby offers them next to the presets; picking them fills the form
    page.goto(server + "/")
    page.wait_for_selector(
        '[data-testid=saved-rules] option[value="Grandma\'s rules"]', state="attached"
    )
    assert not page.is_checked("[data-testid=option-nello]")
    page.select_option("[data-testid=saved-rules]", "Grandma's rules")
    assert page.is_checked("[data-testid=option-nello]")
    assert page.input_value("[data-testid=option-target]") == "3"
    words = page.text_content("[data-testid=saved-rules-words]") or ""
    assert "game to 3 marks" in words
    page.fill("[data-testid=table-name]", "At Grandma's")
    page.click("[data-testid=create-table]")
    page.wait_for_url(re.compile(r"/t/[^/]+$"))
    table = page.url.rsplit("/", 1)[1]
    assert get_json(f"{server}/api/tables/{table}")["rules"] == "standard,nello=true,target=3"
    watch.close()
