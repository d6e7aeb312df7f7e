"""Robustness labels (docs/results.md): is a finding about the game, or about our bots or our
invented components?

A finding's figure is one number with a 95% interval from one cell (a seat's share of decided
games against fair, a dealt value or a strategy against its cell's average, the capped share,
a variant comparison's paired difference). simkit.robustness plays each finding's cell again
with the line-up replaced by a skilled tier (`tuned`, `lookahead`) and under every shipped
alternative component set, on the same seeds; this module labels each re-measurement against
the original figure and sizes the samples. It is pure: figures in, labels and game counts out.

Labels (the original figure is clear of zero, on side s):

- **reverses**: the re-measured interval is clear of zero on the other side;
- **vanishes**: the re-measured interval covers zero;
- **weaker**: same side and clear of zero, but the re-measured estimate lies below the
  original interval's near end (a smaller effect, decided);
- **holds**: same side, clear of zero, and not weaker.

A finding's overall label is holds only if it holds under every re-measurement; otherwise
the worst of them (weaker < vanishes < reverses), naming which tier or set (`depends_on`).

Sample size: the games that tell a figure's sign at 95%, n such that the original effect is
twice its standard error, n = (2 · 1.96)² p(1 − p) / d² (p the rate, d the effect), rounded up,
at least FLOOR; `allocate` fits every re-measurement into a budget of seconds.
"""

from __future__ import annotations

import math

from simkit.analysis.seats import capped_figure, group_figure, seat_figure

FOLDER = "robustness"  # the re-measurement sweep, inside the sweep folder (simkit.robustness plays it)
SELECTION = "robustness.json"  # what was picked and how it was sampled, beside it
HOLDS, WEAKER, VANISHES, REVERSES = "holds", "weaker", "vanishes", "reverses"
LABELS = (HOLDS, WEAKER, VANISHES, REVERSES)  # best to worst
Z = 1.96  # 95%, two-sided: the interval every figure carries
FLOOR = 200  # fewest games a re-measurement plays


def finding_id(cell: str, kind: str, key) -> str:
    """A finding's id in summary.json's `robustness`: its cell, kind and key."""
    return "/".join([cell, kind, *map(str, key)])


def label(value: float, low: float, high: float, again: tuple[float, float, float]) -> str:
    """The label of one re-measurement `again` (value, low, high) of a figure `value` with
    interval (low, high) that is clear of zero (module docstring)."""
    side = 1.0 if value > 0 else -1.0
    v, lo, hi = (side * x for x in again)
    lo, hi = min(lo, hi), max(lo, hi)
    near = min(side * low, side * high)  # the original interval's end nearer zero, on the positive side
    if hi < 0:
        return REVERSES
    if lo <= 0:
        return VANISHES
    if v < near:
        return WEAKER
    return HOLDS


def overall(labels: dict[str, str]) -> tuple[str, list[str]]:
    """(the finding's label, the re-measurements it depends on) from {by: label}: holds only if
    every re-measurement holds, else the worst, and every `by` that did not hold."""
    if not labels:
        return "not re-measured", []
    worst = max(labels.values(), key=LABELS.index)
    return worst, [by for by, found in labels.items() if found != HOLDS]


def sign_games(rate: float, effect: float, per_game: float = 1.0, floor: int = FLOOR) -> int:
    """Games that tell the sign of an effect `effect` on a rate `rate` at 95%: n trials with
    2·1.96·√(p(1−p)/n) = |d|, divided by the trials a game gives (`per_game`: the decided share
    for a seat figure, decided seats per game for a dealt value or strategy), at least `floor`."""
    if not effect or per_game <= 0:
        return floor
    p = min(max(rate, 1e-6), 1 - 1e-6)
    trials = (2 * Z) ** 2 * p * (1 - p) / (effect * effect)
    return max(floor, math.ceil(trials / per_game))


def allocate(requests: list[dict], budget: float, floor: int = FLOOR) -> tuple[list[int], str]:
    """Games for each re-measurement cell within `budget` seconds of one core (0: not played),
    and how it sampled.

    Each request: `games` (the original cell's), `needed` (sign_games of its findings),
    `rate` (games/s), `slow` (the lookahead tier), `group` (0: one of the TOP largest findings,
    1: another headline finding, 2: another figure the gate reads), `priority` (lower first: by
    rank). In order, the first that fits:

    1. the fast tiers and component sets at the original games, the lookahead at the games that
       tell each figure's sign at 95% (never more than the original);
    2. every re-measurement at the games that tell its figure's sign;
    3. the re-measurements in order of importance while the budget lasts, each at its
       sign-telling games or what is left of the budget, never below `floor` games (a cell the
       budget cannot give that is not played): first, in rank order, each headline finding's
       cheapest re-measurement (`serves`: {finding id: rank} of the headline findings a cell
       measures again), so that every headline finding the budget can pay for gets a label;
       then, in rank order, each finding's cheapest re-measurement of the other `dimension`
       ("skill" or "components"), from at most half of what is left, so that a label says
       something about both where it can without starving the cheap sets; then the headline's
       other re-measurements (groups 0 and 1) before the gate's other
       figures, and within them the cheapest first, so that the budget labels as many
       re-measurements as it can (a lookahead of a small effect costs most).
    """
    def cost(games: list[int]) -> float:
        return sum(n / max(r["rate"], 1e-9) for n, r in zip(games, requests))

    sign = [min(r["games"], max(floor, r["needed"])) for r in requests]
    games = [n if r["slow"] else r["games"] for n, r in zip(sign, requests)]
    if cost(games) <= budget:
        return games, ("the fast tiers and component sets at the original games, the lookahead at the games that "
                       "tell each figure's sign at 95%")
    if cost(sign) <= budget:
        return sign, "every re-measurement at the games that tell its figure's sign at 95%"
    games = [0] * len(requests)
    left = budget
    def importance(i: int) -> tuple:
        r = requests[i]
        return r.get("group", 0) >= 2, sign[i] / max(r["rate"], 1e-9), r.get("priority", 0)

    def give(i: int, allowance: float = math.inf) -> None:
        nonlocal left
        n = min(sign[i], int(min(left, allowance) * requests[i]["rate"]))
        if n >= min(floor, sign[i]) and n > 0:
            games[i] = n
            left -= n / requests[i]["rate"]

    served: dict[str, list[int]] = {}  # headline finding -> the cells that measure it again
    ranks: dict[str, int] = {}
    for i, r in enumerate(requests):
        for finding, rank in r.get("serves", {}).items():
            served.setdefault(finding, []).append(i)
            ranks[finding] = rank
    order = sorted(served, key=lambda f: (ranks[f], f))
    for finding in order:  # a label for each: its cheapest re-measurement
        if not any(games[i] for i in served[finding]):
            give(min(served[finding], key=importance))
    reserve = left / 2  # half of what is left after one each is for the other dimension
    for finding in order:  # each finding's cheapest of the other dimension (skill, components), in rank order
        measured = {requests[i].get("dimension") for i in served[finding] if games[i]}
        other = [i for i in served[finding] if not games[i] and requests[i].get("dimension") not in measured]
        if measured and other and left > reserve:
            give(min(other, key=importance), allowance=left - reserve)
    for i in sorted(range(len(requests)), key=importance):
        if not games[i]:
            give(i)
    short = sum(0 < n < s_ for n, s_ in zip(games, sign))
    dropped = games.count(0)
    return games, ("the budget did not allow every re-measurement the games that tell its figure's sign at 95%: "
                   "they were given those games while the budget lasted: first each headline finding's cheapest "
                   "(so that every one the budget can pay for is labelled), then each one's cheapest of the other "
                   "dimension (skill or components) from half of what was left, then the rest, the headline's "
                   "findings before the other figures the gate reads, the cheapest first"
                   + (f"; {short} got fewer (at least {floor}), where 'vanishes' may mean too few games"
                      if short else "")
                   + (f"; {dropped} were not played" if dropped else ""))


def figure(finding: dict, cell: dict | None, comparisons: dict | None = None) -> tuple[float, float, float] | None:
    """(value, low, high) of `finding` measured again in the summary cell `cell` (the same
    definitions as the headline's; simkit.analysis.seats), or None when the cell lacks it. A
    comparison's is the row of `comparisons` {(cell, baseline, metric): row}, looked up by the
    re-measured pair of cells (finding's `against` must be the pair's baseline)."""
    kind, key = finding["kind"], finding["key"]
    if kind == "comparison":
        row = (comparisons or {}).get((finding["again_cell"], finding["again_baseline"], key[2]))
        return None if row is None else (row["diff"], row["ci_low"], row["ci_high"])
    if cell is None or not cell.get("games"):
        return None
    if kind == "seat":
        return seat_figure(cell, int(key[1]))[:3]
    if kind == "capped":
        return capped_figure(cell)
    found = group_figure(cell, key[0], key[1], finding.get("baseline"))
    return None if found is None else found[:3]


def build(selection: dict, again: dict, manifest: dict | None = None, main: dict | None = None) -> dict:
    """summary.json's `robustness`: the selection (simkit.robustness writes it: findings with
    their original figures, the re-measurement cells, the settings and how it sampled) with
    every re-measurement's figure and label, read from the robustness sweep's summary `again`
    (and its manifest's timing, beside the main phase's from its manifest `main`)."""
    cells = {cell["cell"]: cell for cell in again.get("cells", [])}
    comparisons = {(row["cell"], row["baseline"], row["metric"]): row for row in again.get("comparisons", [])}
    skipped = {item["cell"]: item["reason"] for item in selection.get("skipped", [])}
    findings = []
    for finding in selection["findings"]:
        value, (low, high) = finding["figure"], finding["interval"]
        rows, labels = [], {}
        for by in finding["by"]:
            cell_id = f"{finding['cell']}~{by}"
            measured = figure({**finding, "again_cell": cell_id,
                               "again_baseline": f"{finding.get('against')}~{by}"}, cells.get(cell_id), comparisons)
            if measured is None:
                continue
            found = label(value, low, high, measured)
            labels[by] = found
            games = cells[cell_id]["games"] if cell_id in cells else None
            rows.append({"by": by, "cell": cell_id, "figure": measured[0], "interval": [measured[1], measured[2]],
                         "games": games, "games_needed": finding.get("games_needed"), "label": found})
        verdict, depends = overall(labels)
        unplayed = [{"by": by, "cell": f"{finding['cell']}~{by}", "reason": skipped[f"{finding['cell']}~{by}"]}
                    for by in finding["by"] if f"{finding['cell']}~{by}" in skipped]
        findings.append({k: v for k, v in finding.items() if k != "by"} | {
            "remeasurements": rows, "not_played": unplayed, "label": verdict, "depends_on": depends})
    sampling = dict(selection.get("sampling", {}))
    if manifest:
        sampling.update(play_seconds=manifest.get("play_seconds"), wall_seconds=manifest.get("wall_seconds"),
                        games=manifest.get("games"),
                        worker_seconds=round(sum(t["seconds"] for t in (manifest.get("cell_timing") or {}).values()),
                                             3))
    if main:
        sampling.update(main_play_seconds=main.get("play_seconds"))
    return {k: v for k, v in selection.items() if k not in ("findings", "sweep")} | {
        "sampling": sampling, "findings": findings}


def opening(findings: list[dict]) -> str:
    """The headline's first sentence: how many findings hold everywhere, and which depend on skill
    or on a named component set."""
    measured = [f for f in findings if f["label"] in LABELS]
    if not measured:
        return ""
    held = sum(f["label"] == HOLDS for f in measured)
    skill = sorted({by for f in measured for by in f["depends_on"] if not by.startswith("components=")})
    sets = sorted({by.split("=", 1)[1] for f in measured for by in f["depends_on"] if by.startswith("components=")})
    on_skill = sum(any(not by.startswith("components=") for by in f["depends_on"]) for f in measured)
    on_sets = sum(any(by.startswith("components=") for by in f["depends_on"]) for f in measured)
    text = (f"Robustness: {held} of {len(measured)} findings re-measured are about the game (they hold at the skilled "
            f"tiers and under the shipped component sets they were measured again at)")
    parts = []
    if on_skill:
        parts.append(f"{on_skill} depend{'s' * (on_skill == 1)} on skill ({', '.join(skill)})")
    if on_sets:
        parts.append(f"{on_sets} on a named assumption (component set{'s' * (len(sets) != 1)} {', '.join(sets)})")
    partial = sum(bool(f.get("not_played")) for f in measured)
    return text + ("; " + " and ".join(parts) if parts else "") + "." + (
        f" {partial} of the {len(measured)} were measured again at only some of their tiers and sets (the budget; "
        f"the Robustness section lists the rest)." if partial else "")


__all__ = [
    "FLOOR",
    "FOLDER",
    "HOLDS",
    "LABELS",
    "REVERSES",
    "SELECTION",
    "VANISHES",
    "WEAKER",
    "allocate",
    "build",
    "figure",
    "label",
    "opening",
    "overall",
    "sign_games",
]
