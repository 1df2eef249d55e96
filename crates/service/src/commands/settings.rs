//! `/settings [name value]`: the chat's language (en, zh, vi), piece style (characters,
//! symbols), board orientation (red, black), notation (wxf, coordinates, chinese,
//! traditional; independent of the language) and board
//! messages (new: one per move, edit: one edited message). Without arguments: the current ones.

use crate::context::{Ctx, Sentence, Step};
use crate::i18n::Language;
use crate::message::MessageKind;
use crate::settings::{BoardMode, Notation, Orientation, Style};

#[derive(Debug)]
pub(crate) enum Settings {
    Show,
    Language(Language),
    Style(Style),
    Orientation(Orientation),
    Notation(Notation),
    Board(BoardMode),
}

impl Settings {
    pub(crate) fn parse(args: &[&str]) -> Result<Settings, Sentence> {
        let bad = |name: &str, value: &str, choices: &str| {
            Sentence::new("refuse-setting-value")
                .arg("name", super::shown(name))
                .arg("value", super::shown(value))
                .arg("choices", choices)
        };
        match args {
            [] => Ok(Settings::Show),
            [name, value] => match name.to_lowercase().as_str() {
                "language" | "lang" => value
                    .parse()
                    .map(Settings::Language)
                    .map_err(|_| bad(name, value, "en, zh, vi")),
                "style" | "pieces" => value
                    .parse()
                    .map(Settings::Style)
                    .map_err(|_| bad(name, value, "characters, symbols")),
                "orientation" | "side" => value
                    .parse()
                    .map(Settings::Orientation)
                    .map_err(|_| bad(name, value, "red, black")),
                "notation" => value
                    .parse()
                    .map(Settings::Notation)
                    .map_err(|_| bad(name, value, "wxf, coordinates, chinese, traditional")),
                "board" | "messages" => value
                    .parse()
                    .map(Settings::Board)
                    .map_err(|_| bad(name, value, "new, edit")),
                _ => Err(Sentence::new("refuse-setting-name").arg("name", super::shown(name))),
            },
            _ => Err(Sentence::new("refuse-usage").arg("usage", "/settings language vi")),
        }
    }

    pub(crate) async fn apply(&self, ctx: &mut Ctx<'_>) -> Step {
        let chat_id = ctx.chat_id()?.clone();
        let mut chat = ctx.chat_record(&chat_id).await?;
        let settings = &mut chat.settings;
        match *self {
            Settings::Show => {}
            // The notation is a setting of its own: a new language never changes it.
            Settings::Language(language) => settings.language = language,
            Settings::Style(style) => settings.style = style,
            Settings::Orientation(orientation) => settings.orientation = orientation,
            Settings::Notation(notation) => settings.notation = notation,
            Settings::Board(board) => settings.board = board,
        }
        let s = *settings;
        let changed = !matches!(self, Settings::Show);
        if changed {
            ctx.save_chat(chat);
        }
        let text = ctx.say_in(
            s.language,
            &Sentence::new(if changed {
                "settings-changed"
            } else {
                "settings-current"
            })
            .arg("language", s.language.code())
            .arg("style", s.style.name())
            .arg("orientation", s.orientation.name())
            .arg("notation", s.notation.name())
            .arg("board", s.board.name()),
        );
        ctx.reply(crate::message::Message::text(
            crate::message::Destination::ReplyToRequester { ephemeral: false },
            MessageKind::Guide,
            text,
        ));
        Ok(())
    }
}
