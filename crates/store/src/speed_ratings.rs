//! Ratings by speed, as lichess keeps them: bullet, blitz, rapid, classical and
//! correspondence, each per variant. A live game is rated in the speed of its control
//! (`jieqi_clock::TimeControl::speed`), a game on a time per move in correspondence.
//!
//! The correspondence ratings are the ones every player had before live games
//! (`PlayerRecord::stats`, where they have always been stored), so a record of an older
//! schema reads with its ratings as the correspondence ones and nothing in the live speeds.
//! The live speeds' ratings are kept apart ([`LiveRatings`], schema 8), and only for the
//! speeds a player has rated games in: most players play one or two.

use jieqi_clock::Speed;
use jieqi_rules::Variant;
use serde::{Deserialize, Serialize};

use crate::recipe::variant_name;

/// A Glicko-2 rating and record: a player's in one variant and speed, or a puzzle rating.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct VariantStats {
    /// Glicko-2 rating.
    pub rating: f64,
    /// Glicko-2 rating deviation.
    pub deviation: f64,
    /// Glicko-2 volatility.
    pub volatility: f64,
    /// Games won.
    pub wins: u32,
    /// Games lost.
    pub losses: u32,
    /// Games drawn.
    pub draws: u32,
}

impl Default for VariantStats {
    fn default() -> Self {
        let start = skillratings::glicko2::Glicko2Rating::new();
        VariantStats {
            rating: start.rating,
            deviation: start.deviation,
            volatility: start.volatility,
            wins: 0,
            losses: 0,
            draws: 0,
        }
    }
}

impl VariantStats {
    /// Rated games played.
    pub fn games(&self) -> u32 {
        self.wins + self.losses + self.draws
    }
}

impl Eq for VariantStats {}

/// A player's rating and record in one live speed of one variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LiveRating {
    /// The variant.
    #[serde(with = "variant_name")]
    pub variant: Variant,
    /// The speed: bullet, blitz, rapid or classical (never correspondence).
    #[serde(with = "live_speed_name")]
    pub speed: Speed,
    /// The rating and record.
    pub stats: VariantStats,
}

/// A player's ratings in the live speeds: at most one per variant and speed, none in
/// correspondence (that one is `PlayerRecord::stats`). A stored list breaking either is
/// refused by the codec rather than trusted.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "Vec<LiveRating>", into = "Vec<LiveRating>")]
pub struct LiveRatings(Vec<LiveRating>);

impl LiveRatings {
    /// Every rating kept, in the order they were first rated.
    pub fn iter(&self) -> impl Iterator<Item = &LiveRating> {
        self.0.iter()
    }

    /// True when no live game was ever rated.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The rating in `variant` at the live `speed`, if one was ever rated.
    pub fn get(&self, variant: Variant, speed: Speed) -> Option<VariantStats> {
        self.0
            .iter()
            .find(|r| (r.variant, r.speed) == (variant, speed))
            .map(|r| r.stats)
    }

    /// The rating in `variant` at the live `speed`, to change: a fresh one if none was
    /// rated yet. Correspondence is not kept here (`PlayerRecord::stats` is).
    pub(crate) fn entry(&mut self, variant: Variant, speed: Speed) -> &mut VariantStats {
        debug_assert!(speed != Speed::Correspondence);
        let at = match self
            .0
            .iter()
            .position(|r| (r.variant, r.speed) == (variant, speed))
        {
            Some(at) => at,
            None => {
                self.0.push(LiveRating {
                    variant,
                    speed,
                    stats: VariantStats::default(),
                });
                self.0.len() - 1
            }
        };
        &mut self.0[at].stats
    }
}

impl TryFrom<Vec<LiveRating>> for LiveRatings {
    type Error = String;

    fn try_from(ratings: Vec<LiveRating>) -> Result<LiveRatings, String> {
        for (i, rating) in ratings.iter().enumerate() {
            if ratings[..i]
                .iter()
                .any(|r| (r.variant, r.speed) == (rating.variant, rating.speed))
            {
                return Err(format!(
                    "a player record has two {} {} ratings",
                    rating.variant.name(),
                    rating.speed
                ));
            }
        }
        Ok(LiveRatings(ratings))
    }
}

impl From<LiveRatings> for Vec<LiveRating> {
    fn from(ratings: LiveRatings) -> Vec<LiveRating> {
        ratings.0
    }
}

/// A live speed by its name; correspondence is refused (its ratings are kept elsewhere).
mod live_speed_name {
    use jieqi_clock::Speed;
    use serde::{Deserialize, Deserializer, Serializer, de::Error};

    pub fn serialize<S: Serializer>(speed: &Speed, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(speed.name())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Speed, D::Error> {
        let name = String::deserialize(d)?;
        Speed::ALL
            .into_iter()
            .filter(|speed| *speed != Speed::Correspondence)
            .find(|speed| speed.name() == name)
            .ok_or_else(|| D::Error::custom(format!("`{name}` is not a live speed")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_live_speed_is_rated_once_per_variant() {
        let mut ratings = LiveRatings::default();
        assert_eq!(ratings.get(Variant::Xiangqi, Speed::Blitz), None);
        ratings.entry(Variant::Xiangqi, Speed::Blitz).wins = 1;
        ratings.entry(Variant::Xiangqi, Speed::Blitz).rating = 1_600.0;
        ratings.entry(Variant::Jieqi, Speed::Blitz).losses = 1;
        assert_eq!(ratings.iter().count(), 2);
        let blitz = ratings.get(Variant::Xiangqi, Speed::Blitz).unwrap();
        assert_eq!((blitz.wins, blitz.rating), (1, 1_600.0));
        assert_eq!(ratings.get(Variant::Jieqi, Speed::Rapid), None);
    }

    #[test]
    fn a_stored_list_with_a_rating_twice_or_in_correspondence_is_refused() {
        let rating = LiveRating {
            variant: Variant::Banqi,
            speed: Speed::Rapid,
            stats: VariantStats::default(),
        };
        let twice = postcard::to_allocvec(&vec![rating, rating]).unwrap();
        assert!(postcard::from_bytes::<LiveRatings>(&twice).is_err());
        let once = postcard::to_allocvec(&vec![rating]).unwrap();
        assert!(postcard::from_bytes::<LiveRatings>(&once).is_ok());
        let stats = VariantStats::default();
        let as_blitz = postcard::to_allocvec(&(1u8, "banqi", "blitz", stats)).unwrap();
        assert!(postcard::from_bytes::<LiveRatings>(&as_blitz).is_ok());
        let correspondence =
            postcard::to_allocvec(&(1u8, "banqi", "correspondence", stats)).unwrap();
        assert!(postcard::from_bytes::<LiveRatings>(&correspondence).is_err());
    }
}
