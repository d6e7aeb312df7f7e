"""Set-up, the two-player set-up, respawn, rising waters, clean up, the fortune phase and the end."""

import numpy as np
import pytest

from simkit.games.sea_of_thieves.components import SETS

from .harness import S, Table, play_game


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_gold_cards_resources_and_ships(players):
    t = Table(players)
    for s in range(players):
        assert t.seat(s)[S.GOLD] == (600, 700, 800, 900)[s]
        assert len(t.fortune_hand(s)) == 3
        assert [int(t.K[S.V_TIER, v]) for v in t.voyage_hand(s)] == [S.MEAGRE] * 3
        a, b = t.ship(2 * s), t.ship(2 * s + 1)
        assert a[S.HEX] == b[S.HEX] and t.T[S.HEX_TYPE, a[S.HEX]] == S.ISLAND and a[S.HEX] < 19
        for sh in (a, b):
            assert sh[S.TYPE] == S.SLOOP and sh[S.CREW_UP] == 2 and sh[S.WATER] == 0 and sh[S.RES_N] == 2
    fleets = {int(t.ship(2 * s)[S.HEX]) for s in range(players)}
    assert len(fleets) == players  # no hub island shared between players
    assert int(t.T[S.MARKET, 0]) >= 0 and int(t.T[S.MARKET, 2]) >= 0


def deck(t, row, head_col, n_col, size):
    head, n = int(t.st[head_col]), int(t.st[n_col])
    return [int(t.T[row, (head + i) % size]) for i in range(n)]


def test_special_crew_deck_is_shuffled_and_three_dealt_face_up():
    markets = set()
    for seed in range(8):
        t = Table(4, seed=seed)
        market = [int(c) for c in t.T[S.MARKET, :3]]
        rest = deck(t, S.CREW_DECK, S.CREW_HEAD, S.CREW_N, S.MAX_CREW_CARDS)
        assert sorted(market + rest) == list(range(18))  # every card once: three up, the rest down
        markets.add(tuple(market))
    assert len(markets) == 8  # a different deal every game


def test_fortune_event_and_voyage_decks_are_shuffled_separately():
    fortune, event, voyages = set(), set(), set()
    for seed in range(6):
        t = Table(4, seed=seed)
        hands = [c for s in range(4) for c in t.fortune_hand(s)]
        f = deck(t, S.FORTUNE_DECK, S.FORTUNE_HEAD, S.FORTUNE_N, S.MAX_FORTUNE)
        assert sorted(hands + f) == list(range(52))
        fortune.add(tuple(hands + f))
        event.add(tuple(deck(t, S.EVENT_DECK, S.EVENT_HEAD, S.EVENT_N, S.MAX_EVENTS)))
        for tier in range(3):
            cards = deck(t, S.VOY_DECK0 + tier, S.VOY_HEAD0 + 2 * tier, S.VOY_N0 + 2 * tier, S.MAX_VOYAGES)
            assert {int(t.K[S.V_TIER, v]) for v in cards} == {tier}
            voyages.add((tier, tuple(cards[:8])))
    assert len(fortune) == 6 and len(event) == 6 and len(voyages) == 18


def test_enemy_cards_start_empty_beside_the_board():
    t = Table(4)
    for e in range(S.N_ENEMIES):
        row = t.T[S.ENEMY0 + e]
        assert row[S.E_HEX] == -1 and row[S.E_STATE] == S.E_OFF and row[S.E_DAMAGE] == 0
    assert t.T[S.ENEMY0 + S.KRAKEN, S.E_TENTACLES] == 0  # the tentacles wait beside its card


def test_two_to_four_players():
    from simkit.games.sea_of_thieves import GAME

    assert [GAME.check_players(n, {}) is None for n in (1, 2, 3, 4, 5)] == [False, True, True, True, False]


def test_a_turn_is_respawn_then_actions_then_rising_waters_then_clean_up():
    t = Table(4)
    t.st[S.ROUND] = 1
    t.call("sink_ship", k=1)
    t.empty_hold(0)  # nothing to repair with and no gold for the Outpost: the damage stays
    t.seat(0)[S.GOLD] = 0
    t.ship(0)[S.DAMAGE] = 3
    while t.seat(0)[S.FORT_N]:  # no Spare Planks either
        t.call("discard_fortune", seat=0, i=0)
    t.set_voyage_hand(0, [t.voyage("reach", "meagre"), t.voyage("dig", "meagre"), t.voyage("fight", "meagre"),
                          t.voyage("dig", "valuable"), t.voyage("sink", "valuable"), t.voyage("dig", "legendary")])
    start = int(t.st[S.LOG_N])
    t.call("take_turn", seat=0)
    steps = [r[2] for r in t.events(start=start) if r[2] in (3, 4, 26, 33)]  # RESPAWN ACTION RISING DISCARD
    first = {c: steps.index(c) for c in (3, 4, 26, 33)}
    last_action = len(steps) - 1 - steps[::-1].index(4)
    assert first[3] < first[4] and last_action < first[26] < first[33]


def test_equal_gold_gives_every_seat_the_same():
    t = Table(4, "equal_gold")
    assert [int(t.seat(s)[S.GOLD]) for s in range(4)] == [750] * 4


def test_two_player_setup_uses_the_crossed_out_hub_four_tiles_and_fewer_skeletons():
    t = Table(2)
    assert t.st[S.TWO_PLAYER] == 1
    assert int(t.T[S.LAYOUT, 0]) == S.HUB_TWO_PLAYER
    used = [p for p in range(1, 7) if t.T[S.LAYOUT, p] >= 0]
    assert used == [2, 3, 4, 5]
    assert not t.hexes_of(S.ISLAND, 1) and not t.hexes_of(S.SEA, 6)
    c = t.token_census()
    assert sum(t.K[S.TOK_KIND, i] == S.SKELETON for i in c["boxed"]) == 8
    four = Table(4)
    assert four.st[S.TWO_PLAYER] == 0 and all(four.T[S.LAYOUT, p] >= 0 for p in range(1, 7))
    forced_off = Table(2, overrides={"two_player": "off"})
    assert forced_off.st[S.TWO_PLAYER] == 0
    three = Table(3, "two_player")
    assert three.st[S.TWO_PLAYER] == 1


def test_tiles_are_placed_at_random_unless_the_first_game_layout_is_asked_for():
    layouts = {tuple(int(x) for x in Table(4, seed=s).T[S.LAYOUT, 1:7]) for s in range(6)}
    assert len(layouts) > 1
    fixed = {tuple(int(x) for x in Table(4, "first_game", seed=s).T[S.LAYOUT, 1:7]) for s in range(3)}
    assert fixed == {(0, 2, 4, 6, 8, 10)}


def test_rising_waters_raise_water_per_damage_and_sink_at_the_top():
    t = Table(2)
    sh = t.ship(0)
    sh[S.DAMAGE] = 2
    t.call("rising_waters", seat=0)
    assert sh[S.WATER] == 2 and sh[S.HEX] >= 0
    t.call("rising_waters", seat=0)  # a Sloop's gauge is 4 (A5)
    assert sh[S.HEX] == -1 and t.seat(0)[S.SINKINGS] == 1
    other = t.ship(2)
    other[S.DAMAGE] = 3
    t.call("rising_waters", seat=0)  # only the active player's ships
    assert other[S.WATER] == 0


def test_respawn_puts_sunk_ships_on_an_island_of_a_rolled_tile_repaired_and_skips_round_one():
    t = Table(4)
    t.ship(0)[S.DAMAGE] = 3
    t.ship(0)[S.WATER] = 3
    t.ship(1)[S.WATER] = 2
    t.ship(0)[S.CREW_UP], t.ship(0)[S.CREW_DOWN] = 0, 2
    t.call("sink_ship", k=0)
    t.call("sink_ship", k=1)
    t.st[S.ROUND] = 0
    t.call("take_turn", seat=0)
    assert t.ship(0)[S.HEX] == -1  # no respawn in the first round
    t.st[S.ROUND] = 1
    t.call("respawn", seat=0)
    h = int(t.ship(0)[S.HEX])
    assert h == t.ship(1)[S.HEX] and t.T[S.HEX_TYPE, h] == S.ISLAND and h >= 19
    sh = t.ship(0)
    assert sh[S.DAMAGE] == 0 and sh[S.WATER] == 0 and sh[S.CREW_UP] == 2 and sh[S.CREW_DOWN] == 0
    assert t.ship(1)[S.WATER] == 0
    assert t.T[S.HEX_STANDEES, h] <= 2


@pytest.mark.parametrize("open_tile", [1, 2, 3, 4, 5, 6])
def test_respawn_rerolls_a_tile_without_room_and_the_owner_picks_the_island(open_tile):
    t = Table(4, seed=open_tile)
    t.clear_board()
    t.put(0, 9)
    t.put(1, 9)
    for h in t.hexes_of(S.ISLAND):
        if h // S.TILE_HEXES not in (0, open_tile):
            t.T[S.HEX_STANDEES, h] = 2  # every island of the other tiles is full (counts: standees)
    t.call("sink_ship", k=0)
    t.call("sink_ship", k=1)
    t.st[S.ROUND] = 1
    t.call("respawn", seat=0)
    h = int(t.ship(0)[S.HEX])
    assert h // S.TILE_HEXES == open_tile and t.ship(1)[S.HEX] == h
    # the owner chooses the island: the merchant the one nearest the Outpost
    islands = t.hexes_of(S.ISLAND, open_tile)
    assert t.K[S.DIST0 + h, 9] == min(int(t.K[S.DIST0 + x, 9]) for x in islands)


def test_clean_up_keeps_three_fortune_and_three_voyage_cards():
    t = Table(2)
    for _ in range(3):
        t.call("draw_fortune", seat=0, n=1)
    assert len(t.fortune_hand(0)) == 6  # no limit during play
    t.set_voyage_hand(0, list(range(5)))
    t.ship(0)[S.ACTIONS] = 2
    t.call("clean_up", seat=0)
    assert len(t.fortune_hand(0)) == 3 and len(t.voyage_hand(0)) == 3 and t.ship(0)[S.ACTIONS] == 0


@pytest.mark.parametrize("components", SETS)
def test_fortune_phase_draws_one_plus_the_symbols_between_a_player_and_the_leader(components):
    t = Table(4, overrides={"components": components})
    # the rulebook's example shape on the set's track (track.toml, A10): the leader just past
    # the second symbol draws 1 card, two players on or just past the first (one symbol behind)
    # 2, one player below the first (two symbols behind) 3; (9, 5, 6, 3) on the standard track
    first, second = (int(x) for x in t.K[S.TRACK_SYMBOLS, :2])
    for s, rep in enumerate((second + 1, first + 1, first + 2, first - 1)):
        t.seat(s)[S.REP] = rep
    assert [int(t.call("fortune_draws", seat=s, players=4)) for s in range(4)] == [1, 2, 2, 3]
    hands = [len(t.fortune_hand(s)) for s in range(4)]
    t.call("fortune_phase", players=4)
    assert [len(t.fortune_hand(s)) - hands[s] for s in range(4)] == [1, 2, 2, 3]


def test_a_fortune_symbol_counts_above_the_players_space_and_up_to_the_leaders():
    t = Table(4)  # symbols at 4, 8, 12, ... (A10): a player on a symbol's space is not behind it
    for s, rep in enumerate((8, 4, 5, 0)):
        t.seat(s)[S.REP] = rep
    assert [int(t.call("fortune_draws", seat=s, players=4)) for s in range(4)] == [1, 2, 2, 3]


def test_the_end_is_triggered_at_25_and_the_round_is_finished():
    t = Table(4)
    t.seat(1)[S.REP] = 24
    t.call("gain_reputation", seat=1, n=1)
    assert t.st[S.END_REASON] == S.END_REPUTATION and t.st[S.TRIGGER_SEAT] == 1
    t.call("gain_reputation", seat=1, n=-3)
    assert t.st[S.END_REASON] == S.END_REPUTATION  # it cannot be stopped
    start = int(t.st[S.LOG_N])
    t.call("play_round", players=4)  # the engine's round: every turn, then the other phases
    assert [r[1] for r in t.events(code=1, start=start)] == [0, 1, 2, 3]
    assert [r[1] for r in t.events(code=27, start=start)] == [0, 1, 2, 3]  # the fortune phase too
    assert t.st[S.ROUND] == 1
    turns = []
    play_game(t, lambda tt, s: turns.append(s))
    assert turns == [0, 1, 2, 3, -1]  # the harness's loop agrees: one more round, then the end


@pytest.mark.parametrize("seat", [0, 1])
def test_a_heuristic_fleet_starts_on_the_free_hub_island_nearest_its_voyage(seat):
    """Final Setup: the bots put their fleet on the free hub island nearest the island their voyage
    names, for every voyage card whose island is on the board (symbol 0 included), in either seat."""
    probe = Table(2, strategies="merchant")
    cards = [v for v in range(int(probe.K[S.META, S.N_VOYAGE_CARDS])) if probe.K[S.V_SYM, v] >= 0]
    syms = {int(probe.K[S.V_SYM, v]) for v in cards}
    assert 0 in syms and len(syms) > 2
    checked = 0
    for v in cards:
        t = Table(2, strategies="merchant")
        t.clear_board()
        target = int(t.T[S.SYMBOL_HEX, t.K[S.V_SYM, v]])
        if target < 0:
            continue
        t.set_voyage_hand(seat, [v])
        hubs = [h for h in range(S.TILE_HEXES) if t.T[S.HEX_TYPE, h] == S.ISLAND and t.T[S.HEX_STANDEES, h] == 0]
        nearest = min(hubs, key=lambda h: int(S.dist(t.K, np.int64(h), np.int64(target))))
        t.call("place_fleet", seat=seat)
        assert [int(t.ship(k)[S.HEX]) for k in (2 * seat, 2 * seat + 1)] == [nearest, nearest], (v, target)
        checked += 1
    assert checked >= 10
