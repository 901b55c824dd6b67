/* Learning to play (issue 17): the /learn hub and the lessons' table.

   The hub lists the lessons with this device's progress and links to the other ways to learn.
   A lesson is a fixed deal played open: the server sends the positions of the moves the lesson
   makes itself (frames, as the replay viewer draws them) and judges each move the learner makes
   (POST /api/learn/check); the words shown are the server's, made by the engine. Progress (which
   lessons are done, and the step an unfinished one was left at, to go on from there) is kept in
   localStorage, nothing else. */

import { h, mount, setTitle } from "./dom.js";
import { getJson, postJson } from "./net.js";
import {
  callsList, compassOf, phaseOf, piles, placeOf, rolesOf, seatLabel, seatList, sideOf, teamLabels,
  tilePicture, trickArea,
} from "./board.js";
import { tileSvg } from "./tiles.js";

const PROGRESS_KEY = "texas42:lessons";
const STEPS_KEY = "texas42:lesson-steps"; // where each unfinished lesson was left
const FRAME_MS = 450; // how long each of the lesson's own moves stays on the felt

/** The lessons this device finished: { id: true }. */
export function lessonProgress() {
  try {
    const kept = JSON.parse(localStorage.getItem(PROGRESS_KEY) || "{}");
    return kept && typeof kept === "object" ? kept : {};
  } catch {
    return {};
  }
}

function markDone(id) {
  const kept = lessonProgress();
  kept[id] = true;
  try {
    localStorage.setItem(PROGRESS_KEY, JSON.stringify(kept));
  } catch {
    /* storage off or full: the progress lasts as long as the page */
  }
  keepStep(id, null);
}

/** The step each unfinished lesson was left at on this device: { id: step }. */
function keptSteps() {
  try {
    const kept = JSON.parse(localStorage.getItem(STEPS_KEY) || "{}");
    return kept && typeof kept === "object" ? kept : {};
  } catch {
    return {};
  }
}

/** Remember the learner's next step in a lesson (null forgets it: the lesson is over). */
function keepStep(id, step) {
  const kept = keptSteps();
  if (step === null) delete kept[id];
  else kept[id] = step;
  try {
    localStorage.setItem(STEPS_KEY, JSON.stringify(kept));
  } catch {
    /* storage off or full: the lesson starts again next time */
  }
}

/** The other ways to learn, built by the other parts of issue 17. */
const OTHER_WAYS = [
  ["/learn/bids", "Bidding practice", "What would you bid? The expert's figures after each answer."],
  ["/learn/puzzles", "Play puzzles", "Positions where one play makes or sets the contract."],
  ["/learn/puzzles/daily", "The daily puzzle", "The same puzzle for everyone today."],
  ["/learn/lab", "Hand laboratory", "Set up any deal and see how the best play changes."],
];

export async function showLearn(root) {
  setTitle("Learn to play", "Learn to play");
  mount(root, h("p", { class: "loading" }, "Loading the lessons…"));
  let list;
  try {
    list = await getJson("/api/learn/lessons");
  } catch (err) {
    mount(root, h("section", { class: "card narrow" }, h("h2", {}, "No lessons"), h("p", {}, err.message)));
    return;
  }
  const done = lessonProgress();
  const lessons = Array.isArray(list.lessons) ? list.lessons : [];
  const finished = lessons.filter((l) => done[l.id]).length;
  const next = lessons.find((l) => !done[l.id]);
  mount(root, h("div", { class: "learn-hub", "data-testid": "learn-hub" },
    h("section", { class: "card" },
      h("h1", {}, "Learn to play 42"),
      h("p", {}, "Never played? Start with the first lesson: a deal played with every hand shown, where each of your moves is checked by the engine and explained."),
      h("p", { class: "learn-progress", "data-testid": "learn-progress" },
        `${finished} of ${lessons.length} lessons done`),
      next ? h("a", { class: "learn-start", href: `/learn/lesson/${encodeURIComponent(next.id)}`,
        "data-testid": "learn-next" }, finished ? `Go on: ${next.title}` : `Start: ${next.title}`) : null),
    h("section", { class: "card" },
      h("h2", {}, "Lessons"),
      h("ol", { class: "lesson-list", "data-testid": "lesson-list" }, lessons.map((l) =>
        h("li", { class: `lesson-item${done[l.id] ? " done" : ""}`, "data-lesson": l.id,
          "data-done": done[l.id] ? "true" : "false" },
        h("a", { href: `/learn/lesson/${encodeURIComponent(l.id)}` }, l.title),
        h("span", { class: "lesson-mark", "data-testid": `lesson-done-${l.id}` }, done[l.id] ? " ✓ done" : ""),
        h("p", { class: "muted" }, l.summary))))),
    h("section", { class: "card" },
      h("h2", {}, "More ways to learn"),
      h("ul", { class: "learn-links", "data-testid": "learn-links" }, OTHER_WAYS.map(([href, title, what]) =>
        h("li", {}, h("a", { href }, title), h("span", { class: "muted" }, ` ${what}`))))),
    h("p", { class: "side-links" }, h("a", { href: "/" }, "← Lobby"))));
}

export async function showLesson(root, id) {
  setTitle("Lesson", "Lesson");
  mount(root, h("p", { class: "loading" }, "Loading the lesson…"));
  let lesson;
  try {
    lesson = await getJson(`/api/learn/lessons/${encodeURIComponent(id)}`);
  } catch (err) {
    mount(root, h("section", { class: "card narrow", "data-testid": "lesson-error" }, h("h2", {}, "No such lesson"),
      h("p", {}, err.message), h("p", {}, h("a", { href: "/learn" }, "All lessons"))));
    return;
  }
  const steps = Array.isArray(lesson.steps) ? lesson.steps : [];
  const left = keptSteps()[lesson.id];
  const first = lesson.turn ? lesson.turn.step : null;
  if (!Number.isInteger(left) || !steps.includes(left) || left === first) {
    new LessonTable(root, lesson).start();
    return;
  }
  // the server replays the lesson's own moves up to the step the learner reached
  const goOn = async () => {
    mount(root, h("p", { class: "loading" }, "Loading the lesson…"));
    try {
      new LessonTable(root, await getJson(`/api/learn/lessons/${encodeURIComponent(lesson.id)}?at=${left}`)).start();
    } catch {
      keepStep(lesson.id, null);
      new LessonTable(root, lesson).start();
    }
  };
  const again = () => {
    keepStep(lesson.id, null);
    new LessonTable(root, lesson).start();
  };
  setTitle(lesson.title, `Lesson · ${lesson.title}`);
  mount(root, h("section", { class: "card narrow lesson-resume", "data-testid": "lesson-resume" },
    h("h1", {}, lesson.title),
    h("p", {}, `You left this lesson at your move ${steps.indexOf(left) + 1} of ${steps.length}.`),
    h("p", {},
      h("button", { type: "button", class: "learn-start", "data-testid": "lesson-go-on", onclick: goOn }, "Go on from there"),
      " ",
      h("button", { type: "button", "data-testid": "lesson-start-again", onclick: again }, "Start again"))));
}

class LessonTable {
  constructor(root, lesson) {
    this.root = root;
    this.lesson = lesson;
    const layout = lesson.layout || {};
    const names = Array.isArray(layout.seat_names) ? layout.seat_names : ["North", "East", "South", "West"];
    const sides = Array.isArray(layout.side_of) ? layout.side_of : names.map((_, s) => s & 1);
    this.seats = names.map((compass, s) => ({
      name: s === lesson.seat ? `You (${compass})` : compass, kind: "human", compass, side: sides[s],
    }));
    this.bottom = lesson.seat;
    this.turn = null;
    this.frame = null;
    this.busy = false;
    this.feedback = null;
  }

  start() {
    setTitle(this.lesson.title, `Lesson · ${this.lesson.title}`);
    this.el = {
      felt: h("div", { class: "felt replay-felt lesson-felt", "data-testid": "lesson-felt" }),
      caption: h("p", { class: "caption", "data-testid": "lesson-caption", "aria-live": "polite" }),
      coach: h("section", { class: "card lesson-coach", "data-testid": "lesson-coach" }),
      hand: h("div", { class: "my-hand lesson-hand", role: "group", "aria-label": "your moves", "data-testid": "lesson-hand" }),
      side: h("div", { class: "lesson-side" }),
    };
    mount(this.root, h("div", { class: "table-page lesson", "data-testid": "lesson" },
      h("div", { class: "table-main" },
        h("section", { class: "card lesson-intro", "data-testid": "lesson-intro" },
          h("h1", {}, this.lesson.title),
          (this.lesson.intro || []).map((line) => h("p", {}, line))),
        this.el.caption, this.el.felt, this.el.hand),
      h("aside", { class: "table-side" }, this.el.coach, this.el.side)));
    this.play(this.lesson.turn);
  }

  /** Show the lesson's own moves one after another, then ask for the learner's. */
  async play(turn) {
    this.turn = turn;
    this.busy = true;
    const frames = Array.isArray(turn.frames) ? turn.frames : [];
    for (let i = 0; i < frames.length; i++) {
      this.frame = frames[i];
      this.render();
      if (i < frames.length - 1) await new Promise((r) => setTimeout(r, FRAME_MS));
    }
    this.busy = false;
    if (turn.done) markDone(this.lesson.id);
    else if (Number.isInteger(turn.step)) keepStep(this.lesson.id, turn.step);
    this.render();
    const first = this.el.hand.querySelector("button");
    if (first) first.focus();
  }

  async choose(move) {
    if (this.busy || !this.turn || this.turn.step === null) return;
    this.busy = true;
    this.feedback = { pending: true, text: "Checking your move…" };
    this.render();
    let verdict;
    try {
      verdict = await postJson("/api/learn/check", { lesson: this.lesson.id, step: this.turn.step, move });
    } catch (err) {
      this.feedback = { right: false, text: err.message };
      this.busy = false;
      this.render();
      return;
    }
    this.feedback = verdict;
    this.busy = false;
    if (verdict.right && verdict.turn) {
      await this.play(verdict.turn);
    } else {
      this.render();
      const again = this.el.hand.querySelector(`[data-move="${CSS.escape(verdict.better || "")}"]`);
      if (again) again.focus();
    }
  }

  seatPanel(seat) {
    const frame = this.frame || {};
    const hand = frame.hand || {};
    const place = placeOf(seat, this.bottom);
    const tiles = Array.isArray(frame.hands) && Array.isArray(frame.hands[seat]) ? frame.hands[seat] : [];
    const toAct = phaseOf(hand) !== "done" && hand.turn === seat;
    const roles = rolesOf(hand, seat);
    return h("section", {
      class: `seat-panel place-${place} team-${sideOf(this.seats, seat)}${toAct ? " to-act" : ""}${hand.out_seat === seat ? " out" : ""}`,
      "data-testid": `lesson-seat-${seat}`, "data-seat": seat,
    },
    h("div", { class: "seat-head" },
      h("span", { class: "seat-name" }, seatLabel(this.seats, seat)),
      h("span", { class: "seat-compass" }, compassOf(this.seats, seat))),
    roles.length ? h("div", { class: "roles" }, roles.join(" · ")) : null,
    seat === this.lesson.seat ? null : h("div", {
      class: `open-hand ${place === "left" || place === "right" ? "side" : ""}`,
      "aria-label": `${seatLabel(this.seats, seat)}'s tiles` },
    tiles.map((t) => tilePicture(t, { vertical: true, cls: "small" }))));
  }

  moveButtons() {
    const turn = this.turn;
    const frame = this.frame || {};
    const asking = turn && !this.busy && turn.step !== null;
    const phase = phaseOf(frame.hand);
    if (phase === "play" || phase === "done" || !asking) {
      const tiles = Array.isArray(frame.hands) ? frame.hands[this.lesson.seat] || [] : [];
      return tiles.map((tile, i) => h("button", {
        type: "button", class: `tile-button${asking ? " legal" : ""}`, "data-tile": tile, "data-move": tile,
        "aria-label": `tile ${tile}`, title: `${tile} — key ${i + 1}`, disabled: asking ? null : true,
        onclick: () => this.choose(tile),
      }, tileSvg(tile, { vertical: true }), h("span", { class: "tile-key", "aria-hidden": "true" }, String(i + 1))));
    }
    // bidding and naming trump are decided on the learner's own tiles: shown face up, not picks
    const held = Array.isArray(frame.hands) ? frame.hands[this.lesson.seat] || [] : [];
    return [
      h("div", { class: "open-hand lesson-held", "data-testid": "lesson-held", "aria-label": "your tiles" },
        held.map((t) => tilePicture(t, { vertical: true }))),
      h("div", { class: "lesson-choices", "data-testid": "lesson-choices" },
        (turn.choices || []).map((c) => h("button", { type: "button", class: "choice", "data-move": c,
          onclick: () => this.choose(c) }, c))),
    ];
  }

  render() {
    const frame = this.frame || {};
    const hand = frame.hand || {};
    const turn = this.turn || {};
    this.el.caption.textContent = frame.caption || "";
    const trick = Array.isArray(hand.trick) ? hand.trick : [];
    const tricks = Array.isArray(hand.tricks) ? hand.tricks : [];
    let center;
    if (!trick.length && tricks.length) {
      const last = tricks[tricks.length - 1];
      center = trickArea(last.plays, this.bottom, this.seats, { won: last.winner, note: last.taken || "" });
    } else {
      center = trickArea(trick, this.bottom, this.seats);
    }
    mount(this.el.felt,
      seatList(this.seats).map((seat) => this.seatPanel(seat)),
      h("div", { class: "felt-center" },
        h("div", { class: "center-stack" },
          h("div", { class: "center-note" }, hand.contract_line || ""),
          center)));
    mount(this.el.hand, this.moveButtons());
    const fb = this.feedback;
    const asking = !this.busy && turn.step !== null && turn.step !== undefined;
    mount(this.el.coach,
      turn.done && !this.busy
        ? h("div", { class: "lesson-done", "data-testid": "lesson-done" },
          h("h2", {}, "Lesson done"),
          hand.headline ? h("p", {}, hand.headline) : null,
          h("p", {}, h("a", { href: "/learn", "data-testid": "lesson-back" }, "Back to the lessons")))
        : null,
      asking && turn.teach ? h("p", { class: "lesson-teach", "data-testid": "lesson-teach" }, turn.teach) : null,
      asking && turn.situation ? h("p", { class: "lesson-situation", "data-testid": "lesson-situation" }, turn.situation) : null,
      fb ? h("p", { class: `lesson-feedback ${fb.pending ? "pending" : fb.right ? "right" : "wrong"}`, role: "status",
        "data-testid": "lesson-feedback", "data-right": fb.pending ? "pending" : fb.right ? "true" : "false" }, fb.text) : null);
    mount(this.el.side,
      h("section", { class: "card side-card" }, h("h2", {}, "Bidding"), callsList(hand, this.seats, "lesson-calls")),
      h("section", { class: "card side-card" }, h("h2", {}, "Tricks"), piles(hand, this.seats, teamLabels(this.seats))),
      h("p", { class: "side-links" }, h("a", { href: "/learn" }, "← All lessons")));
  }
}

/** Number keys pick the learner's n-th tile, as at the table. */
document.addEventListener("keydown", (event) => {
  const box = document.querySelector("[data-testid=lesson-hand]");
  if (!box || event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.target instanceof Element && event.target.matches("input, textarea, select")) return;
  const n = Number(event.key);
  if (!Number.isInteger(n) || n < 1) return;
  const buttons = box.querySelectorAll("button.tile-button:not([disabled])");
  if (buttons[n - 1]) {
    event.preventDefault();
    buttons[n - 1].click();
  }
});
