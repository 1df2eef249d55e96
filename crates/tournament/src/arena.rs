//! Arena, as lichess runs it: for a fixed time, a player is paired again as soon as their
//! game ends; a win is 2 points, a draw 1, a loss 0, and after two wins in a row every
//! game is worth double until one is not won (the streak, lichess's "fire"). No new
//! pairings are made in the last stretch before the end, so that games end in time.
//!
//! Waiting players are paired by a maximum weight matching that favours close standings
//! and never repeats a player's last opponent. Times are seconds from the arena's start,
//! given by the caller: the crate has no clock.

use crate::matching::max_weight_matching;
use crate::model::Colour;
use crate::weight::Weight;

/// How a game ended, from one player's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArenaOutcome {
    /// Won.
    Win,
    /// Drawn.
    Draw,
    /// Lost.
    Loss,
}

/// One arena player.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct ArenaPlayer {
    /// Arena points (not half points: 2 a win, 1 a draw, doubled on a streak).
    pub points: u32,
    /// Wins in a row up to now.
    pub streak: u32,
    /// Games won.
    pub wins: u32,
    /// Games finished.
    pub games: u32,
    /// Whom they met last, so as not to meet them again at once.
    pub last_opponent: Option<usize>,
    /// White games minus black games.
    pub colour_difference: i32,
    /// In a game now.
    pub playing: bool,
    /// Left the arena (kept in the standings).
    pub left: bool,
}

/// Why an arena cannot be set up or changed as asked.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ArenaError {
    /// A length out of range.
    #[error("an arena lasts 1 to 1440 minutes, not {0}")]
    Length(u32),
    /// The stop is longer than the arena.
    #[error("pairing cannot stop {stop} seconds before the end of an arena of {length} seconds")]
    Stop {
        /// Seconds before the end.
        stop: u32,
        /// The arena's seconds.
        length: u32,
    },
    /// No such player.
    #[error("there is no player number {0}")]
    UnknownPlayer(usize),
    /// The player is not in a game.
    #[error("player {0} is not in a game")]
    NotPlaying(usize),
    /// The player is in a game and cannot be paired or join again.
    #[error("player {0} is already in a game")]
    AlreadyPlaying(usize),
    /// The arena is over.
    #[error("the arena is over")]
    Over,
}

/// One game of an arena's history: who had white, who black, and white's outcome once
/// it ended (`None` while it is played).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayedGame {
    /// The player with white.
    pub white: usize,
    /// The player with black.
    pub black: usize,
    /// White's outcome, once known.
    pub white_outcome: Option<ArenaOutcome>,
}

/// An arena.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Arena {
    length: u32,
    stop_before_end: u32,
    players: Vec<ArenaPlayer>,
}

impl Arena {
    /// An arena of `minutes` that stops pairing `stop_before_end` seconds before its end.
    pub fn new(minutes: u32, stop_before_end: u32) -> Result<Arena, ArenaError> {
        if !(1..=1440).contains(&minutes) {
            return Err(ArenaError::Length(minutes));
        }
        let length = minutes * 60;
        if stop_before_end >= length {
            return Err(ArenaError::Stop {
                stop: stop_before_end,
                length,
            });
        }
        Ok(Arena {
            length,
            stop_before_end,
            players: Vec::new(),
        })
    }

    /// The arena of `players` entrants after `games`, in the order they were paired (each
    /// player's games in the order they were played, which their streak follows), those
    /// in `left` out of the pairing. A history no arena could have (a player in two games
    /// at once, a player unknown) is refused.
    pub fn replay(
        minutes: u32,
        stop_before_end: u32,
        players: usize,
        left: &[usize],
        games: &[PlayedGame],
    ) -> Result<Arena, ArenaError> {
        let mut arena = Arena::new(minutes, stop_before_end)?;
        arena.players = vec![ArenaPlayer::default(); players];
        for game in games {
            for (p, colour) in [(game.white, 1), (game.black, -1)] {
                let player = arena
                    .players
                    .get_mut(p)
                    .ok_or(ArenaError::UnknownPlayer(p))?;
                if player.playing || game.white == game.black {
                    return Err(ArenaError::AlreadyPlaying(p));
                }
                player.playing = true;
                player.colour_difference += colour;
            }
            arena.players[game.white].last_opponent = Some(game.black);
            arena.players[game.black].last_opponent = Some(game.white);
            if let Some(outcome) = game.white_outcome {
                arena.record(game.white, game.black, outcome)?;
            }
        }
        for &p in left {
            arena.leave(p)?;
        }
        Ok(arena)
    }

    /// The arena's length in seconds.
    pub fn length(&self) -> u32 {
        self.length
    }

    /// Whether the player is on a streak: their next game counts double.
    pub fn on_fire(&self, player: usize) -> bool {
        self.players.get(player).is_some_and(|p| p.streak >= 2)
    }

    /// Everyone who joined.
    pub fn players(&self) -> &[ArenaPlayer] {
        &self.players
    }

    /// A player joins (at any time before the end); returns their index.
    pub fn join(&mut self, now: u32) -> Result<usize, ArenaError> {
        if now >= self.length {
            return Err(ArenaError::Over);
        }
        self.players.push(ArenaPlayer::default());
        Ok(self.players.len() - 1)
    }

    /// A player leaves: no more pairings (their points stay).
    pub fn leave(&mut self, player: usize) -> Result<(), ArenaError> {
        self.players
            .get_mut(player)
            .ok_or(ArenaError::UnknownPlayer(player))?
            .left = true;
        Ok(())
    }

    /// A player comes back after leaving.
    pub fn rejoin(&mut self, player: usize) -> Result<(), ArenaError> {
        self.players
            .get_mut(player)
            .ok_or(ArenaError::UnknownPlayer(player))?
            .left = false;
        Ok(())
    }

    /// Whether new games may still start at `now`.
    pub fn pairing_open(&self, now: u32) -> bool {
        now < self.length - self.stop_before_end
    }

    /// Pairs the players waiting at `now`: `(white, black)` games, marked as playing.
    /// Close standings are preferred; the last opponent is never met again at once.
    pub fn pair_waiting(&mut self, now: u32) -> Vec<(usize, usize)> {
        if !self.pairing_open(now) {
            return Vec::new();
        }
        let waiting: Vec<usize> = (0..self.players.len())
            .filter(|&i| !self.players[i].playing && !self.players[i].left)
            .collect();
        if waiting.len() < 2 {
            return Vec::new();
        }
        // Standing rank among everyone, by points then wins.
        let mut order: Vec<usize> = (0..self.players.len()).collect();
        order.sort_by_key(|&i| {
            (
                std::cmp::Reverse(self.players[i].points),
                std::cmp::Reverse(self.players[i].wins),
                i,
            )
        });
        let mut rank = vec![0usize; self.players.len()];
        for (r, &i) in order.iter().enumerate() {
            rank[i] = r;
        }
        let span = self.players.len() as u64 + 1;
        let mut edges = Vec::new();
        for (a, &i) in waiting.iter().enumerate() {
            for (b, &j) in waiting.iter().enumerate().skip(a + 1) {
                if self.players[i].last_opponent == Some(j)
                    || self.players[j].last_opponent == Some(i)
                {
                    continue;
                }
                // As many games as possible, then the closest ranks.
                let closeness = span - (rank[i].abs_diff(rank[j]) as u64).min(span);
                edges.push((a, b, Weight::from_u64(1).push(24, closeness)));
            }
        }
        let mate = max_weight_matching(waiting.len(), &edges);
        let mut games = Vec::new();
        for (a, m) in mate.iter().enumerate() {
            let Some(b) = *m else { continue };
            if a > b {
                continue;
            }
            let (i, j) = (waiting[a], waiting[b]);
            let (pi, pj) = (&self.players[i], &self.players[j]);
            let i_white = pi.colour_difference < pj.colour_difference
                || pi.colour_difference == pj.colour_difference && rank[i] < rank[j];
            let (w, b) = if i_white { (i, j) } else { (j, i) };
            for (p, colour) in [(w, Colour::White), (b, Colour::Black)] {
                let player = &mut self.players[p];
                player.playing = true;
                player.colour_difference += if colour == Colour::White { 1 } else { -1 };
            }
            self.players[w].last_opponent = Some(b);
            self.players[b].last_opponent = Some(w);
            games.push((w, b));
        }
        games
    }

    /// A game between `white` and `black` ended with `white_outcome`.
    pub fn record(
        &mut self,
        white: usize,
        black: usize,
        white_outcome: ArenaOutcome,
    ) -> Result<(), ArenaError> {
        for p in [white, black] {
            let player = self.players.get(p).ok_or(ArenaError::UnknownPlayer(p))?;
            if !player.playing {
                return Err(ArenaError::NotPlaying(p));
            }
        }
        let black_outcome = match white_outcome {
            ArenaOutcome::Win => ArenaOutcome::Loss,
            ArenaOutcome::Loss => ArenaOutcome::Win,
            ArenaOutcome::Draw => ArenaOutcome::Draw,
        };
        for (p, outcome) in [(white, white_outcome), (black, black_outcome)] {
            let player = &mut self.players[p];
            let base = match outcome {
                ArenaOutcome::Win => 2,
                ArenaOutcome::Draw => 1,
                ArenaOutcome::Loss => 0,
            };
            let on_fire = player.streak >= 2;
            player.points += if on_fire { base * 2 } else { base };
            player.streak = if outcome == ArenaOutcome::Win {
                player.streak + 1
            } else {
                0
            };
            player.wins += u32::from(outcome == ArenaOutcome::Win);
            player.games += 1;
            player.playing = false;
        }
        Ok(())
    }

    /// Player indices in standing order: points, then wins, then fewer games (a better
    /// rate), then entry.
    pub fn standings(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.players.len()).collect();
        order.sort_by_key(|&i| {
            let p = &self.players[i];
            (
                std::cmp::Reverse(p.points),
                std::cmp::Reverse(p.wins),
                p.games,
                i,
            )
        });
        order
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_wins_in_a_row_double_the_next_games_until_one_is_not_won() {
        let mut arena = Arena::new(60, 120).unwrap();
        let a = arena.join(0).unwrap();
        let b = arena.join(0).unwrap();
        let c = arena.join(0).unwrap();
        let play = |arena: &mut Arena, x: usize, y: usize, x_wins: ArenaOutcome| {
            arena.players[x].playing = true;
            arena.players[y].playing = true;
            arena.record(x, y, x_wins).unwrap();
        };
        play(&mut arena, a, b, ArenaOutcome::Win); // 2
        play(&mut arena, a, c, ArenaOutcome::Win); // 4, on a streak now
        play(&mut arena, a, b, ArenaOutcome::Win); // 8
        play(&mut arena, a, c, ArenaOutcome::Draw); // 10, the streak ends
        play(&mut arena, a, b, ArenaOutcome::Win); // 12
        assert_eq!(arena.players()[a].points, 12);
        assert_eq!(arena.players()[a].streak, 1);
        assert_eq!(arena.players()[c].points, 1);
        assert_eq!(arena.standings()[0], a);
    }

    #[test]
    fn a_finished_player_is_paired_again_but_not_with_the_last_opponent() {
        let mut arena = Arena::new(10, 60).unwrap();
        let players: Vec<usize> = (0..4).map(|_| arena.join(0).unwrap()).collect();
        let first = arena.pair_waiting(0);
        assert_eq!(first.len(), 2);
        let (w, b) = first[0];
        arena.record(w, b, ArenaOutcome::Win).unwrap();
        // Only these two wait: they just met, so no game.
        assert!(arena.pair_waiting(30).is_empty());
        let (w2, b2) = first[1];
        arena.record(w2, b2, ArenaOutcome::Draw).unwrap();
        let second = arena.pair_waiting(40);
        assert_eq!(second.len(), 2);
        for &(x, y) in &second {
            assert_ne!(arena.players()[x].last_opponent, None);
            assert!(
                !(first.contains(&(x, y)) || first.contains(&(y, x))),
                "{second:?} repeats {first:?}"
            );
        }
        assert_eq!(players.len(), 4);
    }

    #[test]
    fn a_replayed_history_scores_streaks_in_order_and_pairs_around_the_last_opponent() {
        let game = |white, black, outcome| PlayedGame {
            white,
            black,
            white_outcome: outcome,
        };
        let history = [
            game(0, 1, Some(ArenaOutcome::Win)),
            game(2, 3, Some(ArenaOutcome::Draw)),
            game(2, 0, Some(ArenaOutcome::Loss)), // player 0's second win: on fire
            game(1, 3, None),
        ];
        let mut arena = Arena::replay(10, 60, 5, &[4], &history).unwrap();
        assert_eq!(arena.players()[0].points, 4);
        assert!(arena.on_fire(0));
        assert_eq!(arena.players()[2].points, 1);
        assert!(arena.players()[1].playing && arena.players()[3].playing);
        // Player 0 and 2 wait (4 left): they just met, so nobody is paired.
        assert!(arena.pair_waiting(100).is_empty());
        arena.rejoin(4).unwrap();
        assert_eq!(arena.pair_waiting(100).len(), 1);
        // Nobody plays two games at once, nor meets themself.
        let twice = [game(0, 1, None), game(1, 2, None)];
        assert_eq!(
            Arena::replay(10, 60, 3, &[], &twice),
            Err(ArenaError::AlreadyPlaying(1))
        );
        assert_eq!(
            Arena::replay(10, 60, 3, &[], &[game(1, 1, None)]),
            Err(ArenaError::AlreadyPlaying(1))
        );
        assert_eq!(
            Arena::replay(10, 60, 3, &[], &[game(0, 5, None)]),
            Err(ArenaError::UnknownPlayer(5))
        );
    }

    #[test]
    fn pairing_stops_near_the_end() {
        let mut arena = Arena::new(10, 90).unwrap();
        arena.join(0).unwrap();
        arena.join(0).unwrap();
        assert!(arena.pair_waiting(600 - 90).is_empty());
        assert_eq!(arena.pair_waiting(600 - 91).len(), 1);
        assert_eq!(Arena::new(0, 0), Err(ArenaError::Length(0)));
        assert_eq!(
            Arena::new(1, 60),
            Err(ArenaError::Stop {
                stop: 60,
                length: 60
            })
        );
    }
}
