//! The page in a real browser: Debian's Chromium driven through chromedriver (WebDriver), as
//! a spectator on a phone would use it. Checks read the DOM, never the network.
//!
//! Without chromedriver the tests say they are skipped; under `CI=true` they fail instead
//! (`.ci/run` installs `chromium` and `chromium-driver`).

use std::os::unix::process::CommandExt;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::wd::WebDriverCompatibleCommand;
use fantoccini::{Client, ClientBuilder, Locator};
use jieqi_rules::Variant;
use serde_json::{Value, json};

use crate::harness::{Table, deal, random_moves};

/// How long a move may take to show on the page.
const SHOWN_WITHIN: Duration = Duration::from_secs(2);
/// The name a hostile player chose.
const HOSTILE: &str = "<img src=x onerror=alert(1)>";

/// A headless Chromium on a phone-sized screen, and the driver that runs it.
pub(crate) struct Browser {
    pub(crate) client: Client,
    driver: Child,
    _profile: tempfile::TempDir,
}

impl Drop for Browser {
    fn drop(&mut self) {
        // The browser's processes are chromedriver's children, in the process group it leads
        // (`process_group(0)` below): killing chromedriver alone left them running, hundreds
        // of them and gigabytes after a few test runs. The group goes at once.
        let group = format!("-{}", self.driver.id());
        let killed = Command::new("kill")
            .args(["-KILL", "--", &group])
            .stderr(Stdio::null())
            .status();
        if !killed.is_ok_and(|s| s.success()) {
            let _ = self.driver.kill();
        }
        let _ = self.driver.wait();
    }
}

fn chromedriver() -> Option<String> {
    ["/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver"]
        .into_iter()
        .find(|path| std::path::Path::new(path).exists())
        .map(str::to_owned)
}

/// A browser, or `None` (the test is skipped) where there is none and CI is not running.
pub(crate) async fn browser() -> Option<Browser> {
    // An iPhone-sized screen at 3x pixel density.
    browser_sized(390, 844, 3.0).await
}

/// [`browser`] on a screen `width` × `height` CSS pixels at `ratio` device pixels each.
pub(crate) async fn browser_sized(width: u32, height: u32, ratio: f64) -> Option<Browser> {
    let Some(driver_path) = chromedriver() else {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "CI=true: the browser tests need chromedriver (apt-get install chromium chromium-driver)"
        );
        eprintln!("skipped: no chromedriver (apt-get install chromium chromium-driver)");
        return None;
    };
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let driver = Command::new(driver_path)
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .process_group(0)
        .spawn()
        .expect("chromedriver starts");
    let profile = tempfile::tempdir().expect("a profile folder");
    let mut capabilities = serde_json::Map::new();
    capabilities.insert("browserName".into(), json!("chrome"));
    capabilities.insert(
        "goog:chromeOptions".into(),
        json!({
            "binary": "/usr/bin/chromium",
            "args": [
                "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--no-first-run", "--disable-extensions", "--disable-background-networking",
                "--disable-component-update", "--disable-sync",
                format!("--user-data-dir={}", profile.path().display()),
            ],
            "mobileEmulation": {"deviceMetrics": {"width": width, "height": height, "pixelRatio": ratio}},
        }),
    );
    capabilities.insert("goog:loggingPrefs".into(), json!({"browser": "ALL"}));
    let connector = hyper_util::client::legacy::connect::HttpConnector::new();
    let url = format!("http://127.0.0.1:{port}");
    let started = Instant::now();
    let client = loop {
        match ClientBuilder::new(connector.clone())
            .capabilities(capabilities.clone())
            .connect(&url)
            .await
        {
            Ok(client) => break client,
            Err(e) if started.elapsed() < Duration::from_secs(30) => {
                let _ = e;
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
            Err(e) => panic!("chromedriver did not start a browser: {e}"),
        }
    };
    Some(Browser {
        client,
        driver,
        _profile: profile,
    })
}

/// chromedriver's browser console (`/se/log`), which W3C WebDriver has no command for.
#[derive(Debug)]
struct BrowserLog;

impl WebDriverCompatibleCommand for BrowserLog {
    fn endpoint(
        &self,
        base_url: &url::Url,
        session_id: Option<&str>,
    ) -> Result<url::Url, url::ParseError> {
        base_url.join(&format!(
            "session/{}/se/log",
            session_id.unwrap_or_default()
        ))
    }

    fn method_and_body(&self, _: &url::Url) -> (axum::http::Method, Option<String>) {
        (
            axum::http::Method::POST,
            Some(json!({"type": "browser"}).to_string()),
        )
    }
}

/// Console messages of level SEVERE or WARNING since the last call.
pub(crate) async fn console_problems(client: &Client) -> Vec<String> {
    let log = client.issue_cmd(BrowserLog).await.expect("the console");
    log.as_array()
        .map(|entries| {
            entries
                .iter()
                .filter(|e| matches!(e["level"].as_str(), Some("SEVERE" | "WARNING")))
                .map(|e| e["message"].as_str().unwrap_or_default().to_owned())
                .collect()
        })
        .unwrap_or_default()
}

pub(crate) async fn js(client: &Client, script: &str) -> Value {
    client
        .execute(script, vec![])
        .await
        .expect("the script runs")
}

pub(crate) async fn moves_shown(client: &Client) -> usize {
    js(
        client,
        "return document.querySelectorAll('#moves li').length",
    )
    .await
    .as_u64()
    .unwrap_or(0) as usize
}

async fn shown(client: &Client) -> String {
    js(
        client,
        "return document.getElementById('game').dataset.shown",
    )
    .await
    .as_str()
    .unwrap_or_default()
    .to_owned()
}

/// Waits until `n` moves are listed; how long it took, or `None` past `limit`.
async fn until_moves(client: &Client, n: usize, limit: Duration) -> Option<Duration> {
    let started = Instant::now();
    while started.elapsed() < limit {
        if moves_shown(client).await == n {
            return Some(started.elapsed());
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    None
}

pub(crate) async fn until(client: &Client, script: &str, limit: Duration) -> bool {
    let started = Instant::now();
    while started.elapsed() < limit {
        if js(client, script).await == Value::Bool(true) {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    false
}

/// Every resource the page loaded came from its own address.
pub(crate) async fn requests_elsewhere(client: &Client, origin: &str) -> Vec<String> {
    let urls = js(
        client,
        "return performance.getEntriesByType('resource').map(e => e.name)",
    )
    .await;
    urls.as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .filter(|url| !url.starts_with(origin))
        .map(str::to_owned)
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_running_jieqi_game_shows_each_move_within_two_seconds_and_steps_through_them() {
    let Some(browser) = browser().await else {
        return;
    };
    let client = &browser.client;
    let deal = deal(Variant::Jieqi, 11);
    let moves = random_moves(Variant::Jieqi, &deal, 11, 17);
    let mut table = Table::new(vec![deal], ["alice", HOSTILE], |_| {}).await;
    let game = table.start("jieqi").await;
    client
        .goto(&table.url(&format!("/g/{game}")))
        .await
        .expect("the page opens");
    assert!(
        until(
            client,
            "return document.getElementById('connection').classList.contains('live')",
            Duration::from_secs(5)
        )
        .await,
        "the page goes live"
    );

    // The hostile name is text: shown as typed, no element made of it, nothing ran.
    let names = js(
        client,
        "return [...document.querySelectorAll('#players .name')].map(n => n.textContent)",
    )
    .await;
    assert_eq!(names, json!(["alice", HOSTILE]));
    let images = js(client, "return document.querySelectorAll('img').length").await;
    assert_eq!(images, json!(1), "only the board is a picture");
    assert!(client.get_alert_text().await.is_err(), "no alert ran");

    let mut times = Vec::new();
    let n = moves.len() - 1;
    for (ply, text) in moves.iter().enumerate().take(n) {
        table.play(ply, text).await;
        let took = until_moves(client, ply + 1, SHOWN_WITHIN)
            .await
            .unwrap_or_else(|| panic!("move {} ({text}) was not shown within 2 s", ply + 1));
        times.push(took);
    }
    times.sort();
    println!(
        "moves shown after: median {:?}, slowest {:?} ({} moves)",
        times[times.len() / 2],
        times[times.len() - 1],
        times.len()
    );
    assert_eq!(
        shown(client).await,
        n.to_string(),
        "a follower sees the latest"
    );
    assert!(
        until(client, "const b = document.getElementById('board'); return b.complete && b.naturalWidth > 0 && /[?&]w=(1080|1440)&/.test(b.currentSrc)", Duration::from_secs(5)).await,
        "the board is drawn for a 3x screen: {}",
        js(client, "const b = document.getElementById('board'); return [b.naturalWidth, b.currentSrc, window.devicePixelRatio, window.innerWidth]").await
    );
    if let Ok(dir) = std::env::var("JIEQI_SCREENSHOT_DIR") {
        let png = client.screenshot().await.expect("a screenshot");
        std::fs::write(format!("{dir}/web-jieqi-phone.png"), png).expect("written");
    }

    // Stepping back and forth: the buttons, the arrow keys, Home and End, a move in the list.
    client
        .find(Locator::Id("to-previous"))
        .await
        .expect("the button")
        .click()
        .await
        .expect("a click");
    assert_eq!(shown(client).await, (n - 1).to_string());
    let src = js(client, "return document.getElementById('board').src").await;
    assert!(
        src.as_str()
            .unwrap_or_default()
            .contains(&format!("/board/{}.png", n - 1)),
        "{src}"
    );
    let body = client.find(Locator::Css("body")).await.expect("the body");
    body.send_keys("\u{E012}").await.expect("←");
    assert_eq!(shown(client).await, (n - 2).to_string());
    body.send_keys("\u{E011}").await.expect("Home");
    assert_eq!(shown(client).await, "0");
    body.send_keys("\u{E014}").await.expect("→");
    assert_eq!(shown(client).await, "1");
    // Away from the end, a new move does not pull the reader along.
    table.play(n, &moves[n]).await;
    until_moves(client, n + 1, SHOWN_WITHIN)
        .await
        .expect("the move is listed");
    assert_eq!(shown(client).await, "1");
    client
        .find(Locator::Css("#moves li:nth-child(3) button"))
        .await
        .expect("the third move")
        .click()
        .await
        .expect("a click");
    assert_eq!(shown(client).await, "3");
    body.send_keys("\u{E010}").await.expect("End");
    assert_eq!(shown(client).await, (n + 1).to_string());

    assert_eq!(console_problems(client).await, Vec::<String>::new());
    assert_eq!(
        requests_elsewhere(client, &table.base).await,
        Vec::<String>::new()
    );
    assert!(client.get_alert_text().await.is_err(), "no alert ran");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dropped_connection_resumes_without_missing_or_repeating_a_move() {
    let Some(browser) = browser().await else {
        return;
    };
    let client = &browser.client;
    let deal = deal(Variant::Jieqi, 12);
    let moves = random_moves(Variant::Jieqi, &deal, 12, 8);
    let mut table = Table::new(vec![deal], ["alice", "bob"], |_| {}).await;
    let game = table.start("jieqi").await;
    client
        .goto(&table.url(&format!("/g/{game}")))
        .await
        .expect("the page opens");
    for (ply, text) in moves.iter().enumerate().take(2) {
        table.play(ply, text).await;
    }
    until_moves(client, 2, SHOWN_WITHIN)
        .await
        .expect("two moves");
    table.stop_web().await;
    assert!(
        until(
            client,
            "return !document.getElementById('connection').classList.contains('live')",
            Duration::from_secs(5)
        )
        .await,
        "the page notices the connection dropped"
    );
    for (ply, text) in moves.iter().enumerate().skip(2).take(3) {
        table.play(ply, text).await;
    }
    table.restart_web().await;
    until_moves(client, 5, Duration::from_secs(15))
        .await
        .expect("the moves played meanwhile arrive after the reconnection");
    table.play(5, &moves[5]).await;
    until_moves(client, 6, SHOWN_WITHIN)
        .await
        .expect("and the next one");
    let listed = js(
        client,
        "return [...document.querySelectorAll('#moves li')].map(li => li.textContent)",
    )
    .await;
    let state: Value = serde_json::from_str(
        &reqwest::get(table.url(&format!("/g/{game}/state?lang=en")))
            .await
            .expect("the state")
            .text()
            .await
            .expect("text"),
    )
    .expect("JSON");
    let expected: Vec<String> = state["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .map(|m| {
            format!(
                "{} {}",
                m["number"].as_str().unwrap(),
                m["text"].as_str().unwrap()
            )
        })
        .collect();
    assert_eq!(listed, json!(expected), "each move once, in order");
    // While the server was down, the stream and any picture the page was loading then fail
    // at the network level (connection refused or cut off): that is the outage, not a fault
    // of the page. Anything else (a script error, a 404) is.
    let problems: Vec<String> = console_problems(client)
        .await
        .into_iter()
        .filter(|m| !m.contains("/live") && !m.contains("net::ERR_"))
        .collect();
    assert_eq!(problems, Vec::<String>::new(), "the console stays clean");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_game_replays_with_its_deal_checked_in_the_browser() {
    let Some(browser) = browser().await else {
        return;
    };
    let client = &browser.client;
    let deal = deal(Variant::Jieqi, 13);
    let moves = random_moves(Variant::Jieqi, &deal, 13, 6);
    let mut table = Table::new(vec![deal.clone()], ["alice", "bob"], |_| {}).await;
    let game = table.start("jieqi").await;
    client
        .goto(&table.url(&format!("/g/{game}")))
        .await
        .expect("the page opens");
    for (ply, text) in moves.iter().enumerate() {
        table.play(ply, text).await;
    }
    until_moves(client, moves.len(), SHOWN_WITHIN)
        .await
        .expect("the moves");
    // The first /resign asks for a confirmation; the second resigns.
    table.say(0, "/resign").await;
    table.say(0, "/resign").await;
    assert!(
        until(
            client,
            "return document.getElementById('game').dataset.finished === 'true'",
            Duration::from_secs(5)
        )
        .await,
        "the open page shows the end"
    );
    // Opened afresh, the finished game is a replay with its deal, checked by the browser.
    client
        .goto(&table.url(&format!("/g/{game}?lang=zh")))
        .await
        .expect("the replay opens");
    assert!(
        until(
            client,
            "return document.getElementById('game').dataset.commitment === 'checked'",
            Duration::from_secs(5)
        )
        .await,
        "sha256(deal ‖ salt) is the commitment"
    );
    let proof = js(
        client,
        "return document.getElementById('proof').textContent",
    )
    .await;
    assert!(
        proof.as_str().unwrap_or_default().contains(&deal),
        "{proof}"
    );
    let status = js(
        client,
        "return document.getElementById('status').textContent",
    )
    .await;
    assert!(
        status.as_str().unwrap_or_default().contains("认输"),
        "{status}"
    );
    let body = client.find(Locator::Css("body")).await.expect("the body");
    body.send_keys("\u{E011}").await.expect("Home");
    assert_eq!(shown(client).await, "0");
    assert_eq!(console_problems(client).await, Vec::<String>::new());
}
