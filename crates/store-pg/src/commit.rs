//! A change as SQL: one statement per record written (each checking the revision it
//! replaces in SQL, `expect_rows`), sent to the server in one flight (BEGIN, every statement,
//! COMMIT) so that a commit costs one round trip.

use super::*;

/// The SQLSTATE of `expect_rows` (migration 2): a record changed since it was read.
pub(crate) const CHANGED_MEANWHILE: &str = "JQ409";

/// A statement's parameter, owned so that every statement of a flight can be built first.
pub(crate) type Param = Box<dyn ToSql + Sync + Send>;

/// One statement of a commit.
pub(crate) struct Statement {
    sql: &'static str,
    params: Vec<Param>,
    /// Whether it records the request's answer (a clash there is a repeated request).
    answers_request: bool,
}

impl Statement {
    pub(crate) fn new(sql: &'static str, params: Vec<Param>) -> Statement {
        Statement {
            sql,
            params,
            answers_request: false,
        }
    }
}

/// A record written over the revision before it: revision 1 is inserted (the key must be
/// free), a later one updates the row only where the stored revision is one less. Both
/// statements (from `revised_sql!`) take `$1` key, `$2` revision, then the same further
/// columns, and raise `CHANGED_MEANWHILE` unless they wrote exactly one row.
pub(crate) fn revised(
    revision: u64,
    (insert, update): (&'static str, &'static str),
    params: Vec<Param>,
) -> Result<Statement, CommitError> {
    match revision {
        0 => Err(CommitError::Conflict),
        1 => Ok(Statement::new(insert, params)),
        _ => Ok(Statement::new(update, params)),
    }
}

/// The insert and the update of a revised record's row (`id`, `revision`, one more column
/// the store looks rows up by if named, `record`), each checking that it touched its one
/// row. Written by a macro so the statements stay `&'static str` for the statement cache.
macro_rules! revised_sql {
    ($table:literal) => {
        (
            concat!(
                "WITH w AS (INSERT INTO ",
                $table,
                " (id, revision, record) VALUES ($1, $2, $3) \
                 ON CONFLICT (id) DO NOTHING RETURNING 1) \
                 SELECT expect_rows((SELECT count(*) FROM w), 1)"
            ),
            concat!(
                "WITH w AS (UPDATE ",
                $table,
                " SET revision = $2, record = $3 \
                 WHERE id = $1 AND revision = $2::bigint - 1 RETURNING 1) \
                 SELECT expect_rows((SELECT count(*) FROM w), 1)"
            ),
        )
    };
    ($table:literal, $column:literal) => {
        (
            concat!(
                "WITH w AS (INSERT INTO ",
                $table,
                " (id, revision, ",
                $column,
                ", record) VALUES ($1, $2, $3, $4) \
                 ON CONFLICT (id) DO NOTHING RETURNING 1) \
                 SELECT expect_rows((SELECT count(*) FROM w), 1)"
            ),
            concat!(
                "WITH w AS (UPDATE ",
                $table,
                " SET revision = $2, ",
                $column,
                " = $3, record = $4 \
                 WHERE id = $1 AND revision = $2::bigint - 1 RETURNING 1) \
                 SELECT expect_rows((SELECT count(*) FROM w), 1)"
            ),
        )
    };
}

/// Writes of records looked up by their key alone (chats, players) with the statements of
/// `revised_sql!`: `(key, revision, stored bytes)`, in key order, each over the revision
/// before it (see [`revised`]).
pub(crate) fn keyed(
    sql: (&'static str, &'static str),
    mut records: Vec<(String, u64, Vec<u8>)>,
) -> Result<Vec<Statement>, CommitError> {
    records.sort_by(|a, b| a.0.cmp(&b.0));
    records
        .into_iter()
        .map(|(key, revision, bytes)| {
            revised(
                revision,
                sql,
                vec![Box::new(key), Box::new(int(revision)), Box::new(bytes)],
            )
        })
        .collect()
}

/// The statements that carry out `change`, in the order they must run. A fixed order of rows
/// within each table makes deadlocks between concurrent changes rarer.
/// Records go in the fleet's codec schema (`fleet`, [`encode_for`]), reviews and the review
/// queue in this release's: no older release reads their tables.
pub(crate) fn statements(change: &Change, fleet: u8) -> Result<Vec<Statement>, CommitError> {
    let mut out = Vec::new();
    if let Some((key, answer)) = &change.request {
        out.push(Statement {
            sql: "WITH w AS (INSERT INTO answers (key, at, record) VALUES ($1, $2, $3) \
                  ON CONFLICT (key) DO NOTHING RETURNING 1) \
                  SELECT expect_rows((SELECT count(*) FROM w), 1)",
            params: vec![
                Box::new(key.0.clone()),
                Box::new(int(answer.at)),
                Box::new(encode_for(answer, fleet)?),
            ],
            answers_request: true,
        });
    }
    let mut games: Vec<&GameRecord> = change.games.iter().collect();
    games.sort_by(|a, b| a.id.cmp(&b.id));
    for game in games {
        out.push(revised(
            game.revision,
            revised_sql!("games", "deadline"),
            vec![
                Box::new(game.id.as_str().to_owned()),
                Box::new(int(game.revision)),
                Box::new(game.deadline.map(int)),
                Box::new(encode_for(game, fleet)?),
            ],
        )?);
    }
    let mut challenges: Vec<&ChallengeRecord> = change.challenges.iter().collect();
    challenges.sort_by(|a, b| a.id.cmp(&b.id));
    for challenge in challenges {
        out.push(revised(
            challenge.revision,
            revised_sql!("challenges", "expires_at"),
            vec![
                Box::new(challenge.id.as_str().to_owned()),
                Box::new(int(challenge.revision)),
                Box::new(int(challenge.expires_at)),
                Box::new(encode_for(challenge, fleet)?),
            ],
        )?);
    }
    for (id, revision) in &change.removed_challenges {
        out.push(Statement::new(
            "WITH w AS (DELETE FROM challenges WHERE id = $1 AND revision = $2 RETURNING 1) \
             SELECT expect_rows((SELECT count(*) FROM w), 1)",
            vec![Box::new(id.as_str().to_owned()), Box::new(int(*revision))],
        ));
    }
    let chats = change
        .chats
        .iter()
        .map(|c| Ok((c.chat.to_string(), c.revision, encode_for(c, fleet)?)))
        .collect::<Result<_, StoreError>>()?;
    out.extend(keyed(revised_sql!("chats"), chats)?);
    let players = change
        .players
        .iter()
        .map(|p| Ok((p.user.to_string(), p.revision, encode_for(p, fleet)?)))
        .collect::<Result<_, StoreError>>()?;
    out.extend(keyed(revised_sql!("players"), players)?);
    let mut tournaments: Vec<&TournamentRecord> = change.tournaments.iter().collect();
    tournaments.sort_by(|a, b| a.id.cmp(&b.id));
    for tournament in tournaments {
        // Its own byte form (no older release reads the table), revision checked as games.
        out.push(revised(
            tournament.revision,
            (
                "WITH w AS (INSERT INTO tournaments \
                 (id, revision, chat, created_at, is_over, record, starts_at) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (id) DO NOTHING RETURNING 1) \
                 SELECT expect_rows((SELECT count(*) FROM w), 1)",
                "WITH w AS (UPDATE tournaments SET revision = $2, chat = $3, created_at = $4, \
                 is_over = $5, record = $6, starts_at = $7 \
                 WHERE id = $1 AND revision = $2::bigint - 1 RETURNING 1) \
                 SELECT expect_rows((SELECT count(*) FROM w), 1)",
            ),
            vec![
                Box::new(tournament.id.as_str().to_owned()),
                Box::new(int(tournament.revision)),
                Box::new(tournament.chat.to_string()),
                Box::new(int(tournament.created_at)),
                Box::new(tournament.state.is_over()),
                Box::new(encode_tournament(tournament)?),
                Box::new(tournament.due_at().map(int)),
            ],
        )?);
    }
    for (id, record) in &change.outbox {
        let to = &record.message.to;
        let platform = to.platform().map(|p| p.name().to_owned());
        // Replies never enter the outbox; should one, it gets a lane of its own.
        let lane =
            Lane::of_message(&record.message).map_or_else(|| format!("x:{}", id.0), |lane| lane.0);
        // A taken id is a unique violation, which aborts the transaction: a conflict.
        out.push(Statement::new(
            "INSERT INTO outbox (id, platform, lane, not_before, attempts, record) \
             VALUES ($1, $2, $3, $4, $5, $6)",
            vec![
                Box::new(int(id.0)),
                Box::new(platform),
                Box::new(lane),
                Box::new(int(record.not_before)),
                Box::new(i32::try_from(record.attempts).unwrap_or(i32::MAX)),
                Box::new(encode_for(record, fleet)?),
            ],
        ));
    }
    for review in &change.reviews {
        // Written once: a review stored already (another process finished first) refuses
        // the whole change as a conflict.
        out.push(Statement::new(
            "WITH w AS (INSERT INTO reviews (game_id, record) VALUES ($1, $2) \
             ON CONFLICT (game_id) DO UPDATE \
             SET record = EXCLUDED.record, claimed_by = NULL, claimed_until = NULL \
             WHERE reviews.record IS NULL RETURNING 1) \
             SELECT expect_rows((SELECT count(*) FROM w), 1)",
            vec![
                Box::new(review.game.as_str().to_owned()),
                Box::new(encode(review)?),
            ],
        ));
    }
    let mut queued: Vec<&ReviewRequest> = change.queued_reviews.iter().collect();
    queued.sort_by(|a, b| (&a.game, a.chat.to_string()).cmp(&(&b.game, b.chat.to_string())));
    for request in queued {
        // Queued once per game and chat: a second request refuses the change as a conflict.
        out.push(Statement::new(
            "WITH w AS (INSERT INTO review_requests (game_id, chat, record) VALUES ($1, $2, $3) \
             ON CONFLICT (game_id, chat) DO NOTHING RETURNING 1) \
             SELECT expect_rows((SELECT count(*) FROM w), 1)",
            vec![
                Box::new(request.game.as_str().to_owned()),
                Box::new(request.chat.to_string()),
                Box::new(encode(request)?),
            ],
        ));
    }
    for request in &change.dequeued_reviews {
        // Posted once: a review no longer queued (another process posted it) is a conflict.
        out.push(Statement::new(
            "WITH w AS (DELETE FROM review_requests WHERE game_id = $1 AND chat = $2 RETURNING 1) \
             SELECT expect_rows((SELECT count(*) FROM w), 1)",
            vec![
                Box::new(request.game.as_str().to_owned()),
                Box::new(request.chat.to_string()),
            ],
        ));
    }
    for (id, sent) in &change.sent {
        // Done with: out of the outbox, and its platform reference kept for later edits
        // (only if it was still there: a message given up twice is remembered once).
        out.push(Statement::new(
            "WITH done AS (DELETE FROM outbox WHERE id = $1 RETURNING id) \
             INSERT INTO sent (id, at, platform_ref) \
             SELECT id, $2, $3 FROM done WHERE $3::text IS NOT NULL \
             ON CONFLICT (id) DO UPDATE SET at = EXCLUDED.at, platform_ref = EXCLUDED.platform_ref",
            vec![
                Box::new(int(id.0)),
                Box::new(int(sent.at)),
                Box::new(sent.platform_ref.clone()),
            ],
        ));
    }
    for (id, deferral) in &change.deferred {
        // Delivered or given up meanwhile: the row is gone and nothing is deferred.
        out.push(Statement::new(
            "UPDATE outbox SET attempts = $2, not_before = $3, claimed_by = NULL, \
             claimed_until = NULL WHERE id = $1",
            vec![
                Box::new(int(id.0)),
                Box::new(i32::try_from(deferral.attempts).unwrap_or(i32::MAX)),
                Box::new(int(deferral.not_before)),
            ],
        ));
    }
    for id in &change.hastened {
        // Its claim, if it has one, stays; delivered meanwhile, the row is gone.
        out.push(Statement::new(
            "UPDATE outbox SET not_before = 0 WHERE id = $1",
            vec![Box::new(int(id.0))],
        ));
    }
    Ok(out)
}

/// A pooled connection in the middle of a transaction. Should the commit be abandoned
/// half-way (its future dropped), the connection is closed rather than returned to the pool
/// with the transaction open; the server then rolls it back.
pub(crate) struct InTransaction(Option<Object>);

impl InTransaction {
    pub(crate) fn client(&self) -> &Object {
        self.0.as_ref().expect("present until finished")
    }

    /// The transaction is over (committed or rolled back): the connection may be reused.
    pub(crate) fn finished(mut self) {
        self.0.take();
    }
}

impl Drop for InTransaction {
    fn drop(&mut self) {
        if let Some(object) = self.0.take() {
            drop(Object::take(object));
        }
    }
}

/// Why a flight did not commit.
pub(crate) enum Refusal {
    /// The request's key has an answer already (read it after the rollback).
    Answered,
    /// Anything else.
    Failed(CommitError),
}

impl From<CommitError> for Refusal {
    fn from(e: CommitError) -> Refusal {
        Refusal::Failed(e)
    }
}

impl From<StoreError> for Refusal {
    fn from(e: StoreError) -> Refusal {
        Refusal::Failed(e.into())
    }
}

/// Sends `change` to the server in one flight: BEGIN, every statement, COMMIT. The server
/// runs them in order; the first that fails aborts the transaction, and the COMMIT behind it
/// then rolls back. One round trip instead of one per statement.
pub(crate) async fn commit_in_one_flight(
    client: Object,
    change: &Change,
    schema: &str,
    fleet: u8,
) -> Result<(), Refusal> {
    let mut statements = statements(change, fleet)?;
    // Sent on commit only, in commit order: other processes' followers hear each revision.
    for game in &change.games {
        statements.push(Statement::new(
            "SELECT pg_notify($1, $2)",
            vec![
                Box::new(notify::channel(schema)),
                Box::new(notify::payload(&game.id, game.revision)),
            ],
        ));
    }
    let mut prepared = Vec::with_capacity(statements.len());
    for statement in &statements {
        prepared.push(
            client
                .prepare_cached(statement.sql)
                .await
                .map_err(commit_error)?,
        );
    }
    let client = InTransaction(Some(client));
    let begin = if change.durable {
        "BEGIN"
    } else {
        // Delivery bookkeeping: a crash may lose the last moments of it, which resends.
        "BEGIN; SET LOCAL synchronous_commit TO OFF"
    };
    type Flight<'a> = std::pin::Pin<
        Box<dyn std::future::Future<Output = Result<(), tokio_postgres::Error>> + Send + 'a>,
    >;
    let db: &tokio_postgres::Client = client.client();
    let mut flight: Vec<Flight<'_>> = Vec::with_capacity(statements.len() + 2);
    flight.push(Box::pin(db.batch_execute(begin)));
    for (statement, prepared) in statements.iter().zip(&prepared) {
        flight.push(Box::pin(async move {
            let params: Vec<&(dyn ToSql + Sync)> = statement
                .params
                .iter()
                .map(|p| p.as_ref() as &(dyn ToSql + Sync))
                .collect();
            db.execute(prepared, &params).await.map(drop)
        }));
    }
    flight.push(Box::pin(db.batch_execute("COMMIT")));
    // Polled in order, so sent in order (tokio-postgres pipelines concurrent requests).
    let mut results = futures_util::future::join_all(flight).await;
    let committed = results.pop().expect("the COMMIT");
    let begun = results.remove(0);
    begun.map_err(commit_error)?;
    for (statement, result) in statements.iter().zip(results) {
        let Err(e) = result else { continue };
        client.finished();
        let changed = e.code().is_some_and(|c| c.code() == CHANGED_MEANWHILE);
        return Err(match (changed, statement.answers_request) {
            (true, true) => Refusal::Answered,
            (true, false) => CommitError::Conflict.into(),
            _ => commit_error(e).into(),
        });
    }
    committed.map_err(commit_error)?;
    client.finished();
    Ok(())
}
