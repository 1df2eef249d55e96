//! Fitting the service's texts into Telegram's limits, and pinging people by name.
//!
//! Telegram measures texts and entity offsets in UTF-16 code units, not bytes or chars.

use teloxide::types::{MessageEntity, UserId};

/// Longest message text.
pub(crate) const MESSAGE_LIMIT: usize = 4096;
/// Longest photo caption.
pub(crate) const CAPTION_LIMIT: usize = 1024;
/// Longest answer to a button press (shown as an alert).
pub(crate) const ALERT_LIMIT: usize = 200;

/// Length as Telegram counts it.
pub(crate) fn units(text: &str) -> usize {
    text.encode_utf16().count()
}

/// `text` cut into pieces of at most `limit` units, at line breaks where possible.
pub(crate) fn chunks(text: &str, limit: usize) -> Vec<String> {
    let mut pieces = Vec::new();
    let mut current = String::new();
    for line in text.split_inclusive('\n') {
        if units(&current) + units(line) > limit && !current.is_empty() {
            pieces.push(std::mem::take(&mut current));
        }
        if units(line) <= limit {
            current.push_str(line);
            continue;
        }
        // One line longer than a whole message: cut it between characters.
        for c in line.chars() {
            if units(&current) + c.len_utf16() > limit {
                pieces.push(std::mem::take(&mut current));
            }
            current.push(c);
        }
    }
    if !current.trim().is_empty() {
        pieces.push(current);
    }
    pieces
        .into_iter()
        .map(|p| p.trim_end().to_owned())
        .filter(|p| !p.is_empty())
        .collect()
}

/// `text` shortened to `limit` units, ending in `…` if it was cut.
pub(crate) fn truncate(text: &str, limit: usize) -> String {
    if units(text) <= limit {
        return text.to_owned();
    }
    let mut out = String::new();
    for c in text.chars() {
        if units(&out) + c.len_utf16() + 1 > limit {
            break;
        }
        out.push(c);
    }
    out.push('…');
    out
}

/// Entities that turn the first appearance of each person's name in `text` into a ping of
/// that person (for people without a `@username`, whose names Telegram cannot link itself).
pub(crate) fn mention_entities(text: &str, people: &[(UserId, String)]) -> Vec<MessageEntity> {
    let mut entities: Vec<MessageEntity> = Vec::new();
    for (id, name) in people {
        if name.is_empty() {
            continue;
        }
        let Some(byte_start) = text.find(name.as_str()) else {
            continue;
        };
        let Some(before) = text.get(..byte_start) else {
            continue;
        };
        let offset = units(before);
        let length = units(name);
        let overlaps = entities
            .iter()
            .any(|e| offset < e.offset + e.length && e.offset < offset + length);
        if !overlaps {
            entities.push(MessageEntity::text_mention_id(*id, offset, length));
        }
    }
    entities.sort_by_key(|e| e.offset);
    entities
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lengths_are_counted_in_utf16_units() {
        assert_eq!(units("h2e2"), 4);
        assert_eq!(units("炮二平五"), 4);
        assert_eq!(units("♟"), 1);
        assert_eq!(units("😀"), 2);
    }

    #[test]
    fn long_texts_are_cut_at_line_breaks_and_nothing_is_lost() {
        let text = (0..100)
            .map(|i| format!("line {i:03} of the record"))
            .collect::<Vec<_>>()
            .join("\n");
        let pieces = chunks(&text, 200);
        assert!(pieces.len() > 1);
        assert!(pieces.iter().all(|p| units(p) <= 200));
        assert_eq!(pieces.join("\n"), text);
        assert!(pieces.iter().all(|p| p.starts_with("line")));
    }

    #[test]
    fn a_line_longer_than_a_message_is_cut_between_characters() {
        let text = "炮".repeat(10);
        let pieces = chunks(&text, 4);
        assert_eq!(pieces, vec!["炮炮炮炮", "炮炮炮炮", "炮炮"]);
    }

    #[test]
    fn an_alert_is_shortened_with_an_ellipsis() {
        assert_eq!(truncate("short", 200), "short");
        let long = truncate(&"x".repeat(300), ALERT_LIMIT);
        assert_eq!(units(&long), ALERT_LIMIT);
        assert!(long.ends_with('…'));
    }

    #[test]
    fn a_name_in_the_text_becomes_a_ping_at_its_utf16_offset() {
        let text = "😀 Game g7k2 · 3 h2e2 by Ann Lee. Bob Ma to move.";
        let entities = mention_entities(
            text,
            &[
                (UserId(2), "Bob Ma".to_owned()),
                (UserId(1), "Ann Lee".to_owned()),
                (UserId(3), "Zed".to_owned()),
            ],
        );
        assert_eq!(entities.len(), 2);
        assert_eq!(entities[0].offset, units("😀 Game g7k2 · 3 h2e2 by "));
        assert_eq!(entities[0].length, 7);
        assert_eq!(
            entities[1].offset,
            units("😀 Game g7k2 · 3 h2e2 by Ann Lee. ")
        );
    }
}
