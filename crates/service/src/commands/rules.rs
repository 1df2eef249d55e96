//! `/rules [variant]`: the rules in short, with a picture of the start position.

use jieqi_rules::{Game, GameDeal, Rules, Variant, Viewer};

use crate::announce::picture;
use crate::context::{Ctx, Sentence, Step};
use crate::message::{Destination, Message, MessageKind};

#[derive(Debug)]
pub(crate) struct RulesCmd {
    variant: Variant,
}

impl RulesCmd {
    pub(crate) fn parse(args: &[&str]) -> Result<RulesCmd, Sentence> {
        match args {
            [] => Ok(RulesCmd {
                variant: Variant::Jieqi,
            }),
            [name] => name
                .parse()
                .map(|variant| RulesCmd { variant })
                .map_err(|_| {
                    Sentence::new("refuse-unknown-variant").arg("variant", super::shown(name))
                }),
            _ => Err(Sentence::new("refuse-usage").arg("usage", "/rules [jieqi|xiangqi|banqi]")),
        }
    }

    pub(crate) fn apply(&self, ctx: &mut Ctx<'_>) -> Step {
        let key = match self.variant {
            Variant::Xiangqi => "rules-xiangqi",
            Variant::Jieqi => "rules-jieqi",
            Variant::Banqi => "rules-banqi",
        };
        let text = ctx.say(&Sentence::new(key));
        // The public start position does not depend on the deal, so any deal draws it.
        let deal = GameDeal::shuffled(self.variant, &mut |_| 0);
        let image = Game::new(Rules::new(self.variant, Default::default()), deal)
            .ok()
            .and_then(|game| {
                let settings = ctx.settings();
                picture(
                    ctx,
                    &game.view(Viewer::Public),
                    settings.orientation.side(),
                    &settings,
                    format!("{}-start.png", self.variant.name()),
                )
            });
        ctx.reply(
            Message::text(
                Destination::ReplyToRequester { ephemeral: false },
                MessageKind::Guide,
                text,
            )
            .with_image(image),
        );
        Ok(())
    }
}
