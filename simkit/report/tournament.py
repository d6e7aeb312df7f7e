"""The report's tournament sections (`simkit sweep --tournament`): for every
cell whose seats held two or more strategies, the head-to-head
matrix with intervals, the Bradley–Terry ranking, the dominant-strategy flag (also in the
headline) and the first-player advantage per table; and the same matrix for each dealt
seat category (a power, a quirk, a colour). Reads only summary.json (see
`simkit.analysis.tournament`); plots are drawn with matplotlib's Agg renderer like `plots.py`.
"""

from __future__ import annotations

import re
from pathlib import Path

from matplotlib.figure import Figure

from simkit.core.files import save_figure
from simkit.report.plots import DPI, wrap
from simkit.report.render import Block, Heading, Paragraph, Plot, Table

PLOTTED_CELLS = 12  # matrices drawn per section
SHOWN_CELLS = 24  # cells shown per section; summary.json holds every cell


def _pct(rate: float) -> str:
    return f"{100 * rate:.1f}%"


def _half(entry: dict) -> str:
    return f"±{100 * (entry['ci_high'] - entry['ci_low']) / 2:.1f}"


def _weakest(h2h: dict, label: str) -> dict:
    """The dominant label's closest match: its row entry with the lowest lower bound."""
    return min((m for m in h2h["matrix"] if m["row"] == label), key=lambda m: m["ci_low"])


def headline_items(cells: list[dict], labels: dict[str, str], robustness: dict | None = None
                   ) -> list[tuple[str, str]]:
    """(game, sentence) per dominant strategy or dealt value: the first thing a designer must know.
    `robustness`: summary.json's, whose label of the same strategy's or value's win-rate finding
    the sentence then carries (simkit.sweeps.robustness measures it again for the headline)."""
    from simkit.analysis.findings import dominant, label_text
    from simkit.analysis.robustness import finding_id

    rows = {row["id"]: row for row in (robustness or {}).get("findings", [])}
    items = []
    for cell, kind, key, matrix in dominant(cells):
        where = labels.get(cell["cell"], cell["cell"])
        worst = _weakest(matrix, key[1])
        what = "strategy" if kind == "strategy" else key[0]
        sentence = (f"**Dominant {what}, {where}: {key[1]}** finishes ahead of every other {what} head to head "
                    f"(closest: {_pct(worst['rate'])} against {worst['column']}, 95% CI {_pct(worst['ci_low'])}–"
                    f"{_pct(worst['ci_high'])}).")
        if robustness is not None:
            row = rows.get(finding_id(cell["cell"], kind, key))
            sentence += " " + (label_text(row) if row is not None else
                               f"*Robustness: not re-measured ({key[1]}'s win rate against the average is within "
                               f"its noise, so there is no sign to re-measure).*")
        items.append((cell["game"], sentence))
    return items


def _shade(entry: dict | None) -> str | None:
    """Green where the row clearly beats the column, red where it clearly loses, pale inside the interval."""
    if entry is None:
        return "#eeeeee"
    if entry["ci_low"] > 0.5:
        return "#b7e1b0" if entry["rate"] < 0.6 else "#7cc576"
    if entry["ci_high"] < 0.5:
        return "#f4c2b8" if entry["rate"] > 0.4 else "#e8897a"
    return None


def _matrix_table(h2h: dict) -> Table:
    names = h2h["labels"]
    by_pair = {(m["row"], m["column"]): m for m in h2h["matrix"]}
    rows, shades = [], []
    for a in names:
        entries = [by_pair.get((a, b)) for b in names]
        rows.append([a] + ["–" if a == b else "no meetings" if e is None else f"{_pct(e['rate'])} {_half(e)}"
                           for b, e in zip(names, entries)])
        shades.append([None] + [None if a == b else _shade(e) for b, e in zip(names, entries)])
    return Table(["row ahead of column"] + names, rows, text_columns=1, shades=shades)


def _matrix_plot(cell_label: str, h2h: dict, path: Path, what: str) -> Path:
    """Heat map of P(row ahead of column) with each entry's 95% half width; beside it the
    Bradley–Terry strengths with their intervals when the summary has them."""
    import numpy as np

    names = h2h["labels"]
    k = len(names)
    ranking = h2h.get("ranking")
    figure = Figure(figsize=(2.2 + 0.9 * k + (3.2 if ranking else 0), 1.2 + 0.6 * k))
    grid = figure.add_gridspec(1, 2 if ranking else 1, width_ratios=[k, 3] if ranking else [1], wspace=0.45)
    axis = figure.add_subplot(grid[0, 0])
    values = np.full((k, k), np.nan)
    by_pair = {(m["row"], m["column"]): m for m in h2h["matrix"]}
    for i, a in enumerate(names):
        for j, b in enumerate(names):
            if (a, b) in by_pair:
                values[i, j] = by_pair[(a, b)]["rate"]
    image = axis.imshow(values, cmap="RdYlGn", vmin=0.0, vmax=1.0)
    for i, a in enumerate(names):
        for j, b in enumerate(names):
            entry = by_pair.get((a, b))
            if entry is not None:
                axis.text(j, i, f"{100 * entry['rate']:.1f}\n{_half(entry)}", ha="center", va="center", fontsize=7)
    axis.set_xticks(range(k), [wrap(n, 12) for n in names], fontsize=8, rotation=30, ha="right")
    axis.set_yticks(range(k), [wrap(n, 16) for n in names], fontsize=8)
    axis.set_xlabel(f"column {what}", fontsize=8)
    axis.set_ylabel(f"row {what}", fontsize=8)
    axis.set_title(f"P(row ahead of column), % ± 95% half width\n{wrap(cell_label, 60)}", fontsize=9)
    figure.colorbar(image, ax=axis, fraction=0.046, pad=0.04).ax.tick_params(labelsize=7)
    if ranking:
        bars = figure.add_subplot(grid[0, 1])
        order = list(reversed(ranking))
        y = range(len(order))
        strengths = [r["strength"] for r in order]
        bars.errorbar(strengths, y, xerr=[[r["strength"] - r["ci_low"] for r in order],
                                          [r["ci_high"] - r["strength"] for r in order]],
                      fmt="o", color="#2c3e50", capsize=3)
        bars.axvline(0.0, color="#999999", linewidth=0.8)
        bars.set_yticks(list(y), [r["strategy"] for r in order], fontsize=8)
        bars.set_xlabel("Bradley–Terry strength (log-odds, mean 0)", fontsize=8)
        bars.set_title("Ranking, 95% intervals", fontsize=9)
        bars.tick_params(labelsize=7)
    return save_figure(figure, path, dpi=DPI, bbox_inches="tight")  # a temporary file, then a rename


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_-]+", "_", text)


def sections(cells: list[dict], labels: dict[str, str], plot_folder: Path) -> list[Block]:
    """The Tournament section and one Head-to-head section per dealt seat category."""
    blocks: list[Block] = []
    played = [c for c in cells if c.get("head_to_head")]
    if played:
        blocks += [Heading("Tournament"), Paragraph(
            "Each cell's line-up was seated by a balanced design (every strategy in every seat and every pair "
            "meeting equally often). An entry is the share of decided games in which the row strategy finished "
            "ahead of the column strategy by rank (a tie counts 1/2), ± its 95% Wilson half width; green: the "
            "row clearly ahead, red: clearly behind. A strategy is **dominant** when its lower bound is above 50% "
            "against every other. The ranking is a Bradley–Terry fit to the same pairs (strength in log-odds, "
            "mean 0); in games of three or more the pairs of one game are not independent, so its intervals are "
            "somewhat narrow.")]
        for number, cell in enumerate(played[:SHOWN_CELLS]):
            label = labels.get(cell["cell"], cell["cell"])
            h2h = cell["head_to_head"]
            blocks.append(Heading(label, level=3))
            dominant = h2h.get("dominant")
            blocks.append(Paragraph(f"Dominant strategy: **{dominant}**." if dominant else
                                    "No strategy is dominant: none is clearly ahead of every other."))
            blocks.append(_matrix_table(h2h))
            if h2h.get("ranking"):
                blocks.append(Table(["rank", "strategy", "strength", "95% CI"],
                                    [[str(r["rank"]), r["strategy"], f"{r['strength']:+.3f}",
                                      f"{r['ci_low']:+.3f} to {r['ci_high']:+.3f}"] for r in h2h["ranking"]],
                                    text_columns=2))
            if number < PLOTTED_CELLS:
                plot = _matrix_plot(label, h2h, plot_folder / f"tournament_{_slug(cell['cell'])}.png", "strategy")
                blocks.append(Plot(f"{plot.parent.name}/{plot.name}",
                                   f"{label}: head-to-head matrix and Bradley–Terry ranking"))
            first = cell.get("first_player_by_table") or {}
            if first.get("by_table"):
                spread = first.get("range")
                blocks.append(Paragraph(
                    "First-player advantage per table (the strategies at the table): seat 0's share of decided "
                    "games minus 1/players." + (
                        f" Its range across tables is {100 * spread['value']:.1f} points, from "
                        f"{spread['low_table']} to {spread['high_table']}." if spread else "")))
                blocks.append(Table(["table", "decided", "seat 0 share", "vs fair (points)", "95% CI (points)"],
                                    [[t["table"], f"{t['decided']:,}", "no decided game", "–", "–"]
                                     if t["value"] is None else
                                     [t["table"], f"{t['decided']:,}", _pct(t["rate"]), f"{100 * t['value']:+.1f}",
                                      f"{100 * t['ci_low']:+.1f} to {100 * t['ci_high']:+.1f}"]
                                     for t in first["by_table"]], text_columns=1))
        if len(played) > SHOWN_CELLS:
            blocks.append(Paragraph(f"The first {SHOWN_CELLS} of {len(played)} cells are shown; summary.json "
                                    "holds every cell's matrix."))
        for cell in played[:SHOWN_CELLS]:
            seating = cell.get("seating") or {}
            if seating.get("partial_games"):
                blocks.append(Paragraph(f"{labels.get(cell['cell'], cell['cell'])}: the last "
                                        f"{seating['partial_games']} games are a partial period of the "
                                        f"design's {seating['period']} seatings: the balance is off by at most "
                                        f"1/{cell['games']:,}."))
    columns = list(dict.fromkeys(col for c in cells for col in (c.get("matchups") or {})))
    for column in columns:
        with_matrix = [c for c in cells if (c.get("matchups") or {}).get(column)]
        blocks += [Heading(f"Head to head by {column}"), Paragraph(
            f"Share of decided games in which the seat holding the row {column} finished ahead of the seat holding "
            f"the column {column} (a tie counts 1/2), ± 95% half width; a {column} is dominant when its lower "
            "bound is above 50% against every other.")]
        for number, cell in enumerate(with_matrix[:SHOWN_CELLS]):
            label = labels.get(cell["cell"], cell["cell"])
            matchup = cell["matchups"][column]
            blocks.append(Heading(f"{label}: {column}", level=3))
            if matchup.get("dominant"):
                blocks.append(Paragraph(f"Dominant {column}: **{matchup['dominant']}**."))
            blocks.append(_matrix_table(matchup))
            if number < PLOTTED_CELLS:
                plot = _matrix_plot(label, matchup, plot_folder / f"{_slug(column)}_matrix_{_slug(cell['cell'])}.png",
                                    column)
                blocks.append(Plot(f"{plot.parent.name}/{plot.name}", f"{label}: {column} against {column}"))
        if len(with_matrix) > SHOWN_CELLS:
            blocks.append(Paragraph(f"The first {SHOWN_CELLS} of {len(with_matrix)} cells are shown; summary.json "
                                    "holds every cell's matrix."))
    return blocks
