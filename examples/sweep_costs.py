"""Where a sweep's wall time goes besides playing, and what that means for many workers.

    .venv/bin/python examples/sweep_costs.py [--game set_sail] [--players 4] [--games 1000000]
        [--jobs 2] [--workers 16]

Runs one sweep (robustness off, report on, into a temporary folder) in this process, with a
timer around each step of the sweep process: loading simkit, preparing the engines,
measuring speeds to size chunks, starting the worker pool, playing, merging the parts, the
summary, and the report with the small files (cells, manifest, spec); "other" is the rest
(loading the spec, planning). Playing is the only step that more workers shorten; the
others are the sweep's fixed costs. The engines should be in numba's cache (run the sweep
once first), or preparing them counts a compile.

The last lines project the sweep onto `--workers` workers (Amdahl's law): the fixed costs as
measured, the play as measured times jobs / workers, against one worker playing it all. It
assumes every added core plays as fast as these did, which only a machine with that many
cores can confirm: it is a projection, not a measurement.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

BEGAN = time.perf_counter()
import simkit  # (after BEGAN: the import is one of the costs measured)
from simkit import results, runner

SPENT: dict[str, float] = {}


@contextmanager
def timed(step: str):
    began = time.perf_counter()
    try:
        yield
    finally:
        SPENT[step] = SPENT.get(step, 0.0) + time.perf_counter() - began


def wrap(module, name: str, step: str) -> None:
    real = getattr(module, name)

    def timed_call(*args, **kwargs):
        with timed(step):
            return real(*args, **kwargs)

    setattr(module, name, timed_call)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="set_sail")
    parser.add_argument("--players", default="4")
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--workers", type=int, default=16)
    args = parser.parse_args()
    SPENT["loading simkit"] = time.perf_counter() - BEGAN
    wrap(runner, "_prepare_engines", "preparing engines")
    wrap(runner, "_rates_and_hashes", "measuring speeds (chunk sizes)")
    wrap(runner, "_spawn_workers_ignoring_ctrl_c", "starting workers")
    wrap(runner, "_execute", "playing")
    wrap(results, "merge", "merging parts")
    wrap(results, "write_summary", "summary")
    wrap(results, "finalise", "finalise")  # merge, small files, summary, then the report (its import included)
    began = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        simkit.sweep(game=args.game, players=args.players, games=args.games, robustness="off", jobs=args.jobs,
                     out=Path(tmp) / "sweep", quiet=True)
    whole = time.perf_counter() - began + SPENT["loading simkit"]
    play = SPENT["playing"] - SPENT.get("starting workers", 0.0)
    SPENT["playing"] = play
    SPENT["report and small files"] = SPENT.pop("finalise") - SPENT["merging parts"] - SPENT["summary"]
    fixed = whole - play
    print(f"{args.games:,} games of {args.game} at {args.players} players, --jobs {args.jobs}: {whole:.1f} s")
    for step, seconds in SPENT.items():
        print(f"  {step:<32} {seconds:7.2f} s")
    print(f"  {'other':<32} {whole - sum(SPENT.values()):7.2f} s")
    print(f"fixed costs (all but playing): {fixed:.1f} s")
    one = fixed + play * args.jobs
    many = fixed + play * args.jobs / args.workers
    print(f"projected (Amdahl, every core as fast as these): 1 worker {one:.0f} s, {args.workers} workers "
          f"{many:.1f} s, {one / many:.1f}x")


if __name__ == "__main__":
    main()
