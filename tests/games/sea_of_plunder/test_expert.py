"""The `expert` preset: the lookahead tier on tuned's weights, its rollouts played by tuned.

Its candidates come from tuned's scores (its first is tuned's own choice), every seat of its
rollouts plays tuned's weights (the deciding seat's row, copied into the rollout tables), and
it keeps the lookahead's discipline: one draw of its own stream, nothing else read or changed.
"""

from __future__ import annotations

import json

import numpy as np
from typer.testing import CliRunner

from simkit.commands.cli import app
from simkit.core.kernels import RACE_FIRST
from simkit.core.rng import next_u64, seed_streams
from simkit.games.sea_of_plunder import GAME, engine, lookahead
from strategies import sea_of_plunder as bot

from .harness import PRESET_INDEX, PRESETS, Scratch, Table
from .test_skill import run

DEFAULT = GAME.default_strategy


def expert_position(seed: int, players: int = 2, preset: str = "expert") -> Table:
    """A game a few turns in, seat 0 (playing `preset`) after its Draw phase."""
    t = Table(players=players, seed=seed, strategies=[preset] + [DEFAULT] * (players - 1))
    for _ in range(2):
        for s in range(players):
            t.take_turn(s)
    t.call("begin_turn", seat=0)
    return t


def replay_rollout(t: Table, seat: int, x: Scratch, c: int, r: int, row: np.ndarray) -> float:
    """Rollout r of candidate c of the choice just made from `t` (its stream as before the choice),
    replayed by hand with every seat playing the preset row `row`: the value it scores."""
    rng = t.rng.copy()
    base = next_u64(rng, 1 + seat)
    F2 = np.zeros_like(t.F)
    for s in range(t.players):
        F2[1 + s, : bot.N_WEIGHTS] = row[: bot.N_WEIGHTS]
    T2, rr = t.T.copy(), np.zeros_like(t.rng)
    seed_streams(rr, np.uint64((int(base) + r * int(lookahead._ROLLOUT_STEP)) % 2**64))  # uint64 wrap, as numba's
    counts = np.zeros(4, dtype=np.int64)
    unseen = x.unseen.copy()
    t.call("gather_unseen", seat=seat, unseen=unseen, counts=counts)
    t.call("redeal", T=T2, rng=rr, seat=seat, unseen=unseen, counts=counts)
    T2[engine.S.ST, engine.S.FORCED_PLAY] = x.unseen[lookahead.U_CAND, c] + 1
    buf2 = np.zeros_like(t.buf)
    t.call("finish_turn", T=T2, F=F2, rng=rr, buf=buf2, log=x.nolog, seat=seat)
    t.call("play_on", T=T2, F=F2, rng=rr, buf=buf2, log=x.nolog, seat=seat,
           horizon=np.int64(t.F[1 + seat, bot.LA_HORIZON]))
    return float(t.call("rollout_value", T=T2, buf=buf2, seat=seat, win=t.F[1 + seat, bot.LA_WIN]))


def test_expert_is_listed_last_as_a_lookahead_preset():
    listed = json.loads(CliRunner().invoke(app, ["strategies", "sea_of_plunder", "--json"]).stdout)
    assert listed[-1]["name"] == "expert" and listed[-1]["kind"] == "lookahead"
    assert GAME.preset_names()[-1] == "expert" and GAME.default_strategy == "tuned"


def test_expert_row_is_tuned_with_the_lookahead_knobs():
    expert, tuned = PRESETS[PRESET_INDEX["expert"]], PRESETS[PRESET_INDEX["tuned"]]
    assert expert[bot.POLICY] == 2 and tuned[bot.POLICY] == 1
    assert np.array_equal(expert[1:bot.LA_CANDIDATES], tuned[1:bot.LA_CANDIDATES])
    assert tuple(expert[bot.LA_CANDIDATES:bot.N_WEIGHTS]) == bot.EXPERT_KNOBS


def test_expert_first_candidate_is_tuneds_choice():
    """The candidate list is tuned's scores, best first: candidate 0 is what tuned would play."""
    for seed in range(4):
        t = expert_position(seed)
        w = t.F[1].copy()
        n = t.call("list_plays", seat=0)
        t.F[1, : bot.N_WEIGHTS] = 0.0
        t.F[1, : bot.LA_CANDIDATES] = PRESETS[PRESET_INDEX[DEFAULT], : bot.LA_CANDIDATES]
        t.call("score_plays", seat=0, n_cand=n)
        scores = t.F[0, :n].copy()
        t.F[1] = w
        x = Scratch(t)
        x.choice(t, 0)
        assert x.unseen[lookahead.U_CAND, 0] == int(np.argmax(scores))  # the first listed among ties


def test_expert_rollouts_play_tuned_and_the_lookahead_rollouts_play_collector():
    """A rollout replayed by hand with every seat on tuned's row scores what the expert's scored,
    bit for bit; the lookahead's replay on collector's row, its own. With the other row the
    replays differ for some rollout: the rollout seats' weights are the deciding seat's."""
    differs = {"expert": 0, "lookahead": 0}
    for preset, own, other in (("expert", DEFAULT, bot.ROLLOUT), ("lookahead", bot.ROLLOUT, DEFAULT)):
        for seed in range(3):
            t = expert_position(seed, preset=preset)
            rng = t.rng.copy()
            t.F[1, bot.LA_RACE] = 0.0  # every candidate plays every rollout
            x = Scratch(t)
            x.choice(t, 0)
            assert (x.F2[1:, bot.POLICY] == 1).all() and (x.F2[1:, bot.NOISE] == 0).all()
            assert np.array_equal(x.F2[1:, 1:bot.LA_CANDIDATES],
                                  np.tile(PRESETS[PRESET_INDEX[own], 1:bot.LA_CANDIDATES], (t.players, 1)))
            after = t.rng.copy()
            t.rng[:] = rng
            for c in range(2):
                for r in range(2):
                    played = x.values[c, RACE_FIRST + r]
                    assert replay_rollout(t, 0, x, c, r, PRESETS[PRESET_INDEX[own]]) == played
                    differs[preset] += replay_rollout(t, 0, x, c, r, PRESETS[PRESET_INDEX[other]]) != played
            t.rng[:] = after
    assert differs["expert"] > 0 and differs["lookahead"] > 0


def test_expert_reads_nothing_but_its_own_stream():
    t = expert_position(5, players=3)
    before_T, before_rng = t.T.copy(), t.rng.copy()
    Scratch(t).choice(t, 0)
    assert np.array_equal(t.T, before_T)  # the real game is untouched
    assert np.array_equal(t.rng[0], before_rng[0])  # chance stream
    assert np.array_equal(t.rng[2:], before_rng[2:])  # other seats' streams
    assert not np.array_equal(t.rng[1], before_rng[1])  # one draw of its own stream


def test_expert_is_deterministic_and_its_turn_draws_only_its_own_stream():
    a = run(2, ("expert", DEFAULT), 16, 41)
    b = run(2, ("expert", DEFAULT), 16, 41)
    assert np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1])
    t = Table(players=3, seed=6, strategies=["expert", DEFAULT, DEFAULT])
    start = t.rng.copy()
    t.call("lookahead_turn", seat=0, **vars(Scratch(t)))
    assert np.array_equal(t.rng[2:], start[2:])  # the other seats' streams
