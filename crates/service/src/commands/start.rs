//! `/start [token]`: Telegram's first message in a private chat. With an accept token (the
//! deep link of a challenge's Accept button) it accepts that challenge; otherwise it greets.

use super::accept::Accept;
use crate::context::{Ctx, Sentence, Step};
use crate::message::MessageKind;
use crate::request::ButtonAction;

#[derive(Debug)]
pub(crate) enum Start {
    Greet,
    Accept(Accept),
}

impl Start {
    pub(crate) fn parse(args: &[&str]) -> Result<Start, Sentence> {
        match args {
            [token] => match ButtonAction::decode(token) {
                Ok(ButtonAction::Accept(id)) => Ok(Start::Accept(Accept {
                    challenge: Some(id),
                })),
                _ => Ok(Start::Greet),
            },
            _ => Ok(Start::Greet),
        }
    }

    pub(crate) async fn apply(&self, ctx: &mut Ctx<'_>) -> Step {
        match self {
            Start::Accept(accept) => accept.apply(ctx).await,
            Start::Greet => {
                ctx.reply_text(MessageKind::Guide, false, &Sentence::new("start-greeting"));
                Ok(())
            }
        }
    }
}
