"""The words a 42 player reads at the web table, in Chromium: the contract box grouped with a
line under each choice, the hand regrouped once trump is named (keys 1 to 9 follow it), a
face-down hand turned up in its summary, which says the next bidding has begun, the rules in
sentences, and a phone held sideways that shows its tiles and the bid box without scrolling."""

from __future__ import annotations

import json
import re
import time
import urllib.request
from typing import Any

from texas42.core import words
from texas42.core.contracts import Contract
from texas42.core.rules import Rules
from webtest import (
    ARTIFACTS,
    Watch,
    act_once,
    add_bot,
    create_table,
    hand_number,
    needs_browser,
    no_horizontal_scroll,
    seq_of,
    sit,
)

HOUSE = Rules.parse("house")


def post_table(server: str, rules: str, name: str) -> str:
    request = urllib.request.Request(
        server + "/api/tables",
        data=json.dumps({"rules": rules, "name": name}).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=5) as response:
        table: str = json.loads(response.read())["id"]
    return table


def seated_with_bots(page: Any, server: str, rules: str) -> None:
    """South sits at a new table of ``rules`` with easy bots in the other seats, and starts."""
    table = post_table(server, rules, "Words")
    page.goto(f"{server}/t/{table}")
    page.wait_for_selector("[data-testid=pregame]")
    sit(page, 2, "Cat")
    for seat in (0, 1, 3):
        add_bot(page, seat, "easy")
    page.click("[data-testid=start]")
    page.wait_for_selector("[data-testid=hand] [data-tile]")


def shown_tiles(page: Any) -> list[str]:
    tiles: list[str] = page.eval_on_selector_all(
        "[data-testid=hand] [data-tile]", "tiles => tiles.map(t => t.dataset.tile)"
    )
    return tiles


def wait_moved(page: Any, before: str) -> None:
    page.wait_for_function(
        "s => document.querySelector('[data-testid=table-page]').dataset.seq !== s", arg=before
    )


def until_declaring(page: Any) -> None:
    """Bid the most marks offered at each of South's calls (passing when none is) and play
    through the hands South does not win, until South names the contract."""
    deadline = time.monotonic() + 120
    while not page.locator("[data-testid=trump-box]").count():
        assert time.monotonic() < deadline, "South never won a bid"
        bids = page.eval_on_selector_all(
            "[data-testid=bidding-box] button[data-action$=m]:not([disabled])",
            "bs => bs.map(b => b.dataset.action)",
        )
        summary = page.locator("[data-testid=summary] .close")
        if summary.count():
            summary.click()
        elif bids:
            before = seq_of(page)
            page.click(f"[data-testid=bidding-box] [data-action='{bids[-1]}']")
            wait_moved(page, before)
        elif not act_once(page):
            time.sleep(0.05)


@needs_browser
def test_the_contract_box_the_regrouped_hand_and_a_face_down_hand_turned_up(
    server: str, browser: Any
) -> None:
    watch = Watch(browser)
    page = watch.page
    states: list[dict[str, Any]] = []  # every state the page is sent, newest last
    page.on(
        "websocket",
        lambda ws: ws.on(
            "framereceived",
            lambda frame: (
                states.append(message)
                if (message := json.loads(frame))["type"] == "state"
                else None
            ),
        ),
    )
    seated_with_bots(page, server, "house")
    until_declaring(page)
    box = "[data-testid=trump-box]"
    groups = page.eval_on_selector_all(f"{box} [data-group]", "gs => gs.map(g => g.dataset.group)")
    assert groups == ["Suits", "Doubles", "Follow-me", "Specials"]
    choices = page.eval_on_selector_all(
        f"{box} button[data-action]",
        """bs => bs.map(b => [b.dataset.action, b.querySelector('.call-label').textContent,
             (b.querySelector('.call-meaning') || {}).textContent || '',
             b.closest('[data-group]').dataset.group])""",
    )
    labels = [label for _, label, _, _ in choices]
    assert "Nel-O" in labels and not any("nello" in label for label in labels)
    for action, _, meaning, group in choices:
        contract = Contract.parse(action.removeprefix("declare "))
        assert meaning == words.contract_meaning(HOUSE, contract), action
        assert group == words.contract_group(contract)
    # the meanings are on the page, not in a tooltip: each line has a size inside its button
    sizes = page.eval_on_selector_all(
        f"{box} .call-meaning", "ms => ms.map(m => m.getBoundingClientRect().height)"
    )
    assert len(sizes) == len(choices) and all(size > 5 for size in sizes)
    page.screenshot(path=str(ARTIFACTS / "contract-box.png"), full_page=True)

    before = shown_tiles(page)
    seq = seq_of(page)
    page.click(f"{box} [data-action='declare doubles']")
    wait_moved(page, seq)
    page.wait_for_selector("[data-testid=hand] [data-legal=true]")
    after = shown_tiles(page)
    assert sorted(after) == sorted(before)
    doubles = [t[0] == t[2] for t in after]
    assert doubles == sorted(doubles, reverse=True), f"the trumps come first: {after}"
    trumps = [t for t in after if t[0] == t[2]]
    assert trumps == sorted(trumps, reverse=True), "highest first"
    # South names trump and leads: key 1 plays the first tile shown
    seq = seq_of(page)
    page.keyboard.press("1")
    wait_moved(page, seq)
    # the state of that play (the bots may finish the trick, or a set bid the hand, at once)
    played = next(m for m in states if m["seq"] == int(seq) + 1)
    assert played["last"]["action"] == f"play {after[0]}", "key 1 played the first tile shown"
    assert played["game"]["hand"]["tiles"] == after[1:], "and only it"

    # two marks: the piles lie face down until the hand is over, then the summary shows them
    deadline = time.monotonic() + 120
    while not page.locator("[data-testid=summary]").count():
        assert time.monotonic() < deadline, "the hand did not finish"
        # only the first hand's turns: once it ends the next may begin before the summary shows
        if hand_number(page) > 1 or not act_once(page):
            time.sleep(0.05)
    summary = "[data-testid=summary]"
    lines = page.eval_on_selector_all(f"{summary} .result-line", "ls => ls.map(l => l.textContent)")
    assert any(line.startswith("Points: ") for line in lines), lines
    faces = page.eval_on_selector_all(
        f"{summary} .final-trick .tile-pic", "ps => ps.map(p => p.dataset.tile || '')"
    )
    assert len(faces) == 4 and all(faces), f"the last trick shows its faces: {faces}"
    note = page.text_content("[data-testid=next-hand]") or ""
    # hand 2, or later if everyone passed hand 2 and it was shaken again before the summary
    assert re.search(r"Hand (?!1\b)\d+'s bidding has begun", note), note
    page.screenshot(path=str(ARTIFACTS / "summary-turned-up.png"), full_page=True)
    page.click("[data-testid=to-next-hand]")
    page.wait_for_selector(summary, state="detached")
    watch.close()


@needs_browser
def test_the_table_shows_its_rules_as_sentences_and_the_lobby_explains_each_option(
    server: str, browser: Any
) -> None:
    watch = Watch(browser)
    page = watch.page
    rules = "standard,nello,suit_doubles=low"
    table = post_table(server, rules, "Sentences")
    page.goto(f"{server}/t/{table}")
    page.wait_for_selector("[data-testid=rules-text]")
    shown = page.eval_on_selector_all(
        "[data-testid=rules-text] li", "ls => ls.map(l => l.textContent)"
    )
    assert shown == words.rules_text(Rules.parse(rules))
    text = page.inner_text("body")
    assert "nello=true" not in text and "suit_doubles" not in text
    assert (page.text_content("[data-testid=rules-summary]") or "") == "House rules"

    page.goto(server + "/")
    page.click(".more-options summary")
    help_line = page.locator("[data-testid=help-hide_tricks]")
    assert help_line.is_visible()
    assert help_line.text_content() == words.OPTION_WORDS["hide_tricks"].help
    said = page.eval_on_selector_all(
        "[data-testid=option-hide_tricks] option", "os => os.map(o => [o.value, o.textContent])"
    )
    assert dict(said) == dict(words.OPTION_WORDS["hide_tricks"].choices)
    labels = page.eval_on_selector_all(
        ".options .option > span:not(.option-help)", "ls => ls.map(l => l.textContent)"
    )
    assert labels and not any("_" in label for label in labels)
    assert page.locator("[data-testid=help-nello]").is_visible()
    page.screenshot(path=str(ARTIFACTS / "lobby-options.png"), full_page=True)
    watch.close()


@needs_browser
def test_a_phone_held_sideways_shows_the_tiles_and_the_bid_box_without_scrolling(
    server: str, browser: Any
) -> None:
    phone = Watch(browser, 844, 390)
    page = phone.page
    create_table(page, server, "Sideways")
    sit(page, 2, "Cat")
    for seat in (0, 1, 3):
        add_bot(page, seat, "easy")
    page.click("[data-testid=start]")
    page.wait_for_selector("[data-testid=bidding-box] button")
    page.evaluate("() => window.scrollTo(0, 0)")
    boxes = page.evaluate(
        """() => [...document.querySelectorAll(
              '[data-testid=hand] [data-tile], [data-testid=bidding-box] button')]
            .map(e => { const r = e.getBoundingClientRect();
                        return [e.dataset.tile || e.dataset.action, r.left, r.top, r.right, r.bottom]; })"""
    )
    width, height, scrolled = page.evaluate("[innerWidth, innerHeight, scrollY]")
    assert scrolled == 0
    tiles = [b for b in boxes if b[0] and b[0][1] == "-"]
    assert len(tiles) == 7 and len(boxes) > 7
    for name, left, top, right, bottom in boxes:
        assert left >= 0 and top >= 0 and right <= width and bottom <= height, (name, bottom)
    no_horizontal_scroll(page)
    page.screenshot(path=str(ARTIFACTS / "table-landscape.png"))
    phone.close()

    # held upright the same phone keeps the layout it had: the felt above the hand
    upright = Watch(browser, 390, 844)
    page = upright.page
    create_table(page, server, "Upright")
    page.wait_for_selector("[data-testid=felt]")
    felt = page.locator("[data-testid=felt]").bounding_box()
    assert felt is not None and felt["width"] > 300
    no_horizontal_scroll(page)
    upright.close()
