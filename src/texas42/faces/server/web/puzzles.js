/* Play puzzles (/learn/puzzles): the set by grade, one puzzle with all four hands shown (a puzzle
   is double dummy, not a live game), and after an answer the server's verdict with the lines of
   best play that prove it. Every sentence about the play comes made in the server's JSON
   (texas42.core.words); the puzzles solved are remembered on this device. */

import { h, mount, setTitle, toast } from "./dom.js";
import { getJson, postJson } from "./net.js";
import { placeOf, tilePicture, trickArea, trickRow } from "./board.js";
import { tileSvg } from "./tiles.js";

const SOLVED_KEY = "texas42:puzzles-solved";

/** The ids of the puzzles solved on this device. */
export function solvedPuzzles() {
  try {
    const list = JSON.parse(localStorage.getItem(SOLVED_KEY) || "[]");
    return new Set(Array.isArray(list) ? list.filter((id) => typeof id === "string") : []);
  } catch {
    return new Set();
  }
}

function markSolved(id) {
  const solved = solvedPuzzles();
  solved.add(id);
  try {
    localStorage.setItem(SOLVED_KEY, JSON.stringify([...solved]));
  } catch {
    /* storage off or full: the mark lasts as long as the page */
  }
}

/** Today on this device, as the server reads a date: YYYY-MM-DD. */
export function localDate(now = new Date()) {
  const pad = (n) => String(n).padStart(2, "0");
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

function failed(root, err) {
  mount(root, h("section", { class: "card narrow", "data-testid": "puzzle-error" },
    h("h2", {}, "No such puzzle"), h("p", {}, err.message),
    h("p", {}, h("a", { href: "/learn/puzzles" }, "All the puzzles"))));
}

export async function showPuzzles(root) {
  setTitle("Puzzles", "Play puzzles");
  mount(root, h("p", { class: "loading" }, "Loading…"));
  let set;
  try {
    set = await getJson("/api/learn/puzzles");
  } catch (err) {
    failed(root, err);
    return;
  }
  const solved = solvedPuzzles();
  const list = Array.isArray(set.puzzles) ? set.puzzles : [];
  const done = list.filter((p) => solved.has(p.id)).length;
  const grades = (Array.isArray(set.grades) ? set.grades : []).map((g) => {
    const mine = list.filter((p) => p.grade === g.grade);
    return h("section", { class: "puzzle-grade", "data-testid": `puzzle-grade-${g.grade}` },
      h("h3", {}, `${g.words} · ${mine.filter((p) => solved.has(p.id)).length} of ${mine.length} solved`),
      h("ol", { class: "puzzle-list" }, mine.map((p) => h("li", {},
        h("a", { href: `/learn/puzzles/${p.id}`, "data-testid": "puzzle-link", "data-puzzle": p.id,
          "data-solved": solved.has(p.id) ? "true" : "false", class: solved.has(p.id) ? "solved" : "" },
        solved.has(p.id) ? "✓ " : "", p.label)))));
  });
  mount(root, h("section", { class: "card puzzles-page", "data-testid": "puzzles-page" },
    h("h2", {}, "Play puzzles"),
    h("p", { "data-testid": "puzzles-intro" }, set.intro),
    h("p", { "data-testid": "puzzles-progress" }, `Solved on this device: ${done} of ${list.length}.`),
    h("p", {}, h("a", { class: "button", href: "/learn/puzzles/daily", "data-testid": "daily-link" },
      "Today's puzzle")),
    grades));
}

/** The four hands round the trick: the seat to move at the foot, its legal tiles as buttons. */
function board(puzzle, onPlay) {
  const seat = puzzle.seat;
  const seats = puzzle.seat_names.map((compass, k) => ({ compass, side: k & 1 }));
  const legal = new Set(puzzle.legal);
  const hands = puzzle.hands.map((tiles, k) => {
    const place = puzzle.hands.length === 4 ? placeOf(k, seat) : "row";
    const mover = k === seat;
    const row = tiles.map((tile, i) => mover
      ? h("button", {
        type: "button", class: `tile-button${legal.has(tile) ? " legal" : ""}`, "data-tile": tile,
        "data-testid": "puzzle-tile", "data-legal": legal.has(tile) ? "true" : "false",
        "aria-label": `play ${tile}`, title: `${tile} — key ${i + 1}`,
        onclick: () => onPlay(tile),
      }, tileSvg(tile, { vertical: true }), h("span", { class: "tile-key", "aria-hidden": "true" }, String(i + 1)))
      : tilePicture(tile, { vertical: true, cls: "puzzle-held" }));
    return h("div", { class: `puzzle-hand puzzle-${place}${mover ? " mover" : ""}`,
      "data-testid": `puzzle-hand-${k}`, role: "group", "aria-label": `${puzzle.seat_names[k]}'s tiles` },
    h("div", { class: "hand-row-seat" }, puzzle.seat_names[k], k === puzzle.bidder ? " · bidder" : ""),
    h("div", { class: "puzzle-tiles" }, row));
  });
  return h("div", { class: "felt puzzle-felt", "data-testid": "puzzle-board" },
    hands, h("div", { class: "puzzle-center" }, trickArea(puzzle.trick, seat, seats)));
}

/** A line's first trick with the tiles already on the table before the puzzle dimmed. */
function marked(row, plays) {
  plays.forEach((p, i) => {
    if (p.before && row.children[i]) row.children[i].classList.add("before");
  });
  return row;
}

function lineBlock(line, seatNames, testid) {
  const seats = seatNames.map((compass, k) => ({ compass, side: k & 1 }));
  return h("section", { class: "puzzle-line", "data-testid": testid },
    h("h3", {}, line.title),
    h("ol", { class: "puzzle-tricks" }, line.tricks.map((t) => h("li", { "data-testid": "line-trick" },
      h("span", { class: "puzzle-trick-number" }, `Trick ${t.number}`),
      marked(trickRow(t, seats, { withSeats: true }), t.plays),
      h("span", { class: "muted" }, t.words)))),
    h("p", { class: "puzzle-result", "data-testid": `${testid}-result` }, line.result));
}

function verdictBlock(puzzle, verdict, retry) {
  const [mine, proof] = verdict.lines;
  return h("section", { class: `puzzle-verdict ${verdict.right ? "right" : "wrong"}`, "data-testid": "puzzle-verdict",
    "data-right": verdict.right ? "true" : "false", tabindex: "-1" },
  h("p", { class: "puzzle-verdict-words", "data-testid": "verdict-words" }, verdict.verdict),
  verdict.right
    ? lineBlock(mine, puzzle.seat_names, "proving-line")
    : [lineBlock(mine, puzzle.seat_names, "refuting-line"), lineBlock(proof, puzzle.seat_names, "proving-line")],
  h("p", { class: "puzzle-actions" },
    verdict.right ? null : h("button", { type: "button", "data-testid": "puzzle-retry", onclick: retry }, "Try again"),
    h("a", { class: "button", href: `/learn/puzzles/${encodeURIComponent(puzzle.next)}`, "data-testid": "puzzle-next" },
      "Next puzzle"),
    h("a", { class: "button", href: "/learn/puzzles", "data-testid": "puzzles-back" }, "All the puzzles")));
}

export async function showPuzzle(root, id) {
  setTitle("Puzzle", "Play puzzle");
  mount(root, h("p", { class: "loading" }, "Loading…"));
  const daily = id === "daily";
  let puzzle;
  try {
    puzzle = await getJson(daily
      ? `/api/learn/puzzles/daily?date=${encodeURIComponent(localDate())}`
      : `/api/learn/puzzles/${encodeURIComponent(id)}`);
  } catch (err) {
    failed(root, err);
    return;
  }
  setTitle(daily ? "Today's puzzle" : "Puzzle", daily ? `Today's puzzle · ${puzzle.date}` : "Play puzzle");
  const answer = h("div", { class: "puzzle-answer", "data-testid": "puzzle-answer" });
  let busy = false;
  const draw = () => {
    const solved = solvedPuzzles().has(puzzle.id);
    const felt = board(puzzle, play);
    mount(root, h("section", { class: "card puzzle-page", "data-testid": "puzzle-page", "data-puzzle": puzzle.id },
      h("h2", {}, daily ? `Today's puzzle · ${puzzle.grade_words}` : `Puzzle · ${puzzle.grade_words}`,
        solved ? h("span", { class: "puzzle-solved", "data-testid": "puzzle-solved" }, " ✓ solved") : null),
      h("p", { "data-testid": "puzzle-contract" }, puzzle.contract_line),
      h("p", { "data-testid": "puzzle-standing" }, puzzle.standing),
      h("p", { class: "puzzle-task", "data-testid": "puzzle-task" }, puzzle.task),
      puzzle.tricks.length
        ? h("details", { class: "puzzle-before" }, h("summary", {}, "The tricks before"),
          h("ol", {}, puzzle.tricks.map((t) => h("li", {},
            trickRow(t, puzzle.seat_names.map((compass) => ({ compass })), { withSeats: true })))))
        : null),
    felt, answer);
    const first = felt.querySelector(".tile-button.legal");
    if (first && !answer.childElementCount) first.focus();
  };
  async function play(tile) {
    if (busy || answer.childElementCount) return;
    busy = true;
    try {
      const verdict = await postJson("/api/learn/puzzles/answer", { id: puzzle.id, tile });
      if (verdict.right) markSolved(puzzle.id);
      draw();
      mount(answer, verdictBlock(puzzle, verdict, () => {
        answer.replaceChildren();
        draw();
      }));
      answer.querySelector("[data-testid=puzzle-verdict]").focus();
    } catch (err) {
      toast(err.message, "error");
    } finally {
      busy = false;
    }
  }
  // keys 1-9 play the mover's tiles, as at the table
  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey || !/^[1-9]$/.test(event.key)) return;
    const buttons = root.querySelectorAll("[data-testid=puzzle-tile]");
    const button = buttons[Number(event.key) - 1];
    if (button && button.dataset.legal === "true") play(button.dataset.tile);
  });
  draw();
}
