"""Each action, fight outcome and round rule on hand-built positions."""

from collections import Counter

import pytest

from simkit.core import game as G
from simkit.games.sea_of_troubles import GAME

from .harness import COMP, EV, S, Table, bot

SW, SA, CA, WI = S.SWORD, S.SAIL, S.CANNON, S.WILD
PORT = (1, 4)  # panel squares (row, column) of map.txt
XSQ = (4, 1)


def at(t, rc, panel=0):
    return t.square(rc[0], rc[1] + 6 * panel)


def deck_names(t):
    return Counter(COMP.treasures[x][0] for x in t.T[S.TDECK, : t.st[S.TDECK_N]])


def test_setup_treasure_deck_and_ports():
    light_names = {n for n, _, w in COMP.treasures if not w}
    for players, doubloons, light in ((2, 6, 2), (3, 6, 2), (4, 5, 1), (5, 5, 2)):
        t = Table(players)
        names = deck_names(t)
        assert names["Doubloon"] == doubloons
        assert sum(1 for x in t.T[S.TDECK, : t.st[S.TDECK_N]] if not COMP.treasures[x][2]) == light
        assert t.st[S.TDECK_N] + t.st[S.ASIDE] == len(COMP.treasures)
        assert all(t.seat(s)[S.HAND_N] == 8 for s in range(players))
        assert t.st[S.N_QUESTS] == players
        picks = set()
        for seed in range(20):
            u = Table(players, seed=seed)
            assert (u.T[S.PORT_CLOSED, :players] == 0).sum() >= 2
            picks.add(frozenset(n for n in deck_names(u) if n in light_names))
        assert len(picks) > 1  # the no-weight cards are shuffled and dealt, not fixed (A10)


def test_ships_are_placed_on_free_xs_from_the_first_placer_clockwise():
    t = Table(4, strategies="pillager")
    placed = [(r[1], r[4]) for r in t.events(EV.PLACE, start=0)]
    assert placed == [(0, 0), (1, 2), (2, 1), (3, 3)]  # each takes the free X farthest from the others
    assert all(t.seat(s)[S.HOME] == t.seat(s)[S.POS] == t.K[S.X_SQ, x] for s, x in placed)
    assert (t.T[S.XOWNER, :4] == -1).all()  # the starting X gives no burial right (A11)
    u = Table(4, "bidding_start", strategies="pillager", seed=3)
    winner = next(r[1] for r in u.events(EV.BID, start=0) if r[5] == 1)
    order = [r[1] for r in u.events(EV.PLACE, start=0)]
    assert order == [(winner + i) % 4 for i in range(4)]  # the bid winner places first
    firsts = {int(Table(3, seed=seed).events(EV.PLACE, start=0)[0][4]) for seed in range(20)}
    assert firsts == {0, 1, 2}  # a random player may take any X


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("component_set", ["standard", "alt-corner-ports"])
def test_each_placer_takes_the_free_x_farthest_from_the_ships_already_placed(players, component_set):
    # A11: a preset's ship goes on the free X whose nearest placed ship is farthest (the first
    # X on a tie), for every first placer, checked against the board's own distances
    for placer in range(players):
        t = Table(players, strategies="pillager", component_set=component_set)
        for s in range(players):
            t.put(s, -1)
        t.call("place_ships", players=players, placer=placer)
        xs = [int(t.K[S.X_SQ, x]) for x in range(int(t.K[S.META, S.N_X]))]
        placed = []
        for i in range(players):
            s = (placer + i) % players
            free = [sq for sq in xs if sq not in placed]
            near = [min([int(t.K[S.DIST0 + sq, p]) for p in placed], default=S.FAR) for sq in free]
            want = free[near.index(max(near))]
            assert t.seat(s)[S.POS] == want, (placer, s)
            placed.append(want)


def test_quests_are_dealt_from_a_shuffled_deck_and_name_a_treasure():
    kinds = sorted({n for n, _, _ in COMP.treasures})
    for i, (port, kind, infamy) in enumerate(COMP.quests):
        t = Table(5)
        assert t.K[S.Q_KIND, i] == (-1 if kind == "any" else kinds.index(kind))
        assert t.K[S.Q_PORT, i] == port % 5 and t.K[S.Q_INF, i] == infamy
    seen = Counter()
    for seed in range(60):
        t = Table(4, seed=seed)
        dealt = [int(q) for q in t.T[S.QUEST, :4]]
        assert len(set(dealt)) == 4 and all(0 <= q < len(COMP.quests) for q in dealt)
        seen.update(dealt)
    assert set(seen) == set(range(len(COMP.quests)))  # every quest card can be dealt
    assert Table(3, "skirmish").st[S.N_QUESTS] == 0  # no quests in Skirmish


def test_delivery_at_a_closed_port_removes_the_treasure_and_scores():
    chest = next(i for i, q in enumerate(COMP.quests) if q[1] == "Treasure Chest")
    t = Table(4, strategies="quester")
    t.T[S.QUEST, :] = -1
    t.T[S.QUEST, 0] = chest
    t.st[S.N_QUESTS] = 1
    port = int(t.K[S.Q_PORT, chest])
    t.T[S.PORT_CLOSED, port] = 3  # a closed port still takes deliveries (Quests)
    t.put(0, int(t.K[S.PORT_SQ, port]))
    t.give_treasure(0, "Exotic Goods")
    t.set_hand(0, [(SW, 1), (SA, 1), (CA, 2), (SW, 4)])
    assert t.call("deliverable", seat=0, slot=0) == -1  # the quest asks for a Treasure Chest
    tr = t.give_treasure(0, "Treasure Chest")
    assert t.call("deliverable", seat=0, slot=0) == 1
    t.put(0, int(t.K[S.PORT_SQ, (port + 1) % 4]))
    assert t.call("deliverable", seat=0, slot=0) == -1  # the named port only
    t.put(0, int(t.K[S.PORT_SQ, port]))
    t.call("deliver", seat=0, slot=0, i=1)
    assert t.hand(0) == [(SW, 4)]  # 3 cards for a 3-Infamy treasure, the lowest first
    assert t.seat(0)[S.INFAMY] == COMP.quests[chest][2]
    assert tr not in t.treasure_ids() and t.st[S.DELIVERED] == 1
    assert t.T[S.QUEST, 0] == -1 and t.st[S.END_REASON] == S.END_QUESTS
    u = Table(4, strategies="quester")
    u.T[S.QUEST, 0] = chest
    u.put(0, int(u.K[S.PORT_SQ, port]))
    u.give_treasure(0, "Treasure Chest")
    u.set_hand(0, [(SW, 1), (SA, 1)])
    assert u.call("deliverable", seat=0, slot=0) == -1  # cannot pay 3 cards


def test_a_delivery_of_any_treasure_hands_over_the_cheapest_carried():
    # A18: a quest for any treasure takes the carried card of the least Infamy the hand can pay,
    # the first of them on a tie, wherever it lies in the hold: every ordering of two and of
    # three kinds the treasure deck holds
    import itertools

    anyq = next(i for i, q in enumerate(COMP.quests) if q[1] == "any")
    kinds = sorted({COMP.treasures[int(tr)][0] for tr in Table(4).T[S.TDECK, :Table(4).st[S.TDECK_N]]})
    assert len(kinds) >= 4
    for carried in [*itertools.permutations(kinds, 2), *itertools.permutations(kinds, 3)]:
        t = Table(4, strategies="quester")
        t.T[S.QUEST, :] = -1
        t.T[S.QUEST, 0] = anyq
        t.st[S.N_QUESTS] = 1
        t.put(0, int(t.K[S.PORT_SQ, int(t.K[S.Q_PORT, anyq])]))
        for name in carried:
            t.give_treasure(0, name)
        t.set_hand(0, [(SW, 1), (SA, 1), (CA, 2), (SW, 4)])
        infamy = [int(t.K[S.TREAS_INF, t.T[S.CARRY0, i]]) for i in range(len(carried))]
        assert t.call("deliverable", seat=0, slot=0) == infamy.index(min(infamy)), carried


def test_pillage_success_and_equal_totals_fail():
    t = Table(2, strategies="pillager")
    t.T[S.PORT_CLOSED, 0] = 0
    t.put(0, at(t, PORT))
    t.set_hand(0, [(SW, 4), (SW, 4), (CA, 4)])
    t.stack([(SA, 1), (SA, 1), (SA, 1)])
    t.call("pillage", seat=0)
    assert t.seat(0)[S.INFAMY] == 1 and t.seat(0)[S.CARRY_N] == 1
    assert t.T[S.PORT_CLOSED, 0] == 3
    u = Table(2, strategies="pillager")
    u.T[S.PORT_CLOSED, 0] = 0
    u.put(0, at(u, PORT))
    u.set_hand(0, [(SW, 1), (SW, 2)])
    u.stack([(SA, 1), (SA, 1), (SA, 1)])
    u.call("pillage", seat=0)
    assert u.seat(0)[S.INFAMY] == 0 and u.seat(0)[S.CARRY_N] == 0
    assert u.events(EV.PILLAGE)[-1][4:] == (3, 3)


def test_closed_port_cannot_be_pillaged():
    t = Table(2)
    t.put(0, at(t, PORT))
    t.T[S.PORT_CLOSED, 0] = 2
    assert not t.call("can_pillage", seat=0)


def test_shooting_over_an_island_is_refused():
    t = Table(2)
    t.set_hand(0, [(CA, 3)])
    t.put(0, t.square(1, 2))
    t.put(1, t.square(2, 3))  # diagonal past the island at (2, 2)
    assert not t.call("can_attack", att=0, dfn=1, shoot=0 + 1)
    t.put(1, t.square(0, 2))  # orthogonally adjacent
    assert t.call("can_attack", att=0, dfn=1, shoot=1)
    assert not t.call("can_attack", att=0, dfn=1, shoot=0)  # boarding needs the same square


def test_board_tie_both_win():
    t = Table(2, strategies="duellist")
    t.alongside()
    t.seat(0)[S.INFAMY] = 1
    t.seat(1)[S.INFAMY] = 1
    t.set_hand(0, [(SW, 3)])
    t.set_hand(1, [(SW, 3)])
    t.stack([(SA, 1)])  # the defender's draw
    t.call("fight", att=0, dfn=1, shoot=0)
    assert t.events(EV.FIGHT_END)[-1][5] == 2
    assert t.seat(0)[S.INFAMY] == 1 and t.seat(1)[S.INFAMY] == 1  # each took one from the other
    assert not t.call("can_attack", att=0, dfn=1, shoot=0)  # not the same action twice


def test_concession_mid_reveal_keeps_unflipped_cards_and_loses_treasure():
    t = Table(2, strategies="duellist")
    t.alongside()
    t.give_treasure(1, "Doubloon")
    t.clear_hands()
    t.set_hand(0, [(SW, 4), (SW, 4), (SW, 4)])
    t.set_hand(1, [(SW, 1), (SW, 1)])
    t.stack([(SA, 1)])
    t.F[2, bot.W_NERVE] = 0.0  # engages, then gives up once the fight is lost
    t.call("fight", att=0, dfn=1, shoot=0)
    concede = [r for r in t.events(EV.RESPONSE) if r[3] < 0]
    assert concede and concede[-1][5] == 1  # after the first reveal
    assert t.events(EV.FIGHT_END)[-1][5] == 3
    assert sorted(t.hand(1)) == [(SW, 1), (SA, 1)]
    assert t.seat(0)[S.CARRY_N] == 1 and t.seat(1)[S.CARRY_N] == 0


def test_three_cards_against_six_all_six_are_revealed():
    t = Table(2, strategies="duellist")
    t.alongside()
    t.clear_hands()
    t.set_hand(0, [(SW, 4), (SW, 4), (SW, 4)])
    t.set_hand(1, [(SW, 1), (SW, 1), (SW, 2), (SW, 2), (SW, 3), (SW, 3)])
    t.stack([(SA, 1)])  # the defender's draw, which it cannot fight with
    t.F[2, bot.W_NERVE] = 0.0
    t.call("fight", att=0, dfn=1, shoot=0)
    assert t.events(EV.RESPONSE)[-1][3:5] == (SW, 6)
    assert t.events(EV.FIGHT_END)[-1][3:] == (12, 12, 2)  # every card counted: a tie


def test_actions_in_any_order_move_shoot_move():
    t = Table(2, strategies="duellist")
    t.put(0, t.square(0, 1))
    t.put(1, t.square(1, 2))
    t.clear_hands()
    t.set_hand(0, [(SA, 1), (CA, 4), (SA, 2)])
    t.set_hand(1, [(SW, 1)])
    t.st[S.FREE] = 0
    t.call("move", seat=0, dest=t.square(0, 2))  # move
    assert t.call("can_attack", att=0, dfn=1, shoot=1)
    t.call("fight", att=0, dfn=1, shoot=1)  # shoot
    assert t.seat(1)[S.DAMAGE] == 1
    assert t.call("move_budget", seat=0) == 2
    t.call("move", seat=0, dest=t.square(0, 4))  # and move on
    assert t.seat(0)[S.POS] == t.square(0, 4) and t.seat(0)[S.HAND_N] == 0


def test_cannon_win_damages_and_takes_from_a_more_infamous_loser():
    t = Table(2, strategies="duellist")
    t.put(0, t.square(0, 2))
    t.put(1, t.square(1, 2))
    t.seat(1)[S.INFAMY] = 3
    t.set_hand(0, [(CA, 4), (CA, 4)])
    t.set_hand(1, [(CA, 1)])
    t.stack([(SA, 1)])
    t.call("fight", att=0, dfn=1, shoot=1)
    assert t.seat(1)[S.DAMAGE] == 1
    assert t.seat(0)[S.INFAMY] == 2 and t.seat(1)[S.INFAMY] == 2
    # "more infamous" is strict and counted before the winner's +1 (A20): equal tokens, or a
    # loser one token ahead that the winner's pile token would have caught up with
    for winner, loser, after in ((2, 2, (3, 2)), (1, 2, (3, 1))):
        u = Table(2, strategies="duellist")
        u.put(0, u.square(0, 2))
        u.put(1, u.square(1, 2))
        u.seat(0)[S.INFAMY] = winner
        u.seat(1)[S.INFAMY] = loser
        u.set_hand(0, [(CA, 4), (CA, 4)])
        u.set_hand(1, [(CA, 1)])
        u.stack([(SA, 1)])
        u.call("fight", att=0, dfn=1, shoot=1)
        assert (u.seat(0)[S.INFAMY], u.seat(1)[S.INFAMY]) == after, (winner, loser)


def test_the_defender_draws_one_card_unless_its_hand_is_full():
    # The FIGHT 2: the draw waits on the hand limit, which carried weighted treasure lowers
    for carried, held, draws in ((0, 8, 0), (0, 7, 1), (1, 7, 0), (1, 6, 1)):
        t = Table(2, strategies="duellist")
        t.alongside()
        t.clear_hands()
        for _ in range(carried):
            t.give_treasure(1, "Doubloon")
        t.set_hand(0, [(SW, 1)])
        t.set_hand(1, [(SA, 1), (SA, 2), (SA, 3), (SA, 4), (SA, 1), (SA, 2), (SA, 3), (SA, 4)][:held])
        t.stack([(CA, 4)])
        deck = int(t.st[S.DECK_N])
        t.call("fight", att=0, dfn=1, shoot=0)
        assert deck - t.st[S.DECK_N] == draws, (carried, held)


def test_sword_answer_to_a_shot_moves_into_the_attackers_square():
    t = Table(2, strategies="duellist")
    t.put(0, t.square(0, 2))
    t.put(1, t.square(1, 2))
    t.set_hand(0, [(CA, 1)])
    t.set_hand(1, [(SW, 4), (SW, 4)])
    t.stack([(SA, 1)])
    t.call("fight", att=0, dfn=1, shoot=1)
    assert t.seat(1)[S.POS] == t.square(0, 2)


def test_hand_limit_counts_weighted_treasure_only():
    t = Table(2)
    t.give_treasure(0, "Doubloon")
    t.give_treasure(0, "Doubloon")
    assert t.call("hand_limit", seat=0) == 6
    light = next(n for n, _, w in COMP.treasures if not w and any(
        COMP.treasures[x][0] == n for x in t.T[S.TDECK, : t.st[S.TDECK_N]]))
    t.give_treasure(0, light)
    assert t.call("hand_limit", seat=0) == 6
    t.call("refill", seat=0)
    assert t.seat(0)[S.HAND_N] == 6


def test_bury_costs_cards_and_dig_takes_on_a_three_or_four():
    t = Table(2)
    x = at(t, XSQ)
    t.put(0, x)
    slot_tr = t.give_treasure(0, "Exotic Goods")
    t.set_hand(0, [(SA, 1), (SA, 2), (SW, 4)])
    assert t.call("bury_spot_ok", seat=0)
    t.call("bury", seat=0, slot=0)
    assert t.seat(0)[S.BURY_N] == 1 and t.seat(0)[S.HAND_N] == 1 and t.hand(0) == [(SW, 4)]
    assert t.T[S.XOWNER, 0] == 0
    t.put(1, x)
    assert t.call("dig_owner", seat=1) == 0
    t.stack([(SW, 1)])
    t.call("dig", seat=1, owner=0)
    assert t.seat(1)[S.CARRY_N] == 0
    t.stack([(SW, 3), (SA, 2)])
    t.call("dig", seat=1, owner=0)
    assert t.seat(1)[S.CARRY_N] == 1 and t.T[S.CARRY0 + 1, 0] == slot_tr
    assert t.seat(0)[S.BURY_N] == 0


@pytest.mark.parametrize("owner,digger", [(0, 1), (1, 2), (2, 0)])
def test_only_a_living_pirate_digs_at_a_rival_s_x_whatever_the_other_seats_state(owner, digger):
    # Dig, SOTR-166: a living pirate on a rival's X with treasure there digs; the Ghost or a sunk
    # pirate does not, whichever state the other seats are in
    t = Table(3)
    x = at(t, XSQ)
    t.put(owner, x)
    t.give_treasure(owner, "Exotic Goods")
    t.set_hand(owner, [(SA, 1), (SA, 2)])
    t.call("bury", seat=owner, slot=0)
    t.put(digger, x)
    other = 3 - owner - digger
    for mine, theirs in ((S.ALIVE, S.GHOST), (S.ALIVE, S.DEAD), (S.GHOST, S.ALIVE), (S.DEAD, S.ALIVE)):
        t.seat(digger)[S.STATE] = mine
        t.seat(other)[S.STATE] = theirs
        t.seat(owner)[S.STATE] = theirs
        assert t.call("dig_owner", seat=digger) == (owner if mine == S.ALIVE else -1), (mine, theirs)


def test_only_one_x_in_the_base_game_several_in_skirmish():
    for variant, ok in (("standard", False), ("skirmish", True)):
        t = Table(3, variant)
        t.seat(0)[S.BURY_X] = 2
        t.put(0, at(t, XSQ))
        assert bool(t.call("bury_spot_ok", seat=0)) == ok


def test_bidding_tie_is_drawn_off():
    t = Table(2, strategies="duellist")
    t.set_hand(0, [(SW, 3)])
    t.set_hand(1, [(SA, 3)])
    t.stack([(SW, 1), (SW, 4)])  # seat 0 draws 1, seat 1 draws 4
    assert t.call("bidding", compulsory=False) == 1
    assert [r[3:] for r in t.events(EV.BID)] == [(1, 3, 0), (1, 3, 1)]  # 1 card each, total 3
    assert not t.events(EV.STARTER)  # the winner chooses after seeing its new cards
    t.call("choose_start", winner=1)
    assert t.st[S.FIRST] == 1 and t.st[S.DIR] == 1
    u = Table(3, strategies="pillager")
    u.clear_hands()
    assert u.call("bidding", compulsory=False) == -1  # nobody can bid: the order stays


def test_round_end_discards_unwanted_cards_then_refills_then_the_winner_chooses():
    t = Table(2, strategies="pillager")
    t.set_hand(0, [(SW, 1), (SA, 1), (CA, 4), (SW, 3), (SA, 2)])
    t.set_hand(1, [(SW, 2)])
    t.call("end_round")
    codes = [r[2] for r in t.events()]
    assert codes.index(EV.BID) < codes.index(EV.STARTER)
    assert t.seat(0)[S.HAND_N] == 8 and t.seat(1)[S.HAND_N] == 8
    assert t.events(EV.STARTER)[-1][3] == 0  # seat 0 bid 4 + 3 against 2
    # the bid took the 4 and the 3; the pillager threw away its 1s and kept the 2
    assert (SA, 2) in t.hand(0) and t.st[S.DISC_N] == 5


@pytest.mark.parametrize("seat", [0, 1])
@pytest.mark.parametrize("worst", [1, 2, 3])
def test_a_preset_discards_exactly_its_cards_of_the_discard_value_or_less_at_the_round_end(seat, worst):
    # Round end, W_DISCARD: a preset throws away every action card of value `worst` or less,
    # wherever it lies in the hand, and keeps every higher one, before drawing back up
    t = Table(2, strategies="pillager")
    t.clear_hands()
    hand = [(SW, 3), (SA, 1), (CA, 4), (SW, 2), (SA, 2), (CA, 1), (SW, 4)]
    t.set_hand(seat, hand)
    t.F[1 + seat, bot.W_DISCARD] = worst
    disc = int(t.st[S.DISC_N])
    t.call("refill", seat=seat)
    thrown = [c for c in hand if c[1] <= worst]
    assert int(t.st[S.DISC_N]) - disc == len(thrown)
    assert sorted(t.hand(seat)[: len(hand) - len(thrown)]) == sorted(c for c in hand if c[1] > worst)


def test_own_treasure_is_dug_up_without_a_draw_and_ends_the_turn():
    t = Table(2, strategies="quester")
    t.put(0, at(t, XSQ))
    exotic = t.give_treasure(0, "Exotic Goods")
    t.set_hand(0, [(SA, 1), (SA, 1)])
    t.call("bury", seat=0, slot=0)
    assert t.call("can_recover", seat=0) and not t.call("can_recover", seat=1)
    deck = int(t.st[S.DECK_N])
    t.call("recover", seat=0, i=0)
    assert t.st[S.DECK_N] == deck and list(t.T[S.CARRY0, :1]) == [exotic] and t.seat(0)[S.BURY_N] == 0
    u = Table(2, strategies="random")
    u.put(0, at(u, XSQ))
    u.give_treasure(0, "Doubloon")
    u.set_hand(0, [(SA, 1)])
    u.call("bury", seat=0, slot=0)
    u.set_hand(0, [])
    u.st[S.FREE] = 0
    for seed in range(30):  # a random player that digs its own treasure up ends its turn there
        v = Table(2, strategies="random", seed=seed)
        v.T[:] = u.T
        v.call("take_turn", seat=0)
        if v.seat(0)[S.CARRY_N] == 1:
            assert v.events(EV.DIG)[-1][4] == -1 and v.events()[-1][2] in (EV.DIG, EV.TREASURE)
            break
    else:
        raise AssertionError("never dug up its own treasure")


def test_first_death_returns_as_the_ghost():
    t = Table(3)
    t.seat(1)[S.DAMAGE] = 3
    t.give_treasure(1, "Doubloon")
    t.call("damage", seat=1, by=-1)
    assert t.seat(1)[S.STATE] == S.DEAD and t.st[S.GHOST_PENDING] == 1 and t.st[S.SUNK] == 1
    t.call("end_round")
    assert t.seat(1)[S.STATE] == S.GHOST and t.seat(1)[S.DAMAGE] == 0 and t.seat(1)[S.HAND_N] == 8
    t.put(1, at(t, PORT))
    t.T[S.PORT_CLOSED, 0] = 0
    assert not t.call("can_pillage", seat=1)
    for _ in range(12):
        t.give_treasure(1, "Doubloon") if t.st[S.TDECK_N] and any(
            COMP.treasures[x][0] == "Doubloon" for x in t.T[S.TDECK, : t.st[S.TDECK_N]]) else None
    assert t.call("hand_limit", seat=1) == 8
    t.seat(0)[S.DAMAGE] = 3
    t.call("damage", seat=0, by=-1)
    assert t.st[S.END_REASON] == S.END_TWO_DEAD and t.st[S.GHOST_PENDING] == -1


def test_ghost_moves_through_land_cannot_touch_it_and_scores_the_better_of_two():
    t = Table(3, strategies="duellist")
    t.seat(1)[S.DAMAGE] = 3
    t.call("damage", seat=1, by=-1)
    t.call("end_round")
    assert t.seat(1)[S.STATE] == S.GHOST and t.seat(1)[S.POS] == at(t, XSQ, panel=1)
    west, east = t.square(2, 0), t.square(2, 3)  # the island (2, 1)-(2, 2) between them
    assert t.call("steps", seat=1, a=west, b=east) == 3 < t.call("steps", seat=0, a=west, b=east)
    t.put(1, west)
    stop = t.call("toward", seat=1, goal=east, budget=2)
    assert t.K[S.SQ_KIND, stop] != S.LAND  # through land, but never ending a move in it
    t.put(1, t.square(2, 1))
    t.put(0, t.square(2, 1))
    t.set_hand(1, [(SW, 4)])
    assert not t.call("can_attack", att=1, dfn=0, shoot=0)  # no attack from inside land
    t.put(1, at(t, XSQ, panel=1))
    t.give_treasure(1, "Exotic Goods")
    assert not t.call("bury_spot_ok", seat=1) and t.call("dig_owner", seat=1) == -1
    doubloon = t.give_treasure(1, "Doubloon")
    t.put(0, at(t, XSQ, panel=1))
    t.clear_hands()
    t.set_hand(0, [(SW, 4), (SW, 4)])
    t.set_hand(1, [(SA, 1)])
    t.call("fight", att=0, dfn=1, shoot=0)
    assert t.seat(0)[S.CARRY_N] == 1 and COMP.treasures[t.T[S.CARRY0, 0]][0] == "Exotic Goods"
    assert list(t.T[S.CARRY0 + 1, : t.seat(1)[S.CARRY_N]]) == [doubloon]  # boarding the Ghost takes one
    t.seat(1)[S.INFAMY] = 5  # the living score, plus its buried treasure
    t.T[S.BURY0 + 1, 0] = t.give_treasure(2, "Doubloon")
    t.seat(2)[S.CARRY_N] = 0
    t.seat(1)[S.BURY_N] = 1
    t.seat(1)[S.GHOST_INFAMY] = 2
    t.call("final_scoring")
    assert t.out[1, 0] == 6  # max(living 5 + 1 buried, Ghost 2 + 1 carried)
    t.seat(1)[S.GHOST_INFAMY] = 9
    t.call("final_scoring")
    assert t.out[1, 0] == 10
    ghost = G.SEAT_COLUMNS + [m.name for m in GAME.seat_metrics].index("ghost")
    assert [int(x) for x in t.out[:, ghost]] == [0, 1, 0]  # the Ghost's own seat, and no other


def test_sails_answer_wins_and_flees_one_square_per_card():
    t = Table(2, strategies="duellist")
    sq = t.alongside()
    t.clear_hands()
    t.set_hand(0, [(SW, 1)])
    t.set_hand(1, [(SA, 3), (SA, 2)])
    t.stack([(CA, 1)])  # the defender's draw
    t.call("fight", att=0, dfn=1, shoot=0)
    assert t.events(EV.RESPONSE)[-1][3:5] == (SA, 2)
    assert t.events(EV.FIGHT_END)[-1][5] == 1
    flee = t.events(EV.FLEE)[-1]
    assert flee[3] == sq and flee[4] != sq and t.call("steps", seat=1, a=sq, b=flee[4]) <= 2


@pytest.mark.parametrize("players", [2, 4])
def test_a_fleeing_pirate_takes_the_square_farthest_from_its_foe_anywhere_on_the_board(players):
    """A Sails win (A19): the winner sails to the sea square within n steps that lies farthest
    (by the Ghost's distance) from the other pirate, the whole board considered, the last
    squares too; an n of 0 leaves it where it is."""
    t = Table(players, strategies="duellist")
    n_sq = int(t.K[S.META, S.N_SQ])
    water = [b for b in range(n_sq) if t.K[S.SQ_KIND, b] != S.LAND]
    for a in (water[0], water[len(water) // 2], water[-1]):
        for n in (0, 1, 3):
            other = water[0] if a != water[0] else water[-1]
            t.put(0, a)
            t.put(1, other)
            best = a
            for b in range(n_sq):
                reach = t.K[S.SQ_KIND, b] != S.LAND and t.call("steps", seat=0, a=a, b=b) <= n
                if reach and t.K[S.GDIST0 + other, b] > t.K[S.GDIST0 + other, best]:
                    best = b
            t.call("flee", seat=0, other=1, n=n)
            assert int(t.seat(0)[S.POS]) == best, (a, n)
            if n == 0:
                assert best == a


def test_sword_win_on_a_pirate_with_no_treasure_takes_an_infamy_token():
    t = Table(2, strategies="duellist")
    t.alongside()
    t.seat(1)[S.INFAMY] = 2
    t.clear_hands()
    t.set_hand(0, [(SW, 4)])
    t.set_hand(1, [(SW, 1)])
    t.stack([(SA, 1)])
    t.call("fight", att=0, dfn=1, shoot=0)
    assert t.seat(0)[S.INFAMY] == 1 and t.seat(1)[S.INFAMY] == 1


@pytest.mark.parametrize("players", [3, 4])
def test_skirmish_differences(players):
    t = Table(players, "skirmish", strategies=["random", "random", "pillager", "random"][:players])
    assert t.st[S.TDECK_N] == 6 and t.st[S.N_QUESTS] == 0
    assert all(t.seat(s)[S.INFAMY] == 3 for s in range(players))
    assert t.P.sink_damage == 3
    t.put(0, at(t, XSQ))
    t.T[S.XOWNER, 0] = 1
    t.give_treasure(1, "Doubloon")
    t.T[S.BURY0 + 1, 0] = t.T[S.CARRY0 + 1, 0]
    t.seat(1)[S.CARRY_N] = 0
    t.seat(1)[S.BURY_N] = 1
    t.stack([(SW, 4)])
    t.call("dig", seat=0, owner=1)
    assert t.seat(0)[S.CARRY_N] == 0  # a 4 does not dig in Skirmish
    t.stack([(WI, 0)])
    t.call("dig", seat=0, owner=1)
    assert t.seat(0)[S.CARRY_N] == 1
    t.put(0, at(t, XSQ, panel=2))  # a second X: allowed in Skirmish, and 4 buried ends the game
    t.seat(0)[S.BURY_X] = 0
    t.give_treasure(0, "Treasure Chest")
    t.clear_hands()
    t.set_hand(0, [(SA, 1), (SA, 1), (SA, 1), (SA, 2), (SA, 2)])
    for slot in (1, 0):
        assert t.call("bury_spot_ok", seat=0)
        t.call("bury", seat=0, slot=slot)
    assert t.call("buried_infamy", seat=0) >= 4 and t.st[S.END_REASON] == S.END_BURIED
    t.T[S.PORT_CLOSED, 0] = 0
    t.put(2, at(t, PORT))
    t.clear_hands()
    t.set_hand(2, [(SW, 4), (SW, 4), (CA, 4)])
    t.stack([(CA, 1), (CA, 1), (CA, 1)])
    t.call("pillage", seat=2)
    assert t.seat(2)[S.CARRY_N] == 1 and t.seat(2)[S.INFAMY] == 3  # no Infamy for a pillage


def test_skirmish_refuses_two_and_five_players_and_combines_with_the_other_variants():
    from simkit.games.sea_of_troubles import GAME

    assert "3-4" in GAME.check_players(5, GAME.rules.resolve("skirmish", {}))
    assert "3-4" in GAME.check_players(2, GAME.rules.resolve("skirmish+quirks", {}))
    for players in (2, 3, 4, 5):
        assert GAME.check_players(players, GAME.rules.resolve("quirks+bidding_start", {})) is None
    assert GAME.check_players(3, GAME.rules.resolve("skirmish+quirks+bidding_start", {})) is None


def test_a_tie_resolves_both_halves_when_the_attackers_cannons_sink_the_defender():
    # Ties: both pirates win, so the sunk defender's own loot still lands (A23)
    t = Table(2, strategies="duellist")
    t.put(0, t.square(0, 2))
    t.put(1, t.square(1, 2))
    t.seat(1)[S.DAMAGE] = 3  # the next hit sinks it
    t.set_hand(0, [(CA, 3)])
    t.set_hand(1, [(CA, 3)])
    t.stack([(SA, 1)])  # the defender's draw
    t.call("fight", att=0, dfn=1, shoot=1)
    assert t.events(EV.FIGHT_END)[-1][5] == 2
    assert t.seat(1)[S.STATE] == S.DEAD
    assert t.seat(0)[S.DAMAGE] == 1  # the defender's Cannons hit back
    # the attacker took a token from the pile first, so it was the more infamous when the
    # defender's half came: the defender took one from the pile and that one (A20, A23)
    assert t.seat(0)[S.INFAMY] == 0 and t.seat(1)[S.INFAMY] == 2
    # a Swords answer to the shot boards and takes the attacker's treasure, which then sinks with it (A12)
    u = Table(2, strategies="duellist")
    u.put(0, u.square(0, 2))
    u.put(1, u.square(1, 2))
    u.seat(1)[S.DAMAGE] = 3
    u.give_treasure(0, "Doubloon")
    u.set_hand(0, [(CA, 3)])
    u.set_hand(1, [(SW, 3)])
    u.stack([(SA, 1)])
    u.call("fight", att=0, dfn=1, shoot=1)
    assert u.events(EV.FIGHT_END)[-1][5] == 2 and u.seat(1)[S.STATE] == S.DEAD
    assert u.seat(0)[S.CARRY_N] == 0 and u.st[S.SUNK] == 1


@pytest.mark.parametrize("joins", [True, False])
def test_a_wild_joins_a_pillage_only_when_wild_pillage_is_on(joins):
    t = Table(2, overrides={"wild_pillage": joins}, strategies="pillager")
    t.T[S.PORT_CLOSED, 0] = 0
    t.put(0, at(t, PORT))
    t.set_hand(0, [(WI, 0), (SW, 1), (SA, 4)])
    t.stack([(SA, 1), (SA, 1), (SA, 1)])
    t.call("pillage", seat=0)
    assert t.events(EV.PILLAGE)[-1][4] == (1 + 2 if joins else 1)  # a Wild is worth wild_value = 2 (A2)
    assert ((WI, 2) in t.hand(0)) != joins


@pytest.mark.parametrize("digs", [False, True])
def test_a_wild_digs_only_when_wild_digs_is_on(digs):
    t = Table(2, overrides={"wild_digs": digs})
    x = at(t, XSQ)
    t.put(0, x)
    t.give_treasure(0, "Doubloon")
    t.set_hand(0, [(SA, 1)])
    t.call("bury", seat=0, slot=0)
    t.put(1, x)
    t.stack([(WI, 0), (SW, 1)])
    t.call("dig", seat=1, owner=0)
    assert t.seat(1)[S.CARRY_N] == (1 if digs else 0)


def test_a_delivery_is_worth_a_bunch_of_infamy():
    # Quests: a quick way to a lot of Infamy (A4): every standard quest pays at least 3 more
    # than the cheapest treasure it accepts, which leaves the game with the delivery
    for port, kind, infamy in COMP.quests:
        cheapest = min(inf for name, inf, _ in COMP.treasures if kind in ("any", name))
        assert infamy - cheapest >= 3, (port, kind, infamy)
    any_quest = next(i for i, q in enumerate(COMP.quests) if q[1] == "any")
    t = Table(4, strategies="quester")
    t.T[S.QUEST, :] = -1
    t.T[S.QUEST, 0] = any_quest
    t.st[S.N_QUESTS] = 1
    t.put(0, int(t.K[S.PORT_SQ, int(t.K[S.Q_PORT, any_quest])]))
    t.give_treasure(0, "Doubloon")
    t.set_hand(0, [(SW, 1), (SA, 2)])
    before = t.seat(0)[S.INFAMY] + 1  # tokens plus the Doubloon's Infamy
    t.call("deliver", seat=0, slot=0, i=0)
    assert t.seat(0)[S.INFAMY] - before == 3 and t.seat(0)[S.CARRY_N] == 0


def test_hand_totals_count_a_wild_in_every_type():
    """One read of the hand gives what type_total gives for Swords, Sails and Cannons (a Wild
    serves as any of them) and the Wilds' own value: the candidate listing and the policy's
    view of its own hand both read it."""
    t = Table(2, strategies="pillager")
    t.set_hand(0, [(SW, 4), (SA, 2), (CA, 3), (WI, 0), (SW, 1)])
    wild = int(t.K[S.CARD_VALUE, t.T[S.HAND0, 3]])
    assert wild > 0
    swords, sails, cannons, wilds = S.hand_totals(t.T, t.K, 0)
    assert (swords, sails, cannons, wilds) == (5 + wild, 2 + wild, 3 + wild, wild)
    assert [S.type_total(t.T, t.K, 0, k) for k in (S.SWORD, S.SAIL, S.CANNON)] == [swords, sails, cannons]


@pytest.mark.parametrize("ghost", [False, True])
def test_a_move_stops_on_the_water_square_nearest_its_goal_within_the_budget(ghost):
    """Move (A6): the destination the engine picks for a goal is a water square the ship reaches
    within its budget and as close to the goal as any such square; a reachable water goal is
    itself; among equally close squares the ship's own, else the lowest-numbered. Every goal,
    budgets 0 to 3, from three squares, sailing and as the Ghost (which moves through land)."""
    t = Table(3, strategies="duellist")
    if ghost:
        t.seat(1)[S.DAMAGE] = 3
        t.call("damage", seat=1, by=-1)
        t.call("end_round")
        assert t.seat(1)[S.STATE] == S.GHOST
    rows = S.GDIST0 if ghost else S.DIST0
    n = int(t.K[S.META, S.N_SQ])
    water = [b for b in range(n) if t.K[S.SQ_KIND, b] != S.LAND]
    dist = t.K[rows: rows + n, :n]
    for start in water[:: max(1, len(water) // 3)][:3]:
        t.put(1, start)
        for budget in range(4):
            reach = [b for b in water if dist[start, b] <= budget]
            for goal in range(n):
                stop = int(t.call("toward", seat=1, goal=goal, budget=budget))
                nearest = min(dist[goal, b] for b in reach)
                expected = (goal if goal in reach else start if dist[goal, start] == nearest
                            else min(b for b in reach if dist[goal, b] == nearest))
                assert stop == expected, (start, budget, goal)
