"""Search a designer knob for the value that evens the seats, then print the answer and every
seat's win share at it, measured on fresh games.

    .venv/bin/python examples/even_the_seats.py
    .venv/bin/python examples/even_the_seats.py --max-games 16000 --validate-games 16000

`simkit.search.tune` is `simkit tune`: it plays the knob's values in stages, doubling the games of the
values still in the running, and checks the best on seeds the search never saw. The defaults here
are small, to show the steps in under a minute; the answer then is rarely "settled" (known to ±1
point), so raise --max-games before printing a value in the rulebook. `simkit rules GAME` lists
the knobs (source "designer knob"); docs/tuning.md describes the search.
"""

from __future__ import annotations

import argparse

import simkit


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="sea_of_plunder")
    parser.add_argument("--param", default="extra_compasses", help="the rule searched: a number or a per-seat list")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--strategies", default="tuned", help="the line-up the seats must be even under")
    parser.add_argument("--max-games", type=int, default=2000, help="games per value at most")
    parser.add_argument("--validate-games", type=int, default=4000, help="fresh games for the best values")
    parser.add_argument("--out", help="the folder of tune.md and tune.json (default reports/tune-...)")
    args = parser.parse_args()

    # One line-up (strategies=...) keeps it quick; without it, tune evens the seats under a panel
    # of bots and says when the answer depends on them. progress=print shows each value tried.
    result = simkit.search.tune(args.game, args.param, players=args.players, strategies=args.strategies,
                         max_games=args.max_games, validate_games=args.validate_games, jobs=1,
                         out=args.out, progress=print)

    # figure: the objective (the largest seat gap, by default) at the answer, on the fresh games
    gap = {k: 100 * v for k, v in result.figure.items()}
    # a per-seat list's value is a tuple, seat 0 first: written 1-2-0-0 as on the command line
    value = "-".join(map(str, result.value)) if isinstance(result.value, (tuple, list)) else result.value
    print(f"\n{args.param} = {value} ({result.status}): largest seat gap {gap['value']:.1f} points "
          f"(95% CI {gap['ci_low']:.1f} to {gap['ci_high']:.1f}) on {result.validation['games']:,} fresh games")
    print(f"{'seat':<6}{'share of decided':>18}   95% CI        vs fair")
    for seat in result.seats:
        print(f"{seat['seat']:<6}{seat['rate']:>18.1%}   {seat['ci_low']:.1%}-{seat['ci_high']:.1%}  "
              f"{100 * seat['vs_fair']:+.1f} points")
    print(f"every value tried: {result.folder}/tune.md")


if __name__ == "__main__":
    main()
