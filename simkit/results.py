"""The result schema, parquet parts and atomic finalisation of a sweep folder (DESIGN §6).

A sweep folder::

    plan.json          cells, chunk boundaries and root seed, written before any game runs
    parts/             one games part and one seats part per finished chunk
    games.parquet      one row per game          } written at the end from the parts,
    seats.parquet      one row per game x seat   } each to a temporary name and then
    cells.parquet      one row per cell          } renamed into place
    summary.json       simkit.analysis.summary.summarize
    manifest.json      provenance: versions, seeds, rules hashes, platform, timing
    spec.toml          the resolved spec: `simkit sweep spec.toml` reruns it
    report.md/.html, plots/   simkit.report.write_report

Every file is written to a temporary name and renamed, so a sweep stopped at any moment
leaves whole files only; parts are deleted after the final files are in place.
"""

from __future__ import annotations

import json
import os
import shutil
from functools import cached_property
from pathlib import Path

import numpy as np
import polars as pl

from simkit.errors import InputError
from simkit.game import END_REASON, GAME_COLUMNS, RANK, ROUNDS, SCORE, SEAT_COLUMNS, TURNS, WINNER, Game, Metric
from simkit.traces import TRACES  # traces.parquet and its parts, only in a sweep with arcs

PARTS = "parts"
PLAN = "plan.json"
FINAL_FILES = ("games.parquet", "seats.parquet", "cells.parquet", "summary.json", "manifest.json", "spec.toml")


# -- engine arrays -> tables ---------------------------------------------------------------


def _labels(codes: np.ndarray, labels: tuple[str, ...], what: str) -> pl.Series:
    """Codes written by the engine as their labels; a code out of range is an engine bug."""
    if codes.size and (codes.min() < 0 or codes.max() >= len(labels)):
        bad = codes[(codes < 0) | (codes >= len(labels))][0]
        raise RuntimeError(f"the engine wrote {what} = {bad}, but only {len(labels)} labels exist: {labels}")
    return pl.Series(what, labels, dtype=pl.Utf8).gather(codes)


def _metric(column: np.ndarray, metric: Metric) -> pl.Series:
    if metric.labels is not None:
        return _labels(column, metric.labels, metric.name)
    return pl.Series(metric.name, column, dtype=pl.Int64)


def chunk_tables(
    game: Game,
    cell_id: str,
    start: int,
    seeds: np.ndarray,
    seat_strategies: np.ndarray,
    out_games: np.ndarray,
    out_seats: np.ndarray,
    labels: tuple[str, ...] | None = None,
) -> tuple[pl.DataFrame, pl.DataFrame]:
    """A chunk's games and seats rows from the engine's arrays (schema of DESIGN §6).
    `labels`: the strategy of each row of the strategy table (default: the presets)."""
    n, players = out_seats.shape[:2]
    index = np.arange(start, start + n, dtype=np.int64)
    winners = out_seats[:, :, WINNER]
    n_winners = winners.sum(axis=1)
    games = pl.DataFrame(
        [
            pl.repeat(cell_id, n, dtype=pl.Utf8, eager=True).alias("cell"),
            pl.Series("game_index", index),
            pl.Series("seed", seeds, dtype=pl.UInt64),
            pl.Series("players", np.full(n, players, dtype=np.int64)),
            pl.Series("rounds", out_games[:, ROUNDS]),
            pl.Series("turns", out_games[:, TURNS]),
            _labels(out_games[:, END_REASON], game.end_reasons, "end_reason"),
            pl.Series("winner", np.where(n_winners == 1, winners.argmax(axis=1), -1).astype(np.int64)),
            pl.Series("n_winners", n_winners.astype(np.int64)),
            *(_metric(out_games[:, GAME_COLUMNS + k], m) for k, m in enumerate(game.game_metrics)),
        ]
    )
    flat = out_seats.reshape(n * players, -1)
    shares = np.divide(winners, n_winners[:, None], out=np.zeros(winners.shape), where=n_winners[:, None] > 0)
    seats = pl.DataFrame(
        [
            pl.repeat(cell_id, n * players, dtype=pl.Utf8, eager=True).alias("cell"),
            pl.Series("game_index", np.repeat(index, players)),
            pl.Series("seat", np.tile(np.arange(players, dtype=np.int64), n)),
            _labels(seat_strategies.reshape(-1), labels or tuple(game.preset_names()), "strategy"),
            pl.Series("score", flat[:, SCORE]),
            pl.Series("rank", flat[:, RANK]),
            pl.Series("win", shares.reshape(-1), dtype=pl.Float64),
            *(_metric(flat[:, SEAT_COLUMNS + k], m) for k, m in enumerate(game.seat_metrics)),
        ]
    )
    return games, seats


# -- files -----------------------------------------------------------------------------------


def atomic_write(path: Path, write) -> None:
    """Call write(tmp_path), then rename tmp onto path: readers see the old file or the whole new one."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        write(tmp)
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


def write_text(path: Path, text: str) -> None:
    atomic_write(path, lambda tmp: tmp.write_text(text))


def part_path(folder: Path, kind: str, cell_index: int, start: int) -> Path:
    """parts/<kind>-<cell#>-<start>.parquet, zero-padded so names sort in game order."""
    return Path(folder) / PARTS / f"{kind}-{cell_index:05d}-{start:012d}.parquet"


def write_parts(folder: Path, cell_index: int, start: int, games: pl.DataFrame, seats: pl.DataFrame,
                traces: pl.DataFrame | None = None) -> None:
    """A finished chunk's parts; the games part is renamed last, so its presence marks the chunk done.
    `traces`: the chunk's score trace rows (simkit.traces), only when the sweep traces arcs."""
    kinds = ((TRACES, traces),) if traces is not None else ()
    for kind, frame in (*kinds, ("seats", seats), ("games", games)):
        atomic_write(part_path(folder, kind, cell_index, start), frame.write_parquet)


def chunk_done(folder: Path, cell_index: int, start: int) -> bool:
    return all(part_path(folder, kind, cell_index, start).exists() for kind in ("seats", "games"))


def check_parts(folder: Path, cell_index: int, start: int) -> None:
    """A finished chunk's parts are whole parquet files; a damaged one is named with the fix."""
    for kind in ("seats", "games"):
        path = part_path(folder, kind, cell_index, start)
        try:
            pl.read_parquet_schema(path)
        except Exception:  # noqa: BLE001 (polars raises several kinds for a damaged file)
            twin = part_path(folder, "games" if kind == "seats" else "seats", cell_index, start)
            raise InputError(f"{path} is damaged (truncated or not parquet); delete it and {twin.name}, then resume "
                             "again to replay that chunk") from None


def holds_results(folder: Path) -> bool:
    return (folder / PLAN).exists() or (folder / PARTS).exists() or any((folder / f).exists() for f in FINAL_FILES)


LOCK = ".simkit.lock"  # held (flock) by the one sweep writing a folder; see claim()


class Claim:
    """An exclusive hold on a sweep folder for the life of one sweep (DESIGN §9).

    An advisory lock (fcntl.flock) on LOCK inside the folder: the kernel releases it when
    the holding process ends however it ends, so a crashed sweep never leaves a stale
    claim, and a second sweep into the same folder is refused before it writes anything.
    """

    def __init__(self, folder: Path):
        import fcntl

        self.folder = Path(folder)
        self.path = self.folder / LOCK
        try:
            try:
                self.fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o644)
                self.created = True
            except FileExistsError:
                self.fd = os.open(self.path, os.O_RDWR)
                self.created = False
        except OSError as e:
            raise InputError(f"cannot write to --out {folder}: {e.strerror}; choose a writable folder") from None
        try:
            fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(self.fd)
            raise InputError(f"--out {folder} is in use by another running sweep; wait for it, or choose "
                             "another folder") from None
        os.ftruncate(self.fd, 0)
        os.write(self.fd, f"{os.getpid()}\n".encode())

    def release(self, remove: bool = False) -> None:
        """Let go of the folder; remove=True also deletes the lock file (the sweep is complete)."""
        if self.fd is None:
            return
        if remove:
            self.path.unlink(missing_ok=True)
        os.close(self.fd)  # closing the descriptor releases the flock
        self.fd = None


def prepare_new(folder: Path) -> Claim:
    """Claim a new or empty folder for a sweep, or say why it cannot be used; touches nothing that exists.

    The folder is claimed (see Claim) before it is inspected, so of two sweeps started
    into one folder at the same moment exactly one proceeds and the other changes nothing.
    parts/ is made only once the plan is written, so a sweep that fails while compiling
    leaves an empty folder that can be used again.
    """
    folder = Path(folder)
    if folder.exists() and not folder.is_dir():
        raise InputError(f"--out {folder} is a file, not a folder; choose a new folder")
    if folder.exists() and holds_results(folder):
        raise InputError(f"--out {folder} already holds a sweep; choose a new folder, or add --resume to finish it")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise InputError(f"cannot write to --out {folder}: {e.strerror}; choose a writable folder") from None
    claim = Claim(folder)
    if holds_results(folder):
        claim.release(remove=claim.created)
        raise InputError(f"--out {folder} already holds a sweep; choose a new folder, or add --resume to finish it")
    if any(p.name != LOCK for p in folder.iterdir()):
        claim.release(remove=claim.created)
        raise InputError(f"--out {folder} is not empty; choose a new or empty folder")
    return claim


# -- finalisation ---------------------------------------------------------------------------


def merge(folder: Path, kind: str, cells: list[tuple[int, list[int], int]]) -> None:
    """Stream every cell's parts of one kind into <kind>.parquet, in cell and game order.

    `cells` lists (cell index, chunk starts, games kept): rows past `games kept` (a cell
    stopped early by --precision) are left out. Games of different games have different
    metric columns, so cells are concatenated diagonally (a missing column is null).
    """
    frames = []
    for cell_index, starts, kept in cells:
        paths = [part_path(folder, kind, cell_index, s) for s in sorted(starts) if s < kept]
        frames.append(pl.scan_parquet(paths).filter(pl.col("game_index") < kept))
    merged = pl.concat(frames, how="diagonal_relaxed") if len(frames) > 1 else frames[0]
    atomic_write(folder / f"{kind}.parquet", lambda tmp: merged.sink_parquet(tmp, engine="streaming"))


def cells_table(rows: list[dict]) -> pl.DataFrame:
    """cells.parquet: one row per cell (`rows` hold a Cell's fields plus games played and rules hash)."""
    return pl.DataFrame(
        {
            "cell": [r["id"] for r in rows],
            "game": [r["game"] for r in rows],
            "players": [r["players"] for r in rows],
            "variant": [r["variant"] for r in rows],
            "overrides": [json.dumps(r["overrides"], sort_keys=True) for r in rows],
            "strategies": [",".join(r["lineup"]) for r in rows],
            "games": [r["games_played"] for r in rows],
            "rules_hash": [r["rules_hash"] for r in rows],
        },
        schema={"cell": pl.Utf8, "game": pl.Utf8, "players": pl.Int64, "variant": pl.Utf8, "overrides": pl.Utf8,
                "strategies": pl.Utf8, "games": pl.Int64, "rules_hash": pl.Utf8},
    )


def write_summary(folder: Path) -> None:
    from simkit.analysis.summary import summarize

    write_text(folder / "summary.json", json.dumps(summarize(folder), indent=1, default=str))


def rebuild_report(folder: Path) -> Path:
    """summary.json and the report again from the result tables (`simkit report`); returns report.html."""
    from simkit import report

    write_summary(folder)
    return report.write_report(folder)


def finalise(folder: Path, cells: list[dict], starts: list[list[int]], spec_toml: str, manifest: dict,
             with_report: bool = True) -> None:
    """Write the final files from the parts, then the summary, provenance and report; then drop the parts."""
    folder = Path(folder)
    merge_plan = [(i, starts[i], c["games_played"]) for i, c in enumerate(cells)]
    traced = any((folder / PARTS).glob(f"{TRACES}-*.parquet"))
    for kind in ("games", "seats", *((TRACES,) if traced else ())):
        merge(folder, kind, merge_plan)
    atomic_write(folder / "cells.parquet", cells_table(cells).write_parquet)
    # the manifest before the summary: the summary reads its per-cell timings (simkit.analysis.tiers);
    # the folder counts as complete only once parts/ is gone (is_complete)
    write_text(folder / "manifest.json", json.dumps(manifest, indent=1, default=str))
    write_summary(folder)
    write_text(folder / "spec.toml", spec_toml)
    if with_report:
        from simkit import report

        report.write_report(folder)
    shutil.rmtree(folder / PARTS, ignore_errors=True)


def is_complete(folder: Path) -> bool:
    return (Path(folder) / "manifest.json").exists() and not (Path(folder) / PARTS).exists()


# -- reading ----------------------------------------------------------------------------------


class Results:
    """A finished sweep folder. Tables are polars DataFrames, read from parquet on first access."""

    def __init__(self, folder: str | Path):
        self.folder = Path(folder)

    def _read(self, name: str) -> pl.DataFrame:
        return pl.read_parquet(self.folder / name)

    @cached_property
    def games(self) -> pl.DataFrame:
        return self._read("games.parquet")

    @cached_property
    def seats(self) -> pl.DataFrame:
        return self._read("seats.parquet")

    @cached_property
    def cells(self) -> pl.DataFrame:
        return self._read("cells.parquet")

    @cached_property
    def traces(self) -> pl.DataFrame | None:
        """The score traces (simkit.traces) of a sweep run with arcs, else None."""
        path = self.folder / f"{TRACES}.parquet"
        return pl.read_parquet(path) if path.exists() else None

    @cached_property
    def summary(self) -> dict:
        return json.loads((self.folder / "summary.json").read_text())

    @cached_property
    def manifest(self) -> dict:
        return json.loads((self.folder / "manifest.json").read_text())

    def to_pandas(self) -> dict:
        """{'games', 'seats', 'cells'} as pandas DataFrames (needs pandas and pyarrow)."""
        return {name: getattr(self, name).to_pandas() for name in ("games", "seats", "cells")}

    def __repr__(self) -> str:
        return f"Results({str(self.folder)!r})"


def load(folder: str | Path) -> Results:
    """The results of a finished sweep folder; an InputError if it is not one."""
    folder = Path(folder)
    if not folder.is_dir():
        raise InputError(f"{folder} is not a folder; name a sweep folder such as reports/default-<time>")
    missing = [f for f in ("games.parquet", "seats.parquet", "cells.parquet") if not (folder / f).exists()]
    if missing:
        hint = "; finish it with simkit sweep --out DIR --resume" if (folder / PLAN).exists() else ""
        raise InputError(f"{folder} holds no finished sweep (no {missing[0]}){hint}")
    return Results(folder)

