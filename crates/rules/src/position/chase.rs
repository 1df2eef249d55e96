//! Which enemy pieces a side chases: the board half of the repetition rules (the judge in
//! `game::repetition` works on what this finds at each ply).
//!
//! Following the Asian (AXF) rules as Pikafish and Fairy-Stockfish read them, a side chases
//! an enemy piece when it could capture it now, legally, and the capture would win
//! something:
//! - generals and soldiers never chase; generals are never chased (that is check), nor are
//!   soldiers still on their own half of the board;
//! - the capture must be legal: a pinned attacker, or a capture that would leave the
//!   attacker's general exposed (the flying general included), is no attack;
//! - a horse or cannon attacking a chariot, or an advisor or elephant attacking a chariot,
//!   cannon or horse, chases it whether or not it is protected (it is worth more);
//! - any other attack chases an unprotected piece: one that no piece could legally
//!   recapture once the capture is made. The recapture is tried on the board after the
//!   capture, so a protector that is pinned, or a cannon whose screen was the capturer, does
//!   not protect;
//! - an attack on an unprotected piece of the same kind that could legally capture the
//!   attacker back is an offer to exchange, not a chase.
//!
//! Covered Jieqi pieces are on the board as the type of their point, so they attack, protect
//! and are chased as that type. Whether an attack is *new* (the judge counts only those) is
//! the judge's business: it compares the sets before and after a move.

use crate::attacks::{
    ADVISOR_FREE, ADVISOR_PALACE, ELEPHANT_FREE, ELEPHANT_HOME, GENERAL_MOVES, HORSE_ATTACKERS,
    RAYS, SOLDIER_ATTACKERS,
};
use crate::types::{Role, Side, Square};

use super::Position;
use super::board::{
    ADVISOR, ADVISOR_FREE as ADVISOR_FREE_KIND, CANNON, CHARIOT, ELEPHANT,
    ELEPHANT_FREE as ELEPHANT_FREE_KIND, GENERAL, HORSE, KIND, SOLDIER, kind_role, side_bit,
};

/// The points of Red's half (ranks 0–4); Black's half is the rest of the board.
const RED_HALF: u128 = (1u128 << 45) - 1;

/// Points of `side`'s pieces on board `b` that could move onto `target` (as the board is;
/// legality aside). The generals' facing rule is left out: it only ever captures a general.
fn attackers_on(b: &[u8; Square::COUNT], target: usize, by: Side) -> u128 {
    let t = side_bit(by);
    let mut found = 0u128;
    for ray in &RAYS[target] {
        let mut squares = ray.squares().iter();
        for &s in squares.by_ref() {
            let c = b[usize::from(s)];
            if c != 0 {
                if c == CHARIOT | t {
                    found |= 1u128 << s;
                }
                break;
            }
        }
        for &s in squares {
            let c = b[usize::from(s)];
            if c != 0 {
                if c == CANNON | t {
                    found |= 1u128 << s;
                }
                break;
            }
        }
    }
    let mut add = |s: usize, kind: u8| {
        if b[s] == kind | t {
            found |= 1u128 << s;
        }
    };
    for (from, leg) in HORSE_ATTACKERS[target].pairs() {
        if b[leg] == 0 {
            add(from, HORSE);
        }
    }
    for &s in SOLDIER_ATTACKERS[by.index()][target].targets() {
        add(usize::from(s), SOLDIER);
    }
    for &s in ADVISOR_PALACE[target].targets() {
        add(usize::from(s), ADVISOR);
    }
    for &s in ADVISOR_FREE[target].targets() {
        add(usize::from(s), ADVISOR_FREE_KIND);
    }
    for (from, eye) in ELEPHANT_HOME[by.index()][target].pairs() {
        if b[eye] == 0 {
            add(from, ELEPHANT);
        }
    }
    for (from, eye) in ELEPHANT_FREE[target].pairs() {
        if b[eye] == 0 {
            add(from, ELEPHANT_FREE_KIND);
        }
    }
    for &s in GENERAL_MOVES[target].targets() {
        add(usize::from(s), GENERAL);
    }
    found
}

/// Whether an attacker of role `attacker` chases a piece of role `target` whatever protects
/// it, because the target is worth more.
fn worth_more(attacker: Role, target: Role) -> bool {
    match attacker {
        Role::Horse | Role::Cannon => target == Role::Chariot,
        Role::Advisor | Role::Elephant => {
            matches!(target, Role::Chariot | Role::Cannon | Role::Horse)
        }
        _ => false,
    }
}

impl Position {
    /// The points (bit = square index) of the enemy pieces that `chaser` chases in this
    /// position, looking only at enemy pieces on `within` (see the module documentation).
    /// `chaser` need not be the side to move: the captures are judged as if it were.
    pub(crate) fn chased_by(&self, chaser: Side, within: u128) -> u128 {
        let them = !chaser;
        let their_general = 1u128 << self.generals[them.index()];
        let their_half = match them {
            Side::Red => RED_HALF,
            Side::Black => !RED_HALF,
        };
        let mut targets = self.occupied[them.index()] & within & !their_general;
        let mut soldiers = targets & their_half;
        while soldiers != 0 {
            let s = soldiers.trailing_zeros() as usize;
            soldiers &= soldiers - 1;
            if self.board[s] & KIND == SOLDIER {
                targets &= !(1u128 << s);
            }
        }
        let mut chased = 0u128;
        if targets == 0 {
            return chased;
        }
        let mut scratch = self.board;
        let mut pieces = self.occupied[chaser.index()];
        while pieces != 0 {
            let from = pieces.trailing_zeros() as usize;
            pieces &= pieces - 1;
            let kind = self.board[from] & KIND;
            if kind == GENERAL || kind == SOLDIER {
                continue;
            }
            let mut hits = self.attack_mask(from) & targets & !chased;
            while hits != 0 {
                let to = hits.trailing_zeros() as usize;
                hits &= hits - 1;
                if self.chases(&mut scratch, from, to, chaser) {
                    chased |= 1u128 << to;
                }
            }
        }
        chased
    }

    /// Whether `chaser`'s piece on `from`, which attacks the enemy piece on `to`, chases it.
    /// `b` is a scratch copy of the board, restored before returning.
    fn chases(&self, b: &mut [u8; Square::COUNT], from: usize, to: usize, chaser: Side) -> bool {
        if !self.safe_for_on(b, from, to, chaser) {
            return false;
        }
        let attacker = kind_role(b[from] & KIND);
        let target = kind_role(b[to] & KIND);
        if worth_more(attacker, target) {
            return true;
        }
        // Make the capture and look for a legal recapture.
        let defender = !chaser;
        let (moved, captured) = (b[from], b[to]);
        b[from] = 0;
        b[to] = moved;
        let mut protectors = attackers_on(b, to, defender);
        let mut protected = false;
        while protectors != 0 && !protected {
            let s = protectors.trailing_zeros() as usize;
            protectors &= protectors - 1;
            protected = self.safe_for_on(b, s, to, defender);
        }
        b[from] = moved;
        b[to] = captured;
        if protected {
            return false;
        }
        // Two like pieces attacking each other offer an exchange, unless the target could not
        // take back (a horse with its leg blocked that way, a pinned piece).
        attacker != target
            || self.attack_mask(to) & (1u128 << from) == 0
            || !self.safe_for_on(b, to, from, defender)
    }
}
