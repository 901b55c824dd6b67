/* The lobby: start a table with a preset and house rules, find your tables again, open a
   finished game's replay, or import a record. */

import { h, mount, setTitle, toast } from "./dom.js";
import { getJson, postJson } from "./net.js";
import { forgetTable, myTables } from "./store.js";
import { SEAT_NAMES } from "./board.js";
import { tileSvg } from "./tiles.js";
import { openTablesCard } from "./tables.js";
import { houseRulesRows } from "./houserules.js";
import { myGamesCard } from "./player.js";

/* The options most tables argue about come first; every other option goes under "More". */
const COMMON = ["all_pass", "nello", "plunge", "splash", "sevens", "follow_me_doubles", "game", "target"];

/** The options a preset sets, read from its rules string ("house,nello=true") or object. */
export function presetValues(options, preset) {
  const values = {};
  for (const o of options) values[o.name] = o.default;
  if (preset && typeof preset === "object") {
    for (const [k, v] of Object.entries(preset)) if (k in values) values[k] = v;
    return values;
  }
  const words = String(preset || "").split(",").map((w) => w.trim()).filter(Boolean);
  for (const word of words) {
    const [name, raw] = word.includes("=") ? word.split("=", 2) : [word, null];
    const key = name.replace(/-/g, "_");
    if (!(key in values)) continue;
    const option = options.find((o) => o.name === key);
    values[key] = raw === null ? true : coerce(option, raw);
  }
  return values;
}

/**
 * Whether the lobby knows every option a preset sets: from an object of values, or a rules
 * string relative to the standard defaults the options list gives. A bare name such as "house"
 * says nothing about its options, so the form cannot show them.
 */
export function presetKnown(name, preset) {
  if (preset && typeof preset === "object") return true;
  const first = String(preset || "").split(",")[0].trim();
  return name === "standard" || first === "standard" || first.includes("=");
}

function coerce(option, raw) {
  if (!option) return raw;
  if (option.kind === "bool") return ["true", "yes", "on", "1"].includes(String(raw).toLowerCase());
  if (option.kind === "int") return raw === "default" || raw === "" ? null : Number(raw);
  return raw;
}

function formatValue(value) {
  if (value === true) return "true";
  if (value === false) return "false";
  if (value === null || value === undefined || value === "") return "default";
  return String(value);
}

/** The rules string for the form: the preset name and each option that differs from it. */
export function rulesString(presetName, base, chosen) {
  const parts = [presetName];
  for (const [name, value] of Object.entries(chosen)) {
    if (formatValue(value) !== formatValue(base[name])) parts.push(`${name}=${formatValue(value)}`);
  }
  return parts.join(",");
}

function optionField(option, value, onChange) {
  const id = `opt-${option.name}`;
  const label = option.label || option.name.replace(/_/g, " ");
  const testid = `option-${option.name}`;
  // what the option does, in the server's words, under its field (visible on touch too)
  const help = option.help ? h("span", { class: "option-help", "data-testid": `help-${option.name}` }, option.help) : null;
  if (option.kind === "bool") {
    const box = h("input", { type: "checkbox", id, name: option.name, "data-testid": testid,
      onchange: () => onChange(option.name, box.checked) });
    box.checked = Boolean(value);
    return h("label", { class: "option option-bool", for: id }, box, h("span", {}, label), help);
  }
  if (option.kind === "choice" && Array.isArray(option.choices)) {
    const meanings = Array.isArray(option.choice_labels) ? option.choice_labels : [];
    const select = h("select", { id, name: option.name, "data-testid": testid,
      onchange: () => onChange(option.name, select.value) },
    option.choices.map((c, i) => h("option", { value: String(c) }, String(meanings[i] || c))));
    select.value = String(value);
    return h("label", { class: "option option-choice", for: id }, h("span", {}, label), select, help);
  }
  const input = h("input", { type: "number", id, name: option.name, inputmode: "numeric",
    "data-testid": testid, placeholder: "default",
    onchange: () => onChange(option.name, input.value === "" ? null : Number(input.value)) });
  input.value = value === null || value === undefined ? "" : String(value);
  return h("label", { class: "option option-int", for: id }, h("span", {}, label), input, help);
}

function createForm(api) {
  const options = Array.isArray(api.options) ? api.options : [];
  const presets = api.presets && typeof api.presets === "object" ? api.presets : { standard: "standard" };
  const names = Object.keys(presets);
  let preset = names.includes("standard") ? "standard" : names[0];
  let base = presetValues(options, presets[preset]);
  let chosen = { ...base };

  const common = options.filter((o) => COMMON.includes(o.name))
    .sort((a, b) => COMMON.indexOf(a.name) - COMMON.indexOf(b.name));
  const more = options.filter((o) => !COMMON.includes(o.name));
  const commonBox = h("div", { class: "options-grid" });
  const moreBox = h("div", { class: "options-grid" });
  const summary = h("p", { class: "rules-string muted", "data-testid": "rules-string" });

  let picked = null; // saved house rules as picked: sent as they are until the form changes
  const onChange = (name, value) => {
    picked = null;
    chosen[name] = value;
    summary.textContent = `Rules: ${rulesString(preset, base, chosen)}`;
  };
  const fieldset = h("fieldset", { class: "options" }, h("legend", {}, "House rules"), commonBox);
  const moreDetails = more.length ? h("details", { class: "more-options" },
    h("summary", {}, "More house rules"), moreBox) : null;
  const draw = () => {
    // a preset whose options the server does not list is taken as it is
    const known = presetKnown(preset, presets[preset]);
    fieldset.disabled = !known;
    if (moreDetails) moreDetails.hidden = !known;
    mount(commonBox, known
      ? common.map((o) => optionField(o, chosen[o.name], onChange))
      : h("p", { class: "muted", "data-testid": "preset-note" },
        `The ${preset} preset as it stands; choose standard to set the options one by one.`));
    mount(moreBox, more.map((o) => optionField(o, chosen[o.name], onChange)));
    summary.textContent = `Rules: ${rulesString(preset, base, known ? chosen : base)}`;
  };

  const presetSelect = h("select", { id: "preset", name: "preset", "data-testid": "preset",
    onchange: () => {
      picked = null;
      preset = presetSelect.value;
      base = presetValues(options, presets[preset]);
      chosen = { ...base };
      draw();
    } }, names.map((n) => h("option", { value: n }, n)));
  presetSelect.value = preset;
  // the table by number of players: a preset, maybe with options of its own (six-hand,teams=threes)
  const tables = Array.isArray(api.tables) ? api.tables : [];
  const tableSelect = h("select", { id: "players", name: "players", "data-testid": "players",
    onchange: () => {
      const [first, ...rest] = tableSelect.value.split(",");
      if (!(first in presets)) return;
      picked = null;
      preset = first;
      presetSelect.value = preset;
      base = presetValues(options, presets[preset]);
      chosen = { ...base };
      for (const word of rest) {
        const [name, raw] = word.split("=", 2);
        const option = options.find((o) => o.name === name);
        if (option) chosen[name] = coerce(option, raw ?? "true");
      }
      draw();
    } }, tables.map((t) => h("option", { value: String(t.rules) }, `${t.players} players: ${t.label}`)));
  if (tables.some((t) => t.rules === "standard")) tableSelect.value = "standard";
  const nameInput = h("input", { id: "table-name", name: "name", maxlength: 40,
    placeholder: "Friday night", autocomplete: "off", "data-testid": "table-name" });
  const publicBox = h("input", { type: "checkbox", id: "table-public", name: "public",
    "data-testid": "table-public" });
  const saved = houseRulesRows({
    current: () => picked ?? rulesString(preset, base, presetKnown(preset, presets[preset]) ? chosen : base),
    apply: (text) => {
      const filled = fillFrom({ presets, options, names }, text);
      preset = filled.name;
      presetSelect.value = preset;
      base = filled.values;
      chosen = filled.chosen;
      draw();
      picked = text;
      summary.textContent = `Rules: ${text}`;
    },
  });
  const submit = h("button", { type: "submit", class: "primary", "data-testid": "create-table" },
    "Create table");
  const settings = tableSettings(Array.isArray(api.levels) ? api.levels : ["medium"]);

  const form = h("form", { class: "card create", "data-testid": "create-form",
    onsubmit: async (event) => {
      event.preventDefault();
      submit.disabled = true;
      try {
        const known = presetKnown(preset, presets[preset]);
        const body = { rules: picked ?? rulesString(preset, base, known ? chosen : base), name: nameInput.value.trim(),
          public: publicBox.checked, ...settings.chosen() };
        const made = await postJson("/api/tables", body);
        // on this page's own address, where the seat tokens are kept (made.url may be the
        // server's --public-url, for sharing)
        location.assign(`/t/${encodeURIComponent(made.id)}`);
      } catch (err) {
        toast(`Could not create the table: ${err.message}`, "error");
        submit.disabled = false;
      }
    } },
  h("h2", {}, "Start a table"),
  h("div", { class: "form-row" },
    h("label", { for: "table-name" }, "Table name"), nameInput),
  tables.length ? h("div", { class: "form-row" },
    h("label", { for: "players" }, "Players"), tableSelect) : null,
  h("div", { class: "form-row" },
    h("label", { for: "preset" }, "Rules"), presetSelect),
  saved.pickRow,
  fieldset,
  moreDetails,
  summary,
  h("label", { class: "check", for: "table-public" }, publicBox,
    " List it in the lobby (otherwise only people with the link find it)"),
  saved.saveRow,
  settings.box,
  h("div", { class: "form-actions" }, submit));
  draw();
  return form;
}

/** The table's own settings (not rules): the level of the bots that take a seat a person leaves,
    how long a player who drops out is waited for, and a turn clock. Only what the creator
    changes is sent; the server's defaults stand for the rest. */
function tableSettings(levels) {
  const level = h("select", { id: "bot-level", "data-testid": "table-bot-level" },
    levels.map((name) => h("option", { value: name }, name)));
  level.value = levels.includes("medium") ? "medium" : levels[0];
  const first = level.value;
  const away = h("input", { id: "away-seconds", type: "number", min: 1, max: 3600, step: 1,
    placeholder: "60", "data-testid": "table-away-seconds" });
  const turn = h("input", { id: "turn-seconds", type: "number", min: 0, max: 3600, step: 1,
    placeholder: "off", "data-testid": "table-turn-seconds" });
  const box = h("details", { class: "table-settings", "data-testid": "table-settings" },
    h("summary", {}, "Table settings: bots, dropped players, a turn timer"),
    h("div", { class: "form-row" }, h("label", { for: "bot-level" }, "Bots that stand in"), level),
    h("div", { class: "form-row" },
      h("label", { for: "away-seconds" }, "Wait for a player who drops out (seconds)"), away),
    h("div", { class: "form-row" },
      h("label", { for: "turn-seconds" }, "Turn timer (seconds; empty: none)"), turn));
  const chosen = () => {
    const out = {};
    if (level.value !== first) out.bot_level = level.value;
    if (away.value !== "" && Number(away.value) > 0) out.away_seconds = Number(away.value);
    if (turn.value !== "" && Number(turn.value) >= 0) out.turn_seconds = Number(turn.value);
    return out;
  };
  return { box, chosen };
}

/** Fill the form from a rules string (saved house rules): its preset, then each option. */
function fillFrom(form, text) {
  const [first, ...rest] = String(text).split(",").map((w) => w.trim());
  const { presets, options, names } = form;
  const name = first in presets ? first : names.includes("standard") ? "standard" : names[0];
  const values = presetValues(options, presets[name]);
  const chosen = { ...values };
  for (const word of first in presets ? rest : [first, ...rest]) {
    const [key, raw] = word.includes("=") ? word.split("=", 2) : [word, null];
    const option = options.find((o) => o.name === key.replace(/-/g, "_"));
    if (option) chosen[option.name] = raw === null ? true : coerce(option, raw);
  }
  return { name, values, chosen };
}

function myTablesCard() {
  const list = h("ul", { class: "link-list", "data-testid": "my-tables" });
  const tables = myTables();
  const card = h("section", { class: "card" }, h("h2", {}, "My tables"), list);
  if (!tables.length) {
    mount(list, h("li", { class: "muted" }, "Tables where you take a seat appear here."));
    return card;
  }
  for (const t of tables) {
    const status = h("span", { class: "muted status-word" });
    const item = h("li", {},
      h("a", { href: `/t/${encodeURIComponent(t.id)}` }, t.name || `Table ${t.id}`),
      Number.isInteger(t.seat) ? h("span", { class: "muted" }, ` · ${t.compass || SEAT_NAMES[t.seat] || `seat ${t.seat}`}`) : null,
      " ", status,
      h("button", { type: "button", class: "link-button", "aria-label": `forget table ${t.name || t.id}`,
        onclick: () => { forgetTable(t.id); item.remove(); } }, "forget"));
    list.append(item);
    getJson(`/api/tables/${encodeURIComponent(t.id)}`)
      .then((info) => { status.textContent = info && info.status ? `(${info.status})` : ""; })
      .catch(() => { status.textContent = "(gone)"; });
  }
  return card;
}

/** Read the fields of one history entry, whatever the server calls them. */
export function historyEntry(g) {
  const table = g.table ?? g.table_id ?? g.id;
  const game = g.game ?? g.game_number ?? g.number ?? 1;
  const players = Array.isArray(g.players) ? g.players
    : Array.isArray(g.seats) ? g.seats.map((x) => (x && typeof x === "object" ? x.name : x)) : [];
  return { table, game, name: g.name || g.table_name || "", players, score: g.score, winner: g.winner,
    when: g.finished || g.ended || g.finished_at || g.when || "" };
}

function historyCard() {
  const list = h("ul", { class: "link-list", "data-testid": "history-list" },
    h("li", { class: "muted" }, "Loading…"));
  getJson("/api/history?limit=20").then((data) => {
    const games = Array.isArray(data) ? data : data && Array.isArray(data.games) ? data.games : [];
    if (!games.length) {
      mount(list, h("li", { class: "muted" }, "No finished games yet."));
      return;
    }
    mount(list, games.map((raw) => {
      const g = historyEntry(raw);
      const teams = g.players.length === 4
        ? `${g.players[0]} & ${g.players[2]} vs ${g.players[1]} & ${g.players[3]}` : g.players.join(", ");
      const score = Array.isArray(g.score) ? ` · ${g.score.join("–")}` : "";
      const stamp = typeof g.when === "number" && g.when < 1e12 ? g.when * 1000 : g.when;
      const date = stamp ? new Date(stamp) : null;
      const when = date && !Number.isNaN(date.getTime()) ? ` · ${date.toLocaleString()}` : "";
      return h("li", {},
        h("a", { href: `/replay/${encodeURIComponent(g.table)}/${encodeURIComponent(g.game)}`,
          "data-testid": "history-link" },
        `${g.name || `Table ${g.table}`}, game ${g.game}`),
        h("span", { class: "muted" }, `${teams ? ` · ${teams}` : ""}${score}${when}`));
    }));
  }).catch((err) => mount(list, h("li", { class: "muted" }, `Could not load the games: ${err.message}`)));
  return h("section", { class: "card" }, h("h2", {}, "Recent games"), list);
}

function importCard() {
  const text = h("textarea", { id: "import-text", rows: 5, spellcheck: "false",
    placeholder: '{"format": "texas42", "version": 1, ...}', "data-testid": "import-text" });
  const file = h("input", { type: "file", id: "import-file", accept: ".json,application/json",
    "data-testid": "import-file",
    onchange: async () => {
      const chosen = file.files && file.files[0];
      if (chosen) text.value = await chosen.text();
    } });
  const problem = h("p", { class: "form-error", role: "alert", "data-testid": "import-error" });
  const button = h("button", { type: "submit", "data-testid": "import-button" }, "Open in the replay viewer");
  return h("form", { class: "card", "data-testid": "import-form",
    onsubmit: async (event) => {
      event.preventDefault();
      problem.textContent = "";
      let record;
      try {
        record = JSON.parse(text.value);
      } catch (err) {
        problem.textContent = `That is not JSON: ${err.message}`;
        return;
      }
      button.disabled = true;
      try {
        const replay = await postJson("/api/replay", record);
        try {
          sessionStorage.setItem("texas42:import", JSON.stringify(replay));
        } catch {
          problem.textContent = "The record is too large to keep in this tab.";
          return;
        }
        location.assign("/replay");
      } catch (err) {
        problem.textContent = err.message;
      } finally {
        button.disabled = false;
      }
    } },
  h("h2", {}, "Import a record"),
  h("label", { for: "import-text" }, "Paste a game record (JSON) or choose a file"),
  text,
  h("div", { class: "form-row" }, file),
  problem,
  h("div", { class: "form-actions" }, button));
}

function hero() {
  return h("section", { class: "hero" },
    h("div", { class: "hero-tiles", "aria-hidden": "true" },
      ["6-6", "5-5", "6-4", "5-0"].map((t, i) => tileSvg(t, { vertical: i % 2 === 0 }))),
    h("div", {},
      h("h1", {}, "Texas 42"),
      h("p", {}, "Bid, name trump and take the count. Start a table, send the link to your partner, and fill the empty chairs with bots."),
      h("p", { class: "hero-learn" }, h("a", { href: "/learn", "data-testid": "learn-link" }, "Learn to play"),
        " — lessons for someone who has never played.")));
}

export async function showLobby(root) {
  setTitle("", "Lobby");
  mount(root, h("p", { class: "loading" }, "Loading…"));
  let api;
  try {
    api = await getJson("/api/options");
  } catch (err) {
    mount(root, h("section", { class: "card" }, h("h2", {}, "The server did not answer"),
      h("p", {}, err.message), h("button", { type: "button", onclick: () => location.reload() }, "Try again")));
    return;
  }
  mount(root, h("div", { class: "lobby", "data-testid": "lobby" },
    h("div", { class: "lobby-main" }, hero(), createForm(api)),
    h("div", { class: "lobby-side" }, openTablesCard(), myGamesCard(), myTablesCard(), historyCard(), importCard())));
}
