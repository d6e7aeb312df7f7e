"""Sea of Plunder (2-4 players): the game package the toolkit reads through GAME."""

from simkit.core.game import Game
from simkit.games.sea_of_plunder import chunk, components, events, rules
from simkit.games.sea_of_plunder import state as S
from strategies import sea_of_plunder as bots


def check_players(players: int, values: dict):
    if values.get("two_player") and players != 2:
        return f"the two-player variant needs exactly 2 players, got {players}"
    return None


GAME = Game.from_package(
    id="sea_of_plunder",
    title="Sea of Plunder",
    players=(2, 3, 4),
    state=S,
    components=components,
    rules=rules,
    events=events,
    chunk=chunk,
    bots=bots,
    check_players=check_players,
)
