//! A game's life as the chat sees it: the start (deal, commitment, first board, DMs), each
//! move (public board, private reveal), and the end (result, deal and proof, record,
//! ratings, the last board's buttons removed). Commands and timers call these; they only add records and
//! messages to the request's [`Ctx`].

use jieqi_rules::game::CapturedCoveredVisibleTo;
use jieqi_rules::{Game, Outcome, Variant, Viewer};

use crate::announce::{
    self, game_terms, move_number, move_text, player_label, public_picture, seat_of, side_key,
    side_of, variant_key,
};
use crate::board_buttons;
use crate::context::{Ctx, LoadedGame, Sentence, Step};
use crate::fairness::commitment;
use crate::i18n::Translations;
use crate::ids::{ChatId, GameId, Platform, User};
use crate::message::{Button, Destination, Message, MessageKind};
use crate::metrics::Event;
pub(crate) use crate::replay::apply_ending;
use crate::request::ButtonAction;
use crate::settings::{BoardMode, ChatSettings};
use crate::store::{
    BoardMoves, BoardPost, ChallengeRecord, ColourChoice, Ending, EngineSeat, GameRecord, Prompts,
    Seat, UnixTime,
};
use crate::{rated_games, ratings};

/// Starts the clock of the player to move at `ctx.now`: the next timer is their reminder,
/// when a tenth of their time is left, and after it their time-out. A live game's clock was
/// pressed already (`live_clock::press`): its next timer is the flag.
pub(crate) fn start_clock(ctx: &Ctx<'_>, record: &mut GameRecord) {
    if record.clock.is_some() {
        record.deadline = crate::live_clock::deadline_of(ctx, record);
        record.prompts.times_out_at = None;
        return;
    }
    let now = ctx.now;
    let times_out = now.saturating_add(record.move_time);
    let remind = times_out.saturating_sub(record.move_time / 10);
    if remind > now && remind < times_out {
        record.deadline = Some(remind);
        record.prompts.times_out_at = Some(times_out);
    } else {
        record.deadline = Some(times_out);
        record.prompts.times_out_at = None;
    }
}

/// When the player to move loses on time (None once the game is over).
pub(crate) fn times_out_at(record: &GameRecord) -> Option<UnixTime> {
    record
        .deadline
        .map(|due| record.prompts.times_out_at.unwrap_or(due))
}

/// "Move by 2023-11-14 22:13 UTC (about 3 hours left)." for the player to move.
pub(crate) fn deadline_line(
    ctx: &Ctx<'_>,
    lang: crate::i18n::Language,
    record: &GameRecord,
) -> Option<String> {
    let at = times_out_at(record)?;
    Some(
        ctx.say_in(
            lang,
            &Sentence::new("board-deadline")
                .arg("time", announce::clock_text(at))
                .arg(
                    "left",
                    announce::time_left_text(ctx, lang, at.saturating_sub(ctx.now)),
                ),
        ),
    )
}

/// The game as it stands, in a sentence or two for `lang`: its last move (in the chat's
/// notation) and who is to move. What a press under an old board is answered with.
pub(crate) fn current_state(ctx: &Ctx<'_>, settings: &ChatSettings, loaded: &LoadedGame) -> String {
    let mut lines = Vec::new();
    if let Some(last) = loaded.game.history_len().checked_sub(1) {
        lines.push(
            ctx.say_in(
                settings.language,
                &Sentence::new("board-last-move")
                    .arg("number", move_number(last))
                    .arg(
                        "move",
                        move_text(&loaded.game, last, settings.notation, Viewer::Public),
                    ),
            ) + ".",
        );
    }
    lines.extend(to_move_line(ctx, settings, loaded));
    lines.join(" ")
}

/// "Play in Discord" under a running game's boards in its Discord channel, when the
/// Activity is on: the adapter answers the press by launching the Activity there.
pub(crate) fn launch_button(
    ctx: &Ctx<'_>,
    settings: &ChatSettings,
    chat: &ChatId,
    id: &GameId,
) -> Option<Button> {
    let config = &ctx.inner.config;
    if chat.platform != Platform::Discord || !config.discord_activity {
        return None;
    }
    config.public_url.as_ref()?;
    config.web_secret.as_ref()?;
    Some(Button {
        label: ctx.say_in(settings.language, &Sentence::new("button-play-in-discord")),
        action: ButtonAction::PlayInDiscord(id.clone()),
        deep_link_accept: false,
    })
}

/// "bob (Black) to move." with a mention, or nothing once the game is over.
fn to_move_line(ctx: &Ctx<'_>, settings: &ChatSettings, loaded: &LoadedGame) -> Option<String> {
    if loaded.game.outcome().is_some() {
        return None;
    }
    let seat = announce::our_seat(loaded.game.seat_to_move());
    let mut line = ctx.say_in(
        settings.language,
        &Sentence::new("board-to-move")
            .arg("player", player_label(ctx, settings.language, loaded, seat)),
    );
    if loaded.game.view(Viewer::Public).check.is_some() {
        line.push(' ');
        line.push_str(&ctx.say_in(settings.language, &Sentence::new("board-check")));
    }
    if let Some(clocks) = crate::live_clock::clocks_line(ctx, settings.language, loaded) {
        line.push('\n');
        line.push_str(&clocks);
    } else if let Some(deadline) = deadline_line(ctx, settings.language, &loaded.record) {
        line.push(' ');
        line.push_str(&deadline);
    }
    Some(line)
}

/// What a board's caption starts with.
enum Caption<'a> {
    /// The game's first board: the closure writes its first lines for a chat.
    Start(&'a (dyn Fn(&Ctx<'_>, &ChatSettings, &LoadedGame) -> String + Sync)),
    /// The board after the move of this ply: it names the move.
    Moved(usize),
}

/// "12. C2.5 (h2e2) by alice (Red)": the move of `ply` as a board names it in `settings`'
/// language and notation.
fn move_item(ctx: &Ctx<'_>, settings: &ChatSettings, loaded: &LoadedGame, ply: usize) -> String {
    let mover = announce::our_seat(if ply.is_multiple_of(2) {
        jieqi_rules::game::Seat::First
    } else {
        jieqi_rules::game::Seat::Second
    });
    ctx.say_in(
        settings.language,
        &Sentence::new("board-move")
            .arg("number", move_number(ply))
            .arg(
                "move",
                move_text(&loaded.game, ply, settings.notation, Viewer::Public),
            )
            .arg(
                "player",
                player_label(ctx, settings.language, loaded, mover),
            ),
    )
}

/// The caption of a board after moves: "Game g7k2 · 12. … by alice; 12… … by bob", then
/// what follows the moves (who is to move). The same for one move as for several that a
/// newer board names in place of older ones (`outbox.rs`, coalescing).
pub(crate) fn moves_caption(tr: &Translations, game: &GameId, covers: &BoardMoves) -> String {
    let lang = covers.language;
    let separator = tr.text(lang, "board-moves-separator", &[]);
    let moves = covers.moves.join(&separator);
    let mut caption = tr.text(
        lang,
        "board-moves",
        &[
            ("game", game.as_str().into()),
            ("moves", moves.as_str().into()),
        ],
    );
    caption.push_str(&covers.rest);
    caption
}

/// Posts the current public board to every chat following the game, each in its own
/// language and settings: one post per chat and board. In per-move mode the board before
/// it in the home chat loses its buttons when the chat has room to spare (an edit in a lane
/// of its own, `board_buttons::grey_out`), and a press under an older board still showing
/// them is answered with the game as it stands; the newest loses its own when the game ends
/// (`finish_game`). Each move costs one platform call, and the greying only spare room.
async fn post_boards(ctx: &mut Ctx<'_>, loaded: &mut LoadedGame, what: Caption<'_>) -> Step {
    let chats: Vec<ChatId> = loaded.record.audience().cloned().collect();
    let to_move = announce::our_seat(loaded.game.seat_to_move());
    // The engine is not a platform user: nobody to ping.
    let mentions = if is_engine_seat(&loaded.record, to_move) {
        Vec::new()
    } else {
        vec![loaded.record.player(to_move).id.clone()]
    };
    for chat in chats {
        let settings = ctx.chat_record(&chat).await?.settings;
        let rest = to_move_line(ctx, &settings, loaded)
            .map(|line| format!("\n{line}"))
            .unwrap_or_default();
        // A live game's board after a move waits for its time in a group, standing in for
        // the one still waiting there (`live_boards.rs`).
        let hold = match &what {
            Caption::Moved(_) => {
                crate::live_boards::hold_for(ctx, &loaded.record, &chat, &settings).await?
            }
            Caption::Start(_) => None,
        };
        let stands_in_for = hold.as_ref().and_then(|h| h.stands_in_for.clone());
        let (caption, covers) = match &what {
            Caption::Start(head) => (head(ctx, &settings, loaded) + &rest, None),
            Caption::Moved(ply) => {
                let mut moves = stands_in_for
                    .as_ref()
                    .map(|(_, moves)| moves.clone())
                    .unwrap_or_default();
                moves.push(move_item(ctx, &settings, loaded, *ply));
                let covers = BoardMoves {
                    moves,
                    language: settings.language,
                    rest,
                };
                let caption = moves_caption(&ctx.inner.translations, &loaded.record.id, &covers);
                (caption, Some(covers))
            }
        };
        let home = chat == loaded.record.chat;
        let mut buttons = if home {
            board_buttons::game_buttons(
                ctx,
                &settings,
                &loaded.record.id,
                loaded.game.history_len(),
            )
        } else {
            Vec::new()
        };
        if home && loaded.game.outcome().is_none() {
            buttons.extend(board_buttons::play_button(
                ctx,
                &settings,
                &chat,
                &loaded.record.id,
            ));
            buttons.extend(launch_button(ctx, &settings, &chat, &loaded.record.id));
        }
        buttons.extend(board_buttons::page_link(
            ctx,
            &settings,
            &loaded.record.id,
            "button-watch-live",
        ));
        let picture = public_picture(ctx, loaded, &settings);
        let earlier = loaded.record.posts.iter().position(|p| p.chat == chat);
        let message = Message::text(
            Destination::Chat(chat.clone()),
            MessageKind::Board,
            &caption,
        )
        .about(&loaded.record.id)
        .with_buttons(buttons)
        .with_mentions(mentions.clone());
        let replaces = match (settings.board, earlier) {
            (BoardMode::Edited, Some(i)) => Some(loaded.record.posts[i].post),
            _ => None,
        };
        // A held board stood in for was never posted: no buttons of it to grey out.
        let stale = match (settings.board, earlier) {
            (BoardMode::PerMove, Some(i))
                if home && chat.platform != Platform::Local && stands_in_for.is_none() =>
            {
                Some(loaded.record.posts[i].post)
            }
            _ => None,
        };
        let stale_buttons = message.buttons.clone();
        let posted = ctx
            .post_board(message.replacing(replaces), picture, None, covers)
            .await?;
        if let Some(hold) = &hold {
            ctx.hold_until(posted, hold.until);
        }
        if let Some((held, _)) = stands_in_for {
            ctx.change.sent.push((
                held,
                crate::store::SentRecord {
                    platform_ref: None,
                    at: ctx.now,
                },
            ));
        }
        if let Some(stale) = stale {
            board_buttons::grey_out(ctx, &chat, &loaded.record.id, stale, stale_buttons).await?;
        }
        let entry = BoardPost {
            chat: chat.clone(),
            post: replaces.unwrap_or(posted),
            caption,
        };
        match earlier {
            Some(i) => loaded.record.posts[i] = entry,
            None => loaded.record.posts.push(entry),
        }
    }
    Ok(())
}

/// Edits an earlier board post to drop its buttons; its picture and caption stay as they
/// were delivered (an edit with no text changes only the buttons: the caption may have
/// named several moves).
async fn strip_buttons(
    ctx: &mut Ctx<'_>,
    post: &BoardPost,
    game: &GameId,
    had_buttons: bool,
) -> Step {
    if !had_buttons || !board_buttons::button_edits_allowed(ctx) {
        return Ok(());
    }
    let edit = Message::text(
        Destination::Chat(post.chat.clone()),
        MessageKind::Board,
        String::new(),
    )
    .about(game)
    .replacing(Some(post.post));
    ctx.post(edit, None).await?;
    Ok(())
}

/// Starts the game `challenge` asked for, with `acceptor` as the opponent. With `engine`
/// (level and seed), the acceptor is the built-in engine (`/play bot`): it gets no DMs.
pub(crate) async fn start_game(
    ctx: &mut Ctx<'_>,
    challenge: &ChallengeRecord,
    acceptor: &User,
    engine: Option<(jieqi_engine::Level, u64)>,
) -> Step<GameId> {
    let challenger_first = match challenge.colour {
        ColourChoice::Red => true,
        ColourChoice::Black => false,
        ColourChoice::Random => ctx.inner.coin(),
    };
    let (first, second) = if challenger_first {
        (challenge.challenger.clone(), acceptor.clone())
    } else {
        (acceptor.clone(), challenge.challenger.clone())
    };
    let secret = ctx.inner.secret(challenge.variant);
    let rules = crate::store::records::rules_of(
        challenge.variant,
        challenge.preset,
        challenge.secret_captures,
    );
    let deal_letters = secret.deal.letters();
    let game = Game::new(rules, secret.deal).map_err(|e| {
        crate::store::StoreError::Corrupt(format!("a fresh game could not start: {e}"))
    })?;
    let id = ctx.inner.game_id();
    let record = GameRecord {
        id: id.clone(),
        revision: 0,
        chat: challenge.chat.clone(),
        variant: challenge.variant,
        preset: challenge.preset,
        first,
        second,
        commitment: commitment(&deal_letters, &secret.salt),
        deal: deal_letters,
        salt: secret.salt,
        moves: Vec::new(),
        ending: None,
        move_time: challenge.move_time,
        deadline: None,
        draw_offer: None,
        posts: Vec::new(),
        watchers: Vec::new(),
        started_at: ctx.now,
        finished_at: None,
        engine: engine.map(|(level, seed)| EngineSeat {
            seat: if challenger_first {
                Seat::Second
            } else {
                Seat::First
            },
            level: level.name().to_owned(),
            seed,
        }),
        prompts: Prompts::default(),
        rules_revision: jieqi_rules::game::RULES_REVISION,
        secret_captures: challenge.secret_captures,
        verdict: None,
        clock: challenge
            .control
            .filter(jieqi_clock::TimeControl::is_live)
            .map(|control| crate::live_clock::new_clock(ctx, control)),
    };
    let mut loaded = LoadedGame { record, game };
    start_clock(ctx, &mut loaded.record);

    // Index the game under its chat and both players.
    let mut chat = ctx.chat_record(&challenge.chat).await?;
    chat.games.push(id.clone());
    ctx.save_chat(chat);
    for seat in [Seat::First, Seat::Second] {
        let user = loaded.record.player(seat).clone();
        let mut player = ctx.player_record(&user).await?;
        player.name = user.name.clone();
        player.games.push(id.clone());
        ctx.save_player(player);
    }

    let head = |ctx: &Ctx<'_>, settings: &ChatSettings, loaded: &LoadedGame| {
        let lang = settings.language;
        let mut text = ctx.say_in(
            lang,
            &Sentence::new("game-started")
                .arg("game", loaded.record.id.as_str())
                .arg("first", player_label(ctx, lang, loaded, Seat::First))
                .arg("second", player_label(ctx, lang, loaded, Seat::Second)),
        );
        text.push('\n');
        text.push_str(&game_terms(ctx, lang, &loaded.record));
        if loaded.record.variant != Variant::Xiangqi {
            text.push('\n');
            text.push_str(&ctx.say_in(
                lang,
                &Sentence::new("game-commitment").arg("commitment", &loaded.record.commitment),
            ));
        }
        text
    };
    post_boards(ctx, &mut loaded, Caption::Start(&head)).await?;

    // Tell both players privately, so they know their reveals will come there.
    let chat_lang = ctx.chat_record(&challenge.chat).await?.settings.language;
    for seat in [Seat::First, Seat::Second] {
        if is_engine_seat(&loaded.record, seat) {
            continue;
        }
        let user = loaded.record.player(seat).clone();
        let opponent = loaded.record.player(!seat).name.clone();
        let lang = Ctx::lang_of(&user, chat_lang);
        let side = match side_of(&loaded.game, seat) {
            Some(side) => ctx.say_in(lang, &Sentence::new(side_key(side))),
            None => ctx.say_in(
                lang,
                &Sentence::new(match seat {
                    Seat::First => "seat-first",
                    Seat::Second => "seat-second",
                }),
            ),
        };
        let mut text = ctx.say_in(
            lang,
            &Sentence::new("dm-game-started")
                .arg("game", id.as_str())
                .arg(
                    "variant",
                    ctx.say_in(lang, &Sentence::new(variant_key(loaded.record.variant))),
                )
                .arg("opponent", opponent)
                .arg("side", side),
        );
        if loaded.record.variant == Variant::Jieqi {
            text.push('\n');
            let key = if loaded.record.secret_captures {
                "dm-secret-captures"
            } else {
                "dm-reveals-here"
            };
            text.push_str(&ctx.say_in(lang, &Sentence::new(key)));
        }
        let message = Message::text(
            Destination::Private(user.id.clone()),
            MessageKind::GameStarted,
            text,
        )
        .about(&id);
        ctx.post(message, Some(challenge.chat.clone())).await?;
    }
    ctx.count(Event::GameStarted);
    ctx.save_loaded(loaded);
    Ok(id)
}

/// After a move was played on `loaded.game` (already in `loaded.record.moves`): the public
/// board, the capturer's private reveal, or the end of the game.
pub(crate) async fn after_move(ctx: &mut Ctx<'_>, mut loaded: LoadedGame) -> Step {
    let ply = loaded.game.ply().saturating_sub(1);
    ctx.count(Event::Move);
    if let Some((capturer, piece)) = loaded.game.captured_covered_by(ply)
        && loaded.game.rules().captured_covered_visible_to == CapturedCoveredVisibleTo::Capturer
        && let Some(seat) = seat_of(&loaded.game, capturer)
        && !is_engine_seat(&loaded.record, seat)
    {
        let user = loaded.record.player(seat).clone();
        let chat_settings = ctx.chat_record(&loaded.record.chat).await?.settings;
        let lang = Ctx::lang_of(&user, chat_settings.language);
        let settings = ChatSettings {
            language: lang,
            ..chat_settings
        };
        let piece_name = announce::piece_name(ctx, lang, piece);
        let text = ctx.say_in(
            lang,
            &Sentence::new("dm-reveal")
                .arg("game", loaded.record.id.as_str())
                .arg("number", move_number(ply))
                .arg(
                    "move",
                    move_text(
                        &loaded.game,
                        ply,
                        settings.notation,
                        Viewer::Player(capturer),
                    ),
                )
                .arg("piece", piece_name),
        );
        let personal = crate::announce::personal_settings(ctx, &user.id).await?;
        let picture = crate::announce::private_picture(ctx, personal, &loaded, capturer, &settings);
        let message = Message::text(
            Destination::Private(user.id.clone()),
            MessageKind::Reveal,
            text,
        )
        .about(&loaded.record.id);
        ctx.post_picture(message, picture, Some(loaded.record.chat.clone()))
            .await?;
    }
    if loaded.record.rules_revision < jieqi_rules::game::RULES_REVISION {
        announce_rules_revision(ctx, &mut loaded).await?;
    }
    if loaded.game.outcome().is_some() {
        if loaded.record.ending.is_none() {
            loaded.record.ending = Some(Ending::ByPlay);
        }
        return finish_game(ctx, loaded).await;
    }
    post_boards(ctx, &mut loaded, Caption::Moved(ply)).await?;
    ctx.save_loaded(loaded);
    Ok(())
}

/// A game started under an older rules revision goes on under the current one (the bot keeps
/// no old rules): its chat is told, once, what changed, and the record moves to the current
/// revision. See `docs/rules.md`, "Rules revisions".
async fn announce_rules_revision(ctx: &mut Ctx<'_>, loaded: &mut LoadedGame) -> Step {
    let from = loaded.record.rules_revision;
    let to = jieqi_rules::game::RULES_REVISION;
    let changes: Vec<&str> = jieqi_rules::game::changes_since(from)
        .map(|note| note.change)
        .collect();
    let settings = ctx.chat_record(&loaded.record.chat).await?.settings;
    let text = ctx.say_in(
        settings.language,
        &Sentence::new("rules-revised")
            .arg("game", loaded.record.id.as_str())
            .arg("from", u64::from(from))
            .arg("to", u64::from(to))
            .arg("changes", changes.join(" ")),
    );
    let message = Message::text(
        Destination::Chat(loaded.record.chat.clone()),
        MessageKind::Notice,
        text,
    )
    .about(&loaded.record.id);
    ctx.post(message, None).await?;
    loaded.record.rules_revision = to;
    Ok(())
}

/// True if the built-in engine plays `seat` (it never gets private messages).
pub(crate) fn is_engine_seat(record: &GameRecord, seat: Seat) -> bool {
    record.engine.as_ref().is_some_and(|e| e.seat == seat)
}

/// Settles a pending draw offer: its post loses the button and says how it ended.
pub(crate) async fn settle_draw_offer(
    ctx: &mut Ctx<'_>,
    loaded: &mut LoadedGame,
    how: &'static str,
) -> Step {
    let Some(offer) = loaded.record.draw_offer.take() else {
        return Ok(());
    };
    if let Some(post) = offer.post {
        let settings = ctx.chat_record(&loaded.record.chat).await?.settings;
        let text = ctx.say_in(
            settings.language,
            &Sentence::new(how)
                .arg("game", loaded.record.id.as_str())
                .arg("player", loaded.record.player(offer.by).name.clone()),
        );
        let edit = Message::text(
            Destination::Chat(loaded.record.chat.clone()),
            MessageKind::DrawOffer,
            text,
        )
        .about(&loaded.record.id)
        .replacing(Some(post));
        ctx.post(edit, None).await?;
    }
    Ok(())
}

/// The end: result posts, proof, record, ratings, indexes. `loaded.game` has its outcome and
/// `loaded.record.ending` says how it came.
pub(crate) async fn finish_game(ctx: &mut Ctx<'_>, mut loaded: LoadedGame) -> Step {
    let Some(outcome) = loaded.game.outcome() else {
        return Ok(());
    };
    loaded.record.deadline = None;
    loaded.record.prompts.times_out_at = None;
    loaded.record.finished_at = Some(ctx.now);
    if let Some(clock) = &mut loaded.record.clock {
        clock.stop(ctx.clock_now);
    }
    // The result as announced below: what the game shows from now on, whatever the rules
    // judge later.
    loaded.record.verdict = Some(outcome.into());
    settle_draw_offer(ctx, &mut loaded, "draw-offer-closed").await?;
    let id = loaded.record.id.clone();
    let reveal =
        loaded.game.rules().reveal_deal_at_end && loaded.record.variant != Variant::Xiangqi;

    // Games against the built-in engine are not rated, nor those of an unrated tournament.
    let event = crate::tournament_play::tournament_of(ctx, &loaded.record).await?;
    let unrated_event = event.as_ref().is_some_and(|t| !t.rated);
    // A tournament game a side never moved in is that side's forfeit, not a game called off.
    let forfeit = event
        .as_ref()
        .and_then(|t| crate::tournament_play::forfeiting_seat(&loaded, outcome).map(|s| (t, s)))
        .map(|(t, seat)| (t.id.clone(), seat));
    let rated =
        !matches!(outcome, Outcome::Aborted) && loaded.record.engine.is_none() && !unrated_event;
    let mut first = ctx.player_record(&loaded.record.first).await?;
    let mut second = ctx.player_record(&loaded.record.second).await?;
    let first_score = rated.then(|| match outcome.winner() {
        None => ratings::Score::Draw,
        Some(winner) if seat_of(&loaded.game, winner) == Some(Seat::First) => ratings::Score::Win,
        Some(_) => ratings::Score::Loss,
    });
    // In the game's variant and speed (`rated_games`).
    let change = rated_games::rate(&loaded.record, &mut first, &mut second, first_score);

    let chats: Vec<ChatId> = loaded.record.audience().cloned().collect();
    for chat in chats {
        let settings = ctx.chat_record(&chat).await?.settings;
        let lang = settings.language;
        let home = chat == loaded.record.chat;
        let picture = public_picture(ctx, &loaded, &settings);
        if let Some(i) = loaded.record.posts.iter().position(|p| p.chat == chat) {
            let post = loaded.record.posts[i].clone();
            match settings.board {
                BoardMode::PerMove => strip_buttons(ctx, &post, &id, home).await?,
                BoardMode::Edited => {
                    let edit = Message::text(
                        Destination::Chat(chat.clone()),
                        MessageKind::Board,
                        ctx.say_in(lang, &Sentence::new("board-final").arg("game", id.as_str())),
                    )
                    .about(&id)
                    .replacing(Some(post.post));
                    ctx.post_picture(edit, picture.clone(), None).await?;
                }
            }
        }
        let mut text = ctx.say_in(lang, &Sentence::new("result-head").arg("game", id.as_str()));
        text.push('\n');
        match &forfeit {
            Some((event, seat)) => text.push_str(
                &ctx.say_in(
                    lang,
                    &Sentence::new("result-tournament-forfeit")
                        .arg("player", announce::player_label(ctx, lang, &loaded, *seat))
                        .arg("id", event.as_str()),
                ),
            ),
            None => text.push_str(&announce::outcome_text(ctx, lang, &loaded, outcome)),
        }
        // The move that ended it (the mate, say): the result is about that position.
        if let Some(last) = loaded.game.history_len().checked_sub(1) {
            text.push('\n');
            text.push_str(
                &ctx.say_in(
                    lang,
                    &Sentence::new("board-last-move")
                        .arg("number", move_number(last))
                        .arg(
                            "move",
                            move_text(&loaded.game, last, settings.notation, Viewer::Public),
                        ),
                ),
            );
        }
        if rated {
            text.push('\n');
            text.push_str(&rated_games::changes_text(
                ctx,
                lang,
                &loaded.record,
                &change,
            ));
        }
        if reveal {
            text.push('\n');
            text.push_str(&announce::deal_proof(ctx, lang, &loaded.record));
        }
        let mentions = [Seat::First, Seat::Second]
            .into_iter()
            .filter(|&seat| !is_engine_seat(&loaded.record, seat))
            .map(|seat| loaded.record.player(seat).id.clone())
            .collect();
        // A finished game can be reviewed (`/review`); an aborted one has nothing to judge.
        let review =
            (!matches!(outcome, Outcome::Aborted) && loaded.game.history_len() > 0).then(|| {
                Button {
                    label: ctx.say_in(lang, &Sentence::new("button-review")),
                    action: ButtonAction::Review(id.clone()),
                    deep_link_accept: false,
                }
            });
        // The same game again, colours swapped (`/rematch`): asked for in the game's chat.
        let rematch = if home {
            board_buttons::rematch_button(ctx, &settings, &loaded.record).await?
        } else {
            None
        };
        let result = Message::text(Destination::Chat(chat.clone()), MessageKind::Result, text)
            .about(&id)
            .with_mentions(mentions)
            .with_buttons(
                rematch
                    .into_iter()
                    .chain(review)
                    .chain(board_buttons::page_link(
                        ctx,
                        &settings,
                        &id,
                        "button-replay",
                    ))
                    .collect(),
            );
        ctx.post_picture(result, picture, None).await?;
        if loaded.game.history_len() > 0 {
            let record = if reveal {
                announce::full_record_text(&loaded.record)
            } else {
                announce::record_text(&loaded.game, settings.notation, Viewer::Public)
            };
            let text = ctx.say_in(
                lang,
                &Sentence::new("result-record")
                    .arg("game", id.as_str())
                    .arg("moves", record),
            );
            ctx.post(
                Message::text(Destination::Chat(chat.clone()), MessageKind::History, text)
                    .about(&id),
                None,
            )
            .await?;
        }
        // Watchers stop following a finished game.
        if !home {
            let mut watcher = ctx.chat_record(&chat).await?;
            if watcher.watching.contains(&id) {
                watcher.watching.retain(|g| *g != id);
                ctx.save_chat(watcher);
            }
        }
    }

    // Nothing edits a finished game's posts again: a finished game keeps only its facts.
    loaded.record.posts.clear();

    // Indexes: the chat's running games, its finished list and leaderboard, the players.
    let mut chat = ctx.chat_record(&loaded.record.chat).await?;
    chat.games.retain(|g| *g != id);
    chat.finished.retain(|g| *g != id);
    chat.finished.push(id.clone());
    if chat.finished.len() > 20 {
        chat.finished.remove(0);
    }
    if rated {
        for user in [&loaded.record.first.id, &loaded.record.second.id] {
            if !chat.players.contains(user) {
                chat.players.push(user.clone());
            }
        }
    }
    ctx.save_chat(chat);
    first.games.retain(|g| *g != id);
    second.games.retain(|g| *g != id);
    ctx.save_player(first);
    ctx.save_player(second);
    ctx.count(Event::GameFinished);
    // A tournament game's result counts in its event, in this same change (and may pair
    // the next round, or end the event).
    let winner = match outcome {
        Outcome::Aborted => None,
        _ => Some(
            outcome
                .winner()
                .and_then(|side| seat_of(&loaded.game, side)),
        ),
    };
    let record = loaded.record.clone();
    ctx.save_loaded(loaded);
    let score = crate::tournament_play::first_score(&record, winner);
    crate::tournament_play::game_over(ctx, &record, score).await
}
