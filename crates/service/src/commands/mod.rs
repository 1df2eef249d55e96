//! One file per command, in the manner of mini-redis: each has `parse` (arguments into a
//! typed value, or a refusal saying what is wrong) and `apply` (reads through the request's
//! [`Ctx`], adds records and messages to its change, or refuses with a reason).

mod accept;
mod board;
mod board_link;
mod cancel;
mod challenge;
mod decline;
mod draw;
mod games;
mod help;
mod history;
mod leaderboard;
pub(crate) mod learn;
mod r#move;
mod peek;
mod play;
mod puzzle;
mod rematch;
mod resign;
mod review;
mod rules;
mod seek;
mod settings;
mod start;
mod stats;
mod tournament;
mod unwatch;
mod watch;

use crate::context::{Ctx, Halt, Sentence, Step, refuse};

use crate::announce::{our_seat, outcome_text};
use crate::context::LoadedGame;
use crate::i18n::{Language, Translations};
use crate::ids::{GameId, User};
use crate::request::{ButtonAction, Input};
use crate::store::{GameRecord, Seat};
pub(crate) use accept::close_post as close_challenge_post;

/// A request, understood.
#[derive(Debug)]
pub(crate) enum Command {
    Challenge(challenge::Challenge),
    Accept(accept::Accept),
    Decline(decline::Decline),
    Cancel(cancel::Cancel),
    Move(r#move::Move),
    Board(board::Board),
    BoardLink(board_link::BoardLink),
    Resign(resign::Resign),
    Draw(draw::Draw),
    Review(review::Review),
    Games(games::Games),
    History(history::History),
    Peek(peek::Peek),
    Play(play::Play),
    Puzzle(puzzle::PuzzleCmd),
    Watch(watch::Watch),
    Unwatch(unwatch::Unwatch),
    Rules(rules::RulesCmd),
    Help(help::Help),
    Settings(settings::Settings),
    Start(start::Start),
    Stats(stats::Stats),
    Leaderboard(leaderboard::Leaderboard),
    Learn(learn::Learn),
    Tournament(tournament::TournamentCmd),
    Rematch(rematch::Rematch),
    Seek(seek::Seek),
    /// Understood as a command but not valid: refuse with this sentence.
    Invalid(Sentence),
}

/// What an input is.
#[derive(Debug)]
pub(crate) enum Parsed {
    Command(Command),
    /// Not addressed to the bot (chatter, another bot's command): no answer, nothing stored.
    Ignore,
}

/// Reads an input. `bot_username` lets `/cmd@OtherBot` pass by in groups.
pub(crate) fn parse(input: &Input, bot_username: Option<&str>) -> Parsed {
    let text = match input {
        Input::Button(action) => return Parsed::Command(from_button(action)),
        Input::BoardMove { game, play, lag } => {
            return Parsed::Command(
                r#move::Move::parse(&[game.as_str(), play])
                    .map_or_else(Command::Invalid, |m| Command::Move(m.with_lag(*lag))),
            );
        }
        Input::Text(text) => text.trim(),
    };
    let Some(command_line) = text.strip_prefix('/') else {
        return Parsed::Ignore;
    };
    let (head, rest) = match command_line.split_once(char::is_whitespace) {
        Some((head, rest)) => (head, rest.trim()),
        None => (command_line, ""),
    };
    let (name, addressee) = match head.split_once('@') {
        Some((name, bot)) => (name, Some(bot)),
        None => (head, None),
    };
    if let (Some(addressee), Some(ours)) = (addressee, bot_username)
        && !addressee.eq_ignore_ascii_case(ours.trim_start_matches('@'))
    {
        return Parsed::Ignore;
    }
    let args: Vec<&str> = rest.split_whitespace().collect();
    let name = name.to_lowercase();
    let command = match name.as_str() {
        "challenge" => challenge::Challenge::parse(&args).map(Command::Challenge),
        "accept" => accept::Accept::parse(&args).map(Command::Accept),
        "decline" => decline::Decline::parse(&args).map(Command::Decline),
        "cancel" => cancel::Cancel::parse(&args).map(Command::Cancel),
        "move" | "m" => r#move::Move::parse(&args).map(Command::Move),
        "board" => board::Board::parse(&args).map(Command::Board),
        "resign" => resign::Resign::parse(&args).map(Command::Resign),
        "draw" => draw::Draw::parse(&args).map(Command::Draw),
        "games" => games::Games::parse(&args).map(Command::Games),
        "history" => history::History::parse(&args).map(Command::History),
        "review" => review::Review::parse(&args).map(Command::Review),
        "peek" => peek::Peek::parse(&args).map(Command::Peek),
        // `/play anyone`: a quick game with whoever takes it, a seek.
        "play" => match args.split_first() {
            Some((first, rest)) if first.eq_ignore_ascii_case("anyone") => {
                seek::Seek::parse(rest).map(Command::Seek)
            }
            _ => play::Play::parse(&args).map(Command::Play),
        },
        "puzzle" => puzzle::PuzzleCmd::parse(&args).map(Command::Puzzle),
        "watch" => watch::Watch::parse(&args).map(Command::Watch),
        "unwatch" => unwatch::Unwatch::parse(&args).map(Command::Unwatch),
        "rules" => rules::RulesCmd::parse(&args).map(Command::Rules),
        "help" => help::Help::parse(&args).map(Command::Help),
        "settings" => settings::Settings::parse(&args).map(Command::Settings),
        "start" => start::Start::parse(&args).map(Command::Start),
        "stats" => stats::Stats::parse(&args).map(Command::Stats),
        "leaderboard" | "top" => leaderboard::Leaderboard::parse(&args).map(Command::Leaderboard),
        "learn" => learn::Learn::parse(&args).map(Command::Learn),
        "tournament" => tournament::TournamentCmd::parse(&args).map(Command::Tournament),
        "rematch" => rematch::Rematch::parse(&args).map(Command::Rematch),
        "seek" => seek::Seek::parse(&args).map(Command::Seek),
        _ => {
            Err(Sentence::new("refuse-unknown-command").arg("command", shown(&format!("/{name}"))))
        }
    };
    Parsed::Command(command.unwrap_or_else(Command::Invalid))
}

/// How a command line reads, before anything is looked up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LineReading {
    /// Not addressed to the bot (chatter, another bot's command).
    Ignored,
    /// A command with arguments the service would go on to carry out.
    Understood,
    /// A command refused for its words alone (unknown, bad options): the reason as the
    /// requester would read it.
    Refused(String),
}

/// Reads a chat command line with its options as [`crate::Service::handle`] does, without
/// touching the store, and says the refusal in `language`. This is the door the
/// `command_line` fuzz target (`fuzz/`) knocks on: any text reads, never a panic.
pub fn read_command_line(
    text: &str,
    bot_username: Option<&str>,
    translations: &Translations,
    language: Language,
) -> LineReading {
    match parse(&Input::Text(text.to_owned()), bot_username) {
        Parsed::Ignore => LineReading::Ignored,
        Parsed::Command(Command::Invalid(sentence)) => {
            LineReading::Refused(sentence.render(translations, language))
        }
        Parsed::Command(_) => LineReading::Understood,
    }
}

fn from_button(action: &ButtonAction) -> Command {
    match action {
        ButtonAction::Accept(id) => Command::Accept(accept::Accept {
            challenge: Some(id.clone()),
        }),
        ButtonAction::Decline(id) => Command::Decline(decline::Decline {
            challenge: Some(id.clone()),
        }),
        ButtonAction::Resign(id) => Command::Resign(resign::Resign {
            game: Some(id.clone()),
            confirmed: false,
            board: None,
        }),
        ButtonAction::ResignAt(id, ply) => Command::Resign(resign::Resign {
            game: Some(id.clone()),
            confirmed: false,
            board: Some(*ply),
        }),
        ButtonAction::ResignConfirm(id) => Command::Resign(resign::Resign {
            game: Some(id.clone()),
            confirmed: true,
            board: None,
        }),
        ButtonAction::OfferDraw(id) => Command::Draw(draw::Draw {
            game: Some(id.clone()),
            board: None,
        }),
        ButtonAction::OfferDrawAt(id, ply) => Command::Draw(draw::Draw {
            game: Some(id.clone()),
            board: Some(*ply),
        }),
        ButtonAction::Review(id) => Command::Review(review::Review {
            game: Some(id.clone()),
        }),
        ButtonAction::Rematch(id) => Command::Rematch(rematch::Rematch {
            game: Some(id.clone()),
        }),
        ButtonAction::PlayOnBoard(id) => {
            Command::BoardLink(board_link::BoardLink { game: id.clone() })
        }
        ButtonAction::JoinTournament(id) => {
            Command::Tournament(tournament::TournamentCmd::Join(Some(id.clone())))
        }
        ButtonAction::LeaveTournament(id) => {
            Command::Tournament(tournament::TournamentCmd::Leave(Some(id.clone())))
        }
        // A link opens a page, and Discord's adapter answers "Play in Discord" itself: no
        // platform sends them on as a press.
        ButtonAction::Link(_) | ButtonAction::App(_) | ButtonAction::PlayInDiscord(_) => {
            Command::Invalid(Sentence::new("button-not-ours"))
        }
    }
}

impl Command {
    /// Carries the command out.
    pub(crate) async fn apply(&self, ctx: &mut Ctx<'_>) -> Step {
        match self {
            Command::Challenge(c) => c.apply(ctx).await,
            Command::Accept(c) => c.apply(ctx).await,
            Command::Decline(c) => c.apply(ctx).await,
            Command::Cancel(c) => c.apply(ctx).await,
            Command::Move(c) => c.apply(ctx).await,
            Command::Board(c) => c.apply(ctx).await,
            Command::BoardLink(c) => c.apply(ctx).await,
            Command::Resign(c) => c.apply(ctx).await,
            Command::Draw(c) => c.apply(ctx).await,
            Command::Review(c) => c.apply(ctx).await,
            Command::Games(c) => c.apply(ctx).await,
            Command::History(c) => c.apply(ctx).await,
            Command::Peek(c) => c.apply(ctx).await,
            Command::Play(c) => c.apply(ctx).await,
            Command::Puzzle(c) => c.apply(ctx).await,
            Command::Watch(c) => c.apply(ctx).await,
            Command::Unwatch(c) => c.apply(ctx).await,
            Command::Rules(c) => c.apply(ctx).await,
            Command::Help(c) => c.apply(ctx).await,
            Command::Settings(c) => c.apply(ctx).await,
            Command::Start(c) => c.apply(ctx).await,
            Command::Stats(c) => c.apply(ctx).await,
            Command::Leaderboard(c) => c.apply(ctx).await,
            Command::Learn(c) => c.apply(ctx).await,
            Command::Tournament(c) => c.apply(ctx).await,
            Command::Rematch(c) => c.apply(ctx).await,
            Command::Seek(c) => c.apply(ctx).await,
            Command::Invalid(sentence) => Err(Halt::Refuse(sentence.clone())),
        }
    }
}

/// User text repeated in an answer: cut short (input can be any length), without control
/// or bidirectional characters (they could break or reorder the text around them).
pub(crate) fn shown(text: &str) -> String {
    const LONGEST: usize = 32;
    crate::request::clean_text(text, LONGEST)
}

/// An optional game id as the only argument.
fn optional_game(args: &[&str], usage: &'static str) -> Result<Option<GameId>, Sentence> {
    match args {
        [] => Ok(None),
        [id] => id.parse().map(Some).map_err(|_| {
            Sentence::new("refuse-bad-game-id")
                .arg("id", shown(id))
                .arg("usage", usage)
        }),
        _ => Err(Sentence::new("refuse-usage").arg("usage", usage)),
    }
}

/// "g7k2 (alice vs bob)" for lists.
fn game_line(record: &GameRecord) -> String {
    format!(
        "{} ({} – {})",
        record.id, record.first.name, record.second.name
    )
}

/// The caller's game, locked for this request and still running, with the caller's seat:
/// where `/move`, `/resign` and `/draw` all start. Refuses when the game is gone, the
/// caller does not play in it, or it is already over.
async fn my_running_game(
    ctx: &mut Ctx<'_>,
    explicit: Option<&GameId>,
    usage: &'static str,
    my_turn_first: bool,
) -> Step<(LoadedGame, Seat)> {
    let found = my_game(ctx, explicit, usage, my_turn_first).await?;
    ctx.lock_game(&found.id).await;
    let Some(loaded) = ctx.load_game(&found.id).await? else {
        return refuse(Sentence::new("refuse-no-such-game").arg("game", found.id.as_str()));
    };
    let user = ctx.user()?;
    let Some(seat) = loaded.record.seat_of(&user.id) else {
        return refuse(Sentence::new("refuse-not-a-player").arg("game", found.id.as_str()));
    };
    if let Some(outcome) = loaded.game.outcome() {
        let lang = ctx.lang();
        let result = outcome_text(ctx, lang, &loaded, outcome);
        return refuse(
            Sentence::new("refuse-game-over")
                .arg("game", found.id.as_str())
                .arg("result", result),
        );
    }
    Ok((loaded, seat))
}

/// A press under a board that is no longer the game's newest (`board` plies, the game has
/// moved on) is refused with the game as it stands: nobody resigns or offers a draw from a
/// position that is gone, and the buttons to press are under the newest board.
async fn refuse_old_board(ctx: &mut Ctx<'_>, loaded: &LoadedGame, board: Option<u32>) -> Step {
    let Some(board) = board else {
        return Ok(());
    };
    if usize::try_from(board).is_ok_and(|ply| ply == loaded.game.history_len()) {
        return Ok(());
    }
    let settings = ctx.chat_record(&loaded.record.chat).await?.settings;
    let state = crate::lifecycle::current_state(ctx, &settings, loaded);
    refuse(
        Sentence::new("refuse-board-old")
            .arg("game", loaded.record.id.as_str())
            .arg("state", state),
    )
}

/// The game a player means: the id they gave, or their only running game in this chat (in a
/// private chat: anywhere). With `my_turn_first` (`/move`), among several the only one where
/// they are to move. `usage` is the example shown when they must give an id.
async fn my_game(
    ctx: &Ctx<'_>,
    explicit: Option<&GameId>,
    usage: &'static str,
    my_turn_first: bool,
) -> Step<GameRecord> {
    let user = ctx.user()?;
    if let Some(id) = explicit {
        let Some(record) = ctx.game_record(id).await? else {
            return refuse(Sentence::new("refuse-no-such-game").arg("game", id.as_str()));
        };
        if record.seat_of(&user.id).is_none() {
            return refuse(Sentence::new("refuse-not-a-player").arg("game", id.as_str()));
        }
        return Ok(record);
    }
    let request = ctx.req()?;
    let chat = ctx.chat_record(&request.chat).await?;
    let candidate_ids = if request.is_private_chat {
        ctx.player_record(user).await?.games
    } else {
        chat.games.clone()
    };
    let mut mine = Vec::new();
    let mut others = Vec::new();
    for id in &candidate_ids {
        if let Some(record) = ctx.game_record(id).await? {
            if record.seat_of(&user.id).is_some() && record.is_active() {
                mine.push(record);
            } else if record.is_active() {
                others.push(record);
            }
        }
    }
    if my_turn_first && mine.len() > 1 {
        let mut my_turn = Vec::new();
        for record in &mine {
            if let Some(loaded) = ctx.load_game(&record.id).await?
                && loaded.game.outcome().is_none()
                && Some(our_seat(loaded.game.seat_to_move())) == record.seat_of(&user.id)
            {
                my_turn.push(record.clone());
            }
        }
        if my_turn.len() == 1 {
            return Ok(my_turn.remove(0));
        }
    }
    match mine.len() {
        1 => Ok(mine.remove(0)),
        0 if others.is_empty() => refuse(Sentence::new("refuse-no-game-here")),
        0 => refuse(Sentence::new("refuse-not-a-player-here").arg(
            "games",
            others.iter().map(game_line).collect::<Vec<_>>().join(", "),
        )),
        _ => refuse(
            Sentence::new("refuse-several-games")
                .arg(
                    "games",
                    mine.iter().map(game_line).collect::<Vec<_>>().join(", "),
                )
                .arg("usage", usage.replace("<id>", mine[0].id.as_str())),
        ),
    }
}

/// The game someone wants to look at: the id they gave, their own game here, the chat's only
/// running game, or (if `finished_too`) the chat's latest finished game.
async fn chat_game(
    ctx: &Ctx<'_>,
    explicit: Option<&GameId>,
    finished_too: bool,
    usage: &'static str,
) -> Step<GameRecord> {
    if let Some(id) = explicit {
        return match ctx.game_record(id).await? {
            Some(record) => Ok(record),
            None => refuse(Sentence::new("refuse-no-such-game").arg("game", id.as_str())),
        };
    }
    let user = ctx.user()?;
    let request = ctx.req()?;
    let chat = ctx.chat_record(&request.chat).await?;
    let mut ids = chat.games.clone();
    if request.is_private_chat {
        ids.extend(ctx.player_record(user).await?.games);
    }
    ids.extend(chat.watching.iter().cloned());
    let mut running = Vec::new();
    for id in &ids {
        if let Some(record) = ctx.game_record(id).await?
            && record.is_active()
            && !running.iter().any(|r: &GameRecord| r.id == record.id)
        {
            running.push(record);
        }
    }
    if let Some(i) = running.iter().position(|r| r.seat_of(&user.id).is_some())
        && running
            .iter()
            .filter(|r| r.seat_of(&user.id).is_some())
            .count()
            == 1
    {
        return Ok(running.remove(i));
    }
    match running.len() {
        1 => Ok(running.remove(0)),
        0 => {
            if finished_too
                && let Some(last) = chat.finished.last()
                && let Some(record) = ctx.game_record(last).await?
            {
                return Ok(record);
            }
            refuse(Sentence::new("refuse-no-game-here"))
        }
        _ => refuse(
            Sentence::new("refuse-several-games")
                .arg(
                    "games",
                    running.iter().map(game_line).collect::<Vec<_>>().join(", "),
                )
                .arg("usage", usage.replace("<id>", running[0].id.as_str())),
        ),
    }
}

/// The user a `@handle` names among those the platform resolved, or the only resolved user.
fn mentioned_user<'r>(ctx: &Ctx<'r>, handle: Option<&str>) -> Step<Option<&'r User>> {
    let mentioned = &ctx.req()?.mentioned;
    match handle {
        Some(handle) => match mentioned.iter().find(|u| u.answers_to(handle)) {
            Some(user) => Ok(Some(user)),
            None => refuse(Sentence::new("refuse-unknown-user").arg("handle", shown(handle))),
        },
        None => Ok(mentioned.first()),
    }
}

/// Refuses `option` (a challenge option only this release can store, such as
/// `secret-captures`) while processes of an older release share the store: the rolling
/// upgrade is not finalized yet (`jieqi_store::fleet`).
pub(crate) fn option_waits_for_upgrade(ctx: &Ctx<'_>, option: &str) -> Step {
    if ctx.inner.store.fleet() < crate::store::fleet::since::SECRET_CAPTURES {
        return refuse(Sentence::new("refuse-option-after-upgrade").arg("option", option));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_command_line_reads_as_understood_refused_or_ignored() {
        let translations = Translations::load();
        let read = |text| read_command_line(text, Some("JieqiBot"), &translations, Language::En);
        assert_eq!(read("/challenge jieqi red 1h"), LineReading::Understood);
        assert_eq!(read("hello there"), LineReading::Ignored);
        assert_eq!(read("/move@OtherBot h2e2"), LineReading::Ignored);
        match read("/frobnicate") {
            LineReading::Refused(reason) => assert!(reason.contains("/frobnicate"), "{reason}"),
            other => panic!("expected a refusal, got {other:?}"),
        }
    }
}
