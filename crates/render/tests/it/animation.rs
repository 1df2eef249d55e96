//! The animated GIF of a game, decoded and checked frame by frame.

use crate::common;

use common::{banqi_midgame, jieqi_midgame, jieqi_start};
use jieqi_render::{FRAME_DELAY, LAST_FRAME_DELAY, RenderError, RenderOptions, layout, render_gif};

struct Frame {
    left: u16,
    top: u16,
    width: u16,
    height: u16,
    delay: u16,
}

fn frames(gif_bytes: &[u8]) -> (u16, u16, Vec<Frame>) {
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::Indexed);
    let mut decoder = options
        .read_info(std::io::Cursor::new(gif_bytes))
        .expect("a GIF header");
    let (width, height) = (decoder.width(), decoder.height());
    let mut out = Vec::new();
    while let Some(frame) = decoder.read_next_frame().expect("a GIF frame") {
        out.push(Frame {
            left: frame.left,
            top: frame.top,
            width: frame.width,
            height: frame.height,
            delay: frame.delay,
        });
    }
    (width, height, out)
}

#[test]
fn a_game_gives_one_frame_per_position_and_lingers_on_the_last() {
    let options = RenderOptions {
        width: 360,
        ..RenderOptions::default()
    };
    let game = [jieqi_start(), jieqi_midgame(), jieqi_midgame()];
    let gif_bytes = render_gif(&game, &options).expect("drawn");
    let (width, height, frames) = frames(&gif_bytes);
    let expected = layout(&game[0], &options).expect("a layout");
    assert_eq!(
        (u32::from(width), u32::from(height)),
        (expected.width, expected.height)
    );
    assert_eq!(frames.len(), 3);
    assert_eq!(frames[0].delay, FRAME_DELAY);
    assert_eq!(frames[1].delay, FRAME_DELAY);
    assert_eq!(frames[2].delay, LAST_FRAME_DELAY);
    assert!(frames[2].delay > frames[1].delay);
    // The first frame is whole; a repeated position stores next to nothing.
    assert_eq!((frames[0].left, frames[0].top), (0, 0));
    assert_eq!((frames[0].width, frames[0].height), (width, height));
    assert_eq!(u32::from(frames[2].width) * u32::from(frames[2].height), 1);
}

#[test]
fn only_the_changed_part_of_a_position_is_stored() {
    let options = RenderOptions {
        width: 360,
        ..RenderOptions::default()
    };
    let before = jieqi_midgame();
    let mut after = before.clone();
    after.check = None;
    let gif_bytes = render_gif(&[before.clone(), after], &options).expect("drawn");
    let (width, height, frames) = frames(&gif_bytes);
    let second = &frames[1];
    assert!(
        u32::from(second.width) * u32::from(second.height) * 20
            < u32::from(width) * u32::from(height)
    );
    let general = layout(&before, &options)
        .expect("a layout")
        .point_rect(common::point("e0"))
        .expect("on the board");
    // The region that changed covers the general's square.
    assert!(u32::from(second.left) <= general.x + general.width / 2);
    assert!(u32::from(second.left + second.width) >= general.x + general.width / 2);
    assert!(u32::from(second.top) <= general.y + general.height / 2);
}

#[test]
fn animations_need_positions_on_one_board() {
    let options = RenderOptions::default();
    assert_eq!(render_gif(&[], &options), Err(RenderError::NoFrames));
    assert_eq!(
        render_gif(&[jieqi_start(), banqi_midgame()], &options),
        Err(RenderError::MixedBoards)
    );
}
