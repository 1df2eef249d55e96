//! A finished game as an animated GIF, one frame per position.
//!
//! Frames are composed from the same sprites, in the same palette, as the PNGs, so the
//! palette is the GIF's global colour table and no frame is quantised again. After the first
//! frame only the rectangle that changed is stored, which keeps a long game small.

use jieqi_rules::View;

use crate::layout::Layout;
use crate::palette::Picture;
use crate::{RenderError, RenderOptions, compose, sprites};

/// How long each position stays, in hundredths of a second.
pub const FRAME_DELAY: u16 = 100;
/// How long the final position stays before the animation starts again.
pub const LAST_FRAME_DELAY: u16 = 400;

/// The animated GIF of `views`, one frame per view in order (usually one per ply of a
/// finished game, from the start position to the last).
pub fn render_gif(views: &[View], options: &RenderOptions) -> Result<Vec<u8>, RenderError> {
    let first = views.first().ok_or(RenderError::NoFrames)?;
    let layout = Layout::for_view(first, options.width, options.orientation)?;
    // Refuse a mixed game before drawing any of it.
    for view in views {
        if Layout::for_view(view, options.width, options.orientation)? != layout {
            return Err(RenderError::MixedBoards);
        }
    }
    let sheet = sprites::sheet(layout, options.style)?;
    let too_big = |_| RenderError::Width {
        width: layout.width,
    };
    let width = u16::try_from(layout.width).map_err(too_big)?;
    let height = u16::try_from(layout.height).map_err(too_big)?;
    let encode_error = |e: gif::EncodingError| RenderError::Encode(e.to_string());

    let mut out = Vec::new();
    let mut encoder =
        gif::Encoder::new(&mut out, width, height, &sheet.palette.rgb()).map_err(encode_error)?;
    encoder
        .set_repeat(gif::Repeat::Infinite)
        .map_err(encode_error)?;
    // Frames are drawn one at a time, keeping only the one before: a long game at full
    // width would otherwise hold hundreds of pictures at once.
    let mut previous: Option<Picture> = None;
    for (index, view) in views.iter().enumerate() {
        let frame = compose::compose(view, &sheet)?;
        let region = match &previous {
            None => Some(Region::whole(&frame)),
            Some(before) => Region::changed(before, &frame),
        };
        // A position identical to the one before still gets its moment on screen: a single
        // unchanged pixel carries the delay.
        let region = region.unwrap_or(Region {
            left: 0,
            top: 0,
            width: 1,
            height: 1,
        });
        let gif_frame = gif::Frame {
            left: u16::try_from(region.left).map_err(too_big)?,
            top: u16::try_from(region.top).map_err(too_big)?,
            width: u16::try_from(region.width).map_err(too_big)?,
            height: u16::try_from(region.height).map_err(too_big)?,
            buffer: region.cut(&frame).into(),
            delay: if index + 1 == views.len() {
                LAST_FRAME_DELAY
            } else {
                FRAME_DELAY
            },
            dispose: gif::DisposalMethod::Keep,
            ..gif::Frame::default()
        };
        encoder.write_frame(&gif_frame).map_err(encode_error)?;
        previous = Some(frame);
    }
    drop(encoder);
    Ok(out)
}

/// A rectangle of one frame, in pixels.
#[derive(Clone, Copy, Debug)]
struct Region {
    left: u32,
    top: u32,
    width: u32,
    height: u32,
}

impl Region {
    fn whole(frame: &Picture) -> Region {
        Region {
            left: 0,
            top: 0,
            width: frame.width,
            height: frame.height,
        }
    }

    /// The smallest rectangle holding every pixel that differs, or `None` if none does.
    fn changed(before: &Picture, after: &Picture) -> Option<Region> {
        let width = usize::try_from(after.width).ok()?.max(1);
        let (mut min_x, mut min_y, mut max_x, mut max_y) = (usize::MAX, usize::MAX, 0, 0);
        let rows = before
            .indices
            .chunks_exact(width)
            .zip(after.indices.chunks_exact(width));
        for (y, (a, b)) in rows.enumerate() {
            if a == b {
                continue;
            }
            let first = a.iter().zip(b).position(|(p, q)| p != q).unwrap_or(0);
            let last = a
                .iter()
                .zip(b)
                .rposition(|(p, q)| p != q)
                .unwrap_or(width - 1);
            min_x = min_x.min(first);
            max_x = max_x.max(last);
            min_y = min_y.min(y);
            max_y = max_y.max(y);
        }
        if min_y == usize::MAX {
            return None;
        }
        Some(Region {
            left: u32::try_from(min_x).ok()?,
            top: u32::try_from(min_y).ok()?,
            width: u32::try_from(max_x - min_x + 1).ok()?,
            height: u32::try_from(max_y - min_y + 1).ok()?,
        })
    }

    /// The entries of `frame` inside this region, row by row.
    fn cut(&self, frame: &Picture) -> Vec<u8> {
        let width = frame.width as usize;
        let (left, right) = (self.left as usize, (self.left + self.width) as usize);
        frame
            .indices
            .chunks_exact(width.max(1))
            .skip(self.top as usize)
            .take(self.height as usize)
            .flat_map(|row| row.get(left..right).unwrap_or(&[]))
            .copied()
            .collect()
    }
}
