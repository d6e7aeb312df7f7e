"""Tide of Avaris rule parameters and named variants, each declared once with its source
(a rulebook section, or an assumption id registered in this game's coverage.toml)."""

from simkit.core.components import component_param
from simkit.core.rules import DESIGNER_KNOB, Param, RuleSchema, Variant
from simkit.games.tide_of_avaris.components import FOLDER

PARAMS = (
    component_param(FOLDER, "component files: standard, alt-windward (board), alt-dice (dice), alt-plain-relics "
                    "(relics that are bonuses, not rule-breakers), alt-flat-bribes (a 1-gold Bribe at every Wager "
                    "position), alt-rising-gold (starting gold 1, 2, 3, 4 by position), alt-linear-hold (Upper Hold "
                    "1, 4, 7, 10, 13, 16), alt-rum-crew (crew dice bought for 4 rum), alt-decks (monster, Navy and "
                    "Burial Bonus decks with less invented) or a designer's folder"),
    Param("bag_2p", "int", 5, (1, 8), "treasures of each colour in the bag with 2 players", "A11"),
    Param("reroll_cost", "int", 1, (0, 10), "gold for the one Day-start reroll of any crew dice", "Day; A24"),
    Param("rebuy_rum", "int", 4, (0, 20), "rum to buy back a lost crew die at Night", "Step 1: Upgrade"),
    Param("extra_treasure_cost", "int", 1, (0, 10), "gold for the additional treasure on its space",
          "Board Action Specifics"),
    Param("bind_cost", "int", 1, (0, 10), "rum to bind two treasures", "Taking Control (Bind)"),
    Param("recycle_cost", "int", 1, (0, 10), "rum to recycle two dice", "Taking Control (Recycle)"),
    Param("second_relic_cost", "int", 2, (0, 10), "gold for a second relic in one Add Relic(s)",
          "Taking Control (Add Relic(s))"),
    Param("relic_display", "int", 5, (1, 10), "relics face up beside the relic deck", "Board Setup 2"),
    Param("relic_slots", "int", 4, (1, 8), "relic slots on a player board", "Relics"),
    Param("empty_bag_gold", "int", 2, (0, 10), "gold instead of a random treasure when the bag is empty",
          "Random Treasure"),
    Param("gold_per_point", "int", 2, (1, 10), "gold per Treasure Point at the end", "Endgame Scoring and Bonuses"),
    Param("navy_reach", "int", 2, (0, 6), "spaces the Navy moves when it hunts", "Step 2: Navy Hunts"),
    Param("relocate_reach", "int", 2, (0, 6), "spaces the Relocate the Navy action moves it",
          "Taking Control (Relocate the Navy)"),
    Param("tie_rerolls", "int", 20, (1, 1000), "battle rerolls after a tie before the defender holds", "A50"),
    Param("midnight_wager", "bool", True, meaning="the Midnight Wager sets each Day's turn order (off: seat order "
          "every Day, to measure what the wager corrects)", source="Step 3: Midnight Wager"),
    Param("wind", "bool", True, meaning="wind symbols hit for the side with the Wind Advantage", source="Battle"),
    Param("round_cap", "int", 40, (2, 1000), "Days after which an unfinished game stops", "A62"),
    # compensation levers a designer would pull to even the seats (simkit tune); 0 plays the set-up
    Param("extra_starting_gold", "ints", [0, 0, 0, 0], (0, 12, 4), "gold each seat (0 = first player) gets at "
          "set-up on top of its Wager-track position's starting gold (1, 1, 1, 2 by A8)", DESIGNER_KNOB),
    Param("extra_starting_rum", "ints", [0, 0, 0, 0], (0, 6, 4), "rum each seat gets at set-up on top of its "
          "Wager-track position's starting rum (0, 0, 1, 1 by A8)", DESIGNER_KNOB),
)

VARIANTS = (
    Variant("fixed_order", {"midnight_wager": False}, "turn order never changes: seat 0 first every Day (A63)"),
    Variant("windward", {"components": "alt-windward"}, "the alternative board (components/alt-windward)"),
    Variant("alt_dice", {"components": "alt-dice"}, "the alternative dice (components/alt-dice)"),
    Variant("plain_relics", {"components": "alt-plain-relics"},
            "relics that are plain bonuses instead of rule-breakers (components/alt-plain-relics, A68)"),
)

SCHEMA = RuleSchema("tide_of_avaris", PARAMS, VARIANTS)
TideOfAvarisRules = SCHEMA.tuple_type
