"""Sea of Thieves rule parameters and named variants, each declared once with its source (a
rulebook section, or an assumption id registered in this game's coverage.toml).

Starting gold per seat is one list parameter (`starting_gold`, one figure per seat); the engine
reads it as `starting_gold_1` .. `_4`, and a sweep grids over whole gradients.
"""

from simkit.core.components import component_param
from simkit.core.rules import DESIGNER_KNOB, Param, RuleSchema, Variant
from simkit.games.sea_of_thieves.components import FOLDER

PARAMS = (
    component_param(FOLDER, "component files: standard, alt-islands (tiles mirrored), alt-layout (other tile "
                    "maps: islands on side A's rim, in side B's core), alt-rewards (voyage rewards rebalanced), "
                    "alt-hazards (enemies that pay like voyages, five event cards of each spawn), alt-charts "
                    "(behaviour charts of hunters), alt-track (a fortune symbol every fifth space), alt-fortune (a "
                    "deck of special actions), alt-crew (special crew priced at the Wealth rate) or a designer's "
                    "folder (invented files: A1-A11, A40-A46)"),
    Param("two_player", "choice", "auto", ("auto", "on", "off"), "two-player board and set-up (hub's crossed-out "
          "face, four tiles, reroll 1 and 6, 8 fewer skeletons, voyage filter); auto: on at 2 players",
          "Two-Player Games"),
    Param("first_game_layout", "bool", False, meaning="tiles at the cover sheet's fixed positions and sides "
          "instead of shuffled and sided at random", source="Setting Up: The Game Board (A2)"),
    Param("starting_gold", "ints", (600, 700, 800, 900), (0, 10000, 4),
          "gold of the first, second, third and fourth player (a designer knob to grid over)", "Final Setup"),
    Param("equal_gold", "bool", False, meaning="every seat starts with equal_gold_amount", source="A13"),
    Param("equal_gold_amount", "int", 750, (0, 10000), "everyone's gold under equal_gold", "A13"),
    Param("win_reputation", "int", 25, (1, 200), "reputation that triggers the end (the round is finished)",
          "Winning the Game"),
    Param("start_fortune", "int", 3, (0, 10), "fortune cards each player draws at set-up", "Final Setup"),
    Param("start_voyages", "int", 3, (0, 10), "meagre voyage cards each player draws at set-up", "Final Setup"),
    Param("start_resources", "int", 2, (0, 6), "resource tokens in each ship's hold at set-up", "Player Setup (A14)"),
    Param("actions_per_turn", "int", 3, (1, 6), "actions a player makes each turn", "Actions"),
    Param("actions_per_ship", "int", 2, (1, 6), "action tokens a ship can hold", "Actions"),
    Param("fortune_limit", "int", 3, (0, 20), "fortune cards kept at clean up", "Clean Up"),
    Param("voyage_limit", "int", 3, (0, 20), "voyage cards kept at clean up", "Clean Up"),
    Param("repair_cost", "int", 100, (0, 1000), "gold per damage token removed at the Outpost", "Trade: Repair"),
    Param("brigantine_cost", "int", 1200, (0, 10000), "gold to upgrade a Sloop", "Trade: Upgrade"),
    Param("galleon_cost", "int", 1800, (0, 10000), "gold to upgrade a Brigantine", "Trade: Upgrade"),
    Param("galleons_per_player", "int", 1, (0, 2), "Galleons a player may own (one card and standee per colour)",
          "A15"),
    Param("commission_set", "int", 3, (1, 10), "same-type cargo sold in one trade for a commission",
          "Claiming Commissions"),
    Param("commission_reputation", "int", 2, (0, 10), "reputation per commission", "Claiming Commissions"),
    Param("gold_per_reputation", "int", 500, (1, 10000), "final scoring: 1 reputation per this much gold",
          "Winning the Game: Wealth"),
    Param("market_size", "int", 3, (0, 3), "special crew cards face up on the Outpost", "Decks and the Outpost Board"),
    Param("seek_draw", "int", 3, (0, 6), "voyage cards drawn when seeking new voyages", "Trade: Seek New Voyages"),
    Param("two_player_skeletons_removed", "int", 8, (0, 20), "skeleton tokens boxed in a two-player game",
          "Bags and Tokens"),
    Param("abandon_window", "choice", "action", ("action", "turn"), "when a voyage may be abandoned: at the "
          "start of its ship's actions (where it frees the ship for another voyage), or also at the end of the "
          "turn (its penalty then counts in the Ocean Hazards, Event and Fortune phases)", "A52"),
    Param("round_cap", "int", 100, (5, 10000), "rounds after which an unfinished game stops", "A16"),
    Param("beginner", "bool", False, meaning="first games: the Megalodon, the Kraken and the skeleton forts are "
          "left in the box", source="Setting Up: Voyage Decks (first games)"),
    Param("boxed_spawns", "choice", "ignore", ("ignore", "skeleton_ship"), "beginner game: an event symbol of a "
          "boxed enemy is ignored, or read as a skeleton ship like a defeated monster's", "A49"),
    Param("starting_reputation", "ints", (0, 0, 0, 0), (0, 24, 4),
          "reputation of the first, second, third and fourth player at set-up (0 in the rulebook): a "
          "compensation lever beside starting gold", DESIGNER_KNOB),
)

VARIANTS = (
    Variant("two_player", {"two_player": "on"}, "the two-player board and set-up (automatic at 2 players; "
            "selectable at 3-4 to compare, and `--set two_player=off` compares at 2)"),
    Variant("equal_gold", {"equal_gold": True}, "every seat starts with the same gold (equal_gold_amount)"),
    Variant("first_game", {"first_game_layout": True}, "the cover sheet's fixed first-game layout"),
    Variant("beginner", {"beginner": True}, "first games without the Megalodon, the Kraken and skeleton forts"),
)

SCHEMA = RuleSchema("sea_of_thieves", PARAMS, VARIANTS)
SeaOfThievesRules = SCHEMA.tuple_type


def uses_two_player(values: dict, players: int) -> bool:
    mode = values.get("two_player", "auto")
    return mode == "on" or (mode == "auto" and players == 2)


def starting_gold(values: dict, seat: int) -> int:
    if values.get("equal_gold"):
        return int(values["equal_gold_amount"])
    return int(values["starting_gold"][seat])
