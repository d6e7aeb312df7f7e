"""Sea of Plunder rule parameters and named variants: each declared once, with its source.

Sources are rulebook sections, or assumption ids registered in this game's coverage.toml.
"""

from simkit.core.components import component_param
from simkit.core.rules import DESIGNER_KNOB, Param, RuleSchema, Variant
from simkit.games.sea_of_plunder import state as S
from simkit.games.sea_of_plunder.components import FOLDER  # the base component set ("standard")

PARAMS = (
    # variants and modules
    Param("two_player", "bool", False, meaning="Two Player Variant: each player sails two ships and moves one a turn",
          source="Two Player Variant"),
    Param("random_setup", "bool", False, meaning="Random Setup Variant: Port Islands and pirates placed by the dice",
          source="Random Setup Variant"),
    Param("combo_port", "bool", False, meaning="Combo Port Island Module in play", source="Combo Port Island Module"),
    Param("player_powers", "bool", True, meaning="deal each player a random Player Power card", source="Set-up 3"),
    # set-up
    Param("hand_size", "int", 5, (1, 15), "deck cards dealt to each player at set-up", "Set-up 7a"),
    Param("start_compasses", "int", 1, (0, 5), "Magical Compass tokens each player starts with", "Set-up 3"),
    Param("extra_compasses", "ints", [0, 0, 0, 0], (0, 5, S.MAX_PLAYERS),
          "Magical Compass tokens a seat starts with on top of start_compasses, by seat (seat 0 first): "
          "a lever to compensate seats (each unused token scores a point, each spent one turns a card)",
          DESIGNER_KNOB),
    # turn
    Param("draw_count", "int", 2, (1, 5), "cards drawn in the Draw phase (events not counted)", "Game Turn 1"),
    Param("pile_draw_events", "bool", False, meaning="may an Event on top of the pile be taken in the Draw phase",
          source="A13"),
    # end and scoring
    Param("treasures_to_end", "int", 3, (1, 20), "a player's Treasures that trigger the game end", "Game End"),
    Param("pirate_treasures_to_end", "int", 6, (1, 40), "Treasures in the pirate dish that trigger the game end",
          "Game End"),
    Param("treasure_points", "int", 3, (0, 20), "points per Treasure", "Final Scoring"),
    Param("compass_points", "int", 1, (0, 10), "points per unused Magical Compass", "Final Scoring"),
    Param("debt_points", "int", 1, (0, 10), "points lost per Debt token", "Final Scoring"),
    Param("set2_points", "int", 3, (0, 30), "points for a set of 2 different Goods", "Final Scoring"),
    Param("set3_points", "int", 5, (0, 30), "points for a set of 3 different Goods", "Final Scoring"),
    Param("set4_points", "int", 8, (0, 30), "points for a set of 4 different Goods", "Final Scoring"),
    Param("max_islands", "int", 3, (1, 8), "Treasure Islands on the board at which Tales of More Treasure adds none",
          "Card List: Tales of More Treasure"),
    component_param(FOLDER, "component files: standard, a shipped alt-* set (alt-one-skull: A8's one-skull dice) "
                            "or a designer's folder of board.txt, ports.toml, cards.toml, dice.toml"),
    Param("round_cap", "int", 200, (5, 10000), "rounds after which an unfinished game stops (recorded as incomplete)",
          "A47"),
    # readings of silences and contradictions
    Param("pirate_pass_over", "bool", True, meaning="a pirate passing over a ship (not only landing) is a contact",
          source="A39"),
    Param("thief_contact", "choice", "any_contact", S.THIEF_READINGS,
          "which contacts make The Thief steal: its own moves on its turn, its own moves on any turn, "
          "or any contact (also a rival ship moving onto or over it)", "A38"),
    Param("gambler_rounding", "choice", "toward_zero", ("toward_zero", "down"),
          "how The Gambler halves Debt: toward zero (the card's example) or down", "A37"),
    Param("lucky_steps", "int", 2, (0, 6), "orthogonal steps of Lucky Jill/Jack's bonus move", "A10"),
    Param("navigator_steps", "int", 1, (0, 6), "orthogonal steps of The Navigator's bonus move", "A10"),
    Param("strategist_low", "int", 8, (1, 14), "lowest number-die result that spares The Strategist",
          "Card List: The Strategist"),
)

VARIANTS = (
    Variant("two_player", {"two_player": True}, "two ships per player, move one per turn", players=(2,)),
    Variant("random_setup", {"random_setup": True}, "Port Islands and pirates placed by the Treasure Placement dice"),
    Variant("combo_port", {"combo_port": True}, "adds the Combo Port Island"),
)

SCHEMA = RuleSchema("sea_of_plunder", PARAMS, VARIANTS)
SeaOfPlunderRules = SCHEMA.tuple_type
