//! A real store that can be held: while a hold is set, every request's first read (its
//! earlier answer and its chat) waits that long first, as a busy database would. For answers
//! that come later than Discord's first-answer window. It can also hang a process right
//! after a request's commit: the change reaches the store, and the process never hears back,
//! as one killed at that moment. And it can be slow to record deferrals only, as a store
//! slower than Discord's answer to the deferral.

use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use async_trait::async_trait;
use jieqi_service::ids::ActivityInstanceId;
use jieqi_service::store::{
    AnswerRecord, ChallengeRecord, Change, ChatRecord, Claim, Coalescing, CommitError, Due,
    GameRecord, LaunchRecord, Leadership, OutboxRecord, PendingMessage, PlayerRecord, RequestKey,
    UnixMillis, UnixTime,
};
use jieqi_service::{
    ChallengeId, ChatId, GameId, GameStore, OutboxId, Platform, StoreError, UserId,
};
use tokio::sync::watch;

#[derive(Debug)]
pub struct HeldStore {
    pub inner: Arc<dyn GameStore>,
    hold: Mutex<Duration>,
    hold_deferrals: Mutex<Duration>,
    hang_after_answer: AtomicBool,
    /// Request keys whose commit went through and then hung.
    hung: watch::Sender<Vec<String>>,
}

impl HeldStore {
    pub fn new(inner: impl GameStore + 'static) -> HeldStore {
        HeldStore::over(Arc::new(inner))
    }

    pub fn over(inner: Arc<dyn GameStore>) -> HeldStore {
        HeldStore {
            inner,
            hold: Mutex::new(Duration::ZERO),
            hold_deferrals: Mutex::new(Duration::ZERO),
            hang_after_answer: AtomicBool::new(false),
            hung: watch::Sender::new(Vec::new()),
        }
    }

    /// From now on each request waits `hold` at its first read (zero: none).
    pub fn hold(&self, hold: Duration) {
        *self.hold.lock().unwrap_or_else(|p| p.into_inner()) = hold;
    }

    /// From now on a commit that records a deferred reply waits `hold` first.
    pub fn hold_deferrals(&self, hold: Duration) {
        *self
            .hold_deferrals
            .lock()
            .unwrap_or_else(|p| p.into_inner()) = hold;
    }

    /// From now on a commit that answers a request is committed, and then never returns.
    pub fn hang_after_answers(&self) {
        self.hang_after_answer.store(true, Ordering::SeqCst);
    }

    /// Waits until a request's commit went through and hung; returns its key.
    pub async fn hung_after_answer(&self) -> String {
        let mut hung = self.hung.subscribe();
        let keys = hung
            .wait_for(|keys| !keys.is_empty())
            .await
            .expect("the store is alive");
        keys[0].clone()
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
    async fn tournament(
        &self,
        id: &jieqi_service::ids::TournamentId,
    ) -> Result<Option<jieqi_service::store::TournamentRecord>, StoreError> {
        self.inner.tournament(id).await
    }
    async fn chat_tournaments(
        &self,
        chat: &ChatId,
    ) -> Result<Vec<jieqi_service::store::TournamentRecord>, StoreError> {
        self.inner.chat_tournaments(chat).await
    }
    async fn unfinished_tournaments(
        &self,
    ) -> Result<Vec<jieqi_service::store::TournamentRecord>, StoreError> {
        self.inner.unfinished_tournaments().await
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
    // Every method with a default is passed on too: the defaults do less than the real store
    // (boards never coalesced, a dead process's lanes taken over only at the next poll).
    async fn next_claimable(
        &self,
        platform: Option<Platform>,
        claim: &Claim,
    ) -> Result<Option<UnixMillis>, StoreError> {
        self.inner.next_claimable(platform, claim).await
    }
    async fn renew(&self, claim: &Claim, ids: &[OutboxId]) -> Result<Vec<OutboxId>, StoreError> {
        self.inner.renew(claim, ids).await
    }
    async fn lane_from(
        &self,
        head: OutboxId,
        limit: usize,
    ) -> Result<Vec<(OutboxId, OutboxRecord)>, StoreError> {
        self.inner.lane_from(head, limit).await
    }
    async fn coalesce(
        &self,
        claim: &Claim,
        coalescing: &Coalescing,
    ) -> Result<Option<PendingMessage>, StoreError> {
        self.inner.coalesce(claim, coalescing).await
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
        let answers = change.request.as_ref().map(|(key, _)| key.0.clone());
        let defers = change.outbox.iter().any(|(_, entry)| {
            matches!(
                entry.message.to,
                jieqi_service::Destination::DeferredReply(_)
            )
        });
        let hold = *self
            .hold_deferrals
            .lock()
            .unwrap_or_else(|p| p.into_inner());
        if defers && !hold.is_zero() {
            tokio::time::sleep(hold).await;
        }
        self.inner.commit(change).await?;
        if let Some(key) = answers
            && self.hang_after_answer.load(Ordering::SeqCst)
        {
            self.hung.send_modify(|keys| keys.push(key));
            std::future::pending::<()>().await;
        }
        Ok(())
    }
    async fn prune(&self, before: UnixTime) -> Result<usize, StoreError> {
        self.inner.prune(before).await
    }
    async fn record_launch(
        &self,
        instance: &ActivityInstanceId,
        launch: &LaunchRecord,
    ) -> Result<(), StoreError> {
        self.inner.record_launch(instance, launch).await
    }
    async fn launch(
        &self,
        instance: &ActivityInstanceId,
    ) -> Result<Option<LaunchRecord>, StoreError> {
        self.inner.launch(instance).await
    }
    async fn reclaim(&self) -> Result<bool, StoreError> {
        self.inner.reclaim().await
    }
    async fn flush(&self) -> Result<(), StoreError> {
        self.inner.flush().await
    }
    async fn spend(
        &self,
        allowances: &[jieqi_service::store::Allowance],
    ) -> Result<jieqi_service::store::Spend, StoreError> {
        self.inner.spend(allowances).await
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
    fn fleet(&self) -> u8 {
        self.inner.fleet()
    }
    fn game_changes(&self) -> tokio::sync::broadcast::Receiver<jieqi_service::GameChange> {
        self.inner.game_changes()
    }
}
