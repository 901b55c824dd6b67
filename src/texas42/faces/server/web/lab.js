/* The hand laboratory (/learn/lab): set up any deal, change a tile, move the contract, play
   forward and back, and see how the bid's chance and the best play change. The address holds
   the whole position (?p= in the position notation), so it is the position's share link. Every
   figure and sentence comes from the server (services/learn/lab.py, core/words.py); this page
   shows them, before and after each change, and works out nothing itself. */

import { copyText, h, mount, setTitle, toast, typingInField } from "./dom.js";
import { postJson, getJson } from "./net.js";
import { SEAT_NAMES, tilePicture } from "./board.js";

const percent = (x) => (x === null || x === undefined ? "–" : `${Math.round(x * 100)}%`);
const number = (x) => (x === null || x === undefined ? "–" : String(x));
const made = (x) => (x === null || x === undefined ? "–" : x ? "made" : "set");

/** The lab's address for a position: what "Share" copies and "Open in the lab" links to. */
export function labHref(position) {
  return `/learn/lab?${new URLSearchParams({ p: position })}`;
}

/** Each hand of a game record as a lab position (the server checks the record first). */
export async function labPositions(record) {
  const body = await postJson("/api/learn/lab/record", typeof record === "string" ? record : JSON.stringify(record));
  return Array.isArray(body && body.positions) ? body.positions : [];
}

export function showLab(root) {
  setTitle("Hand laboratory");
  new Lab(root).start();
}

class Lab {
  constructor(root) {
    this.root = root;
    this.board = null;
    this.figures = null;
    this.before = null;
    this.forward = [];
    this.selected = null;
    this.asked = 0;
    this.hands = [];
  }

  start() {
    this.el = {
      status: h("p", { class: "lab-status", "data-testid": "lab-status", role: "status", "aria-live": "polite" }),
      source: h("textarea", { id: "lab-source", rows: 3, spellcheck: "false", "data-testid": "lab-source",
        placeholder: "standard 0-0 1 3 66.65.64.62.55.33.10/63.54... or a game record (JSON)" }),
      file: h("input", { type: "file", accept: ".json,application/json", "data-testid": "lab-file",
        "aria-label": "load a game record from a file", onchange: () => this.loadFile() }),
      handPick: h("span", { class: "lab-hand-pick" }),
      board: h("div", { class: "lab-board", "data-testid": "lab-board" }),
      edit: h("div", { class: "lab-edit" }),
      share: h("div", { class: "lab-share" }),
      figures: h("div", { class: "lab-figures", "data-testid": "lab-figures" }),
    };
    mount(this.root, h("div", { class: "lab-page", "data-testid": "lab" },
      h("section", { class: "card lab-setup" },
        h("h2", {}, "Hand laboratory"),
        h("p", { class: "lab-help" },
          "Set up any deal, swap tiles between hands, give the contract to any seat, and play the hand ",
          "forward and back: the figures show how the bid's chance and the best play change. ",
          "Click a tile, then a tile in another hand, to swap them (Enter on each from the keyboard; ",
          "Escape lets go). ← and → step through the plays."),
        h("div", { class: "lab-row" },
          h("button", { type: "button", class: "primary", "data-testid": "lab-random", onclick: () => this.random() },
            "Deal at random"),
          h("label", { class: "button" }, "Load a record…", this.el.file),
          this.el.handPick),
        h("label", { for: "lab-source" }, "A position, a deal (four hands joined by /), or a game record:"),
        this.el.source,
        h("div", { class: "lab-row" },
          h("button", { type: "button", "data-testid": "lab-open", onclick: () => this.openSource() }, "Open"))),
      h("section", { class: "card lab-table" }, this.el.status, this.el.board, this.el.edit, this.el.share),
      h("section", { class: "card lab-results" }, h("h2", {}, "Figures"), this.el.figures)));
    document.addEventListener("keydown", (event) => this.key(event));
    window.addEventListener("popstate", () => this.fromAddress());
    this.fromAddress();
  }

  fromAddress() {
    const position = new URLSearchParams(location.search).get("p");
    if (position) this.open(position, { history: false });
    else this.random();
  }

  status(text, kind = "") {
    this.el.status.textContent = text;
    this.el.status.className = `lab-status ${kind}`.trim();
  }

  async random() {
    try {
      const board = await getJson("/api/learn/lab/random");
      this.before = null;
      this.show(board, { keepForward: false });
    } catch (err) {
      this.status(err.message, "error");
    }
  }

  /** Read a position (or edit it) on the server and show the board it gives. */
  async open(position, { history = true, change = null, keepForward = false, compare = false } = {}) {
    const was = this.figures;
    try {
      const board = await postJson("/api/learn/lab/edit", { position, ...(change || {}) });
      this.before = compare ? was : null;
      this.show(board, { history, keepForward });
      return true;
    } catch (err) {
      this.status(err.message, "error");
      toast(err.message, "error");
      return false;
    }
  }

  async openSource() {
    const text = this.el.source.value.trim();
    if (!text) return;
    if (text.startsWith("{")) return this.loadRecord(text);
    return this.open(text);
  }

  async loadFile() {
    const file = this.el.file.files && this.el.file.files[0];
    if (file) await this.loadRecord(await file.text());
  }

  async loadRecord(text) {
    try {
      this.hands = await labPositions(text);
    } catch (err) {
      this.status(err.message, "error");
      return;
    }
    if (!this.hands.length) {
      this.status("That record has no hands.", "error");
      return;
    }
    const pick = h("select", { "aria-label": "hand of the record", "data-testid": "lab-hand",
      onchange: () => this.open(this.hands[Number(pick.value)]) },
    this.hands.map((_, i) => h("option", { value: i }, `Hand ${i + 1}`)));
    mount(this.el.handPick, pick);
    await this.open(this.hands[0]);
  }

  show(board, { history = true, keepForward = false } = {}) {
    if (!keepForward) this.forward = [];
    this.board = board;
    this.selected = null;
    const href = labHref(board.position);
    if (history && `${location.pathname}${location.search}` !== href) window.history.pushState(null, "", href);
    else window.history.replaceState(null, "", href);
    this.el.source.value = board.position;
    this.render();
    this.ask();
  }

  seatName(seat) {
    const names = this.board && this.board.layout && this.board.layout.seat_names;
    return (Array.isArray(names) && names[seat]) || SEAT_NAMES[seat] || `seat ${seat}`;
  }

  render() {
    const b = this.board;
    const turn = b.turn;
    mount(this.el.board, b.hands.map((dealt, seat) => {
      const held = new Set(b.held[seat]);
      return h("div", { class: `lab-seat${turn === seat ? " to-act" : ""}`, "data-testid": `lab-seat-${seat}`, role: "group",
        "aria-label": `${this.seatName(seat)}'s tiles` },
      h("div", { class: "lab-seat-name" }, this.seatName(seat),
        b.bidder === seat ? ` · bid ${b.bid}` : "", b.shaker === seat ? " · shaker" : "",
        turn === seat ? " · to play" : ""),
      h("div", { class: "lab-tiles" }, dealt.map((tile) => {
        const played = !held.has(tile);
        const chosen = this.selected === tile;
        return h("button", { type: "button", class: `lab-tile${played ? " played" : ""}${chosen ? " chosen" : ""}`,
          "data-tile": tile, "data-testid": `lab-tile-${tile}`, "aria-pressed": chosen ? "true" : "false",
          "aria-label": `${tile}${played ? " (played)" : ""}: swap`, onclick: () => this.pick(tile) },
        tilePicture(tile, { vertical: true, cls: "small" }));
      })));
    }));
    const line = b.contract
      ? [`Bidder: ${this.seatName(b.bidder)}`, `bid: ${b.bid}`, `contract: ${b.contract_name}`,
        `played: ${b.plays.length} of ${b.hands.flat().length}`].join(" · ")
      : "No contract yet: set one below to play the hand.";
    const trick = b.trick.length ? h("span", { class: "lab-trick", "data-testid": "lab-trick" }, "On the table: ",
      b.trick.map((t) => tilePicture(t, { vertical: false, cls: "small" }))) : null;
    const seatPick = h("select", { "aria-label": "bidder", "data-testid": "lab-bidder" },
      b.hands.map((_, s) => h("option", { value: s, selected: s === (b.bidder ?? b.first_bidder) ? true : null }, this.seatName(s))));
    const bidPick = h("input", { type: "text", size: 4, value: b.bid || "30", "aria-label": "bid", "data-testid": "lab-bid" });
    const names = b.contract && !b.contracts.includes(b.contract) ? [b.contract, ...b.contracts] : b.contracts;
    const contractPick = h("select", { "aria-label": "contract", "data-testid": "lab-contract" },
      names.map((c) => h("option", { value: c, selected: c === b.contract ? true : null }, c)));
    const nav = (label, text, testid, enabled, go) => h("button", { type: "button", class: "small", "aria-label": label,
      "data-testid": testid, disabled: enabled ? null : true, onclick: go }, text);
    mount(this.el.edit,
      h("p", { class: "lab-line", "data-testid": "lab-line" }, line, " ", trick),
      h("div", { class: "lab-row" },
        nav("to the first lead", "« Start", "lab-start", !!b.start, () => this.toStart()),
        nav("one play back", "‹ Back", "lab-back", !!b.back, () => this.back()),
        nav("one play forward", "Forward ›", "lab-forward", this.forward.length > 0, () => this.ahead())),
      h("form", { class: "lab-row lab-contract-form", onsubmit: (event) => {
        event.preventDefault();
        this.edit({ contract: { seat: Number(seatPick.value), bid: bidPick.value.trim(), contract: contractPick.value } });
      } },
      h("label", {}, "Bidder ", seatPick), h("label", {}, "bid ", bidPick), h("label", {}, "in ", contractPick),
      h("button", { type: "submit", class: "small", "data-testid": "lab-set-contract" }, "Set the contract")));
    const link = h("input", { type: "text", readonly: true, value: new URL(labHref(b.position), location.href).href,
      "aria-label": "share link", "data-testid": "lab-link", class: "lab-link" });
    mount(this.el.share, h("div", { class: "lab-row" }, h("label", {}, "Share this position: ", link),
      h("button", { type: "button", class: "small", "data-testid": "lab-copy", onclick: () => copyText(link.value, link) }, "Copy link")));
  }

  edit(change) {
    return this.open(this.board.position, { change, compare: true });
  }

  pick(tile) {
    if (this.selected === null) {
      this.selected = tile;
      this.render();
      return;
    }
    const first = this.selected;
    const sameHand = this.board.hands.some((hand) => hand.includes(first) && hand.includes(tile));
    if (first === tile || sameHand) {
      this.selected = first === tile ? null : tile;
      this.render();
      return;
    }
    this.edit({ swap: [first, tile] });
  }

  play(tile) {
    return this.edit({ play: tile });
  }

  async back() {
    if (!this.board.back) return;
    const here = this.board.position;
    if (await this.open(this.board.back, { keepForward: true, compare: true })) {
      this.forward.push(here);
      this.render();
    }
  }

  async ahead() {
    const next = this.forward.pop();
    if (!next) return;
    if (!(await this.open(next, { keepForward: true, compare: true }))) this.forward.push(next);
  }

  async toStart() {
    if (!this.board.start) return;
    const line = [];
    // the forward stack gets every play taken back, so Forward replays them one at a time
    let at = this.board;
    while (at && at.back) {
      line.push(at.position);
      if (at.back === this.board.start) break;
      try {
        at = await postJson("/api/learn/lab/edit", { position: at.back });
      } catch (err) {
        this.status(err.message, "error");
        return;
      }
    }
    if (await this.open(this.board.start, { keepForward: true, compare: true })) {
      this.forward = line;
      this.render();
    }
  }

  key(event) {
    if (typingInField(event) || !this.board) return;
    if (event.key === "ArrowLeft") {
      event.preventDefault();
      this.back();
    } else if (event.key === "ArrowRight") {
      event.preventDefault();
      this.ahead();
    } else if (event.key === "Escape" && this.selected !== null) {
      this.selected = null;
      this.render();
    }
  }

  /** The figures of the position shown, from the server's pool; a later answer replaces an earlier one. */
  async ask() {
    const serial = ++this.asked;
    const position = this.board.position;
    this.status("Working out the figures…", "busy");
    let figures;
    try {
      figures = await postJson("/api/learn/lab", { position });
    } catch (err) {
      if (serial === this.asked) this.status(err.message, "error");
      return;
    }
    if (serial !== this.asked) return;
    this.figures = figures;
    this.status("");
    this.renderFigures();
  }

  renderFigures() {
    const now = this.figures;
    const before = this.before && this.before.position !== now.position ? this.before : null;
    this.el.figures.dataset.position = now.position;
    const old = new Map(before ? before.contracts.map((c) => [c.contract, c]) : []);
    const change = (a, b, show) => (b === null || b === undefined || a === null || a === undefined ? "" :
      a === b ? "=" : show(a - b));
    const signed = (x) => (x > 0 ? `+${x}` : String(x));
    const rows = now.contracts.map((c) => {
      const o = old.get(c.contract);
      return h("tr", { "data-testid": `lab-contract-${c.contract}` },
        h("th", { scope: "row" }, c.contract),
        before ? h("td", { class: "before" }, percent(o && o.chance)) : null,
        h("td", { "data-testid": "chance" }, percent(c.chance)),
        before ? h("td", { class: "change" }, o ? change(c.chance, o.chance, (d) => signed(Math.round(d * 100))) : "new") : null,
        h("td", {}, number(c.expected)),
        before ? h("td", { class: "before" }, number(o && o.total)) : null,
        h("td", { "data-testid": "total" }, number(c.total)),
        before ? h("td", { class: "change" }, o ? change(c.total, o.total, signed) : "new") : null,
        h("td", {}, made(c.makes)));
    });
    const heads = before
      ? ["contract", "chance before", "chance", "change", "expected", "on this deal before", "on this deal", "change", ""]
      : ["contract", "chance", "expected", "on this deal", ""];
    const bidBefore = before && before.seat === now.seat && before.bid === now.bid
      ? h("p", { class: "lab-before", "data-testid": "lab-bid-before" }, `Before: ${before.bid_line}.`) : null;
    const moves = now.moves.length ? h("table", { class: "lab-moves", "data-testid": "lab-moves" },
      h("thead", {}, h("tr", {}, h("th", {}, "tile"), h("th", {}, `${now.unit} with best play`), h("th", {}, ""))),
      h("tbody", {}, now.moves.map((m) => h("tr", { class: m.best ? "best" : "", "data-testid": `lab-move-${m.tile}` },
        h("th", { scope: "row" }, tilePicture(m.tile, { vertical: false, cls: "small" }), ` ${m.tile}`, m.best ? " ★" : ""),
        h("td", { "data-testid": "value" }, String(m.value)),
        h("td", {}, h("button", { type: "button", class: "small", "data-testid": `lab-play-${m.tile}`,
          onclick: () => this.play(m.tile) }, `Play ${m.tile}`)))))) : null;
    const bestBefore = before && before.best_line ? h("p", { class: "lab-before", "data-testid": "lab-best-before" },
      `Before: ${before.best_line}`) : null;
    mount(this.el.figures,
      h("h3", {}, `${this.seatName(now.seat)}'s bid of ${now.bid}`),
      h("p", { "data-testid": "lab-bid-line" }, `${now.bid_line}.`), bidBefore,
      h("table", { class: "lab-contracts", "data-testid": "lab-contracts" },
        h("thead", {}, h("tr", {}, heads.map((t) => h("th", {}, t)))), h("tbody", {}, rows)),
      h("ul", { class: "lab-lines" }, now.contracts.map((c) => h("li", {}, c.line))),
      h("p", { class: "lab-note" }, `Chances are the expert's, over ${now.samples} deals that fit ${this.seatName(now.seat)}'s `,
        "own tiles; \"on this deal\" is best play by every seat with every tile seen (double dummy)."),
      now.best_line ? h("h3", {}, "The best play") : null,
      now.best_line ? h("p", { "data-testid": "lab-best-line" }, now.best_line) : null, bestBefore,
      moves);
  }
}
