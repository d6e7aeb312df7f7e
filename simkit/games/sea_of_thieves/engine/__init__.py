"""The Sea of Thieves engine, one module per rulebook section (numba): hexes (the board and
movement), cargo (bags, holds, hexes), crew (rolls, defeat, tasks, sinking, respawn), actions
(Full Sail, Open Fire, Plunder, special actions), trade (the Outpost's five stages and
commissions), voyages, scoring, and round (set-up, the four phases, the engine entry point)."""

from simkit.games.sea_of_thieves.engine.round import (
    play_chunk,
    play_chunk_heuristic,
    play_games,
    setup_game,
    take_turn,
)

__all__ = ["play_chunk", "play_chunk_heuristic", "play_games", "setup_game", "take_turn"]
