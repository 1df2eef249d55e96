//! The chat commands as clients list them: one list of every command with its description,
//! its options (or subcommands) and their choices, the texts as Fluent keys. Telegram's
//! command menu ([`crate::Service::command_menu`], `setMyCommands`) and Discord's slash
//! commands (`jieqi-discord`'s `commands.rs`) are both built from [`COMMANDS`], in every
//! language the bot speaks, so a command added here appears on both, translated.
//!
//! The service still owns the meaning of every word: an option here is only what a client
//! may offer; the command line it becomes is read by `commands/`.

/// A command of the menu.
#[derive(Debug)]
pub struct MenuCommand {
    /// Its name (`challenge`), as typed after the slash.
    pub name: &'static str,
    /// Fluent key of its one-line description (at most 100 characters in every language).
    pub description: &'static str,
    /// Its options, or its subcommands.
    pub options: Options,
}

/// What follows a command's name.
#[derive(Debug)]
pub enum Options {
    /// Options in the order a client offers them.
    Plain(&'static [MenuOption]),
    /// Subcommands, each with its options (Discord groups options under them; on the command
    /// line a subcommand is a word, except those a client shows only to group options).
    Subcommands(&'static [Subcommand]),
}

/// A subcommand (`/settings language`, `/puzzle daily`).
#[derive(Debug)]
pub struct Subcommand {
    /// Its name.
    pub name: &'static str,
    /// Fluent key of its description.
    pub description: &'static str,
    /// Its options.
    pub options: &'static [MenuOption],
}

/// An option of a command.
#[derive(Clone, Copy, Debug)]
pub struct MenuOption {
    /// Its name (Discord shows it; on the command line options are words in order).
    pub name: &'static str,
    /// Fluent key of its description.
    pub description: &'static str,
    /// What it holds.
    pub kind: OptionKind,
    /// Whether the command needs it.
    pub required: bool,
}

/// What an option holds.
#[derive(Clone, Copy, Debug)]
pub enum OptionKind {
    /// A person.
    User,
    /// Free text (an id, a lesson number).
    Text,
    /// A move, which a client may complete from the caller's legal moves.
    Move,
    /// One of these (shown name, value the command line gets) pairs.
    Choice(&'static [(&'static str, &'static str)]),
}

const fn opt(name: &'static str, description: &'static str, kind: OptionKind) -> MenuOption {
    MenuOption {
        name,
        description,
        kind,
        required: false,
    }
}

const fn required(option: MenuOption) -> MenuOption {
    MenuOption {
        required: true,
        ..option
    }
}

const VARIANTS: OptionKind = OptionKind::Choice(&[
    ("Jieqi (揭棋): covered pieces", "jieqi"),
    ("Xiangqi (象棋)", "xiangqi"),
    ("Banqi (半棋): dark chess", "banqi"),
]);
const LEVELS: OptionKind = OptionKind::Choice(&[
    ("Novice", "novice"),
    ("Casual", "casual"),
    ("Club", "club"),
    ("Master", "master"),
]);
const COLOURS: OptionKind =
    OptionKind::Choice(&[("Red", "red"), ("Black", "black"), ("Random", "random")]);
const PRESETS: OptionKind = OptionKind::Choice(&[
    ("Standard", "standard"),
    ("PyChess", "pychess"),
    ("Tencent", "tencent"),
    ("Vietnam", "vietnam"),
]);
const MOVE_TIMES: OptionKind = OptionKind::Choice(&[
    ("10 minutes", "10m"),
    ("1 hour", "1h"),
    ("6 hours", "6h"),
    ("1 day", "24h"),
    ("3 days", "3d"),
    ("7 days", "7d"),
]);
/// Jieqi's "nobody sees" reading (`secret-captures`): offered as an option of its own, since
/// a client with structured options (Discord) cannot type the word.
const CAPTURES: OptionKind = OptionKind::Choice(&[(
    "Nobody sees a captured covered piece (secret-captures)",
    "secret-captures",
)]);
/// The hours a daily puzzle may be set to (UTC), and off: 25 choices, Discord's limit.
const DAILY_HOURS: OptionKind = OptionKind::Choice(&[
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
]);

/// The option naming a game; it leads the argument list (`/move g7k2 h2e2`).
pub const GAME_OPTION: &str = "game";
/// The option holding a move.
pub const MOVE_OPTION: &str = "move";

const GAME: MenuOption = opt(GAME_OPTION, "option-game", OptionKind::Text);
const CHALLENGE: MenuOption = opt("challenge", "option-challenge", OptionKind::Text);
const VARIANT: MenuOption = opt("variant", "option-variant", VARIANTS);
const COLOUR: MenuOption = opt("colour", "option-colour", COLOURS);

/// Every command, in the order clients list them.
pub const COMMANDS: &[MenuCommand] = &[
    MenuCommand {
        name: "challenge",
        description: "command-challenge",
        options: Options::Plain(&[
            opt("user", "option-challenge-user", OptionKind::User),
            VARIANT,
            COLOUR,
            opt("rules", "option-rules", PRESETS),
            opt("captures", "option-captures", CAPTURES),
            opt("time", "option-time", MOVE_TIMES),
        ]),
    },
    MenuCommand {
        name: "accept",
        description: "command-accept",
        options: Options::Plain(&[CHALLENGE]),
    },
    MenuCommand {
        name: "decline",
        description: "command-decline",
        options: Options::Plain(&[CHALLENGE]),
    },
    MenuCommand {
        name: "cancel",
        description: "command-cancel",
        options: Options::Plain(&[CHALLENGE]),
    },
    MenuCommand {
        name: "move",
        description: "command-move",
        options: Options::Plain(&[
            required(opt(MOVE_OPTION, "option-move", OptionKind::Move)),
            GAME,
        ]),
    },
    MenuCommand {
        name: "board",
        description: "command-board",
        options: Options::Plain(&[GAME]),
    },
    MenuCommand {
        name: "resign",
        description: "command-resign",
        options: Options::Plain(&[GAME]),
    },
    MenuCommand {
        name: "draw",
        description: "command-draw",
        options: Options::Plain(&[GAME]),
    },
    MenuCommand {
        name: "games",
        description: "command-games",
        options: Options::Plain(&[]),
    },
    MenuCommand {
        name: "watch",
        description: "command-watch",
        options: Options::Plain(&[required(GAME)]),
    },
    MenuCommand {
        name: "unwatch",
        description: "command-unwatch",
        options: Options::Plain(&[GAME]),
    },
    MenuCommand {
        name: "history",
        description: "command-history",
        options: Options::Plain(&[GAME]),
    },
    MenuCommand {
        name: "review",
        description: "command-review",
        options: Options::Plain(&[GAME]),
    },
    MenuCommand {
        name: "peek",
        description: "command-peek",
        options: Options::Plain(&[GAME]),
    },
    MenuCommand {
        name: "play",
        description: "command-play",
        options: Options::Plain(&[
            opt("level", "option-level", LEVELS),
            VARIANT,
            COLOUR,
            opt("captures", "option-captures", CAPTURES),
        ]),
    },
    MenuCommand {
        name: "puzzle",
        description: "command-puzzle",
        options: Options::Subcommands(&[
            Subcommand {
                name: "new",
                description: "subcommand-puzzle-new",
                options: &[VARIANT],
            },
            Subcommand {
                name: "daily",
                description: "subcommand-puzzle-daily",
                options: &[opt("hour", "option-hour", DAILY_HOURS)],
            },
        ]),
    },
    MenuCommand {
        name: "rules",
        description: "command-rules",
        options: Options::Plain(&[opt("variant", "option-rules-variant", VARIANTS)]),
    },
    MenuCommand {
        name: "help",
        description: "command-help",
        options: Options::Plain(&[]),
    },
    MenuCommand {
        name: "stats",
        description: "command-stats",
        options: Options::Plain(&[opt("user", "option-stats-user", OptionKind::User)]),
    },
    MenuCommand {
        name: "leaderboard",
        description: "command-leaderboard",
        options: Options::Plain(&[]),
    },
    MenuCommand {
        name: "settings",
        description: "command-settings",
        options: Options::Subcommands(&[
            Subcommand {
                name: "show",
                description: "subcommand-settings-show",
                options: &[],
            },
            Subcommand {
                name: "language",
                description: "subcommand-settings-language",
                options: &[value(&[
                    ("English", "en"),
                    ("中文", "zh"),
                    ("Tiếng Việt", "vi"),
                ])],
            },
            Subcommand {
                name: "style",
                description: "subcommand-settings-style",
                options: &[value(&[
                    ("Characters (帥仕相)", "characters"),
                    ("Symbols", "symbols"),
                ])],
            },
            Subcommand {
                name: "orientation",
                description: "subcommand-settings-orientation",
                options: &[value(&[
                    ("Red at the bottom", "red"),
                    ("Black at the bottom", "black"),
                ])],
            },
            Subcommand {
                name: "notation",
                description: "subcommand-settings-notation",
                options: &[value(&[
                    ("WXF (C2.5)", "wxf"),
                    ("Coordinates (h2e2)", "coordinates"),
                    ("Chinese (炮二平五 马二进三)", "chinese"),
                    ("Chinese, traditional (炮二平五 傌二進三)", "traditional"),
                ])],
            },
            Subcommand {
                name: "board",
                description: "subcommand-settings-board",
                options: &[value(&[
                    ("A new message per move", "new"),
                    ("One edited message", "edit"),
                ])],
            },
        ]),
    },
    MenuCommand {
        name: "learn",
        description: "command-learn",
        options: Options::Plain(&[opt("lesson", "option-lesson", OptionKind::Text)]),
    },
];

/// A setting's new value, one of `values`.
const fn value(values: &'static [(&'static str, &'static str)]) -> MenuOption {
    required(opt("value", "option-value", OptionKind::Choice(values)))
}

/// Every Fluent key the menu uses.
pub fn keys() -> impl Iterator<Item = &'static str> {
    COMMANDS.iter().flat_map(|command| {
        let options: Vec<&'static str> = match &command.options {
            Options::Plain(options) => options.iter().map(|o| o.description).collect(),
            Options::Subcommands(subcommands) => subcommands
                .iter()
                .flat_map(|s| {
                    std::iter::once(s.description).chain(s.options.iter().map(|o| o.description))
                })
                .collect(),
        };
        std::iter::once(command.description).chain(options)
    })
}
