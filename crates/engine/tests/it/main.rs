//! The engine through its public API: legal choices at every level, mates, fairness to what
//! its side saw, analysis, and thinking off the async runtime (one test binary).

mod analysis;
mod common;
mod fairness;
mod legality;
mod mates;
mod runtime;
