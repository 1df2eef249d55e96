// The live page of one game (jieqi-web). Everything it shows comes from the page state the
// server embeds in #state and sends again after every move over Server-Sent Events; names are
// untrusted text and only ever set with textContent.
//
// A player opens the same page with a credential in the fragment: a personal link's token
// (`#t=…`) or, inside Telegram, the Mini App's `#tgWebAppData=…`. The page then asks for the
// player's own state (`/g/<game>/me`), draws their boards, follows their own stream and turns
// two taps into a move. The credential goes in the Authorization header only, and leaves the
// address bar at once (kept in this tab's sessionStorage).

const WIDTHS = [360, 480, 720, 960, 1080, 1440];

const root = document.getElementById("game");
const label = (key) => root.dataset[key.replace(/-([a-z])/g, (_, c) => c.toUpperCase())] || "";

let state = JSON.parse(document.getElementById("state").textContent);
// The position shown: how many moves into the game.
let shown = state.moves.length;
let source = null;
let clockTimer = null;
// The player's credential ("Bearer …" or "tma …"), when the page is a player's.
let auth = null;
// True once the server said this is a player's page.
let playing = false;
// The point tapped first, and the move waiting for its confirmation.
let selected = null;
let pendingMove = null;
// True while an action is on its way: further taps wait (a double tap plays once).
let sending = false;
// The player's board pictures, fetched with the credential: address -> blob URL.
const pictures = new Map();

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

// The player's own picture of position `ply`, fetched with their credential.
async function playerPicture(ply) {
  const frame = $("board-frame");
  const want = Math.max(frame.clientWidth, 320) * (window.devicePixelRatio || 1);
  const width = WIDTHS.find((w) => w >= want) || WIDTHS[WIDTHS.length - 1];
  const ended = state.finished && ply === state.moves.length ? "&end=1" : "";
  const address = `/g/${state.game}/me/board/${ply}.png?w=${width}${ended}`;
  if (!pictures.has(address)) {
    const response = await fetch(address, { headers: { Authorization: auth } });
    if (!response.ok) throw new Error(`board ${response.status}`);
    pictures.set(address, URL.createObjectURL(await response.blob()));
    // Keep the pictures of the last positions only; a long game does not pile them up.
    while (pictures.size > 24) {
      const [oldest, url] = pictures.entries().next().value;
      URL.revokeObjectURL(url);
      pictures.delete(oldest);
    }
  }
  return pictures.get(address);
}

function renderBoard() {
  const board = $("board");
  if (playing) {
    const ply = shown;
    board.removeAttribute("srcset");
    playerPicture(ply).then(
      (url) => {
        if (shown === ply) board.src = url;
      },
      () => {},
    );
  } else {
    board.srcset = WIDTHS.map((w) => `${boardUrl(shown, w)} ${w}w`).join(", ");
    board.sizes = "(max-width: 520px) calc(100vw - 16px), 480px";
    board.src = boardUrl(shown, 480);
  }
  renderTaps();
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
    if (playing && state.seat === seat) row.append(element("span", `(${label("web-you")})`, "you"));
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

// How far the server's clock is ahead of this browser's, in ms. A page is built once per
// revision and kept, so one that was built a while ago (the page opened long after the last
// move) says nothing of the skew: only pages whose server time is within 5 s of this
// browser's count, the largest of them (waiting on the way only makes it look smaller), and
// without one the two clocks are taken to agree.
let serverAhead = 0;
let skewMeasured = false;

// A clock face: m:ss, h:mm:ss, or under ten seconds 0:0s.t.
function face(ms) {
  const left = Math.max(0, ms);
  const secs = Math.floor(left / 1000);
  if (secs < 10) return `0:0${secs}.${Math.floor((left % 1000) / 100)}`;
  const two = (n) => String(n).padStart(2, "0");
  const h = Math.floor(secs / 3600);
  const m = Math.floor((secs % 3600) / 60);
  return h > 0 ? `${h}:${two(m)}:${two(secs % 60)}` : `${m}:${two(secs % 60)}`;
}

// A live game's two clocks, the running one counted down in the browser from the server's
// figures (every event brings new ones) until the server judges the flag.
function renderLiveClocks(clock, clocks) {
  const ahead = clocks.server_time - Date.now();
  if (Math.abs(ahead) < 5000 && (!skewMeasured || ahead > serverAhead)) {
    serverAhead = ahead;
    skewMeasured = true;
  }
  const tick = () => {
    const now = Date.now();
    const elapsed = state.finished ? 0 : Math.max(0, now + serverAhead - clocks.server_time);
    const sides = [0, 1].map((seat) => {
      let left = clocks.left_ms[seat];
      let periods = clocks.periods[seat];
      let byoYomi = clocks.byo_yomi[seat];
      if (clocks.running === seat) {
        left -= elapsed;
        if (clocks.period_ms > 0 && left < 0) {
          // The game time (or the current period) is spent: the next periods count.
          const over = -left;
          const used = Math.floor(over / clocks.period_ms) + (byoYomi ? 1 : 0);
          byoYomi = true;
          periods = Math.max(0, periods - used);
          left = periods > 0 ? clocks.period_ms - (over % clocks.period_ms) : 0;
        }
      }
      const name = state.players[seat].name;
      const shown = face(left) + (byoYomi ? ` ×${periods}` : "");
      return {
        text: `${clocks.running === seat ? "▶ " : ""}${name} ${shown}`,
        low: left < 10000,
        ms: Math.max(0, Math.round(left)),
      };
    });
    clock.textContent = `⏱ ${sides[0].text} · ${sides[1].text}`;
    const running = clocks.running === null || clocks.running === undefined ? null : sides[clocks.running];
    clock.classList.toggle("low", Boolean(running && running.low));
    root.dataset.clocks = JSON.stringify(sides.map((side) => side.text));
    // What the faces show, to the millisecond (each seat's time, or byo-yomi period, left),
    // and this browser's instant they were counted at: for tests and assistive tools.
    clock.dataset.leftMs = sides.map((side) => side.ms).join(" ");
    clock.dataset.shownAt = String(now);
  };
  clock.hidden = false;
  tick();
  if (!state.finished && clocks.running !== null && clocks.running !== undefined) {
    clockTimer = setInterval(tick, 100);
  }
}

function renderClock() {
  const clock = $("clock");
  if (clockTimer) clearInterval(clockTimer);
  clockTimer = null;
  clock.classList.remove("low");
  if (state.clocks) {
    renderLiveClocks(clock, state.clocks);
    return;
  }
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
  root.dataset.updatedAt = String(Date.now());
  root.dataset.mode = playing ? "player" : "spectator";
  root.dataset.finished = String(state.finished);
  $("terms").textContent = state.terms;
  $("status").textContent = state.status;
  renderPlayers();
  renderMoves();
  renderClock();
  renderProof();
  renderPlay();
  renderBoard();
}

function show(ply) {
  shown = Math.max(0, Math.min(state.moves.length, ply));
  selected = null;
  renderBoard();
}

// ---- Playing on the board -------------------------------------------------------------

function notice(text, kind) {
  const line = $("notice");
  line.hidden = !text;
  line.textContent = text || "";
  line.className = kind || "";
}

function canTap() {
  return playing && !state.finished && shown === state.moves.length;
}

// The tap targets over the board: one button per point, marked when a piece there can move
// (origin), when it is the chosen piece (selected) and where it can go (target).
function renderTaps() {
  const taps = $("taps");
  if (!canTap() || !state.points) {
    taps.hidden = true;
    taps.replaceChildren();
    return;
  }
  taps.hidden = false;
  const origins = new Set(state.legal.map((c) => c.from));
  const targets = new Set(
    selected ? state.legal.filter((c) => c.from === selected).map((c) => c.to) : [],
  );
  taps.replaceChildren();
  for (const point of state.points) {
    const tap = element("button", undefined, "tap");
    tap.type = "button";
    tap.dataset.point = point.name;
    tap.setAttribute("aria-label", point.name);
    tap.style.left = `${point.x / 100}%`;
    tap.style.top = `${point.y / 100}%`;
    tap.style.width = `${point.size / 100}%`;
    if (origins.has(point.name)) tap.classList.add("origin");
    if (point.name === selected) tap.classList.add("selected");
    if (targets.has(point.name)) tap.classList.add("target");
    tap.addEventListener("click", () => tapped(point.name));
    taps.append(tap);
  }
}

function tapped(point) {
  if (!canTap() || sending) return;
  notice("");
  if (selected) {
    const choice = state.legal.find((c) => c.from === selected && c.to === point);
    if (choice) {
      selected = null;
      propose(choice.play);
      return;
    }
    // Out of turn there are no legal moves to mark: the two taps go to the bot, which says
    // why it cannot be played, as the chat would.
    if (state.legal.length === 0 && point !== selected) {
      const from = selected;
      selected = null;
      propose(from + point);
      return;
    }
  }
  const movable = state.legal.length === 0 || state.legal.some((c) => c.from === point);
  selected = movable && point !== selected ? point : null;
  renderTaps();
}

function confirmMoves() {
  try {
    return localStorage.getItem("jieqi-confirm-moves") === "1";
  } catch {
    return false;
  }
}

function propose(play) {
  if (confirmMoves()) {
    pendingMove = play;
    $("play-it").textContent = `${label("web-confirm-play")}: ${play}`;
    $("confirm-move").hidden = false;
    renderTaps();
    return;
  }
  act({ action: "move", move: play }, `${state.revision}-${play}`);
}

// The network's share of this page's round trips to the bot, in ms (null until measured):
// a move's time runs on the bot from the instant the opponent's move was committed to the
// instant this one arrives, so the player loses one way of the trip learning of the move and
// the other sending theirs. Each move reports it (`lag_ms`) and a live game's clock gives it
// back within its quota (docs/clocks.md); the bot's own time on an action (`server_ms`) is
// not the network's and is taken off. Smoothed so that one slow trip does not count whole.
let networkLag = null;

function measuredTrip(ms) {
  const sample = Math.max(0, Math.round(ms));
  networkLag = networkLag === null ? sample : Math.round(0.7 * networkLag + 0.3 * sample);
  root.dataset.lagMs = String(networkLag);
}

// Sends an action. The key is the same for the same action on the same revision, so a retry
// or a second tap is the same request to the bot, carried out once.
async function act(body, key) {
  if (sending) return;
  sending = true;
  root.dataset.sentAt = String(Date.now());
  root.dataset.sending = "true";
  notice(label("web-sending"), "sending");
  renderTaps();
  try {
    const withLag =
      body.action === "move" ? { ...body, lag_ms: Math.min(networkLag || 0, 10000) } : body;
    const sent = performance.now();
    const response = await fetch(`/g/${state.game}/me/act?lang=${state.language}`, {
      method: "POST",
      headers: { Authorization: auth, "Content-Type": "application/json" },
      body: JSON.stringify({ ...withLag, key }),
    });
    const answer = await response.json().catch(() => ({}));
    if (typeof answer.server_ms === "number") {
      measuredTrip(performance.now() - sent - answer.server_ms);
    }
    if (response.status === 401) return signedOut();
    if (response.status === 429) return notice(label("web-too-fast"), "refused");
    if (!response.ok) return notice(answer.message || String(response.status), "refused");
    if (answer.refused) {
      root.dataset.refusals = String(Number(root.dataset.refusals || "0") + 1);
      notice(answer.refused, "refused");
    } else if (answer.next && answer.game) {
      // The rematch started: its board, with this credential if no link of its own came.
      try {
        sessionStorage.setItem(`jieqi-auth-${answer.game}`, auth);
      } catch {
        // No storage: the new page asks for a link as any page opened without one does.
      }
      location.assign(answer.next);
    } else {
      notice((answer.said || []).join(" "));
    }
  } catch {
    notice(label("web-offline"), "refused");
  } finally {
    sending = false;
    root.dataset.sending = "false";
    renderTaps();
  }
}

function renderPlay() {
  const panel = $("play");
  panel.hidden = !playing;
  $("known").hidden = true;
  if (!playing) return;
  $("turn").textContent = state.finished
    ? ""
    : state.to_move === state.seat
      ? label("web-your-move")
      : label("web-their-move");
  $("actions").hidden = state.finished;
  $("confirm-setting").hidden = state.finished;
  $("draw").textContent = label(state.draw_offered ? "button-accept-draw" : "button-draw");
  $("resign").textContent = label("button-resign");
  $("again").hidden = !state.finished;
  $("rematch").textContent = label("button-rematch");
  if (state.finished) {
    $("confirm-resign").hidden = true;
    $("confirm-move").hidden = true;
  }
  const known = $("known");
  known.replaceChildren();
  if (state.known && state.known.length > 0) {
    known.hidden = false;
    known.append(element("h2", label("web-known-title")));
    for (const line of state.known) known.append(element("p", line, "known"));
  }
}

function setUpPlay() {
  $("play-it").addEventListener("click", () => {
    const play = pendingMove;
    pendingMove = null;
    $("confirm-move").hidden = true;
    if (play) act({ action: "move", move: play }, `${state.revision}-${play}`);
  });
  $("play-cancel").textContent = label("web-cancel");
  $("play-cancel").addEventListener("click", () => {
    pendingMove = null;
    $("confirm-move").hidden = true;
    renderTaps();
  });
  $("draw").addEventListener("click", () => act({ action: "draw" }, `${state.revision}-draw`));
  $("rematch").addEventListener("click", () =>
    act({ action: "rematch" }, `${state.revision}-rematch`),
  );
  $("resign").addEventListener("click", () => {
    $("confirm-resign").hidden = false;
  });
  $("resign-sure").textContent = label("web-resign-sure");
  $("resign-yes").textContent = label("button-resign-confirm");
  $("resign-yes").addEventListener("click", () => {
    $("confirm-resign").hidden = true;
    act({ action: "resign" }, `${state.revision}-resign`);
  });
  $("resign-no").textContent = label("web-cancel");
  $("resign-no").addEventListener("click", () => {
    $("confirm-resign").hidden = true;
  });
  $("confirm-moves-label").textContent = label("web-confirm-moves");
  const box = $("confirm-moves");
  box.checked = confirmMoves();
  box.addEventListener("change", () => {
    try {
      localStorage.setItem("jieqi-confirm-moves", box.checked ? "1" : "0");
    } catch {
      // Private browsing without storage: the choice lasts until the page closes.
    }
  });
}

// The credential in the fragment (then moved out of the address bar), or the one this tab
// kept; and Telegram's theme colours when inside the Mini App.
function readCredential() {
  const fragment = new URLSearchParams(location.hash.slice(1));
  const kept = `jieqi-auth-${state.game}`;
  let found = null;
  let theme = null;
  if (fragment.get("t")) found = `Bearer ${fragment.get("t")}`;
  else if (fragment.get("tgWebAppData")) {
    found = `tma ${fragment.get("tgWebAppData")}`;
    theme = fragment.get("tgWebAppThemeParams");
  }
  try {
    if (found) {
      sessionStorage.setItem(kept, found);
      if (theme) sessionStorage.setItem("jieqi-theme", theme);
      history.replaceState(null, "", location.pathname + location.search);
    } else {
      found = sessionStorage.getItem(kept);
      theme = sessionStorage.getItem("jieqi-theme");
    }
  } catch {
    // No storage: the credential lives as long as the page.
  }
  if (theme) telegramTheme(theme);
  return found;
}

// Telegram's colours: the page follows the chat app's light or dark theme.
function telegramTheme(text) {
  let theme;
  try {
    theme = JSON.parse(text);
  } catch {
    return;
  }
  const colour = (value) => (/^#[0-9a-fA-F]{6}$/.test(value || "") ? value : null);
  const style = document.documentElement.style;
  for (const [name, key] of [
    ["--paper", "bg_color"],
    ["--ink", "text_color"],
    ["--muted", "hint_color"],
    ["--accent", "button_color"],
    ["--line", "secondary_bg_color"],
  ]) {
    const value = colour(theme[key]);
    if (value) style.setProperty(name, value);
  }
  telegramEvent("web_app_ready");
  telegramEvent("web_app_expand");
}

// Tells the Telegram client something, the way its own script does, without loading it.
function telegramEvent(type) {
  const data = JSON.stringify({});
  try {
    if (window.TelegramWebviewProxy) window.TelegramWebviewProxy.postEvent(type, data);
    else if (window.parent !== window) {
      window.parent.postMessage(JSON.stringify({ eventType: type, eventData: {} }), "https://web.telegram.org");
    }
  } catch {
    // Not inside Telegram after all.
  }
}

function signedOut() {
  playing = false;
  auth = null;
  try {
    sessionStorage.removeItem(`jieqi-auth-${state.game}`);
  } catch {
    // Nothing kept.
  }
  notice(label("web-signed-out"), "refused");
  // Back to what everyone sees.
  fetch(`/g/${state.game}/state?lang=${state.language}`)
    .then((response) => (response.ok ? response.json() : null))
    .then(
      (page) => {
        if (page) {
          state = page;
          shown = Math.min(shown, state.moves.length);
          render();
        }
      },
      () => {},
    );
  render();
  $("play").hidden = false;
  $("actions").hidden = true;
  $("confirm-setting").hidden = true;
  $("turn").textContent = "";
  listen();
}

// The player's state, or back to the spectators' page if the credential does not hold.
async function joinAsPlayer() {
  const asked = performance.now();
  const response = await fetch(`/g/${state.game}/me?lang=${state.language}`, {
    headers: { Authorization: auth },
  }).catch(() => null);
  if (!response) return listen();
  // The first measure of the trip, until a move's answer says the bot's share.
  measuredTrip(performance.now() - asked);
  if (response.status === 401) return signedOut();
  if (response.status === 403) {
    auth = null;
    $("play").hidden = false;
    notice(label("web-not-playing"));
    $("actions").hidden = true;
    $("confirm-setting").hidden = true;
    return listen();
  }
  if (!response.ok) return listen();
  const mine = await response.json();
  playing = true;
  if (mine.revision >= state.revision) {
    state = mine;
    shown = state.moves.length;
  }
  render();
  followMine();
}

// The player's own stream, read with fetch (EventSource cannot send a header); after a drop
// it resumes from the last revision seen.
async function followMine() {
  let delay = 1000;
  while (playing && !state.finished) {
    try {
      const response = await fetch(`/g/${state.game}/me/live?lang=${state.language}`, {
        headers: { Authorization: auth, "Last-Event-ID": String(state.revision) },
      });
      if (response.status === 401) return signedOut();
      if (!response.ok || !response.body) throw new Error(String(response.status));
      connection(label("web-live"), true);
      delay = 1000;
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = "";
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        let end;
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          const event = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = event
            .split("\n")
            .filter((line) => line.startsWith("data: "))
            .map((line) => line.slice(6))
            .join("\n");
          if (data) received(JSON.parse(data));
        }
        if (state.finished) break;
      }
    } catch {
      // Dropped: try again.
    }
    if (state.finished) break;
    connection(label("web-reconnecting"), false);
    await new Promise((resolve) => setTimeout(resolve, delay));
    delay = Math.min(delay * 2, 15000);
  }
  if (state.finished) connection(label("web-over"), false);
}

// A newer page from a stream: shown at once if the viewer was on the latest position.
function received(next) {
  if (next.revision <= state.revision) return;
  const following = shown === state.moves.length;
  state = next;
  selected = null;
  if (following || shown > state.moves.length) shown = state.moves.length;
  render();
}

function connection(text, live) {
  const line = $("connection");
  line.hidden = false;
  line.textContent = text;
  line.classList.toggle("live", live);
}

function listen() {
  if (source || state.finished || !window.EventSource) return;
  source = new EventSource(`/g/${state.game}/live?lang=${state.language}`);
  source.addEventListener("open", () => connection(label("web-live"), true));
  source.addEventListener("error", () => connection(label("web-reconnecting"), false));
  source.addEventListener("page", (event) => {
    received(JSON.parse(event.data));
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
  setUpPlay();
  // Opened from the Discord Activity's list: a way back to it (it signs in again by itself).
  if (new URLSearchParams(location.search).get("from") === "activity") {
    $("back-link").textContent = label("activity-back");
    $("back-link").href = "/activity";
    $("back").hidden = false;
  }
  auth = readCredential();
  render();
  if (auth) joinAsPlayer();
  else listen();
}

setUp();
