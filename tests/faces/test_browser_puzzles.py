"""Play puzzles in a real browser: solve one by clicking a tile (and another by its key), see the
verdict and the line that proves it, then find it marked solved after a reload; a wrong tile
shows the line that refutes it and the one that proves the answer."""

from __future__ import annotations

from typing import Any

from texas42.core.tiles import tile_name, tiles_of
from texas42.services.learn import puzzles
from webtest import ARTIFACTS, Watch, needs_browser

pytestmark = needs_browser


def test_solve_a_puzzle_see_the_line_and_find_it_solved_after_a_reload(
    server: str, browser: Any
) -> None:
    puzzle = next(p for p in puzzles.load() if p.grade == 3 and len(p.answers) == 1)
    answer = tile_name(puzzle.answers[0])
    watch = Watch(browser)
    page = watch.page
    try:
        page.goto(f"{server}/learn/puzzles")
        link = page.locator(f"[data-testid=puzzle-link][data-puzzle={puzzle.id}]")
        assert link.get_attribute("data-solved") == "false"
        assert "Solved on this device: 0 of" in page.text_content("[data-testid=puzzles-progress]")
        link.click()
        page.wait_for_selector("[data-testid=puzzle-board]")
        # double dummy: every seat's tiles are on the page
        for seat, held in enumerate(puzzle.hand.hands):
            shown = page.locator(f"[data-testid=puzzle-hand-{seat}] [data-tile]").count()
            assert shown == held.bit_count()
        assert page.text_content("[data-testid=puzzle-task]") == puzzles.show(puzzle)["task"]
        page.click(f"[data-testid=puzzle-tile][data-tile='{answer}']")
        verdict = page.wait_for_selector("[data-testid=puzzle-verdict]")
        assert verdict.get_attribute("data-right") == "true"
        words = page.text_content("[data-testid=verdict-words]") or ""
        assert words.startswith(f"Right: {answer}")
        expected = puzzles.replay_line(puzzle, puzzle.move(puzzle.answers[0]))
        tricks = page.locator("[data-testid=proving-line] [data-testid=line-trick]")
        assert tricks.count() == len(expected["tricks"])
        assert page.text_content("[data-testid=proving-line-result]") == expected["result"]
        page.screenshot(path=str(ARTIFACTS / "puzzle-solved.png"), full_page=True)
        page.reload()
        page.wait_for_selector("[data-testid=puzzle-solved]")
        page.goto(f"{server}/learn/puzzles")
        link = page.locator(f"[data-testid=puzzle-link][data-puzzle={puzzle.id}]")
        assert link.get_attribute("data-solved") == "true"
        assert "Solved on this device: 1 of" in page.text_content("[data-testid=puzzles-progress]")
    finally:
        watch.close()


def test_a_wrong_tile_by_its_key_shows_the_refutation_and_the_proof(
    server: str, browser: Any
) -> None:
    puzzle = next(p for p in puzzles.load() if p.grade == 2 and len(p.answers) == 1)
    wrong = next(m for m in puzzle.moves if m.tile not in puzzle.answers)
    held = [tile_name(t) for t in sorted(tiles_of(puzzle.hand.hands[puzzle.seat]), reverse=True)]
    watch = Watch(browser)
    page = watch.page
    try:
        page.goto(f"{server}/learn/puzzles/{puzzle.id}")
        page.wait_for_selector("[data-testid=puzzle-board]")
        tiles = page.eval_on_selector_all(
            "[data-testid=puzzle-tile]", "tiles => tiles.map(t => t.dataset.tile)"
        )
        assert sorted(tiles) == sorted(held)
        page.keyboard.press(str(tiles.index(tile_name(wrong.tile)) + 1))
        verdict = page.wait_for_selector("[data-testid=puzzle-verdict]")
        assert verdict.get_attribute("data-right") == "false"
        assert (page.text_content("[data-testid=verdict-words]") or "").startswith(
            f"Not {tile_name(wrong.tile)}:"
        )
        refuted = puzzles.replay_line(puzzle, wrong)
        assert page.text_content("[data-testid=refuting-line-result]") == refuted["result"]
        assert page.locator("[data-testid=proving-line]").count() == 1
        assert page.get_attribute("[data-testid=puzzle-next]", "href") == (
            f"/learn/puzzles/{puzzles.next_id(puzzle)}"
        )
        page.click("[data-testid=puzzle-retry]")
        assert page.locator("[data-testid=puzzle-verdict]").count() == 0
        assert page.locator("[data-testid=puzzle-solved]").count() == 0
        daily = page.goto(f"{server}/learn/puzzles/daily")
        assert daily is not None and daily.ok
        page.wait_for_selector("[data-testid=puzzle-board]")
        assert "Today's puzzle" in (page.text_content("h2") or "")
    finally:
        watch.close()
