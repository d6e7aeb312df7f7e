"""Skill tiers: does first-player advantage grow with the bots' skill? (issue 11, item 4; DESIGN §5)

`simkit sweep --tiers` (spec key `tiers = true`) plays, for each game and player count of
the sweep, self-play cells at the tiers

    random             the uniform baseline preset
    DEFAULT@p          the game's default preset with noise p (the skill knob: a decision
                       is a uniformly random legal one with chance p), one per --skill level
    DEFAULT            the game's default preset (the heuristic)
    lookahead          the game's lookahead preset, when the game has one of that name

in that order of skill. A game without a `lookahead` preset gets the tiers without it
(two, without --skill), and the summary says so.

The summary (top-level `tiers` of summary.json, see `summarize`) gives per tier the
first-player advantage over decided games (seat 0's share of the decided games minus
1/players, Wilson interval, DESIGN §7), game length with its interval, and the games/s
the sweep's workers played it at (manifest `cell_timing`); then the differences of
first-player advantage between tiers. The tiers play the same seeds but different bots,
so the deals are shared while the decided games differ: the difference is tested as two
independent proportions (unpaired, normal approximation), which is conservative.
"""

from __future__ import annotations

import itertools
import json
import math
from pathlib import Path

import polars as pl
from scipy import stats as scipy_stats

from simkit.errors import InputError
from simkit.game import NOISE_MARK, Game, parse_strategy
from simkit.stats import Z95

MIN_DECIDED = 100  # a tier with fewer decided games (say, one that hardly ever finishes) is not compared

RANDOM = "random"
LOOKAHEAD = "lookahead"


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
    lineups.append((game.default_strategy,))
    if LOOKAHEAD in names and game.default_strategy != LOOKAHEAD:
        lineups.append((LOOKAHEAD,))
    return lineups


def tier_of(game: Game, lineup: str) -> tuple[float, str, float] | None:
    """(skill order, tier name, noise) of a self-play line-up that is a tier, else None.
    Order: random 0, DEFAULT@p 1 - p (so 1 for the default), lookahead 2."""
    if "," in lineup:
        return None
    try:
        name, noise = parse_strategy(lineup)
    except ValueError:
        return None
    if name == RANDOM and noise == 0.0:
        return 0.0, "random", 0.0
    if name == game.default_strategy:
        return 1.0 - noise, "heuristic" if noise == 0.0 else f"heuristic@{noise:g}", noise
    if name == LOOKAHEAD and noise == 0.0:
        return 2.0, "lookahead", 0.0
    return None


def _difference(high: dict, low: dict) -> dict:
    """Seat 0's share of decided games, tier `high` minus tier `low`: unpaired normal interval."""
    n1, n2 = high["decided_games"], low["decided_games"]
    r1, r2 = high["seat0_share"], low["seat0_share"]
    diff = r1 - r2
    se = math.sqrt(r1 * (1 - r1) / n1 + r2 * (1 - r2) / n2) if n1 and n2 else float("nan")
    p = 2.0 * float(scipy_stats.norm.sf(abs(diff) / se)) if se > 0 else (1.0 if diff == 0 else 0.0)
    return {"higher": high["tier"], "lower": low["tier"], "diff": diff, "ci_low": diff - Z95 * se,
            "ci_high": diff + Z95 * se, "p": p, "test": "unpaired difference of two proportions"}


def _verdict(comparison: dict) -> str:
    if comparison["ci_low"] > 0:
        return "grows"
    if comparison["ci_high"] < 0:
        return "shrinks"
    return "no clear change"


def _rounds(folder: Path) -> dict[str, dict]:
    """Per cell: mean rounds with its normal 95% interval (a streaming group-by, DESIGN §9)."""
    frame = (pl.scan_parquet(folder / "games.parquet").group_by("cell")
             .agg(pl.col("rounds").cast(pl.Float64).mean().alias("mean"),
                  pl.col("rounds").cast(pl.Float64).std().alias("sd"), pl.len().alias("n"))
             .collect(engine="streaming"))
    out = {}
    for row in frame.iter_rows(named=True):
        half = Z95 * (row["sd"] or 0.0) / math.sqrt(row["n"])
        out[row["cell"]] = {"mean": row["mean"], "ci_low": row["mean"] - half, "ci_high": row["mean"] + half}
    return out


def summarize(folder: Path, cells: list[dict], manifest: dict | None = None) -> list[dict]:
    """The `tiers` field of summary.json: one entry per (game, players, variant, overrides)
    whose cells hold at least two tiers including the default preset's:

    {game, players, variant, overrides, lookahead (bool: the game has a lookahead tier),
     note, tiers: [{tier, strategy, noise, cell, games, decided_games, seat0_share,
       first_player_advantage {value, ci_low, ci_high} (over decided games), rounds {mean,
       ci_low, ci_high}, incomplete_share, tie_share, games_per_second}],
     comparisons: [{higher, lower, diff, ci_low, ci_high, p, test}] (consecutive tiers, then
       the most skilled against random), skill_effect {…the last comparison, verdict:
       "grows" | "shrinks" | "no clear change"},
     lookahead_cost {default_games_per_second, lookahead_games_per_second, slowdown,
       ms_per_game} or null}
    """
    from simkit import games as registry

    folder = Path(folder)
    if manifest is None and (folder / "manifest.json").exists():
        manifest = json.loads((folder / "manifest.json").read_text())
    timing = (manifest or {}).get("cell_timing", {})
    groups: dict[tuple, list[tuple]] = {}
    for cell in cells:
        try:
            game = registry.get(cell["game"])
        except InputError:
            continue
        tier = tier_of(game, cell.get("lineup", ""))
        if tier is None or not cell["games"]:
            continue
        key = (cell["game"], cell["players"], cell["variant"], json.dumps(cell.get("overrides", {}), sort_keys=True))
        groups.setdefault(key, []).append((tier, cell, game))
    groups = {k: v for k, v in groups.items() if len(v) >= 2 and any(t[1] == "heuristic" for t, _, _ in v)}
    if not groups:
        return []
    rounds = _rounds(folder)
    out = []
    for (game_id, players, variant, overrides), members in groups.items():
        members.sort(key=lambda m: m[0][0])
        game = members[0][2]
        tiers = []
        for (_, name, noise), cell, _ in members:
            seat0 = cell["seat_advantage"][0]
            spent = timing.get(cell["cell"])
            tiers.append({
                "tier": name, "strategy": cell["lineup"], "noise": noise, "cell": cell["cell"],
                "games": cell["games"], "decided_games": cell["decided_games"], "seat0_share": seat0["rate"],
                "first_player_advantage": {"value": seat0["vs_fair"], "ci_low": seat0["vs_fair_low"],
                                           "ci_high": seat0["vs_fair_high"]},
                "rounds": rounds.get(cell["cell"]),
                "incomplete_share": cell["incomplete_share"], "tie_share": cell["tie_share"],
                "games_per_second": spent["games"] / spent["seconds"] if spent and spent["seconds"] > 0 else None,
            })
        # a tier that hardly ever finishes its games has no seat figure worth comparing (its
        # row in the report shows the capped share): compare the tiers with enough decided games
        usable = [t for t in tiers if t["decided_games"] >= MIN_DECIDED]
        unfinished = [t["tier"] for t in tiers if t not in usable]
        comparisons = [_difference(high, low) for low, high in itertools.pairwise(usable)]
        if len(usable) > 2:
            comparisons.append(_difference(usable[-1], usable[0]))
        has_lookahead = LOOKAHEAD in game.preset_names() and game.default_strategy != LOOKAHEAD
        by_name = {t["tier"]: t for t in tiers}
        cost = None
        if "lookahead" in by_name and by_name["heuristic"]["games_per_second"] and \
                by_name["lookahead"]["games_per_second"]:
            fast, slow = by_name["heuristic"]["games_per_second"], by_name["lookahead"]["games_per_second"]
            cost = {"default_games_per_second": fast, "lookahead_games_per_second": slow, "slowdown": fast / slow,
                    "ms_per_game": 1000.0 / slow}
        out.append({
            "game": game_id, "players": players, "variant": variant, "overrides": json.loads(overrides),
            "lookahead": has_lookahead,
            "note": "; ".join(filter(None, (
                "" if has_lookahead else f"{game_id} has no '{LOOKAHEAD}' preset: no lookahead tier",
                f"left out of the comparisons, fewer than {MIN_DECIDED} decided games: {', '.join(unfinished)}"
                if unfinished else ""))),
            "tiers": tiers, "comparisons": comparisons,
            "skill_effect": {**comparisons[-1], "verdict": _verdict(comparisons[-1])} if comparisons else None,
            "lookahead_cost": cost,
        })
    return out
