//! Puzzles through the chat: asking for one, solving and failing it, a group solving
//! together, the daily puzzle, `/stats`, and a puzzle that survives a restart or a repeated
//! update.

use super::common;

use std::time::Duration;

use common::puzzles::{ask, dm, posted_puzzle, shipped, typed};
use common::*;
use jieqi_puzzles::Puzzle;
use jieqi_service::{ChatId, DealSource, Destination, Input, Message, MessageKind, OutboxEntry};

fn results(entries: &[OutboxEntry]) -> Vec<&Message> {
    of_kind(entries, MessageKind::Result)
}

/// Plays the stored solution in `chat` as `who`, delivering after each move; returns what
/// was delivered.
async fn play_solution(
    h: &mut Harness,
    who: &jieqi_service::User,
    chat: &ChatId,
    puzzle: &Puzzle,
) -> Vec<OutboxEntry> {
    let mut delivered = Vec::new();
    for mv in puzzle.solution.iter().step_by(2) {
        let answer = h
            .say(who, chat, &format!("/move {}", typed(puzzle, mv)))
            .await;
        not_refused(&answer);
        delivered.extend(h.deliver().await);
    }
    delivered
}

async fn stats_text(h: &mut Harness, who: &jieqi_service::User, chat: &ChatId) -> String {
    let answer = h.say(who, chat, "/stats").await;
    answer.replies[0].text.clone()
}

#[tokio::test]
async fn a_puzzle_is_posted_from_the_solvers_side_and_solved_with_moves() {
    let set = shipped();
    let mut h = Harness::new(DealSource::Seeded(1)).await;
    let ann = user("ann");
    let chat = dm("ann");
    let answer = h.say(&ann, &chat, "/puzzle xiangqi").await;
    assert!(answer.replies.is_empty(), "{answer:#?}");
    let posted = h.deliver().await;
    let puzzle = posted_puzzle(&set, &posted);
    assert_eq!(puzzle.variant, jieqi_rules::Variant::Xiangqi);
    let board = &posted[0].message;
    assert_eq!(board.to, Destination::Chat(chat.clone()));
    assert!(
        board.text.contains(&puzzle.task().to_string()),
        "{}",
        board.text
    );
    let png = &board.image.as_ref().expect("a picture").bytes;
    assert!(png.starts_with(b"\x89PNG"));

    let delivered = play_solution(&mut h, &ann, &chat, puzzle).await;
    let result = results(&delivered);
    assert_eq!(result.len(), 1, "{delivered:#?}");
    assert!(
        result[0].text.contains("solved puzzle"),
        "{}",
        result[0].text
    );
    let whole: Vec<String> = puzzle.solution.clone();
    assert!(
        whole.iter().all(|m| result[0].text.contains(m.as_str())),
        "the whole solution is shown: {}",
        result[0].text
    );
    let stats = stats_text(&mut h, &ann, &chat).await;
    assert!(
        stats.contains("1 solved, 0 failed; streak 1, best 1"),
        "{stats}"
    );
    // The puzzle learned from the solve: it now rates a little easier than its estimate.
    let learned = h
        .store
        .player(&jieqi_service::UserId::new(
            jieqi_service::Platform::Local,
            format!("~puzzle:{}", puzzle.id),
        ))
        .await
        .expect("the store")
        .expect("the puzzle's rating record");
    assert!(learned.puzzle.rating.rating < f64::from(puzzle.rating));

    // The puzzle is over: another move says so.
    let late = h.say(&ann, &chat, "/move h2e2").await;
    assert!(refusal(&late).contains("is over"), "{}", refusal(&late));
}

#[tokio::test]
async fn a_wrong_move_fails_the_puzzle_naming_the_expected_move() {
    let set = shipped();
    let mut h = Harness::new(DealSource::Seeded(2)).await;
    let bob = user("bob");
    let chat = dm("bob");
    let puzzle = ask(&mut h, &set, &bob, &chat, "/puzzle").await;
    let expected = typed(puzzle, &puzzle.solution[0]);
    let legal = h.service.legal_move_texts(&chat, &bob.id).await;
    assert!(
        legal.contains(&expected),
        "autocomplete offers the puzzle's moves"
    );
    let wrong = legal
        .iter()
        .find(|m| **m != expected)
        .expect("another move");
    h.say(&bob, &chat, &format!("/move {wrong}")).await;
    let delivered = h.deliver().await;
    let result = results(&delivered);
    assert_eq!(result.len(), 1, "{delivered:#?}");
    assert!(
        result[0].text.contains(&format!("the move was {expected}")),
        "{}",
        result[0].text
    );
    let stats = stats_text(&mut h, &bob, &chat).await;
    assert!(stats.contains("0 solved, 1 failed; streak 0"), "{stats}");
    let rating: f64 = stats
        .split("Puzzles: ")
        .nth(1)
        .and_then(|s| s.split_whitespace().next())
        .and_then(|s| s.parse().ok())
        .expect("a rating");
    assert!(rating < 1500.0, "{stats}");
}

#[tokio::test]
async fn bad_puzzle_input_is_refused_saying_what_is_wrong() {
    let mut h = Harness::new(DealSource::Seeded(3)).await;
    let cat = user("cat");
    let chat = group("g-bad");
    let none = h.say(&cat, &chat, "/move h2e2").await;
    assert!(
        refusal(&none).contains("No game of yours"),
        "{}",
        refusal(&none)
    );
    for (line, says) in [
        ("/puzzle chess", "do not understand “chess”"),
        ("/puzzle daily 25", "“25” is not an hour"),
        ("/puzzle jieqi now", "Write it like this"),
    ] {
        let answer = h.say(&cat, &chat, line).await;
        assert!(
            refusal(&answer).contains(says),
            "{line}: {}",
            refusal(&answer)
        );
    }
    h.say(&cat, &chat, "/puzzle").await;
    h.deliver().await;
    let gibberish = h.say(&cat, &chat, "/move zz99").await;
    assert!(
        refusal(&gibberish).contains("“zz99” is not a move in this puzzle"),
        "{}",
        refusal(&gibberish)
    );
    // Nothing was judged: the puzzle is still open, nobody was rated.
    let stats = stats_text(&mut h, &cat, &chat).await;
    assert!(!stats.contains("Puzzles:"), "{stats}");
}

#[tokio::test]
async fn in_a_group_a_wrong_answer_fails_only_its_author_and_the_first_right_line_solves() {
    let set = shipped();
    let mut h = Harness::new(DealSource::Seeded(4)).await;
    let (ann, bob, cat) = (user("ann"), user("bob"), user("cat"));
    let chat = group("g-club");
    let puzzle = ask(&mut h, &set, &ann, &chat, "/puzzle xiangqi").await;
    let expected = typed(puzzle, &puzzle.solution[0]);
    let legal = h.service.legal_move_texts(&chat, &bob.id).await;
    let wrong = legal
        .iter()
        .find(|m| **m != expected)
        .expect("another move");

    let told = h.say(&bob, &chat, &format!("/move {wrong}")).await;
    assert_eq!(told.replies.len(), 1, "{told:#?}");
    assert_eq!(
        told.replies[0].to,
        Destination::ReplyToRequester { ephemeral: true }
    );
    assert!(told.replies[0].text.contains("counts as failed for you"));
    assert!(
        !told.replies[0].text.contains(&expected),
        "the answer is not given away"
    );
    assert!(h.deliver().await.is_empty(), "the chat is not told");
    let again = h.say(&bob, &chat, &format!("/move {expected}")).await;
    assert!(
        refusal(&again).contains("already wrong"),
        "{}",
        refusal(&again)
    );

    let delivered = play_solution(&mut h, &cat, &chat, puzzle).await;
    let result = results(&delivered);
    assert_eq!(result.len(), 1);
    assert_eq!(result[0].to, Destination::Chat(chat.clone()));
    assert!(
        result[0].text.starts_with("cat solved puzzle"),
        "{}",
        result[0].text
    );
    assert!(stats_text(&mut h, &cat, &chat).await.contains("1 solved"));
    assert!(stats_text(&mut h, &bob, &chat).await.contains("1 failed"));
    assert!(
        !stats_text(&mut h, &ann, &chat).await.contains("Puzzles:"),
        "asking is not answering"
    );
}

#[tokio::test]
async fn a_puzzle_in_progress_survives_a_restart() {
    let set = shipped();
    let mut h = Harness::new(DealSource::Seeded(5)).await;
    let dan = user("dan");
    let chat = dm("dan");
    // Ask until a puzzle of two moves or more comes up (each new one replaces the last).
    let mut puzzle = None;
    for variant in ["xiangqi", "jieqi", "banqi"].iter().cycle().take(60) {
        let candidate = ask(&mut h, &set, &dan, &chat, &format!("/puzzle {variant}")).await;
        if candidate.moves >= 2 {
            puzzle = Some(candidate);
            break;
        }
    }
    let puzzle = puzzle.expect("a puzzle of two moves among sixty");
    let first = typed(puzzle, &puzzle.solution[0]);
    h.say(&dan, &chat, &format!("/move {first}")).await;
    let reply = h.deliver().await;
    assert!(
        reply[0].message.text.contains(&puzzle.solution[1]),
        "the bot answers with the stored reply: {}",
        reply[0].message.text
    );
    h.restart().await;
    for mv in puzzle.solution.iter().skip(2).step_by(2) {
        let answer = h
            .say(&dan, &chat, &format!("/move {}", typed(puzzle, mv)))
            .await;
        assert!(answer.replies.is_empty(), "{answer:#?}");
    }
    let delivered = h.deliver().await;
    assert!(
        results(&delivered)
            .iter()
            .any(|m| m.text.contains("solved puzzle")),
        "{delivered:#?}"
    );
}

#[tokio::test]
async fn a_repeated_answer_is_judged_once() {
    let set = shipped();
    let mut h = Harness::new(DealSource::Seeded(6)).await;
    let eve = user("eve");
    let chat = dm("eve");
    let puzzle = ask(&mut h, &set, &eve, &chat, "/puzzle xiangqi").await;
    let request = h.request(
        &eve,
        &chat,
        Input::Text(format!("/move {}", typed(puzzle, &puzzle.solution[0]))),
        Vec::new(),
    );
    let first = h.service.handle(request.clone()).await;
    let after_first = h.deliver().await;
    let second = h.service.handle(request).await;
    assert_eq!(first, second);
    assert!(h.deliver().await.is_empty(), "nothing is posted twice");
    assert_eq!(after_first.len(), 1);
    let stats = stats_text(&mut h, &eve, &chat).await;
    let solved_once = if puzzle.moves == 1 {
        "1 solved"
    } else {
        "Ratings"
    };
    assert!(stats.contains(solved_once), "{stats}");
    assert!(!stats.contains("2 solved"), "{stats}");
}

#[tokio::test]
async fn only_admins_set_the_daily_puzzle_and_it_is_posted_once_a_day() {
    let mut h = Harness::new(DealSource::Seeded(7)).await;
    let (ann, bob) = (user("ann"), user("bob"));
    let chat = group("g-daily");
    h.non_admins.push(bob.id.clone());
    let refused = h.say(&bob, &chat, "/puzzle daily 18").await;
    assert!(refusal(&refused).contains("Only the chat's admins"));
    let shown = h.say(&bob, &chat, "/puzzle daily").await;
    assert!(shown.replies[0].text.contains("no daily puzzle"));

    // T0 is 22:13 UTC: 18:00 has passed today, so the first comes tomorrow.
    let set = h.say(&ann, &chat, "/puzzle daily 18").await;
    assert!(set.replies[0].text.contains("18:00 UTC"), "{set:#?}");
    let daily = |entries: &[OutboxEntry]| {
        entries
            .iter()
            .filter(|e| e.message.text.starts_with("Today's puzzle"))
            .count()
    };
    h.tick().await;
    assert_eq!(daily(&h.deliver().await), 0, "not yet");
    let until_18 = (24 + 18) * 3600 - (T0 % 86_400);
    h.advance(Duration::from_secs(until_18 - 60));
    h.tick().await;
    assert_eq!(daily(&h.deliver().await), 0, "a minute early");
    h.advance(Duration::from_secs(60));
    h.tick().await;
    h.tick().await;
    assert_eq!(daily(&h.deliver().await), 1, "once at 18:00");
    // A second process (here: the same store after a restart) does not post it again.
    h.restart().await;
    h.advance(Duration::from_secs(3600));
    h.tick().await;
    assert_eq!(daily(&h.deliver().await), 0, "once a day");
    h.advance(Duration::from_secs(23 * 3600));
    h.tick().await;
    let next_day = h.deliver().await;
    assert_eq!(daily(&next_day), 1, "the next day");
    assert!(
        next_day
            .iter()
            .any(|e| e.message.text.starts_with("Puzzle")
                && e.message.text.contains("ends unsolved")),
        "yesterday's unsolved puzzle is closed with its solution"
    );

    h.say(&ann, &chat, "/puzzle daily off").await;
    h.advance(Duration::from_secs(2 * 86_400));
    h.tick().await;
    assert_eq!(daily(&h.deliver().await), 0, "off");
}

#[tokio::test]
async fn a_move_in_a_chat_with_a_game_and_a_puzzle_goes_to_the_game() {
    let mut h = Harness::new(DealSource::Scripted {
        seed: 8,
        deals: vec![IDENTITY_DEAL.to_owned()],
    })
    .await;
    let (ann, bob) = (user("ann"), user("bob"));
    let chat = group("g-both");
    h.say_mentioning(
        &ann,
        &chat,
        "/challenge @bob xiangqi red",
        vec![bob.clone()],
    )
    .await;
    let challenge = h.deliver().await;
    let accept = challenge[0].message.buttons[0].action.clone();
    h.press(&bob, &chat, accept).await;
    h.say(&ann, &chat, "/puzzle").await;
    h.deliver().await;
    let answer = h.say(&ann, &chat, "/move h2e2").await;
    not_refused(&answer);
    let delivered = h.deliver().await;
    assert!(
        delivered.iter().any(|e| e.message.game.is_some()),
        "the game moved: {delivered:#?}"
    );
    assert!(
        results(&delivered).is_empty(),
        "the puzzle was not answered"
    );
}
