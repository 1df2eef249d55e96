"""Relabels the Xiangqi positions of a Texel position file with Fairy-Stockfish's judgement.

`cargo run --release -p jieqi-engine --example texel -- generate ...` writes positions with
the result of the game they came from: a noisy label, since the engine's own games at a
few thousand nodes a move are often won by whoever blunders last. This script asks
Fairy-Stockfish (Debian's `fairy-stockfish`, Xiangqi, its classical evaluation) to search
each Xiangqi position for a fixed number of nodes and replaces the game's result with the
score that Fairy-Stockfish's value predicts: 1 / (1 + e^(-cp / SCALE)), from Red's side, a
mate counting as a certain result. SCALE is fitted first, on the same positions, as the
one at which Fairy-Stockfish's values best predict the games' results. The tuner's labels
therefore stay on the scale of game results, and its Jieqi positions (which Fairy-Stockfish
cannot read: it has no covered pieces) keep their own results and pass through unchanged.

Usage:
    python3 scripts/label-with-fairy-stockfish.py IN OUT [NODES] [JOBS]

defaults: 3,000 nodes a position, 2 Fairy-Stockfish processes at once. About 10 ms a
position on one core; the 125,000 positions of 1,300 games take some 10 minutes on two.
Fairy-Stockfish is searched afresh (no ucinewgame between positions: its table is kept,
which only speeds it up).
"""

import math
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

FAIRY_STOCKFISH = "/usr/games/fairy-stockfish"
# Our letters (WXF, elephant E, horse H) as Fairy-Stockfish's Xiangqi FEN writes them.
FSF_LETTER = {"K": "k", "A": "a", "E": "b", "R": "r", "C": "c", "H": "n", "P": "p"}
# A mate is worth this many centipawns: past any scale's saturation.
MATE_CP = 10_000


def fen(side, cells):
    """The FEN of a position line's side to move (`w` or `b`) and 90 cells, a0 to i9."""
    rows = []
    for rank in range(9, -1, -1):
        row, empty = "", 0
        for file in range(9):
            cell = cells[rank * 9 + file]
            if cell == ".":
                empty += 1
                continue
            if cell not in "KAERCHPkaerchp":
                raise ValueError(f"not a face-up Xiangqi piece: {cell!r}")
            if empty:
                row += str(empty)
                empty = 0
            letter = FSF_LETTER[cell.upper()]
            row += letter.upper() if cell.isupper() else letter
        if empty:
            row += str(empty)
        rows.append(row)
    return "/".join(rows) + f" {side} - - 0 1"


class FairyStockfish:
    def __init__(self):
        self.process = subprocess.Popen(
            [FAIRY_STOCKFISH],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            bufsize=1,
        )
        self.send("uci")
        self.read_until("uciok")
        for option in ("UCI_Variant value xiangqi", "Threads value 1", "Hash value 16"):
            self.send("setoption name " + option)
        self.send("isready")
        self.read_until("readyok")

    def send(self, line):
        self.process.stdin.write(line + "\n")

    def read_until(self, prefix):
        lines = []
        while True:
            line = self.process.stdout.readline()
            if not line:
                raise RuntimeError("Fairy-Stockfish quit")
            lines.append(line)
            if line.startswith(prefix):
                return lines

    def red_cp(self, side, cells, nodes):
        """Fairy-Stockfish's value of the position for Red, in its centipawns."""
        self.send("position fen " + fen(side, cells))
        self.send(f"go nodes {nodes}")
        cp = None
        for line in self.read_until("bestmove"):
            words = line.split()
            if "score" not in words:
                continue
            kind, value = words[words.index("score") + 1 : words.index("score") + 3]
            if kind == "cp":
                cp = int(value)
            elif kind == "mate":
                cp = MATE_CP if int(value) > 0 else -MATE_CP
        if cp is None:
            raise RuntimeError(f"no score for {fen(side, cells)}")
        return cp if side == "w" else -cp

    def quit(self):
        self.send("quit")
        self.process.wait()


def predicted(cp, scale):
    return 1 / (1 + math.exp(-cp / scale))


def main():
    if len(sys.argv) not in (3, 4, 5):
        sys.exit(__doc__)
    source, target = sys.argv[1], sys.argv[2]
    nodes = int(sys.argv[3]) if len(sys.argv) > 3 else 3000
    jobs = int(sys.argv[4]) if len(sys.argv) > 4 else 2
    lines = open(source).read().splitlines()
    xiangqi = [i for i, line in enumerate(lines) if line.startswith("x ")]
    chunks = [xiangqi[j::jobs] for j in range(jobs)]

    def label(chunk):
        engine = FairyStockfish()
        values = {}
        for i in chunk:
            _, side, cells, *_ = lines[i].split()
            values[i] = engine.red_cp(side, cells, nodes)
        engine.quit()
        return values

    cps = {}
    with ThreadPoolExecutor(jobs) as pool:
        for values in pool.map(label, chunks):
            cps.update(values)
    results = {i: float(lines[i].split()[5]) for i in xiangqi}

    def error(scale):
        return sum((results[i] - predicted(cps[i], scale)) ** 2 for i in xiangqi) / len(xiangqi)

    scale = min(range(50, 1001, 25), key=error)
    print(
        f"{len(xiangqi)} Xiangqi positions; scale {scale}: Fairy-Stockfish predicts their "
        f"games' results with error {error(scale):.5f}",
        file=sys.stderr,
    )
    with open(target, "w") as out:
        for i, line in enumerate(lines):
            if i in cps:
                fields = line.split()
                fields[5] = f"{predicted(cps[i], scale):.4f}"
                line = " ".join(fields)
            out.write(line + "\n")


if __name__ == "__main__":
    main()
