//! `/unwatch [id]`: stops this chat following a game (every followed game without an id).

use super::optional_game;
use crate::context::{Ctx, Sentence, Step, refuse};
use crate::ids::GameId;
use crate::message::MessageKind;

#[derive(Debug)]
pub(crate) struct Unwatch {
    game: Option<GameId>,
}

impl Unwatch {
    pub(crate) fn parse(args: &[&str]) -> Result<Unwatch, Sentence> {
        Ok(Unwatch {
            game: optional_game(args, "/unwatch <id>")?,
        })
    }

    pub(crate) async fn apply(&self, ctx: &mut Ctx<'_>) -> Step {
        let chat_id = ctx.chat_id()?.clone();
        let mut chat = ctx.chat_record(&chat_id).await?;
        let mut games: Vec<GameId> = match &self.game {
            Some(id) if chat.watching.contains(id) => vec![id.clone()],
            Some(id) => {
                return refuse(Sentence::new("refuse-not-watching-game").arg("game", id.as_str()));
            }
            None => chat.watching.clone(),
        };
        if games.is_empty() {
            return refuse(Sentence::new("refuse-not-watching"));
        }
        // Always lock in the same order, so two requests never wait on each other.
        games.sort();
        for id in &games {
            ctx.lock_game(id).await;
            if let Some(mut loaded) = ctx.load_game(id).await? {
                loaded.record.watchers.retain(|c| *c != chat_id);
                loaded.record.posts.retain(|p| p.chat != chat_id);
                ctx.save_loaded(loaded);
            }
        }
        chat.watching.retain(|g| !games.contains(g));
        ctx.save_chat(chat);
        let list = games
            .iter()
            .map(GameId::as_str)
            .collect::<Vec<_>>()
            .join(", ");
        ctx.reply_text(
            MessageKind::Notice,
            false,
            &Sentence::new("watch-stopped").arg("games", list),
        );
        Ok(())
    }
}
