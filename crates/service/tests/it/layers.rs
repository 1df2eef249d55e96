//! The service crate reads top to bottom: each module uses only modules of its own layer or
//! the layers below, so storage and delivery change without touching game logic, and game
//! logic never reaches up into the service that drives it. This test reads the sources and
//! fails on a `crate::…` reference that points up (and on a module missing from the list).

use std::collections::BTreeMap;
use std::path::Path;

/// The layers, lowest first. A module may use its own layer and the ones before it. `ids`,
/// `message`, `settings`, `recipe` and `replay` are `jieqi-store`'s modules, re-exported at the
/// crate's root under their old names: references to them are placed by the same rule.
const LAYERS: &[(&str, &[&str])] = &[
    (
        "model",
        &[
            "ids",
            "i18n",
            "metrics",
            "menu",
            "request",
            "message",
            "settings",
            "config",
            "fairness",
            "recipe",
            "puzzle_set",
            "personal_link",
            "sync",
            "shared_clock",
        ],
    ),
    // `replay` rebuilds a game from its record, reading nothing but the store; the store's
    // codec uses it to give an older finished game its verdict once, as it upgrades it.
    ("store", &["store", "replay", "budgets"]),
    ("rebuilt games", &["error", "ratings", "pictures", "pgn"]),
    ("shared state", &["state", "review_queue"]),
    ("request context", &["context"]),
    ("presentation", &["announce"]),
    (
        "game logic",
        &[
            "lifecycle",
            "live_clock",
            "board_buttons",
            "puzzle_play",
            "game_page",
            "player_page",
            "review_post",
        ],
    ),
    ("commands", &["commands"]),
    // The service's API, one `impl Service` split by concern: these use each other.
    (
        "service",
        &[
            "service",
            "engine_play",
            "timers",
            "flag_timers",
            "outbox",
            "delivery",
            "deferred",
            "stale_buttons",
            "spectators",
            "reviews",
            "web_play",
            "activity",
        ],
    ),
];

fn layer_of(module: &str) -> Option<usize> {
    LAYERS
        .iter()
        .position(|(_, modules)| modules.contains(&module))
}

/// `crate::name` references in `source` (the first path segment after `crate::`).
fn references(source: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut rest = source;
    while let Some(at) = rest.find("crate::") {
        rest = &rest[at + "crate::".len()..];
        let name: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        if !name.is_empty() {
            found.push(name);
        }
    }
    found
}

fn modules(src: &Path) -> BTreeMap<String, Vec<String>> {
    let mut modules: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut stack = vec![src.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("the source folder") {
            let path = entry.expect("a source entry").path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let relative = path.strip_prefix(src).expect("inside src");
            let top = relative
                .components()
                .next()
                .and_then(|c| c.as_os_str().to_str())
                .expect("a file name")
                .trim_end_matches(".rs")
                .to_owned();
            if top == "lib" {
                continue;
            }
            let source = std::fs::read_to_string(&path).expect("a source file");
            modules.entry(top).or_default().extend(references(&source));
        }
    }
    modules
}

#[test]
fn every_module_uses_only_its_own_layer_or_the_ones_below() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut upward = Vec::new();
    for (module, used) in modules(&src) {
        let Some(layer) = layer_of(&module) else {
            panic!("src/{module} is in no layer: add it to LAYERS in tests/layers.rs");
        };
        for target in used {
            if target == module {
                continue;
            }
            match layer_of(&target) {
                Some(to) if to <= layer => {}
                Some(to) => upward.push(format!(
                    "{module} ({}) uses {target} ({})",
                    LAYERS[layer].0, LAYERS[to].0
                )),
                None => {}
            }
        }
    }
    upward.sort();
    upward.dedup();
    assert!(upward.is_empty(), "references that point up: {upward:#?}");
}

/// The store's contract crate (`jieqi-store`) in layers of its own, lowest first: the
/// vocabulary records are written in, the records and their compact form, games rebuilt
/// from records, the codec (whose upgrades settle old games by replaying them), and the
/// conformance suite on top. Its root (`lib.rs`, the trait) is read by all and left out.
const STORE_LAYERS: &[(&str, &[&str])] = &[
    (
        "vocabulary",
        &[
            "ids", "language", "settings", "recipe", "message", "verdict", "pace",
        ],
    ),
    ("records", &["records", "compact", "game_clock"]),
    ("replay", &["replay"]),
    ("codec", &["codec"]),
    ("conformance", &["conformance"]),
];

#[test]
fn the_store_crate_uses_only_its_own_layer_or_the_ones_below() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../store/src");
    let layer_of = |module: &str| {
        STORE_LAYERS
            .iter()
            .position(|(_, modules)| modules.contains(&module))
    };
    let mut upward = Vec::new();
    for (module, used) in modules(&src) {
        let Some(layer) = layer_of(&module) else {
            panic!("crates/store/src/{module} is in no layer: add it to STORE_LAYERS");
        };
        for target in used {
            if let Some(to) = layer_of(&target)
                && to > layer
            {
                upward.push(format!("{module} uses {target}"));
            }
        }
    }
    upward.sort();
    upward.dedup();
    assert!(upward.is_empty(), "references that point up: {upward:#?}");
}

/// The store's crates (the contract and both backends) know nothing of the service: a
/// backend needs the contract alone.
#[test]
fn the_store_crates_depend_on_nothing_of_the_service() {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    for name in ["store", "store-sled", "store-pg"] {
        let manifest = std::fs::read_to_string(crates.join(name).join("Cargo.toml"))
            .expect("the crate's manifest");
        assert!(
            !manifest.contains("jieqi-service"),
            "crates/{name}/Cargo.toml names jieqi-service"
        );
        let mut stack = vec![
            crates.join(name).join("src"),
            crates.join(name).join("tests"),
        ];
        while let Some(dir) = stack.pop() {
            let Ok(entries) = std::fs::read_dir(&dir) else {
                continue;
            };
            for entry in entries {
                let path = entry.expect("a source entry").path();
                if path.is_dir() {
                    stack.push(path);
                } else if path.extension().is_some_and(|e| e == "rs") {
                    let source = std::fs::read_to_string(&path).expect("a source file");
                    assert!(
                        !source.contains("jieqi_service"),
                        "{} uses jieqi_service",
                        path.display()
                    );
                }
            }
        }
    }
}

#[test]
fn the_reference_reader_finds_crate_paths() {
    let found = references("use crate::store::{A, B};\nlet x = crate::replay::rebuild(&r);");
    assert_eq!(found, ["store", "replay"]);
}
