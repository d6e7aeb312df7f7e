"""Every Board Action: its cost and its reward (Board Action Specifics; Taking Control and the
further board actions listed after it)."""

import pytest

from simkit.games.tide_of_avaris import engine

from .harness import COLOUR, EV, S, Table, bot


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


def with_choice(t: Table, name: str, choice: int, seat: int = 0):
    """The board action played by the engine (as Python) with the bot's choice `name` replaced by
    one that answers `choice` whatever the table: the engine alone must keep it legal."""
    real = getattr(bot, name)
    setattr(bot, name, lambda *args: choice)
    try:
        return engine.board_action.py_func(t.P, t.T, t.K, t.F, t.rng, t.log, seat, t.players)
    finally:
        setattr(bot, name, real)


@pytest.mark.parametrize("target", ["here", "Raid", "Navy", -1, 99])
def test_the_engine_refuses_a_whirlpool_target_with_a_ship_or_off_the_board(target):
    t = at(Table(strategies="burier"), 0, "Whirlpool")
    t.put(1, "Raid")
    t.st[S.NAVY_CARD] = 0
    t.st[S.NAVY_POS] = t.space("Explore")
    choice = {"here": t.space("Whirlpool"), "Raid": t.space("Raid"), "Navy": t.space("Explore")}.get(target, target)
    assert with_choice(t, "whirlpool_target", choice)
    to = int(t.seat(0)[S.POS])
    assert 0 <= to < t.K[S.META, S.N_SPACES] and to not in (t.space("Whirlpool"), t.space("Raid"), t.space("Explore"))
    t2 = at(Table(strategies="burier"), 0, "Whirlpool")  # a legal choice is the engine's answer too
    assert with_choice(t2, "whirlpool_target", t2.space("Tavern")) and t2.seat(0)[S.POS] == t2.space("Tavern")


@pytest.mark.parametrize("seat", [0, 1, 2, 3])
def test_the_whirlpool_never_lands_on_any_rival_s_ship_nor_its_own_space_nor_the_navy(seat):
    """The Whirlpool reaches any other space with no ship on it (A32): for each seat in turn, a
    space holding each one of the rivals' ships (whichever seat it is), its own space and the
    Navy's are refused, and an empty space is allowed."""
    t = Table(strategies="burier")
    spaces = ["Tavern", "Raid", "Rum Cove", "Twin Wrecks"]
    for s in range(t.players):
        t.put(s, spaces[s])
    t.st[S.NAVY_CARD] = 0
    t.st[S.NAVY_POS] = t.space("Explore")

    def legal(name):
        return bool(S.whirlpool_legal(t.T, t.K, seat, t.space(name), t.players))

    for s in range(t.players):
        assert not legal(spaces[s]), f"seat {seat} may not land on seat {s}'s space {spaces[s]}"
    assert not legal("Explore") and legal("Whirlpool")
    for off in (-1, int(t.K[S.META, S.N_SPACES])):
        assert not S.whirlpool_legal(t.T, t.K, seat, off, t.players)


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


@pytest.mark.parametrize("lanes", [0, 1, 2, 3, 4])
def test_the_engine_moves_the_navy_at_most_two_lanes_whatever_is_chosen(lanes):
    t = at(Table(strategies="raider"), 0, "Signal Tower")
    t.st[S.NAVY_CARD] = 0
    start = t.space("Deep Explore")
    t.st[S.NAVY_POS] = start
    choice = next(b for b in range(int(t.K[S.META, S.N_SPACES])) if t.K[S.DIST0 + start, b] == lanes)
    assert with_choice(t, "navy_target", choice)
    assert t.st[S.NAVY_POS] == (choice if lanes <= t.P.relocate_reach else start)
    assert t.events(EV.RELOCATE)[-1][3:5] == (start, int(t.st[S.NAVY_POS]))


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


@pytest.mark.parametrize("ready", [[0, 0, 0], [0, 1, 1], [1, 1, 1]])
def test_recycle_costs_1_rum_and_rerolls_any_two_dice_commanded_or_not(ready):
    # TOA-192: "Choose any two dice (expended or not)": also with fewer than two commanded
    t = at(Table(strategies="burier"), 0, "Tavern")
    t.seat(0)[S.RUM] = 1
    t.set_dice(0, ["red", "red", "red"], ready=ready)
    assert act(t)
    assert t.seat(0)[S.RUM] == 0 and t.events(EV.RECYCLE)[-1][3] == 2
    assert S.ready_dice(t.T, 0) == min(3, sum(ready) + 2)  # the heuristic brings commanded dice back first
    assert (t.T[S.SCRATCH] == 0).all()


def test_recycle_with_one_die_rerolls_it_and_needs_a_die_and_the_rum():
    t = at(Table(strategies="burier"), 0, "Tavern")
    t.seat(0)[S.RUM] = 1
    t.set_dice(0, ["red"], ready=[0])
    assert act(t) and t.events(EV.RECYCLE)[-1][3] == 1 and S.ready_dice(t.T, 0) == 1
    t.seat(0)[S.RUM] = 0
    t.set_dice(0, ["red"], ready=[0])
    assert not act(t)  # no rum
    t.seat(0)[S.RUM] = 1
    t.set_dice(0, [])
    assert not act(t)  # no die


def test_recycle_can_take_the_crew_spirit_die_as_one_of_its_dice():
    t = at(Table(strategies="burier"), 0, "Tavern")
    t.seat(0)[S.RUM] = 1
    t.set_dice(0, [])
    t.T[S.CONTROL, S.CTRL_CREW] = 0
    t.T[S.DICE0, S.READY + S.SPIRIT_SLOT] = 0
    assert act(t) and t.T[S.DICE0, S.READY + S.SPIRIT_SLOT] == 1


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


def test_add_relics_may_first_clear_the_display_for_five_new_ones():
    # TOA-197: the free refresh at the start of the action
    t = at(Table(strategies="burier"), 0, "Relic Market")
    old = [int(x) for x in t.T[S.DISPLAY, :5]]
    assert with_choice(t, "refresh_relics", True)
    assert [int(x) for x in t.T[S.RELIC_DISC, : t.st[S.RELIC_DISC_N]]] == old
    assert t.st[S.DISPLAY_N] == 5 and not {int(x) for x in t.T[S.DISPLAY, :5]} & set(old)
    assert t.seat(0)[S.N_RELICS] >= 1 and int(t.T[S.RELICS0, 0]) not in old


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
