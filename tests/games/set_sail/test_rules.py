"""One test per rule that a broken engine must fail: cannons in ship combat, oars in
fleeing, the defender's retreat, steals of ship cards, the silver that quests pay, quests
only at the Pirate Ports, the random deal of the open quests, the treasure maps, the
parameters for assumptions A5, A12 and A24, the barrels' hold, the upgrades' prices and
cap, the exact cost of each quest, digging only on the map's tile, no combat at any port
and the shuffles. Each was checked by breaking its rule in the engine for a moment
(tests/mutants/set_sail.toml holds the breaks that coverage.toml's tests answer)."""

from __future__ import annotations

from collections import Counter

import pytest

from simkit.core.components import shipped
from simkit.core.errors import InputError
from simkit.games.set_sail import components

from .harness import COMP, EV, S, Table, tile

DEEP, SHALLOW = "C1", "A1"
BESIDE_PORT = "C2"  # deep water next to the Supply Port tile B2 (board.txt)
PIRATE, SUPPLY, TRADE, UPGRADE = "I2", "B2", "I5", "F4"


def table(players=2, strategies="plunderer", seed=3, **kw) -> Table:
    t = Table(players=players, seed=seed, strategies=strategies, **kw)
    t.set_active(0)
    return t


# ----------------------------------------------------------------------------- ship combat
def test_cannons_add_to_the_ship_combat_roll():
    """Ship Card Combat: the total is the die plus the Cannon Upgrades (SS-132); with three
    cannons a health-3 Deep Water ship can never win (SS-140)."""
    totals = Counter()
    for seed in range(60):
        t = table(seed=seed)
        t.seat(0)[S.UPG0 + S.CANNON] = 3
        t.seat(0)[S.SUPPLY] = 20
        t.put(0, 0, DEEP)
        mark = t.mark()
        t.call("tile_action", seat=0, piece=0)
        (fight,) = t.events(EV.SHIP_FIGHT, mark)
        totals[fight[5]] += 1
        assert t.events(EV.SHIP_WON, mark) and int(t.seat(0)[S.SUPPLY]) == 20  # never a loss
    assert set(totals) == {4, 5, 6, 7, 8, 9}  # d6 + 3, every face seen


def test_without_cannons_the_ship_combat_roll_is_the_die():
    totals = set()
    for seed in range(60):
        t = table(seed=seed)
        t.seat(0)[S.SUPPLY] = 20
        t.put(0, 0, DEEP)
        mark = t.mark()
        t.call("tile_action", seat=0, piece=0)
        (fight,) = t.events(EV.SHIP_FIGHT, mark)
        totals.add(fight[5])
        lost = int(t.seat(0)[S.SUPPLY]) < 20
        assert lost == (fight[5] < 3)
    assert totals == {1, 2, 3, 4, 5, 6}


# ----------------------------------------------------------------------------- player combat
def combat(seed, attacker_cannons=0, defender_cannons=0, defender_oars=0, strategies=("raider", "plunderer"),
           defender_tile=DEEP, goods=(1, 1, 0), ships=0):
    t = table(seed=seed, strategies=list(strategies))
    for s in range(2):
        t.seat(s)[S.SUPPLY] = 20
    t.seat(0)[S.UPG0 + S.CANNON] = attacker_cannons
    t.seat(1)[S.UPG0 + S.CANNON] = defender_cannons
    t.seat(1)[S.UPG0 + S.OAR] = defender_oars
    t.give_goods(1, list(goods))
    if ships:
        t.give_ships(1, S.DW, 3, ships)
    t.put(0, 0, defender_tile)
    t.put(1, 0, defender_tile)
    mark = t.mark()
    t.call("player_combat", attacker=0, tile=tile(defender_tile))
    (attack,) = t.events(EV.ATTACK, mark)
    (defend,) = t.events(EV.DEFEND, mark)
    return t, mark, attack[4], defend[3], defend[4], defend[5]


def test_oars_add_to_the_flee_roll():
    """Flee: the defender's die plus its Oar Upgrades (SS-125, SS-X22: the count, not +2 each)."""
    totals = set()
    for seed in range(150):
        t, _, att, flee, total, winner = combat(seed, attacker_cannons=3, defender_oars=3)
        if not flee:  # the defender flees against a strong attack (strategies.flee_better)
            continue
        totals.add(total)
        assert (winner == 0) == (total < att)
        if total >= att:  # escaped (or a tie, A11): no loss
            assert int(t.seat(1)[S.SUPPLY]) == 20
    assert totals == {4, 5, 6, 7, 8, 9}


def test_cannons_add_to_both_fight_rolls():
    """Fight: attack = die + attacker's cannons, defence = die + defender's cannons (SS-119, SS-121)."""
    attacks, defences = set(), set()
    for seed in range(80):
        _, _, att, flee, total, _ = combat(seed, attacker_cannons=2, defender_cannons=3)
        assert flee == 0
        attacks.add(att)
        defences.add(total)
    assert attacks == {3, 4, 5, 6, 7, 8} and defences == {4, 5, 6, 7, 8, 9}


def test_the_defender_retreats_to_an_adjacent_tile():
    """After combat the defender may move its piece to an adjacent tile (SS-129, A10): a
    heuristic defender shelters in the adjacent port; a random one picks any neighbour or stays."""
    sheltered = 0
    for seed in range(30):
        t, mark, *_ = combat(seed, defender_tile=BESIDE_PORT)
        if t.seat(1)[S.RAN_OUT] == 0:
            assert t.where(1, 0) == SUPPLY
            (r,) = t.events(EV.RETREAT, mark)
            assert r[1] == 1 and (r[4], r[5]) == (tile(BESIDE_PORT), tile(SUPPLY))
            sheltered += 1
    assert sheltered > 20
    allowed = {COMP.names[u] for u in COMP.neighbours[tile(BESIDE_PORT)]} | {BESIDE_PORT}
    seen = set()
    for seed in range(80):
        t, *_ = combat(seed, defender_tile=BESIDE_PORT, strategies=("random", "random"))
        if t.seat(1)[S.RAN_OUT] == 0:
            seen.add(t.where(1, 0))
        assert t.where(0, 0) == BESIDE_PORT  # the attacker never moves
    assert seen == allowed


def test_the_winner_steals_ship_cards_too():
    """The winner takes a random card of the loser's hand, ship cards included (SS-124,
    SS-128, SS-152: ship cards are held in the hand)."""
    stolen = 0
    for seed in range(60):
        t, mark, *_, winner = combat(seed, attacker_cannons=3, goods=(0, 0, 0), ships=2)
        if winner == 0:
            (steal,) = t.events(EV.STEAL, mark)
            assert steal[4] >= S.SHIP0 - S.GOODS0  # a ship card, the only kind held
            assert t.ships(0) == 1 and t.ships(1) == 1
            stolen += 1
        else:
            assert t.ships(0) == 0 and t.ships(1) == 2
    assert stolen > 30


# ----------------------------------------------------------------------------- quests
def test_plunder_and_trade_quests_pay_their_vp_in_silver():
    """Pirate Ports: a completed Plunder or Trade Quest gives its VP and as much silver (SS-099, SS-102)."""
    for kind in (S.PLUNDER, S.TRADEQ):
        t = table(strategies="treasure_hunter")
        t.seat(0)[S.SILVER] = 0  # no money for a map: only the quest moves silver
        slot_card = t.open_quests(kind)[0]
        if kind == S.PLUNDER:
            t.give_ships(0, S.DW, 3, COMP.plunder[slot_card][1])
        else:
            t.give_goods(0, list(COMP.trade[slot_card][1]))
        t.put(0, 0, PIRATE)
        t.call("tile_action", seat=0, piece=0)
        (quest,) = t.events(EV.QUEST)
        vp = (COMP.plunder, COMP.trade)[kind][quest[4]][0]
        assert quest[3] == kind and int(t.seat(0)[S.VP]) == vp == 4
        assert int(t.seat(0)[S.SILVER]) == vp


def test_digging_pays_the_map_vp_in_silver():
    """Dig Up Treasure: the map's VP and that many silver (SS-115, SS-116)."""
    for card, (vp, where) in enumerate(COMP.treasure):
        t = table()
        t.seat(0)[S.SUPPLY] = 20
        t.seat(0)[S.UPG0 + S.CANNON] = 3  # the ship fight is won, silver from it is logged apart
        t.T[S.MAPS0, 0] = card
        t.seat(0)[S.N_MAPS] = 1
        t.put(0, 0, where)
        t.call("tile_action", seat=0, piece=0)
        assert int(t.seat(0)[S.VP]) == vp
        digs = [r for r in t.events(EV.SILVER) if r[4] == EV.R_DIG]
        assert [r[3] for r in digs] == [vp]


@pytest.mark.parametrize("where", [SUPPLY, TRADE, UPGRADE, DEEP, SHALLOW, "F1"])
def test_quests_are_refused_off_the_pirate_ports(where):
    """Only at a Pirate Port are quests completed or maps bought (Pirate Ports; SS-170)."""
    t = table(strategies="treasure_hunter")
    t.seat(0)[S.SILVER] = 30
    t.seat(0)[S.SUPPLY] = 20
    t.give_ships(0, S.DW, 3, 7)
    t.give_goods(0, [2, 2, 1])
    t.put(0, 0, where)
    t.call("tile_action", seat=0, piece=0)
    assert not t.events(EV.QUEST) and not t.events(EV.MAP_BOUGHT) and int(t.seat(0)[S.VP]) == 0
    t.set_active(0)
    t.put(0, 0, PIRATE)  # the same hand at a Pirate Port completes quests
    t.call("tile_action", seat=0, piece=0)
    assert t.events(EV.QUEST)


def test_open_quests_are_dealt_at_random():
    """Setup 2 (A3): each open space gets a 4-VP card dealt from the shuffled deck, so each of
    the four 4-VP Trade (and Plunder) cards is open in about 3 games of 4 (400 deals: 300 +- 26)."""
    for kind, cards in ((S.PLUNDER, COMP.plunder), (S.TRADEQ, COMP.trade)):
        fours = [i for i, c in enumerate(cards) if c[0] == 4]
        seen = Counter()
        deals = set()
        for seed in range(400):
            t = Table(players=2, seed=seed)
            opened = [q for q in t.open_quests(kind) if q >= 0]
            assert len(opened) == 3 and all(cards[q][0] == 4 for q in opened)
            seen.update(opened)
            deals.add(tuple(sorted(opened)))
        assert set(seen) == set(fours) and len(deals) == 4
        assert all(250 <= seen[q] <= 350 for q in fours)


# ----------------------------------------------------------------------------- components
def test_treasure_maps_lie_on_every_kind_of_water():
    """A6: the base maps name water tiles of all three kinds; the alternative set alt-deep-maps
    keeps the first invented maps, all on Deep Water, and differs in no other file."""
    kinds = Counter(COMP.types[t] for _, t in COMP.treasure)
    assert set(kinds) == {S.SHALLOW, S.DEEP, S.ROUTE} and sum(kinds.values()) == 14
    assert sorted(vp for vp, _ in COMP.treasure) == [4] * 5 + [5] * 4 + [6] * 3 + [7] * 2
    deep = components.load("alt-deep-maps")
    assert {deep.types[t] for _, t in deep.treasure} == {S.DEEP}
    assert sorted(vp for vp, _ in deep.treasure) == sorted(vp for vp, _ in COMP.treasure)
    assert (deep.names, deep.types, deep.ships, deep.plunder, deep.trade) == (
        COMP.names, COMP.types, COMP.ships, COMP.plunder, COMP.trade)


def test_every_shipped_set_loads_and_holds_only_files_that_differ():
    """An alternative set holds only the files that differ from the base set."""
    sets = shipped(components.FOLDER)
    assert set(sets) == {"standard", "alt-deep-maps", "alt-strong-routes", "alt-dear-quests", "alt-far-pirates"}
    for name in sets[1:]:
        folder = components.FOLDER / name
        files = [p.name for p in folder.iterdir() if p.is_file()]
        assert files and set(files) <= set(components.FILES)
        for f in files:
            assert (folder / f).read_text() != (components.FOLDER / f).read_text()
        comp = components.load(name)
        assert len(comp.plunder) == len(comp.trade) == len(comp.treasure) == 14
    far = components.load("alt-far-pirates")
    assert [far.names[t] for t, ty in enumerate(far.types) if ty == S.PIRATE_PORT] == ["I2", "I6"]


def test_a_bad_map_names_the_file_entry_and_rule(tmp_path):
    (tmp_path / "treasure_maps.toml").write_text('[[treasure]]\nvp = 4\ntile = "I2"\n')
    with pytest.raises(InputError, match=r"treasure_maps.toml \[\[treasure\]\] entry 1: tile I2 is a port.*A6"):
        components.load(str(tmp_path))
    (tmp_path / "treasure_maps.toml").write_text('[[treasure]]\nvp = 4\ntile = "C1"\ncolour = 1\n')
    with pytest.raises(InputError, match="entry 1: unknown key 'colour'"):
        components.load(str(tmp_path))


# ----------------------------------------------------------------------------- assumption parameters
def test_upgrade_port_visits_per_piece_buys_one_per_piece():
    """A5: per_turn (default) allows one purchase whatever the pieces there; per_piece one each."""
    for visits, bought in (("per_turn", 1), ("per_piece", 2)):
        t = table(overrides={"upgrade_port_visits": visits})
        t.seat(0)[S.SILVER] = 100
        t.put(0, 0, UPGRADE)
        t.put(0, 1, UPGRADE)
        t.call("tile_action", seat=0, piece=0)
        t.call("tile_action", seat=0, piece=1)
        assert int(t.seat(0)[S.UPG0: S.UPG0 + 3].sum()) == bought


def test_bots_plan_port_visits_by_the_same_reading():
    """A5 as the bots' movement choice reads it (engine.port_group): two pieces at the Upgrade
    Port make one visit under per_turn and two under per_piece; at another port always one."""
    for visits, shared in (("per_turn", True), ("per_piece", False)):
        t = table(overrides={"upgrade_port_visits": visits})

        def group(where, piece, t=t):
            return int(t.call("port_group", u=tile(where), piece=piece))

        assert (group(UPGRADE, 0) == group(UPGRADE, 1)) == shared
        assert group(PIRATE, 0) == group(PIRATE, 1) == group(PIRATE, 0)
        assert group(PIRATE, 0) != group(TRADE, 1)
        assert group(UPGRADE, 0) != group(PIRATE, 1)


def test_end_of_turn_loss_after_running_out_is_a_parameter():
    """A12: by default the End of Turn loss also applies in a turn the player ran out in
    (3 Supply from running out, then 1 lost); loss_after_running_out = false skips it, and
    only in such a turn."""
    for after, supply in ((True, 2), (False, 3)):
        t = table(overrides={"loss_after_running_out": after})
        t.seat(0)[S.SUPPLY] = 0
        assert t.call("lose_supply", seat=0, n=1, reason=EV.R_FIGHT)  # runs out mid-turn
        t.call("end_of_turn", seat=0)
        assert int(t.seat(0)[S.SUPPLY]) == supply
        assert bool([r for r in t.events(EV.SUPPLY) if r[4] == EV.R_END]) == after
        calm = table(overrides={"loss_after_running_out": after})  # a turn without running out
        calm.call("end_of_turn", seat=0)
        assert int(calm.seat(0)[S.SUPPLY]) == 4


def test_treasure_deck_trimming_is_a_parameter():
    """SS-X17, A24: the set-up trim removes Treasure Quest cards too unless trim_treasure_deck is off."""
    for trim, left in ((True, 6), (False, 14)):
        t = Table(players=2, overrides={"trim_treasure_deck": trim})
        assert int(t.st[S.QDECK_N0 + S.TREASURE]) == left
        assert int(t.st[S.QDECK_N0 + S.PLUNDER]) == 3  # the quest decks are trimmed either way
        assert t.quest_total(S.TREASURE) == 14


def test_replay_names_the_tiles_of_the_board_played(tmp_path):
    """A designer's board with land at A1 shifts every tile id: replay narration reads the
    names from the rule set's component set, not from the standard board."""
    from simkit.games.set_sail import events

    board = (components.FOLDER / "board.txt").read_text().replace(" 1  ssdddrddds", " 1  #sdddrddds")
    (tmp_path / "board.txt").write_text(board)
    row = (0, 0, EV.MOVE, 0, 0, 1)
    assert "sails A1 -> B1" in events.describe_event(row, {"rules": {"components": "standard"}})
    assert "sails B1 -> C1" in events.describe_event(row, {"rules": {"components": str(tmp_path)}})


def test_open_trade_quests_are_4_vp_trade_cards_whatever_the_file_order(tmp_path):
    """Setup 2: the open Trade spaces get 4-VP Trade cards, read from the Trade list. A
    quests.toml that lists the 4-VP Trade cards last gives them ids 10-13, where the Plunder
    list holds 6- and 7-VP cards: a check (or a deal) that reads the Plunder list goes wrong."""
    text = (components.FOLDER / "quests.toml").read_text()
    head, trades = text.split("[[trade]]", 1)
    cards = ["[[trade]]" + c for c in trades.split("[[trade]]")]
    (tmp_path / "quests.toml").write_text(head + "".join(cards[4:]).rstrip() + "\n\n" + "".join(cards[:4]))
    comp = components.load(str(tmp_path))
    fours = [i for i, (vp, _) in enumerate(comp.trade) if vp == 4]
    assert fours == [10, 11, 12, 13] and all(comp.plunder[i][0] > 4 for i in fours)
    for seed in range(20):
        t = Table(players=2, seed=seed, overrides={"components": str(tmp_path)})
        opened = [q for q in t.open_quests(S.TRADEQ) if q >= 0]
        assert len(opened) == 3 and set(opened) <= set(fours)


# ----------------------------------------------------------------------------- upgrades: each budget they change
@pytest.mark.parametrize("barrels,others", [(0, 0), (1, 0), (2, 3), (3, 3), (0, 3)])
def test_each_barrel_and_nothing_else_adds_two_trade_cards_to_the_hold(barrels, others):
    """Trade Port: 5 Trade cards, +2 per Barrel Upgrade (SS-081, SS-082, SS-086, SS-X7);
    oars and cannons add none. A Trade Route win's cards fill the hold, and a card beyond
    it is discarded at once (SS-154)."""
    hold = 5 + 2 * barrels
    t = table(strategies="merchant")
    t.seat(0)[S.UPG0 + S.BARREL] = barrels
    t.seat(0)[S.UPG0 + S.OAR] = others
    t.seat(0)[S.UPG0 + S.CANNON] = others
    t.give_goods(0, [hold - 1, 0, 0])
    t.call("gain_good", seat=0, g=1, reason=EV.R_FIGHT)  # one more fits
    assert int(t.seat(0)[S.GOODS0: S.GOODS0 + 3].sum()) == hold
    t.call("gain_good", seat=0, g=2, reason=EV.R_FIGHT)  # the next is one too many
    assert int(t.seat(0)[S.GOODS0: S.GOODS0 + 3].sum()) == hold
    assert [r for r in t.events(EV.GOOD) if r[5] == EV.R_DISCARD] and t.goods_total() == [15, 15, 15]


@pytest.mark.parametrize("seat", [0, 1])
@pytest.mark.parametrize("good", range(S.N_GOODS))
def test_a_trade_card_gain_from_an_empty_pile_gives_nothing_whatever_the_other_piles_hold(good, seat):
    """Trade cards are limited per good (A9, SS-G8): a gain of good g reads g's own pile only. An
    empty pile gives nothing while the others are full; the last card of a pile is taken while
    every other pile is empty, and the pile is then empty, never below."""
    t = table(strategies="merchant")
    t.st[S.PILE0 + good] = 0
    t.call("gain_good", seat=seat, g=good, reason=EV.R_FIGHT)
    assert int(t.seat(seat)[S.GOODS0 + good]) == 0 and int(t.st[S.PILE0 + good]) == 0
    assert not t.events(EV.GOOD)
    for g in range(S.N_GOODS):
        t.st[S.PILE0 + g] = 1 if g == good else 0
    t.call("gain_good", seat=seat, g=good, reason=EV.R_FIGHT)
    assert int(t.seat(seat)[S.GOODS0 + good]) == 1 and int(t.st[S.PILE0 + good]) == 0
    t.call("gain_good", seat=seat, g=good, reason=EV.R_FIGHT)
    assert int(t.seat(seat)[S.GOODS0 + good]) == 1 and int(t.st[S.PILE0 + good]) == 0
    assert [int(t.st[S.PILE0 + g]) for g in range(S.N_GOODS)] == [0, 0, 0]


@pytest.mark.parametrize("preset,upgrade,price", [("merchant", S.BARREL, 2), ("treasure_hunter", S.OAR, 10),
                                                  ("plunderer", S.CANNON, 10)])
def test_each_upgrade_costs_its_price(preset, upgrade, price):
    """Upgrade Port: a Barrel costs 2 silver, an Oar 10, a Cannon 10 (SS-085, SS-087,
    SS-089). Each preset buys the upgrade it values most with exactly its price in hand, and
    nothing it cannot pay one silver short."""
    for silver, bought in ((price, True), (price - 1, False)):
        t = table(strategies=preset)
        t.seat(0)[S.UPG0: S.UPG0 + 3] = [3 if u != upgrade else 0 for u in range(3)]  # only this one left to buy
        t.seat(0)[S.SILVER] = silver
        t.seat(0)[S.SUPPLY] = 20
        t.put(0, 0, UPGRADE)
        t.call("tile_action", seat=0, piece=0)
        assert int(t.seat(0)[S.UPG0 + upgrade]) == int(bought)
        assert int(t.seat(0)[S.SILVER]) == (0 if bought else silver)


def test_a_random_seat_pays_each_upgrade_its_price_and_never_passes_the_cap():
    """Upgrade Port for the random seat (A15): whatever it picks costs that upgrade's price
    (SS-085, SS-087, SS-089); at 3 tokens of a kind it is offered no more (SS-084)."""
    prices = {S.BARREL: 2, S.OAR: 10, S.CANNON: 10}
    bought = set()
    for seed in range(60):
        t = table(seed=seed, strategies="random")
        t.seat(0)[S.SILVER] = 30
        t.seat(0)[S.UPG0 + S.CANNON] = 3
        t.put(0, 0, UPGRADE)
        t.call("tile_action", seat=0, piece=0)
        ups = [r for r in t.events(EV.UPGRADE) if r[4] == 1]
        assert int(t.seat(0)[S.UPG0 + S.CANNON]) == 3
        if ups:
            (u,) = [r[3] for r in ups]
            bought.add(u)
            assert int(t.seat(0)[S.SILVER]) == 30 - prices[u]
        else:
            assert int(t.seat(0)[S.SILVER]) == 30
    assert bought == {S.BARREL, S.OAR}


# ----------------------------------------------------------------------------- quest costs
def _one_open(t: Table, kind: int, card: int):
    """Only `card` lies open among the quests of its kind, and its deck is empty."""
    for j in range(S.MAX_OPEN):
        t.st[S.OPEN0 + kind * S.MAX_OPEN + j] = card if j == 0 else -1
    t.st[S.QDECK_N0 + kind] = 0


@pytest.mark.parametrize("card", [0, 4, 8, 11])
def test_a_plunder_quest_takes_exactly_its_ship_cards(card):
    """Pirate Ports: an open Plunder Quest is completed by handing in the ship cards printed
    on it, Deep Water and Trade Route alike (SS-096, SS-160, A4: 3 to 6 cards); one card
    short, it cannot be completed. An empty deck leaves its space empty (A9, SS-G9)."""
    vp, cost = COMP.plunder[card]
    for held, done in ((cost + 2, True), (cost - 1, False)):
        t = table(strategies="plunderer")
        t.seat(0)[S.SILVER] = 0
        _one_open(t, S.PLUNDER, card)
        t.give_ships(0, S.TR, 5, 1)
        t.give_ships(0, S.DW, 3, held - 1)
        t.put(0, 0, PIRATE)
        t.call("tile_action", seat=0, piece=0)
        if done:
            assert t.ships(0) == 2 and [r[3] for r in t.events(EV.SHIPS_PAID)] == [cost]
            assert int(t.seat(0)[S.VP]) == vp and t.open_quests(S.PLUNDER)[0] == -1
        else:
            assert t.ships(0) == held and int(t.seat(0)[S.VP]) == 0 and not t.events(EV.QUEST)


@pytest.mark.parametrize("card", [1, 5, 9, 12])
def test_a_trade_quest_takes_exactly_its_trade_cards_of_each_good(card):
    """Pirate Ports: an open Trade Quest is completed by handing in the Trade cards of each
    good printed on it (SS-100, SS-162, A5); one good short, it cannot be completed."""
    vp, cost = COMP.trade[card]
    for extra, done in ((1, True), (-1, False)):
        hand = [c + 1 for c in cost] if done else [c - (1 if c == max(cost) else 0) for c in cost]
        t = table(strategies="merchant")
        t.seat(0)[S.SILVER] = 0
        t.seat(0)[S.UPG0 + S.BARREL] = 3  # room for every hand
        _one_open(t, S.TRADEQ, card)
        t.give_goods(0, hand)
        t.put(0, 0, PIRATE)
        t.call("tile_action", seat=0, piece=0)
        left = [int(x) for x in t.seat(0)[S.GOODS0: S.GOODS0 + 3]]
        if done:
            assert left == [1, 1, 1] and int(t.seat(0)[S.VP]) == vp
            paid = Counter(r[3] for r in t.events(EV.GOOD) if r[5] == EV.R_QUEST)
            assert [paid[g] for g in range(3)] == list(cost)
        else:
            assert left == hand and not t.events(EV.QUEST)
        assert t.goods_total() == [15, 15, 15]


def test_a_treasure_map_costs_five_silver_and_pays_nothing_until_dug():
    """Pirate Ports: a Treasure Quest costs 5 silver (SS-093, SS-164), is bought unseen
    from the top of the deck (A6, SS-G22) and gives no VP until dug (SS-095, SS-165)."""
    for silver, bought in ((5, True), (4, False)):
        t = table(strategies="treasure_hunter")
        t.seat(0)[S.SILVER] = silver
        t.seat(0)[S.SUPPLY] = 20
        top = int(t.T[S.QDECK0 + S.TREASURE, int(t.st[S.QDECK_N0 + S.TREASURE]) - 1])
        t.put(0, 0, PIRATE)
        t.call("tile_action", seat=0, piece=0)
        assert int(t.seat(0)[S.N_MAPS]) == int(bought) and int(t.seat(0)[S.VP]) == 0
        assert int(t.seat(0)[S.SILVER]) == (0 if bought else silver)
        if bought:
            assert int(t.T[S.MAPS0, 0]) == top


def _at_pirate_port_with_maps_left(strategies: str, seat: int, maps_left: int, silver: int, seed: int = 3) -> Table:
    t = table(strategies=strategies, seed=seed)
    t.set_active(seat)
    t.seat(seat)[S.SILVER] = silver
    t.seat(seat)[S.SUPPLY] = 20
    t.st[S.QDECK_N0 + S.TREASURE] = maps_left
    t.put(seat, 0, PIRATE)
    t.call("tile_action", seat=seat, piece=0)
    return t


@pytest.mark.parametrize("seat", [0, 1])
def test_the_last_treasure_card_is_sold_and_an_empty_deck_sells_none(seat):
    """Pirate Ports: a Treasure Quest is bought from the deck while it holds a card, the last one
    included, by the heuristic and the random seat alike; an empty deck sells none (SS-093, A9)."""
    t = _at_pirate_port_with_maps_left("treasure_hunter", seat, maps_left=1, silver=15)
    assert int(t.seat(seat)[S.N_MAPS]) == 1 and int(t.st[S.QDECK_N0 + S.TREASURE]) == 0
    assert int(t.seat(seat)[S.SILVER]) == 15 - 5
    t = _at_pirate_port_with_maps_left("treasure_hunter", seat, maps_left=0, silver=15)
    assert int(t.seat(seat)[S.N_MAPS]) == 0 and int(t.seat(seat)[S.SILVER]) == 15
    bought = {n: sum(int(_at_pirate_port_with_maps_left("random", seat, n, 5, seed).seat(seat)[S.N_MAPS])
                     for seed in range(40)) for n in (0, 1)}
    assert bought[0] == 0 and 0 < bought[1] < 40


def test_a_random_seat_at_a_pirate_port_stops_as_often_as_it_buys():
    """Pirate Ports, the random seat (A15): stopping is one of its uniform choices, so with one
    Treasure Quest affordable and nothing else to do it buys with chance 1/2 (400 seeds: 200
    expected, sd 10; the band is +-5 sd)."""
    bought = sum(int(_at_pirate_port_with_maps_left("random", 0, 3, 5, seed).seat(0)[S.N_MAPS])
                 for seed in range(400))
    assert 150 <= bought <= 250, bought


# ----------------------------------------------------------------------------- digging, stealing
def test_a_map_is_dug_only_on_its_own_tile():
    """Dig Up Treasure: only a piece ending on the tile the map shows digs (SS-114)."""
    card = 0
    vp, where = COMP.treasure[card]
    near = COMP.neighbours[where][0]
    for end, dug in ((near, False), (where, True)):
        t = table()
        t.seat(0)[S.SUPPLY] = 20
        t.seat(0)[S.UPG0 + S.CANNON] = 3
        t.T[S.MAPS0, 0] = card
        t.seat(0)[S.N_MAPS] = 1
        t.put(0, 0, end)
        t.call("tile_action", seat=0, piece=0)
        assert int(t.seat(0)[S.VP]) == (vp if dug else 0) and int(t.seat(0)[S.N_MAPS]) == int(not dug)


def test_quests_and_maps_are_never_stolen():
    """Quest cards lie on the table, not in the hand (SS-036, SS-156, SS-157): a loser whose
    hand is empty, with completed quests and an undug map, has nothing to be stolen."""
    lost = 0
    for seed in range(40):
        t = table(seed=seed, strategies=["raider", "plunderer"])
        for s in range(2):
            t.seat(s)[S.SUPPLY] = 20
            t.seat(s)[S.VP] = 9
            t.seat(s)[S.DONE0 + S.PLUNDER] = 1
            t.seat(s)[S.DONE0 + S.TREASURE] = 1
        t.seat(0)[S.UPG0 + S.CANNON] = 3
        t.give_goods(0, [1, 0, 0])  # the attacker's own hand: something to steal if it loses
        t.T[S.MAPS0 + 1, 0] = 3
        t.seat(1)[S.N_MAPS] = 1
        t.put(0, 0, DEEP)
        t.put(1, 0, DEEP)
        mark = t.mark()
        t.call("player_combat", attacker=0, tile=tile(DEEP))
        (defend,) = t.events(EV.DEFEND, mark)
        if defend[5] != 0:
            continue
        lost += 1
        assert not t.events(EV.STEAL, mark)
        assert [int(x) for x in t.seat(1)[[S.VP, S.DONE0, S.DONE0 + 2, S.N_MAPS]]] == [9, 1, 1, 1]
        assert int(t.T[S.MAPS0 + 1, 0]) == 3 and int(t.seat(0)[S.N_MAPS]) == 0
    assert lost > 20


# ----------------------------------------------------------------------------- ports, shuffles
@pytest.mark.parametrize("port", [SUPPLY, "B3", TRADE, UPGRADE, PIRATE, "B6"])
def test_no_player_combat_on_any_port_tile(port):
    """Movement: no Player Combat on a port tile, of any port (SS-073); the same two pieces
    on a water tile fight (SS-117)."""
    for where, fights in ((port, False), (DEEP, True)):
        t = table(strategies=["raider", "plunderer"])
        for s in range(2):
            t.seat(s)[S.SUPPLY] = 20
        t.put(0, 0, where)
        t.put(1, 0, where)
        t.call("tile_action", seat=0, piece=0)
        assert bool(t.events(EV.ATTACK)) == fights


def test_the_decks_are_shuffled_at_set_up():
    """Setup 1 and 3: the ship decks and the Treasure Quest deck are shuffled (SS-037,
    SS-038, SS-043): over 40 deals the Trade Route deck's top card has either health, and
    the maps come in different orders."""
    tops, maps = set(), set()
    for seed in range(40):
        t = Table(players=2, seed=seed)
        n = int(t.st[S.DECK_N0 + S.TR])
        tops.add(int(t.T[S.DECK0 + S.TR, n - 1]))
        m = int(t.st[S.QDECK_N0 + S.TREASURE])
        maps.add(tuple(int(x) for x in t.T[S.QDECK0 + S.TREASURE, :m]))
    assert tops == {4, 5} and len(maps) == 40


def test_an_empty_ship_deck_is_its_discards_shuffled():
    """Deep Water / Trade Route: an empty deck is refilled from its discard pile, shuffled
    (SS-107): discards laid down health 4 first, health 5 last, come back in any order."""
    tops = set()
    for seed in range(30):
        t = table(seed=seed)
        n = int(t.st[S.DECK_N0 + S.TR])
        t.T[S.DISC0 + S.TR, :n] = sorted(int(x) for x in t.T[S.DECK0 + S.TR, :n])
        t.st[S.DISC_N0 + S.TR], t.st[S.DECK_N0 + S.TR] = n, 0
        tops.add(int(t.call("draw_ship", deck=S.TR)))
        assert int(t.st[S.DECK_N0 + S.TR]) == n - 1 and int(t.st[S.DISC_N0 + S.TR]) == 0
    assert tops == {4, 5}


def test_with_several_rivals_on_the_tile_the_attacker_fights_one():
    """A10 (SS-G12): with pieces of two rivals on the tile the attacker fights one of them,
    once; the heuristic picks the rival with fewer cannons, a random attacker either."""
    picked = Counter()
    for strategies in ("raider", "random"):
        for seed in range(40):
            t = table(players=3, seed=seed, strategies=strategies)
            for s in range(3):
                t.seat(s)[S.SUPPLY] = 20
                t.put(s, 0, DEEP)
            t.seat(1)[S.UPG0 + S.CANNON] = 3
            mark = t.mark()
            t.call("player_combat", attacker=0, tile=tile(DEEP))
            (attack,) = t.events(EV.ATTACK, mark)
            picked[(strategies, attack[3])] += 1
    assert picked[("raider", 2)] == 40
    assert picked[("random", 1)] > 5 and picked[("random", 2)] > 5
