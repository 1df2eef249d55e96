//! `/move [id] <move>`: plays a move in the caller's game. Coordinates (`h2e2`), WXF
//! (`C2.5`) and Chinese (`炮二平五`) are read by the rules crate; Banqi takes `c3` (flip) and
//! `c3c4` (move). An id is needed only when the caller has several games here.

use jieqi_rules::banqi::BanqiError;
use jieqi_rules::notation::MoveInputError;
use jieqi_rules::{GameError, Variant};

use super::my_running_game;
use crate::announce::{our_seat, player_label};
use crate::context::{Ctx, Sentence, Step, refuse};
use crate::ids::GameId;
use crate::lifecycle::{after_move, settle_draw_offer};

#[derive(Debug)]
pub(crate) struct Move {
    game: Option<GameId>,
    text: String,
}

const USAGE: &str = "/move <id> h2e2";

impl Move {
    pub(crate) fn parse(args: &[&str]) -> Result<Move, Sentence> {
        match args {
            [] => Err(Sentence::new("refuse-move-missing")),
            [first, rest @ ..] if !rest.is_empty() && first.parse::<GameId>().is_ok() => Ok(Move {
                game: first.parse().ok(),
                text: rest.concat(),
            }),
            // "h2 e2" is read as "h2e2".
            all => Ok(Move {
                game: None,
                text: all.concat(),
            }),
        }
    }

    pub(crate) async fn apply(&self, ctx: &mut Ctx<'_>) -> Step {
        let (mut loaded, seat) = my_running_game(ctx, self.game.as_ref(), USAGE).await?;
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
        if let Err(e) = loaded.game.play(mv) {
            return refuse(explain(&e, &self.text, loaded.record.variant));
        }
        loaded.record.moves = loaded.game.move_record_texts();
        crate::lifecycle::start_clock(&mut loaded.record, ctx.now);
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

/// The refusal for a move the rules would not take.
fn explain(error: &GameError, text: &str, variant: Variant) -> Sentence {
    let unknown = if variant == Variant::Banqi {
        "refuse-unknown-notation-banqi"
    } else {
        "refuse-unknown-notation"
    };
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
    }
}
