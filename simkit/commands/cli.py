"""The `simkit` command (docs/reference/cli.md): parses, calls the library, prints.

Exit codes: 0 success, 1 a `check` breached, 2 bad input or a failure the user can act on (a
full disk, a lost Dask scheduler, a damaged file), 3 a `check` inconclusive, 130 a sweep
stopped by Ctrl-C, 143 by SIGTERM, 141 standard output closed (`| head -1`). Any bad input,
including a usage error of the command line itself, prints exactly one line `error: ...` on
stderr and no traceback.
"""

from __future__ import annotations

import _thread
import contextlib
import json
import os
import sys
from pathlib import Path
from typing import Annotated

import typer
from typer.core import TyperGroup

from simkit.core.errors import InputError

BAD_INPUT = 2


BROKEN_PIPE = 141  # what a shell reports for a command killed by SIGPIPE (128 + 13): `simkit games | head -1`


def _fail(message: str) -> int:
    with contextlib.suppress(OSError):  # stderr full as well: the exit code still says it
        typer.echo(f"error: {' '.join(str(message).split())}", err=True)
    return BAD_INPUT


class _StdoutFailed(Exception):
    """Writing the command's output to standard output failed (a closed pipe, a full disk behind `>`)."""

    def __init__(self, error: OSError):
        super().__init__(str(error))
        self.error = error


def _from_stdout(e: OSError) -> bool:
    """Whether `e` was raised writing to standard output: the innermost frame of its traceback was
    writing to it (click's echo, rich's console, print)."""
    tb = e.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    if tb is None:
        return False
    streams = [s for s in (sys.stdout, sys.__stdout__) if s is not None]
    held = [*tb.tb_frame.f_locals.values()]
    held += [getattr(v, "file", None) for v in held if type(v).__name__ == "Console"]
    return any(v is s for v in held for s in streams)


def _silence_stdout() -> None:
    """Point standard output at /dev/null, so that the interpreter's last flush of what is still
    buffered neither fails nor prints 'Exception ignored'."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)


class _Group(TyperGroup):
    """Turns InputError and the parser's usage errors into one `error:` line and exit 2; a closed
    standard output (`| head -1`) into a quiet exit 141, a full one into one `error:` line and exit 2
    (docs/faults.md)."""

    def invoke(self, ctx):
        try:
            result = super().invoke(ctx)
        except OSError as e:
            if _from_stdout(e):
                raise _StdoutFailed(e) from None
            raise
        try:
            sys.stdout.flush()  # what a redirected stdout still buffers fails here, not at the interpreter's exit
        except OSError as e:
            raise _StdoutFailed(e) from None
        return result

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        if not (sys.argv[1:] if args is None else args):
            args = ["--help"]
        try:
            try:
                code = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
                sys.stdout.flush()  # --help's text, still buffered, fails here rather than at the interpreter's exit
            except OSError as e:  # --help and usage text are written before any command is invoked
                if not _from_stdout(e):
                    raise
                raise _StdoutFailed(e) from None
            except SystemExit as e:  # rich, printing the help, exits 1 on a closed pipe: it is the reader gone
                if isinstance(e.__context__, BrokenPipeError):
                    raise _StdoutFailed(e.__context__) from None
                raise
        except _StdoutFailed as e:
            _silence_stdout()
            if isinstance(e.error, BrokenPipeError):  # the reader is gone (`| head`): nothing is wrong
                code = BROKEN_PIPE
            else:
                code = _fail(f"cannot write to standard output: {e.error.strerror or e.error}; every file the "
                             "command writes is written; hint: send the output to a disk with free space, or to "
                             "/dev/null")
        except InputError as e:
            code = _fail(str(e))
        except typer.TyperException as e:  # the parser's usage errors (bad option, bad number, ...)
            where = getattr(getattr(e, "ctx", None), "command_path", "simkit")
            code = _fail(f"{e.format_message()} (see {where} --help)")
        except typer.Abort:
            code = 1
        except MemoryError:  # a sweep says what it kept (runner); any other command had nothing half-written
            code = _fail("out of memory (every file is written whole or not at all); hint: --jobs 1, fewer cells "
                         "or games, or raise the memory cap (ulimit -v)")
        except KeyboardInterrupt:  # a sweep has already said what was kept and how to resume
            code = 130
        code = code if isinstance(code, int) else 0
        if standalone_mode:
            sys.exit(code)
        return code


app = typer.Typer(
    cls=_Group,
    help="Monte Carlo balance analysis for tabletop games.",
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)

JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON for scripts.")]
SetOption = Annotated[
    list[str] | None,
    typer.Option("--set", metavar="KEY=VALUE", help="Rule override, repeatable; a TOML list (k=[1,2]) sweeps it."),
]
BotOption = Annotated[
    list[str] | None,
    typer.Option("--bot", metavar="LABEL:KEY=VALUE,...",
                 help="Bot parameters, repeatable: 'merchant:sell_at=400' changes a preset; "
                      "'greedy:preset=merchant,sell_at=400' adds a strategy for line-ups (see simkit strategies)."),
]
ComponentsOption = Annotated[
    str | None,
    typer.Option("--components", metavar="SET|PATH",
                 help="Component files: a shipped set (standard, alt-...) or your own folder; same as --set components=."),
]


def _with_components(set_: list[str] | None, components: str | None) -> list[str] | None:
    """--components X is --set components=X (given as a path, it stays text, never TOML)."""
    if components is None:
        return set_
    if any(item.partition("=")[0].strip() == "components" for item in set_ or []):
        raise InputError("give the component set once: --components or --set components=, not both")
    return [*(set_ or []), f"components={components}"]


def _print_table(columns: list[str], rows: list[list]) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(*columns, box=None, pad_edge=False)
    for row in rows:
        table.add_row(*(str(v) for v in row))
    console = Console(width=200 if not sys.stdout.isatty() else None)
    with console.capture() as captured:  # written by echo, so a closed or full stdout is the entry point's to handle
        console.print(table)
    typer.echo(captured.get(), nl=False)


def _echo_json(data) -> None:
    typer.echo(json.dumps(data, indent=1, default=str))


@app.command()
def games(json_: JsonOption = False) -> None:
    """Games, their player counts and variants."""
    from simkit import games as registry

    rows = [{"game": g.id, "title": g.title, "players": list(g.players), "variants": g.rules.variant_names()}
            for g in registry.all_games()]
    if json_:
        return _echo_json(rows)
    _print_table(["game", "title", "players", "variants"],
                 [[r["game"], r["title"], ",".join(map(str, r["players"])), ", ".join(r["variants"])] for r in rows])


@app.command()
def rules(
    game: Annotated[str, typer.Argument(help="Game id (see `simkit games`).")],
    variant: Annotated[str, typer.Option(help="Show defaults under this variant ('a+b' combines).")] = "standard",
    json_: JsonOption = False,
) -> None:
    """Rule parameters: name, default, allowed values, meaning, source."""
    from simkit import games as registry

    rows = registry.get(game).rules.listing(variant)
    if json_:
        return _echo_json(rows)
    _print_table(["name", "default", "allowed", "meaning", "source"],
                 [[r["name"], r["default"], r["allowed"], r["meaning"], r["source"]] for r in rows])


@app.command()
def strategies(
    game: Annotated[str, typer.Argument(help="Game id (see `simkit games`).")],
    json_: JsonOption = False,
) -> None:
    """Bot presets, what each one favours, and their parameters (set them with --bot or [bots.<label>])."""
    from simkit import games as registry

    g = registry.get(game)
    rows = [{"name": p.name, "description": p.description, "default": p.name == g.default_strategy, "kind": p.kind,
             "parameters": [{"name": q.name, "default": g.strategy_table((p.name,))[0][i, q.slot], "low": q.low,
                             "high": q.high, "integer": q.integer, "reader": q.reader, "meaning": q.meaning}
                            for q in g.params_of(p.name)]}
            for i, p in enumerate(g.presets)]
    if json_:
        return _echo_json(rows)
    _print_table(["name", "description"],
                 [[r["name"] + (" (default)" if r["default"] else ""), r["description"]] for r in rows])
    if not g.bot_params:
        return
    shown = [r for r in rows if r["parameters"]]
    typer.echo("\nparameters (each preset's value; set with --bot PRESET:name=value or [bots.<label>] in a spec):")
    _print_table(["name", "range", *(r["name"] for r in shown), "meaning"],
                 [[q.name, q.range_text(),
                   *(next((f"{x['default']:g}" for x in r["parameters"] if x["name"] == q.name), "") for r in shown),
                   q.meaning] for q in g.bot_params])


@app.command()
def sweep(
    spec: Annotated[Path | None, typer.Argument(help="Sweep spec (TOML); default experiments/default.toml.")] = None,
    game: Annotated[str | None, typer.Option(help="Game id, or '*' for every game.")] = None,
    players: Annotated[str | None, typer.Option(help="Player counts, e.g. 2,3,4 or 2-4; for one game, each must be one a chosen variant plays (with --game '*', each game plays those it supports).")] = None,
    variant: Annotated[str | None, typer.Option(help="Variants, comma-separated; 'a+b' combines.")] = None,
    set_: SetOption = None,
    components: ComponentsOption = None,
    strategies: Annotated[
        list[str] | None, typer.Option("--strategies", help="A line-up a,b,...; repeat for several line-ups.")
    ] = None,
    games: Annotated[int | None, typer.Option(help="Games per cell.")] = None,
    seed: Annotated[int | None, typer.Option(help="Root seed.")] = None,
    jobs: Annotated[int | None, typer.Option(help="Worker processes (default: all cores; 1 = in-process; more than "
                                                  "the cores is capped to them unless --force-jobs).")] = None,
    force_jobs: Annotated[bool, typer.Option("--force-jobs", help="Start --jobs workers even beyond the cores.")
                          ] = False,
    chunk: Annotated[int | None, typer.Option(
        help="Games per chunk (default: about 3 s of work, in chunks of one size that make whole waves of at "
             "least four chunks per worker; down to 1 s of work).")] = None,
    backend: Annotated[str, typer.Option(help="loky (local cores) or dask (a Dask cluster).")] = "loky",
    address: Annotated[str | None, typer.Option(help="Dask scheduler address, tcp://HOST:PORT.")] = None,
    out: Annotated[Path | None, typer.Option(help="Result folder (default reports/<name>-<time>).")] = None,
    resume: Annotated[bool, typer.Option(help="Finish the interrupted sweep in --out.")] = False,
    precision: Annotated[
        str | None, typer.Option(help="Stop a cell once seat 0's 95% half width is at most this (0.01 or 1pt).")
    ] = None,
    quiet: Annotated[bool, typer.Option(help="No progress output.")] = False,
    arcs: Annotated[
        bool, typer.Option("--arcs", help="Trace each game's scores by round: lead changes, snowballing, comebacks.")
    ] = False,
    tiers: Annotated[
        bool, typer.Option("--tiers", help="Self-play at skill tiers (random, default, lookahead, expert) per player count.")
    ] = False,
    skill: Annotated[
        str | None, typer.Option(help="With --tiers: noise levels of extra default-preset tiers, e.g. 0,0.25,0.5.")
    ] = None,
    tournament: Annotated[bool, typer.Option(
        "--tournament", help="Every preset against every other, seats balanced: one cell per player count, --games "
        "each; --strategies names the presets (default: all but the slow lookahead tier).")] = False,
    bot: BotOption = None,
    robustness: Annotated[str | None, typer.Option(
        help="After the sweep, re-measure each headline finding at a skilled tier (skill), under every shipped "
        "component set (components), both (all) or not (off); default: all for the default sweep, else the "
        "spec's robustness key, else off.")] = None,
    max_cells: Annotated[int | None, typer.Option(
        help="The most cells the sweep may have (default 100,000, or the spec's max_cells), counted before any "
        "is planned.")] = None,
) -> None:
    """Run a sweep and write its results and report."""
    import simkit
    from simkit.sweeps.runner import Terminated

    try:
        results = simkit.sweep(
            spec, out=out, resume=resume, game=game, players=players, variant=variant,
            set=_with_components(set_, components),
            strategies=strategies[0] if strategies and len(strategies) == 1 else strategies, games=games, seed=seed,
            precision=precision, jobs=jobs, force_jobs=force_jobs or None, chunk=chunk, backend=backend,
            address=address, quiet=quiet, arcs=arcs or None, tiers=tiers or None, skill=skill,
            tournament=tournament or None, bots=bot, robustness=robustness, max_cells=max_cells,
        )
    except Terminated:  # a SIGTERM (`timeout`): the sweep has said what was kept; exit as the shell would
        raise typer.Exit(143) from None
    m = results.manifest
    if getattr(results, "already_complete", False):
        typer.echo(f"{results.folder} is already complete ({len(m['rules_hashes'])} cells, {m['games']:,} games); "
                   "nothing left to play" + (f"; wrote the missing {' and '.join(results.written_again)} from its "
                                             "tables" if getattr(results, "written_again", None) else ""))
    else:
        cells = len(m["rules_hashes"])
        kept = "" if m["games_this_run"] <= m["games"] else \
            f" ({m['games_this_run'] - m['games']:,} past the --precision stops were dropped)"
        timing = f"in {m['wall_seconds']:.1f} s"
        if "compile_seconds" in m:
            timing += f" (preparing engines {m['compile_seconds']:.1f} s, playing {m['play_seconds']:.1f} s)"
        typer.echo(f"{cells} cell{'s' * (cells != 1)}, {m['games']:,} games kept; this run played "
                   f"{m['games_this_run']:,} games{kept} {timing}")
    phase = results.folder / "robustness.json"
    if phase.exists():
        import json

        r = json.loads(phase.read_text())
        if "looks" in r:
            looks = [results.folder / "robustness" / f"look-{k}" / "manifest.json" for k in range(len(r["looks"]))]
            seconds = sum(json.loads(m.read_text()).get("wall_seconds", 0.0) for m in looks if m.exists())
            typer.echo(f"robustness phase: {len(r['cells'])} re-measurement cells, {r['sampling']['games']:,} games "
                       f"in {len(r['looks'])} look{'s' * (len(r['looks']) != 1)}, {seconds:.1f} s; labels in the "
                       "report's headline")
    from simkit.core.seating import seating_notes

    summary = results.summary  # read once: a 10,000-cell grid's summary.json is large
    for note in seating_notes(summary):
        typer.echo(f"note: {note}", err=True)
    if (results.folder / "report.md").exists():
        from simkit.report import headline_lines

        for line in headline_lines(results.folder, summary=summary):
            typer.echo(line)
    typer.echo(f"report: {results.folder / 'report.html'} (and report.md)")


@app.command()
def report(folder: Annotated[Path, typer.Argument(help="A sweep folder.")]) -> None:
    """Rebuild summary.json and the report of a sweep folder from its result tables."""
    from simkit.core.files import expand_user
    from simkit.sweeps.finish import rebuild_report
    from simkit.sweeps.results import load

    folder = expand_user(str(folder), "folder")  # a quoted '~/x' is the home folder's x, as for --out
    typer.echo(f"report: {rebuild_report(load(folder).folder)}")


@app.command()
def replay(
    game: Annotated[str, typer.Argument(help="Game id.")],
    players: Annotated[int | None, typer.Option(help="Player count (default: the largest).")] = None,
    variant: Annotated[str, typer.Option(help="Variant; 'a+b' combines.")] = "standard",
    set_: SetOption = None,
    components: ComponentsOption = None,
    strategies: Annotated[
        str | None, typer.Option(help="Seat 0's, seat 1's, ... preset; a shorter list repeats.")
    ] = None,
    seed: Annotated[int | None, typer.Option(help="Game seed: the `seed` column of games.parquet.")] = None,
    bot: BotOption = None,
) -> None:
    """Play one game and narrate it from its event log."""
    from simkit.commands.replay import replay as play_one

    r = play_one(game, players=players, variant=variant, overrides=_with_components(set_, components),
                 strategies=strategies, seed=seed, bots=bot)
    typer.echo(r.header())
    for line in r.lines:
        typer.echo(line)
    typer.echo(r.ending())
    _print_table(list(r.seats[0]), [list(row.values()) for row in r.seats])


def _limit(help_text: str):
    return typer.Option(metavar="LIMIT", help=f"{help_text} As points (3pt) or a fraction (0.03).")


@app.command(
    epilog="Exit codes: 0 every check ok; 1 a breach (or, with --strict, an inconclusive check); "
    "2 bad input (no limit, an impossible limit, too few games per cell); "
    "3 inconclusive: an interval straddles its limit and more games would decide (with --until-decided: the "
    "budget was spent first), or a figure has no decided game (every game hit the round cap; --until-decided "
    "plays none for it)."
)
def check(
    folder: Annotated[Path, typer.Argument(help="A sweep folder.")],
    max_first_player_advantage: Annotated[
        str | None, _limit("Largest allowed |seat 0's share of decided games - 1/players|.")] = None,
    max_seat_gap: Annotated[str | None, _limit("Largest allowed gap between two seats' shares of decided games.")
                            ] = None,
    max_incomplete: Annotated[str | None, _limit("Largest allowed share of round-capped games.")] = None,
    max_shared_wins: Annotated[str | None, _limit("Largest allowed share of games with a shared win.")] = None,
    max_edge: Annotated[
        str | None, _limit("Largest allowed edge of a strategy or dealt category (e.g. a power) over the "
                           "cell's average win rate per seat.")] = None,
    min_rounds: Annotated[float | None, typer.Option(help="Smallest allowed mean rounds per game.")] = None,
    max_rounds: Annotated[float | None, typer.Option(help="Largest allowed mean rounds per game.")] = None,
    min_games: Annotated[
        int | None, typer.Option(help="Fewest games a cell must have (default 1000); fewer is bad input.")] = None,
    strict: Annotated[bool | None, typer.Option("--strict", help="Fail (exit 1) on an inconclusive check too.")
                      ] = None,
    until_decided: Annotated[bool | None, typer.Option(
        "--until-decided", help="Play more games for the figures that straddle a limit until each is decided or the "
        "budget is spent (games in DIR/sequential/).")] = None,
    budget: Annotated[int | None, typer.Option(help="With --until-decided: games per cell at most (default "
                                                    "64,000).")] = None,
    jobs: Annotated[int, typer.Option(help="With --until-decided: worker processes for the extra games.")] = 1,
    robust: Annotated[bool | None, typer.Option(
        "--robust", help="Gate only the figures whose finding holds at every skilled tier, component set and reading (the "
        "sweep's robustness labels); the rest are counted, not judged.")] = None,
) -> None:
    """CI gate: judge a sweep's balance figures against limits, allowing for noise.

    A limit is breached only when the figure's whole interval lies beyond it; an interval
    straddling it is inconclusive and says how many more games would decide. Intervals are
    simultaneous over every figure checked, so a game that meets its limits fails by chance
    at most 2.5% of the time. Limits come from these flags or the spec's [check] table (the
    flags win); at least one limit is required. --until-decided plays more games for the
    figures that straddle a limit, with intervals that stay valid over every look. --robust
    judges only the figures whose finding holds in the sweep's robustness labels.
    """
    from simkit.sweeps.sequential import check as run_check

    flags = {"max_first_player_advantage": max_first_player_advantage, "max_seat_gap": max_seat_gap,
             "max_incomplete": max_incomplete, "max_shared_wins": max_shared_wins, "max_edge": max_edge,
             "min_rounds": min_rounds, "max_rounds": max_rounds, "min_games": min_games, "strict": strict,
             "until_decided": until_decided, "budget": budget, "robust": robust}
    if isinstance(jobs, bool) or jobs < 1:
        raise InputError(f"--jobs must be >= 1, got {jobs!r}")
    from simkit.core.files import expand_user

    outcome = run_check(expand_user(str(folder), "folder"), flags, jobs=jobs)
    for line in outcome.lines():
        typer.echo(line)
    if outcome.code:
        raise typer.Exit(outcome.code)


@app.command()
def bench(
    names: Annotated[list[str] | None, typer.Argument(metavar="[GAME]...", help="Games (default: all).")] = None,
    games: Annotated[int | None, typer.Option(help="Games per measurement (default: ~2 s worth).")] = None,
    players: Annotated[int | None, typer.Option(help="Player count (default: each game's largest).")] = None,
    presets: Annotated[str | None, typer.Option(help="Presets measured, comma-separated (default: the default "
                                                      "preset and random), e.g. tuned,collector.")] = None,
    compile_: Annotated[bool, typer.Option(
        "--compile", help="Instead: where a cold compile of each game's engine goes, per jitted function "
        "(numba's compile events), in a subprocess with an empty numba cache of its own.")] = False,
    profile: Annotated[bool, typer.Option(
        "--profile", help="Instead: where the compiled engine spends its time while playing, per jitted function "
        "(Linux perf samples, named through a perf map of numba's code).")] = False,
    seconds: Annotated[float, typer.Option(help="With --profile: seconds of play sampled per game.")] = 10.0,
    apart: Annotated[str | None, typer.Option(
        help="With --profile: jitted functions kept out of line in the game loop, comma-separated, so that each "
        "counts on its own instead of in the function it is inlined into, e.g. score_discards,score_plays "
        "(the engine is compiled for the profile).")] = None,
    top: Annotated[int, typer.Option(help="With --compile or --profile: the functions listed, dearest first.")] = 15,
    json_: JsonOption = False,
) -> None:
    """Throughput per game on one core, compile time, and the speed-up over plain Python."""
    from simkit.commands.bench import bench as run_bench

    if compile_ and profile:
        raise InputError("--compile and --profile are two different measurements; hint: ask for one at a time")
    if apart and not profile:
        raise InputError("--apart changes what --profile counts; hint: add --profile")
    apart_names = [name.strip() for name in apart.split(",") if name.strip()] if apart else []
    if compile_ or profile:
        from simkit import games as registry

        one_preset = presets.split(",")[0].strip() if presets else None  # each measures one preset
        game_ids = names or registry.ids()
    if profile:
        from simkit.commands.profiling import profile as run_profile

        reports = [run_profile(name, players, one_preset, seconds, apart_names) for name in game_ids]
        if json_:
            _echo_json(reports)
            return
        for r in reports:
            jit = sum(row["percent"] for row in r["rows"] if row["jit"])
            listed = r["rows"][:top]
            kept = f"; kept apart: {', '.join(r['apart'])}" if r["apart"] else ""
            typer.echo(f"{r['game']} ({r['players']} players, {r['preset']}{kept}): {r['games']:,} games in "
                       f"{r['seconds']:.1f} s, {r['samples']} samples, {jit:.1f}% in compiled code; the "
                       f"{len(listed)} dearest functions by their own samples (inlined callees count in their caller):")
            _print_table(["function", "share", "where"],
                         [[row["function"], f"{row['percent']:.1f}%",
                           "compiled" if row["jit"] else ("kernel" if row["kernel"] else "other")] for row in listed])
        return
    if compile_:
        from simkit.commands.bench import compile_breakdown

        reports = [compile_breakdown(name, players, one_preset) for name in game_ids]
        if json_:
            _echo_json(reports)
            return
        for r in reports:
            listed = r["functions"][:top]
            typer.echo(f"{r['game']} ({r['players']} players, {r['preset']}): first call {r['seconds']:.1f} s, "
                       f"{len(r['functions'])} jitted functions compiled; the {len(listed)} dearest by their own time:")
            _print_table(["function", "compiles", "own s", "with callees s"],
                         [[f["function"], f["compiles"], f"{f['self_seconds']:.1f}", f"{f['inclusive_seconds']:.1f}"]
                          for f in listed])
        return

    rows = run_bench(names or None, games=games, players=players,
                     presets=[p.strip() for p in presets.split(",")] if presets else None)
    if json_:
        _echo_json(rows)
    else:
        _print_table(
            ["game", "players", "first call s", "preset", "games/s", "player-turns/s", "no-jit games/s", "speed-up",
             "identical"],
            [[r["game"], r["players"], f"{r['first_call_seconds']:.2f} ({r['first_call']})", r["preset"],
              f"{r['games_per_second']:,.0f}", f"{r['turns_per_second']:,.0f}",
              f"{r['nojit_games_per_second']:,.1f}", f"{r['speedup']:,.0f}x", "yes" if r["identical"] else "NO"]
             for r in rows],
        )
    differ = [f"{r['game']} {r['preset']}" for r in rows if not r["identical"]]
    if differ:
        typer.echo(f"error: compiled and plain-Python engines disagree for {', '.join(differ)}", err=True)
        raise typer.Exit(1)


@app.command(
    epilog="Exit codes: 0 settled: the answer's objective is known to --precision; 2 bad input; 3 not settled within "
    "--max-games games per evaluation (the answer so far, validated on fresh seeds, and its evidence are still "
    "written)."
)
def tune(
    game: Annotated[str, typer.Argument(help="Game id (see `simkit games`).")],
    param: Annotated[str, typer.Option("--param", help="The parameter to search: an int, a float, or a per-seat "
                                                       "list (ints, e.g. starting resources by seat).")],
    players: Annotated[int | None, typer.Option(help="Player count (default: the game's largest).")] = None,
    variant: Annotated[str, typer.Option(help="Variant; 'a+b' combines.")] = "standard",
    set_: Annotated[list[str] | None, typer.Option("--set", metavar="KEY=VALUE",
                                                   help="Rule override held fixed, repeatable.")] = None,
    strategies: Annotated[str | None, typer.Option(help="One line-up a,b,... to tune under (instead of a panel).")
                          ] = None,
    bots: Annotated[str | None, typer.Option(help="The panel of line-ups the seats must be even under, separated by "
                                                  "';' (default: the default preset, the previous default, tuned and "
                                                  "the expert).")] = None,
    objective: Annotated[str, typer.Option(help="What evens the seats: gap (the largest seat gap), chi2 (every "
                                                "seat's distance from fair) or seat0 (seat 0 alone).")] = "gap",
    precision: Annotated[str, typer.Option(help="Half width asked of the objective at the answer (1pt or "
                                                "0.01).")] = "1pt",
    max_games: Annotated[int | None, typer.Option(help="Games per evaluation at most (default 64,000).")] = None,
    step: Annotated[int | None, typer.Option(help="Whole-number parameters: try the default + k·step only.")
                    ] = None,
    validate_games: Annotated[int | None, typer.Option(help="Games per candidate and line-up on the fresh seeds "
                                                            "(default 16,000; 40,000 with a panel).")] = None,
    seed: Annotated[int, typer.Option(help="Root seed: every evaluation plays the same seeds.")] = 1,
    jobs: Annotated[int, typer.Option(help="Worker processes per evaluation (default 1: evaluations are short).")
                    ] = 1,
    out: Annotated[Path | None, typer.Option(help="Result folder (default reports/tune-<game>-<param>-<n>p-<time>).")
                   ] = None,
    quiet: Annotated[bool, typer.Option(help="No line per evaluation.")] = False,
) -> None:
    """Search a parameter for the value that evens every seat: scan, refine on shared seeds, validate on fresh ones."""
    from simkit.search.tune import tune as run_tune

    result = run_tune(game, param, players=players, variant=variant, set=set_, strategies=strategies, bots=bots,
                      validate_games=validate_games, objective=objective, precision=precision, max_games=max_games,
                      step=step, seed=seed, jobs=jobs, out=out, progress=None if quiet else typer.echo)
    typer.echo(result.answer())
    typer.echo("seats at the answer, on fresh seeds:")
    _print_table(["seat", "share of decided", "95% CI", "vs fair (points)"],
                 [[s["seat"], f"{100 * s['rate']:.1f}%", f"{100 * s['ci_low']:.1f}–{100 * s['ci_high']:.1f}%",
                   f"{100 * s['vs_fair']:+.1f}"] for s in result.seats])
    typer.echo(f"evidence and every evaluation: {Path(result.folder) / 'tune.md'} (and tune.json)")
    if result.exit_code:
        raise typer.Exit(result.exit_code)


@app.command()
def train(
    game: Annotated[str, typer.Argument(help="Game id (see `simkit games`).")],
    preset: Annotated[str, typer.Option("--preset", help="The heuristic preset whose parameters are searched.")],
    players: Annotated[str, typer.Option(help="Player counts the objective plays, e.g. 2 or 2,4.")] = "2",
    variant: Annotated[str, typer.Option(help="Variant; 'a+b' combines.")] = "standard",
    set_: Annotated[list[str] | None, typer.Option("--set", metavar="KEY=VALUE",
                                                   help="Rule override held fixed, repeatable.")] = None,
    params: Annotated[str | None, typer.Option(help="Parameters searched, comma-separated (default: every "
                                                     "heuristic parameter of the preset).")] = None,
    games: Annotated[int, typer.Option(help="Games per candidate against each opponent and player count.")] = 2000,
    population: Annotated[int, typer.Option(help="Candidates per generation (0: CMA-ES's default).")] = 0,
    generations: Annotated[int, typer.Option(help="Generations of the search.")] = 20,
    lookahead_share: Annotated[float, typer.Option(help="Games against the lookahead tier, as a share of --games "
                                                        "(0: none).")] = 0.05,
    validate_games: Annotated[int, typer.Option(help="Games per finalist against each opponent (fresh seeds).")
                              ] = 8000,
    evidence_games: Annotated[int, typer.Option(help="Games per head-to-head of the answer (fresh seeds).")] = 8000,
    evidence_lookahead_games: Annotated[int, typer.Option(help="Games of the answer against lookahead at 2 players."
                                                          )] = 2000,
    seed: Annotated[int, typer.Option(help="Seed of the search and of every game it plays.")] = 1,
    jobs: Annotated[int | None, typer.Option(help="Worker processes (default: all cores).")] = None,
    backend: Annotated[str, typer.Option(help="loky (local cores) or dask (a Dask cluster).")] = "loky",
    address: Annotated[str | None, typer.Option(help="Dask scheduler address, tcp://HOST:PORT.")] = None,
    out: Annotated[Path | None, typer.Option(help="Training folder (default reports/train-<game>-<preset>-<time>).")
                   ] = None,
    resume: Annotated[bool, typer.Option(help="Finish the stopped training in --out.")] = False,
    write: Annotated[bool, typer.Option(help="Write tuned.toml and its evidence into the training folder "
                                             "(--out); play it with --bot LABEL:file=DIR/tuned.toml.")] = True,
    install: Annotated[bool, typer.Option("--install", help="Also write tuned.toml and its evidence into the "
                                                            "game's package: the game's own `tuned` preset.")
                       ] = False,
    quiet: Annotated[bool, typer.Option(help="No progress lines.")] = False,
) -> None:
    """Search a preset's bot parameters for strength (CMA-ES); write the `tuned` preset and its evidence into --out."""
    from simkit.search.train import train as run_train

    state = run_train(game, preset, players=players, variant=variant, set=set_, params=params, games=games,
                      population=population, generations=generations, lookahead_share=lookahead_share,
                      validate_games=validate_games, evidence_games=evidence_games,
                      evidence_lookahead_games=evidence_lookahead_games, seed=seed, jobs=jobs, backend=backend,
                      address=address, out=out, resume=resume, write=write, install=install,
                      progress=None if quiet else lambda line: typer.echo(line))
    rows = [[e["players"], e["opponent"] or "self-play", f"{e['games']:,}",
             f"{100 * e['share']:.1f}% ({100 * e['ci_low']:.1f}–{100 * e['ci_high']:.1f})" if e["opponent"] else "",
             f"{100 * e['capped']:.2f}%"] for e in state["evidence"]]
    _print_table(["players", "opponent", "games", "tuned's share of decided games (95% CI)", "capped"], rows)


def pass_on_interrupts(unraisable) -> None:
    """sys.unraisablehook of the command line. A Ctrl-C that lands inside a C callback (numba's
    compiler handing a compiled object to its cache, while the engines compile) cannot be raised
    there: Python would print it as an 'Exception ignored' traceback and drop it. It is passed on
    to the main thread, which stops the command as at any other moment (docs/faults.md)."""
    if issubclass(unraisable.exc_type, KeyboardInterrupt):
        _thread.interrupt_main()
        return
    sys.__unraisablehook__(unraisable)


def main() -> None:
    sys.unraisablehook = pass_on_interrupts
    app()

