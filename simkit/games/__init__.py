"""Registry of games: id -> Game.

Every package under simkit/games/ that defines `GAME` is a game. Games kept outside
simkit (a designer's own, or a test's) are added by naming their modules in the
environment variable SIMKIT_GAME_MODULES (comma-separated), which worker processes
inherit. Modules are imported on first use.
"""

from __future__ import annotations

import importlib
import os
import pkgutil

from simkit.core.errors import InputError, unknown

_loaded: dict = {}


def _modules() -> dict[str, str]:
    here = os.path.dirname(__file__)
    found = {m.name: f"simkit.games.{m.name}" for m in pkgutil.iter_modules([here]) if m.ispkg}
    for module in filter(None, os.environ.get("SIMKIT_GAME_MODULES", "").split(",")):
        found[module.strip().rsplit(".", 1)[-1]] = module.strip()
    return found


def ids() -> list[str]:
    return sorted(_modules())


def get(game_id: str):
    """The Game registered under `game_id`; an InputError with a hint if there is none."""
    if game_id in _loaded:
        return _loaded[game_id]
    modules = _modules()
    if game_id not in modules:
        raise unknown("game", game_id, modules)
    if game_id not in _loaded:
        try:
            module = importlib.import_module(modules[game_id])
        except ImportError as e:
            raise InputError(f"cannot import game module '{modules[game_id]}' (from SIMKIT_GAME_MODULES or "
                             f"simkit/games): {e}; check the module path and PYTHONPATH") from None
        if not hasattr(module, "GAME"):
            raise InputError(f"game module '{modules[game_id]}' defines no GAME; see simkit/core/game.py")
        _loaded[game_id] = module.GAME
    return _loaded[game_id]


def folder(game_id: str):
    """The folder of the game's package (or of its module): where its data files, such as
    the `tuned` preset's tuned.toml (simkit.core.bots), live."""
    from pathlib import Path

    get(game_id)
    module = importlib.import_module(_modules()[game_id])
    return Path(module.__file__).resolve().parent


def all_games():
    return [get(g) for g in ids()]
