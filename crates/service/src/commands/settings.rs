//! `/settings [name value]`: the chat's language (en, zh, vi), piece style (characters,
//! symbols), board orientation (red, black), notation (wxf, coordinates, chinese,
//! traditional; independent of the language), board messages (new: one per move, edit: one
//! edited message), who may create a tournament (`tournaments admins|everyone`) and the
//! chat's time zone (`timezone UTC+8`: an offset, what `/tournament ... at 20:00` means and
//! how its events' moments are written). Without arguments: the current ones. Only the chat's
//! admins change the chat's settings; anyone shows them.
//!
//! `/settings my-style characters|symbols|chat` and `/settings my-orientation red|black|own`:
//! the caller's own choices for the pictures only they see (`/peek`, private reveals).

use crate::context::{Ctx, Sentence, Step, refuse};
use crate::i18n::Language;
use crate::message::MessageKind;
use crate::settings::{
    BoardMode, Notation, Orientation, PersonalSettings, Style, TournamentCreators, UtcOffset,
};

#[derive(Debug)]
pub(crate) enum Settings {
    Show,
    Language(Language),
    Style(Style),
    Orientation(Orientation),
    Notation(Notation),
    Board(BoardMode),
    /// Who may create a tournament.
    Tournaments(TournamentCreators),
    /// The chat's time zone.
    Zone(UtcOffset),
    /// The caller's own piece style; `None`: the chat's.
    MyStyle(Option<Style>),
    /// The caller's own orientation of their private pictures; `None`: their own side.
    MyOrientation(Option<Orientation>),
}

/// A choice or `default` (a word meaning "not my own choice").
fn own_choice<T: std::str::FromStr>(value: &str, default: &str) -> Result<Option<T>, ()> {
    if value.eq_ignore_ascii_case(default) {
        Ok(None)
    } else {
        value.parse().map(Some).map_err(|_| ())
    }
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
                "tournaments" | "tournament" => value
                    .parse()
                    .map(Settings::Tournaments)
                    .map_err(|()| bad(name, value, "admins, everyone")),
                // Offsets only: the bot's players (China, Vietnam) keep no daylight saving.
                "timezone" | "time-zone" | "zone" | "tz" => {
                    value.parse().map(Settings::Zone).map_err(|_| {
                        Sentence::new("refuse-setting-zone").arg("value", super::shown(value))
                    })
                }
                "my-style" | "mystyle" => own_choice(value, "chat")
                    .map(Settings::MyStyle)
                    .map_err(|()| bad(name, value, "characters, symbols, chat")),
                "my-orientation" | "myorientation" => own_choice(value, "own")
                    .map(Settings::MyOrientation)
                    .map_err(|()| bad(name, value, "red, black, own")),
                _ => Err(Sentence::new("refuse-setting-name").arg("name", super::shown(name))),
            },
            _ => Err(Sentence::new("refuse-usage").arg("usage", "/settings language vi")),
        }
    }

    pub(crate) async fn apply(&self, ctx: &mut Ctx<'_>) -> Step {
        match *self {
            Settings::MyStyle(style) => {
                return personal(ctx, |p| p.style = style).await;
            }
            Settings::MyOrientation(orientation) => {
                return personal(ctx, |p| p.orientation = orientation).await;
            }
            Settings::Show => {}
            _ if !ctx.req()?.is_admin => return refuse(Sentence::new("refuse-settings-admins")),
            _ => {}
        }
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
            Settings::Tournaments(creators) => settings.tournaments = creators,
            Settings::Zone(zone) => settings.zone = zone,
            Settings::MyStyle(_) | Settings::MyOrientation(_) => {}
        }
        let s = *settings;
        let changed = !matches!(self, Settings::Show);
        // An older release beside this one could not read the chat back (the codec's
        // `since::CHAT_TOURNAMENT_SETTINGS`): it knows only settings that fit schema 8.
        if changed
            && !s.fit_schema_8()
            && ctx.inner.store.fleet() < crate::store::fleet::since::CHAT_TOURNAMENT_SETTINGS
        {
            return refuse(Sentence::new("refuse-setting-not-yet"));
        }
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
            .arg("board", s.board.name())
            .arg("tournaments", s.tournaments.name())
            .arg("zone", s.zone.to_string()),
        );
        ctx.reply(crate::message::Message::text(
            crate::message::Destination::ReplyToRequester { ephemeral: false },
            MessageKind::Guide,
            text,
        ));
        Ok(())
    }
}

/// Changes the caller's own picture choices and says what they are now.
async fn personal(ctx: &mut Ctx<'_>, change: impl FnOnce(&mut PersonalSettings)) -> Step {
    let user = ctx.user()?;
    let mut player = ctx.player_record(user).await?;
    change(&mut player.personal);
    let chosen = player.personal;
    ctx.save_player(player);
    let sentence = Sentence::new("settings-personal")
        .arg("style", chosen.style.map_or("chat", Style::name))
        .arg(
            "orientation",
            chosen.orientation.map_or("own", Orientation::name),
        );
    ctx.reply_text(MessageKind::Guide, true, &sentence);
    Ok(())
}
