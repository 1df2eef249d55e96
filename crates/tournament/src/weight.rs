//! A 256-bit signed integer, only as wide as the matching's weights need: every Dutch
//! criterion is a field of one edge weight, most important in the highest bits, and their
//! widths together pass 128 bits in a large event.

use std::cmp::Ordering;
use std::ops::{Add, AddAssign, Sub, SubAssign};

/// `hi · 2¹²⁸ + lo`, two's complement.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, Debug)]
pub struct Weight {
    hi: i128,
    lo: u128,
}

impl Weight {
    /// Zero.
    pub const ZERO: Weight = Weight { hi: 0, lo: 0 };

    /// A small value.
    pub fn from_u64(value: u64) -> Weight {
        Weight {
            hi: 0,
            lo: u128::from(value),
        }
    }

    /// Room for a field `bits` wide below the current value, then the field's `value`.
    /// The value must be below 2^bits (the builder of weights sizes fields so).
    pub fn push(self, bits: u32, value: u64) -> Weight {
        self.shifted_left(bits) + Weight::from_u64(value)
    }

    /// Shifted left by `bits` (at most 127 at a time).
    pub fn shifted_left(self, bits: u32) -> Weight {
        match bits {
            0 => self,
            1..=127 => Weight {
                hi: (self.hi << bits) | (self.lo >> (128 - bits)) as i128,
                lo: self.lo << bits,
            },
            _ => self.shifted_left(127).shifted_left(bits - 127),
        }
    }

    /// Shifted right by `bits` (arithmetic: the floor of the division by 2^bits).
    pub fn shifted_right(self, bits: u32) -> Weight {
        match bits {
            0 => self,
            1..=127 => Weight {
                hi: self.hi >> bits,
                lo: (self.lo >> bits) | ((self.hi as u128) << (128 - bits)),
            },
            _ => self.shifted_right(127).shifted_right(bits - 127),
        }
    }

    /// Half, rounded down.
    pub fn half(self) -> Weight {
        self.shifted_right(1)
    }
}

impl Add for Weight {
    type Output = Weight;
    fn add(self, other: Weight) -> Weight {
        let (lo, carry) = self.lo.overflowing_add(other.lo);
        Weight {
            hi: self
                .hi
                .wrapping_add(other.hi)
                .wrapping_add(i128::from(carry)),
            lo,
        }
    }
}

impl Sub for Weight {
    type Output = Weight;
    fn sub(self, other: Weight) -> Weight {
        let (lo, borrow) = self.lo.overflowing_sub(other.lo);
        Weight {
            hi: self
                .hi
                .wrapping_sub(other.hi)
                .wrapping_sub(i128::from(borrow)),
            lo,
        }
    }
}

impl AddAssign for Weight {
    fn add_assign(&mut self, other: Weight) {
        *self = *self + other;
    }
}

impl SubAssign for Weight {
    fn sub_assign(&mut self, other: Weight) {
        *self = *self - other;
    }
}

impl Ord for Weight {
    fn cmp(&self, other: &Weight) -> Ordering {
        (self.hi, self.lo).cmp(&(other.hi, other.lo))
    }
}

impl PartialOrd for Weight {
    fn partial_cmp(&self, other: &Weight) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl std::iter::Sum for Weight {
    fn sum<I: Iterator<Item = Weight>>(iter: I) -> Weight {
        iter.fold(Weight::ZERO, |a, b| a + b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn w(v: i64) -> Weight {
        if v >= 0 {
            Weight::from_u64(v as u64)
        } else {
            Weight::ZERO - Weight::from_u64(v.unsigned_abs())
        }
    }

    proptest! {
        #[test]
        fn arithmetic_agrees_with_i64(a in -1_000_000i64..1_000_000, b in -1_000_000i64..1_000_000) {
            prop_assert_eq!(w(a) + w(b), w(a + b));
            prop_assert_eq!(w(a) - w(b), w(a - b));
            prop_assert_eq!(w(a).cmp(&w(b)), a.cmp(&b));
            prop_assert_eq!(w(a).half(), w(a.div_euclid(2)));
        }

        #[test]
        fn shifts_carry_across_the_halves(v in 0u64..u64::MAX, bits in 0u32..190) {
            let big = Weight::from_u64(v).shifted_left(bits);
            prop_assert_eq!(big.shifted_right(bits), Weight::from_u64(v));
            prop_assert!(big >= Weight::from_u64(v));
        }
    }
}
