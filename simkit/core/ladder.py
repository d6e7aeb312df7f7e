"""Skill tiers: the self-play line-ups of a `--tiers` sweep, least skilled first (docs/guide.md).

`simkit sweep --tiers` (spec key `tiers = true`) plays, for each game and player count of
the sweep, self-play cells at the tiers

    random             the uniform baseline preset
    DEFAULT@p          the game's default preset with noise p (the skill knob: a decision
                       is a uniformly random legal one with chance p), one per --skill level
    PREVIOUS           the game's previous default preset, when a tuned preset (`simkit
                       train`) has replaced it as the default (Game.previous_default)
    DEFAULT            the game's default preset (the heuristic; `tuned` where trained)
    tuned              the game's tuned preset (`simkit train`), when it is not the default
    lookahead          the game's lookahead preset, when the game has one of that name
    expert             the game's expert preset (the lookahead on the tuned preset, with the
                       tuned preset in its rollouts), when the game has one of that name

in that order of skill. A game without a `lookahead` or `expert` preset gets the tiers
without it, and the summary says so.

Whether seat advantage grows with skill is simkit.analysis.tiers' question (the summary's
top-level `tiers`).
"""

from __future__ import annotations

from simkit.core.bots import TUNED
from simkit.core.errors import InputError
from simkit.core.game import NOISE_MARK, Game, parse_strategy

RANDOM = "random"
LOOKAHEAD = "lookahead"
EXPERT = "expert"


def parse_skill(value, where: str = "--skill") -> tuple[float, ...]:
    """'0,0.25,0.5' or [0, 0.25] -> the noise levels p of the DEFAULT@p tiers (0 is the
    default tier itself and adds no cell); each must lie in [0, 1]."""
    if value is None:
        return ()
    items = value.split(",") if isinstance(value, str) else value if isinstance(value, list) else [value]
    levels = []
    for item in items:
        try:
            level = -1.0 if isinstance(item, bool) else float(item.strip() if isinstance(item, str) else item)
        except (TypeError, ValueError):
            level = -1.0
        if not 0.0 <= level <= 1.0:
            raise InputError(f"skill in {where} must be noise levels from 0 to 1 like 0,0.25,0.5, got {value!r}")
        levels.append(level)
    return tuple(sorted({level for level in levels if level > 0.0}, reverse=True))


def tier_lineups(game: Game, skill: tuple[float, ...] = ()) -> list[tuple[str]]:
    """The self-play line-ups of the tiers, least skilled first (see the module docstring)."""
    names = game.preset_names()
    lineups = [(RANDOM,)] if RANDOM in names else []
    lineups += [(f"{game.default_strategy}{NOISE_MARK}{level:g}",) for level in skill]
    previous = game.previous_default
    if previous and previous in names and previous != game.default_strategy:
        lineups.append((previous,))
    lineups.append((game.default_strategy,))
    if TUNED in names and game.default_strategy != TUNED:
        lineups.append((TUNED,))
    for top in (LOOKAHEAD, EXPERT):
        if top in names and game.default_strategy != top:
            lineups.append((top,))
    return lineups


def default_panel(game: Game) -> list[str]:
    """The line-ups `simkit tune` evens the seats for when none is named (docs/tuning.md), each a
    preset at every seat: the default preset, the previous default (a style the default was
    trained past), the tuned preset where it is not the default, and the expert tier."""
    names = game.preset_names()
    panel = [game.default_strategy]
    for name in (game.previous_default, TUNED, EXPERT):
        if name and name in names and name not in panel:
            panel.append(name)
    return panel


PREVIOUS = "previous default"  # the tier name of Game.previous_default


def tier_of(default_strategy: str, lineup: str, previous_default: str | None = None,
            ) -> tuple[float, str, float] | None:
    """(skill order, tier name, noise) of a self-play line-up that is a tier of a game whose
    default preset is `default_strategy` (and whose default before it was `previous_default`),
    else None. Order: random 0, DEFAULT@p 1 - p (so 1 for the default), the previous default
    just below the default (0.999), a tuned preset that is not the default 1.5, lookahead 2,
    expert 3."""
    if "," in lineup:
        return None
    try:
        name, noise = parse_strategy(lineup)
    except ValueError:
        return None
    if name == RANDOM and noise == 0.0:
        return 0.0, "random", 0.0
    if name == default_strategy:
        return 1.0 - noise, "heuristic" if noise == 0.0 else f"heuristic@{noise:g}", noise
    if previous_default and name == previous_default != default_strategy and noise == 0.0:
        return 0.999, PREVIOUS, 0.0
    if name == TUNED != default_strategy and noise == 0.0:
        return 1.5, TUNED, 0.0
    if name == LOOKAHEAD and noise == 0.0:
        return 2.0, "lookahead", 0.0
    if name == EXPERT and noise == 0.0:
        return 3.0, "expert", 0.0
    return None
