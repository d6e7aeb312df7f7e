"""Bot competence, fast version for CI: the default preset beats `random` by a
wide margin at every player count, and so does every other heuristic preset.

One default-preset seat against random opponents, 2,000 games per player count, seats
rotated so it sits in every seat equally often. Each heuristic preset wins over 99% of such
games at 2, 3 and 4 players (fair shares 0.50, 0.33, 0.25); the bounds below leave room.
"""

from __future__ import annotations

import numpy as np
import pytest

from simkit.analysis.intervals import wilson
from simkit.core.rng import game_seeds
from simkit.games.sea_of_plunder import GAME
from simkit.sweeps.runner import play, seat_strategies

GAMES = 2000


@pytest.mark.parametrize("players", [2, 3, 4])
def test_default_beats_random_by_a_wide_margin(players):
    best = GAME.default_strategy
    compiled = GAME.compile(GAME.rules.resolve("standard", {}), players)
    lineup = (best,) + ("random",) * (players - 1)
    strategies = seat_strategies(GAME, lineup, players, 0, GAMES)
    out_games, out_seats, _ = play(GAME, compiled, strategies, game_seeds(np.uint64(31), 0, GAMES))
    assert (out_games[:, 2] != 2).all()  # no round-cap games
    racer = strategies == GAME.preset_names().index(best)
    wins = out_seats[:, :, 2]
    rate = wins[racer].sum() / GAMES
    low, _ = wilson(float(wins[racer].sum()), GAMES)
    assert rate >= 0.9 and low > 1 / players + 0.4, rate
    for s in range(players):  # in every seat
        assert wins[:, s][racer[:, s]].mean() >= 0.85


@pytest.mark.parametrize("preset", ["racer", "collector", "raider"])
def test_other_heuristics_beat_random(preset):
    compiled = GAME.compile(GAME.rules.resolve("standard", {}), 4)
    strategies = seat_strategies(GAME, (preset, "random", "random", "random"), 4, 0, 1000)
    _, out_seats, _ = play(GAME, compiled, strategies, game_seeds(np.uint64(32), 0, 1000))
    me = strategies == GAME.preset_names().index(preset)
    assert out_seats[:, :, 2][me].sum() / 1000 >= 0.8


def test_bots_do_not_read_hidden_information():
    """A33/SOP-G33: a heuristic seat's valuation of its plays and discards does not change
    when other hands (contents and sizes) or the deck order change."""
    from simkit.games.sea_of_plunder import engine

    from .harness import Table

    def values(t):
        out = []
        for lister, scorer in (("list_plays", "score_plays"), ("list_discards", "score_discards")):
            if lister == "list_discards":
                t.call("discard_shortlist", seat=0)  # the keep values score_discards reads
            n = t.call(lister, seat=0)
            t.call(scorer, seat=0, n_cand=n)
            out.append(t.scores[:n].copy())
        return out

    t = Table(players=4, seed=5, strategies="raider")
    t.set_active(0)
    t.set_hand(0, ["Three north", "Fork east or west", "Rabakin", "Cursed Treasure", "good:blue"])
    before = values(t)
    t.set_hand(1, ["Hurricane", "good:green", "good:green"])
    t.set_hand(2, [])
    t.set_hand(3, ["Compass rose", "Three west", "Three south", "Izarea", "Resupply", "So Close Yet So Far"])
    t.deck[: t.st[engine.S.DECK_N]] = t.deck[: t.st[engine.S.DECK_N]][::-1].copy()
    after = values(t)
    for a, b in zip(before, after):
        assert (a == b).all()


def test_heuristic_steers_clear_of_a_thief_that_steals_back():
    """A38: under thief_contact=any_contact a Thief landed on takes a card back, so a heuristic
    seat with two mirror-image landings (Three north onto the Thief's ship, Three south onto a
    plain rival) takes the plain rival; under own_move the two are worth the same."""
    from simkit.games.sea_of_plunder import events

    from .harness import EV, S, plain

    picked = {}
    for reading in ("any_contact", "own_move"):
        picked[reading] = set()
        for seed in range(12):
            t = plain(seed=seed, overrides={"thief_contact": reading})
            t.layout("""
                  ABCDEFGHIJKLM
               1  ............p
               4  ......1......
               7  p.....0.....p
              10  ......2......
              13  ............p
            """)
            t.set_power(1, S.THIEF)
            t.set_strategy(0, "collector")
            t.set_active(0)
            t.set_hand(0, ["Three north", "Three south"])
            t.seats[0, S.COMPASSES] = 0
            mark = t.mark()
            t.call("play_phase", seat=0)
            picked[reading].add(events.card_name(t.events(EV.PLAY, mark)[0][3]))
    assert picked["any_contact"] == {"Three south"}
    assert picked["own_move"] == {"Three north", "Three south"}


def test_path_values_skip_only_squares_with_nothing_on_them():
    """The path values skip the squares mark_pieces leaves unmarked: every ship, pirate, Port
    Island, the Combo Port and every Treasure Island must be marked (squares in all three words
    of the bitset), nothing else, and a value computed with the skip must equal the value that
    looks at every square, for ships and pirates, on many boards and paths."""
    from strategies import sea_of_plunder as bot

    from .harness import S, Table

    t = Table(players=4, seed=3, strategies="raider", overrides={"combo_port": True})
    rng = np.random.default_rng(11)
    pieces = np.zeros(bot.PIECE_WORDS, dtype=np.int64)
    everywhere = np.full(bot.PIECE_WORDS, -1, dtype=np.int64)
    mine, stock = np.array([1, 0, 2, 0], dtype=np.int64), np.array([3, 1, 0, 4], dtype=np.int64)
    gains = np.zeros(S.N_COLOURS + 1, dtype=np.int64)
    bot.goods_gains(t.K, mine, stock, gains)
    w = t.W[0]
    checked = 0
    for board in range(40):
        n_islands = int(rng.integers(1, S.MAX_ISLANDS + 1))
        t.st[S.N_ISLANDS] = n_islands
        squares = rng.choice(S.SQUARES, size=S.ISLAND0 + n_islands, replace=False)
        if board == 0:  # the corners of the three words: squares 0, 63, 64, 127, 128, 168
            squares[:6] = [0, 63, 64, 127, 128, 168]
        t.pos[: S.ISLAND0 + n_islands] = squares
        t.pos[S.SHIP0 + int(rng.integers(4))] = -1  # a piece off the board marks nothing
        bot.mark_pieces(t.T, pieces)
        marked = {sq for sq in range(S.SQUARES) if bot.has_piece(pieces, sq)}
        on_board = {int(x) for x in t.pos[: S.ISLAND0 + n_islands] if x >= 0}
        assert marked == on_board
        for _ in range(25):
            n = int(rng.integers(1, S.MAX_STEPS + 1))
            path = np.zeros(S.MAX_STEPS, dtype=np.int64)
            path[:n] = rng.choice(list(on_board), size=n) if rng.random() < 0.5 else rng.integers(0, S.SQUARES, n)
            for thief_back in (0, 1):
                skip = bot.ship_path_value(t.T, t.K, w, 0, path, n, gains, stock, 1.5, thief_back, pieces)
                full = bot.ship_path_value(t.T, t.K, w, 0, path, n, gains, stock, 1.5, thief_back, everywhere)
                assert skip == full
            assert (bot.pirate_path_value(t.T, t.K, w, 0, path, n, 1.5, pieces)
                    == bot.pirate_path_value(t.T, t.K, w, 0, path, n, 1.5, everywhere))
            checked += 1
    assert checked == 1000


def test_distances_on_the_endless_sea_are_symmetric():
    """The bots read K[DIST0 + piece's square, square] for the distance from a square to a
    piece: right only while the table is symmetric. Steps wrap around the edges (A1: the sea
    is endless): A1 to M13 is one step across each edge."""
    from .harness import Table, sq

    t = Table(players=2, seed=1)
    assert (t.dist == t.dist.T).all()
    assert t.dist[sq("A1"), sq("M13")] == 2 and t.dist[sq("A1"), sq("G7")] == 12


def test_goods_gains_are_what_one_more_good_adds():
    """goods_gains, worked out once per decision, holds goods_gain of every colour and the
    colour best_colour picks among those in stock: the path values read these instead."""
    from strategies import sea_of_plunder as bot

    from .harness import S, Table

    t = Table(players=2, seed=2)
    rng = np.random.default_rng(5)
    gains = np.zeros(S.N_COLOURS + 1, dtype=np.int64)
    for _ in range(200):
        mine = rng.integers(0, 5, S.N_COLOURS).astype(np.int64)
        stock = rng.integers(0, 3, S.N_COLOURS).astype(np.int64)
        bot.goods_gains(t.K, mine, stock, gains)
        assert list(gains[: S.N_COLOURS]) == [bot.goods_gain(t.K, mine, c) for c in range(S.N_COLOURS)]
        assert gains[S.N_COLOURS] == bot.best_colour(t.K, mine, stock)
        assert (gains[S.N_COLOURS] == -1) == (stock.sum() == 0)


@pytest.mark.parametrize("seat", [0, 1, 2])
def test_observe_writes_every_row_it_reads_from_a_dirty_scratch_table(seat):
    """observe fills buf[MINE], buf[STOCK], buf[GAINS] and buf[PIECES] afresh for the deciding
    seat (the second and third seat too), whatever the rows held before: each equals what its
    own helper gives on fresh arrays, and the pirate cost is the bot's for that hand."""
    from simkit.games.sea_of_plunder import engine
    from strategies import sea_of_plunder as bot

    from .harness import S, Table

    t = Table(players=3, seed=11 + seat, strategies="tuned")
    t.set_active(seat)
    for row in (engine.MINE, engine.STOCK, engine.GAINS, engine.PIECES):
        t.buf[row] = 7  # what an earlier decision could have left
    pcost = t.call("observe", seat=seat)
    n_cards = t.K.shape[0] - S.CARD0
    mine = np.zeros(t.buf.shape[1], dtype=np.int64)
    engine.goods_of(t.T, np.int64(seat), np.int64(n_cards), mine)
    stock = np.array([t.st[S.STOCK0 + c] for c in range(S.N_COLOURS)], dtype=np.int64)
    gains = np.zeros(S.N_COLOURS + 1, dtype=np.int64)
    bot.goods_gains(t.K, mine.copy(), stock, gains)
    pieces = np.zeros(t.buf.shape[1], dtype=np.int64)
    bot.mark_pieces(t.T, pieces)
    assert list(t.buf[engine.MINE, : S.N_COLOURS]) == list(mine[: S.N_COLOURS])
    assert list(t.buf[engine.STOCK, : S.N_COLOURS]) == list(stock)
    assert list(t.buf[engine.GAINS, : S.N_COLOURS + 1]) == list(gains)
    assert list(t.buf[engine.PIECES, : bot.PIECE_WORDS]) == list(pieces[: bot.PIECE_WORDS])
    assert pcost == bot.pirate_cost(t.T, t.K, t.F[1 + seat], np.int64(seat), mine, t.P.strategist_low)


def _direct_values(t, engine, bot, scorer, n):
    """What score_plays / score_discards must give each of the n candidates, each path traced
    and valued on its own (no memo): the values the memo's reuse has to reproduce exactly."""
    from .harness import S

    seat = 0
    pcost = t.call("observe", seat=seat)
    w = t.W[seat]
    path = np.zeros(S.MAX_STEPS, dtype=np.int64)
    gains, stock, pieces = t.buf[engine.GAINS], t.buf[engine.STOCK], t.buf[engine.PIECES]
    keys, out = [], []
    for i in range(n):
        h, target, option, rotation, spend = (int(x) for x in t.buf[engine.CAND0 + i, :5])
        card = int(t.hands[seat, h])
        if t.kind_of(card) == S.ACTION and scorer == "score_plays":
            continue  # an Action card played moves nothing: no path to value
        mover = S.SHIP0 + target if scorer == "score_plays" else S.PIRATE0 + target
        steps = t.call("mover_path", card=card, option=option, rotation=rotation, start=int(t.pos[mover]), path=path)
        if scorer == "score_plays":
            v = bot.ship_path_value(t.T, t.K, w, seat, path, steps, gains, stock, pcost, engine.thief_back(t.P), pieces)
            v = v - w[bot.W_COMPASS] + (0.5 if t.seats[seat, S.POWER] == S.NAVIGATOR else 0.0) if spend else v
            v = v - 0.05 * t.scores[engine.KEEP0 + h]
        else:
            v = bot.pirate_path_value(t.T, t.K, w, seat, path, steps, pcost, pieces) - t.scores[engine.KEEP0 + h]
            v = v - w[bot.W_COMPASS] if spend else v
        keys.append((mover, tuple(int(x) for x in path[:steps])))
        out.append((i, v))
    return keys, out


@pytest.mark.parametrize("scorer", ["score_plays", "score_discards"])
def test_path_memo_gives_every_candidate_its_own_value(scorer):
    """The scorers value a mover's path once per decision (a memo keyed by the mover and the
    path's steps) and give it to every candidate making the same steps. In a hand where paths
    repeat (two copies of a card, Three north turned a quarter is Three east, a Navigator's
    spend without a turn; each of two ships and four pirates), every candidate's value equals the value of tracing and valuing its
    own path, also after the board changes between two decisions (the memo is emptied)."""
    from simkit.games.sea_of_plunder import engine
    from strategies import sea_of_plunder as bot

    from .harness import S, Table

    # two ships a seat (the two-player variant), and raider turns its discards with a compass
    t = Table(players=2, variant="two_player", seed=3, strategies="raider")
    t.set_active(0)
    t.set_power(0, S.NAVIGATOR)
    t.seats[0, S.COMPASSES] = 2
    t.set_hand(0, ["Three north", "Three north", "Three east", "Hurricane", "Rabakin", "good:blue"])
    t.W[0, bot.DISCARD_SHORTLIST] = 0  # every card
    lister = "list_plays" if scorer == "score_plays" else "list_discards"
    for move in range(3):
        if move:  # a new decision on a changed board: a pirate and the seat's ship elsewhere
            t.put("pirate", move % S.N_PIRATES, (int(t.pos[S.PIRATE0 + move % S.N_PIRATES]) + 14 * move) % S.SQUARES)
            t.put("ship", t.first_ship(0), (int(t.pos[S.SHIP0 + t.first_ship(0)]) + 27) % S.SQUARES)
        t.call("discard_shortlist", seat=0)  # the keep values both scorers read
        n = t.call(lister, seat=0)
        t.scores[:n] = 0.0
        t.call(scorer, seat=0, n_cand=n)
        keys, expected = _direct_values(t, engine, bot, scorer, n)
        assert len(set(keys)) < len(keys) - 4, "the position must repeat paths"
        assert len({round(v, 6) for _, v in expected}) > 3, "the paths must not all be worth the same"
        for i, v in expected:
            assert t.scores[i] == v, (move, i)


def test_discard_shortlist_marks_the_least_kept_cards_the_earlier_first_on_a_tie():
    """A preset's discard shortlist (DISCARD_SHORTLIST = k, a pruning of the bot's search) marks
    the k cards it would least rather keep, the earlier hand card first among equal keep values
    (copies of a card), Goods never; every card when k covers the hand; nothing when k is 0."""
    from simkit.games.sea_of_plunder import engine
    from strategies import sea_of_plunder as bot

    from .harness import S, Table

    t = Table(players=4, seed=2, strategies="collector")
    t.set_active(0)
    t.set_hand(0, ["Three north", "good:blue", "Rabakin", "Three north", "Hurricane", "Three east", "good:green",
                   "Three west", "Resupply", "Three east", "Cursed Treasure", "Three south", "Izarea"])
    n = int(t.seats[0, S.HAND_N])
    deck = [h for h in range(n) if t.hands[0, h] < t.n_cards]
    for k in range(len(deck) + 2):
        t.W[0, bot.DISCARD_SHORTLIST] = k
        applies = t.call("discard_shortlist", seat=0)
        keep = t.scores[engine.KEEP0: engine.KEEP0 + n]
        order = sorted(deck, key=lambda h: (keep[h], h))
        assert len({keep[h] for h in deck}) < len(deck)  # equal keep values to break
        marked = {h for h in range(n) if t.T[S.MASK, h] == 1}
        assert applies == (k > 0)
        assert marked == (set(order[:k]) if k else set()), k


@pytest.mark.parametrize("seat", [0, 1])
def test_a_pirate_ending_near_a_ship_counts_its_owner(seat):
    """A pirate moved by `seat` that ends within two squares of a ship (two included, three
    not): of its own, the style's pirate_near cost; of a rival's, 0.3 of its harass value; the
    second ship and the rival's turn (seat 1) as well as the first seat's."""
    from strategies import sea_of_plunder as bot

    from .harness import S, plain

    t = plain(players=2, seed=4, strategies="tuned")
    w = t.W[seat]
    assert w[bot.W_PIRATE_NEAR] > 0 and w[bot.W_HARASS] > 0  # both terms show
    n_sq = t.dist.shape[0]
    # an empty end square with empty squares at distances 1, 2, 3 and far (out of every rule's reach)
    occupied = {int(x) for x in t.pos if x >= 0}
    end = next(e for e in range(n_sq) if e not in occupied
               and all(any(t.dist[e, q] == d and q not in occupied for q in range(n_sq)) for d in (1, 2, 3, 9)))
    at = {d: next(q for q in range(n_sq) if t.dist[end, q] == d and q not in occupied) for d in (1, 2, 3, 9)}
    path = np.array([end] + [0] * (S.MAX_STEPS - 1), dtype=np.int64)
    pieces = np.zeros(t.buf.shape[1], dtype=np.int64)

    def value(ships: dict[int, int]) -> float:
        for k in range(int(t.st[S.N_SHIPS])):
            t.pos[S.SHIP0 + k] = ships.get(k, at[9])
        bot.mark_pieces(t.T, pieces)
        return bot.pirate_path_value(t.T, t.K, w, np.int64(seat), path, np.int64(1), 0.0, pieces)

    owners = [int(t.ship_owner[k]) for k in range(int(t.st[S.N_SHIPS]))]
    mine, theirs = owners.index(seat), owners.index(1 - seat)
    far = value({})
    for d in (1, 2):
        assert value({mine: at[d]}) == pytest.approx(far - w[bot.W_PIRATE_NEAR])
        assert value({theirs: at[d]}) == pytest.approx(far + 0.3 * w[bot.W_HARASS])
    assert value({mine: at[3]}) == far and value({theirs: at[3]}) == far
    assert value({mine: at[2], theirs: at[1]}) == pytest.approx(far - w[bot.W_PIRATE_NEAR] + 0.3 * w[bot.W_HARASS])


@pytest.mark.parametrize("seat", [0, 1])
def test_trouble_at_sea_sends_each_pirate_at_a_rival_and_away_from_its_own_ship(seat):
    """A heuristic seat playing Trouble at Sea (SOP-188) turns the discard for each pirate by that
    pirate's value: a pirate two squares short of a rival's ship sails into it, one whose other
    way crosses the seat's own ship (across the endless sea's edge) sails away from it."""
    from .harness import EV, name_of, plain
    from .test_cards import _discard

    for seed in range(4):
        t = plain(players=2, seed=seed, strategies="tuned")
        t.layout("""
              ABCDEFGHIJKLM
           1  p............
           3  ......p......
           9  p............
          13  ............p
        """)
        t.put("ship", 1 - seat, "I3")
        t.put("ship", seat, "A13")
        t.set_active(seat)
        t.set_hand(seat, ["Trouble at Sea"])
        t.call("play_phase", seat=seat)
        _, mark = _discard(t, seat, "Fork east or west")  # each pirate: two east or two west
        moves = {r[3]: (name_of(r[4]), name_of(r[5])) for r in t.events(EV.PIRATE_MOVE, mark)[:4]}
        assert moves[1] == ("G3", "I3")  # into the rival's ship
        assert moves[3] == ("M13", "K13")  # not east over A13
