/* House rules kept by name in the lobby's create form: pick a group's saved rules ("Grandma's
   rules") next to the presets, or save the rules on the form under a name. */

import { h, mount, toast } from "./dom.js";
import { getJson, postJson } from "./net.js";

/**
 * The form's two rows: a list of the saved house rules (picking one calls apply(rules, entry)),
 * and a name field with a button that saves current() under it.
 */
export function houseRulesRows({ apply, current }) {
  let saved = [];
  const select = h("select", { id: "saved-rules", name: "saved-rules", "data-testid": "saved-rules",
    onchange: () => {
      const entry = saved.find((e) => e.name === select.value);
      if (entry) apply(entry.rules, entry);
      words.textContent = entry && Array.isArray(entry.rules_text) ? entry.rules_text.join(" · ") : "";
    } });
  const words = h("p", { class: "muted saved-rules-words", "data-testid": "saved-rules-words" });
  const pickRow = h("div", { class: "form-row", hidden: true },
    h("label", { for: "saved-rules" }, "Saved house rules"), select);
  const fill = (list, chosen = "") => {
    saved = Array.isArray(list) ? list : [];
    mount(select, h("option", { value: "" }, "—"),
      saved.map((e) => h("option", { value: e.name, title: (e.rules_text || []).join("; ") }, e.name)));
    select.value = chosen;
    pickRow.hidden = saved.length === 0;
  };
  const refresh = (chosen) => getJson("/api/house-rules")
    .then((body) => fill(body && body.house_rules, chosen))
    .catch(() => fill([]));
  refresh("");

  const nameInput = h("input", { id: "house-rules-name", name: "house-rules-name", maxlength: 40,
    placeholder: "Grandma's rules", autocomplete: "off", "data-testid": "house-rules-name" });
  const button = h("button", { type: "button", "data-testid": "save-house-rules",
    onclick: async () => {
      const name = nameInput.value.trim();
      if (!name) {
        toast("Type a name for these rules first.");
        nameInput.focus();
        return;
      }
      button.disabled = true;
      try {
        const entry = await postJson("/api/house-rules", { name, rules: current() });
        toast(`Saved as ${entry.name}`);
        nameInput.value = "";
        await refresh(entry.name);
        words.textContent = (entry.rules_text || []).join(" · ");
      } catch (err) {
        toast(`Could not save the rules: ${err.message}`, "error");
      } finally {
        button.disabled = false;
      }
    } }, "Save these rules");
  const saveRow = h("div", { class: "form-row save-rules" },
    h("label", { for: "house-rules-name" }, "Save these rules as…"), nameInput, button);
  return { pickRow: h("div", {}, pickRow, words), saveRow, clear: () => { select.value = ""; words.textContent = ""; } };
}
