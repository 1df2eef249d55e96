//! Wide signed integers, only as wide as the matching's weights need: every Dutch
//! criterion is a field of one edge weight, most important in the highest bits, and their
//! widths together pass a thousand bits in a large event (each score group has its own
//! bits in six of the fields). [`Wide`] is `L` 64-bit limbs in two's complement; the
//! matching is generic over [`MatchWeight`], and the Dutch system picks the narrowest width
//! that holds its layout.

use std::cmp::Ordering;
use std::ops::{Add, AddAssign, Sub, SubAssign};

/// What the matching needs of a weight: an ordered group whose even values halve exactly.
pub trait MatchWeight:
    Copy + Ord + Add<Output = Self> + Sub<Output = Self> + AddAssign + SubAssign + std::fmt::Debug
{
    /// Zero.
    const ZERO: Self;
    /// Half, rounded down.
    fn half(self) -> Self;

    /// `self + other - less`: an edge's slack from its ends' duals and its weight, the
    /// matching's most frequent sum (one sweep of the limbs for a wide integer).
    #[inline]
    fn add_sub(self, other: Self, less: Self) -> Self {
        self + other - less
    }
}

/// `L` limbs of 64 bits, least significant first, two's complement.
#[derive(Clone, Copy, Eq, Debug)]
pub struct Wide<const L: usize> {
    limbs: [u64; L],
}

impl<const L: usize> PartialEq for Wide<L> {
    // Every limb's difference folded together: no call to `memcmp`, which the derived
    // comparison of a long array becomes (a tenth of a matching's time).
    #[inline]
    fn eq(&self, other: &Wide<L>) -> bool {
        self.limbs
            .iter()
            .zip(&other.limbs)
            .fold(0, |acc, (a, b)| acc | (a ^ b))
            == 0
    }
}

impl<const L: usize> std::hash::Hash for Wide<L> {
    // Equal values have equal limbs: the same hash as the derived one.
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.limbs.hash(state);
    }
}

/// The width the arena and small tests use: 256 bits.
pub type Weight = Wide<4>;

impl<const L: usize> Default for Wide<L> {
    fn default() -> Self {
        Self::ZERO
    }
}

impl<const L: usize> Wide<L> {
    /// Zero.
    pub const ZERO: Wide<L> = Wide { limbs: [0; L] };

    /// The number of bits.
    pub const BITS: u32 = 64 * L as u32;

    /// A small value.
    pub fn from_u64(value: u64) -> Wide<L> {
        let mut limbs = [0; L];
        limbs[0] = value;
        Wide { limbs }
    }

    /// `2^bit` (zero past the width).
    pub fn bit(bit: u32) -> Wide<L> {
        let mut limbs = [0; L];
        if let Some(limb) = limbs.get_mut((bit / 64) as usize) {
            *limb = 1 << (bit % 64);
        }
        Wide { limbs }
    }

    /// Whether zero.
    #[inline]
    pub fn is_zero(&self) -> bool {
        self.limbs.iter().all(|&l| l == 0)
    }

    /// Whether above zero.
    #[inline]
    pub fn is_positive(&self) -> bool {
        !self.is_negative() && !self.is_zero()
    }

    #[inline]
    fn is_negative(&self) -> bool {
        L > 0 && (self.limbs[L - 1] as i64) < 0
    }

    /// Room for a field `bits` wide below the current value, then the field's `value`.
    /// The value must be below 2^bits (the builders of weights size fields so).
    pub fn push(self, bits: u32, value: u64) -> Wide<L> {
        self.shifted_left(bits) + Wide::from_u64(value)
    }

    /// As [`Wide::push`] with a wide field value.
    pub fn push_wide(self, bits: u32, value: Wide<L>) -> Wide<L> {
        self.shifted_left(bits) + value
    }

    /// Shifted left by `bits`.
    pub fn shifted_left(self, bits: u32) -> Wide<L> {
        if bits >= Self::BITS {
            return Self::ZERO;
        }
        let (whole, part) = ((bits / 64) as usize, bits % 64);
        let mut limbs = [0u64; L];
        for k in (whole..L).rev() {
            let src = k - whole;
            let mut v = self.limbs[src] << part;
            if part > 0 && src > 0 {
                v |= self.limbs[src - 1] >> (64 - part);
            }
            limbs[k] = v;
        }
        Wide { limbs }
    }

    /// Shifted right by `bits` (arithmetic: the floor of the division by 2^bits).
    pub fn shifted_right(self, bits: u32) -> Wide<L> {
        let fill = if self.is_negative() { u64::MAX } else { 0 };
        if bits >= Self::BITS {
            return Wide { limbs: [fill; L] };
        }
        let (whole, part) = ((bits / 64) as usize, bits % 64);
        let limb = |k: usize| self.limbs.get(k).copied().unwrap_or(fill);
        let mut limbs = [0u64; L];
        for (k, out) in limbs.iter_mut().enumerate() {
            let lo = limb(k + whole);
            *out = if part == 0 {
                lo
            } else {
                (lo >> part) | (limb(k + whole + 1) << (64 - part))
            };
        }
        Wide { limbs }
    }
}

impl<const L: usize> MatchWeight for Wide<L> {
    const ZERO: Self = Wide { limbs: [0; L] };
    fn half(self) -> Self {
        self.shifted_right(1)
    }

    #[inline]
    fn add_sub(self, other: Wide<L>, less: Wide<L>) -> Wide<L> {
        let mut limbs = [0u64; L];
        let (mut carry, mut borrow) = (false, false);
        for (k, out) in limbs.iter_mut().enumerate() {
            let (s, c1) = self.limbs[k].overflowing_add(other.limbs[k]);
            let (s, c2) = s.overflowing_add(u64::from(carry));
            let (d, b1) = s.overflowing_sub(less.limbs[k]);
            let (d, b2) = d.overflowing_sub(u64::from(borrow));
            (carry, borrow) = (c1 | c2, b1 | b2);
            *out = d;
        }
        Wide { limbs }
    }
}

impl<const L: usize> Add for Wide<L> {
    type Output = Wide<L>;
    #[inline]
    fn add(self, other: Wide<L>) -> Wide<L> {
        // One 128-bit sum a limb, which compiles to a chain of add-with-carry.
        let mut limbs = [0u64; L];
        let mut carry = 0u128;
        for (k, out) in limbs.iter_mut().enumerate() {
            let s = u128::from(self.limbs[k]) + u128::from(other.limbs[k]) + carry;
            *out = s as u64;
            carry = s >> 64;
        }
        Wide { limbs }
    }
}

impl<const L: usize> Sub for Wide<L> {
    type Output = Wide<L>;
    #[inline]
    fn sub(self, other: Wide<L>) -> Wide<L> {
        let mut limbs = [0u64; L];
        let mut borrow = 0u128;
        for (k, out) in limbs.iter_mut().enumerate() {
            let s = u128::from(self.limbs[k])
                .wrapping_sub(u128::from(other.limbs[k]))
                .wrapping_sub(borrow);
            *out = s as u64;
            borrow = (s >> 64) & 1;
        }
        Wide { limbs }
    }
}

impl<const L: usize> AddAssign for Wide<L> {
    #[inline]
    fn add_assign(&mut self, other: Wide<L>) {
        *self = *self + other;
    }
}

impl<const L: usize> SubAssign for Wide<L> {
    #[inline]
    fn sub_assign(&mut self, other: Wide<L>) {
        *self = *self - other;
    }
}

impl<const L: usize> Ord for Wide<L> {
    // Two's complement: the top limbs compare signed, the others unsigned, from the top.
    #[inline]
    fn cmp(&self, other: &Wide<L>) -> Ordering {
        let Some(top) = L.checked_sub(1) else {
            return Ordering::Equal;
        };
        let first = (self.limbs[top] as i64).cmp(&(other.limbs[top] as i64));
        if first != Ordering::Equal {
            return first;
        }
        for k in (0..top).rev() {
            if self.limbs[k] != other.limbs[k] {
                return self.limbs[k].cmp(&other.limbs[k]);
            }
        }
        Ordering::Equal
    }
}

impl<const L: usize> PartialOrd for Wide<L> {
    #[inline]
    fn partial_cmp(&self, other: &Wide<L>) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<const L: usize> std::iter::Sum for Wide<L> {
    fn sum<I: Iterator<Item = Wide<L>>>(iter: I) -> Wide<L> {
        iter.fold(Self::ZERO, |a, b| a + b)
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
            prop_assert_eq!(w(a).add_sub(w(b), w(a)), w(b));
            prop_assert_eq!(w(a).add_sub(w(b), w(b - a)), w(2 * a));
            prop_assert_eq!(w(a).add_sub(w(a), w(b)), w(a + a - b));
        }

        #[test]
        fn shifts_carry_across_the_limbs(v in 0u64..u64::MAX, bits in 0u32..190) {
            let big = Weight::from_u64(v).shifted_left(bits);
            prop_assert_eq!(big.shifted_right(bits), Weight::from_u64(v));
            prop_assert!(big >= Weight::from_u64(v));
            prop_assert_eq!(Weight::bit(bits).shifted_right(bits), Weight::from_u64(1));
        }

        #[test]
        fn order_holds_across_the_limbs(a in -1_000_000i64..1_000_000, b in -1_000_000i64..1_000_000, bits in 0u32..190) {
            prop_assert_eq!(w(a).shifted_left(bits).cmp(&w(b).shifted_left(bits)), a.cmp(&b));
        }
    }

    #[test]
    fn a_negative_value_orders_below_every_positive_one() {
        assert!(w(-1) < w(0));
        assert!(w(-1) < Weight::bit(200));
        assert!(!w(-1).is_positive());
        assert!(w(-1).shifted_right(5) == w(-1));
    }
}
