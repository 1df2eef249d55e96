//! A uniformly random legal mover: the floor every level must clear, and a sparring partner
//! for tests and matches.

use jieqi_rules::GameMove;
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

use crate::engine::EngineError;

/// Plays a uniformly random legal move, from a seeded generator.
#[derive(Clone, Debug)]
pub struct RandomMover {
    rng: ChaCha8Rng,
}

impl RandomMover {
    /// A random mover whose choices are fixed by `seed`.
    pub fn new(seed: u64) -> RandomMover {
        RandomMover {
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }

    /// One of `legal`, uniformly at random.
    pub fn choose(&mut self, legal: &[GameMove]) -> Result<GameMove, EngineError> {
        legal
            .choose(&mut self.rng)
            .copied()
            .ok_or(EngineError::NoLegalMove)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use jieqi_rules::{Game, GameDeal, Preset, Rules, Variant};

    #[test]
    fn random_mover_picks_legal_moves_and_repeats_with_its_seed() {
        let game = Game::new(
            Rules::new(Variant::Xiangqi, Preset::Standard),
            GameDeal::None,
        )
        .expect("xiangqi game");
        let legal = game.legal_moves();
        let picks = |seed| {
            let mut mover = RandomMover::new(seed);
            (0..20)
                .map(|_| mover.choose(&legal).expect("moves"))
                .collect::<Vec<_>>()
        };
        assert!(picks(3).iter().all(|m| legal.contains(m)));
        assert_eq!(picks(3), picks(3));
        assert_ne!(picks(3), picks(4));
        assert_eq!(
            RandomMover::new(1).choose(&[]),
            Err(EngineError::NoLegalMove)
        );
    }
}
