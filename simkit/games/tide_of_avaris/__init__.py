"""Tide of Avaris (playtest rules), 2-4 players: the game package the toolkit reads through GAME."""

from simkit.core.game import Compiled, Game
from simkit.games.tide_of_avaris import chunk, components, events, rules
from simkit.games.tide_of_avaris import state as S
from strategies import tide_of_avaris as bots


def compile_rules(values: dict, players: int) -> Compiled:
    comp = components.load(values["components"])
    return Compiled(rules.SCHEMA.engine_tuple(values), components.compile_arrays(comp, values, players), comp.raw)


def check_players(players: int, values: dict):
    if players < 2 or players > S.MAX_PLAYERS:
        return f"Tide of Avaris is for 2-{S.MAX_PLAYERS} players, not {players}"
    return None


GAME = Game(
    id="tide_of_avaris",
    title="Tide of Avaris (playtest rules)",
    players=(2, 3, 4),
    rules=rules.SCHEMA,
    presets=bots.PRESETS,
    default_strategy=bots.DEFAULT,
    previous_default=bots.PREVIOUS_DEFAULT,
    bot_params=bots.PARAMS,
    end_reasons=S.END_REASONS,
    game_metrics=S.GAME_METRICS,
    seat_metrics=S.SEAT_METRICS,
    compile=compile_rules,
    play_chunk=chunk.play_chunk,
    play_chunk_heuristic=chunk.play_chunk_heuristic,
    describe_event=events.describe_event,
    check_players=check_players,
    max_players=S.MAX_PLAYERS,
)
