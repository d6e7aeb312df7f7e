"""The lookahead tier (simkit/games/set_sail/lookahead.py): deterministic, blind to hidden
information (A25), leaves the game's chance stream and the other seats' streams alone, and
beats the default preset it plays on with."""

from __future__ import annotations

import numpy as np
import pytest

from simkit.analysis.intervals import wilson
from simkit.core.game import LOG_WIDTH
from simkit.core.rng import game_seeds, seed_streams
from simkit.games.set_sail import GAME, engine
from simkit.games.set_sail import lookahead as LA
from simkit.sweeps.runner import play, seat_strategies
from strategies import set_sail as bot

from .harness import EV, PRESETS, S, Table

DEFAULT = bot.ROLLOUT  # the heuristic the lookahead carries and plays out
Z99_ONE_SIDED = 2.326  # one-sided 99% normal quantile


class Scratch:
    """The playout tables play_chunk allocates for the lookahead."""

    def __init__(self, t: Table):
        self.T2 = np.zeros_like(t.T)
        self.F2 = np.zeros_like(t.F)
        for s in range(t.players):
            engine.load_strategy(self.F2, PRESETS, np.int64(bot.ROLLOUT_ROW), np.int64(s))
        self.rng2 = np.zeros_like(t.rng)
        self.buf2 = np.zeros_like(t.buf)
        self.log2 = np.zeros((0, LOG_WIDTH), dtype=np.int64)
        self.L = np.zeros((LA.L_ROWS, LA.L_WIDTH), dtype=np.int64)
        self.V = np.zeros((LA.V_ROWS, LA.V_WIDTH), dtype=np.float64)
        self.seeds = np.zeros(LA.MAX_ROLLOUTS, dtype=np.uint64)
        self.D = np.zeros_like(t.T)
        self.rngD = np.zeros_like(t.rng)

    def decide(self, t: Table, seat: int, budget: int) -> tuple[int, np.ndarray]:
        """The lookahead's pick for `seat` and the candidates' summed playout values."""
        pick = LA.best_moves(t.P, t.T, t.K, t.F, t.rng, t.buf, np.int64(seat), np.int64(budget), self.T2, self.F2,
                             self.rng2, self.buf2, self.log2, self.L, self.V, self.seeds, self.D, self.rngD)
        count = min(LA.MAX_CANDIDATES, int(t.F[1 + seat, bot.W_CANDIDATES]))
        return int(pick), self.V[LA.VALUE, :count].copy()


def _mid_game(seed: int, players: int = 3, first: str = "lookahead", rivals: str = DEFAULT,
              rollouts: int | None = 8) -> tuple[Table, int]:
    """A game of `first` (seat 0) against `rivals` played by the heuristic for a few rounds, then
    seat 0's turn begun; returns the table and the turn's budget. `rollouts`: seat 0's playouts
    (8, more than the lookahead preset's, so every hidden card matters; None: its preset's)."""
    t = Table(players=players, seed=seed, strategies=[first] + [rivals] * (players - 1))
    for _ in range(4):
        for s in range(players):
            t.call("take_turn", seat=s)
        t.st[S.ROUND] += 1
    if rollouts is not None:
        t.F[1, bot.W_ROLLOUTS] = rollouts
    return t, int(t.call("begin_turn", seat=0))


def _hide_differently(t: Table) -> None:
    """Change everything seat 0 cannot see, keeping what it can: every count on the table."""
    rivals = range(1, t.players)
    for d in (S.DW, S.TR):  # each deck with the rivals' cards of it, dealt again another way
        top = int(t.st[S.DECK_N0 + d])
        cols = slice(S.SHIP0 + d * S.MAX_HEALTH, S.SHIP0 + (d + 1) * S.MAX_HEALTH)
        held = [int(t.seat(s)[cols].sum()) for s in rivals]
        pool = list(t.T[S.DECK0 + d, :top]) + [h for s in rivals for h in np.repeat(np.arange(S.MAX_HEALTH),
                                                                                     t.seat(s)[cols])]
        pool = pool[::-1]
        t.T[S.DECK0 + d, :top] = pool[:top]
        at = top
        for s, n in zip(rivals, held):
            t.seat(s)[cols] = np.bincount(np.array(pool[at: at + n], dtype=np.int64), minlength=S.MAX_HEALTH)
            at += n
    # the rivals' Trade cards: dealt again among them, each keeping its count
    goods = slice(S.GOODS0, S.GOODS0 + S.N_GOODS)
    held = [int(t.seat(s)[goods].sum()) for s in rivals]
    pool = np.concatenate([np.repeat(np.arange(S.N_GOODS), t.seat(s)[goods]) for s in rivals])[::-1]
    at = 0
    for s, n in zip(rivals, held):
        t.seat(s)[goods] = np.bincount(pool[at: at + n], minlength=S.N_GOODS)
        at += n
    # quest decks (with the cards removed at set-up) in another order; rivals' maps swapped
    # with Treasure Quest cards
    for kind in range(3):
        n = int(t.st[S.QDECK_N0 + kind] + t.st[S.QREMOVED0 + kind])
        t.T[S.QDECK0 + kind, :n] = np.roll(t.T[S.QDECK0 + kind, :n], 3)
    n = int(t.st[S.QDECK_N0 + S.TREASURE])
    for s in rivals:
        for i in range(int(t.seat(s)[S.N_MAPS])):
            if n > 0:
                j = n - 1 - i % n
                t.T[S.MAPS0 + s, i], t.T[S.QDECK0 + S.TREASURE, j] = (t.T[S.QDECK0 + S.TREASURE, j],
                                                                      t.T[S.MAPS0 + s, i])


def _hidden_state(t: Table) -> list:
    return [t.T[S.DECK0: S.DECK0 + 2].tolist(), t.T[S.QDECK0: S.QDECK0 + 3].tolist(),
            [t.seat(s)[S.GOODS0: S.SHIP0 + 2 * S.MAX_HEALTH].tolist() for s in range(1, t.players)],
            t.T[S.MAPS0 + 1: S.MAPS0 + t.players].tolist()]


@pytest.mark.parametrize("seed", [3, 8, 21])
def test_the_choice_ignores_what_the_seat_cannot_see(seed):
    t, budget = _mid_game(seed)
    scratch = Scratch(t)
    saved = t.rng.copy()
    pick, values = scratch.decide(t, 0, budget)
    visible = (t.T[S.SEAT0 + 1, S.VP], t.T[S.SEAT0: S.SEAT0 + 3, : S.GOODS0].copy(), t.st.copy())
    before = _hidden_state(t)
    _hide_differently(t)
    assert _hidden_state(t) != before  # the hidden cards really moved
    assert np.array_equal(t.T[S.SEAT0: S.SEAT0 + 3, : S.GOODS0], visible[1]) and np.array_equal(t.st, visible[2])
    t.rng[:] = saved
    again, values_again = scratch.decide(t, 0, budget)
    assert again == pick and np.array_equal(values, values_again)
    # what it can see does count: a rival 20 VP ahead changes the playouts' verdicts
    t.T[S.SEAT0 + 1, S.VP] = visible[0] + 20
    t.rng[:] = saved
    _, values_seen = scratch.decide(t, 0, budget)
    assert not np.array_equal(values, values_seen)


@pytest.mark.parametrize("first, rivals", [("lookahead", DEFAULT), ("expert", "tuned")])
def test_a_decision_touches_only_its_own_stream_and_no_state(first, rivals):
    t, budget = _mid_game(5, players=4, first=first, rivals=rivals, rollouts=None if first == "expert" else 8)
    scratch = Scratch(t)
    state, rng, rows = t.T.copy(), t.rng.copy(), t.mark()
    first, _ = scratch.decide(t, 0, budget)
    assert np.array_equal(t.T, state) and t.mark() == rows
    assert np.array_equal(t.rng[0], rng[0]) and np.array_equal(t.rng[2:], rng[2:])
    assert not np.array_equal(t.rng[1], rng[1])  # its playouts' seeds come from its own stream
    t.rng[:] = rng
    assert scratch.decide(t, 0, budget)[0] == first  # deterministic


@pytest.mark.parametrize("seed, players", [(4, 2), (9, 3), (13, 4)])
def test_each_playout_of_each_candidate_starts_from_its_own_fresh_deal(seed, players):
    """Playout k is dealt once and shared by the candidates (D, rngD): each candidate's value must
    still be that of playouts replayed by hand, each from a whole copy of the table re-dealt on
    seed k for that candidate alone."""
    t, budget = _mid_game(seed, players)
    scratch = Scratch(t)
    _, values = scratch.decide(t, 0, budget)
    count = len(values)
    cands = scratch.L[LA.CAND, :count]
    assert count >= 3 and len(set(cands.tolist())) == count and cands.min() >= 0  # all candidates listed
    w = t.F[1]
    rollouts = int(w[bot.W_ROLLOUTS])
    replayed = np.zeros(count)
    T2, rng2, L = np.zeros_like(t.T), np.zeros_like(t.rng), np.zeros_like(scratch.L)
    for k in range(rollouts):
        for c in range(count):
            T2[:] = t.T
            seed_streams(rng2, scratch.seeds[k])
            LA.redeal(T2, rng2, L, np.int64(0))
            replayed[c] += LA.playout(t.P, T2, t.K, scratch.F2, rng2, scratch.buf2, scratch.log2, np.int64(0),
                                      scratch.L[LA.CAND, c], np.int64(w[bot.W_HORIZON]), w[bot.W_MARGIN])
    assert np.array_equal(values, replayed)
    assert len(set(values.tolist())) > 1  # the candidates' playouts did differ


def _logged(first_seat: str, seed: int, players: int = 2):
    lineup = (first_seat,) + (DEFAULT,) * (players - 1)
    compiled = GAME.compile(GAME.rules.resolve("standard", {}), players)
    strategies = np.array([[GAME.strategy_table(lineup)[1].index(x) for x in lineup]], dtype=np.int64)
    return play(GAME, compiled, strategies, game_seeds(np.uint64(seed), 0, 1), 20_000, lineup)


def test_the_game_sees_the_same_dice_until_the_lookahead_moves_otherwise():
    """Seat 0 played by the lookahead or by the heuristic it rolls out: the games' logs agree
    row for row until the lookahead first moves differently, so its playouts drew nothing
    from the game's chance stream nor from the other seat's."""
    compared = 0
    for seed in range(12):
        *_, mine = _logged("lookahead", seed)
        *_, plain = _logged(DEFAULT, seed)
        differ = np.flatnonzero((mine[: len(plain)] != plain[: len(mine)]).any(axis=1))
        first = int(differ[0]) if len(differ) else min(len(mine), len(plain))
        if len(differ):
            assert tuple(mine[first, 1:3]) == (0, EV.MOVE), f"seed {seed}: row {first} differs: {mine[first]}"
        compared += int((mine[:first, 2] == EV.SHIP_FIGHT).sum())
    assert compared > 10  # many dice rolls after lookahead decisions were compared


def test_it_is_deterministic():
    lineup = ("lookahead", DEFAULT, "merchant")
    compiled = GAME.compile(GAME.rules.resolve("standard", {}), 3)
    strategies = seat_strategies(GAME, lineup, 3, 0, 30)
    runs = [play(GAME, compiled, strategies, game_seeds(np.uint64(2), 0, 30), lineup=lineup) for _ in range(2)]
    assert all(np.array_equal(a, b) for a, b in zip(runs[0][:2], runs[1][:2]))


def test_it_beats_the_default_at_two_players_and_finishes_its_games():
    n = 400
    lineup = ("lookahead", DEFAULT)
    compiled = GAME.compile(GAME.rules.resolve("standard", {}), 2)
    strategies = seat_strategies(GAME, lineup, 2, 0, n)
    out_games, out_seats, _ = play(GAME, compiled, strategies, game_seeds(np.uint64(19), 0, n), lineup=lineup)
    wins = out_seats[:, :, 2]
    mine, theirs = wins[strategies == GAME.preset_names().index("lookahead")].sum(), wins[strategies == bot.ROLLOUT_ROW].sum()
    # lookahead's win rate minus the default's >= 10 points: a share of the wins >= 55%
    low, _ = wilson(float(mine), int(mine + theirs), Z99_ONE_SIDED)
    assert low > 0.55
    selfplay = seat_strategies(GAME, ("lookahead",), 2, 0, 200)
    out_games, _, _ = play(GAME, compiled, selfplay, game_seeds(np.uint64(23), 0, 200), lineup=("lookahead",))
    assert (out_games[:, 2] == S.END_ROUND_CAP).sum() <= 1
