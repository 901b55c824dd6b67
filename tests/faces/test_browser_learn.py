"""The lessons in a real browser: from the lobby to /learn, the first lesson played to its end
(one wrong tile stopped with the engine's reason and the better play, one move by keyboard), and
the lesson shown done on the hub after a reload (progress kept on the device)."""

from __future__ import annotations

from typing import Any

from texas42.core.tiles import TILE_NAMES, iter_tiles
from texas42.services.learn.lessons import lessons, move_notation, situation
from webtest import ARTIFACTS, Watch

ENABLED = "[data-testid=lesson-hand] button.tile-button:not([disabled])"
FEEDBACK = "[data-testid=lesson-feedback]"


def tiles_in_hand(page: Any) -> list[str]:
    return page.eval_on_selector_all(ENABLED, "bs => bs.map(b => b.dataset.move)")


def test_the_first_lesson_plays_through_and_counts_as_done(server: str, browser: Any) -> None:
    first = lessons()[0]
    moves = [move_notation(first.actions[s]) for s in first.steps]
    watch = Watch(browser)
    page = watch.page
    try:
        page.goto(server + "/")
        page.click("[data-testid=learn-link]")
        page.wait_for_selector("[data-testid=lesson-list] li")
        assert page.url.rstrip("/").endswith("/learn")
        assert page.text_content("[data-testid=learn-progress]").startswith(
            f"0 of {len(lessons())}"
        )
        hrefs = page.eval_on_selector_all(
            "[data-testid=learn-links] a", "as => as.map(a => a.getAttribute('href'))"
        )
        assert hrefs == ["/learn/bids", "/learn/puzzles", "/learn/puzzles/daily", "/learn/lab"]
        page.click("[data-testid=learn-next]")
        page.wait_for_selector(ENABLED)
        assert first.title in page.text_content("[data-testid=lesson-intro]")

        # a wrong tile is stopped: the reason, the better play, and the hand unchanged
        held = tiles_in_hand(page)
        wrong = next(t for t in held if t != moves[0])
        page.click(f"{ENABLED}[data-move='{wrong}']")
        # the first answer may wait for the server's worker to start and load the solver
        page.wait_for_selector(f"{FEEDBACK}[data-right=false]", timeout=180_000)
        said = page.text_content(FEEDBACK)
        assert wrong in said and f"Play {moves[0]}." in said, said
        page.wait_for_selector(ENABLED)
        assert tiles_in_hand(page) == held
        page.screenshot(path=str(ARTIFACTS / "learn-lesson-wrong.png"))

        for k, move in enumerate(moves):
            page.wait_for_selector(f"{ENABLED}[data-move='{move}']")
            if k == 1:  # by keyboard: the tile's number key, as at the table
                page.keyboard.press(str(tiles_in_hand(page).index(move) + 1))
            else:
                page.click(f"{ENABLED}[data-move='{move}']")
            page.wait_for_function(
                "m => { const f = document.querySelector('[data-testid=lesson-feedback]');"
                " return f && f.dataset.right === 'true' && f.textContent.startsWith('Right: ' + m); }",
                arg=move,
            )
        page.wait_for_selector("[data-testid=lesson-done]")
        page.screenshot(path=str(ARTIFACTS / "learn-lesson-done.png"))

        page.click("[data-testid=lesson-back]")
        page.wait_for_selector("[data-testid=lesson-list] li")
        page.reload()
        page.wait_for_selector("[data-testid=lesson-list] li")
        assert "done" in page.text_content(f"[data-testid=lesson-done-{first.id}]")
        assert page.text_content("[data-testid=learn-progress]").startswith(
            f"1 of {len(lessons())}"
        )
        page.screenshot(path=str(ARTIFACTS / "learn-hub.png"))
    finally:
        watch.close()


def test_a_bidding_lesson_shows_the_learner_s_own_tiles_beside_the_calls(
    server: str, browser: Any
) -> None:
    found = next(x for x in lessons() if x.id == "05-bid")
    assert found.steps[0] == 0
    held = [TILE_NAMES[t] for t in iter_tiles(found.hand_record.deal[found.seat])]
    watch = Watch(browser)
    page = watch.page
    try:
        page.goto(server + f"/learn/lesson/{found.id}")
        page.wait_for_selector("[data-testid=lesson-choices] button")
        shown = page.eval_on_selector_all(
            "[data-testid=lesson-held] [data-tile]", "ts => ts.map(t => t.dataset.tile)"
        )
        assert sorted(shown) == sorted(held) and len(shown) == 7
        # face up and for looking at: the calls are the buttons, the tiles are not
        assert page.eval_on_selector_all("[data-testid=lesson-held] button", "bs => bs.length") == 0
        calls = page.eval_on_selector_all(
            "[data-testid=lesson-choices] button", "bs => bs.map(b => b.dataset.move)"
        )
        assert move_notation(found.actions[0]) in calls
    finally:
        watch.close()


def test_a_lesson_left_halfway_goes_on_from_there_after_a_reload(server: str, browser: Any) -> None:
    found = lessons()[0]
    moves = [move_notation(found.actions[s]) for s in found.steps]
    third = found.steps[2]
    watch = Watch(browser)
    page = watch.page
    try:
        page.goto(server + f"/learn/lesson/{found.id}")
        for move in moves[:2]:
            page.wait_for_selector(f"{ENABLED}[data-move='{move}']", timeout=180_000)
            page.click(f"{ENABLED}[data-move='{move}']")
            page.wait_for_function(
                "m => { const f = document.querySelector('[data-testid=lesson-feedback]');"
                " return f && f.dataset.right === 'true' && f.textContent.includes(m); }",
                arg=move,
                timeout=180_000,
            )
        page.wait_for_selector(f"{ENABLED}[data-move='{moves[2]}']")
        kept = page.evaluate("() => JSON.parse(localStorage.getItem('texas42:lesson-steps'))")
        assert kept == {found.id: third}

        page.reload()
        page.wait_for_selector("[data-testid=lesson-resume]")
        assert f"move 3 of {len(found.steps)}" in page.text_content("[data-testid=lesson-resume]")
        page.click("[data-testid=lesson-go-on]")
        page.wait_for_selector(ENABLED)
        held = found.hand_at(third).hands[found.seat]
        assert sorted(tiles_in_hand(page)) == sorted(TILE_NAMES[t] for t in iter_tiles(held))
        assert page.text_content("[data-testid=lesson-situation]") == situation(found, third)
        page.click(f"{ENABLED}[data-move='{moves[2]}']")  # and the lesson goes on from there
        page.wait_for_function(
            "() => { const f = document.querySelector('[data-testid=lesson-feedback]');"
            " return f && f.dataset.right === 'true'; }"
        )

        page.reload()
        page.wait_for_selector("[data-testid=lesson-resume]")
        page.click("[data-testid=lesson-start-again]")
        page.wait_for_selector(f"{ENABLED}[data-move='{moves[0]}']")
        assert page.text_content("[data-testid=lesson-situation]") == situation(
            found, found.steps[0]
        )
    finally:
        watch.close()
