"""Set Sail rule parameters and named variants: each declared once, with its source.

Sources are rulebook sections, or assumption ids registered in this game's coverage.toml.
"""

from simkit.core.components import component_param
from simkit.core.rules import DESIGNER_KNOB, Param, RuleSchema, Variant
from simkit.games.set_sail.components import FOLDER
from simkit.games.set_sail.state import MAX_PLAYERS

START_SILVER = 3  # silver each player starts with (Setup - Players 1)

PARAMS = (
    # components: the base set, a shipped alternative (components/alt-*) or a designer's folder
    component_param(FOLDER, "component files: standard, an alternative set (alt-deep-maps: A6, alt-strong-routes: "
                            "A7, alt-dear-quests: A4/A5, alt-far-pirates: A2) or a designer's folder"),
    # set-up
    Param("start_supply", "int", 5, (0, 30), "Supply each player starts with", "Setup - Players 1"),
    # a designer's lever, not a rule: silver by seat (seat 1 first); the default is the
    # rulebook's 3 for everyone (Setup - Players 1), the range up to about 7x that
    Param("starting_silver", "ints", [START_SILVER] * MAX_PLAYERS, (0, 20, MAX_PLAYERS),
          "silver each seat starts with, by seat (the rulebook gives everyone 3: Setup - Players 1)",
          DESIGNER_KNOB),
    Param("open_quest_spaces", "int", 3, (1, 4), "open Plunder and open Trade Quest spaces on the board", "A3"),
    Param("quest_trim_2p", "int", 8, (0, 11), "Quest cards removed from each quest deck with 2 players",
          "Setup - Cards & Tokens 4"),
    Param("quest_trim_3p", "int", 4, (0, 11), "Quest cards removed from each quest deck with 3 players",
          "Setup - Cards & Tokens 4"),
    Param("quest_trim_4p", "int", 2, (0, 11), "Quest cards removed from each quest deck with 4 players",
          "Setup - Cards & Tokens 4"),
    Param("quest_trim_5p", "int", 0, (0, 11), "Quest cards removed with 5 players (extension)", "A20"),
    Param("quest_trim_6p", "int", 0, (0, 11), "Quest cards removed with 6 players (extension)", "A20"),
    Param("trim_treasure_deck", "bool", True,
          meaning="the set-up trim by player count also removes Treasure Quest cards (SS-X17)", source="A24"),
    Param("extension", "bool", False, meaning="allow 5-6 players (components support six; rules do not)",
          source="A20"),
    # movement
    Param("movement", "int", 10, (2, 30), "tiles of movement per turn, split between the two pieces", "Movement"),
    Param("oar_movement", "int", 2, (0, 10), "extra movement per Oar Upgrade", "Upgrade Port"),
    # ports and prices
    Param("supply_price", "int", 1, (0, 10), "silver (or ship cards) per Supply token", "Supply Port"),
    Param("trade_price", "int", 1, (0, 10), "silver per Trade card bought, and paid per card sold", "Trade Port"),
    Param("hand_limit", "int", 5, (1, 30), "Trade cards a player may hold", "Trade Port"),
    Param("barrel_capacity", "int", 2, (0, 10), "extra Trade card capacity per Barrel Upgrade", "Upgrade Port"),
    Param("barrel_price", "int", 2, (0, 50), "silver per Barrel Upgrade", "Upgrade Port"),
    Param("oar_price", "int", 10, (0, 50), "silver per Oar Upgrade", "Upgrade Port"),
    Param("cannon_price", "int", 10, (0, 50), "silver per Cannon Upgrade", "Upgrade Port"),
    Param("upgrade_cap", "int", 3, (0, 10), "tokens of each upgrade a player may own", "Upgrade Port"),
    Param("upgrade_port_visits", "choice", "per_turn", ("per_turn", "per_piece"),
          "Upgrade Port purchases: one a turn however many pieces are there (per_turn), or one per piece there",
          "A5"),
    Param("treasure_price", "int", 5, (0, 50), "silver per Treasure Quest", "Pirate Ports"),
    # water tiles
    Param("fish_silver", "int", 1, (0, 10), "silver for fishing on Shallow Water", "Shallow Water"),
    Param("deep_water_silver", "int", 2, (0, 10), "silver for beating a Deep Water ship", "Deep Water"),
    Param("trade_route_reward", "choice", "route_section", ("route_section", "combat_section"),
          "Trade Route win pays 2 silver + 2 Trade cards (route_section) or 3 silver + 1 (combat_section)", "A1"),
    # end of turn and running out
    Param("supply_loss", "int", 1, (0, 5), "Supply lost at the end of every turn", "End of Turn"),
    Param("run_out_supply", "int", 3, (0, 20), "Supply gained when running out", "Running Out of Supplies 4"),
    Param("loss_after_running_out", "bool", True,
          meaning="the End of Turn Supply loss still applies in a turn in which the player ran out (SS-G19)",
          source="A12"),
    # end
    Param("vp_to_win", "int", 30, (4, 200), "VP that trigger the end (the round is finished)", "Objective"),
    # A19: above the longest game `random` self-play plays (934 rounds in 20,000 two-player
    # games, the longest count; docs/games/set_sail.md)
    Param("round_cap", "int", 1000, (5, 10000), "rounds after which an unfinished game stops (incomplete)", "A19"),
    # bots
    Param("player_trade", "choice", "off", ("off", "sell_surplus"),
          "bots' player-to-player trade: none, or the active player buys missing cards from rivals", "A17"),
)

VARIANTS = (
    Variant("extended", {"extension": True}, "5-6 players with the components' six colours (assumed)",
            players=(5, 6)),
)

SCHEMA = RuleSchema("set_sail", PARAMS, VARIANTS)
SetSailRules = SCHEMA.tuple_type
