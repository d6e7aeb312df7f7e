"""Measure how the robustness phase labels a finding on real games: the test dice game
(the second table of docs/statistics.md, "Robustness labels: measured").

    SIMKIT_GAME_MODULES=tests.dicegame PYTHONPATH=. .venv/bin/python benchmarks/ci/robustness_dice.py [--runs 500]

The finding is seat 0's share of decided games at 2 players against fair, made by a head start
(`head_start`, points at set-up) of seat 0. Each run re-measures it, on the same seeds, under a
rule set that changes nothing (the die's faces listed in another order: other games, the same
odds), halves the effect, removes it or reverses it (other head starts, with the reordered
die), and decides it look by look with the phase's own code (simkit.sweeps.robustness: `schedule`,
`look_seed`, `columns`, `_judge`; the paired sums of simkit.analysis.robustness):
look 0 plays the original's 10,000 games on the run's root seed, each later look doubles the
games on a seed of its own with the original played again beside it, up to 320,000 games, one
of 4 re-measurements of the finding, δ = 2 points, α = 5%. Every run has its own root seed.

First the head starts are calibrated: each one's effect measured on CALIBRATION games (to about
±0.15 points) with the reordered die (the same odds as the shipped one, so the same effect), the
original's head start picked nearest to --effect and each re-measurement's nearest to its target.
The table gives, per case, the share of runs ending in each label and the games they took.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

import numpy as np

from simkit import games as registry
from simkit.analysis import robustness as labelling
from simkit.core.rng import game_seeds
from simkit.sweeps import results, runner
from simkit.sweeps.robustness import GAMES, _judge, columns, look_seed, schedule

PLAYERS = 2
ORIGINAL_GAMES = 10_000
REMEASUREMENTS = 4
CALIBRATION = 500_000
FACES_REORDERED = "# the faces of the d6 in another order: the same odds, other games\n6 3 1 5 2 4\n"
TARGETS = (("nothing changed", 1.0, "holds"), ("effect halved", 0.5, "weaker"), ("effect gone", 0.0, "vanishes"),
           ("effect reversed", -1.0, "reverses"))


def play(rules, root: int, start: int, stop: int, cell_id: str):
    """The games and seats tables of games start..stop-1 of a 2-player default-preset cell."""
    game = registry.get("dicegame")
    lineup = (game.default_strategy,)
    seeds = game_seeds(np.uint64(root), start, stop)
    strategies = runner.seat_strategies(game, lineup, PLAYERS, start, stop - start)
    out_games, out_seats, _ = runner.play(game, rules, strategies, seeds, lineup=lineup)
    return results.chunk_tables(game, cell_id, start, seeds, strategies, out_games, out_seats)


def compiled(head: tuple[int, int], components: str | None):
    game = registry.get("dicegame")
    overrides = {"head_start": [head[0], head[1], 0, 0]} | ({"components": components} if components else {})
    return game.compile(game.rules.resolve("standard", overrides), PLAYERS)


def effect(rules, games: int = CALIBRATION, root: int = 99) -> float:
    """Seat 0's share of decided games minus 1/2, over `games` games."""
    finding = {"kind": "seat", "key": ["seat", 0]}
    g, s = play(rules, root, 0, games, "c")
    x = columns(g, s, "c", finding, games)
    return float(x["x"].sum() / x["d"].sum() - 1.0 / PLAYERS)


def head_starts() -> list[tuple[int, int]]:
    """Seat 0 ahead by 0..10 points, then seat 1 ahead by 1..10."""
    return [(h, 0) for h in range(11)] + [(0, h) for h in range(1, 11)]


def run_once(original, again, root: int, finding: dict) -> tuple[str, int]:
    """One re-measurement decided look by look as the phase decides it: (label, games played)."""
    looks = schedule(ORIGINAL_GAMES, max(ORIGINAL_GAMES, GAMES))
    sums = None
    played = 0
    for k, total in enumerate(looks):
        seed = root if k == 0 else look_seed(root, k)
        n = total - played
        ga, sa = play(original, seed, 0, n, "a")
        gb, sb = play(again, seed, 0, n, "b")
        a, b = columns(ga, sa, "a", finding, n), columns(gb, sb, "b", finding, n)
        sums = labelling.add_sums(sums, labelling.pair_sums("seat", a, b))
        played = total
        row = _judge(finding, "dice", sums, PLAYERS)
        if row["label"] != labelling.UNDETERMINED:
            break
    return row["label"], played


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=500, help="runs per case (default 500)")
    parser.add_argument("--effect", type=float, default=0.08, help="the original's seat-0 effect to aim at")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        reordered = Path(folder) / "reordered"
        reordered.mkdir()
        (reordered / "d6.txt").write_text(FACES_REORDERED)
        measured = {h: effect(compiled(h, str(reordered))) for h in head_starts()}
        base = min(measured, key=lambda h: abs(measured[h] - args.effect))
        print(f"original: head start {base}, seat 0 {100 * measured[base]:+.2f} points "
              f"({CALIBRATION:,} games)")
        original = compiled(base, None)
        print("| re-measurement | head start | true effect | runs | holds | weaker | vanishes | reverses "
              "| undetermined | expected label | mean games |")
        print("|---|---|---:|---:|---:|---:|---:|---:|---:|---|---:|")
        for name, scale, expected in TARGETS:
            head = min(measured, key=lambda h: abs(measured[h] - scale * measured[base]))
            again = compiled(head, str(reordered))
            finding = {"cell": "a", "kind": "seat", "key": ["seat", 0], "figure": measured[base],
                       "players": PLAYERS, "delta": labelling.DELTA["seat"],
                       "tail": labelling.tail(labelling.ALPHA, len(schedule(ORIGINAL_GAMES, GAMES)), REMEASUREMENTS)}
            ended: dict[str, int] = {}
            spent = []
            for r in range(args.runs):
                label, games = run_once(original, again, 1_000 + r, finding)
                ended[label] = ended.get(label, 0) + 1
                spent.append(games)
            shares = " | ".join(f"{100 * ended.get(k, 0) / args.runs:.1f}%" for k in
                                ("holds", "weaker", "vanishes", "reverses", "undetermined"))
            print(f"| {name} | {head} | {100 * measured[head]:+.2f} | {args.runs:,} | {shares} "
                  f"| {expected} | {np.mean(spent):,.0f} |", flush=True)


if __name__ == "__main__":
    main()
