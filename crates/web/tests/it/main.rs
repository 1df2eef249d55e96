//! The web page's behaviour through HTTP, a real browser (Chromium through WebDriver) and
//! properties of what the public may read.

mod activity_access;
mod activity_browser;
mod activity_channel;
mod activity_launch;
mod browser;
mod clock_browser;
mod harness;
mod hidden;
mod http;
mod play_browser;
mod players;
mod tournament_browser;
mod tournament_page;
