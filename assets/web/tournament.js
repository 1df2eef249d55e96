// A tournament's live page (jieqi-web, /t/<id>). The server draws the whole page; this script
// only keeps it current while the event runs: every few seconds it asks for the stored
// revision (a few bytes) and loads the page again when a result, a round or an entry changed
// it. A finished or called-off event's page asks nothing.

const root = document.getElementById("tournament");
const EVERY_MS = 5000;

async function follow() {
  const id = root.dataset.tournament;
  const shown = root.dataset.revision;
  try {
    const answer = await fetch(`/t/${encodeURIComponent(id)}/revision`, { cache: "no-store" });
    if (answer.ok) {
      const revision = (await answer.text()).trim();
      if (revision !== shown) {
        window.location.reload();
        return;
      }
    }
  } catch (_) {
    // Offline for a moment: ask again at the next turn.
  }
  setTimeout(follow, EVERY_MS);
}

if (root && root.dataset.over !== "true") {
  setTimeout(follow, EVERY_MS);
}
