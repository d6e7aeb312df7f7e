"""Combat (Determine Sides, Battle, Combat Outcomes, Bound Treasure, Sinking Ship) and the
Navy (Step 2: Navy Hunts). Dice are made certain by giving the combat or navy die one face."""


import pytest

from .harness import COLOUR, EV, S, Table


def one_face(t: Table, face: int):
    t.K = t.K.copy()
    t.K[S.COMBAT_FACE, 0] = face
    t.K[S.META, S.N_COMBAT_FACES] = 1


def navy_face(t: Table, face: int):
    t.K = t.K.copy()
    t.K[S.NAVY_FACE, 0] = face
    t.K[S.META, S.N_NAVY_FACES] = 1


def battles(t):
    return [r[3:5] for r in t.events(EV.BATTLE)]


def test_wind_hits_only_for_the_side_with_the_wind_advantage():
    t = Table()
    one_face(t, S.WIND)
    t.set_dice(0, [])
    t.set_dice(1, [])
    assert t.call("battle", att=0, dfn=1, card=0, wind=1)  # moved along the arrow: attacker's wind
    assert battles(t)[-1] == (1, 0)
    assert not t.call("battle", att=0, dfn=1, card=0, wind=-1)  # against it: the defender's
    assert battles(t)[-1] == (0, 1)


def test_a_tie_rerolls_everything_until_the_cap_then_the_defender_holds():
    t = Table()
    one_face(t, S.MISS)
    t.set_dice(0, [])
    t.set_dice(1, [])
    assert not t.call("battle", att=0, dfn=1, card=0, wind=0)
    assert len(battles(t)) == t.P.tie_rerolls + 1
    assert all(b == (0, 0) for b in battles(t))


def test_dice_are_one_plus_upgrades_plus_relics_plus_commanded_crew():
    t = Table(strategies="raider")
    one_face(t, S.SWORD)
    t.set_dice(0, ["red", "blue"])  # red: the attack face (components/dice.toml)
    t.set_dice(1, [])
    t.seat(0)[S.ATTACK] = 2
    t.seat(0)[S.REL_ATTACK] = 1
    t.call("battle", att=0, dfn=1, card=0, wind=0)
    assert battles(t)[-1] == (1 + 2 + 1 + 1, 0)
    assert t.seat(0)[S.TEMP_ATTACK] == 0  # the commanded die served in this combat only
    assert list(t.T[S.DICE0 + 0, S.READY: S.READY + 2]) == [0, 1]


def test_spirit_dice_add_hits_to_their_controller_only_in_its_role():
    t = Table()
    one_face(t, S.MISS)
    t.K[S.MARAUDER_HITS, 0] = 2
    t.K[S.META, S.N_MARAUDER] = 1
    t.T[S.CONTROL, S.CTRL_MARAUDER] = 0
    t.set_dice(0, [])
    t.set_dice(1, [])
    assert t.call("battle", att=0, dfn=1, card=0, wind=0)
    assert battles(t)[-1] == (2, 0)
    assert not t.call("battle", att=1, dfn=0, card=0, wind=0)  # defending: the Marauder is idle


def test_winner_steals_half_the_unbound_rounded_down_and_binds_it():
    t = Table(strategies="raider")
    t.hold(1, {"red": 2, "blue": 2, "teal": 2})  # the worked example: 6 unbound -> 3
    t.call("steal", winner=0, loser=1)
    unbound, bound = t.holds(0)
    assert unbound == {} and sum(bound.values()) == 3
    assert sum(t.holds(1)[0].values()) == 3
    t2 = Table(strategies="raider")
    t2.hold(1, {"red": 1, "green": 1}, {"blue": 1, "teal": 1})  # Admiral Mei: 4 treasures, 2 bound -> 1
    t2.call("steal", winner=0, loser=1)
    assert sum(t2.holds(0)[1].values()) == 1 and t2.holds(1)[1] == {"blue": 1, "teal": 1}
    t3 = Table(strategies="raider")
    t3.hold(1, {"red": 3, "blue": 2})  # 5 unbound: half rounded down is 2
    t3.call("steal", winner=0, loser=1)
    assert sum(t3.holds(0)[1].values()) == 2 and sum(t3.holds(1)[0].values()) == 3


def test_pirate_against_pirate_the_loser_is_robbed_then_sinks():
    t = Table(strategies="raider")
    one_face(t, S.SWORD)
    t.set_dice(0, [])
    t.set_dice(1, ["blue", "blue"])
    t.put(0, "Raid")
    t.put(1, "Raid")
    t.hold(1, {"red": 2, "pink": 2})
    t.weights(1, W_SINK=0)  # keeps its treasure, loses a die
    assert t.call("fight", att=0, dfn=1, wind=0)
    assert t.seat(0)[S.FIGHTS_WON] == 1 and sum(t.holds(0)[1].values()) == 2
    assert t.seat(1)[S.POS] == -1 and t.seat(1)[S.SINKINGS] == 1 and t.seat(1)[S.CREW_N] == 1
    assert sum(t.holds(1)[0].values()) == 2
    blue = t.comp.dice["colour"].index(COLOUR["blue"])
    assert t.T[S.DICE0 + 1, S.FACE] == blue and t.T[S.DICE0 + 1, S.READY] == 1  # no reroll on sinking


def test_sinking_jettisons_all_treasure_bound_too_when_chosen():
    t = Table(strategies="raider")
    t.hold(0, {"red": 1}, {"blue": 2})
    t.weights(0, W_SINK=99)
    boxed = int(t.st[S.BOX_TREASURE])
    t.call("sink", seat=0)
    assert t.holds(0) == ({}, {}) and t.st[S.BOX_TREASURE] == boxed + 3 and t.seat(0)[S.CREW_N] == 5
    assert t.seat(0)[S.POS] == -1


def test_sinking_with_no_treasure_costs_a_crew_die():
    t = Table(strategies="raider")
    t.weights(0, W_SINK=99)
    t.call("sink", seat=0)
    assert t.seat(0)[S.CREW_N] == 4 and t.st[S.DICE_LOST] == 1


def test_navy_attack_won_takes_treasure_onto_its_card_and_sinks_the_pirate():
    t = Table(strategies="burier")
    one_face(t, S.SWORD)
    t.st[S.NAVY_CARD] = 0
    t.st[S.NAVY_POS] = t.space("Raid")
    t.put(0, "Raid")
    t.set_dice(0, ["blue", "blue"], ready=[0, 0])
    t.hold(0, {"red": 2, "blue": 1}, {"teal": 1})
    t.weights(0, W_SINK=0)
    t.call("navy_attacks", seat=0, wind=1)
    took = int(t.K[S.NAVY_ON_WIN_N, 0])
    assert t.st[S.NAVY_HELD] == took and t.T[S.NAVY_HOLD, COLOUR["red"]] == took  # a duplicate first
    assert t.holds(0)[1] == {"teal": 1}  # bound treasure is never taken (A47)
    assert t.seat(0)[S.POS] == -1
    t2 = Table(strategies="burier")
    one_face(t2, S.SWORD)
    t2.st[S.NAVY_CARD] = 0
    t2.st[S.NAVY_POS] = t2.space("Raid")
    t2.put(0, "Raid")
    t2.set_dice(0, ["blue", "blue"], ready=[0, 0])
    t2.hold(0, {"blue": 1}, {"teal": 2})  # only the blue can be taken, though teal is doubled
    t2.weights(0, W_SINK=0)
    t2.call("navy_attacks", seat=0, wind=1)
    assert t2.holds(0) == ({}, {"teal": 2}) and t2.T[S.NAVY_HOLD, COLOUR["blue"]] == 1


def test_beating_the_navy_claims_its_reward_and_what_it_held_and_clears_it():
    t = Table(strategies="burier")
    one_face(t, S.SWORD)
    t.st[S.NAVY_CARD] = 0
    t.st[S.NAVY_POS] = t.space("Raid")
    t.T[S.BAG, COLOUR["green"]] -= 1
    t.T[S.NAVY_HOLD, COLOUR["green"]] = 1
    t.st[S.NAVY_HELD] = 1
    t.put(0, "Raid")
    t.set_dice(0, [])
    assert t.call("fight", att=0, dfn=S.FOE_NAVY, wind=0)
    assert sum(t.holds(0)[0].values()) == int(t.K[S.NAVY_REWARD, 0]) + 1
    assert t.st[S.NAVY_POS] == -1 and t.st[S.NAVY_CARD] == -1 and t.st[S.NAVY_HELD] == 0


def test_navy_moves_two_lanes_and_stops_to_attack_on_a_pirate():
    t = Table(strategies="burier")
    navy_face(t, S.WEST)
    one_face(t, S.SWORD)
    t.clear_ships()
    t.st[S.NAVY_CARD] = 0
    t.st[S.NAVY_POS] = t.space("Gull Harbour")
    t.set_dice(2, [])
    t.put(2, "Twin Wrecks")  # two lanes west of Gull Harbour
    t.call("navy_hunts", players=4)
    assert t.st[S.NAVY_POS] == t.space("Twin Wrecks") and len(t.events(EV.NAVY_ATTACK)) == 1
    t2 = Table(strategies="burier")
    navy_face(t2, S.WEST)
    one_face(t2, S.SWORD)
    t2.clear_ships()
    t2.st[S.NAVY_CARD] = 0
    t2.st[S.NAVY_POS] = t2.space("Gull Harbour")
    t2.set_dice(2, [])
    t2.put(2, "Rum Cove")  # one lane west: the Navy stops there
    t2.call("navy_hunts", players=4)
    assert t2.st[S.NAVY_POS] == t2.space("Rum Cove")


def test_spotted_hunts_the_nearest_pirate_ties_to_the_lowest_in_turn_order():
    t = Table(strategies="burier")
    navy_face(t, S.SPOTTED)
    one_face(t, S.MISS)
    t.clear_ships()
    t.st[S.NAVY_CARD] = 0
    t.st[S.NAVY_POS] = t.space("Twin Wrecks")
    t.put(0, "Rum Cove")  # 1 lane
    t.put(3, "Buy a Sea")  # 1 lane, and last in turn order
    t.put(1, "Marauder's Rock")  # 2 lanes
    for s in range(4):
        t.set_dice(s, [])
    t.call("navy_hunts", players=4)
    assert t.events(EV.NAVY_MOVE)[-1][4] == t.space("Buy a Sea")
    assert t.events(EV.NAVY_ATTACK)[0][1] == 3


def test_spotted_with_nobody_in_reach_stays():
    t = Table()
    navy_face(t, S.SPOTTED)
    t.clear_ships()
    t.st[S.NAVY_CARD] = 0
    t.st[S.NAVY_POS] = t.space("Explore")  # 3 or more lanes from every harbour
    t.call("navy_hunts", players=4)
    assert t.st[S.NAVY_POS] == t.space("Explore") and not t.events(EV.NAVY_MOVE)


def test_a_missing_navy_is_drawn_and_placed_and_does_nothing_else_that_night():
    t = Table()
    t.clear_ships()
    assert t.st[S.NAVY_POS] == -1  # no Navy at set-up (TOA-G12)
    t.call("navy_hunts", players=4)
    card = int(t.st[S.NAVY_CARD])
    assert t.st[S.NAVY_POS] == t.K[S.NAVY_SPACE, card] and not t.events(EV.NAVY_ROLL)


def test_explore_fights_the_monster_as_attacker_without_wind():
    t = Table(strategies="raider")
    one_face(t, S.WIND)  # only wind is rolled: nobody hits, every battle ties
    t.set_dice(0, [])
    t.put(0, "Explore")
    t.call("explore", seat=0)
    assert t.events(EV.EXPLORE) and all(b == (0, 0) for b in battles(t))
    assert t.seat(0)[S.POS] == -1  # the monster held: the pirate sinks


def test_navy_with_no_exit_in_the_rolled_direction_stays():
    # TOA-143: Buy a Sea has no N diamond: rolling N, the Navy does not move
    t = Table()
    navy_face(t, S.NORTH)
    t.clear_ships()
    t.st[S.NAVY_CARD] = 0
    t.st[S.NAVY_POS] = t.space("Buy a Sea")
    t.call("navy_hunts", players=4)
    assert t.st[S.NAVY_POS] == t.space("Buy a Sea") and not t.events(EV.NAVY_MOVE)


def test_a_minus_hit_monster_takes_one_of_the_attackers_hits():
    # TOA-279, A9: the glossary's "-1 Hit" as a monster ability
    for ability, hits in ((0, 1), (1, 0)):
        t = Table(strategies="raider")
        one_face(t, S.SWORD)
        t.set_dice(0, [])
        card = next(i for i in range(int(t.K[S.META, S.N_MONSTERS])) if t.K[S.MON_ABILITY, i] == ability)
        t.st[S.MONSTER_DECK_N] = 1
        t.T[S.MONSTER_DECK, 0] = card
        t.call("explore", seat=0)
        assert t.events(EV.BATTLE)[0][3] == hits


def test_a_monster_with_a_relic_reward_gives_the_first_relic_of_the_display():
    # TOA-163, A65
    t = Table(strategies="raider")
    one_face(t, S.SWORD)
    t.set_dice(0, [])
    t.seat(0)[S.ATTACK] = 2  # three swords: a minus_hit monster cannot hold
    card = next(i for i in range(int(t.K[S.META, S.N_MONSTERS])) if t.K[S.MON_REWARD, i] == S.RW_RELIC)
    t.st[S.MONSTER_DECK_N] = 1
    t.T[S.MONSTER_DECK, 0] = card
    first = int(t.T[S.DISPLAY, 0])
    t.call("explore", seat=0)
    assert t.seat(0)[S.N_RELICS] == 1 and t.T[S.RELICS0, 0] == first and t.st[S.DISPLAY_N] == t.P.relic_display


def test_defence_dice_are_one_plus_upgrades_plus_relics_plus_commanded_crew():
    # TOA-057, 222
    t = Table(strategies="hoarder")
    one_face(t, S.SHIELD)
    t.set_dice(0, [])
    t.set_dice(1, ["green", "blue"])  # green: the defence face (components/dice.toml)
    t.seat(1)[S.DEFENCE] = 2
    t.seat(1)[S.REL_DEFENCE] = 1
    assert not t.call("battle", att=0, dfn=1, card=0, wind=0)
    assert battles(t)[-1] == (0, 1 + 2 + 1 + 1)
    assert list(t.T[S.DICE0 + 1, S.READY: S.READY + 2]) == [0, 1]


def test_the_guardian_adds_hits_to_its_controller_only_when_defending():
    # TOA-183
    t = Table()
    one_face(t, S.MISS)
    t.K[S.GUARDIAN_HITS, 0] = 2
    t.K[S.META, S.N_GUARDIAN] = 1
    t.T[S.CONTROL, S.CTRL_GUARDIAN] = 1
    t.set_dice(0, [])
    t.set_dice(1, [])
    assert not t.call("battle", att=0, dfn=1, card=0, wind=0)
    assert battles(t)[-1] == (0, 2)
    n = len(t.events(EV.BATTLE))
    t.call("battle", att=1, dfn=0, card=0, wind=0)  # attacking: the Guardian is idle, every roll ties
    assert all(b == (0, 0) for b in battles(t)[n:])


def test_sinking_with_no_die_throws_the_treasure_and_with_neither_loses_nothing():
    # A26 (TOA-G27)
    t = Table(strategies="raider")
    t.set_dice(0, [])
    t.hold(0, {"red": 1})
    t.weights(0, W_SINK=0)  # it would keep the treasure, but has no die to throw
    t.call("sink", seat=0)
    assert t.holds(0) == ({}, {}) and t.st[S.BOX_TREASURE] == 1
    t.call("sink", seat=0)  # nothing left: it loses nothing more, and still sinks
    assert t.seat(0)[S.CREW_N] == 0 and t.st[S.DICE_LOST] == 0 and t.seat(0)[S.SINKINGS] == 2


def test_the_bots_public_view_of_a_defence_is_the_dice_it_rolls_without_crew():
    """TOA-057: what a bot may count of a rival's defence (strategies: public_defence, the upgrades
    and relics, its crew dice hidden) is the number of defence dice that rival rolls with no crew
    die commanded, at every upgrade level and relic count, for either seat."""
    from strategies import tide_of_avaris as bot

    for dfn in (1, 2):
        for level in range(4):
            for relics in range(3):
                t = Table(strategies="hoarder")
                one_face(t, S.SHIELD)
                for s in range(4):
                    t.set_dice(s, [])
                t.seat(dfn)[S.DEFENCE] = level
                t.seat(dfn)[S.REL_DEFENCE] = relics
                t.call("battle", att=0, dfn=dfn, card=0, wind=0)
                assert bot.public_defence(t.T, dfn) == battles(t)[-1][1] == 1 + level + relics


@pytest.mark.parametrize("seat", [0, 1, 2])
def test_beating_the_navy_counts_one_fight_won_for_that_seat_only(seat):
    """A fight won against the Navy counts toward the fights-won endgame card (engine's reading:
    every fight won counts), for the seat that won it, once, and moves no neighbouring count."""
    t = Table(strategies="burier")
    one_face(t, S.SWORD)
    t.st[S.NAVY_CARD] = 0
    t.st[S.NAVY_POS] = t.space("Raid")
    t.put(seat, "Raid")
    t.set_dice(seat, [])
    before = t.T[S.SEAT0:S.SEAT0 + t.players, [S.FIGHTS_WON, S.FIGHTS_WON + 1]].copy()
    assert t.call("fight", att=seat, dfn=S.FOE_NAVY, wind=0)
    after = t.T[S.SEAT0:S.SEAT0 + t.players, [S.FIGHTS_WON, S.FIGHTS_WON + 1]]
    expected = before.copy()
    expected[seat, 0] += 1
    assert after.tolist() == expected.tolist()


def _first_battle(t, att, dfn, card):
    mark = len(t.events(EV.BATTLE))
    t.call("battle", att=att, dfn=dfn, card=card, wind=0)
    return battles(t)[mark]


def test_every_monster_and_navy_card_rolls_its_own_dice():
    """3. Battle: a monster defends with the dice on its card, the Navy defends with its card's
    defence and attacks with its attack, card by card. Every combat die shows a shield (or a
    sword), so the hits are the dice rolled; the cards' dice differ, so a count read from the
    wrong row or the wrong kind of card shows."""
    monsters = Table(strategies="raider")
    one_face(monsters, S.SHIELD)
    monsters.set_dice(0, [])
    n = int(monsters.K[S.META, S.N_MONSTERS])
    rolled = [_first_battle(monsters, 0, S.FOE_MONSTER, c)[1] for c in range(n)]
    assert rolled == [int(monsters.K[S.MON_DICE, c]) for c in range(n)]
    assert len(set(rolled)) > 1
    navy = Table(strategies="raider")
    one_face(navy, S.SHIELD)
    navy.set_dice(0, [])
    cards = range(int(navy.K[S.META, S.N_NAVY]))
    assert [_first_battle(navy, 0, S.FOE_NAVY, c)[1] for c in cards] == [int(navy.K[S.NAVY_DEFENCE, c]) for c in cards]
    one_face(navy, S.SWORD)
    assert [_first_battle(navy, S.FOE_NAVY, 0, c)[0] for c in cards] == [int(navy.K[S.NAVY_ATTACK, c]) for c in cards]
    assert len({int(navy.K[S.NAVY_DEFENCE, c]) for c in cards} | {int(navy.K[S.NAVY_ATTACK, c]) for c in cards}) > 1


def test_a_monster_that_wins_takes_treasure_only_where_its_card_says():
    """Explore, the monster wins: a card marked to take treasure takes its number of unbound
    treasure before the pirate sinks, one not so marked takes none (the pirate keeps its hold,
    sinking costs a crew die); bound treasure is never taken."""
    t0 = Table(strategies="raider")
    n = int(t0.K[S.META, S.N_MONSTERS])
    marked = [c for c in range(n) if t0.K[S.MON_ON_WIN, c] == 1 and t0.K[S.MON_DICE, c] > 0]
    unmarked = [c for c in range(n) if t0.K[S.MON_ON_WIN, c] != 1 and t0.K[S.MON_DICE, c] > 0]
    assert marked and unmarked
    for card in marked + unmarked:
        t = Table(strategies="raider")
        one_face(t, S.SHIELD)  # the pirate hits nothing, the monster hits with every die
        t.set_dice(0, ["blue", "blue"], ready=[0, 0])  # a crew die to lose on sinking
        t.put(0, "Explore")
        t.hold(0, {"red": 3, "blue": 2}, {"teal": 1})
        t.weights(0, W_SINK=0)  # sinking costs a die, not the hold
        t.st[S.MONSTER_DECK_N] = 1
        t.T[S.MONSTER_DECK, 0] = card
        t.call("explore", seat=0)
        unbound, bound = t.holds(0)
        taken = min(5, int(t.K[S.MON_ON_WIN_N, card])) if card in marked else 0
        assert sum(unbound.values()) == 5 - taken and bound == {"teal": 1}, card
        assert t.seat(0)[S.POS] == -1
