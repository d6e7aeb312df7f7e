"""Is a tuned schedule as even as the best of its neighbourhood, on seeds the search never saw?

    .venv/bin/python benchmarks/tune/fresh_check.py set_sail starting_silver 3 3-1-3-3-3-3 \\
        --also 2-4-3-3-3-3 2-3-3-3-3-3 3-4-4-3-3-3 --games 16000 --seed 101

Sweeps the answer, every schedule one step from it on the seats that play (all combinations
up to 3 players; at 4 or more, one or two seats at a time), and the schedules named after
--also, on one fresh root seed (every schedule the same games);
prints each schedule's largest seat gap over decided games with its 95% interval and its
difference from the answer's, paired game by game as `simkit tune` compares values. The
answer is within the noise of the best when the best's paired difference from it reaches 0.
"""

import argparse
import itertools
import tempfile
from pathlib import Path

import polars as pl

import simkit
from simkit.search.tune import Evaluation, compare


def schedule(text: str) -> tuple[int, ...]:
    return tuple(int(v) for v in text.split("-"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("param")
    parser.add_argument("players", type=int)
    parser.add_argument("answer", type=schedule)
    parser.add_argument("--also", type=schedule, nargs="*", default=[])
    parser.add_argument("--games", type=int, default=16_000)
    parser.add_argument("--seed", type=int, default=101)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    answer, players = args.answer, args.players
    moves = [d for d in itertools.product((-1, 0, 1), repeat=players)
             if players <= 3 or sum(x != 0 for x in d) <= 2]
    box = [tuple(answer[s] + d[s] if s < players else answer[s] for s in range(len(answer))) for d in moves]
    values = list(dict.fromkeys([answer, *[v for v in box if min(v) >= 0], *args.also]))
    out = args.out or Path(tempfile.mkdtemp()) / "fresh"
    result = simkit.sweep(game=args.game, players=players, set={args.param: [list(v) for v in values]},
                          games=args.games, seed=args.seed, jobs=1, quiet=True, report=False, out=out)
    seats = result.seats.select("cell", "game_index", "seat", "win").sort("cell", "game_index", "seat")
    cells = {tuple(json_list(row["overrides"], args.param)): row["cell"] for row in result.cells.iter_rows(named=True)}
    evaluations = {}
    for value, cell in cells.items():
        wins = seats.filter(pl.col("cell") == cell)["win"].to_numpy().reshape(-1, players)
        evaluations[value] = Evaluation(value, wins.shape[0], str(out), wins, wins[:, 0] * 0)
    mine = evaluations[answer]
    rows = sorted(evaluations.values(), key=lambda e: e.terms("gap")[0])
    print(f"{args.game} {players}p, {args.param}, {args.games:,} games each on root seed {args.seed} ({out}):")
    print("| schedule | largest seat gap (points, 95% CI) | against the answer (paired, points) |")
    print("|---|---:|---:|")
    for evaluation in rows:
        figure = evaluation.figure("gap")
        label = "-".join(map(str, evaluation.value))
        change = "the answer" if evaluation is mine else "{:+.1f} ({:+.1f} to {:+.1f})".format(
            *(100 * compare(mine, evaluation, "gap")[k] for k in ("diff", "ci_low", "ci_high")))
        print(f"| {label} | {100 * figure['value']:.1f} ({100 * figure['ci_low']:.1f} to "
              f"{100 * figure['ci_high']:.1f}) | {change} |")
    best = rows[0]
    verdict = compare(mine, best, "gap") if best is not mine else None
    print()
    print("the answer is the best here" if verdict is None else
          f"the best here is {'-'.join(map(str, best.value))}; the answer is "
          + ("within the noise of it" if verdict["ci_high"] >= 0 else "clearly behind it"))


def json_list(overrides: str, param: str) -> list[int]:
    import json

    return json.loads(overrides)[param]


if __name__ == "__main__":
    main()
