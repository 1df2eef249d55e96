//! The store's contract ([`GameStore`]) on PostgreSQL: reads by key, the commit in one
//! flight (`commit.rs`), claims with advisory locks per lane, the review queue, news by
//! `LISTEN`.

use super::*;

#[async_trait]
impl GameStore for PgStore {
    async fn game(&self, id: &GameId) -> Result<Option<GameRecord>, StoreError> {
        self.read("SELECT record FROM games WHERE id = $1", id.as_str())
            .await
    }

    async fn challenge(&self, id: &ChallengeId) -> Result<Option<ChallengeRecord>, StoreError> {
        self.read("SELECT record FROM challenges WHERE id = $1", id.as_str())
            .await
    }

    async fn chat(&self, chat: &ChatId) -> Result<Option<ChatRecord>, StoreError> {
        self.read("SELECT record FROM chats WHERE id = $1", &chat.to_string())
            .await
    }

    async fn player(&self, user: &UserId) -> Result<Option<PlayerRecord>, StoreError> {
        self.read(
            "SELECT record FROM players WHERE id = $1",
            &user.to_string(),
        )
        .await
    }

    async fn tournament(&self, id: &TournamentId) -> Result<Option<TournamentRecord>, StoreError> {
        Ok(self
            .tournaments(
                "SELECT record FROM tournaments WHERE id = $1",
                &[&id.as_str()],
            )
            .await?
            .pop())
    }

    async fn chat_tournaments(&self, chat: &ChatId) -> Result<Vec<TournamentRecord>, StoreError> {
        self.tournaments(
            "SELECT record FROM tournaments WHERE chat = $1 ORDER BY created_at, id",
            &[&chat.to_string()],
        )
        .await
    }

    async fn unfinished_tournaments(&self) -> Result<Vec<TournamentRecord>, StoreError> {
        self.tournaments(
            "SELECT record FROM tournaments WHERE NOT is_over ORDER BY created_at, id",
            &[],
        )
        .await
    }

    async fn answer(&self, key: &RequestKey) -> Result<Option<AnswerRecord>, StoreError> {
        self.read("SELECT record FROM answers WHERE key = $1", &key.0)
            .await
    }

    async fn answer_and_chat(
        &self,
        key: &RequestKey,
        chat: &ChatId,
    ) -> Result<(Option<AnswerRecord>, Option<ChatRecord>), StoreError> {
        let client = self.client().await?;
        let statement = client
            .prepare_cached(
                "SELECT (SELECT record FROM answers WHERE key = $1), \
                        (SELECT record FROM chats WHERE id = $2)",
            )
            .await
            .map_err(backend)?;
        let row = client
            .query_one(&statement, &[&key.0, &chat.to_string()])
            .await
            .map_err(backend)?;
        let answer = row.get::<_, Option<&[u8]>>(0).map(decode).transpose()?;
        let chat = row.get::<_, Option<&[u8]>>(1).map(decode).transpose()?;
        Ok((answer, chat))
    }

    async fn due(&self, now: UnixTime, limit: usize) -> Result<Vec<Due>, StoreError> {
        let client = self.client().await?;
        let statement = client
            .prepare_cached(
                "(SELECT 'g'::text AS kind, id, deadline AS at FROM games \
                  WHERE deadline <= $1 ORDER BY deadline LIMIT $2) \
                 UNION ALL \
                 (SELECT 'c'::text, id, expires_at FROM challenges \
                  WHERE expires_at <= $1 ORDER BY expires_at LIMIT $2) \
                 UNION ALL \
                 (SELECT 't'::text, id, starts_at FROM tournaments \
                  WHERE starts_at <= $1 ORDER BY starts_at LIMIT $2) \
                 ORDER BY at, kind, id LIMIT $2",
            )
            .await
            .map_err(backend)?;
        let rows = client
            .query(&statement, &[&int(now), &int(limit as u64)])
            .await
            .map_err(backend)?;
        Ok(rows
            .iter()
            .filter_map(|row| {
                let id: &str = row.get(1);
                match row.get::<_, &str>(0) {
                    "g" => id.parse().ok().map(Due::Game),
                    "t" => id.parse().ok().map(Due::Tournament),
                    _ => id.parse().ok().map(Due::Challenge),
                }
            })
            .collect())
    }

    async fn claim(
        &self,
        platform: Option<Platform>,
        claim: &Claim,
        limit: usize,
    ) -> Result<Vec<PendingMessage>, StoreError> {
        if limit == 0 {
            return Ok(Vec::new());
        }
        let now = int(claim.now);
        let mut client = self.client().await?;
        let tx = client.transaction().await.map_err(backend)?;
        // Each lane's oldest message, if it is neither claimed nor deferred.
        let statement = tx
            .prepare_cached(
                "SELECT id, lane FROM ( \
                     SELECT DISTINCT ON (lane) id, seq, lane, not_before, claimed_until \
                     FROM outbox WHERE $1::text IS NULL OR platform = $1 \
                     ORDER BY lane, seq \
                 ) heads \
                 WHERE not_before <= $2 AND (claimed_until IS NULL OR claimed_until <= $2) \
                 ORDER BY seq LIMIT $3",
            )
            .await
            .map_err(backend)?;
        let heads = tx
            .query(
                &statement,
                &[&platform.map(Platform::name), &now, &int(limit as u64)],
            )
            .await
            .map_err(backend)?;
        if heads.is_empty() {
            return Ok(Vec::new());
        }
        let lanes: Vec<&str> = heads.iter().map(|row| row.get(1)).collect();
        // One claimer per lane at a time: lanes another process is claiming are skipped.
        let statement = tx
            .prepare_cached(
                "SELECT lane FROM unnest($1::text[]) AS lane \
                 WHERE pg_try_advisory_xact_lock($2, hashtext(current_schema() || ':' || lane))",
            )
            .await
            .map_err(backend)?;
        let free: std::collections::HashSet<String> = tx
            .query(&statement, &[&lanes, &LANE_LOCK_CLASS])
            .await
            .map_err(backend)?
            .iter()
            .map(|row| row.get(0))
            .collect();
        let candidates: Vec<i64> = heads
            .iter()
            .filter(|row| free.contains(row.get::<_, &str>(1)))
            .map(|row| row.get(0))
            .collect();
        // Holding the lanes, check again on the latest data: still the oldest of its lane, no
        // other message of the lane claimed, and not being delivered or deferred right now.
        let statement = tx
            .prepare_cached(
                "SELECT o.id, o.record, o.attempts, o.not_before, o.claimed_by FROM outbox o \
                 WHERE o.id = ANY($1) AND o.not_before <= $2 \
                   AND (o.claimed_until IS NULL OR o.claimed_until <= $2) \
                   AND NOT EXISTS (SELECT 1 FROM outbox p WHERE p.lane = o.lane AND p.id <> o.id \
                                   AND (p.seq < o.seq OR p.claimed_until > $2)) \
                 ORDER BY o.seq \
                 FOR UPDATE OF o SKIP LOCKED",
            )
            .await
            .map_err(backend)?;
        let rows = tx
            .query(&statement, &[&candidates, &now])
            .await
            .map_err(backend)?;
        // A row still naming another holder is a lapsed claim taken over.
        let taken_from: std::collections::HashMap<i64, String> = rows
            .iter()
            .filter_map(|row| {
                let holder: Option<String> = row.get(4);
                Some((row.get(0), holder.filter(|h| *h != claim.holder)?))
            })
            .collect();
        let rows = decode_rows(rows)?;
        let claimed: Vec<i64> = rows.iter().map(|(id, _)| *id).collect();
        let statement = tx
            .prepare_cached(
                "UPDATE outbox SET claimed_by = $2, claimed_until = $3 WHERE id = ANY($1)",
            )
            .await
            .map_err(backend)?;
        tx.execute(&statement, &[&claimed, &claim.holder, &int(claim.until)])
            .await
            .map_err(backend)?;
        let mut pending = pending_messages(&*tx, rows).await?;
        tx.commit().await.map_err(backend)?;
        for message in &mut pending {
            message.taken_from = taken_from.get(&int(message.entry.id.0)).cloned();
        }
        Ok(pending)
    }

    async fn next_claimable(
        &self,
        platform: Option<Platform>,
        claim: &Claim,
    ) -> Result<Option<UnixMillis>, StoreError> {
        let client = self.client().await?;
        // The lanes' oldest messages that wait for another holder's claim or a deferral.
        let statement = client
            .prepare_cached(
                "SELECT min(greatest(not_before, coalesce(claimed_until, 0))) FROM ( \
                     SELECT DISTINCT ON (lane) not_before, claimed_by, claimed_until \
                     FROM outbox WHERE $1::text IS NULL OR platform = $1 \
                     ORDER BY lane, seq \
                 ) heads \
                 WHERE claimed_by IS DISTINCT FROM $3 \
                   AND (not_before > $2 OR claimed_until > $2)",
            )
            .await
            .map_err(backend)?;
        let row = client
            .query_one(
                &statement,
                &[
                    &platform.map(Platform::name),
                    &int(claim.now),
                    &claim.holder,
                ],
            )
            .await
            .map_err(backend)?;
        Ok(row.get::<_, Option<i64>>(0).map(uint))
    }

    async fn store_time(&self) -> Result<Option<UnixMillis>, StoreError> {
        let client = self.client().await?;
        // `clock_timestamp()`, not `now()`: the instant of the reading, not of a transaction.
        let row = client
            .query_one(
                "SELECT (extract(epoch FROM clock_timestamp()) * 1000)::int8",
                &[],
            )
            .await
            .map_err(backend)?;
        Ok(Some(uint(row.get::<_, i64>(0))))
    }

    async fn renew(&self, claim: &Claim, ids: &[OutboxId]) -> Result<Vec<OutboxId>, StoreError> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let client = self.renewals.get().await.map_err(pool_error)?;
        // Only this holder's own claims: one that lapsed and was taken over is not taken back.
        let statement = client
            .prepare_cached(
                "UPDATE outbox SET claimed_until = greatest(claimed_until, $3) \
                 WHERE id = ANY($1) AND claimed_by = $2 RETURNING id",
            )
            .await
            .map_err(backend)?;
        let wanted: Vec<i64> = ids.iter().map(|id| int(id.0)).collect();
        let rows = client
            .query(&statement, &[&wanted, &claim.holder, &int(claim.until)])
            .await
            .map_err(backend)?;
        Ok(rows
            .iter()
            .map(|row| OutboxId(u64::try_from(row.get::<_, i64>(0)).unwrap_or(0)))
            .collect())
    }

    async fn pending(&self, limit: usize) -> Result<Vec<PendingMessage>, StoreError> {
        let client = self.client().await?;
        let statement = client
            .prepare_cached(
                "SELECT id, record, attempts, not_before FROM outbox ORDER BY seq LIMIT $1",
            )
            .await
            .map_err(backend)?;
        let rows = client
            .query(&statement, &[&int(limit as u64)])
            .await
            .map_err(backend)?;
        pending_messages(&**client, decode_rows(rows)?).await
    }

    async fn lane_from(
        &self,
        head: OutboxId,
        limit: usize,
    ) -> Result<Vec<(OutboxId, OutboxRecord)>, StoreError> {
        let client = self.client().await?;
        let statement = client
            .prepare_cached(
                "SELECT o.id, o.record, o.attempts, o.not_before \
                 FROM outbox h JOIN outbox o ON o.lane = h.lane AND o.seq >= h.seq \
                 WHERE h.id = $1 ORDER BY o.seq LIMIT $2",
            )
            .await
            .map_err(backend)?;
        let rows = client
            .query(&statement, &[&int(head.0), &int(limit as u64)])
            .await
            .map_err(backend)?;
        Ok(decode_rows(rows)?
            .into_iter()
            .map(|(id, record)| (OutboxId(uint(id)), record))
            .collect())
    }

    async fn coalesce(
        &self,
        claim: &Claim,
        coalescing: &Coalescing,
    ) -> Result<Option<PendingMessage>, StoreError> {
        let Some(&head) = coalescing.skipped.first() else {
            return Ok(None);
        };
        let now = int(claim.now);
        let mut client = self.client().await?;
        let tx = client.transaction().await.map_err(backend)?;
        // The head is still ours (locked: nobody delivers or defers it meanwhile)...
        let statement = tx
            .prepare_cached(
                "SELECT lane FROM outbox WHERE id = $1 AND claimed_by = $2 AND claimed_until > $3 \
                 FOR UPDATE",
            )
            .await
            .map_err(backend)?;
        let Some(row) = tx
            .query_opt(&statement, &[&int(head.0), &claim.holder, &now])
            .await
            .map_err(backend)?
        else {
            return Ok(None);
        };
        let lane: String = row.get(0);
        // ...and its lane still starts with the skipped boards, then the covering one.
        let statement = tx
            .prepare_cached(
                "SELECT id FROM outbox WHERE lane = $1 \
                 AND seq <= (SELECT seq FROM outbox WHERE id = $2) ORDER BY seq FOR UPDATE",
            )
            .await
            .map_err(backend)?;
        let lane: Vec<u64> = tx
            .query(&statement, &[&lane, &int(coalescing.covering.0)])
            .await
            .map_err(backend)?
            .iter()
            .map(|row| uint(row.get(0)))
            .collect();
        let wanted: Vec<u64> = coalescing
            .skipped
            .iter()
            .chain([&coalescing.covering])
            .map(|id| id.0)
            .collect();
        if lane != wanted {
            return Ok(None);
        }
        let skipped: Vec<i64> = coalescing.skipped.iter().map(|id| int(id.0)).collect();
        let statement = tx
            .prepare_cached("DELETE FROM outbox WHERE id = ANY($1)")
            .await
            .map_err(backend)?;
        tx.execute(&statement, &[&skipped]).await.map_err(backend)?;
        let statement = tx
            .prepare_cached(
                "UPDATE outbox SET record = $2, claimed_by = $3, claimed_until = $4 \
                 WHERE id = $1 RETURNING id, record, attempts, not_before",
            )
            .await
            .map_err(backend)?;
        let rows = tx
            .query(
                &statement,
                &[
                    &int(coalescing.covering.0),
                    &encode_for(&coalescing.record, self.fleet.version())?,
                    &claim.holder,
                    &int(claim.until),
                ],
            )
            .await
            .map_err(backend)?;
        let covering = pending_messages(&*tx, decode_rows(rows)?).await?.pop();
        tx.commit().await.map_err(backend)?;
        Ok(covering)
    }

    async fn outbox_record(&self, id: OutboxId) -> Result<Option<OutboxRecord>, StoreError> {
        let client = self.client().await?;
        let statement = client
            .prepare_cached("SELECT id, record, attempts, not_before FROM outbox WHERE id = $1")
            .await
            .map_err(backend)?;
        match client
            .query_opt(&statement, &[&int(id.0)])
            .await
            .map_err(backend)?
        {
            Some(row) => decode_row(&row).map(|(_, record)| Some(record)),
            None => Ok(None),
        }
    }

    async fn allocate_outbox_ids(&self, n: usize) -> Result<Vec<OutboxId>, StoreError> {
        if n == 0 {
            return Ok(Vec::new());
        }
        // From this process's block; one round trip reserves the next block when it runs
        // out. Lanes are delivered in commit order (`seq`), not in id order.
        let mut reserved = self.reserved_ids.lock().await;
        if reserved.len() < n {
            let client = self.client().await?;
            let statement = client
                .prepare_cached("SELECT nextval('outbox_ids') FROM generate_series(1, $1::bigint)")
                .await
                .map_err(backend)?;
            let mut block: Vec<u64> = client
                .query(&statement, &[&int(n.max(ID_BLOCK) as u64)])
                .await
                .map_err(backend)?
                .iter()
                .map(|row| uint(row.get(0)))
                .collect();
            block.sort_unstable();
            reserved.extend(block);
        }
        let mut ids: Vec<OutboxId> = reserved.drain(..n).map(OutboxId).collect();
        ids.sort();
        Ok(ids)
    }

    async fn commit(&self, change: Change) -> Result<(), CommitError> {
        if change.is_empty() {
            return Ok(());
        }
        let client = self.client().await?;
        match commit_in_one_flight(client, &change, &self.schema, self.fleet.version()).await {
            // Not announced here as well: the commit's own NOTIFY comes back to this
            // process's listener too, in commit order among every process's commits. Told
            // here as well, a follower heard each revision twice, and could hear revision 2
            // (told here) before revision 1 (heard back).
            Ok(()) => Ok(()),
            Err(Refusal::Failed(e)) => Err(e),
            Err(Refusal::Answered) => {
                let Some((key, _)) = &change.request else {
                    return Err(CommitError::Conflict);
                };
                match self.answer(key).await? {
                    Some(earlier) => Err(CommitError::Duplicate(earlier)),
                    // Pruned in between: the caller may try again.
                    None => Err(CommitError::Conflict),
                }
            }
        }
    }

    async fn prune(&self, before: UnixTime) -> Result<usize, StoreError> {
        let client = self.client().await?;
        let answers = client
            .execute("DELETE FROM answers WHERE at < $1", &[&int(before)])
            .await
            .map_err(backend)?;
        let sent = client
            .execute("DELETE FROM sent WHERE at < $1", &[&int(before)])
            .await
            .map_err(backend)?;
        let launches = client
            .execute(
                "DELETE FROM activity_launches WHERE at < $1",
                &[&int(before)],
            )
            .await
            .map_err(backend)?;
        Ok(usize::try_from(answers + sent + launches).unwrap_or(usize::MAX))
    }

    async fn record_launch(
        &self,
        instance: &ActivityInstanceId,
        launch: &LaunchRecord,
    ) -> Result<(), StoreError> {
        let client = self.client().await?;
        let statement = client
            .prepare_cached(
                "INSERT INTO activity_launches (instance, at, record) VALUES ($1, $2, $3) \
                 ON CONFLICT (instance) DO UPDATE SET at = EXCLUDED.at, record = EXCLUDED.record",
            )
            .await
            .map_err(backend)?;
        client
            .execute(
                &statement,
                &[&instance.as_str(), &int(launch.at), &encode(launch)?],
            )
            .await
            .map_err(backend)?;
        Ok(())
    }

    async fn launch(
        &self,
        instance: &ActivityInstanceId,
    ) -> Result<Option<LaunchRecord>, StoreError> {
        self.read(
            "SELECT record FROM activity_launches WHERE instance = $1",
            instance.as_str(),
        )
        .await
    }

    async fn review(&self, game: &GameId) -> Result<Option<ReviewRecord>, StoreError> {
        self.read(
            "SELECT record FROM reviews WHERE game_id = $1 AND record IS NOT NULL",
            game.as_str(),
        )
        .await
    }

    async fn queued_reviews(&self, limit: usize) -> Result<Vec<ReviewRequest>, StoreError> {
        let client = self.client().await?;
        let statement = client
            .prepare_cached("SELECT record FROM review_requests ORDER BY queued LIMIT $1")
            .await
            .map_err(backend)?;
        client
            .query(&statement, &[&int(limit as u64)])
            .await
            .map_err(backend)?
            .iter()
            .map(|row| decode(row.get::<_, &[u8]>(0)))
            .collect()
    }

    async fn claim_review(&self, game: &GameId, claim: &Claim) -> Result<ReviewClaim, StoreError> {
        let client = self.client().await?;
        // Taken when nobody holds it, when its holder's claim lapsed, or again by its holder.
        let taken = client
            .query_opt(
                "INSERT INTO reviews (game_id, claimed_by, claimed_until) VALUES ($1, $2, $3) \
                 ON CONFLICT (game_id) DO UPDATE \
                 SET claimed_by = EXCLUDED.claimed_by, claimed_until = EXCLUDED.claimed_until \
                 WHERE reviews.record IS NULL \
                 AND (reviews.claimed_until IS NULL OR reviews.claimed_until <= $4 \
                      OR reviews.claimed_by = $2) \
                 RETURNING 1",
                &[
                    &game.as_str(),
                    &claim.holder,
                    &int(claim.until),
                    &int(claim.now),
                ],
            )
            .await
            .map_err(backend)?;
        if taken.is_some() {
            return Ok(ReviewClaim::Ours);
        }
        Ok(match self.review(game).await? {
            Some(done) => ReviewClaim::Done(Box::new(done)),
            None => ReviewClaim::Busy,
        })
    }

    async fn flush(&self) -> Result<(), StoreError> {
        // Every commit is on disk when it returns (or, for delivery bookkeeping, soon after).
        Ok(())
    }

    async fn spend(
        &self,
        allowances: &[jieqi_store::Allowance],
    ) -> Result<jieqi_store::Spend, StoreError> {
        crate::pace::spend(&self.client().await?, allowances).await
    }

    async fn lead(&self, role: &str) -> Result<Option<Leadership>, StoreError> {
        lead::lead(&self.config, &self.schema, role).await
    }

    fn fleet(&self) -> u8 {
        self.fleet.version()
    }

    fn game_changes(&self) -> tokio::sync::broadcast::Receiver<GameChange> {
        let followers = self.changes.subscribe();
        self.listener
            .get_or_init(|| notify::start(self.config.clone(), &self.schema, self.changes.clone()));
        followers
    }
}
