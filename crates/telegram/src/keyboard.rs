//! Buttons: the service's [`Button`]s as an inline keyboard.
//!
//! Callback data is [`ButtonAction::encode`]: ids only, at most 64 bytes, nothing hidden. An
//! Accept button that should open the private chat first is a `t.me/<bot>?start=<data>` deep
//! link: pressing it starts the private chat (so the bot may send reveals there) and the
//! `/start <data>` that follows accepts.

use jieqi_service::{Button, ButtonAction};
use teloxide::types::{InlineKeyboardButton, InlineKeyboardMarkup, WebAppInfo};
use url::Url;

/// Telegram's limit on callback data.
const CALLBACK_DATA_LIMIT: usize = 64;

/// The keyboard for `buttons` (an empty keyboard removes an earlier one when editing).
/// `bot_username` is needed for deep links; without it they become plain buttons.
/// Resign goes on a row of its own, below the others, so that a thumb aiming at "Offer a
/// draw" does not land on it.
pub(crate) fn keyboard(buttons: &[Button], bot_username: Option<&str>) -> InlineKeyboardMarkup {
    let (resign, others): (Vec<&Button>, Vec<&Button>) =
        buttons.iter().partition(|button| button.action.is_resign());
    let rows: Vec<Vec<InlineKeyboardButton>> = [others, resign]
        .into_iter()
        .map(|row| {
            row.into_iter()
                .filter_map(|button| key(button, bot_username))
                .collect::<Vec<_>>()
        })
        .filter(|row| !row.is_empty())
        .collect();
    if rows.is_empty() {
        InlineKeyboardMarkup::default()
    } else {
        InlineKeyboardMarkup::new(rows)
    }
}

fn key(button: &Button, bot_username: Option<&str>) -> Option<InlineKeyboardButton> {
    if let ButtonAction::Link(url) | ButtonAction::App(url) = &button.action {
        let url = match Url::parse(url) {
            Ok(url) => url,
            Err(e) => {
                tracing::error!("a link button's address is not a URL ({e}); left out");
                return None;
            }
        };
        // The Mini App in a private chat (the only place Telegram allows a `web_app` button).
        // Telegram refuses the whole message if a Mini App's address is not https (a
        // PUBLIC_URL on plain http while trying things out): such a page opens in the browser.
        return Some(
            if matches!(button.action, ButtonAction::App(_)) && url.scheme() == "https" {
                InlineKeyboardButton::web_app(button.label.clone(), WebAppInfo { url })
            } else {
                InlineKeyboardButton::url(button.label.clone(), url)
            },
        );
    }
    let data = button.action.encode();
    if data.len() > CALLBACK_DATA_LIMIT {
        // Cannot happen with the service's ids; a button Telegram would refuse is left out
        // rather than losing the whole message.
        tracing::error!(len = data.len(), "button data longer than Telegram allows");
        return None;
    }
    if button.deep_link_accept
        && matches!(button.action, ButtonAction::Accept(_))
        && let Some(url) = bot_username.and_then(|bot| deep_link(bot, &data))
    {
        return Some(InlineKeyboardButton::url(button.label.clone(), url));
    }
    Some(InlineKeyboardButton::callback(button.label.clone(), data))
}

/// `https://t.me/<bot>?start=<data>`.
pub(crate) fn deep_link(bot_username: &str, data: &str) -> Option<Url> {
    let mut url = Url::parse("https://t.me/").ok()?;
    url.set_path(bot_username.trim_start_matches('@'));
    url.query_pairs_mut().append_pair("start", data);
    Some(url)
}

#[cfg(test)]
mod tests {
    use super::*;
    use teloxide::types::InlineKeyboardButtonKind;

    fn button(action: ButtonAction, deep_link_accept: bool) -> Button {
        Button {
            label: "Accept".to_owned(),
            action,
            deep_link_accept,
        }
    }

    #[test]
    fn accept_becomes_a_deep_link_into_the_private_chat() {
        let accept = ButtonAction::Accept("c4f7k".parse().unwrap());
        let decline = ButtonAction::Decline("c4f7k".parse().unwrap());
        let markup = keyboard(
            &[button(accept, true), button(decline, false)],
            Some("JieqiBot"),
        );
        let row = &markup.inline_keyboard[0];
        match &row[0].kind {
            InlineKeyboardButtonKind::Url(url) => {
                assert_eq!(url.as_str(), "https://t.me/JieqiBot?start=acc_c4f7k")
            }
            other => panic!("expected a link, got {other:?}"),
        }
        match &row[1].kind {
            InlineKeyboardButtonKind::CallbackData(data) => assert_eq!(data, "dec_c4f7k"),
            other => panic!("expected a callback, got {other:?}"),
        }
    }

    #[test]
    fn a_link_becomes_a_url_button_and_a_bad_one_is_left_out() {
        let page = ButtonAction::Link("https://bot.example.org/g/g7k2".to_owned());
        let broken = ButtonAction::Link("not a url".to_owned());
        let markup = keyboard(&[button(page, false), button(broken, false)], None);
        assert_eq!(markup.inline_keyboard[0].len(), 1);
        assert!(matches!(
            &markup.inline_keyboard[0][0].kind,
            InlineKeyboardButtonKind::Url(url) if url.as_str() == "https://bot.example.org/g/g7k2"
        ));
    }

    #[test]
    fn a_mini_app_becomes_a_web_app_button_unless_its_address_is_plain_http() {
        let app = ButtonAction::App("https://bot.example.org/g/g7k2".to_owned());
        let plain = ButtonAction::App("http://127.0.0.1:8090/g/g7k2".to_owned());
        let markup = keyboard(&[button(app, false), button(plain, false)], None);
        let row = &markup.inline_keyboard[0];
        assert!(matches!(
            &row[0].kind,
            InlineKeyboardButtonKind::WebApp(info) if info.url.as_str() == "https://bot.example.org/g/g7k2"
        ));
        assert!(matches!(
            &row[1].kind,
            InlineKeyboardButtonKind::Url(url) if url.as_str() == "http://127.0.0.1:8090/g/g7k2"
        ));
    }

    #[test]
    fn without_a_known_username_accept_stays_a_plain_button() {
        let accept = ButtonAction::Accept("c4f7k".parse().unwrap());
        let markup = keyboard(&[button(accept, true)], None);
        assert!(matches!(
            &markup.inline_keyboard[0][0].kind,
            InlineKeyboardButtonKind::CallbackData(data) if data == "acc_c4f7k"
        ));
    }

    #[test]
    fn resign_sits_on_a_row_of_its_own_below_offer_a_draw() {
        let id: jieqi_service::GameId = "g7k2".parse().unwrap();
        let markup = keyboard(
            &[
                button(ButtonAction::OfferDraw(id.clone()), false),
                button(ButtonAction::Resign(id), false),
            ],
            Some("jieqi_bot"),
        );
        assert_eq!(markup.inline_keyboard.len(), 2);
        assert_eq!(markup.inline_keyboard[0].len(), 1);
        assert_eq!(markup.inline_keyboard[1].len(), 1);
    }

    #[test]
    fn no_buttons_make_an_empty_keyboard() {
        assert!(keyboard(&[], Some("JieqiBot")).inline_keyboard.is_empty());
    }
}
