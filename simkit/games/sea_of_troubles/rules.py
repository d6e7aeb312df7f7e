"""Sea of Troubles rule parameters and named variants, each declared once with its source
(a rulebook section, or an assumption id registered in this game's coverage.toml)."""

from pathlib import Path

from simkit.core.components import component_param
from simkit.core.rules import DESIGNER_KNOB, Param, RuleSchema, Variant
from simkit.games.sea_of_troubles import state as S

FOLDER = Path(__file__).parent / "components"  # the standard component set (components.FOLDER)

PARAMS = (
    Param("hand_size", "int", 8, (1, 20), "cards (action + weighted treasure) a pirate refills to", "Hand Size"),
    Param("free_moves", "int", 2, (0, 10), "free move points per round", "Move"),
    Param("pillage_draw", "int", 3, (1, 6), "action cards drawn as a port's defence", "Pillage 2"),
    Param("closed_rounds", "int", 3, (0, 10), "closed counter after a pillage", "If you pillage successfully"),
    Param("port_die", "int", 6, (4, 6), "faces of the die rolled for port closures (a 4 leaves it open)", "A8"),
    Param("sink_damage", "int", 4, (1, 10), "damage that sinks a pirate", "Death"),
    Param("wild_value", "int", 2, (0, 6), "a Wild card's value in any total", "A2"),
    Param("wild_pillage", "bool", True, meaning="a Wild may join a pillage as a Sword or Cannon", source="A2"),
    Param("dig_min", "int", 3, (1, 5), "lowest card value that digs up a treasure", "Dig"),
    Param("wild_digs", "bool", False, meaning="base game: a Wild drawn when digging counts as a 3 or 4 "
          "(Skirmish: a Wild always digs)", source="A2"),
    Param("start_infamy", "int", 0, (0, 20), "Infamy tokens each pirate starts with", "Skirmish"),
    Param("seat_infamy", "ints", [0, 0, 0, 0, 0], (0, 10, 5), "Infamy tokens added to each seat's start, "
          "by seat (seat 0 first); the rulebook adds none", DESIGNER_KNOB),
    Param("skirmish", "bool", False, meaning="Skirmish Mode: 6 treasures, no quests, no pillage Infamy, "
          "dig on a Wild, several X's, buried-treasure victory", source="Skirmish Mode"),
    Param("buried_target", "int", 4, (1, 50), "Skirmish: buried treasure Infamy that ends the game",
          "Skirmish Victory Conditions"),
    Param("bidding_start", "bool", False, meaning="experienced start: 9 cards, compulsory 1-2 card bid",
          source="Set Sail!"),
    Param("quirks", "bool", False, meaning="Quirks (advanced): a pirate draws a quirk on its first Infamy "
          "(deck assumed in components/quirks.toml, A15)", source="Quirks"),
    Param("round_cap", "int", 200, (5, 10000), "rounds after which an unfinished game stops", "A14"),
    Param("sunk_treasure", "choice", "lost", S.SUNK_READINGS, "where a sunk ship's carried treasure goes: "
          "out of the game, shuffled back into the treasure deck, or to the pirate whose Cannons sank it", "A12",
          readings=("deck", "attacker")),
    Param("dig_pool", "choice", "owner", S.DIG_POOLS, "what a dig at a rival's X (or one's own) takes from: "
          "the owner's whole buried stock, or only the treasure buried at that X (differs only in Skirmish)", "A17",
          readings=("x",)),
    component_param(FOLDER, "component files: standard, alt-small-quests (A4), alt-even-deck (A1), "
                    "alt-small-hoard (A3), alt-corner-ports (A5), alt-infamy-quirks (A15), "
                    "or a designer's folder"),
)

VARIANTS = (
    Variant("skirmish", {"skirmish": True, "start_infamy": 3, "sink_damage": 3},
            "Skirmish Mode (3-4 players)", players=(3, 4)),
    Variant("bidding_start", {"bidding_start": True}, "experienced players' bid for the first turn"),
    Variant("quirks", {"quirks": True}, "Quirks: one special rule per pirate, drawn on its first Infamy (A15, A28)"),
)

SCHEMA = RuleSchema("sea_of_troubles", PARAMS, VARIANTS)
SeaOfTroublesRules = SCHEMA.tuple_type
