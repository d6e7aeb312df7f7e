"""Tide of Avaris (playtest rules), 2-4 players: the game package the toolkit reads through GAME."""

from simkit.core.game import Game
from simkit.games.tide_of_avaris import chunk, components, events, rules
from simkit.games.tide_of_avaris import state as S
from strategies import tide_of_avaris as bots


def check_players(players: int, values: dict):
    if players < 2 or players > S.MAX_PLAYERS:
        return f"Tide of Avaris is for 2-{S.MAX_PLAYERS} players, not {players}"
    return None


GAME = Game.from_package(
    id="tide_of_avaris",
    title="Tide of Avaris (playtest rules)",
    players=(2, 3, 4),
    state=S,
    components=components,
    rules=rules,
    events=events,
    chunk=chunk,
    bots=bots,
    check_players=check_players,
)
