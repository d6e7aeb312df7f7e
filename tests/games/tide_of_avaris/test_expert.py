"""The expert tier: the lookahead machinery on tuned's row. Its candidates are tuned's (the first
is tuned's own choice) and every seat of its rollouts plays all of tuned's judgement, the slots
after the lookahead's knobs included."""

import json

import numpy as np

from simkit.core.bots import LOOKAHEAD
from simkit.core.kernels import RACE_FIRST, RACE_SUM
from simkit.core.rng import next_u64
from simkit.games.tide_of_avaris import GAME
from strategies import tide_of_avaris as bot

from .harness import PRESET_INDEX, PRESETS
from .test_lookahead import Decision, rollout_value
from .tiers import games

TUNED = PRESETS[PRESET_INDEX["tuned"]]
EXPERT = PRESETS[PRESET_INDEX["expert"]]


def test_expert_is_the_last_preset_and_tuned_with_the_lookahead_knobs():
    from typer.testing import CliRunner

    from simkit.commands.cli import app

    assert GAME.presets[-1].name == "expert" and GAME.presets[-1].kind == LOOKAHEAD
    out = CliRunner().invoke(app, ["strategies", "tide_of_avaris", "--json"])
    assert out.exit_code == 0, out.output
    rows = {r["name"]: r for r in json.loads(out.output)}
    assert rows["expert"]["kind"] == LOOKAHEAD
    knobs = {bot.LA_CANDIDATES, bot.LA_ROLLOUTS, bot.LA_HORIZON, bot.LA_MARGIN, bot.LA_KEEP, bot.LA_RACE}
    assert EXPERT[bot.POLICY] == 2.0 and TUNED[bot.POLICY] == 1.0
    for k in range(1, bot.N_WEIGHTS):
        assert EXPERT[k] == (bot.EXPERT_KNOBS[k] if k in knobs else TUNED[k]), k
    assert any(TUNED[k] != 0.0 for k in range(*bot.LATE_JUDGEMENT))  # tuned holds late judgement


def test_copy_judgement_gives_the_rollout_seat_every_judgement_and_no_knob():
    F = np.zeros((3, PRESETS.shape[1]))
    F[1] = EXPERT
    F2 = np.full_like(F, 7.0)
    bot.copy_judgement(F2, 2, F, 1)
    assert (F2[2, : bot.N_WEIGHTS] == TUNED[: bot.N_WEIGHTS]).all()  # tuned's row, knobs zero
    assert (F2[2, bot.N_WEIGHTS:] == 0.0).all() and (F2[1] == 7.0).all()


def test_the_first_candidate_is_tuneds_choice():
    for seed in (4, 5, 6, 7):
        d = Decision(seed=seed, strategies="expert")
        t, seat = d.t, d.seat
        F = t.F.copy()
        F[1 + seat, : PRESETS.shape[1]] = TUNED
        h = bot.choose_destination(t.P, t.T, t.K, F, t.rng.copy(), np.int64(seat), np.int64(0), np.int64(2))
        _dest, cand, _value = d.choose()
        assert cand[0] == h


def replay(d, F2, value):
    """Every rollout value `value` holds, replayed by hand from a whole copy of the table with the
    rollout seats' weights F2 (as test_lookahead's replay): the values that match."""
    t, seat = d.t, d.seat
    rng = d.rng_before.copy()
    bot.heuristic_destination(t.P, t.T, t.K, t.F.copy(), rng, np.int64(seat), np.int64(0), np.int64(2))
    same = []
    for r in range(int(t.F[1 + seat, bot.LA_ROLLOUTS])):
        deal_seed = next_u64(rng, 1 + seat)
        for c in range(int(np.count_nonzero(~np.isnan(value[:, RACE_SUM])))):
            if np.isnan(value[c, RACE_FIRST + r]):
                continue
            same.append(value[c, RACE_FIRST + r] == rollout_value(t, F2, seat, deal_seed, d.cand[c]))
    return np.array(same)


def test_the_rollouts_play_tuned_at_every_seat_late_judgement_included():
    """Each rollout value is the one played with tuned's row at both seats; with tuned's judgement
    slots after the lookahead's knobs zeroed (the rollouts before the expert), some differ."""
    differ = 0
    for seed in (4, 6):
        d = Decision(seed=seed, strategies="expert")
        d.rng_before = d.t.rng.copy()
        _dest, d.cand, value = d.choose(fill=np.nan)
        tuned = np.zeros_like(d.t.F)
        tuned[1:, : PRESETS.shape[1] - 1] = TUNED[:-1]  # the noise column is not a weight
        assert replay(d, tuned, value).all()
        tuned[1:, slice(*bot.LATE_JUDGEMENT)] = 0.0
        differ += int((~replay(d, tuned, value)).sum())
    assert differ > 0


def test_expert_touches_neither_the_table_nor_the_chance_and_rival_streams():
    """At a decision the expert draws from its own stream only, and leaves the chance stream and
    the rival's as tuned at its seat leaves them."""
    for seed in (4, 5):
        d = Decision(seed=seed, strategies="expert")
        t = d.t
        T, rng = t.T.copy(), t.rng.copy()
        d.choose()
        F = t.F.copy()
        F[1 + d.seat, : PRESETS.shape[1]] = TUNED
        rng_tuned = rng.copy()
        bot.choose_destination(t.P, T, t.K, F, rng_tuned, np.int64(d.seat), np.int64(0), np.int64(2))
        assert (t.T == T).all()
        rival = 1 + (1 - d.seat)
        for k in (0, rival):
            assert (t.rng[k] == rng[k]).all() and (t.rng[k] == rng_tuned[k]).all()
        assert not (t.rng[1 + d.seat] == rng[1 + d.seat]).all()


def test_expert_is_deterministic():
    a = games(("expert", "tuned"), 2, 6)
    b = games(("expert", "tuned"), 2, 6)
    assert (a[1] == b[1]).all() and (a[2] == b[2]).all()
    assert Decision(seed=7, strategies="expert").choose()[0] == Decision(seed=7, strategies="expert").choose()[0]
