"""Measure how the robustness phase labels a finding (the table of docs/statistics.md,
"Robustness labels: measured").

    .venv/bin/python benchmarks/ci/robustness_labels.py

Simulated re-measurements of a seat-0 finding, decided look by look by the phase's own code
(simkit.sweeps.robustness.simulated, which calls the phase's `_judge` and `schedule`): the original
plays 10,000 games, the re-measurement up to 320,000 (the defaults), one of 4 re-measurements
of its finding, δ = 2 points, α = 5%. Seat 0 wins each decided game with chance 1/players +
the effect in the original and 1/players + the re-measured effect in the re-measurement; in
the rows "half the same", half of the pairs are the very same game (a component set that
changes little), else every pair is two independent games. 2,000 runs per row.

What the labels must do: when nothing changed, anything but holds in at most 5% of runs; an
effect halved labelled weaker, an effect gone vanishes, each in at least 90%; a reversed
effect reverses in at least 95%.
"""

from simkit.sweeps.robustness import simulated

RUNS = 2000
CASES = (("nothing changed", 1.0, "holds"), ("effect halved", 0.5, "weaker"), ("effect gone", 0.0, "vanishes"),
         ("effect reversed", -1.0, "reverses"))


def main() -> None:
    print("| players | effect | pairs | re-measurement | runs | holds | weaker | vanishes | reverses | undetermined "
          "| expected label | mean games |")
    print("|---:|---:|---|---|---:|---:|---:|---:|---:|---:|---|---:|")
    for players in (2, 4):
        for effect in (0.05, 0.08, 0.12):
            for same in (0.0, 0.5):
                for name, scale, expected in CASES:
                    try:
                        r = simulated(players, effect, scale * effect, same=same, runs=RUNS, seed=players * 100 + 7)
                    except ValueError:  # e.g. 4 players, +12 reversed: seat 0 at 13% cannot share half its games
                        print(f"| {players} | {100 * effect:+.0f} points | half the same | {name} | - | - | - | - "
                              f"| - | - | {expected} (no such pairing: a rate below 0) | - |")
                        continue
                    shares = " | ".join(f"{100 * r.get(k, 0.0):.1f}%" for k in
                                        ("holds", "weaker", "vanishes", "reverses", "undetermined"))
                    print(f"| {players} | {100 * effect:+.0f} points | {'half the same' if same else 'independent'} "
                          f"| {name} | {RUNS:,} | {shares} | {expected} | {r['mean_games']:,.0f} |")


if __name__ == "__main__":
    main()
