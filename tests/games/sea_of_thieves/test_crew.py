"""Ships and crew: crew rolls and rerolls, crew defeat and saves, the four tasks."""

from fractions import Fraction

import numpy as np

from .harness import OUTPOST, S, Table


def last_roll(t):
    return t.events(code=9)[-1]  # events.ROLL: (round, seat, code, ship, dice, successes)


def test_crew_roll_faces_give_none_one_or_two_successes_one_third_one_half_one_sixth():
    t = Table(2)
    per_face = [int(t.call("die_successes", face=f)) for f in range(1, 7)]
    assert per_face == [0, 0, 1, 1, 1, 2]
    dist = {k: Fraction(per_face.count(k), 6) for k in (0, 1, 2)}
    assert dist == {0: Fraction(1, 3), 1: Fraction(1, 2), 2: Fraction(1, 6)}


def test_crew_roll_rolls_a_fair_die_per_face_up_token_only():
    t = Table(2, strategies="random")
    t.seat(0)[S.FORT_N] = 0  # no rerolls
    t.ship(0)[S.CREW_UP] = 1
    t.ship(0)[S.CREW_DOWN] = 1  # a defeated token adds no die
    counts = np.zeros(3)
    for _ in range(6000):
        n = int(t.call("crew_roll", k=0))
        counts[n] += 1
        assert last_roll(t)[4] == 1
    share = counts / counts.sum()
    assert abs(share[0] - 1 / 3) < 0.03 and abs(share[1] - 1 / 2) < 0.03 and abs(share[2] - 1 / 6) < 0.03
    t.ship(0)[S.SPEC0] = 0  # a face-up special crew token rolls too
    t.call("crew_roll", k=0)
    assert last_roll(t)[4] == 2
    t.ship(0)[S.SPEC_DOWN0] = 1
    t.call("crew_roll", k=0)
    assert last_roll(t)[4] == 1


def test_rerolls_cost_one_fortune_card_each_and_go_to_the_bottom_of_the_deck():
    t = Table(2, strategies="merchant")  # keeps one card back from rerolls
    for _ in range(4):
        t.give_fortune(0, S.F_BROADSIDE)
    before = t.fortune_hand(0)
    deck_n = int(t.st[S.FORTUNE_N])
    t.ship(0)[S.CREW_UP] = 4
    for _ in range(50):
        start = int(t.st[S.LOG_N])
        t.call("crew_roll", k=0)
        rerolls = t.events(code=10, start=start)
        if rerolls:
            break
    spent = len(before) - len(t.fortune_hand(0))
    assert spent == len(t.events(code=10)) >= 1
    assert int(t.st[S.FORTUNE_N]) == deck_n + spent
    bottom = (int(t.st[S.FORTUNE_HEAD]) + int(t.st[S.FORTUNE_N]) - 1) % S.MAX_FORTUNE
    assert int(t.T[S.FORTUNE_DECK, bottom]) == t.events(code=10)[-1][5]
    assert len(t.fortune_hand(0)) >= 1  # the merchant keeps one back


def test_a_resource_from_the_ships_hold_saves_a_crew_member():
    t = Table(2, strategies="merchant")  # saves while it holds any resource
    t.empty_hold(0)
    t.empty_hold(1)
    t.give(1, S.LOOT_BAG, S.RESOURCE)  # the sister ship's resource cannot be used
    t.give(0, S.LOOT_BAG, S.RESOURCE)
    loot_n = int(t.st[S.LOOT_N])
    t.call("defeat_crew", k=0, n=2)
    assert t.ship(0)[S.RES_N] == 0 and t.ship(1)[S.RES_N] == 1
    assert int(t.st[S.LOOT_N]) == loot_n + 1  # the resource went back into the loot bag
    assert t.ship(0)[S.CREW_UP] == 1 and t.ship(0)[S.CREW_DOWN] == 1


def test_the_owner_chooses_which_token_is_defeated_the_bots_a_normal_one_first():
    t = Table(2)
    t.empty_hold(0)  # no resource to save anyone
    sh = t.ship(0)
    sh[S.CREW_UP], sh[S.SPEC0] = 1, 4
    t.call("defeat_crew", k=0, n=1)
    assert sh[S.CREW_UP] == 0 and sh[S.CREW_DOWN] == 1 and sh[S.SPEC_DOWN0] == 0
    t.call("defeat_crew", k=0, n=1)
    assert sh[S.SPEC_DOWN0] == 1


def test_defeats_beyond_the_face_up_crew_are_lost():
    t = Table(2)
    t.empty_hold(0)
    t.call("defeat_crew", k=0, n=5)
    assert t.ship(0)[S.CREW_UP] == 0 and t.ship(0)[S.CREW_DOWN] == 2


def test_defeated_crew_must_revive_and_then_roll():
    t = Table(2)
    t.ship(0)[S.CREW_UP] = 0
    t.ship(0)[S.CREW_DOWN] = 2
    t.call("do_tasks", k=0, goal=t.ship(0)[S.HEX])
    assert t.ship(0)[S.CREW_UP] == 2 and t.ship(0)[S.CREW_DOWN] == 0
    assert not [r for r in t.events(code=5) if r[4] in (S.T_SAIL, S.T_REPAIR, S.T_BAIL)]  # no other task


def test_repair_spends_a_resource_and_removes_damage_and_needs_a_resource():
    t = Table(2)
    sh = t.ship(0)
    sh[S.DAMAGE] = 2
    res = int(sh[S.RES_N])
    assert res == 2
    t.call("do_tasks", k=0, goal=sh[S.HEX])  # the merchant repairs with both tokens
    assert sh[S.DAMAGE] == 0 and sh[S.RES_N] == 0
    sh[S.DAMAGE] = 1
    n = int(t.call("legal_tasks", k=0))
    assert S.T_REPAIR not in t.T[S.SCRATCH, :n]


def test_bail_lowers_the_water_one_space():
    t = Table(2)
    sh = t.ship(0)
    sh[S.WATER] = 3
    t.call("do_tasks", k=0, goal=sh[S.HEX])
    assert sh[S.WATER] == 1  # two crew, two Bail tasks


def test_sail_task_moves_one_hex_and_takes_no_reef_damage():
    t = Table(2)
    t.clear_board()
    t.put(0, OUTPOST)
    goal = int(t.K[S.NEXT0 + 0, int(t.K[S.NEXT0 + 0, OUTPOST])])
    t.ship(0)[S.CREW_UP] = 1
    t.call("do_tasks", k=0, goal=goal)
    assert t.ship(0)[S.HEX] in t.neighbours(OUTPOST)
    assert t.ship(0)[S.DAMAGE] == 0


def test_tasks_say_whether_they_changed_the_ship():
    """take_action keeps the plan it made before the tasks when do_tasks reports no change: a
    ship at its goal with nothing to repair or bail takes no task; a revived token or a Bail
    task is a change."""
    t = Table(2)
    sh = t.ship(0)
    assert sh[S.DAMAGE] == 0 and sh[S.WATER] == 0 and sh[S.CREW_DOWN] == 0
    assert not t.call("do_tasks", k=0, goal=sh[S.HEX])
    sh[S.WATER] = 1
    assert t.call("do_tasks", k=0, goal=sh[S.HEX]) and sh[S.WATER] == 0
    sh[S.CREW_UP] = 0
    sh[S.CREW_DOWN] = 2
    assert t.call("do_tasks", k=0, goal=sh[S.HEX]) and sh[S.CREW_UP] == 2


def test_the_task_list_starts_with_no_task_and_writes_nothing_past_its_end():
    """legal_tasks lists the tasks a token may take from the first scratch cell on: no task first,
    then Sail, Repair, Bail as they are allowed; the cells past the list keep what they held."""
    t = Table(2)
    sh = t.ship(0)
    sh[S.DAMAGE] = 1  # a resource and damage: Repair is allowed
    t.T[S.SCRATCH, :] = 77
    n = int(t.call("legal_tasks", k=0))
    tasks = [int(x) for x in t.T[S.SCRATCH, :n]]
    assert tasks[0] == S.T_NONE and S.T_REPAIR in tasks and 77 not in tasks
    assert all(int(x) == 77 for x in t.T[S.SCRATCH, n:])


def test_a_random_owner_defeats_each_face_up_token_as_likely():
    """A defeat takes a face-up token of the owner's choice; the random seat's is uniform over
    every face-up token, crew and special crew alike, on either of its ships."""
    trials = 240
    for k in (0, 1):
        counts = {}
        for seed in range(trials):
            t = Table(2, seed=seed, strategies="random")
            t.empty_hold(k)
            sh = t.ship(k)
            sh[S.CREW_UP], sh[S.CREW_DOWN] = 1, 0
            sh[S.SPEC0], sh[S.SPEC0 + 1] = 4, 5
            sh[S.SPEC_DOWN0], sh[S.SPEC_DOWN0 + 1] = 0, 0
            t.call("defeat_crew", k=k, n=1)
            down = [sh[S.CREW_UP] == 0, sh[S.SPEC_DOWN0] == 1, sh[S.SPEC_DOWN0 + 1] == 1]
            assert sum(down) == 1, (k, seed, down)
            which = down.index(True)
            counts[which] = counts.get(which, 0) + 1
        band = 4.4 * (trials * (1 / 3) * (2 / 3)) ** 0.5
        assert all(abs(counts.get(i, 0) - trials / 3) < band for i in range(3)), (k, counts)
