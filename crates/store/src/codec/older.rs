//! Records in the shape of an older codec schema, for a fleet that still runs the previous
//! release (the `fleet` module says when and why): each record's
//! [`super::Record::older_shape`] is one of the functions here.

use serde::{Deserialize, Serialize};

use crate::StoreError;
use crate::ids::{ChallengeId, ChatId, GameId, UserId};
use crate::language::Language;
use crate::message::{ButtonAction, Destination, Message, MessageKind};
use crate::records::{
    AnswerRecord, ChallengeRecord, ChatPuzzles, ChatRecord, GameRecord, ImageRecipe, OutboxRecord,
    PlayerRecord,
};
use crate::settings::{BoardMode, ChatSettings, Notation, Orientation, Style};

/// The oldest fleet version this release writes for: the previous release's codec (f61d864).
pub const OLDEST_WRITABLE: u8 = 4;

/// The first fleet version in which each thing only newer releases read may be stored: a
/// feature that would store it waits until `store.fleet() >= since::X`.
pub mod since {
    /// A game or challenge with "nobody sees" (`secret-captures`).
    pub const SECRET_CAPTURES: u8 = 5;
    /// Deferred replies (`Destination::DeferredReply`), stale-button edits
    /// (`Destination::StaleButtons`) and edits that change only the buttons (empty text).
    pub const DEFERRED_AND_BUTTON_EDITS: u8 = 6;
    /// A live game on a clock (`GameRecord::clock`, `ChallengeRecord::control`).
    pub const CLOCKS: u8 = 7;
    /// A rating in a live speed (`PlayerRecord::live`), and a game's verdict of a time-out
    /// drawn against a side that cannot mate (`DrawBy::TimeoutWithoutMatingMaterial`). A
    /// live game is rated in its speed when it ends and may end in that draw, so the service
    /// starts live games only from here on (not from [`CLOCKS`]): a record it could not
    /// write would hold the game's end back.
    pub const SPEED_RATINGS: u8 = 8;
    /// The Rematch button under a result (`ButtonAction::Rematch`). An older fleet's
    /// messages leave it off: the rematch is still there to ask for with `/rematch`.
    pub const REMATCH: u8 = 8;
    /// A chat's tournament settings other than the defaults: everyone may create, a time
    /// zone other than UTC (`ChatSettings::tournaments`, `ChatSettings::zone`).
    pub const CHAT_TOURNAMENT_SETTINGS: u8 = 9;
}

/// The postcard bytes of `value`.
pub(crate) fn body<T: Serialize + ?Sized>(value: &T) -> Result<Vec<u8>, StoreError> {
    postcard::to_allocvec(value)
        .map_err(|e| StoreError::Corrupt(format!("cannot encode a record: {e}")))
}

/// `full` without `tail`, the stored form of its last fields (postcard writes a struct as
/// its fields one after another, so the last fields are a suffix).
fn without_tail<T: Serialize>(mut full: Vec<u8>, tail: &T) -> Result<Vec<u8>, StoreError> {
    let tail = body(tail)?;
    if !full.ends_with(&tail) {
        return Err(StoreError::Corrupt(
            "a record's last fields are not where its older shape ends".to_owned(),
        ));
    }
    full.truncate(full.len() - tail.len());
    Ok(full)
}

fn not_yet(what: &str, needs: u8, fleet: u8) -> StoreError {
    StoreError::NotYet {
        what: what.to_owned(),
        needs: u32::from(needs),
        fleet: u32::from(fleet),
    }
}

/// Schemas 5 and 6 lack a game's last field (`clock`); schema 4 also the three before it
/// (rules revision, secret captures, verdict).
pub(crate) fn older_game(game: &GameRecord, version: u8) -> Result<Vec<u8>, StoreError> {
    if game.clock.is_some() && version < since::CLOCKS {
        return Err(not_yet("a game on a clock", since::CLOCKS, version));
    }
    let drawn_without_mating_material = matches!(
        game.verdict,
        Some(crate::Verdict::Draw(
            crate::verdict::DrawBy::TimeoutWithoutMatingMaterial
        ))
    );
    if drawn_without_mating_material && version < since::SPEED_RATINGS {
        return Err(not_yet(
            "a time-out drawn against a side that cannot mate",
            since::SPEED_RATINGS,
            version,
        ));
    }
    if game.secret_captures && version < since::SECRET_CAPTURES {
        return Err(not_yet(
            "a game with secret captures",
            since::SECRET_CAPTURES,
            version,
        ));
    }
    let mut bytes = body(game)?;
    if version < since::CLOCKS {
        bytes = without_tail(bytes, &None::<()>)?;
    }
    if version < 5 {
        bytes = without_tail(
            bytes,
            &(game.rules_revision, game.secret_captures, &game.verdict),
        )?;
    }
    Ok(bytes)
}

/// Schemas 5 and 6 lack a challenge's last field (`control`); schema 4 also the one before
/// it (`secret_captures`).
pub(crate) fn older_challenge(
    challenge: &ChallengeRecord,
    version: u8,
) -> Result<Vec<u8>, StoreError> {
    if challenge.control.is_some() && version < since::CLOCKS {
        return Err(not_yet("a challenge on a clock", since::CLOCKS, version));
    }
    if challenge.secret_captures && version < since::SECRET_CAPTURES {
        return Err(not_yet(
            "a challenge with secret captures",
            since::SECRET_CAPTURES,
            version,
        ));
    }
    let mut bytes = body(challenge)?;
    if version < since::CLOCKS {
        bytes = without_tail(bytes, &None::<()>)?;
    }
    if version < 5 {
        bytes = without_tail(bytes, &challenge.secret_captures)?;
    }
    Ok(bytes)
}

/// Schemas 4 to 7 lack a player's last field (`live`): a player rated in a live speed waits
/// for the fleet (live games do, see [`since::SPEED_RATINGS`]).
pub(crate) fn older_player(player: &PlayerRecord, version: u8) -> Result<Vec<u8>, StoreError> {
    if !player.live.is_empty() && version < since::SPEED_RATINGS {
        return Err(not_yet(
            "a rating in a live speed",
            since::SPEED_RATINGS,
            version,
        ));
    }
    let bytes = body(player)?;
    if version < since::SPEED_RATINGS {
        return without_tail(bytes, &player.live);
    }
    Ok(bytes)
}

/// A chat as schemas 4 to 8 stored it: the settings without who may create a tournament
/// and the time zone (schemas 1 to 3 also lacked `puzzles`, completed before reading).
#[derive(Serialize, Deserialize)]
pub(crate) struct ChatV8 {
    chat: ChatId,
    revision: u64,
    settings: SettingsV8,
    games: Vec<GameId>,
    challenges: Vec<ChallengeId>,
    watching: Vec<GameId>,
    players: Vec<UserId>,
    finished: Vec<GameId>,
    puzzles: ChatPuzzles,
}

#[derive(Serialize, Deserialize)]
struct SettingsV8 {
    language: Language,
    style: Style,
    orientation: Orientation,
    notation: Notation,
    board: BoardMode,
}

impl From<ChatV8> for ChatRecord {
    fn from(old: ChatV8) -> ChatRecord {
        let s = old.settings;
        ChatRecord {
            chat: old.chat,
            revision: old.revision,
            settings: ChatSettings {
                language: s.language,
                style: s.style,
                orientation: s.orientation,
                notation: s.notation,
                board: s.board,
                ..ChatSettings::for_language(s.language)
            },
            games: old.games,
            challenges: old.challenges,
            watching: old.watching,
            players: old.players,
            finished: old.finished,
            puzzles: old.puzzles,
        }
    }
}

/// Schemas 4 to 8 lack the chat settings' last two fields: a chat whose settings say more
/// than admins and UTC waits for the fleet ([`since::CHAT_TOURNAMENT_SETTINGS`]; the service
/// refuses to set them before).
pub(crate) fn older_chat(chat: &ChatRecord, version: u8) -> Result<Vec<u8>, StoreError> {
    let needs = since::CHAT_TOURNAMENT_SETTINGS;
    if version >= needs {
        return body(chat);
    }
    let s = &chat.settings;
    if !s.fit_schema_8() {
        return Err(not_yet("a chat's tournament settings", needs, version));
    }
    body(&ChatV8 {
        chat: chat.chat.clone(),
        revision: chat.revision,
        settings: SettingsV8 {
            language: s.language,
            style: s.style,
            orientation: s.orientation,
            notation: s.notation,
            board: s.board,
        },
        games: chat.games.clone(),
        challenges: chat.challenges.clone(),
        watching: chat.watching.clone(),
        players: chat.players.clone(),
        finished: chat.finished.clone(),
        puzzles: chat.puzzles.clone(),
    })
}

/// Schemas 4 and 5 lack an outbox entry's last field, `covers`, and every message read by
/// an older schema is in its words ([`older_message`]).
pub(crate) fn older_outbox(record: &OutboxRecord, version: u8) -> Result<Vec<u8>, StoreError> {
    if version >= 6 {
        return body(&OutboxRecord {
            message: older_message(&record.message, version)?,
            ..record.clone()
        });
    }
    let older = OutboxRecord {
        message: older_message(&record.message, version)?,
        covers: None,
        ..record.clone()
    };
    without_tail(body(&older)?, &older.covers)
}

/// A stored answer's messages in the older release's words; a PGN recipe (which it does not
/// know) is left off.
pub(crate) fn older_answer(record: &AnswerRecord, version: u8) -> Result<Vec<u8>, StoreError> {
    let mut older = record.clone();
    for reply in &mut older.replies {
        reply.message = older_message(&reply.message, version)?;
        if matches!(reply.picture, Some(ImageRecipe::Pgn { .. })) {
            reply.picture = None;
        }
    }
    body(&older)
}

/// `message` as the release of codec schema `version` knows messages: before schema 8 no
/// Rematch button; before 6 (the release of codec schema 4) five kinds of button, no review
/// kind, no deferred replies or stale-button edits, and an edit always with its text.
pub fn older_message(message: &Message, version: u8) -> Result<Message, StoreError> {
    let needs = since::DEFERRED_AND_BUTTON_EDITS;
    if version >= needs {
        let mut older = message.clone();
        if version < since::REMATCH {
            older
                .buttons
                .retain(|button| !matches!(button.action, ButtonAction::Rematch(_)));
        }
        return Ok(older);
    }
    match &message.to {
        Destination::DeferredReply(_) => return Err(not_yet("a deferred reply", needs, version)),
        Destination::StaleButtons(_) => {
            return Err(not_yet("a stale-button edit", needs, version));
        }
        Destination::Chat(_) | Destination::Private(_) | Destination::ReplyToRequester { .. } => {}
    }
    if message.replaces.is_some() && message.text.is_empty() {
        return Err(not_yet("an edit of only the buttons", needs, version));
    }
    let mut older = message.clone();
    if older.kind == MessageKind::Review {
        older.kind = MessageKind::Notice;
    }
    older.buttons = message
        .buttons
        .iter()
        .filter_map(|button| {
            let action = match &button.action {
                ButtonAction::ResignAt(game, _) => ButtonAction::Resign(game.clone()),
                ButtonAction::OfferDrawAt(game, _) => ButtonAction::OfferDraw(game.clone()),
                known @ (ButtonAction::Accept(_)
                | ButtonAction::Decline(_)
                | ButtonAction::Resign(_)
                | ButtonAction::ResignConfirm(_)
                | ButtonAction::OfferDraw(_)) => known.clone(),
                ButtonAction::Review(_)
                | ButtonAction::Link(_)
                | ButtonAction::PlayOnBoard(_)
                | ButtonAction::App(_)
                | ButtonAction::PlayInDiscord(_)
                | ButtonAction::Rematch(_)
                | ButtonAction::JoinTournament(_)
                | ButtonAction::LeaveTournament(_) => return None,
            };
            Some(crate::message::Button {
                action,
                ..button.clone()
            })
        })
        .collect();
    Ok(older)
}
