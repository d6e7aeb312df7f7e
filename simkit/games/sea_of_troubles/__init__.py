"""Sea of Troubles (Scoundrels!), 2-5 players; Skirmish Mode 3-4: the game package the
toolkit reads through GAME."""

from simkit.core.game import Game
from simkit.games.sea_of_troubles import chunk, components, events, rules
from simkit.games.sea_of_troubles import state as S
from strategies import sea_of_troubles as bots


def check_players(players: int, values: dict):
    if values.get("skirmish") and players not in (3, 4):
        return f"Skirmish Mode is for 3-4 players, not {players}"
    if players < 2 or players > S.MAX_PLAYERS:
        return f"Sea of Troubles is for 2-{S.MAX_PLAYERS} players, not {players}"
    return None


GAME = Game.from_package(
    id="sea_of_troubles",
    title="Sea of Troubles (Scoundrels!)",
    players=(2, 3, 4, 5),
    state=S,
    components=components,
    rules=rules,
    events=events,
    chunk=chunk,
    bots=bots,
    check_players=check_players,
)
