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
use crate::store::{Change, Claim, Deferral, PendingMessage, SentRecord, StoreError};

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

    fn claim_until(&self, lease: Duration) -> Claim {
        let now = unix_millis(SystemTime::now());
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
        let not_before = unix_millis(SystemTime::now())
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
            let notice_id = self
                .inner
                .store
                .allocate_outbox_ids(1)
                .await?
                .into_iter()
                .next()
                .ok_or_else(|| StoreError::Backend("no outbox id".to_owned()))?;
            change.outbox.push((
                notice_id,
                crate::store::OutboxRecord {
                    message: notice,
                    attempts: 0,
                    created_at: now,
                    fallback_chat: None,
                    picture: None,
                    not_before: 0,
                },
            ));
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
