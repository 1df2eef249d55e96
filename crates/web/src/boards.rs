//! Board pictures for the page: the render crate's PNGs of the public position after a given
//! move (the same art as the chat's pictures), at a few widths so phones get sharp boards at
//! 2× and 3× pixel density, kept in memory up to a size. A position, once played, never
//! changes, so a picture is cached by the browser forever too.

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;

use axum::body::Bytes;
use jieqi_render::{PieceStyle, RenderOptions};
use jieqi_rules::Side;
use jieqi_service::GameId;

/// The widths a board is drawn at (pixels): 1×, 2× and 3× of the page's 360 and 480 pixel
/// boards. Other widths are refused, so nobody can fill the cache with odd sizes.
pub const BOARD_WIDTHS: [u32; 6] = [360, 480, 720, 960, 1080, 1440];

/// Bytes of pictures kept.
const CACHE_BYTES: usize = 48 << 20;

/// Which picture of a game.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct BoardKey {
    pub game: GameId,
    pub ply: usize,
    /// The finished game's last position as its end revealed it.
    pub ended: bool,
    pub options: RenderKey,
}

/// Render options that can be hashed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct RenderKey {
    pub width: u32,
    pub black_at_bottom: bool,
    pub symbols: bool,
}

impl RenderKey {
    pub(crate) fn options(self) -> RenderOptions {
        RenderOptions {
            width: self.width,
            orientation: if self.black_at_bottom {
                Side::Black
            } else {
                Side::Red
            },
            style: if self.symbols {
                PieceStyle::Symbols
            } else {
                PieceStyle::Characters
            },
        }
    }
}

/// Drawn pictures, oldest forgotten first.
#[derive(Debug, Default)]
pub(crate) struct BoardCache {
    kept: Mutex<(HashMap<BoardKey, Bytes>, VecDeque<BoardKey>, usize)>,
}

impl BoardCache {
    pub(crate) fn get(&self, key: &BoardKey) -> Option<Bytes> {
        lock(&self.kept).0.get(key).cloned()
    }

    pub(crate) fn put(&self, key: BoardKey, png: Bytes) {
        let mut kept = lock(&self.kept);
        let (map, order, bytes) = &mut *kept;
        if map.contains_key(&key) {
            return;
        }
        *bytes += png.len();
        map.insert(key.clone(), png);
        order.push_back(key);
        while *bytes > CACHE_BYTES {
            let Some(oldest) = order.pop_front() else {
                break;
            };
            if let Some(gone) = map.remove(&oldest) {
                *bytes -= gone.len();
            }
        }
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    match mutex.lock() {
        Ok(guard) => guard,
        Err(poisoned) => poisoned.into_inner(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cache_forgets_the_oldest_pictures_past_its_size() {
        let cache = BoardCache::default();
        let key = |ply| BoardKey {
            game: "g7k2".parse().expect("id"),
            ply,
            ended: false,
            options: RenderKey {
                width: 480,
                black_at_bottom: false,
                symbols: false,
            },
        };
        let big = Bytes::from(vec![0u8; CACHE_BYTES / 2 + 1]);
        cache.put(key(0), big.clone());
        cache.put(key(1), big.clone());
        assert!(cache.get(&key(0)).is_none(), "the oldest went");
        assert_eq!(cache.get(&key(1)), Some(big));
    }
}
