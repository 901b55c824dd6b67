"""The "why?" in a real browser: beside each bot's call and tile, by click and by keyboard, it
opens the reason the server sent this seat (the public form for another seat's action while the
hand is on), in the last trick and in the hand's summary too."""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Iterator
from typing import Any

from webtest import (
    ACTIONABLE,
    ARTIFACTS,
    Watch,
    act_once,
    add_bot,
    create_table,
    needs_browser,
    sit,
)

WHY_PANEL = "[data-testid=why-panel]"
SUMMARY = "[data-testid=summary]"
STILL = f"() => ({ACTIONABLE})() || document.querySelector('{SUMMARY}')"
"""Ann's turn (the bots wait for her, so the table stands still), or a hand's summary."""


def play_until(page: Any, selector: str, *, seconds: float = 120, summaries: bool = True) -> None:
    """Ann takes her turns (closing each hand's summary if ``summaries``) until, on her turn
    or at a summary, the page shows ``selector``."""
    deadline = time.monotonic() + seconds
    while True:
        assert time.monotonic() < deadline, f"the page never showed {selector}"
        page.wait_for_function(STILL)
        if page.locator(selector).count():
            return
        if page.locator(SUMMARY).count():
            assert summaries, "a summary came before the page showed it"
            page.click(f"{SUMMARY} .close")
            continue
        act_once(page)


@contextlib.contextmanager
def spectator(base: str, table: str) -> Iterator[Any]:
    """A spectator's plain WebSocket at the table: it reads every seat's reasons in their public
    form, the form a seated player reads of the others' actions while the hand is on."""
    from websockets.sync.client import connect

    with connect(base.replace("http://", "ws://") + f"/ws/{table}") as ws:
        ws.send(json.dumps({"type": "hello"}))
        yield ws


def newest_state(ws: Any, test: Any) -> dict[str, Any]:
    """The spectator's states, read until one passes ``test``."""
    deadline = time.monotonic() + 30
    while True:
        assert time.monotonic() < deadline, "no such state came"
        try:
            message = json.loads(ws.recv(timeout=1))
        except TimeoutError:
            continue
        if message["type"] == "state" and test(message):
            return message


def reason_of(state: dict[str, Any], key: str) -> str | None:
    """The text of the reason ``key`` (``hand-kind-index``, as the page's buttons name them)."""
    number, kind, index = key.split("-")
    game = state["game"]
    if game is None:
        return None
    for hand, n in ((game["hand"], game["hand_number"]), (game["last_hand"], None)):
        if hand is None or (n if n is not None else hand["number"]) != int(number):
            continue
        for why in hand["reasons"]:
            if why["kind"] == kind and why["index"] == int(index):
                return str(why["text"])
    return None


def open_and_read(page: Any, within: str) -> tuple[str, str]:
    """Click the first "why?" in ``within`` and read the panel: its reason's key and text; then
    close it with Escape, which puts the focus back on the button."""
    key = str(page.get_attribute(f"{within} [data-testid=why]", "data-why"))
    button = f'{within} [data-why="{key}"]'
    label = str(page.get_attribute(button, "aria-label"))
    assert label.startswith("why? ") and len(label) > len("why? ")
    page.click(button)
    page.wait_for_selector(WHY_PANEL)
    assert (page.get_attribute(WHY_PANEL, "aria-label") or "") == label
    text = page.text_content(f"{WHY_PANEL} [data-testid=why-text]") or ""
    page.keyboard.press("Escape")
    page.wait_for_selector(WHY_PANEL, state="detached")
    assert page.evaluate("document.activeElement.dataset.why") == key
    return key, text


@needs_browser
def test_why_on_a_bot_s_call_and_tile_opens_its_reason(server: str, browser: Any) -> None:
    watch = Watch(browser)
    page = watch.page
    try:
        url = create_table(page, server, "Why")
        table = url.rstrip("/").rsplit("/", 1)[-1]
        sit(page, 0, "Ann")
        for seat in (1, 2, 3):
            add_bot(page, seat, "medium")
        with spectator(server, table) as ws:
            page.click("[data-testid=start]")
            page.wait_for_selector("[data-testid=hand] [data-tile]")

            # a bot's call in the bidding list: a why? for each bot's call, none for Ann's
            calls = "[data-testid=calls]"
            play_until(page, f"{calls} [data-testid=why]", summaries=False)
            listed = page.eval_on_selector_all(
                f"{calls} li",
                "lis => lis.map(li => [li.querySelector('.call-seat').textContent,"
                " Boolean(li.querySelector('[data-testid=why]'))])",
            )
            assert listed and all(why == (name != "Ann") for name, why in listed), listed
            key, text = open_and_read(page, calls)
            state = newest_state(ws, lambda m: reason_of(m, key) is not None)
            assert text and text == reason_of(state, key)

            # by keyboard: Enter opens it, the focus goes into the panel, Escape brings it back
            page.focus(f'{calls} [data-why="{key}"]')
            page.keyboard.press("Enter")
            page.wait_for_selector(WHY_PANEL)
            assert page.evaluate(
                "document.activeElement.closest('[data-testid=why-panel]') !== null"
            )
            page.keyboard.press("Escape")
            page.wait_for_selector(WHY_PANEL, state="detached")
            assert page.evaluate("document.activeElement.dataset.why") == key

            # a bot's tile in the trick on the felt
            trick = "[data-testid=trick]"
            play_until(page, f"{trick} [data-testid=why]")
            seat = page.get_attribute(f"{trick} [data-testid=why]", "data-seat")
            assert seat in ("1", "2", "3")
            key, text = open_and_read(page, trick)
            assert key.split("-")[1] == "play"
            state = newest_state(ws, lambda m: reason_of(m, key) is not None)
            assert text == reason_of(state, key)

            # the last trick's panel has them too
            page.keyboard.press("l")
            page.wait_for_selector("[data-testid=last-trick]")
            if page.locator("[data-testid=last-trick] [data-testid=why]").count():
                key, text = open_and_read(page, "[data-testid=last-trick]")
                assert text and key.split("-")[1] == "play"
                page.wait_for_selector("[data-testid=last-trick]")  # closing it went back there
            page.keyboard.press("Escape")
            page.wait_for_selector("[data-testid=last-trick]", state="detached")

            # the hand's summary lists its calls, each bot's with its why?
            play_until(page, SUMMARY, seconds=180)
            within = "[data-testid=summary-calls]"
            if page.locator(f"{within} [data-testid=why]").count():
                key, text = open_and_read(page, within)
                assert text and key.split("-")[1] == "call"
                page.wait_for_selector(SUMMARY)  # closing it went back to the summary
        watch.close()
    except Exception:
        page.screenshot(path=str(ARTIFACTS / "why.png"))
        raise
