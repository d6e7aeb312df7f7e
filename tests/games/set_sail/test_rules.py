"""One test per rule that a broken engine must fail: cannons in ship combat, oars in
fleeing, the defender's retreat, steals of ship cards, the silver that quests pay, quests
only at the Pirate Ports, the random deal of the open quests, the treasure maps and the
parameters for assumptions A5, A12 and A24. Each was checked by breaking its rule in the
engine for a moment (the README's coverage table says how)."""

from __future__ import annotations

from collections import Counter

import pytest

from simkit.components import shipped
from simkit.errors import InputError
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
    """DESIGN §2: an alternative set holds only the files that differ from the base set."""
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
