//! A Swiss event: players join (late too), withdraw or ask for a bye, each round is
//! paired by the Dutch system ([`dutch`]) from everyone's history, results come in.
//!
//! Pairing numbers follow the rating (highest first, earlier entry first on equal
//! ratings) and are given anew when a late entry joins (C.04.2's "subsequent
//! modifications"), as FIDE allows.

mod bracket;
pub mod colour;
pub mod dutch;

use crate::model::{ByeKind, Colour, Entry, Points, Score};
use dutch::{Contender, Float};
use std::fmt;

/// One entrant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entrant {
    /// The name shown in standings and TRF (at most 33 characters there).
    pub name: String,
    /// The rating that orders the pairing numbers.
    pub rating: u16,
    /// One entry per round paired so far.
    pub entries: Vec<Entry>,
    /// Takes no more pairings.
    pub withdrawn: bool,
    /// A bye asked for the next round.
    pub requested_bye: Option<ByeKind>,
}

impl Entrant {
    /// Points so far.
    pub fn points(&self) -> Points {
        self.entries.iter().map(|e| e.points()).sum()
    }
}

/// A board of a paired round, by player indices.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Board {
    /// White's index.
    pub white: usize,
    /// Black's index.
    pub black: usize,
}

/// A game's result as the arbiter records it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoardResult {
    /// White won.
    WhiteWins,
    /// Drawn.
    Draw,
    /// Black won.
    BlackWins,
    /// Black did not play: white wins by forfeit.
    WhiteWinsByForfeit,
    /// White did not play.
    BlackWinsByForfeit,
}

/// Why a Swiss cannot be set up or changed as asked.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SwissError {
    /// Rounds out of range.
    #[error("a Swiss has between 1 and {max} rounds; {asked} were asked for")]
    Rounds {
        /// Asked.
        asked: u8,
        /// The most allowed.
        max: u8,
    },
    /// Every round was paired already.
    #[error("every round has been paired already")]
    Finished,
    /// The round being played has games without a result.
    #[error("round {round} still has games without a result")]
    RoundNotFinished {
        /// The round.
        round: u8,
    },
    /// Fewer than two players can be paired.
    #[error("fewer than two players can be paired this round")]
    TooFewPlayers,
    /// The absolute criteria leave no pairing (C.1–C.3): the round is refused.
    #[error(
        "no pairing of round {round} obeys the rules (players would meet twice, or a bye has no legal taker)"
    )]
    NoLegalPairing {
        /// The round.
        round: u8,
    },
    /// No such player.
    #[error("there is no player number {0}")]
    UnknownPlayer(usize),
    /// No such game in the round.
    #[error("player {player} has no game in round {round}")]
    NoSuchGame {
        /// The round.
        round: u8,
        /// The player.
        player: usize,
    },
    /// Only H, F and Z byes may be asked for; U belongs to the pairing.
    #[error("the pairing-allocated bye is given by the pairing, not asked for")]
    ByeNotRequestable,
}

/// How a history is read where texts and programs differ. The default is the 2025 FIDE
/// text; the reference test uses the other reading to name why a program pairs otherwise.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Reading {
    /// Count a zero-point bye as a downfloat, as the 2017 text does (A.4.b: any round not
    /// played); the 2025 text (1.4.3) gives one only for more than a loss's points without
    /// playing.
    pub zero_bye_is_downfloat: bool,
}

/// The most rounds a Swiss may have.
pub const MAX_ROUNDS: u8 = 30;

/// A Swiss event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Swiss {
    rounds: u8,
    first_colour: Colour,
    entrants: Vec<Entrant>,
    paired: u8,
}

impl Swiss {
    /// A Swiss of `rounds` rounds whose first board's top player takes `first_colour`.
    pub fn new(rounds: u8, first_colour: Colour) -> Result<Swiss, SwissError> {
        if !(1..=MAX_ROUNDS).contains(&rounds) {
            return Err(SwissError::Rounds {
                asked: rounds,
                max: MAX_ROUNDS,
            });
        }
        Ok(Swiss {
            rounds,
            first_colour,
            entrants: Vec::new(),
            paired: 0,
        })
    }

    /// Rebuilds an event from its parts (TRF-16's reader uses this).
    pub fn from_parts(rounds: u8, first_colour: Colour, entrants: Vec<Entrant>) -> Swiss {
        let paired = entrants.iter().map(|e| e.entries.len()).max().unwrap_or(0) as u8;
        Swiss {
            rounds,
            first_colour,
            entrants,
            paired,
        }
    }

    /// Rounds planned.
    pub fn rounds(&self) -> u8 {
        self.rounds
    }

    /// Rounds paired so far.
    pub fn rounds_paired(&self) -> u8 {
        self.paired
    }

    /// The colour of the top board's higher player in round 1 (TRF-16's `XXC`).
    pub fn first_colour(&self) -> Colour {
        self.first_colour
    }

    /// Everyone who entered, in order of entry.
    pub fn entrants(&self) -> &[Entrant] {
        &self.entrants
    }

    /// A new entrant. Joining after round 1 was paired fills the missed rounds with
    /// zero-point byes, the last of them a half-point bye if `half_point_for_missed`.
    pub fn join(
        &mut self,
        name: &str,
        rating: u16,
        half_point_for_missed: bool,
    ) -> Result<usize, SwissError> {
        if self.paired >= self.rounds {
            return Err(SwissError::Finished);
        }
        let mut entries = vec![Entry::Bye(ByeKind::Zero); usize::from(self.paired)];
        if half_point_for_missed && let Some(last) = entries.last_mut() {
            *last = Entry::Bye(ByeKind::Half);
        }
        self.entrants.push(Entrant {
            name: name.to_string(),
            rating,
            entries,
            withdrawn: false,
            requested_bye: None,
        });
        Ok(self.entrants.len() - 1)
    }

    /// Takes a player out of the next pairings (results so far stay).
    pub fn withdraw(&mut self, player: usize) -> Result<(), SwissError> {
        self.entrants
            .get_mut(player)
            .ok_or(SwissError::UnknownPlayer(player))?
            .withdrawn = true;
        Ok(())
    }

    /// A bye for the next round (H, F or Z), asked before it is paired.
    pub fn request_bye(&mut self, player: usize, kind: ByeKind) -> Result<(), SwissError> {
        if kind == ByeKind::PairingAllocated {
            return Err(SwissError::ByeNotRequestable);
        }
        self.entrants
            .get_mut(player)
            .ok_or(SwissError::UnknownPlayer(player))?
            .requested_bye = Some(kind);
        Ok(())
    }

    /// Pairing numbers by entrant: by rating, highest first; equal ratings by entry.
    pub fn pairing_numbers(&self) -> Vec<u16> {
        let mut order: Vec<usize> = (0..self.entrants.len()).collect();
        order.sort_by_key(|&i| (std::cmp::Reverse(self.entrants[i].rating), i));
        let mut numbers = vec![0; self.entrants.len()];
        for (k, &i) in order.iter().enumerate() {
            numbers[i] = k as u16 + 1;
        }
        numbers
    }

    /// Points of everyone after the first `rounds` rounds.
    fn points_after(&self, rounds: usize) -> Vec<Points> {
        self.entrants
            .iter()
            .map(|e| e.entries.iter().take(rounds).map(|x| x.points()).sum())
            .collect()
    }

    /// Pairs the next round, records its byes, and returns its boards in board order.
    pub fn pair_next_round(&mut self) -> Result<Vec<Board>, SwissError> {
        self.pair_next_round_as(Reading::default())
    }

    /// As [`Swiss::pair_next_round`], reading the history as `reading` says.
    pub fn pair_next_round_as(&mut self, reading: Reading) -> Result<Vec<Board>, SwissError> {
        if self.paired >= self.rounds {
            return Err(SwissError::Finished);
        }
        if self
            .entrants
            .iter()
            .any(|e| matches!(e.entries.last(), Some(Entry::Game { score: None, .. })))
        {
            return Err(SwissError::RoundNotFinished { round: self.paired });
        }
        let round = self.paired + 1;
        let playing: Vec<usize> = (0..self.entrants.len())
            .filter(|&i| !self.entrants[i].withdrawn && self.entrants[i].requested_bye.is_none())
            .collect();
        if playing.len() < 2 {
            return Err(SwissError::TooFewPlayers);
        }
        let contenders = self.contenders(&playing, reading);
        let pairing = dutch::pair(&contenders, round, round == self.rounds, self.first_colour)
            .map_err(|_| SwissError::NoLegalPairing { round })?;
        let mut boards: Vec<Board> = pairing
            .games
            .iter()
            .map(|&(w, b)| Board {
                white: playing[w],
                black: playing[b],
            })
            .collect();
        let points = self.points_after(usize::from(self.paired));
        let numbers = self.pairing_numbers();
        // Board order: the higher score of the two, then their sum, then the better number.
        boards.sort_by_key(|b| {
            let (pw, pb) = (points[b.white], points[b.black]);
            (
                std::cmp::Reverse(pw.max(pb)),
                std::cmp::Reverse(pw + pb),
                numbers[b.white].min(numbers[b.black]),
            )
        });
        for (i, e) in self.entrants.iter_mut().enumerate() {
            let entry = if let Some(b) = boards.iter().find(|b| b.white == i || b.black == i) {
                let (opponent, colour) = if b.white == i {
                    (b.black, Colour::White)
                } else {
                    (b.white, Colour::Black)
                };
                Entry::Game {
                    opponent,
                    colour,
                    score: None,
                }
            } else if pairing.bye.map(|k| playing[k]) == Some(i) {
                Entry::Bye(ByeKind::PairingAllocated)
            } else {
                Entry::Bye(e.requested_bye.take().unwrap_or(ByeKind::Zero))
            };
            e.requested_bye = None;
            e.entries.push(entry);
        }
        self.paired = round;
        Ok(boards)
    }

    /// Records a game's result of `round` (1-based) by its white player.
    pub fn record(
        &mut self,
        round: u8,
        white: usize,
        result: BoardResult,
    ) -> Result<(), SwissError> {
        let r = usize::from(round)
            .checked_sub(1)
            .ok_or(SwissError::NoSuchGame {
                round,
                player: white,
            })?;
        let entry = self
            .entrants
            .get(white)
            .ok_or(SwissError::UnknownPlayer(white))?
            .entries
            .get(r)
            .copied()
            .ok_or(SwissError::NoSuchGame {
                round,
                player: white,
            })?;
        let Entry::Game {
            opponent,
            colour: Colour::White,
            ..
        } = entry
        else {
            return Err(SwissError::NoSuchGame {
                round,
                player: white,
            });
        };
        let score = match result {
            BoardResult::WhiteWins => Score::Win,
            BoardResult::Draw => Score::Draw,
            BoardResult::BlackWins => Score::Loss,
            BoardResult::WhiteWinsByForfeit => Score::ForfeitWin,
            BoardResult::BlackWinsByForfeit => Score::ForfeitLoss,
        };
        self.entrants[white].entries[r] = Entry::Game {
            opponent,
            colour: Colour::White,
            score: Some(score),
        };
        self.entrants[opponent].entries[r] = Entry::Game {
            opponent: white,
            colour: Colour::Black,
            score: Some(score.reversed()),
        };
        Ok(())
    }

    /// What the Dutch system needs of each player in `playing`.
    fn contenders(&self, playing: &[usize], reading: Reading) -> Vec<Contender> {
        let numbers = self.pairing_numbers();
        let rounds = usize::from(self.paired);
        let before: Vec<Vec<Points>> = (0..rounds).map(|r| self.points_after(r)).collect();
        let index_of = |p: usize| playing.iter().position(|&q| q == p);
        playing
            .iter()
            .map(|&i| {
                let e = &self.entrants[i];
                let mut colours = Vec::new();
                let mut floats = Vec::new();
                let mut opponents = Vec::new();
                let mut bye_eligible = true;
                let mut played_games = 0;
                for (r, entry) in e.entries.iter().enumerate() {
                    let float = match *entry {
                        Entry::Game {
                            opponent,
                            colour,
                            score: Some(score),
                        } if score.was_played() => {
                            colours.push(colour);
                            played_games += 1;
                            if let Some(k) = index_of(opponent) {
                                opponents.push(k);
                            }
                            let (mine, theirs) = (before[r][i], before[r][opponent]);
                            match mine.cmp(&theirs) {
                                std::cmp::Ordering::Greater => Float::Down,
                                std::cmp::Ordering::Less => Float::Up,
                                std::cmp::Ordering::Equal => Float::None,
                            }
                        }
                        Entry::Game {
                            score: Some(Score::ForfeitWin),
                            ..
                        } => {
                            bye_eligible = false;
                            Float::Down
                        }
                        Entry::Bye(kind @ (ByeKind::PairingAllocated | ByeKind::Full)) => {
                            let _ = kind;
                            bye_eligible = false;
                            Float::Down
                        }
                        // 1.4.3 (2025): more than a loss's points without playing is a downfloat.
                        Entry::Bye(ByeKind::Half) => Float::Down,
                        Entry::Bye(ByeKind::Zero) if reading.zero_bye_is_downfloat => Float::Down,
                        _ => Float::None,
                    };
                    floats.push(float);
                }
                let last = |back: usize| {
                    floats
                        .len()
                        .checked_sub(back + 1)
                        .map_or(Float::None, |k| floats[k])
                };
                Contender {
                    pairing_number: numbers[i],
                    score: e.points().0,
                    colours,
                    floats: [last(0), last(1)],
                    opponents,
                    bye_eligible,
                    played_games,
                }
            })
            .collect()
    }
}

impl fmt::Display for BoardResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            BoardResult::WhiteWins => "1-0",
            BoardResult::Draw => "½-½",
            BoardResult::BlackWins => "0-1",
            BoardResult::WhiteWinsByForfeit => "+/-",
            BoardResult::BlackWinsByForfeit => "-/+",
        })
    }
}
