"""What the report says, in the order DESIGN §8 asks for: the answer first, then the
evidence (seat win rates, game length, end reasons, strategies, dealt categories such as
player powers, metrics, variant comparisons), then the precision reached and provenance.

Everything here reads the summary (see `simkit.stats.summarize`) and the small length
distribution; the plots are drawn into the folder given.
"""

from __future__ import annotations

import re
from pathlib import Path

import polars as pl

from simkit.report import plots
from simkit.report.render import Block, Bullets, Heading, Paragraph, Plot, Table

SIGNIFICANCE = 0.05  # a p-value below this is called evidence in the prose
COMPARED = {  # paired comparison metric -> (display name, shown as percentage points)
    "seat0_win": ("seat 0 win rate", True),
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
    overrides and the line-up only where they tell cells apart. A label that would still
    repeat gets the cell id."""
    several_games = len({cell["game"] for cell in cells}) > 1
    several_lineups = len({cell.get("lineup") for cell in cells}) > 1
    labels = {}
    for cell in cells:
        parts = [cell["game"]] if several_games else []
        parts += [f"{cell['players']} players", cell["variant"]]
        parts += [f"{name}={value}" for name, value in cell.get("overrides", {}).items()]
        if several_lineups:
            parts.append(f"line-up {cell.get('lineup')}")
        labels[cell["cell"]] = ", ".join(parts)
    repeated = {label for label in labels.values() if list(labels.values()).count(label) > 1}
    return {cell: f"{label} [{cell}]" if label in repeated else label for cell, label in labels.items()}


# ---------------------------------------------------------------------------------------
# Sections


def answer(cell: dict, label: str) -> str:
    """The one-sentence answer for a cell: seat 0's rate against fair, whether the first
    seat is favoured (only when the interval of the advantage excludes 0), whether seats
    differ at all, and how many games did not finish."""
    if not cell["games"]:
        return f"{label}: no games were played."
    seat0, advantage = cell["seats"][0], cell["first_player_advantage"]
    value = points(advantage["value"])
    span = f"CI {points(advantage['ci_low'])} to {points(advantage['ci_high'])}"
    if advantage["ci_low"] > 0:
        verdict = f"favoured by {value} points ({span})"
    elif advantage["ci_high"] < 0:
        verdict = f"disadvantaged by {value} points ({span})"
    else:
        verdict = f"no evidence of a first-seat advantage at this precision ({value} points, {span})"
    uniformity = cell["seat_uniformity_p"]
    seats = "seats differ" if uniformity < SIGNIFICANCE else "no evidence that seats differ"
    sentence = (
        f"**{label}**: seat 0 wins {percent(seat0['win_rate'])} (95% CI {interval(seat0['ci_low'], seat0['ci_high'])}) "
        f"against a fair {percent(cell['fair_rate'])} — {verdict}; {seats} (chi-square {p_text(uniformity)})."
    )
    if cell["incomplete_share"] > 0:
        sentence += f" {percent(cell['incomplete_share'])} of games hit the round cap and count as nobody's win."
    return sentence


def _answer_section(cells: list[dict], labels: dict[str, str]) -> list[Block]:
    games = sum(cell["games"] for cell in cells)
    return [
        Heading("Answer"),
        Bullets([answer(cell, labels[cell["cell"]]) for cell in cells]),
        Paragraph(
            f"{count(games)} simulated games in {len(cells)} cell(s). Intervals are 95% (Wilson); a shared win "
            "counts 1/k for each of the k sharers; an unfinished game counts as nobody's win."
        ),
    ]


def _seat_section(cells: list[dict], labels: dict[str, str], plot_folder: Path) -> list[Block]:
    widest = max(cell["players"] for cell in cells)
    rows = []
    for cell in cells:
        seats = [f"{percent(s['win_rate'])} ({interval(s['ci_low'], s['ci_high'])})" for s in cell["seats"]]
        advantage, gap = cell["first_player_advantage"], cell["largest_seat_gap"]
        rows.append(
            [labels[cell["cell"]], count(cell["games"]), percent(cell["fair_rate"])]
            + seats
            + [""] * (widest - len(seats))
            + [
                f"{points(advantage['value'])} ({points(advantage['ci_low'])} to {points(advantage['ci_high'])})",
                f"{points(gap['value'])} (seat {gap['high_seat']} vs {gap['low_seat']})",
                p_text(cell["seat_uniformity_p"]),
            ]
        )
    header = ["cell", "games", "fair"] + [f"seat {seat}" for seat in range(widest)]
    header += ["first-player advantage (points)", "largest gap (points)", "seats equal? (chi-square)"]
    plot = plots.rate_intervals(
        [
            plots.CellRates(
                labels[cell["cell"]],
                cell["fair_rate"],
                [plots.Interval(f"seat {s['seat']}", s["win_rate"], s["ci_low"], s["ci_high"]) for s in cell["seats"]],
            )
            for cell in cells
        ],
        plot_folder / "seat_win_rates.png",
        "Win rate by seat",
    )
    return [
        Heading("Seat win rates"),
        Paragraph("Each seat's share of games won, with its 95% interval; fair is 1/players."),
        Table(header, rows),
        Plot(_relative(plot), "Win rate by seat with 95% intervals; dashed: fair rate 1/players"),
    ]


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
        plot = plots.game_lengths(length_counts, labels, "rounds", plot_folder / "game_length.png")
        blocks.append(Plot(_relative(plot), "Share of games by number of rounds"))
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
    return [
        [
            label,
            str(rate[key]),
            count(rate["seats"]),
            percent(rate["win_rate"]),
            interval(rate["ci_low"], rate["ci_high"]),
            points(rate["win_rate"] - cell["fair_rate"]),
        ]
        for rate in rates
    ]


def _rates_plot(
    rates_by_cell: list[tuple[dict, list[dict]]], labels: dict[str, str], key: str, path: Path, title: str
) -> Path:
    """Plot per-seat-played rates (strategies or a category's values): (cell, its rate rows) pairs."""
    return plots.rate_intervals(
        [
            plots.CellRates(
                labels[cell["cell"]],
                cell["fair_rate"],
                [plots.Interval(str(r[key]), r["win_rate"], r["ci_low"], r["ci_high"]) for r in rates],
            )
            for cell, rates in rates_by_cell
        ],
        path,
        title,
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
            "Win rate per seat played by each strategy (line-ups rotate through the seats); a strategy as strong as "
            "the others wins 1/players of its seats."
        ),
        Table(["cell", "strategy", "seats", "win rate", "95% CI", "vs fair (points)"], rows, text_columns=2),
        Plot(_relative(plot), "Win rate by strategy with 95% intervals; dashed: fair rate"),
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
            Paragraph(f"Win rate of the seats holding each {column}; a balanced {column} wins 1/players of its seats."),
            Table(["cell", column, "seats", "win rate", "95% CI", "vs fair (points)"], rows, text_columns=2),
            Plot(_relative(plot), f"Win rate by {column} with 95% intervals; dashed: fair rate"),
        ]
    return blocks


def _metric_section(cells: list[dict], labels: dict[str, str]) -> list[Block]:
    rows = []
    for cell in cells:
        label = labels[cell["cell"]]
        for metric, values in cell.get("game_metrics", {}).items():
            rows.append([label, metric, "game", number(values["mean"]), ""])
        for metric, shares in cell.get("game_categories", {}).items():
            text = ", ".join(f"{row['value']} {percent(row['share'])}" for row in shares)
            rows.append([label, metric, "game", text, ""])
        for metric, values in cell.get("seat_metrics", {}).items():
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
                f"{scale * row['diff']:+.2f}",
                f"{scale * row['ci_low']:+.2f} to {scale * row['ci_high']:+.2f}",
                p_text(row["p"]),
                p_text(row["p_holm"]),
                "yes" if row["p_holm"] < SIGNIFICANCE else "no evidence",
                count(row["paired_games"]),
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
            f"Holm-adjusted across all {len(comparisons)} comparisons; changed = Holm p < {SIGNIFICANCE}."
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
                "p",
                "Holm p",
                "changed?",
                "paired games",
            ],
            rows,
            text_columns=3,
        ),
        Plot(_relative(plot), "Paired differences with 95% intervals; an interval clear of 0 is a change"),
    ]


def _precision_section(cells: list[dict], labels: dict[str, str]) -> list[Block]:
    rows = [
        [
            labels[cell["cell"]],
            count(cell["games"]),
            percent(cell["seats"][0]["win_rate"]),
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
            "Half width of seat 0's 95% interval, and the games a cell needs for ±1 and ±0.5 points at the observed "
            "rate p: n = ⌈1.96² · p(1 − p) / h²⌉. Paired variant comparisons usually need fewer, as the shared seeds "
            "cancel much of the luck two cells have in common."
        ),
        Table(
            ["cell", "games", "seat 0 rate", "half width (points)", "games for ±1 point", "games for ±0.5 point"], rows
        ),
    ]


PROVENANCE_KEYS = {  # what the report names -> keys a manifest may use for it (runner: the first of each)
    "simkit version": ("simkit_version", "version"),
    "root seed": ("root_seed", "seed"),
    "rules hash": ("rules_hashes", "rules_hash"),
}


def _provenance_section(manifest: dict | None, labels: dict[str, str]) -> list[Block]:
    """What ran, from manifest.json (DESIGN §4): version, root seed and rules hash first,
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
    return [
        *_answer_section(cells, labels),
        *_seat_section(cells, labels, plot_folder),
        *_length_section(cells, labels, length_counts, plot_folder),
        *_end_reason_section(cells, labels, plot_folder),
        *_strategy_section(cells, labels, plot_folder),
        *_category_sections(cells, labels, plot_folder),
        *_metric_section(cells, labels),
        *_comparison_section(summary.get("comparisons", []), labels, plot_folder),
        *_precision_section(cells, labels),
        *_provenance_section(manifest, labels),
    ]
