//! `/resign [id]` (and the Resign button): the caller gives up their game.

use super::{my_game, optional_game};
use crate::announce::outcome_text;
use crate::context::{Ctx, Sentence, Step, refuse};
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
        let found = my_game(ctx, self.game.as_ref(), "/resign <id>")?;
        ctx.lock_game(&found.id).await;
        let Some(mut loaded) = ctx.load_game(&found.id)? else {
            return refuse(Sentence::new("refuse-no-such-game").arg("game", found.id.as_str()));
        };
        let user = ctx.user()?;
        let Some(seat) = loaded.record.seat_of(&user.id) else {
            return refuse(Sentence::new("refuse-not-a-player").arg("game", found.id.as_str()));
        };
        if let Some(outcome) = loaded.game.outcome() {
            let lang = ctx.lang();
            let result = outcome_text(ctx, lang, &loaded, outcome);
            return refuse(
                Sentence::new("refuse-game-over")
                    .arg("game", found.id.as_str())
                    .arg("result", result),
            );
        }
        loaded.record.ending = Some(Ending::Resigned(seat));
        apply_ending(&loaded.record, &mut loaded.game);
        finish_game(ctx, loaded)
    }
}
