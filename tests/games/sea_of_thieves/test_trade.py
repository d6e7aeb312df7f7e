"""Trade at the Outpost: selling, commissions with gems, repair, upgrades, hiring, seeking voyages."""

import pytest

from .harness import OUTPOST, S, Table

SELL, COMMISSION, UPGRADE, HIRE, SEEK = 15, 16, 18, 19, 20


@pytest.mark.parametrize("chests,skulls,crates,gems,sets", [
    (3, 0, 0, 0, 1), (6, 0, 0, 0, 2), (2, 0, 0, 1, 1), (1, 0, 0, 2, 1), (0, 0, 0, 3, 1),
    (2, 2, 0, 0, 0), (2, 2, 2, 3, 3), (1, 1, 1, 2, 1), (2, 1, 0, 3, 2), (0, 0, 0, 2, 0), (3, 3, 3, 0, 3)])
def test_commissions_count_sets_of_three_with_gems_wild(chests, skulls, crates, gems, sets):
    t = Table(2)
    assert t.call("commissions", chests=chests, skulls=skulls, crates=crates, gems=gems, set_size=3) == sets


def at_outpost(t, k=0):
    t.clear_board()
    t.put(k, OUTPOST)
    t.empty_hold(k)


def test_selling_pays_the_tokens_value_and_claims_a_commission_with_a_gem():
    t = Table(2)
    at_outpost(t)
    toks = [t.give(0, S.TREASURE_BAG, S.CHEST, 500), t.give(0, S.LOOT_BAG, S.CHEST, 100),
            t.give(0, S.TREASURE_BAG, S.GEM, 800), t.give(0, S.TREASURE_BAG, S.SKULL, 300)]
    res = t.give(0, S.LOOT_BAG, S.RESOURCE)
    gold, rep = int(t.seat(0)[S.GOLD]), int(t.seat(0)[S.REP])
    t.call("sell_stage", k=0)
    assert t.seat(0)[S.GOLD] == gold + 1700
    assert t.seat(0)[S.REP] == rep + 2 and t.seat(0)[S.COMMISSIONS] == 1
    assert t.hold(0) == [res]  # the bots keep resources (worth nothing: A7)
    assert all(t.T[S.TOK_LOC, x] in (S.IN_LOOT_BAG, S.IN_TREASURE_BAG) for x in toks)


def test_two_chests_and_a_skull_claim_nothing():
    t = Table(2)
    at_outpost(t)
    t.give(0, S.TREASURE_BAG, S.CHEST)
    t.give(0, S.TREASURE_BAG, S.CHEST)
    t.give(0, S.TREASURE_BAG, S.SKULL)
    t.call("sell_stage", k=0)
    assert t.seat(0)[S.COMMISSIONS] == 0 and t.seat(0)[S.REP] == 0


def test_repair_resets_the_water_and_charges_per_damage_token():
    t = Table(2)
    at_outpost(t)
    t.ship(0)[S.WATER] = 3
    t.ship(0)[S.DAMAGE] = 2
    t.seat(0)[S.GOLD] = 150
    t.call("repair_stage", k=0)
    assert t.ship(0)[S.WATER] == 0 and t.ship(0)[S.DAMAGE] == 1 and t.seat(0)[S.GOLD] == 50


@pytest.mark.parametrize("damage,water,gold,ok", [(0, 0, 1200, True), (1, 0, 5000, False), (0, 1, 5000, False),
                                                  (0, 0, 1199, False)])
def test_upgrade_needs_no_damage_the_lowest_water_and_the_gold(damage, water, gold, ok):
    t = Table(2)
    at_outpost(t)
    sh = t.ship(0)
    sh[S.DAMAGE], sh[S.WATER] = damage, water
    t.seat(0)[S.GOLD] = gold
    assert bool(t.call("can_upgrade", k=0)) == ok


def test_upgrades_add_a_crew_token_and_can_go_twice_in_one_trade():
    t = Table(2, strategies="merchant", overrides={"starting_gold": [3100, 700, 800, 900]})
    at_outpost(t)
    t.call("upgrade_stage", k=0)
    sh = t.ship(0)
    assert sh[S.TYPE] == S.GALLEON and sh[S.CREW_UP] == 4
    assert t.seat(0)[S.GOLD] == 3100 - 1200 - 1800 and t.seat(0)[S.UPGRADES] == 2
    t.ship(1)[S.TYPE] = S.BRIGANTINE
    t.seat(0)[S.GOLD] = 10000
    assert not t.call("can_upgrade", k=1)  # one Galleon per player (A15)


def test_hiring_replaces_a_crew_token_and_refills_only_at_clean_up():
    t = Table(2)
    at_outpost(t)
    card = int(t.T[S.MARKET, 0])
    t.seat(0)[S.GOLD] = 5000
    t.call("hire", k=0, slot=0)
    sh = t.ship(0)
    assert sh[S.SPEC0] == card and sh[S.CREW_UP] == 1
    assert t.seat(0)[S.GOLD] == 5000 - t.K[S.C_COST, card]
    assert t.T[S.MARKET, 0] == -1
    t.call("clean_up", seat=0)
    assert t.T[S.MARKET, 0] >= 0


def test_seeking_draws_three_and_keeps_only_paid_cards():
    t = Table(2, strategies="random")
    at_outpost(t)
    t.seat(0)[S.GOLD] = 10000
    hand = len(t.voyage_hand(0))
    decks = sum(int(t.st[S.VOY_N0 + 2 * i]) for i in range(3))
    start = int(t.st[S.LOG_N])
    t.call("seek_stage", k=0)
    seen = t.events(code=SEEK, start=start)
    assert len(seen) == 3
    kept = [r for r in seen if r[4] == 1]
    assert len(t.voyage_hand(0)) == hand + len(kept)
    assert t.seat(0)[S.GOLD] == 10000 - sum(r[5] for r in kept)
    assert sum(int(t.st[S.VOY_N0 + 2 * i]) for i in range(3)) == decks - len(kept)
