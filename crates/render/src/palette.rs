//! Pictures of 256 colours, composed directly in palette indices.
//!
//! A board picture has few colours: wood, lines, ivory, two inks, three backs and their
//! antialiased edges. Storing one byte per pixel instead of three makes the PNG a third of
//! the size to compress, which is what lets a fast deflate level stay under the size budget,
//! and the GIF needs a palette anyway. The palette is learned once per sprite sheet from the
//! sprites themselves, and a 32 x 32 x 32 table answers "which entry is nearest" in one read.

use color_quant::NeuQuant;
use resvg::tiny_skia::Pixmap;

/// Bits kept per channel in the look-up table: 32 levels, so a colour is matched to within
/// 4 steps of 256 before the palette's own rounding, far below what the eye sees on a board.
const TABLE_BITS: u32 = 5;

/// 256 colours and the nearest-entry table.
#[derive(Clone)]
pub(crate) struct Palette {
    colours: Vec<[u8; 3]>,
    table: Vec<u8>,
}

impl std::fmt::Debug for Palette {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Palette")
            .field("colours", &self.colours.len())
            .finish_non_exhaustive()
    }
}

impl Palette {
    /// Learns a palette from opaque RGBA `samples` (NeuQuant, deterministic).
    pub(crate) fn learn(samples: &[u8]) -> Palette {
        let quantiser = NeuQuant::new(10, 256, samples);
        let colours: Vec<[u8; 3]> = quantiser
            .color_map_rgb()
            .chunks_exact(3)
            .map(|c| [c[0], c[1], c[2]])
            .collect();
        let levels = 1u32 << TABLE_BITS;
        let shift = 8 - TABLE_BITS;
        let centre = 1u32 << (shift - 1);
        let mut table = Vec::with_capacity((levels * levels * levels) as usize);
        for r in 0..levels {
            for g in 0..levels {
                for b in 0..levels {
                    let channel = |v: u32| u8::try_from((v << shift) | centre).unwrap_or(u8::MAX);
                    let pixel = [channel(r), channel(g), channel(b), 255];
                    table.push(u8::try_from(quantiser.index_of(&pixel)).unwrap_or(0));
                }
            }
        }
        Palette { colours, table }
    }

    /// The entry nearest to a colour.
    #[inline]
    pub(crate) fn index(&self, r: u8, g: u8, b: u8) -> u8 {
        let shift = 8 - TABLE_BITS;
        let key = (usize::from(r >> shift) << (2 * TABLE_BITS))
            | (usize::from(g >> shift) << TABLE_BITS)
            | usize::from(b >> shift);
        self.table.get(key).copied().unwrap_or(0)
    }

    /// The colour of an entry.
    #[inline]
    pub(crate) fn colour(&self, index: u8) -> [u8; 3] {
        self.colours
            .get(usize::from(index))
            .copied()
            .unwrap_or([0, 0, 0])
    }

    /// The palette as `r g b r g b ...`, as PNG and GIF store it.
    pub(crate) fn rgb(&self) -> Vec<u8> {
        self.colours.iter().flatten().copied().collect()
    }

    /// Every pixel of an opaque pixmap as palette entries.
    pub(crate) fn indices_of(&self, pixmap: &Pixmap) -> Vec<u8> {
        pixmap
            .data()
            .chunks_exact(4)
            .map(|px| self.index(px[0], px[1], px[2]))
            .collect()
    }
}

/// A picture as palette entries, one byte per pixel, rows top to bottom.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Picture {
    pub(crate) width: u32,
    pub(crate) height: u32,
    pub(crate) indices: Vec<u8>,
}

impl Picture {
    /// Draws a premultiplied sprite with its top-left corner at `(x, y)`, blending its
    /// translucent pixels with the colours already there.
    pub(crate) fn blit(&mut self, palette: &Palette, sprite: &Pixmap, x: i64, y: i64) {
        let (width, height) = (i64::from(self.width), i64::from(self.height));
        let (sw, sh) = (i64::from(sprite.width()), i64::from(sprite.height()));
        // The part of the sprite that lands on the picture.
        let (x0, x1) = ((-x).max(0), (width - x).min(sw));
        let (y0, y1) = ((-y).max(0), (height - y).min(sh));
        if x0 >= x1 || y0 >= y1 {
            return;
        }
        let data = sprite.data();
        for sy in y0..y1 {
            let src_row = (sy * sw) as usize * 4;
            let dst_row = ((y + sy) * width + x) as usize;
            for sx in x0..x1 {
                let s = src_row + sx as usize * 4;
                let Some(&[r, g, b, a]) = data.get(s..s + 4).and_then(|p| p.first_chunk::<4>())
                else {
                    continue;
                };
                if a == 0 {
                    continue;
                }
                let Some(dst) = self.indices.get_mut(dst_row + sx as usize) else {
                    continue;
                };
                *dst = if a == 255 {
                    palette.index(r, g, b)
                } else {
                    let [ur, ug, ub] = palette.colour(*dst);
                    let keep = 255 - u32::from(a);
                    let over = |top: u8, under: u8| {
                        let v = u32::from(top) + (u32::from(under) * keep + 127) / 255;
                        u8::try_from(v).unwrap_or(u8::MAX)
                    };
                    palette.index(over(r, ur), over(g, ug), over(b, ub))
                };
            }
        }
    }
}
