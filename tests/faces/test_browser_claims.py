"""Laying down in a real browser: the "Lay down" button and its confirm for the player on lead,
the claim's news for everyone, and a hand laid down face up at its seat for a spectator."""

from __future__ import annotations

import time
from typing import Any

from webtest import (
    ACTIONABLE,
    ARTIFACTS,
    Watch,
    act_once,
    add_bot,
    create_table,
    needs_browser,
    seq_of,
    sit,
)

TOAST = "[data-testid=toast]"
WAITING = f"""() => ({ACTIONABLE})() || document.querySelector('[data-testid=claim-button]')
  || document.querySelector('[data-testid=summary]')"""


@needs_browser
def test_the_player_on_lead_lays_the_hand_down(server: str, browser: Any) -> None:
    watch = Watch(browser)
    page = watch.page
    url = create_table(page, server, "Lay down")
    sit(page, 0, "Ann")
    for seat in (1, 2, 3):
        add_bot(page, seat, "medium")
    page.click("[data-testid=start]")
    page.wait_for_selector("[data-testid=hand] [data-tile]")
    spectator = Watch(browser)
    spectator.page.goto(url)
    spectator.page.wait_for_selector("[data-testid=seat-0]")

    deadline = time.monotonic() + 120
    while not page.locator("[data-testid=claim-button]").count():
        assert time.monotonic() < deadline, "North never led a trick"
        if page.locator("[data-testid=summary]").count():
            page.click("[data-testid=summary] .close")
            continue
        if not act_once(page):
            page.wait_for_function(WAITING)
    held = page.eval_on_selector_all(
        "[data-testid=hand] [data-tile]", "ts => ts.map(t => t.dataset.tile)"
    )
    before = seq_of(page)

    # the button asks first; cancelling sends nothing
    page.click("[data-testid=claim-button]")
    box = page.text_content("[data-testid=claim-box]") or ""
    assert "Lay your hand down and claim the rest?" in box
    page.click("[data-testid=claim-cancel]")
    page.wait_for_selector("[data-testid=claim-button]")
    assert seq_of(page) == before

    page.click("[data-testid=claim-button]")
    page.screenshot(path=str(ARTIFACTS / "claim-confirm.png"), full_page=True)
    page.click("[data-testid=claim-confirm]")
    # everyone gets the news as a notice (a claim that holds deals the next hand at once, and
    # the bots' calls soon replace the last action's words)
    notice = f"{TOAST}:has-text('claimed the rest')"
    news = page.text_content(notice) or ""
    told = news.removeprefix("Ann laid the hand down and claimed the rest: ").split(".")[0]
    assert news.startswith("Ann laid the hand down") and sorted(told.split()) == sorted(held)
    assert "claim held" in news or "claim failed" in news
    watcher = spectator.page
    assert watcher.text_content(notice) == news
    if "claim failed" in news:
        assert page.text_content("[data-testid=last-action]") == news
        # play goes on with North's hand face up at its seat, for everyone
        watcher.wait_for_selector("[data-testid=face-up-0]")
        shown = watcher.eval_on_selector_all(
            "[data-testid=face-up-0] [data-tile]", "ts => ts.map(t => t.dataset.tile)"
        )
        assert shown == held
        assert not watcher.locator("[data-testid=face-up-1]").count()
        watcher.screenshot(path=str(ARTIFACTS / "claim-face-up.png"), full_page=True)
    else:
        # the hand ended, scored: the next one is dealt and the summary says what came of it
        page.wait_for_selector("[data-testid=summary]")
    assert not page.locator("[data-testid=claim-confirm]").count()
    spectator.close()
    watch.close()
