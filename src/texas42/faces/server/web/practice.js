/* Bidding practice (/learn/bids): "What would you bid?" on the server's practice deals. The page
   shows the seat's tiles, the calls so far and the score; the buttons are the legal calls. After
   the answer it shows what the server computed (every call's chance and expected marks from the
   expert's estimate, the double-dummy figures, the expert's call and reason, the whole deal).
   The running score and the next question's number stay on this device (localStorage). */

import { tilePicture } from "./board.js";
import { h, mount, setTitle } from "./dom.js";
import { getJson, postJson } from "./net.js";

const KEY = "texas42:practice";
const RULES = [
  ["standard", "Standard rules"],
  ["house", "House rules (Nel-O, Plunge, Splash, Sevens)"],
];

function fresh() {
  return { rules: "standard", next: { standard: 0, house: 0 }, questions: 0, agreed: 0, givenUp: 0 };
}

/** The running score and where each rule set's rotation stands, as this device keeps them. */
export function loadPractice() {
  let saved = null;
  try {
    saved = JSON.parse(localStorage.getItem(KEY) || "null");
  } catch {
    saved = null;
  }
  const state = fresh();
  if (!saved || typeof saved !== "object") return state;
  if (RULES.some(([name]) => name === saved.rules)) state.rules = saved.rules;
  for (const [name] of RULES) {
    const n = saved.next && Number(saved.next[name]);
    if (Number.isInteger(n) && n >= 0 && n <= 1000000) state.next[name] = n;
  }
  for (const key of ["questions", "agreed"]) {
    const n = Number(saved[key]);
    if (Number.isInteger(n) && n >= 0) state[key] = n;
  }
  const lost = Number(saved.givenUp);
  if (Number.isFinite(lost) && lost >= 0) state.givenUp = lost;
  return state;
}

function savePractice(state) {
  try {
    localStorage.setItem(KEY, JSON.stringify(state));
  } catch {
    /* storage off or full: the score lasts as long as the tab */
  }
}

const pct = (x) => (x === null || x === undefined ? "–" : `${Math.round(100 * x)}%`);
const signed = (x) => (x === null || x === undefined ? "–" : `${x >= 0 ? "+" : ""}${x.toFixed(2)}`);

function scoreLine(state) {
  const agree = state.questions ? Math.round((100 * state.agreed) / state.questions) : 0;
  return h("p", { class: "practice-score", "data-testid": "practice-score" },
    h("span", { "data-testid": "practice-questions" }, `Questions: ${state.questions}`), " · ",
    h("span", { "data-testid": "practice-agreed" },
      `agreed with the expert: ${state.agreed} (${agree}%)`), " · ",
    h("span", { "data-testid": "practice-given-up" },
      `expected marks given up: ${state.givenUp.toFixed(2)}`));
}

function handRow(tiles, label) {
  return h("div", { class: "practice-hand", role: "group", "aria-label": label },
    tiles.map((t) => tilePicture(t, { cls: "practice-tile" })));
}

function callsSoFar(q) {
  if (!q.calls.length) return h("p", { class: "muted" }, "No calls yet.");
  return h("ol", { class: "practice-calls", "data-testid": "practice-calls" },
    q.calls.map((c) => h("li", {}, `${c.name} (${c.who}): ${c.call}`)));
}

function callsTable(answer) {
  const expert = answer.expert.call;
  const head = ["call", "chance to make", "marks expected", "made double dummy, deals you could have faced",
    "on this deal, double dummy"];
  return h("table", { class: "practice-table", "data-testid": "practice-table" },
    h("thead", {}, h("tr", {}, head.map((x) => h("th", { scope: "col" }, x)))),
    h("tbody", {}, answer.calls.map((row) => {
      const marks = [];
      if (row.call === answer.call) marks.push("yours");
      if (row.call === expert) marks.push("expert");
      return h("tr", { class: marks.map((m) => `practice-${m}`).join(" "), "data-call": row.call,
        "data-testid": "practice-row" },
      h("th", { scope: "row" }, row.call, marks.length ? ` (${marks.join(", ")})` : ""),
      h("td", {}, pct(row.chance),
        row.if_stands === null || row.if_stands === undefined ? "" : ` (${pct(row.if_stands)} if it stands)`),
      h("td", {}, signed(row.marks)),
      h("td", {}, row.share === null ? "–" : `${pct(row.share)} (${row.share_contract})`),
      h("td", {}, row.deal.contract === null ? "–" : row.deal.words));
    })));
}

function contractsTable(answer) {
  return h("table", { class: "practice-table practice-contracts", "data-testid": "practice-contracts" },
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "if you named"),
      h("th", { scope: "col" }, "your side takes, double dummy"))),
    h("tbody", {}, answer.contracts.map((c) =>
      h("tr", {}, h("th", { scope: "row" }, c.contract), h("td", {}, `${c.value} ${c.unit}`)))));
}

function dealView(answer) {
  return h("div", { class: "practice-deal", "data-testid": "practice-deal" },
    answer.deal.map((seat) => h("div", { class: "practice-seat" },
      h("div", { class: "muted" }, `${seat.name} (${seat.who})`),
      handRow(seat.tiles, `${seat.name}'s tiles`))));
}

function answerCard(answer, onNext) {
  const next = h("button", { type: "button", class: "primary", "data-testid": "practice-next",
    onclick: onNext }, "Next question");
  const card = h("section", { class: "card practice-answer", "data-testid": "practice-answer",
    "aria-live": "polite" },
  h("h2", {}, answer.agrees ? "You agree with the expert" : "The expert calls differently"),
  h("p", { "data-testid": "practice-verdict" }, answer.verdict),
  h("p", { "data-testid": "practice-expert" }, `Expert: ${answer.expert.reason}`),
  h("p", { class: "muted", "data-testid": "practice-category" }, answer.about),
  callsTable(answer),
  h("h3", {}, "This deal, double dummy, with you declaring"),
  contractsTable(answer),
  h("h3", {}, "The whole deal"),
  dealView(answer),
  h("p", {}, next));
  return { card, next };
}

export async function showPractice(root) {
  setTitle("Bidding practice", "Bidding practice");
  const state = loadPractice();
  const scoreBox = h("div", {}, scoreLine(state));
  const body = h("div", {});
  const select = h("select", { "data-testid": "practice-rules", "aria-label": "Rules",
    onchange: () => {
      state.rules = select.value;
      savePractice(state);
      ask();
    } }, RULES.map(([name, label]) =>
    h("option", { value: name, selected: name === state.rules }, label)));
  const reset = h("button", { type: "button", class: "quiet", "data-testid": "practice-reset",
    onclick: () => {
      Object.assign(state, { questions: 0, agreed: 0, givenUp: 0 });
      savePractice(state);
      mount(scoreBox, scoreLine(state));
    } }, "Reset the score");
  mount(root, h("section", { class: "card practice", "data-testid": "practice-page" },
    h("h2", {}, "What would you bid?"),
    h("p", {}, h("label", {}, "Rules: ", select), " ", reset),
    scoreBox),
  body);

  async function ask() {
    const n = state.next[state.rules];
    mount(body, h("p", { class: "loading" }, "Loading…"));
    let q;
    try {
      q = await getJson(`/api/learn/bids/next?rules=${encodeURIComponent(state.rules)}&n=${n}`);
    } catch (err) {
      mount(body, h("section", { class: "card" }, h("p", {}, err.message)));
      return;
    }
    const buttons = q.legal.map((call) => h("button", { type: "button", class: "practice-call",
      "data-testid": "practice-call", "data-call": call, onclick: () => answer(q, call, buttons) },
    call));
    mount(body, h("section", { class: "card practice-question", "data-testid": "practice-question",
      "data-id": q.id },
    h("p", { "data-testid": "practice-position" }, q.position),
    h("p", { "data-testid": "practice-game-score" }, q.score.words),
    h("p", { class: "muted" }, q.rules_text.join("; ")),
    callsSoFar(q),
    h("h3", {}, "Your tiles"),
    handRow(q.hand, "your tiles"),
    h("h3", {}, "Your call"),
    h("div", { class: "practice-buttons", role: "group", "aria-label": "your call" }, buttons)));
    if (buttons.length) buttons[0].focus();
  }

  async function answer(q, call, buttons) {
    buttons.forEach((b) => { b.disabled = true; });
    let got;
    try {
      got = await postJson("/api/learn/bids/answer", { id: q.id, call });
    } catch (err) {
      buttons.forEach((b) => { b.disabled = false; });
      body.append(h("p", { class: "error" }, err.message));
      return;
    }
    state.questions += 1;
    state.agreed += got.agrees ? 1 : 0;
    state.givenUp = Math.round((state.givenUp + got.given_up) * 10000) / 10000;
    state.next[q.rules] = q.n + 1;
    savePractice(state);
    mount(scoreBox, scoreLine(state));
    const { card, next } = answerCard(got, ask);
    body.append(card);
    next.focus();
  }

  ask();
}
