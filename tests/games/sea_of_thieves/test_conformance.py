"""Whole games: they end, standees never exceed two a hex, and no token is created or lost;
the same seeds give the same games; the presets beat `random` and finish their games."""

import numpy as np
import pytest

from simkit.core import rng as R
from simkit.core.game import GAME_COLUMNS, SEAT_COLUMNS
from simkit.games.sea_of_thieves import GAME

from .harness import PRESET_INDEX, S, Table, play_game

CASES = [
    (2, "standard", "random"), (3, "standard", "random"), (4, "standard", "random"),
    (4, "standard", ["merchant", "hunter", "legend_chaser", "random"]), (2, "standard", ["hunter", "legend_chaser"]),
    (3, "two_player+equal_gold", ["merchant", "hunter", "random"]), (4, "first_game", "hunter"),
    (2, "standard", "merchant"),
]


def census_ok(t):
    c = t.token_census()
    ids = c["loot"] + c["treasure"] + c["placed"] + c["boxed"]
    assert sorted(ids) == list(range(int(t.K[S.META, S.N_TOKENS])))  # each token exactly once
    for t_id in c["loot"]:
        assert t.T[S.TOK_LOC, t_id] == S.IN_LOOT_BAG and t.K[S.TOK_BAG, t_id] == S.LOOT_BAG
    for t_id in c["treasure"]:
        assert t.T[S.TOK_LOC, t_id] == S.IN_TREASURE_BAG
    for h in range(S.MAX_HEX):
        here = [i for i in c["placed"] if t.T[S.TOK_LOC, i] == h]
        sk = sum(bool(S.is_skeleton(t.T, t.K, i)) for i in here)
        captains = sum(t.K[S.TOK_KIND, i] == S.CAPTAIN and t.T[S.TOK_SIDE, i] == 0 for i in here)
        assert t.T[S.HEX_SKELETONS, h] == sk and t.T[S.HEX_CARGO, h] == len(here) - sk
        assert t.T[S.HEX_CAPTAINS, h] == captains
    # standees: ships and the enemies on the board, at most two a hex (Hexes)
    ships = [int(t.ship(k)[S.HEX]) for k in range(2 * t.players)]
    enemies = [int(t.T[S.ENEMY0 + e, S.E_HEX]) for e in range(S.N_ENEMIES) if t.T[S.ENEMY0 + e, S.E_STATE] == S.E_ON]
    assert all(t.T[S.ENEMY0 + e, S.E_HEX] == -1 for e in range(S.N_ENEMIES) if t.T[S.ENEMY0 + e, S.E_STATE] != S.E_ON)
    assert all(h >= 0 for h in enemies)
    # a skeleton ship's treasure is on its card while it sails, and nowhere else
    on_cards = [int(x) for e in (S.SKELETON_SLOOP, S.SKELETON_GALLEON) for x in t.T[S.ENEMY0 + e, S.E_SLOT0:S.E_SLOT0 + 5]
                if x >= 0]
    for e in (S.SKELETON_SLOOP, S.SKELETON_GALLEON):
        if t.T[S.ENEMY0 + e, S.E_STATE] != S.E_ON:
            assert (t.T[S.ENEMY0 + e, S.E_SLOT0:S.E_SLOT0 + 5] == -1).all()
    assert sorted(on_cards) == sorted(i for i in c["boxed"] if t.K[S.TOK_KIND, i] not in (S.CAPTAIN, S.SKELETON))
    for h in range(S.MAX_HEX):
        assert t.T[S.HEX_STANDEES, h] == ships.count(h) + enemies.count(h) <= 2
        if ships.count(h):
            assert t.T[S.HEX_TYPE, h] != S.ABSENT
    for k in range(2 * t.players):
        hold = t.hold(k)
        assert t.ship(k)[S.HOLD_N] == len(hold)
        assert t.ship(k)[S.HOLD_VALUE] == sum(int(t.K[S.TOK_VALUE, i]) for i in hold)
        assert t.ship(k)[S.RES_N] == len(t.hold(k, S.RESOURCE))
        assert t.ship(k)[S.CREW_UP] + t.ship(k)[S.CREW_DOWN] + sum(t.ship(k)[S.SPEC0 + i] >= 0 for i in range(4)) \
            == t.K[S.META, S.CREW_SLOTS0 + t.ship(k)[S.TYPE]]
    for s in range(t.players):
        assert t.seat(s)[S.REP] >= 0 and t.seat(s)[S.GOLD] >= 0


@pytest.mark.parametrize("players,variant,lineup", CASES)
def test_games_end_and_conserve_tokens(players, variant, lineup):
    for seed in range(2):
        t = Table(players, variant, seed=seed, strategies=lineup)
        census_ok(t)
        play_game(t, lambda tt, s: census_ok(tt))
        assert t.st[S.END_REASON] >= 0 and t.st[S.ROUND] <= t.P.round_cap


def run(players, variant, lineup, n=300, seed=11):
    values = GAME.rules.resolve(variant, {})
    c = GAME.compile(values, players)
    ss = np.array([[PRESET_INDEX[lineup[(s + g) % len(lineup)]] for s in range(players)] for g in range(n)],
                  dtype=np.int64)
    seeds = np.array([R.derive(seed, i) for i in range(n)], dtype=np.uint64)
    og = np.zeros((n, GAME_COLUMNS), dtype=np.int64)
    os_ = np.zeros((n, players, SEAT_COLUMNS + len(GAME.seat_metrics)), dtype=np.int64)
    GAME.play_chunk(c.params, c.components, GAME.preset_table(), ss, seeds, og, os_,
                    np.zeros((0, 6), dtype=np.int64), np.zeros(1, dtype=np.int64),
                    np.zeros((0, 1, ss.shape[1]), dtype=np.int64))
    return ss, og, os_


def test_play_chunk_is_deterministic_whatever_the_chunk():
    a = run(4, "standard", ["random", "merchant", "hunter", "legend_chaser"], n=60)
    b = run(4, "standard", ["random", "merchant", "hunter", "legend_chaser"], n=60)
    assert (a[1] == b[1]).all() and (a[2] == b[2]).all()
    values = GAME.rules.resolve("standard", {})
    c = GAME.compile(values, 4)
    ss = a[0][30:40]
    seeds = np.array([R.derive(11, i) for i in range(30, 40)], dtype=np.uint64)
    og = np.zeros((10, GAME_COLUMNS), dtype=np.int64)
    os_ = np.zeros((10, 4, SEAT_COLUMNS + len(GAME.seat_metrics)), dtype=np.int64)
    GAME.play_chunk(c.params, c.components, GAME.preset_table(), ss, seeds, og, os_,
                    np.zeros((0, 6), dtype=np.int64), np.zeros(1, dtype=np.int64),
                    np.zeros((0, 1, ss.shape[1]), dtype=np.int64))
    assert (og == a[1][30:40]).all() and (os_ == a[2][30:40]).all()


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("preset", ["merchant", "hunter", "legend_chaser"])
def test_every_preset_finishes_its_games_in_self_play(players, preset):
    _, og, _ = run(players, "standard", [preset], n=200)
    assert (og[:, 2] == S.END_ROUND_CAP).mean() < 0.01


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_default_preset_beats_random_widely(players):
    lineup = ["merchant"] + ["random"] * (players - 1)
    ss, _og, os_ = run(players, "standard", lineup)
    mine = ss == PRESET_INDEX["merchant"]
    assert os_[:, :, 2][mine].mean() > 0.9
