"""simkit: Monte Carlo balance analysis for tabletop games.

For notebooks, everything the CLI does is a call here::

    import simkit
    results = simkit.sweep(game="sea_of_plunder", players="2,3,4", games=20_000)
    results.summary["cells"][0]["first_player_advantage"]
    results.seats.group_by("strategy").agg(...)     # polars
    simkit.load("reports/default-20250101-120000").to_pandas()["games"]
    simkit.search.tune("sea_of_thieves", "starting_gold", players=3).value   # see docs/tuning.md
"""

from __future__ import annotations

import os
import sys
import time

IDLE_CACHE_SECONDS = 86_400  # a numba cache folder unused this long may be removed


def _numba_cache_dir() -> str:
    """~/.cache/simkit/numba/<hash of the engine and bot sources>.

    numba's cache checks only the source file of the function it caches, not the files of
    the functions it calls: after an edit to a bot or a shared kernel, an engine would load
    its old machine code and silently play the old rules. Keying the folder by every
    source file the engines are built from (the games, their bots, the shared kernels and
    RNG: `simkit.sweeps.identity.engine_sources`, where a sweep's code identity starts too) makes any
    such edit a fresh folder. The last few
    folders are kept, so switching between two versions stays cheap; an older one is removed
    only once no process has opened it for a day, since another checkout (or a sweep still
    running an older version) may be compiling into it.
    """
    from pathlib import Path

    from simkit.sweeps.identity import engine_sources, sources_digest

    base = Path.home() / ".cache" / "simkit" / "numba"
    folder = base / sources_digest(engine_sources())[:16]
    try:
        folder.mkdir(parents=True, exist_ok=True)
        os.utime(folder)
        ours = (p for p in base.iterdir() if p.is_dir() and p != folder and len(p.name) == 16
                and all(c in "0123456789abcdef" for c in p.name))
        old = sorted(ours, key=lambda p: p.stat().st_mtime)
        for stale in old[:-4]:
            if time.time() - stale.stat().st_mtime > IDLE_CACHE_SECONDS:
                import shutil

                shutil.rmtree(stale, ignore_errors=True)
    except OSError:  # a read-only home: a sweep says so before compiling (runner._check_numba_cache)
        pass
    return str(folder)


# numba reads its cache folder when it is first imported. One stable per-user folder (per
# source version) means workers load what the parent compiled.
if "NUMBA_CACHE_DIR" not in os.environ:
    os.environ["NUMBA_CACHE_DIR"] = _numba_cache_dir()
    if "numba" in sys.modules:  # imported before simkit: have it read the folder now, as workers will
        from numba.core import config

        config.reload_config()

from simkit.core.errors import InputError
from simkit.core.version import __version__
from simkit.sweeps.results import Results, load

__all__ = ["InputError", "Results", "__version__", "load", "sweep", "tune"]


def __getattr__(name: str):
    """`simkit.search.tune(game, param, ...)`: the module simkit.search.tune, imported on first use, is callable
    (see simkit.search.tune.tune for the arguments; it returns a TuneResult)."""
    if name == "tune":
        import importlib

        return importlib.import_module("simkit.search.tune")
    raise AttributeError(f"module 'simkit' has no attribute {name!r}")

_RUN_OPTIONS = ("jobs", "chunk", "backend", "address", "quiet", "report", "force_jobs")
_SPEC_OPTIONS = ("game", "players", "variant", "set", "strategies", "games", "seed", "name", "precision", "arcs",
                 "tiers", "skill", "tournament", "bots", "robustness", "max_cells")


def sweep(spec=None, *, out=None, resume: bool = False, **options) -> Results:
    """Run a sweep and return its Results.

    spec: a TOML spec path (or its table as a dict); without it and without `game`, the
    default spec experiments/default.toml. Spec options (override the spec): game,
    players ("2,3,4" or a list), variant ("standard,two_player"), set ({"key": value} or
    ["key=value"]), strategies ("a,b" for one line-up, or a list of line-ups), games,
    seed, name, precision, arcs (trace score arcs), tiers (skill-tier cells), skill ("0.25,0.5":
    noise levels of extra tiers), tournament (True: every preset against every other, seats
    balanced; see simkit.core.seating), bots (bot parameters: ["greedy:preset=merchant,sell_at=400"] or
    {"greedy": {"preset": "merchant", "sell_at": 400}}; see simkit.core.bots), robustness ("off", "skill",
    "components" or "all": after the sweep, re-measure its headline findings at a skilled tier and
    under the shipped component sets and label them; see simkit.sweeps.robustness), max_cells (the most cells
    the sweep may have, default simkit.sweeps.spec.MAX_CELLS). Run options: jobs (default:
    all cores; more than the cores is capped to them with a warning unless force_jobs=True), chunk, backend
    ("loky" or "dask"), address (the Dask scheduler), quiet, report (False: tables and
    summary only, no report.md/.html or plots). out: the folder (default
    reports/<name>-<time>/; a leading ~ is the home folder). resume=True finishes the sweep in `out`;
    spec and spec options are then optional, and must match that sweep if given.
    """
    from pathlib import Path

    from simkit.core.files import expand_user
    from simkit.sweeps import runner
    from simkit.sweeps import spec as specs

    if out is not None:  # before anything is played: '~/x' is the home folder's x, never ./~/x
        out = expand_user(os.fspath(out), "--out")

    unknown = set(options) - set(_RUN_OPTIONS) - set(_SPEC_OPTIONS)
    if unknown:
        from simkit.core.errors import unknown as unknown_error

        raise unknown_error("sweep option", min(unknown), _RUN_OPTIONS + _SPEC_OPTIONS)
    spec_options = {k: v for k, v in options.items() if k in _SPEC_OPTIONS and v is not None}
    # --max-cells only bounds what is planned: with nothing else, a resume reads the plan it finishes
    plan = None if resume and spec is None and not set(spec_options) - {"max_cells"} else \
        specs.load(spec, **spec_options)
    run_options = {k: v for k, v in options.items() if k in _RUN_OPTIONS and v is not None}
    from simkit.sweeps.results import is_complete

    already = bool(resume and out is not None and is_complete(out))
    lacking = [name for name in ("summary.json", "report.html") if already and not (Path(out) / name).exists()]
    folder = runner.run(plan, out, resume=resume, **run_options)
    from simkit.sweeps import robustness

    robustness.run(folder, **{k: v for k, v in run_options.items() if k != "chunk"})
    results = Results(folder)
    results.already_complete = already  # resume found nothing left to play
    results.written_again = [name for name in lacking if (folder / name).exists()]  # ... but these to write
    return results
