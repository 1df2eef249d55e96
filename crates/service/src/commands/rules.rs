//! `/rules [variant]`: the rules in short, with a picture of the start position.

use jieqi_rules::Variant;

use crate::context::{Ctx, Sentence, Step};
use crate::pictures::start_position;
use crate::store::ImageRecipe;

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

    pub(crate) async fn apply(&self, ctx: &mut Ctx<'_>) -> Step {
        let key = match self.variant {
            Variant::Xiangqi => "rules-xiangqi",
            Variant::Jieqi => "rules-jieqi",
            Variant::Banqi => "rules-banqi",
        };
        let text = ctx.say(&Sentence::new(key));
        let settings = ctx.settings();
        let width = ctx.inner.config.board_width;
        let image = start_position(self.variant, settings.orientation, settings.style, width);
        let recipe = ImageRecipe::Start {
            variant: self.variant,
            orientation: settings.orientation,
            style: settings.style,
            width,
        };
        ctx.guide_with_picture(text, image, recipe);
        Ok(())
    }
}
