"""Approximate ratings of the engine's levels from their matches against Fairy-Stockfish.

Reads match rows from standard input, one a line: our level, Fairy-Stockfish's `Skill Level`,
our score and the games played (`club 10 12.5 20`; `#` starts a comment). Prints each level's
and each Skill Level's Elo on one scale, Fairy-Stockfish at full strength (Skill Level 20) at
0: the Bradley-Terry maximum-likelihood fit of all rows at once, a draw counting half a point.
Each pairing also gets one drawn game more, so that a 20/20 row gives a large finite gap
instead of an infinite one. The rows must connect every level to Skill Level 20 through
shared opponents, or the fit has no scale.

    python3 scripts/level-ratings.py < levels.txt
"""

import math
import sys

ANCHOR = "Skill 20"


def skill_name(skill):
    return f"Skill {skill}"


def read_rows(lines):
    rows = []
    for number, line in enumerate(lines, 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        fields = line.split()
        if len(fields) != 4:
            sys.exit(f"line {number}: expected LEVEL SKILL SCORE GAMES, got {line!r}")
        level, skill, score, games = fields
        try:
            skill, score, games = int(skill), float(score), int(games)
        except ValueError:
            sys.exit(f"line {number}: SKILL and GAMES must be whole numbers, SCORE a number: {line!r}")
        if games <= 0 or not 0 <= score <= games:
            sys.exit(f"line {number}: the score must lie between 0 and the {games} games played")
        rows.append((level, skill, score, games))
    return rows


def fit(rows):
    # One drawn game more a pairing: a 20/20 row gives a large finite gap, not an infinite one.
    rows = [
        (level, skill_name(skill), score + 0.5, games + 1)
        for level, skill, score, games in rows
    ]
    names = sorted({a for a, _, _, _ in rows} | {b for _, b, _, _ in rows})
    if ANCHOR not in names:
        sys.exit("no row against Skill Level 20, the scale's zero")
    reached, frontier = {ANCHOR}, [ANCHOR]
    while frontier:
        name = frontier.pop()
        for a, b, _, _ in rows:
            if name in (a, b):
                for other in (a, b):
                    if other not in reached:
                        reached.add(other)
                        frontier.append(other)
    if len(reached) < len(names):
        cut_off = ", ".join(sorted(set(names) - reached))
        sys.exit(f"no chain of shared opponents links {cut_off} to Skill Level 20")
    rating = {name: 0.0 for name in names}
    scale = 400 / math.log(10)
    for _ in range(5000):
        largest_step = 0.0
        for name in names:
            if name == ANCHOR:
                continue
            gradient = curvature = 0.0
            for a, b, score, games in rows:
                if name not in (a, b):
                    continue
                mine, other, points = (a, b, score) if name == a else (b, a, games - score)
                expected = 1 / (1 + 10 ** ((rating[other] - rating[mine]) / 400))
                gradient += points - games * expected
                curvature += games * expected * (1 - expected)
            # Half a Newton step: the levels pull on each other through shared opponents.
            step = 0.5 * scale * gradient / curvature
            rating[name] += step
            largest_step = max(largest_step, abs(step))
        if largest_step < 0.01:
            return rating
    sys.exit("the fit did not settle in 5,000 rounds")


def main():
    rows = read_rows(sys.stdin)
    rating = fit(rows)
    levels = sorted({a for a, _, _, _ in rows}, key=lambda name: rating[name])
    skills = [skill_name(skill) for skill in sorted({b for _, b, _, _ in rows})]
    for name in levels + skills:
        print(f"{name:10} {rating[name]:+6.0f}")


if __name__ == "__main__":
    main()
