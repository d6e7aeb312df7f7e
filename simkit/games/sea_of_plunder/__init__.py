"""Sea of Plunder (2-4 players): the game package the toolkit reads through GAME."""

from simkit.core.game import Compiled, Game
from simkit.games.sea_of_plunder import chunk, components, events, rules
from simkit.games.sea_of_plunder import state as S
from strategies import sea_of_plunder as bots


def compile_rules(values: dict, players: int) -> Compiled:
    comp = components.load(values["components"])
    return Compiled(rules.SCHEMA.engine_tuple(values), components.compile_arrays(comp, values, players), comp.raw)


def check_players(players: int, values: dict):
    if values.get("two_player") and players != 2:
        return f"the two-player variant needs exactly 2 players, got {players}"
    return None


GAME = Game(
    id="sea_of_plunder",
    title="Sea of Plunder",
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
)
