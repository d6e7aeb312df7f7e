"""The heuristic's movement choice and the tile values it reads, in hand-built positions.

`heuristic_moves` picks the legal pair of end tiles with the best sum of the seat's tile
values, a shared port visit counted once (A5), by its rule (piece 1 to its best tile in reach,
or to the best of another port group when that one shares piece 0's): checked here against
that rule worked over every legal pair by hand, from mid-game positions of every heuristic
preset with the pieces moved about, and from every start beside a shared port under random
style weights, at budgets from 2 to 6. `tile_values`' style weights pass to the kinds of quest
that remain when one kind is gone, a treasure map is bought at exactly its price, and a Trade Quest is
worked toward only when it fits the seat's own hold."""

from __future__ import annotations

import numpy as np
import pytest

from simkit.games.set_sail import GAME  # noqa: F401  (the game first: it imports its bots)
from strategies import set_sail as bot

from .harness import PRESET_INDEX, S, Table
from .test_lookahead import _mid_game

HEURISTICS = ["plunderer", "merchant", "treasure_hunter", "raider", "tuned"]


def _values(t: Table, seat: int, w: np.ndarray | None = None) -> np.ndarray:
    out = np.zeros(S.MAX_TILES)
    bot.tile_values(t.P, t.T, t.K, t.F[1 + seat] if w is None else w, np.int64(seat), out)
    return out


def _best_by_hand(t: Table, v: np.ndarray, budget: int) -> tuple[float, float] | None:
    """The heuristic's rule worked by hand over every legal pair (Movement: piece 0 then piece 1,
    each at least one step, off both start tiles, the two distances within the budget): for each
    end tile a of piece 0, piece 1 goes to its best tile b1 in reach, the pair worth
    v[a] + v[b1]; when b1 shares a's port group the visit counts once, max(v[a], v[b1]), or piece
    1 goes to the best tile of another group instead. Returns the range of the best pair's worth
    over the ways to break ties for b1 (one value when there is no tie), None with no legal pair."""
    n = int(t.K[S.META, S.N_TILES])
    s0, s1 = int(t.T[S.START, 0]), int(t.T[S.START, 1])
    dmax = min(budget, S.MAX_DIST - 1)
    low = high = None
    for a in range(n):
        da = int(t.K[S.DIST0 + s0, a])
        if not (1 <= da <= dmax - 1) or a in (s0, s1):
            continue
        reach = [b for b in range(n) if 1 <= t.K[S.DIST0 + s1, b] <= min(dmax - 1, budget - da)
                 and b not in (s0, s1)]
        if not reach:
            continue
        v1 = max(v[b] for b in reach)
        worth = []
        for b1 in (b for b in reach if v[b] == v1):  # each way to break the tie
            g1 = t.K[S.GROUP0 + 1, b1]
            if t.K[S.GROUP0, a] != g1:
                worth.append(v[a] + v1)
            else:
                others = [v[b] for b in reach if t.K[S.GROUP0 + 1, b] != g1]
                worth.append(max([max(v[a], v1)] + [v[a] + max(others)] * bool(others)))
        low = min(worth) if low is None else max(low, min(worth))
        high = max(worth) if high is None else max(high, max(worth))
    return None if low is None else (low, high)


def _pair_value(t: Table, v: np.ndarray, a: int, b: int) -> float:
    same = t.K[S.GROUP0, a] == t.K[S.GROUP0 + 1, b]
    return max(v[a], v[b]) if same else v[a] + v[b]


def _checked_pick(t: Table, v: np.ndarray, budget: int, where) -> tuple[int, int] | None:
    """heuristic_moves at this budget against the rule worked by hand: legal (each piece at least a
    step, off both starts, the two within the budget) and worth the best pair. Returns (checked,
    shared: the pick's two tiles in one port group), None when no pair is legal."""
    pick = int(t.call("heuristic_moves", seat=0, budget=budget))
    best = _best_by_hand(t, v, budget)
    if best is None:
        assert pick == -1, where
        return None
    a, b = divmod(pick, S.MAX_TILES)
    da = int(t.K[S.DIST0 + t.T[S.START, 0], a])
    db = int(t.K[S.DIST0 + t.T[S.START, 1], b])
    assert 1 <= da and 1 <= db and da + db <= budget, where
    assert {a, b}.isdisjoint({int(t.T[S.START, 0]), int(t.T[S.START, 1])}), where
    assert best[0] <= _pair_value(t, v, a, b) <= best[1], (where, a, b)
    return 1, int(t.K[S.GROUP0, a] == t.K[S.GROUP0 + 1, b])


@pytest.mark.parametrize("preset", HEURISTICS)
def test_the_heuristic_moves_to_the_best_legal_pair(preset):
    rng = np.random.default_rng(PRESET_INDEX[preset])
    checked = shared = 0
    for seed in (3, 11):
        t, _ = _mid_game(seed, 3, first=preset, rivals=preset, rollouts=None)
        n_tiles = int(t.K[S.META, S.N_TILES])
        saved = t.pos.copy()
        for trial in range(12):
            t.pos[:] = saved
            if trial:  # the pieces elsewhere: other distances, starts on ports, both on one tile
                t.put(0, 0, int(rng.integers(n_tiles)))
                t.put(0, 1, int(t.pos[0]) if trial % 5 == 0 else int(rng.integers(n_tiles)))
            t.set_active(0)
            v = _values(t, 0)
            for budget in range(2, 7):
                done = _checked_pick(t, v, budget, (seed, trial, budget))
                if done is not None:
                    checked, shared = checked + done[0], shared + done[1]
    # the positions reach the pair search, and in it the shared port visit
    assert checked >= 100 and shared >= 1


def test_the_heuristic_pairs_across_port_groups_when_both_pieces_near_one_port():
    """A hand-built case of the shared visit: both pieces one step from the same port group,
    that port worth most, a water tile worth a little: the best pair is the port and the water
    tile (counted once, the port's visit is not doubled), never both pieces into the group."""
    t = Table(players=2, seed=5, strategies="tuned")
    n = int(t.K[S.META, S.N_TILES])
    groups = t.K[S.GROUP0, :n]
    port = next(u for u in range(n) if (groups == groups[u]).sum() > 1 and groups[u] >= 0)
    near = [u for u in range(n) if t.K[S.DIST0 + port, u] == 1 and groups[u] != groups[port]]
    t.put(0, 0, near[0])
    t.put(0, 1, near[0] if len(near) == 1 else near[1])
    t.set_active(0)
    v = _values(t, 0)
    for budget in (2, 3, 4):
        pick = int(t.call("heuristic_moves", seat=0, budget=budget))
        a, b = divmod(pick, S.MAX_TILES)
        low, high = _best_by_hand(t, v, budget)
        assert low <= _pair_value(t, v, a, b) <= high


def _plain_start(t: Table, seat: int = 0) -> None:
    """Seat `seat` with nothing in hand and Supply above what it tries to hold: no quest pays,
    no Supply is short, so a tile's value is only what the weights under test give it."""
    me = t.seat(seat)
    me[S.SUPPLY] = int(t.F[1 + seat, bot.W_SAFE]) + 1
    me[S.SILVER] = 0
    me[S.SHIP0: S.SHIP0 + 2 * S.MAX_HEALTH] = 0
    me[S.GOODS0: S.GOODS0 + S.N_GOODS] = 0


@pytest.mark.parametrize("preset", ["merchant", "treasure_hunter"])
def test_a_map_is_bought_at_exactly_its_price(preset):
    """With exactly treasure_price silver (and no Supply short) the Pirate Port is worth the
    map's 2.5 x the treasure weight, plus one for a port that pays, and is the goal; one silver
    less and it pays nothing."""
    t = Table(players=3, seed=8, strategies=preset)
    _plain_start(t)
    pirate = pirate_tile(t)
    t.seat(0)[S.SILVER] = t.P.treasure_price
    w = t.F[1]
    assert _values(t, 0)[pirate] == pytest.approx(w[bot.W_TREASURE] * 2.5 + 1.0)
    t.seat(0)[S.SILVER] = t.P.treasure_price - 1
    assert _values(t, 0)[pirate] <= 0.0
    t.seat(0)[S.SILVER] = t.P.treasure_price
    t.seat(0)[S.N_MAPS] = int(w[bot.W_MAPS])  # holding as many maps as the style wants
    t.T[S.MAPS0, : int(w[bot.W_MAPS])] = 0
    assert _values(t, 0)[pirate] <= 0.0


def pirate_tile(t: Table) -> int:
    n = int(t.K[S.META, S.N_TILES])
    return next(u for u in range(n) if t.K[S.TILE_TYPE, u] == S.PIRATE_PORT)


def test_a_gone_kind_of_quest_passes_its_weight_to_the_kinds_left():
    """The merchant leans on trade. With every open Trade Quest gone, its plunder and treasure
    weights rise to its trade weight: its values equal those of the same seat with those two
    weights set to the top by hand. With a Trade Quest open they do not."""
    t = Table(players=3, seed=8, strategies="merchant")
    _plain_start(t)
    t.seat(0)[S.SILVER] = t.P.treasure_price  # a map to buy: the treasure weight shows
    w = t.F[1].copy()
    top = max(w[bot.W_PLUNDER], w[bot.W_TRADE], w[bot.W_TREASURE])
    assert w[bot.W_TREASURE] < top
    lifted = w.copy()
    lifted[bot.W_PLUNDER] = lifted[bot.W_TREASURE] = top
    assert not np.array_equal(_values(t, 0), _values(t, 0, lifted))  # trade open: no lift
    t.st[S.OPEN0 + S.MAX_OPEN: S.OPEN0 + 2 * S.MAX_OPEN] = -1  # every open Trade Quest gone
    assert np.array_equal(_values(t, 0), _values(t, 0, lifted))


def _trade_tile(t: Table) -> int:
    n = int(t.K[S.META, S.N_TILES])
    return next(u for u in range(n) if t.K[S.TILE_TYPE, u] == S.TRADE_PORT)


@pytest.mark.parametrize("seat", [0, 1])
def test_a_trade_quest_is_worked_toward_only_when_it_fits_the_seats_own_hold(seat):
    """The hold is hand_limit plus barrel_capacity per Barrel the seat itself owns (Trade Port,
    Upgrade Port). One Trade Quest open, needing one card more than the hand limit: without a
    Barrel the Trade Port pays this seat nothing, with one it pays the quest's share, and the
    Barrels of the seats beside it (before and after) change neither value."""
    probe = Table(players=3, seed=8, strategies="merchant")
    costs = probe.K[bot.QCOST0: bot.QCOST0 + S.N_GOODS, bot.TRADE_COL0:]
    n_trade = int((probe.K[bot.QVP0 + S.TRADEQ] > 0).sum())
    q = max(range(n_trade), key=lambda q: int(costs[:, q].sum()))
    need = int(costs[:, q].sum())
    t = Table(players=3, seed=8, strategies="merchant",
              overrides={"hand_limit": need - 1, "barrel_capacity": 1})
    _plain_start(t, seat)
    t.set_active(seat)
    t.seat(seat)[S.SILVER] = need * max(1, t.P.trade_price)  # every missing card affordable
    t.st[S.OPEN0 + S.MAX_OPEN: S.OPEN0 + 2 * S.MAX_OPEN] = -1
    t.st[S.OPEN0 + S.MAX_OPEN] = q
    t.st[S.QDECK_N0 + S.TREASURE] = 0  # no map to buy: the Trade Port is the only goal
    port = _trade_tile(t)
    pays = t.F[1 + seat, bot.W_TRADE] * t.K[bot.QVP0 + S.TRADEQ, q] * 0.7
    assert pays > 0
    for own in (0, 1):
        for rivals in (0, 1, 2):
            for s in range(3):
                t.seat(s)[S.UPG0 + S.BARREL] = own if s == seat else rivals
            value = _values(t, seat)[port]
            t.st[S.OPEN0 + S.MAX_OPEN] = -1
            nothing = _values(t, seat)[port]  # the same seat with no Trade Quest to work toward
            t.st[S.OPEN0 + S.MAX_OPEN] = q
            assert value == pytest.approx(pays if own else nothing), (own, rivals)


def test_the_heuristic_finds_the_best_pair_from_every_start_beside_a_shared_port():
    """Where both pieces start beside one port group the shared visit (A5) decides the pair:
    piece 1 then goes to the best tile of another group, which may lie nearer than the budget
    allows or farther than the best one. From every pair of start tiles one or two steps from
    a port of a group with more than one tile, under random style weights (the values of every
    tile kind in every order), at budgets 2 to 6, the pick is legal and worth the best pair."""
    t = Table(players=2, seed=5, strategies="tuned")
    rng = np.random.default_rng(46)
    n = int(t.K[S.META, S.N_TILES])
    groups = t.K[S.GROUP0, :n]
    ports = [u for u in range(n) if groups[u] >= 0 and (groups == groups[u]).sum() > 1]
    base = t.F[1].copy()
    checked = shared = 0
    for port in ports:
        near = [u for u in range(n) if 1 <= t.K[S.DIST0 + port, u] <= 2 and groups[u] != groups[port]]
        starts = [(near[i], near[j]) for i in range(len(near)) for j in range(len(near))]
        for k in rng.choice(len(starts), size=min(6, len(starts)), replace=False):
            t.put(0, 0, starts[k][0])
            t.put(0, 1, starts[k][1])
            t.set_active(0)
            for _ in range(3):
                t.F[1] = base
                t.F[1, bot.W_PLUNDER: bot.W_DIST] = rng.uniform(0.0, 4.0, bot.W_DIST - bot.W_PLUNDER)
                v = _values(t, 0)
                for budget in range(2, 7):
                    done = _checked_pick(t, v, budget, (port, starts[k], budget))
                    if done is not None:
                        checked, shared = checked + done[0], shared + done[1]
    assert checked >= 200 and shared >= 10, (checked, shared)
