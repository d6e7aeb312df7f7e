"""Report sections for game arcs and skill tiers (simkit.analysis.arcs, simkit.analysis.tiers): margins and
shared wins, rank distributions, the arcs of a sweep run with --arcs (score by round,
P(win | leading after round t)), and "Seat advantage by tier". They read summary.json only.
"""

from __future__ import annotations

import re
from pathlib import Path

from matplotlib.figure import Figure

from simkit.analysis.seats import no_decided_game, no_decided_text
from simkit.report import plots
from simkit.report.render import Block, Bullets, Heading, Paragraph, Plot, Table

MAX_ARC_PLOTS = 12  # cells drawn with their own arc figure; summary.json holds every cell's figures
MAX_RANK_COLUMNS = 6
MIN_GAMES, MIN_SHARE = 20, 0.01  # an arc plot draws the rounds at least this many (and this share of) games reach


def _pct(rate: float | None) -> str:
    return "–" if rate is None else f"{100 * rate:.1f}%"


def _pm(low: float | None, high: float | None, scale: float = 100.0, digits: int = 1) -> str:
    return "" if low is None or high is None else f" ±{scale * (high - low) / 2:.{digits}f}"


def _number(value: float | None, digits: int = 1) -> str:
    return "–" if value is None else f"{value:,.{digits}f}"


def _relative(plot: Path) -> str:
    return f"{plot.parent.name}/{plot.name}"


def _file_name(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.=-]+", "_", text)[:120]


# ---------------------------------------------------------------------------------------
# Margins, shared wins and ranks (every sweep)


def margin_section(cells: list[dict], labels: dict[str, str]) -> list[Block]:
    played = [cell for cell in cells if cell["games"]]
    if not any("margin" in cell or "ranks" in cell for cell in played):
        return []
    rows = []
    for cell in played:
        m = cell.get("margin") or {}
        rows.append([labels[cell["cell"]], f"{cell.get('decided_games', 0):,}", _pct(cell["tie_share"]),
                     _number(m.get("mean")) + _pm(m.get("ci_low"), m.get("ci_high"), 1.0),
                     str(m.get("median", "–")), str(m.get("p90", "–")),
                     _pct(next((r["games"] / m["games"] for r in m.get("distribution", []) if r["margin"] == 0), 0.0)
                          if m.get("games") else None)])
    widest = min(max(cell["players"] for cell in played), MAX_RANK_COLUMNS)
    rank_rows = []
    for cell in played:
        for seat in cell.get("ranks", []):
            shares = {r["rank"]: r["share"] for r in seat["shares"]}
            rank_rows.append([labels[cell["cell"]], f"seat {seat['seat']}"]
                             + [_pct(shares.get(rank, 0.0)) for rank in range(1, widest + 1)])
    return [
        Heading("Winning margins and shared wins"),
        Paragraph("Winning margin: the top score minus the second-highest score, over decided games (a game some "
                  "seat won or shared; a round-capped game has none). Shared wins: the share of all games won by "
                  "two or more seats tied after every tie-breaker. Mean ± 95% half width; median and 90th "
                  "percentile are observed margins."),
        Table(["cell", "decided", "shared wins", "mean margin", "median", "90th percentile", "margin 0"], rows),
        Paragraph("Rank distribution by seat: the share of all games each seat finished at each rank (1 = best "
                  "after the tie-breakers; tied seats share a rank)."),
        Table(["cell", "seat"] + [f"rank {rank}" for rank in range(1, widest + 1)], rank_rows, text_columns=2),
    ]


# ---------------------------------------------------------------------------------------
# Game arcs (a sweep with --arcs)


def arc_plot(cell: dict, label: str, path: Path) -> Path:
    """Two panels: mean score by round per seat, and P(win | sole leader after round t)."""
    arc = cell["arcs"]
    # rounds only a handful of games reach are noise: draw those at least MIN_SHARE of games reached
    enough = max(MIN_GAMES, MIN_SHARE * arc["traced_games"])
    figure = Figure(layout="constrained", figsize=(10.0, 3.4))
    scores, leading = figure.subplots(1, 2)
    by_seat: dict[int, list[tuple[int, float]]] = {}
    for row in (r for r in arc["score_by_round"] if r["games"] >= enough):
        by_seat.setdefault(row["seat"], []).append((row["round"], row["mean_score"]))
    for seat, points in sorted(by_seat.items()):
        scores.plot([r for r, _ in points], [s for _, s in points], marker=".", label=f"seat {seat}")
    scores.set_xlabel(f"round (rounds reached by at least {enough:,.0f} games)")
    scores.set_ylabel("mean score (games still running)")
    scores.set_title("Score arcs")
    scores.legend(fontsize=8, frameon=False)
    scores.grid(alpha=0.3)
    rows = [r for r in arc["win_when_leading"] if r["games"] >= enough]
    if rows:
        rounds = [r["round"] for r in rows]
        leading.fill_between(rounds, [r["ci_low"] for r in rows], [r["ci_high"] for r in rows], alpha=0.25)
        leading.plot(rounds, [r["rate"] for r in rows], marker=".")
    leading.axhline(1.0 / cell["players"], linestyle="--", color="0.35", linewidth=1.0)
    leading.set_ylim(0.0, 1.02)
    leading.set_xlabel("round t")
    leading.set_ylabel("P(win | sole leader after t)")
    leading.set_title("Snowballing (95% band; dashed: 1/players)")
    leading.grid(alpha=0.3)
    figure.suptitle(plots.wrap(label, 110), fontsize=10)
    return plots._save(figure, path)


def _leading_at(arc: dict, rnd: int) -> str:
    row = next((r for r in arc["win_when_leading"] if r["round"] == rnd), None)
    return "–" if row is None else _pct(row["rate"]) + _pm(row["ci_low"], row["ci_high"])


def _mean_text(block: dict | None, scale: float = 1.0, digits: int = 2) -> str:
    if not block or block.get("mean") is None:
        return "–"
    return f"{scale * block['mean']:.{digits}f}" + _pm(block["ci_low"], block["ci_high"], scale, digits)


def _leading_ahead_at(arc: dict, rnd: int) -> str:
    rows = (arc.get("win_when_leading_ahead") or {}).get("rounds", [])
    row = next((r for r in rows if r["round"] == rnd), None)
    return "–" if row is None else _pct(row["rate"]) + _pm(row["ci_low"], row["ci_high"])


def arc_section(cells: list[dict], labels: dict[str, str], plot_folder: Path) -> list[Block]:
    traced = [cell for cell in cells if cell.get("arcs") is not None]
    if not traced:
        return []
    left = next((c["arcs"].get("win_when_leading_ahead", {}).get("rounds_left") for c in traced
                 if c["arcs"].get("traced_games")), None) or 3
    blocks: list[Block] = [
        Heading("Game arcs"),
        Paragraph(f"From each game's score after every round (the first {traced[0]['arcs']['trace_rounds']} rounds "
                  "are traced; later rounds are not stored). First the metrics with a standard definition "
                  "(docs/results.md cites them): the **lead-change rate** (Ludii's LeadChange, by round: the share "
                  "of rounds after which the set of leaders, ties included, changed; it does not grow with the "
                  "game's length); **drama** (Browne's, as Ludii measures it: the eventual winner's deficit behind "
                  "the top score after each round, as a share of the winning final score, averaged over the "
                  "rounds; beside it the share of rounds the winner trailed and its mean deficit when it did); and "
                  f"**P(win | leading after t, at least {left} rounds left)**, which leaves out the last rounds of "
                  "games about to end. Then simkit's own figures: lead changes per game (how often the sole leader "
                  "became a different seat; it grows with the game's length), P(win | sole leader after round t) "
                  "over every decided game that lasted t rounds (near 100% early means the game snowballs), and "
                  "comebacks (games won by a seat below the top score after the midpoint round, over games with "
                  "one winner and at least 2 rounds)."),
    ]
    untraced = [cell for cell in traced if not cell["arcs"]["traced_games"]]
    if untraced:
        games = sorted({cell["game"] for cell in untraced})
        blocks.append(Paragraph(f"No arcs for {', '.join(games)}: its engine writes no score trace yet, so its "
                                f"cells have no lead changes, snowballing or comeback figures."))
    standard, own = [], []
    drawn = []
    for cell in traced:
        arc = cell["arcs"]
        if not arc["traced_games"]:
            continue
        label = labels[cell["cell"]]
        midpoint = max(1, round(cell["rounds"]["median"] or 2) // 2)
        dramatic = arc.get("drama") or {}
        standard.append([label, f"{arc['traced_games']:,}", _mean_text(arc.get("lead_change_rate"), 100.0, 1) + "%",
                         _mean_text(dramatic, 100.0, 1) + "%",
                         _mean_text(dramatic.get("trailing_share"), 100.0, 1) + "%",
                         _mean_text(dramatic.get("trailing_deficit"), 100.0, 1) + "%",
                         _leading_ahead_at(arc, 1), _leading_ahead_at(arc, midpoint)])
        lead, back = arc["lead_changes"], arc["comeback"]
        own.append([label, _number(lead["mean"], 2) + _pm(lead["ci_low"], lead["ci_high"], 1.0, 2),
                    _leading_at(arc, 1), _leading_at(arc, midpoint),
                    _pct(back["share"]) + _pm(back["ci_low"], back["ci_high"])])
        if len(drawn) < MAX_ARC_PLOTS:
            path = arc_plot(cell, label, plot_folder / f"arcs-{_file_name(cell['cell'])}.png")
            drawn.append(Plot(_relative(path), f"{label}: mean score by round per seat, and "
                                               "P(win | sole leader after round t) with its 95% band"))
    if standard:
        blocks.append(Table(["cell", "traced games", "lead-change rate (per round)", "drama",
                             "rounds the winner trailed", "winner's deficit when trailing",
                             f"P(win | leading after round 1, {left}+ rounds left)",
                             f"P(win | leading at the median game's midpoint, {left}+ rounds left)"], standard))
        blocks.append(Paragraph("simkit's own figures, beside the standard ones:"))
        blocks.append(Table(["cell", "lead changes per game", "P(win | leading after round 1)",
                             "P(win | leading at the median game's midpoint)", "comebacks"], own))
        blocks += drawn
        if len(standard) > len(drawn):
            blocks.append(Paragraph(f"Arc plots for the first {len(drawn)} of {len(standard)} cells; summary.json "
                                    "holds every cell's arcs."))
    return blocks


# ---------------------------------------------------------------------------------------
# Seat advantage by tier (a sweep with --tiers)


def tier_plot(groups: list[dict], path: Path) -> Path:
    """First-player advantage (points against fair, 95% interval) by tier, one line per
    player count, one panel per game."""
    games = list(dict.fromkeys(group["game"] for group in groups))
    figure = Figure(layout="constrained", figsize=(max(5.0, 4.6 * len(games)), 3.6))
    panels = figure.subplots(1, len(games), squeeze=False)[0]
    for panel, game in zip(panels, games):
        mine = [group for group in groups if group["game"] == game]
        names = list(dict.fromkeys(t["tier"] for group in mine for t in group["tiers"]))
        for number, group in enumerate(mine):
            xs = [names.index(t["tier"]) + (number - (len(mine) - 1) / 2) * 0.06 for t in group["tiers"]]
            measured = [(x, t["first_player_advantage"]) for x, t in zip(xs, group["tiers"])
                        if t["first_player_advantage"]["value"] is not None]  # None: no decided game
            xs, fpa = [x for x, _ in measured], [f for _, f in measured]
            panel.errorbar(xs, [100 * f["value"] for f in fpa],
                           # max(0, …): at a share of 0 or 1 rounding may put a bound a hair past the value
                           yerr=[[max(0.0, 100 * (f["value"] - f["ci_low"])) for f in fpa],
                                 [max(0.0, 100 * (f["ci_high"] - f["value"])) for f in fpa]],
                           marker="o", markersize=4, capsize=2,
                           label=f"{group['players']} players" + ("" if group["variant"] == "standard"
                                                                  else f", {group['variant']}"))
        panel.axhline(0.0, linestyle="--", color="0.35", linewidth=1.0)
        panel.set_xticks(range(len(names)), names, fontsize=8)
        panel.set_xlabel("tier (least skilled left)")
        panel.set_ylabel("first-player advantage (points)")
        panel.set_title(game)
        panel.grid(alpha=0.3)
        panel.legend(fontsize=8, frameon=False)
    return plots._save(figure, path)


SIZE_NAMES = {"seat0_distance": "seat 0's distance from fair", "seat_gap": "the largest seat gap"}


def _change_text(change: dict) -> str:
    return (f"{100 * change['before']:.1f} → {100 * change['after']:.1f} points (paired "
            f"{100 * change['diff']:+.1f}, 95% CI {100 * change['ci_low']:+.1f} to {100 * change['ci_high']:+.1f})")


def _finding(group: dict) -> str:
    """Both sizes' verdicts, most skilled tier against the least: by size and for every seat."""
    where = f"{group['game']}, {group['players']} players" + (
        "" if group["variant"] == "standard" else f", {group['variant']}")
    effect = group.get("skill_effect")
    if not effect:
        return f"{where}: too few decided games to compare tiers."
    parts = []
    for size, name in SIZE_NAMES.items():
        change = effect.get(size) or {}
        if change.get("diff") is None:
            continue
        verb = {"grows": "grows", "shrinks": "shrinks", "no clear change": "does not change clearly"}[change["verdict"]]
        parts.append(f"{name} {verb} ({_change_text(change)})")
    tiers = {t["tier"]: t for t in group["tiers"]}
    top = tiers.get(effect["higher"], {})
    worst = max(top.get("seats") or [], key=lambda s: abs(s["vs_fair"]), default=None)
    seat = (f"; at {effect['higher']} the seat furthest from fair is seat {worst['seat']}, "
            f"{100 * worst['vs_fair']:+.1f} points") if worst else ""
    return f"{where}, {effect['higher']} against {effect['lower']}: " + "; ".join(parts) + seat + "."


def _seats_cell(tier: dict) -> str:
    if no_decided_game(tier):
        return no_decided_text(tier)
    return " / ".join(f"{100 * s['vs_fair']:+.1f}" for s in tier.get("seats") or [])


def tier_section(tiers: list[dict], plot_folder: Path) -> list[Block]:
    if not tiers:
        return []
    rows, comparison_rows, costs = [], [], []
    for group in tiers:
        where = f"{group['game']}, {group['players']}p" + ("" if group["variant"] == "standard"
                                                           else f", {group['variant']}")
        for tier in group["tiers"]:
            fpa, length, gap = tier["first_player_advantage"], tier["rounds"] or {}, tier.get("largest_seat_gap") or {}
            rows.append([where, tier["tier"], tier["strategy"], f"{tier['games']:,}", f"{tier['decided_games']:,}",
                         "–" if fpa["value"] is None else f"{100 * fpa['value']:+.1f}" + _pm(fpa["ci_low"], fpa["ci_high"]),
                         _seats_cell(tier),
                         "–" if gap.get("value") is None else
                         f"{100 * gap['value']:.1f}" + _pm(gap["ci_low"], gap["ci_high"]),
                         _number(length.get("mean"), 2) + _pm(length.get("ci_low"), length.get("ci_high"), 1.0, 2),
                         _pct(tier["incomplete_share"]), _pct(tier["tie_share"]),
                         _number(tier["games_per_second"], 0)])
        for c in group["comparisons"]:
            cells = [where, f"{c['higher']} − {c['lower']}"]
            for size in SIZE_NAMES:
                change = c.get(size) or {}
                cells.append("–" if change.get("diff") is None else
                             f"{100 * change['diff']:+.1f} ({100 * change['ci_low']:+.1f} to "
                             f"{100 * change['ci_high']:+.1f}) {change['verdict']}")
            pair = (c.get("seat_gap") or {}).get("pairing") or {}
            cells.append("–" if not pair else f"{pair['correlation']:.2f}")
            comparison_rows.append(cells)
        cost = group.get("lookahead_cost")
        if cost:
            costs.append(f"{where}: lookahead plays {cost['lookahead_games_per_second']:,.0f} games/s per core "
                         f"against {cost['default_games_per_second']:,.0f} for the default preset — "
                         f"{cost['slowdown']:,.0f}× slower, {cost['ms_per_game']:.2f} ms per game.")
    notes = sorted({group["note"] for group in tiers if group["note"]})
    plot = tier_plot(tiers, plot_folder / "tiers_first_player_advantage.png")
    blocks: list[Block] = [
        Heading("Seat advantage by tier"),
        Paragraph("Self-play at rising skill: random, the default preset with noise p (a decision is a uniformly "
                  "random legal one with chance p), the default preset, and its lookahead. First-player advantage: "
                  "seat 0's share of decided games minus 1/players, in points ± 95% half width (Wilson); seats: "
                  "every seat's share against fair, seat 0 first; largest gap: the highest seat's share minus the "
                  "lowest's; rounds: mean ± 95% half width; games/s: per core, from the sweep's own timings. A tier "
                  "is judged by size, for every seat: seat 0's distance from fair and the largest seat gap, each "
                  "compared between tiers game by game on the shared seeds."),
        Bullets([_finding(group) for group in tiers]),
    ]
    if notes:
        blocks.append(Paragraph(" ".join(f"{note}." for note in notes) + " Those games show two tiers (more with "
                                "--skill)."))
    blocks += [
        Table(["game", "tier", "line-up", "games", "decided", "first-player advantage", "seats (points)",
               "largest gap", "rounds", "capped", "shared wins", "games/s"], rows, text_columns=3),
        Plot(_relative(plot), "First-player advantage by tier with 95% intervals; dashed: no advantage"),
    ]
    if comparison_rows:
        blocks += [Paragraph("Changes between tiers, in points (higher tier minus lower), paired game by game on the "
                             "shared seeds (delta method): a size grows or shrinks only when its interval excludes 0. "
                             "Pairing r: the correlation of the two tiers' largest-gap terms game by game (near 0: "
                             "the bots' different choices leave the games unrelated, and the interval is as wide as "
                             "two independent runs')."),
                   Table(["game", "tiers", "seat 0's distance from fair", "largest seat gap", "pairing r"],
                         comparison_rows, text_columns=2)]
    if costs:
        blocks += [Paragraph("Cost of the lookahead tier:"), Bullets(costs)]
    return blocks
