//! `/start [token]`: Telegram's first message in a private chat. With an accept token (the
//! deep link of a challenge's Accept button) it accepts that challenge; with a board token
//! (`ply_<game>`, a `t.me/<bot>?start=ply_<game>` link) it answers a player with their
//! personal link to the web board, in a private chat only; otherwise it greets.

use super::accept::Accept;
use super::board_link::BoardLink;
use crate::context::{Ctx, Sentence, Step};
use crate::message::MessageKind;
use crate::request::ButtonAction;

#[derive(Debug)]
pub(crate) enum Start {
    Greet,
    Accept(Accept),
    BoardLink(BoardLink),
}

impl Start {
    pub(crate) fn parse(args: &[&str]) -> Result<Start, Sentence> {
        match args {
            [token] => match ButtonAction::decode(token) {
                Ok(ButtonAction::Accept(id)) => Ok(Start::Accept(Accept {
                    challenge: Some(id),
                })),
                Ok(ButtonAction::PlayOnBoard(game)) => Ok(Start::BoardLink(BoardLink { game })),
                _ => Ok(Start::Greet),
            },
            _ => Ok(Start::Greet),
        }
    }

    pub(crate) async fn apply(&self, ctx: &mut Ctx<'_>) -> Step {
        match self {
            Start::Accept(accept) => accept.apply(ctx).await,
            Start::BoardLink(link) => link.apply(ctx).await,
            Start::Greet => {
                ctx.reply_text(MessageKind::Guide, false, &Sentence::new("start-greeting"));
                Ok(())
            }
        }
    }
}
