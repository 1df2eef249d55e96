//! The application (slash) commands, built from the service's command menu
//! ([`jieqi_service::menu`]: the same list Telegram's menu comes from) with typed options,
//! choices and descriptions in every language the bot speaks; and the way back: an invoked
//! command becomes the command line the service reads (`/challenge @1234 jieqi red`), with
//! the users Discord resolved.
//!
//! The service owns the meaning of every word; this module only turns its menu into Discord's
//! shapes.

use jieqi_service::Language;
use jieqi_service::i18n::Translations;
use jieqi_service::menu::{
    COMMANDS, Choice, Label, MenuCommand, MenuOption, OptionKind, Options, Subcommand,
};
use serenity::all::{
    CommandData, CommandDataOption, CommandDataOptionValue, CommandOptionType, CreateCommand,
    CreateCommandOption,
};

use crate::person::person;

/// The option `/move` autocompletes.
pub(crate) const MOVE_OPTION: &str = jieqi_service::menu::MOVE_OPTION;
/// The option naming a game; it leads the argument list (`/move g7k2 h2e2`).
const GAME_OPTION: &str = jieqi_service::menu::GAME_OPTION;

/// Subcommands that only group options on Discord and are not words of the command line:
/// `/settings show` is `/settings`, `/puzzle new banqi` is `/puzzle banqi`.
const SILENT_SUBCOMMANDS: [&str; 2] = ["show", "new"];

/// Discord's limit on a description, and on a choice's name.
const DESCRIPTION_LIMIT: usize = 100;

/// The Discord locale each language other than English is offered under (English is the
/// default every other locale sees).
fn locale(language: Language) -> Option<&'static str> {
    match language {
        Language::En => None,
        Language::Zh => Some("zh-CN"),
        Language::Vi => Some("vi"),
    }
}

/// The texts of one description: English, and each other language under its locale.
struct Described<'a> {
    translations: &'a Translations,
}

impl Described<'_> {
    fn text(&self, language: Language, key: &str) -> String {
        let text = self.translations.text(language, key, &[]);
        match text.char_indices().nth(DESCRIPTION_LIMIT) {
            Some((cut, _)) => {
                let mut short: String = text[..cut].chars().take(DESCRIPTION_LIMIT - 1).collect();
                short.push('…');
                short
            }
            None => text,
        }
    }

    /// `(locale, text)` for every language but English.
    fn localized(&self, key: &str) -> Vec<(&'static str, String)> {
        Language::ALL
            .into_iter()
            .filter_map(|language| Some((locale(language)?, self.text(language, key))))
            .collect()
    }

    /// A choice's name in English, and under each other language's locale (a proper name
    /// the same in all).
    fn choice(&self, choice: &Choice) -> (String, Vec<(&'static str, String)>) {
        match choice.label {
            Label::Text(key) => (self.text(Language::En, key), self.localized(key)),
            Label::Name(name) => {
                let others = Language::ALL
                    .into_iter()
                    .filter_map(|language| Some((locale(language)?, name.to_owned())))
                    .collect();
                (name.to_owned(), others)
            }
        }
    }

    fn command(&self, command: &MenuCommand) -> CreateCommand {
        let mut definition = CreateCommand::new(command.name)
            .description(self.text(Language::En, command.description));
        for (locale, text) in self.localized(command.description) {
            definition = definition.description_localized(locale, text);
        }
        match &command.options {
            Options::Plain(options) => options
                .iter()
                .fold(definition, |d, option| d.add_option(self.option(option))),
            Options::Subcommands(subcommands) => subcommands
                .iter()
                .fold(definition, |d, sub| d.add_option(self.subcommand(sub))),
        }
    }

    fn subcommand(&self, subcommand: &Subcommand) -> CreateCommandOption {
        let mut definition = CreateCommandOption::new(
            CommandOptionType::SubCommand,
            subcommand.name,
            self.text(Language::En, subcommand.description),
        );
        for (locale, text) in self.localized(subcommand.description) {
            definition = definition.description_localized(locale, text);
        }
        subcommand.options.iter().fold(definition, |d, option| {
            d.add_sub_option(self.option(option))
        })
    }

    fn option(&self, option: &MenuOption) -> CreateCommandOption {
        let kind = match option.kind {
            OptionKind::User => CommandOptionType::User,
            OptionKind::Text | OptionKind::Choice(_) | OptionKind::Move => {
                CommandOptionType::String
            }
        };
        let mut definition = CreateCommandOption::new(
            kind,
            option.name,
            self.text(Language::En, option.description),
        )
        .required(option.required);
        for (locale, text) in self.localized(option.description) {
            definition = definition.description_localized(locale, text);
        }
        match option.kind {
            OptionKind::Choice(choices) => choices.iter().fold(definition, |d, choice| {
                let (name, localized) = self.choice(choice);
                d.add_string_choice_localized(name, choice.value, localized)
            }),
            OptionKind::Move => definition.set_autocomplete(true).max_length(32),
            OptionKind::Text => definition.max_length(32),
            OptionKind::User => definition,
        }
    }
}

/// The commands to register: the service's menu ([`jieqi_service::menu::COMMANDS`]), with
/// every description in English and, for Discord clients set to Chinese or Vietnamese, in
/// theirs (`description_localizations`).
pub(crate) fn definitions(translations: &Translations) -> Vec<CreateCommand> {
    let described = Described { translations };
    COMMANDS.iter().map(|c| described.command(c)).collect()
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
    fn nobody_sees_is_an_option_of_challenge_and_play_that_the_line_carries() {
        for command in ["challenge", "play"] {
            let offered = jieqi_service::menu::COMMANDS
                .iter()
                .find(|c| c.name == command)
                .expect("in the menu");
            let jieqi_service::menu::Options::Plain(options) = offered.options else {
                panic!("{command} has plain options");
            };
            assert!(
                options.iter().any(|o| matches!(
                    o.kind,
                    jieqi_service::menu::OptionKind::Choice(choices)
                        if choices.iter().any(|c| c.value == "secret-captures")
                )),
                "{command} offers secret-captures"
            );
        }
        let data = data(json!({
            "id": "1", "name": "challenge", "type": 1,
            "options": [
                {"name": "variant", "type": 3, "value": "jieqi"},
                {"name": "captures", "type": 3, "value": "secret-captures"}
            ]
        }));
        assert_eq!(command_line(&data).text, "/challenge jieqi secret-captures");
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
        let puzzle = registered()
            .into_iter()
            .find(|c| c["name"] == "puzzle")
            .expect("/puzzle");
        let choices = puzzle["options"][1]["options"][0]["choices"]
            .as_array()
            .map(Vec::len);
        assert_eq!(choices, Some(25), "off and every hour, Discord's most");
    }

    fn registered() -> Vec<serde_json::Value> {
        let definitions = definitions(&Translations::load());
        let list = serde_json::to_value(definitions).expect("serialisable");
        list.as_array().cloned().unwrap_or_default()
    }

    /// Every description of a command, its subcommands and options, with its localizations.
    fn descriptions(command: &serde_json::Value) -> Vec<&serde_json::Value> {
        let mut found = vec![command];
        let mut stack: Vec<&serde_json::Value> = command["options"]
            .as_array()
            .into_iter()
            .flatten()
            .collect();
        while let Some(option) = stack.pop() {
            found.push(option);
            stack.extend(option["options"].as_array().into_iter().flatten());
        }
        found
    }

    #[test]
    fn every_command_has_a_valid_name_and_description_in_every_language() {
        let list = registered();
        // The service's menu, which Telegram's comes from too.
        assert_eq!(list.len(), jieqi_service::menu::COMMANDS.len());
        for command in &list {
            let name = command["name"].as_str().unwrap_or_default();
            assert!(
                (1..=32).contains(&name.len())
                    && name.chars().all(|c| c.is_ascii_lowercase() || c == '_'),
                "{name}"
            );
            for described in descriptions(command) {
                let english = described["description"].as_str().unwrap_or_default();
                assert!(
                    (1..=100).contains(&english.chars().count()),
                    "{name}: {english}"
                );
                for locale in ["zh-CN", "vi"] {
                    let text = described["description_localizations"][locale]
                        .as_str()
                        .unwrap_or_default();
                    assert!(
                        (1..=100).contains(&text.chars().count()),
                        "{name} {locale}: {text:?}"
                    );
                    assert_ne!(text, english, "{name} {locale}: not translated");
                }
            }
            for option in descriptions(command).into_iter().skip(1) {
                for choice in option["choices"].as_array().into_iter().flatten() {
                    let english = choice["name"].as_str().unwrap_or_default();
                    assert!(
                        (1..=100).contains(&english.chars().count()),
                        "{name}: {choice}"
                    );
                    for locale in ["zh-CN", "vi"] {
                        let text = choice["name_localizations"][locale]
                            .as_str()
                            .unwrap_or_default();
                        assert!(
                            (1..=100).contains(&text.chars().count()),
                            "{name} {locale}: {choice}"
                        );
                    }
                }
            }
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
    fn a_command_added_to_the_menu_is_registered_with_its_menu_description() {
        let translations = Translations::load();
        let list = registered();
        for command in jieqi_service::menu::COMMANDS {
            let registered = list
                .iter()
                .find(|c| c["name"] == command.name)
                .unwrap_or_else(|| panic!("/{} is not registered", command.name));
            let vietnamese = translations.text(Language::Vi, command.description, &[]);
            assert_eq!(
                registered["description_localizations"]["vi"].as_str(),
                Some(vietnamese.as_str()),
                "/{}",
                command.name
            );
        }
    }

    /// Every choice shown with a text of ours is translated (not left in English); a proper
    /// name is the same in every language.
    #[test]
    fn every_choice_is_registered_in_each_language_from_the_services_translations() {
        let translations = Translations::load();
        let list = registered();
        let mut checked = 0;
        for command in jieqi_service::menu::COMMANDS {
            let registered = list
                .iter()
                .find(|c| c["name"] == command.name)
                .expect("registered");
            let options: Vec<(&serde_json::Value, &MenuOption)> = match &command.options {
                Options::Plain(options) => options.iter().map(|o| (registered, o)).collect(),
                Options::Subcommands(subcommands) => subcommands
                    .iter()
                    .flat_map(|sub| {
                        let group = registered["options"]
                            .as_array()
                            .and_then(|subs| subs.iter().find(|s| s["name"] == sub.name))
                            .expect("the subcommand");
                        sub.options.iter().map(move |o| (group, o))
                    })
                    .collect(),
            };
            for (parent, option) in options {
                let OptionKind::Choice(choices) = option.kind else {
                    continue;
                };
                let shown = parent["options"]
                    .as_array()
                    .and_then(|o| o.iter().find(|o| o["name"] == option.name))
                    .expect("the option");
                for (choice, json) in choices
                    .iter()
                    .zip(shown["choices"].as_array().expect("choices"))
                {
                    assert_eq!(json["value"], choice.value);
                    for (language, locale) in [(Language::Zh, "zh-CN"), (Language::Vi, "vi")] {
                        let text = json["name_localizations"][locale].as_str();
                        match choice.label {
                            Label::Text(key) => {
                                let translated = translations.text(language, key, &[]);
                                assert_eq!(text, Some(translated.as_str()), "{key}");
                                assert_ne!(json["name"].as_str(), text, "{key} in {locale}");
                            }
                            Label::Name(name) => assert_eq!(text, Some(name)),
                        }
                    }
                    checked += 1;
                }
            }
        }
        assert!(checked > 60, "{checked} choices");
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
