//! How one service message looks on Discord, whichever way it goes out (a channel message,
//! an interaction answer, a follow-up, an edit): text as content, pings for the mentioned
//! users (and nobody else), the picture as an attachment shown in an embed, buttons in rows.

use jieqi_service::{Button, ButtonAction, Message, Platform};
use serenity::all::{
    ButtonStyle, CreateActionRow, CreateAllowedMentions, CreateAttachment, CreateButton,
    CreateEmbed, CreateInteractionResponseFollowup, CreateInteractionResponseMessage,
    CreateMessage, EditAttachments, EditInteractionResponse, EditMessage, UserId,
};

/// Discord's limits.
const CONTENT_LIMIT: usize = 2000;
const DESCRIPTION_LIMIT: usize = 4096;
const LABEL_LIMIT: usize = 80;
const BUTTONS_PER_ROW: usize = 5;
const ROWS: usize = 5;

/// One message, laid out for Discord.
#[derive(Clone, Debug)]
pub(crate) struct Post {
    content: String,
    embed: Option<CreateEmbed>,
    attachment: Option<CreateAttachment>,
    components: Vec<CreateActionRow>,
    pings: Vec<UserId>,
}

impl Post {
    pub(crate) fn of(message: &Message) -> Post {
        let pings: Vec<UserId> = message
            .mentions
            .iter()
            .filter(|user| user.platform == Platform::Discord)
            .filter_map(|user| user.id.parse::<UserId>().ok())
            .collect();
        let prefix: String = pings.iter().map(|id| format!("<@{id}> ")).collect();
        let text = plain(message.text.trim());
        let text = text.as_str();
        let full = format!("{prefix}{text}");
        let (content, description) = if full.chars().count() <= CONTENT_LIMIT {
            (full, None)
        } else {
            // Long texts (the rules, a whole record) fit an embed's description.
            (
                prefix.trim_end().to_owned(),
                Some(cut(text, DESCRIPTION_LIMIT)),
            )
        };
        let attachment = message
            .image
            .as_ref()
            .map(|image| CreateAttachment::bytes(image.bytes.clone(), file_name(&image.file_name)));
        let embed = match (&attachment, description) {
            (None, None) => None,
            (attachment, description) => {
                let mut embed = CreateEmbed::new();
                if let Some(description) = description {
                    embed = embed.description(description);
                }
                // A picture shows in the embed; another file (a PGN record) is attached only.
                if let Some(attachment) = attachment.as_ref().filter(|a| is_picture(&a.filename)) {
                    embed = embed.attachment(attachment.filename.clone());
                }
                Some(embed)
            }
        };
        let content = if content.is_empty() && embed.is_none() {
            "…".to_owned()
        } else {
            content
        };
        Post {
            content,
            embed,
            attachment,
            components: rows(&message.buttons, false),
            pings,
        }
    }

    /// The files to upload with the builder made from this post (sent outside serenity's
    /// builders, which keep them to themselves).
    pub(crate) fn files(&self) -> Vec<CreateAttachment> {
        self.attachment.iter().cloned().collect()
    }

    fn allowed_mentions(&self) -> CreateAllowedMentions {
        // Only the users the service means to ping: never @everyone, roles, or names that
        // happen to look like mentions.
        CreateAllowedMentions::new().users(self.pings.iter().copied())
    }

    pub(crate) fn create_message(self) -> CreateMessage {
        let mut builder = CreateMessage::new()
            .content(self.content.clone())
            .allowed_mentions(self.allowed_mentions())
            .components(self.components);
        if let Some(embed) = self.embed {
            builder = builder.embed(embed);
        }
        if let Some(attachment) = self.attachment {
            builder = builder.add_file(attachment);
        }
        builder
    }

    /// An edit of an earlier post's buttons only: its content, embed and picture stay.
    pub(crate) fn buttons_edit(self) -> EditMessage {
        EditMessage::new().components(self.components)
    }

    /// An edit of an earlier post. Without a new picture the earlier one stays.
    pub(crate) fn edit_message(self) -> EditMessage {
        let mut builder = EditMessage::new()
            .content(self.content.clone())
            .allowed_mentions(self.allowed_mentions())
            .components(self.components);
        if let Some(embed) = self.embed {
            builder = builder.embed(embed);
        }
        if let Some(attachment) = self.attachment {
            builder = builder.attachments(EditAttachments::new().add(attachment));
        }
        builder
    }

    pub(crate) fn response(self, ephemeral: bool) -> CreateInteractionResponseMessage {
        let mut builder = CreateInteractionResponseMessage::new()
            .content(self.content.clone())
            .allowed_mentions(self.allowed_mentions())
            .components(self.components)
            .ephemeral(ephemeral);
        if let Some(embed) = self.embed {
            builder = builder.embed(embed);
        }
        if let Some(attachment) = self.attachment {
            builder = builder.add_file(attachment);
        }
        builder
    }

    pub(crate) fn followup(self, ephemeral: bool) -> CreateInteractionResponseFollowup {
        let mut builder = CreateInteractionResponseFollowup::new()
            .content(self.content.clone())
            .allowed_mentions(self.allowed_mentions())
            .components(self.components)
            .ephemeral(ephemeral);
        if let Some(embed) = self.embed {
            builder = builder.embed(embed);
        }
        if let Some(attachment) = self.attachment {
            builder = builder.add_file(attachment);
        }
        builder
    }

    pub(crate) fn edit_response(self) -> EditInteractionResponse {
        let mut builder = EditInteractionResponse::new()
            .content(self.content.clone())
            .allowed_mentions(self.allowed_mentions())
            .components(self.components);
        if let Some(embed) = self.embed {
            builder = builder.embed(embed);
        }
        if let Some(attachment) = self.attachment {
            builder = builder.new_attachment(attachment);
        }
        builder
    }
}

/// Buttons in rows of five, Resign on a row of its own below the others (so that a tap aimed
/// at "Offer a draw" cannot land on it); `disabled` for posts whose buttons went stale.
pub(crate) fn rows(buttons: &[Button], disabled: bool) -> Vec<CreateActionRow> {
    let (resign, others): (Vec<Button>, Vec<Button>) = buttons
        .iter()
        .cloned()
        .partition(|button| button.action.is_resign());
    others
        .chunks(BUTTONS_PER_ROW)
        .chain(resign.chunks(BUTTONS_PER_ROW))
        .take(ROWS)
        .map(|chunk| {
            CreateActionRow::Buttons(
                chunk
                    .iter()
                    .map(|button| match &button.action {
                        // A link stays usable on a stale post: the page is still there.
                        ButtonAction::Link(url) | ButtonAction::App(url) => {
                            CreateButton::new_link(url).label(cut(&button.label, LABEL_LIMIT))
                        }
                        action => CreateButton::new(action.encode())
                            .label(cut(&button.label, LABEL_LIMIT))
                            .style(style(action))
                            .disabled(disabled),
                    })
                    .collect(),
            )
        })
        .collect()
}

fn style(action: &ButtonAction) -> ButtonStyle {
    match action {
        ButtonAction::Accept(_) | ButtonAction::Rematch(_) | ButtonAction::JoinTournament(_) => {
            ButtonStyle::Success
        }
        ButtonAction::Decline(_)
        | ButtonAction::Resign(_)
        | ButtonAction::ResignAt(..)
        | ButtonAction::ResignConfirm(_) => ButtonStyle::Danger,
        ButtonAction::OfferDraw(_)
        | ButtonAction::OfferDrawAt(..)
        | ButtonAction::Link(_)
        | ButtonAction::App(_)
        | ButtonAction::LeaveTournament(_) => ButtonStyle::Secondary,
        ButtonAction::Review(_) | ButtonAction::PlayOnBoard(_) | ButtonAction::PlayInDiscord(_) => {
            ButtonStyle::Primary
        }
    }
}

/// The service's text, which is plain, as Discord shows it plainly: the characters its
/// Markdown reads (`*bold*`, `_it_`, `~~x~~`, `` `code` ``, `||spoiler||`, `[a](link)`,
/// `<@id>`, a `#` heading, a `>` quote, a `-` list at a line's start) escaped with a
/// backslash, so that a player's name shows as typed. Links stay as they are: Discord
/// reads a backslash in one as part of it.
fn plain(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 8);
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let mut at_start = true;
        for (j, word) in line.split(' ').enumerate() {
            if j > 0 {
                out.push(' ');
            }
            if word.starts_with("https://") || word.starts_with("http://") {
                out.push_str(word);
                at_start = false;
                continue;
            }
            for c in word.chars() {
                let inline = matches!(c, '\\' | '*' | '_' | '~' | '`' | '|' | '[' | ']' | '<');
                let block = at_start && matches!(c, '#' | '>' | '-');
                if inline || block {
                    out.push('\\');
                }
                out.push(c);
                at_start = false;
            }
        }
    }
    out
}

/// At most `limit` characters, with an ellipsis when cut.
fn cut(text: &str, limit: usize) -> String {
    if text.chars().count() <= limit {
        return text.to_owned();
    }
    let mut cut: String = text.chars().take(limit.saturating_sub(1)).collect();
    cut.push('…');
    cut
}

/// True for the pictures an embed can show (board PNGs, game GIFs).
fn is_picture(name: &str) -> bool {
    name.rsplit_once('.').is_some_and(|(_, extension)| {
        ["png", "gif"]
            .iter()
            .any(|known| extension.eq_ignore_ascii_case(known))
    })
}

/// Discord matches `attachment://name` against the uploaded file's name, which must be plain.
fn file_name(name: &str) -> String {
    let clean: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_') {
                c
            } else {
                '_'
            }
        })
        .collect();
    if clean.trim_matches(['.', '_']).is_empty() {
        "board.png".to_owned()
    } else {
        clean
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use jieqi_service::{Destination, Image, MessageKind, UserId as PlayerId};
    use serde_json::Value;

    fn message() -> Message {
        Message::text(
            Destination::Chat(jieqi_service::ChatId::new(Platform::Discord, "5")),
            MessageKind::Board,
            "Alice played h2e2. Bob to move.",
        )
    }

    fn json(builder: &impl serde::Serialize) -> Value {
        serde_json::to_value(builder).expect("serialisable")
    }

    #[test]
    fn a_board_is_an_attachment_shown_in_an_embed_and_pings_only_the_mentioned() {
        let message = message()
            .with_image(Some(Image {
                bytes: vec![1, 2, 3],
                file_name: "g7k2-3.png".into(),
            }))
            .with_mentions(vec![PlayerId::new(Platform::Discord, "77")]);
        let body = json(&Post::of(&message).create_message());
        assert_eq!(body["content"], "<@77> Alice played h2e2. Bob to move.");
        assert_eq!(body["embeds"][0]["image"]["url"], "attachment://g7k2-3.png");
        assert_eq!(body["allowed_mentions"]["users"], serde_json::json!(["77"]));
        assert_eq!(body["allowed_mentions"]["parse"], serde_json::json!([]));
    }

    #[test]
    fn markdown_in_the_text_is_escaped_and_links_are_left_whole() {
        let mut message = message();
        message.text = "**Eve** _it_ ~~x~~ `c` ||s|| [x](https://e.example) <@1> 10m|30s\n# big\n> quote\n- item a-b\nhttps://jieqi.example/g/a_b".into();
        let body = json(&Post::of(&message).create_message());
        assert_eq!(
            body["content"],
            "\\*\\*Eve\\*\\* \\_it\\_ \\~\\~x\\~\\~ \\`c\\` \\|\\|s\\|\\| \\[x\\](https://e.example) \\<@1> 10m\\|30s\n\\# big\n\\> quote\n\\- item a-b\nhttps://jieqi.example/g/a_b"
        );
        message.text = "Alice played C2.5, Bob H8+7 (3+2).".into();
        let body = json(&Post::of(&message).create_message());
        assert_eq!(
            body["content"], "Alice played C2.5, Bob H8+7 (3+2).",
            "nothing to escape"
        );
    }

    #[test]
    fn long_texts_move_into_the_embed_within_discords_limits() {
        let mut message = message();
        message.text = "x".repeat(5000);
        let body = json(&Post::of(&message).create_message());
        assert_eq!(body["content"], "");
        let description = body["embeds"][0]["description"]
            .as_str()
            .unwrap_or_default();
        assert_eq!(description.chars().count(), DESCRIPTION_LIMIT);
    }

    #[test]
    fn button_ids_carry_the_encoded_action_only() {
        let action = ButtonAction::Resign("g7k2".parse().expect("id"));
        let message = message().with_buttons(vec![Button {
            label: "Resign".into(),
            action: action.clone(),
            deep_link_accept: false,
        }]);
        let body = json(&Post::of(&message).create_message());
        let button = &body["components"][0]["components"][0];
        assert_eq!(button["custom_id"], action.encode());
        assert_eq!(button["label"], "Resign");
        let stale = json(&rows(&message.buttons, true));
        assert_eq!(stale[0]["components"][0]["disabled"], true);
    }

    #[test]
    fn a_link_is_a_link_button_that_stays_usable_on_a_stale_post() {
        let message = message().with_buttons(vec![Button {
            label: "Watch live".into(),
            action: ButtonAction::Link("https://bot.example.org/g/g7k2".into()),
            deep_link_accept: false,
        }]);
        let stale = json(&rows(&message.buttons, true));
        let button = &stale[0]["components"][0];
        assert_eq!(button["style"], 5, "Discord's link style");
        assert_eq!(button["url"], "https://bot.example.org/g/g7k2");
        assert!(button.get("custom_id").is_none_or(|id| id.is_null()));
        assert!(button.get("disabled").is_none_or(|d| d != true));
    }

    #[test]
    fn resign_sits_on_a_row_of_its_own_below_offer_a_draw() {
        let id: jieqi_service::GameId = "g7k2".parse().expect("id");
        let button = |action| Button {
            label: "b".into(),
            action,
            deep_link_accept: false,
        };
        let buttons = vec![
            button(ButtonAction::Resign(id.clone())),
            button(ButtonAction::OfferDraw(id)),
        ];
        let rows = json(&rows(&buttons, false));
        assert_eq!(rows.as_array().map(Vec::len), Some(2));
        assert!(
            rows[0]["components"][0]["custom_id"]
                .as_str()
                .is_some_and(|c| !c.starts_with("res_"))
        );
        assert!(
            rows[1]["components"][0]["custom_id"]
                .as_str()
                .is_some_and(|c| c.starts_with("res_"))
        );
    }

    #[test]
    fn odd_file_names_are_made_plain() {
        assert_eq!(file_name("g7k2 12/é.png"), "g7k2_12__.png");
        assert_eq!(file_name(".."), "board.png");
    }
}
