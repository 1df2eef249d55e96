//! The commands a GUI sends, read from one line each into typed values. Reading never
//! fails on content the protocol allows to vary (extra spaces, unknown `go` words are
//! reported, not fatal); a line that is not a command, or a command whose arguments make no
//! sense, is a [`CommandError`] whose message the session sends back as `info string`.

use std::time::Duration;

use thiserror::Error;

/// One line from the GUI.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `uci`: identify and list the options.
    Uci,
    /// `debug on|off`: accepted, changes nothing.
    Debug,
    /// `isready`: answer `readyok`, even while searching.
    IsReady,
    /// `setoption name <name> [value <value>]`.
    SetOption {
        /// The option's name as written (names are matched without regard to case).
        name: String,
        /// The value, if any.
        value: Option<String>,
    },
    /// `ucinewgame`: forget the previous game.
    NewGame,
    /// `position startpos|fen <fen> [moves <m>...]`.
    Position(PositionCommand),
    /// `go ...`.
    Go(Go),
    /// `stop`: end the search now and answer `bestmove`.
    Stop,
    /// `ponderhit`: accepted; the engine does not ponder, so it changes nothing.
    PonderHit,
    /// `quit`.
    Quit,
}

/// Where a `position` command starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Start {
    /// `startpos`: the start of the session's game (`UCI_Variant`).
    StartPos,
    /// `fen <fields...>`, the fields joined by single spaces.
    Fen(String),
}

/// A `position` command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionCommand {
    /// The position before the moves.
    pub start: Start,
    /// The moves played since, as written.
    pub moves: Vec<String>,
}

/// The limits of a `go` command. Absent limits are `None`; times are in milliseconds as the
/// GUI wrote them (negative clock readings, which some GUIs send, count as zero).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Go {
    /// `movetime`: think exactly this long.
    pub movetime: Option<Duration>,
    /// `depth`: iterations at most.
    pub depth: Option<u32>,
    /// `nodes`: nodes at most.
    pub nodes: Option<u64>,
    /// `wtime`: Red's clock.
    pub wtime: Option<Duration>,
    /// `btime`: Black's clock.
    pub btime: Option<Duration>,
    /// `winc`: Red's increment.
    pub winc: Option<Duration>,
    /// `binc`: Black's increment.
    pub binc: Option<Duration>,
    /// `movestogo`: moves to the next time control.
    pub movestogo: Option<u32>,
    /// `byoyomi`: once the game time is spent, the time each move may take (both sides), as
    /// Fairy-Stockfish and USI read it.
    pub byoyomi: Option<Duration>,
    /// `infinite`: search until `stop`.
    pub infinite: bool,
    /// Words the engine does not act on (`ponder`, `searchmoves ...`, `mate n`), to tell the
    /// GUI about.
    pub ignored: Vec<String>,
}

/// Why a line is not a command the engine can act on.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum CommandError {
    /// A word that is no UCI command.
    #[error(
        "unknown command `{0}`: the engine understands uci, isready, setoption, ucinewgame, position, go, stop, ponderhit and quit"
    )]
    Unknown(String),
    /// A known command with arguments that do not fit it.
    #[error("`{command}` ignored: {problem}")]
    Malformed {
        /// The command word.
        command: &'static str,
        /// What is wrong, and what the command expects.
        problem: String,
    },
}

/// Cuts long input so that an `info string` stays one short line.
pub(crate) fn shorten(text: &str) -> String {
    const KEEP: usize = 40;
    if text.chars().count() <= KEEP {
        text.to_owned()
    } else {
        let mut short: String = text.chars().take(KEEP).collect();
        short.push('…');
        short
    }
}

impl Command {
    /// Reads one line. `Ok(None)` for a blank line, which the protocol says to ignore.
    ///
    /// ```
    /// use jieqi_uci::command::{Command, Start};
    ///
    /// let Some(Command::Position(p)) = Command::parse("position startpos moves h2e2 h9g7")? else {
    ///     panic!("a position")
    /// };
    /// assert_eq!(p.start, Start::StartPos);
    /// assert_eq!(p.moves, ["h2e2", "h9g7"]);
    /// assert!(Command::parse("fly away").is_err());
    /// # Ok::<(), jieqi_uci::command::CommandError>(())
    /// ```
    pub fn parse(line: &str) -> Result<Option<Command>, CommandError> {
        let mut words = line.split_whitespace();
        let Some(word) = words.next() else {
            return Ok(None);
        };
        let rest: Vec<&str> = words.collect();
        let command = match word {
            "uci" => Command::Uci,
            "debug" => Command::Debug,
            "isready" => Command::IsReady,
            "ucinewgame" => Command::NewGame,
            "stop" => Command::Stop,
            "ponderhit" => Command::PonderHit,
            "quit" => Command::Quit,
            "setoption" => parse_setoption(&rest)?,
            "position" => Command::Position(parse_position(&rest)?),
            "go" => Command::Go(parse_go(&rest)?),
            other => return Err(CommandError::Unknown(shorten(other))),
        };
        Ok(Some(command))
    }
}

fn parse_setoption(words: &[&str]) -> Result<Command, CommandError> {
    let malformed = |problem: &str| CommandError::Malformed {
        command: "setoption",
        problem: problem.to_owned(),
    };
    let ["name", rest @ ..] = words else {
        return Err(malformed(
            "write `setoption name <name> value <value>`, e.g. `setoption name MultiPV value 3`",
        ));
    };
    let split = rest.iter().position(|w| *w == "value");
    let (name, value) = match split {
        Some(i) => (&rest[..i], Some(rest[i + 1..].join(" "))),
        None => (rest, None),
    };
    if name.is_empty() {
        return Err(malformed("the option has no name"));
    }
    Ok(Command::SetOption {
        name: name.join(" "),
        value,
    })
}

fn parse_position(words: &[&str]) -> Result<PositionCommand, CommandError> {
    let malformed = |problem: String| CommandError::Malformed {
        command: "position",
        problem,
    };
    let split = words.iter().position(|w| *w == "moves");
    let (head, moves) = match split {
        Some(i) => (&words[..i], &words[i + 1..]),
        None => (words, &[][..]),
    };
    let start = match head {
        ["startpos"] => Start::StartPos,
        ["fen", fields @ ..] if !fields.is_empty() => Start::Fen(fields.join(" ")),
        ["fen"] => return Err(malformed("`fen` needs a FEN after it".to_owned())),
        [] => {
            return Err(malformed(
                "write `position startpos` or `position fen <fen>`, then optionally `moves ...`"
                    .to_owned(),
            ));
        }
        [other, ..] => {
            return Err(malformed(format!(
                "`{}` is neither `startpos` nor `fen`",
                shorten(other)
            )));
        }
    };
    Ok(PositionCommand {
        start,
        moves: moves.iter().map(|m| (*m).to_owned()).collect(),
    })
}

fn parse_go(words: &[&str]) -> Result<Go, CommandError> {
    let mut go = Go::default();
    let mut words = words.iter().copied().peekable();
    while let Some(word) = words.next() {
        match word {
            "infinite" => go.infinite = true,
            "ponder" => go.ignored.push("ponder".to_owned()),
            "searchmoves" => {
                // Runs to the end of the line.
                let moves: Vec<&str> = words.by_ref().collect();
                go.ignored.push(format!("searchmoves {}", moves.join(" ")));
            }
            "movetime" => go.movetime = Some(millis(word, words.next())?),
            "wtime" => go.wtime = Some(millis(word, words.next())?),
            "btime" => go.btime = Some(millis(word, words.next())?),
            "winc" => go.winc = Some(millis(word, words.next())?),
            "binc" => go.binc = Some(millis(word, words.next())?),
            "byoyomi" => go.byoyomi = Some(millis(word, words.next())?),
            "depth" => go.depth = Some(count(word, words.next())?),
            "movestogo" => go.movestogo = Some(count(word, words.next())?),
            "nodes" => go.nodes = Some(count(word, words.next())?),
            "mate" => {
                let n = words.next().unwrap_or("");
                go.ignored.push(format!("mate {n}"));
            }
            other => go.ignored.push(shorten(other)),
        }
    }
    Ok(go)
}

fn number_error(word: &str, found: Option<&str>) -> CommandError {
    CommandError::Malformed {
        command: "go",
        problem: format!(
            "`{word}` needs a whole number after it, found `{}`",
            shorten(found.unwrap_or(""))
        ),
    }
}

/// Milliseconds; a negative reading (a GUI's clock gone past zero) is zero.
fn millis(word: &str, found: Option<&str>) -> Result<Duration, CommandError> {
    let n: i64 = found
        .and_then(|t| t.parse().ok())
        .ok_or_else(|| number_error(word, found))?;
    Ok(Duration::from_millis(n.max(0) as u64))
}

fn count<T: std::str::FromStr>(word: &str, found: Option<&str>) -> Result<T, CommandError> {
    found
        .and_then(|t| t.parse().ok())
        .ok_or_else(|| number_error(word, found))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(line: &str) -> Command {
        Command::parse(line)
            .unwrap_or_else(|e| panic!("{line}: {e}"))
            .unwrap_or_else(|| panic!("{line}: blank"))
    }

    #[test]
    fn simple_commands_read_with_extra_spaces() {
        assert_eq!(parse("  uci  "), Command::Uci);
        assert_eq!(parse("isready"), Command::IsReady);
        assert_eq!(parse("stop\t"), Command::Stop);
        assert_eq!(Command::parse("   "), Ok(None));
    }

    #[test]
    fn setoption_names_and_values_may_have_spaces() {
        assert_eq!(
            parse("setoption name Skill Level value 5"),
            Command::SetOption {
                name: "Skill Level".to_owned(),
                value: Some("5".to_owned())
            }
        );
        assert_eq!(
            parse("setoption name Clear Hash"),
            Command::SetOption {
                name: "Clear Hash".to_owned(),
                value: None
            }
        );
        assert!(Command::parse("setoption Hash 16").is_err());
    }

    #[test]
    fn position_reads_fen_fields_and_moves() {
        let Command::Position(p) = parse(
            "position fen xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX w A2B2N2R2C2P5a2b2n2r2c2p5 0 1 moves e3e4P",
        ) else {
            panic!("a position")
        };
        assert_eq!(
            p.start,
            Start::Fen(
                "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX w A2B2N2R2C2P5a2b2n2r2c2p5 0 1"
                    .to_owned()
            )
        );
        assert_eq!(p.moves, ["e3e4P"]);
        assert!(Command::parse("position").is_err());
        assert!(Command::parse("position fen").is_err());
        assert!(Command::parse("position somewhere").is_err());
    }

    #[test]
    fn go_reads_every_limit() {
        let Command::Go(go) = parse(
            "go wtime 60000 btime -5 winc 1000 binc 1000 movestogo 20 depth 7 nodes 5000 movetime 300",
        ) else {
            panic!("a go")
        };
        assert_eq!(go.wtime, Some(Duration::from_secs(60)));
        assert_eq!(go.btime, Some(Duration::ZERO));
        assert_eq!(go.winc, Some(Duration::from_secs(1)));
        assert_eq!(go.movestogo, Some(20));
        assert_eq!(go.depth, Some(7));
        assert_eq!(go.nodes, Some(5000));
        assert_eq!(go.movetime, Some(Duration::from_millis(300)));
        assert!(!go.infinite);
        let Command::Go(go) = parse("go infinite searchmoves h2e2 b0c2") else {
            panic!("a go")
        };
        assert!(go.infinite);
        assert_eq!(go.ignored, ["searchmoves h2e2 b0c2"]);
        assert!(Command::parse("go depth").is_err());
        assert!(Command::parse("go nodes many").is_err());
    }

    #[test]
    fn unknown_words_are_errors_that_name_them() {
        let error = Command::parse("xyzzy 3").expect_err("unknown");
        assert!(error.to_string().contains("`xyzzy`"), "{error}");
    }
}
