//! Playing strength: a [`Level`] names a [`Budget`] (time and nodes a move) and how much
//! seeded randomness the engine mixes into its choice so that games against it vary.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use thiserror::Error;

/// How strong the engine plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Level {
    /// Shallow and noisy: sees captures, misses most plans.
    Novice,
    /// A little deeper, still careless now and then.
    Casual,
    /// At most one second a move, a touch of variety.
    Club,
    /// At most three seconds a move, no deliberate randomness.
    Master,
}

impl Level {
    /// Every level, weakest first.
    pub const ALL: [Level; 4] = [Level::Novice, Level::Casual, Level::Club, Level::Master];

    /// The lowercase name used in commands (`novice`, `casual`, `club`, `master`).
    pub const fn name(self) -> &'static str {
        match self {
            Level::Novice => "novice",
            Level::Casual => "casual",
            Level::Club => "club",
            Level::Master => "master",
        }
    }

    /// What a move of this level may spend and how much it varies.
    ///
    /// Node counts are the real limit on a normal machine (they make a level equally strong
    /// on any hardware and its games reproducible); the time caps are the promise to the
    /// player that a move never takes longer, on one core: 1 s for club, 3 s for master.
    pub const fn budget(self) -> Budget {
        match self {
            Level::Novice => Budget {
                nodes: 600,
                movetime: Duration::from_millis(250),
                max_depth: 1,
                noise: 200,
                chance_plies: 1,
            },
            Level::Casual => Budget {
                nodes: 8_000,
                movetime: Duration::from_millis(500),
                max_depth: 3,
                noise: 60,
                chance_plies: 1,
            },
            Level::Club => Budget {
                nodes: 100_000,
                movetime: Duration::from_millis(1_000),
                max_depth: 64,
                noise: 25,
                chance_plies: 1,
            },
            Level::Master => Budget {
                nodes: 3_000_000,
                movetime: Duration::from_millis(3_000),
                max_depth: 64,
                noise: 0,
                chance_plies: 1,
            },
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A level name that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("`{0}` is not an engine level: choose novice, casual, club or master")]
pub struct ParseLevelError(pub String);

impl FromStr for Level {
    type Err = ParseLevelError;

    fn from_str(s: &str) -> Result<Level, ParseLevelError> {
        match s.trim().to_ascii_lowercase().as_str() {
            "novice" => Ok(Level::Novice),
            "casual" => Ok(Level::Casual),
            "club" => Ok(Level::Club),
            "master" => Ok(Level::Master),
            _ => Err(ParseLevelError(s.to_owned())),
        }
    }
}

/// What one move may cost, and how much the engine varies its play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Budget {
    /// Nodes searched before the engine settles on its best move so far.
    pub nodes: u64,
    /// Wall-clock time a move may take at most.
    pub movetime: Duration,
    /// Deepest iteration (plies) of iterative deepening.
    pub max_depth: u32,
    /// Size of the seeded random bonus (in hundredths of a soldier) given to each root move
    /// before the search, so that moves of nearly equal value are chosen in varying order.
    pub noise: i32,
    /// Plies from the root at which a reveal is searched as a chance node over every type it
    /// may turn out to be (deeper reveals use the approximation of `search`'s module doc).
    pub chance_plies: u32,
}

impl Budget {
    /// This budget with its node count and time scaled by `factor` (at least one node and one
    /// millisecond): matches use it to fit many games into little time.
    pub fn scaled(self, factor: f64) -> Budget {
        let factor = if factor.is_finite() && factor > 0.0 {
            factor
        } else {
            1.0
        };
        let nodes = ((self.nodes as f64) * factor).max(1.0) as u64;
        let millis = ((self.movetime.as_millis() as f64) * factor).max(1.0) as u64;
        Budget {
            nodes,
            movetime: Duration::from_millis(millis),
            ..self
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn level_names_round_trip() {
        for level in Level::ALL {
            assert_eq!(level.to_string().parse::<Level>(), Ok(level));
        }
        assert_eq!(" Master ".parse::<Level>(), Ok(Level::Master));
        assert!("grandmaster".parse::<Level>().is_err());
    }

    #[test]
    fn stronger_levels_spend_more_and_vary_less() {
        for pair in Level::ALL.windows(2) {
            let (weak, strong) = (pair[0].budget(), pair[1].budget());
            assert!(weak.nodes < strong.nodes);
            assert!(weak.noise > strong.noise);
            assert!(weak.max_depth <= strong.max_depth);
        }
    }

    #[test]
    fn club_and_master_respect_their_time_caps() {
        assert!(Level::Club.budget().movetime <= Duration::from_secs(1));
        assert!(Level::Master.budget().movetime <= Duration::from_secs(3));
    }

    #[test]
    fn scaling_keeps_at_least_one_node() {
        let b = Level::Novice.budget().scaled(0.0000001);
        assert_eq!(b.nodes, 1);
        assert_eq!(b.movetime, Duration::from_millis(1));
        assert_eq!(Level::Club.budget().scaled(f64::NAN), Level::Club.budget());
    }
}
