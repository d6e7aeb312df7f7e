"""Whole games: they end, and no action card or treasure is created or lost."""

import numpy as np
import pytest

from simkit.core import rng as R
from simkit.core.game import END_REASON, GAME_COLUMNS, SEAT_COLUMNS
from simkit.games.sea_of_troubles import GAME

from .harness import PRESET_INDEX, S, Table, play_game

CASES = [
    (2, "standard", "random"), (3, "standard", "random"), (4, "standard", "random"), (5, "standard", "random"),
    (4, "standard", ["pillager", "duellist", "hoarder", "quester"]), (3, "skirmish", "random"),
    (4, "skirmish", ["duellist", "random", "hoarder", "random"]), (5, "bidding_start", "random"),
    (2, "bidding_start", ["duellist", "quester"]), (4, "quirks", "random"),
    (2, "quirks", ["pillager", "random"]), (4, "skirmish+quirks+bidding_start", ["quester", "duellist", "random", "hoarder"]),
]


@pytest.mark.parametrize("players,variant,lineup", CASES)
def test_games_end_and_conserve_cards_and_treasures(players, variant, lineup):
    for seed in range(4):
        t = Table(players, variant, seed=seed, strategies=lineup)
        cards = t.all_cards()
        n_treasures = t.treasure_count()
        assert n_treasures == int(t.K[S.META, S.BOX_T])  # every treasure in the box is somewhere
        n_quirks = int(t.K[S.META, S.N_QUIRKS])

        def check(t, s, cards=cards, n_treasures=n_treasures, n_quirks=n_quirks):
            assert t.all_cards() == cards
            assert t.treasure_count() == n_treasures
            held = [int(t.seat(p)[S.QUIRK]) for p in range(players) if t.seat(p)[S.QUIRK] >= 0]
            quirks = list(t.T[S.QUIRK_DECK, : t.st[S.QDECK_N]]) + list(t.T[S.QUIRK_UP, : t.st[S.QUP_N]]) + held
            assert sorted(int(q) for q in quirks) == list(range(n_quirks))  # no quirk lost or doubled
            ids = t.treasure_ids()
            assert len(ids) == len(set(ids))
            for p in range(players):
                if t.seat(p)[S.STATE] != S.DEAD:
                    assert t.K[S.SQ_KIND, t.seat(p)[S.POS]] != S.LAND

        play_game(t, check)
        assert t.st[S.END_REASON] >= 0
        assert t.st[S.ROUND] <= t.P.round_cap


def run(players, variant, lineup, n=400):
    values = GAME.rules.resolve(variant, {})
    c = GAME.compile(values, players)
    ss = np.array([[PRESET_INDEX[lineup[(s + g) % players]] for s in range(players)] for g in range(n)], dtype=np.int64)
    seeds = np.array([R.derive(11, i) for i in range(n)], dtype=np.uint64)
    og = np.zeros((n, GAME_COLUMNS + 1), dtype=np.int64)
    os_ = np.zeros((n, players, SEAT_COLUMNS + len(GAME.seat_metrics)), dtype=np.int64)
    GAME.play_chunk(c.params, c.components, GAME.preset_table(), ss, seeds, og, os_,
                    np.zeros((0, 6), dtype=np.int64), np.zeros(1, dtype=np.int64),
                    np.zeros((0, 1, ss.shape[1]), dtype=np.int64))
    return ss, og, os_


def test_play_chunk_is_deterministic_and_ends_before_the_cap():
    a = run(4, "standard", ["random", "pillager", "duellist", "quester"])
    b = run(4, "standard", ["random", "pillager", "duellist", "quester"])
    assert (a[1] == b[1]).all() and (a[2] == b[2]).all()
    assert (a[1][:, 2] != S.END_ROUND_CAP).mean() > 0.99


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_play_ends_by_the_rules_before_the_round_cap(players):
    # The shared self-play check skips `random`; its games are the longest (2 players: 36
    # rounds on average, the longest of 20,000 took 103), and every one ends by two deaths or
    # the quests. The default cap (A14) must stop none of them: under 1% of 2,000 at each count.
    _ss, og, _os = run(players, "standard", ["random"] * players, n=2000)
    assert (og[:, END_REASON] == S.END_ROUND_CAP).mean() < 0.01


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_a_preset_beats_random_widely(players):
    lineup = ["pillager"] + ["random"] * (players - 1)
    ss, _og, os_ = run(players, "standard", lineup)
    mine = ss == PRESET_INDEX["pillager"]
    assert os_[:, :, 2][mine].mean() > 0.8
