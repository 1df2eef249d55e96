//! Players through the codec since schema 8 (ratings by speed): any player reads back as
//! written; a player written by any older schema reads with its ratings as the
//! correspondence ones and no live speed; a fleet of an older schema gets the older shape,
//! and a live rating waits for the fleet.

use jieqi_clock::Speed;
use jieqi_rules::Variant;
use proptest::prelude::*;

use super::older::since;
use super::{Record, SCHEMA_VERSION, decode, encode};
use crate::StoreError;
use crate::ids::{Platform, User, UserId};
use crate::records::{PlayerRecord, VariantStats};

fn stats() -> impl Strategy<Value = VariantStats> {
    (
        0.0f64..4_000.0,
        30.0f64..350.0,
        0.01f64..0.2,
        0u32..5_000,
        0u32..5_000,
        0u32..5_000,
    )
        .prop_map(
            |(rating, deviation, volatility, wins, losses, draws)| VariantStats {
                rating,
                deviation,
                volatility,
                wins,
                losses,
                draws,
            },
        )
}

fn variant() -> impl Strategy<Value = Variant> {
    prop::sample::select(Variant::ALL.to_vec())
}

fn speed() -> impl Strategy<Value = Speed> {
    prop::sample::select(Speed::ALL.to_vec())
}

/// Any player: a name, correspondence ratings, and ratings in any speeds (correspondence
/// among them goes where it always went).
fn player() -> impl Strategy<Value = PlayerRecord> {
    (
        "\\PC{0,40}",
        0u64..1_000,
        prop::array::uniform3(stats()),
        prop::collection::vec((variant(), speed(), stats()), 0..16),
    )
        .prop_map(|(name, revision, correspondence, rated)| {
            let user = User::new(UserId::new(Platform::Telegram, "7"), &name);
            let mut player = PlayerRecord::new(&user);
            player.revision = revision;
            player.stats = correspondence;
            for (variant, speed, stats) in rated {
                *player.rating_mut(variant, speed) = stats;
            }
            player
        })
}

/// `player` as a fleet at version `fleet` is written it (what `fleet::encode_for` does).
fn encode_for(player: &PlayerRecord, fleet: u8) -> Result<Vec<u8>, StoreError> {
    if fleet >= SCHEMA_VERSION {
        return encode(player);
    }
    let mut bytes = vec![fleet];
    bytes.extend(player.older_shape(fleet)?);
    Ok(bytes)
}

/// `player` without its live ratings, as an older schema could hold it.
fn correspondence_only(player: &PlayerRecord) -> PlayerRecord {
    PlayerRecord {
        live: Default::default(),
        ..player.clone()
    }
}

proptest! {
    #[test]
    fn any_player_reads_back_as_written(player in player()) {
        let bytes = encode(&player).unwrap();
        prop_assert_eq!(bytes[0], SCHEMA_VERSION);
        prop_assert_eq!(decode::<PlayerRecord>(&bytes).unwrap(), player);
    }

    /// Schemas 4 to 7 wrote the same fields without `live` at the end; whatever the record
    /// held then reads back with the same correspondence ratings and nothing else rated.
    #[test]
    fn a_player_of_any_older_schema_reads_with_its_ratings_as_correspondence(
        player in player(),
        version in 4u8..SCHEMA_VERSION,
    ) {
        let old = correspondence_only(&player);
        let mut bytes = encode(&old).unwrap();
        prop_assert_eq!(bytes.pop(), Some(0));
        bytes[0] = version;
        let read = decode::<PlayerRecord>(&bytes).unwrap();
        for variant in Variant::ALL {
            prop_assert_eq!(
                read.rating(variant, Speed::Correspondence),
                *player.stats(variant)
            );
            for speed in [Speed::Bullet, Speed::Blitz, Speed::Rapid, Speed::Classical] {
                prop_assert_eq!(read.rating(variant, speed).games(), 0);
            }
        }
        prop_assert_eq!(read, old);
    }

    /// A fleet still reading an older schema gets the player in its shape, which reads
    /// back the same; a player rated in a live speed is not written for it.
    #[test]
    fn a_player_for_an_older_fleet_reads_back_or_waits_for_the_fleet(
        player in player(),
        fleet in 4u8..since::SPEED_RATINGS,
    ) {
        match encode_for(&player, fleet) {
            Ok(bytes) => {
                prop_assert!(player.live.is_empty());
                prop_assert_eq!(bytes[0], fleet);
                prop_assert_eq!(&decode::<PlayerRecord>(&bytes).unwrap(), &player);
            }
            Err(StoreError::NotYet { needs, .. }) => {
                prop_assert!(!player.live.is_empty());
                prop_assert_eq!(needs, u32::from(since::SPEED_RATINGS));
            }
            Err(other) => prop_assert!(false, "{other}"),
        }
        let bytes = encode_for(&player, since::SPEED_RATINGS).unwrap();
        prop_assert_eq!(decode::<PlayerRecord>(&bytes).unwrap(), player);
    }
}

#[test]
fn a_blitz_rating_is_stored_after_the_puzzle_rating_and_read_back() {
    let mut player = PlayerRecord::new(&User::new(UserId::new(Platform::Discord, "1"), "ann"));
    player.rating_mut(Variant::Jieqi, Speed::Blitz).wins = 2;
    let bytes = encode(&player).unwrap();
    let read = decode::<PlayerRecord>(&bytes).unwrap();
    assert_eq!(read.rating(Variant::Jieqi, Speed::Blitz).wins, 2);
    assert_eq!(
        read.rating(Variant::Jieqi, Speed::Correspondence).games(),
        0
    );
    assert!(matches!(
        encode_for(&player, 7),
        Err(StoreError::NotYet {
            needs: 8,
            fleet: 7,
            ..
        })
    ));
}

#[test]
fn correspondence_is_the_rating_kept_before_live_games_and_each_speed_played_is_listed() {
    let mut player = PlayerRecord::new(&User::new(UserId::new(Platform::Local, "bo"), "bo"));
    player.stats_mut(Variant::Xiangqi).wins = 3;
    assert_eq!(
        player.rating(Variant::Xiangqi, Speed::Correspondence).wins,
        3
    );
    player
        .rating_mut(Variant::Xiangqi, Speed::Correspondence)
        .losses = 1;
    assert_eq!(player.stats(Variant::Xiangqi).losses, 1);
    assert!(player.live.is_empty());
    player.rating_mut(Variant::Xiangqi, Speed::Rapid).draws = 1;
    player.rating_mut(Variant::Xiangqi, Speed::Bullet).wins = 1;
    let played: Vec<Speed> = player
        .speeds_played(Variant::Xiangqi)
        .into_iter()
        .map(|(speed, _)| speed)
        .collect();
    assert_eq!(played, [Speed::Bullet, Speed::Rapid, Speed::Correspondence]);
    assert!(player.speeds_played(Variant::Banqi).is_empty());
    assert_eq!(
        player.rating(Variant::Banqi, Speed::Rapid),
        VariantStats::default()
    );
}
