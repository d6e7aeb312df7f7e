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

from simkit.analysis.findings import (
    CAPPED_FINDING,
    HEADLINE_ITEMS,
    HEADLINE_PER_GAME,
    MOSTLY_UNFINISHED,
    Headline,
    capped_finding,
    cell_labels,
    headline,
    headline_groups,
    plain,
)
from simkit.analysis.robustness import opening
from simkit.analysis.seats import SIGNIFICANCE, clear_of_noise, group_figure, no_decided_game, no_decided_text
from simkit.analysis.tests import p_against
from simkit.report import arcs, plots, tournament
from simkit.report.render import Block, Bullets, Contents, Heading, Paragraph, Plot, Table

# The report's one rule for a figure clear of the noise (simkit.analysis.seats.clear_of_noise),
# said once, where the overview explains its marks; every other section points to it.
CLEAR_RULE = (f"a figure is **clear of the noise** when its Holm-adjusted p, over every figure the report tests "
              f"(each seat against fair, each dealt value and strategy against its cell's average, each variant "
              f"comparison), is below {SIGNIFICANCE}; the headline, this map, the seat, strategy, category and "
              f"comparison tables all read that one verdict, so a figure clear in one is clear in all. Its 95% "
              f"interval alone may just exclude 0 and the figure still not be clear: many figures tested at once "
              f"would otherwise turn up effects by chance")
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


# ---------------------------------------------------------------------------------------
# Sections


def _alone(cell: dict) -> list[tuple[float, bool]]:
    """The one rule (`clear_of_noise`) over a cell's own seats, for a cell read without its
    report's other figures (seat, Holm p, clear per seat of `seat_advantage`)."""
    fair = cell["fair_rate"]
    decided = cell.get("decided_games", cell["games"])
    rows = cell.get("seat_advantage") or []
    return clear_of_noise([p_against(row["rate"], fair, decided) for row in rows])


def _seat_verdicts(cell: dict, top: Headline | None) -> list[tuple[float, bool]]:
    """(Holm p, clear) per seat of the cell: the headline's verdicts (every figure of the report
    tested together), or, without a headline, the cell's own seats tested together."""
    if top is None:
        return _alone(cell)
    out = []
    for seat in range(len(cell.get("seat_advantage") or [])):
        found = top.verdict(cell["cell"], "seat", ("seat", seat))
        out.append((found.p_holm, found.clear) if found else (1.0, False))
    return out


def answer(cell: dict, label: str, top: Headline | None = None) -> str:
    """The one-sentence answer for a cell: seat 0's share of decided games against fair,
    whether the first seat is favoured or disadvantaged (only when the report's one rule calls
    it clear of the noise: `top`'s verdict, the headline's; without `top`, the cell's seats
    tested together), whether seats differ at all (some seat clear of the noise, by the same
    rule), and how many games did not finish. Where the rule and the bare interval or the
    chi-square test would say different things, the sentence says which and why. A cell whose
    games mostly hit the round cap says that first and reads nothing into its seats
    (docs/statistics.md)."""
    if not cell["games"]:
        return f"{label}: no games were played."
    capped = cell["incomplete_share"]
    if no_decided_game(cell):
        return (f"**{label}**: most games did not finish: {percent(capped)} hit the round cap, "
                f"{no_decided_text(cell)}, so it has no seat figure.")
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
    verdicts = _seat_verdicts(cell, top) if "seat_advantage" in cell else []
    p_holm, clear = verdicts[0] if verdicts else (1.0, low > 0 or high < 0)
    if clear and seat0["rate"] > fair:
        verdict = f"favoured by {value} points ({span})"
    elif clear:
        verdict = f"disadvantaged by {value} points ({span})"
    else:
        verdict = f"no evidence of a first-seat advantage at this precision ({value} points, {span})"
    if clear == (low <= 0 <= high):  # the rule and the bare interval part ways: said, with the rule's p
        verdict += (f"; its interval alone {'touches' if clear else 'excludes'} 0, but its Holm-adjusted "
                    f"{p_text(p_holm)} over every figure tested is {'' if clear else 'not '}below {SIGNIFICANCE}, "
                    f"so it is {'' if clear else 'not '}clear of the noise (the rule under Overview)")
    uniformity = cell["seat_uniformity_p"]
    differ = any(found for _, found in verdicts) if verdicts else uniformity < SIGNIFICANCE
    if differ == (uniformity < SIGNIFICANCE):
        seats = f"{'seats differ' if differ else 'no evidence that seats differ'} (chi-square {p_text(uniformity)})"
    elif differ:
        seats = f"seats differ: a seat is clear of the noise (chi-square {p_text(uniformity)} over all seats at once)"
    else:
        seats = (f"no evidence that seats differ: no seat is clear of the noise after the Holm correction "
                 f"(chi-square {p_text(uniformity)} before it)")
    sentence = (
        f"**{label}**: seat 0 wins {percent(seat0['rate'])} of decided games (95% CI "
        f"{interval(seat0['ci_low'], seat0['ci_high'])}) against a fair {percent(fair)} — {verdict}; {seats}."
    )
    if capped > 0:
        sentence += f" {percent(capped)} of games hit the round cap and are left out as nobody's win."
    return sentence




def _headline_groups(summary: dict, top: Headline, labels: dict[str, str], limit: int | None = None
                     ) -> list[tuple[str, list[str], list[str]]]:
    """Per game, the sentences the headline shows and the rest (More findings); `limit`: items
    per game (default: the report's, HEADLINE_ITEMS for one game, HEADLINE_PER_GAME for several)."""
    if limit is None:
        limit = HEADLINE_ITEMS if len(top.games) <= 1 else HEADLINE_PER_GAME
    return headline_groups(top, labels, tournament.headline_items(summary["cells"], labels, summary.get("robustness")),
                           limit)


def _game_title(summary: dict, game: str) -> str:
    title = (summary.get("games") or {}).get(game, {}).get("title")
    return f"{title} ({game})" if title else game


NO_EFFECT = ("No effect stands clear of the noise at this precision: every seat, strategy, dealt category and "
             "variant comparison is inside its noise (the rule under Overview).")


def headline_parts(summary: dict, top: Headline, groups: list[tuple[str, list[str], list[str]]]
                   ) -> list[tuple[str, object]]:
    """The headline, made once for the report and the terminal (`simkit.report.headline_lines`)
    alike, in order: ("text", sentence) paragraphs, ("game", title) before a game's findings in a
    sweep of several, ("items", [sentence, ...]) the ranked findings, ("more", {game: count})
    how many the More findings section adds. Only the pointer to More findings is worded per
    medium (a section of the report; the report, from the terminal)."""
    cells = summary["cells"]
    games = sum(cell["games"] for cell in cells)
    several = len(top.games) > 1
    parts: list[tuple[str, object]] = []
    robust = (summary.get("robustness") or {}).get("findings", [])
    if robust:
        shown_ids = [row for row in robust if row.get("headline")] or robust
        sentence = opening(shown_ids)
        if sentence:
            parts.append(("text", sentence.replace(" finding", " headline finding", 1)
                          if shown_ids is not robust else sentence))
    if not sum(len(items) for _, items, _ in groups):
        parts.append(("text", NO_EFFECT))
    for game, items, _ in groups:
        if not items:
            continue
        if several:
            parts.append(("game", _game_title(summary, game)))
        parts.append(("items", list(items)))
    more = {game: len(rest) for game, _, rest in groups if rest}
    if more:
        parts.append(("more", more))
    total = sum(more.values())
    parts.append(("text",
                  f"{top.precision} Units: seat figures in points against fair (share of decided games minus "
                  f"1/players), dealt values and strategies in points against the cell's average, a dominant value's "
                  f"closest match in % head to head (its share of their decided games finished ahead); ranked by size in points (game-length changes follow, by "
                  f"percent)" + (f", at most {HEADLINE_PER_GAME} per game" if several else "")
                  + f"; {len(top.findings):,} of {top.candidates:,} figures tested are findings"
                  + (f", {total:,} of them under More findings" if total else "")
                  + f". {count(games)} simulated games in {len(cells):,} cell(s)."))
    return parts


def _more_text(more: dict[str, int], several: bool) -> str:
    total = sum(more.values())
    split = f" ({', '.join(f'{game} {n:,}' for game, n in more.items())})" if several else ""
    return f"{total:,} more finding{'s' * (total != 1)} in the section More findings{split}."


def _headline_section(summary: dict, top: Headline, groups: list[tuple[str, list[str], list[str]]]) -> list[Block]:
    blocks: list[Block] = [Heading("Headline")]
    for kind, value in headline_parts(summary, top, groups):
        if kind == "text":
            blocks.append(Paragraph(value))
        elif kind == "game":
            blocks.append(Paragraph(f"**{value}**"))
        elif kind == "items":
            blocks.append(Bullets(value, ordered=True))
        else:
            blocks.append(Paragraph(_more_text(value, len(top.games) > 1)))
    return blocks


def headline_text(summary: dict, items: int | None = None) -> list[str]:
    """The report's headline as plain lines for a terminal: `headline_parts` rendered without
    markdown, each sentence as the report says it, in the report's order. `items`: findings per
    game when not the report's (the report's limits by default, so the terminal and the report
    show the same findings)."""
    labels = cell_labels(summary["cells"])
    top = headline(summary, labels)
    several = len(top.games) > 1
    limit = None if items is None else max(1, items // len(top.games)) if several else items
    lines = ["Headline:"]
    for kind, value in headline_parts(summary, top, _headline_groups(summary, top, labels, limit)):
        if kind == "text":
            lines.append(plain(value))
        elif kind == "game":
            lines.append(f"{plain(value)}:")
        elif kind == "items":
            lines += [f"{number}. {plain(sentence)}" for number, sentence in enumerate(value, 1)]
        else:
            lines.append(f"   ... {sum(value.values()):,} more in the report (More findings)")
    return lines


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


def _report_headline(cells: list[dict], top: Headline | None) -> Headline:
    """The headline whose verdicts a section reads: the report's, or for cells read on their own
    (no comparisons, no games facts) the headline of those cells."""
    return top if top is not None else headline({"cells": cells, "comparisons": []}, cell_labels(cells))


def _overview_section(cells: list[dict], top: Headline | None = None) -> list[Block]:
    top = _report_headline(cells, top)
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
            if no_decided_game(cell):
                texts.append(no_decided_text(cell))
                colours.append("#d9d9d9")
                continue
            seat0 = cell["seat_advantage"][0] if "seat_advantage" in cell else None
            value, low, high = ((seat0["vs_fair"], seat0["vs_fair_low"], seat0["vs_fair_high"]) if seat0 else
                                (cell["first_player_advantage"][k] for k in ("value", "ci_low", "ci_high")))
            clear = top.clear(cell["cell"], "seat", ("seat", 0))  # the report's one rule, as the headline reads it
            text = f"{points(value)} ±{50 * (high - low):.1f}"
            texts.append(f"**{text}**" if clear else text)
            colours.append(_overview_colour(100 * value, clear))
        table_rows.append(texts)
        shades.append(colours)
    return [
        Heading("Overview: seat 0 against fair"),
        Paragraph(
            "Seat 0's share of decided games minus the fair 1/players, in points against fair, ± its 95% half width. "
            "**Bold** (coloured: red favoured, blue disfavoured, deeper with size): clear of the noise; plain "
            "(grey): inside the noise. The rule, for every mark in this report: " + CLEAR_RULE + ". A cell whose "
            "games mostly hit the round cap shows its unfinished share instead."
        ),
        Table(["game"] + [f"{players} players" for players in counts], table_rows, shades=shades),
    ]


def _seat_section(cells: list[dict], labels: dict[str, str], plot_folder: Path, top: Headline | None = None
                  ) -> list[Block]:
    top = _report_headline(cells, top)
    widest = max(cell["players"] for cell in cells)
    rows = []
    for cell in cells:
        shares = cell.get("seat_advantage") or [
            {"vs_fair": s["win_rate"] - cell["fair_rate"], "vs_fair_low": s["ci_low"] - cell["fair_rate"],
             "vs_fair_high": s["ci_high"] - cell["fair_rate"]} for s in cell["seats"]]
        if no_decided_game(cell):  # no figure: a share of zero decided games is no number
            seats = [no_decided_text(cell)] * len(shares)
        else:
            seats = [f"{points(s['vs_fair'])} ±{50 * (s['vs_fair_high'] - s['vs_fair_low']):.1f}" for s in shares]
            seats = [f"**{text}**" if top.clear(cell["cell"], "seat", ("seat", seat)) else text
                     for seat, text in enumerate(seats)]
        gap = cell["largest_seat_gap"]
        rows.append(
            [labels[cell["cell"]], count(cell["games"]), count(cell.get("decided_games", cell["complete_games"])),
             percent(cell["fair_rate"])]
            + seats
            + [""] * (widest - len(seats))
            + [_gap_text(gap), "–" if cell["seat_uniformity_p"] is None else p_text(cell["seat_uniformity_p"])]
        )
    header = ["cell", "games", "decided", "fair"] + [f"seat {seat} (points vs fair)" for seat in range(widest)]
    header += ["largest gap (decided, points)", "seats equal? (chi-square, uncorrected)"]
    plot = plots.rate_intervals(
        [
            plots.CellRates(
                labels[cell["cell"]],
                0.0,
                [plots.Interval(f"seat {s['seat']}", s["vs_fair"], s["vs_fair_low"], s["vs_fair_high"])
                 for s in cell.get("seat_advantage", [])],
            )
            for cell in cells
            if cell["games"] and not no_decided_game(cell)
        ],
        plot_folder / "seat_win_rates.png",
        "Seat advantage against fair",
        xlabel="points against fair (share of decided games − 1/players)",
        as_points=True,
    )
    return [
        Heading("Seat win rates"),
        Bullets([answer(cell, labels[cell["cell"]], top) for cell in cells]),
        Paragraph(
            "Each seat's share of decided games against fair (1/players), in points against fair ± the 95% half "
            "width (Wilson); **bold**, favoured and disadvantaged: clear of the noise by the rule under Overview, the "
            "headline's. A shared win counts 1/k for each of the k sharers; a round-capped game is nobody's and is "
            "left out of the decided games (its share is under End reasons). The largest gap is the highest seat's "
            "share minus the lowest's, over the same decided games, ± that pair's 95% half width. The chi-square p "
            "tests all seats at once, uncorrected: it is shown for reference, and a seat is called clear only by the "
            "rule."
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
    # a design finding only above CAPPED_FINDING (its 95% lower bound): the headline's rule; below, a count
    findings = [
        f"**Design finding:** {labels[cell['cell']]}: {percent(cell['incomplete_share'])} of games "
        f"({count(cell['games'] - cell['complete_games'])}) hit the round cap without ending by the rules."
        if capped_finding(cell) else
        f"{labels[cell['cell']]}: {count(cell['games'] - cell['complete_games'])} of {count(cell['games'])} games "
        f"({_share_text(cell['incomplete_share'])}) hit the round cap: a count, not a design finding (its 95% interval "
        f"is not clear of {percent(CAPPED_FINDING)} of games)."
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


def _share_text(share: float) -> str:
    """A share of games: '1.2%', or with more digits when it is tiny ('0.013%')."""
    return percent(share) if share == 0 or share >= 0.001 else f"{100 * share:.3f}%"


def _against_average(cell: dict, what: str, name: str, baseline: str | None, top: Headline) -> str:
    """A strategy's or dealt value's figure as the headline measures it: points against the cell's
    average (the other presets', the baseline left out), ± its 95% half width, **bold** when the
    report's one rule calls it clear of the noise."""
    figure = group_figure(cell, what, name, baseline)
    if figure is None:
        return "– (baseline)" if what == "strategy" and name == baseline else "–"
    vs, low, high, _ = figure
    text = f"{points(vs)} ±{50 * (high - low):.1f}"
    kind = "strategy" if what == "strategy" else "category"
    return f"**{text}**" if top.clear(cell["cell"], kind, (what, name)) else text


def _rate_rows(cell: dict, label: str, rates: list[dict], key: str, what: str | None = None,
               baseline: str | None = None, top: Headline | None = None) -> list[list[str]]:
    """Rates per decided seat played (one basis: docs/statistics.md), the capped and shared shares
    beside them, and (with `top`) the headline's figure against the cell's average."""
    return [
        [
            label,
            str(rate[key]),
            count(rate["seats"]),
            count(rate.get("decided_seats", rate["seats"])),
            *([no_decided_text(cell), "–", "–"] if rate["win_rate"] is None else  # a cell with no decided game
              [percent(rate["win_rate"]), interval(rate["ci_low"], rate["ci_high"]),
               points(rate["win_rate"] - cell["fair_rate"])]),
            percent(rate.get("capped_share", 0.0)),
            percent(rate.get("shared_share", 0.0)),
        ] + ([_against_average(cell, what or key, str(rate[key]), baseline, top)] if top is not None else [])
        for rate in rates
    ]


RATE_HEADER = ["seats", "decided", "win rate (decided)", "95% CI", "vs fair (points)", "capped", "shared wins",
               "vs the cell's average (points)"]
AVERAGE_NOTE = ("vs the cell's average: the figure the headline tests, in points against the average win rate of "
                "the cell's seats in the table (for strategies, the presets other than the game's random baseline) "
                "± its 95% half width; **bold**: clear of the noise by the rule under Overview.")


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
                                r["ci_high"] - cell["fair_rate"]) for r in rates if r["win_rate"] is not None],
            )
            for cell, rates in rates_by_cell
        ],
        path,
        title,
        xlabel="points against fair (win rate per decided seat played − 1/players)",
        as_points=True,
    )


def _baseline(summary_games: dict, cell: dict) -> str | None:
    return (summary_games.get(cell["game"]) or {}).get("baseline_strategy")


def _strategy_section(cells: list[dict], labels: dict[str, str], plot_folder: Path, top: Headline | None = None,
                      games: dict | None = None) -> list[Block]:
    top = _report_headline(cells, top)
    mixed = [cell for cell in cells if len(cell["strategies"]) > 1]
    if not mixed:
        lineups = ", ".join(sorted({str(cell.get("lineup")) for cell in cells}))
        return [
            Heading("Strategy results"),
            Paragraph(f"Every seat of a cell played the same strategy ({lineups}): no strategy comparison to make."),
        ]
    rows = [row for cell in mixed for row in _rate_rows(cell, labels[cell["cell"]], cell["strategies"], "strategy",
                                                         "strategy", _baseline(games or {}, cell), top)]
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
            "seats is under capped, and the share of its seats in games with a shared win under shared wins. "
            + AVERAGE_NOTE
        ),
        Table(["cell", "strategy", *RATE_HEADER], rows, text_columns=2),
        Plot(_relative(plot), "Win rate by strategy in points against fair, with 95% intervals"),
    ]


def _category_sections(cells: list[dict], labels: dict[str, str], plot_folder: Path, top: Headline | None = None
                       ) -> list[Block]:
    top = _report_headline(cells, top)
    columns = list(dict.fromkeys(column for cell in cells for column in cell.get("categories", {})))
    blocks: list[Block] = []
    for column in columns:
        dealt = [cell for cell in cells if cell["categories"].get(column)]
        rows = [
            row for cell in dealt
            for row in _rate_rows(cell, labels[cell["cell"]], cell["categories"][column], "value", column, None, top)
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
                      f"share of the seats under capped; games with a shared win under shared wins). "
                      + AVERAGE_NOTE),
            Table(["cell", column, *RATE_HEADER], rows, text_columns=2),
            Plot(_relative(plot), f"Win rate by {column} in points against fair, with 95% intervals"),
        ]
    return blocks


def measured_metrics(folder: Path, cells: list[dict]) -> dict[str, set[str]] | None:
    """Per cell, the numeric metrics its games recorded (a value in some game of the cell), from
    the result tables: in a sweep of several games each table has every game's metric columns,
    empty (null) in the rows of the games without them, and summary.json's means read such a
    column as 0. None when the folder has no tables (a summary read on its own)."""
    names = {table: sorted({metric for cell in cells for metric in cell.get(field, {})})
             for table, field in (("games", "game_metrics"), ("seats", "seat_metrics"))}
    out: dict[str, set[str]] = {cell["cell"]: set() for cell in cells}
    for table, metrics in names.items():
        path = folder / f"{table}.parquet"
        if not path.exists():
            return None
        frame = pl.scan_parquet(path)
        present = [m for m in metrics if m in frame.collect_schema().names()]
        if not present:
            continue
        counts = frame.group_by("cell").agg(*[pl.col(m).count().alias(m) for m in present]).collect()
        for row in counts.iter_rows(named=True):
            out.setdefault(row["cell"], set()).update(m for m in present if row[m])
    return out


def _metric_section(cells: list[dict], labels: dict[str, str], measured: dict[str, set[str]] | None = None
                    ) -> list[Block]:
    """Each cell's game and seat metrics: only those its own game records (`measured`, from the
    tables: another game's metric is never shown as 0.00 under this cell), else those with a mean."""
    rows = []
    for cell in cells:
        label = labels[cell["cell"]]
        own = None if measured is None else measured.get(cell["cell"], set())
        for metric, values in cell.get("game_metrics", {}).items():
            if values["mean"] is not None and (own is None or metric in own):  # another game's: this cell has none
                rows.append([label, metric, "game", number(values["mean"]), ""])
        for metric, shares in cell.get("game_categories", {}).items():
            text = ", ".join(f"{row['value']} {percent(row['share'])}" for row in shares)
            rows.append([label, metric, "game", text, ""])
        for metric, values in cell.get("seat_metrics", {}).items():
            if values["mean"] is None or (own is not None and metric not in own):
                continue
            by_seat = " / ".join(number(value) for value in values["by_seat"])
            rows.append([label, metric, "seat", number(values["mean"]), by_seat])
    if not rows:
        return []
    return [
        Heading("Game and seat metrics"),
        Paragraph("Means per game or per seat, in the game's own units; by seat lists seat 0 first. A cell shows "
                  "only the metrics its game records."),
        Table(["cell", "metric", "per", "mean", "mean by seat"], rows, text_columns=3),
    ]


def _comparison_section(comparisons: list[dict], labels: dict[str, str], plot_folder: Path,
                        top: Headline | None = None) -> list[Block]:
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
        # the report's one rule (the headline's verdict); without a headline, the comparisons' own Holm p
        tested = top.verdict(row["cell"], "comparison", ("comparison", row["baseline"], row["metric"])) if top else None
        p_holm = tested.p_holm if tested else row["p_holm"]
        clear = tested.clear if tested else row["p_holm"] < SIGNIFICANCE
        rows.append(
            [
                labels.get(row["cell"], row["cell"]),
                labels.get(row["baseline"], row["baseline"]),
                name,
                level(row["baseline_mean"]),
                level(row["cell_mean"]),
                f"**{scale * row['diff']:+.2f}**" if clear else f"{scale * row['diff']:+.2f}",
                f"{scale * row['ci_low']:+.2f} to {scale * row['ci_high']:+.2f}",
                p_text(p_holm),
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
            "seeds game by game (common random numbers): difference = variant − baseline, in points for rates "
            "(seat 0's share, the seat gap, the capped share) and in rounds for length. "
            "Seat 0's share and the largest seat gap are over decided games, each cell's gap between its own highest "
            "and lowest seat, compared game by game by the delta method. "
            + ("Holm p is adjusted over every figure the report tests, the headline's; a **bold** difference is a "
               "change: clear of the noise by the rule under Overview. " if top is not None else
               f"p is Holm-adjusted across all {len(comparisons)} comparisons; a **bold** difference is a change "
               f"(Holm p < {SIGNIFICANCE}). ") +
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
        Plot(_relative(plot), "Paired differences with 95% intervals (points for rates, rounds for length)"),
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
    """The robustness phase's table (summary.json `robustness`): each finding, its figure, δ, and
    every re-measurement at a skilled tier and under each shipped component set or reading, with its
    figure, its paired change, its games and its label."""
    robust = summary.get("robustness")
    if not robust:
        return []
    settings, sampling = robust.get("settings", {}), robust.get("sampling", {})
    rows = []
    for row in robust["findings"]:
        first = [labels.get(row["cell"], row["cell"]), _figure_name(row, labels),
                 f"{_shown(row, row['figure'], *row['interval'])}, {row['games']:,} games",
                 f"±{points(row['delta']).lstrip('+')}" if "delta" in row else "–",
                 ", ".join(row.get("gates", [])) or ("headline" if row.get("headline") else "ranked")]
        again = row["remeasurements"] + row.get("not_played", []) or [None]
        verdict = row["label"] + (f" (about {row['more_games']:,} more games)" if row.get("more_games") else "")
        for number, r in enumerate(again):
            lead = first if number == 0 else [""] * len(first)
            tail = f"**{verdict}**" if number == 0 else ""
            if r is None or "reason" in r:
                rows.append([*lead, "–" if r is None else r["by"], "–", "–", "–",
                             "not re-measured" if r is None else f"cannot play: {r['reason']}", tail])
            elif "figure" not in r:
                rows.append([*lead, r["by"], "–", "–", f"{r['games']:,}", r["label"], tail])
            else:
                more = f" (about {r['more_games']:,} more)" if r.get("more_games") else ""
                rows.append([*lead, r["by"], _shown(row, r["figure"], *r["interval"]),
                             _shown(row, r["change"], *r["change_interval"]), f"{r['games']:,}",
                             r["label"] + more, tail])
    counted = Counter(row["label"] for row in robust["findings"])
    if robust.get("finished", True):
        cost = (f" The phase played {sampling.get('games', 0):,} games in {sampling.get('looks', 0)} "
                f"look{'s' * (sampling.get('looks', 0) != 1)}.")
    else:
        cost = " The robustness phase has not finished: `simkit sweep --out DIR --resume` completes it."
    skilled = settings.get("skilled") or "the tuned preset, where the line-up is another"
    return [
        Heading("Robustness"),
        Paragraph(
            "Each headline finding (and each figure `simkit check` gates on) was played again with the same cell "
            f"but the line-up replaced by a skilled tier ({skilled}"
            f"{', and the rollout tier (expert, else lookahead)' if settings.get('lookahead') else ''}) and under "
            "every shipped alternative "
            "component set and every other declared reading of an assumption, on the same seeds, so the two cells' games pair one by one. A re-measurement plays "
            f"on, doubling its games, until its label is decided or it has played {settings.get('games', 0):,} "
            "games" + (f" ({settings.get('lookahead_games', 0):,} at the rollout tier)" if settings.get("lookahead") else "")
            + ". Each label is a test, with δ the tolerance of the figure's kind (a gated figure's is its gate's "
            "limit): **reverses**: the re-measured figure is clear of zero on the other side; **holds**: it is clear "
            "of zero on its side and the paired change toward zero is shown smaller than δ; **vanishes**: it is "
            "shown within ±δ of zero; **weaker**: it is clear of zero on its side and the change toward zero is "
            "shown larger than δ/2 (between δ/2 and δ a change may be shown holds or weaker, both true of "
            "it, so that every change is decided in a bounded number of games); **undetermined** when none is "
            f"shown yet, with about how many more games the nearest decision needs. Every bound is one-sided at {100 * settings.get('alpha', 0.05):g}% divided by "
            "the looks and the re-measurements of the finding, so a finding gets a false label with at most that "
            "chance. A set that plays the very same games is **no effect** at that player count, not a label. "
            "A finding holds (it is about the game) only if every re-measurement holds; otherwise it takes the "
            "worst decided label, and names the tier (the bots) or the set (an invented component) it depends on. "
            f"Labels: {', '.join(f'{n} {k}' for k, n in counted.items())}.{cost}"
            + (f" {len(robust.get('skipped') or [])} re-measurements cannot play their cell's rules (in the table)."
               if robust.get("skipped") else "")),
        Table(["cell", "figure", "original (points, 95% CI)", "δ", "why", "measured again", "there (95% CI)",
               "paired change (95% CI)", "games", "label", "finding"], rows, text_columns=5),
        *_within_noise(summary, labels),
    ]


def _within_noise(summary: dict, labels: dict[str, str]) -> list[Block]:
    """The seat-0 figures the phase left alone because their interval covers zero: there is no
    sign to re-measure, so no label (said, so that a missing label is not read as a gap)."""
    quiet = []
    for cell in summary["cells"]:
        fpa = cell.get("first_player_advantage")
        if not isinstance(fpa, dict) or not cell.get("games") or fpa["value"] is None:  # None: no decided game
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
            "set and labelled by the robustness phase's tests (section Robustness), at the games the sweep played: "
            "holds, weaker, vanishes, reverses, or undetermined. For seat 0 the test reads the paired change "
            "(other set − base, game by game on the same seeds), shown too; a variant comparison "
            "is made again between the same rules under the other set (points for rates, rounds for length). "
            "A finding that does "
            "not hold under every set is about our guesses as much as about the game."
        ),
        Table(["base cell", "figure", "base (points)", "under", "there (points, 95% CI)",
               "paired change (same seeds)", "verdict"], rows, text_columns=2),
    ]


def _precision_section(cells: list[dict], labels: dict[str, str]) -> list[Block]:
    rows = [
        [labels[cell["cell"]], count(cell["games"]), no_decided_text(cell), "–", "–", "–"] if no_decided_game(cell)
        else [
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


def _first_screen_section(summary: dict, labels: dict[str, str], plot_folder: Path) -> list[Block]:
    """The picture a designer reads first: every seat of every plain self-play cell (a game at a
    player count) against fair, in points with its 95% interval, each marker styled by the
    robustness label of its seat finding. [] without such cells."""
    cells = summary["cells"]
    games = list(dict.fromkeys(cell["game"] for cell in cells))
    names = dict(labels)
    if len(games) > 1:  # a row names its game by its title
        for game in games:
            ours = cell_labels([cell for cell in cells if cell["game"] == game])
            title = _game_title(summary, game).split(" (")[0].split(":")[0]  # short: the row keeps its players
            names.update({cell: f"{title}, {label.removesuffix(', standard')}" for cell, label in ours.items()})
    markers = plots.seat_markers(summary, names)
    if not markers:
        return []
    rows = len(plots.first_screen_cells(markers))
    plot = plots.first_screen(markers, plot_folder / "first_screen.png")
    left_out = rows - plots.FIRST_SCREEN_CELLS
    caption = ("Each seat's share of decided games against fair, in points: marker = the seat finding's robustness "
               "label (grey: not a finding); whisker = 95% interval; 0 = fair")
    if left_out > 0:
        caption += (f"; the first {plots.FIRST_SCREEN_CELLS} of {rows:,} cells shown, {left_out:,} left out "
                    "(Seat win rates lists every cell)")
    return [Plot(_relative(plot), caption + ".")]


def _relative(plot: Path) -> str:
    """A plot's path relative to the report folder (plots live in its `plots/`)."""
    return f"{plot.parent.name}/{plot.name}"


def build(summary: dict, length_counts: pl.DataFrame, manifest: dict | None, plot_folder: Path,
          folder: Path | None = None) -> list[Block]:
    """The whole report, section by section; plots are written to `plot_folder`. `folder`: the
    sweep folder with the result tables (default: the plot folder's parent, as write_report lays
    it out). One headline is made, and every section that marks a figure clear reads its verdicts."""
    cells = summary["cells"]
    labels = cell_labels(cells)
    top = headline(summary, labels)
    groups = _headline_groups(summary, top, labels)
    return [
        *_first_screen_section(summary, labels, plot_folder),
        *_headline_section(summary, top, groups),
        Contents(),
        *_overview_section(cells, top),
        *_more_findings_section(summary, top, groups),
        *_labels_section(summary, labels),
        *_robustness_section(top, labels),
        *_seat_section(cells, labels, plot_folder, top),
        *_length_section(cells, labels, length_counts, plot_folder),
        *arcs.margin_section(cells, labels),
        *arcs.arc_section(cells, labels, plot_folder),
        *arcs.tier_section(summary.get("tiers", []), plot_folder),
        *_end_reason_section(cells, labels, plot_folder),
        *_strategy_section(cells, labels, plot_folder, top, summary.get("games")),
        *_category_sections(cells, labels, plot_folder, top),
        *tournament.sections(cells, labels, plot_folder),
        *_metric_section(cells, labels, measured_metrics(folder or plot_folder.parent, cells)),
        *_comparison_section(summary.get("comparisons", []), labels, plot_folder, top),
        *_curve_section(summary.get("curves", []), plot_folder),
        *_precision_section(cells, labels),
        *_provenance_section(manifest, labels),
    ]
