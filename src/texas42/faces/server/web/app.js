/* The texas42 web table: one page, routed on the path the server answered with index.html. */

import { h, mount } from "./dom.js";
import { showLearn, showLesson } from "./learn.js";
import { showLab } from "./lab.js";
import { showLobby } from "./lobby.js";
import { showPlayer } from "./player.js";
import { showPuzzle, showPuzzles } from "./puzzles.js";
import { showPractice } from "./practice.js";
import { showReplay } from "./replay.js";
import { showTable } from "./table.js";

function route() {
  const root = document.getElementById("app");
  const path = decodeURIComponent(location.pathname).replace(/\/+$/, "") || "/";
  let m;
  if (path === "/") return showLobby(root);
  if ((m = /^\/t\/([^/]+)$/.exec(path))) return showTable(root, m[1]);
  if (path === "/replay") return showReplay(root, null, null);
  if (path === "/learn/bids") return showPractice(root);
  if ((m = /^\/p\/([^/]+)$/.exec(path))) return showPlayer(root, m[1]);
  if ((m = /^\/replay\/([^/]+)\/([^/]+)$/.exec(path))) return showReplay(root, m[1], m[2]);
  if (path === "/learn") return showLearn(root);
  if ((m = /^\/learn\/lesson\/([^/]+)$/.exec(path))) return showLesson(root, m[1]);
  if (path === "/learn/puzzles") return showPuzzles(root);
  if ((m = /^\/learn\/puzzles\/([^/]+)$/.exec(path))) return showPuzzle(root, m[1]);
  if (path === "/learn/lab") return showLab(root);
  mount(root, h("section", { class: "card narrow" }, h("h2", {}, "Nothing here"),
    h("p", {}, h("a", { href: "/" }, "Go to the lobby"))));
  return null;
}

window.addEventListener("error", (event) => console.error("texas42:", event.message));
route();
