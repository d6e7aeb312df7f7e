"""Trade at the Outpost: selling, commissions with gems, repair, upgrades, hiring, seeking voyages."""

import pytest

from simkit.games.sea_of_thieves.components import SETS

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


def test_several_commissions_in_one_sale_pay_two_reputation_each():
    t = Table(2)
    at_outpost(t)
    for kind in (S.CHEST, S.CHEST, S.CHEST, S.SKULL, S.SKULL, S.SKULL, S.CRATE):
        t.give(0, S.TREASURE_BAG, kind)
    t.call("sell_stage", k=0)
    assert t.seat(0)[S.COMMISSIONS] == 2 and t.seat(0)[S.REP] == 4


def test_two_chests_and_a_skull_claim_nothing():
    t = Table(2)
    at_outpost(t)
    t.give(0, S.TREASURE_BAG, S.CHEST)
    t.give(0, S.TREASURE_BAG, S.CHEST)
    t.give(0, S.TREASURE_BAG, S.SKULL)
    t.call("sell_stage", k=0)
    assert t.seat(0)[S.COMMISSIONS] == 0 and t.seat(0)[S.REP] == 0


@pytest.mark.parametrize("damage,gold,repaired", [(3, 250, 2), (2, 150, 1), (3, 1000, 3), (1, 99, 0)])
def test_repair_resets_the_water_free_and_charges_100_per_damage_token(damage, gold, repaired):
    t = Table(2)  # the merchant repairs all the damage it can pay for
    at_outpost(t)
    t.ship(0)[S.WATER] = 3
    t.ship(0)[S.DAMAGE] = damage
    t.seat(0)[S.GOLD] = gold
    t.call("repair_stage", k=0)
    assert t.ship(0)[S.WATER] == 0
    assert t.ship(0)[S.DAMAGE] == damage - repaired and t.seat(0)[S.GOLD] == gold - 100 * repaired


def test_repair_cost_is_a_parameter():
    t = Table(2, overrides={"repair_cost": 150})
    at_outpost(t)
    t.ship(0)[S.DAMAGE] = 3
    t.seat(0)[S.GOLD] = 400
    t.call("repair_stage", k=0)
    assert t.ship(0)[S.DAMAGE] == 1 and t.seat(0)[S.GOLD] == 100


def test_trade_is_offered_only_in_the_outpost_hex():
    t = Table(2, strategies="random")
    t.clear_board()
    t.put(0, OUTPOST)
    t.put(1, int(t.K[S.NEXT0, OUTPOST]))
    at, off = set(), set()
    for _ in range(300):
        at.add(int(t.call("choose_action", k=0, goal=OUTPOST, intent=0)[0]))
        off.add(int(t.call("choose_action", k=1, goal=OUTPOST, intent=0)[0]))
    assert S.A_TRADE in at and S.A_TRADE not in off


def test_trade_stages_run_in_order_selling_pays_the_repair_that_allows_the_upgrade():
    t = Table(2)  # merchant: upgrades keeping 100 gold back, hires nobody
    at_outpost(t)
    t.give(0, S.TREASURE_BAG, S.GEM, 800)
    t.give(0, S.TREASURE_BAG, S.GEM, 600)
    resource = t.give(0, S.LOOT_BAG, S.RESOURCE)
    sh = t.ship(0)
    sh[S.DAMAGE], sh[S.WATER] = 1, 2
    sh[S.CREW_UP], sh[S.SPEC0] = 1, 5  # a crew token and a special crew token
    t.seat(0)[S.GOLD] = 0
    t.set_voyage_hand(0, [t.voyage("reach"), t.voyage("dig")])  # two in hand: the merchant does not seek
    t.call("trade", k=0)
    # sell 1400, repair 100 (water free), then the upgrade needs no damage and no water: 1200
    assert sh[S.TYPE] == S.BRIGANTINE and sh[S.DAMAGE] == 0 and sh[S.WATER] == 0
    assert t.seat(0)[S.GOLD] == 1400 - 100 - 1200
    # the upgrade keeps the ship's cargo and its crew, special crew included, and adds a crew token
    assert t.hold(0) == [resource] and sh[S.SPEC0] == 5 and sh[S.CREW_UP] == 1 + 1


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


def test_hiring_onto_a_ship_full_of_special_crew_discards_the_replaced_card():
    t = Table(2)
    at_outpost(t)
    sh = t.ship(0)
    market = [int(c) for c in t.T[S.MARKET, :3]]
    a, b = [c for c in range(18) if c not in market][:2]
    sh[S.CREW_UP], sh[S.CREW_DOWN] = 0, 0
    sh[S.SPEC0], sh[S.SPEC0 + 1] = a, b  # a Sloop's two slots hold special crew
    t.seat(0)[S.GOLD] = 5000
    t.call("hire", k=0, slot=0)
    assert sorted(int(sh[S.SPEC0 + i]) for i in range(2)) == sorted([market[0], b])
    bottom = (int(t.st[S.CREW_HEAD]) + int(t.st[S.CREW_N]) - 1) % S.MAX_CREW_CARDS
    assert int(t.T[S.CREW_DECK, bottom]) == a  # the replaced card: to the bottom of its deck


@pytest.mark.parametrize("components", SETS)
def test_mermaid_gems_stand_in_for_any_cargo_the_rulebooks_example(components):
    """Claiming Commissions' example: a chest and two gems, two chests and a gem, or three gems
    each claim one commission (played on every shipped component set's bags)."""
    for kinds in ([S.CHEST, S.GEM, S.GEM], [S.CHEST, S.CHEST, S.GEM], [S.GEM, S.GEM, S.GEM]):
        t = Table(2, overrides={"components": components})
        at_outpost(t)
        for kind in kinds:
            try:
                t.give(0, S.TREASURE_BAG, kind)
            except LookupError:  # the treasure bag's gems went onto the board at set-up
                t.give(0, S.LOOT_BAG, kind)
        t.call("sell_stage", k=0)
        assert t.seat(0)[S.COMMISSIONS] == 1 and t.seat(0)[S.REP] == 2


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
    assert kept and len(t.voyage_hand(0)) == hand + len(kept) > 3  # no voyage limit until clean up
    assert t.seat(0)[S.GOLD] == 10000 - sum(r[5] for r in kept)
    assert sum(int(t.st[S.VOY_N0 + 2 * i]) for i in range(3)) == decks - len(kept)


def test_the_most_valuable_cargo_in_a_hex_is_found_wherever_it_lies_among_the_tokens():
    """best_cargo_at stops looking once it has seen every cargo token the hex counts: the most
    valuable one must be found when it has the highest token number of the hex's cargo, with
    skeletons and other hexes' cargo on the board too."""
    t = Table(2)
    t.clear_board()
    bagged = t.tokens_at(S.IN_TREASURE_BAG) + t.tokens_at(S.IN_LOOT_BAG)
    cargo = sorted(x for x in bagged if t.K[S.TOK_KIND, x] in (S.CHEST, S.SKULL, S.GEM, S.CRATE))
    values = [int(t.K[S.TOK_VALUE, x]) for x in cargo]
    top = max(range(len(cargo)), key=lambda i: (values[i], i))  # the highest token number of the top value
    low = [x for i, x in enumerate(cargo) if values[i] < values[top] and i < top][:3]
    assert len(low) == 3
    h, other = OUTPOST, int(t.K[S.NEXT0 + 0, OUTPOST])
    for x in low[:2] + [cargo[top]]:
        t.call("to_hex", t=x, h=h)
    t.call("to_hex", t=low[2], h=other)
    skeleton = t.tokens_at(S.IN_LOOT_BAG, S.SKELETON)[0]
    t.call("to_hex", t=skeleton, h=h)
    assert t.T[S.HEX_CARGO, h] == 3
    assert t.call("best_cargo_at", loc=h) == cargo[top]
    assert t.call("best_cargo_at", loc=other) == low[2]


@pytest.mark.parametrize("k", [0, 3])
def test_the_heuristic_trades_at_the_outpost_when_its_hold_holds_more_than_resources(k):
    """Without the trade intent, damage or an empty voyage hand, the heuristic trades at the
    Outpost exactly when its hold carries cargo beyond resources (something to sell), for
    either ship of either seat; resources alone are no reason."""
    from strategies import sea_of_thieves as bot

    for resources, treasure in ((0, 1), (2, 0), (1, 2), (3, 0), (0, 0)):
        t = Table(2)
        at_outpost(t, k)
        sh = t.ship(k)
        sh[S.DAMAGE] = 0
        for _ in range(resources):
            t.give(k, S.LOOT_BAG, S.RESOURCE)
        for _ in range(treasure):
            t.give(k, S.TREASURE_BAG, S.GEM)
        assert t.seat(k // 2)[S.VOY_N] > 0
        action, _ = t.call("choose_action", k=k, goal=OUTPOST, intent=bot.I_VOYAGE)
        assert (int(action) == S.A_TRADE) == (treasure > 0), (resources, treasure, int(action))
