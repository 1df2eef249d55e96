//! Tournaments, pure and synchronous: no I/O, no clock, no randomness of its own.
//!
//! Where to start:
//! - [`swiss::Swiss`] runs a Swiss event: join (late too), withdraw, ask for a bye,
//!   [`swiss::Swiss::pair_next_round`], [`swiss::Swiss::record`]. Its pairing is the FIDE
//!   Dutch system in [`swiss::dutch`]: the rules' criteria as the weights of a maximum
//!   weight matching ([`matching`], on the wide integers of [`weight`]), bracket by bracket.
//!   A round that no pairing can make legal is refused, never played.
//! - [`trf`] reads and writes the event as TRF-16, FIDE's exchange format.
//! - [`round_robin::RoundRobin`] gives a round robin's rounds by the Berger tables.
//! - [`arena::Arena`] pairs players again as soon as their game ends, with lichess's
//!   scoring and streaks.
//! - [`tiebreak::standings`] ranks by points and the tie-breaks, in an order per format.
//! - [`model`] holds the shared vocabulary: colours, points in half points, byes, a round's
//!   entry per player.
//!
//! `tests/reference.rs` compares the pairings with caissify-pairings, an independent
//! implementation of the Dutch system; `benches/swiss.rs` times a 500-player round.

pub mod arena;
pub mod matching;
pub mod model;
pub mod round_robin;
pub mod swiss;
pub mod tiebreak;
pub mod trf;
pub mod weight;
