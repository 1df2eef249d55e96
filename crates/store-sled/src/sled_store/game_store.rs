//! The store's contract ([`GameStore`]) on sled: reads straight from the tree, commits as one
//! transaction (with group flush when durable), delivery claims in memory.

use super::*;

#[async_trait]
impl GameStore for SledStore {
    async fn game(&self, id: &GameId) -> Result<Option<GameRecord>, StoreError> {
        self.read(&game_key(id))
    }

    async fn challenge(&self, id: &ChallengeId) -> Result<Option<ChallengeRecord>, StoreError> {
        self.read(&challenge_key(id))
    }

    async fn chat(&self, chat: &ChatId) -> Result<Option<ChatRecord>, StoreError> {
        self.read(&chat_key(chat))
    }

    async fn player(&self, user: &UserId) -> Result<Option<PlayerRecord>, StoreError> {
        self.read(&player_key(user))
    }

    async fn tournament(&self, id: &TournamentId) -> Result<Option<TournamentRecord>, StoreError> {
        match self.live().tree.get(tournament_key(id)).map_err(backend)? {
            Some(bytes) => decode_tournament(&bytes).map(Some),
            None => Ok(None),
        }
    }

    async fn chat_tournaments(&self, chat: &ChatId) -> Result<Vec<TournamentRecord>, StoreError> {
        let prefix = tournament_chat_prefix(chat);
        let mut out = Vec::new();
        for item in self.live().tree.scan_prefix(&prefix) {
            let (k, _) = item.map_err(backend)?;
            let id = String::from_utf8_lossy(k.get(prefix.len() + 8..).unwrap_or_default())
                .parse::<TournamentId>()
                .map_err(|e| StoreError::Corrupt(e.to_string()))?;
            if let Some(record) = self.tournament(&id).await? {
                out.push(record);
            }
        }
        Ok(out)
    }

    async fn unfinished_tournaments(&self) -> Result<Vec<TournamentRecord>, StoreError> {
        let mut out = Vec::new();
        for item in self.live().tree.scan_prefix([TOURNAMENT]) {
            let (_, bytes) = item.map_err(backend)?;
            let record = decode_tournament(&bytes)?;
            if !record.state.is_over() {
                out.push(record);
            }
        }
        Ok(out)
    }

    async fn answer(&self, request: &RequestKey) -> Result<Option<AnswerRecord>, StoreError> {
        self.read::<AnswerRecord>(&key(ANSWER, request.0.as_bytes()))
    }

    async fn due(&self, now: UnixTime, limit: usize) -> Result<Vec<Due>, StoreError> {
        let mut due = Vec::new();
        for kind in [GAME, CHALLENGE, TOURNAMENT] {
            for item in self.live().tree.scan_prefix([DEADLINE, kind]) {
                let (k, _) = item.map_err(backend)?;
                let Some(at_bytes) = k.get(2..10) else {
                    continue;
                };
                let at = u64::from_be_bytes(at_bytes.try_into().unwrap_or_default());
                if at > now || due.len() >= limit * 2 {
                    break;
                }
                let id = String::from_utf8_lossy(k.get(10..).unwrap_or_default()).into_owned();
                let item = match kind {
                    GAME => id.parse().ok().map(Due::Game),
                    TOURNAMENT => id.parse().ok().map(Due::Tournament),
                    _ => id.parse().ok().map(Due::Challenge),
                };
                if let Some(item) = item {
                    due.push((at, item));
                }
            }
        }
        due.sort_by_key(|(at, _)| *at);
        Ok(due.into_iter().take(limit).map(|(_, d)| d).collect())
    }

    async fn claim(
        &self,
        platform: Option<Platform>,
        claim: &Claim,
        limit: usize,
    ) -> Result<Vec<PendingMessage>, StoreError> {
        let mut claims = self
            .claims
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        // A lapsed claim is remembered a while, to tell a claim that takes it over; one of a
        // message gone some other way is forgotten after that.
        claims.retain(|_, (_, until)| until.saturating_add(FORGET_LAPSED_CLAIMS) > claim.now);
        // A lane is decided by its oldest message: free and due, or the whole lane waits.
        let mut seen_lanes = HashSet::new();
        let heads = self.scan_outbox(
            |id, record| {
                if platform.is_some() && record.message.to.platform() != platform {
                    return false;
                }
                let Some(lane) = Lane::of_message(&record.message) else {
                    return false;
                };
                if !seen_lanes.insert(lane) {
                    return false;
                }
                let claimed = claims.get(&id).is_some_and(|(_, until)| *until > claim.now);
                !claimed && record.not_before <= claim.now
            },
            limit,
        )?;
        let mut heads = heads;
        for head in &mut heads {
            let before = claims.insert(head.entry.id, (claim.holder.clone(), claim.until));
            head.taken_from = before
                .map(|(holder, _)| holder)
                .filter(|holder| *holder != claim.holder);
        }
        Ok(heads)
    }

    async fn renew(&self, claim: &Claim, ids: &[OutboxId]) -> Result<Vec<OutboxId>, StoreError> {
        // Only the holder's own claims (one process owns the folder, but services sharing one
        // store in it each hold their own).
        let mut claims = self
            .claims
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let mut held = Vec::with_capacity(ids.len());
        for id in ids {
            if let Some((holder, until)) = claims.get_mut(id)
                && *holder == claim.holder
            {
                *until = (*until).max(claim.until);
                held.push(*id);
            }
        }
        Ok(held)
    }

    async fn pending(&self, limit: usize) -> Result<Vec<PendingMessage>, StoreError> {
        self.scan_outbox(|_, _| true, limit)
    }

    async fn lane_from(
        &self,
        head: OutboxId,
        limit: usize,
    ) -> Result<Vec<(OutboxId, OutboxRecord)>, StoreError> {
        let mut out: Vec<(OutboxId, OutboxRecord)> = Vec::new();
        let mut lane = None;
        let tree = self.live().tree;
        // Messages of other lanes in between are passed over, a bounded number of them: a
        // lane is looked at this way only for its first few messages.
        for item in tree
            .range(outbox_key(head)..key(OUTBOX + 1, &[]))
            .take(LANE_SCAN)
        {
            if out.len() >= limit {
                break;
            }
            let (k, v) = item.map_err(backend)?;
            let Some(id) = SledStore::outbox_id(&k) else {
                continue;
            };
            let record: OutboxRecord = decode(&v)?;
            let of = Lane::of_message(&record.message);
            match &lane {
                None if id == head => lane = Some(of),
                None => return Ok(Vec::new()),
                Some(lane) if *lane != of => continue,
                Some(_) => {}
            }
            out.push((id, record));
        }
        Ok(out)
    }

    async fn coalesce(
        &self,
        claim: &Claim,
        coalescing: &Coalescing,
    ) -> Result<Option<PendingMessage>, StoreError> {
        let Some(&head) = coalescing.skipped.first() else {
            return Ok(None);
        };
        // The lane must still start with the skipped boards and then the covering one.
        let wanted: Vec<OutboxId> = coalescing
            .skipped
            .iter()
            .copied()
            .chain([coalescing.covering])
            .collect();
        let lane: Vec<OutboxId> = self
            .lane_from(head, wanted.len())
            .await?
            .into_iter()
            .map(|(id, _)| id)
            .collect();
        if lane != wanted {
            return Ok(None);
        }
        {
            let mut claims = self
                .claims
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            if claims
                .get(&head)
                .is_none_or(|(holder, until)| *holder != claim.holder || *until <= claim.now)
            {
                return Ok(None);
            }
            // Claimed before the head goes: the lane is never free in between.
            claims.insert(coalescing.covering, (claim.holder.clone(), claim.until));
        }
        let result = {
            let live = read(&self.live);
            let noted = self.copying().then(RefCell::default);
            let result = live.tree.transaction(|tx| {
                let tx = &Writes {
                    tx,
                    noted: noted.as_ref(),
                };
                for id in &coalescing.skipped {
                    if tx.remove(outbox_key(*id))?.is_none() {
                        return abort(Abort::Conflict);
                    }
                }
                let k = outbox_key(coalescing.covering);
                if tx.get(&k)?.is_none() {
                    return abort(Abort::Conflict);
                }
                tx.insert(k, tx_encode(&coalescing.record)?)?;
                Ok(())
            });
            if let Some(noted) = noted {
                self.note_changed(noted.into_inner());
            }
            result
        };
        let ticket = self.flush.ticket();
        {
            let mut claims = self
                .claims
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            if result.is_ok() {
                for id in &coalescing.skipped {
                    claims.remove(id);
                }
            } else {
                claims.remove(&coalescing.covering);
            }
        }
        match result {
            Ok(()) => {}
            Err(TransactionError::Abort(Abort::Corrupt(e))) => return Err(e),
            Err(TransactionError::Abort(_)) => return Ok(None),
            Err(TransactionError::Storage(e)) => return Err(backend(e)),
        }
        self.flush.wait_durable(&self.live, ticket).await?;
        self.pending_message(coalescing.covering, coalescing.record.clone())
            .map(Some)
    }

    async fn outbox_record(&self, id: OutboxId) -> Result<Option<OutboxRecord>, StoreError> {
        self.read(&outbox_key(id))
    }

    async fn allocate_outbox_ids(&self, n: usize) -> Result<Vec<OutboxId>, StoreError> {
        // Under the read lock: an id taken from a database being replaced could repeat.
        let live = read(&self.live);
        (0..n)
            .map(|_| {
                live.db
                    .generate_id()
                    .map(|id| OutboxId(live.id_base + id + 1))
                    .map_err(backend)
            })
            .collect()
    }

    async fn commit(&self, change: Change) -> Result<(), CommitError> {
        if change.is_empty() {
            return Ok(());
        }
        // A sled transaction only touches memory (the log is written by flushes), so it runs
        // right here; only the flush waits on the disk, off the async workers.
        let result = {
            let live = read(&self.live);
            // Queue orders grow across compactions as outbox ids do (`Live::id_base`).
            let orders = change
                .queued_reviews
                .iter()
                .map(|_| live.db.generate_id().map(|id| live.id_base + id + 1))
                .collect::<Result<Vec<u64>, _>>()
                .map_err(|e| CommitError::Store(backend(e)))?;
            let noted = self.copying().then(RefCell::default);
            let result = SledStore::apply(&live.tree, &change, &orders, noted.as_ref());
            if let Some(noted) = noted {
                self.note_changed(noted.into_inner());
            }
            result
        };
        let ticket = self.flush.ticket();
        match result {
            Ok(()) => {}
            Err(ConflictableTransactionError::Abort(Abort::Conflict)) => {
                return Err(CommitError::Conflict);
            }
            Err(ConflictableTransactionError::Abort(Abort::Duplicate(answer))) => {
                return Err(CommitError::Duplicate(answer));
            }
            Err(ConflictableTransactionError::Abort(Abort::Corrupt(e))) => {
                return Err(CommitError::Store(e));
            }
            Err(ConflictableTransactionError::Storage(e)) => {
                return Err(CommitError::Store(backend(e)));
            }
            Err(ConflictableTransactionError::Conflict) => return Err(CommitError::Conflict),
        }
        if change.durable {
            self.flush.wait_durable(&self.live, ticket).await?;
        }
        self.unclaim(&change);
        self.changes.announce(&change);
        Ok(())
    }

    async fn prune(&self, before: UnixTime) -> Result<usize, StoreError> {
        // Under the read lock: a removal from a database being replaced would be lost.
        let live = read(&self.live);
        let tree = &live.tree;
        let mut removed = 0;
        let mut noted = Vec::new();
        let copying = self.copying();
        let end = answer_time_key(before, &RequestKey(String::new()));
        for item in tree.range(vec![ANSWER_BY_TIME]..end) {
            let (k, _) = item.map_err(backend)?;
            if let Some(request) = k.get(9..) {
                let answer = key(ANSWER, request);
                tree.remove(&answer).map_err(backend)?;
                if copying {
                    noted.push(answer);
                }
            }
            tree.remove(&k).map_err(backend)?;
            if copying {
                noted.push(k.to_vec());
            }
            removed += 1;
        }
        for item in tree.scan_prefix([SENT]) {
            let (k, v) = item.map_err(backend)?;
            let sent: SentRecord = decode(&v)?;
            // Sent ids grow with time: stop at the first one still young enough.
            if sent.at >= before {
                break;
            }
            tree.remove(&k).map_err(backend)?;
            if copying {
                noted.push(k.to_vec());
            }
            removed += 1;
        }
        for item in tree.scan_prefix([LAUNCH]) {
            let (k, v) = item.map_err(backend)?;
            let launch: LaunchRecord = decode(&v)?;
            if launch.at < before {
                tree.remove(&k).map_err(backend)?;
                if copying {
                    noted.push(k.to_vec());
                }
                removed += 1;
            }
        }
        self.note_changed(noted);
        Ok(removed)
    }

    async fn record_launch(
        &self,
        instance: &ActivityInstanceId,
        launch: &LaunchRecord,
    ) -> Result<(), StoreError> {
        // Under the read lock, like every writer: a compaction copying meanwhile copies it again.
        let live = read(&self.live);
        let k = launch_key(instance);
        live.tree.insert(&k, encode(launch)?).map_err(backend)?;
        if self.copying() {
            self.note_changed([k]);
        }
        Ok(())
    }

    async fn launch(
        &self,
        instance: &ActivityInstanceId,
    ) -> Result<Option<LaunchRecord>, StoreError> {
        self.read(&launch_key(instance))
    }

    async fn reclaim(&self) -> Result<bool, StoreError> {
        let store = self.clone();
        tokio::task::spawn_blocking(move || store.compact_if_grown())
            .await
            .map_err(backend)?
    }

    async fn flush(&self) -> Result<(), StoreError> {
        let db = self.live().db;
        db.flush_async().await.map_err(backend).map(|_| ())
    }

    /// One process owns a sled store: its fleet is always the running release.
    fn fleet(&self) -> u8 {
        jieqi_store::codec::SCHEMA_VERSION
    }

    fn game_changes(&self) -> tokio::sync::broadcast::Receiver<GameChange> {
        self.changes.subscribe()
    }

    async fn review(&self, game: &GameId) -> Result<Option<ReviewRecord>, StoreError> {
        self.read(&review_key(game))
    }

    async fn queued_reviews(&self, limit: usize) -> Result<Vec<ReviewRequest>, StoreError> {
        self.live()
            .tree
            .scan_prefix([QUEUED_REVIEW])
            .take(limit)
            .map(|item| decode(&item.map_err(backend)?.1))
            .collect()
    }

    async fn spend(
        &self,
        allowances: &[jieqi_store::Allowance],
    ) -> Result<jieqi_store::Spend, StoreError> {
        Ok(self.pace.spend(allowances, jieqi_store::pace::now_millis()))
    }

    async fn lead(&self, _role: &str) -> Result<Option<Leadership>, StoreError> {
        // One process owns a sled folder: it plays every role.
        Ok(Some(Leadership {
            lost: tokio_util::sync::CancellationToken::new(),
            hold: Box::new(()),
        }))
    }
}
