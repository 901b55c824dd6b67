"""The lobby's open tables and a table's chat in Chromium: the list and its live updates, joining
from it, chat shown as text only, its limit, its history over a reload, and the README's
screenshots (``docs/lobby.png``, ``docs/table-chat.png``)."""

from __future__ import annotations

import json
import re
import urllib.request
from pathlib import Path
from typing import Any

from texas42.faces.server.messages import REACTIONS
from webtest import (
    ARTIFACTS,
    WEB,
    Watch,
    act_once,
    add_bot,
    needs_browser,
    no_horizontal_scroll,
    serve,
    sit,
)

pytestmark = needs_browser

NAME_TRAP = "<img src=x onerror=P=1>"
"""A player's name (at most 24 characters) that would set ``window.P`` if it became markup."""
LINE_TRAP = '<script>window.__pwned=1</script><img src=x onerror="window.__pwned=2"> 6-4 & <b>'
TABLE_TRAP = "<img src=x onerror=window.__pwned=3>"


def post_table(base: str, name: str, *, public: bool, rules: str = "standard") -> str:
    body = json.dumps({"rules": rules, "name": name, "public": public}).encode()
    request = urllib.request.Request(
        base + "/api/tables", body, {"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        table_id: str = json.loads(response.read())["id"]
    return table_id


def nothing_ran(page: Any) -> None:
    assert page.evaluate("() => [window.__pwned, window.P]") == [None, None]
    # the page's one image of its own is the invite's QR code; no other came from what was typed
    found = page.evaluate(
        "() => [...document.querySelectorAll('#app img, #app script')].map(e => e.dataset.testid)"
    )
    assert found in ([], ["invite-qr"]), found


def chat_texts(page: Any) -> list[str]:
    texts: list[str] = page.eval_on_selector_all(
        "[data-testid=chat-line-text]", "nodes => nodes.map(n => n.textContent)"
    )
    return texts


def say(page: Any, text: str) -> None:
    page.fill("[data-testid=chat-input]", text)
    page.click("[data-testid=chat-send]")


def test_the_reactions_are_the_servers() -> None:
    source = (WEB / "chat.js").read_text()
    listed = re.search(r"export const REACTIONS = \[(.*?)\];", source)
    assert listed is not None
    assert tuple(json.loads(f"[{listed.group(1)}]")) == REACTIONS


def test_the_lobby_lists_public_tables_live_and_joins_one(server: str, browser: Any) -> None:
    private = post_table(server, "Hidden away", public=False)
    first = post_table(server, "Friday night", public=True)
    watch = Watch(browser, 1280, 800)
    page = watch.page
    page.goto(server + "/")
    page.wait_for_selector(f"[data-testid=open-table][data-table='{first}']")
    assert page.locator(f"[data-testid=open-table][data-table='{private}']").count() == 0
    row = page.locator(f"[data-testid=open-table][data-table='{first}']")
    assert row.locator("[data-testid=open-table-name]").text_content() == "Friday night"
    assert "4 seats free of 4" in (
        row.locator("[data-testid=open-table-seats]").text_content() or ""
    )
    # a table made while the lobby is open appears without a reload, its name as text
    trap = post_table(server, TABLE_TRAP, public=True)
    page.wait_for_selector(f"[data-testid=open-table][data-table='{trap}']")
    name = page.locator(
        f"[data-testid=open-table][data-table='{trap}'] [data-testid=open-table-name]"
    )
    assert name.text_content() == TABLE_TRAP
    nothing_ran(page)
    # the create form lists a table when asked
    page.fill("[data-testid=table-name]", "Listed from the form")
    page.check("[data-testid=table-public]")
    page.click("[data-testid=create-table]")
    page.wait_for_url(re.compile(r"/t/[^/]+$"))
    made = page.url.rsplit("/", 1)[1]
    page.wait_for_selector("[data-testid=pregame]")
    other = Watch(browser, 1280, 800)
    other.page.goto(server + "/")
    other.page.wait_for_selector(f"[data-testid=open-table][data-table='{made}']")
    sit(page, 0, "Ann")
    other.page.wait_for_function(
        """id => (document.querySelector(`[data-table='${id}'] [data-testid=open-table-seats]`)
              || {}).textContent?.includes('players: Ann')""",
        arg=made,
    )
    # one click joins: the table's page, where a seat is taken
    other.page.click(f"[data-testid=join-{made}]")
    other.page.wait_for_url(re.compile(rf"/t/{made}$"))
    sit(other.page, 1, "Bob")
    other.close()
    watch.close()


def test_chat_is_text_kept_over_a_reload_and_limited(server: str, browser: Any) -> None:
    table = post_table(server, "Chat night", public=False)
    host = Watch(browser, 1280, 800)
    guest = Watch(browser, 1280, 800)
    host.page.goto(f"{server}/t/{table}")
    sit(host.page, 0, NAME_TRAP)
    guest.page.goto(f"{server}/t/{table}")
    guest.page.wait_for_selector("[data-testid=chat-note]:has-text('Only the players')")
    assert guest.page.locator("[data-testid=chat-form]").is_hidden()  # spectators only read
    say(host.page, LINE_TRAP)
    for page in (host.page, guest.page):
        page.wait_for_selector("[data-testid=chat-line]")
        assert chat_texts(page) == [LINE_TRAP.strip()]
        who = page.text_content("[data-testid=chat-line-name]")
        assert who == NAME_TRAP
        assert NAME_TRAP in (page.text_content("[data-testid=seat-0]") or "")
        nothing_ran(page)
    # the host lets spectators write; a spectator writes under a name
    host.page.check("[data-testid=chat-spectators]")
    guest.page.wait_for_selector("[data-testid=chat-form]:not([hidden])")
    guest.page.fill("[data-testid=chat-name]", "Sam")
    say(guest.page, "hello from the rail")
    host.page.wait_for_function(
        "() => [...document.querySelectorAll('[data-testid=chat-line-text]')]"
        ".some(n => n.textContent === 'hello from the rail')"
    )
    guest.page.click("[data-testid=react-4]")  # oops
    host.page.wait_for_function(
        "() => document.querySelectorAll('[data-testid=chat-line]').length === 3"
    )
    assert chat_texts(host.page)[-1] == "oops"
    # a reload shows the recent chat
    guest.page.reload()
    guest.page.wait_for_function(
        "() => document.querySelectorAll('[data-testid=chat-line]').length === 3"
    )
    assert chat_texts(guest.page) == [LINE_TRAP.strip(), "hello from the rail", "oops"]
    nothing_ran(guest.page)
    # six lines at once: the sixth is refused, and the page says why
    host.page.evaluate(
        """() => {
          const input = document.querySelector('[data-testid=chat-input]');
          const form = document.querySelector('[data-testid=chat-form]');
          for (let n = 0; n < 6; n++) { input.value = `line ${n}`; form.requestSubmit(); }
        }"""
    )
    host.page.wait_for_selector("[data-testid=toast]:has-text('too many chat lines')")
    # the server answers in order: the lines it took were sent before the refusal
    shown = chat_texts(host.page)[3:]
    assert shown[:4] == [f"line {n}" for n in range(4)]  # the host wrote one line already
    assert "line 5" not in shown
    guest.close()
    host.close()


def test_the_host_mutes_a_player_from_the_chat_panel(server: str, browser: Any) -> None:
    table = post_table(server, "Mute night", public=False)
    host = Watch(browser, 1280, 800)
    host.page.goto(f"{server}/t/{table}")
    sit(host.page, 0, "Ann")
    guest = Watch(browser, 1280, 800)
    guest.page.goto(f"{server}/t/{table}")
    sit(guest.page, 1, "Bob")
    assert guest.page.locator("[data-testid=mute-0]").count() == 0  # only the host has them
    host.page.click("[data-testid=mute-1]")
    guest.page.wait_for_selector("[data-testid=chat-note]:has-text('muted')")
    assert guest.page.locator("[data-testid=chat-form]").is_hidden()
    host.page.wait_for_selector("[data-testid=mute-1][aria-pressed=true]")
    host.page.click("[data-testid=mute-1]")
    guest.page.wait_for_selector("[data-testid=chat-form]:not([hidden])")
    say(guest.page, "back again")
    host.page.wait_for_selector("[data-testid=chat-line-text]:has-text('back again')")
    guest.close()
    host.close()


def test_on_a_phone_the_chat_folds_and_counts_new_lines(server: str, browser: Any) -> None:
    table = post_table(server, "Phone chat", public=False)
    player = Watch(browser, 1280, 800)
    player.page.goto(f"{server}/t/{table}")
    sit(player.page, 0, "Ann")
    phone = Watch(browser, 390, 844)
    phone.page.goto(f"{server}/t/{table}")
    phone.page.wait_for_selector("[data-testid=chat][data-open=false]")
    assert phone.page.locator("[data-testid=chat-lines]").is_hidden()
    say(player.page, "are you there?")
    phone.page.wait_for_selector("[data-testid=chat-unread]:has-text('(1)')")
    phone.page.click("[data-testid=chat-toggle]")
    phone.page.wait_for_selector("[data-testid=chat-line]")
    assert chat_texts(phone.page) == ["are you there?"]
    assert phone.page.text_content("[data-testid=chat-unread]") == ""
    no_horizontal_scroll(phone.page)
    post_table(server, "A table with a rather long name for a small phone screen", public=True)
    phone.page.goto(server + "/")
    phone.page.wait_for_selector("[data-testid=open-table]")
    no_horizontal_scroll(phone.page)
    phone.close()
    player.close()


def test_screenshots_of_the_lobby_and_a_table_with_chat(browser: Any, tmp_path: Path) -> None:
    """The README's pictures: the lobby with public tables listed, and a table mid-hand with
    chat lines (saved in test-artifacts/; copies are kept in docs/). A server of its own, so
    the lobby shows only the tables made here."""
    with serve(tmp_path) as server:
        pictures(server, browser)


def pictures(server: str, browser: Any) -> None:
    waiting = post_table(server, "Grandma's kitchen", public=True)
    table = post_table(server, "Sunday at the lake", public=True)
    player = Watch(browser, 1280, 800)
    page = player.page
    page.goto(f"{server}/t/{table}")
    sit(page, 0, "Ann")
    for seat in (1, 2, 3):
        add_bot(page, seat, "medium")
    page.click("[data-testid=start]")
    page.wait_for_selector("[data-testid=hand] [data-tile]")
    friend = Watch(browser, 1280, 800)
    friend.page.goto(f"{server}/t/{waiting}")
    sit(friend.page, 0, "Joe")
    rail = Watch(browser, 1280, 800)
    rail.page.goto(f"{server}/t/{table}")
    rail.page.wait_for_selector("[data-testid=chat]")
    page.check("[data-testid=chat-spectators]")
    say(page, "Evening all! Bots, go easy on me.")
    rail.page.wait_for_selector("[data-testid=chat-form]:not([hidden])")
    rail.page.fill("[data-testid=chat-name]", "Grandpa")
    say(rail.page, "Watching from the porch. Lead trumps, Ann!")
    acted = 0
    for _ in range(60):
        if acted >= 6:
            break
        if act_once(page):
            acted += 1
        else:
            page.wait_for_timeout(100)
    page.click("[data-testid=react-3]")  # nice bid
    page.wait_for_function(
        "() => document.querySelectorAll('[data-testid=chat-line]').length === 3"
    )
    ARTIFACTS.mkdir(exist_ok=True)
    page.evaluate("() => window.scrollTo(0, 0)")
    page.screenshot(path=str(ARTIFACTS / "table-chat.png"))
    lobby = Watch(browser, 1280, 800)
    lobby.page.goto(server + "/")
    for listed in (waiting, table):
        lobby.page.wait_for_selector(f"[data-testid=open-table][data-table='{listed}']")
    lobby.page.wait_for_function(
        """id => (document.querySelector(`[data-table='${id}'] [data-testid=open-table-status]`)
              || {}).textContent === 'playing'""",
        arg=table,
    )
    lobby.page.screenshot(path=str(ARTIFACTS / "lobby.png"))
    for name in ("lobby.png", "table-chat.png"):
        assert (ARTIFACTS / name).stat().st_size > 10_000
    for watch in (lobby, rail, friend, player):
        watch.close()
