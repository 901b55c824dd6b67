/* Small DOM builders: every element is made with createElement and text nodes, never from HTML
   strings, so a player's name can never inject markup. */

const SVG_NS = "http://www.w3.org/2000/svg";

function fill(node, attrs, children) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.setAttribute("class", value);
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on") && typeof value === "function") {
      node.addEventListener(key.slice(2), value);
    } else if (key === "dataset") {
      for (const [k, v] of Object.entries(value)) node.dataset[k] = v;
    } else if (value === true) node.setAttribute(key, "");
    else node.setAttribute(key, String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** An HTML element: h("button", {class: "x", onclick: f}, "text", child, ...). */
export function h(tag, attrs, ...children) {
  return fill(document.createElement(tag), attrs, children);
}

/** An SVG element, same calling convention as h. */
export function s(tag, attrs, ...children) {
  return fill(document.createElementNS(SVG_NS, tag), attrs, children);
}

/** Replace every child of node with the given children. */
export function mount(node, ...children) {
  node.replaceChildren();
  return fill(node, {}, children);
}

let toastSerial = 0;

/** A short message at the bottom of the screen that goes away by itself. */
export function toast(message, kind = "info", ms = 4000) {
  const box = document.getElementById("toasts");
  if (!box) return;
  const id = ++toastSerial;
  const item = h("div", { class: `toast toast-${kind}`, "data-testid": "toast", "data-toast": id },
    String(message));
  box.append(item);
  while (box.children.length > 3) box.firstElementChild.remove();
  setTimeout(() => item.remove(), ms);
}

/** Copy text to the clipboard, falling back to selecting it where the clipboard is refused. */
export async function copyText(text, input) {
  try {
    await navigator.clipboard.writeText(text);
    toast("Link copied");
  } catch {
    if (input) {
      input.focus();
      input.select();
    }
    toast("Press Ctrl+C to copy the selected link");
  }
}

export function setTitle(title, subtitle = "") {
  document.title = title ? `${title} · Texas 42` : "Texas 42";
  const bar = document.getElementById("topbar-title");
  if (bar) bar.textContent = subtitle || title || "";
}

/** True when keys typed now belong to a text field, not to the table's shortcuts. */
export function typingInField(event) {
  const t = event.target;
  if (!(t instanceof Element)) return false;
  return t.matches("input, textarea, select, [contenteditable]") || event.ctrlKey || event.metaKey ||
    event.altKey;
}
