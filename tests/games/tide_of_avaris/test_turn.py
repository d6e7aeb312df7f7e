"""A turn: Move (movement and Bribe costs), Act, Collect (Sunrise and Sunset; 1. Move; 2. Act;
3. Collect Treasure), and the return of a sunk ship (Sinking Ship)."""

import numpy as np

from .harness import COLOUR, EV, S, Table, bot


def ready(t, s):
    return [int(x) for x in t.T[S.DICE0 + s, S.READY: S.READY + int(t.seat(s)[S.CREW_N])]]


def test_treasure_space_costs_one_matching_die():
    t = Table()
    t.set_slot("Raid", "pink")
    t.set_dice(0, ["teal", "pink", "blue"])
    assert t.call("pay_step", seat=0, space=t.space("Raid")) == EV.PAY_MATCH
    assert ready(t, 0) == [1, 0, 1]


def test_treasure_space_costs_one_rum_without_a_matching_die():
    t = Table()
    t.set_slot("Raid", "pink")
    t.set_dice(0, ["teal", "blue"])
    t.seat(0)[S.RUM] = 1
    assert t.call("pay_step", seat=0, space=t.space("Raid")) == EV.PAY_RUM
    assert ready(t, 0) == [1, 1] and t.seat(0)[S.RUM] == 0


def test_treasure_space_costs_two_dice_of_any_colour_otherwise():
    t = Table()
    t.set_slot("Raid", "pink")
    t.set_dice(0, ["teal", "blue", "red"])
    assert t.call("pay_step", seat=0, space=t.space("Raid")) == EV.PAY_TWO
    assert sum(ready(t, 0)) == 1


def test_a_single_die_cannot_pay_for_a_treasure_space_of_another_colour():
    t = Table()
    t.set_slot("Raid", "pink")
    t.set_dice(0, ["teal"])
    assert not t.call("step_cost_ok", seat=0, space=t.space("Raid"))
    assert t.call("pay_step", seat=0, space=t.space("Raid")) == -1


def test_treasureless_space_costs_one_die_of_any_colour():
    t = Table()
    t.set_slot("Raid", None)
    t.set_dice(0, ["teal", "blue"])
    assert t.call("pay_step", seat=0, space=t.space("Raid")) == EV.PAY_ANY
    assert sum(ready(t, 0)) == 1


def test_bribe_goes_to_the_occupant_highest_in_turn_order():
    # the worked example: the 2nd in turn order pays 1 gold to the highest of the occupants
    t = Table()
    t.T[S.ORDER, :4] = [2, 0, 1, 3]
    for i, s in enumerate([2, 0, 1, 3]):
        t.T[S.ORDER, S.POSITION + s] = i
    raid = t.space("Raid")
    t.put(1, "Raid")
    t.put(2, "Raid")
    t.st[S.NAVY_POS] = raid
    gold = [int(t.seat(s)[S.GOLD]) for s in range(4)]
    t.seat(0)[S.GOLD] = 5
    t.call("bribe", seat=0, space=raid, players=4)
    assert t.seat(0)[S.GOLD] == 4 and t.seat(2)[S.GOLD] == gold[2] + 1 and t.seat(1)[S.GOLD] == gold[1]


def test_bribe_goes_to_the_navy_only_when_no_pirate_is_there():
    t = Table()
    raid = t.space("Raid")
    t.st[S.NAVY_POS] = raid
    t.seat(3)[S.GOLD] = 3
    paid = int(t.st[S.GOLD_PAID])
    t.call("bribe", seat=3, space=raid, players=4)  # position 4's bribe
    assert t.seat(3)[S.GOLD] == 3 - int(t.K[S.BRIBE, 3]) and t.st[S.GOLD_PAID] == paid + int(t.K[S.BRIBE, 3])


def test_a_pirate_that_cannot_bribe_must_fight():
    t = Table(strategies="burier")
    t.put(0, "Coral Harbour")
    t.put(1, "Raid")
    t.seat(0)[S.GOLD] = 0
    t.set_dice(0, ["red", "red", "red"])
    t.set_slot("Raid", "red")
    foe = t.call("move_to", seat=0, dest=t.space("Raid"), players=4)
    assert foe == 1 and t.seat(0)[S.POS] == t.space("Raid")


def test_moving_several_lanes_pays_each_step():
    t = Table()
    t.put(0, "Coral Harbour")
    t.set_slot("Raid", None)
    t.set_slot("Crew Spirit Die", None)
    t.set_dice(0, ["red", "blue", "green"])
    t.call("move_to", seat=0, dest=t.space("Crew Spirit Die"), players=4)
    assert t.seat(0)[S.POS] == t.space("Crew Spirit Die") and sum(ready(t, 0)) == 1
    assert len(t.events(EV.MOVE)) == 2


def test_board_action_needs_a_move_this_turn():
    t = Table(strategies="burier")
    t.put(0, "Raid")
    gold, rum = int(t.seat(0)[S.GOLD]), int(t.seat(0)[S.RUM])
    t.seat(0)[S.MOVED] = 0
    t.call("act_and_collect", seat=0, act=bot.ACT_BOARD, players=4)
    assert (t.seat(0)[S.GOLD], t.seat(0)[S.RUM]) == (gold, rum)
    t.seat(0)[S.MOVED] = 1
    t.call("act_and_collect", seat=0, act=bot.ACT_BOARD, players=4)
    assert (t.seat(0)[S.GOLD], t.seat(0)[S.RUM]) == (gold + 2, rum + 1)  # Raid: 2 gold and 1 rum


def test_collect_follows_an_action_but_not_a_burial():
    t = Table(strategies="burier")
    t.put(0, "Raid")
    t.set_slot("Raid", "red")
    t.seat(0)[S.MOVED] = 1
    t.call("act_and_collect", seat=0, act=bot.ACT_BOARD, players=4)
    assert t.holds(0)[0] == {"red": 1} and t.T[S.SLOT, 2 * t.space("Raid")] == -1
    t2 = Table(strategies="burier")
    t2.put(0, "Raid")
    t2.set_slot("Raid", "red")
    t2.hold(0, {"blue": 1})
    t2.call("act_and_collect", seat=0, act=bot.ACT_BURY, players=4)
    assert t2.holds(0)[0] == {} and t2.T[S.SLOT, 2 * t2.space("Raid")] == COLOUR["red"]


def test_region_controller_draws_when_another_pirate_collects_there():
    t = Table(strategies="burier")
    t.T[S.CONTROL, S.CTRL_REGION0 + 0] = 1  # Raid is in the NW Region, listed first
    t.put(0, "Raid")
    t.set_slot("Raid", "red")
    t.call("collect", seat=0, players=4)
    assert sum(t.holds(1)[0].values()) == 1
    assert t.events(EV.GAIN)[-1][1] == 1 and t.events(EV.GAIN)[-1][4] == EV.R_REGION
    t.put(1, "Explore")
    t.set_slot("Explore", "blue")
    t.call("collect", seat=1, players=4)
    assert sum(t.holds(1)[0].values()) == 2  # its own collection pays it nothing more


def test_region_payout_from_an_empty_bag_is_gold():
    t = Table(strategies="burier")
    t.T[S.CONTROL, S.CTRL_REGION0 + 0] = 1
    t.put(0, "Raid")
    t.set_slot("Raid", "red")
    t.T[S.BAG, :6] = 0
    gold = int(t.seat(1)[S.GOLD])
    t.call("collect", seat=0, players=4)
    assert t.seat(1)[S.GOLD] == gold + t.P.empty_bag_gold


def test_a_sunk_ship_returns_to_its_start_at_its_next_turn_ignoring_ships_there():
    t = Table(strategies="burier")
    start = int(t.seat(0)[S.START])
    t.seat(0)[S.POS] = -1
    t.seat(1)[S.POS] = start
    t.set_dice(0, [])
    t.call("take_turn", seat=0, phase=0, players=4)
    assert t.events(EV.RESPAWN)[0][3] == start
    assert not t.events(EV.COMBAT) and not t.events(EV.BRIBE)


def test_starting_harbours_are_treasureless_and_resources_follow_the_wager_position():
    t = Table(players=4)
    for s in range(4):
        assert t.K[S.SP_SLOTS, t.seat(s)[S.START]] == 0
        assert t.seat(s)[S.GOLD] == t.K[S.START_GOLD, s] and t.seat(s)[S.RUM] == t.K[S.START_RUM, s]
    assert len({int(t.seat(s)[S.START]) for s in range(4)}) == 4


def test_the_day_start_reroll_costs_one_gold_once():
    t = Table(strategies="burier")
    t.weights(0, W_REROLL=9, W_RESERVE=0)
    t.seat(0)[S.GOLD] = 3
    t.call("start_day", players=4)
    rolls = [r for r in t.events(EV.ROLL) if r[1] == 0]
    assert rolls[0][4] == 1 and t.seat(0)[S.GOLD] == 2 + t.seat(0)[S.REL_GOLD]
    assert np.all(t.T[S.DICE0 + 0, S.READY: S.READY + 5] == 1)


def test_every_sunrise_turn_comes_before_any_sunset_turn_in_wager_order():
    t = Table(strategies=["random", "burier", "raider", "controller"], seed=9)
    for _day in range(3):
        order = [int(x) for x in t.T[S.ORDER, :4]]
        start = int(t.st[S.LOG_N])
        if t.call("play_day", players=4):
            break
        turns = [r for r in t.events(EV.TURN, start)]
        assert [r[3] for r in turns] == [0] * 4 + [1] * 4  # one Sunrise and one Sunset turn each
        assert [r[1] for r in turns] == order + order
