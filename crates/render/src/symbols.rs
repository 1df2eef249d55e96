//! The symbol piece style, for players who do not read the characters: one plain silhouette
//! per role, drawn in a 100 x 100 box. Shapes borrow what a chess player already knows where
//! the pieces match (the chariot is a rook's tower, the soldier a pawn, the horse a knight's
//! head) and are bold enough to read on a phone's chat preview.

use jieqi_rules::Role;

/// The silhouette of `role` in `ink`, with details cut out in `face` (the disc's colour).
pub(crate) fn role(role: Role, ink: &str, face: &str) -> String {
    let template = match role {
        // A crown: three points with balls on a band.
        Role::General => {
            r#"
            <path d="M20 68 L13 30 L34 47 L50 20 L66 47 L87 30 L80 68 Z" fill="INK"/>
            <circle cx="13" cy="27" r="6" fill="INK"/>
            <circle cx="50" cy="17" r="6" fill="INK"/>
            <circle cx="87" cy="27" r="6" fill="INK"/>
            <rect x="19" y="72" width="62" height="11" rx="2" fill="INK"/>
            <circle cx="50" cy="56" r="5" fill="FACE"/>
            "#
        }
        // A shield crossed diagonally: the advisor guards the general and steps diagonally.
        Role::Advisor => {
            r#"
            <path d="M50 12 L84 24 L82 50 C80 68 66 80 50 88 C34 80 20 68 18 50 L16 24 Z" fill="INK"/>
            <path d="M33 32 L67 66 M67 32 L33 66" stroke="FACE" stroke-width="8" stroke-linecap="round"/>
            "#
        }
        // An elephant's head from the front: wide ears, domed head, trunk and tusks.
        Role::Elephant => {
            r#"
            <ellipse cx="22" cy="42" rx="16" ry="21" fill="INK"/>
            <ellipse cx="78" cy="42" rx="16" ry="21" fill="INK"/>
            <ellipse cx="50" cy="40" rx="21" ry="23" fill="INK"/>
            <path d="M41 52 L59 52 L58 76 C58 84 66 86 70 82 L74 88 C64 96 48 92 47 78 Z" fill="INK"/>
            <path d="M38 60 C33 66 30 70 26 72" stroke="INK" stroke-width="5" fill="none" stroke-linecap="round"/>
            <path d="M62 60 C67 66 70 70 74 72" stroke="INK" stroke-width="5" fill="none" stroke-linecap="round"/>
            <circle cx="42" cy="38" r="4" fill="FACE"/>
            <circle cx="58" cy="38" r="4" fill="FACE"/>
            "#
        }
        // A rook's tower with battlements.
        Role::Chariot => {
            r#"
            <path d="M22 86 L78 86 L78 76 L68 76 L65 44 L74 44 L74 16 L63 16 L63 26 L55 26 L55 16 L45 16 L45 26 L37 26 L37 16 L26 16 L26 44 L35 44 L32 76 L22 76 Z" fill="INK"/>
            <rect x="45" y="50" width="10" height="14" rx="5" fill="FACE"/>
            "#
        }
        // A cannon: a barrel raised on a carriage wheel.
        Role::Cannon => {
            r#"
            <path d="M14 60 L78 24 C82 22 88 30 86 34 L24 76 Z" fill="INK"/>
            <circle cx="84" cy="29" r="8" fill="INK"/>
            <circle cx="38" cy="70" r="18" fill="INK"/>
            <circle cx="38" cy="70" r="9" fill="FACE"/>
            <circle cx="38" cy="70" r="3.5" fill="INK"/>
            <rect x="12" y="84" width="60" height="7" rx="3" fill="INK"/>
            "#
        }
        // A knight's head facing left.
        Role::Horse => {
            r#"
            <path d="M30 88 L78 88 L76 74 C74 60 80 48 76 36 C72 22 60 14 48 13 L46 5 L38 15 C30 20 24 28 20 38 L12 52 C10 58 16 62 22 60 L30 55 C36 53 42 52 48 48 C46 60 34 68 30 78 Z" fill="INK"/>
            <circle cx="42" cy="30" r="4.5" fill="FACE"/>
            <path d="M56 22 C66 28 70 40 68 52" stroke="FACE" stroke-width="3.5" fill="none" stroke-linecap="round"/>
            "#
        }
        // A pawn.
        Role::Soldier => {
            r#"
            <circle cx="50" cy="27" r="14" fill="INK"/>
            <rect x="33" y="43" width="34" height="8" rx="4" fill="INK"/>
            <path d="M40 51 L60 51 C60 62 63 70 68 76 L32 76 C37 70 40 62 40 51 Z" fill="INK"/>
            <rect x="24" y="76" width="52" height="11" rx="3" fill="INK"/>
            "#
        }
    };
    template.replace("INK", ink).replace("FACE", face)
}
