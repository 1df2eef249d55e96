//! The service crate reads top to bottom: each module uses only modules of its own layer or
//! the layers below, so storage and delivery change without touching game logic, and game
//! logic never reaches up into the service that drives it. This test reads the sources and
//! fails on a `crate::…` reference that points up (and on a module missing from the list).
//! The store's crates are held to the same, and the chat adapters and store backends to
//! having no circle between their modules (a module that needs another never is needed by it,
//! by way of others or not), which fails naming the modules around the circle.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
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
    (
        "rebuilt games",
        &["error", "ratings", "pictures", "pgn", "engine_clock"],
    ),
    ("shared state", &["state", "review_queue"]),
    ("request context", &["context"]),
    ("presentation", &["announce"]),
    (
        "game logic",
        &[
            "lifecycle",
            "live_boards",
            "live_clock",
            "rated_games",
            "board_buttons",
            "puzzle_play",
            "game_page",
            "player_page",
            "review_post",
            "arena_play",
            "tournament_play",
            "tournament_standings",
            "tournament_start",
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
            "tournament_page",
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

/// `crate::name` references in `source` (the first path segment after `crate::`, and each
/// one's of a group, `crate::{a::X, b}`).
fn references(source: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut rest = source;
    while let Some(at) = rest.find("crate::") {
        rest = &rest[at + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            // The first segment of each path at the group's top level.
            let mut depth = 1;
            let mut item_start = true;
            for (i, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 1 => break,
                    '}' => depth -= 1,
                    ',' if depth == 1 => item_start = true,
                    c if item_start && depth == 1 && (c.is_ascii_alphanumeric() || c == '_') => {
                        found.push(identifier(&group[i..]));
                        item_start = false;
                    }
                    _ => {}
                }
            }
            continue;
        }
        let name = identifier(rest);
        if !name.is_empty() {
            found.push(name);
        }
    }
    found
}

fn identifier(text: &str) -> String {
    text.chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect()
}

/// Each top-level module of the crate at `src` with the `crate::…` names its files use
/// (`lib.rs`, the root everyone reads, left out).
fn modules(src: &Path) -> BTreeMap<String, Vec<String>> {
    module_references(src, Code::WithTests)
}

/// Which code of a module counts.
#[derive(Clone, Copy, PartialEq)]
enum Code {
    WithTests,
    /// Without test code (`#[cfg(test)] mod …` and the `tests.rs` files such modules are): a
    /// unit test may drive its module through one above it (sled's folder tests open a
    /// `SledStore`), which is no circle in the crate that is built.
    Built,
}

fn module_references(src: &Path, code: Code) -> BTreeMap<String, Vec<String>> {
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
            let nested = relative.components().count() > 1;
            if code == Code::Built && nested && path.file_stem().is_some_and(|s| s == "tests") {
                continue;
            }
            let mut source = std::fs::read_to_string(&path).expect("a source file");
            if code == Code::Built {
                source = without_test_modules(&source);
            }
            modules.entry(top).or_default().extend(references(&source));
        }
    }
    modules
}

/// `source` without its `#[cfg(test)]` modules (the attribute at the start of a line, then a
/// `mod` item, inline up to its closing brace at the start of a line, or a file of its own).
fn without_test_modules(source: &str) -> String {
    let mut kept = String::new();
    let mut lines = source.lines();
    while let Some(line) = lines.next() {
        if line != "#[cfg(test)]" {
            kept.push_str(line);
            kept.push('\n');
            continue;
        }
        let mut item = lines.next().unwrap_or("");
        while item.starts_with("#[") {
            item = lines.next().unwrap_or("");
        }
        if !item.starts_with("mod ") {
            // Not a module (a test-only function or import): its references count.
            kept.push_str(item);
            kept.push('\n');
            continue;
        }
        if item.ends_with('{') {
            for inner in lines.by_ref() {
                if inner == "}" {
                    break;
                }
            }
        }
    }
    kept
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
/// from records, the codec (whose upgrades settle old games by replaying them) with the
/// older shapes it writes for a fleet mid-upgrade (`fleet`), and the conformance suite on
/// top. Its root (`lib.rs`, the trait) is read by all and left out.
const STORE_LAYERS: &[(&str, &[&str])] = &[
    (
        "vocabulary",
        &[
            "ids",
            "language",
            "settings",
            "utc_offset",
            "recipe",
            "message",
            "verdict",
            "pace",
            "speed_ratings",
        ],
    ),
    ("records", &["records", "compact", "game_clock"]),
    ("replay", &["replay"]),
    // A tournament is a record with a byte form of its own beside the codec.
    ("codec", &["codec", "fleet", "tournament"]),
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

/// The circles among modules: for each module on one, the shortest circle through it, each
/// written once from its first name (`a -> b -> a`).
fn circles(modules: &BTreeMap<String, Vec<String>>) -> Vec<String> {
    let edges: BTreeMap<&str, BTreeSet<&str>> = modules
        .iter()
        .map(|(module, used)| {
            let targets = used
                .iter()
                .map(String::as_str)
                .filter(|target| *target != module && modules.contains_key(*target))
                .collect();
            (module.as_str(), targets)
        })
        .collect();
    let mut found = BTreeSet::new();
    for &start in edges.keys() {
        // Breadth first from `start`, until the way back to it.
        let mut came_from: BTreeMap<&str, &str> = BTreeMap::new();
        let mut queue = VecDeque::from([start]);
        let mut last = None;
        'search: while let Some(at) = queue.pop_front() {
            for &next in &edges[at] {
                if next == start {
                    last = Some(at);
                    break 'search;
                }
                if !came_from.contains_key(next) {
                    came_from.insert(next, at);
                    queue.push_back(next);
                }
            }
        }
        let Some(mut at) = last else {
            continue;
        };
        let mut circle = vec![at];
        while at != start {
            at = came_from[at];
            circle.push(at);
        }
        circle.reverse();
        let first = (0..circle.len())
            .min_by_key(|&i| circle[i])
            .expect("a circle has modules");
        circle.rotate_left(first);
        circle.push(circle[0]);
        found.insert(circle.join(" -> "));
    }
    found.into_iter().collect()
}

/// The chat adapters and the store's crates have no circles between their modules: each
/// can be read from its leaves up. (The service's modules are held to layers above, within
/// which its API's concerns use each other.)
#[test]
fn the_adapters_and_the_store_crates_have_no_circles_between_their_modules() {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut found = Vec::new();
    for name in ["telegram", "discord", "store", "store-sled", "store-pg"] {
        let modules = module_references(&crates.join(name).join("src"), Code::Built);
        assert!(modules.len() > 1, "crates/{name}/src has modules to read");
        found.extend(
            circles(&modules)
                .into_iter()
                .map(|circle| format!("crates/{name}: {circle}")),
        );
    }
    assert!(found.is_empty(), "modules in a circle: {found:#?}");
}

#[test]
fn the_circle_finder_names_each_circle_once_from_its_first_module() {
    let graph: BTreeMap<String, Vec<String>> = [
        ("replies", vec!["outbound", "text"]),
        ("outbound", vec!["client", "replies"]),
        ("client", vec!["held", "outbound", "client"]),
        ("held", vec!["TelegramError"]),
        ("text", vec![]),
    ]
    .into_iter()
    .map(|(module, used)| {
        (
            module.to_owned(),
            used.into_iter().map(str::to_owned).collect(),
        )
    })
    .collect();
    assert_eq!(
        circles(&graph),
        [
            "client -> outbound -> client",
            "outbound -> replies -> outbound"
        ]
    );
}

#[test]
fn test_modules_are_left_out_of_the_built_code() {
    let source = "use crate::a::X;\n#[cfg(test)]\nmod tests {\n    use crate::b::Y;\n}\n\n#[cfg(test)]\n#[path = \"x/tests.rs\"]\nmod tests;\n#[cfg(test)]\nuse crate::c::Z;\nfn f() { crate::d::g() }\n";
    assert_eq!(references(&without_test_modules(source)), ["a", "c", "d"]);
}

#[test]
fn the_reference_reader_finds_crate_paths() {
    let found = references("use crate::store::{A, B};\nlet x = crate::replay::rebuild(&r);");
    assert_eq!(found, ["store", "replay"]);
    let grouped = references("use crate::{ids::{A, B}, message::{self, C}, Error};");
    assert_eq!(grouped, ["ids", "message", "Error"]);
}
