//! What the Activity's tests share: a table whose page runs the Discord Activity against the
//! fake Discord (its two players alice and bob as Discord knows them, in the fake's channel),
//! the Discord adapter and delivery running when a test needs the chat, sign-ins over HTTP,
//! the fake's host page opened in a browser, and the check that a refusal changed nothing.

use std::time::Duration;

use fantoccini::{Client, Locator};
use jieqi_discord::{ClientSecret, Discord, DiscordConfig};
use jieqi_fake_discord::{ALICE, APP, BOB, CAROL, CHANNEL, CLIENT_SECRET, FakeDiscord, Member};
use jieqi_service::{ChatId, GameId, Platform, User, UserId};
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

use crate::browser::{Browser, browser, browser_sized, js, until};
use crate::harness::{Table, deal};

/// A JSON body (this workspace's reqwest has no `json` feature).
pub(crate) trait JsonBody {
    fn json_body(self, body: &Value) -> Self;
}

impl JsonBody for reqwest::RequestBuilder {
    fn json_body(self, body: &Value) -> Self {
        self.header("content-type", "application/json")
            .body(body.to_string())
    }
}

pub(crate) async fn json_of(answer: reqwest::Response) -> Value {
    serde_json::from_slice(&answer.bytes().await.expect("a body")).expect("JSON")
}

pub(crate) const WEEK: Duration = Duration::from_secs(7 * 24 * 3600);

/// The Activity instance alice, bob and carol have open in the fake's channel.
pub(crate) const INSTANCE: &str = "instance-here";

pub(crate) fn discord_user(who: Member) -> User {
    User::new(UserId::new(Platform::Discord, who.id.to_string()), who.name)
}

/// A Discord adapter talking to `fake`, with the Activity on.
pub(crate) fn discord(fake: &FakeDiscord) -> Discord {
    let mut config = DiscordConfig::new(jieqi_fake_discord::TOKEN);
    config.api_url = Some(url::Url::parse(&fake.http_url).expect("the fake's address"));
    config.activity = true;
    Discord::new(config)
}

/// A table whose page runs the Activity against `fake`, framed by the fake's host page, its
/// two players alice and bob as Discord knows them, playing in the fake's channel, where
/// alice, bob and carol have [`INSTANCE`] open.
pub(crate) async fn activity_table(fake: &FakeDiscord, discord: &Discord, seed: u64) -> Table {
    let origin = fake.http_url.clone();
    let oauth = discord.oauth(ClientSecret::new(CLIENT_SECRET).expect("a secret"));
    let mut table = Table::with_activity(
        vec![deal(jieqi_rules::Variant::Jieqi, seed)],
        ["alice", "bob"],
        move |config| config.discord_client_origins = vec![origin],
        Some(oauth),
    )
    .await;
    table.players = [discord_user(ALICE), discord_user(BOB)];
    table.chat = ChatId::new(Platform::Discord, CHANNEL.to_string());
    fake.open_activity_instance(INSTANCE, APP, CHANNEL, &[ALICE, BOB, CAROL]);
    table
}

/// The fake Discord, the adapter and the Activity's table, with the adapter's gateway and
/// delivery running (presses reach the bot, posts reach the fake) once [`OnDiscord::run`].
pub(crate) struct OnDiscord {
    pub fake: FakeDiscord,
    pub table: Table,
    stop: CancellationToken,
    tasks: Vec<tokio::task::JoinHandle<()>>,
}

impl OnDiscord {
    /// The fake and the table dealt from `seed`; nothing running yet.
    pub(crate) async fn new(seed: u64) -> OnDiscord {
        OnDiscord::with_adapter(seed).await.0
    }

    async fn with_adapter(seed: u64) -> (OnDiscord, Discord) {
        let fake = FakeDiscord::start().await;
        let adapter = discord(&fake);
        let table = activity_table(&fake, &adapter, seed).await;
        let on = OnDiscord {
            fake,
            table,
            stop: CancellationToken::new(),
            tasks: Vec::new(),
        };
        (on, adapter)
    }

    /// [`OnDiscord::new`] with the gateway and delivery running.
    pub(crate) async fn run(seed: u64) -> OnDiscord {
        let (mut on, adapter) = OnDiscord::with_adapter(seed).await;
        let service = on.table.service.clone();
        on.tasks.push(tokio::spawn(jieqi_service::run_delivery(
            service.clone(),
            adapter.sender(),
            Platform::Discord,
            on.stop.clone(),
        )));
        let gateway = adapter.run(service, on.stop.clone());
        on.tasks.push(tokio::spawn(async move {
            let _ = gateway.await;
        }));
        on.fake.wait_for_shards(1).await;
        on
    }

    /// Stops what runs.
    pub(crate) async fn stop(self) {
        self.stop.cancel();
        for task in self.tasks {
            let _ = task.await;
        }
    }
}

/// What a refusal must leave as it was: the game's revision and the chat's outbox.
pub(crate) struct Untouched {
    game: GameId,
    revision: Option<u64>,
    posts: usize,
}

impl Untouched {
    pub(crate) async fn of(table: &Table, game: &GameId) -> Untouched {
        Untouched {
            game: game.clone(),
            revision: table.service.game_revision(game).await.expect("store"),
            posts: table.service.pending(1000).await.expect("outbox").len(),
        }
    }

    pub(crate) async fn still(&self, table: &Table) {
        assert_eq!(
            table
                .service
                .game_revision(&self.game)
                .await
                .expect("store"),
            self.revision,
            "nothing changed in the game"
        );
        assert_eq!(
            table.service.pending(1000).await.expect("outbox").len(),
            self.posts,
            "nothing was said in any chat"
        );
    }
}

pub(crate) async fn sign_in(table: &Table, code: &str) -> reqwest::Response {
    sign_in_to(table, code, INSTANCE, CHANNEL).await
}

/// A sign-in naming Activity instance `instance` in `channel`.
pub(crate) async fn sign_in_to(
    table: &Table,
    code: &str,
    instance: &str,
    channel: u64,
) -> reqwest::Response {
    reqwest::Client::new()
        .post(table.url("/activity/session"))
        .json_body(&json!({ "code": code, "instance": instance, "channel": channel.to_string() }))
        .send()
        .await
        .expect("an answer")
}

/// `who` signs in with a fresh code of the bot's application, naming `instance` in `channel`.
pub(crate) async fn sign_in_as(
    table: &Table,
    fake: &FakeDiscord,
    who: Member,
    instance: &str,
    channel: u64,
) -> reqwest::Response {
    sign_in_to(table, &fake.issue_code(APP, who, WEEK), instance, channel).await
}

/// The pass of `who`, signed in on `instance` in `channel`.
pub(crate) async fn pass_in(
    table: &Table,
    fake: &FakeDiscord,
    who: Member,
    instance: &str,
    channel: u64,
) -> String {
    let answer = sign_in_as(table, fake, who, instance, channel).await;
    assert_eq!(answer.status(), 200);
    let body: Value = json_of(answer).await;
    body["pass"].as_str().expect("a pass").to_owned()
}

pub(crate) async fn pass_of(table: &Table, fake: &FakeDiscord, who: Member) -> String {
    pass_in(table, fake, who, INSTANCE, CHANNEL).await
}

/// The Activity's list in `channel` for the holder of `pass`.
pub(crate) async fn games_in(table: &Table, pass: &str, channel: u64) -> reqwest::Response {
    reqwest::Client::new()
        .get(table.url(&format!("/activity/games?channel={channel}")))
        .header("authorization", format!("Bearer {pass}"))
        .send()
        .await
        .expect("an answer")
}

pub(crate) async fn games(table: &Table, pass: &str) -> reqwest::Response {
    games_in(table, pass, CHANNEL).await
}

/// Alice's and bob's phones and carol's desktop, or `None` (the test is skipped) where there
/// is no browser.
pub(crate) async fn three_browsers() -> Option<[Browser; 3]> {
    Some([
        browser().await?,
        browser().await?,
        browser_sized(1280, 800, 1.0).await?,
    ])
}

/// Opens the fake's host page of `who` on Activity instance `instance` of the fake's channel
/// and enters the Activity's frame, once signed in (on its list, or already on a board).
pub(crate) async fn open_host(
    client: &Client,
    fake: &FakeDiscord,
    base: &str,
    who: Member,
    instance: &str,
    platform: &str,
) {
    let host = fake.activity_host(&format!("{base}/activity"), who, instance, platform);
    client.goto(&host).await.expect("the host page");
    client.enter_frame(0).await.expect("the Activity's frame");
    let signed_in = until(
        client,
        "const a = document.getElementById('activity'); return (!!a && a.dataset.state === 'lobby') || !!document.getElementById('game')",
        // Three Chromiums at once on a loaded 2-core machine took over 30 s once.
        Duration::from_secs(60),
    )
    .await;
    if !signed_in {
        // Where the sign-in stopped: the page's text, and the host's side of the handshake
        // (whether it answered READY, the commands it was asked, what it refused).
        let page = js(
            client,
            "return document.body ? document.body.innerText : ''",
        )
        .await;
        panic!(
            "{} signs in: {page}; the host saw {}",
            who.name,
            host_record(client).await
        );
    }
}

/// What the host page saw (its `window.host`): read from the top document.
pub(crate) async fn host_record(client: &Client) -> Value {
    client.enter_parent_frame().await.expect("the host page");
    let record = js(client, "return window.host").await;
    client.enter_frame(0).await.expect("the Activity's frame");
    record
}

/// Waits for the board of `game` in mode `mode` (`player` or `spectator`) in the Activity.
pub(crate) async fn until_board(client: &Client, game: Option<&GameId>, mode: &str) {
    let of_game = game.map_or(String::new(), |g| {
        format!(" && location.pathname === '/g/{g}'")
    });
    assert!(
        until(
            client,
            &format!("const g = document.getElementById('game'); return !!g && g.dataset.mode === '{mode}'{of_game}"),
            Duration::from_secs(30)
        )
        .await,
        "the {mode}'s board opens in the Activity: {}",
        js(client, "return location.href + ' ' + (document.body ? document.body.innerText : '')").await
    );
}

/// Taps the element `css` names. The Activity's lists are drawn again when news arrives, so
/// the element found may be replaced before the tap reaches it (WebDriver's "stale element
/// reference"): then it is found again, as a person would tap the list as it is now.
pub(crate) async fn click(client: &Client, css: &str) {
    let mut tries = 0;
    loop {
        let element = client
            .find(Locator::Css(css))
            .await
            .unwrap_or_else(|e| panic!("no {css}: {e}"));
        match element.click().await {
            Ok(_) => return,
            Err(e) if e.is_stale_element_reference() && tries < 5 => {
                tries += 1;
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            Err(e) => panic!("a tap on {css}: {e}"),
        }
    }
}
