"""Where a sweep's wall time goes besides playing, and what that means for many workers.

    .venv/bin/python benchmarks/sweep_costs.py [--game set_sail] [--players 4] [--games 1000000]
        [--jobs 2] [--workers 16]

Runs one sweep (robustness off, report on, into a temporary folder) in this process, with a
timer around each step of the sweep process: loading simkit, preparing the engines,
measuring speeds to size chunks, starting the worker pool, playing, merging the parts, the
summary, and the report with the small files (cells, manifest, spec); "other" is the rest
(loading the spec, planning). Playing is the only step that more workers shorten; the
others are the sweep's fixed costs. The engines should be in numba's cache (run the sweep
once first), or preparing them counts a compile.

The last lines project the sweep onto `--workers` workers. The sweep is planned as a sweep on
that many workers would plan it (its chunk sizes), and each chunk's wall time in its worker is
recorded. Two projections follow, each with the fixed costs as measured:
- Amdahl's law: the play as measured, times jobs / workers;
- chunk by chunk: `--workers` workers take the recorded chunks in the plan's order as they free
  up, each worker's first chunk carrying the start-up its first chunk carried here (numba's
  code generator, the engine loaded from the cache). Against the one-core rate (the games at
  the rate the engines played them, as `simkit bench` measures it), this is the issue's
  speed-up: the time one core would take to play the games, over the sweep's wall time.
Both assume every added core plays as fast as these did, which only a machine with that many
cores can confirm: they are projections, not measurements.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

BEGAN = time.perf_counter()
import simkit  # (after BEGAN: the import is one of the costs measured)
from simkit.sweeps import finish, results, runner

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


def record_chunks(chunks: list[dict]) -> None:
    """Keep what each finished chunk reports (its worker, wall time and play time), as it arrives."""
    real = runner._results

    def recorded(*args, **kwargs):
        for done in real(*args, **kwargs):
            chunks.append(done)
            yield done

    runner._results = recorded


def plan_for(workers: int) -> None:
    """Size the sweep's chunks as a sweep on `workers` workers would (runner.chunk_seconds)."""
    real = runner.chunk_seconds
    runner.chunk_seconds = lambda cells, rates, jobs: real(cells, rates, workers)


def by_worker(chunks: list[dict]) -> dict[int, list[dict]]:
    """Each worker's chunks, in the order they finished."""
    mine: dict[int, list[dict]] = {}
    for done in chunks:
        mine.setdefault(done["worker"], []).append(done)
    return mine


def start_up(chunks: list[dict]) -> float:
    """How much longer a worker's first chunk took than its later chunks of the same size would:
    the mean over the workers of first wall - first games x (wall per game of its later chunks)."""
    extra = []
    for first, *later in by_worker(chunks).values():
        if later:
            per_game = sum(d["wall"] for d in later) / sum(d["stop"] - d["start"] for d in later)
            extra.append(first["wall"] - (first["stop"] - first["start"]) * per_game)
    return max(0.0, sum(extra) / len(extra)) if extra else 0.0


def makespan(chunks: list[dict], workers: int, first: float) -> float:
    """Wall time of `workers` workers taking the chunks in the plan's order as they free up (what
    joblib does with batch_size=1), each chunk as long as it was here, the first of each worker
    `first` longer (the first chunks here carried theirs: it is taken out of them)."""
    firsts = {id(mine[0]) for mine in by_worker(chunks).values()}
    free = [0.0] * workers
    started = set()
    for done in sorted(chunks, key=lambda d: (d["cell_index"], d["start"])):
        worker = min(range(workers), key=free.__getitem__)
        wall = done["wall"] - (first if id(done) in firsts else 0.0)
        free[worker] += wall + (first if worker not in started else 0.0)
        started.add(worker)
    return max(free)


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
    wrap(finish, "write_summary", "summary")
    wrap(finish, "finalise", "finalise")  # merge, small files, summary, then the report (its import included)
    chunks: list[dict] = []
    record_chunks(chunks)
    plan_for(args.workers)
    began = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        simkit.sweep(game=args.game, players=args.players, games=args.games, robustness="off", jobs=args.jobs,
                     out=Path(tmp) / "sweep", quiet=True)
    whole = time.perf_counter() - began + SPENT["loading simkit"]
    play = SPENT["playing"] - SPENT.get("starting workers", 0.0)
    SPENT["playing"] = play
    SPENT["report and small files"] = SPENT.pop("finalise") - SPENT["merging parts"] - SPENT["summary"]
    fixed = whole - play
    print(f"{args.games:,} games of {args.game} at {args.players} players, --jobs {args.jobs}, "
          f"{len(chunks)} chunks (as planned for {args.workers} workers): {whole:.1f} s")
    for step, seconds in SPENT.items():
        print(f"  {step:<32} {seconds:7.2f} s")
    print(f"  {'other':<32} {whole - sum(SPENT.values()):7.2f} s")
    print(f"fixed costs (all but playing): {fixed:.1f} s")
    one = fixed + play * args.jobs
    many = fixed + play * args.jobs / args.workers
    print(f"projected, Amdahl (every core as fast as these): 1 worker {one:.0f} s, {args.workers} workers "
          f"{many:.1f} s, {one / many:.1f}x")
    engine = sum(done["seconds"] for done in chunks)  # the games at the one-core rate
    first = start_up(chunks)
    walls = fixed + makespan(chunks, args.workers, first)
    print(f"projected, chunk by chunk ({first:.2f} s start-up in each worker's first chunk, "
          f"{(sum(d['wall'] for d in chunks) - engine) / len(chunks) * 1000:.0f} ms a chunk besides playing): "
          f"{args.workers} workers {walls:.1f} s; the games take {engine:.1f} s at the one-core rate: "
          f"{engine / walls:.1f}x")

if __name__ == "__main__":
    main()
