"""A sweep's speed-up on many workers, measured as a user waits for it.

    .venv/bin/python benchmarks/scaling.py [--game sea_of_thieves] [--players 4] [--games 1000000]
        [--jobs 1,2,4,8,16] [--repeats 1] [--json FILE]

First the one-core rate: `simkit bench GAME --players P --presets PRESET --json`, PRESET being
the game's default preset, which a sweep of the game plays at every seat (bench loads or
compiles the engine first and does not count it). Then, for each `--jobs` value, `simkit sweep
--game GAME --players P --games N --jobs J --robustness off --quiet` into a temporary folder,
timed from the command's start to its end: Python's start, loading the engines from numba's
cache, planning, starting the workers, playing, merging, the summary and the report. The
speed-up at J jobs is the time one core takes to play the games at the one-core rate, over
that wall time (how the speed work's 16-worker line is defined); with 1 among the `--jobs`, the
table also gives it against the 1-job sweep. `--repeats` runs each sweep that many times,
alternating the job counts, and keeps the fastest of each.

Run it on a quiet machine with at least as many cores as the largest `--jobs`: `simkit sweep`
caps `--jobs` to the cores it may use, and the script refuses a larger value rather than
measure a capped one. `benchmarks/sweep_costs.py` projects the same figure from a 2-core run.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SIMKIT = Path(sys.executable).with_name("simkit")


def fail(message: str) -> SystemExit:
    """One `error:` line on stderr, and exit code 2."""
    print(f"error: {message}", file=sys.stderr)
    return SystemExit(2)


def one_core_rate(game: str, players: int) -> tuple[str, float]:
    """(the game's default preset, its games/s on one core) from `simkit bench --json`."""
    from simkit import games as registry
    from simkit.core.errors import InputError

    try:
        preset = registry.get(game).default_strategy
    except InputError as e:
        raise fail(f"--game {game}: {e}") from None
    done = subprocess.run([str(SIMKIT), "bench", game, "--players", str(players), "--presets", preset, "--json"],
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise fail(f"simkit bench {game} failed: {(done.stderr.strip().splitlines() or ['?'])[-1]}")
    row = next(r for r in json.loads(done.stdout) if r["preset"] == preset)
    return preset, row["games_per_second"]


def timed_sweep(game: str, players: int, games: int, jobs: int) -> float:
    """Wall seconds of one `simkit sweep` at `jobs` workers, from the command's start to its end."""
    with tempfile.TemporaryDirectory() as tmp:
        began = time.perf_counter()
        done = subprocess.run([str(SIMKIT), "sweep", "--game", game, "--players", str(players), "--games", str(games),
                               "--jobs", str(jobs), "--robustness", "off", "--quiet", "--out", str(Path(tmp) / "s")],
                              capture_output=True, text=True, check=False)
        seconds = time.perf_counter() - began
    if done.returncode != 0:
        raise fail(f"the sweep at --jobs {jobs} failed: {(done.stderr.strip().splitlines() or ['?'])[-1]}")
    return seconds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="sea_of_thieves")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--jobs", default=None, help="comma-separated job counts (default: 1, 2, 4, ... up to the cores)")
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--json", type=Path, default=None, help="also write the figures to this file")
    args = parser.parse_args()
    from simkit.sweeps import runner

    cores = runner.cores()  # as `simkit sweep` counts them
    if args.jobs is None:
        jobs = [1 << k for k in range(cores.bit_length())]  # 1, 2, 4, ... up to the cores
        jobs += [cores] if jobs[-1] != cores else []
    else:
        try:
            jobs = [int(j) for j in args.jobs.split(",")]
        except ValueError:
            raise fail(f"--jobs {args.jobs}: not a comma-separated list of whole numbers; e.g. 1,8,16") from None
    if min(jobs) < 1:
        raise fail(f"--jobs {args.jobs}: a job count is 1 or more")
    too_many = [j for j in jobs if j > cores]
    if too_many:
        raise fail(f"--jobs {','.join(map(str, too_many))}: this machine lets this process use {cores} cores; "
                   f"measure on a machine with that many, or list fewer jobs")

    preset, rate = one_core_rate(args.game, args.players)
    engine = args.games / rate
    print(f"{args.game} at {args.players} players, preset {preset}: {rate:,.0f} games/s on one core, so "
          f"{args.games:,} games take {engine:.1f} s there (simkit bench)", flush=True)
    walls: dict[int, float] = {}
    for _ in range(args.repeats):
        for j in jobs:
            seconds = timed_sweep(args.game, args.players, args.games, j)
            walls[j] = min(walls.get(j, seconds), seconds)
            print(f"  --jobs {j}: {seconds:.1f} s", flush=True)
    print("| jobs | sweep wall time (s) | speed-up over the one-core rate |"
          + (" speed-up over the 1-job sweep |" if 1 in walls else ""))
    print("|---:|---:|---:|" + ("---:|" if 1 in walls else ""))
    for j in jobs:
        print(f"| {j} | {walls[j]:.1f} | {engine / walls[j]:.1f}x |"
              + (f" {walls[1] / walls[j]:.1f}x |" if 1 in walls else ""))
    if args.json:
        args.json.write_text(json.dumps({"game": args.game, "players": args.players, "games": args.games,
                                         "preset": preset, "one_core_games_per_second": rate, "cores": cores,
                                         "wall_seconds": {str(j): walls[j] for j in jobs}}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
