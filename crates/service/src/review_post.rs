//! A review as the chat sees it: a summary with the evaluation graph and each player's
//! accuracy, then each player's costliest moves (up to three), each on the board as its
//! mover saw it (covered pieces covered, from the mover's side), the move played, the
//! engine's move and what the difference cost, in the chat's notation.

use jieqi_render::{EvaluationGraph, GraphMark};
use jieqi_review::{Colour, GameReview, Judgement, MoveVerdict, judge};
use jieqi_rules::{Game, GameDeal, Rules, Side, Variant, Viewer};

use crate::announce::{move_number, move_text, player_label, side_of};
use crate::context::{Ctx, Sentence, Step};
use crate::i18n::Language;
use crate::ids::ChatId;
use crate::message::{Destination, Image, Message, MessageKind};
use crate::replay::LoadedGame;
use crate::settings::{ChatSettings, Notation};
use crate::store::{GameRecord, Seat, StoreError};

/// Costly moves shown per player.
const COSTLIEST: usize = 3;
/// The graph's width in pixels: readable on a phone, small enough to send quickly.
const GRAPH_WIDTH: u32 = 720;

/// Queues the posts of `review` (of the finished game `record`) in `chat`.
pub(crate) async fn post_review(
    ctx: &mut Ctx<'_>,
    chat: &ChatId,
    record: &GameRecord,
    review: &GameReview,
) -> Step {
    let settings = ctx.chat_record(chat).await?.settings;
    let lang = settings.language;
    let rules = Rules::new(record.variant, record.preset);
    let deal = GameDeal::from_letters(record.variant, &record.deal).map_err(corrupt)?;
    let game = Game::replay(rules.clone(), deal.clone(), &record.moves).map_err(corrupt)?;
    let loaded = LoadedGame {
        record: record.clone(),
        game,
    };
    let id = record.id.as_str();
    let names = Names::read(ctx, lang, &loaded);

    let mut text = ctx.say_in(
        lang,
        &Sentence::new("review-head")
            .arg("game", id)
            .arg("first", names.first_label.clone())
            .arg("second", names.second_label.clone()),
    );
    text.push('\n');
    let fairness = if record.variant == Variant::Xiangqi {
        "review-judged"
    } else {
        "review-judged-hidden"
    };
    text.push_str(&ctx.say_in(lang, &Sentence::new(fairness)));
    for colour in [Colour::Red, Colour::Black] {
        let Some(name) = names.name(colour) else {
            continue;
        };
        let count = |j: Judgement| {
            review
                .moves_of(colour)
                .filter(|m| m.judgement() == j)
                .count()
        };
        text.push('\n');
        text.push_str(
            &ctx.say_in(
                lang,
                &Sentence::new("review-player")
                    .arg("player", name.to_owned())
                    .arg("accuracy", percent(review.accuracy(colour)))
                    .arg("blunders", count(Judgement::Blunder))
                    .arg("mistakes", count(Judgement::Mistake))
                    .arg("inaccuracies", count(Judgement::Inaccuracy)),
            ),
        );
    }
    let graph = graph_png(review, &names, ctx, lang);
    let summary = Message::text(Destination::Chat(chat.clone()), MessageKind::Review, text)
        .about(&record.id)
        .with_image(graph.map(|bytes| Image {
            bytes,
            file_name: format!("{id}-review.png"),
        }));
    // Without a recipe the graph's bytes stay with the message until it is delivered.
    ctx.post(summary, None).await?;

    for colour in [Colour::Red, Colour::Black] {
        let Some(name) = names.name(colour).map(str::to_owned) else {
            continue;
        };
        for verdict in review.costliest(colour, COSTLIEST) {
            post_costly_move(
                ctx,
                chat,
                &loaded,
                &settings,
                (&rules, &deal),
                &name,
                verdict,
            )
            .await?;
        }
    }
    Ok(())
}

/// One costly move, on the board as its mover saw it before playing it.
async fn post_costly_move(
    ctx: &mut Ctx<'_>,
    chat: &ChatId,
    loaded: &LoadedGame,
    settings: &ChatSettings,
    (rules, deal): (&Rules, &GameDeal),
    name: &str,
    verdict: &MoveVerdict,
) -> Step {
    let lang = settings.language;
    let Some(colour) = verdict.mover else {
        return Ok(());
    };
    let side = Side::from(colour);
    let ply = usize::try_from(verdict.ply).unwrap_or(usize::MAX);
    let before = loaded.record.moves.get(..ply).ok_or_else(|| {
        StoreError::Corrupt(format!(
            "review of {} names a move it does not have",
            loaded.record.id
        ))
    })?;
    let then = LoadedGame {
        record: loaded.record.clone(),
        game: Game::replay(rules.clone(), deal.clone(), before).map_err(corrupt)?,
    };
    let width = ctx.inner.config.board_width;
    let picture = crate::pictures::draw(&then, Viewer::Player(side), side, settings, width);
    let played = move_text(&loaded.game, ply, settings.notation, Viewer::Public);
    let best = verdict
        .best
        .as_deref()
        .map(|best| best_text(&then.game, side, best, settings.notation))
        .unwrap_or_default();
    let judgement = ctx.say_in(lang, &Sentence::new(judgement_key(verdict.judgement())));
    let text = ctx.say_in(
        lang,
        &Sentence::new("review-costly")
            .arg("number", move_number(ply))
            .arg("player", name.to_owned())
            .arg("played", played)
            .arg("best", best)
            .arg("drop", format!("{:.0}", verdict.win_drop()))
            .arg("judgement", judgement),
    );
    let message = Message::text(Destination::Chat(chat.clone()), MessageKind::Review, text)
        .about(&loaded.record.id);
    ctx.post_picture(message, picture, None).await?;
    Ok(())
}

/// The engine's move in the chat's notation as the mover would have written it: without
/// anything it would reveal, which the mover could not know.
fn best_text(game: &Game, side: Side, best: &str, notation: Notation) -> String {
    if game.variant() == Variant::Banqi || notation == Notation::Coordinates {
        return best.to_owned();
    }
    let view = game.view(Viewer::Player(side));
    let written = jieqi_rules::notation::fen::read_setup(&view.fen)
        .ok()
        .zip(jieqi_rules::notation::uci::parse(best).ok())
        .map(|(setup, (mv, _))| {
            jieqi_rules::notation::write_move(&setup, mv, None, notation.move_notation())
        });
    match written {
        Some(main) if main != best => format!("{main} ({best})"),
        _ => best.to_owned(),
    }
}

fn judgement_key(judgement: Judgement) -> &'static str {
    match judgement {
        Judgement::Good => "review-good",
        Judgement::Inaccuracy => "review-inaccuracy",
        Judgement::Mistake => "review-mistake",
        Judgement::Blunder => "review-blunder",
    }
}

/// An accuracy as `87.3`, or `–` for a player with no judged move.
fn percent(accuracy: Option<f64>) -> String {
    accuracy.map_or_else(|| "–".to_owned(), |a| format!("{a:.1}"))
}

/// The players' names by colour, and their labels for the head line.
struct Names {
    red: Option<String>,
    black: Option<String>,
    first_label: String,
    second_label: String,
}

impl Names {
    fn read(ctx: &Ctx<'_>, lang: Language, loaded: &LoadedGame) -> Names {
        let mut names = Names {
            red: None,
            black: None,
            first_label: player_label(ctx, lang, loaded, Seat::First),
            second_label: player_label(ctx, lang, loaded, Seat::Second),
        };
        for seat in [Seat::First, Seat::Second] {
            let name = loaded.record.player(seat).name.clone();
            match side_of(&loaded.game, seat) {
                Some(Side::Red) => names.red = Some(name),
                Some(Side::Black) => names.black = Some(name),
                None => {}
            }
        }
        names
    }

    fn name(&self, colour: Colour) -> Option<&str> {
        match colour {
            Colour::Red => self.red.as_deref(),
            Colour::Black => self.black.as_deref(),
        }
    }
}

/// The evaluation graph: Red's win chance after each move, the costliest moves marked, both
/// players named with their accuracy.
fn graph_png(review: &GameReview, names: &Names, ctx: &Ctx<'_>, lang: Language) -> Option<Vec<u8>> {
    let points: Vec<f32> = review
        .evaluation_red()
        .into_iter()
        .map(|v| (judge::win_percent(jieqi_review::Eval::Centi(v)) / 100.0) as f32)
        .collect();
    let mut marks = Vec::new();
    for colour in [Colour::Red, Colour::Black] {
        for verdict in review.costliest(colour, COSTLIEST) {
            marks.push(GraphMark {
                point: usize::try_from(verdict.ply)
                    .unwrap_or(usize::MAX)
                    .saturating_add(1),
                mover: Side::from(colour),
            });
        }
    }
    let label = |colour: Colour, key: &'static str| {
        let side = ctx.say_in(lang, &Sentence::new(key));
        let name = names.name(colour).unwrap_or("?");
        format!("{side}: {name} · {}", percent(review.accuracy(colour)))
    };
    let red_label = label(Colour::Red, "side-red");
    let black_label = label(Colour::Black, "side-black");
    let graph = EvaluationGraph {
        points: &points,
        marks: &marks,
        red_label: &red_label,
        black_label: &black_label,
        width: GRAPH_WIDTH,
    };
    match jieqi_render::render_graph(&graph) {
        Ok(png) => Some(png),
        Err(error) => {
            tracing::warn!(%error, "a review graph could not be drawn");
            None
        }
    }
}

fn corrupt(error: jieqi_rules::GameError) -> StoreError {
    StoreError::Corrupt(format!(
        "a stored game cannot be replayed for its review: {error}"
    ))
}
