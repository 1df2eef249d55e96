#!/usr/bin/env python3
"""Cut the names font used by crates/render's standings picture out of Noto Sans CJK SC.

Standings show players' names as they wrote them: Latin with Vietnamese (and other)
accents, Greek, Cyrillic, simplified and traditional Chinese, Japanese, Korean. The render
crate embeds assets/fonts/jieqi-names-sans.otf with include_bytes!, so the picture never
depends on the fonts of the machine that draws it. The subset holds:

- ASCII, Latin-1, Latin Extended-A/B and Additional (all of Vietnamese), combining marks,
  Greek, Cyrillic, general punctuation, CJK punctuation, kana, full-width forms;
- the ideographs of GB 2312 (simplified), of Big5 level 1 (common traditional) and of
  JIS X 0208 level 1 (common Japanese), 9237 in all;
- the 2350 Hangul syllables of KS X 1001;
- the table's own signs: − (a loss) and ⋯ (the rows left out).

A character outside it is drawn as "?" (crates/render/src/standings.rs), never as a box.

Requirements (Debian and PyPI):
    apt-get install -y fonts-noto-cjk
    pip install fonttools

Usage (from the repository root):
    python3 scripts/subset-names-font.py [path/to/NotoSansCJK-Regular.ttc]

The family is renamed to "Jieqi Names Sans" (a modified version under the SIL Open Font
License 1.1, see assets/fonts/OFL.txt); the copyright notice is kept.
"""

import sys
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTCollection

from font_names import rename

SOURCE = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"
# Index of "Noto Sans CJK SC" in the collection.
SC_INDEX = 2
FAMILY = "Jieqi Names Sans"
POSTSCRIPT = "JieqiNamesSans-Regular"

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "assets" / "fonts" / "jieqi-names-sans.otf"


def decoded(codec, lead, trail):
    """Every character a two-byte `codec` gives for lead and trail bytes in the ranges."""
    out = set()
    for a in range(lead[0], lead[1] + 1):
        for b in range(trail[0], trail[1] + 1):
            try:
                text = bytes([a, b]).decode(codec)
            except UnicodeDecodeError:
                continue
            if len(text) == 1:
                out.add(text)
    return out


def ideographs(chars):
    return {c for c in chars if 0x4E00 <= ord(c) <= 0x9FFF}


def characters():
    ranges = [
        (0x20, 0x7E), (0xA0, 0x24F), (0x300, 0x36F), (0x370, 0x4FF), (0x1E00, 0x1EFF),
        (0x2010, 0x205F), (0x3000, 0x30FF), (0xFF00, 0xFFEF),
    ]
    chars = {chr(c) for a, b in ranges for c in range(a, b + 1)}
    # The table's own signs: minus (a loss), midline ellipsis (the gap before the asker).
    chars |= set("\u2212\u22ef")
    chars |= ideographs(decoded("gb2312", (0xB0, 0xF7), (0xA1, 0xFE)))
    chars |= ideographs(decoded("big5", (0xA4, 0xC6), (0x40, 0xFE)))
    chars |= ideographs(decoded("euc_jp", (0xB0, 0xCF), (0xA1, 0xFE)))
    chars |= {c for c in decoded("euc_kr", (0xB0, 0xC8), (0xA1, 0xFE))
              if 0xAC00 <= ord(c) <= 0xD7A3}
    return "".join(sorted(chars))


def main() -> int:
    source = sys.argv[1] if len(sys.argv) > 1 else SOURCE
    font = TTCollection(source).fonts[SC_INDEX]
    family = font["name"].getDebugName(1)
    if family != "Noto Sans CJK SC":
        print(f"font {SC_INDEX} of {source} is {family!r}, expected Noto Sans CJK SC",
              file=sys.stderr)
        return 1
    text = characters()
    options = subset.Options()
    options.layout_features = ["kern", "liga", "ccmp", "mark", "mkmk"]
    options.name_IDs = [0, 1, 2, 3, 4, 5, 6, 13, 14]
    options.notdef_outline = True
    options.hinting = False
    subsetter = subset.Subsetter(options)
    subsetter.populate(text=text)
    subsetter.subset(font)

    rename(font, FAMILY, POSTSCRIPT, "Regular", "2.004")

    font.recalcTimestamp = False
    OUT.parent.mkdir(parents=True, exist_ok=True)
    font.save(OUT)
    print(f"wrote {OUT.relative_to(ROOT)} ({OUT.stat().st_size} bytes, {len(text)} characters)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
