//! A real store that can be held: while a hold is set, every request's first read (its
//! earlier answer and its chat) waits that long first, as a busy database would. For answers
//! that come later than Discord's first-answer window.

use std::sync::Mutex;
use std::time::Duration;

use async_trait::async_trait;
use jieqi_service::store::{
    AnswerRecord, ChallengeRecord, Change, ChatRecord, Claim, CommitError, Due, GameRecord,
    Leadership, OutboxRecord, PendingMessage, PlayerRecord, RequestKey, UnixTime,
};
use jieqi_service::{
    ChallengeId, ChatId, GameId, GameStore, OutboxId, Platform, SledStore, StoreError, UserId,
};

#[derive(Debug)]
pub struct HeldStore {
    pub inner: SledStore,
    hold: Mutex<Duration>,
}

impl HeldStore {
    pub fn new(inner: SledStore) -> HeldStore {
        HeldStore {
            inner,
            hold: Mutex::new(Duration::ZERO),
        }
    }

    /// From now on each request waits `hold` at its first read (zero: none).
    pub fn hold(&self, hold: Duration) {
        *self.hold.lock().unwrap_or_else(|p| p.into_inner()) = hold;
    }

    async fn wait(&self) {
        let hold = *self.hold.lock().unwrap_or_else(|p| p.into_inner());
        if !hold.is_zero() {
            tokio::time::sleep(hold).await;
        }
    }
}

#[async_trait]
impl GameStore for HeldStore {
    async fn game(&self, id: &GameId) -> Result<Option<GameRecord>, StoreError> {
        self.inner.game(id).await
    }
    async fn challenge(&self, id: &ChallengeId) -> Result<Option<ChallengeRecord>, StoreError> {
        self.inner.challenge(id).await
    }
    async fn chat(&self, chat: &ChatId) -> Result<Option<ChatRecord>, StoreError> {
        self.inner.chat(chat).await
    }
    async fn player(&self, user: &UserId) -> Result<Option<PlayerRecord>, StoreError> {
        self.inner.player(user).await
    }
    async fn answer(&self, key: &RequestKey) -> Result<Option<AnswerRecord>, StoreError> {
        self.inner.answer(key).await
    }
    async fn answer_and_chat(
        &self,
        key: &RequestKey,
        chat: &ChatId,
    ) -> Result<(Option<AnswerRecord>, Option<ChatRecord>), StoreError> {
        self.wait().await;
        self.inner.answer_and_chat(key, chat).await
    }
    async fn due(&self, now: UnixTime, limit: usize) -> Result<Vec<Due>, StoreError> {
        self.inner.due(now, limit).await
    }
    async fn claim(
        &self,
        platform: Option<Platform>,
        claim: &Claim,
        limit: usize,
    ) -> Result<Vec<PendingMessage>, StoreError> {
        self.inner.claim(platform, claim, limit).await
    }
    async fn renew(&self, claim: &Claim, ids: &[OutboxId]) -> Result<Vec<OutboxId>, StoreError> {
        self.inner.renew(claim, ids).await
    }
    async fn pending(&self, limit: usize) -> Result<Vec<PendingMessage>, StoreError> {
        self.inner.pending(limit).await
    }
    async fn outbox_record(&self, id: OutboxId) -> Result<Option<OutboxRecord>, StoreError> {
        self.inner.outbox_record(id).await
    }
    async fn allocate_outbox_ids(&self, n: usize) -> Result<Vec<OutboxId>, StoreError> {
        self.inner.allocate_outbox_ids(n).await
    }
    async fn commit(&self, change: Change) -> Result<(), CommitError> {
        self.inner.commit(change).await
    }
    async fn prune(&self, before: UnixTime) -> Result<usize, StoreError> {
        self.inner.prune(before).await
    }
    async fn flush(&self) -> Result<(), StoreError> {
        self.inner.flush().await
    }
    async fn lead(&self, role: &str) -> Result<Option<Leadership>, StoreError> {
        self.inner.lead(role).await
    }
    async fn review(
        &self,
        game: &jieqi_service::GameId,
    ) -> Result<Option<jieqi_service::store::ReviewRecord>, StoreError> {
        self.inner.review(game).await
    }
    async fn queued_reviews(
        &self,
        limit: usize,
    ) -> Result<Vec<jieqi_service::store::ReviewRequest>, StoreError> {
        self.inner.queued_reviews(limit).await
    }
    async fn claim_review(
        &self,
        game: &jieqi_service::GameId,
        claim: &Claim,
    ) -> Result<jieqi_service::store::ReviewClaim, StoreError> {
        self.inner.claim_review(game, claim).await
    }
    fn game_changes(&self) -> tokio::sync::broadcast::Receiver<jieqi_service::GameChange> {
        self.inner.game_changes()
    }
}
