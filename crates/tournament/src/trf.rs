//! TRF-16, FIDE's tournament report file (C.04.A Annex 2), read and written as FIDE
//! writes it: `012` the name, `XXR` the rounds, `XXC` the first colour (`white1` or
//! `black1`), then one `001` line per player with each round in columns 92 on, ten
//! characters a round: opponent (`0000` for none), colour (`w`, `b`, `-`), result
//! (`1 = 0` played, `+ -` forfeits, `U H F Z` byes, blank while playing).
//!
//! Players are written in pairing-number order, that order being their starting rank, so
//! that reading the file back gives the same event. What TRF-16 has no field for (a
//! withdrawal, a bye asked for the next round) is not carried.

use crate::model::{ByeKind, Colour, Entry, Points, Score};
use crate::swiss::{Entrant, Swiss};
use std::fmt::Write as _;

/// A line of a TRF-16 file that cannot be read, and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {problem}")]
pub struct TrfError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong with it.
    pub problem: Problem,
}

/// What is wrong with a line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Problem {
    /// A `001` line ends before its points and rank columns.
    #[error(
        "the player line is {0} characters long; it needs at least 89 (through the rank column)"
    )]
    ShortPlayerLine(usize),
    /// A number column holds something else.
    #[error("the {field} column holds {text:?}, not a number")]
    NotANumber {
        /// Which column.
        field: &'static str,
        /// What it holds.
        text: String,
    },
    /// Two players share a starting rank.
    #[error("starting rank {0} is given twice")]
    DuplicateRank(usize),
    /// Starting ranks must run 1..=N.
    #[error("starting rank {rank} is outside 1..={players}")]
    RankOutOfRange {
        /// The rank.
        rank: usize,
        /// How many players there are.
        players: usize,
    },
    /// A round's ten characters cannot be read.
    #[error("round {round}: {text:?} is not an opponent, a colour and a result")]
    BadRound {
        /// The round.
        round: usize,
        /// Its characters.
        text: String,
    },
    /// A game's opponent does not show the same game back.
    #[error(
        "round {round}: the game against {opponent} is not on the opponent's line the same way"
    )]
    Asymmetric {
        /// The round.
        round: usize,
        /// The opponent's starting rank.
        opponent: usize,
    },
    /// The points column disagrees with the rounds.
    #[error("the points column says {written} but the rounds add up to {counted}")]
    PointsDisagree {
        /// Written.
        written: String,
        /// Counted.
        counted: String,
    },
    /// `XXR` is not a usable number of rounds.
    #[error("XXR must give the number of rounds (1 to {max}), not {text:?}")]
    BadRounds {
        /// The text.
        text: String,
        /// The most rounds.
        max: u8,
    },
    /// `XXC` is neither `white1` nor `black1`.
    #[error("XXC must be white1 or black1, not {0:?}")]
    BadFirstColour(String),
    /// More rounds played than `XXR` says.
    #[error("a player has {played} rounds but XXR says {rounds}")]
    MoreRoundsThanPlanned {
        /// Rounds in the player lines.
        played: usize,
        /// XXR.
        rounds: u8,
    },
    /// A file without player lines.
    #[error("the file has no 001 player lines")]
    NoPlayers,
}

fn problem(line: usize, problem: Problem) -> TrfError {
    TrfError { line, problem }
}

/// Writes the event as TRF-16 under the tournament `name`.
pub fn write(swiss: &Swiss, name: &str) -> String {
    let numbers = swiss.pairing_numbers();
    let entrants = swiss.entrants();
    let mut by_number: Vec<usize> = (0..entrants.len()).collect();
    by_number.sort_by_key(|&i| numbers[i]);
    // Standing rank: points, then pairing number.
    let mut standing = by_number.clone();
    standing.sort_by_key(|&i| (std::cmp::Reverse(entrants[i].points()), numbers[i]));
    let mut out = String::new();
    let _ = writeln!(out, "012 {}", name.lines().next().unwrap_or(""));
    let _ = writeln!(out, "062 {}", entrants.len());
    let _ = writeln!(out, "XXR {}", swiss.rounds());
    let _ = writeln!(
        out,
        "XXC {}",
        if swiss.first_colour() == Colour::White {
            "white1"
        } else {
            "black1"
        }
    );
    for &i in &by_number {
        let e = &entrants[i];
        let name: String = e
            .name
            .chars()
            .filter(|c| !c.is_control())
            .take(33)
            .collect();
        let rating = if e.rating == 0 {
            String::new()
        } else {
            e.rating.to_string()
        };
        let rank = standing.iter().position(|&k| k == i).unwrap_or(0) + 1;
        let points = e.points();
        let _ = write!(
            out,
            "001 {:>4}      {:<33} {:>4} {:>3} {:>11} {:>10} {:>4} {:>4}",
            numbers[i],
            name,
            rating,
            "",
            "",
            "",
            format!("{}.{}", points.0 / 2, if points.0 % 2 == 1 { 5 } else { 0 }),
            rank
        );
        for entry in &e.entries {
            let block = match *entry {
                Entry::Game {
                    opponent,
                    colour,
                    score,
                } => format!(
                    "  {:>4} {} {}",
                    numbers[opponent],
                    if colour == Colour::White { 'w' } else { 'b' },
                    score.map_or(' ', Score::letter)
                ),
                Entry::Bye(kind) => format!("  0000 - {}", kind.letter()),
            };
            out.push_str(&block);
        }
        // Keep the trailing blank result of a game in play: it is data.
        out.push('\n');
    }
    out
}

/// The characters `range` of `line` (by character, as TRF columns are), trimmed.
fn column(line: &[char], from: usize, to: usize) -> String {
    line.iter()
        .skip(from)
        .take(to.saturating_sub(from))
        .collect::<String>()
        .trim()
        .to_string()
}

struct PlayerLine {
    line: usize,
    rank: usize,
    name: String,
    rating: u16,
    points: Option<String>,
    rounds: Vec<(usize, RawRound)>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum RawRound {
    Game {
        opponent: usize,
        colour: Colour,
        score: Option<Score>,
    },
    Bye(ByeKind),
}

fn parse_number<T: std::str::FromStr>(
    text: &str,
    field: &'static str,
    line: usize,
) -> Result<T, TrfError> {
    text.parse().map_err(|_| {
        problem(
            line,
            Problem::NotANumber {
                field,
                text: text.to_string(),
            },
        )
    })
}

fn parse_round(block: &str, round: usize, line: usize) -> Result<Option<RawRound>, TrfError> {
    let bad = || {
        problem(
            line,
            Problem::BadRound {
                round,
                text: block.to_string(),
            },
        )
    };
    let chars: Vec<char> = block.chars().collect();
    if chars.iter().all(|c| *c == ' ') {
        return Ok(None);
    }
    // Columns inside the block: 2..6 opponent, 7 colour, 9 result.
    let opponent = column(&chars, 2, 6);
    let colour = chars.get(7).copied().unwrap_or(' ');
    let result = chars.get(9).copied().unwrap_or(' ');
    if chars.iter().take(2).any(|c| *c != ' ') || chars.get(6).is_some_and(|c| *c != ' ') {
        return Err(bad());
    }
    let number: usize = opponent.parse().map_err(|_| bad())?;
    if number == 0 {
        let kind = match result {
            'U' => ByeKind::PairingAllocated,
            'H' => ByeKind::Half,
            'F' => ByeKind::Full,
            'Z' | ' ' | '-' => ByeKind::Zero,
            _ => return Err(bad()),
        };
        if colour != '-' && colour != ' ' {
            return Err(bad());
        }
        return Ok(Some(RawRound::Bye(kind)));
    }
    let colour = match colour {
        'w' | 'W' => Colour::White,
        'b' | 'B' => Colour::Black,
        _ => return Err(bad()),
    };
    let score = match result {
        '1' | 'W' => Some(Score::Win),
        '=' | 'D' => Some(Score::Draw),
        '0' | 'L' => Some(Score::Loss),
        '+' => Some(Score::ForfeitWin),
        '-' => Some(Score::ForfeitLoss),
        ' ' => None,
        _ => return Err(bad()),
    };
    Ok(Some(RawRound::Game {
        opponent: number,
        colour,
        score,
    }))
}

fn parse_player(chars: &[char], line: usize) -> Result<PlayerLine, TrfError> {
    if chars.len() < 89 {
        return Err(problem(line, Problem::ShortPlayerLine(chars.len())));
    }
    let rank: usize = parse_number(&column(chars, 4, 8), "starting rank", line)?;
    let rating_text = column(chars, 48, 52);
    let rating = if rating_text.is_empty() {
        0
    } else {
        parse_number(&rating_text, "rating", line)?
    };
    let points = Some(column(chars, 80, 84)).filter(|p| !p.is_empty());
    let mut rounds = Vec::new();
    let mut at = 91;
    let mut round = 1;
    while at < chars.len() {
        // A round's ten characters start two before the opponent column.
        let block: String = chars[at - 2..(at + 8).min(chars.len())].iter().collect();
        let block = format!("{block:<10}");
        if let Some(raw) = parse_round(&block, round, line)? {
            rounds.push((round, raw));
        }
        at += 10;
        round += 1;
    }
    Ok(PlayerLine {
        line,
        rank,
        name: column(chars, 14, 47),
        rating,
        points,
        rounds,
    })
}

/// Reads a TRF-16 file into a Swiss event.
pub fn read(text: &str) -> Result<Swiss, TrfError> {
    let mut rounds: Option<(u8, usize)> = None;
    let mut first_colour = Colour::White;
    let mut players: Vec<PlayerLine> = Vec::new();
    let mut last_line = 0;
    for (k, raw) in text.lines().enumerate() {
        let line = k + 1;
        last_line = line;
        let chars: Vec<char> = raw.trim_end_matches('\r').chars().collect();
        let code: String = chars.iter().take(3).collect();
        let rest = column(&chars, 4, chars.len());
        match code.as_str() {
            "001" => players.push(parse_player(&chars, line)?),
            "XXR" => {
                let n = rest
                    .parse::<u8>()
                    .ok()
                    .filter(|n| (1..=crate::swiss::MAX_ROUNDS).contains(n))
                    .ok_or_else(|| {
                        problem(
                            line,
                            Problem::BadRounds {
                                text: rest.clone(),
                                max: crate::swiss::MAX_ROUNDS,
                            },
                        )
                    })?;
                rounds = Some((n, line));
            }
            "XXC" => {
                first_colour = match rest.to_ascii_lowercase().as_str() {
                    "white1" => Colour::White,
                    "black1" => Colour::Black,
                    _ => return Err(problem(line, Problem::BadFirstColour(rest))),
                }
            }
            _ => {}
        }
    }
    if players.is_empty() {
        return Err(problem(last_line.max(1), Problem::NoPlayers));
    }
    let count = players.len();
    let mut slot: Vec<Option<usize>> = vec![None; count];
    for (k, p) in players.iter().enumerate() {
        if p.rank == 0 || p.rank > count {
            return Err(problem(
                p.line,
                Problem::RankOutOfRange {
                    rank: p.rank,
                    players: count,
                },
            ));
        }
        if slot[p.rank - 1].replace(k).is_some() {
            return Err(problem(p.line, Problem::DuplicateRank(p.rank)));
        }
    }
    let played = players
        .iter()
        .filter_map(|p| p.rounds.last().map(|r| r.0))
        .max()
        .unwrap_or(0);
    let (planned, xxr_line) = rounds.unwrap_or((
        played.clamp(1, usize::from(crate::swiss::MAX_ROUNDS)) as u8,
        0,
    ));
    if played > usize::from(planned) {
        return Err(problem(
            xxr_line.max(1),
            Problem::MoreRoundsThanPlanned {
                played,
                rounds: planned,
            },
        ));
    }
    let by_rank = |rank: usize| slot.get(rank.wrapping_sub(1)).copied().flatten();
    let mut entrants = Vec::with_capacity(count);
    for rank in 1..=count {
        let Some(k) = by_rank(rank) else { continue };
        let p = &players[k];
        let mut entries = vec![Entry::Bye(ByeKind::Zero); played];
        for &(round, raw) in &p.rounds {
            entries[round - 1] = match raw {
                RawRound::Bye(kind) => Entry::Bye(kind),
                RawRound::Game {
                    opponent,
                    colour,
                    score,
                } => {
                    let back = by_rank(opponent)
                        .map(|o| &players[o])
                        .and_then(|o| o.rounds.iter().find(|r| r.0 == round).map(|r| r.1));
                    let expected = RawRound::Game {
                        opponent: rank,
                        colour: colour.opposite(),
                        score: score.map(Score::reversed),
                    };
                    if back != Some(expected) {
                        return Err(problem(p.line, Problem::Asymmetric { round, opponent }));
                    }
                    Entry::Game {
                        opponent: opponent - 1,
                        colour,
                        score,
                    }
                }
            };
        }
        let counted: Points = entries.iter().map(|e| e.points()).sum();
        if let Some(written) = &p.points {
            let value: f64 = written.parse().map_err(|_| {
                problem(
                    p.line,
                    Problem::NotANumber {
                        field: "points",
                        text: written.clone(),
                    },
                )
            })?;
            if (value * 2.0 - f64::from(counted.0)).abs() > 1e-9 {
                return Err(problem(
                    p.line,
                    Problem::PointsDisagree {
                        written: written.clone(),
                        counted: counted.to_string(),
                    },
                ));
            }
        }
        entrants.push(Entrant {
            name: p.name.clone(),
            rating: p.rating,
            entries,
            withdrawn: false,
            requested_bye: None,
        });
    }
    Ok(Swiss::from_parts(planned, first_colour, entrants))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::swiss::BoardResult;
    use proptest::prelude::*;

    fn small_event() -> Swiss {
        let mut s = Swiss::new(3, Colour::White).unwrap();
        for (k, name) in ["Ann", "Bo", "Cy", "Di", "Ed"].iter().enumerate() {
            s.join(name, 2000 - k as u16 * 50, false).unwrap();
        }
        let boards = s.pair_next_round().unwrap();
        s.record(1, boards[0].white, BoardResult::Draw).unwrap();
        s.record(1, boards[1].white, BoardResult::BlackWinsByForfeit)
            .unwrap();
        s.join("Fay", 1900, true).unwrap();
        s.pair_next_round().unwrap();
        s
    }

    #[test]
    fn writes_byes_forfeits_and_games_in_play_in_fide_columns() {
        let text = write(&small_event(), "Club night");
        assert!(text.starts_with("012 Club night\n"), "{text}");
        assert!(text.contains("XXR 3\nXXC white1\n"), "{text}");
        let first = text.lines().find(|l| l.starts_with("001    1")).unwrap();
        assert_eq!(&first[91..95], "   3", "{first}"); // Ann (1) met Cy (3): S1 {1,2} against S2 {3,4,5}
        assert_eq!(&first[96..97], "w");
        assert_eq!(&first[98..99], "=");
        assert!(text.contains("0000 - U"), "{text}");
        assert!(text.contains("0000 - H"), "{text}");
        assert!(text.contains(" -  "), "{text}");
    }

    #[test]
    fn what_is_written_reads_back_the_same() {
        let event = small_event();
        let again = read(&write(&event, "x")).unwrap();
        assert_eq!(write(&again, "x"), write(&event, "x"));
        assert_eq!(again.entrants().len(), 6);
    }

    #[test]
    fn points_that_disagree_with_the_rounds_are_refused_by_line() {
        let text = write(&small_event(), "x");
        let broken = text.replacen(" 0.5 ", " 1.5 ", 1);
        let err = read(&broken).unwrap_err();
        assert!(
            matches!(err.problem, Problem::PointsDisagree { .. }),
            "{err}"
        );
        assert!(err.to_string().starts_with("line 5: "), "{err}");
    }

    #[test]
    fn a_game_missing_on_the_opponents_line_is_refused() {
        let text = write(&small_event(), "x");
        let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
        let k = lines
            .iter()
            .position(|l| l.starts_with("001    3"))
            .unwrap();
        lines[k].replace_range(91..95, "   5");
        let err = read(&lines.join("\n")).unwrap_err();
        // Player 1's line (line 5) is the first whose game is not mirrored.
        assert!(
            matches!(
                err.problem,
                Problem::Asymmetric {
                    round: 1,
                    opponent: 3
                }
            ),
            "{err}"
        );
        assert_eq!(err.line, 5, "{err}");
    }

    #[test]
    fn bad_headers_name_the_problem() {
        assert!(matches!(
            read("XXR x\n").unwrap_err().problem,
            Problem::BadRounds { .. }
        ));
        assert!(matches!(
            read("XXC green\n").unwrap_err().problem,
            Problem::BadFirstColour(_)
        ));
        assert!(matches!(
            read("012 x\n").unwrap_err().problem,
            Problem::NoPlayers
        ));
        assert!(matches!(
            read("001    1 x").unwrap_err().problem,
            Problem::ShortPlayerLine(10)
        ));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(500))]
        #[test]
        fn any_text_is_read_or_refused_without_panic(text in "(001|XXR|XXC|012)?[ -~\n]{0,300}") {
            let _ = read(&text);
        }

        #[test]
        fn damaged_files_are_read_or_refused_without_panic(cut in 0usize..2000, junk in "[ -~]{0,12}") {
            let text = write(&small_event(), "x");
            let mut chars: Vec<char> = text.chars().collect();
            let at = cut.min(chars.len());
            chars.splice(at..at, junk.chars());
            let damaged: String = chars.into_iter().collect();
            if let Ok(event) = read(&damaged) {
                // Whatever reads, writes back to a file that reads the same.
                prop_assert_eq!(read(&write(&event, "x")).map(|e| write(&e, "x")), Ok(write(&event, "x")));
            }
        }
    }
}
