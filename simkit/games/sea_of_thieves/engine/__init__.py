"""The Sea of Thieves engine, one module per rulebook section (numba): hexes (the board and
movement), cargo (bags, holds, hexes), crew (rolls, defeat, tasks, sinking, respawn), actions
(Full Sail, Open Fire, Plunder, special actions), trade (the Outpost's five stages and
commissions), voyages, scoring, and round (set-up, a player's turn, the phases after the Fleets
phase). The game loop is ../chunk.py, the lookahead tier ../lookahead.py."""

from simkit.games.sea_of_thieves.engine.round import setup_game, take_turn

__all__ = ["setup_game", "take_turn"]
