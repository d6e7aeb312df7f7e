"""The report's plots, drawn with matplotlib's Agg renderer straight onto `Figure` objects
(no pyplot, so no display and no global figure state) and saved as PNG.

Every plot stays readable with about twenty cells: cells are rows (labels wrapped on the
left), figures grow with the number of rows, and the series drawn for each cell (seats,
strategies, power values) are small offsets within the cell's row.
"""

from __future__ import annotations

import math
import textwrap
from dataclasses import dataclass
from pathlib import Path

import polars as pl
from matplotlib import colormaps
from matplotlib.figure import Figure
from matplotlib.ticker import FuncFormatter, PercentFormatter

from simkit.analysis.seats import seat_figure
from simkit.core.files import save_figure

DPI = 110
ROUND_CAP_COLOUR = "#c0392b"  # incomplete games stand out in the end-reason bars
LABEL_WIDTH = 28  # characters per line of a cell label
LABEL_LIMIT = 110  # longer labels are shortened with "…"


def wrap(label: str, width: int = LABEL_WIDTH) -> str:
    """A cell label fit for an axis: shortened past LABEL_LIMIT, then wrapped."""
    short = textwrap.shorten(label, LABEL_LIMIT, placeholder=" …")
    return textwrap.fill(short, width, break_long_words=False, break_on_hyphens=False)


def _row_height(labels: list[str], minimum: float) -> float:
    """Inches per plot row: enough for the tallest wrapped label (8-point text)."""
    lines = max((label.count("\n") + 1 for label in labels), default=1)
    return max(minimum, 0.15 * lines + 0.1)


@dataclass(frozen=True)
class Interval:
    """A rate with its 95% interval, drawn as a point with whiskers."""

    series: str  # what the point is within its cell: "seat 0", "raider", "thief"
    rate: float
    low: float
    high: float


@dataclass(frozen=True)
class CellRates:
    """One cell's row of an interval plot, with the rate a fair seat would get."""

    label: str
    fair: float
    rates: list[Interval]


def _percent_axis(axis) -> None:
    """Percent tick labels with as few decimals as the axis span allows."""
    low, high = axis.get_view_interval()
    span = abs(high - low)
    axis.set_major_formatter(PercentFormatter(1.0, decimals=0 if span > 0.2 else 1 if span > 0.02 else 2))


MAX_ROWS = 40  # cells per plot: a 10,000-cell grid draws its first rows, and its tables list every cell


def _capped(rows: list, figure_note: list) -> list:
    """The first MAX_ROWS rows; a note for the figure when rows were left out."""
    if len(rows) > MAX_ROWS:
        figure_note.append(f"first {MAX_ROWS} of {len(rows)} cells shown; the tables list every cell")
    return rows[:MAX_ROWS]


def _note(figure: Figure, note: list) -> None:
    if note:  # a figure-level label, so the constrained layout makes room for it below the axes
        figure.supxlabel(note[0], fontsize=8, style="italic", x=0.01, ha="left")


def _save(figure: Figure, path: Path) -> Path:
    # every figure is laid out by the constrained layout engine, which fits labels, legends and
    # notes inside it: no bbox_inches="tight", whose extra layout pass doubled the drawing time
    return save_figure(figure, path, dpi=DPI)  # a temporary file, then a rename


def rate_intervals(rows: list[CellRates], path: Path, title: str, xlabel: str = "win rate",
                   as_points: bool = False) -> Path:
    """Rates with 95% intervals, one row per cell, one colour per series, and the fair
    rate of each cell as a dashed tick across its row (seats, strategies, powers).
    `as_points`: the values are differences from fair (fair = 0), labelled in points."""
    note: list = []
    rows = _capped(rows, note)
    series = list(dict.fromkeys(interval.series for row in rows for interval in row.rates))
    colour = {name: f"C{i}" if len(series) <= 10 else colormaps["tab20"](i % 20) for i, name in enumerate(series)}
    band = 0.8  # share of a row's height the series spread over
    step = band / max(len(series), 1)
    names = [wrap(row.label) for row in rows]
    row_height = _row_height(names, 0.32 * max(1.0, len(series) / 3))
    figure = Figure(layout="constrained", figsize=(9.0, 1.2 + row_height * len(rows)))
    axes = figure.subplots()
    # one artist per series (not per point): a figure of 40 cells x 10 seats draws in a fraction of the time
    fair_x: list[float] = []
    fair_y: list[float] = []
    points: dict[str, tuple[list, list, list, list]] = {name: ([], [], [], []) for name in series}
    for position, row in enumerate(rows):
        y = len(rows) - 1 - position  # first cell on top
        fair_x += [row.fair, row.fair, math.nan]
        fair_y += [y - band / 2, y + band / 2, math.nan]
        for interval in row.rates:
            offset = (series.index(interval.series) + 0.5) * step - band / 2
            xs, ys, below, above = points[interval.series]
            xs.append(interval.rate)
            ys.append(y - offset)
            # max(0, …): at a rate of 0 or 1 rounding may put the bound a hair past the rate
            below.append(max(0.0, interval.rate - interval.low))
            above.append(max(0.0, interval.high - interval.rate))
    axes.plot(fair_x, fair_y, "--", color="0.35", linewidth=1.2)
    for name, (xs, ys, below, above) in points.items():
        if xs:
            axes.errorbar(xs, ys, xerr=[below, above], fmt="o", markersize=4, capsize=2, color=colour[name])
    axes.set_yticks(range(len(rows)), names[::-1], fontsize=8)
    axes.set_ylim(-0.6, len(rows) - 0.4)
    if as_points:
        axes.xaxis.set_major_formatter(FuncFormatter(lambda value, _: f"{100 * value:+.0f}" if value else "0"))
        axes.set_xlabel(f"{xlabel} (95% interval); dashed: fair")
    else:
        _percent_axis(axes.xaxis)
        axes.set_xlabel(f"{xlabel} (95% interval); dashed: fair rate")
    axes.set_title(title)
    axes.grid(axis="x", alpha=0.3)
    handles = [axes.plot([], [], "o", color=colour[name])[0] for name in series]
    axes.legend(handles, series, loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8, frameon=False)
    _note(figure, note)
    return _save(figure, path)


def _tail_cut(lengths: list[int], games: list[int], share: float = 0.99) -> int:
    """The length below which `share` of the games lie (the axis end for a histogram)."""
    total, seen = sum(games), 0
    for length, n in zip(lengths, games):
        seen += n
        if seen >= share * total:
            return length
    return lengths[-1] if lengths else 1


def game_lengths(counts: pl.DataFrame, labels: dict[str, str], column: str, path: Path,
                 games: dict[str, str] | None = None) -> Path:
    """Share of games by length, one small panel per cell, one row of panels per game.

    Each game gets its own axis (a 150-round cap in one game must not squeeze another's
    10-round games), shared by that game's cells so they compare. The axis ends at the
    length 99% of the game's games reach; longer games, round-capped ones among them,
    are gathered in one red bar past the end, labelled with their share.
    `counts` is `simkit.analysis.tables.length_counts`: games per (cell, length); `games` maps a
    cell to its game (default: one game).
    """
    counted = set(counts["cell"].to_list())
    cells = [cell for cell in labels if cell in counted]
    by_game: dict[str, list[str]] = {}
    for cell in cells:
        by_game.setdefault((games or {}).get(cell, ""), []).append(cell)
    panels = max(1, MAX_ROWS // (2 * len(by_game)))  # each game its panels, some 20 in all
    note = [f"first {panels} cells of each game shown; the table lists every cell"] if any(
        len(group) > panels for group in by_game.values()) else []
    by_game = {game: group[:panels] for game, group in by_game.items()}
    by_game = dict(list(by_game.items())[:MAX_ROWS // 2])
    columns = min(4, max(1, max((len(group) for group in by_game.values()), default=1)))
    panel_rows = {game: max(1, math.ceil(len(group) / columns)) for game, group in by_game.items()}
    height = sum(0.5 + 2.0 * rows for rows in panel_rows.values())
    figure = Figure(layout="constrained", figsize=(3.3 * columns, max(2.6, height)))
    subfigures = figure.subfigures(len(by_game), 1, squeeze=False, height_ratios=list(panel_rows.values()))
    for (game, group), subfigure in zip(by_game.items(), subfigures[:, 0]):
        frame = counts.filter(pl.col("cell").is_in(group)).group_by(column).agg(pl.col("games").sum()).sort(column)
        cut = _tail_cut(frame[column].to_list(), frame["games"].to_list())
        grid = subfigure.subplots(panel_rows[game], columns, sharex=True, sharey=True, squeeze=False)
        for index, cell in enumerate(group):
            axes = grid[index // columns][index % columns]
            lengths = counts.filter(pl.col("cell") == cell)
            total = lengths["games"].sum()
            inside = lengths.filter(pl.col(column) <= cut)
            beyond = lengths.filter(pl.col(column) > cut)["games"].sum()
            axes.bar(inside[column].to_list(), [n / total for n in inside["games"].to_list()], width=1.0)
            if beyond:
                axes.bar([cut + 2], [beyond / total], width=1.4, color=ROUND_CAP_COLOUR)
                axes.annotate(f">{cut}: {100 * beyond / total:.1f}%", (cut + 2, beyond / total), fontsize=7,
                              ha="right", va="bottom", color=ROUND_CAP_COLOUR)
            axes.set_title(wrap(labels[cell], 36), fontsize=8)
            axes.yaxis.set_major_formatter(PercentFormatter(1.0))
            axes.set_xlim(0, cut + 3.5)
        for index in range(len(group), panel_rows[game] * columns):
            grid[index // columns][index % columns].set_visible(False)
        if game:
            subfigure.suptitle(game, fontsize=9, x=0.01, ha="left")
    figure.supxlabel(f"{column} (red: longer games, round-capped ones among them)" + (f"; {note[0]}" if note else ""))
    figure.supylabel("share of games")
    return _save(figure, path)


def end_reasons(rows: list[tuple[str, dict[str, float]]], path: Path) -> Path:
    """Share of games per end reason, one stacked bar per cell; round-capped (incomplete)
    games in red. `rows`: (cell label, {end_reason: share})."""
    note: list = []
    rows = _capped(rows, note)
    reasons = list(dict.fromkeys(reason for _, shares in rows for reason in shares))
    reasons.sort(key=lambda reason: reason == "round_cap")  # the finding goes last, at the bar's end
    names = [wrap(label) for label, _ in rows]
    figure = Figure(layout="constrained", figsize=(9.0, 1.2 + _row_height(names, 0.4) * len(rows)))
    axes = figure.subplots()
    y = list(range(len(rows)))[::-1]
    left = [0.0] * len(rows)
    palette = iter(f"C{i}" for i in (0, 1, 2, 4, 5, 6, 7, 8, 9) * 3)
    for reason in reasons:
        shares = [shares.get(reason, 0.0) for _, shares in rows]
        colour = ROUND_CAP_COLOUR if reason == "round_cap" else next(palette)
        axes.barh(y, shares, left=left, color=colour, label=reason, height=0.7)
        left = [a + b for a, b in zip(left, shares)]
    axes.set_yticks(y, names, fontsize=8)
    axes.set_ylim(-0.6, len(rows) - 0.4)
    axes.set_xlim(0, 1)
    axes.xaxis.set_major_formatter(PercentFormatter(1.0))
    axes.set_xlabel("share of games")
    axes.set_title("How games end")
    axes.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8, frameon=False)
    _note(figure, note)
    return _save(figure, path)


def differences(rows: list[dict], metric_names: dict[str, str], path: Path, title: str) -> Path:
    """Paired differences (cell − baseline) with 95% intervals, one panel per metric and a
    zero line: an interval clear of zero is a change the variant made. `rows` carry
    `label`, `metric`, `diff`, `ci_low`, `ci_high` in the metric's display unit."""
    metrics = [metric for metric in metric_names if any(row["metric"] == metric for row in rows)]
    note: list = []
    labels = _capped(list(dict.fromkeys(row["label"] for row in rows)), note)
    rows = [row for row in rows if row["label"] in set(labels)]
    names = [wrap(label, 36) for label in labels]
    figure = Figure(
        layout="constrained", figsize=(3.6 * len(metrics) + 2.5, 1.2 + _row_height(names, 0.42) * len(labels))
    )
    panels = figure.subplots(1, len(metrics), sharey=True, squeeze=False)[0]
    for axes, metric in zip(panels, metrics):
        shown = [row for row in rows if row["metric"] == metric]
        position = {label: len(labels) - 1 - index for index, label in enumerate(labels)}
        if shown:  # one artist per panel, not one per point
            axes.errorbar(
                [row["diff"] for row in shown],
                [position[row["label"]] for row in shown],
                xerr=[[max(0.0, row["diff"] - row["ci_low"]) for row in shown],
                      [max(0.0, row["ci_high"] - row["diff"]) for row in shown]],
                fmt="o",
                markersize=4,
                capsize=3,
                color="C0",
            )
        axes.axvline(0.0, color="0.35", linestyle="--", linewidth=1)
        axes.set_title(metric_names[metric], fontsize=9)
        axes.grid(axis="x", alpha=0.3)
    panels[0].set_yticks(range(len(labels)), names[::-1], fontsize=8)
    panels[0].set_ylim(-0.6, len(labels) - 0.4)
    figure.suptitle(title)
    _note(figure, note)
    return _save(figure, path)


def response_curve(curve: dict, path: Path, title: str) -> Path:
    """One parameter's response curve (simkit.analysis.curves): seat 0's advantage and the largest
    seat gap in points, mean rounds, and the end-reason shares against the parameter's
    value, each point with its 95% interval as error bars (a band joins them on a numeric
    axis). A list parameter or a choice is a categorical axis labelled by its values."""
    points = curve["points"]
    xs = [p["value"] for p in points] if curve.get("numeric") else list(range(len(points)))
    figure = Figure(layout="constrained", figsize=(10.0, 6.4))
    panels = figure.subplots(2, 2, sharex=True)

    def series(axes, values, lows, highs, colour="C0", name=None, scale=1.0):
        shown = [(x, v, lo, hi) for x, v, lo, hi in zip(xs, values, lows, highs) if v is not None]
        if not shown:
            return
        x, v, lo, hi = (list(column) for column in zip(*shown))
        lo = [scale * a if a is not None else scale * b for a, b in zip(lo, v)]
        hi = [scale * a if a is not None else scale * b for a, b in zip(hi, v)]
        v = [scale * b for b in v]
        if curve.get("numeric") and len(x) > 1:
            axes.fill_between(x, lo, hi, color=colour, alpha=0.15, linewidth=0)
        axes.errorbar(x, v, yerr=[[max(0.0, b - a) for a, b in zip(lo, v)], [max(0.0, a - b) for a, b in zip(hi, v)]],
                      fmt="o-", markersize=4, capsize=3, color=colour, label=name)

    advantage, gap, rounds = ([p[key] for p in points] for key in ("seat_advantage", "largest_seat_gap", "rounds"))
    series(panels[0][0], [a["value"] for a in advantage], [a["ci_low"] for a in advantage],
           [a["ci_high"] for a in advantage], scale=100.0)
    panels[0][0].axhline(0.0, color="0.35", linestyle="--", linewidth=1)
    panels[0][0].set_title("seat 0 against fair (points, share of decided games)", fontsize=9)
    series(panels[0][1], [a["value"] for a in gap], [a["ci_low"] for a in gap], [a["ci_high"] for a in gap],
           colour="C1", scale=100.0)
    panels[0][1].axhline(0.0, color="0.35", linestyle="--", linewidth=1)
    panels[0][1].set_title("largest seat gap (points, decided games)", fontsize=9)
    series(panels[1][0], [a["mean"] for a in rounds], [a["ci_low"] for a in rounds], [a["ci_high"] for a in rounds],
           colour="C2")
    panels[1][0].set_title("mean rounds per game", fontsize=9)
    reasons = list(dict.fromkeys(row["end_reason"] for p in points for row in p["end_reasons"]))
    reasons.sort(key=lambda reason: reason == "round_cap")
    palette = iter(f"C{i}" for i in (0, 1, 2, 4, 5, 6, 7, 8, 9) * 3)
    for reason in reasons:
        rows = [next((r for r in p["end_reasons"] if r["end_reason"] == reason),
                     {"share": 0.0, "ci_low": 0.0, "ci_high": 0.0}) for p in points]
        series(panels[1][1], [r["share"] for r in rows], [r["ci_low"] for r in rows], [r["ci_high"] for r in rows],
               colour=ROUND_CAP_COLOUR if reason == "round_cap" else next(palette), name=reason)
    panels[1][1].set_ylim(-0.02, 1.02)  # shares of all games, on one scale
    panels[1][1].yaxis.set_major_formatter(PercentFormatter(1.0))
    panels[1][1].set_title("how games end (share of games)", fontsize=9)
    if reasons:
        panels[1][1].legend(fontsize=7, frameon=False)
    for axes in panels[1]:
        if not curve.get("numeric"):
            axes.set_xticks(xs, [wrap(p["label"], 12) for p in points], fontsize=8)
        axes.set_xlabel(curve["param"])
    for row in panels:
        for axes in row:
            axes.grid(alpha=0.3)
    figure.suptitle(title, fontsize=10)
    return _save(figure, path)


# ---------------------------------------------------------------------------------------
# The first screen: every seat of every plain self-play cell against fair, styled by its
# robustness label

FIRST_SCREEN_CELLS = 24  # cells (rows) the first-screen plot shows; the rest are counted in its caption
FIRST_SCREEN_HEIGHT = 4.8  # inches at most: with the report's title above it, the headline still shows on a laptop
NOT_A_FINDING = "not a finding"  # a seat without a robustness row: inside its noise, or not picked
# marker styles per robustness label, best to worst, then the unjudged (Okabe-Ito colours, which
# colour-blind readers tell apart; shape and fill tell them apart in grey too)
SEAT_STYLES: dict[str, dict] = {
    "holds": {"marker": "o", "color": "#0b4f8a", "fill": True, "size": 6.5},
    "weaker": {"marker": "o", "color": "#56b4e9", "fill": True, "size": 6.5},
    "vanishes": {"marker": "o", "color": "#0b4f8a", "fill": False, "size": 6.5},
    "reverses": {"marker": "X", "color": "#d55e00", "fill": True, "size": 7.5},
    "undetermined": {"marker": "s", "color": "#555555", "fill": False, "size": 6.0},
    "not re-measured": {"marker": "D", "color": "#e69f00", "fill": False, "size": 5.5},
    "no effect": {"marker": "o", "color": "#777777", "fill": True, "size": 3.0},
    NOT_A_FINDING: {"marker": "o", "color": "#b3b3b3", "fill": True, "size": 4.0},
}
_OTHER_STYLE = {"marker": "^", "color": "#cc79a7", "fill": False, "size": 6.0}  # a label this module does not know


def _fit(label: str, lines: int) -> str:
    """A row label wrapped into at most `lines` lines (shortened with "…" when it needs more)."""
    if lines > 1:
        return wrap(label) if wrap(label).count("\n") < lines else textwrap.fill(
            label, LABEL_WIDTH, max_lines=lines, placeholder=" …", break_long_words=False, break_on_hyphens=False)
    return textwrap.shorten(label, 44, placeholder=" …")


@dataclass(frozen=True)
class SeatMarker:
    """One seat's marker on the first screen: points against fair with its 95% interval."""

    cell: str  # the row's label
    seat: int
    value: float  # points: (share of decided games − 1/players) × 100
    low: float
    high: float
    label: str  # the seat finding's robustness label, or NOT_A_FINDING


def is_plain_self_play(cell: dict) -> bool:
    """A cell of a game and a player count as it stands: standard rules, no overrides, and one
    strategy at every seat (a line-up without a comma)."""
    lineup = cell.get("lineup")
    return (cell.get("variant", "standard") == "standard" and not cell.get("overrides")
            and (lineup is None or "," not in str(lineup)))


def seat_markers(summary: dict, labels: dict[str, str] | None = None) -> list[SeatMarker]:
    """What the first-screen plot draws: per plain self-play cell with decided games (in summary
    order) and per seat, its share of decided games against fair in points with its 95% interval
    (`simkit.analysis.seats.seat_figure`) and the robustness label of its seat finding.
    `labels`: a row label per cell id (default: the id)."""
    found: dict[tuple[str, int], str] = {}
    for row in (summary.get("robustness") or {}).get("findings", []):
        key = row.get("key") or []
        if row.get("kind") == "seat" and len(key) == 2 and key[0] == "seat":
            found.setdefault((row["cell"], int(key[1])), str(row.get("label", "not re-measured")))
    markers = []
    for cell in summary.get("cells", []):
        if not cell.get("seats") or not is_plain_self_play(cell) or sum(s["wins"] for s in cell["seats"]) <= 0:
            continue
        name = (labels or {}).get(cell["cell"], cell["cell"])
        for seat in cell["seats"]:
            value, low, high, _ = seat_figure(cell, seat["seat"])
            markers.append(SeatMarker(name, seat["seat"], 100 * value, 100 * low, 100 * high,
                                      found.get((cell["cell"], seat["seat"]), NOT_A_FINDING)))
    return markers


def first_screen_cells(markers: list[SeatMarker]) -> list[str]:
    """The row labels of the markers, in order: one per cell."""
    return list(dict.fromkeys(marker.cell for marker in markers))


def first_screen(markers: list[SeatMarker], path: Path, title: str = "Every seat against fair") -> Path:
    """The report's first picture: one row per cell (the first FIRST_SCREEN_CELLS), one marker and
    whisker per seat (seat 0 on top of its row), a line at 0 = fair, each marker styled by its
    robustness label (SEAT_STYLES) and a legend of the labels present. Values are in points."""
    rows = first_screen_cells(markers)[:FIRST_SCREEN_CELLS]
    shown = [marker for marker in markers if marker.cell in set(rows)]
    seats = max((marker.seat for marker in shown), default=0) + 1
    band = 0.76  # share of a row's height the seats spread over
    step = band / seats
    # the labels get the lines the capped height leaves each row: one, shortened, for many rows
    room = (FIRST_SCREEN_HEIGHT - 1.25) / max(len(rows), 1)  # inches per row at the capped height
    lines = max(1, min(4, int((room - 0.04) / 0.135)))  # 8-point lines
    names = [_fit(row, lines) for row in rows]
    row_height = _row_height(names, 0.1 + 0.085 * seats)
    height = min(FIRST_SCREEN_HEIGHT, 1.25 + row_height * len(rows))
    crowded = lines == 1 and height == FIRST_SCREEN_HEIGHT  # smaller labels and markers
    seat_room = (height - 1.25) / max(len(rows), 1) * step  # inches between a row's seats
    figure = Figure(layout="constrained", figsize=(7.0, height))
    axes = figure.subplots()
    position = {row: len(rows) - 1 - index for index, row in enumerate(rows)}  # first cell on top
    labels = [label for label in SEAT_STYLES if any(m.label == label for m in shown)]
    labels += list(dict.fromkeys(m.label for m in shown if m.label not in SEAT_STYLES))
    for label in labels:  # one artist per label: the legend lists exactly the labels drawn
        style = SEAT_STYLES.get(label, _OTHER_STYLE)
        group = [m for m in shown if m.label == label]
        ys = [position[m.cell] + band / 2 - (m.seat + 0.5) * step for m in group]
        axes.errorbar(
            [m.value for m in group], ys,
            xerr=[[max(0.0, m.value - m.low) for m in group], [max(0.0, m.high - m.value) for m in group]],
            fmt=style["marker"], markersize=style["size"] * (0.8 if crowded else 1.0), capsize=0,
            elinewidth=1.0 if label == NOT_A_FINDING else 1.3,
            color=style["color"], markeredgecolor=style["color"], markeredgewidth=1.2,
            markerfacecolor=style["color"] if style["fill"] else "white", label=label, zorder=3,
        )
    axes.axvline(0.0, color="0.2", linewidth=1.0, zorder=2)
    for y in range(len(rows) - 1):  # a faint rule between cells groups each cell's seats
        axes.axhline(y + 0.5, color="0.88", linewidth=0.8, zorder=1)
    axes.set_yticks(range(len(rows)), names[::-1], fontsize=7 if crowded else 8)
    axes.set_ylim(-0.5, len(rows) - 0.5)
    if seat_room >= 0.085:  # seat numbers at the right edge, beside their row offsets, where they fit
        for m in shown:
            axes.text(1.005, position[m.cell] + band / 2 - (m.seat + 0.5) * step, f"seat {m.seat}", fontsize=6,
                      color="0.4", va="center", ha="left", transform=axes.get_yaxis_transform())
    widest = max((max(abs(m.low), abs(m.high)) for m in shown), default=1.0)
    axes.set_xlim(-1.08 * max(widest, 1.0), 1.08 * max(widest, 1.0))  # fair in the middle
    axes.xaxis.set_major_formatter(FuncFormatter(lambda value, _: f"{value:+g}".replace("-", "−") if value else "0"))
    axes.tick_params(axis="x", labelsize=8)
    axes.set_xlabel("points against fair (share of decided games − 1/players); whisker: 95% interval", fontsize=8)
    axes.set_title(title + "; seat 0 on top of each row", fontsize=9)
    axes.grid(axis="x", alpha=0.3)
    if labels:
        figure.legend(loc="outside lower center", ncols=min(len(labels), 4), fontsize=7.5, frameon=False,
                      handletextpad=0.3, columnspacing=1.2)
    return _save(figure, path)
