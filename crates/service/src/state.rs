//! The state every clone of a [`Service`](crate::Service) shares: the store, configuration,
//! translations, per-game locks, counters, the randomness of deals and ids, and the caches
//! (rebuilt games, drawn pictures). Below the request context, which reads through it, and
//! below the service, which owns it.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};

use jieqi_rules::Game;
use tokio::sync::{OwnedMutexGuard, watch};

use crate::config::ServiceConfig;
use crate::fairness::{Randomness, Secret};
use crate::i18n::Translations;
use crate::ids::{ChallengeId, GameId};
use crate::metrics::Metrics;
use crate::pictures::PictureCache;
use crate::replay::LoadedGame;
use crate::store::{GameStore, MeasuredStore};
pub(crate) use crate::sync::lock;

/// Games kept rebuilt in memory (a cache: games are always loadable from the store).
const CACHED_GAMES: usize = 512;

/// The shared state behind every clone of a [`Service`].
pub(crate) struct Inner {
    pub store: Arc<dyn GameStore>,
    pub config: ServiceConfig,
    pub translations: Translations,
    pub locks: Locks,
    pub metrics: Arc<Metrics>,
    randomness: Mutex<Randomness>,
    cache: Mutex<HashMap<GameId, (u64, Game)>>,
    /// Drawn pictures of undelivered messages.
    pub pictures: Mutex<PictureCache>,
    /// Bumped after every commit that queued messages (wakes delivery loops).
    pub outbox_signal: watch::Sender<u64>,
    /// Games where this process's engine is choosing a move.
    pub thinking: Mutex<HashSet<GameId>>,
    /// This process run's name in delivery claims: its process id (so an operator can tell
    /// whose claims they are) and a random part (so two runs never share it).
    pub instance: String,
    /// Reviews waiting and running (`/review`).
    pub reviews: crate::review_queue::ReviewRunner,
    /// The offset from this process's clock to the store's: live games' instants.
    pub shared_clock: crate::shared_clock::SharedClock,
    /// The flag timer of each live game this process committed last: the deadline it waits
    /// for, and how to stop it (a newer commit re-arms it).
    pub flag_timers: Mutex<HashMap<GameId, (jieqi_clock::Timestamp, tokio::task::AbortHandle)>>,
}

impl Inner {
    pub(crate) fn new(store: Arc<dyn GameStore>, config: ServiceConfig) -> Inner {
        let randomness = Randomness::new(&config.deal_source);
        let metrics = Arc::new(Metrics::default());
        Inner {
            // Every store call is timed (`jieqi_store_call_duration_seconds`).
            store: Arc::new(MeasuredStore::new(store, Arc::clone(&metrics))),
            config,
            translations: Translations::load(),
            locks: Locks::default(),
            metrics,
            randomness: Mutex::new(randomness),
            cache: Mutex::new(HashMap::new()),
            pictures: Mutex::new(PictureCache::default()),
            outbox_signal: watch::Sender::new(0),
            thinking: Mutex::new(HashSet::new()),
            instance: format!("{}-{:016x}", std::process::id(), rand::random::<u64>()),
            reviews: crate::review_queue::ReviewRunner::default(),
            shared_clock: crate::shared_clock::SharedClock::default(),
            flag_timers: Mutex::new(HashMap::new()),
        }
    }

    /// Now on the shared clock live games are timed by.
    pub(crate) fn clock_now(&self) -> jieqi_clock::Timestamp {
        self.shared_clock.at(self.config.wall_clock.now())
    }

    pub(crate) fn secret(&self, variant: jieqi_rules::Variant) -> Secret {
        lock(&self.randomness).secret(variant)
    }

    pub(crate) fn game_id(&self) -> GameId {
        lock(&self.randomness).game_id()
    }

    pub(crate) fn challenge_id(&self) -> ChallengeId {
        lock(&self.randomness).challenge_id()
    }

    pub(crate) fn tournament_id(&self) -> crate::ids::TournamentId {
        lock(&self.randomness).tournament_id()
    }

    pub(crate) fn coin(&self) -> bool {
        lock(&self.randomness).coin()
    }

    pub(crate) fn engine_seed(&self) -> u64 {
        lock(&self.randomness).engine_seed()
    }

    pub(crate) fn cached_game(&self, id: &GameId, revision: u64) -> Option<Game> {
        let cache = lock(&self.cache);
        cache
            .get(id)
            .filter(|(r, _)| *r == revision)
            .map(|(_, g)| g.clone())
    }

    pub(crate) fn remember(&self, loaded: Vec<LoadedGame>) {
        let mut cache = lock(&self.cache);
        for LoadedGame { record, game } in loaded {
            if !record.is_active() {
                cache.remove(&record.id);
                continue;
            }
            if cache.len() >= CACHED_GAMES && !cache.contains_key(&record.id) {
                // Any entry will do: a miss costs one replay.
                if let Some(evict) = cache.keys().next().cloned() {
                    cache.remove(&evict);
                }
            }
            cache.insert(record.id, (record.revision, game));
        }
    }
}

/// A shared map of async mutexes, one per key, dropped when nobody holds them.
#[derive(Debug, Default)]
pub(crate) struct Locks {
    map: std::sync::Mutex<std::collections::HashMap<String, Arc<tokio::sync::Mutex<()>>>>,
}

impl Locks {
    pub(crate) async fn lock(&self, key: String) -> OwnedMutexGuard<()> {
        let mutex = {
            let mut map = match self.map.lock() {
                Ok(map) => map,
                Err(poisoned) => poisoned.into_inner(),
            };
            if map.len() > 1024 {
                // Only this map holds an unused lock: drop those.
                map.retain(|_, m| Arc::strong_count(m) > 1);
            }
            map.entry(key).or_default().clone()
        };
        mutex.lock_owned().await
    }
}
