//! The terminal as a chat platform: every message becomes lines on standard output, tagged
//! with who sees it (`[chat]` everyone, `[dm alice]` alice alone, `[to alice]` a reply only
//! alice sees), and pictures become files whose paths are printed.
//!
//! [`Terminal`] is a real [`Sender`]: a message counts as delivered only once its lines are
//! written and standard output is flushed, exactly as an adapter counts a message sent only
//! once the platform accepted it.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use async_trait::async_trait;
use jieqi_service::{ButtonAction, ChatId, Destination, Message, OutboxEntry, SendError, Sender};

/// Prints messages and writes their pictures.
#[derive(Debug)]
pub struct Terminal {
    chat: ChatId,
    out_dir: PathBuf,
}

impl Terminal {
    /// Messages to `chat` print as `[chat]`; pictures go to `out_dir`.
    pub fn new(chat: ChatId, out_dir: PathBuf) -> Terminal {
        Terminal { chat, out_dir }
    }

    /// Prints a reply that only `requester` sees. `name` makes its picture's file name unique.
    pub fn reply(&self, requester: &str, message: &Message, name: &str) -> io::Result<()> {
        let tag = match &message.to {
            Destination::Chat(chat) | Destination::StaleButtons(chat) => self.chat_tag(chat),
            Destination::Private(user) => format!("[dm {}]", user.id),
            Destination::ReplyToRequester { .. } | Destination::DeferredReply(_) => {
                format!("[to {requester}]")
            }
        };
        self.print(&tag, message, name)
    }

    /// Prints an outbox message.
    pub fn post(&self, entry: &OutboxEntry) -> io::Result<()> {
        let tag = match &entry.message.to {
            Destination::Chat(chat) => self.chat_tag(chat),
            Destination::Private(user) => format!("[dm {}]", user.id),
            // The outbox has no requester to answer; say so rather than guess.
            Destination::ReplyToRequester { .. } | Destination::DeferredReply(_) => {
                "[reply]".to_owned()
            }
            // A terminal shows no buttons: nothing to grey out.
            Destination::StaleButtons(_) => return Ok(()),
        };
        self.print(&tag, &entry.message, &format!("{:06}", entry.id.0))
    }

    /// Prints a note from the terminal itself (a line it could not read).
    pub fn note(&self, text: &str) -> io::Result<()> {
        write_out(&format!("[local] {text}\n"))
    }

    /// Prints the acknowledgement of line `n`.
    pub fn ack(&self, n: u64) -> io::Result<()> {
        write_out(&format!("[ack {n}]\n"))
    }

    fn chat_tag(&self, chat: &ChatId) -> String {
        if *chat == self.chat {
            "[chat]".to_owned()
        } else {
            format!("[chat {}]", chat.id)
        }
    }

    fn print(&self, tag: &str, message: &Message, name: &str) -> io::Result<()> {
        let mut text = String::new();
        let edit = if message.replaces.is_some() {
            "(edit) "
        } else {
            ""
        };
        for (i, line) in message.text.lines().enumerate() {
            let edit = if i == 0 { edit } else { "" };
            text.push_str(&format!("{tag} {edit}{line}\n"));
        }
        if message.text.trim().is_empty() {
            text.push_str(&format!("{tag} {edit}\n"));
        }
        if let Some(image) = &message.image {
            let path = self
                .out_dir
                .join(format!("{name}-{}", safe_file_name(&image.file_name)));
            write_picture(&path, &image.bytes)?;
            text.push_str(&format!("{tag} picture: {}\n", path.display()));
        }
        for button in &message.buttons {
            match &button.action {
                ButtonAction::Link(url) | ButtonAction::App(url) => {
                    text.push_str(&format!("{tag} link \"{}\": {url}\n", button.label));
                }
                action => text.push_str(&format!(
                    "{tag} button \"{}\": [button] {}\n",
                    button.label,
                    action.encode()
                )),
            }
        }
        write_out(&text)
    }
}

#[async_trait]
impl Sender for Terminal {
    async fn send(&self, entry: &OutboxEntry) -> Result<Option<String>, SendError> {
        match self.post(entry) {
            // The outbox id is this platform's message reference: edits name it.
            Ok(()) => Ok(Some(entry.id.0.to_string())),
            Err(error) => Err(SendError::Retry {
                after: None,
                reason: format!("cannot write to the terminal: {error}"),
            }),
        }
    }
}

/// Writes and flushes: a line counts as seen only once it left this process.
fn write_out(text: &str) -> io::Result<()> {
    let mut stdout = io::stdout().lock();
    stdout.write_all(text.as_bytes())?;
    stdout.flush()
}

fn write_picture(path: &Path, bytes: &[u8]) -> io::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    std::fs::write(path, bytes)
}

/// Keeps a file name inside the pictures folder whatever it says.
fn safe_file_name(name: &str) -> String {
    let cleaned: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_') {
                c
            } else {
                '_'
            }
        })
        .collect();
    let cleaned = cleaned.trim_start_matches('.');
    if cleaned.is_empty() {
        "picture".to_owned()
    } else {
        cleaned.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names_cannot_leave_the_pictures_folder() {
        assert_eq!(safe_file_name("../../etc/passwd"), "_.._etc_passwd");
        assert_eq!(safe_file_name("g7k2-12.png"), "g7k2-12.png");
        assert_eq!(safe_file_name(".."), "picture");
    }
}
