"""The random seat's choices: each legal option with the same chance, and no option the rules
forbid (the `random` preset is the skill ladder's floor; a choice it can never make, or makes
too often, biases every figure measured against it). Each test counts the options a hand-built
position offers, plays it on many seeds and checks every count within five standard deviations
of its share (a correct engine fails one such bound about once in a million positions); the
ship-pick test at the end is the heuristic's."""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest

from simkit.core.rng import seed_streams

from .harness import OUTPOST, S, Table
from .test_events import card, spawn

TRIALS = 600
SIGMAS = 5.0
ROLL = 9  # the crew-roll event (test_actions.py)


def assert_uniform(counts: Counter, options: list, trials: int):
    """Every option drawn, nothing else, each within SIGMAS of trials / len(options)."""
    assert set(counts) == set(options), (sorted(counts), sorted(options))
    p = 1.0 / len(options)
    spread = SIGMAS * math.sqrt(trials * p * (1.0 - p))
    for option in options:
        assert abs(counts[option] - trials * p) <= spread, (option, counts[option], trials * p)


def reseed(t: Table, seed: int):
    seed_streams(t.rng, np.uint64(seed))


def test_a_random_full_sail_ends_on_each_reachable_hex_or_stays_alike():
    """Full Sail: each success moves the ship up to one hex in one straight line; a random seat
    stays put or ends on any hex it may end on within its roll, each alike, near ones and the
    farthest (the options are counted afresh from the roll of each trial)."""
    t = Table(4, strategies="random")
    t.clear_board()
    stays = expected_stays = var_stays = 0.0
    farthest = expected_far = 0.0
    for trial in range(TRIALS):
        reseed(t, 1000 + trial)
        t.put(0, OUTPOST)
        t.ship(0)[S.CREW_UP] = 4
        t.seat(0)[S.FORT_N] = 0
        start = int(t.st[S.LOG_N])
        t.call("full_sail", k=0, goal=OUTPOST, bonus=0)
        n = int(next(r[5] for r in t.events(code=ROLL, start=start)))
        if n == 0:
            continue
        ends, far = [OUTPOST], set()
        for d in range(6):
            x = OUTPOST
            for m in range(1, n + 1):
                x = int(t.K[S.NEXT0 + d, x])
                if x < 0 or t.T[S.HEX_TYPE, x] == S.ABSENT:
                    break
                if t.call("can_end", k=0, h=x):
                    ends.append(x)
                    if m == n:
                        far.add(x)
        end = int(t.ship(0)[S.HEX])
        assert end in ends
        p = 1.0 / len(ends)
        stays += end == OUTPOST
        expected_stays += p
        var_stays += p * (1.0 - p)
        farthest += end in far
        expected_far += p * len(far)
    assert abs(stays - expected_stays) <= SIGMAS * math.sqrt(var_stays)
    assert expected_far > 20 and farthest >= expected_far - SIGMAS * math.sqrt(expected_far)


@pytest.mark.parametrize("damage,gold", [(3, 1000), (2, 1000), (3, 200)])
def test_a_random_repair_takes_off_any_number_of_tokens_it_can_pay_for(damage, gold):
    """Stage 2, Repair: a random seat repairs none, some or all of the damage it can pay for, each alike."""
    t = Table(2, strategies="random")
    counts = Counter()
    for trial in range(TRIALS):
        reseed(t, 2000 + trial)
        t.ship(0)[S.DAMAGE] = damage
        t.seat(0)[S.GOLD] = gold
        t.call("repair_stage", k=0)
        counts[damage - int(t.ship(0)[S.DAMAGE])] += 1
    most = min(damage, gold // t.P.repair_cost)
    assert_uniform(counts, list(range(most + 1)), TRIALS)


def test_a_random_seat_upgrades_on_the_toss_of_a_coin_each_time_it_may():
    """Stage 3, Upgrade: with the gold for two upgrades a random seat stops before each one on a
    coin: none half the time, one a quarter, both a quarter."""
    t = Table(2, strategies="random")
    counts = Counter()
    for trial in range(TRIALS):
        reseed(t, 3000 + trial)
        t.ship(0)[S.TYPE] = 0
        t.ship(0)[S.CREW_UP] = 0
        t.ship(0)[S.DAMAGE] = 0
        t.ship(0)[S.WATER] = 0
        t.seat(0)[S.GOLD] = 10_000
        t.call("upgrade_stage", k=0)
        counts[int(t.ship(0)[S.TYPE])] += 1
    assert set(counts) == {0, 1, 2}
    for upgrades, share in ((0, 0.5), (1, 0.25), (2, 0.25)):
        assert abs(counts[upgrades] - TRIALS * share) <= SIGMAS * math.sqrt(TRIALS * share * (1 - share))


def test_a_random_action_is_any_legal_one_and_only_a_legal_special():
    """Actions: at the Outpost with no rival alongside, a random seat takes Full Sail, Plunder,
    Trade or the special action of a card it may play (Fair Winds), each alike, never a special
    action the position forbids (Broadside with no rival in the hex), whichever its place in hand."""
    for order in ((S.F_BROADSIDE, S.F_FAIR_WINDS), (S.F_FAIR_WINDS, S.F_BROADSIDE)):
        t = Table(2, strategies="random")
        t.clear_board()
        t.put(0, OUTPOST)
        t.seat(0)[S.FORT_N] = 0
        for effect in order:
            t.give_fortune(0, effect)
        legal = order.index(S.F_FAIR_WINDS)
        counts = Counter()
        for trial in range(TRIALS):
            reseed(t, 4000 + trial)
            action, i = t.call("choose_action", k=0, goal=OUTPOST, intent=0)
            counts[(int(action), int(i))] += 1
        options = [(S.A_FULL_SAIL, -1), (S.A_PLUNDER, -1), (S.A_TRADE, -1), (S.A_SPECIAL, legal)]
        assert_uniform(counts, options, TRIALS)


def _kraken_rises(t: Table):
    t.T[S.ENEMY0 + S.KRAKEN, S.E_TENTACLES] = 4
    spawn(t, card(t, S.EVT_SPAWN, S.SP_KRAKEN, 2))
    assert t.T[S.ENEMY0 + S.KRAKEN, S.E_STATE] == S.E_ON


def test_a_random_knave_raises_the_kraken_under_any_of_the_tied_fullest_holds():
    """Kraken (A42): among ships at sea tied for the fullest hold a random Knave picks any, each alike."""
    counts = Counter()
    for trial in range(TRIALS // 2):
        t = Table(4, seed=5000 + trial, strategies="random")
        t.clear_board()
        sea = t.hexes_of(S.SEA)
        ships = (0, 3, 6)
        for k, h in zip(ships, (sea[0], sea[5], sea[10])):
            t.put(k, h)
            t.give(k, S.TREASURE_BAG, S.CHEST)
        _kraken_rises(t)
        counts[next(k for k in ships if t.ship(k)[S.HEX] == t.T[S.ENEMY0 + S.KRAKEN, S.E_HEX])] += 1
    assert_uniform(counts, list(ships), TRIALS // 2)


def test_a_ship_making_way_for_the_kraken_may_go_to_any_free_neighbouring_hex():
    """Kraken (A42): another ship in the Kraken's hex makes way to an adjacent hex its owner picks;
    a random owner picks any hex there is room in, each alike, whatever the hexes' numbers (the
    lowest-numbered hex of the board among them)."""
    probe = Table(4)
    sea = next(h for h in probe.hexes_of(S.SEA) if 0 in probe.neighbours(h))
    counts = Counter()
    for trial in range(TRIALS):
        t = Table(4, seed=6000 + trial, strategies="random")
        t.clear_board()
        t.put(0, sea)
        t.put(2, sea)
        t.give(0, S.TREASURE_BAG, S.CHEST)  # ship 0 has the fullest hold: the Kraken rises under it
        room = [x for x in t.neighbours(sea) if t.T[S.HEX_STANDEES, x] < 2]
        _kraken_rises(t)
        counts[int(t.ship(2)[S.HEX])] += 1
    assert 0 in room and len(room) == 6
    assert_uniform(counts, room, TRIALS)


def test_a_random_sail_task_steps_into_any_neighbouring_hex_it_may_end_in_each_alike():
    """Tasks, Sail: a random seat's token moves its ship into an adjacent hex it may end its move
    in (can_end: room, or a rival there that can be pushed on), each alike, the full hex of two
    rival ships included when they can make way."""
    probe = Table(4)
    sea = next(h for h in probe.hexes_of(S.SEA) if len(probe.neighbours(h)) == 6)
    counts = Counter()
    legal = None
    for trial in range(TRIALS):
        t = Table(4, seed=7000 + trial, strategies="random")
        t.clear_board()
        t.put(0, sea)
        full = t.neighbours(sea)[2]
        t.put(4, full)
        t.put(6, full)
        legal = [x for x in t.neighbours(sea) if t.call("can_end", k=0, h=x)]
        t.call("sail_task", k=0, goal=sea, hexes_n=1, first=-1)
        counts[int(t.ship(0)[S.HEX])] += 1
    assert len(legal) >= 5
    assert_uniform(counts, legal, TRIALS)


@pytest.mark.parametrize("voyage", [0, 1, 5])
@pytest.mark.parametrize("holder", [0, 1])
def test_a_heuristic_acts_first_with_the_ship_on_a_voyage_among_equally_used_ships(voyage, holder):
    """Actions: the heuristic gives the next action to the ship with fewer actions taken; between
    ships with as many, to the one on a voyage (any voyage card, the first of the deck included),
    either ship of the fleet."""
    t = Table(2)
    sea = t.hexes_of(S.SEA)
    t.clear_board()
    t.put(0, sea[0])
    t.put(1, sea[3])
    for k in (0, 1):
        t.ship(k)[S.ACTIONS] = 0
        t.ship(k)[S.VOYAGE] = voyage if k == holder else -1
    assert t.call("pick_ship", seat=0) == holder
    t.ship(holder)[S.ACTIONS] = 1  # fewer actions first, voyage or not
    assert t.call("pick_ship", seat=0) == 1 - holder


def test_a_random_respawn_lands_on_any_island_of_the_rolled_tile_with_room():
    """Sunken Ship Respawn (A22): the owner picks the island hex of the rolled tile; a random owner
    picks any that has room for both ships, each alike (one tile open, its islands counted)."""
    open_tile = 3
    counts = Counter()
    t = Table(4, seed=7000, strategies="random")
    for trial in range(TRIALS // 2):
        reseed(t, 7000 + trial)
        t.clear_board()
        t.T[S.HEX_STANDEES, :] = 0
        t.put(0, OUTPOST)
        t.put(1, OUTPOST)
        for h in t.hexes_of(S.ISLAND):
            if h // S.TILE_HEXES not in (0, open_tile):
                t.T[S.HEX_STANDEES, h] = 2
        room = [h for h in t.hexes_of(S.ISLAND, open_tile) if t.T[S.HEX_STANDEES, h] == 0]
        t.call("sink_ship", k=0)
        t.call("sink_ship", k=1)
        t.st[S.ROUND] = 1
        t.call("respawn", seat=0)
        counts[int(t.ship(0)[S.HEX])] += 1
    assert len(room) >= 2
    assert_uniform(counts, room, TRIALS // 2)


def test_a_random_open_fire_aims_at_any_rival_ship_or_enemy_in_the_hex():
    """Open Fire (A24, Damaging Enemies): a random seat fires at any other player's ship or enemy
    in its hex, each alike, never its own other ship."""
    t0 = Table(4)
    sea = t0.hexes_of(S.SEA)[2]
    counts = Counter()
    for trial in range(TRIALS):
        t = Table(4, seed=8000 + trial, strategies="random")
        t.clear_board()
        for k in (0, 1, 2, 5):  # seat 0's two ships, one of seat 1's, one of seat 2's
            t.put(k, sea)
        t.T[S.HEX_STANDEES, sea] = 2  # room is not what this test is about
        start = int(t.st[S.LOG_N])
        t.call("open_fire", k=0, bonus=0)
        (row,) = [r for r in t.events(start=start) if r[2] == 32]
        counts[int(row[4])] += 1
    assert_uniform(counts, [2, 5], TRIALS)


def test_a_random_fleet_starts_on_any_free_hub_island():
    """Final Setup: a random player puts both ships on any hub island hex no other player holds, each alike."""
    counts = Counter()
    for trial in range(TRIALS):
        t = Table(4, seed=9000 + trial, strategies="random")
        t.clear_board()
        free = [h for h in range(S.TILE_HEXES) if t.T[S.HEX_TYPE, h] == S.ISLAND]
        t.put(2, free[0])  # seat 1's fleet holds the first hub island
        t.put(3, free[0])
        t.call("place_fleet", seat=0)
        counts[int(t.ship(0)[S.HEX])] += 1
    assert_uniform(counts, free[1:], TRIALS)
