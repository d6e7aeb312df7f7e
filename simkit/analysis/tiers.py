"""Seat advantage by skill tier: does the seats' imbalance grow with the bots' skill?
(docs/statistics.md; the cells come from `simkit sweep --tiers`, see simkit.core.ladder.)

The question is about size and about every seat: a first player's disadvantage that deepens
from −3 to −8 points grows, however its sign reads, and a game whose seat 1 is +15 points
is unbalanced whatever seat 0 does. So each pair of tiers is compared on two sizes:

- seat 0's distance from fair, |share of decided games − 1/players|;
- the largest seat gap, the highest seat's share of decided games minus the lowest's.

The tiers of a sweep play the same seeds (game i of every cell plays seed i), so
each difference is paired game by game (the delta method on the per-game wins, see
simkit.analysis.seats.seat_changes); when the bots' different choices leave the games
uncorrelated the pairing buys nothing and the interval says so, never narrower than the
games allow. Each size's change is called "grows" or "shrinks" only when its interval
excludes 0.
"""

from __future__ import annotations

import itertools
import json
import math
from pathlib import Path

import polars as pl

from simkit.analysis.intervals import Z95
from simkit.analysis.seats import OUTCOME_COLUMNS, extremes_frame, outcomes, pair_sums, seat_changes, verdict
from simkit.analysis.tables import collect
from simkit.core.ladder import LOOKAHEAD, tier_of

MIN_DECIDED = 100  # a tier with fewer decided games (say, one that hardly ever finishes) is not compared
SIZES = ("seat0_distance", "seat_gap")  # the sizes compared between tiers


def _rounds(games: pl.LazyFrame, cells: list[str]) -> dict[str, dict]:
    """Per cell: mean rounds with its normal 95% interval (a streaming group-by). The sums are of
    integers, so the figures do not depend on the order the rows arrive in."""
    rounds = pl.col("rounds").cast(pl.Int64)
    frame = collect(games.filter(pl.col("cell").is_in(cells)).group_by("cell")
                    .agg(rounds.sum().alias("sum"), (rounds * rounds).sum().alias("squares"), pl.len().alias("n")))
    out = {}
    for row in frame.iter_rows(named=True):
        n, total, squares = int(row["n"]), int(row["sum"]), int(row["squares"])
        mean = total / n
        sd = math.sqrt((n * squares - total * total) / (n * (n - 1))) if n > 1 else 0.0
        half = Z95 * sd / math.sqrt(n)
        out[row["cell"]] = {"mean": mean, "ci_low": mean - half, "ci_high": mean + half}
    return out


def _comparison(high: dict, low: dict, sums: dict | None, fair: float) -> dict:
    """Tier `high` against tier `low` on the games both played: the paired change of each size."""
    changes = seat_changes(sums, fair) if sums else {}
    out = {"higher": high["tier"], "lower": low["tier"], "test": "paired on shared seeds (delta method)"}
    for name in ("seat0_share", *SIZES):
        change = changes.get(name) or {"diff": None, "ci_low": None, "ci_high": None, "p": None}
        out[name] = {key: change.get(key) for key in ("diff", "ci_low", "ci_high", "p", "paired_games", "before",
                                                      "after", "pairing")}
        if name in SIZES:
            out[name]["verdict"] = verdict(change)
    return out


def summarize(games: pl.LazyFrame, seats: pl.LazyFrame, cells: list[dict], game_info: dict,
              timing: dict | None = None) -> list[dict]:
    """The `tiers` field of summary.json: one entry per (game, players, variant, overrides)
    whose cells hold at least two tiers including the default preset's:

    {game, players, variant, overrides, lookahead (bool: the game has a lookahead tier), note,
     tiers: [{tier, strategy, noise, cell, games, decided_games, seat0_share,
       first_player_advantage {value, ci_low, ci_high} (over decided games), seats [every
       seat's share of decided games against fair], largest_seat_gap {value, ci_low, ci_high,
       high_seat, low_seat}, rounds {mean, ci_low, ci_high}, incomplete_share, tie_share,
       games_per_second}],
     comparisons: [{higher, lower, test, seat0_share, seat0_distance, seat_gap}] (consecutive
       tiers, then the most skilled against the least), each change {diff, ci_low, ci_high,
       p, paired_games, before, after, pairing} and, for the two sizes, a verdict ("grows",
       "shrinks" or "no clear change");
     skill_effect: the last comparison (the most skilled tier against the least),
     lookahead_cost {default_games_per_second, lookahead_games_per_second, slowdown,
       ms_per_game} or null}

    `game_info` is summary.json's `games` (each game's default preset and preset names);
    `timing` the manifest's `cell_timing` (games and seconds per cell).
    """
    timing = timing or {}
    groups: dict[tuple, list[tuple]] = {}
    for cell in cells:
        info = game_info.get(cell["game"])
        if info is None or not cell["games"]:
            continue
        tier = tier_of(info["default_strategy"], cell.get("lineup", ""), info.get("previous_default"))
        if tier is None:
            continue
        key = (cell["game"], cell["players"], cell["variant"], json.dumps(cell.get("overrides", {}), sort_keys=True))
        groups.setdefault(key, []).append((tier, cell))
    groups = {k: v for k, v in groups.items() if len(v) >= 2 and any(t[1] == "heuristic" for t, _ in v)}
    if not groups:
        return []
    members_all = [cell for members in groups.values() for _, cell in members]
    rounds = _rounds(games, [cell["cell"] for cell in members_all])
    pairs, plans = [], []
    for key, members in groups.items():
        members.sort(key=lambda m: m[0][0])
        usable = [cell for (_, _, _), cell in members if cell["decided_games"] >= MIN_DECIDED]
        compared = list(itertools.pairwise(usable))
        if len(usable) > 2:
            compared.append((usable[0], usable[-1]))
        plans.append((key, members, compared))
        pairs += [(low["cell"], high["cell"]) for low, high in compared]
    sums = pair_sums(outcomes(seats, extremes_frame(members_all)), list(dict.fromkeys(pairs)), OUTCOME_COLUMNS)
    out = []
    for (game_id, players, variant, overrides), members, compared in plans:
        info = game_info[game_id]
        tiers, by_cell = [], {}
        for (_, name, noise), cell in members:
            seat0 = cell["seat_advantage"][0]
            spent = timing.get(cell["cell"])
            entry = {
                "tier": name, "strategy": cell["lineup"], "noise": noise, "cell": cell["cell"],
                "games": cell["games"], "decided_games": cell["decided_games"], "seat0_share": seat0["rate"],
                "first_player_advantage": {"value": seat0["vs_fair"], "ci_low": seat0["vs_fair_low"],
                                           "ci_high": seat0["vs_fair_high"]},
                "seats": cell["seat_advantage"], "largest_seat_gap": cell["largest_seat_gap"],
                "rounds": rounds.get(cell["cell"]),
                "incomplete_share": cell["incomplete_share"], "tie_share": cell["tie_share"],
                "games_per_second": spent["games"] / spent["seconds"] if spent and spent["seconds"] > 0 else None,
            }
            tiers.append(entry)
            by_cell[cell["cell"]] = entry
        # a tier that hardly ever finishes its games has no seat figure worth comparing (its
        # row in the report shows the capped share): compare the tiers with enough decided games
        unfinished = [t["tier"] for t in tiers if t["decided_games"] < MIN_DECIDED]
        fair = 1.0 / players
        comparisons = [_comparison(by_cell[high["cell"]], by_cell[low["cell"]], sums.get((low["cell"], high["cell"])),
                                   fair) for low, high in compared]
        has_lookahead = LOOKAHEAD in info["presets"] and info["default_strategy"] != LOOKAHEAD
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
            "skill_effect": comparisons[-1] if comparisons else None,
            "lookahead_cost": cost,
        })
    return out


def manifest_timing(folder: Path) -> dict:
    """The manifest's per-cell timings of a sweep folder ({} without a manifest)."""
    path = Path(folder) / "manifest.json"
    return json.loads(path.read_text()).get("cell_timing", {}) if path.exists() else {}
