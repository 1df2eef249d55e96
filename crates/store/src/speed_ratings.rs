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
use crate::records::{GameRecord, PlayerRecord, VariantStats};

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

impl PlayerRecord {
    /// Their rating and record in `variant` at `speed` (a fresh rating where they have no
    /// rated game).
    pub fn rating(&self, variant: Variant, speed: Speed) -> VariantStats {
        if speed == Speed::Correspondence {
            return *self.stats(variant);
        }
        self.live
            .iter()
            .find(|r| (r.variant, r.speed) == (variant, speed))
            .map(|r| r.stats)
            .unwrap_or_default()
    }

    /// Their rating in `variant` at `speed`, to change (kept from now on).
    pub fn rating_mut(&mut self, variant: Variant, speed: Speed) -> &mut VariantStats {
        if speed == Speed::Correspondence {
            return self.stats_mut(variant);
        }
        let ratings = &mut self.live.0;
        let at = match ratings
            .iter()
            .position(|r| (r.variant, r.speed) == (variant, speed))
        {
            Some(at) => at,
            None => {
                ratings.push(LiveRating {
                    variant,
                    speed,
                    stats: VariantStats::default(),
                });
                ratings.len() - 1
            }
        };
        &mut ratings[at].stats
    }

    /// The speeds they have rated games in, in `variant`, fastest first, with their ratings.
    pub fn speeds_played(&self, variant: Variant) -> Vec<(Speed, VariantStats)> {
        Speed::ALL
            .into_iter()
            .map(|speed| (speed, self.rating(variant, speed)))
            .filter(|(_, stats)| stats.games() > 0)
            .collect()
    }
}

impl GameRecord {
    /// The speed the game is rated in: its control's for a live game, correspondence for a
    /// game on a time per move.
    pub fn speed(&self) -> Speed {
        self.clock
            .as_ref()
            .map_or(Speed::Correspondence, |clock| clock.control().speed())
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
    use crate::ids::{Platform, User, UserId};

    fn ann() -> PlayerRecord {
        PlayerRecord::new(&User::new(UserId::new(Platform::Local, "ann"), "ann"))
    }

    #[test]
    fn correspondence_is_the_rating_kept_before_live_games() {
        let mut player = ann();
        player.stats_mut(Variant::Jieqi).wins = 3;
        assert_eq!(player.rating(Variant::Jieqi, Speed::Correspondence).wins, 3);
        player
            .rating_mut(Variant::Jieqi, Speed::Correspondence)
            .losses = 1;
        assert_eq!(player.stats(Variant::Jieqi).losses, 1);
        assert!(player.live.is_empty());
    }

    #[test]
    fn a_live_speed_is_rated_apart_and_listed_once_played() {
        let mut player = ann();
        assert_eq!(
            player.rating(Variant::Xiangqi, Speed::Blitz),
            VariantStats::default()
        );
        player.rating_mut(Variant::Xiangqi, Speed::Blitz).wins = 1;
        player.rating_mut(Variant::Xiangqi, Speed::Blitz).rating = 1_600.0;
        player
            .rating_mut(Variant::Xiangqi, Speed::Correspondence)
            .draws = 2;
        assert_eq!(player.live.iter().count(), 1);
        let played: Vec<Speed> = player
            .speeds_played(Variant::Xiangqi)
            .into_iter()
            .map(|(speed, _)| speed)
            .collect();
        assert_eq!(played, [Speed::Blitz, Speed::Correspondence]);
        assert!(player.speeds_played(Variant::Jieqi).is_empty());
        assert_eq!(player.rating(Variant::Jieqi, Speed::Blitz).games(), 0);
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
