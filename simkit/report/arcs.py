"""Report sections for game arcs and skill tiers (simkit.arcs, simkit.tiers): margins and
shared wins, rank distributions, the arcs of a sweep run with --arcs (score by round,
P(win | leading after round t)), and "Seat advantage by tier". They read summary.json only.
"""

from __future__ import annotations

import re
from pathlib import Path

from matplotlib.figure import Figure

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


def arc_section(cells: list[dict], labels: dict[str, str], plot_folder: Path) -> list[Block]:
    traced = [cell for cell in cells if cell.get("arcs") is not None]
    if not traced:
        return []
    blocks: list[Block] = [
        Heading("Game arcs"),
        Paragraph(f"From each game's score after every round (the first {traced[0]['arcs']['trace_rounds']} rounds "
                  "are traced; later rounds are not stored). The leader after a round is the seat with the sole "
                  "highest score. Lead changes: how often the sole leader became a different seat (a tied round "
                  "neither ends nor starts a lead). P(win | leading after t): the leader's share of wins over "
                  "decided games with a sole leader after round t; near 100% early means the game snowballs. "
                  "Comebacks: games won by a seat that was below the top score after the midpoint round "
                  "(rounds ÷ 2, rounded down), over games with one winner and at least 2 rounds."),
    ]
    untraced = [cell for cell in traced if not cell["arcs"]["traced_games"]]
    if untraced:
        games = sorted({cell["game"] for cell in untraced})
        blocks.append(Paragraph(f"No arcs for {', '.join(games)}: its engine writes no score trace yet, so its "
                                f"cells have no lead changes, snowballing or comeback figures."))
    rows = []
    drawn = []
    for cell in traced:
        arc = cell["arcs"]
        if not arc["traced_games"]:
            continue
        lead, back = arc["lead_changes"], arc["comeback"]
        rows.append([labels[cell["cell"]], f"{arc['traced_games']:,}",
                     _number(lead["mean"], 2) + _pm(lead["ci_low"], lead["ci_high"], 1.0, 2),
                     _leading_at(arc, 1), _leading_at(arc, max(1, round(cell["rounds"]["median"] or 2) // 2)),
                     _pct(back["share"]) + _pm(back["ci_low"], back["ci_high"])])
        if len(drawn) < MAX_ARC_PLOTS:
            path = arc_plot(cell, labels[cell["cell"]], plot_folder / f"arcs-{_file_name(cell['cell'])}.png")
            drawn.append(Plot(_relative(path), f"{labels[cell['cell']]}: mean score by round per seat, and "
                                               "P(win | sole leader after round t) with its 95% band"))
    if rows:
        blocks.append(Table(["cell", "traced games", "lead changes per game", "P(win | leading after round 1)",
                             "P(win | leading at the median game's midpoint)", "comebacks"], rows))
        blocks += drawn
        if len(rows) > len(drawn):
            blocks.append(Paragraph(f"Arc plots for the first {len(drawn)} of {len(rows)} cells; summary.json "
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
            fpa = [t["first_player_advantage"] for t in group["tiers"]]
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


def _finding(group: dict) -> str:
    where = f"{group['game']}, {group['players']} players" + (
        "" if group["variant"] == "standard" else f", {group['variant']}")
    effect = group.get("skill_effect")
    if not effect:
        return f"{where}: too few decided games to compare tiers."
    sign = {"grows": "grows", "shrinks": "shrinks", "no clear change": "does not change clearly"}[effect["verdict"]]
    return (f"{where}: first-player advantage {sign} with skill — {effect['higher']} minus {effect['lower']}: "
            f"{100 * effect['diff']:+.1f} points (95% CI {100 * effect['ci_low']:+.1f} to "
            f"{100 * effect['ci_high']:+.1f}; {effect['test']}).")


def tier_section(tiers: list[dict], plot_folder: Path) -> list[Block]:
    if not tiers:
        return []
    rows, comparison_rows, costs = [], [], []
    for group in tiers:
        where = f"{group['game']}, {group['players']}p" + ("" if group["variant"] == "standard"
                                                           else f", {group['variant']}")
        for tier in group["tiers"]:
            fpa, length = tier["first_player_advantage"], tier["rounds"] or {}
            rows.append([where, tier["tier"], tier["strategy"], f"{tier['games']:,}", f"{tier['decided_games']:,}",
                         f"{100 * fpa['value']:+.1f}" + _pm(fpa["ci_low"], fpa["ci_high"]),
                         _number(length.get("mean"), 2) + _pm(length.get("ci_low"), length.get("ci_high"), 1.0, 2),
                         _pct(tier["incomplete_share"]), _pct(tier["tie_share"]),
                         _number(tier["games_per_second"], 0)])
        for c in group["comparisons"]:
            comparison_rows.append([where, f"{c['higher']} − {c['lower']}", f"{100 * c['diff']:+.1f}",
                                    f"{100 * c['ci_low']:+.1f} to {100 * c['ci_high']:+.1f}",
                                    "p < 0.001" if c["p"] < 0.001 else f"p = {c['p']:.3f}"])
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
                  "seat 0's share of decided games minus 1/players, in points ± 95% half width (Wilson); rounds: "
                  "mean ± 95% half width; games/s: per core, from the sweep's own timings."),
        Bullets([_finding(group) for group in tiers]),
    ]
    if notes:
        blocks.append(Paragraph(" ".join(f"{note}." for note in notes) + " Those games show two tiers (more with "
                                "--skill)."))
    blocks += [
        Table(["game", "tier", "line-up", "games", "decided", "first-player advantage", "rounds", "capped",
               "shared wins", "games/s"], rows, text_columns=3),
        Plot(_relative(plot), "First-player advantage by tier with 95% intervals; dashed: no advantage"),
    ]
    if comparison_rows:
        blocks += [Paragraph("Differences of seat 0's share of decided games between tiers (the tiers play the same "
                             "seeds but different games are decided, so they are compared as independent "
                             "proportions: a conservative interval)."),
                   Table(["game", "tiers", "difference (points)", "95% CI", "p"], comparison_rows, text_columns=2)]
    if costs:
        blocks += [Paragraph("Cost of the lookahead tier:"), Bullets(costs)]
    return blocks
