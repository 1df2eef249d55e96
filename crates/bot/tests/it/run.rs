//! `jieqi-bot run` refuses to start, with a sentence that says what to do, when it has no
//! platform to run or a configuration value it cannot use.

use std::process::{Command, Output};

fn run_with(env: &[(&str, &str)]) -> Output {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let mut command = Command::new(env!("CARGO_BIN_EXE_jieqi-bot"));
    command.arg("run").current_dir(folder.path());
    for key in [
        "DISCORD_TOKEN",
        "TELEGRAM_TOKEN",
        "DATA_DIR",
        "HTTP_ADDR",
        "RUST_LOG",
        "DISCORD_API_URL",
        "TELEGRAM_API_URL",
        "DISCORD_GUILD_ID",
        "TELEGRAM_WEBHOOK_URL",
        "CHALLENGE_EXPIRY",
        "DEFAULT_MOVE_TIME",
        "DEFAULT_LANGUAGE",
        "PUBLIC_URL",
        "WEB_SECRET",
        "TELEGRAM_MINI_APP",
    ] {
        command.env_remove(key);
    }
    command.envs(env.iter().copied());
    command.output().expect("the binary runs")
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn without_any_token_run_exits_2_and_says_which_variables_to_set() {
    let output = run_with(&[]);
    assert_eq!(output.status.code(), Some(2));
    let said = stderr(&output);
    for needed in [
        "TELEGRAM_TOKEN",
        "DISCORD_TOKEN",
        "@BotFather",
        "Reset Token",
        "jieqi-bot local",
    ] {
        assert!(
            said.contains(needed),
            "the refusal mentions {needed}: {said}"
        );
    }
}

#[test]
fn an_empty_token_counts_as_no_token() {
    let output = run_with(&[("TELEGRAM_TOKEN", ""), ("DISCORD_TOKEN", " ")]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("no chat platform is configured"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn a_bad_value_stops_the_start_naming_the_key() {
    let output = run_with(&[("TELEGRAM_TOKEN", "123:abc"), ("HTTP_ADDR", "everywhere")]);
    assert_eq!(output.status.code(), Some(2));
    let said = stderr(&output);
    assert!(said.contains("environment variable HTTP_ADDR"), "{said}");
    assert!(said.contains("127.0.0.1:8080"), "{said}");
}

#[test]
fn a_short_web_secret_stops_the_start_naming_it_without_showing_it() {
    let output = run_with(&[
        ("TELEGRAM_TOKEN", "123:abc"),
        ("PUBLIC_URL", "https://bot.example.org"),
        ("WEB_SECRET", "correct-horse"),
    ]);
    assert_eq!(output.status.code(), Some(2));
    let said = stderr(&output);
    assert!(said.contains("environment variable WEB_SECRET"), "{said}");
    assert!(said.contains("openssl rand -hex 32"), "{said}");
    assert!(
        !said.contains("correct-horse"),
        "the secret is not shown: {said}"
    );
}
