//! `/resign [id]` (and the Resign button): the caller gives up their game.

use super::{my_running_game, optional_game};
use crate::context::{Ctx, Sentence, Step};
use crate::ids::GameId;
use crate::lifecycle::{apply_ending, finish_game};
use crate::store::Ending;

#[derive(Debug)]
pub(crate) struct Resign {
    pub(crate) game: Option<GameId>,
}

impl Resign {
    pub(crate) fn parse(args: &[&str]) -> Result<Resign, Sentence> {
        Ok(Resign {
            game: optional_game(args, "/resign <id>")?,
        })
    }

    pub(crate) async fn apply(&self, ctx: &mut Ctx<'_>) -> Step {
        let (mut loaded, seat) = my_running_game(ctx, self.game.as_ref(), "/resign <id>").await?;
        loaded.record.ending = Some(Ending::Resigned(seat));
        apply_ending(&loaded.record, &mut loaded.game);
        finish_game(ctx, loaded).await
    }
}
