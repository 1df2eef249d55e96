"""Asks caissify-pairings (an implementation of the FIDE Dutch system nobody here wrote)
for one round's pairing of each TRF-16 file: reads `path round` pairs, one a line, on
standard input and prints one JSON object a line:
{"file": ..., "round": r, "games": [[white, black], ...], "bye": [n]}.
The round is paired from the rounds before it; the file's entries for that round say only
who is to be paired (H/F/Z byes are not). Numbers are TRF starting ranks."""
import json
import sys

from caissify_pairings.engines.dutch import DutchEngine
from caissify_pairings.fpc import (
    _build_engine_players,
    _build_previous_pairings,
    _infer_initial_color,
)
from caissify_pairings.trf import TRFParser


def main():
    for line in sys.stdin:
        if not line.strip():
            continue
        path, rnd = line.rsplit(" ", 1)
        rnd = int(rnd)
        with open(path, encoding="utf-8") as f:
            parsed = TRFParser(f.read()).parse()
        players = {p["starting_number"]: p for p in parsed["players"]}
        total = parsed["tournament"].get("total_rounds")
        # XXC is what the file says; the checker's own guess is only a fallback.
        method = parsed["tournament"].get("color_method", "")
        initial = {"white1": "white", "black1": "black"}.get(method.lower(), _infer_initial_color(players))
        engine = DutchEngine(
            players=_build_engine_players(players, rnd),
            previous_pairings=_build_previous_pairings(players, rnd),
            round_number=rnd,
            total_rounds=total,
            initial_color=initial,
        )
        games, bye = [], []
        for p in engine.generate_pairings():
            if p.get("black_id") is None or p.get("bye"):
                bye.append(p["white_id"])
            else:
                games.append([p["white_id"], p["black_id"]])
        print(json.dumps({"file": path, "round": rnd, "games": games, "bye": bye}), flush=True)


if __name__ == "__main__":
    main()
