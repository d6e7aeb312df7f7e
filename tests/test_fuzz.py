"""Fuzzing every registered game (hypothesis): random rule values from each parameter's
declared range, and random edits of its component files in a designer's folder. A rule
set is either refused with an InputError (one `error:` line on the command line) or it
plays: no crash, no hang (the round cap bounds every game), and the result contract
holds (codes in range, one rank-1 group, wins only in finished games)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from simkit import games as registry
from simkit.core.components import ComponentSet
from simkit.core.errors import InputError
from simkit.core.game import RANK, WINNER
from simkit.core.rng import game_seeds
from simkit.sweeps.results import chunk_tables
from simkit.sweeps.runner import play, seat_strategies

GAMES = [g for g in registry.ids() if g != "dicegame"]
SETTINGS = settings(max_examples=12, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
ROUND_CAP_LIMIT = 300  # keeps a fuzzed game short; the cap itself stays a drawn value below it


def value_for(param, draw):
    if param.kind == "bool":
        return draw(st.booleans())
    if param.kind == "choice":
        return draw(st.sampled_from(param.allowed))
    if param.kind == "int":
        low, high = param.allowed
        if "cap" in param.name:
            high = min(high, ROUND_CAP_LIMIT)
        return draw(st.integers(low, high))
    if param.kind == "float":
        low, high = param.allowed
        return draw(st.floats(low, high, allow_nan=False))
    return param.default


def play_a_few(game, values: dict, players: int) -> None:
    compiled = game.compile(values, players)
    lineup = tuple(game.preset_names())
    strategies = seat_strategies(game, lineup, players, 0, 3)
    seeds = game_seeds(np.uint64(11), 0, 3)
    out_games, out_seats, _ = play(game, compiled, strategies, seeds)
    chunk_tables(game, "fuzz", 0, seeds, strategies, out_games, out_seats)  # codes in range, or it raises
    for g in range(out_seats.shape[0]):
        ranks, wins = out_seats[g, :, RANK], out_seats[g, :, WINNER]
        assert ranks.min() == 1 and ranks.max() <= players
        assert wins.sum() == 0 or set(np.flatnonzero(wins)) == set(np.flatnonzero(ranks == 1))


@pytest.mark.parametrize("game_id", GAMES)
def test_random_rule_values_play_or_are_refused(game_id):
    game = registry.get(game_id)

    @SETTINGS
    @given(st.data())
    def run(data):
        overrides = {}
        for param in game.rules.params:
            if param.kind != "components" and data.draw(st.booleans(), label=f"change {param.name}"):
                overrides[param.name] = value_for(param, data.draw)
        players = data.draw(st.sampled_from(sorted(game.players)), label="players")
        try:
            values = game.rules.resolve("standard", overrides)
            problem = game.check_players(players, values) if game.check_players else None
            if problem:
                return
            play_a_few(game, values, players)
        except InputError:
            pass  # refused with a message: what a bad rule set should get

    run()


NUMBER = re.compile(r"(?<![\w.])-?\d+(?![\w.])")


def base_folder(game) -> Path | None:
    param = next((p for p in game.rules.params if p.kind == "components"), None)
    return Path(param.allowed[0]) if param else None


@pytest.mark.parametrize("game_id", GAMES)
def test_edited_component_files_play_or_are_refused(game_id, tmp_path_factory):
    game = registry.get(game_id)
    base = base_folder(game)
    if base is None:
        pytest.skip(f"{game_id} declares no component sets")
    files = sorted(p.name for p in base.iterdir() if p.is_file() and p.suffix != ".md")

    @SETTINGS
    @given(st.data())
    def run(data):
        folder = tmp_path_factory.mktemp("designer")
        name = data.draw(st.sampled_from(files), label="file")
        text = (base / name).read_text()
        numbers = list(NUMBER.finditer(text))
        lines = text.splitlines(keepends=True)
        how = data.draw(st.sampled_from(["number", "drop line", "duplicate line"]), label="edit")
        if how == "number" and numbers:
            m = data.draw(st.sampled_from(numbers), label="which number")
            new = data.draw(st.sampled_from([-1, 0, 1, 2, 7, 99, 10**6]), label="new value")
            text = text[: m.start()] + str(new) + text[m.end():]
        elif lines:
            k = data.draw(st.integers(0, len(lines) - 1), label="line")
            lines = lines[:k] + lines[k + 1:] if how == "drop line" else lines[:k + 1] + lines[k:]
            text = "".join(lines)
        (folder / name).write_text(text)
        players = data.draw(st.sampled_from(sorted(game.players)), label="players")
        try:
            values = game.rules.resolve("standard", {"components": str(folder)})
            ComponentSet.open(base, str(folder))
            problem = game.check_players(players, values) if game.check_players else None
            if not problem:
                play_a_few(game, values, players)
        except InputError:
            pass
        finally:
            shutil.rmtree(folder, ignore_errors=True)

    run()
