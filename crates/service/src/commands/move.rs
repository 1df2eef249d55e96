//! `/move [id] <move>`: plays a move in the caller's game. Coordinates (`h2e2`), WXF
//! (`C2.5`) and Chinese (`炮二平五`) are read by the rules crate; Banqi takes `c3` (flip) and
//! `c3c4` (move). An id is needed only when the caller has several games here. Someone with
//! no game in this chat answers their open lesson of the rules course (`learn.rs`) if they
//! have one, else the chat's open puzzle (see `puzzle_play`).

use jieqi_rules::banqi::BanqiError;
use jieqi_rules::notation::MoveInputError;
use jieqi_rules::{GameError, Variant};

use super::my_running_game;
use crate::announce::{our_seat, player_label};
use crate::context::{Ctx, Sentence, Step, refuse};
use crate::ids::GameId;
use crate::lifecycle::{after_move, settle_draw_offer};
use crate::puzzle_play;

#[derive(Debug)]
pub(crate) struct Move {
    game: Option<GameId>,
    text: String,
    /// When the first word is both a game id and a move (`h9g7` could be either): the words
    /// after it, which are extra if there is no such game.
    extra_if_move: Option<String>,
    /// The network delay measured for the move (the web board's tap to its arrival), given
    /// back by a live game's clock within its quota; zero for a typed command.
    lag: std::time::Duration,
}

const USAGE: &str = "/move <id> h2e2";

/// True for a whole coordinate move (`h2e2`, `h2-e2`, `b9c7c`, Banqi `c3c4`): a word that
/// needs nothing after it.
fn is_coordinate_move(word: &str) -> bool {
    let bytes: Vec<u8> = word.bytes().filter(|b| *b != b'-').collect();
    let point = |f: u8, r: u8| (b'a'..=b'i').contains(&f) && r.is_ascii_digit();
    match bytes.as_slice() {
        [f1, r1, f2, r2, rest @ ..] => {
            point(*f1, *r1) && point(*f2, *r2) && rest.len() <= 1 && word.len() <= 6
        }
        _ => false,
    }
}

impl Move {
    pub(crate) fn parse(args: &[&str]) -> Result<Move, Sentence> {
        let (game, words) = match args {
            [] => return Err(Sentence::new("refuse-move-missing")),
            [first, rest @ ..] if !rest.is_empty() && first.parse::<GameId>().is_ok() => {
                (first.parse().ok(), rest)
            }
            all => (None, all),
        };
        // "h9g7 extra words": a whole move followed by something that is not part of it.
        if let [mv, extra @ ..] = words
            && !extra.is_empty()
            && is_coordinate_move(mv)
        {
            return Err(extra_words(mv, &extra.join(" ")));
        }
        let extra_if_move = game
            .as_ref()
            .filter(|id: &&GameId| is_coordinate_move(id.as_str()))
            .map(|_| words.join(" "));
        // "h2 e2" is read as "h2e2".
        Ok(Move {
            game,
            text: words.concat(),
            extra_if_move,
            lag: std::time::Duration::ZERO,
        })
    }

    /// The same move with the network delay the web board measured for it.
    pub(crate) fn with_lag(self, lag: std::time::Duration) -> Move {
        Move { lag, ..self }
    }

    pub(crate) async fn apply(&self, ctx: &mut Ctx<'_>) -> Step {
        if let (Some(id), Some(extra)) = (&self.game, &self.extra_if_move)
            && ctx.game_record(id).await?.is_none()
        {
            return refuse(extra_words(id.as_str(), extra));
        }
        if self.game.is_none() && !has_game_in_this_chat(ctx).await? {
            // Their own lesson first: a lesson's wrong move costs nothing, a puzzle's does.
            if !has_game_anywhere(ctx).await? && super::learn::is_open(ctx).await? {
                return super::learn::answer(ctx, &self.text).await;
            }
            let request = ctx.req()?;
            let chat = ctx.chat_record(&request.chat).await?;
            if chat.puzzles.open.is_some() {
                // No game of theirs here: the move answers the chat's puzzle. The chat is
                // locked so that two answers are judged one after the other.
                ctx.lock_chat(&request.chat).await;
                let chat = ctx.chat_record(&request.chat).await?;
                return puzzle_play::answer(
                    ctx,
                    chat,
                    &request.user,
                    request.is_private_chat,
                    &self.text,
                )
                .await;
            }
            if let Some(ended) = &chat.puzzles.ended
                && !has_game_anywhere(ctx).await?
            {
                return refuse(Sentence::new("refuse-puzzle-over").arg("id", ended.as_str()));
            }
        }
        let (mut loaded, seat) = my_running_game(ctx, self.game.as_ref(), USAGE, true).await?;
        let to_move = our_seat(loaded.game.seat_to_move());
        if to_move != seat {
            let lang = ctx.lang();
            return refuse(
                Sentence::new("refuse-not-your-turn")
                    .arg("player", player_label(ctx, lang, &loaded, to_move)),
            );
        }
        let mv = match loaded.game.parse_move(&self.text) {
            Ok(mv) => mv,
            Err(e) => return refuse(explain(&e, &self.text, loaded.record.variant)),
        };
        if let Err(late) = crate::live_clock::press(ctx, &mut loaded.record, seat, self.lag) {
            // The move came after the flag (or after the 30 s its first move was due in): it
            // is refused, and the game ends on time in this same commit (a flag timer racing
            // it commits the same revision: one wins).
            crate::live_clock::end_on_time(ctx, loaded, late.seat()).await?;
            ctx.reply_text(crate::message::MessageKind::Refusal, true, &late.refusal());
            return Ok(());
        }
        if let Err(e) = loaded.game.play(mv) {
            return refuse(explain(&e, &self.text, loaded.record.variant));
        }
        loaded.record.moves = loaded.game.move_record_texts();
        crate::lifecycle::start_clock(ctx, &mut loaded.record);
        // A move answers a pending "really resign?" with a no: the next /resign asks again.
        loaded.record.prompts.resign_asked.clear();
        // Moving answers the opponent's draw offer with a no.
        if loaded
            .record
            .draw_offer
            .as_ref()
            .is_some_and(|o| o.by != seat)
        {
            settle_draw_offer(ctx, &mut loaded, "draw-offer-lapsed").await?;
        }
        after_move(ctx, loaded).await
    }
}

/// True when the caller plays a running game whose home is this chat: their moves here go
/// to it before any puzzle.
async fn has_game_in_this_chat(ctx: &Ctx<'_>) -> Step<bool> {
    let request = ctx.req()?;
    let chat = ctx.chat_record(&request.chat).await?;
    for id in &chat.games {
        if let Some(record) = ctx.game_record(id).await?
            && record.is_active()
            && record.seat_of(&request.user.id).is_some()
        {
            return Ok(true);
        }
    }
    Ok(false)
}

/// True when the caller plays a running game anywhere (a private chat's `/move` reaches it).
async fn has_game_anywhere(ctx: &Ctx<'_>) -> Step<bool> {
    let request = ctx.req()?;
    if !request.is_private_chat {
        return Ok(false);
    }
    let player = ctx.player_record(&request.user).await?;
    for id in &player.games {
        if let Some(record) = ctx.game_record(id).await?
            && record.is_active()
        {
            return Ok(true);
        }
    }
    Ok(false)
}

/// The refusal for words after a whole move.
fn extra_words(mv: &str, extra: &str) -> Sentence {
    Sentence::new("refuse-move-extra-words")
        .arg("move", super::shown(mv))
        .arg("extra", super::shown(extra))
}

/// The refusal for a move the rules would not take.
pub(super) fn explain(error: &GameError, text: &str, variant: Variant) -> Sentence {
    let unknown = if variant == Variant::Banqi {
        "refuse-unknown-notation-banqi"
    } else {
        "refuse-unknown-notation"
    };
    // The rules explain letters after the two points as Jieqi's reveal suffix: in Xiangqi
    // nothing is covered, so say what a Xiangqi move looks like instead.
    if variant == Variant::Xiangqi
        && !matches!(error, GameError::IllegalMove(_))
        && text.get(..4).is_some_and(is_coordinate_move)
        && text.len() > 4
    {
        return Sentence::new("refuse-xiangqi-move-suffix").arg("text", super::shown(text));
    }
    match error {
        GameError::BadInput(MoveInputError::Empty | MoveInputError::Unreadable { .. })
        | GameError::Banqi(BanqiError::Unreadable(_) | BanqiError::BadSquare(_))
        | GameError::WrongGame { .. } => Sentence::new(unknown).arg("text", super::shown(text)),
        GameError::IllegalMove(reason) => {
            Sentence::new("refuse-illegal-move").arg("reason", reason)
        }
        other => Sentence::new("refuse-move-not-played").arg("reason", other.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_id_is_taken_only_before_a_move() {
        let m = Move::parse(&["g7k2", "h2e2"]).unwrap();
        assert_eq!(m.game.as_ref().map(GameId::as_str), Some("g7k2"));
        assert_eq!(m.text, "h2e2");
        // A Banqi move alone looks like an id but is a move.
        let m = Move::parse(&["c3c4"]).unwrap();
        assert_eq!((m.game, m.text.as_str()), (None, "c3c4"));
        let m = Move::parse(&["h2", "e2"]).unwrap();
        assert_eq!(m.text, "h2e2");
        assert!(Move::parse(&[]).is_err());
        // A move that could be an id keeps the words after it, in case there is no game.
        let m = Move::parse(&["h9g7", "h2e2"]).unwrap();
        assert_eq!(m.extra_if_move.as_deref(), Some("h2e2"));
    }

    #[test]
    fn words_after_a_whole_move_are_refused_as_extra() {
        let refusal = Move::parse(&["b0c2", "please"]).unwrap_err();
        assert_eq!(refusal.key, "refuse-move-extra-words");
        let refusal = Move::parse(&["g7k2", "h2e2", "now"]).unwrap_err();
        assert_eq!(refusal.key, "refuse-move-extra-words");
    }
}
