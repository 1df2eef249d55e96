//! The secret randomness of games and the commitment that proves it was not changed.
//!
//! Deals and salts come from the operating system's CSPRNG: never from time, ids or anything
//! else public. At the start the chat gets `sha256(deal ‖ salt)`; at the end it gets the deal
//! and the salt, so anyone can recompute the hash (`printf %s DEALSALT | sha256sum`).

use jieqi_rules::{GameDeal, Variant};
use rand::rngs::OsRng;
use rand::{Rng, RngCore};

use crate::config::DealSource;
use crate::ids::{ChallengeId, GameId};

pub use jieqi_store::commitment;

/// A freshly drawn secret: the deal and its salt.
pub(crate) struct Secret {
    pub deal: GameDeal,
    pub salt: String,
}

/// Where a service draws deals, salts, ids and colour tosses from.
pub(crate) struct Randomness {
    #[cfg(feature = "test-hooks")]
    seeded: Option<seeded::Seeded>,
}

impl Randomness {
    pub(crate) fn new(source: &DealSource) -> Randomness {
        match source {
            DealSource::Os => Randomness {
                #[cfg(feature = "test-hooks")]
                seeded: None,
            },
            #[cfg(feature = "test-hooks")]
            DealSource::Seeded(seed) => Randomness {
                seeded: Some(seeded::Seeded::new(*seed, Vec::new())),
            },
            #[cfg(feature = "test-hooks")]
            DealSource::Scripted { seed, deals } => Randomness {
                seeded: Some(seeded::Seeded::new(*seed, deals.clone())),
            },
        }
    }

    /// A deal for `variant` and a 128-bit salt.
    pub(crate) fn secret(&mut self, variant: Variant) -> Secret {
        #[cfg(feature = "test-hooks")]
        if let Some(seeded) = &mut self.seeded {
            return seeded.secret(variant);
        }
        let mut rng = OsRng;
        Secret {
            deal: GameDeal::shuffled(variant, &mut |n| uniform(&mut rng, n)),
            salt: salt(&mut rng),
        }
    }

    pub(crate) fn game_id(&mut self) -> GameId {
        #[cfg(feature = "test-hooks")]
        if let Some(seeded) = &mut self.seeded {
            return GameId::random(&mut seeded.public);
        }
        GameId::random(&mut OsRng)
    }

    pub(crate) fn challenge_id(&mut self) -> ChallengeId {
        #[cfg(feature = "test-hooks")]
        if let Some(seeded) = &mut self.seeded {
            return ChallengeId::random(&mut seeded.public);
        }
        ChallengeId::random(&mut OsRng)
    }

    pub(crate) fn tournament_id(&mut self) -> crate::ids::TournamentId {
        #[cfg(feature = "test-hooks")]
        if let Some(seeded) = &mut self.seeded {
            return crate::ids::TournamentId::random(&mut seeded.public);
        }
        crate::ids::TournamentId::random(&mut OsRng)
    }

    /// The seed of the built-in engine's choices in one game (`/play bot`).
    pub(crate) fn engine_seed(&mut self) -> u64 {
        #[cfg(feature = "test-hooks")]
        if let Some(seeded) = &mut self.seeded {
            return seeded.public.next_u64();
        }
        OsRng.next_u64()
    }

    /// A fair coin (who plays Red when the challenger chose random).
    pub(crate) fn coin(&mut self) -> bool {
        #[cfg(feature = "test-hooks")]
        if let Some(seeded) = &mut self.seeded {
            return seeded.public.gen_bool(0.5);
        }
        OsRng.gen_bool(0.5)
    }
}

fn uniform(rng: &mut impl Rng, n: u32) -> u32 {
    if n == 0 { 0 } else { rng.gen_range(0..n) }
}

fn salt(rng: &mut impl RngCore) -> String {
    let mut bytes = [0u8; 16];
    rng.fill_bytes(&mut bytes);
    hex::encode(bytes)
}

#[cfg(feature = "test-hooks")]
mod seeded {
    //! Reproducible randomness for tests: public choices (ids, colours) and secrets (deals,
    //! salts) come from separate generators, so two test services with the same seed but
    //! different scripted deals make the same public choices.

    use std::collections::VecDeque;

    use jieqi_rules::{GameDeal, Variant};
    use rand::SeedableRng;
    use rand_chacha::ChaCha20Rng;

    use super::{Secret, salt, uniform};

    pub(super) struct Seeded {
        pub public: ChaCha20Rng,
        secret: ChaCha20Rng,
        deals: VecDeque<String>,
    }

    impl Seeded {
        pub fn new(seed: u64, deals: Vec<String>) -> Seeded {
            Seeded {
                public: ChaCha20Rng::seed_from_u64(seed ^ 0x05EE_D1D5),
                secret: ChaCha20Rng::seed_from_u64(seed),
                deals: deals.into(),
            }
        }

        pub fn secret(&mut self, variant: Variant) -> Secret {
            let scripted = self
                .deals
                .pop_front()
                .and_then(|letters| GameDeal::from_letters(variant, &letters).ok());
            let deal = scripted.unwrap_or_else(|| {
                GameDeal::shuffled(variant, &mut |n| uniform(&mut self.secret, n))
            });
            Secret {
                deal,
                salt: salt(&mut self.secret),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commitment_is_sha256_of_deal_then_salt() {
        // printf %s abc | sha256sum
        assert_eq!(
            commitment("ab", "c"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn os_deals_differ_and_salts_are_128_bits() {
        let mut randomness = Randomness::new(&DealSource::Os);
        let a = randomness.secret(Variant::Jieqi);
        let b = randomness.secret(Variant::Jieqi);
        assert_eq!(a.salt.len(), 32);
        assert_ne!(a.salt, b.salt);
        assert_eq!(a.deal.letters().len(), 30);
    }
}
