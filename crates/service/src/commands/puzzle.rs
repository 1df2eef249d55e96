//! `/puzzle [jieqi|xiangqi|banqi]`: a puzzle near the caller's puzzle rating, one they have
//! not seen lately, posted to the chat and answered with `/move`.
//! `/puzzle daily <hour>|off` (admins): one puzzle a day at that hour (UTC) in this chat.

use jieqi_rules::Variant;

use super::shown;
use crate::context::{Ctx, Sentence, Step, refuse};
use crate::message::MessageKind;
use crate::puzzle_play::{next_daily, open, pick, set_daily};

const USAGE: &str = "/puzzle [jieqi|xiangqi|banqi] | /puzzle daily <0-23|off>";

#[derive(Debug)]
pub(crate) enum PuzzleCmd {
    /// A puzzle of this variant (Jieqi when none is named).
    Ask(Variant),
    /// Show the chat's daily-puzzle setting.
    ShowDaily,
    /// Set the daily puzzle to this hour (UTC), or off.
    SetDaily(Option<u8>),
}

impl PuzzleCmd {
    pub(crate) fn parse(args: &[&str]) -> Result<PuzzleCmd, Sentence> {
        match args {
            [] => Ok(PuzzleCmd::Ask(Variant::Jieqi)),
            [word] if word.eq_ignore_ascii_case("daily") => Ok(PuzzleCmd::ShowDaily),
            [daily, when] if daily.eq_ignore_ascii_case("daily") => {
                if when.eq_ignore_ascii_case("off") {
                    return Ok(PuzzleCmd::SetDaily(None));
                }
                // "18", "18:00" and "18h" all name the hour.
                let hour = when
                    .trim_end_matches(":00")
                    .trim_end_matches(['h', 'H'])
                    .parse::<u8>()
                    .ok()
                    .filter(|h| *h < 24);
                match hour {
                    Some(hour) => Ok(PuzzleCmd::SetDaily(Some(hour))),
                    None => Err(Sentence::new("refuse-puzzle-daily-hour").arg("hour", shown(when))),
                }
            }
            [word] => match word.to_lowercase().parse::<Variant>() {
                Ok(variant) => Ok(PuzzleCmd::Ask(variant)),
                Err(_) => Err(Sentence::new("refuse-puzzle-option").arg("option", shown(word))),
            },
            _ => Err(Sentence::new("refuse-usage").arg("usage", USAGE)),
        }
    }

    pub(crate) async fn apply(&self, ctx: &mut Ctx<'_>) -> Step {
        let request = ctx.req()?;
        ctx.lock_chat(&request.chat).await;
        let mut chat = ctx.chat_record(&request.chat).await?;
        match self {
            PuzzleCmd::Ask(variant) => {
                let mut player = ctx.player_record(&request.user).await?;
                player.name = request.user.name.clone();
                let salt = salt_of(&request.key.0, ctx.now);
                let Some(puzzle) = pick(
                    *variant,
                    player.puzzle.rating.rating,
                    &player.puzzle.seen,
                    salt,
                ) else {
                    return refuse(Sentence::new("refuse-puzzle-unavailable"));
                };
                player.puzzle.saw(&puzzle.id);
                ctx.save_player(player);
                open(ctx, &mut chat, puzzle, &request.user.id, false).await?;
                ctx.save_chat(chat);
                Ok(())
            }
            PuzzleCmd::ShowDaily => {
                let sentence = match chat.puzzles.daily_hour {
                    Some(hour) => Sentence::new("puzzle-daily-is")
                        .arg("hour", format!("{hour:02}:00"))
                        .arg(
                            "next",
                            crate::announce::clock_text(next_daily(ctx.now, hour)),
                        ),
                    None => Sentence::new("puzzle-daily-none"),
                };
                ctx.reply_text(MessageKind::Notice, false, &sentence);
                Ok(())
            }
            PuzzleCmd::SetDaily(hour) => {
                if !request.is_admin {
                    return refuse(Sentence::new("refuse-puzzle-daily-admin"));
                }
                set_daily(ctx, &mut chat, *hour).await?;
                ctx.save_chat(chat);
                let sentence = match hour {
                    Some(hour) => Sentence::new("puzzle-daily-set")
                        .arg("hour", format!("{hour:02}:00"))
                        .arg(
                            "next",
                            crate::announce::clock_text(next_daily(ctx.now, *hour)),
                        ),
                    None => Sentence::new("puzzle-daily-off"),
                };
                ctx.reply_text(MessageKind::Notice, false, &sentence);
                Ok(())
            }
        }
    }
}

/// A number that varies from request to request (which of the nearest puzzles to give):
/// the request key and the time, hashed. Nothing secret depends on it.
fn salt_of(key: &str, now: u64) -> u64 {
    key.bytes().fold(now ^ 0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn daily_hours_are_read_in_several_forms_and_bad_ones_refused() {
        for (text, hour) in [("18", 18), ("0", 0), ("7h", 7), ("23:00", 23)] {
            assert!(
                matches!(PuzzleCmd::parse(&["daily", text]), Ok(PuzzleCmd::SetDaily(Some(h))) if h == hour),
                "{text}"
            );
        }
        assert!(matches!(
            PuzzleCmd::parse(&["daily", "OFF"]),
            Ok(PuzzleCmd::SetDaily(None))
        ));
        for bad in ["24", "-1", "noon", "18:30", ""] {
            assert_eq!(
                PuzzleCmd::parse(&["daily", bad]).unwrap_err().key,
                "refuse-puzzle-daily-hour",
                "{bad}"
            );
        }
    }

    #[test]
    fn a_variant_names_the_puzzle_and_anything_else_is_refused() {
        assert!(matches!(
            PuzzleCmd::parse(&["Banqi"]),
            Ok(PuzzleCmd::Ask(Variant::Banqi))
        ));
        assert!(matches!(
            PuzzleCmd::parse(&[]),
            Ok(PuzzleCmd::Ask(Variant::Jieqi))
        ));
        assert_eq!(
            PuzzleCmd::parse(&["chess"]).unwrap_err().key,
            "refuse-puzzle-option"
        );
        assert_eq!(
            PuzzleCmd::parse(&["jieqi", "now"]).unwrap_err().key,
            "refuse-usage"
        );
    }
}
