#!/usr/bin/env python3
"""Cut the board font used by crates/render out of Noto Serif CJK TC Bold.

The render crate embeds assets/fonts/jieqi-board-serif.otf with include_bytes!, so the
picture never depends on the fonts of the machine that draws it. The subset holds only the
glyphs the pictures use: the piece characters of both sides, the river text 楚河 漢界, and
ASCII letters, digits and a little punctuation for coordinates and captions.

Requirements (Debian and PyPI):
    apt-get install -y fonts-noto-cjk
    pip install fonttools

Usage (from the repository root):
    python3 scripts/subset-font.py [path/to/NotoSerifCJK-Bold.ttc]

The family is renamed to "Jieqi Board Serif" (a modified version under the SIL Open Font
License 1.1, see assets/fonts/OFL.txt); the copyright notice is kept.
"""

import sys
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTCollection

from font_names import rename

SOURCE = "/usr/share/fonts/opentype/noto/NotoSerifCJK-Bold.ttc"
# Index of "Noto Serif CJK TC" in the collection: traditional forms (帥, 傌, 漢...).
TC_INDEX = 3
FAMILY = "Jieqi Board Serif"
POSTSCRIPT = "JieqiBoardSerif-Bold"

PIECES = "帥仕相俥傌炮兵將士象車馬砲卒"
RIVER = "楚河漢界"
ASCII = "".join(chr(c) for c in range(0x20, 0x7F))
TEXT = PIECES + RIVER + ASCII + "·–—"

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "assets" / "fonts" / "jieqi-board-serif.otf"


def main() -> int:
    source = sys.argv[1] if len(sys.argv) > 1 else SOURCE
    collection = TTCollection(source)
    font = collection.fonts[TC_INDEX]
    family = font["name"].getDebugName(1)
    if family != "Noto Serif CJK TC":
        print(f"font {TC_INDEX} of {source} is {family!r}, expected Noto Serif CJK TC",
              file=sys.stderr)
        return 1

    options = subset.Options()
    options.layout_features = ["kern", "liga"]
    options.name_IDs = [0, 1, 2, 3, 4, 5, 6, 13, 14]
    options.notdef_outline = True
    options.hinting = False
    options.desubroutinize = True
    subsetter = subset.Subsetter(options)
    subsetter.populate(text=TEXT)
    subsetter.subset(font)

    rename(font, FAMILY, POSTSCRIPT, "Bold", "2.001")

    missing = [c for c in TEXT if ord(c) not in font.getBestCmap()]
    if missing:
        print(f"the source font lacks {''.join(missing)!r}", file=sys.stderr)
        return 1

    # Same source, same bytes: do not stamp the time of the run into the head table.
    font.recalcTimestamp = False
    OUT.parent.mkdir(parents=True, exist_ok=True)
    font.save(OUT)
    print(f"wrote {OUT.relative_to(ROOT)} ({OUT.stat().st_size} bytes, {len(TEXT)} characters)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
