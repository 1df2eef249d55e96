//! The byte code of a point of a [`Position`](super::Position)'s board.
//!
//! A code is a *movement kind* (how the piece moves, limits included) plus one bit for its
//! side. Covered Jieqi pieces are coded by their fake type and kept covered in a separate bit
//! mask, so generation and attack tests never branch on "covered": a covered advisor is just
//! an advisor that keeps to the palace. Empty is `0`.

use crate::types::{Role, Side};

/// General (palace steps).
pub(crate) const GENERAL: u8 = 1;
/// Advisor confined to its palace (Xiangqi; covered in Jieqi).
pub(crate) const ADVISOR: u8 = 2;
/// Advisor free to step diagonally anywhere (Jieqi, face up).
pub(crate) const ADVISOR_FREE: u8 = 3;
/// Elephant kept on its own half (Xiangqi; covered in Jieqi).
pub(crate) const ELEPHANT: u8 = 4;
/// Elephant free to cross the river (Jieqi, face up).
pub(crate) const ELEPHANT_FREE: u8 = 5;
/// Chariot.
pub(crate) const CHARIOT: u8 = 6;
/// Cannon.
pub(crate) const CANNON: u8 = 7;
/// Horse.
pub(crate) const HORSE: u8 = 8;
/// Soldier.
pub(crate) const SOLDIER: u8 = 9;

/// Mask of the movement kind in a code.
pub(crate) const KIND: u8 = 0x0F;
/// Side bit of Red pieces.
pub(crate) const RED: u8 = 0x10;
/// Side bit of Black pieces.
pub(crate) const BLACK: u8 = 0x20;

/// The side bit of `side`.
#[inline]
pub(crate) const fn side_bit(side: Side) -> u8 {
    match side {
        Side::Red => RED,
        Side::Black => BLACK,
    }
}

/// The side of a non-empty code.
#[inline]
pub(crate) const fn code_side(code: u8) -> Side {
    if code & BLACK != 0 {
        Side::Black
    } else {
        Side::Red
    }
}

/// The role a movement kind belongs to (the fake type, for a covered piece).
#[inline]
pub(crate) const fn kind_role(kind: u8) -> Role {
    match kind {
        ADVISOR | ADVISOR_FREE => Role::Advisor,
        ELEPHANT | ELEPHANT_FREE => Role::Elephant,
        CHARIOT => Role::Chariot,
        CANNON => Role::Cannon,
        HORSE => Role::Horse,
        SOLDIER => Role::Soldier,
        // GENERAL, and the empty code, which callers never ask about.
        _ => Role::General,
    }
}

/// The movement kind of `role`; `free` lifts the palace and river limits of advisors and
/// elephants (Jieqi face-up pieces).
#[inline]
pub(crate) const fn role_kind(role: Role, free: bool) -> u8 {
    match role {
        Role::General => GENERAL,
        Role::Advisor if free => ADVISOR_FREE,
        Role::Advisor => ADVISOR,
        Role::Elephant if free => ELEPHANT_FREE,
        Role::Elephant => ELEPHANT,
        Role::Chariot => CHARIOT,
        Role::Cannon => CANNON,
        Role::Horse => HORSE,
        Role::Soldier => SOLDIER,
    }
}

/// The Zobrist slot of a code: per side, the role when face up, slot 7 when covered.
#[inline]
pub(crate) const fn zobrist_slot(code: u8, covered: bool) -> usize {
    let side = if code & BLACK != 0 { 8 } else { 0 };
    if covered {
        side + 7
    } else {
        side + kind_role(code & KIND).index()
    }
}
