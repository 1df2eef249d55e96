//! `/seek [time] [variant] [colour] [preset] [secret-captures]` (and `/play anyone …`, the
//! menus' "Quick game"): an open challenge anyone in the chat but the seeker may take, with
//! a "Take it" button or `/accept`. Without a time it is a blitz game, 3+2. The first taker
//! gets the game: taking removes the challenge in the commit that starts the game, so a
//! second taker (on this process or another) finds it gone and is told it was taken. The
//! post then says who took it and links the new game's board; the seeker withdraws it with
//! its Cancel button or `/cancel`.

use jieqi_rules::Variant;
use jieqi_rules::game::Preset;

use super::challenge::{Challenge, Time, colour, is_time, read_time};
use crate::context::{Ctx, Sentence, Step};

/// The game clock of a seek that names none: blitz.
const QUICK_GAME: &str = "3+2";

#[derive(Debug)]
pub(crate) struct Seek(Challenge);

impl Seek {
    pub(crate) fn parse(args: &[&str]) -> Result<Seek, Sentence> {
        let mut seek = Challenge {
            seek: true,
            ..Challenge::default()
        };
        for arg in args {
            let word = arg.to_lowercase();
            if word.starts_with('@') {
                return Err(Sentence::new("refuse-seek-user"));
            } else if let Ok(variant) = word.parse::<Variant>() {
                seek.variant = Some(variant);
            } else if let Ok(preset) = word.parse::<Preset>() {
                seek.preset = Some(preset);
            } else if word == crate::store::records::SECRET_CAPTURES {
                seek.secret_captures = true;
            } else if let Some(colour) = colour(&word) {
                seek.colour = Some(colour);
            } else if is_time(&word) {
                match read_time(arg)? {
                    Time::PerMove(time) => seek.move_time = Some(time),
                    Time::Live(control) => seek.control = Some(control),
                }
            } else {
                return Err(Sentence::new("refuse-seek-option").arg("option", super::shown(arg)));
            }
        }
        if seek.move_time.is_none() && seek.control.is_none() {
            seek.control = QUICK_GAME.parse().ok();
        }
        Ok(Seek(seek))
    }

    pub(crate) async fn apply(&self, ctx: &mut Ctx<'_>) -> Step {
        self.0.apply(ctx).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seek_is_blitz_unless_it_names_a_time() {
        let Seek(seek) = Seek::parse(&[]).unwrap();
        assert_eq!(seek.control.map(|c| c.to_string()), Some("3+2".to_owned()));
        let Seek(seek) = Seek::parse(&["10m|30s", "xiangqi"]).unwrap();
        assert_eq!(
            seek.control.map(|c| c.to_string()),
            Some("10m|30s".to_owned())
        );
        assert_eq!(seek.variant, Some(jieqi_rules::Variant::Xiangqi));
        let Seek(seek) = Seek::parse(&["1d"]).unwrap();
        assert_eq!(seek.control, None);
        assert!(seek.move_time.is_some());
    }

    #[test]
    fn a_seek_names_nobody_and_refuses_what_it_cannot_read() {
        assert_eq!(Seek::parse(&["@bob"]).unwrap_err().key, "refuse-seek-user");
        assert_eq!(
            Seek::parse(&["3+999"]).unwrap_err().key,
            "refuse-challenge-time"
        );
        assert_eq!(
            Seek::parse(&["chess"]).unwrap_err().key,
            "refuse-seek-option"
        );
    }
}
