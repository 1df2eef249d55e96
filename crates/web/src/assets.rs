//! The page's static files (script, style sheet, icon), compiled into the binary and served
//! under names that carry a hash of their content, so browsers may keep them forever: a new
//! version is a new name.

use sha2::{Digest, Sha256};

/// One static file.
#[derive(Clone, Debug)]
pub(crate) struct Asset {
    /// Its name with the content hash (`game.3f2a9c1b7d4e.js`).
    pub name: String,
    pub content_type: &'static str,
    pub body: &'static [u8],
}

/// Every static file of the page.
#[derive(Clone, Debug)]
pub(crate) struct Assets {
    pub script: Asset,
    pub style: Asset,
    pub icon: Asset,
    /// The Discord Activity's script: its source and Discord's Embedded App SDK bundled by
    /// `scripts/build-activity.sh` (CI checks it is what the script builds).
    pub activity: Asset,
    /// A tournament page's script: it loads the page again when the event changes.
    pub tournament: Asset,
}

fn hashed(stem: &str, extension: &str, content_type: &'static str, body: &'static [u8]) -> Asset {
    let digest = Sha256::digest(body);
    Asset {
        name: format!("{stem}.{}.{extension}", &hex::encode(digest)[..12]),
        content_type,
        body,
    }
}

impl Assets {
    pub(crate) fn load() -> Assets {
        Assets {
            script: hashed(
                "game",
                "js",
                "text/javascript; charset=utf-8",
                include_bytes!("../../../assets/web/game.js"),
            ),
            style: hashed(
                "game",
                "css",
                "text/css; charset=utf-8",
                include_bytes!("../../../assets/web/game.css"),
            ),
            icon: hashed(
                "icon",
                "svg",
                "image/svg+xml",
                include_bytes!("../../../assets/web/icon.svg"),
            ),
            activity: hashed(
                "activity",
                "js",
                "text/javascript; charset=utf-8",
                include_bytes!("../../../assets/web/activity.js"),
            ),
            tournament: hashed(
                "tournament",
                "js",
                "text/javascript; charset=utf-8",
                include_bytes!("../../../assets/web/tournament.js"),
            ),
        }
    }

    /// The file of that hashed name.
    pub(crate) fn get(&self, name: &str) -> Option<&Asset> {
        [
            &self.script,
            &self.style,
            &self.icon,
            &self.activity,
            &self.tournament,
        ]
        .into_iter()
        .find(|asset| asset.name == name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn asset_names_carry_their_content_hash() {
        let assets = Assets::load();
        assert!(assets.script.name.starts_with("game.") && assets.script.name.ends_with(".js"));
        assert_eq!(assets.script.name.len(), "game..js".len() + 12);
        assert!(assets.get(&assets.style.name).is_some());
        assert!(assets.get("game.js").is_none());
    }
}
