"""Special crew effects (A9) and fortune card effects (A11): each does what its card says, only
while its token is face up, and duplicates stack."""

from .harness import OUTPOST, S, Table

ROLL, FIGHT, DEFEAT, OPEN_FIRE, MOVE = 9, 11, 14, 32, 6
HUB_ISLAND = 3


def card_of(t, effect):
    return next(c for c in range(int(t.K[S.META, S.N_CREW_CARDS])) if t.K[S.C_EFFECT, c] == effect)


def crew(t, k, effect, slot=0, down=0):
    t.ship(k)[S.SPEC0 + slot] = card_of(t, effect)
    t.ship(k)[S.SPEC_DOWN0 + slot] = down


def test_a_gunner_adds_a_hit_and_two_gunners_add_two():
    t = Table(4)
    t.clear_board()
    t.put(0, 5)
    t.put(2, 5)
    t.seat(0)[S.FORT_N] = 0
    for gunners in (1, 2):
        for slot in range(gunners):
            crew(t, 0, S.E_GUNNER, slot)
        before = int(t.ship(2)[S.DAMAGE])
        start = int(t.st[S.LOG_N])
        t.call("open_fire", k=0, bonus=0)
        rolled = t.events(code=ROLL, start=start)[0][5]
        assert t.ship(2)[S.DAMAGE] - before == rolled + gunners


def test_a_defeated_gunner_adds_nothing():
    t = Table(4)
    t.clear_board()
    t.put(0, 5)
    t.put(2, 5)
    t.seat(0)[S.FORT_N] = 0
    crew(t, 0, S.E_GUNNER, down=1)
    start = int(t.st[S.LOG_N])
    t.call("open_fire", k=0, bonus=0)
    assert t.ship(2)[S.DAMAGE] == t.events(code=ROLL, start=start)[0][5]


def test_a_carpenter_repairs_two_damage_with_one_resource():
    t = Table(2)
    crew(t, 0, S.E_CARPENTER)
    t.ship(0)[S.CREW_UP] = 0  # the carpenter is the only face-up token
    t.ship(0)[S.DAMAGE] = 3
    t.call("do_tasks", k=0, goal=t.ship(0)[S.HEX])
    assert t.ship(0)[S.DAMAGE] == 1 and t.ship(0)[S.RES_N] == 1


def test_a_surgeon_stops_the_first_skeleton_attack():
    for seed in range(10):
        t = Table(2, seed=seed)
        t.clear_board()
        t.put(0, HUB_ISLAND)
        t.empty_hold(0)
        t.seat(0)[S.FORT_N] = 0
        crew(t, 0, S.E_SURGEON)
        t.ship(0)[S.CREW_UP] = 1
        for _ in range(4):
            t.drop(HUB_ISLAND, S.LOOT_BAG, S.SKELETON)
        start = int(t.st[S.LOG_N])
        t.call("plunder", k=0)
        left = int(t.T[S.HEX_SKELETONS, HUB_ISLAND])
        defeats = t.events(code=DEFEAT, start=start)
        assert len(defeats) == min(max(0, left - 1), 2)


def test_a_digger_adds_a_plunder_entry():
    t = Table(2)
    t.clear_board()
    t.put(0, HUB_ISLAND)
    t.seat(0)[S.FORT_N] = 0
    t.ship(0)[S.CREW_UP] = 0
    crew(t, 0, S.E_DIGGER)
    t.ship(0)[S.SPEC_DOWN0] = 0
    for _ in range(6):
        t.drop(HUB_ISLAND, S.LOOT_BAG, S.SKELETON)
    start = int(t.st[S.LOG_N])
    t.call("plunder", k=0)
    rolled = t.events(code=ROLL, start=start)[0][5]
    assert len(t.events(code=FIGHT, start=start)) == rolled + 1  # every entry fights a skeleton


def test_a_scout_makes_the_first_sail_task_two_hexes():
    t = Table(4)
    t.clear_board()
    t.put(0, OUTPOST)
    t.ship(0)[S.CREW_UP] = 0
    crew(t, 0, S.E_SCOUT)
    far = int(t.call("line_end", h=OUTPOST, d=0, n=4))
    assert far >= 0
    t.call("do_tasks", k=0, goal=far)
    assert t.K[S.DIST0 + OUTPOST, t.ship(0)[S.HEX]] == 2
    t.put(0, OUTPOST)
    t.ship(0)[S.SPEC0] = -1
    t.ship(0)[S.CREW_UP] = 1
    t.call("do_tasks", k=0, goal=far)
    assert t.K[S.DIST0 + OUTPOST, t.ship(0)[S.HEX]] == 1  # without the Scout: one hex


def test_instant_fortune_cards_repair_pump_revive_and_pay():
    t = Table(2, strategies="merchant")
    while t.seat(0)[S.FORT_N]:
        t.call("discard_fortune", seat=0, i=0)
    for effect in (S.F_PLANKS, S.F_PUMP, S.F_RUM, S.F_COIN):
        t.give_fortune(0, effect)
    sh = t.ship(0)
    sh[S.DAMAGE], sh[S.WATER] = 2, 3  # a Sloop's gauge is 4: the bots pump when one space is left
    sh[S.CREW_UP], sh[S.CREW_DOWN] = 0, 2
    gold = int(t.seat(0)[S.GOLD])
    t.call("play_instants", k=0)
    assert sh[S.DAMAGE] == 0 and sh[S.WATER] == 1 and sh[S.CREW_UP] == 2 and sh[S.CREW_DOWN] == 0
    assert t.seat(0)[S.GOLD] == gold + 200 and t.seat(0)[S.FORT_N] == 0


def test_special_actions_buried_map_and_broadside_and_fair_winds():
    t = Table(4)
    t.clear_board()
    t.put(0, HUB_ISLAND)
    while t.seat(0)[S.FORT_N]:
        t.call("discard_fortune", seat=0, i=0)
    card = t.give_fortune(0, S.F_BURIED_MAP)
    hold = int(t.ship(0)[S.HOLD_N])
    t.call("special_action", k=0, i=0, goal=HUB_ISLAND)
    assert t.ship(0)[S.HOLD_N] == hold + 1
    assert t.fortune_hand(0) == []  # the card is discarded, to the bottom of the fortune deck
    bottom = (int(t.st[S.FORTUNE_HEAD]) + int(t.st[S.FORTUNE_N]) - 1) % S.MAX_FORTUNE
    assert int(t.T[S.FORTUNE_DECK, bottom]) == card
    assert sum(t.K[S.TOK_BAG, x] == S.TREASURE_BAG for x in t.hold(0)) == 1
    t.put(2, HUB_ISLAND)
    t.give_fortune(0, S.F_BROADSIDE)
    start = int(t.st[S.LOG_N])
    t.call("special_action", k=0, i=0, goal=HUB_ISLAND)
    rolled = t.events(code=ROLL, start=start)[0][5]
    assert t.ship(2)[S.DAMAGE] == rolled + 2
    t.give_fortune(0, S.F_FAIR_WINDS)
    goal = int(t.call("line_end", h=OUTPOST, d=3, n=4))
    t.put(0, OUTPOST)
    t.call("special_action", k=0, i=0, goal=goal)
    assert t.K[S.DIST0 + t.ship(0)[S.HEX], goal] == 1  # three hexes of the four
