// The live page of one game (jieqi-web). Everything it shows comes from the page state the
// server embeds in #state and sends again after every move over Server-Sent Events; names are
// untrusted text and only ever set with textContent.

const WIDTHS = [360, 480, 720, 960, 1080, 1440];

const root = document.getElementById("game");
const label = (key) => root.dataset[key.replace(/-([a-z])/g, (_, c) => c.toUpperCase())] || "";

let state = JSON.parse(document.getElementById("state").textContent);
// The position shown: how many moves into the game.
let shown = state.moves.length;
let source = null;
let clockTimer = null;

const $ = (id) => document.getElementById(id);

function element(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className) node.className = className;
  return node;
}

function boardUrl(ply, width) {
  const look = state.board;
  // A finished game's last position is drawn as its end revealed it: another picture.
  const ended = state.finished && ply === state.moves.length ? "&end=1" : "";
  return `/g/${state.game}/board/${ply}.png?w=${width}&o=${look.orientation}&s=${look.style}${ended}`;
}

function positionText(ply) {
  if (ply === 0) return label("web-start");
  const move = state.moves[ply - 1];
  return `${move.number} ${move.text}`;
}

function renderBoard() {
  const board = $("board");
  board.srcset = WIDTHS.map((w) => `${boardUrl(shown, w)} ${w}w`).join(", ");
  board.sizes = "(max-width: 520px) calc(100vw - 16px), 480px";
  board.src = boardUrl(shown, 480);
  board.alt = positionText(shown);
  $("position").textContent = positionText(shown);
  root.dataset.shown = String(shown);
  $("to-first").disabled = shown === 0;
  $("to-previous").disabled = shown === 0;
  $("to-next").disabled = shown === state.moves.length;
  $("to-last").disabled = shown === state.moves.length;
  for (const item of $("moves").children) {
    item.classList.toggle("current", Number(item.dataset.ply) === shown);
  }
  // Keep the current move in view inside the list only: the page itself does not jump.
  const list = $("moves");
  const current = list.querySelector(".current");
  if (current) {
    const top = current.offsetTop - list.offsetTop;
    if (top < list.scrollTop) list.scrollTop = top;
    else if (top + current.offsetHeight > list.scrollTop + list.clientHeight) {
      list.scrollTop = top + current.offsetHeight - list.clientHeight;
    }
  }
}

function renderPlayers() {
  const list = $("players");
  list.replaceChildren();
  state.players.forEach((player, seat) => {
    const row = element("p", undefined, "player");
    if (player.colour) row.classList.add(player.colour);
    if (state.to_move === seat) row.classList.add("to-move");
    row.append(element("span", player.name, "name"));
    if (player.side) row.append(element("span", player.side, "side"));
    row.append(element("span", player.rating, "rating"));
    list.append(row);
  });
}

function renderMoves() {
  $("moves-title").textContent = label("web-moves");
  const list = $("moves");
  list.replaceChildren();
  state.moves.forEach((move, index) => {
    const item = element("li");
    item.dataset.ply = String(index + 1);
    const button = element("button", `${move.number} ${move.text}`);
    button.type = "button";
    button.addEventListener("click", () => show(index + 1));
    item.append(button);
    list.append(item);
  });
}

function duration(seconds) {
  const d = Math.floor(seconds / 86400);
  const h = Math.floor((seconds % 86400) / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  const two = (n) => String(n).padStart(2, "0");
  return d > 0 ? `${d}d ${h}:${two(m)}:${two(s)}` : `${h}:${two(m)}:${two(s)}`;
}

function renderClock() {
  const clock = $("clock");
  if (clockTimer) clearInterval(clockTimer);
  clockTimer = null;
  if (!state.deadline || state.finished) {
    clock.hidden = true;
    return;
  }
  const tick = () => {
    const left = Math.max(0, state.deadline - Math.floor(Date.now() / 1000));
    clock.textContent = `${label("web-time-left")}: ${duration(left)}`;
  };
  clock.hidden = false;
  tick();
  clockTimer = setInterval(tick, 1000);
}

async function sha256Hex(text) {
  const bytes = new TextEncoder().encode(text);
  const digest = await crypto.subtle.digest("SHA-256", bytes);
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

function renderProof() {
  const section = $("proof");
  const proof = state.proof;
  section.replaceChildren();
  if (!proof) {
    section.hidden = true;
    return;
  }
  section.hidden = false;
  section.append(element("h2", label("web-deal")));
  section.append(element("p", proof.deal, "code"));
  for (const line of proof.pieces) section.append(element("p", line));
  section.append(element("h3", label("web-commitment")));
  section.append(element("p", state.commitment, "code"));
  const verdict = element("p", "", "verdict");
  section.append(verdict);
  section.append(element("p", proof.how_to_check, "how"));
  if (window.crypto && crypto.subtle) {
    sha256Hex(proof.deal + proof.salt).then(
      (hex) => {
        const ok = hex === state.commitment;
        verdict.textContent = label(ok ? "web-check-ok" : "web-check-bad");
        verdict.classList.add(ok ? "ok" : "bad");
        root.dataset.commitment = ok ? "checked" : "mismatch";
      },
      () => {
        verdict.textContent = label("web-check-unavailable");
      },
    );
  } else {
    verdict.textContent = label("web-check-unavailable");
  }
}

function render() {
  root.dataset.revision = String(state.revision);
  root.dataset.finished = String(state.finished);
  $("terms").textContent = state.terms;
  $("status").textContent = state.status;
  renderPlayers();
  renderMoves();
  renderClock();
  renderProof();
  renderBoard();
}

function show(ply) {
  shown = Math.max(0, Math.min(state.moves.length, ply));
  renderBoard();
}

function connection(text, live) {
  const line = $("connection");
  line.hidden = false;
  line.textContent = text;
  line.classList.toggle("live", live);
}

function listen() {
  if (state.finished || !window.EventSource) return;
  source = new EventSource(`/g/${state.game}/live?lang=${state.language}`);
  source.addEventListener("open", () => connection(label("web-live"), true));
  source.addEventListener("error", () => connection(label("web-reconnecting"), false));
  source.addEventListener("page", (event) => {
    const next = JSON.parse(event.data);
    if (next.revision <= state.revision) return;
    const following = shown === state.moves.length;
    state = next;
    if (following || shown > state.moves.length) shown = state.moves.length;
    render();
    if (state.finished) {
      source.close();
      connection(label("web-over"), false);
    }
  });
}

function setUp() {
  const steps = [
    ["to-first", "web-first", "«", () => show(0)],
    ["to-previous", "web-previous", "◀", () => show(shown - 1)],
    ["to-next", "web-next", "▶", () => show(shown + 1)],
    ["to-last", "web-last", "»", () => show(state.moves.length)],
  ];
  for (const [id, key, symbol, action] of steps) {
    const button = $(id);
    button.textContent = symbol;
    button.title = label(key);
    button.setAttribute("aria-label", label(key));
    button.addEventListener("click", action);
  }
  $("keys").textContent = label("web-keys");
  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const keys = {
      ArrowLeft: () => show(shown - 1),
      ArrowRight: () => show(shown + 1),
      Home: () => show(0),
      End: () => show(state.moves.length),
    };
    if (keys[event.key]) {
      event.preventDefault();
      keys[event.key]();
    }
  });
  render();
  listen();
}

setUp();
