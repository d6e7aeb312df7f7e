"""Sea of Troubles (Scoundrels!), 2-5 players; Skirmish Mode 3-4: the game package the
toolkit reads through GAME."""

from simkit.core.game import Compiled, Game
from simkit.games.sea_of_troubles import chunk, components, events, rules
from simkit.games.sea_of_troubles import state as S
from strategies import sea_of_troubles as bots


def compile_rules(values: dict, players: int) -> Compiled:
    comp = components.load(values["components"])
    return Compiled(rules.SCHEMA.engine_tuple(values), components.compile_arrays(comp, values, players), comp.raw)


def check_players(players: int, values: dict):
    if values.get("skirmish") and players not in (3, 4):
        return f"Skirmish Mode is for 3-4 players, not {players}"
    if players < 2 or players > S.MAX_PLAYERS:
        return f"Sea of Troubles is for 2-{S.MAX_PLAYERS} players, not {players}"
    return None


GAME = Game(
    id="sea_of_troubles",
    title="Sea of Troubles (Scoundrels!)",
    players=(2, 3, 4, 5),
    rules=rules.SCHEMA,
    presets=bots.PRESETS,
    default_strategy=bots.DEFAULT,
    previous_default=bots.PREVIOUS_DEFAULT,
    bot_params=bots.PARAMS,
    end_reasons=S.END_REASONS,
    game_metrics=S.GAME_METRICS,
    seat_metrics=S.SEAT_METRICS,
    compile=compile_rules,
    play_chunk=chunk.play_chunk,  # the game loop, with the lookahead tier's seats
    play_chunk_heuristic=chunk.play_chunk_heuristic,  # the same, for batches without them
    describe_event=events.describe_event,
    check_players=check_players,
    max_players=S.MAX_PLAYERS,
)
