"""A turn: Move (movement and Bribe costs), Act, Collect (Sunrise and Sunset; 1. Move; 2. Act;
3. Collect Treasure), and the return of a sunk ship (Sinking Ship)."""

from collections import Counter

import numpy as np
import pytest

from simkit.games.tide_of_avaris import actions as A
from simkit.games.tide_of_avaris import engine

from .harness import COLOUR, EV, S, Table, bot


def ready(t, s):
    return [int(x) for x in t.T[S.DICE0 + s, S.READY: S.READY + int(t.seat(s)[S.CREW_N])]]


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


def test_the_mover_attacks_and_the_occupant_defends():
    # TOA-207..209, 211: Sable ends her move on One-Eye's space without a Bribe: she attacks with
    # her attack dice (swords), he defends with his defence dice (shields)
    t = Table(strategies="raider")
    t.K = t.K.copy()
    t.K[S.COMBAT_FACE, 0] = S.SWORD  # every die shows a sword: only the attacker can hit
    t.K[S.META, S.N_COMBAT_FACES] = 1
    t.put(0, "Coral Harbour")
    t.put(1, "Raid")
    t.set_slot("Raid", None)
    t.seat(0)[S.GOLD] = 0  # no Bribe money: it must fight
    t.seat(0)[S.ATTACK] = 2
    t.seat(1)[S.DEFENCE] = 3
    t.set_dice(0, ["blue"])
    t.set_dice(1, ["blue", "blue"])
    t.hold(1, {"red": 2, "pink": 2})
    t.call("finish_turn", seat=0, phase=0, players=4, dest=t.space("Raid"))
    combat = t.events(EV.COMBAT)[0]
    coral, raid = t.space("Coral Harbour"), t.space("Raid")
    assert combat[1] == 0 and combat[3] == 1 and combat[4] == t.K[S.WIND0 + coral, raid]
    assert [r[3:5] for r in t.events(EV.BATTLE)] == [(3, 0)]  # 1 + 2 attack dice, all swords
    assert t.seat(0)[S.FIGHTS_WON] == 1 and sum(t.holds(0)[1].values()) == 2
    assert t.seat(1)[S.POS] == -1 and t.seat(0)[S.POS] == raid
    assert not t.events(EV.ACTION)  # the fight was the turn's Act (A44)


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
        rows = t.rows(start)
        first_turn = next(i for i, r in enumerate(rows) if r[2] == EV.TURN)
        rolls = [i for i, r in enumerate(rows) if r[2] == EV.ROLL]
        assert len(rolls) == 4 and max(rolls) < first_turn  # crew dice rolled only at the Day's start


def test_set_up_deals_the_decks_and_fills_every_treasure_slot():
    # TOA-024..032: five relics face up, one Burial Bonus face up, four locked endgame bonuses,
    # every slot filled from the bag
    t = Table(players=3)
    assert t.st[S.DISPLAY_N] == t.P.relic_display == 5
    assert t.st[S.PUBLIC_BONUS] >= 0 and t.st[S.BURIAL_DECK_N] == t.K[S.META, S.N_BURIAL] - 1
    assert len({int(x) for x in t.T[S.ENDGAME, :4]}) == 4 and (t.T[S.ENDGAME, S.TOKEN_COL: S.TOKEN_COL + 4] == 0).all()
    slots = int(t.K[S.META, S.N_SLOTS])
    assert int((t.T[S.SLOT] >= 0).sum()) == slots and int(t.T[S.BAG, :6].sum()) == 36 - slots
    assert t.st[S.NAVY_POS] == -1  # no Navy before the first Night (TOA-G12)
    assert [int(x) for x in t.T[S.ORDER, :3]] == [0, 1, 2]  # seat 0 first, then clockwise (A58)


def test_passing_through_an_occupied_space_needs_the_bribe():
    # A43 (TOA-X5): without the Bribe the mover stops on the occupied space and fights there
    def table(gold):
        t = Table(strategies="burier")
        t.put(0, "Raid")
        t.put(1, "Crew Spirit Die")  # the only way from the Raid to Explore
        t.set_slot("Crew Spirit Die", None)
        t.set_slot("Explore", None)
        t.set_dice(0, ["red", "red", "red"])
        t.seat(0)[S.GOLD] = gold
        return t

    t = table(0)
    assert t.call("move_to", seat=0, dest=t.space("Explore"), players=4) == 1
    assert t.seat(0)[S.POS] == t.space("Crew Spirit Die")
    t2 = table(5)  # bribes its way through
    assert t2.call("move_to", seat=0, dest=t2.space("Explore"), players=4) == -1
    assert t2.seat(0)[S.POS] == t2.space("Explore") and len(t2.events(EV.BRIBE)) == 1


def test_the_night_runs_upgrade_navy_wager_then_rising_tide():
    # TOA-122, 131: the Night's four steps in order
    t = Table(strategies="raider")
    t.seat(0)[S.GOLD] = 20
    t.call("night", players=4)
    codes = [r[2] for r in t.rows()]
    first = {c: codes.index(c) for c in (EV.UPGRADE, EV.NAVY_PLACE, EV.WAGER, EV.TIDE)}
    assert first[EV.UPGRADE] < first[EV.NAVY_PLACE] < first[EV.WAGER] < first[EV.TIDE]


def test_commanded_dice_gather_their_resource():
    # TOA-053..055: a die commanded for supplies gives its face's gold or rum, once
    t = Table()
    t.set_dice(0, ["teal", "blue"])  # 1 gold, 1 rum (components/dice.toml)
    gold, rum = int(t.seat(0)[S.GOLD]), int(t.seat(0)[S.RUM])
    t.call("command", seat=0, i=0)
    t.call("command", seat=0, i=1)
    assert (t.seat(0)[S.GOLD], t.seat(0)[S.RUM]) == (gold + 1, rum + 1)
    assert t.T[S.DICE0, S.READY: S.READY + 2].sum() == 0


def test_the_mover_chooses_whom_to_fight_among_several():
    # TOA-106, 210: a pirate and the Navy on the Raid; the engine fights whichever the mover names
    for choice in (S.FOE_NAVY, 1):
        t = Table(strategies="raider")
        t.put(0, "Coral Harbour")
        t.put(1, "Raid")
        t.set_slot("Raid", None)
        t.st[S.NAVY_CARD] = 0
        t.st[S.NAVY_POS] = t.space("Raid")
        t.set_dice(0, ["red"])
        real = bot.choose_foe
        bot.choose_foe = lambda *args, c=choice: c
        try:
            foe = engine.move_to.py_func(t.P, t.T, t.K, t.F, t.rng, t.log, 0, t.space("Raid"), 4)
        finally:
            bot.choose_foe = real
        assert foe == choice


@pytest.mark.parametrize("seat", [0, 2])
def test_a_space_is_occupied_by_any_other_ship_or_the_navy_and_by_nothing_else(seat):
    """Occupied means another ship there, the Navy being a ship (TOA-037, TOA-038): each rival's
    space and the Navy's space are occupied for the seat, its own and an empty one are not, and
    the Navy's card or deck count never stands for its position."""
    t = Table(strategies="burier")
    spaces = ["Tavern", "Raid", "Rum Cove", "Twin Wrecks"]
    for s in range(t.players):
        t.put(s, spaces[s])
    t.st[S.NAVY_POS] = t.space("Explore")
    t.st[S.NAVY_CARD] = t.space("Whirlpool")  # a card id that happens to equal a free space's
    t.st[S.NAVY_DECK_N] = t.space("Whirlpool")

    def occupied(name):
        return bool(A.occupied(t.T, t.space(name), seat, t.players))

    assert [occupied(spaces[s]) for s in range(t.players)] == [s != seat for s in range(t.players)]
    assert occupied("Explore") and not occupied("Whirlpool")
    t.st[S.NAVY_POS] = -1  # the Navy off the board
    assert not occupied("Explore")


def test_a_random_pirate_chooses_uniformly_among_nothing_a_burial_and_the_board_action():
    """2. Act, the random seat (A15's uniform choice): where it may bury and take the space's
    board action, each of doing neither, burying and acting has chance 1/3 (300 seeds: 100 each
    expected, sd 8.2; the band is +-3.7 sd); where it cannot bury, neither and acting 1/2 each."""
    picks = Counter()
    for seed in range(300):
        t = Table(strategies="random", seed=seed)
        t.put(0, "Rum Cove")
        t.seat(0)[S.MOVED] = 1
        t.hold(0, {"blue": 1})
        assert S.burial_value(t.T, t.K, 0) > 0
        picks[int(bot.choose_act(t.P, t.T, t.K, t.F, t.rng, 0, 0, 4))] += 1
    assert set(picks) == {bot.ACT_NONE, bot.ACT_BURY, bot.ACT_BOARD}
    assert all(70 <= n <= 130 for n in picks.values()), picks
    halves = Counter()
    for seed in range(300):
        t = Table(strategies="random", seed=seed)
        t.put(0, "Rum Cove")
        t.seat(0)[S.MOVED] = 1
        halves[int(bot.choose_act(t.P, t.T, t.K, t.F, t.rng, 0, 0, 4))] += 1
    assert set(halves) == {bot.ACT_NONE, bot.ACT_BOARD} and all(120 <= n <= 180 for n in halves.values()), halves


def test_a_step_toward_a_destination_takes_a_free_shortest_path_neighbour_else_the_first():
    """Movement, one step at a time: the next space is a neighbour one lane closer to the
    destination, a free one when there is a choice; when every such neighbour is occupied, the
    first of them in the board's lane order. Checked for every space and destination where two
    or more neighbours are one lane closer (the first of them space 0 included)."""
    t = Table(strategies="burier")
    K, n = t.K, int(t.K[S.META, S.N_SPACES])
    checked = 0
    for here in range(n):
        adj = [int(K[S.ADJ0 + j, here]) for j in range(int(K[S.SP_ADJ_N, here]))]
        for dest in range(n):
            closer = [b for b in adj if K[S.DIST0 + b, dest] == K[S.DIST0 + here, dest] - 1]
            if len(closer) < 2 or dest in closer or len(closer) > 3:
                continue
            t.seat(0)[S.POS] = here  # the mover
            park = next(b for b in range(n) if b != here and b not in closer)
            for s in range(1, 4):  # the rivals park off the way, then on every closer neighbour
                t.seat(s)[S.POS] = park
            t.st[S.NAVY_POS] = -1
            for s, b in enumerate(closer, start=1):
                t.seat(s)[S.POS] = b
            occupied = int(engine.next_step(t.T, t.K, here, dest, 4))
            assert occupied == closer[0], (here, dest, closer)
            t.seat(len(closer))[S.POS] = park  # free the last one: it is taken
            assert int(engine.next_step(t.T, t.K, here, dest, 4)) == closer[-1], (here, dest, closer)
            checked += 1
    assert checked > 10
