"""Every Board Action: its cost and its reward (Board Action Specifics; Taking Control and the
further board actions listed after it)."""

import pytest

from .harness import COLOUR, EV, S, Table


def at(t: Table, seat: int, name: str) -> Table:
    t.put(seat, name)
    t.seat(seat)[S.MOVED] = 1
    return t


def act(t: Table, seat: int = 0):
    return t.call("board_action", seat=seat, players=t.players)


def test_rum_action_gives_2_rum():
    t = at(Table(strategies="burier"), 0, "Rum Cove")
    rum = int(t.seat(0)[S.RUM])
    assert act(t)
    assert t.seat(0)[S.RUM] == rum + 2


def test_extra_treasure_costs_1_gold_and_pays_no_region_payout():
    t = at(Table(strategies="burier"), 0, "Twin Wrecks")
    t.set_slot("Twin Wrecks", "red", 0)
    t.set_slot("Twin Wrecks", "blue", 1)
    t.T[S.CONTROL, S.CTRL_REGION0 + 1] = 2  # NE Region, controlled by seat 2
    t.seat(0)[S.GOLD] = 1
    assert act(t)
    assert t.seat(0)[S.GOLD] == 0 and t.holds(0)[0] == {"blue": 1}
    assert t.T[S.SLOT, 2 * t.space("Twin Wrecks")] == COLOUR["red"]  # the other is left to Collect
    assert t.holds(2) == ({}, {})  # an Act's treasure is no Collect (TOA-X34)


def test_extra_treasure_needs_the_gold():
    t = at(Table(strategies="burier"), 0, "Twin Wrecks")
    t.set_slot("Twin Wrecks", "red", 0)
    t.set_slot("Twin Wrecks", "blue", 1)
    t.seat(0)[S.GOLD] = 0
    assert not act(t)


def test_whirlpool_travels_to_another_free_space():
    t = at(Table(strategies="burier"), 0, "Whirlpool")
    assert act(t)
    to = int(t.seat(0)[S.POS])
    assert to != t.space("Whirlpool") and all(t.seat(s)[S.POS] != to for s in (1, 2, 3))
    assert t.events(EV.WHIRLPOOL)


@pytest.mark.parametrize("space,loc", [("Crew Spirit Die", S.CTRL_CREW), ("Marauder's Rock", S.CTRL_MARAUDER),
                                       ("Guardian's Reef", S.CTRL_GUARDIAN)])
def test_control_needs_more_sloops_than_are_there_and_returns_them_when_lost(space, loc):
    t = at(Table(strategies="controller"), 0, space)
    assert act(t)
    assert t.T[S.CONTROL, loc] == 0 and t.T[S.CONTROL, S.SLOOPS_AT + loc] == 1 and t.seat(0)[S.SLOOPS_OUT] == 1
    assert not act(t)  # its own location cannot be reinforced (A37)
    at(t, 1, space)
    assert act(t, 1)
    assert t.T[S.CONTROL, loc] == 1 and t.T[S.CONTROL, S.SLOOPS_AT + loc] == 2
    assert t.seat(0)[S.SLOOPS_OUT] == 0 and t.seat(1)[S.SLOOPS_OUT] == 2
    at(t, 2, space)
    assert not act(t, 2)  # 2 sloops in supply do not beat 2


def test_crew_spirit_die_is_rolled_at_once_and_serves_as_a_crew_die():
    t = at(Table(strategies="controller"), 0, "Crew Spirit Die")
    t.set_dice(0, [])
    act(t)
    assert t.T[S.DICE0 + 0, S.READY + S.SPIRIT_SLOT] == 1 and S.ready_dice(t.T, 0) == 1
    at(t, 1, "Crew Spirit Die")
    t.seat(1)[S.FLEET] = 1
    act(t, 1)
    assert t.T[S.DICE0 + 0, S.READY + S.SPIRIT_SLOT] == 0 and t.T[S.DICE0 + 1, S.READY + S.SPIRIT_SLOT] == 1


def test_region_control_takes_one_of_the_four_regions():
    t = at(Table(strategies="controller"), 0, "Buy a Sea")
    assert act(t)
    held = [r for r in range(4) if t.T[S.CONTROL, S.CTRL_REGION0 + r] == 0]
    assert len(held) == 1


def test_relocate_the_navy_up_to_two_lanes_without_a_fight():
    t = at(Table(strategies="raider"), 0, "Signal Tower")
    t.st[S.NAVY_CARD] = 0
    t.st[S.NAVY_POS] = t.space("Deep Explore")
    assert act(t)
    to = int(t.st[S.NAVY_POS])
    assert t.K[S.DIST0 + t.space("Deep Explore"), to] <= 2 and not t.events(EV.NAVY_ATTACK)
    t2 = at(Table(strategies="raider"), 0, "Signal Tower")
    assert not act(t2)  # no Navy on the board: nothing to relocate


def test_burial_draw_gives_a_private_bonus_and_1_rum():
    t = at(Table(strategies="burier"), 0, "Chart House")
    rum, deck = int(t.seat(0)[S.RUM]), int(t.st[S.BURIAL_DECK_N])
    assert act(t)
    assert t.seat(0)[S.PRIVATE_N] == 1 and t.seat(0)[S.RUM] == rum + 1 and t.st[S.BURIAL_DECK_N] == deck - 1


def test_bind_costs_1_rum_and_binds_two():
    t = at(Table(strategies="hoarder"), 0, "Lashing Post")
    t.seat(0)[S.RUM] = 1
    t.hold(0, {"red": 2, "blue": 1})
    assert act(t)
    unbound, bound = t.holds(0)
    assert sum(bound.values()) == 2 and sum(unbound.values()) == 1 and t.seat(0)[S.RUM] == 0


def test_bind_needs_rum():
    t = at(Table(strategies="hoarder"), 0, "Lashing Post")
    t.seat(0)[S.RUM] = 0
    t.hold(0, {"red": 2})
    assert not act(t)


def test_recycle_costs_1_rum_and_returns_two_spent_dice_rerolled():
    t = at(Table(strategies="burier"), 0, "Tavern")
    t.seat(0)[S.RUM] = 1
    t.set_dice(0, ["red", "red", "red"], ready=[0, 0, 0])
    assert act(t)
    assert S.ready_dice(t.T, 0) == 2 and t.seat(0)[S.RUM] == 0


def test_unlock_places_the_highest_unplaced_token_until_none_is_left():
    t = at(Table(strategies="burier"), 0, "Old Vault")
    tokens = [int(x) for x in t.K[S.TOKENS, : t.K[S.META, S.N_TOKENS]]]
    for v in tokens:
        assert act(t)
        assert t.events(EV.UNLOCK)[-1][4] == v
    assert not act(t)
    assert sorted(int(x) for x in t.T[S.ENDGAME, S.TOKEN_COL: S.TOKEN_COL + 4]) == sorted(tokens)


def test_add_relics_one_free_a_second_for_2_gold_and_the_row_refilled():
    t = at(Table(strategies="burier"), 0, "Relic Market")
    t.weights(0, W_RELIC=3, W_RESERVE=0)
    t.seat(0)[S.GOLD] = 2
    assert act(t)
    assert t.seat(0)[S.N_RELICS] == 2 and t.seat(0)[S.GOLD] == 0 and t.st[S.DISPLAY_N] == t.P.relic_display


def test_relic_slots_are_limited_to_four():
    t = at(Table(strategies="burier"), 0, "Relic Market")
    t.seat(0)[S.N_RELICS] = 4
    assert not act(t)


def test_explore_draws_the_top_monster():
    t = at(Table(strategies="raider"), 0, "Explore")
    top = int(t.T[S.MONSTER_DECK, t.st[S.MONSTER_DECK_N] - 1])
    assert act(t)
    assert t.events(EV.EXPLORE)[0][3] == top


def test_a_random_treasure_from_an_empty_bag_is_2_gold():
    t = Table()
    t.T[S.BAG, :6] = 0
    gold = int(t.seat(0)[S.GOLD])
    t.call("random_treasure", seat=0, reason=EV.R_EXPLORE)
    assert t.seat(0)[S.GOLD] == gold + 2
