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
    /// One of these.
    Choice(&'static [Choice]),
}

/// One choice of an option: what a client shows, and the word the command line gets.
#[derive(Clone, Copy, Debug)]
pub struct Choice {
    /// What a client shows.
    pub label: Label,
    /// The word the command line gets (`jieqi`).
    pub value: &'static str,
}

/// What a choice shows.
#[derive(Clone, Copy, Debug)]
pub enum Label {
    /// Fluent key of its text, translated like any other.
    Text(&'static str),
    /// A name written the same in every language: a language's own name, an hour in UTC, a
    /// notation's or a rule set's proper name.
    Name(&'static str),
}

/// A choice shown with the Fluent text `key`.
const fn choice(key: &'static str, value: &'static str) -> Choice {
    Choice {
        label: Label::Text(key),
        value,
    }
}

/// A choice shown as `name` in every language.
const fn named(name: &'static str, value: &'static str) -> Choice {
    Choice {
        label: Label::Name(name),
        value,
    }
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
    choice("choice-variant-jieqi", "jieqi"),
    choice("choice-variant-xiangqi", "xiangqi"),
    choice("choice-variant-banqi", "banqi"),
]);
/// The speeds ratings are kept by (`/leaderboard blitz`).
const SPEEDS: OptionKind = OptionKind::Choice(&[
    choice("speed-bullet", "bullet"),
    choice("speed-blitz", "blitz"),
    choice("speed-rapid", "rapid"),
    choice("speed-classical", "classical"),
    choice("speed-correspondence", "correspondence"),
]);
const LEVELS: OptionKind = OptionKind::Choice(&[
    choice("choice-level-novice", "novice"),
    choice("choice-level-casual", "casual"),
    choice("choice-level-club", "club"),
    choice("choice-level-master", "master"),
]);
const COLOURS: OptionKind = OptionKind::Choice(&[
    choice("choice-colour-red", "red"),
    choice("choice-colour-black", "black"),
    choice("choice-colour-random", "random"),
]);
const PRESETS: OptionKind = OptionKind::Choice(&[
    choice("choice-rules-standard", "standard"),
    named("PyChess", "pychess"),
    choice("choice-rules-tencent", "tencent"),
    choice("choice-rules-vietnam", "vietnam"),
]);
const MOVE_TIMES: OptionKind = OptionKind::Choice(&[
    choice("choice-time-bullet", "1+0"),
    choice("choice-time-blitz", "3+2"),
    choice("choice-time-rapid", "10+5"),
    choice("choice-time-classical", "30+20"),
    choice("choice-time-byoyomi", "10m|30s"),
    choice("choice-time-10m", "10m"),
    choice("choice-time-1h", "1h"),
    choice("choice-time-6h", "6h"),
    choice("choice-time-1d", "24h"),
    choice("choice-time-3d", "3d"),
    choice("choice-time-7d", "7d"),
]);
/// An arena's lengths in minutes. Choices, not free text: the command line reads `60m` as a
/// time per move, so `60m` typed in a field named "minutes" made an arena of the default
/// length with an hour a move. The typed command still takes any length from 1 to 1440.
const ARENA_LENGTHS: OptionKind = OptionKind::Choice(&[
    choice("choice-time-10m", "10"),
    choice("choice-minutes-20", "20"),
    choice("choice-minutes-30", "30"),
    choice("choice-minutes-45", "45"),
    choice("choice-time-1h", "60"),
    choice("choice-minutes-90", "90"),
    choice("choice-minutes-120", "120"),
]);
/// The game clocks `/play` offers (a game against the engine is played now or not at all).
const CLOCKS: OptionKind = OptionKind::Choice(&[
    choice("choice-time-bullet", "1+0"),
    choice("choice-time-blitz", "3+2"),
    choice("choice-time-rapid", "10+5"),
    choice("choice-time-classical", "30+20"),
    choice("choice-time-byoyomi", "10m|30s"),
]);
/// Jieqi's "nobody sees" reading (`secret-captures`): offered as an option of its own, since
/// a client with structured options (Discord) cannot type the word.
const CAPTURES: OptionKind =
    OptionKind::Choice(&[choice("choice-captures-secret", "secret-captures")]);
/// The hours a daily puzzle may be set to (UTC), and off: 25 choices, Discord's limit.
const DAILY_HOURS: OptionKind = OptionKind::Choice(&[
    choice("choice-hour-off", "off"),
    named("00:00 UTC", "0"),
    named("01:00 UTC", "1"),
    named("02:00 UTC", "2"),
    named("03:00 UTC", "3"),
    named("04:00 UTC", "4"),
    named("05:00 UTC", "5"),
    named("06:00 UTC", "6"),
    named("07:00 UTC", "7"),
    named("08:00 UTC", "8"),
    named("09:00 UTC", "9"),
    named("10:00 UTC", "10"),
    named("11:00 UTC", "11"),
    named("12:00 UTC", "12"),
    named("13:00 UTC", "13"),
    named("14:00 UTC", "14"),
    named("15:00 UTC", "15"),
    named("16:00 UTC", "16"),
    named("17:00 UTC", "17"),
    named("18:00 UTC", "18"),
    named("19:00 UTC", "19"),
    named("20:00 UTC", "20"),
    named("21:00 UTC", "21"),
    named("22:00 UTC", "22"),
    named("23:00 UTC", "23"),
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
        name: "seek",
        description: "command-seek",
        options: Options::Plain(&[
            opt("time", "option-seek-time", CLOCKS),
            VARIANT,
            COLOUR,
            opt("rules", "option-rules", PRESETS),
            opt("captures", "option-captures", CAPTURES),
        ]),
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
        name: "rematch",
        description: "command-rematch",
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
            // First: `/play anyone …` is a seek, whatever follows.
            opt(
                "opponent",
                "option-opponent",
                OptionKind::Choice(&[
                    choice("choice-opponent-bot", "bot"),
                    choice("choice-opponent-anyone", "anyone"),
                ]),
            ),
            opt("level", "option-level", LEVELS),
            VARIANT,
            COLOUR,
            opt("captures", "option-captures", CAPTURES),
            opt("time", "option-clock", CLOCKS),
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
        options: Options::Plain(&[
            opt("variant", "option-variant", VARIANTS),
            opt("speed", "option-leaderboard-speed", SPEEDS),
        ]),
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
                    named("English", "en"),
                    named("中文", "zh"),
                    named("Tiếng Việt", "vi"),
                ])],
            },
            Subcommand {
                name: "style",
                description: "subcommand-settings-style",
                options: &[value(&[
                    choice("choice-style-characters", "characters"),
                    choice("choice-style-symbols", "symbols"),
                ])],
            },
            Subcommand {
                name: "orientation",
                description: "subcommand-settings-orientation",
                options: &[value(&[
                    choice("choice-orientation-red", "red"),
                    choice("choice-orientation-black", "black"),
                ])],
            },
            Subcommand {
                name: "notation",
                description: "subcommand-settings-notation",
                options: &[value(&[
                    named("WXF (C2.5)", "wxf"),
                    choice("choice-notation-coordinates", "coordinates"),
                    choice("choice-notation-chinese", "chinese"),
                    choice("choice-notation-traditional", "traditional"),
                ])],
            },
            Subcommand {
                name: "board",
                description: "subcommand-settings-board",
                options: &[value(&[
                    choice("choice-board-new", "new"),
                    choice("choice-board-edit", "edit"),
                ])],
            },
            Subcommand {
                name: "tournaments",
                description: "subcommand-settings-tournaments",
                options: &[value(&[
                    choice("choice-tournaments-admins", "admins"),
                    choice("choice-tournaments-everyone", "everyone"),
                ])],
            },
            Subcommand {
                name: "timezone",
                description: "subcommand-settings-timezone",
                // Free text: the offsets in use (UTC-12 to UTC+14, some on the half hour)
                // are more than Discord's 25 choices.
                options: &[required(opt("value", "option-timezone", OptionKind::Text))],
            },
        ]),
    },
    MenuCommand {
        name: "learn",
        description: "command-learn",
        options: Options::Plain(&[opt("lesson", "option-lesson", OptionKind::Text)]),
    },
    MenuCommand {
        name: "tournament",
        description: "command-tournament",
        options: Options::Subcommands(&[
            Subcommand {
                name: "status",
                description: "subcommand-tournament-status",
                options: &[],
            },
            Subcommand {
                name: "swiss",
                description: "subcommand-tournament-swiss",
                options: &[
                    opt("rounds", "option-rounds", OptionKind::Text),
                    VARIANT,
                    opt("time", "option-time", MOVE_TIMES),
                    TOURNAMENT_START,
                    TOURNAMENT_RATED,
                ],
            },
            Subcommand {
                name: "round-robin",
                description: "subcommand-tournament-round-robin",
                options: &[
                    opt(
                        "cycles",
                        "option-cycles",
                        OptionKind::Choice(&[
                            choice("choice-cycles-single", "single"),
                            choice("choice-cycles-double", "double"),
                        ]),
                    ),
                    VARIANT,
                    opt("time", "option-time", MOVE_TIMES),
                    TOURNAMENT_START,
                    TOURNAMENT_RATED,
                ],
            },
            Subcommand {
                name: "arena",
                description: "subcommand-tournament-arena",
                options: &[
                    opt("minutes", "option-minutes", ARENA_LENGTHS),
                    VARIANT,
                    opt("time", "option-time", MOVE_TIMES),
                    TOURNAMENT_START,
                    TOURNAMENT_RATED,
                ],
            },
            Subcommand {
                name: "join",
                description: "subcommand-tournament-join",
                options: &[],
            },
            Subcommand {
                name: "leave",
                description: "subcommand-tournament-leave",
                options: &[],
            },
            Subcommand {
                name: "start",
                description: "subcommand-tournament-start",
                options: &[],
            },
            Subcommand {
                name: "standings",
                description: "subcommand-tournament-standings",
                options: &[],
            },
            Subcommand {
                name: "bye",
                description: "subcommand-tournament-bye",
                options: &[],
            },
            Subcommand {
                name: "withdraw",
                description: "subcommand-tournament-withdraw",
                options: &[],
            },
            Subcommand {
                name: "trf",
                description: "subcommand-tournament-trf",
                options: &[],
            },
            Subcommand {
                name: "cancel",
                description: "subcommand-tournament-cancel",
                options: &[],
            },
        ]),
    },
];

/// A tournament's start time: `20:00` (UTC) or `in 30m`; a manual start without it.
const TOURNAMENT_START: MenuOption = opt("start", "option-start", OptionKind::Text);

/// Whether a tournament's games are rated (they are, in their speed, unless `unrated`).
const TOURNAMENT_RATED: MenuOption = opt(
    "rated",
    "option-rated",
    OptionKind::Choice(&[
        choice("choice-rated", "rated"),
        choice("choice-unrated", "unrated"),
    ]),
);

/// A setting's new value, one of `values`.
const fn value(values: &'static [Choice]) -> MenuOption {
    required(opt("value", "option-value", OptionKind::Choice(values)))
}

/// Every Fluent key the menu uses: descriptions and choices' labels.
pub fn keys() -> impl Iterator<Item = &'static str> {
    COMMANDS.iter().flat_map(|command| {
        let options: Vec<&MenuOption> = match &command.options {
            Options::Plain(options) => options.iter().collect(),
            Options::Subcommands(subcommands) => {
                subcommands.iter().flat_map(|s| s.options.iter()).collect()
            }
        };
        let subcommands: Vec<&'static str> = match &command.options {
            Options::Plain(_) => Vec::new(),
            Options::Subcommands(subcommands) => {
                subcommands.iter().map(|s| s.description).collect()
            }
        };
        let options: Vec<&'static str> = options
            .into_iter()
            .flat_map(|option| {
                let choices: &'static [Choice] = match option.kind {
                    OptionKind::Choice(choices) => choices,
                    _ => &[],
                };
                std::iter::once(option.description).chain(choices.iter().filter_map(|c| {
                    match c.label {
                        Label::Text(key) => Some(key),
                        Label::Name(_) => None,
                    }
                }))
            })
            .collect();
        std::iter::once(command.description)
            .chain(subcommands)
            .chain(options)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::{Language, Translations};

    /// A key missing from a language would show its English fallback, or the key itself.
    #[test]
    fn every_text_of_the_menu_is_in_every_language() {
        for language in Language::ALL {
            let known = Translations::keys(language);
            let missing: Vec<&str> = keys().filter(|key| !known.contains(*key)).collect();
            assert!(missing.is_empty(), "{language}: {missing:?}");
        }
        assert!(keys().any(|key| key == "choice-variant-jieqi"));
        assert!(keys().any(|key| key == "subcommand-settings-board"));
    }

    /// Discord shows at most 25 choices of an option, named in at most 100 characters.
    #[test]
    fn choices_fit_what_clients_show() {
        let translations = Translations::load();
        for command in COMMANDS {
            let options: Vec<&MenuOption> = match &command.options {
                Options::Plain(options) => options.iter().collect(),
                Options::Subcommands(subs) => subs.iter().flat_map(|s| s.options.iter()).collect(),
            };
            for option in options {
                let OptionKind::Choice(choices) = option.kind else {
                    continue;
                };
                assert!((1..=25).contains(&choices.len()), "/{}", command.name);
                for choice in choices {
                    for language in Language::ALL {
                        let label = match choice.label {
                            Label::Text(key) => translations.text(language, key, &[]),
                            Label::Name(name) => name.to_owned(),
                        };
                        assert!((1..=100).contains(&label.chars().count()), "{label}");
                    }
                }
            }
        }
    }
}
