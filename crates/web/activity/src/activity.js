// The bot's Discord Activity (jieqi-web's /activity), bundled with Discord's Embedded App SDK
// by scripts/build-activity.sh into assets/web/activity.js. Everything comes from the bot's
// own address: the SDK talks to Discord's client by postMessage only.
//
// 1. The SDK's handshake with Discord's client (READY).
// 2. AUTHORIZE gives a one-time code; the bot exchanges it with Discord (its client secret
//    never reaches this page) and answers with the access token, the user, and a pass.
// 3. AUTHENTICATE with that access token, as Discord asks of every Activity.
// 4. The channel's games, the player's own first: a player's game opens their board (the
//    personal link's token, /g/<game>#t=…), any other game the spectators' page. "New game"
//    challenges someone in the Activity or the bot, in this channel.
// 5. Launched from a board's "Play in Discord", the instance shows that game: the list names
//    it (`launched`, from the store, by the instance Discord showed this person in) and the
//    page opens it once, as a player's board for its players and the spectators' page for
//    everyone else. Opened before the bot has written the launch down, the page shows the
//    list meanwhile and opens the game when a later refresh names it. Launched from the entry
//    point command, the instance names no game: the list stays.
//
// Names are untrusted text and only ever set with textContent.

import { DiscordSDK } from "@discord/embedded-app-sdk";

const root = document.getElementById("activity");
const label = (key) => root.dataset[key.replace(/-([a-z])/g, (_, c) => c.toUpperCase())] || "";
const $ = (id) => document.getElementById(id);
const lang = root.dataset.lang || "en";
// Where the launch's parameters are kept, so that "← Games" on a board comes back here.
const LAUNCH = "jieqi-activity-launch";
const SESSION = "jieqi-activity-session";
// The launch this tab opened already (instance, game, when), so that "← Games" stays on the
// list and only a new launch into the instance opens its game.
const OPENED = "jieqi-activity-opened";
// How often the list is asked again while it shows (a new game, a move, a result).
const REFRESH_MS = 3000;

let session = null;
let sdk = null;
let shownGames = new Set();
let firstList = true;
let refreshTimer = null;

function element(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className) node.className = className;
  return node;
}

function say(text, kind) {
  const line = $("activity-status");
  line.textContent = text || "";
  line.hidden = !text;
  line.className = kind || "";
}

function keep(key, value) {
  try {
    if (value === null) sessionStorage.removeItem(key);
    else sessionStorage.setItem(key, value);
  } catch {
    // No storage: the page signs in again when it comes back.
  }
}

function kept(key) {
  try {
    return sessionStorage.getItem(key);
  } catch {
    return null;
  }
}

// The launch's query (frame_id, instance_id, channel_id, …): from the address Discord opened,
// or, back from a board, from this tab.
function launchQuery() {
  const query = new URLSearchParams(location.search);
  if (query.get("frame_id")) {
    keep(LAUNCH, location.search);
    return query;
  }
  const saved = kept(LAUNCH);
  if (saved) {
    history.replaceState(null, "", location.pathname + saved);
    return new URLSearchParams(saved);
  }
  return query;
}

async function signIn(clientId) {
  const saved = kept(SESSION);
  if (saved) {
    try {
      const parsed = JSON.parse(saved);
      // A pass is for one channel: the one Discord showed this person in at sign-in.
      if (
        parsed.expires * 1000 > Date.now() + 60000 &&
        parsed.channel === sdk.channelId &&
        parsed.instance === sdk.instanceId
      ) {
        return parsed;
      }
    } catch {
      // Not ours: sign in again.
    }
  }
  const { code } = await sdk.commands.authorize({
    client_id: clientId,
    response_type: "code",
    state: "",
    prompt: "none",
    scope: ["identify"],
  });
  const response = await fetch(`/activity/session?lang=${lang}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    // The server asks Discord whether this instance is the bot's, in this channel, with this
    // person in it, before it grants the channel.
    body: JSON.stringify({ code, instance: sdk.instanceId, channel: sdk.channelId }),
  });
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(answer.message || String(response.status));
  keep(SESSION, JSON.stringify(answer));
  return answer;
}

async function lobby() {
  const channel = sdk.channelId || "";
  const response = await fetch(
    `/activity/games?channel=${encodeURIComponent(channel)}&lang=${lang}`,
    { headers: { Authorization: `Bearer ${session.pass}` } },
  );
  if (response.status === 401) {
    keep(SESSION, null);
    throw new Error(label("activity-sign-in-failed"));
  }
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(answer.message || String(response.status));
  return answer;
}

function open(game) {
  const board = game.token
    ? `/g/${game.game}?from=activity&lang=${lang}#t=${game.token}`
    : `/g/${game.game}?from=activity&lang=${lang}`;
  location.assign(board);
}

function gameRow(game) {
  const row = element("li", undefined, "game");
  row.dataset.game = game.game;
  const text = element("div", undefined, "what");
  text.append(element("span", game.players, "players"));
  text.append(element("span", game.status, "status"));
  row.append(text);
  const key = game.token ? "activity-play" : game.finished ? "activity-replay" : "activity-watch";
  const button = element("button", label(key));
  button.type = "button";
  button.dataset.action = game.token ? "play" : "watch";
  if (game.your_turn) {
    button.classList.add("your-turn");
    row.append(element("span", label("activity-your-turn"), "your-turn"));
  }
  button.addEventListener("click", () => open(game));
  row.append(button);
  return row;
}

function fill(listId, games) {
  const list = $(listId);
  list.replaceChildren(...games.map(gameRow));
  list.parentElement.hidden = games.length === 0;
}

function render(games) {
  fill("mine", games.mine);
  fill("here", games.here);
  fill("finished", games.finished);
  $("none").hidden = games.mine.length + games.here.length + games.finished.length > 0;
  root.dataset.state = "lobby";
  root.dataset.games = [...games.mine, ...games.here].map((g) => g.game).join(" ");
}

// The game the instance was launched on opens once per launch. Otherwise a game of the
// player's that is new in this channel opens at once: their challenge was accepted, or
// someone else's challenge to them.
function openNew(games) {
  const launched = games.launched;
  if (launched) {
    const which = `${sdk.instanceId} ${launched.game} ${launched.at}`;
    if (kept(OPENED) !== which) {
      keep(OPENED, which);
      return open(launched);
    }
  }
  const fresh = games.mine.filter((g) => g.here).find((g) => !shownGames.has(g.game));
  const first = firstList;
  firstList = false;
  for (const g of [...games.mine, ...games.here, ...games.finished]) shownGames.add(g.game);
  if (!first && fresh) return open(fresh);
}

async function refresh() {
  try {
    const games = await lobby();
    render(games);
    openNew(games);
  } catch (error) {
    say(error.message, "refused");
  }
  refreshTimer = setTimeout(refresh, REFRESH_MS);
}

async function newGame() {
  const panel = $("new-game");
  panel.hidden = !panel.hidden;
  if (panel.hidden) return;
  const select = $("opponent");
  select.replaceChildren();
  const bot = element("option", label("activity-the-bot"));
  bot.value = "bot";
  select.append(bot);
  try {
    const { participants } = await sdk.commands.getInstanceConnectedParticipants();
    for (const person of participants) {
      if (person.id === session.user.id || person.bot) continue;
      const option = element("option", person.nickname || person.global_name || person.username);
      option.value = person.id;
      select.append(option);
      if (select.value === "bot") select.value = person.id;
    }
  } catch {
    // Only the bot, then.
  }
}

async function challenge() {
  const select = $("opponent");
  const chosen = select.options[select.selectedIndex];
  const body = {
    channel: sdk.channelId,
    opponent: chosen.value,
    name: chosen.value === "bot" ? null : chosen.textContent,
    variant: $("variant").value,
    key: `${Date.now()}-${Math.floor(Math.random() * 1e9)}`,
  };
  const response = await fetch(`/activity/challenge?lang=${lang}`, {
    method: "POST",
    headers: { Authorization: `Bearer ${session.pass}`, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) return say(answer.message || String(response.status), "refused");
  if (answer.refused) return say(answer.refused, "refused");
  $("new-game").hidden = true;
  say(chosen.value === "bot" ? (answer.said || []).join(" ") : label("activity-sent"));
  clearTimeout(refreshTimer);
  refresh();
}

async function start() {
  const clientId = root.dataset.clientId;
  const query = launchQuery();
  if (!query.get("frame_id")) {
    root.dataset.state = "outside";
    return say(label("activity-outside"));
  }
  say(label("activity-signing-in"));
  root.dataset.state = "signing-in";
  try {
    sdk = new DiscordSDK(clientId);
    await sdk.ready();
    session = await signIn(clientId);
    await sdk.commands.authenticate({ access_token: session.access_token });
  } catch (error) {
    keep(SESSION, null);
    root.dataset.state = "refused";
    return say(label("activity-sign-in-failed"), "refused");
  }
  say("");
  $("who").textContent = session.user.name;
  root.dataset.user = session.user.id;
  $("new-game-button").addEventListener("click", newGame);
  $("send-challenge").addEventListener("click", challenge);
  refresh();
}

start();
