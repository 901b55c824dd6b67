"""In Chromium: leaving a game gives the seat to a named bot, the host's menu, the away badge and
a reclaim by the seat link, the turn clock's countdown that runs out, and the table settings of
the lobby's form."""

from __future__ import annotations

import json
import re
import urllib.request
from typing import Any

from webtest import Watch, add_bot, get_json, sit


def _table(base: str, **settings: Any) -> str:
    body = json.dumps({"name": "Seats", **settings}).encode()
    request = urllib.request.Request(
        base + "/api/tables", body, {"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=5) as response:
        table: str = json.loads(response.read())["id"]
    return table


def test_leave_host_menu_away_reclaim_and_the_turn_clock(server: str, browser: Any) -> None:
    table = _table(server, away_seconds=0.5, turn_seconds=3)
    tess, ann = Watch(browser), Watch(browser)
    try:
        tess.page.goto(f"{server}/t/{table}")
        sit(tess.page, 0, "Tess")
        ann.page.goto(f"{server}/t/{table}")
        sit(ann.page, 1, "Ann")
        link = ann.page.get_attribute("input[aria-label='your seat link']", "value") or ""
        assert "#token=" in link
        for seat in (2, 3):
            add_bot(tess.page, seat)
        tess.page.click("[data-testid=start]")
        tess.page.wait_for_selector("[data-testid=table-page][data-status=playing]")
        # bots show their names and level, and the host has a menu on the other person's seat
        label = tess.page.text_content("[data-testid=seat-2] .seat-name") or ""
        assert label.endswith(" (medium)") and "Medium bot" not in label
        tess.page.wait_for_selector("[data-testid=make-host-1]")
        tess.page.wait_for_selector("[data-testid=replace-1]")
        assert ann.page.query_selector("[data-testid=replace-0]") is None
        # the clock: a countdown while a person's turn is timed; nobody acts, so it runs out
        # and the seat's bot plays for them, turn after turn, and the game goes on
        tess.page.wait_for_selector("[data-testid=turn-clock]:not([hidden])")
        start = int(tess.page.get_attribute("[data-testid=table-page]", "data-seq") or 0)
        tess.page.wait_for_function(
            f"() => Number(document.querySelector('[data-testid=table-page]').dataset.seq) > {start + 2}",
            timeout=30_000,
        )
        assert get_json(f"{server}/api/tables/{table}")["seats"][0]["kind"] == "human"
        # away: Ann closes her page; her grace runs out on her turn, the badge shows
        ann.close()
        tess.page.wait_for_selector("[data-testid=away-1]", timeout=30_000)
        # she comes back by her seat link: the seat is hers again
        ann = Watch(browser)
        ann.page.goto(link if link.startswith("http") else server + link)
        ann.page.wait_for_selector("[data-testid=table-page][data-seat='1']")
        tess.page.wait_for_selector("[data-testid=away-1]", state="detached", timeout=30_000)
        # leave the table: confirmed, a bot takes the seat at once and the game goes on
        ann.page.on("dialog", lambda dialog: dialog.accept())
        ann.page.click("[data-testid=leave-table]")
        tess.page.wait_for_selector("[data-testid=seat-1][data-kind=bot]")
        ann.page.wait_for_selector("[data-testid=table-page][data-seat='']")
        after = get_json(f"{server}/api/tables/{table}")["seats"][1]
        assert after["kind"] == "bot" and after["label"] == f"{after['name']} (medium)"
    finally:
        tess.close()
        ann.close()


def test_the_lobby_form_sets_the_tables_bots_grace_and_turn_timer(
    server: str, browser: Any
) -> None:
    watch = Watch(browser)
    page = watch.page
    page.goto(server + "/")
    page.fill("[data-testid=table-name]", "Settings")
    page.click("[data-testid=table-settings] summary")
    page.select_option("[data-testid=table-bot-level]", "easy")
    page.fill("[data-testid=table-away-seconds]", "30")
    page.fill("[data-testid=table-turn-seconds]", "45")
    page.click("[data-testid=create-table]")
    page.wait_for_url(re.compile(r"/t/[^/]+$"))
    table = page.url.rsplit("/", 1)[1]
    summary = get_json(f"{server}/api/tables/{table}")
    assert (summary["bot_level"], summary["away_seconds"], summary["turn_seconds"]) == (
        "easy",
        30,
        45,
    )
    # left alone, the settings are the server's defaults
    page.goto(server + "/")
    page.fill("[data-testid=table-name]", "Defaults")
    page.click("[data-testid=create-table]")
    page.wait_for_url(re.compile(r"/t/[^/]+$"))
    summary = get_json(f"{server}/api/tables/{page.url.rsplit('/', 1)[1]}")
    assert (summary["bot_level"], summary["away_seconds"], summary["turn_seconds"]) == (
        "medium",
        60,
        0,
    )
    watch.close()
