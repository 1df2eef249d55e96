//! The application (slash) commands of `bot.md` with typed options and choices, and the way
//! back: an invoked command becomes the command line the service reads
//! (`/challenge @1234 jieqi red`), with the users Discord resolved.
//!
//! The service owns the meaning of every word; this module only knows which options exist so
//! that Discord can offer them.

use serenity::all::{
    CommandData, CommandDataOption, CommandDataOptionValue, CommandOptionType, CreateCommand,
    CreateCommandOption,
};

use crate::interaction::person;

/// The option `/move` autocompletes.
pub(crate) const MOVE_OPTION: &str = "move";
/// The option naming a game; it leads the argument list (`/move g7k2 h2e2`).
const GAME_OPTION: &str = "game";

/// (shown name, value) pairs of an option's choices.
type Choices = &'static [(&'static str, &'static str)];

const VARIANTS: Choices = &[
    ("Jieqi (揭棋): covered pieces", "jieqi"),
    ("Xiangqi (象棋)", "xiangqi"),
    ("Banqi (半棋): dark chess", "banqi"),
];
const LEVELS: Choices = &[
    ("Novice", "novice"),
    ("Casual", "casual"),
    ("Club", "club"),
    ("Master", "master"),
];
const COLOURS: Choices = &[("Red", "red"), ("Black", "black"), ("Random", "random")];
const PRESETS: Choices = &[
    ("Standard", "standard"),
    ("PyChess", "pychess"),
    ("Tencent", "tencent"),
    ("Vietnam", "vietnam"),
];
const MOVE_TIMES: Choices = &[
    ("10 minutes", "10m"),
    ("1 hour", "1h"),
    ("6 hours", "6h"),
    ("1 day", "24h"),
    ("3 days", "3d"),
    ("7 days", "7d"),
];

/// The hours a daily puzzle may be set to (UTC), and off: 25 choices, Discord's limit.
const DAILY_HOURS: Choices = &[
    ("Off", "off"),
    ("00:00 UTC", "0"),
    ("01:00 UTC", "1"),
    ("02:00 UTC", "2"),
    ("03:00 UTC", "3"),
    ("04:00 UTC", "4"),
    ("05:00 UTC", "5"),
    ("06:00 UTC", "6"),
    ("07:00 UTC", "7"),
    ("08:00 UTC", "8"),
    ("09:00 UTC", "9"),
    ("10:00 UTC", "10"),
    ("11:00 UTC", "11"),
    ("12:00 UTC", "12"),
    ("13:00 UTC", "13"),
    ("14:00 UTC", "14"),
    ("15:00 UTC", "15"),
    ("16:00 UTC", "16"),
    ("17:00 UTC", "17"),
    ("18:00 UTC", "18"),
    ("19:00 UTC", "19"),
    ("20:00 UTC", "20"),
    ("21:00 UTC", "21"),
    ("22:00 UTC", "22"),
    ("23:00 UTC", "23"),
];

/// Subcommands that only group options on Discord and are not words of the command line:
/// `/settings show` is `/settings`, `/puzzle new banqi` is `/puzzle banqi`.
const SILENT_SUBCOMMANDS: [&str; 2] = ["show", "new"];

/// `/settings` subcommands and the values each takes.
const SETTINGS: &[(&str, &str, Choices)] = &[
    (
        "language",
        "The chat's language",
        &[("English", "en"), ("中文", "zh"), ("Tiếng Việt", "vi")],
    ),
    (
        "style",
        "How pieces are drawn",
        &[
            ("Characters (帥仕相)", "characters"),
            ("Symbols", "symbols"),
        ],
    ),
    (
        "orientation",
        "Which side public boards are drawn from",
        &[
            ("Red at the bottom", "red"),
            ("Black at the bottom", "black"),
        ],
    ),
    (
        "notation",
        "How moves are written",
        &[
            ("WXF (C2.5)", "wxf"),
            ("Coordinates (h2e2)", "coordinates"),
            ("Chinese (炮二平五 马二进三)", "chinese"),
            ("Chinese, traditional (炮二平五 傌二進三)", "traditional"),
        ],
    ),
    (
        "board",
        "A new message per move, or one edited message",
        &[
            ("A new message per move", "new"),
            ("One edited message", "edit"),
        ],
    ),
];

/// What an option holds.
#[derive(Clone, Copy)]
enum Kind {
    User,
    Text,
    Choice(Choices),
    /// Free text with autocompletion of the caller's legal moves.
    Move,
}

struct Opt {
    name: &'static str,
    description: &'static str,
    kind: Kind,
    required: bool,
}

const fn opt(name: &'static str, description: &'static str, kind: Kind) -> Opt {
    Opt {
        name,
        description,
        kind,
        required: false,
    }
}

const GAME: Opt = opt(GAME_OPTION, "The game's id (see /games)", Kind::Text);
const CHALLENGE: Opt = opt("challenge", "The challenge's id", Kind::Text);

/// Every command but `/settings` (which has subcommands), in the order Discord lists them.
const COMMANDS: &[(&str, &str, &[Opt])] = &[
    (
        "challenge",
        "Challenge someone (or anyone) to a game",
        &[
            opt(
                "user",
                "Who to challenge (nobody: anyone may accept)",
                Kind::User,
            ),
            opt(
                "variant",
                "Which game (default Jieqi)",
                Kind::Choice(VARIANTS),
            ),
            opt(
                "colour",
                "Your colour (default random)",
                Kind::Choice(COLOURS),
            ),
            opt(
                "rules",
                "Rules preset (default standard)",
                Kind::Choice(PRESETS),
            ),
            opt(
                "time",
                "Time per move (default 1 day)",
                Kind::Choice(MOVE_TIMES),
            ),
        ],
    ),
    ("accept", "Accept a challenge", &[CHALLENGE]),
    ("decline", "Decline a challenge", &[CHALLENGE]),
    ("cancel", "Withdraw your challenge", &[CHALLENGE]),
    (
        "move",
        "Play a move in your game here, your /learn lesson or this channel's puzzle",
        &[
            Opt {
                required: true,
                ..opt(
                    MOVE_OPTION,
                    "h2e2, C2.5 or 炮二平五 (Banqi: c3 flips, c3c4 moves)",
                    Kind::Move,
                )
            },
            GAME,
        ],
    ),
    (
        "board",
        "Post the current board of this channel's game",
        &[GAME],
    ),
    ("resign", "Resign your game", &[GAME]),
    (
        "draw",
        "Offer a draw, or accept your opponent's offer",
        &[GAME],
    ),
    (
        "games",
        "The games in this channel and your games anywhere",
        &[],
    ),
    (
        "watch",
        "Follow a game from another channel here",
        &[Opt {
            required: true,
            ..GAME
        }],
    ),
    ("unwatch", "Stop following a game here", &[GAME]),
    (
        "history",
        "The move record of a game (finished: with the deal)",
        &[GAME],
    ),
    (
        "review",
        "A finished game's review: evaluation graph, costliest moves, accuracy",
        &[GAME],
    ),
    ("peek", "Your own view of your game, privately", &[GAME]),
    (
        "play",
        "A game against the built-in engine (not rated)",
        &[
            opt(
                "level",
                "How strong the engine plays (default casual)",
                Kind::Choice(LEVELS),
            ),
            opt(
                "variant",
                "Which game (default Jieqi)",
                Kind::Choice(VARIANTS),
            ),
            opt(
                "colour",
                "Your colour (default random)",
                Kind::Choice(COLOURS),
            ),
        ],
    ),
    (
        "rules",
        "The rules in short, with a picture",
        &[opt("variant", "Which game", Kind::Choice(VARIANTS))],
    ),
    ("help", "The commands", &[]),
    (
        "stats",
        "Rating and record per variant",
        &[opt("user", "Whose (default: yours)", Kind::User)],
    ),
    ("leaderboard", "This chat's ratings table", &[]),
    (
        "learn",
        "The rules course: short lessons, each answered with /move",
        &[opt(
            "lesson",
            "A lesson number, or list, restart or stop (nothing: go on)",
            Kind::Text,
        )],
    ),
];

/// The commands to register.
pub(crate) fn definitions() -> Vec<CreateCommand> {
    let mut commands: Vec<CreateCommand> = COMMANDS
        .iter()
        .map(|(name, description, options)| {
            options.iter().fold(
                CreateCommand::new(*name).description(*description),
                |command, option| command.add_option(option_definition(option)),
            )
        })
        .collect();
    let settings = SETTINGS.iter().fold(
        CreateCommand::new("settings")
            .description("This chat's settings: language, pieces, orientation, notation, board")
            .add_option(CreateCommandOption::new(
                CommandOptionType::SubCommand,
                "show",
                "Show the settings",
            )),
        |command, (name, description, values)| {
            let value = Opt {
                required: true,
                ..opt("value", "The new value", Kind::Choice(values))
            };
            command.add_option(
                CreateCommandOption::new(CommandOptionType::SubCommand, *name, *description)
                    .add_sub_option(option_definition(&value)),
            )
        },
    );
    commands.push(settings);
    commands.push(puzzle_definition());
    commands
}

/// `/puzzle new [variant]` and `/puzzle daily [hour]` (admins; no hour: show the setting).
fn puzzle_definition() -> CreateCommand {
    let variant = opt(
        "variant",
        "Which game (default Jieqi)",
        Kind::Choice(VARIANTS),
    );
    let hour = opt(
        "hour",
        "The hour (UTC), or off; leave it out to see the setting",
        Kind::Choice(DAILY_HOURS),
    );
    CreateCommand::new("puzzle")
        .description("A puzzle at your puzzle rating, answered with /move")
        .add_option(
            CreateCommandOption::new(
                CommandOptionType::SubCommand,
                "new",
                "A puzzle at your puzzle rating (anyone here may answer)",
            )
            .add_sub_option(option_definition(&variant)),
        )
        .add_option(
            CreateCommandOption::new(
                CommandOptionType::SubCommand,
                "daily",
                "Admins: one puzzle a day in this channel at an hour you choose",
            )
            .add_sub_option(option_definition(&hour)),
        )
}

fn option_definition(option: &Opt) -> CreateCommandOption {
    let kind = match option.kind {
        Kind::User => CommandOptionType::User,
        Kind::Text | Kind::Choice(_) | Kind::Move => CommandOptionType::String,
    };
    let definition =
        CreateCommandOption::new(kind, option.name, option.description).required(option.required);
    match option.kind {
        Kind::Choice(choices) => choices.iter().fold(definition, |d, (name, value)| {
            d.add_string_choice(*name, *value)
        }),
        Kind::Move => definition.set_autocomplete(true).max_length(32),
        Kind::Text => definition.max_length(32),
        Kind::User => definition,
    }
}

/// An invoked command as the service reads it.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct CommandLine {
    /// `/challenge @1234 jieqi red`.
    pub text: String,
    /// The users named by user options, as Discord resolved them.
    pub mentioned: Vec<jieqi_service::User>,
}

/// The command line for an invoked command.
pub(crate) fn command_line(data: &CommandData) -> CommandLine {
    let mut words = vec![format!("/{}", word(&data.name))];
    let mut mentioned = Vec::new();
    let mut options: Vec<&CommandDataOption> = Vec::new();
    for option in &data.options {
        match &option.value {
            // `/settings language vi`: the subcommand is the first argument.
            CommandDataOptionValue::SubCommand(inner)
            | CommandDataOptionValue::SubCommandGroup(inner) => {
                if !SILENT_SUBCOMMANDS.contains(&option.name.as_str()) {
                    words.push(word(&option.name));
                }
                options.extend(inner);
            }
            _ => options.push(option),
        }
    }
    options.sort_by_key(|option| option.name != GAME_OPTION);
    for option in options {
        match &option.value {
            CommandDataOptionValue::User(id) => {
                words.push(format!("@{id}"));
                if let Some(user) = data.resolved.users.get(id) {
                    let nick = data
                        .resolved
                        .members
                        .get(id)
                        .and_then(|m| m.nick.as_deref());
                    mentioned.push(person(user, nick, None));
                }
            }
            CommandDataOptionValue::String(text)
            | CommandDataOptionValue::Autocomplete { value: text, .. } => {
                let text = word(text);
                if !text.is_empty() {
                    words.push(text);
                }
            }
            CommandDataOptionValue::Integer(n) => words.push(n.to_string()),
            CommandDataOptionValue::Boolean(b) => words.push(b.to_string()),
            CommandDataOptionValue::Number(x) => words.push(x.to_string()),
            // Not options of ours.
            _ => {}
        }
    }
    CommandLine {
        text: words.join(" "),
        mentioned,
    }
}

/// Text typed into an option, tidied: no control characters, single spaces.
fn word(text: &str) -> String {
    text.split(|c: char| c.is_whitespace() || c.is_control())
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The legal moves worth offering for what the caller has typed so far: those starting with
/// it first, then those containing it, at most 25 (Discord's limit).
pub(crate) fn move_choices(legal: Vec<String>, typed: &str) -> Vec<String> {
    let typed: String = typed
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect::<String>()
        .to_lowercase();
    let (mut first, rest): (Vec<String>, Vec<String>) = legal
        .into_iter()
        .filter(|m| m.to_lowercase().contains(&typed))
        .partition(|m| m.to_lowercase().starts_with(&typed));
    first.extend(rest);
    first.truncate(25);
    first
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{from_value, json};

    fn data(value: serde_json::Value) -> CommandData {
        from_value(value).expect("command data")
    }

    #[test]
    fn a_challenge_becomes_the_line_the_service_reads() {
        let data = data(json!({
            "id": "1", "name": "challenge", "type": 1,
            "options": [
                {"name": "colour", "type": 3, "value": "red"},
                {"name": "user", "type": 6, "value": "42"},
                {"name": "variant", "type": 3, "value": "xiangqi"}
            ],
            "resolved": {
                "users": {"42": {"id": "42", "username": "bob", "global_name": "Bobby", "discriminator": "0", "avatar": null}},
                "members": {"42": {"nick": "B.", "roles": [], "joined_at": "2024-01-01T00:00:00Z", "flags": 0}}
            }
        }));
        let line = command_line(&data);
        assert_eq!(line.text, "/challenge red @42 xiangqi");
        assert_eq!(line.mentioned.len(), 1);
        assert_eq!(line.mentioned[0].id.id, "42");
        assert_eq!(line.mentioned[0].name, "B.");
        assert!(line.mentioned[0].answers_to("@42"));
    }

    #[test]
    fn the_game_id_leads_the_move() {
        let data = data(json!({
            "id": "1", "name": "move", "type": 1,
            "options": [
                {"name": "move", "type": 3, "value": " h2  e2\n"},
                {"name": "game", "type": 3, "value": "g7k2"}
            ]
        }));
        assert_eq!(command_line(&data).text, "/move g7k2 h2 e2");
    }

    #[test]
    fn settings_subcommands_name_the_setting() {
        let set = data(json!({
            "id": "1", "name": "settings", "type": 1,
            "options": [{"name": "language", "type": 1, "options": [{"name": "value", "type": 3, "value": "vi"}]}]
        }));
        assert_eq!(command_line(&set).text, "/settings language vi");
        let show = data(json!({
            "id": "1", "name": "settings", "type": 1,
            "options": [{"name": "show", "type": 1, "options": []}]
        }));
        assert_eq!(command_line(&show).text, "/settings");
    }

    #[test]
    fn puzzle_subcommands_become_the_lines_the_service_reads() {
        let new = data(json!({
            "id": "1", "name": "puzzle", "type": 1,
            "options": [{"name": "new", "type": 1, "options": [{"name": "variant", "type": 3, "value": "banqi"}]}]
        }));
        assert_eq!(command_line(&new).text, "/puzzle banqi");
        let plain = data(json!({
            "id": "1", "name": "puzzle", "type": 1,
            "options": [{"name": "new", "type": 1, "options": []}]
        }));
        assert_eq!(command_line(&plain).text, "/puzzle");
        let daily = data(json!({
            "id": "1", "name": "puzzle", "type": 1,
            "options": [{"name": "daily", "type": 1, "options": [{"name": "hour", "type": 3, "value": "18"}]}]
        }));
        assert_eq!(command_line(&daily).text, "/puzzle daily 18");
        let hours = serde_json::to_value(puzzle_definition()).expect("serialisable");
        let choices = hours["options"][1]["options"][0]["choices"]
            .as_array()
            .map(Vec::len);
        assert_eq!(choices, Some(25), "off and every hour, Discord's most");
    }

    #[test]
    fn every_command_has_a_valid_name_and_description() {
        let definitions = serde_json::to_value(definitions()).expect("serialisable");
        let list = definitions.as_array().expect("a list");
        // Every command of the list, `/settings` and `/puzzle`.
        assert_eq!(list.len(), COMMANDS.len() + 2);
        for command in list {
            let name = command["name"].as_str().unwrap_or_default();
            let description = command["description"].as_str().unwrap_or_default();
            assert!(
                (1..=32).contains(&name.len())
                    && name.chars().all(|c| c.is_ascii_lowercase() || c == '_'),
                "{name}"
            );
            assert!((1..=100).contains(&description.chars().count()), "{name}");
            // Discord refuses a required option after an optional one.
            let required: Vec<bool> = command["options"]
                .as_array()
                .map(|options| {
                    options
                        .iter()
                        .map(|o| o["required"] == json!(true))
                        .collect()
                })
                .unwrap_or_default();
            assert!(required.windows(2).all(|w| w[0] || !w[1]), "{name}");
        }
    }

    #[test]
    fn move_choices_prefer_moves_starting_with_what_was_typed() {
        let legal = ["a0a1", "h2e2", "h2h9", "e3e4", "b2e2"]
            .map(String::from)
            .to_vec();
        assert_eq!(move_choices(legal.clone(), "H2"), ["h2e2", "h2h9"]);
        assert_eq!(move_choices(legal.clone(), "e2"), ["h2e2", "b2e2"]);
        assert_eq!(move_choices(legal.clone(), "").len(), 5);
        let many: Vec<String> = (0..40).map(|i| format!("m{i}")).collect();
        assert_eq!(move_choices(many, "m").len(), 25);
    }
}
