"""`simkit train`: search a preset's bot parameters for strength (docs/tuning.md).

The search. CMA-ES (the `cma` package, an optional extra: `pip install 'simkit[train]'`)
over the preset's heuristic parameters (simkit.core.bots), each scaled to [0, 1] across its
declared range, starting from the preset's own values. CMA-ES because the objective is a
noisy win share with no gradient over 10-20 weights of mixed scale and some correlation, the
case CMA-ES is built for; it uses only the ranking within a generation, which common random
numbers make sharp; and pycma is small (numpy only), maintained, and asks and tells, so each
generation is one sweep through the runner (jobs, Dask, resume) and the whole search
replays from its seed. (Optuna's CMA-ES sampler is the same algorithm behind a storage
layer this needs no part of; its TPE sampler suits small budgets of independent trials.)

The objective. Each candidate plays `games` games against each opponent of the pool at each
player count, seats balanced (line-up "candidate,opponent": the candidate sits in every seat
equally often), and scores its share of decided games' wins against its fair share, in
points, pooled over its cells. The pool: the preset being trained, the game's default
preset when that is another, the search's current estimate of the best (the CMA-ES mean of
the previous generation, from the second generation on), and the `lookahead` tier on a
share of `lookahead_share` of the games (it is many times slower). Every candidate of a
generation plays the same seeds (common random numbers); each generation plays new ones.

The answer. After the last generation, the finalists (the mean and the best candidate of
each of the last three generations, and the preset itself) play `validate_games` games
against the pool on fresh seeds; the best is the answer. Its evidence, again on fresh
seeds: head-to-head against the preset it started from and the game's default at every
player count, against `lookahead` at 2 players, and its self-play round-cap share at every
player count, each with its 95% interval and games.

Written, only in the training folder (`out`): `train.json` (the configuration, every
generation, the finalists, the evidence), a sweep folder per generation, and with `write`
`tuned.toml` (the values, simkit.core.bots.read_tuned) and `tuned.md`/`tuned.json` beside it (the
evidence). A sweep plays that file as it is (`--bot mine:file=DIR/tuned.toml`, simkit.core.bots).
Only `install` also writes the three files into the game's package, where they make the game's
own `tuned` preset (docs/tuning.md). `resume` finishes a stopped training from
its folder: finished generations are replayed from train.json (their candidates are asked
again from the seed and must match), an unfinished generation's sweep is resumed.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import polars as pl

from simkit import games as registry
from simkit.analysis.intervals import wilson
from simkit.core import bots as bot_settings
from simkit.core.errors import InputError, unknown
from simkit.core.rng import derive
from simkit.sweeps import spec as specs

STATE = "train.json"
LOOKAHEAD = bot_settings.LOOKAHEAD
CANDIDATE, INCUMBENT = "candidate", "incumbent"  # labels of the line-ups a generation plays
FINALIST_GENERATIONS = 3  # the last this many generations give finalists (mean and best)
SIGMA = 0.2  # CMA-ES step size at the start, as a share of each parameter's range
MIN_LOOKAHEAD_GAMES = 2  # a lookahead cell plays at least one full seating (2 players)
# seeds: each phase's root seed is derive(seed, PHASE + n), so no two phases share games
GENERATION, VALIDATION, EVIDENCE = 0, 1_000_000, 2_000_000


@dataclass
class Config:
    """What a training searches and how much it plays (see the module docstring)."""

    game: str
    preset: str
    params: list[str]  # the parameters searched (the rest keep the preset's values)
    players: list[int] = field(default_factory=lambda: [2])
    variant: str = "standard"
    overrides: dict = field(default_factory=dict)
    games: int = 2000  # per candidate, opponent and player count
    population: int = 0  # 0: CMA-ES's default for the dimension, 4 + 3 ln(d)
    generations: int = 20
    lookahead_share: float = 0.05
    validate_games: int = 8000
    evidence_games: int = 8000
    evidence_lookahead_games: int = 2000
    seed: int = 1

    def budget(self, opponents: int, lookahead: bool, population: int) -> int:
        """Games the search plays (generations and finalists; the evidence comes on top)."""
        per = self.games * opponents + (self.lookahead_games() if lookahead else 0)
        per_final = self.validate_games * opponents + (
            max(MIN_LOOKAHEAD_GAMES, round(self.validate_games * self.lookahead_share)) if lookahead else 0)
        finalists = 2 * min(FINALIST_GENERATIONS, self.generations) + 1
        return len(self.players) * (self.generations * population * per + finalists * per_final)

    def lookahead_games(self) -> int:
        return max(MIN_LOOKAHEAD_GAMES, round(self.games * self.lookahead_share))


@dataclass
class Trainer:
    """One training: its configuration, folder and the sweeps it plays."""

    config: Config
    folder: Path
    jobs: int | None = None
    backend: str = "loky"
    address: str | None = None
    progress: Callable[[str], None] | None = None
    state: dict = field(default_factory=dict)

    @property
    def game(self):
        return registry.get(self.config.game)

    def searched(self) -> list[bot_settings.BotParam]:
        by_name = {p.name: p for p in self.game.params_of(self.config.preset)}
        return [by_name[n] for n in self.config.params]

    def start_values(self) -> dict[str, float]:
        table = self.game.strategy_table((self.config.preset,))[0]
        row = self.game.preset_names().index(self.config.preset)
        return {p.name: float(table[row, p.slot]) for p in self.searched()}

    def values(self, x) -> dict[str, float]:
        """A point of the unit cube as parameter values (whole numbers rounded)."""
        out = {}
        for p, u in zip(self.searched(), x):
            v = p.low + float(min(1.0, max(0.0, u))) * (p.high - p.low)
            out[p.name] = float(round(v)) if p.integer else round(v, 6)
        return out

    def unit(self, values: dict[str, float]) -> list[float]:
        return [(values[p.name] - p.low) / (p.high - p.low) if p.high > p.low else 0.5 for p in self.searched()]

    def opponents(self, incumbent: dict | None) -> list[str]:
        names = [self.config.preset]
        if self.game.default_strategy not in names:
            names.append(self.game.default_strategy)
        if incumbent is not None:
            names.append(INCUMBENT)
        return names

    def has_lookahead(self) -> bool:
        return LOOKAHEAD in self.game.preset_names() and self.config.lookahead_share > 0

    # -- one batch of candidates, one sweep ---------------------------------------------------

    def play(self, name: str, root: int, candidates: list[dict], incumbent: dict | None, games: int,
             lookahead_games: int) -> list[dict]:
        """Every candidate against the pool, as one sweep in folder/name; each candidate's record.

        A record: {"score": points above fair (pooled), "wins", "fair", "decided", "games",
        "by_opponent": {opponent: {"share", "ci_low", "ci_high", "decided", "players"}}}.
        """
        from simkit.sweeps import runner

        cfg = self.config
        cells, owner = [], []
        for k, values in enumerate(candidates):
            label = f"{CANDIDATE}{k}"
            bots = {label: {bot_settings.BASE: cfg.preset, **values}}
            if incumbent is not None:
                bots[INCUMBENT] = {bot_settings.BASE: cfg.preset, **incumbent}
            pool = [(o, games) for o in self.opponents(incumbent)]
            if self.has_lookahead() and lookahead_games:
                pool.append((LOOKAHEAD, lookahead_games))
            for players in cfg.players:
                for opponent, n in pool:
                    used = {b: s for b, s in bots.items() if b in (label, opponent)}
                    cells.append(specs.Cell(f"{label}-vs-{opponent}-{players}p", cfg.game, players, cfg.variant,
                                            dict(cfg.overrides), (label, opponent), n, used))
                    owner.append((k, opponent, players))
        sweep = specs.Sweep(f"train-{name}", root, cells, source=f"simkit train {cfg.game} --preset {cfg.preset}")
        folder = self.folder / name
        resume = (folder / "plan.json").exists()
        state = np.random.get_state()  # the search's own draws must not depend on what a sweep draws
        try:
            runner.run(None if resume else sweep, folder, jobs=self.jobs, backend=self.backend, address=self.address,
                       resume=resume, quiet=True, report=False)
        finally:
            np.random.set_state(state)
        return _records(folder, cells, owner, len(candidates))

    # -- the search ---------------------------------------------------------------------------

    def run(self) -> dict:
        import cma

        cfg = self.config
        began = time.perf_counter()
        start = self.start_values()
        dim = len(start)
        es = cma.CMAEvolutionStrategy(self.unit(start), SIGMA, {
            "bounds": [0, 1], "popsize": cfg.population or 4 + int(3 * math.log(dim)),
            "seed": int(derive(np.uint64(cfg.seed), np.uint64(7)) % np.uint64(2**31 - 1)) + 1, "verbose": -9})
        population = es.popsize
        done = self.state.setdefault("generations", [])
        budget = cfg.budget(len(self.opponents({})), self.has_lookahead(), population)
        self.say(f"training {cfg.preset} of {cfg.game}: {dim} parameters, {cfg.generations} generations of "
                 f"{population} candidates, {cfg.games:,} games each against each of "
                 f"{', '.join(self.opponents(None))}, {'the incumbent (from generation 2), ' if cfg.generations > 1 else ''}"
                 + (f"and lookahead on {cfg.lookahead_share:.0%} of that, " if self.has_lookahead() else "")
                 + f"at {', '.join(map(str, cfg.players))} players: about {budget:,} games before the evidence")
        incumbent = None
        for g in range(cfg.generations):
            asked = es.ask()
            candidates = [self.values(x) for x in asked]
            if g < len(done):  # replayed from train.json: the same seed asks the same candidates
                if done[g]["candidates"] != candidates:
                    raise InputError(f"{self.folder / STATE}: generation {g} asks other candidates than it recorded "
                                     "(a different cma version?); start a new training")
                scores = [r["score"] for r in done[g]["records"]]
            else:
                t = time.perf_counter()
                root = int(derive(np.uint64(cfg.seed), np.uint64(GENERATION + g)))
                records = self.play(f"gen-{g:03d}", root, candidates, incumbent, cfg.games, cfg.lookahead_games())
                scores = [r["score"] for r in records]
                games = sum(r["games"] for r in records)
                done.append({"generation": g, "seed": root, "candidates": candidates, "records": records,
                             "mean": self.values(es.mean), "games": games,
                             "seconds": round(time.perf_counter() - t, 1)})
                self.save()
                spent = sum(d["seconds"] for d in done)
                left = spent / len(done) * (cfg.generations - g - 1)
                self.say(f"generation {g + 1}/{cfg.generations}: best {max(scores):+.1f} points, median "
                         f"{float(np.median(scores)):+.1f}, {games:,} games in {done[g]['seconds']:.0f} s; "
                         f"about {_minutes(left)} left for the search")
            es.tell(asked, [-s for s in scores])
            incumbent = self.values(es.mean)
            done[g]["next_mean"] = incumbent
        self.finalists(start)
        self.evidence()
        self.state["seconds"] = round(self.state.get("seconds", 0.0) + time.perf_counter() - began, 1)
        self.save()
        return self.state

    def finalists(self, start: dict) -> None:
        """Play the finalists on fresh seeds and choose the answer (see the module docstring)."""
        cfg = self.config
        if "answer" in self.state:
            return
        done = self.state["generations"]
        finalists: list[dict] = [start]
        for d in done[-FINALIST_GENERATIONS:]:
            best = int(np.argmax([r["score"] for r in d["records"]]))
            for values in (d["next_mean"], d["candidates"][best]):
                if values not in finalists:
                    finalists.append(values)
        root = int(derive(np.uint64(cfg.seed), np.uint64(VALIDATION)))
        la = max(MIN_LOOKAHEAD_GAMES, round(cfg.validate_games * cfg.lookahead_share))
        self.say(f"finalists: {len(finalists)} parameter sets, {cfg.validate_games:,} games each against the pool "
                 "on fresh seeds")
        records = self.play("finalists", root, finalists, None, cfg.validate_games, la)
        best = int(np.argmax([r["score"] for r in records]))
        self.state["finalists"] = [{"values": v, **r} for v, r in zip(finalists, records)]
        self.state["answer"] = finalists[best]
        self.state["answer_is_start"] = best == 0
        self.save()
        self.say(f"answer: finalist {best} ({'the preset as it was' if best == 0 else 'tuned'}), "
                 f"{records[best]['score']:+.1f} points against the pool")

    def evidence(self) -> None:
        """The answer head to head and in self-play, on fresh seeds (see the module docstring)."""
        from simkit.sweeps import runner

        cfg = self.config
        if "evidence" in self.state:
            return
        answer = self.state["answer"]
        game = self.game
        label = bot_settings.TUNED
        bots = {label: {bot_settings.BASE: cfg.preset, **answer}}
        references = list(dict.fromkeys([cfg.preset, game.default_strategy]))
        cells = []
        for players in game.players:
            for ref in references:
                cells.append(specs.Cell(f"{label}-vs-{ref}-{players}p", cfg.game, players, cfg.variant,
                                        dict(cfg.overrides), (label, ref), cfg.evidence_games, bots))
            cells.append(specs.Cell(f"{label}-selfplay-{players}p", cfg.game, players, cfg.variant,
                                    dict(cfg.overrides), (label,), max(1000, cfg.evidence_games // 4), bots))
        if self.has_lookahead():
            cells.append(specs.Cell(f"{label}-vs-{LOOKAHEAD}-2p", cfg.game, 2, cfg.variant, dict(cfg.overrides),
                                    (label, LOOKAHEAD), cfg.evidence_lookahead_games, bots))
        cells = [c for c in cells if c.players in game.players]
        root = int(derive(np.uint64(cfg.seed), np.uint64(EVIDENCE)))
        folder = self.folder / "evidence"
        self.say(f"evidence: {sum(c.games for c in cells):,} games on fresh seeds (head to head, self-play)")
        t = time.perf_counter()
        resume = (folder / "plan.json").exists()
        runner.run(None if resume else specs.Sweep("train-evidence", root, cells), folder, jobs=self.jobs,
                   backend=self.backend, address=self.address, resume=resume, quiet=True, report=False)
        self.state["evidence"] = _evidence(folder, cells, label)
        self.state["evidence_seconds"] = round(time.perf_counter() - t, 1)
        self.save()

    # -- bookkeeping --------------------------------------------------------------------------

    def say(self, text: str) -> None:
        if self.progress:
            self.progress(text)

    def save(self) -> None:
        from simkit.sweeps.results import write_text

        write_text(self.folder / STATE, json.dumps({"config": asdict(self.config), **self.state}, indent=1))


def _records(folder: Path, cells: list, owner: list, n: int) -> list[dict]:
    """Each candidate's pooled score and per-opponent shares from a finished sweep folder."""
    shares = _shares(folder, cells)
    records = [{"wins": 0.0, "fair": 0.0, "decided": 0, "games": 0, "by_opponent": {}} for _ in range(n)]
    for cell, (k, opponent, players) in zip(cells, owner):
        s = shares[cell.id]
        r = records[k]
        r["wins"] += s["wins"]
        r["fair"] += s["fair"]
        r["decided"] += s["decided"]
        r["games"] += cell.games
        r["by_opponent"][f"{opponent}-{players}p"] = {key: s[key] for key in ("share", "ci_low", "ci_high",
                                                                              "decided", "capped")}
    for r in records:
        r["score"] = 100.0 * (r["wins"] - r["fair"]) / r["decided"] if r["decided"] else -100.0
    return records


def _shares(folder: Path, cells: list) -> dict[str, dict]:
    """Per cell: the first label's wins, its fair share and the decided games (shared wins split)."""
    seats = pl.read_parquet(folder / "seats.parquet", columns=["cell", "game_index", "seat", "strategy", "win"])
    first = {c.id: c.lineup[0] for c in cells}
    per_game = (seats.with_columns(pl.col("cell").replace_strict(first, default="").alias("_label"))
                .group_by("cell", "game_index")
                .agg(pl.col("win").sum().alias("decided"),
                     (pl.col("win") * (pl.col("strategy") == pl.col("_label"))).sum().alias("wins"),
                     (pl.col("strategy") == pl.col("_label")).mean().alias("seats")))
    totals = (per_game.group_by("cell")
              .agg(pl.col("wins").sum(), (pl.col("seats") * pl.col("decided")).sum().alias("fair"),
                   pl.col("decided").sum(), pl.len().alias("games")))
    out = {}
    for row in totals.iter_rows(named=True):
        # a parallel float sum's order varies from run to run: round the shares' last bits away
        row["wins"], row["fair"] = round(row["wins"], 9), round(row["fair"], 9)
        decided = round(row["decided"])
        share = row["wins"] / decided if decided else 0.0
        low, high = wilson(row["wins"], decided)
        out[row["cell"]] = {"wins": row["wins"], "fair": row["fair"], "decided": decided, "share": share,
                            "ci_low": low, "ci_high": high, "games": row["games"],
                            "capped": 1.0 - decided / row["games"] if row["games"] else 0.0,
                            "fair_share": row["fair"] / decided if decided else 0.0}
    return out


def _evidence(folder: Path, cells: list, label: str) -> list[dict]:
    shares = _shares(folder, cells)
    rows = []
    for c in cells:
        s = shares[c.id]
        rows.append({"cell": c.id, "players": c.players, "lineup": ",".join(c.lineup), "games": c.games,
                     "decided": s["decided"], "capped": s["capped"], "share": s["share"], "ci_low": s["ci_low"],
                     "ci_high": s["ci_high"], "fair": s["fair_share"],
                     "opponent": c.lineup[1] if len(c.lineup) > 1 else None})
    return rows


def _minutes(seconds: float) -> str:
    return f"{seconds / 60:.0f} min" if seconds >= 90 else f"{seconds:.0f} s"


# -- the library call ---------------------------------------------------------------------------


def train(game: str, preset: str, *, players: str | list | None = None, variant: str = "standard",
          set: list[str] | dict | None = None, params: str | list | None = None, games: int = 2000,
          population: int = 0, generations: int = 20, lookahead_share: float = 0.05, validate_games: int = 8000,
          evidence_games: int = 8000, evidence_lookahead_games: int = 2000, seed: int = 1,
          jobs: int | None = None, backend: str = "loky", address: str | None = None,
          out: str | Path | None = None, resume: bool = False, write: bool = True, install: bool = False,
          tuned_folder: str | Path | None = None, progress: Callable[[str], None] | None = None) -> dict:
    """Train `preset` of `game` (see the module docstring); returns the state written to train.json.

    players: the player counts of the objective (default 2). params: the parameters searched
    (default: every heuristic parameter of the preset). write: put the answer and its evidence
    (tuned.toml, tuned.md, tuned.json) into the training folder, or into `tuned_folder` when
    given. install: also into the game's package, as its `tuned` preset. resume: finish the
    training in `out`.
    """
    from simkit.core.files import expand_user

    if out is not None:
        out = expand_user(str(out), "--out")
    if resume:
        if out is None:
            raise InputError("--resume needs --out DIR, the folder of the training to finish")
        folder = Path(out)
        try:
            saved = json.loads((folder / STATE).read_text())
            config = Config(**saved.pop("config"))
        except (OSError, ValueError, TypeError) as e:
            raise InputError(f"{folder / STATE} cannot be read ({e}); start a new training") from None
        trainer = Trainer(config, folder, jobs, backend, address, progress, saved)
    else:
        config = _config(game, preset, players, variant, set, params, games, population, generations,
                         lookahead_share, validate_games, evidence_games, evidence_lookahead_games, seed)
        folder = Path(out) if out is not None else Path("reports") / (
            f"train-{game}-{preset}-{datetime.now().strftime('%Y%m%d-%H%M%S')}")
        if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
            raise InputError(f"--out {folder} is not a new or empty folder; choose a new one, or add --resume")
        try:
            import cma  # noqa: F401  (checked before anything is written)
        except ImportError:
            raise InputError("simkit train needs the optional package cma: pip install 'simkit[train]'") from None
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise InputError(f"cannot write to --out {folder}: {e.strerror}; choose a writable folder") from None
        trainer = Trainer(config, folder, jobs, backend, address, progress)
        trainer.state["started"] = datetime.now(UTC).isoformat(timespec="seconds")
        trainer.save()
    state = trainer.run()
    if write or install:
        written = write_tuned(trainer, Path(tuned_folder) if tuned_folder is not None else None)
        trainer.say(f"wrote {written}; play it with --bot mine:file={written} (or install it: --install)")
    if install:
        installed = write_tuned(trainer, registry.folder(trainer.config.game))
        trainer.say(f"installed {installed}: the {bot_settings.TUNED} preset of {trainer.config.game}")
    return state


def _config(game, preset, players, variant, set, params, games, population, generations, lookahead_share,
            validate_games, evidence_games, evidence_lookahead_games, seed) -> Config:
    """A validated Config: every problem is an InputError before anything is played."""
    the_game = registry.get(game)
    if preset not in the_game.preset_names():
        raise unknown(f"preset of {game}", preset, the_game.preset_names(), "--preset")
    if the_game.preset(preset).kind != bot_settings.HEURISTIC:
        raise InputError(f"--preset {preset} is a {the_game.preset(preset).kind} preset; train searches the "
                         "parameters of a heuristic preset")
    declared = [p.name for p in the_game.params_of(preset) if p.reader == bot_settings.HEURISTIC]
    if not declared:
        raise InputError(f"{game} declares no bot parameters for {preset}; see simkit strategies {game}")
    if params is None:
        names = declared
    else:
        names = [n.strip() for n in params.split(",")] if isinstance(params, str) else list(params)
        for n in names:
            if n not in declared:
                raise unknown(f"parameter of {preset}", n, declared, "--params")
        if len(set_ := dict.fromkeys(names)) != len(names):
            raise InputError(f"--params names a parameter twice: {', '.join(names)}")
        names = list(set_)
    if len(names) < 2:
        raise InputError("--params: CMA-ES searches at least 2 parameters; name two or more")
    counts = specs.parse_players(players) if players is not None else [2]
    for label, value, low, high in (("--games", games, 2, 10_000_000), ("--generations", generations, 1, 10_000),
                                    ("--validate-games", validate_games, 2, 10_000_000),
                                    ("--evidence-games", evidence_games, 2, 10_000_000),
                                    ("--evidence-lookahead-games", evidence_lookahead_games, 2, 10_000_000)):
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise InputError(f"{label} must be a whole number from {low:,} to {high:,}, got {value!r}")
    if isinstance(population, bool) or not isinstance(population, int) or population != 0 and population < 4:
        raise InputError(f"--population must be 0 (CMA-ES's default) or at least 4, got {population!r}")
    if not isinstance(lookahead_share, (int, float)) or not 0 <= lookahead_share <= 1:
        raise InputError(f"--lookahead-share must be a share from 0 to 1, got {lookahead_share!r}")
    seed = specs._seed(seed, "--seed")
    overrides = specs.parse_set(set)
    # the cells a training plays, checked as a sweep would be (players, variant, rules, seatings)
    specs.load({"name": "train", "study": [{"game": game, "players": counts, "variants": variant, "set": overrides,
                                            "strategies": f"{preset},{the_game.default_strategy}",
                                            "games": games}]})
    return Config(game, preset, names, counts, variant, overrides, games, population, generations,
                  float(lookahead_share), validate_games, evidence_games, evidence_lookahead_games, seed)


# -- the data file --------------------------------------------------------------------------------


def write_tuned(trainer: Trainer, folder: Path | None = None) -> Path:
    """tuned.toml (the `tuned` preset's values), tuned.json and tuned.md in `folder`: by default the
    training folder; the game's package (registry.folder) only when installing."""
    from simkit.sweeps.results import write_text

    cfg, state = trainer.config, trainer.state
    game = trainer.game
    folder = Path(folder) if folder is not None else trainer.folder
    values = state["answer"]
    lines = [f"# The `tuned` preset of {cfg.game}: {cfg.preset}'s parameters found by simkit train",
             "# (the evidence is in tuned.md beside this file). Rerun: " + command(cfg), "",
             f'game = "{cfg.game}"', f'{bot_settings.BASE} = "{cfg.preset}"', "", "[params]"]
    lines += [f"{k} = {v:g}" for k, v in values.items()]
    write_text(folder / bot_settings.TUNED_FILE, "\n".join(lines) + "\n")
    write_text(folder / "tuned.json", json.dumps({"config": asdict(cfg), "command": command(cfg), **{
        k: state[k] for k in ("answer", "answer_is_start", "finalists", "evidence", "seconds", "evidence_seconds")
        if k in state}, "games": games_played(state)}, indent=1))
    write_text(folder / "tuned.md", evidence_markdown(cfg, state, game))
    return folder / bot_settings.TUNED_FILE


def command(cfg: Config) -> str:
    parts = [f"simkit train {cfg.game} --preset {cfg.preset}", f"--players {','.join(map(str, cfg.players))}",
             f"--games {cfg.games}", f"--generations {cfg.generations}", f"--seed {cfg.seed}"]
    if cfg.population:
        parts.append(f"--population {cfg.population}")
    if cfg.lookahead_share != 0.05:
        parts.append(f"--lookahead-share {cfg.lookahead_share:g}")
    if cfg.variant != "standard":
        parts.append(f"--variant {cfg.variant}")
    parts += [f"--set {k}={v}" for k, v in cfg.overrides.items()]
    return " ".join(parts)


def games_played(state: dict) -> int:
    total = sum(g["games"] for g in state.get("generations", []))
    total += sum(f["games"] for f in state.get("finalists", []))
    total += sum(e["games"] for e in state.get("evidence", []))
    return total


def evidence_markdown(cfg: Config, state: dict, game) -> str:
    start = {p.name: float(game.strategy_table((cfg.preset,))[0][game.preset_names().index(cfg.preset), p.slot])
             for p in game.params_of(cfg.preset) if p.name in state["answer"]}
    lines = [f"# The tuned preset of {game.title}", "",
             (f"`tuned` is `{cfg.preset}` with the parameters below, found by `{command(cfg)}` "
             f"({games_played(state):,} games, {state.get('seconds', 0) / 60:.0f} minutes of search and evidence on "
             "the machine that ran it). The evidence was played on seeds the search never saw."), "",
             "| parameter | " + cfg.preset + " | tuned | meaning |", "|---|---:|---:|---|"]
    meaning = {p.name: p.meaning for p in game.bot_params}
    lines += [f"| {k} | {start[k]:g} | {v:g} | {meaning[k]} |" for k, v in state["answer"].items()]
    lines += ["", "## Evidence", "",
              ("Share of decided games won by the tuned seats, seats balanced (each line-up seats every strategy "
              "in every seat equally often), against the fair share; self-play rows give the share of games "
              "stopped by the round cap."), "",
              "| players | opponent | games | tuned's share of decided games (95% CI) | fair | round-capped |",
              "|---:|---|---:|---|---:|---:|"]
    for e in state["evidence"]:
        if e["opponent"] is None:
            lines.append(f"| {e['players']} | self-play | {e['games']:,} | | | {100 * e['capped']:.2f}% |")
        else:
            lines.append(f"| {e['players']} | {e['opponent']} | {e['games']:,} | {100 * e['share']:.1f}% "
                         f"({100 * e['ci_low']:.1f}–{100 * e['ci_high']:.1f}) | {100 * e['fair']:.1f}% "
                         f"| {100 * e['capped']:.2f}% |")
    lines += ["", "## The search", "",
              (f"{len(state['generations'])} generations of {len(state['generations'][0]['candidates'])} candidates, "
              f"{cfg.games:,} games each against each opponent of the pool at {', '.join(map(str, cfg.players))} "
              f"players (lookahead on {cfg.lookahead_share:.0%} of them); seed {cfg.seed}."), "",
              "| generation | best (points above fair) | median | games | seconds |", "|---:|---:|---:|---:|---:|"]
    for g in state["generations"]:
        scores = [r["score"] for r in g["records"]]
        lines.append(f"| {g['generation'] + 1} | {max(scores):+.1f} | {float(np.median(scores)):+.1f} "
                     f"| {g['games']:,} | {g['seconds']:.0f} |")
    lines += ["", "Finalists on fresh seeds (points above fair against the pool):", "",
              "| finalist | points | games |", "|---:|---:|---:|"]
    for i, f in enumerate(state["finalists"]):
        tag = " (the preset as shipped)" if i == 0 else ""
        lines.append(f"| {i}{tag} | {f['score']:+.1f} | {f['games']:,} |")
    return "\n".join(lines) + "\n"
