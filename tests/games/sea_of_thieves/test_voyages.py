"""Voyages: one per ship, started at an action's start, completed for the reward, abandoned for
the penalty; dig and fight progress; deliveries; the two-player voyage filter."""

from .harness import S, Table

DONE, ABANDON = 23, 24


def test_a_ship_undertakes_one_voyage_at_a_time():
    t = Table(2)
    a, b = t.voyage("reach"), t.voyage("dig")
    t.set_voyage_hand(0, [a, b])
    assert t.call("start_voyage", k=0, i=0)
    assert not t.call("start_voyage", k=0, i=0)
    assert t.ship(0)[S.VOYAGE] == a and t.voyage_hand(0) == [b]
    assert t.call("start_voyage", k=1, i=0)


def test_reaching_the_island_completes_a_reach_voyage_with_its_reward():
    t = Table(4)
    t.clear_board()
    v = t.voyage("reach", "meagre", "gold")
    t.ship(0)[S.VOYAGE] = v
    island = int(t.T[S.SYMBOL_HEX, t.K[S.V_SYM, v]])
    t.put(0, island - 1 if island % 19 else island + 1)
    gold = int(t.seat(0)[S.GOLD])
    t.call("after_action", k=0)
    assert t.ship(0)[S.VOYAGE] == v
    t.put(0, island)
    t.call("after_action", k=0)
    assert t.ship(0)[S.VOYAGE] == -1 and t.seat(0)[S.GOLD] == gold + t.K[S.V_AMOUNT, v]
    assert t.seat(0)[S.VOYAGES_DONE] == 1
    tier_bottom = (int(t.st[S.VOY_HEAD0]) + int(t.st[S.VOY_N0]) - 1) % S.MAX_VOYAGES
    assert t.T[S.VOY_DECK0, tier_bottom] == v  # discarded to the bottom of its deck


def test_treasure_rewards_are_drawn_into_the_ships_hold():
    t = Table(4)
    v = t.voyage("dig", "valuable", "treasure")
    t.ship(0)[S.VOYAGE] = v
    hold = int(t.ship(0)[S.HOLD_N])
    bag = int(t.st[S.TREASURE_N])
    t.call("complete_voyage", k=0)
    n = int(t.K[S.V_AMOUNT, v])
    assert t.ship(0)[S.HOLD_N] == hold + n and t.st[S.TREASURE_N] == bag - n


def test_dig_voyages_progress_by_looting_their_island_only():
    t = Table(4)
    t.clear_board()
    v = t.voyage("dig", "legendary")
    island = int(t.T[S.SYMBOL_HEX, t.K[S.V_SYM, v]])
    t.ship(0)[S.VOYAGE] = v
    t.put(0, 3)
    t.call("on_loot", k=0)
    assert t.ship(0)[S.PROGRESS] == 0
    t.put(0, island)
    for i in range(int(t.K[S.V_TARGET, v])):
        assert t.ship(0)[S.VOYAGE] == v
        t.call("on_loot", k=0)
    assert t.ship(0)[S.VOYAGE] == -1 and t.seat(0)[S.VOYAGES_DONE] == 1


def test_deliveries_need_both_islands_in_order():
    t = Table(4)
    t.clear_board()
    v = t.voyage("deliver")
    first = int(t.T[S.SYMBOL_HEX, t.K[S.V_SYM, v]])
    second = int(t.T[S.SYMBOL_HEX, t.K[S.V_SYM2, v]])
    t.ship(0)[S.VOYAGE] = v
    t.put(0, second)
    t.call("after_action", k=0)
    assert t.ship(0)[S.STAGE] == 0
    t.put(0, first)
    t.call("after_action", k=0)
    assert t.ship(0)[S.STAGE] == 1
    t.put(0, second)
    t.call("after_action", k=0)
    assert t.ship(0)[S.VOYAGE] == -1 and t.seat(0)[S.VOYAGES_DONE] == 1


def test_abandoning_costs_the_penalty_but_never_below_zero_reputation():
    t = Table(2)
    v = t.voyage("fight", "legendary")
    t.ship(0)[S.VOYAGE] = v
    t.seat(0)[S.REP] = 1
    t.call("abandon_voyage", k=0)
    assert t.seat(0)[S.REP] == 0 and t.ship(0)[S.VOYAGE] == -1 and t.seat(0)[S.ABANDONED] == 1


def test_two_player_voyage_decks_hold_only_cards_of_islands_on_the_board():
    for seed in range(5):
        t = Table(2, seed=seed)
        present = {s for s in range(S.N_SYMBOLS) if t.T[S.SYMBOL_HEX, s] >= 0}
        assert len(present) == 8  # four tiles of two symbols each
        cards = []
        for tier in range(3):
            head, n = int(t.st[S.VOY_HEAD0 + 2 * tier]), int(t.st[S.VOY_N0 + 2 * tier])
            cards += [int(t.T[S.VOY_DECK0 + tier, (head + i) % S.MAX_VOYAGES]) for i in range(n)]
        cards += t.voyage_hand(0) + t.voyage_hand(1)
        for v in cards:
            for col in (S.V_SYM, S.V_SYM2):
                assert t.K[col, v] < 0 or int(t.K[col, v]) in present
        full = Table(4, seed=seed)
        assert sum(int(full.st[S.VOY_N0 + 2 * i]) for i in range(3)) + 12 == 54
