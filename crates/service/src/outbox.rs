//! The service's side of delivery: handing out pending messages (with their pictures),
//! and recording what happened to them. An undeliverable private message makes the game's
//! chat hear that the player could not be reached privately, and how to fix it.

use std::time::{Duration, SystemTime};

use tokio::sync::watch;

use crate::context::{unix, unix_millis};
use crate::error::ServiceError;
use crate::ids::{ChatId, GameId, Platform, UserId};
use crate::message::{Destination, Message, MessageKind, OutboxEntry, OutboxId};
use crate::metrics::Event;
use crate::pictures;
use crate::service::{MAX_DELIVERY_ROUNDS, Service, commit_error, lock};
use crate::store::{Change, Claim, Coalescing, Deferral, OutboxRecord, PendingMessage, SentRecord};

/// Boards one covering board stands in for at most (with itself): a lane this far behind
/// is looked at again after it.
const MOST_COALESCED: usize = 64;

/// True if `later`, queued right after `earlier` in its lane, may stand in for it: boards of
/// the same game that name moves, to the same place, editing the same post (or none).
fn stands_in_for(later: &OutboxRecord, earlier: &OutboxRecord) -> bool {
    let (a, b) = (&later.message, &earlier.message);
    later.covers.is_some()
        && earlier.covers.is_some()
        && a.kind == MessageKind::Board
        && b.kind == MessageKind::Board
        && a.game.is_some()
        && a.game == b.game
        && a.to == b.to
        && a.replaces == b.replaces
}

impl Service {
    /// Undelivered messages of every platform (claimed or not), oldest first.
    pub async fn pending(&self, limit: usize) -> Result<Vec<OutboxEntry>, ServiceError> {
        let pending = self.inner.store.pending(limit).await?;
        self.with_pictures(pending).await
    }

    /// Undelivered messages of one platform (claimed or not), oldest first.
    pub async fn pending_for(
        &self,
        platform: Platform,
        limit: usize,
    ) -> Result<Vec<OutboxEntry>, ServiceError> {
        let mut pending = self.inner.store.pending(usize::MAX).await?;
        pending.retain(|p| p.entry.message.to.platform() == Some(platform));
        pending.truncate(limit);
        self.with_pictures(pending).await
    }

    /// Claims the next message of up to `limit` free delivery lanes of `platform` for this
    /// process, for `lease` (see [`GameStore::claim`](crate::store::GameStore::claim)), with
    /// their pictures.
    pub async fn claim_for(
        &self,
        platform: Platform,
        lease: Duration,
        limit: usize,
    ) -> Result<Vec<OutboxEntry>, ServiceError> {
        let claimed = self.claim_pending_for(platform, lease, limit).await?;
        self.with_pictures(claimed).await
    }

    /// [`Service::claim_for`] without drawing the pictures: the delivery loop draws each in
    /// its lane's own task ([`Service::prepare`]), side by side, while its claim is renewed.
    pub async fn claim_pending_for(
        &self,
        platform: Platform,
        lease: Duration,
        limit: usize,
    ) -> Result<Vec<PendingMessage>, ServiceError> {
        let claim = self.claim_until(lease);
        let claimed = self
            .inner
            .store
            .claim(Some(platform), &claim, limit)
            .await?;
        for taken in &claimed {
            if let Some(from) = &taken.taken_from {
                tracing::info!(id = %taken.entry.id, %from, "took over a lapsed delivery claim");
                self.inner.metrics.claim_taken_over(platform);
            }
        }
        Ok(claimed)
    }

    /// How long until a lane of `platform` that this process is not delivering may next be
    /// claimed (another holder's claim lapses, a deferral ends), if the store can tell.
    pub(crate) async fn next_claimable_in(&self, platform: Platform) -> Option<Duration> {
        let claim = self.claim_until(Duration::ZERO);
        match self
            .inner
            .store
            .next_claimable(Some(platform), &claim)
            .await
        {
            Ok(at) => at.map(|at| Duration::from_millis(at.saturating_sub(claim.now))),
            Err(error) => {
                tracing::debug!(%error, %platform, "cannot tell when a lane is next free");
                None
            }
        }
    }

    /// Extends this process's claims on `ids` for `lease` from now (the delivery loop's
    /// heartbeat). Returns the ids still held.
    pub async fn renew_claims(
        &self,
        ids: &[OutboxId],
        lease: Duration,
    ) -> Result<Vec<OutboxId>, ServiceError> {
        let claim = self.claim_until(lease);
        Ok(self.inner.store.renew(&claim, ids).await?)
    }

    /// True while message `id` is undelivered.
    pub(crate) async fn is_undelivered(&self, id: OutboxId) -> Result<bool, ServiceError> {
        Ok(self.inner.store.outbox_record(id).await?.is_some())
    }

    /// Now on the service's clock ([`ServiceConfig::wall_clock`](crate::ServiceConfig)), in
    /// milliseconds: what delivery claims, deferrals and a live game's board holds are all
    /// measured by, so that they agree (tests run them on a fake clock).
    pub(crate) fn delivery_now(&self) -> crate::store::UnixMillis {
        unix_millis(self.inner.config.wall_clock.now())
    }

    fn claim_until(&self, lease: Duration) -> Claim {
        let now = self.delivery_now();
        Claim {
            holder: self.inner.instance.clone(),
            now,
            until: now.saturating_add(u64::try_from(lease.as_millis()).unwrap_or(u64::MAX)),
        }
    }

    /// Puts the pictures into pending messages.
    async fn with_pictures(
        &self,
        pending: Vec<PendingMessage>,
    ) -> Result<Vec<OutboxEntry>, ServiceError> {
        let mut entries = Vec::with_capacity(pending.len());
        for message in pending {
            entries.push(self.prepare(message).await?);
        }
        Ok(entries)
    }

    /// A claimed message with its picture: from memory, or drawn again from its recipe.
    pub async fn prepare(&self, pending: PendingMessage) -> Result<OutboxEntry, ServiceError> {
        let PendingMessage {
            mut entry, picture, ..
        } = pending;
        if let Some(spec) = picture {
            let cached = lock(&self.inner.pictures).get(entry.id);
            entry.message.image = match cached {
                Some(image) => Some(image),
                None => {
                    let image = pictures::redraw(self.inner.store.as_ref(), &spec).await?;
                    if let Some(image) = &image {
                        lock(&self.inner.pictures).insert(entry.id, image.clone());
                    }
                    image
                }
            };
        }
        Ok(entry)
    }

    /// Coalescing: when boards of one game wait one after the other at the head of a lane
    /// (a fast game in a chat the platform lets the bot post to only so often), the newest
    /// stands in for them all. Its caption names every move of the boards it stands in for,
    /// and they are done with, unsent, in the same durable step that moves the claim from
    /// `head` to it (see [`GameStore::coalesce`](crate::store::GameStore::coalesce)), so a
    /// crash right after leaves the covering board pending for whoever takes the lane.
    ///
    /// Only boards that name moves are coalesced (never a game's first board, with its
    /// commitment), only with boards of the same game for the same destination that edit
    /// the same post (a new post each in per-move mode, the one board in edited mode), and
    /// only consecutive ones: anything else in the lane (a result, a draw offer, any text)
    /// ends the run and keeps its place. Private messages are other lanes: never skipped.
    ///
    /// Returns the covering board, claimed for `lease` in place of `head`; `None` to deliver
    /// `head` as it is. [`Service::boards_to_coalesce`] and [`Service::coalesce`] in one.
    pub async fn coalesce_boards(
        &self,
        head: &PendingMessage,
        lease: Duration,
    ) -> Result<Option<PendingMessage>, ServiceError> {
        match self.boards_to_coalesce(head).await? {
            Some(coalescing) => self.coalesce(&coalescing, lease).await,
            None => Ok(None),
        }
    }

    /// The boards the newest of them may stand in for, starting with the claimed `head`, and
    /// the covering board's record with its caption naming every move; `None` if `head` goes
    /// as it is. Nothing changes until [`Service::coalesce`].
    pub async fn boards_to_coalesce(
        &self,
        head: &PendingMessage,
    ) -> Result<Option<Coalescing>, ServiceError> {
        let message = &head.entry.message;
        if message.kind != MessageKind::Board || message.game.is_none() {
            return Ok(None);
        }
        let mut lane = self
            .inner
            .store
            .lane_from(head.entry.id, MOST_COALESCED)
            .await?
            .into_iter();
        let Some((first_id, first)) = lane.next() else {
            return Ok(None);
        };
        if first_id != head.entry.id || first.covers.is_none() {
            return Ok(None);
        }
        let now = self.delivery_now();
        let mut run = vec![(first_id, first)];
        for (id, record) in lane {
            // A live game's board held for its time goes then, not with this one: the
            // group gets at most one board of the game per interval (`live_boards.rs`).
            if !stands_in_for(&record, &run[0].1) || crate::live_boards::is_held(&record, now) {
                break;
            }
            run.push((id, record));
        }
        let Some((covering, mut record)) = run.pop().filter(|_| !run.is_empty()) else {
            return Ok(None);
        };
        let Some(game) = record.message.game.clone() else {
            return Ok(None);
        };
        let Some(covers) = record.covers.as_mut() else {
            return Ok(None);
        };
        let mut moves: Vec<String> = run
            .iter()
            .filter_map(|(_, r)| r.covers.as_ref())
            .flat_map(|c| c.moves.iter().cloned())
            .collect();
        moves.append(&mut covers.moves);
        covers.moves = moves;
        record.message.text =
            crate::lifecycle::moves_caption(&self.inner.translations, &game, covers);
        Ok(Some(Coalescing {
            skipped: run.iter().map(|(id, _)| *id).collect(),
            covering,
            record,
        }))
    }

    /// Carries out `coalescing` (from [`Service::boards_to_coalesce`]) durably: the covering
    /// board, claimed for `lease` in place of the lane's head, or `None` if the lane changed
    /// meanwhile or the head's claim was lost (deliver the head as it is, or nothing if it
    /// went).
    pub async fn coalesce(
        &self,
        coalescing: &Coalescing,
        lease: Duration,
    ) -> Result<Option<PendingMessage>, ServiceError> {
        let claimed = self
            .inner
            .store
            .coalesce(&self.claim_until(lease), coalescing)
            .await?;
        if let Some(covering) = &claimed {
            let mut pictures = lock(&self.inner.pictures);
            for id in &coalescing.skipped {
                pictures.remove(*id);
            }
            drop(pictures);
            if let Some(platform) = covering.entry.message.to.platform() {
                self.inner
                    .metrics
                    .boards_coalesced(platform, coalescing.skipped.len());
            }
            tracing::debug!(
                skipped = coalescing.skipped.len(),
                covering = %covering.entry.id,
                "boards waiting in a row: the newest goes out in their place"
            );
        }
        Ok(claimed)
    }

    /// A watch that changes whenever messages are queued (delivery loops wait on it).
    pub fn outbox_changes(&self) -> watch::Receiver<u64> {
        self.inner.outbox_signal.subscribe()
    }

    /// Marks a message delivered, remembering the platform's reference for later edits.
    /// Durable before it returns: once the platform has answered, a crash must not send the
    /// message again.
    pub async fn delivered(
        &self,
        id: OutboxId,
        platform_message_ref: Option<String>,
    ) -> Result<(), ServiceError> {
        let change = Change {
            sent: vec![(
                id,
                SentRecord {
                    platform_ref: platform_message_ref,
                    at: unix(SystemTime::now()),
                },
            )],
            durable: true,
            ..Change::default()
        };
        // A private message got through: the player can be reached again, so a later failure
        // is worth a notice again.
        let record = self.inner.store.outbox_record(id).await?;
        if let Some(record) = &record {
            self.inner
                .metrics
                .delivered_since(&record.message.to, record.created_at);
        }
        let reached = match record {
            Some(record) => match (&record.message.to, &record.message.game) {
                (Destination::Private(user), Some(game)) => Some((user.clone(), game.clone())),
                _ => None,
            },
            None => None,
        };
        if let Some((user, game)) = reached {
            for _ in 0..3 {
                let mut with_game = change.clone();
                if !self
                    .mark_unreachable(&mut with_game, &user, &game, false)
                    .await?
                {
                    break;
                }
                match self.inner.store.commit(with_game).await {
                    Ok(()) => {
                        lock(&self.inner.pictures).remove(id);
                        self.inner.metrics.count(Event::Delivered);
                        return Ok(());
                    }
                    Err(crate::store::CommitError::Conflict) => continue,
                    Err(e) => return Err(commit_error(e)),
                }
            }
        }
        self.inner
            .store
            .commit(change)
            .await
            .map_err(commit_error)?;
        lock(&self.inner.pictures).remove(id);
        self.inner.metrics.count(Event::Delivered);
        Ok(())
    }

    /// Records a failed delivery round: the message's lane waits `pause` (nobody else's
    /// does); after too many rounds the message is dropped (a private one as
    /// [`Service::undeliverable`]). Returns true if it was dropped.
    pub async fn delivery_failed(
        &self,
        id: OutboxId,
        pause: Duration,
    ) -> Result<bool, ServiceError> {
        self.inner.metrics.count(Event::DeliveryFailure);
        let Some(record) = self.inner.store.outbox_record(id).await? else {
            return Ok(true);
        };
        let attempts = record.attempts + 1;
        if attempts >= MAX_DELIVERY_ROUNDS {
            self.undeliverable(id).await?;
            return Ok(true);
        }
        let not_before = self
            .delivery_now()
            .saturating_add(u64::try_from(pause.as_millis()).unwrap_or(u64::MAX));
        let change = Change {
            deferred: vec![(
                id,
                Deferral {
                    attempts,
                    not_before,
                },
            )],
            ..Change::default()
        };
        self.inner
            .store
            .commit(change)
            .await
            .map_err(commit_error)?;
        Ok(false)
    }

    /// A message that cannot reach its destination (DMs closed, bot blocked or removed). It
    /// is dropped; for a private message the game's chat is told that the player could not be
    /// reached privately and how to fix it (never what the message said).
    pub async fn undeliverable(&self, id: OutboxId) -> Result<(), ServiceError> {
        self.inner.metrics.count(Event::Undeliverable);
        let Some(record) = self.inner.store.outbox_record(id).await? else {
            return Ok(());
        };
        let now = unix(SystemTime::now());
        for _ in 0..3 {
            let mut change = Change {
                sent: vec![(
                    id,
                    SentRecord {
                        platform_ref: None,
                        at: now,
                    },
                )],
                durable: true,
                ..Change::default()
            };
            // Once per game and player until a private message gets through.
            let already_told = match (&record.message.to, &record.message.game) {
                (Destination::Private(user), Some(game)) => {
                    !self.mark_unreachable(&mut change, user, game, true).await?
                }
                _ => false,
            };
            if !already_told {
                self.add_unreachable_notice(&mut change, &record, now)
                    .await?;
            }
            lock(&self.inner.pictures).remove(id);
            match self
                .commit(change, Vec::new(), Vec::new(), Vec::new())
                .await
            {
                Ok(()) => return Ok(()),
                Err(crate::store::CommitError::Conflict) => continue,
                Err(e) => return Err(commit_error(e)),
            }
        }
        Err(commit_error(crate::store::CommitError::Conflict))
    }

    /// Sets (`told`) or clears the game's note that `user` was told to be unreachable,
    /// adding the game to `change`; false if the note already says so (nothing to change).
    async fn mark_unreachable(
        &self,
        change: &mut Change,
        user: &UserId,
        game: &GameId,
        told: bool,
    ) -> Result<bool, ServiceError> {
        let Some(mut record) = self.inner.store.game(game).await? else {
            return Ok(!told);
        };
        let Some(seat) = record.seat_of(user) else {
            return Ok(!told);
        };
        let noted = &mut record.prompts.unreachable_told;
        if noted.contains(&seat) == told {
            return Ok(false);
        }
        if told {
            noted.push(seat);
        } else {
            noted.retain(|s| *s != seat);
        }
        record.revision += 1;
        change.games.push(record);
        Ok(true)
    }

    /// Adds the chat notice for an undeliverable private message to `change`.
    async fn add_unreachable_notice(
        &self,
        change: &mut Change,
        record: &crate::store::OutboxRecord,
        now: crate::store::UnixTime,
    ) -> Result<(), ServiceError> {
        if let (Destination::Private(user), Some(chat)) =
            (&record.message.to, &record.fallback_chat)
        {
            let notice = self
                .unreachable_notice(user, chat, record.message.game.as_ref())
                .await?;
            let notice_id = crate::store::one_outbox_id(self.inner.store.as_ref()).await?;
            change
                .outbox
                .push((notice_id, crate::store::OutboxRecord::new(notice, now)));
        }
        Ok(())
    }

    async fn unreachable_notice(
        &self,
        user: &UserId,
        chat: &ChatId,
        game: Option<&GameId>,
    ) -> Result<Message, ServiceError> {
        let store = &self.inner.store;
        let record = match game {
            Some(game) => store.game(game).await?,
            None => None,
        };
        let mut name = record.and_then(|record| {
            record
                .seat_of(user)
                .map(|seat| record.player(seat).name.clone())
        });
        if name.is_none() {
            name = store.player(user).await.ok().flatten().map(|p| p.name);
        }
        let name = name.unwrap_or_else(|| user.id.clone());
        let language = store
            .chat(chat)
            .await?
            .map(|c| c.settings.language)
            .unwrap_or(self.inner.config.default_language);
        let fix_key = match user.platform {
            Platform::Telegram => "unreachable-fix-telegram",
            Platform::Discord => "unreachable-fix-discord",
            Platform::Local => "unreachable-fix-local",
        };
        let bot = self
            .inner
            .config
            .bot_username
            .clone()
            .unwrap_or_else(|| "the bot".to_owned());
        let tr = &self.inner.translations;
        let fix = tr.text(language, fix_key, &[("bot", bot.as_str().into())]);
        let text = tr.text(
            language,
            "unreachable-player",
            &[
                ("player", name.as_str().into()),
                ("fix", fix.as_str().into()),
            ],
        );
        let mut message = Message::text(Destination::Chat(chat.clone()), MessageKind::Notice, text)
            .with_mentions(vec![user.clone()]);
        message.game = game.cloned();
        Ok(message)
    }
}
