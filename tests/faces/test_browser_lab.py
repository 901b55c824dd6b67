"""The hand laboratory in a real browser: open a shared link, swap a tile by clicks and by
keys, see the figures change beside the ones before, play forward and back, and reload the link
to get the same position; a record's hand opens from the replay page's "Open in the lab"."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlparse

from texas42.core.record import Record
from texas42.services.learn import lab
from webtest import WAIT_MS, Watch, needs_browser

pytestmark = needs_browser

EXAMPLE = Path(__file__).parents[2] / "examples" / "ex14-marks.json"
DEAL = "standard 0-0 1 3 64.63.62.61.43.40.20/53.42.33.31.22.11.00/66.55.54.52.51.41.21/65.60.50.44.32.30.10 0:- - - 0"
FIGURES_MS = 120_000
"""The first figures start the server's worker and its solver: allow for a slow machine."""


def post(base: str, path: str, body: dict[str, Any]) -> Any:
    request = urllib.request.Request(
        base + path, json.dumps(body).encode(), {"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=120) as response:
        return json.loads(response.read())


def address_position(page: Any) -> str:
    (position,) = parse_qs(urlparse(page.url).query)["p"]
    return str(position)


def figures_for(page: Any, position: str) -> None:
    """Wait until the figures shown are this position's (the status line empty again)."""
    page.wait_for_function(
        """(position) => document.querySelector('[data-testid=lab-status]').textContent === ''
          && document.querySelector('[data-testid=lab-figures]').dataset.position === position
          && new URLSearchParams(location.search).get('p') === position""",
        arg=position,
        timeout=FIGURES_MS,
    )
    assert address_position(page) == position


def total_of(page: Any, contract: str) -> str:
    return str(page.text_content(f"[data-testid=lab-contract-{contract}] [data-testid=total]"))


def test_a_shared_link_opens_the_position_and_a_swap_changes_the_figures(
    server: str, browser: Any
) -> None:
    named = lab.write_position(lab.set_contract(lab.read_position(DEAL), 0, "30", "sixes"))
    watch = Watch(browser)
    page = watch.page
    try:
        page.goto(f"{server}/learn/lab?p={urllib.request.quote(named)}")
        figures_for(page, named)
        assert page.get_attribute("[data-testid=lab-tile-6-4]", "aria-pressed") == "false"
        assert page.locator("[data-testid=lab-seat-0] button[data-tile]").count() == 7
        assert total_of(page, "sixes") == "40"
        best = page.text_content("[data-testid=lab-best-line]")
        assert best is not None and "40 points" in best
        # swap North's 2-0 and West's 6-5 by clicks: the solver gives North 42
        page.click("[data-testid=lab-tile-2-0]")
        assert page.get_attribute("[data-testid=lab-tile-2-0]", "aria-pressed") == "true"
        page.click("[data-testid=lab-tile-6-5]")
        swapped = lab.write_position(lab.swap_tiles(lab.read_position(named), "2-0", "6-5"))
        figures_for(page, swapped)
        assert page.locator("[data-testid=lab-seat-0] button[data-tile='6-5']").count() == 1
        assert total_of(page, "sixes") == "42"
        row = page.locator("[data-testid=lab-contract-sixes]")
        assert row.locator("td.before").nth(1).text_content() == "40"  # before, beside after
        assert row.locator("td.change").nth(1).text_content() == "+2"
        assert "40 points" in str(page.text_content("[data-testid=lab-best-before]"))
        # the same swap back, from the keyboard: Enter on one tile, then on the other
        page.focus("[data-testid=lab-tile-6-5]")
        page.keyboard.press("Enter")
        page.focus("[data-testid=lab-tile-2-0]")
        page.keyboard.press("Enter")
        figures_for(page, named)
        assert total_of(page, "sixes") == "40"
        # reload the link: the same position, the same figures
        page.goto(f"{server}/learn/lab?p={urllib.request.quote(swapped)}")
        figures_for(page, swapped)
        assert page.input_value("[data-testid=lab-source]") == swapped
        assert total_of(page, "sixes") == "42"
        shared = page.input_value("[data-testid=lab-link]")
        page.goto(shared)
        figures_for(page, swapped)
        assert page.locator("[data-testid=lab-seat-3] button[data-tile='2-0']").count() == 1
    finally:
        watch.close()


def test_play_forward_and_back_and_move_the_contract(server: str, browser: Any) -> None:
    watch = Watch(browser)
    page = watch.page
    try:
        page.goto(f"{server}/learn/lab?p={urllib.request.quote(DEAL)}")
        figures_for(page, DEAL)
        assert page.locator("[data-testid=lab-moves]").count() == 0  # no contract: no play
        page.select_option("[data-testid=lab-bidder]", "0")
        page.fill("[data-testid=lab-bid]", "30")
        page.select_option("[data-testid=lab-contract]", "sixes")
        page.click("[data-testid=lab-set-contract]")
        named = lab.write_position(lab.set_contract(lab.read_position(DEAL), 0, "30", "sixes"))
        figures_for(page, named)
        page.click("[data-testid=lab-play-6-4]")
        after = lab.write_position(lab.play_tile(lab.read_position(named), "6-4"))
        figures_for(page, after)
        assert page.locator("[data-testid=lab-trick] [data-tile='6-4']").count() == 1
        values = post(server, "/api/learn/lab", {"position": after})["moves"]
        shown = page.locator("[data-testid=lab-moves] tbody tr").count()
        assert shown == len(values)
        page.keyboard.press("ArrowLeft")  # back
        figures_for(page, named)
        assert page.is_enabled("[data-testid=lab-forward]")
        page.keyboard.press("ArrowRight")  # and forward again
        figures_for(page, after)
        # a refused edit says why and changes nothing
        page.fill("[data-testid=lab-source]", DEAL.replace("64.63", "64.64"))
        page.click("[data-testid=lab-open]")
        page.wait_for_function(
            "() => document.querySelector('[data-testid=lab-status]').textContent.includes('twice')"
        )
        assert address_position(page) == after
    finally:
        watch.close()


def test_a_replayed_records_hand_opens_in_the_lab(server: str, browser: Any) -> None:
    """The replay page (a finished game's, or an imported record's) links each hand to the lab."""
    watch = Watch(browser)
    page = watch.page
    try:
        replay = urllib.request.Request(
            server + "/api/replay", EXAMPLE.read_bytes(), {"Content-Type": "application/json"}
        )
        with urllib.request.urlopen(replay, timeout=60) as response:
            frames = response.read().decode()
        page.goto(server + "/replay")
        page.evaluate("(text) => sessionStorage.setItem('texas42:import', text)", frames)
        page.goto(server + "/replay")
        page.wait_for_selector("[data-testid=replay-lab]", timeout=WAIT_MS * 4)
        page.click("[data-testid=replay-lab]")
        page.wait_for_url("**/learn/lab?p=*")
        (position,) = lab.record_positions(Record.from_json(EXAMPLE.read_text()))
        figures_for(page, position)
        assert page.locator("[data-testid=lab-tile-6-6].played").count() == 1
        page.click("[data-testid=lab-start]")
        first = lab.read_position(position)
        while first.plays:
            first = lab.take_back(first)
        start = lab.write_position(first)
        assert start.split()[5:8] == ["0:34.pass.pass.pass", "sixes", "-"]
        figures_for(page, start)  # the first lead: no tile played, the contract kept
        assert page.locator(".lab-tile.played").count() == 0
        assert page.is_enabled("[data-testid=lab-forward]")
    finally:
        watch.close()
