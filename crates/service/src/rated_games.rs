//! A finished game's ratings: both players rated in the game's variant and speed (a live
//! game in its control's speed, a game on a time per move in correspondence; see
//! `jieqi_store::speed_ratings`), and the result's line saying how they moved. The speed
//! names a player types and reads are here too.

use jieqi_clock::Speed;

use crate::context::{Ctx, Sentence};
use crate::i18n::Language;
use crate::ratings::{self, Score};
use crate::store::{GameRecord, PlayerRecord, Seat, VariantStats};

/// Both players' ratings in the game's variant and speed, before and after it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RatingChange {
    speed: Speed,
    before: (VariantStats, VariantStats),
    after: (VariantStats, VariantStats),
}

/// Rates the game between `first` and `second` (its first and second seats) for the first
/// seat's `score`; `None` leaves both as they were (a game that is not rated).
pub(crate) fn rate(
    record: &GameRecord,
    first: &mut PlayerRecord,
    second: &mut PlayerRecord,
    score: Option<Score>,
) -> RatingChange {
    let (variant, speed) = (record.variant, record.speed());
    let before = (first.rating(variant, speed), second.rating(variant, speed));
    let after = match score {
        Some(score) => {
            let after = ratings::update(&before.0, &before.1, score);
            *first.rating_mut(variant, speed) = after.0;
            *second.rating_mut(variant, speed) = after.1;
            after
        }
        None => before,
    };
    RatingChange {
        speed,
        before,
        after,
    }
}

/// "New ratings: alice 1662 (+162), bob 1338 (−162)." (a live speed names itself: "New
/// ratings (Blitz): ...").
pub(crate) fn changes_text(
    ctx: &Ctx<'_>,
    lang: Language,
    record: &GameRecord,
    change: &RatingChange,
) -> String {
    let line = |seat: Seat, old: f64, new: f64| {
        let delta = new.round() - old.round();
        let delta = if delta >= 0.0 {
            format!("+{delta:.0}")
        } else {
            format!("−{:.0}", -delta)
        };
        ctx.say_in(
            lang,
            &Sentence::new("rating-change")
                .arg("player", record.player(seat).name.clone())
                .arg("rating", format!("{new:.0}"))
                .arg("change", delta),
        )
    };
    let changes = [
        line(Seat::First, change.before.0.rating, change.after.0.rating),
        line(Seat::Second, change.before.1.rating, change.after.1.rating),
    ]
    .join(", ");
    let sentence = match change.speed {
        Speed::Correspondence => Sentence::new("result-ratings"),
        speed => Sentence::new("result-ratings-speed")
            .arg("speed", ctx.say_in(lang, &Sentence::new(speed_key(speed)))),
    };
    ctx.say_in(lang, &sentence.arg("changes", changes))
}

/// The Fluent key of a speed's name.
pub(crate) fn speed_key(speed: Speed) -> &'static str {
    match speed {
        Speed::Bullet => "speed-bullet",
        Speed::Blitz => "speed-blitz",
        Speed::Rapid => "speed-rapid",
        Speed::Classical => "speed-classical",
        Speed::Correspondence => "speed-correspondence",
    }
}

/// A speed as typed (`blitz`, any case).
pub(crate) fn parse_speed(word: &str) -> Option<Speed> {
    let word = word.trim().to_ascii_lowercase();
    Speed::ALL.into_iter().find(|speed| speed.name() == word)
}
