//! Live pages: the latest page of each followed game, built once per revision and language
//! and shared by every spectator, and the per-game signal that wakes their streams.
//!
//! One task reads the service's news of committed revisions (this process's commits, and on
//! PostgreSQL every process's, heard through `LISTEN`). A followed game's [`watch`] channel
//! holds its latest known revision; each open stream waits on it, then sends the page of
//! that revision (or a newer one). A slow stream only ever skips to the newest page, which
//! holds the whole record, so it never misses a move and never slows anyone else.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use axum::body::Bytes;
use jieqi_service::game_page::GamePage;
use jieqi_service::{GameChange, GameId, Language, Service, ServiceError};
use tokio::sync::{broadcast, watch};
use tokio_util::sync::CancellationToken;

/// Pages kept built for games nobody follows any more, before they are forgotten.
const IDLE_PAGES: usize = 1024;

/// A page as sent: its revision and its JSON.
#[derive(Clone, Debug)]
pub(crate) struct BuiltPage {
    pub revision: u64,
    pub page: Arc<GamePage>,
    pub json: Arc<str>,
    /// The page as one Server-Sent Event, framed once and shared by every stream.
    pub event: Bytes,
}

/// The latest built page of one game in one language. Streams read `latest` (a quick lock);
/// `building` makes concurrent requests for a new revision wait for one build instead of
/// each building it.
#[derive(Debug, Default)]
struct PageSlot {
    latest: Mutex<Option<BuiltPage>>,
    building: tokio::sync::Mutex<()>,
}

impl PageSlot {
    fn at_least(&self, revision: u64) -> Option<BuiltPage> {
        lock(&self.latest)
            .as_ref()
            .filter(|page| page.revision >= revision)
            .cloned()
    }
}

/// `page` framed as a Server-Sent Event: `event: page`, its revision as the id (what a
/// reconnecting browser sends back as `Last-Event-ID`), and the JSON (one line).
pub(crate) fn framed(revision: u64, json: &str) -> Bytes {
    Bytes::from(format!("event: page\nid: {revision}\ndata: {json}\n\n"))
}

/// Followed games and their built pages.
#[derive(Debug)]
pub(crate) struct Hub {
    service: Service,
    games: Mutex<HashMap<GameId, watch::Sender<u64>>>,
    pages: Mutex<HashMap<(GameId, Language), Arc<PageSlot>>>,
}

/// Someone following one game: the revision signal, and the place it holds in the hub (given
/// back when dropped).
#[derive(Debug)]
pub(crate) struct Following {
    hub: Arc<Hub>,
    game: GameId,
    /// The game's page kept in the follower's language, read on each revision without the
    /// hub's maps (thousands of streams wake at once).
    slot: Arc<PageSlot>,
    pub revisions: Option<watch::Receiver<u64>>,
}

/// What ended a stream's wait ([`Following::wait`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Wake {
    /// A newer revision is known.
    Revised,
    /// Nothing happened for a while: time for a keep-alive comment (the timer is set again).
    Quiet,
    /// The server stops, or the game is no longer followed.
    Ended,
}

/// The comment a quiet stream sends, so proxies keep it open and a dead client is noticed.
pub(crate) const STILL_HERE: &[u8] = b": still here\n\n";

impl Following {
    /// The page kept, if it is at `revision` or later (else [`Hub::page`] builds it).
    pub(crate) fn kept_page(&self, revision: u64) -> Option<BuiltPage> {
        self.slot.at_least(revision)
    }

    /// Waits for a revision newer than the last one seen, `keep_alive` (set again for
    /// `every` when it fires), or `stopping`.
    pub(crate) async fn wait(
        &mut self,
        stopping: &CancellationToken,
        keep_alive: std::pin::Pin<&mut tokio::time::Sleep>,
        every: std::time::Duration,
    ) -> Wake {
        let Some(revisions) = self.revisions.as_mut() else {
            return Wake::Ended;
        };
        let mut keep_alive = keep_alive;
        tokio::select! {
            changed = revisions.changed() => match changed {
                Ok(()) => Wake::Revised,
                Err(_) => Wake::Ended,
            },
            () = stopping.cancelled() => Wake::Ended,
            () = keep_alive.as_mut() => {
                keep_alive.reset(tokio::time::Instant::now() + every);
                Wake::Quiet
            }
        }
    }
}

impl Drop for Following {
    fn drop(&mut self) {
        drop(self.revisions.take());
        let mut games = lock(&self.hub.games);
        if games
            .get(&self.game)
            .is_some_and(|sender| sender.receiver_count() == 0)
        {
            games.remove(&self.game);
        }
    }
}

impl Hub {
    pub(crate) fn new(service: Service) -> Arc<Hub> {
        Arc::new(Hub {
            service,
            games: Mutex::new(HashMap::new()),
            pages: Mutex::new(HashMap::new()),
        })
    }

    /// Reads the service's news until `stop`, waking the streams of each game it names.
    pub(crate) async fn run(self: Arc<Self>, stop: CancellationToken) {
        let mut news = self.service.game_changes();
        loop {
            let change = tokio::select! {
                () = stop.cancelled() => return,
                change = news.recv() => change,
            };
            match change {
                Ok(GameChange::Revised(game, revision)) => {
                    // Off this loop: a build reads the store.
                    tokio::spawn(self.clone().revised(game, revision));
                }
                Ok(GameChange::MaybeMissed) | Err(broadcast::error::RecvError::Lagged(_)) => {
                    self.read_all_again().await;
                }
                Err(broadcast::error::RecvError::Closed) => return,
            }
        }
    }

    /// Builds `game`'s pages at `revision` in the languages followed, then wakes its streams.
    /// Thousands of streams wake at once: each then finds its page built, where otherwise all
    /// but the first would queue on its build one after another.
    async fn revised(self: Arc<Self>, game: GameId, revision: u64) {
        let newer = lock(&self.games)
            .get(&game)
            .is_some_and(|sender| revision > *sender.borrow());
        if !newer {
            return;
        }
        let followed: Vec<Language> = lock(&self.pages)
            .iter()
            .filter(|((g, _), slot)| *g == game && Arc::strong_count(slot) > 1)
            .map(|((_, language), _)| *language)
            .collect();
        for language in followed {
            if let Err(e) = self.page(&game, language, revision).await {
                // The streams try again themselves.
                tracing::warn!(%game, "a live page could not be built: {e}");
            }
        }
        self.signal(&game, revision);
    }

    /// Wakes the streams of `game` if `revision` is newer than the one they know.
    fn signal(&self, game: &GameId, revision: u64) {
        if let Some(sender) = lock(&self.games).get(game) {
            sender.send_if_modified(|latest| {
                let newer = revision > *latest;
                if newer {
                    *latest = revision;
                }
                newer
            });
        }
    }

    /// After news may have been missed: every followed game's revision from the store.
    async fn read_all_again(self: &Arc<Self>) {
        let followed: Vec<GameId> = lock(&self.games).keys().cloned().collect();
        for game in followed {
            match self.service.game_revision(&game).await {
                Ok(Some(revision)) => self.clone().revised(game, revision).await,
                Ok(None) => {}
                Err(e) => tracing::warn!(%game, "a followed game could not be read again: {e}"),
            }
        }
    }

    /// Starts following `game` in `language`, whose latest known revision is `revision`.
    pub(crate) fn follow(
        self: &Arc<Self>,
        game: &GameId,
        language: Language,
        revision: u64,
    ) -> Following {
        let slot = self.slot(game, language);
        let mut games = lock(&self.games);
        let sender = games
            .entry(game.clone())
            .or_insert_with(|| watch::Sender::new(revision));
        sender.send_if_modified(|latest| {
            let newer = revision > *latest;
            if newer {
                *latest = revision;
            }
            newer
        });
        Following {
            hub: self.clone(),
            game: game.clone(),
            slot,
            revisions: Some(sender.subscribe()),
        }
    }

    /// The place of `game`'s page in `language`.
    fn slot(&self, game: &GameId, language: Language) -> Arc<PageSlot> {
        let mut pages = lock(&self.pages);
        if pages.len() > IDLE_PAGES {
            let games = lock(&self.games);
            pages.retain(|(g, _), slot| games.contains_key(g) || Arc::strong_count(slot) > 1);
        }
        pages.entry((game.clone(), language)).or_default().clone()
    }

    /// The page of `game` in `language` at revision `at_least` or later, and at least as new
    /// as the newest revision known (built now if the one kept is older); `None` if there is
    /// no such game.
    pub(crate) async fn page(
        &self,
        game: &GameId,
        language: Language,
        at_least: u64,
    ) -> Result<Option<BuiltPage>, ServiceError> {
        // A followed game's signal knows its newest revision; for any other game the page
        // kept may be old (nobody heard its news), so the store says.
        let known = lock(&self.games).get(game).map(|sender| *sender.borrow());
        let at_least = match known {
            Some(revision) => at_least.max(revision),
            None => match self.service.game_revision(game).await? {
                Some(revision) => at_least.max(revision),
                None => return Ok(None),
            },
        };
        let slot = self.slot(game, language);
        if let Some(page) = slot.at_least(at_least) {
            return Ok(Some(page));
        }
        let _building = slot.building.lock().await;
        // Built by another request while this one waited.
        if let Some(page) = slot.at_least(at_least) {
            return Ok(Some(page));
        }
        let Some(page) = self.service.game_page(game, Some(language)).await? else {
            return Ok(None);
        };
        let json = json_for_html(&page);
        let built = BuiltPage {
            revision: page.revision,
            event: framed(page.revision, &json),
            json: Arc::from(json),
            page: Arc::new(page),
        };
        *lock(&slot.latest) = Some(built.clone());
        Ok(Some(built))
    }
}

/// JSON that may also stand inside an HTML `<script>` element: `<`, `>` and `&` are written
/// as escapes, so no name can close the element or open a comment.
pub(crate) fn json_for_html(value: &impl serde::Serialize) -> String {
    let json = serde_json::to_string(value).unwrap_or_else(|_| "null".to_owned());
    json.replace('<', "\\u003c")
        .replace('>', "\\u003e")
        .replace('&', "\\u0026")
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    match mutex.lock() {
        Ok(guard) => guard,
        Err(poisoned) => poisoned.into_inner(),
    }
}

#[cfg(test)]
mod tests {
    use super::json_for_html;

    #[test]
    fn json_in_a_page_cannot_close_its_script_element() {
        let json = json_for_html(&"</script><img src=x onerror=alert(1)>&amp;");
        assert!(!json.contains('<') && !json.contains('>') && !json.contains('&'));
        let back: String = serde_json::from_str(&json).expect("still JSON");
        assert_eq!(back, "</script><img src=x onerror=alert(1)>&amp;");
    }
}
