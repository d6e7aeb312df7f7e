"""What the report says, in this order: the answer first, then the
evidence (seat win rates, game length, end reasons, strategies, dealt categories such as
player powers, metrics, variant comparisons), then the precision reached and provenance.

Everything here reads the summary (see `simkit.analysis.summary.summarize`) and the small
length distribution; the plots are drawn into the folder given.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import polars as pl

from simkit.analysis.robustness import LABELS, opening
from simkit.report import arcs, plots, tournament
from simkit.report.findings import MOSTLY_UNFINISHED, Headline, headline, headline_groups
from simkit.report.render import Block, Bullets, Contents, Heading, Paragraph, Plot, Table

SIGNIFICANCE = 0.05  # a p-value below this is called evidence in the prose
COMPARED = {  # paired comparison metric -> (display name, shown as percentage points)
    "seat0_win": ("seat 0 share of decided games", True),
    "seat_gap": ("largest seat gap (decided games)", True),
    "rounds": ("rounds per game", False),
    "incomplete": ("incomplete games (round cap)", True),
}


# ---------------------------------------------------------------------------------------
# Wording of numbers


def percent(rate: float) -> str:
    return f"{100 * rate:.1f}%"


def interval(low: float, high: float) -> str:
    """A rate interval: '26.9–27.7%'."""
    return f"{100 * low:.1f}–{100 * high:.1f}%"


def points(difference: float) -> str:
    """A signed difference of rates in percentage points: '+2.3'."""
    return f"{100 * difference:+.1f}"


def p_text(p: float) -> str:
    return "p < 0.001" if p < 0.001 else f"p = {p:.3f}" if p < 0.1 else f"p = {p:.2f}"


def number(value: float | None, digits: int = 2) -> str:
    return "–" if value is None else f"{value:,.{digits}f}"


def count(value: int) -> str:
    return f"{value:,}"


def cell_labels(cells: list[dict]) -> dict[str, str]:
    """A short human name per cell: player count and variant always; the game, the rule
    overrides and the line-up only where they tell cells apart (the line-up only for a game
    whose cells play several). A label that would still repeat gets the cell id."""
    several_games = len({cell["game"] for cell in cells}) > 1
    lineups: dict[str, set] = {}  # a game whose cells all play one line-up need not name it
    for cell in cells:
        lineups.setdefault(cell["game"], set()).add(cell.get("lineup"))
    labels = {}
    for cell in cells:
        parts = [cell["game"]] if several_games else []
        parts += [f"{cell['players']} players", cell["variant"]]
        parts += [f"{name}={value}" for name, value in cell.get("overrides", {}).items()]
        if len(lineups[cell["game"]]) > 1:
            parts.append(f"line-up {cell.get('lineup')}")
        labels[cell["cell"]] = ", ".join(parts)
    uses = Counter(labels.values())  # counted once: a 10,000-cell grid has 10,000 labels
    repeated = {label for label, n in uses.items() if n > 1}
    return {cell: f"{label} [{cell}]" if label in repeated else label for cell, label in labels.items()}


# ---------------------------------------------------------------------------------------
# Sections


def answer(cell: dict, label: str) -> str:
    """The one-sentence answer for a cell: seat 0's share of decided games against fair,
    whether the first seat is favoured (only when the interval of the advantage excludes
    0), whether seats differ at all, and how many games did not finish. A cell whose games
    mostly hit the round cap says that first and reads nothing into its seats (docs/statistics.md)."""
    if not cell["games"]:
        return f"{label}: no games were played."
    capped = cell["incomplete_share"]
    if capped > MOSTLY_UNFINISHED:
        return (f"**{label}**: most games did not finish: {percent(capped)} hit the round cap, so who won the rest "
                "is not read as a seat effect.")
    fair = cell["fair_rate"]
    seat0 = (cell.get("seat_advantage") or [None])[0]
    if seat0 is None:  # a summary from before decided-game figures: all games
        first = cell["seats"][0]
        seat0 = {"rate": first["win_rate"], "ci_low": first["ci_low"], "ci_high": first["ci_high"]}
    value = points(seat0["rate"] - fair)
    low, high = seat0["ci_low"] - fair, seat0["ci_high"] - fair
    span = f"CI {points(low)} to {points(high)}"
    if low > 0:
        verdict = f"favoured by {value} points ({span})"
    elif high < 0:
        verdict = f"disadvantaged by {value} points ({span})"
    else:
        verdict = f"no evidence of a first-seat advantage at this precision ({value} points, {span})"
    uniformity = cell["seat_uniformity_p"]
    seats = "seats differ" if uniformity < SIGNIFICANCE else "no evidence that seats differ"
    sentence = (
        f"**{label}**: seat 0 wins {percent(seat0['rate'])} of decided games (95% CI "
        f"{interval(seat0['ci_low'], seat0['ci_high'])}) against a fair {percent(fair)} — {verdict}; {seats} "
        f"(chi-square {p_text(uniformity)})."
    )
    if capped > 0:
        sentence += f" {percent(capped)} of games hit the round cap and are left out as nobody's win."
    return sentence


HEADLINE_ITEMS = 8  # headline items of a one-game sweep; the rest are listed under "More findings"
HEADLINE_PER_GAME = 3  # headline items per game of a sweep of several games


def _headline_groups(summary: dict, top: Headline, labels: dict[str, str]) -> list[tuple[str, list[str], list[str]]]:
    limit = HEADLINE_ITEMS if len(top.games) <= 1 else HEADLINE_PER_GAME
    return headline_groups(top, labels, tournament.headline_items(summary["cells"], labels, summary.get("robustness")),
                           limit)


def _game_title(summary: dict, game: str) -> str:
    title = (summary.get("games") or {}).get(game, {}).get("title")
    return f"{title} ({game})" if title else game


def _headline_section(summary: dict, top: Headline, groups: list[tuple[str, list[str], list[str]]]) -> list[Block]:
    cells = summary["cells"]
    games = sum(cell["games"] for cell in cells)
    several = len(top.games) > 1
    blocks: list[Block] = [Heading("Headline")]
    robust = (summary.get("robustness") or {}).get("findings", [])
    if robust:
        shown_ids = [row for row in robust if row.get("headline")] or robust
        sentence = opening(shown_ids)
        if sentence:
            blocks.append(Paragraph(sentence.replace("findings re-measured", "headline findings re-measured")
                                    if shown_ids is not robust else sentence))
    shown = sum(len(items) for _, items, _ in groups)
    if not shown:
        blocks.append(Paragraph("No effect stands clear of the noise at this precision: every seat, strategy, dealt "
                                "category and variant comparison is inside its interval of no difference."))
    for game, items, rest in groups:
        if not items:
            continue
        if several:
            blocks.append(Paragraph(f"**{_game_title(summary, game)}**"))
        blocks.append(Bullets(items, ordered=True))
        if rest:
            blocks.append(Paragraph(f"{len(rest):,} more finding{'s' * (len(rest) != 1)}"
                                    + (f" for {game}" if several else "") + " in the section More findings."))
    more = sum(len(rest) for _, _, rest in groups)
    blocks.append(Paragraph(
        f"{top.precision} Ranked by size in percentage points (game-length changes follow, by percent)"
        + (f", at most {HEADLINE_PER_GAME} per game" if several else "")
        + f"; {len(top.findings):,} of {top.candidates:,} figures tested are findings"
        + (f", {more:,} of them under More findings" if more else "")
        + f". {count(games)} simulated games in {len(cells):,} cell(s)."
    ))
    return blocks


def _more_findings_section(summary: dict, top: Headline, groups: list[tuple[str, list[str], list[str]]]
                           ) -> list[Block]:
    rest = [(game, items) for game, _, items in groups if items]
    if not rest:
        return []
    blocks: list[Block] = [Heading("More findings")]
    for game, items in rest:
        if len(top.games) > 1:
            blocks.append(Heading(_game_title(summary, game), 3))
        blocks.append(Bullets(items, ordered=True))
    return blocks


def _overview_colour(points_value: float, clear: bool) -> str:
    """Heat-map colour: red where seat 0 is favoured, blue where it is not, deeper with size;
    a figure inside its noise stays pale grey."""
    if not clear:
        return "#f4f5f7"
    strength = min(abs(points_value) / 8.0, 1.0)  # 8 points or more: the deepest shade
    light = round(235 - 150 * strength)
    return f"rgb(245,{light},{light})" if points_value > 0 else f"rgb({light},{light},245)"


def overview_rows(cells: list[dict]) -> tuple[list[int], list[tuple[str, dict[int, dict]]]]:
    """The heat map's player counts and rows: one row per game (and variant, overrides and
    line-up where they differ), one column per player count."""
    lineups: dict[str, set] = {}
    for cell in cells:
        lineups.setdefault(cell["game"], set()).add(cell.get("lineup"))
    counts = sorted({cell["players"] for cell in cells})
    rows: dict[str, dict[int, dict]] = {}
    for cell in cells:
        parts = [cell["game"]]
        if cell["variant"] != "standard":
            parts.append(cell["variant"])
        parts += [f"{name}={value}" for name, value in cell.get("overrides", {}).items()]
        if len(lineups[cell["game"]]) > 1:
            parts.append(f"line-up {cell.get('lineup')}")
        rows.setdefault(", ".join(parts), {})[cell["players"]] = cell
    return counts, list(rows.items())


def _overview_section(cells: list[dict]) -> list[Block]:
    counts, rows = overview_rows(cells)
    table_rows, shades = [], []
    for label, by_players in rows:
        texts, colours = [label], [None]
        for players in counts:
            cell = by_players.get(players)
            if cell is None or not cell["games"]:
                texts.append("")
                colours.append(None)
                continue
            if cell["incomplete_share"] > MOSTLY_UNFINISHED:
                texts.append(f"unfinished {percent(cell['incomplete_share'])}")
                colours.append("#d9d9d9")
                continue
            seat0 = cell["seat_advantage"][0] if "seat_advantage" in cell else None
            value, low, high = ((seat0["vs_fair"], seat0["vs_fair_low"], seat0["vs_fair_high"]) if seat0 else
                                (cell["first_player_advantage"][k] for k in ("value", "ci_low", "ci_high")))
            clear = low > 0 or high < 0
            text = f"{points(value)} ±{50 * (high - low):.1f}"
            texts.append(f"**{text}**" if clear else text)
            colours.append(_overview_colour(100 * value, clear))
        table_rows.append(texts)
        shades.append(colours)
    return [
        Heading("Overview: seat 0 against fair"),
        Paragraph(
            "Seat 0's share of decided games minus the fair 1/players, in percentage points, ± its 95% half width. "
            "**Bold** (coloured: red favoured, blue disfavoured, deeper with size): the interval excludes 0; plain "
            "(grey): inside the noise. A cell whose games mostly hit the round cap shows its unfinished share instead."
        ),
        Table(["game"] + [f"{players} players" for players in counts], table_rows, shades=shades),
    ]


def _seat_section(cells: list[dict], labels: dict[str, str], plot_folder: Path) -> list[Block]:
    widest = max(cell["players"] for cell in cells)
    rows = []
    for cell in cells:
        shares = cell.get("seat_advantage") or [
            {"vs_fair": s["win_rate"] - cell["fair_rate"], "vs_fair_low": s["ci_low"] - cell["fair_rate"],
             "vs_fair_high": s["ci_high"] - cell["fair_rate"]} for s in cell["seats"]]
        seats = [f"{points(s['vs_fair'])} ±{50 * (s['vs_fair_high'] - s['vs_fair_low']):.1f}" for s in shares]
        gap = cell["largest_seat_gap"]
        rows.append(
            [labels[cell["cell"]], count(cell["games"]), count(cell.get("decided_games", cell["complete_games"])),
             percent(cell["fair_rate"])]
            + seats
            + [""] * (widest - len(seats))
            + [_gap_text(gap), p_text(cell["seat_uniformity_p"])]
        )
    header = ["cell", "games", "decided", "fair"] + [f"seat {seat}" for seat in range(widest)]
    header += ["largest gap (decided)", "seats equal? (chi-square)"]
    plot = plots.rate_intervals(
        [
            plots.CellRates(
                labels[cell["cell"]],
                0.0,
                [plots.Interval(f"seat {s['seat']}", s["vs_fair"], s["vs_fair_low"], s["vs_fair_high"])
                 for s in cell.get("seat_advantage", [])],
            )
            for cell in cells
            if cell["games"]
        ],
        plot_folder / "seat_win_rates.png",
        "Seat advantage against fair",
        xlabel="points against fair (share of decided games − 1/players)",
        as_points=True,
    )
    return [
        Heading("Seat win rates"),
        Bullets([answer(cell, labels[cell["cell"]]) for cell in cells]),
        Paragraph(
            "Each seat's share of decided games against fair (1/players), in percentage points ± the 95% half width "
            "(Wilson). A shared win counts 1/k for each of the k sharers; a round-capped game is nobody's and is left "
            "out of the decided games (its share is under End reasons). The largest gap is the highest seat's share "
            "minus the lowest's, over the same decided games, ± that pair's 95% half width."
        ),
        Table(header, rows),
        Plot(_relative(plot), "Seat advantage in points against fair with 95% intervals; dashed: fair"),
    ]


def _gap_text(gap: dict) -> str:
    """'+4.1 ±1.2 (0 vs 2)': the largest seat gap over decided games, its pair's half width and seats."""
    if gap.get("value") is None:
        return "–"
    half = f" ±{50 * (gap['ci_high'] - gap['ci_low']):.1f}" if gap.get("ci_low") is not None else ""
    return f"{points(gap['value'])}{half} ({gap['high_seat']} vs {gap['low_seat']})"


def _length_section(
    cells: list[dict], labels: dict[str, str], length_counts: pl.DataFrame, plot_folder: Path
) -> list[Block]:
    rows = [
        [
            labels[cell["cell"]],
            count(cell["games"]),
            number(cell["rounds"]["mean"], 1),
            str(cell["rounds"]["median"]),
            str(cell["rounds"]["p90"]),
            f"{cell['rounds']['min']}–{cell['rounds']['max']}",
            number(cell["turns"]["mean"], 1),
        ]
        for cell in cells
        if cell["games"]
    ]
    blocks: list[Block] = [
        Heading("Game length"),
        Paragraph("Rounds per game; median and 90th percentile are observed round counts (lower quantile)."),
        Table(["cell", "games", "mean rounds", "median", "90th percentile", "range", "mean turns"], rows),
    ]
    if length_counts.height:
        games = {cell["cell"]: cell["game"] for cell in cells}
        plot = plots.game_lengths(length_counts, labels, "rounds", plot_folder / "game_length.png", games)
        blocks.append(Plot(_relative(plot), "Share of games by number of rounds, one axis per game; the red bar "
                                            "gathers the longest 1% and round-capped games"))
    return blocks


def _end_reason_section(cells: list[dict], labels: dict[str, str], plot_folder: Path) -> list[Block]:
    played = [cell for cell in cells if cell["games"]]
    reasons = list(dict.fromkeys(row["end_reason"] for cell in played for row in cell["end_reasons"]))
    reasons.sort(key=lambda reason: reason == "round_cap")
    rows = []
    for cell in played:
        by_reason = {row["end_reason"]: row for row in cell["end_reasons"]}
        rows.append(
            [labels[cell["cell"]]]
            + [
                f"{percent(by_reason[reason]['share'])} ({count(by_reason[reason]['games'])})"
                if reason in by_reason
                else "–"
                for reason in reasons
            ]
        )
    unfinished = [cell for cell in played if cell["incomplete_share"] > 0]
    findings = [
        f"**Design finding:** {labels[cell['cell']]}: {percent(cell['incomplete_share'])} of games "
        f"({count(cell['games'] - cell['complete_games'])}) hit the round cap without ending by the rules."
        for cell in unfinished
    ]
    plot = plots.end_reasons(
        [(labels[cell["cell"]], {row["end_reason"]: row["share"] for row in cell["end_reasons"]}) for cell in played],
        plot_folder / "end_reasons.png",
    )
    return [
        Heading("End reasons"),
        Table(["cell", *reasons], rows),
        Bullets(findings) if findings else Paragraph("Every game ended by the rules: none hit the round cap."),
        Plot(_relative(plot), "How games end; round-capped (incomplete) games in red"),
    ]


def _rate_rows(cell: dict, label: str, rates: list[dict], key: str) -> list[list[str]]:
    """Rates per decided seat played (one basis: docs/statistics.md), the capped and shared shares beside them."""
    return [
        [
            label,
            str(rate[key]),
            count(rate["seats"]),
            count(rate.get("decided_seats", rate["seats"])),
            percent(rate["win_rate"]),
            interval(rate["ci_low"], rate["ci_high"]),
            points(rate["win_rate"] - cell["fair_rate"]),
            percent(rate.get("capped_share", 0.0)),
            percent(rate.get("shared_share", 0.0)),
        ]
        for rate in rates
    ]


RATE_HEADER = ["seats", "decided", "win rate (decided)", "95% CI", "vs fair (points)", "capped", "shared wins"]


def _rates_plot(
    rates_by_cell: list[tuple[dict, list[dict]]], labels: dict[str, str], key: str, path: Path, title: str
) -> Path:
    """Plot per-seat-played rates (strategies or a category's values): (cell, its rate rows) pairs."""
    return plots.rate_intervals(
        [
            plots.CellRates(
                labels[cell["cell"]],
                0.0,
                [plots.Interval(str(r[key]), r["win_rate"] - cell["fair_rate"], r["ci_low"] - cell["fair_rate"],
                                r["ci_high"] - cell["fair_rate"]) for r in rates],
            )
            for cell, rates in rates_by_cell
        ],
        path,
        title,
        xlabel="points against fair (win rate per decided seat played − 1/players)",
        as_points=True,
    )


def _strategy_section(cells: list[dict], labels: dict[str, str], plot_folder: Path) -> list[Block]:
    mixed = [cell for cell in cells if len(cell["strategies"]) > 1]
    if not mixed:
        lineups = ", ".join(sorted({str(cell.get("lineup")) for cell in cells}))
        return [
            Heading("Strategy results"),
            Paragraph(f"Every seat of a cell played the same strategy ({lineups}): no strategy comparison to make."),
        ]
    rows = [row for cell in mixed for row in _rate_rows(cell, labels[cell["cell"]], cell["strategies"], "strategy")]
    plot = _rates_plot(
        [(cell, cell["strategies"]) for cell in mixed],
        labels,
        "strategy",
        plot_folder / "strategies.png",
        "Win rate by strategy",
    )
    return [
        Heading("Strategy results"),
        Paragraph(
            "Win rate of each strategy over the decided games it sat in (a line-up is seated by a balanced design: "
            "every strategy in every seat equally often); a strategy as strong as the others wins 1/players of them. "
            "A round-capped game is nobody's win and is left out, as for the seats; its share of the strategy's "
            "seats is under capped, and the share of its seats in games with a shared win under shared wins."
        ),
        Table(["cell", "strategy", *RATE_HEADER], rows, text_columns=2),
        Plot(_relative(plot), "Win rate by strategy in points against fair, with 95% intervals"),
    ]


def _category_sections(cells: list[dict], labels: dict[str, str], plot_folder: Path) -> list[Block]:
    columns = list(dict.fromkeys(column for cell in cells for column in cell.get("categories", {})))
    blocks: list[Block] = []
    for column in columns:
        dealt = [cell for cell in cells if cell["categories"].get(column)]
        rows = [
            row for cell in dealt for row in _rate_rows(cell, labels[cell["cell"]], cell["categories"][column], "value")
        ]
        plot = _rates_plot(
            [(cell, cell["categories"][column]) for cell in dealt],
            labels,
            "value",
            plot_folder / f"{re.sub(r'[^A-Za-z0-9_-]+', '_', column)}_win_rates.png",
            f"Win rate by {column}",
        )
        blocks += [
            Heading(f"Win rate by {column}"),
            Paragraph(f"Win rate of the seats holding each {column}, over the decided games they sat in; a balanced "
                      f"{column} wins 1/players of them. Round-capped games are left out, as for the seats (their "
                      f"share of the seats under capped; games with a shared win under shared wins)."),
            Table(["cell", column, *RATE_HEADER], rows, text_columns=2),
            Plot(_relative(plot), f"Win rate by {column} in points against fair, with 95% intervals"),
        ]
    return blocks


def _metric_section(cells: list[dict], labels: dict[str, str]) -> list[Block]:
    rows = []
    for cell in cells:
        label = labels[cell["cell"]]
        for metric, values in cell.get("game_metrics", {}).items():
            if values["mean"] is not None:  # another game's metric: this cell has none
                rows.append([label, metric, "game", number(values["mean"]), ""])
        for metric, shares in cell.get("game_categories", {}).items():
            text = ", ".join(f"{row['value']} {percent(row['share'])}" for row in shares)
            rows.append([label, metric, "game", text, ""])
        for metric, values in cell.get("seat_metrics", {}).items():
            if values["mean"] is None:
                continue
            by_seat = " / ".join(number(value) for value in values["by_seat"])
            rows.append([label, metric, "seat", number(values["mean"]), by_seat])
    if not rows:
        return []
    return [
        Heading("Game and seat metrics"),
        Paragraph("Means per game or per seat; by seat lists seat 0 first."),
        Table(["cell", "metric", "per", "mean", "mean by seat"], rows, text_columns=3),
    ]


def _comparison_section(comparisons: list[dict], labels: dict[str, str], plot_folder: Path) -> list[Block]:
    if not comparisons:
        return [
            Heading("Variant comparisons"),
            Paragraph("No comparisons: no two cells share game, player count and line-up."),
        ]
    baselines = {row["baseline"] for row in comparisons}
    rows, plotted = [], []
    for row in comparisons:
        name, as_points = COMPARED.get(row["metric"], (row["metric"], False))
        level = percent if as_points else number
        scale = 100 if as_points else 1
        rows.append(
            [
                labels.get(row["cell"], row["cell"]),
                labels.get(row["baseline"], row["baseline"]),
                name,
                level(row["baseline_mean"]),
                level(row["cell_mean"]),
                f"**{scale * row['diff']:+.2f}**" if row["p_holm"] < SIGNIFICANCE else f"{scale * row['diff']:+.2f}",
                f"{scale * row['ci_low']:+.2f} to {scale * row['ci_high']:+.2f}",
                p_text(row["p_holm"]),
                count(row["paired_games"]),
                *_pairing_cells(row.get("pairing"), scale),
            ]
        )
        plotted.append(
            {
                "label": labels.get(row["cell"], row["cell"])
                + ("" if len(baselines) == 1 else f" vs {labels.get(row['baseline'], row['baseline'])}"),
                "metric": row["metric"],
                **{key: scale * row[key] for key in ("diff", "ci_low", "ci_high")},
            }
        )
    names = {
        metric: f"{name} ({'points' if as_points else 'difference'})" for metric, (name, as_points) in COMPARED.items()
    }
    against = f" ({labels.get(next(iter(baselines)))})" if len(baselines) == 1 else ""
    title = f"Variant minus baseline{against}, same seeds, 95% interval"
    plot = plots.differences(plotted, names, plot_folder / "comparisons.png", title)
    return [
        Heading("Variant comparisons"),
        Paragraph(
            "Each variant against its baseline (standard rules without overrides, else the first cell) on the same "
            "seeds game by game (common random numbers): difference = variant − baseline, percentage points for rates. "
            "Seat 0's share and the largest seat gap are over decided games, each cell's gap between its own highest "
            "and lowest seat, compared game by game by the delta method. "
            f"p is Holm-adjusted across all {len(comparisons)} comparisons; a **bold** difference is a change "
            f"(Holm p < {SIGNIFICANCE}). "
            "Pairing r is the correlation of the two cells' results game by game; the last column compares the "
            "paired 95% half width with what two independent runs of the same size would give."
        ),
        Table(
            [
                "variant",
                "baseline",
                "metric",
                "baseline mean",
                "variant mean",
                "difference",
                "95% CI",
                "Holm p",
                "paired games",
                "pairing r",
                "± paired / unpaired",
            ],
            rows,
            text_columns=3,
        ),
        *_pairing_notes(comparisons, labels),
        Plot(_relative(plot), "Paired differences with 95% intervals; an interval clear of 0 is a change"),
    ]


def _pairing_cells(pair: dict | None, scale: float) -> list[str]:
    if not pair:
        return ["–", "–"]
    gain = pair.get("gain")
    tighter = f" ({gain:.1f}x tighter)" if gain and gain >= 1.1 else " (no gain)"
    return [f"{pair['correlation']:.2f}",
            f"±{scale * pair['paired_half_width']:.2f} / ±{scale * pair['unpaired_half_width']:.2f}{tighter}"]


BROKEN_PAIRING = 1.1  # a paired interval less than 10% tighter than an unpaired one: the pairing bought nothing


def _pairing_notes(comparisons: list[dict], labels: dict[str, str]) -> list[Block]:
    """Say which comparisons the shared seeds did not pair: rules that change the set-up deal a
    different game from the same seed, so the comparison is as wide as an unpaired one."""
    broken = sorted({labels.get(row["cell"], row["cell"]) for row in comparisons
                     if row.get("pairing") and row["metric"] == "seat0_win"
                     and (row["pairing"].get("gain") or 1.0) < BROKEN_PAIRING})
    if not broken:
        return []
    return [Paragraph(
        "**Pairing broken:** " + "; ".join(broken) + ": the same seeds gave uncorrelated games (the rules change the "
        "game from its set-up on, so a seed deals a different game). These comparisons are no tighter than two "
        "independent runs; their intervals say so, and they are not claimed as paired."
    )]


MAX_CURVE_PLOTS = 12  # response-curve plots drawn; summary.json and the tables hold every curve


def curve_title(curve: dict) -> str:
    """'head_start: dicegame, 2 players, sudden' (the fixed overrides and line-up after)."""
    parts = [curve["game"], f"{curve['players']} players", curve["variant"]]
    parts += [f"{name}={value}" for name, value in curve.get("fixed", {}).items()]
    if curve.get("lineup"):
        parts.append(f"line-up {curve['lineup']}")
    return f"{curve['param']}: {', '.join(parts)}"


def _curve_section(curves: list[dict], plot_folder: Path) -> list[Block]:
    """Response curves (simkit.analysis.curves): one table and, for the first MAX_CURVE_PLOTS, one plot per curve."""
    if not curves:
        return []

    def figure(block: dict, key: str = "value") -> str:
        if block.get(key) is None:
            return "–"
        low, high = block.get("ci_low"), block.get("ci_high")
        return points(block[key]) + (f" ({points(low)} to {points(high)})" if low is not None else "")

    blocks: list[Block] = [
        Heading("Response curves"),
        Paragraph(
            "Where a sweep's cells differ in one rule parameter only, the figures against its value: seat 0's share "
            "of decided games against fair and the largest seat gap (points, 95% interval), mean rounds, and how "
            "games end. Every value plays the same seeds, so the step from the previous value is a paired change "
            "(points, 95% interval): it is usually much tighter than the two points' own intervals. "
            "`simkit tune` searches such a parameter for the value where seat 0 is fair."
        ),
    ]
    for index, curve in enumerate(curves):
        rows = []
        for point in curve["points"]:
            gap = point["largest_seat_gap"]
            rounds = point["rounds"]
            step = point.get("step", {}).get("seat_advantage", {})
            rows.append([
                point["label"], count(point["games"]), figure(point["seat_advantage"]),
                figure(step, "diff") if step else "",
                f"{figure(gap)} ({gap['high_seat']} vs {gap['low_seat']})" if gap["value"] is not None else "–",
                number(rounds["mean"], 1) + (f" ({number(rounds['ci_low'], 1)}–{number(rounds['ci_high'], 1)})"
                                             if rounds["ci_low"] is not None else ""),
                percent(point["incomplete_share"]),
            ])
        title = curve_title(curve)
        blocks += [Heading(title, 3),
                   Table([curve["param"], "games", "seat 0 vs fair", "paired step from previous", "largest seat gap",
                          "mean rounds", "round-capped"], rows)]
        if index < MAX_CURVE_PLOTS:
            plot = plots.response_curve(curve, plot_folder / f"curve_{index + 1}.png", title)
            blocks.append(Plot(_relative(plot), f"{title}: figures against the value, 95% intervals"))
    if len(curves) > MAX_CURVE_PLOTS:
        blocks.append(Paragraph(f"Plots are drawn for the first {MAX_CURVE_PLOTS} of {len(curves)} curves; the tables "
                                "above and summary.json's `curves` hold every one."))
    return blocks


def _figure_name(row: dict, labels: dict[str, str]) -> str:
    kind, key = row["kind"], row["key"]
    if kind == "seat":
        return f"seat {key[1]} against fair"
    if kind == "capped":
        return "round-capped share"
    if kind == "comparison":
        return f"{COMPARED.get(key[2], (key[2], True))[0]} against {labels.get(key[1], key[1])}"
    return f"{kind if kind == 'strategy' else key[0]} {key[1]} against the average"


def _shown(row: dict, value: float, low: float, high: float) -> str:
    if row["kind"] == "comparison" and not COMPARED.get(row["key"][2], ("", True))[1]:
        return f"{value:+.1f} ({low:+.1f} to {high:+.1f})"
    return f"{points(value)} ({points(low)} to {points(high)})"


def _labels_section(summary: dict, labels: dict[str, str]) -> list[Block]:
    """The robustness phase's table (summary.json `robustness`): each finding, its figure, and
    every re-measurement at a skilled tier and under each shipped component set."""
    robust = summary.get("robustness")
    if not robust:
        return []
    settings, sampling = robust.get("settings", {}), robust.get("sampling", {})
    rows = []
    for row in robust["findings"]:
        first = [labels.get(row["cell"], row["cell"]), _figure_name(row, labels),
                 f"{_shown(row, row['figure'], *row['interval'])}, {row['games']:,} games",
                 ", ".join(row.get("gates", [])) or ("headline" if row.get("headline") else "ranked")]
        again = row["remeasurements"] + row.get("not_played", []) or [None]
        for number, r in enumerate(again):
            lead = first if number == 0 else ["", "", "", ""]
            if r is None or "reason" in r:
                rows.append([*lead, "–" if r is None else r["by"], "–", "–",
                             "not re-measured" if r is None else f"not played: {r['reason']}",
                             f"**{row['label']}**" if number == 0 else ""])
                continue
            rows.append([*lead, r["by"], _shown(row, r["figure"], *r["interval"]),
                         f"{r['games']:,}" + (f" (sign needs {r['games_needed']:,})"
                                              if r.get("games_needed") and r["games_needed"] > r["games"] else ""),
                         r["label"], f"**{row['label']}**" if number == 0 else ""])
    counts = Counter(row["label"] for row in robust["findings"])
    spent = sampling.get("play_seconds")
    main_play = sampling.get("main_play_seconds")
    timing = (f" It played {sampling.get('games') or 0:,} games in {spent:.0f} s"
              + (f", {100 * spent / main_play:.0f}% of the main phase's {main_play:.0f} s" if main_play else "")
              + f" (its workers {sampling.get('worker_seconds', 0):.0f} s of one core, against a budget of "
              f"{sampling.get('budget_share', 0):g} × the main phase's workers' {sampling.get('main_seconds', 0):.0f} s "
              f"= {sampling.get('budget_seconds', 0):.0f} s, of which it planned "
              f"{sampling.get('predicted_seconds', 0):.0f} s).") if spent is not None else \
        " The robustness phase has not finished: `simkit sweep --out DIR --resume` completes it."
    skipped = robust.get("skipped") or []
    return [
        Heading("Robustness"),
        Paragraph(
            "Each headline finding (and each figure `simkit check` gates on) was played again with the same cell "
            f"but the line-up replaced by a skilled tier ({settings.get('skilled') or 'the tuned preset, else the '}"
            f"{'' if settings.get('skilled') else 'default one'}"
            f"{', and lookahead on a subsample' if settings.get('lookahead', True) else ''}) and under every shipped "
            "alternative component set, on the same seeds. **holds**: same side of zero and clear of it, and not "
            "weaker; **weaker**: same side and clear of zero, but the estimate lies below the original interval's "
            "near end; **vanishes**: the interval covers zero; **reverses**: the interval is clear of zero on the "
            "other side. A finding holds only if it holds under every re-measurement; otherwise it takes the worst "
            "label: it is about the bots (a tier) or an invented component (a set) as much as about the game. "
            f"Labels: {', '.join(f'{counts[k]} {k}' for k in LABELS if counts[k])}. "
            f"Sampling: {sampling.get('how', '')}.{timing}"
            + (f" {len(skipped)} re-measurement{'s' * (len(skipped) != 1)} not played (in the table, with why)."
               if skipped else "")),
        Table(["cell", "figure", "original (points, 95% CI)", "why", "measured again", "there (95% CI)",
               "games", "label", "finding"], rows, text_columns=5),
        *_within_noise(summary, labels),
    ]


def _within_noise(summary: dict, labels: dict[str, str]) -> list[Block]:
    """The seat-0 figures the phase left alone because their interval covers zero: there is no
    sign to re-measure, so no label (said, so that a missing label is not read as a gap)."""
    quiet = []
    for cell in summary["cells"]:
        fpa = cell.get("first_player_advantage")
        if not isinstance(fpa, dict) or not cell.get("games"):
            continue
        if fpa["ci_low"] <= 0 <= fpa["ci_high"]:
            quiet.append(f"{labels.get(cell['cell'], cell['cell'])} {points(fpa['value'])} points "
                         f"({points(fpa['ci_low'])} to {points(fpa['ci_high'])})")
    if not quiet:
        return []
    return [Paragraph(f"Not re-measured, because seat 0's interval covers zero (no finding, so no sign to re-measure "
                      f"and no label): {'; '.join(quiet)}.")]


def _robustness_section(top: Headline, labels: dict[str, str]) -> list[Block]:
    if not top.robustness:
        return []
    rows = []
    for row in top.robustness:
        finding = row["finding"]
        if finding.kind == "comparison":
            name, as_points = COMPARED.get(row["metric"], (row["metric"], False))
            what = f"{name} against {labels.get(row['against'], row['against'])}"

            def shown(value: float | None, as_points: bool = as_points) -> str:
                return "–" if value is None else points(value) if as_points else f"{value:+.1f}"
        else:
            what = {"seat": f"seat {finding.key[1]}"}.get(finding.key[0], f"{finding.key[0]} {finding.key[1]}")
            shown = points
        change = row.get("paired")
        rows.append([
            labels[row["base"]["cell"]], what, shown(row["base_value"]), labels[row["other"]["cell"]],
            f"{shown(row['value'])} ({shown(row['low'])} to {shown(row['high'])})",
            f"{points(change['diff'])} ({points(change['ci_low'])} to {points(change['ci_high'])})" if change else "–",
            row["verdict"],
        ])
    return [
        Heading("Findings across assumption sets"),
        Paragraph(
            "Cells that differ only in an assumption (the component set, or a rule parameter whose source is an "
            "assumption id) play the same seeds. Each finding of the base cell is measured again under every other "
            "set: it holds (same direction, clear of noise), falls inside the noise, or flips. For seat 0 the "
            "paired change (other set − base, game by game on the same seeds) is shown too; a variant comparison "
            "is made again between the same rules under the other set (points for rates, rounds for length). "
            "A finding that does "
            "not hold under every set is about our guesses as much as about the game."
        ),
        Table(["base cell", "figure", "base (points)", "under", "there (points, 95% CI)",
               "paired change (same seeds)", "verdict"], rows, text_columns=2),
    ]


def _precision_section(cells: list[dict], labels: dict[str, str]) -> list[Block]:
    rows = [
        [
            labels[cell["cell"]],
            count(cell["games"]),
            percent(cell["seat_advantage"][0]["rate"]),
            f"±{100 * cell['precision']['seat0_half_width']:.2f}",
            count(cell["precision"]["games_for_1pp"]),
            count(cell["precision"]["games_for_half_pp"]),
        ]
        for cell in cells
        if cell["games"]
    ]
    return [
        Heading("Precision achieved"),
        Paragraph(
            "Half width of seat 0's 95% interval over decided games, and the games a cell needs for ±1 and ±0.5 "
            "points at the observed share p: n = ⌈1.96² · p(1 − p) / h²⌉ decided games, divided by the share of "
            "games that are decided (a round-capped game decides nothing). Paired variant comparisons usually need "
            "fewer, as the shared seeds cancel much of the luck two cells have in common."
        ),
        Table(
            ["cell", "games", "seat 0 (decided)", "half width (points)", "games for ±1 point", "games for ±0.5 point"],
            rows
        ),
    ]


PROVENANCE_KEYS = {  # what the report names -> keys a manifest may use for it (runner: the first of each)
    "simkit version": ("simkit_version", "version"),
    "root seed": ("root_seed", "seed"),
    "rules hash": ("rules_hashes", "rules_hash"),
}


def _provenance_section(manifest: dict | None, labels: dict[str, str]) -> list[Block]:
    """What ran, from manifest.json (docs/architecture.md, "Seeds and reproducibility"):
    version, root seed and rules hash first,
    then the manifest's other plain fields; per-cell rules hashes as a table. A folder
    without a manifest says so."""
    if manifest is None:
        return [Heading("Provenance"), Paragraph("No manifest.json in this folder: what ran is not recorded.")]
    items, hashes, shown = [], [], set()
    for name, keys in PROVENANCE_KEYS.items():
        key = next((key for key in keys if key in manifest), None)
        shown.add(key)
        value = manifest.get(key) if key else None
        if isinstance(value, dict):  # one hash per cell
            hashes = [[labels.get(cell, cell), str(digest)] for cell, digest in value.items()]
            value = "per cell, below"
        items.append(f"{name}: {'not recorded' if value is None else value}")
    items += [
        f"{key}: {value}"
        for key, value in manifest.items()
        if key not in shown and isinstance(value, (str, int, float, bool))
    ]
    blocks: list[Block] = [Heading("Provenance"), Bullets(items)]
    if hashes:
        blocks.append(Table(["cell", "rules hash"], hashes, text_columns=2))
    return blocks


def _relative(plot: Path) -> str:
    """A plot's path relative to the report folder (plots live in its `plots/`)."""
    return f"{plot.parent.name}/{plot.name}"


def build(summary: dict, length_counts: pl.DataFrame, manifest: dict | None, plot_folder: Path) -> list[Block]:
    """The whole report, section by section; plots are written to `plot_folder`."""
    cells = summary["cells"]
    labels = cell_labels(cells)
    top = headline(summary, labels)
    groups = _headline_groups(summary, top, labels)
    return [
        *_headline_section(summary, top, groups),
        Contents(),
        *_overview_section(cells),
        *_more_findings_section(summary, top, groups),
        *_labels_section(summary, labels),
        *_robustness_section(top, labels),
        *_seat_section(cells, labels, plot_folder),
        *_length_section(cells, labels, length_counts, plot_folder),
        *arcs.margin_section(cells, labels),
        *arcs.arc_section(cells, labels, plot_folder),
        *arcs.tier_section(summary.get("tiers", []), plot_folder),
        *_end_reason_section(cells, labels, plot_folder),
        *_strategy_section(cells, labels, plot_folder),
        *_category_sections(cells, labels, plot_folder),
        *tournament.sections(cells, labels, plot_folder),
        *_metric_section(cells, labels),
        *_comparison_section(summary.get("comparisons", []), labels, plot_folder),
        *_curve_section(summary.get("curves", []), plot_folder),
        *_precision_section(cells, labels),
        *_provenance_section(manifest, labels),
    ]
