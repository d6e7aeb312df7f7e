"""The report's headline: every effect the sweep can see, said in one sentence each with its
interval and what a designer could try next, ranked in one place (`rank`) and grouped by game
(docs/reading-a-report.md). It reads summary.json only (the `games` field says what it needs of a game).

A candidate is a seat against fair (over decided games), a dealt seat category value (e.g. a
power) against its cell's average, a strategy against the other presets' average, a
round-capped share, or a paired variant comparison (the seats, the capped share, game
length). Candidates are tested together: a candidate is a finding only when its
Holm-adjusted p-value is below SIGNIFICANCE (`simkit.analysis.seats.clear_of_noise`, the
report's one rule: the overview, the seat table and the other tables read the same verdict
through `Headline.verdict`), so what is inside the noise is not reported as a finding. A
round-capped share is a design finding only when its 95% interval's lower bound is above
CAPPED_FINDING (1% of games): five capped games in 40,000 are a count, not a finding. Units:
a seat figure is in points against fair (its share of decided games minus 1/players), a
dealt value or strategy in points against the cell's average, a variant comparison in points
(rates) or rounds. What a designer can act on:

- the game's random baseline preset is never a finding: it measures the bots, not the game;
  other strategies are measured against the average of the presets other than the baseline;
- a variant's effect on the seats is judged on every seat: it is ranked by how far it brings
  the largest seat gap towards zero (so a variant that evens the seats outranks one that
  overshoots), and it "evens the seats" only when every seat's interval then covers fair;
- one finding speaks for each cell's seats, for each dealt category or line-up of a cell,
  and for each variant's seats: the figure furthest from fair.

Findings rank by size in percentage points; game-length changes, in another unit, follow
them, ranked by their percent change. A cell whose games mostly hit the round cap is said
first, and its seat, category and strategy figures are not read as effects: with most games
unfinished, who "won" the rest says little. For a big grid the headline shows the largest
few per game and says how many more the "More findings" section lists.

Robustness (component sets): cells that differ only in assumption parameters
(the `components` set, or a rule whose source is an assumption id `A<n>`) played the same
seeds, so each finding of the assumption group's base cell (a seat, a dealt category, a
strategy, or a variant comparison between two rule sets) is measured again under every
other set and called robust (same direction, clear of noise, under every set), dependent
(inside the noise under some set) or flipped (clear of noise the other way under some set).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from simkit.analysis.robustness import REVERSES, UNDETERMINED, VANISHES, finding_id, is_assumption
from simkit.analysis.seats import (
    SIGNIFICANCE,
    capped_figure,
    clear_of_noise,
    every_seat_fair,
    group_figure,
    no_decided_game,
    no_decided_text,
    seat_figure,
    worst_seat,
)
from simkit.analysis.seats import decided_seats as _decided_seats
from simkit.analysis.seats import group_mean as _group_average
from simkit.analysis.seats import group_rows as _group_rows
from simkit.analysis.seats import seat_rates as _seat_rates
from simkit.analysis.seats import wilson_vs as _wilson_vs
from simkit.analysis.tests import p_against

MOSTLY_UNFINISHED = 0.5  # share of round-capped games above which a cell's seat figures are not read
COMPONENTS = "components"  # the rule parameter naming a component set
SEAT_FIGURES = ("seat0_win", "seat_gap")  # comparison metrics about the seats: one finding per variant


def _points(value: float) -> str:
    return f"{100 * value:+.1f}"


def _pct(value: float) -> str:
    return f"{100 * value:.1f}%"


def _span(low: float, high: float) -> str:
    return f"95% CI {_points(low)} to {_points(high)}"


@dataclass
class Finding:
    """One effect: its size for ranking, its sentence, and what it was measured on."""

    size: float  # points (or percent change of game length): what ranks it
    p: float
    text: str
    kind: str  # "unfinished", "seat", "category", "strategy", "capped", "comparison", "assumption"
    cell: str | None = None
    key: tuple = ()  # identifies the figure for re-measuring it under other assumption sets
    direction: int = 0  # sign of the effect
    p_holm: float = 1.0
    robustness: str = ""  # set by `robustness`: appended to the sentence
    notes: list[str] = field(default_factory=list)
    game: str | None = None  # the game the figure is about: the headline groups by it
    label: str = ""  # the robustness phase's label (summary.json `robustness`), said after the sentence
    advice: str = ""  # what to try next, said as "Next: ..." unless the robustness label says otherwise
    verdict: str = ""  # the robustness phase's label itself ("holds", "vanishes", ...), or ""
    depends_on: list[str] = field(default_factory=list)  # what a label other than holds depends on
    decisive: list[str] = field(default_factory=list)  # of those, the ones with the finding's own label
    more_games: int | None = None  # an undetermined label: about how many more games would decide it
    clear: bool = False  # clear of the noise by the report's one rule (`clear_of_noise`)

    def next_hint(self) -> str:
        return next_hint(self.advice, self.verdict, self.decisive or self.depends_on, self.more_games)

    def sentence(self) -> str:
        hint = self.next_hint()
        return (self.text + (f" Next: {hint}." if hint else "") + (f" {self.robustness}" if self.robustness else "")
                + (f" {self.label}" if self.label else ""))


def next_hint(advice: str, label: str, depends_on: list[str], more_games: int | None = None) -> str:
    """A finding's "Next:" hint, one sentence, read from its robustness label (summary.json
    `robustness.findings`): a finding that vanishes or reverses under a component set rests on
    that set's values (an assumption: check them, not a rule), and one under another reading of an
    assumption (`param=value`) rests on that reading; one that vanishes or reverses with the
    skilled bots is about how the bots play (measure it at a stronger tier, not a rule); an
    undetermined one needs more games first; holds (and weaker, or no label) keeps `advice`.
    `depends_on`: the re-measurements with the finding's label (Finding.decisive)."""
    sets = [by.split("=", 1)[1] for by in depends_on if by.startswith(f"{COMPONENTS}=")]
    readings = [by for by in depends_on if is_assumption(by) and not by.startswith(f"{COMPONENTS}=")]
    tiers = [by for by in depends_on if not is_assumption(by)]
    if label in (VANISHES, REVERSES) and (sets or readings or tiers):
        verb = "reverses" if label == REVERSES else "vanishes"
        named = " and ".join([f"the component set{'s' * (len(sets) != 1)} {', '.join(sets)}"] * bool(sets)
                             + [f"the reading{'s' * (len(readings) != 1)} {', '.join(readings)}"] * bool(readings))
        what = "component values" if not readings else "readings" if not sets else "component values and readings"
        if named and tiers:
            return (f"it {verb} under {named} and with the {', '.join(tiers)} bots, so it rests on an assumption "
                    f"and on how the bots play: check those {what} against the real game and measure it "
                    f"at a stronger tier before changing a rule")
        if named:
            return (f"it {verb} under {named}, so it rests on an assumption: check those {what} against "
                    f"the real game (the game's page lists them) before changing a rule")
        return (f"it {verb} with the {', '.join(tiers)} bots, so it is about how the bots play rather than about the "
                f"rules: measure it at a stronger tier (the expert: [robustness] lookahead = true) before changing a rule")
    if label == UNDETERMINED:
        where = f" at {', '.join(depends_on)}" if depends_on else ""
        games = f"about {more_games:,} more games" if more_games else "more games"
        return (f"settle its robustness label first: {games}{where} would decide it (raise the spec's [robustness] "
                f"games and sweep again)")
    return advice


def rank(findings: list[Finding]) -> list[Finding]:
    """The one ranking of findings: rates by size in points, largest first; a game-length change
    is in another unit, so those follow, ranked by their percent change."""
    return sorted(findings, key=lambda f: (f.key[-1:] == ("rounds",), -f.size))


# ---------------------------------------------------------------------------------------
# Candidates


def _seat_candidates(cell: dict, label: str) -> list[Finding]:
    decided, rows = _seat_rates(cell)
    fair = 1.0 / cell["players"]
    out = []
    for seat, rate, vs, low, high in rows:
        who = "seat 0 (the first player)" if seat == 0 else f"seat {seat}"
        if vs > 0:
            advice = ("try a compensation for the later seats (a start bonus, a catch-up rule, or a bidding "
                      "start) as a rule parameter and sweep it" if seat == 0 else
                      f"look at what seat {seat}'s place in turn order gives it, and sweep a rule that evens it")
        else:
            advice = (f"try a start bonus for {who} and sweep its size (simkit tune finds the value that "
                      "evens the seats)")
        text = (f"**{label}**: {who} wins {_pct(rate)} of decided games against a fair {_pct(fair)}: "
                f"{_points(vs)} points against fair ({_span(low, high)}).")
        out.append(Finding(abs(vs), p_against(rate, fair, decided), text, "seat", cell["cell"], ("seat", seat),
                           1 if vs > 0 else -1, game=cell["game"], advice=advice))
    return out


def _group_candidates(cell: dict, label: str, what: str, baseline: str | None) -> list[Finding]:
    """Category values (e.g. powers) against the cell's average per decided seat played, or the
    strategies of a mixed line-up against the average of the presets other than the baseline."""
    rows = [r for r in _group_rows(cell, what, baseline) if _decided_seats(r)]
    average = _group_average(rows)
    if len(rows) < 2 or average is None:
        return []
    name_key = "strategy" if what == "strategy" else "value"
    measured = []
    for r in rows:
        n = _decided_seats(r)
        vs, low, high = _wilson_vs(r["wins"], n, average)
        measured.append((str(r[name_key]), r["wins"] / n, vs, low, high, p_against(r["wins"] / n, average, n)))
    best = max(measured, key=lambda m: m[2])
    worst = min(measured, key=lambda m: m[2])
    against = (f"the other presets' average {_pct(average)}" + (f" (the {baseline} baseline left out)"
                                                                 if baseline and len(rows) < len(
                                                                     cell.get("strategies", [])) else "")
               if what == "strategy" else f"an average {_pct(average)}")
    out = []
    for name, rate, vs, low, high, p in measured:
        other = worst if vs > 0 else best
        if what == "strategy":
            advice = (f"the {name} style {'dominates' if vs > 0 else 'trails'}: check whether the rules reward it "
                      f"{'too cheaply' if vs > 0 else 'too little'} (or whether the other presets play it badly)")
        else:
            advice = f"{'weaken' if vs > 0 else 'strengthen'} {name} (or {'strengthen' if vs > 0 else 'weaken'} " \
                     f"{other[0]}), then rerun this sweep"
        text = (f"**{label}**: the {what} {name} wins {_pct(rate)} of its decided seats against {against}: "
                f"{_points(vs)} points against the cell's average ({_span(low, high)}); the {what} values span "
                f"{100 * (best[1] - worst[1]):.1f} points ({worst[0]} {_pct(worst[1])} to {best[0]} "
                f"{_pct(best[1])}).")
        out.append(Finding(abs(vs), p, text, "strategy" if what == "strategy" else "category", cell["cell"],
                           (what, name), 1 if vs > 0 else -1, game=cell["game"], advice=advice))
    return out


CAPPED_FINDING = 0.01  # a round-capped share is a design finding only when its 95% lower bound is above this


def capped_finding(cell: dict) -> bool:
    """The round-capped share is a design finding: its 95% interval's lower bound is above
    CAPPED_FINDING (1% of games). Below that the capped games are a count (End reasons), never a
    finding: five capped games in 40,000 say nothing a designer must act on."""
    if not cell.get("games"):
        return False
    _, low, _ = capped_figure(cell)
    return low > CAPPED_FINDING


def _capped_candidate(cell: dict, label: str) -> Finding | None:
    if not capped_finding(cell):
        return None
    share, low, high = capped_figure(cell)
    text = (f"**{label}**: {_pct(share)} of games hit the round cap without ending by the rules "
            f"(95% CI {_pct(low)} to {_pct(high)} of games, clear of the {_pct(CAPPED_FINDING)} a design finding "
            f"needs).")
    return Finding(share, 0.0, text, "capped", cell["cell"], ("capped",), 1, game=cell["game"],
                   advice="find what stalls them (simkit replay with a capped game's seed shows it); the end "
                          "condition or the bots' play may never close the game")


def _every_seat_fair(cell: dict) -> bool:
    return every_seat_fair(cell.get("seat_advantage") or [])


def _furthest_seat(cell: dict) -> dict | None:
    shares = cell.get("seat_advantage") or []
    return worst_seat(shares) if shares else None


def _seats_text(cell: dict) -> str:
    """How the variant leaves the seats: every one within its interval of fair, or the furthest off."""
    if _every_seat_fair(cell):
        return "every seat's interval covers fair"
    seat = _furthest_seat(cell)
    return (f"seat {seat['seat']} is still {_points(seat['vs_fair'])} points from fair "
            f"({_span(seat['vs_fair_low'], seat['vs_fair_high'])})") if seat else "its seats are not measured"


def _comparison_candidates(comparisons: list[dict], cells: dict[str, dict], labels: dict[str, str],
                           assumption_keys: dict[str, dict]) -> list[Finding]:
    out = []
    for row in comparisons:
        cell, base = cells.get(row["cell"]), cells.get(row["baseline"])
        if cell is None or base is None:
            continue
        differing = {k for k in set(cell["overrides"]) | set(base["overrides"])
                     if cell["overrides"].get(k) != base["overrides"].get(k)}
        is_assumption = (cell["variant"] == base["variant"] and differing
                         and differing <= set(assumption_keys.get(cell["game"], {})))
        name, against = labels.get(row["cell"], row["cell"]), labels.get(row["baseline"], row["baseline"])
        diff, low, high = row["diff"], row["ci_low"], row["ci_high"]
        pair = row.get("pairing") or {}
        paired = "paired" if (pair.get("gain") or 1.0) >= 1.1 else "same seeds, but the pairing gained nothing"
        kind = "assumption" if is_assumption else "comparison"
        assumed = "the figure rests on invented data or an assumed reading; check it against the real game"
        if row["metric"] == "seat_gap":
            before, after = row["baseline_mean"], row["cell_mean"]
            if diff < 0 and _every_seat_fair(cell):
                effect = f"evens the seats: the largest seat gap falls from {_points(before)} to {_points(after)} points"
                advice = "consider it for the standard rules"
            elif diff < 0:
                effect = (f"narrows the largest seat gap from {_points(before)} to {_points(after)} points, but "
                          f"{_seats_text(cell)}")
                advice = "combine it with a compensation for that seat and sweep both"
            else:
                effect = f"widens the largest seat gap from {_points(before)} to {_points(after)} points"
                advice = "it unbalances the seats: pair it with a compensation"
            text = (f"**{name}** against **{against}** {effect} ({paired}, {_points(diff)} points, "
                    f"{_span(low, high)}).")
            # ranked by how far it brings the seats towards fair: an evening variant outranks an overshooting one
            size = abs(diff)
        elif row["metric"] == "seat0_win":
            fair = 1.0 / cell["players"]
            before, after = row["baseline_mean"] - fair, row["cell_mean"] - fair
            if abs(after) < abs(before) and _every_seat_fair(cell):
                effect = f"evens the seats: seat 0's {_points(before)}-point edge against fair falls to {_points(after)}"
                advice = "consider it for the standard rules"
            else:
                effect = f"moves seat 0 from {_points(before)} to {_points(after)} points against fair"
                if not _every_seat_fair(cell):
                    effect += f"; {_seats_text(cell)}"
                advice = ("it unbalances the seats: pair it with a compensation" if abs(after) > abs(before)
                          else "weigh the change in seat balance against what the variant is for")
            text = (f"**{name}** against **{against}** {effect} ({paired}, {_points(diff)} points, "
                    f"{_span(low, high)}).")
            size = abs(diff)
        elif row["metric"] == "incomplete":
            text = (f"**{name}** against **{against}** changes the share of round-capped games by {_points(diff)} "
                    f"points ({paired}, {_span(low, high)}).")
            advice = "check that every game still ends by the rules"
            size = abs(diff)
        else:
            relative = diff / row["baseline_mean"] if row["baseline_mean"] else 0.0
            text = (f"**{name}** against **{against}** {'lengthens' if diff > 0 else 'shortens'} games by "
                    f"{abs(diff):.1f} {row['metric']} ({100 * relative:+.0f}%; {paired}, 95% CI {low:+.1f} to "
                    f"{high:+.1f} {row['metric']}).")
            advice = "check the length against the box time the designer wants"
            size = abs(relative)
        out.append(Finding(size, row["p"], text, kind, row["cell"], ("comparison", row["baseline"], row["metric"]),
                           1 if diff > 0 else -1, game=cell["game"], advice=assumed if is_assumption else advice))
    return out


# ---------------------------------------------------------------------------------------
# Assumption parameters and robustness


def assumption_keys(games: set[str], info: dict[str, dict] | None = None) -> dict[str, dict[str, object]]:
    """Per game: its assumption parameters and their defaults: `components` (default
    "standard") and any rule parameter whose source is an assumption id, as summary.json's
    `games` (`info`) records them. A game it does not describe has only `components`."""
    keys = {}
    for game in games:
        params = ((info or {}).get(game) or {}).get("params", {})
        keys[game] = {COMPONENTS: "standard",
                      **{name: param["default"] for name, param in params.items() if param.get("assumption")}}
    return keys


def _changed(cell: dict, assumed: dict) -> int:
    """How many assumption parameters a cell sets away from their defaults."""
    return sum(str(cell["overrides"][k]) != str(default) for k, default in assumed.items() if k in cell["overrides"])


def assumption_groups(cells: list[dict], keys: dict[str, dict]) -> list[tuple[dict, list[dict]]]:
    """(base cell, other cells) for cells alike but for assumption parameters. The base is
    the cell that leaves the most assumptions at their defaults (then the first)."""
    groups: dict[tuple, list[dict]] = {}
    for cell in cells:
        assumed = keys.get(cell["game"], {COMPONENTS: "standard"})
        rest = tuple(sorted((k, str(v)) for k, v in cell["overrides"].items() if k not in assumed))
        groups.setdefault((cell["game"], cell["players"], cell.get("lineup"), cell["variant"], rest), []).append(cell)
    out = []
    for group in groups.values():
        if len(group) < 2:
            continue
        assumed = keys.get(group[0]["game"], {COMPONENTS: "standard"})

        base = min(group, key=lambda cell, assumed=assumed: _changed(cell, assumed))
        out.append((base, [c for c in group if c is not base]))
    return out


def _remeasure(finding: Finding, cell: dict, baselines: dict[str, str | None]
               ) -> tuple[float, float, float, float] | None:
    if finding.key[0] == "seat":
        return seat_figure(cell, finding.key[1])
    if finding.key[0] in ("strategy",) or finding.kind == "category":
        return group_figure(cell, finding.key[0], finding.key[1], baselines.get(cell["game"]))
    return None


def _assumed_values(cell: dict, assumed: dict) -> tuple:
    return tuple(sorted((k, str(cell["overrides"].get(k, default))) for k, default in assumed.items()))


def _note(finding: Finding, verdicts: list[tuple[dict, str]], labels: dict[str, str]) -> None:
    named = {found: [labels[o["cell"]] for o, v in verdicts if v == found]
             for found in ("reverses", "vanishes", "weaker", "undetermined")}
    for found in ("reverses", "vanishes", "weaker"):
        if named[found]:
            finding.robustness = f"*Depends on an assumption: it {found if found != 'weaker' else 'is weaker'} under " \
                                 f"{'; '.join(named[found])}.*"
            return
    if named["undetermined"]:
        finding.robustness = f"*Across assumption sets: undetermined under {'; '.join(named['undetermined'])}.*"
    else:
        finding.robustness = f"*Robust: holds under all {len(verdicts) + 1} assumption sets.*"


def _verdict(finding: Finding, base: tuple[float, float, float], again: tuple[float, float, float],
             change: dict | None, games: int, sets: int) -> str:
    """The label of a finding measured again under another assumption set of the same sweep:
    the robustness phase's tests (simkit.analysis.robustness), at one look, over the `sets`
    other sets, on the paired change where the summary compared the two cells game by game."""
    from simkit.analysis.robustness import ALPHA, DELTA, from_intervals, tail

    paired = (change["diff"], change["ci_low"], change["ci_high"]) if change and change.get("diff") is not None \
        else None
    delta = 0.5 if finding.kind == "comparison" and finding.key[-1] == "rounds" else \
        DELTA.get(finding.kind, DELTA["seat"])  # half a round for a game length, else the rate kinds'
    return from_intervals(base, again, paired, delta, tail(ALPHA, 1, sets), games)[0]


def robustness(findings: list[Finding], cells: list[dict], labels: dict[str, str],
               keys: dict[str, dict], comparisons: list[dict] | None = None,
               baselines: dict[str, str | None] | None = None) -> list[dict]:
    """Re-measure every finding of an assumption group's base cell in the group's other
    cells; set each finding's `robustness` note and return one row per (finding, set).

    Seat, category and strategy findings are measured again in the other cell; a seat-0
    finding also carries the paired change (other set − base, same seeds) from the
    summary's comparisons. A variant comparison found on the base sets is looked up again
    between the same two rule sets under each other assumption set (the summary compares
    variants within each component set), so "the variant evens the seats" is checked
    under every set too.
    """
    comparisons = comparisons or []
    paired = {(row["baseline"], row["cell"]): row for row in comparisons if row["metric"] == "seat0_win"}
    by_pair = {(row["cell"], row["baseline"], row["metric"]): row for row in comparisons}
    groups = assumption_groups(cells, keys)
    group_of = {member["cell"]: (base, [base, *others]) for base, others in groups for member in [base, *others]}
    rows = []
    for base, others in groups:
        assumed = keys.get(base["game"], {COMPONENTS: "standard"})
        for finding in (f for f in findings if f.cell == base["cell"]):
            verdicts = []
            if finding.kind in ("seat", "category", "strategy"):
                for other in others:
                    figure = _remeasure(finding, other, baselines or {})
                    if figure is None:
                        continue
                    vs, low, high, _ = figure
                    change = paired.get((base["cell"], other["cell"])) if finding.key == ("seat", 0) else None
                    original = _remeasure(finding, base, baselines or {})
                    verdict = _verdict(finding, original[:3], (vs, low, high), change, other["games"], len(others)) \
                        if original is not None else "undetermined"
                    verdicts.append((other, verdict))
                    rows.append({"finding": finding, "base": base, "other": other, "value": vs, "low": low,
                                 "high": high, "verdict": verdict, "paired": change,
                                 "base_value": finding.direction * finding.size})
            elif finding.kind == "comparison" and finding.key[1] in group_of:
                metric = finding.key[2]
                baseline_group = group_of[finding.key[1]][1]
                found = by_pair.get((base["cell"], finding.key[1], metric), {})
                for other in others:
                    values = _assumed_values(other, assumed)
                    twin = next((c for c in baseline_group if _assumed_values(c, assumed) == values), None)
                    row = by_pair.get((other["cell"], twin["cell"], metric)) if twin else None
                    if row is None:
                        continue
                    verdict = _verdict(finding, (found.get("diff", 0.0), found.get("ci_low", 0.0),
                                                 found.get("ci_high", 0.0)), (row["diff"], row["ci_low"], row["ci_high"]),
                                       None, other["games"], len(others)) if found else "undetermined"
                    verdicts.append((other, verdict))
                    rows.append({"finding": finding, "base": base, "other": other, "value": row["diff"],
                                 "low": row["ci_low"], "high": row["ci_high"], "verdict": verdict, "paired": None,
                                 "metric": metric, "base_value": found.get("diff"),
                                 "against": finding.key[1]})
            if verdicts:
                _note(finding, verdicts, labels)
    return rows


# ---------------------------------------------------------------------------------------
# The headline


UNFINISHED_NAMED = 3  # unfinished cells named one by one per game; more are said in one sentence


@dataclass
class Headline:
    unfinished: list[Finding]  # cells mostly unfinished: said first
    findings: list[Finding]  # ranked, largest first
    candidates: int
    precision: str
    robustness: list[dict]
    games: list[str] = field(default_factory=list)  # the sweep's games, in order of first appearance
    tested: dict[tuple, Finding] = field(default_factory=dict)  # every figure tested, by `figure_key`

    def verdict(self, cell: str, kind: str, key: tuple) -> Finding | None:
        """The tested figure (its Holm p in `p_holm`, its verdict in `clear`: the report's one rule,
        `simkit.analysis.seats.clear_of_noise`), or None when it was not tested (no games, or a cell
        that mostly did not finish). Every section that marks a figure as clear reads it here."""
        return self.tested.get(figure_key(cell, kind, key))

    def clear(self, cell: str, kind: str, key: tuple) -> bool:
        """The figure is clear of the noise by the report's one rule (False when not tested)."""
        found = self.verdict(cell, kind, key)
        return bool(found and found.clear)

    def by_game(self, findings: list[Finding] | None = None) -> dict[str, list[Finding]]:
        """Findings per game (each game's ranked as `rank` ranks them), games in sweep order."""
        grouped: dict[str, list[Finding]] = {game: [] for game in self.games}
        for finding in self.findings if findings is None else findings:
            grouped.setdefault(finding.game or "", []).append(finding)
        return grouped

    def unfinished_sentences(self, labels: dict[str, str]) -> dict[str, list[str]]:
        """Per game, the unfinished cells: each named up to UNFINISHED_NAMED, the rest in one sentence."""
        out: dict[str, list[str]] = {}
        for game, found in self.by_game(self.unfinished).items():
            if len(found) <= UNFINISHED_NAMED:
                out[game] = [f.sentence() for f in found]
                continue
            worst = sorted(found, key=lambda f: -f.size)
            named = "; ".join(f"{labels.get(f.cell, f.cell)} {_pct(f.size)}" for f in worst[:UNFINISHED_NAMED])
            out[game] = [(f"**{game}: {len(found):,} cells mostly did not finish** (over half their games hit the "
                          f"round cap; the most capped: {named}; every cell's share is under End reasons), so their "
                          f"seat figures are not read as seat effects. Next: find what stalls these rule sets before "
                          f"reading anything else about them.")]
        return out


def headline_groups(top: Headline, labels: dict[str, str], dominant: list[tuple[str, str]], limit: int
                    ) -> list[tuple[str, list[str], list[str]]]:
    """The headline, capped and grouped for a sweep of any size: per game (sweep order), the
    sentences it shows (unfinished cells first, said in one sentence when there are many, then
    dominant strategies or dealt values, then the ranked findings), at most `limit` of them,
    and the rest, which the report lists under "More findings"."""
    unfinished = top.unfinished_sentences(labels)
    out = []
    for game, found in top.by_game().items():
        items = unfinished.get(game, []) + [text for owner, text in dominant if owner == game] + [
            f.sentence() for f in found]
        out.append((game, items[:limit], items[limit:]))
    return out


def headline(summary: dict, labels: dict[str, str]) -> Headline:
    cells = summary["cells"]
    info = summary.get("games") or {}
    by_name = {cell["cell"]: cell for cell in cells}
    keys = assumption_keys({cell["game"] for cell in cells}, info)
    baselines = {game: entry.get("baseline_strategy") for game, entry in info.items()}
    unfinished, candidates = [], []
    for cell in cells:
        if not cell["games"]:
            continue
        label = labels[cell["cell"]]
        if cell["incomplete_share"] > MOSTLY_UNFINISHED:
            unfinished.append(Finding(
                cell["incomplete_share"], 0.0,
                f"**{label}**: most games did not finish: {_pct(cell['incomplete_share'])} hit the round cap, "
                + (f"{no_decided_text(cell)}, so it has no seat figure." if no_decided_game(cell) else
                   "so its seat figures are not read as seat effects."), "unfinished", cell["cell"], game=cell["game"],
                advice="find what stalls the game (end condition, bots looping) before reading anything else about "
                       "this cell"))
            continue
        capped = _capped_candidate(cell, label)
        if capped:
            candidates.append(capped)
        candidates += _seat_candidates(cell, label)
        if len(cell.get("strategies", [])) > 1:
            candidates += _group_candidates(cell, label, "strategy", baselines.get(cell["game"]))
        for column in cell.get("categories", {}):
            candidates += _group_candidates(cell, label, column, None)
    candidates += _comparison_candidates(summary.get("comparisons", []), by_name, labels, keys)
    for finding, (adjusted, clear) in zip(candidates, clear_of_noise([f.p for f in candidates])):
        finding.p_holm, finding.clear = adjusted, clear
    findings = [f for f in candidates if f.clear]
    kept = _one_per_figure(findings)
    rows = robustness(kept, cells, labels, keys, summary.get("comparisons", []), baselines)
    labelled = {row["id"]: row for row in (summary.get("robustness") or {}).get("findings", [])}
    for finding in kept:
        row = labelled.get(finding_id(finding.cell or "", finding.kind, finding.key))
        if row is not None:
            finding.label = label_text(row)
            finding.verdict = row.get("label", "")
            finding.depends_on = list(row.get("depends_on") or [])
            # the hint names what gives the finding its label: a set under which it is only
            # weaker is no reason to say it reverses there
            finding.decisive = [m["by"] for m in row.get("remeasurements", [])
                                if m.get("label") == finding.verdict and m["by"] in finding.depends_on]
            finding.more_games = row.get("more_games")
    return Headline(unfinished, _fold_assumption_sets(kept, cells, labels, keys), len(candidates),
                    _precision(cells), rows, list(dict.fromkeys(cell["game"] for cell in cells)),
                    {figure_key(f.cell or "", f.kind, f.key): f for f in candidates})


def figure_key(cell: str, kind: str, key) -> tuple:
    """A tested figure's key in `Headline.tested`: a comparison of assumption sets is one of variants."""
    return cell, "comparison" if kind == "assumption" else kind, tuple(key)


def _figure_text(row: dict, value: float, low: float, high: float) -> str:
    if row["kind"] == "comparison" and row["key"][-1] == "rounds":
        return f"{value:+.1f} rounds ({low:+.1f} to {high:+.1f})"
    return f"{_points(value)} points ({_points(low)} to {_points(high)})"


def label_text(row: dict) -> str:
    """The robustness label said beside a finding (a row of summary.json's `robustness.findings`):
    holds, with where it was measured again; undetermined, with about how many more games would
    decide it; or the worst label and every re-measurement behind it, with its figure and its
    paired change (simkit.analysis.robustness)."""
    again = [r for r in row["remeasurements"] if r["label"] != "no effect"]
    same = [r["by"] for r in row["remeasurements"] if r["label"] == "no effect"]
    no_effect = f"; no effect at {row['players']} players: {', '.join(same)}" if same else ""
    if not row.get("label"):
        return "*Robustness: not labelled yet (the robustness phase has not finished).*"
    if not again:
        why = "; ".join(f"{r['by']}: {r['reason']}" for r in row.get("not_played", [])[:2])
        return f"*Robustness: not re-measured{' (' + why + ')' if why else ''}{no_effect}.*"
    delta = f"±{100 * row['delta']:.1f} points" if row.get("delta") is not None else "its tolerance"
    if row["label"] == "holds":
        return (f"*Robustness: **holds** at {', '.join(r['by'] for r in again)} (the change within {delta})"
                f"{no_effect}.*")
    if row["label"] == "undetermined":
        more = row.get("more_games")
        return (f"*Robustness: **undetermined** ({'about ' + format(more, ',') + ' more games' if more else 'many more games'}"
                f" would decide it): {'; '.join(_again_text(row, r) for r in again if r['label'] == 'undetermined')}"
                f"{no_effect}.*")
    worst = [f"{r['label']} at {_again_text(row, r)}" for r in again if r["label"] in ("weaker", "vanishes", "reverses")]
    return f"*Robustness: **{row['label']}** — {'; '.join(worst)}{no_effect}.*"


def _again_text(row: dict, again: dict) -> str:
    """One re-measurement: where, its figure, its paired change and its games."""
    if "figure" not in again:
        return f"{again['by']}: no decided game in {again['games']:,}"
    return (f"{again['by']}: {_figure_text(row, again['figure'], *again['interval'])}, change "
            f"{_figure_text(row, again['change'], *again['change_interval']).replace(' points', '')}, "
            f"{again['games']:,} games")


def _one_per_figure(findings: list[Finding]) -> list[Finding]:
    """Ranked, one sentence per group: a category's values or a line-up's strategies (the value
    furthest from the average), a cell's seats (at 2 players seat 1 mirrors seat 0), and a
    variant's seats (its seat gap and seat 0 say one thing: the gap, which judges every seat,
    speaks when it is a finding)."""
    seen, kept = set(), []
    for finding in sorted(rank(findings), key=lambda f: f.key[-1:] != ("seat_gap",)):
        if finding.kind in ("category", "strategy", "seat"):
            group = (finding.cell, finding.kind, finding.key[0])
        elif finding.kind in ("comparison", "assumption") and finding.key[2] in SEAT_FIGURES:
            group = (finding.cell, "seats", finding.key[1])
        else:
            group = id(finding)
        if group in seen:
            continue
        seen.add(group)
        kept.append(finding)
    return rank(kept)


def _fold_assumption_sets(findings: list[Finding], cells: list[dict], labels: dict[str, str],
                          keys: dict[str, dict]) -> list[Finding]:
    """A finding of an assumption group's base cell already speaks for the other sets (its
    note says whether it holds there): their copies of it are dropped. A finding seen only
    under another set stays, and says so."""
    on_base = {(f.cell, f.kind, f.key) for f in findings}
    out = []
    groups = assumption_groups(cells, keys)
    alternatives = {other["cell"]: base for base, others in groups for other in others}
    base_of = {member["cell"]: base["cell"] for base, others in groups for member in [base, *others]}
    for finding in findings:
        base = alternatives.get(finding.cell)
        if base is not None and finding.kind == "comparison":
            # the same variant comparison under another set: said once, on the base sets
            twin = ("comparison", base_of.get(finding.key[1], finding.key[1]), finding.key[2])
            if (base["cell"], "comparison", twin) in on_base:
                continue
        if base is not None and finding.kind in ("seat", "category", "strategy"):
            if (base["cell"], finding.kind, finding.key) in on_base:
                continue
            finding.robustness = f"*Only under this assumption set: not a finding under {labels[base['cell']]}.*"
        out.append(finding)
    return out


def _precision(cells: list[dict]) -> str:
    played = [cell for cell in cells if cell["games"]]
    if not played:
        return "No games were played."
    capped = [cell for cell in played if cell["precision"].get("seat0_half_width") is None]  # no decided game
    measured = [cell for cell in played if cell not in capped]
    if not measured:
        return (f"Precision reached: none: no decided game (all {sum(c['games'] for c in capped):,} capped), so "
                "no seat's win rate is measured; more games of these rules would decide nothing.")
    note = "" if not capped else (
        f" {len(capped):,} cell{'s' * (len(capped) != 1)} had no decided game (all "
        f"{sum(c['games'] for c in capped):,} capped) and measure{'s' * (len(capped) == 1)} no seat.")
    widths = [100 * cell["precision"]["seat0_half_width"] for cell in measured]
    games = sorted({cell["games"] for cell in measured})
    games_text = f"{games[0]:,}" if len(games) == 1 else f"{games[0]:,}–{games[-1]:,}"
    width_text = f"±{min(widths):.1f}" if round(min(widths), 1) == round(max(widths), 1) else \
        f"±{min(widths):.1f} to ±{max(widths):.1f}"
    return (f"Precision reached: {games_text} games per cell put each seat's win rate within {width_text} points "
            f"(95%); an effect is a finding only when it stands clear of its noise after a Holm correction over "
            f"every figure tested.{note}")


def plain(text: str) -> str:
    """A sentence without its markdown emphasis, for the terminal."""
    return text.replace("**", "").replace("*", "")


__all__ = ["CAPPED_FINDING", "SIGNIFICANCE", "Finding", "Headline", "capped_finding", "figure_key", "headline", "headline_groups",
           "next_hint", "plain", "rank"]


HEADLINE_ITEMS = 8  # headline items of a one-game sweep; the rest are listed under "More findings"
HEADLINE_PER_GAME = 3  # headline items per game of a sweep of several games


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


def dominant(cells: list[dict]) -> list[tuple[dict, str, tuple[str, str], dict]]:
    """(cell, finding kind, finding key, its matrix) per dominant strategy or dealt value: the
    kind and key of the win-rate finding about the same strategy or value in the same cell
    (this module), whose robustness label the headline item carries."""
    out = []
    for cell in cells:
        h2h = cell.get("head_to_head") or {}
        if h2h.get("dominant"):
            out.append((cell, "strategy", ("strategy", h2h["dominant"]), h2h))
        for column, matchup in (cell.get("matchups") or {}).items():
            if matchup.get("dominant"):
                out.append((cell, "category", (column, matchup["dominant"]), matchup))
    return out
