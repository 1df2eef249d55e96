//! A [`PuzzleSet`]: the shipped puzzles in memory, and their file format.
//!
//! A puzzle file is gzip-compressed UTF-8 text: the header line [`HEADER`], then one puzzle a
//! line, eight tab-separated fields: id, variant, theme, solver moves, rating, the solver's
//! FEN, the deal (`-` for none) and the solution in record notation, space-separated. Text
//! keeps the file diffable when unpacked and loads in a few milliseconds.

use std::collections::HashMap;
use std::io::{Read, Write};
use std::path::Path;

use flate2::Compression;
use flate2::read::GzDecoder;
use flate2::write::GzEncoder;
use jieqi_rules::Variant;

use crate::puzzle::{FormatError, HEADER, Puzzle};

/// Puzzles of one or more variants, sorted by rating within each variant.
#[derive(Clone, Debug, Default)]
pub struct PuzzleSet {
    puzzles: Vec<Puzzle>,
    by_id: HashMap<String, usize>,
}

impl PuzzleSet {
    /// A set of these puzzles.
    pub fn new(mut puzzles: Vec<Puzzle>) -> PuzzleSet {
        puzzles.sort_by(|a, b| {
            (a.variant.name(), a.rating, &a.id).cmp(&(b.variant.name(), b.rating, &b.id))
        });
        puzzles.dedup_by(|a, b| a.id == b.id);
        let by_id = puzzles
            .iter()
            .enumerate()
            .map(|(i, p)| (p.id.clone(), i))
            .collect();
        PuzzleSet { puzzles, by_id }
    }

    /// Reads a puzzle file's bytes (gzip-compressed or plain text).
    pub fn from_bytes(bytes: &[u8]) -> Result<PuzzleSet, FormatError> {
        let text = if bytes.starts_with(&[0x1f, 0x8b]) {
            let mut text = String::new();
            GzDecoder::new(bytes)
                .read_to_string(&mut text)
                .map_err(|e| FormatError::Io(e.to_string()))?;
            text
        } else {
            String::from_utf8(bytes.to_vec()).map_err(|e| FormatError::Io(e.to_string()))?
        };
        let mut lines = text.lines();
        if lines.next().map(str::trim) != Some(HEADER) {
            return Err(FormatError::Header);
        }
        let puzzles = lines
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty())
            .map(|(i, l)| Puzzle::from_line(l, i + 2))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(PuzzleSet::new(puzzles))
    }

    /// Reads every puzzle file (`*.txt.gz`) in a directory, such as `assets/puzzles`.
    pub fn from_dir(dir: &Path) -> Result<PuzzleSet, FormatError> {
        let mut puzzles = Vec::new();
        let entries = std::fs::read_dir(dir).map_err(|e| FormatError::Io(e.to_string()))?;
        let mut paths: Vec<_> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.to_string_lossy().ends_with(".txt.gz"))
            .collect();
        paths.sort();
        for path in paths {
            let bytes = std::fs::read(&path).map_err(|e| FormatError::Io(e.to_string()))?;
            puzzles.extend(PuzzleSet::from_bytes(&bytes)?.puzzles);
        }
        Ok(PuzzleSet::new(puzzles))
    }

    /// The set as a gzip-compressed puzzle file.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut text = String::from(HEADER);
        text.push('\n');
        for p in &self.puzzles {
            text.push_str(&p.to_line());
            text.push('\n');
        }
        let mut encoder = GzEncoder::new(Vec::new(), Compression::best());
        // Writing to a Vec cannot fail.
        let _ = encoder.write_all(text.as_bytes());
        encoder.finish().unwrap_or_default()
    }

    /// Every puzzle, by variant then rating.
    pub fn puzzles(&self) -> &[Puzzle] {
        &self.puzzles
    }

    /// How many puzzles there are.
    pub fn len(&self) -> usize {
        self.puzzles.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.puzzles.is_empty()
    }

    /// The puzzle with this id.
    pub fn get(&self, id: &str) -> Option<&Puzzle> {
        self.by_id.get(id).and_then(|&i| self.puzzles.get(i))
    }

    /// A puzzle of `variant` near `rating` that `seen` does not exclude: one of the
    /// `spread` nearest unseen ones, chosen by `salt` (give a fresh number each time, e.g. a
    /// request id, to vary it). `None` when every puzzle of the variant has been seen.
    pub fn pick(
        &self,
        variant: Variant,
        rating: f64,
        seen: impl Fn(&str) -> bool,
        salt: u64,
    ) -> Option<&Puzzle> {
        const SPREAD: usize = 12;
        let mut near: Vec<(u64, &Puzzle)> = self
            .puzzles
            .iter()
            .filter(|p| p.variant == variant && !seen(&p.id))
            .map(|p| ((f64::from(p.rating) - rating).abs() as u64, p))
            .collect();
        near.sort_by_key(|(d, p)| (*d, p.id.as_str()));
        near.truncate(SPREAD);
        if near.is_empty() {
            return None;
        }
        let mixed = salt.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 32;
        near.get((mixed % near.len() as u64) as usize)
            .map(|(_, p)| *p)
    }
}
