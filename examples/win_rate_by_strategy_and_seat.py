"""Load a finished sweep and compute a table its report does not show: each strategy's win rate
in each seat, from the result tables, with polars.

    .venv/bin/python examples/win_rate_by_strategy_and_seat.py reports/sop-lineup
    .venv/bin/python examples/win_rate_by_strategy_and_seat.py          # plays a small sweep first

The report gives each seat's win rate and each strategy's, but not the two crossed: whether a
strategy does better from the first seat than the others do. Any sweep folder works; one whose
line-up mixes strategies (`--strategies a,b`, `--tournament`) gives more than one row.
"""

from __future__ import annotations

import argparse

import polars as pl

import simkit


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", nargs="?", help="a sweep's folder (default: play a small sweep first)")
    parser.add_argument("--game", default="sea_of_plunder", help="without a folder: the game to sweep")
    parser.add_argument("--strategies", default="collector,raider", help="without a folder: the line-up")
    parser.add_argument("--players", type=int, default=3, help="without a folder: the player count")
    parser.add_argument("--games", type=int, default=3000, help="without a folder: games to play")
    args = parser.parse_args()

    if args.folder:
        results = simkit.load(args.folder)  # checks each table is the one the sweep wrote
    else:
        # simkit seats the line-up so that each strategy sits in every seat equally often
        results = simkit.sweep(game=args.game, players=args.players, strategies=args.strategies,
                               games=args.games, jobs=1, quiet=True, report=False)
    print(f"sweep: {results.folder}")

    # seats: one row per seat of each game (strategy, seat, win: 1, 1/k for a k-way shared win,
    # else 0). Count only decided games, as the report does: a game stopped by the round cap is
    # nobody's win (games.n_winners is 0 there).
    decided = results.games.filter(pl.col("n_winners") > 0).select("cell", "game_index")
    seats = results.seats.join(decided, on=["cell", "game_index"])

    table = (
        seats.group_by("cell", "strategy", "seat")
        .agg(pl.len().alias("seats"), pl.col("win").sum().alias("wins"))
        .with_columns(rate=pl.col("wins") / pl.col("seats"))
        # a normal 95% interval; the report's own intervals are Wilson's, a little different
        # near 0% and 100%
        .with_columns(half=1.96 * (pl.col("rate") * (1 - pl.col("rate")) / pl.col("seats")).sqrt())
        .sort("cell", "strategy", "seat")
    )

    for (cell,), rows in table.group_by("cell", maintain_order=True):
        print(f"\n{cell}: win rate of decided games, by strategy (rows) and seat (columns)")
        wide = (rows.with_columns(shown=pl.format("{}% ±{}", (100 * pl.col("rate")).round(1),
                                                  (100 * pl.col("half")).round(1)))
                .pivot(on="seat", index="strategy", values="shown", sort_columns=True))
        wide = wide.rename({c: f"seat {c}" for c in wide.columns if c != "strategy"})
        with pl.Config(tbl_hide_dataframe_shape=True, tbl_hide_column_data_types=True, tbl_rows=-1):
            print(wide)

    # The same tables as pandas DataFrames, for plotting or seaborn (the pandas extra):
    #     tables = results.to_pandas(); tables["seats"].groupby(["strategy", "seat"])["win"].mean()


if __name__ == "__main__":
    main()
