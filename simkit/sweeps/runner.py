"""Chunking, seeding, joblib backends and resume (docs/architecture.md, "A sweep's lifecycle").

A cell's games are cut into chunks; chunk (cell, start, stop) plays game indices
start..stop-1 with seeds `game_seeds(root, start, stop)`, so game i of every cell gets the
same seed (common random numbers) and a result never depends on chunk size, --jobs or
backend. Game i seats the line-up by seating i mod period of its balanced design
(`simkit.core.seating.design`).

The engine is compiled and warmed up in this (the parent) process before any worker
starts, so workers load it from numba's on-disk cache instead of compiling it several
times at once. One joblib.Parallel carries every chunk of the sweep; a chunk carries a
few seconds of work (measured in the warm-up), because a worker costs about a second to
start. Workers write their chunk as parquet parts and return only counts.

The plan (cells, chunk boundaries, root seed, rules hashes and the code identity of
simkit.sweeps.identity, sealed by a checksum) is written to plan.json before the first game;
`--resume` re-reads it, refuses other code, an edited plan and any part that is not the
plan's own (simkit.sweeps.results.verify_parts), plays the chunks whose parts are missing, and
finalises exactly as an uninterrupted run would.

Workers die with their sweep: each loky worker starts a thread watching its parent
(watch_parent), and SIGTERM stops a sweep as Ctrl-C does (workers stopped, one line).

--precision X stops a cell at the first checkpoint (a multiple of PRECISION_STEP games,
in game order) where seat 0's 95% Wilson half width is <= X. The checkpoint is found
from games 0..N-1 only, so the result is the same whatever order chunks finish in.
"""

from __future__ import annotations

import json
import math
import os
import platform
import re
import shutil
import signal
import sys
import time
from concurrent.futures.process import BrokenProcessPool  # loky's TerminatedWorkerError is one
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import cache, cached_property, lru_cache
from pathlib import Path

import numpy as np
import polars as pl

from simkit import games as registry
from simkit.core import traces
from simkit.core.errors import InputError
from simkit.core.files import fix_for, json_text, kind_of, read_json, remove_temporaries, why, write_text
from simkit.core.game import GAME_COLUMNS, LOG_WIDTH, SEAT_COLUMNS, Compiled, Game
from simkit.core.rng import game_seeds
from simkit.core.rules import rules_hash
from simkit.core.seating import design
from simkit.sweeps import finish, results
from simkit.sweeps.identity import code_identity, differences
from simkit.sweeps.spec import Cell, Sweep

TARGET_CHUNK_SECONDS = 3.0  # work a chunk should carry; a worker costs ~1 s to start
CHUNKS_PER_WORKER = 4  # a sweep big enough for it has at least this many chunks per worker (chunk_seconds)
MIN_CHUNK_SECONDS = 1.0  # but no chunk carries less: seconds of work each (writing its parts costs ~60 ms)
MAX_CHUNK_GAMES = 100_000  # bounds a worker's memory whatever the game's speed
MEASURE_SECONDS = 0.05  # per cell, to size its chunks
MEASURE_BUDGET = 5.0  # past this much measuring, cells reuse a measured rate of the same game and players
SMALL_CELL = 300  # a cell of at most this many games is one chunk (any engine plays 100 games/s)
PRECISION_STEP = 1_000  # --precision checkpoints
SLICES = 8  # a chunk is played in this many engine calls, between which a worker can notice its sweep died
WATCHDOG_SECONDS = 0.5  # how often a loky worker checks that the sweep that started it still runs
JOBLIB_TEMP = ".joblib.tmp"  # joblib's temporary folder, inside the sweep folder (never /dev/shm)
TRACKER = "joblib.externals.loky.backend.resource_tracker"  # the module of loky's resource tracker
BACKENDS = ("loky", "dask")


# -- playing games ---------------------------------------------------------------------------


def seat_strategies(game: Game, lineup: tuple[str, ...], players: int, start: int, n: int,
                    bots: dict | None = None) -> np.ndarray:
    """int64[n, players]: the strategy row (of `game.strategy_table(lineup, bots)`) of each seat in
    games start..start+n-1, from the line-up's balanced seating design (`simkit.core.seating.design`):
    game i plays seating i mod period, every strategy in every seat and every pair meeting
    equally often over each period."""
    index = game.strategy_table(lineup, bots)[1]
    seatings = design(tuple(lineup), players)[0]
    rows = np.array([[index.index(name) for name in seating] for seating in seatings], dtype=np.int64)
    return rows[np.arange(start, start + n, dtype=np.int64) % len(seatings)]


def play(game: Game, compiled: Compiled, strategies: np.ndarray, seeds: np.ndarray, log_capacity: int = 0,
         lineup: tuple[str, ...] = (), trace: np.ndarray | None = None, bots: dict | None = None):
    """Run the engine on one batch: (out_games, out_seats, log rows used). `strategies` holds
    rows of `game.strategy_table(lineup, bots)`. `trace`: an `arcs.trace_buffer` for the batch, which
    the engine fills with the score trace; None (the fast path) passes n_traced = 0."""
    n, players = strategies.shape
    out_games = np.zeros((n, GAME_COLUMNS + len(game.game_metrics)), dtype=np.int64)
    out_seats = np.zeros((n, players, SEAT_COLUMNS + len(game.seat_metrics)), dtype=np.int64)
    log = np.zeros((log_capacity, LOG_WIDTH), dtype=np.int64)
    log_count = np.zeros(1, dtype=np.int64)
    if trace is None:
        trace = np.zeros((0, 1, players), dtype=np.int64)
    engine = game.entry_for(strategies, lineup, bots)  # without the lookahead when no seat plays it
    engine(compiled.params, compiled.components, game.strategy_table(lineup, bots)[0], strategies,
           np.ascontiguousarray(seeds, dtype=np.uint64), out_games, out_seats, log, log_count, trace)
    return out_games, out_seats, log[: log_count[0]]


@lru_cache(maxsize=64)
def _compiled(game_id: str, variant: str, overrides: str, players: int) -> tuple[Compiled, str]:
    game = registry.get(game_id)
    values = game.rules.resolve(variant, json.loads(overrides))
    compiled = game.compile(values, players)
    return compiled, rules_hash(game_id, values, compiled.component_bytes)


def compiled(cell: Cell) -> tuple[Compiled, str]:
    """The cell's rule set ready for the engine, and its rules hash (cached per process).

    The hash covers the rule values, the component files and the bots: every row of the
    line-up's strategy table, so a changed preset, bot setting or tuned-preset file
    (simkit.core.bots) is a different hash.
    """
    rules, digest = _compiled(cell.game, cell.variant, json.dumps(cell.overrides, sort_keys=True), cell.players)
    table, labels = cell.strategy_table()
    return rules, rules_hash(cell.game, {"rules": digest, "strategies": labels}, table.tobytes())


def seat0_blocks(seats: pl.DataFrame) -> dict[int, tuple[int, float]]:
    """{block: (games, seat-0 wins)} of a chunk's seat rows, over PRECISION_STEP-game blocks (--precision)."""
    tally = (seats.filter(pl.col("seat") == 0)
             .group_by(pl.col("game_index") // PRECISION_STEP)
             .agg(pl.len().alias("games"), pl.col("win").sum().alias("wins")))
    return {int(b): (int(n), float(w)) for b, n, w in tally.iter_rows()}


def shippable(rules: Compiled) -> tuple:
    """A compiled rule set as plain values and arrays, to travel with every chunk
    (docs/architecture.md, "Seeds and reproducibility").

    Workers play exactly what the parent compiled (and the plan's rules hash records):
    they never read component files themselves, which may have changed since.
    """
    return tuple(rules.params), rules.components


def unship(game: Game, shipped: tuple) -> Compiled:
    params, components = shipped
    return Compiled(game.rules.tuple_type(*params), components, b"")


WORKER_MEMORY_GROWTH = 16 * 2**30  # bytes a loky worker may grow by before loky restarts it (watch_parent)


def watch_parent() -> None:
    """Runs in each loky worker as it starts (the pool's initializer): a daemon thread that ends
    the worker within WATCHDOG_SECONDS of the death of the process that started it, idle or busy.

    A killed sweep (SIGKILL, or `timeout`'s SIGTERM before it is handled) cannot stop its
    workers; an idle loky worker would otherwise wait for work for good, holding its memory
    and loky's resource tracker. A busy one notices between two slices of its chunk (the
    engine holds the interpreter while it plays a slice). It also lets the worker grow by
    WORKER_MEMORY_GROWTH before loky's leak check restarts it (see below).
    """
    import threading

    from joblib.externals.loky import process_executor

    # loky restarts a worker whose memory grew by 300 MB after its first task, taking it for a leak, and
    # warns on the terminal; a worker that compiles or loads engines holds that much by design (LLVM,
    # machine code), and its successor would load every engine again
    if hasattr(process_executor, "_MAX_MEMORY_LEAK_SIZE"):
        process_executor._MAX_MEMORY_LEAK_SIZE = WORKER_MEMORY_GROWTH
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(WATCHDOG_SECONDS)
        os._exit(1)

    threading.Thread(target=watch, name="simkit-watchdog", daemon=True).start()


def run_chunk(folder: str, cell: dict, cell_index: int, start: int, stop: int, root: int, rules: tuple,
              identity: dict, precise: bool = True, arcs: bool = False) -> dict:
    """Play one chunk with the rules it carries and write its parts; runs in a worker. Returns
    counts, the seconds spent playing, and the worker's process id with the chunk's whole time in
    it ("wall": benchmarks/sweep_costs.py projects a sweep onto more workers from these).

    `identity`: what each part records of the plan ({"plan", "cell", "seed"}, see
    simkit.sweeps.results.write_parts). The chunk is played in SLICES engine calls, so a worker whose
    sweep died stops within a slice (watch_parent).
    `precise`: the sweep has a --precision stop, so return seat 0's tallies by block.
    `arcs`: the engine fills a score trace per slice (simkit.core.traces), kept as a traces part.
    """
    entered = time.perf_counter()
    cell = Cell.from_dict(cell)
    game = registry.get(cell.game)
    rules = unship(game, rules)
    seeds = game_seeds(np.uint64(root), start, stop)
    strategies = seat_strategies(game, cell.lineup, cell.players, start, stop - start, cell.bots)
    slices, traced = [], []
    step = max(1, -(-(stop - start) // SLICES))
    began = time.perf_counter()
    for a in range(0, stop - start, step):
        # the buffer is one slice's: memory stays bounded by the slice, whatever the chunk
        trace = traces.trace_buffer(min(step, stop - start - a), cell.players) if arcs else None
        slices.append(play(game, rules, strategies[a:a + step], seeds[a:a + step], lineup=cell.lineup,
                           trace=trace, bots=cell.bots)[:2])
        if arcs:
            traced.append(traces.trace_rows(cell.id, start + a, trace))
    seconds = time.perf_counter() - began
    out_games = np.concatenate([g for g, _ in slices])
    out_seats = np.concatenate([s for _, s in slices])
    games, seats = results.chunk_tables(game, cell.id, start, seeds, strategies, out_games, out_seats,
                                        cell.strategy_table()[1])
    results.write_parts(Path(folder), cell_index, start, stop, identity, games, seats,
                        pl.concat(traced) if arcs else None)
    return {"cell_index": cell_index, "start": start, "stop": stop, "seconds": seconds,
            "blocks": seat0_blocks(seats) if precise else {}, "worker": os.getpid(),
            "wall": time.perf_counter() - entered}


# -- the plan ------------------------------------------------------------------------------------


PLAN_FORMAT = 2  # 2: the plan records its code identity and a checksum of itself


@dataclass
class Plan:
    """What a sweep folder will hold: stored as plan.json before the first game.

    The plan is the sweep's identity (docs/architecture.md, "Seeds and reproducibility"):
    its cells, chunks, root seed, rules hashes
    and the code that plays them (simkit.sweeps.identity), sealed by a checksum of all of it. A
    resume checks the checksum (a hand-edited plan is refused), the code (other code is
    refused, naming what changed) and every part against it (simkit.sweeps.results.verify_parts).
    """

    sweep: Sweep
    chunks: list[tuple[int, int, int]]  # (cell index, start, stop)
    rules_hashes: list[str]
    code: dict  # simkit.sweeps.identity.code_identity() when the plan was made
    created: str = field(default_factory=lambda: datetime.now(UTC).isoformat(timespec="seconds"))

    def content(self) -> dict:
        return {"format": PLAN_FORMAT, "created": self.created, "sweep": self.sweep.to_dict(),
                "rules_hashes": self.rules_hashes, "code": self.code, "chunks": [list(c) for c in self.chunks]}

    @cached_property
    def checksum(self) -> str:
        """sha256 of the plan's content as stored (16 hex): every part carries it, so a part of another
        plan is told apart."""
        return _checksum(json.loads(json.dumps(self.content())))

    def to_json(self) -> str:
        return json_text({**self.content(), "checksum": self.checksum})

    def identity(self, cell_index: int) -> dict:
        """What each part of cell `cell_index` records of this plan (simkit.sweeps.results.write_parts)."""
        return {"plan": self.checksum, "cell": self.sweep.cells[cell_index].id, "seed": self.sweep.seed}

    @classmethod
    def read(cls, folder: Path) -> Plan:
        path = folder / results.PLAN
        state = kind_of(path, str(path))
        if state in ("missing", "broken"):
            raise InputError(f"{folder} has no {results.PLAN}: there is no sweep to resume there")
        if state == "dir":
            raise InputError(f"{path} is a folder, not a plan: there is no sweep to resume there; start a new sweep")
        fresh = "start a new sweep into a new folder"
        d = read_json(path, fresh)
        if d.get("format") != PLAN_FORMAT:
            raise InputError(f"{path} was written by another version of simkit (plan format {d.get('format')!r}, "
                             f"this one reads {PLAN_FORMAT}) and cannot be checked against this code; {fresh}")
        stated = d.pop("checksum", None)
        if stated != _checksum(d):
            raise InputError(f"{path} was edited after the sweep started (its checksum does not match its "
                             f"contents): a plan cannot change once games are played; {fresh}")
        try:
            plan = cls(Sweep.from_dict(d["sweep"]), [tuple(c) for c in d["chunks"]], list(d["rules_hashes"]),
                       dict(d["code"]), d["created"])
        except (ValueError, KeyError, TypeError, AttributeError) as e:
            raise InputError(f"{path} is damaged ({e}); {fresh}") from None
        plan.check(path)
        return plan

    def check(self, path: Path) -> None:
        """Every cell plays a game that exists at a player count it allows, and the chunks of
        each cell cover its games exactly once (no chunk twice, no gap)."""
        cells = self.sweep.cells
        damaged = f"{path} is damaged"
        if len(self.rules_hashes) != len(cells):
            raise InputError(f"{damaged}: {len(cells)} cells but {len(self.rules_hashes)} rules hashes; start a "
                             "new sweep")
        for cell in cells:
            game = registry.get(cell.game)  # an unknown game is an InputError naming it
            possible = set(game.players).union(*(v.players or () for v in game.rules.variants))
            if cell.players not in possible or cell.players > (game.max_players or max(game.players)) \
                    or cell.games < 1:
                raise InputError(f"{damaged}: cell {cell.id} asks for {cell.players} players and {cell.games} "
                                 f"games; {game.id} is for {', '.join(map(str, sorted(possible)))} players; start a "
                                 "new sweep")
        covered: list[list[tuple[int, int]]] = [[] for _ in cells]
        for chunk in self.chunks:
            if not (len(chunk) == 3 and all(isinstance(x, int) for x in chunk) and 0 <= chunk[0] < len(cells)
                    and 0 <= chunk[1] < chunk[2] <= cells[chunk[0]].games):
                raise InputError(f"{damaged}: chunk {list(chunk)} names no cell's games; start a new sweep")
            covered[chunk[0]].append((chunk[1], chunk[2]))
        for cell, spans in zip(cells, covered):
            end = 0
            for start, stop in sorted(spans):
                if start != end:
                    what = f"games {end}..{start - 1} in no chunk" if start > end else f"game {start} in two chunks"
                    raise InputError(f"{damaged}: cell {cell.id} has {what}; start a new sweep")
                end = stop
            if end != cell.games:
                raise InputError(f"{damaged}: cell {cell.id} has games {end}..{cell.games - 1} in no chunk; start a "
                                 "new sweep")

    def starts(self) -> list[list[int]]:
        out: list[list[int]] = [[] for _ in self.sweep.cells]
        for cell_index, start, _ in self.chunks:
            out[cell_index].append(start)
        return out


def _checksum(content: dict) -> str:
    import hashlib

    return hashlib.sha256(json.dumps(content, sort_keys=True).encode()).hexdigest()[:16]


def chunk_bounds(games: int, size: int) -> list[tuple[int, int]]:
    """Games 0..games-1 in chunks of `size` (the last one shorter): a sweep's --chunk."""
    return [(start, min(start + size, games)) for start in range(0, games, size)]


def even_bounds(games: int, size: int) -> list[tuple[int, int]]:
    """Games 0..games-1 in as many chunks as `size` makes, of sizes that differ by one game at
    most: no short last chunk, so a worker that took one is not left waiting for the others
    (two workers sharing 35 chunks of 28,311 games and one of 9,115 end 2 s apart)."""
    n = -(-games // size)
    return [(games * k // n, games * (k + 1) // n) for k in range(n)]


# -- the precision stop ----------------------------------------------------------------------------


class _Precision:
    """Seat-0 tallies per cell by checkpoint block; finds the first checkpoint tight enough."""

    def __init__(self, cells: list[Cell], target: float | None):
        self.cells, self.target = cells, target
        self.blocks: list[dict[int, list]] = [{} for _ in cells]
        self.checked = [0] * len(cells)  # blocks 0..checked-1 are complete and not tight enough
        self.totals = [[0, 0.0] for _ in cells]
        self.stop: list[int | None] = [None] * len(cells)

    def add(self, cell_index: int, blocks: dict[int, tuple[int, float]]) -> None:
        if self.target is None:
            return
        from simkit.analysis.intervals import wilson

        mine = self.blocks[cell_index]
        for b, (n, wins) in blocks.items():
            tally = mine.setdefault(int(b), [0, 0.0])
            tally[0] += n
            tally[1] += wins
        cell, totals = self.cells[cell_index], self.totals[cell_index]
        while self.stop[cell_index] is None:
            b = self.checked[cell_index]
            size = min(PRECISION_STEP, cell.games - b * PRECISION_STEP)
            if size <= 0 or mine.get(b, [0])[0] < size:
                return
            totals[0] += mine[b][0]
            totals[1] += mine[b][1]
            low, high = wilson(totals[1], totals[0])
            self.checked[cell_index] = b + 1
            if (high - low) / 2 <= self.target and totals[0] < cell.games:
                self.stop[cell_index] = totals[0]

    def kept(self, cell_index: int) -> int:
        stop = self.stop[cell_index]
        return self.cells[cell_index].games if stop is None else stop


# -- running ---------------------------------------------------------------------------------------


def default_folder(name: str) -> Path:
    """reports/<name>-<YYYYmmdd-HHMMSS>, made unique if a sweep of the same name started this second."""
    base = Path("reports") / f"{name}-{datetime.now().strftime('%Y%m%d-%H%M%S')}"
    folder, n = base, 1
    while folder.exists():
        n += 1
        folder = base.with_name(f"{base.name}-{n}")
    return folder


def chunk_seconds(cells: list[Cell], rates: list[float], jobs: int) -> float:
    """The work each chunk of a new plan carries: about TARGET_CHUNK_SECONDS, cut so that the
    sweep's work makes whole waves (as many chunks for every worker, at least CHUNKS_PER_WORKER),
    but not below MIN_CHUNK_SECONDS: then as many whole waves as that floor allows, one at
    least. Workers take chunks as they free up, so the last wave is where cores wait: a million
    games of Set Sail at 12,500 games/s (80 s of work) in 3 s chunks is 27 chunks, which 16
    workers play as 16 and then 11 while 5 wait; in 1.25 s chunks it is 64, four waves, and on
    2 workers 28 chunks of 2.86 s, fourteen each. At 50,000 games/s (20 s of work), 16 workers
    get one chunk of 1.25 s each, not 20 chunks of 1 s in two waves. A result never depends on
    its chunks."""
    work = sum(cell.games / rate for cell, rate in zip(cells, rates) if rate > 0)
    waves = max(CHUNKS_PER_WORKER, math.ceil(work / (jobs * TARGET_CHUNK_SECONDS)))
    waves = max(1, min(waves, math.floor(work / (jobs * MIN_CHUNK_SECONDS))))
    return max(MIN_CHUNK_SECONDS, work / (waves * jobs))


def cores() -> int:
    """The cores this process may run on (its CPU affinity), which a container or `taskset` may limit."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def _check_options(jobs: int | None, chunk: int | None, backend: str, address: str | None,
                   force_jobs: bool = False) -> int:
    if backend not in BACKENDS:
        raise InputError(f"unknown backend '{backend}'; use one of: {', '.join(BACKENDS)}")
    if backend == "dask" and not address:
        raise InputError("--backend dask needs --address tcp://HOST:PORT of a running Dask scheduler")
    if address and backend != "dask":
        raise InputError("--address is for --backend dask; add --backend dask or drop --address")
    if chunk is not None and (isinstance(chunk, bool) or chunk < 1):
        raise InputError(f"--chunk must be a number of games >= 1, got {chunk}")
    if jobs is not None and (isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1):
        raise InputError(f"--jobs must be >= 1, got {jobs}")
    have = cores()
    jobs = have if jobs is None else jobs
    if jobs > have and backend == "loky" and not force_jobs:
        # each worker holds its own engines and tables: more workers than cores cost memory and play no faster
        print(f"warning: --jobs {jobs} is more than the {have} cores here; using {have} (each worker costs "
              f"memory and plays no faster; --force-jobs keeps {jobs})", file=sys.stderr, flush=True)
        jobs = have
    return jobs


def run(
    sweep: Sweep | None,
    out: str | Path | None = None,
    *,
    jobs: int | None = None,
    chunk: int | None = None,
    backend: str = "loky",
    address: str | None = None,
    resume: bool = False,
    quiet: bool = False,
    report: bool = True,
    force_jobs: bool = False,
) -> Path:
    """Run a sweep (or finish one with resume=True) into a folder; return the folder.

    Everything that can be checked is checked before the first game: the options, and
    that the folder is new (or, for resume, holds a plan that matches `sweep`, made by the
    same code, whose parts are its own). report=False skips report.md/.html and the plots
    (the tables and summary.json are still written), for notebooks and tests that only want
    the tables. `jobs` above the cores this process may use is capped to them, with a
    warning, unless force_jobs=True. A SIGTERM (`timeout`, a CI runner's cancel) stops the
    sweep like a Ctrl-C: workers stopped, finished chunks kept, one line saying how to resume.
    """
    jobs = _check_options(jobs, chunk, backend, address, force_jobs)
    began = time.perf_counter()
    show = not quiet and sys.stdout.isatty()
    if resume:
        if out is None:
            raise InputError("--resume needs --out DIR, the folder of the sweep to finish")
        folder = Path(out)
        if kind_of(folder, "--out") != "dir":
            raise InputError(f"{folder} is not a folder: there is no sweep to resume there")
        if results.is_complete(folder):
            missing = [f for f in results.FINAL_FILES if not (folder / f).exists()]
            if missing and missing != ["summary.json"]:
                raise InputError(f"the finished sweep in {folder} lacks {', '.join(missing)}; rerun it into a new "
                                 f"folder: simkit sweep {folder / 'spec.toml'} --out NEW_FOLDER")
            ran = read_json(folder / "manifest.json", f"rerun it into a new folder: simkit sweep "
                                                      f"{folder / 'spec.toml'} --out NEW_FOLDER").get("spec", {})
            if sweep is not None and sweep.to_dict() | {"source": ""} != ran | {"source": ""}:
                raise InputError(f"the spec and options differ from the finished sweep in {folder}")
            # every game and table is there: write what a sweep stopped while writing its summary or report left
            finish.finish_complete(folder, report)
            return folder
        plan = Plan.read(folder)
        if sweep is not None and sweep.to_dict() | {"source": ""} != plan.sweep.to_dict() | {"source": ""}:
            raise InputError(f"the spec and options differ from the sweep in {folder}; "
                             "resume it without them, or start a new sweep")
        sweep = plan.sweep
        claim = results.Claim(folder)
    else:
        folder = Path(out) if out is not None else default_folder(sweep.name)
        claim = results.prepare_new(folder)
        plan = None
    try:
        with _sigterm_as_interrupt():
            _run_claimed(folder, sweep, plan, jobs, chunk, backend, address, resume, report, show, began, quiet)
    except (InputError, KeyboardInterrupt, BrokenProcessPool, MemoryError) as e:
        kept = resume or not _forget_unplayed(folder)
        claim.release(remove=not kept)
        if isinstance(e, KeyboardInterrupt):
            word = "terminated" if isinstance(e, Terminated) else "interrupted"
            print(_stopped(word, folder, kept), file=sys.stderr, flush=True)
        elif isinstance(e, BrokenProcessPool):  # a worker killed (the OOM killer): docs/faults.md
            codes = re.search(r"exit codes of the workers are \{([^}]*)\}", str(e))
            died = f"a worker process died{f' ({codes.group(1)})' if codes else ''}, most likely killed by the " \
                   "system when memory ran out"
            raise InputError(f"{_stopped(died, folder, kept)}; hint: fewer --jobs (each worker holds its own "
                             f"engines) or a smaller --chunk") from None
        elif isinstance(e, MemoryError):
            raise InputError(f"{_stopped('out of memory', folder, kept)}; hint: --jobs 1, fewer cells, or a "
                             f"smaller --chunk (games per chunk)") from None
        raise
    except BaseException:
        claim.release()
        raise
    shutil.rmtree(folder / JOBLIB_TEMP, ignore_errors=True)
    claim.release(remove=True)
    return folder


def _stopped(word: str, folder: Path, kept: bool) -> str:
    """The line of a sweep that stopped early: what was kept, and the command that finishes it."""
    return (f"{word}: finished chunks are kept in {folder}; finish with: simkit sweep --out {folder} --resume"
            if kept else f"{word} before any game finished; nothing was kept")


class Terminated(KeyboardInterrupt):
    """A SIGTERM during a sweep, handled as a Ctrl-C is (the CLI exits 143 instead of 130)."""


@contextmanager
def _sigterm_as_interrupt():
    """Within the block, SIGTERM raises Terminated in the main thread (elsewhere it keeps its handler)."""
    def stop(signum, frame):
        raise Terminated()

    try:
        old = signal.signal(signal.SIGTERM, stop)
    except ValueError:  # not the main thread: signals are not ours to handle
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, old)


def _forget_unplayed(folder: Path) -> bool:
    """A new sweep stopped before any chunk finished leaves nothing behind (the folder can be used again).

    Returns False when finished chunks are kept (the sweep can be resumed).
    """
    parts = folder / results.PARTS
    if parts.exists() and any(p.suffix == ".parquet" for p in parts.iterdir()):
        return False
    shutil.rmtree(parts, ignore_errors=True)
    shutil.rmtree(folder / JOBLIB_TEMP, ignore_errors=True)
    (folder / results.PLAN).unlink(missing_ok=True)
    return True


def _cannot_write(folder: Path, e: OSError, kept: str) -> InputError:
    """The one line for a write that failed (a full disk, a folder made read-only): what is kept, and how to go on."""
    return InputError(f"cannot write the results in {folder}: {why(e)}{f' ({e.filename})' if e.filename else ''}; "
                      f"{kept}: {fix_for(e)}, then: simkit sweep --out {folder} --resume")


def _run_claimed(folder, sweep, plan, jobs, chunk, backend, address, resume, report, show, began,
                 quiet: bool = False) -> None:
    """Everything of `run` after the folder is claimed."""
    code = code_identity()
    if plan is not None:  # resume: the same code, and parts that are the plan's own, before anything is compiled
        if plan.code.get("hash") != code["hash"]:
            commit = plan.code.get("git_commit")
            restore = f"check out the code it started with (git checkout {commit[:12]}) and resume, or " if commit \
                else "restore the code it started with and resume, or "
            raise InputError(f"the code changed since the sweep in {folder} started ({differences(plan.code, code)}): "
                             f"its finished games were played by the old code, so finishing it now would mix two "
                             f"codes in one result; {restore}start a new sweep")
        remove_temporaries(folder)
        (folder / results.PARTS).mkdir(exist_ok=True)
        kinds = ("games", "seats", *((results.TRACES,) if sweep.arcs else ()))
        done, index = results.verify_parts(folder, plan.chunks, [plan.identity(i) for i in range(len(sweep.cells))],
                                           kinds, [c.players for c in sweep.cells])
    compile_began = time.perf_counter()
    _prepare_engines(sweep.cells, jobs, backend, show, folder, quiet)
    rates, hashes = _rates_and_hashes(sweep.cells, need_rates=plan is None and chunk is None)
    compile_seconds = time.perf_counter() - compile_began
    if plan is None:
        chunks = []
        seconds = chunk_seconds(sweep.cells, rates, jobs)
        for i, cell in enumerate(sweep.cells):
            if chunk:
                chunks += [(i, a, b) for a, b in chunk_bounds(cell.games, chunk)]
            else:  # rounded up, so that a cell of one wave's work is not cut into one chunk more
                size = max(1, min(MAX_CHUNK_GAMES, math.ceil(rates[i] * seconds)))
                chunks += [(i, a, b) for a, b in even_bounds(cell.games, size)]
        plan = Plan(sweep, chunks, hashes, code)
        try:
            write_text(folder / results.PLAN, plan.to_json())
            (folder / results.PARTS).mkdir()
        except OSError as e:
            raise _cannot_write(folder, e, "nothing was played yet") from None
        done, index = set(), {}
    else:
        for cell, old, new in zip(sweep.cells, plan.rules_hashes, hashes):
            if old != new:
                raise InputError(f"the rules of {cell.id} changed since the sweep in {folder} started "
                                 f"(rules hash {old} -> {new}); start a new sweep")

    precision = _Precision(sweep.cells, sweep.precision)
    pending = []
    for cell_index, start, stop in plan.chunks:
        if (cell_index, start) in done:
            if sweep.precision is not None:
                part = index[("seats", cell_index, start)][0].path
                precision.add(cell_index, seat0_blocks(pl.read_parquet(part, columns=["game_index", "seat", "win"])))
        else:
            pending.append((cell_index, start, stop))

    if report and (jobs > 1 or backend != "loky"):
        # while workers play, this process waits: the report's modules (matplotlib) load now, not after
        import importlib
        import threading

        threading.Thread(target=importlib.import_module, args=("simkit.report",), name="simkit-report-import",
                         daemon=True).start()
    try:
        timing: dict = {}
        played, seconds = _execute(folder, sweep, plan, pending, precision, hashes, jobs, backend, address, show,
                                   timing)
    except OSError as e:  # the folder became unwritable, or the disk is full: what is written stays
        if not resume and not any((folder / results.PARTS).glob("*.parquet")):
            raise InputError(f"cannot write the results in {folder}: {why(e)}; no chunk had finished, so nothing "
                             f"was kept: {fix_for(e)}, then run the sweep again") from None
        raise _cannot_write(folder, e, "finished chunks are kept") from None
    if show:
        print("writing the tables, summary and report…", flush=True)

    cells = [{**c.to_dict(), "games_played": precision.kept(i), "rules_hash": hashes[i]}
             for i, c in enumerate(sweep.cells)]
    try:
        finish.finalise(folder, cells, plan.starts(), sweep.to_toml(),
                         _manifest(sweep, plan, cells, jobs, backend, address, resume, began, played, seconds,
                                   compile_seconds, timing), report)
    except OSError as e:  # the parts stay until every final file is written: a resume writes them again
        raise _cannot_write(folder, e, "every game is played and kept") from None


def entry_name(cell: Cell) -> str:
    """The engine entry a cell plays through, as the compile lines name it: `GAME (lookahead)` when
    a seat plays a lookahead-kind preset and the game has a lighter entry without it
    (`Game.entry_for`), else `GAME`."""
    game = registry.get(cell.game)
    full = game.play_chunk_heuristic is not None and game.lookahead_row(cell.lineup, cell.bots) is not None
    return f"{cell.game} (lookahead)" if full else cell.game


PREPARED = "simkit-prepared"  # in numba's cache folder: a file per engine entry compiled into it


def _prepared_mark(name: str) -> Path | None:
    folder = os.environ.get("NUMBA_CACHE_DIR")
    return Path(folder) / PREPARED / name.replace(" ", "_").replace("(", "").replace(")", "") if folder else None


def engine_prepared(cell: Cell) -> bool:
    """True when the cell's engine entry is known to be in numba's cache (a `_warm_game` compiled or
    loaded it into this cache folder, which simkit keys by the engine sources), so that preparing
    it is a load of about a second, not a compile; also when numba's JIT is off (nothing compiles).
    A NUMBA_CACHE_DIR set by hand is not keyed by the sources: a mark there can outlive the code it
    was made for, and the entry is then compiled after all (the cost the robustness phase saves)."""
    from numba.core import config

    if config.DISABLE_JIT:
        return True
    mark = _prepared_mark(entry_name(cell))
    return mark is not None and mark.exists()


def _warm_game(cell: dict, name: str | None = None) -> tuple[str, float]:
    """Compile (or load) the engine entry one of a game's cells plays through, by playing 2 of its
    games (with a lookahead seat when the cell has one); runs in a worker. Marks the entry as
    prepared in numba's cache folder (engine_prepared)."""
    began = time.perf_counter()
    cell = Cell.from_dict(cell)
    game = registry.get(cell.game)
    rules, _ = compiled(cell)
    strategies = seat_strategies(game, cell.lineup, cell.players, 0, 2, cell.bots)
    row = game.lookahead_row(cell.lineup, cell.bots)
    if row is not None:  # games 0 and 1 of the seating design may not seat it
        strategies[:, 0] = row
    play(game, rules, strategies, game_seeds(np.uint64(0), 0, 2), lineup=cell.lineup, bots=cell.bots)
    seconds = time.perf_counter() - began
    mark = _prepared_mark(entry_name(cell))
    with suppress(OSError):  # a read-only cache folder: numba caches nothing there either
        if mark is not None and not mark.exists():
            mark.parent.mkdir(parents=True, exist_ok=True)
            mark.write_text(f"{seconds:.1f}\n")
    return name or cell.game, seconds


HEARTBEAT_SECONDS = 5.0  # while engines compile, a line this often saying which and for how long


@contextmanager
def _heartbeat(waiting: dict, began: float, stream, every: float = HEARTBEAT_SECONDS, slots: int = 1_000_000):
    """While the block runs, every `every` seconds one line on `stream` naming the games in
    `waiting` (game -> True until it is prepared, in the order they were handed out) and the time
    since `began`: a cold compile takes minutes, and a CI log (not a terminal) should show it is
    alive. With `slots` workers taking the games in order, the first `slots` not yet ready are the
    ones compiling; the others are named as waiting their turn."""
    import threading

    done = threading.Event()

    def beat() -> None:
        while not done.wait(every):
            pending = [game for game, busy in waiting.items() if busy]
            if pending:
                queued = f"; then {', '.join(pending[slots:])}" if pending[slots:] else ""
                print(f"  still preparing {', '.join(pending[:slots])} (compiling; {time.perf_counter() - began:.0f} s "
                      f"so far{queued})", file=stream, flush=True)

    thread = threading.Thread(target=beat, name="simkit-compile-heartbeat", daemon=True)
    if math.isfinite(every):
        thread.start()
    try:
        yield
    finally:
        done.set()
        if thread.is_alive():
            thread.join()


@cache
def _compile_weight(game_id: str) -> int:
    """How long a game's engine takes to compile, roughly: its jitted functions (simkit/games/<id>/
    and strategies/<id>.py; 0 for a game from elsewhere). Sea of Thieves has the most (about
    180) and compiles longest, Set Sail the fewest (about 70) and compiles fastest."""
    from simkit.sweeps.identity import engine_sources

    return sum(path.read_text().count("@jit") for path in engine_sources()
               if game_id in path.parts or path.stem == game_id)


def _prepare_engines(cells: list[Cell], jobs: int, backend: str, show: bool, folder: Path,
                     quiet: bool = False) -> None:
    """Compile (or load from numba's cache) each game's engine once, before any chunk runs.

    One compile serves every cell of a game (the rule values change, their types do not).
    With several games and cores they are compiled side by side in worker processes, which
    write numba's cache; this process then loads them from it, and the sweep reuses those
    workers with their engines loaded. Each game's time is shown as it becomes ready; unless
    `quiet`, a compile that lasts shows a line every few seconds with the games still
    compiling and the elapsed time (on stdout at a terminal, else on stderr, so a CI log shows it).
    The largest engines are handed out first (_compile_weight), so that no core is left idle at the
    end while the last large one compiles alone.
    """
    first: dict[str, Cell] = {}  # one cell per game and engine entry (with or without the lookahead)
    names: dict[tuple, str] = {}  # per game and line-up: its entry (a 10,000-cell grid has one)
    for cell in cells:
        key = (cell.game, cell.lineup, json.dumps(cell.bots, sort_keys=True))
        if key not in names:
            names[key] = entry_name(cell)
        first.setdefault(names[key], cell)
    if not first:
        return
    first = dict(sorted(first.items(), key=lambda item: -_compile_weight(item[1].game)))
    _check_numba_cache()
    try:
        _prepare_sorted(first, jobs, backend, show, folder, quiet)
    except OSError as e:
        if _from_numba_cache(e):  # the probe passed, but the disk filled while numba saved an engine
            raise _numba_cache_error(os.environ.get("NUMBA_CACHE_DIR", ""), e) from None
        raise


NUMBA_CACHE_PROBE = 4096  # bytes written to numba's cache folder before compiling: one block, so a full disk fails it


def _numba_cache_error(folder: str, e: OSError) -> InputError:
    return InputError(f"cannot write numba's compile cache in {folder}: {why(e)}; {fix_for(e)}, or set "
                      f"NUMBA_CACHE_DIR to a writable folder (simkit's default is ~/.cache/simkit/numba, under HOME), "
                      f"then run the command again")


def _check_numba_cache() -> None:
    """numba's cache folder takes a file, or an InputError names it (docs/faults.md). Unwritable,
    numba would cache beside the sources instead, in a folder not keyed by them (see
    simkit._numba_cache_dir), where an engine can outlive an edit to a bot or kernel."""
    from numba.core import config

    folder = os.environ.get("NUMBA_CACHE_DIR")
    if not folder or config.DISABLE_JIT:
        return
    probe = Path(folder) / f".simkit-probe-{os.getpid()}"
    try:
        Path(folder).mkdir(parents=True, exist_ok=True)
        with open(probe, "wb") as f:
            f.write(bytes(NUMBA_CACHE_PROBE))  # a full disk (ENOSPC) or a file-size limit fails here
    except OSError as e:
        raise _numba_cache_error(folder, e) from None
    finally:
        with suppress(OSError):
            probe.unlink()


def _from_numba_cache(e: BaseException) -> bool:
    """Whether `e` was raised by numba's cache writer (here, or in a worker: joblib attaches the
    worker's traceback as the cause)."""
    tb = e.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code.co_filename.endswith(os.path.join("numba", "core", "caching.py")):
            return True
        tb = tb.tb_next
    return "numba/core/caching.py" in str(e.__cause__ or "")


def _prepare_sorted(first: dict[str, Cell], jobs: int, backend: str, show: bool, folder: Path, quiet: bool) -> None:
    """_prepare_engines' work, the entries in the order they are handed out."""
    side_by_side = jobs > 1 and backend == "loky" and len(first) > 1
    began = time.perf_counter()
    stream = sys.stdout if show else sys.stderr
    if show:
        print(f"preparing {', '.join(first)} (compiling on first use, else loading numba's cache)…", flush=True)
    waiting = dict.fromkeys(first, side_by_side)
    workers = min(jobs, len(first))
    with _heartbeat(waiting, began, stream, every=math.inf if quiet else HEARTBEAT_SECONDS, slots=workers):
        if side_by_side:
            from joblib import Parallel, delayed

            _spawn_workers_ignoring_ctrl_c(workers, folder)
            for game_id, _ in Parallel(n_jobs=workers, return_as="generator_unordered", **_loky(folder))(
                    delayed(_warm_game)(cell.to_dict(), name) for name, cell in first.items()):
                waiting[game_id] = False
                if show or not quiet and time.perf_counter() - began > HEARTBEAT_SECONDS:
                    print(f"  {game_id} ready after {time.perf_counter() - began:.1f} s", file=stream, flush=True)
        for name, cell in first.items():  # here: loaded from the cache the workers just wrote, or compiled
            waiting[name] = not side_by_side
            game_id, seconds = _warm_game(cell.to_dict(), name)
            waiting[name] = False
            if not side_by_side and (show or not quiet and seconds > HEARTBEAT_SECONDS):
                print(f"  {game_id} ready in {seconds:.1f} s", file=stream, flush=True)


def _rates_and_hashes(cells: list[Cell], need_rates: bool) -> tuple[list[float], list[str]]:
    """Each cell's rules hash and, when chunks are to be sized, its measured games/s."""
    rates: list[float] = []
    hashes: list[str] = []
    measured: dict[tuple, float] = {}
    spent = 0.0
    for cell in cells:
        game = registry.get(cell.game)
        rules, rules_hash = compiled(cell)
        hashes.append(rules_hash)
        if not need_rates:
            rates.append(0.0)
            continue
        key = (cell.game, cell.players)
        if spent > MEASURE_BUDGET and key in measured:
            rates.append(measured[key])
            continue
        if cell.games <= SMALL_CELL:  # one chunk whatever the engine's speed: nothing to size
            rates.append(float(SMALL_CELL))
            continue
        n = 16
        while True:
            strategies = seat_strategies(game, cell.lineup, cell.players, 0, n, cell.bots)
            t = time.perf_counter()
            play(game, rules, strategies, game_seeds(np.uint64(0), 0, n), lineup=cell.lineup, bots=cell.bots)
            elapsed = time.perf_counter() - t
            spent += elapsed
            if elapsed >= MEASURE_SECONDS or n >= cell.games:
                break
            n *= 4
        measured[key] = n / max(elapsed, 1e-9)
        rates.append(measured[key])
    return rates, hashes


def _tasks(folder: Path, sweep: Sweep, plan: Plan, pending: list, precision: _Precision, hashes: list[str]):
    """run_chunk's arguments for each pending chunk, skipping those past a --precision stop.

    A generator: joblib draws from it as workers free up, so a cell that stops early
    dispatches no more chunks.
    """
    for cell_index, start, stop in pending:
        if precision.stop[cell_index] is not None and start >= precision.stop[cell_index]:
            continue
        cell = sweep.cells[cell_index]
        # the rules compiled here travel with the chunk; they must be the rules
        # the plan recorded, even when a big grid's compiled sets were evicted and rebuilt
        rules, rules_hash = compiled(cell)
        if rules_hash != hashes[cell_index]:
            raise InputError(f"the rules of {cell.id} changed while the sweep ran (rules hash {hashes[cell_index]} "
                             f"-> {rules_hash}: an edited component file?); finished chunks are kept; restore the "
                             f"files and resume, or start a new sweep")
        yield (str(folder.resolve()), cell.to_dict(), cell_index, start, stop, sweep.seed, shippable(rules),
               plan.identity(cell_index), sweep.precision is not None, sweep.arcs)


def _execute(folder, sweep, plan, pending, precision, hashes, jobs, backend, address, show,
             timing: dict | None = None) -> tuple[int, float]:
    """Play the pending chunks; returns (games played, seconds). `timing` gathers, per cell id,
    the games this run played and the seconds its workers spent playing them."""
    total = sum(stop - start for _, start, stop in pending)
    began = time.perf_counter()
    played = 0
    progress = _Progress(sweep.name, total) if show and total else None
    jobs = min(jobs, max(1, len(pending)))  # an idle worker still costs a second to start
    tasks = _tasks(folder, sweep, plan, pending, precision, hashes)
    lost: list = []
    try:
        for done in _results(tasks, jobs, backend, address, folder, lost):
            precision.add(done["cell_index"], done["blocks"])
            played += done["stop"] - done["start"]
            if timing is not None:
                spent = timing.setdefault(sweep.cells[done["cell_index"]].id, {"games": 0, "seconds": 0.0})
                spent["games"] += done["stop"] - done["start"]
                spent["seconds"] += done.get("seconds", 0.0)
            if progress:
                if sweep.precision is not None:  # a cell that stopped early shrinks the bar's total
                    left = sum(stop - start for c, start, stop in pending
                               if precision.stop[c] is None or start < precision.stop[c])
                    progress.set_total(max(left, played))
                progress.advance(done["stop"] - done["start"])
    except KeyboardInterrupt:
        if lost:  # the interrupt came from _SchedulerWatch, while a result was being counted
            raise _lost_error(address, folder, lost) from None
        raise
    finally:
        if progress:
            progress.close()
    return played, time.perf_counter() - began


def _loky(folder: Path) -> dict:
    """Parallel's options for every loky pool of a sweep; the same every time, so each call reuses the
    workers _spawn_workers_ignoring_ctrl_c started (loky reuses a pool only for equal options).

    Each worker starts its watchdog (watch_parent). Arrays travel pickled, never memory-mapped
    (max_nbytes=None), and joblib's temporary folder is inside the sweep folder: a killed sweep
    leaves no joblib_memmapping_folder_* in /dev/shm.
    """
    return {"backend": "loky", "max_nbytes": None, "temp_folder": str(Path(folder).resolve() / JOBLIB_TEMP),
            "initializer": watch_parent}


def _results(tasks, jobs: int, backend: str, address: str | None, folder: Path, lost: list):
    """Run the chunk tasks in-process (jobs=1), on local cores (loky), or on a Dask cluster.
    `lost` receives what told a Dask run that its scheduler is gone (see _SchedulerWatch)."""
    if backend == "loky" and jobs == 1:
        for args in tasks:
            yield run_chunk(*args)
        return
    from joblib import Parallel, delayed, parallel_config

    calls = (delayed(run_chunk)(*args) for args in tasks)
    if backend == "loky":
        from joblib.externals.loky import get_reusable_executor

        _spawn_workers_ignoring_ctrl_c(jobs, folder)
        try:
            yield from Parallel(n_jobs=jobs, return_as="generator_unordered", batch_size=1, pre_dispatch="2*n_jobs",
                                **_loky(folder))(calls)
        except BaseException:
            get_reusable_executor().shutdown(wait=False, kill_workers=True)
            raise
        # idle workers keep their engines in memory; release them before the merge
        get_reusable_executor().shutdown(wait=True)
        return
    try:
        import distributed
    except ImportError:
        raise InputError("--backend dask needs dask[distributed]: pip install 'simkit[dask]'") from None
    try:
        client = distributed.Client(address, timeout=10)
    except (OSError, TimeoutError, ValueError) as e:
        raise InputError(f"cannot reach the Dask scheduler at {address}: {e}") from None
    watch = _SchedulerWatch(client, lost, address, folder)
    try:
        with parallel_config(backend="dask"), watch:
            yield from Parallel(n_jobs=-1, return_as="generator_unordered", batch_size=1, pre_dispatch="2*n_jobs")(
                calls)
    except KeyboardInterrupt:
        if not lost:  # a real Ctrl-C or SIGTERM
            raise
    except Exception as e:  # a lost scheduler surfaces as a closed comm, a cancelled future or a timeout
        if client.status == "running" and not _lost_scheduler(e):
            raise  # the chunk's own failure (a full disk on a worker, say): reported as such
        lost.append(e)
    finally:
        watch.stop()
        # closing a client whose scheduler is gone may fail in many ways; there is nothing left to close then
        with suppress(Exception):
            client.close(timeout=5)
        watch.restore_logging()
    if lost:
        raise _lost_error(address, folder, lost)


def _lost_error(address: str | None, folder: Path, lost: list) -> InputError:
    """The one line for a Dask scheduler that went away mid-sweep (`lost`: what said so)."""
    cause = lost[0] if isinstance(lost[0], BaseException) else None
    said = f"{type(cause).__name__}: {str(cause)[:200]}" if cause is not None else f"the client is {lost[0]}"
    return InputError(f"lost the Dask scheduler at {address} ({said}); finished chunks are kept in {folder}: start "
                      f"the scheduler and its workers again, then: simkit sweep --out {folder} --resume --backend "
                      f"dask --address {address}")


class _SchedulerWatch:
    """While a sweep waits on a Dask cluster, notices that the client gave up on its scheduler.

    A client whose scheduler died tries to reconnect for its timeout, then closes; joblib's
    dask backend would then wait for results that never come. This thread sees the client
    closed and interrupts the main thread (which the sweep then reports as a lost scheduler),
    and keeps distributed's own logging of the lost connection (tracebacks) off the terminal.
    """

    GONE = ("closing", "closed", "failed")
    GRACE_SECONDS = 30.0  # for the main thread to stop once interrupted, before the process ends itself

    def __init__(self, client, lost: list, address: str | None = None, folder: Path | None = None):
        import threading

        self.client, self.lost, self.address, self.folder = client, lost, address, folder
        self.done = threading.Event()
        self.thread = threading.Thread(target=self.run, name="simkit-dask-watch", daemon=True)

    def __enter__(self):
        import logging

        names = ["distributed", *(n for n in logging.root.manager.loggerDict if n.startswith("distributed."))]
        self.levels = {name: logging.getLogger(name).level for name in names}
        for name in names:
            logging.getLogger(name).setLevel(logging.CRITICAL)
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stop()
        return False

    def run(self) -> None:
        import _thread

        while not self.done.wait(0.5):
            if self.client.status in self.GONE:
                self.lost.append(self.client.status)
                _thread.interrupt_main()
                # joblib's dask backend may then wait, in its clean-up, on futures of the dead
                # scheduler: past the grace the sweep ends itself with the same one line, exit 2
                # (every finished chunk is already a part on disk)
                if not self.done.wait(self.GRACE_SECONDS):
                    line = " ".join(str(_lost_error(self.address, self.folder, self.lost)).split())
                    print(f"error: {line}", file=sys.stderr, flush=True)
                    os._exit(2)
                return

    def stop(self) -> None:
        self.done.set()
        if self.thread.is_alive():
            self.thread.join()

    def restore_logging(self) -> None:
        import logging

        for name, level in getattr(self, "levels", {}).items():
            logging.getLogger(name).setLevel(level)


def _lost_scheduler(e: BaseException) -> bool:
    """True for the exceptions a Dask client raises when its scheduler goes away mid-sweep."""
    import concurrent.futures

    from distributed.comm.core import CommClosedError

    kinds: tuple = (CommClosedError, concurrent.futures.CancelledError, TimeoutError)
    try:
        from distributed.client import FutureCancelledError

        kinds += (FutureCancelledError,)
    except ImportError:
        pass
    return isinstance(e, kinds)


def _spawn_workers_ignoring_ctrl_c(jobs: int, folder: Path) -> None:
    """Start the loky workers with SIGINT ignored, so a terminal's Ctrl-C reaches only this process.

    A Ctrl-C goes to the whole foreground process group: a worker that got it would print a
    traceback (a hundred lines for two workers still importing). SIG_IGN survives exec and
    Python keeps an inherited SIG_IGN, so workers spawned while it is set ignore Ctrl-C for
    good; the sweep's own Parallel call then reuses them (loky's reusable executor, given the
    same options: _loky). Only during this start (well under a second) is a Ctrl-C ignored here too.
    """
    from joblib import Parallel, delayed

    try:
        old = signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:  # not the main thread: signals are not ours to handle
        return
    # loky's resource tracker, started with the pool, outlives a killed sweep by a moment to
    # clean up after it; its report of each semaphore it cleaned would be noise on the terminal
    warnings = os.environ.get("PYTHONWARNINGS")
    os.environ["PYTHONWARNINGS"] = ",".join(filter(None, [warnings, f"ignore::UserWarning:{TRACKER}"]))
    try:
        Parallel(n_jobs=jobs, **_loky(folder))(delayed(os.getpid)() for _ in range(jobs))
    finally:
        signal.signal(signal.SIGINT, old)
        if warnings is None:
            os.environ.pop("PYTHONWARNINGS", None)
        else:
            os.environ["PYTHONWARNINGS"] = warnings


class _Progress:
    """A rich progress bar with games/s and ETA (only on a terminal, never with --quiet)."""

    def __init__(self, name: str, total: int):
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

        self.began = time.perf_counter()
        self.bar = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                            TextColumn("{task.fields[rate]} games/s"), TextColumn("ETA"), TimeRemainingColumn())
        self.task = self.bar.add_task(name, total=total, rate="-")
        self.done = 0
        self.bar.start()

    def set_total(self, total: int) -> None:
        self.bar.update(self.task, total=total)

    def advance(self, games: int) -> None:
        self.done += games
        rate = self.done / max(time.perf_counter() - self.began, 1e-9)
        self.bar.update(self.task, advance=games, rate=f"{rate:,.0f}")

    def close(self) -> None:
        self.bar.stop()


def _manifest(sweep, plan, cells, jobs, backend, address, resumed, began, played, seconds, compile_seconds,
              timing=None) -> dict:
    import numba
    import numpy
    import polars

    from simkit.core.version import __version__

    return {
        "simkit_version": __version__,
        "created": plan.created,
        "finished": datetime.now(UTC).isoformat(timespec="seconds"),
        "name": sweep.name,
        "root_seed": sweep.seed,
        "precision": sweep.precision,
        "spec_source": sweep.source,
        "spec": sweep.to_dict(),
        "rules_hashes": {c["id"]: c["rules_hash"] for c in cells},
        # the code that played every game (simkit.sweeps.identity): a resume under other code is refused
        "code_hash": plan.code["hash"],
        "git_commit": plan.code.get("git_commit"),
        "git_dirty": plan.code.get("git_dirty"),
        "code": plan.code,
        "games": sum(c["games_played"] for c in cells),
        "chunks": len(plan.chunks),
        "platform": platform.platform(),
        "machine": platform.machine(),
        "cpu_count": os.cpu_count(),
        "python": platform.python_version(),
        "numba": numba.__version__,
        "numpy": numpy.__version__,
        "polars": polars.__version__,
        "jobs": jobs if backend == "loky" else None,
        "backend": backend,
        "address": address,
        "resumed": resumed,
        "games_this_run": played,  # played by this run's workers, including any past a --precision stop
        "compile_seconds": round(compile_seconds, 3),  # compiling or loading the engines, and sizing chunks
        "play_seconds": round(seconds, 3),
        "wall_seconds": round(time.perf_counter() - began, 3),
        "games_per_second": round(played / seconds, 1) if seconds > 0 else None,
        # per cell: games this run played and the seconds a worker spent playing them (games/s per core)
        "cell_timing": {cell: {"games": t["games"], "seconds": round(t["seconds"], 4)}
                        for cell, t in (timing or {}).items()},
        "arcs": sweep.arcs,
    }
