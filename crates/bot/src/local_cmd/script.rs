//! Reading one terminal line into who said what: `alice: /challenge @bob`,
//! `bob: [button] acc_c4f7k` (a button press, with the data printed under the message),
//! `dm alice: /peek` (alice writing to the bot in private). Blank lines and lines starting
//! with `#` are skipped, so scripts can carry comments.

use jieqi_service::{ButtonAction, ButtonDecodeError, Input};

/// The longest player name accepted.
const MAX_NAME: usize = 32;

/// A player's message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Said {
    /// The name as typed.
    pub speaker: String,
    /// Written in a private chat with the bot.
    pub private: bool,
    pub input: Input,
    /// Names written as `@name`, in order, each once.
    pub mentioned: Vec<String>,
}

/// A line that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LineError {
    #[error(
        "write a line as `name: text`, e.g. `alice: /challenge @bob`; `dm alice: /peek` writes \
         to the bot in private and `bob: [button] acc_c4f7k` presses a button"
    )]
    Shape,
    #[error("`{0}` is not a player name: use up to {MAX_NAME} letters, digits, `_`, `-` or `.`")]
    Name(String),
    #[error("{speaker} said nothing: write a command after the colon, e.g. `{speaker}: /help`")]
    Empty { speaker: String },
    #[error("{0}")]
    Button(#[from] ButtonDecodeError),
}

/// Reads one line; `None` for a blank line or a comment.
pub fn parse(line: &str) -> Option<Result<Said, LineError>> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return None;
    }
    Some(said(line))
}

fn said(line: &str) -> Result<Said, LineError> {
    let (who, text) = line.split_once(':').ok_or(LineError::Shape)?;
    let (private, speaker) = match who.trim().split_once(char::is_whitespace) {
        Some(("dm", name)) => (true, name.trim()),
        Some(_) => return Err(LineError::Name(who.trim().to_owned())),
        None => (false, who.trim()),
    };
    if !is_name(speaker) {
        return Err(LineError::Name(speaker.to_owned()));
    }
    let text = text.trim();
    if text.is_empty() {
        return Err(LineError::Empty {
            speaker: speaker.to_owned(),
        });
    }
    let input = match text.strip_prefix("[button]") {
        Some(data) => Input::Button(ButtonAction::decode(data.trim())?),
        None => Input::Text(text.to_owned()),
    };
    Ok(Said {
        speaker: speaker.to_owned(),
        private,
        mentioned: mentions(text),
        input,
    })
}

/// True for a name a local player may have.
pub fn is_name(name: &str) -> bool {
    let count = name.chars().count();
    (1..=MAX_NAME).contains(&count)
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.'))
}

/// `@bob,` and `@bob` name bob; an `@` alone or with a non-name names nobody.
fn mentions(text: &str) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for word in text.split_whitespace() {
        let Some(name) = word.strip_prefix('@') else {
            continue;
        };
        let name = name.trim_end_matches([',', ';', ':', '!', '?', '.', ')']);
        if is_name(name) && !names.iter().any(|known| known.eq_ignore_ascii_case(name)) {
            names.push(name.to_owned());
        }
    }
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(line: &str) -> Said {
        match parse(line) {
            Some(Ok(said)) => said,
            other => panic!("{line:?} read as {other:?}"),
        }
    }

    #[test]
    fn a_command_with_a_mention_names_the_mentioned_player() {
        let said = read("alice: /challenge @bob jieqi red");
        assert_eq!(said.speaker, "alice");
        assert!(!said.private);
        assert_eq!(
            said.input,
            Input::Text("/challenge @bob jieqi red".to_owned())
        );
        assert_eq!(said.mentioned, vec!["bob".to_owned()]);
    }

    #[test]
    fn mentions_lose_trailing_punctuation_and_repeat_once() {
        assert_eq!(
            mentions("hi @Bob, @bob and @carol! @ @?"),
            vec!["Bob".to_owned(), "carol".to_owned()]
        );
    }

    #[test]
    fn a_button_line_decodes_the_button_data() {
        let said = read("bob: [button] acc_c4f7k");
        assert_eq!(
            said.input,
            Input::Button(ButtonAction::decode("acc_c4f7k").unwrap_or_else(|e| panic!("{e}")))
        );
    }

    #[test]
    fn dm_lines_are_private() {
        let said = read("dm alice: /peek");
        assert!(said.private);
        assert_eq!(said.speaker, "alice");
    }

    #[test]
    fn comments_and_blank_lines_are_skipped() {
        assert_eq!(parse("   "), None);
        assert_eq!(parse("# alice opens"), None);
    }

    #[test]
    fn unreadable_lines_say_how_to_write_them() {
        assert_eq!(said("hello"), Err(LineError::Shape));
        assert!(matches!(said("two words: /help"), Err(LineError::Name(_))));
        assert!(matches!(said("a/b: /help"), Err(LineError::Name(_))));
        assert_eq!(
            said("alice:   "),
            Err(LineError::Empty {
                speaker: "alice".to_owned()
            })
        );
        assert!(matches!(
            said("bob: [button] nonsense"),
            Err(LineError::Button(_))
        ));
        assert!(
            LineError::Shape
                .to_string()
                .contains("alice: /challenge @bob")
        );
    }

    #[test]
    fn names_accept_letters_of_any_script() {
        assert!(is_name("小明"));
        assert!(is_name("an.nguyen-2"));
        assert!(!is_name(""));
        assert!(!is_name(&"x".repeat(MAX_NAME + 1)));
    }
}
