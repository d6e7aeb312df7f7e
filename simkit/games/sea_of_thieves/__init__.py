"""Sea of Thieves: The Board Game, 2-4 players (the board, the four phases of a round - fleets,
ocean hazards, events, fortune -, voyages, enemies, the economy and scoring): the game package
the toolkit reads through GAME."""

from simkit.core.bots import HEURISTIC_POLICY
from simkit.core.game import Compiled, Game
from simkit.games.sea_of_thieves import chunk, components, events, rules
from simkit.games.sea_of_thieves import state as S
from strategies import sea_of_thieves as bots


def compile_rules(values: dict, players: int) -> Compiled:
    comp = components.load(values["components"])
    two = rules.uses_two_player(values, players)
    K = components.compile_arrays(comp, two)
    return Compiled(rules.SCHEMA.engine_tuple(values), (K,), comp.raw)


def check_players(players: int, values: dict):
    if players < 2 or players > S.MAX_PLAYERS:
        return f"Sea of Thieves is for 2-{S.MAX_PLAYERS} players, not {players}"
    return None


GAME = Game.from_package(
    id="sea_of_thieves",
    title="Sea of Thieves: The Board Game",
    players=(2, 3, 4),
    state=S,
    components=components,
    rules=rules,
    events=events,
    chunk=chunk,
    bots=bots,
    check_players=check_players,
    compile=compile_rules,
    lookahead_policy=HEURISTIC_POLICY,  # a lookahead seat is one with rollouts (strategies: W_ROLLOUTS)
)
