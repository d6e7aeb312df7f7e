"""Set Sail (2-4 players; 5-6 as the assumed `extended` variant): the game package the
toolkit reads through GAME."""

from simkit.core.game import Game
from simkit.games.set_sail import chunk, components, events, rules
from simkit.games.set_sail import state as S
from strategies import set_sail as bots


def check_players(players: int, values: dict):
    if players > 4 and not values.get("extension"):
        return f"the rules are written for 2-4 players; {players} needs the 'extended' variant (assumption A20)"
    if players < 2 or players > S.MAX_PLAYERS:
        return f"Set Sail is for 2-{S.MAX_PLAYERS} players, not {players}"
    return None


GAME = Game.from_package(
    id="set_sail",
    title="Set Sail",
    players=(2, 3, 4),
    state=S,
    components=components,
    rules=rules,
    events=events,
    chunk=chunk,
    bots=bots,
    check_players=check_players,
)
