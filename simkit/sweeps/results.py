"""The result schema, parquet parts and atomic finalisation of a sweep folder (docs/results.md).

A sweep folder::

    plan.json          cells, chunk boundaries, root seed, rules hashes and code identity,
                       sealed by a checksum; written before any game runs (simkit.sweeps.runner.Plan)
    parts/             one games part and one seats part per finished chunk, named
                       <kind>-<cell#>-<start>-<stop>-<sha256 of the file>.parquet, each
                       carrying its plan, cell, range and seed in its parquet metadata
    games.parquet      one row per game          } written at the end from the parts,
    seats.parquet      one row per game x seat   } each to a temporary name and then
    cells.parquet      one row per cell          } renamed into place
    summary.json       simkit.analysis.summary.summarize
    manifest.json      provenance: versions, code hash and git commit, seeds, rules hashes, platform, timing
    spec.toml          the resolved spec: `simkit sweep spec.toml` reruns it
    report.md/.html, plots/   simkit.report.write_report

Every file is written to a temporary name and renamed (simkit.core.files.atomic_write), so a
sweep stopped at any moment, or a disk that fills up, leaves whole files only; parts are
deleted after the final files are in place. A resume checks every part against the plan
(verify_parts): a part that is damaged, duplicated, of another plan, cell, range or seed is
refused with the file named.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import threading
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import numpy as np
import polars as pl

from simkit.core.errors import InputError
from simkit.core.files import (
    atomic_write,
    fix_for,
    json_text,
    kind_of,
    os_errors,
    read_json,
    remove_temporaries,
    shown,
    temporary,
    why,
    write_text,
)
from simkit.core.game import END_REASON, GAME_COLUMNS, RANK, ROUNDS, SCORE, SEAT_COLUMNS, TURNS, WINNER, Game, Metric
from simkit.core.traces import TRACES  # traces.parquet and its parts, only in a sweep with arcs

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
    """A chunk's games and seats rows from the engine's arrays (the schema of docs/results.md).
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


# -- parts ------------------------------------------------------------------------------------


PART_NAME = re.compile(r"^(games|seats|traces)-(\d{5})-(\d{12})-(\d{12})-([0-9a-f]{16})\.parquet$")
PART_KEY = "simkit.part"  # the parquet metadata key of a part's identity (see write_parts)


@dataclass(frozen=True)
class Part:
    """One part file: parts/<kind>-<cell#>-<start>-<stop>-<sha256 of the file, 16 hex>.parquet."""

    kind: str
    cell_index: int
    start: int
    stop: int
    checksum: str
    path: Path

    @classmethod
    def parse(cls, path: Path) -> Part | None:
        m = PART_NAME.match(path.name)
        return None if m is None else cls(m[1], int(m[2]), int(m[3]), int(m[4]), m[5], path)


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()[:16]


def write_parts(folder: Path, cell_index: int, start: int, stop: int, identity: dict, games: pl.DataFrame,
                seats: pl.DataFrame, traces: pl.DataFrame | None = None) -> None:
    """A finished chunk's parts, each carrying its identity and a checksum
    (docs/architecture.md, "Seeds and reproducibility").

    `identity` ({"plan": the plan's checksum, "cell": the cell's id, "seed": the root seed})
    goes into each file's parquet metadata with the kind, the range and the row count; the
    sha256 of the written file goes into its name. The games part is renamed last, so its
    presence marks the chunk done. `traces`: the chunk's score trace rows (simkit.arcs).
    """
    kinds = ((TRACES, traces),) if traces is not None else ()
    for kind, frame in (*kinds, ("seats", seats), ("games", games)):
        meta = json.dumps({**identity, "kind": kind, "cell_index": cell_index, "start": start, "stop": stop,
                           "rows": frame.height}, sort_keys=True)
        tmp = temporary(Path(folder) / PARTS / f"{kind}-{cell_index:05d}-{start:012d}")
        try:
            with os_errors(tmp):
                frame.write_parquet(tmp, metadata={PART_KEY: meta})
            os.replace(tmp, Path(folder) / PARTS / f"{kind}-{cell_index:05d}-{start:012d}-{stop:012d}-"
                                                 f"{_sha256(tmp)}.parquet")
        finally:
            tmp.unlink(missing_ok=True)


def part_index(folder: Path) -> dict[tuple[str, int, int], list[Part]]:
    """Every part file of a sweep folder by (kind, cell index, start); an unknown file in parts/, and two
    parts of one kind for one chunk, are refused."""
    index: dict[tuple[str, int, int], list[Part]] = {}
    parts = Path(folder) / PARTS
    if not parts.is_dir():
        return index
    for entry in os.scandir(parts):
        if entry.name.startswith("."):  # a write stopped mid-way (simkit.core.files.remove_temporaries)
            continue
        part = Part.parse(Path(entry.path))
        if part is None:
            raise InputError(f"{entry.path} is not a part file of this sweep; move it out of {parts}, then resume "
                             "again")
        index.setdefault((part.kind, part.cell_index, part.start), []).append(part)
    for (kind, cell_index, start), found in index.items():
        if len(found) > 1:
            raise InputError(f"{parts} holds {len(found)} {kind} parts of the chunk at game {start} of cell "
                             f"#{cell_index} ({', '.join(sorted(p.path.name for p in found))}): keep the one this "
                             "sweep wrote and move the others out, then resume again")
    return index


def verify_parts(folder: Path, chunks: list[tuple[int, int, int]], identities: list[dict], kinds: tuple[str, ...],
                 players: list[int]) -> tuple[set[tuple[int, int]], dict]:
    """Check every part of a folder against its plan; returns (the chunks done, the part index).

    `chunks`: the plan's (cell index, start, stop); `identities[i]`: what cell i's parts must
    carry (see write_parts); `kinds`: the parts a finished chunk has. A part whose checksum,
    range, cell, seed or plan does not match, a chunk with two parts of one kind (part_index),
    and a part of no planned chunk are refused with the file named: the folder no longer holds one
    sweep's games. A chunk missing one of its parts is not done; what it has is deleted, so
    that it is played again.
    """
    index = part_index(folder)
    planned = {(c, a): b for c, a, b in chunks}
    for (kind, cell_index, start), found in index.items():
        where = found[0].path
        if (cell_index, start) not in planned:
            raise InputError(f"{where} belongs to no chunk of {folder / PLAN}: a part of another sweep? Move it out "
                             "of the folder, then resume again")
        if found[0].stop != planned[(cell_index, start)]:
            raise InputError(f"{where} covers games {start}..{found[0].stop - 1}, but the plan's chunk ends at game "
                             f"{planned[(cell_index, start)] - 1}: a part of another sweep? Move it out, then resume")
    done = set()
    for cell_index, start, stop in chunks:
        have = {kind: index[(kind, cell_index, start)][0] for kind in kinds if (kind, cell_index, start) in index}
        if len(have) < len(kinds):
            for kind in ("games", "seats", TRACES):  # the games part first: the chunk is no longer marked done
                for part in index.pop((kind, cell_index, start), []):
                    part.path.unlink(missing_ok=True)
            continue
        for part in have.values():
            _verify_part(part, identities[cell_index], players[cell_index])
        done.add((cell_index, start))
    return done, index


def _verify_part(part: Part, identity: dict, players: int) -> None:
    twin = "the other parts of its chunk"
    fix = f"delete it and {twin}, then resume again to replay that chunk"
    try:
        checksum = _sha256(part.path)
    except OSError as e:
        raise InputError(f"cannot read {part.path}: {why(e)}") from None
    if checksum != part.checksum:
        raise InputError(f"{part.path} is damaged (its contents do not match the checksum in its name); {fix}")
    try:
        meta = json.loads(pl.read_parquet_metadata(part.path).get(PART_KEY, "null")) or {}
    except Exception:  # noqa: BLE001 (polars raises several kinds for a file that is not parquet)
        raise InputError(f"{part.path} is damaged (not a parquet file); {fix}") from None
    rows = (part.stop - part.start) * (players if part.kind == "seats" else 1)
    expected = {**identity, "kind": part.kind, "cell_index": part.cell_index, "start": part.start,
                "stop": part.stop}
    wrong = sorted(k for k, v in expected.items() if meta.get(k) != v)
    if part.kind != TRACES and meta.get("rows") != rows:
        wrong.append("rows")
    if wrong:
        said = ", ".join(f"{k} {meta.get(k)!r} (the plan: {expected.get(k, rows)!r})" for k in wrong[:3])
        raise InputError(f"{part.path} was not played by this sweep's plan: its {said}; move it out of the "
                         "folder (the chunk is then replayed), or start a new sweep")


def holds_results(folder: Path) -> bool:
    return (folder / PLAN).exists() or (folder / PARTS).exists() or any((folder / f).exists() for f in FINAL_FILES)


LOCK = ".simkit.lock"  # held (flock) by the one sweep writing a folder; see claim()


class Claim:
    """An exclusive hold on a sweep folder for the life of one sweep (docs/architecture.md, "A sweep's lifecycle").

    An advisory lock (fcntl.flock) on LOCK inside the folder: the kernel releases it when
    the holding process ends however it ends, so a crashed sweep never leaves a stale
    claim, and a second sweep into the same folder is refused before it writes anything.
    """

    def __init__(self, folder: Path, command: str | None = None):
        """`command`: the command claiming a finished folder (`simkit report DIR`), named in its messages."""
        import fcntl

        self.folder = Path(folder)
        self.path = self.folder / LOCK
        self.made: list[Path] = []  # folders this sweep created (prepare_new), removed again if it keeps nothing
        while True:
            self._open(command)
            try:
                fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                os.close(self.fd)
                if command:
                    raise InputError(f"{folder} is in use by a running sweep; wait for it to finish, then: "
                                     f"{command}") from None
                raise InputError(f"--out {folder} is in use by another running sweep; wait for it, or choose "
                                 "another folder") from None
            if self._still_the_lock_file():
                break
            os.close(self.fd)  # its holder removed the file as it let go: lock the file that is there now
        os.ftruncate(self.fd, 0)
        os.write(self.fd, f"{os.getpid()}\n".encode())

    def _open(self, command: str | None) -> None:
        try:
            try:
                self.fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o644)
                self.created = True
            except FileExistsError:
                self.fd = os.open(self.path, os.O_RDWR)
                self.created = False
        except OSError as e:
            if command:
                raise InputError(f"cannot write to {shown(str(self.folder))}: {why(e)}; {fix_for(e)}, then: "
                                 f"{command}") from None
            raise InputError(f"cannot write to --out {shown(str(self.folder))}: {why(e)}; choose a writable "
                             "folder") from None

    def _still_the_lock_file(self) -> bool:
        """Whether the locked descriptor is still the file at LOCK: a holder unlinks it before letting go."""
        try:
            return os.path.samestat(os.fstat(self.fd), os.stat(self.path))
        except FileNotFoundError:
            return False

    def release(self, remove: bool = False) -> None:
        """Let go of the folder and delete the lock file (a claimant that opened it meanwhile sees it gone, see
        __init__); remove=True (the sweep is complete, or kept nothing) also removes the folders this sweep
        created, if they are empty: a sweep that kept nothing leaves no trace."""
        if self.fd is None:
            return
        self.path.unlink(missing_ok=True)
        os.close(self.fd)  # closing the descriptor releases the flock
        self.fd = None
        if remove:
            for made in reversed(self.made):
                try:
                    made.rmdir()  # only an empty folder: anything written in it stays
                except OSError:
                    break


def prepare_new(folder: Path) -> Claim:
    """Claim a new or empty folder for a sweep, or say why it cannot be used; touches nothing that exists.

    The folder is claimed (see Claim) before it is inspected, so of two sweeps started
    into one folder at the same moment exactly one proceeds and the other changes nothing.
    parts/ is made only once the plan is written, so a sweep that fails while compiling
    leaves an empty folder that can be used again.
    """
    folder = Path(folder)
    state = kind_of(folder, "--out")  # a name too long, a folder not searchable: one error line
    if state in ("file", "broken"):
        raise InputError(f"--out {shown(str(folder))} is a file{' (a broken link)' if state == 'broken' else ''}, "
                         "not a folder; choose a new folder")
    if state == "dir" and holds_results(folder):
        raise InputError(f"--out {folder} already holds a sweep; choose a new folder, or add --resume to finish it")
    made = [p for p in (folder, *folder.parents) if not os.path.lexists(p)][::-1]
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise InputError(f"cannot write to --out {shown(str(folder))}: {why(e)}; {fix_for(e)}, or choose another "
                         "folder") from None
    try:
        claim = Claim(folder)
    except InputError:
        for p in reversed(made):
            try:
                p.rmdir()
            except OSError:
                break
        raise
    claim.made = made
    if holds_results(folder):
        claim.release(remove=claim.created)
        raise InputError(f"--out {folder} already holds a sweep; choose a new folder, or add --resume to finish it")
    if any(p.name != LOCK for p in folder.iterdir()):
        claim.release(remove=claim.created)
        raise InputError(f"--out {folder} is not empty; choose a new or empty folder")
    return claim


# -- finalisation ---------------------------------------------------------------------------


ROW_GROUP = 131_072  # rows per row group of a merged table


def merge(folder: Path, kind: str, groups: list[tuple[list[Path], int | None]]) -> None:
    """Stream every part of one kind into <kind>.parquet, in cell and game order.

    `groups` lists (part files in order, games kept): rows with game_index at or past `games
    kept` (a cell stopped early by --precision) are left out; None keeps every row. A group
    may hold many cells of one game (one scan of many files is far quicker than one scan per
    cell in a 10,000-cell grid). Games of different games have different metric columns, so
    groups are concatenated diagonally (a missing column is null).
    """
    frames = [pl.scan_parquet(paths) if kept is None else pl.scan_parquet(paths).filter(pl.col("game_index") < kept)
              for paths, kept in groups]
    merged = pl.concat(frames, how="diagonal_relaxed") if len(frames) > 1 else frames[0]
    # row groups of one size, not one per part: the file is the same to the byte whatever the chunks or --jobs
    atomic_write(folder / f"{kind}.parquet",
                 lambda tmp: merged.sink_parquet(tmp, engine="streaming", row_group_size=ROW_GROUP))


def _merge_groups(index: dict, kind: str, cells: list[dict], starts: list[list[int]]) -> list[tuple[list[Path], int | None]]:
    """merge's groups: a run of consecutive cells of one game that kept every game is one group;
    a cell stopped early by --precision is a group of its own, with its bound."""
    groups: list[tuple[list[Path], int | None]] = []
    run_game = None
    for i, cell in enumerate(cells):
        kept = cell["games_played"]
        paths = [index[(kind, i, s)][0].path for s in sorted(starts[i]) if s < kept]
        if kept < cell["games"]:
            groups.append((paths, kept))
            run_game = None
        elif run_game == cell["game"]:
            groups[-1][0].extend(paths)
        else:
            groups.append((paths, None))
            run_game = cell["game"]
    return groups


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
            "bots": [json.dumps(r.get("bots", {}), sort_keys=True) for r in rows],
            "games": [r["games_played"] for r in rows],
            "rules_hash": [r["rules_hash"] for r in rows],
        },
        schema={"cell": pl.Utf8, "game": pl.Utf8, "players": pl.Int64, "variant": pl.Utf8, "overrides": pl.Utf8,
                "strategies": pl.Utf8, "bots": pl.Utf8, "games": pl.Int64, "rules_hash": pl.Utf8},
    )


_written_summary: dict = {}  # the summary.json this process last wrote, keyed by its file's identity


def _file_key(path: Path) -> tuple:
    stat = path.stat()
    return str(path.resolve()), stat.st_mtime_ns, stat.st_size


def remember_summary(path: Path, summary: dict) -> None:
    """The summary just written to `path`: Results.summary takes it while the file is the one
    written, without parsing it again (a 10,000-cell grid's is 60 MB)."""
    _written_summary.clear()
    _written_summary[_file_key(path)] = summary


def remove_leftovers(folder: Path) -> None:
    """The temporaries a sweep or report stopped mid-write left in a finished folder and its plots/
    (`.<name>.<pid>.tmp`, and the set-aside parts/ of write_final_tables); only for a folder this process claimed.
    Sub-folders holding sweeps of their own (robustness/, sequential/) are theirs to clean."""
    for where in (Path(folder), Path(folder) / "plots"):
        if where.is_dir():
            remove_temporaries(where, deep=False)


def write_final_tables(folder: Path, cells: list[dict], starts: list[list[int]], spec_toml: str,
                       manifest: dict) -> threading.Thread:
    """Write the final tables from the parts; returns the thread deleting the parts.

    The tables, cells.parquet, manifest.json and spec.toml come first (an OSError there
    leaves the parts, and a resume writes them again). Then parts/ is set aside (renamed: the
    folder's tables are complete) and deleted by a background thread while the caller writes
    the summary and report (simkit.sweeps.finish): a 10,000-cell grid leaves 20,000 parts,
    and deleting them is disk work the summary need not wait for.
    """
    folder = Path(folder)
    index = part_index(folder)
    traced = any(kind == TRACES for kind, _, _ in index)
    for kind in ("games", "seats", *((TRACES,) if traced else ())):
        merge(folder, kind, _merge_groups(index, kind, cells, starts))
    atomic_write(folder / "cells.parquet", cells_table(cells).write_parquet)
    # each table's sha256 and rows, so that report, check, load and resume know the sweep's own (verify_tables)
    tables = {name: table_record(folder / name) for name in (*TABLE_COLUMNS, *((f"{TRACES}.parquet",) if traced
                                                                             else ()))}
    # the manifest before the summary: the summary reads its per-cell timings (simkit.analysis.tiers)
    write_text(folder / "manifest.json", json_text({**manifest, "tables": tables}))
    write_text(folder / "spec.toml", spec_toml)
    trash = temporary(folder / PARTS)
    os.replace(folder / PARTS, trash)  # from here the folder is complete (is_complete)
    deleting = threading.Thread(target=shutil.rmtree, args=(trash,), kwargs={"ignore_errors": True},
                                name="simkit-drop-parts", daemon=True)
    deleting.start()
    return deleting


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
        """The score traces (simkit.core.traces) of a sweep run with arcs, else None."""
        path = self.folder / f"{TRACES}.parquet"
        return pl.read_parquet(path) if path.exists() else None

    @cached_property
    def summary(self) -> dict:
        path = self.folder / "summary.json"
        written = _written_summary.get(_file_key(path)) if path.exists() else None
        return written if written is not None else json.loads(path.read_text())

    @cached_property
    def manifest(self) -> dict:
        return json.loads((self.folder / "manifest.json").read_text())

    def to_pandas(self) -> dict:
        """{'games', 'seats', 'cells'} as pandas DataFrames (needs pandas and pyarrow)."""
        return {name: getattr(self, name).to_pandas() for name in ("games", "seats", "cells")}

    def __repr__(self) -> str:
        return f"Results({str(self.folder)!r})"


# the columns every table of a finished sweep has (docs/results.md); games add their metrics
TABLE_COLUMNS = {
    "games.parquet": ("cell", "game_index", "seed", "players", "rounds", "turns", "end_reason", "winner", "n_winners"),
    "seats.parquet": ("cell", "game_index", "seat", "strategy", "score", "rank", "win"),
    "cells.parquet": ("cell", "game", "players", "variant", "overrides", "strategies", "games", "rules_hash"),
}


def load(folder: str | Path) -> Results:
    """The results of a finished sweep folder; an InputError if it is not one, or if a table is damaged."""
    folder = Path(folder)
    if kind_of(folder, "the sweep folder") != "dir":
        raise InputError(f"{shown(str(folder))} is not a folder; name a sweep folder such as reports/default-<time>")
    missing = [f for f in TABLE_COLUMNS if not (folder / f).exists()]
    if missing:
        hint = "; finish it with simkit sweep --out DIR --resume" if (folder / PLAN).exists() else ""
        raise InputError(f"{folder} holds no finished sweep (no {missing[0]}){hint}")
    check_tables(folder)
    verify_tables(folder)
    return Results(folder)


def check_tables(folder: Path) -> None:
    """Each table of a finished sweep is a whole parquet file with its columns (an InputError naming
    the file and the fix otherwise): a truncated, emptied or swapped table is caught before it is read."""
    for name, columns in TABLE_COLUMNS.items():
        path = Path(folder) / name
        try:
            schema = pl.read_parquet_schema(path)
        except Exception:  # noqa: BLE001 (polars raises several kinds for a damaged file)
            size = path.stat().st_size if path.exists() else 0
            raise InputError(f"{path} is damaged ({'empty' if size == 0 else 'truncated, or not parquet'}); "
                             f"{rerun_hint(folder)}") from None
        lacking = [c for c in columns if c not in schema]
        if lacking:
            raise InputError(f"{path} is not a {name.split('.')[0]} table: it lacks {', '.join(lacking[:4])}"
                             f"{' and more' if len(lacking) > 4 else ''} (another table renamed?); {rerun_hint(folder)}")


def rerun_hint(folder: Path) -> str:
    """How to get a finished sweep's tables back: the spec it ran, into a new folder (same seed, same games)."""
    spec = Path(folder) / "spec.toml"
    return (f"rerun the sweep into a new folder: simkit sweep {spec} --out NEW_FOLDER" if spec.exists()
            else "rerun the sweep into a new folder")


# -- the tables' seal -------------------------------------------------------------------------


_sealed: dict = {}  # sha256 of a table file this process hashed, keyed by its identity (_table_key)


def _table_key(path: Path) -> tuple:
    stat = Path(path).stat()
    return str(Path(path).resolve()), stat.st_ino, stat.st_mtime_ns, stat.st_size


def _full_sha256(path: Path) -> str:
    key = _table_key(path)
    if key not in _sealed:
        h = hashlib.sha256()
        with open(path, "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                h.update(block)
        _sealed[key] = h.hexdigest()
    return _sealed[key]


def _rows(path: Path) -> int | None:
    try:
        return int(pl.scan_parquet(path).select(pl.len()).collect().item())
    except Exception:  # noqa: BLE001 (polars raises several kinds for a damaged file)
        return None


def table_record(path: Path) -> dict:
    """manifest.json's record of a final table: {"sha256": of the file, "rows": its row count}."""
    return {"sha256": _full_sha256(path), "rows": _rows(path)}


def verify_tables(folder: Path, present_only: bool = False) -> None:
    """Each table of a finished folder is the one its sweep wrote: the sha256 and rows manifest.json
    records (write_final_tables). A table of another sweep, an edited one, one missing that the manifest lists
    (unless present_only: `simkit check`, which reads the summary), and a traces.parquet the sweep did
    not write are each one InputError naming the file and the fix (docs/results.md)."""
    folder = Path(folder)
    path = folder / "manifest.json"
    if not path.exists():
        return  # a folder built by hand (or from elsewhere) has no record to verify against
    recorded = read_json(path, rerun_hint(folder)).get("tables")
    if recorded is None:
        return  # a manifest from before the tables were recorded: nothing to verify them against
    if not isinstance(recorded, dict):
        raise InputError(f"{path} is damaged (its tables entry is not a table); {rerun_hint(folder)}")
    traces = f"{TRACES}.parquet"
    if traces not in recorded and (folder / traces).exists():
        raise InputError(f"{folder / traces} is not a table of this sweep (manifest.json lists no traces, the sweep "
                         f"ran without arcs); move it out of {folder}, or {rerun_hint(folder)}")
    for name, record in recorded.items():
        table = folder / name
        if not isinstance(record, dict) or not isinstance(record.get("sha256"), str):
            raise InputError(f"{path} is damaged (its record of {name} lacks a sha256); {rerun_hint(folder)}")
        if not table.exists():
            if present_only:
                continue
            raise InputError(f"{table} is missing, but the sweep wrote it (manifest.json records it); put it back, "
                             f"or {rerun_hint(folder)}")
        try:
            same = _full_sha256(table) == record["sha256"]
        except OSError as e:
            raise InputError(f"cannot read {table}: {why(e)}") from None
        if not same:
            rows, wrote = _rows(table), record.get("rows")
            what = (f"it holds {rows:,} rows, the sweep wrote {wrote:,}" if isinstance(wrote, int) and rows is not None
                    and rows != wrote else "its bytes differ from the file the sweep wrote")
            raise InputError(f"{table} is not the table this sweep wrote ({what}, by the sha256 manifest.json "
                             f"records): a table of another sweep, or edited? Put the sweep's own file back, or "
                             f"{rerun_hint(folder)}")
