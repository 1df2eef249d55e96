//! A [`GameStore`] that times every call of the store it wraps, by operation, into the
//! service's metrics (`jieqi_store_call_duration_seconds`): on PostgreSQL each call is one
//! round trip (a commit one pipelined flight), so an operator sees how many a request costs
//! and how long they take, on any backend, without either backend knowing about metrics.
//!
//! Every method of the trait is forwarded, those with a default body too: a method left to
//! its default here would hide the wrapped store's own.

use std::sync::Arc;
use std::time::Instant;

use async_trait::async_trait;

use super::{Allowance, Spend};
use super::{
    AnswerRecord, ChallengeRecord, Change, ChatRecord, Claim, Coalescing, CommitError, Due,
    GameRecord, GameStore, LaunchRecord, Leadership, OutboxRecord, PendingMessage, PlayerRecord,
    RequestKey, ReviewClaim, ReviewRecord, ReviewRequest, StoreError, UnixMillis, UnixTime,
};
use crate::ids::{ActivityInstanceId, ChallengeId, ChatId, GameId, Platform, UserId};
use crate::message::OutboxId;
use crate::metrics::Metrics;

/// The store, with its calls timed.
#[derive(Debug)]
pub(crate) struct MeasuredStore {
    store: Arc<dyn GameStore>,
    metrics: Arc<Metrics>,
}

impl MeasuredStore {
    pub(crate) fn new(store: Arc<dyn GameStore>, metrics: Arc<Metrics>) -> MeasuredStore {
        MeasuredStore { store, metrics }
    }

    async fn timed<T>(&self, operation: &'static str, call: impl Future<Output = T>) -> T {
        let started = Instant::now();
        let result = call.await;
        self.metrics.store_call(operation, started.elapsed());
        result
    }
}

#[async_trait]
impl GameStore for MeasuredStore {
    async fn game(&self, id: &GameId) -> Result<Option<GameRecord>, StoreError> {
        self.timed("game", self.store.game(id)).await
    }
    async fn challenge(&self, id: &ChallengeId) -> Result<Option<ChallengeRecord>, StoreError> {
        self.timed("challenge", self.store.challenge(id)).await
    }
    async fn chat(&self, chat: &ChatId) -> Result<Option<ChatRecord>, StoreError> {
        self.timed("chat", self.store.chat(chat)).await
    }
    async fn player(&self, user: &UserId) -> Result<Option<PlayerRecord>, StoreError> {
        self.timed("player", self.store.player(user)).await
    }
    async fn tournament(
        &self,
        id: &jieqi_store::ids::TournamentId,
    ) -> Result<Option<jieqi_store::TournamentRecord>, StoreError> {
        self.timed("tournament", self.store.tournament(id)).await
    }
    async fn chat_tournaments(
        &self,
        chat: &ChatId,
    ) -> Result<Vec<jieqi_store::TournamentRecord>, StoreError> {
        self.timed("chat_tournaments", self.store.chat_tournaments(chat))
            .await
    }
    async fn unfinished_tournaments(
        &self,
    ) -> Result<Vec<jieqi_store::TournamentRecord>, StoreError> {
        self.timed(
            "unfinished_tournaments",
            self.store.unfinished_tournaments(),
        )
        .await
    }
    async fn answer(&self, key: &RequestKey) -> Result<Option<AnswerRecord>, StoreError> {
        self.timed("answer", self.store.answer(key)).await
    }
    async fn answer_and_chat(
        &self,
        key: &RequestKey,
        chat: &ChatId,
    ) -> Result<(Option<AnswerRecord>, Option<ChatRecord>), StoreError> {
        self.timed("answer_and_chat", self.store.answer_and_chat(key, chat))
            .await
    }
    async fn due(&self, now: UnixTime, limit: usize) -> Result<Vec<Due>, StoreError> {
        self.timed("due", self.store.due(now, limit)).await
    }
    async fn claim(
        &self,
        platform: Option<Platform>,
        claim: &Claim,
        limit: usize,
    ) -> Result<Vec<PendingMessage>, StoreError> {
        self.timed("claim", self.store.claim(platform, claim, limit))
            .await
    }
    async fn next_claimable(
        &self,
        platform: Option<Platform>,
        claim: &Claim,
    ) -> Result<Option<UnixMillis>, StoreError> {
        self.timed("next_claimable", self.store.next_claimable(platform, claim))
            .await
    }
    async fn store_time(&self) -> Result<Option<UnixMillis>, StoreError> {
        self.timed("store_time", self.store.store_time()).await
    }
    async fn pending(&self, limit: usize) -> Result<Vec<PendingMessage>, StoreError> {
        self.timed("pending", self.store.pending(limit)).await
    }
    async fn lane_from(
        &self,
        head: OutboxId,
        limit: usize,
    ) -> Result<Vec<(OutboxId, OutboxRecord)>, StoreError> {
        self.timed("lane_from", self.store.lane_from(head, limit))
            .await
    }
    async fn coalesce(
        &self,
        claim: &Claim,
        coalescing: &Coalescing,
    ) -> Result<Option<PendingMessage>, StoreError> {
        self.timed("coalesce", self.store.coalesce(claim, coalescing))
            .await
    }
    async fn outbox_record(&self, id: OutboxId) -> Result<Option<OutboxRecord>, StoreError> {
        self.timed("outbox_record", self.store.outbox_record(id))
            .await
    }
    async fn allocate_outbox_ids(&self, n: usize) -> Result<Vec<OutboxId>, StoreError> {
        self.timed("allocate_outbox_ids", self.store.allocate_outbox_ids(n))
            .await
    }
    async fn commit(&self, change: Change) -> Result<(), CommitError> {
        self.timed("commit", self.store.commit(change)).await
    }
    async fn prune(&self, before: UnixTime) -> Result<usize, StoreError> {
        self.timed("prune", self.store.prune(before)).await
    }
    async fn record_launch(
        &self,
        instance: &ActivityInstanceId,
        launch: &LaunchRecord,
    ) -> Result<(), StoreError> {
        self.timed("record_launch", self.store.record_launch(instance, launch))
            .await
    }
    async fn launch(
        &self,
        instance: &ActivityInstanceId,
    ) -> Result<Option<LaunchRecord>, StoreError> {
        self.timed("launch", self.store.launch(instance)).await
    }
    async fn reclaim(&self) -> Result<bool, StoreError> {
        self.timed("reclaim", self.store.reclaim()).await
    }
    async fn flush(&self) -> Result<(), StoreError> {
        self.timed("flush", self.store.flush()).await
    }
    async fn spend(&self, allowances: &[Allowance]) -> Result<Spend, StoreError> {
        self.timed("spend", self.store.spend(allowances)).await
    }
    async fn lead(&self, role: &str) -> Result<Option<Leadership>, StoreError> {
        self.timed("lead", self.store.lead(role)).await
    }
    async fn renew(&self, claim: &Claim, ids: &[OutboxId]) -> Result<Vec<OutboxId>, StoreError> {
        self.timed("renew", self.store.renew(claim, ids)).await
    }
    async fn review(&self, game: &GameId) -> Result<Option<ReviewRecord>, StoreError> {
        self.timed("review", self.store.review(game)).await
    }
    async fn queued_reviews(&self, limit: usize) -> Result<Vec<ReviewRequest>, StoreError> {
        self.timed("queued_reviews", self.store.queued_reviews(limit))
            .await
    }
    async fn claim_review(&self, game: &GameId, claim: &Claim) -> Result<ReviewClaim, StoreError> {
        self.timed("claim_review", self.store.claim_review(game, claim))
            .await
    }
    fn fleet(&self) -> u8 {
        self.store.fleet()
    }
    fn game_changes(&self) -> tokio::sync::broadcast::Receiver<super::GameChange> {
        self.store.game_changes()
    }
}
