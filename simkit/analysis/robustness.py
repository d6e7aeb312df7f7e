"""Robustness labels (docs/statistics.md, "Robustness labels"): is a finding about the game, or
about our bots or our invented components?

A finding's figure is one number with a 95% interval from one cell: a seat's share of decided
games against fair, a dealt value or a strategy against its cell's average, the capped share.
simkit.sweeps.robustness plays the finding's cell again with the line-up replaced by a skilled tier
and under every shipped alternative component set, on the same seeds, so game i of the
re-measurement and game i of the original pair. This module is pure: per-game sums in, figures,
paired changes, labels and game counts out.

Per re-measurement, from the paired games (n of them, the original's figure A and the
re-measured B, both ratios of per-game sums linearised by the delta method; `side` the sign of
the original figure; the change toward zero c = side·(A − B), with its paired standard error;
δ the tolerance of the figure's kind; each bound one-sided at level α / (K·M), K the looks the
re-measurement may take and M the finding's re-measurements, so that over every look and
every re-measurement of a finding the chance of any false label is at most α by the union
bound):

- **reverses**: side·B's upper bound is below zero (B is clear of zero on the other side);
- **holds**: side·B's lower bound is above zero and c's upper bound is below δ (clear of zero
  on its side, and the change toward zero shown smaller than the tolerance);
- **vanishes**: B's bounds both lie within ±δ (two one-sided tests: B equivalent to zero);
- **weaker**: side·B's lower bound is above zero and c's lower bound is above δ/2 (clear of
  zero on its side, and the change toward zero shown larger than half the tolerance);
- **undetermined** when none is shown yet: the re-measurement plays on, look after look,
  until one is or its games are spent; then the label says about how many more games the
  nearest decision needs at the estimates so far.

holds and weaker overlap on purpose: a change between δ/2 and δ may be shown either way, and
both statements are true of it. Were weaker to need a change shown above δ, a change near δ
could be shown neither below nor above it in any number of games; with the overlap every
change is decided within a bounded number (WEAKER_FROM).

The tests are tried in that order at each look, and the first shown is the label. A
re-measurement whose games are identical to the original's (the set changes nothing the
cell plays) is **no effect** and is no label. A finding's label: the worst decided non-holds
label of its re-measurements (reverses, vanishes, weaker, in that order), naming which tier or
set it depends on; else undetermined if any is; else holds (about the game: every planned
re-measurement was played and holds).
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from simkit.analysis.intervals import cross_sums, linear_interval, one_sided_z, ratio

FOLDER = "robustness"  # the re-measurement looks, inside the sweep folder (simkit.sweeps.robustness plays them)
SELECTION = "robustness.json"  # what was picked, its schedule and the labels, beside it
HOLDS, WEAKER, VANISHES, REVERSES = "holds", "weaker", "vanishes", "reverses"
UNDETERMINED, NO_EFFECT, NOT_MEASURED = "undetermined", "no effect", "not re-measured"
LABELS = (HOLDS, WEAKER, VANISHES, REVERSES)  # the decided labels, best to worst
ALPHA = 0.05  # a finding's chance of any false label, over its looks and re-measurements
# δ per figure kind, in the figure's own units (rate units: 0.02 is 2 points): a change smaller
# than δ is no change, a figure within ±δ of zero is no effect
DELTA = {"seat": 0.02, "category": 0.02, "strategy": 0.02, "capped": 0.005}
KINDS = tuple(DELTA)
WEAKER_FROM = 0.5  # weaker: the change toward zero shown larger than this share of δ (module doc)
WIN_UNITS = 2520  # a seat's win in integer units (simkit.analysis.tables.WIN_UNITS): sums stay exact


def finding_id(cell: str, kind: str, key) -> str:
    """A finding's id in summary.json's `robustness`: its cell, kind and key."""
    return "/".join([cell, kind, *map(str, key)])


# ---------------------------------------------------------------------------------------
# Per-game columns of a finding's figure, for the original (a) and the re-measurement (b)
#
# seat s: x = seat s's win (units), d = WIN_UNITS when the game was decided;
# a dealt value or strategy: x = the wins of its seats, d = WIN_UNITS per decided seat of it,
#   g and h the same over every seat of the group (the cell's average it is measured against);
# capped: x = 1 when the round cap stopped the game, d = 1.

COLUMNS = {"seat": ("x", "d"), "category": ("x", "d", "g", "h"), "strategy": ("x", "d", "g", "h"),
           "capped": ("x", "d")}


def pair_sums(kind: str, original: Mapping, again: Mapping) -> dict[str, float]:
    """The sums and cross sums of a finding's per-game columns over paired games: `original`
    and `again` map each column of COLUMNS[kind] to a per-game array, game i in both the same
    seed. Integer-valued, so the sums are exact and add across looks."""
    columns = {f"{c}_a": original[c] for c in COLUMNS[kind]} | {f"{c}_b": again[c] for c in COLUMNS[kind]}
    return {"n": float(len(original[COLUMNS[kind][0]])), **cross_sums(columns)}


def add_sums(a: Mapping[str, float] | None, b: Mapping[str, float]) -> dict[str, float]:
    """Two looks' sums as one."""
    return dict(b) if a is None else {key: a[key] + b[key] for key in a}


def _minus(a: Mapping[str, float], b: Mapping[str, float]) -> dict[str, float]:
    """The per-game coefficients of one linearised figure minus another's."""
    out = dict(a)
    for column, c in b.items():
        out[column] = out.get(column, 0.0) - c
    return out


def _linear(kind: str, side: str, sums: Mapping[str, float], fair: float) -> tuple[float, dict] | None:
    """The figure of one side ("a" or "b") and its per-game linearisation (intervals.ratio)."""
    n = int(sums["n"])
    own = ratio(n, sums, {f"x_{side}": 1.0}, f"d_{side}", shift=fair if kind == "seat" else 0.0)
    if own is None or kind in ("seat", "capped"):
        return own
    average = ratio(n, sums, {f"g_{side}": 1.0}, f"h_{side}")
    return None if average is None else (own[0] - average[0], _minus(own[1], average[1]))


def _se(sums: Mapping[str, float], coefficients: Mapping[str, float]) -> float:
    """The standard error of a linearised figure (intervals.linear_interval); infinite below 2 games."""
    se = linear_interval(int(sums["n"]), sums, coefficients, 0.0)["se"]
    return math.inf if se is None else se


def measure(kind: str, sums: Mapping[str, float], fair: float = 0.0) -> dict | None:
    """The original's figure, the re-measured figure and the paired change (b − a), each with
    its standard error, over the paired games of `sums` (pair_sums); None when either side has
    no decided game. `fair`: 1/players for a seat figure."""
    a, b = _linear(kind, "a", sums, fair), _linear(kind, "b", sums, fair)
    if a is None or b is None:
        return None
    return {"games": int(sums["n"]), "original": a[0], "original_se": _se(sums, a[1]),
            "figure": b[0], "se": _se(sums, b[1]), "change": b[0] - a[0], "change_se": _se(sums, _minus(b[1], a[1]))}


def tail(alpha: float, looks: int, remeasurements: int) -> float:
    """Each one-sided bound's level: α spread over K looks and M re-measurements (Bonferroni)."""
    return alpha / (max(looks, 1) * max(remeasurements, 1))


def _conditions(side: float, figure: float, se: float, change: float, change_se: float, delta: float,
                z: float) -> dict[str, list[tuple[float, float]]]:
    """Per label, the one-sided conditions it needs, each (margin, standard error): shown when
    margin − z·se > 0. `change` is the paired change b − a."""
    b, toward = side * figure, -side * change  # the figure on its side, the change toward zero
    return {REVERSES: [(-b, se)], HOLDS: [(b, se), (delta - toward, change_se)],
            VANISHES: [(delta - figure, se), (delta + figure, se)],
            WEAKER: [(b, se), (toward - WEAKER_FROM * delta, change_se)]}


ORDER = (REVERSES, HOLDS, VANISHES, WEAKER)  # tried in this order: the first shown is the label


def decide(side: float, measured: dict, delta: float, z: float) -> str | None:
    """The label shown at this look (module docstring), or None while none is."""
    conditions = _conditions(side, measured["figure"], measured["se"], measured["change"], measured["change_se"],
                             delta, z)
    for found in ORDER:
        if all(margin - z * se > 0 for margin, se in conditions[found]):
            return found
    return None


def more_games(side: float, measured: dict, delta: float, z: float) -> int | None:
    """About how many more paired games the nearest label needs, at the estimates so far
    (standard errors shrinking as 1/√n): for each label whose margins are all on its side, the
    games at which every margin clears z standard errors; the fewest. None when no label is in
    reach at these estimates (a margin exactly on its bound)."""
    n = measured["games"]
    best = None
    for margins in _conditions(side, measured["figure"], measured["se"], measured["change"], measured["change_se"],
                               delta, z).values():
        if any(margin <= 0 or not math.isfinite(se) for margin, se in margins):
            continue
        needed = max(n * (z * se / margin) ** 2 for margin, se in margins)
        best = needed if best is None else min(best, needed)
    if best is None:
        return None
    return max(0, _round_up(math.ceil(best) - n))


def from_intervals(original: tuple[float, float, float], again: tuple[float, float, float],
                   change: tuple[float, float, float] | None, delta: float, tail_level: float,
                   games: int) -> tuple[str, int | None]:
    """(label, more games or None) of a re-measurement known only by 95% intervals (value, low,
    high): the original figure, the re-measured one (over `games` games) and, where the games
    were compared one by one, the paired change (else the unpaired one, whose variance adds the
    two). The same tests as `decide`, on standard errors read back from the intervals."""
    from simkit.analysis.intervals import Z95

    def se(interval: tuple[float, float, float]) -> float:
        return max(interval[2] - interval[1], 0.0) / (2 * Z95)

    if change is None:
        change = (again[0] - original[0], 0.0, 2 * Z95 * (se(original) ** 2 + se(again) ** 2) ** 0.5)
    measured = {"games": games, "figure": again[0], "se": se(again), "change": change[0], "change_se": se(change)}
    side = 1.0 if original[0] > 0 else -1.0
    z = one_sided_z(tail_level)
    found = decide(side, measured, delta, z)
    if found is not None:
        return found, None
    more = more_games(side, measured, delta, z)
    return UNDETERMINED, more


def is_assumption(by: str) -> bool:
    """A re-measurement's `by` names an assumption (`components=<set>` or `<param>=<reading>`),
    else a skill tier (a preset's name)."""
    return "=" in by


def _round_up(games: int) -> int:
    """A game count to two significant figures, upwards (an estimate, not a promise)."""
    if games < 100:
        return games
    step = 10 ** (len(str(games)) - 2)
    return -(-games // step) * step


def overall(labels: Mapping[str, str]) -> tuple[str, list[str]]:
    """(the finding's label, the re-measurements it depends on) from {by: label} (module
    docstring); "no effect" re-measurements are left out, and a finding with none else is not
    re-measured."""
    measured = {by: found for by, found in labels.items() if found != NO_EFFECT}
    decided = {by: found for by, found in measured.items() if found in LABELS and found != HOLDS}
    if decided:
        worst = max(decided.values(), key=LABELS.index)
        return worst, [by for by in measured if by in decided]
    undetermined = [by for by, found in measured.items() if found == UNDETERMINED]
    if undetermined:
        return UNDETERMINED, undetermined
    if not measured:
        return NOT_MEASURED, []
    return HOLDS, []


def counts(findings: list[dict]) -> dict[str, int]:
    """Findings per label, in the order said: every finding is counted once."""
    order = (HOLDS, WEAKER, VANISHES, REVERSES, UNDETERMINED, NOT_MEASURED)
    out = {found: 0 for found in order}
    for finding in findings:
        out[finding["label"] if finding["label"] in out else NOT_MEASURED] += 1
    return {found: n for found, n in out.items() if n}


def opening(findings: list[dict]) -> str:
    """The headline's first sentence: the findings re-measured, counted by label (the counts add
    up to the findings), and what the labels other than holds depend on."""
    if not findings:
        return ""
    verbs = {HOLDS: ("holds", "hold"), WEAKER: ("is weaker", "are weaker"), VANISHES: ("vanishes", "vanish"),
             REVERSES: ("reverses", "reverse"), UNDETERMINED: ("is undetermined", "are undetermined"),
             NOT_MEASURED: ("was not re-measured", "were not re-measured")}
    parts = [f"{n} {verbs[found][n != 1]}" + (" (about the game)" if found == HOLDS else "")
             for found, n in counts(findings).items()]
    depends = sorted({by for f in findings if f["label"] in (WEAKER, VANISHES, REVERSES) for by in f["depends_on"]})
    text = f"Robustness of {len(findings)} finding{'s' * (len(findings) != 1)}: {', '.join(parts)}."
    if depends:
        text += f" Those weaker, vanishing or reversing depend on {', '.join(depends)}."
    return text


__all__ = [
    "ALPHA",
    "COLUMNS",
    "DELTA",
    "FOLDER",
    "HOLDS",
    "LABELS",
    "NOT_MEASURED",
    "NO_EFFECT",
    "REVERSES",
    "SELECTION",
    "UNDETERMINED",
    "VANISHES",
    "WEAKER",
    "add_sums",
    "counts",
    "decide",
    "finding_id",
    "from_intervals",
    "is_assumption",
    "measure",
    "more_games",
    "opening",
    "overall",
    "pair_sums",
    "tail",
]
