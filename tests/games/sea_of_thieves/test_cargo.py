"""Cargo: the bags' exact contents, set-up tokens, empty bags, holds, swapping, sinking."""

from collections import Counter

from .harness import S, Table

LOOT = Counter({("resource", 0): 30, ("gem", 400): 4, ("chest", 300): 1, ("chest", 100): 3, ("skull", 300): 1,
                ("skull", 100): 3, ("crate", 300): 1, ("crate", 100): 3})
TREASURE = Counter({("gem", 800): 2, ("gem", 600): 4, ("chest", 500): 4, ("chest", 300): 6, ("skull", 500): 4,
                    ("skull", 300): 6, ("crate", 500): 4, ("crate", 300): 6, ("trinket", 300): 6})


def kinds(t, ids):
    return Counter((S.KIND_NAMES[t.K[S.TOK_KIND, i]], int(t.K[S.TOK_VALUE, i])) for i in ids)


def test_the_bags_hold_the_rulebooks_tokens():
    t = Table(4)
    n = int(t.K[S.META, S.N_TOKENS])
    loot = [i for i in range(n) if t.K[S.TOK_BAG, i] == S.LOOT_BAG and t.K[S.TOK_KIND, i] != S.SKELETON]
    treasure = [i for i in range(n) if t.K[S.TOK_BAG, i] == S.TREASURE_BAG]
    assert kinds(t, loot) == LOOT
    assert kinds(t, treasure) == TREASURE
    assert sum(t.K[S.TOK_KIND, i] == S.SKELETON for i in range(n)) == 20


def test_setup_puts_skeletons_and_treasure_on_their_symbols_and_the_rest_in_the_bags():
    t = Table(4)
    c = t.token_census()
    skeleton_hexes = [h for h in range(S.MAX_HEX) if t.T[S.HEX_SKELETONS, h] > 0]
    treasure_hexes = [h for h in range(S.MAX_HEX) if t.T[S.HEX_CARGO, h] > 0]
    assert skeleton_hexes and treasure_hexes
    for h in skeleton_hexes:
        assert t.T[S.HEX_TYPE, h] == S.ISLAND and t.T[S.HEX_SKELETONS, h] == 1
    # the bags: every treasure not on the board; every loot token and skeleton not placed or in a hold
    placed_skeletons = sum(int(t.T[S.HEX_SKELETONS, h]) for h in range(S.MAX_HEX))
    bag_skeletons = sum(t.K[S.TOK_KIND, i] == S.SKELETON for i in c["loot"])
    assert placed_skeletons + bag_skeletons == 20
    assert len(c["treasure"]) == 42 - len(treasure_hexes)
    resources_in_holds = sum(len(t.hold(k, S.RESOURCE)) for k in range(8))
    assert resources_in_holds == 16  # two per ship (A14)
    assert len(c["loot"]) == 46 - 16 + bag_skeletons
    # only the eight skeleton captains wait outside the bags (Bags and Tokens: never in the loot bag)
    assert [int(t.K[S.TOK_KIND, i]) for i in c["boxed"]] == [S.CAPTAIN] * 8


def test_an_empty_bag_gives_nothing_and_a_missing_kind_is_not_drawn():
    t = Table(2)
    while t.st[S.TREASURE_N] > 0:
        t.call("to_hold", t=t.call("draw", bag=S.TREASURE_BAG), k=0)
    assert t.call("draw", bag=S.TREASURE_BAG) == -1
    assert t.call("draw_kind", bag=S.TREASURE_BAG, kind=S.GEM) == -1
    while True:
        r = int(t.call("draw_kind", bag=S.LOOT_BAG, kind=S.RESOURCE))
        if r < 0:
            break
        t.call("to_hold", t=r, k=1)
    assert all(t.K[S.TOK_KIND, i] != S.RESOURCE for i in t.T[S.LOOT_BAG_ROW, : t.st[S.LOOT_N]])


def test_bag_draws_are_blind_every_token_equally_likely():
    t = Table(2)
    n = int(t.st[S.TREASURE_N])
    seen = Counter()
    for _ in range(60 * n):
        tok = int(t.call("draw", bag=S.TREASURE_BAG))
        seen[tok] += 1
        t.call("to_bag", t=tok)
    assert len(seen) == n and min(seen.values()) > 25 and max(seen.values()) < 100


def test_holds_have_no_limit():
    t = Table(2)
    n = int(t.st[S.TREASURE_N])
    for _ in range(n):
        t.call("to_hold", t=t.call("draw", bag=S.TREASURE_BAG), k=0)
    assert n > 30 and t.ship(0)[S.HOLD_N] == 2 + n


def test_cargo_swaps_only_between_own_ships_in_one_hex():
    t = Table(4)
    t.clear_board()
    tok = t.give(0, S.TREASURE_BAG, S.CHEST)
    t.put(0, 5)
    t.put(1, 4)
    assert not t.call("swap_cargo", t=tok, k_from=0, k_to=1)
    t.put(1, 5)
    t.put(2, 5)
    assert not t.call("swap_cargo", t=tok, k_from=0, k_to=2)  # a rival's ship
    assert t.call("swap_cargo", t=tok, k_from=0, k_to=1)
    assert t.hold(1) == [tok]


def test_a_sinking_ship_leaves_its_cargo_abandons_its_voyage_and_loses_special_crew():
    t = Table(4)
    t.clear_board()
    t.put(0, 5)
    t.ship(0)[S.TYPE] = S.BRIGANTINE
    t.ship(0)[S.CREW_UP] = 2
    t.ship(0)[S.SPEC0] = 3
    v = t.voyage("dig", "legendary")
    t.ship(0)[S.VOYAGE] = v
    t.seat(0)[S.REP] = 5
    gem = t.give(0, S.TREASURE_BAG, S.GEM)
    held = t.hold(0)
    t.call("sink_ship", k=0)
    assert t.ship(0)[S.HEX] == -1 and t.T[S.HEX_STANDEES, 5] == 0
    assert set(t.tokens_at(5)) == set(held) and gem in held and t.ship(0)[S.HOLD_N] == 0
    assert t.T[S.HEX_CARGO, 5] == len(held)
    assert t.ship(0)[S.VOYAGE] == -1 and t.seat(0)[S.REP] == 5 - t.K[S.V_PENALTY, v]
    assert t.ship(0)[S.SPEC0] == -1 and t.ship(0)[S.CREW_UP] == 3  # replaced by a crew token
    assert t.ship(0)[S.TYPE] == S.BRIGANTINE  # upgrades stay
    assert t.seat(0)[S.SINKINGS] == 1
