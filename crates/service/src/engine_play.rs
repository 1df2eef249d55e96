//! Games against the built-in engine (`/play bot`): its user, and its moves.
//!
//! The engine thinks off the request path: a task per game reads the engine's own view and the
//! legal moves (never the deal), the search runs on a blocking thread, and the chosen move is
//! applied like a human's (one transaction with its board posts). The task holds only a weak
//! reference to the service while it thinks, so closing the service never waits for it; a
//! game whose side to move is the engine is resumed when the service opens and at every
//! `tick`, and a move is played only if the game is still at the ply it was chosen for, so
//! the engine moves exactly once per turn even across restarts or several processes. In a
//! live game it thinks on its own clock as the server keeps it (`engine_clock`).

use std::sync::{Arc, Weak};

use jieqi_engine::{Budget, Engine, Level};
use jieqi_rules::{GameMove, View, Viewer};

use crate::announce::side_of;
use crate::context::engine_to_move;
use crate::context::{Ctx, Step, rebuild};
use crate::ids::{GameId, Platform, engine_user_id};
use crate::lifecycle::{after_move, settle_draw_offer};
use crate::service::Service;
use crate::state::{Inner, lock};
use crate::store::StoreError;

/// What the engine is asked: its own view, the legal moves, and how to think.
struct Question {
    view: View,
    legal: Vec<GameMove>,
    level: Level,
    /// The level's budget, on the engine's clock in a live game as of the question.
    budget: Budget,
    seed: u64,
    ply: usize,
}

impl Service {
    /// Starts the engine thinking in every running game where it is to move (at `tick`; the
    /// clock's first tick comes at once, so a restart resumes them).
    pub(crate) async fn resume_engines(&self) {
        for platform in Platform::ALL {
            let games = match self.inner.store.player(&engine_user_id(platform)).await {
                Ok(Some(player)) => player.games,
                Ok(None) => continue,
                Err(error) => {
                    tracing::error!(%error, "cannot read the engine's games");
                    continue;
                }
            };
            for id in games {
                if let Ok(Some(_)) = question(&self.inner, &id).await {
                    self.think_later(id);
                }
            }
        }
    }

    /// Lets the engine choose its move in game `id` on its own task, unless it already is.
    pub(crate) fn think_later(&self, id: GameId) {
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        if !lock(&self.inner.thinking).insert(id.clone()) {
            return;
        }
        let weak = Arc::downgrade(&self.inner);
        runtime.spawn(async move {
            think_and_play(&weak, &id).await;
            if let Some(inner) = weak.upgrade() {
                lock(&inner.thinking).remove(&id);
            }
        });
    }

    /// Plays the engine's `mv` in game `id` if the game is still at `ply` with the engine to
    /// move (one transaction, retried on conflicts).
    async fn play_engine_move(&self, id: &GameId, ply: usize, mv: GameMove) {
        let now = self.inner.config.wall_clock.now();
        match self
            .commit_unattended_at(now, |ctx| {
                let id = id.clone();
                Box::pin(async move { engine_move(ctx, &id, ply, mv).await })
            })
            .await
        {
            // Still holding the game lock: the human's reply cannot be missed.
            Ok(true) => {
                lock(&self.inner.thinking).remove(id);
            }
            Ok(false) => {}
            Err(error) => {
                tracing::error!(%error, game = %id, "the engine's move was not recorded");
            }
        }
    }
}

/// The engine's question in game `id`, if it is to move there.
async fn question(inner: &Inner, id: &GameId) -> Result<Option<Question>, StoreError> {
    let Some(record) = inner.store.game(id).await? else {
        return Ok(None);
    };
    let game = match inner.cached_game(id, record.revision) {
        Some(game) => game,
        None => rebuild(&record)?,
    };
    let loaded = crate::context::LoadedGame { record, game };
    if !engine_to_move(&loaded) {
        return Ok(None);
    }
    let Some(engine) = loaded.record.engine.as_ref() else {
        return Ok(None);
    };
    let level = engine
        .level
        .parse::<Level>()
        .map_err(|e| StoreError::Corrupt(format!("game {id} has an unknown engine level: {e}")))?;
    // Its own side's view; in Banqi before the first flip nobody has a colour and the
    // public view is all there is to know.
    let viewer = match side_of(&loaded.game, engine.seat) {
        Some(side) => Viewer::Player(side),
        None => Viewer::Public,
    };
    let side = crate::store::game_clock::side_of_seat(engine.seat);
    let budget =
        crate::engine_clock::budget(level, loaded.record.clock.as_ref(), side, inner.clock_now());
    Ok(Some(Question {
        view: loaded.game.view(viewer),
        legal: loaded.game.legal_moves(),
        level,
        budget,
        seed: engine.seed,
        ply: loaded.game.ply(),
    }))
}

/// Asks the engine (on a blocking thread) and plays its answer.
async fn think_and_play(weak: &Weak<Inner>, id: &GameId) {
    let asked = {
        let Some(inner) = weak.upgrade() else {
            return;
        };
        question(&inner, id).await
    };
    let Question {
        view,
        legal,
        level,
        budget,
        seed,
        ply,
    } = match asked {
        Ok(Some(question)) => question,
        Ok(None) => return,
        Err(error) => {
            tracing::error!(%error, game = %id, "the engine cannot read its game");
            return;
        }
    };
    let chosen = tokio::task::spawn_blocking(move || {
        let started = std::time::Instant::now();
        let chosen = Engine::with_budget(level, budget, seed).choose(&view, &legal);
        (chosen, started.elapsed())
    })
    .await;
    if let (Ok((_, took)), Some(inner)) = (&chosen, weak.upgrade()) {
        inner.metrics.engine_thought(level.name(), *took);
    }
    let mv = match chosen.map(|(chosen, _)| chosen) {
        Ok(Ok(mv)) => mv,
        Ok(Err(error)) => {
            tracing::error!(%error, game = %id, "the engine found no move");
            return;
        }
        Err(error) => {
            tracing::error!(%error, game = %id, "the engine's search failed");
            return;
        }
    };
    // The service may have closed while the engine thought: then the next one resumes.
    let Some(inner) = weak.upgrade() else {
        return;
    };
    Service { inner }.play_engine_move(id, ply, mv).await;
}

/// The engine's move as one change, if the game still waits for it at `ply`.
async fn engine_move(ctx: &mut Ctx<'_>, id: &GameId, ply: usize, mv: GameMove) -> Step {
    ctx.lock_game(id).await;
    let Some(mut loaded) = ctx.load_game(id).await? else {
        return Ok(());
    };
    if !engine_to_move(&loaded) || loaded.game.ply() != ply {
        // Played already (another process, before a restart) or the game ended meanwhile.
        return Ok(());
    }
    let mover = crate::announce::our_seat(loaded.game.seat_to_move());
    if let Err(flagged) =
        crate::live_clock::press(ctx, &mut loaded.record, mover, std::time::Duration::ZERO)
    {
        return crate::live_clock::end_on_time(ctx, loaded, flagged).await;
    }
    if let Err(error) = loaded.game.play(mv) {
        tracing::error!(%error, game = %id, "the engine chose a move the rules refuse");
        return Ok(());
    }
    loaded.record.moves = loaded.game.move_record_texts();
    crate::lifecycle::start_clock(ctx, &mut loaded.record);
    let engine_seat = loaded.record.engine.as_ref().map(|e| e.seat);
    // Moving answers the human's draw offer with a no, as a human's move would.
    if loaded
        .record
        .draw_offer
        .as_ref()
        .is_some_and(|o| Some(o.by) != engine_seat)
    {
        settle_draw_offer(ctx, &mut loaded, "draw-offer-lapsed").await?;
    }
    after_move(ctx, loaded).await
}
