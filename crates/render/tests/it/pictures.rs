//! Checks on the pictures themselves: decoded pixels, not the code that drew them.

use crate::common;

use common::{banqi_midgame, jieqi_midgame, jieqi_start, piece, point, put};
use jieqi_render::{
    Layout, PieceStyle, Rect, RenderError, RenderOptions, render, render_svg_per_request,
};
use jieqi_rules::{Cell, LastAction, Piece, Point, Role, Side, View, Viewer};

/// A decoded picture: width, height and RGB bytes.
struct Decoded {
    width: u32,
    height: u32,
    rgb: Vec<u8>,
}

impl Decoded {
    fn pixel(&self, x: u32, y: u32) -> [u8; 3] {
        let i = ((y * self.width + x) * 3) as usize;
        [self.rgb[i], self.rgb[i + 1], self.rgb[i + 2]]
    }

    /// Every pixel where `self` and `other` differ.
    fn differences(&self, other: &Decoded) -> Vec<(u32, u32)> {
        assert_eq!((self.width, self.height), (other.width, other.height));
        let mut out = Vec::new();
        for y in 0..self.height {
            for x in 0..self.width {
                if self.pixel(x, y) != other.pixel(x, y) {
                    out.push((x, y));
                }
            }
        }
        out
    }

    /// The pixels of a rectangle, row by row.
    fn crop(&self, rect: Rect) -> Vec<[u8; 3]> {
        let mut out = Vec::new();
        for y in rect.y..rect.y + rect.height {
            for x in rect.x..rect.x + rect.width {
                out.push(self.pixel(x, y));
            }
        }
        out
    }
}

fn decode(png: &[u8]) -> Decoded {
    let mut decoder = png::Decoder::new(std::io::Cursor::new(png));
    // Indexed pictures come out as RGB.
    decoder.set_transformations(png::Transformations::EXPAND);
    let mut reader = decoder.read_info().expect("a PNG header");
    let mut buf = vec![0; reader.output_buffer_size().expect("a buffer size")];
    let info = reader.next_frame(&mut buf).expect("a PNG frame");
    assert_eq!(
        info.color_type,
        png::ColorType::Rgb,
        "board pictures are opaque"
    );
    buf.truncate(info.buffer_size());
    Decoded {
        width: info.width,
        height: info.height,
        rgb: buf,
    }
}

fn draw(view: &View, options: &RenderOptions) -> Decoded {
    decode(&render(view, options).expect("the view can be drawn"))
}

fn layout_of(view: &View, options: &RenderOptions) -> Layout {
    jieqi_render::layout(view, options).expect("a layout")
}

/// A pixel inside a point's square but outside any disc on it: near its top-left corner.
fn corner_pixel(rect: Rect) -> (u32, u32) {
    (rect.x + rect.width / 8, rect.y + rect.height / 8)
}

#[test]
fn pictures_have_the_asked_width_and_the_layouts_height() {
    for view in [jieqi_midgame(), banqi_midgame()] {
        for width in [720, 360] {
            let options = RenderOptions {
                width,
                ..RenderOptions::default()
            };
            let picture = draw(&view, &options);
            assert_eq!(picture.width, width);
            assert_eq!(picture.height, layout_of(&view, &options).height);
            assert!(picture.height > picture.width / 2, "{width}");
        }
    }
}

#[test]
fn the_last_move_marks_both_its_squares() {
    let options = RenderOptions::default();
    let marked = jieqi_midgame();
    let mut unmarked = marked.clone();
    unmarked.last_action = None;
    let (a, b) = (draw(&marked, &options), draw(&unmarked, &options));
    let layout = layout_of(&marked, &options);
    for name in ["c4", "d2"] {
        let (x, y) = corner_pixel(layout.point_rect(point(name)).expect("on the board"));
        assert_ne!(a.pixel(x, y), b.pixel(x, y), "{name} is not marked");
    }
}

#[test]
fn a_banqi_flip_marks_its_square() {
    let options = RenderOptions::default();
    let flipped = banqi_midgame();
    let Some(LastAction::Flip(at)) = flipped.last_action else {
        panic!("the sample ends with a flip");
    };
    let mut unmarked = flipped.clone();
    unmarked.last_action = None;
    let layout = layout_of(&flipped, &options);
    let (x, y) = corner_pixel(layout.point_rect(at).expect("on the board"));
    assert_ne!(
        draw(&flipped, &options).pixel(x, y),
        draw(&unmarked, &options).pixel(x, y)
    );
}

#[test]
fn check_changes_the_generals_square_and_nothing_far_from_it() {
    let options = RenderOptions::default();
    let checked = jieqi_midgame();
    let mut quiet = checked.clone();
    quiet.check = None;
    let layout = layout_of(&checked, &options);
    let general = layout.point_rect(point("e0")).expect("on the board");
    let changed = draw(&checked, &options).differences(&draw(&quiet, &options));
    assert!(changed.iter().any(|&(x, y)| general.contains(x, y)));
    // The glow may spill an eighth of a cell past the square, no further.
    let reach = layout.cell / 8 + 1;
    for (x, y) in changed {
        assert!(
            x + reach >= general.x
                && y + reach >= general.y
                && x < general.x + general.width + reach
                && y < general.y + general.height + reach,
            "({x}, {y}) changed, away from the general"
        );
    }
}

#[test]
fn equal_views_give_byte_identical_pictures() {
    for view in [jieqi_midgame(), banqi_midgame()] {
        for style in [PieceStyle::Characters, PieceStyle::Symbols] {
            let options = RenderOptions {
                style,
                ..RenderOptions::default()
            };
            let copy = view.clone();
            assert_eq!(
                render(&view, &options).expect("drawn"),
                render(&copy, &options).expect("drawn")
            );
        }
    }
}

#[test]
fn what_a_player_alone_knows_changes_only_their_captured_tray() {
    let options = RenderOptions::default();
    let public = jieqi_midgame();
    // Red took a covered black piece and learned it was a horse; the public did not.
    let mut red = public.clone();
    red.viewer = Viewer::Player(Side::Red);
    red.captured.black.known = vec![Role::Advisor, Role::Horse];
    red.captured.black.unknown = 0;
    assert_eq!(
        red.captured.black.known.len() + usize::from(red.captured.black.unknown),
        public.captured.black.known.len() + usize::from(public.captured.black.unknown)
    );
    let tray = layout_of(&public, &options).tray_rect(Side::Black);
    let changed = draw(&public, &options).differences(&draw(&red, &options));
    assert!(!changed.is_empty(), "the known horse must show");
    for (x, y) in changed {
        assert!(tray.contains(x, y), "({x}, {y}) changed outside {tray:?}");
    }
}

/// The pixels of point `at` on an otherwise empty board holding only `cell`.
fn lone_cell(cell: Cell, style: PieceStyle) -> Vec<[u8; 3]> {
    let mut view = jieqi_start();
    view.cells.iter_mut().for_each(|c| *c = Cell::Empty);
    put(&mut view, "e4", cell);
    let options = RenderOptions {
        style,
        ..RenderOptions::default()
    };
    let rect = layout_of(&view, &options)
        .point_rect(point("e4"))
        .expect("on the board");
    draw(&view, &options).crop(rect)
}

fn pixels_apart(a: &[[u8; 3]], b: &[[u8; 3]]) -> usize {
    a.iter().zip(b).filter(|(p, q)| p != q).count()
}

#[test]
fn covered_discs_never_look_like_any_face_up_piece() {
    for style in [PieceStyle::Characters, PieceStyle::Symbols] {
        let faces: Vec<(Piece, Vec<[u8; 3]>)> = Side::ALL
            .into_iter()
            .flat_map(|side| Role::ALL.map(|role| Piece::new(side, role)))
            .map(|p| (p, lone_cell(Cell::Piece(p), style)))
            .collect();
        let backs: Vec<(Option<Side>, Vec<[u8; 3]>)> = [None, Some(Side::Red), Some(Side::Black)]
            .into_iter()
            .map(|side| (side, lone_cell(Cell::Covered(side), style)))
            .collect();
        let area = backs[0].1.len();
        for (side, back) in &backs {
            for (face, pixels) in &faces {
                // Not merely different: a good part of the disc differs.
                assert!(
                    pixels_apart(back, pixels) > area / 5,
                    "covered {side:?} looks like {face:?} in {style:?}"
                );
            }
        }
        for (i, (a, pa)) in backs.iter().enumerate() {
            for (b, pb) in &backs[i + 1..] {
                assert!(pixels_apart(pa, pb) > area / 5, "{a:?} looks like {b:?}");
            }
        }
        for (i, (a, pa)) in faces.iter().enumerate() {
            for (b, pb) in &faces[i + 1..] {
                assert!(
                    pixels_apart(pa, pb) > 0,
                    "{a:?} looks like {b:?} in {style:?}"
                );
            }
        }
    }
}

#[test]
fn the_side_at_the_bottom_decides_where_a0_is_drawn() {
    let mut view = jieqi_start();
    view.cells.iter_mut().for_each(|c| *c = Cell::Empty);
    let empty = view.clone();
    put(&mut view, "a0", piece(Side::Red, Role::Chariot));
    for orientation in Side::ALL {
        let options = RenderOptions {
            orientation,
            ..RenderOptions::default()
        };
        let layout = layout_of(&view, &options);
        let (x, y) = layout.point_center(point("a0")).expect("on the board");
        let bottom_left = x < layout.width / 2 && y > layout.board.y + layout.board.height / 2;
        assert_eq!(bottom_left, orientation == Side::Red);
        assert_ne!(
            draw(&view, &options).pixel(x, y),
            draw(&empty, &options).pixel(x, y)
        );
    }
}

#[test]
fn a_full_view_shows_covered_pieces_face_up_with_a_badge() {
    let options = RenderOptions::default();
    let public = jieqi_midgame();
    let mut full = public.clone();
    full.viewer = Viewer::Full;
    full.deal = Some(vec![(point("a3"), Piece::new(Side::Red, Role::Cannon))]);
    let mut plain = public.clone();
    put(&mut plain, "a3", piece(Side::Red, Role::Cannon));
    let rect = layout_of(&public, &options)
        .point_rect(point("a3"))
        .expect("on the board");
    let full_pixels = draw(&full, &options).crop(rect);
    let covered = draw(&public, &options).crop(rect);
    let face_up = draw(&plain, &options).crop(rect);
    assert!(pixels_apart(&full_pixels, &covered) > full_pixels.len() / 5);
    assert!(
        pixels_apart(&full_pixels, &face_up) > 0,
        "the badge is missing"
    );
    assert!(pixels_apart(&full_pixels, &face_up) < full_pixels.len() / 5);
}

#[test]
fn composing_sprites_draws_the_same_picture_as_rasterising_the_whole_svg() {
    for (view, style) in [
        (jieqi_midgame(), PieceStyle::Characters),
        (banqi_midgame(), PieceStyle::Symbols),
    ] {
        let options = RenderOptions {
            width: 360,
            style,
            ..RenderOptions::default()
        };
        let fast = draw(&view, &options);
        let slow = decode(&render_svg_per_request(&view, &options).expect("drawn"));
        assert_eq!((fast.width, fast.height), (slow.width, slow.height));
        // The composed picture has 256 colours, the reference millions: allow the palette's
        // rounding (under 64 steps a channel), but no misplaced sprite or missing mark (a
        // last-move mark alone moves a thousand pixels by 70 steps).
        let far = fast
            .rgb
            .chunks_exact(3)
            .zip(slow.rgb.chunks_exact(3))
            .filter(|(a, b)| a.iter().zip(*b).any(|(x, y)| x.abs_diff(*y) > 64))
            .count();
        let total = (fast.width * fast.height) as usize;
        assert!(far * 2000 < total, "{far} of {total} pixels differ widely");
    }
}

#[test]
fn pictures_stay_under_eighty_kilobytes() {
    for view in [jieqi_midgame(), banqi_midgame()] {
        for style in [PieceStyle::Characters, PieceStyle::Symbols] {
            let options = RenderOptions {
                style,
                ..RenderOptions::default()
            };
            let size = render(&view, &options).expect("drawn").len();
            assert!(size < 80_000, "{size} bytes");
        }
    }
}

#[test]
fn views_that_cannot_be_drawn_are_refused_with_a_reason() {
    let options = RenderOptions::default();
    let mut odd = jieqi_start();
    odd.files = 7;
    assert_eq!(
        render(&odd, &options),
        Err(RenderError::BoardShape {
            files: 7,
            ranks: 10
        })
    );
    let mut short = jieqi_start();
    short.cells.truncate(80);
    assert_eq!(
        render(&short, &options),
        Err(RenderError::Cells {
            expected: 90,
            found: 80
        })
    );
    let narrow = RenderOptions {
        width: 10,
        ..options
    };
    assert_eq!(
        render(&jieqi_start(), &narrow),
        Err(RenderError::Width { width: 10 })
    );
    assert!(
        RenderError::Width { width: 10 }
            .to_string()
            .contains("choose a width")
    );
}

#[test]
fn marks_off_the_board_are_ignored_not_fatal() {
    let mut view = jieqi_midgame();
    let off = Point { file: 20, rank: 3 };
    view.last_action = Some(LastAction::Move { from: off, to: off });
    view.check = Some(off);
    assert!(render(&view, &RenderOptions::default()).is_ok());
}
