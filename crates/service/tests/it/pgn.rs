//! `/history` of a finished game attaches its PGN, and an independent reader takes it:
//! Fairy-Stockfish's Python binding (`pyffish`, from PyPI) checks every Xiangqi move and
//! that the final position is mate; for Jieqi it checks the tags, the deal, the start
//! position and the first move. The test needs `python3` with `pyffish` (`pip install
//! pyffish`); without it the test says so and passes, except under `CI=true`, where it
//! fails.

use super::common;

use std::process::Command;

use common::*;
use jieqi_service::{DealSource, MessageKind};

const READER: &str = r#"
import re, sys
import pyffish as sf

text = open(sys.argv[1], encoding="utf-8").read()
tags = dict(re.findall(r'^\[(\w+) "((?:[^"\\]|\\.)*)"\]\s*$', text, re.M))
body = re.sub(r'^\[.*\]\s*$', "", text, flags=re.M)
tokens = [t for t in body.split() if not re.fullmatch(r"\d+\.", t)]
result = tokens.pop()
assert result == tags["Result"], (result, tags["Result"])
assert tags["Format"] == "ICCS"
variant = tags.get("Variant", "xiangqi")
xiangqi_start = sf.start_fen("xiangqi")
move = re.compile(r"([A-I])([0-9])-([A-I])([0-9])(?:=([RHEACPrheacp]))?")

def uci(token):
    m = move.fullmatch(token)
    assert m, token
    return f"{m[1].lower()}{int(m[2]) + 1}{m[3].lower()}{int(m[4]) + 1}"

if variant == "xiangqi":
    assert tags["FEN"] == xiangqi_start, tags["FEN"]
    moves = []
    for token in tokens:
        assert "=" not in token, token
        m = uci(token)
        assert m in sf.legal_moves("xiangqi", tags["FEN"], moves), (token, moves)
        moves.append(m)
    left = len(sf.legal_moves("xiangqi", tags["FEN"], moves))
    print(f"xiangqi {len(moves)} {left} {tags['Red']} {tags['Black']}")
elif variant == "jieqi":
    deal = tags["Deal"]
    assert re.fullmatch(r"[rheacp]{15}[RHEACP]{15}", deal), deal
    # The covered start is Xiangqi's start with every piece face down.
    start = tags["FEN"]
    assert start.replace("x", "?").replace("X", "?") == re.sub(r"[rnbacp]", "?", re.sub(r"[RNBACP]", "?", xiangqi_start)), start
    assert sf.validate_fen(xiangqi_start, "xiangqi") == 1
    for token in tokens:
        uci(token)
    # A covered piece moves as the piece whose start point it stands on: the first move is
    # a Xiangqi move from the start.
    assert uci(tokens[0]) in sf.legal_moves("xiangqi", xiangqi_start, []), tokens[0]
    print(f"jieqi {len(tokens)} - {tags['Red']} {tags['Black']}")
else:
    raise SystemExit(f"unknown variant {variant}")
"#;

/// Runs the reader on `pgn`; `None` if pyffish is not there (outside CI).
fn read_with_pyffish(pgn: &[u8]) -> Option<String> {
    let ci = std::env::var("CI").is_ok_and(|v| v == "true");
    let available = Command::new("python3")
        .args(["-c", "import pyffish"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !available {
        assert!(
            !ci,
            "CI=true: python3 with pyffish is required (pip install pyffish)"
        );
        eprintln!("skipped: python3 with pyffish is not installed (pip install pyffish)");
        return None;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let (script, file) = (dir.path().join("read.py"), dir.path().join("game.pgn"));
    std::fs::write(&script, READER).expect("script");
    std::fs::write(&file, pgn).expect("pgn");
    let out = Command::new("python3")
        .arg(&script)
        .arg(&file)
        .output()
        .expect("python3 runs");
    assert!(
        out.status.success(),
        "pyffish refused the PGN:\n{}\n{}",
        String::from_utf8_lossy(pgn),
        String::from_utf8_lossy(&out.stderr)
    );
    Some(String::from_utf8_lossy(&out.stdout).trim().to_owned())
}

/// The `/history` answer's PGN attachment.
async fn history_pgn(
    h: &mut Harness,
    who: &jieqi_service::User,
    chat: &jieqi_service::ChatId,
) -> Vec<u8> {
    history_pgn_with_caption(h, who, chat).await.0
}

/// The `/history` answer's PGN attachment and the caption it goes out with.
async fn history_pgn_with_caption(
    h: &mut Harness,
    who: &jieqi_service::User,
    chat: &jieqi_service::ChatId,
) -> (Vec<u8>, String) {
    let answer = h.say(who, chat, "/history").await;
    answer
        .replies
        .iter()
        .filter(|m| m.kind == MessageKind::History)
        .find_map(|m| {
            let pgn = m.image.as_ref().filter(|i| i.file_name.ends_with(".pgn"))?;
            Some((pgn.bytes.clone(), m.text.clone()))
        })
        .unwrap_or_else(|| panic!("a PGN attachment: {answer:#?}"))
}

#[tokio::test]
async fn a_mated_xiangqi_game_reads_back_move_by_move_in_pyffish() {
    let mut h = Harness::new(DealSource::Seeded(1)).await;
    let (alice, bob) = (user("alice"), user("bob"));
    let chat = group("-400");
    h.start_game(&alice, &bob, &chat, "xiangqi red").await;
    for (who, mv) in [
        (&alice, "h2h5"),
        (&bob, "b7a7"),
        (&alice, "h5c5"),
        (&bob, "f9e8"),
        (&alice, "c5c9"),
    ] {
        let answer = h.say(who, &chat, &format!("/move {mv}")).await;
        assert!(answer.replies.is_empty(), "{answer:#?}");
    }
    let (pgn, caption) = history_pgn_with_caption(&mut h, &alice, &chat).await;
    assert!(caption.contains("for other Xiangqi programs"), "{caption}");
    let text = String::from_utf8(pgn.clone()).expect("UTF-8");
    assert!(text.contains("[Result \"1-0\"]"), "{text}");
    assert!(
        text.contains("1. H2-H5 B7-A7 2. H5-C5 F9-E8 3. C5-C9 1-0"),
        "{text}"
    );
    if let Some(read) = read_with_pyffish(&pgn) {
        // Five moves, all legal for Fairy-Stockfish, and no legal move left: mate.
        assert_eq!(read, "xiangqi 5 0 alice bob");
    }
    // A repeated request gets the same file again.
    let again = history_pgn(&mut h, &alice, &chat).await;
    assert_eq!(again, pgn);
}

#[tokio::test]
async fn a_jieqi_game_carries_its_variant_and_deal_and_reads_in_pyffish() {
    let mut h = Harness::new(DealSource::Seeded(3)).await;
    let (alice, bob) = (user("alice"), user("bob"));
    let chat = group("-401");
    h.start_game(&alice, &bob, &chat, "jieqi red").await;
    for (who, mv) in [(&alice, "h2e2"), (&bob, "h9g7"), (&alice, "b0c2")] {
        let answer = h.say(who, &chat, &format!("/move {mv}")).await;
        assert!(answer.replies.is_empty(), "{answer:#?}");
    }
    h.say(&bob, &chat, "/resign").await;
    h.say(&bob, &chat, "/resign").await;
    let (pgn, caption) = history_pgn_with_caption(&mut h, &alice, &chat).await;
    // Not "for other Xiangqi programs": a Xiangqi program cannot read a Jieqi game.
    assert!(!caption.contains("Xiangqi"), "{caption}");
    assert!(caption.contains("programs that know Jieqi"), "{caption}");
    let text = String::from_utf8(pgn.clone()).expect("UTF-8");
    assert!(text.contains("[Variant \"jieqi\"]"), "{text}");
    assert!(text.contains("[Deal \""), "{text}");
    assert!(text.contains("[Result \"1-0\"]"), "{text}");
    if let Some(read) = read_with_pyffish(&pgn) {
        assert_eq!(read, "jieqi 3 - alice bob");
    }
}
