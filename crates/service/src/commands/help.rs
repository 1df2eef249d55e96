//! `/help`: the commands.

use crate::context::{Ctx, Sentence, Step};
use crate::message::MessageKind;

#[derive(Debug)]
pub(crate) struct Help;

impl Help {
    pub(crate) fn parse(_args: &[&str]) -> Result<Help, Sentence> {
        Ok(Help)
    }

    pub(crate) async fn apply(&self, ctx: &mut Ctx<'_>) -> Step {
        ctx.reply_text(MessageKind::Guide, false, &Sentence::new("help-text"));
        Ok(())
    }
}
