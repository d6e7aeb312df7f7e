"""Sweep one rule of a game and print the first player's edge at each of its values, with its
95% interval, and plot it.

    .venv/bin/python examples/seat_edge_by_rule.py
    .venv/bin/python examples/seat_edge_by_rule.py --set 'start_compasses=[0,1,2,3]' --games 4000

The rule is given as `simkit sweep --set` takes it: a list after `=` sweeps each value. Every
value plays the same seeds (the same deals and dice, game for game), so the values differ only
by the rule. The plot is written into the sweep's folder as seat0_edge.png.
"""

from __future__ import annotations

import argparse

import matplotlib

matplotlib.use("Agg")  # write a PNG file; no window is opened
import matplotlib.pyplot as plt

import simkit


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="sea_of_plunder")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--set", default="hand_size=[3,4,5,6,7]", help="the rule and its values, as --set takes it")
    parser.add_argument("--games", type=int, default=2000, help="games per value")
    parser.add_argument("--out", help="the sweep's folder (default reports/<game>-<time>/)")
    args = parser.parse_args()

    # One cell per value of the rule. jobs=1 plays on one core; report=False skips report.md/.html
    # (the tables and summary.json are written all the same).
    results = simkit.sweep(game=args.game, players=args.players, set=[args.set], games=args.games,
                           jobs=1, quiet=True, report=False, out=args.out)

    labels, edges, lows, highs = [], [], [], []
    print(f"{args.game}, {args.players} players, {args.games:,} games per value: seat 0 against a fair "
          f"{1 / args.players:.1%}, in points")
    print(f"{'rule':<30} {'edge':>7}   95% CI")
    for cell in results.summary["cells"]:
        # overrides: the rule values this cell plays, e.g. {"hand_size": 4}
        label = ", ".join(f"{key}={value}" for key, value in cell["overrides"].items()) or "defaults"
        # seat 0's share of the decided games minus 1/players (a game stopped by the round cap
        # is nobody's win), with its 95% (Wilson) interval: the report's seat figure
        edge = cell["first_player_advantage_decided"]
        value, low, high = (100 * edge[k] for k in ("value", "ci_low", "ci_high"))
        # clear of zero: the whole interval is on one side of 0; otherwise the games cannot tell
        verdict = "clear of zero" if low > 0 or high < 0 else "not determined"
        print(f"{label:<30} {value:+7.1f}   {low:+.1f} to {high:+.1f}  {verdict}")
        labels.append(label)
        edges.append(value)
        lows.append(value - low)
        highs.append(high - value)

    figure, axes = plt.subplots(figsize=(6, 3.5))
    axes.errorbar(range(len(labels)), edges, yerr=[lows, highs], fmt="o", capsize=4)
    axes.axhline(0, color="grey", linewidth=0.8)
    axes.set_xticks(range(len(labels)), labels, rotation=20, ha="right")
    axes.set_ylabel("seat 0 against fair (points)")
    axes.set_title(f"{args.game}, {args.players} players: seat 0's edge, 95% CI")
    figure.tight_layout()
    plot = results.folder / "seat0_edge.png"
    figure.savefig(plot, dpi=120)
    print(f"plot: {plot}")


if __name__ == "__main__":
    main()
