"""simkit: Monte Carlo balance analysis for tabletop games.

For notebooks, everything the CLI does is a call here::

    import simkit
    results = simkit.sweep(game="sea_of_plunder", players="2,3,4", games=20_000)
    results.summary["cells"][0]["first_player_advantage"]
    results.seats.group_by("strategy").agg(...)     # polars
    simkit.load("reports/default-20250101-120000").to_pandas()["games"]
"""

from __future__ import annotations

import os
import sys
from importlib import metadata

# numba reads its cache folder when it is first imported. One stable per-user folder means
# workers load what the parent compiled, and an installed (read-only) package still caches.
if "NUMBA_CACHE_DIR" not in os.environ:
    os.environ["NUMBA_CACHE_DIR"] = os.path.join(os.path.expanduser("~"), ".cache", "simkit", "numba")
    if "numba" in sys.modules:  # imported before simkit: have it read the folder now, as workers will
        from numba.core import config

        config.reload_config()

try:
    __version__ = metadata.version("simkit")
except metadata.PackageNotFoundError:  # running from a source tree that is not installed
    __version__ = "0+unknown"

from simkit.errors import InputError
from simkit.results import Results, load

__all__ = ["InputError", "Results", "__version__", "load", "sweep"]

_RUN_OPTIONS = ("jobs", "chunk", "backend", "address", "quiet", "report")
_SPEC_OPTIONS = ("game", "players", "variant", "set", "strategies", "games", "seed", "name", "precision")


def sweep(spec=None, *, out=None, resume: bool = False, **options) -> Results:
    """Run a sweep and return its Results.

    spec: a TOML spec path (or its table as a dict); without it and without `game`, the
    default spec experiments/default.toml. Spec options (override the spec): game,
    players ("2,3,4" or a list), variant ("standard,two_player"), set ({"key": value} or
    ["key=value"]), strategies ("a,b" for one line-up, or a list of line-ups), games,
    seed, name, precision. Run options: jobs (default: all cores), chunk, backend
    ("loky" or "dask"), address (the Dask scheduler), quiet, report (False: tables and
    summary only, no report.md/.html or plots). out: the folder (default
    reports/<name>-<time>/). resume=True finishes the sweep in `out`; spec and spec
    options are then optional, and must match that sweep if given.
    """
    from simkit import runner
    from simkit import spec as specs

    unknown = set(options) - set(_RUN_OPTIONS) - set(_SPEC_OPTIONS)
    if unknown:
        from simkit.errors import unknown as unknown_error

        raise unknown_error("sweep option", min(unknown), _RUN_OPTIONS + _SPEC_OPTIONS)
    spec_options = {k: v for k, v in options.items() if k in _SPEC_OPTIONS and v is not None}
    plan = None if resume and spec is None and not spec_options else specs.load(spec, **spec_options)
    run_options = {k: v for k, v in options.items() if k in _RUN_OPTIONS and v is not None}
    from simkit.results import is_complete

    already = bool(resume and out is not None and is_complete(out))
    results = Results(runner.run(plan, out, resume=resume, **run_options))
    results.already_complete = already  # resume found nothing left to play
    return results
