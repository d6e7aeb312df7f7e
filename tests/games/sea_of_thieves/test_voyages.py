"""Voyages: one per ship, started at an action's start, completed for the reward, abandoned for
the penalty; dig and fight progress; deliveries; the two-player voyage filter."""

import numpy as np
import pytest

from .harness import OUTPOST, S, Table

DONE, ABANDON, START, TASK, ACTION = 23, 24, 21, 5, 4


def bottom_of(t, v):
    """The card at the bottom of v's tier deck."""
    tier = int(t.K[S.V_TIER, v])
    i = (int(t.st[S.VOY_HEAD0 + 2 * tier]) + int(t.st[S.VOY_N0 + 2 * tier]) - 1) % S.MAX_VOYAGES
    return int(t.T[S.VOY_DECK0 + tier, i])


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
    assert bottom_of(t, v) == v  # discarded to the bottom of its deck


def test_a_reputation_reward_moves_the_reputation_track():
    t = Table(4)
    v = t.voyage("reach", "meagre", "rep")
    t.ship(0)[S.VOYAGE] = v
    t.seat(0)[S.REP] = 4
    t.call("complete_voyage", k=0)
    assert t.seat(0)[S.REP] == 4 + t.K[S.V_AMOUNT, v] > 4


def test_a_voyage_starts_at_the_start_of_an_action_before_its_tasks():
    t = Table(4)
    v = t.voyage("reach")
    t.set_voyage_hand(0, [v])
    t.ship(0)[S.WATER] = 2  # the crew has work: bail, or sail toward the voyage's island
    start = int(t.st[S.LOG_N])
    t.call("take_action", k=0)
    codes = [r[2] for r in t.events(start=start) if r[2] in (START, TASK, ACTION)]
    assert codes[0] == START and codes.index(ACTION) > codes.index(START)
    assert all(c != START for c in codes[1:])  # one start, at the start


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


def test_abandoning_costs_the_penalty_but_never_below_zero_reputation_then_discards():
    t = Table(2)
    v = t.voyage("fight", "legendary")
    t.ship(0)[S.VOYAGE] = v
    t.seat(0)[S.REP] = 1
    t.call("abandon_voyage", k=0)
    assert t.seat(0)[S.REP] == 0 and t.ship(0)[S.VOYAGE] == -1 and t.seat(0)[S.ABANDONED] == 1
    assert bottom_of(t, v) == v


def stale_voyage(t, k, age):
    """Ship k sails a sink voyage (no sinking in sight: it cannot finish) begun `age` actions ago."""
    v = t.voyage("sink", "legendary")
    t.ship(k)[S.VOYAGE] = v
    t.ship(k)[S.VOY_AGE] = age
    return v


def test_the_heuristics_abandon_a_voyage_at_the_start_of_an_action_past_their_patience():
    t = Table(4)  # the merchant's patience: 10 actions
    t.set_voyage_hand(0, [])
    t.seat(0)[S.REP] = 10
    v = stale_voyage(t, 0, 10)
    t.call("take_action", k=0)  # the 11th action since it began
    assert t.ship(0)[S.VOYAGE] == -1 and t.seat(0)[S.REP] == 10 - t.K[S.V_PENALTY, v]
    stale_voyage(t, 1, 9)
    t.call("take_action", k=1)  # the 10th: kept
    assert t.ship(1)[S.VOYAGE] == v


def test_random_never_abandons_a_voyage_of_its_own_accord():
    t = Table(4, strategies="random")
    t.clear_board()
    for k in (0, 1):
        t.put(k, 9)
        stale_voyage(t, k, 50)
    for _ in range(60):
        t.seat(0)[S.ACTIONS_LEFT] = 3
        for k in (0, 1):
            t.ship(k)[S.DAMAGE] = 0
            t.ship(k)[S.ACTIONS] = 0
            if t.ship(k)[S.HEX] < 0:
                t.put(k, 9)
            t.call("take_action", k=k)
    assert not [r for r in t.events(code=ABANDON)]


@pytest.mark.parametrize("window,kept", [("action", 1), ("turn", 0)])
def test_abandon_window_turn_gives_up_stale_voyages_before_the_end_of_the_turn(window, kept):
    """Each ship acts at least once; the one that acts twice reaches its 11th action and is
    abandoned there; the other ends the turn at 10 actions: kept until its next action, or given
    up at the end of this turn (abandon_window = turn, A52)."""
    t = Table(4, overrides={"abandon_window": window})
    t.set_voyage_hand(0, [])
    for k in (0, 1):
        stale_voyage(t, k, 9)
    t.seat(0)[S.REP] = 10
    t.call("take_turn", seat=0)
    assert sum(t.ship(k)[S.VOYAGE] >= 0 for k in (0, 1)) == kept
    assert t.seat(0)[S.REP] == 10 - (2 - kept) * 3
    abandoned = t.events(code=ABANDON)
    assert len(abandoned) == 2 - kept


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


def test_each_action_ages_its_own_ships_voyage_and_no_other():
    """A voyage's age counts its ship's actions since it began (the heuristics' patience reads
    it): an action of ship k adds one to ship k's, and leaves every other ship's as it was."""
    t = Table(2, strategies="random")  # random never abandons a voyage (A53)
    for k in range(4):
        stale_voyage(t, k, 3 + 2 * k)
    for k in range(4):
        before = [int(t.ship(j)[S.VOY_AGE]) for j in range(4)]
        t.call("take_action", k=k)
        after = [int(t.ship(j)[S.VOY_AGE]) for j in range(4)]
        assert after[k] == before[k] + 1 and t.ship(k)[S.VOYAGE] >= 0, (k, before, after)
        assert [a for j, a in enumerate(after) if j != k] == [b for j, b in enumerate(before) if j != k]


@pytest.mark.parametrize("k, rival", [(0, 2), (3, 1)])
def test_a_sink_voyage_opens_fire_on_any_rival_ship_in_the_hex(k, rival):
    """A heuristic ship on a sink voyage fires on a rival ship sharing its hex, whatever that ship
    carries; on any other voyage an empty rival is left alone (the bot's fire_on), for either
    ship of either seat."""
    from strategies import sea_of_thieves as bot

    for task in ("sink", "reach", "fight"):
        t = Table(2)
        t.clear_board()
        h = int(t.K[S.NEXT0 + 1, int(t.K[S.NEXT0 + 1, OUTPOST])])  # open sea, two hexes from the Outpost
        t.put(k, h)
        t.put(rival, h)
        t.empty_hold(rival)
        t.seat(k // 2)[S.FORT_N] = 0  # no Broadside to play instead
        t.ship(k)[S.VOYAGE] = t.voyage(task)
        assert not bot.fire_on(t.T, t.F, np.int64(k), np.int64(rival))
        action, _ = t.call("choose_action", k=k, goal=OUTPOST, intent=bot.I_VOYAGE)
        assert (int(action) == S.A_OPEN_FIRE) == (task == "sink"), (task, int(action))
