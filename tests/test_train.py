"""`simkit train` (simkit.search.train) on the test dice game: it finds what a hand calculation
says is stronger, replays from its seed, resumes, writes the tuned preset's file, and
refuses bad input before playing."""

from __future__ import annotations

import json

import pytest

from simkit.core import bots
from simkit.core.errors import InputError
from simkit.search import train

SMALL = {"players": "2", "games": 400, "population": 6, "generations": 3, "lookahead_share": 0.0,
         "validate_games": 800, "evidence_games": 800, "evidence_lookahead_games": 20, "seed": 3, "jobs": 1,
         "write": False}


@pytest.fixture(scope="module")
def trained(tmp_path_factory, dicegame):
    folder = tmp_path_factory.mktemp("train") / "careful"
    state = train.train("dicegame", "careful", out=folder, **SMALL)
    return folder, state


def test_training_moves_careful_toward_a_stronger_threshold(trained):
    """Holding at 12 in a race to 40 banks too little per turn: a turn's expected gain grows
    while the total is below 20 (E[gain of one more roll] = 20/6 - total/6 > 0), so the
    search raises hold_at, and the answer beats careful head to head."""
    _, state = trained
    assert state["answer"]["hold_at"] >= 15
    row = next(e for e in state["evidence"] if e["opponent"] == "careful" and e["players"] == 2)
    assert row["ci_low"] > 0.5, row
    assert {e["players"] for e in state["evidence"]} == {2, 3, 4}
    assert all(e["capped"] == 0.0 for e in state["evidence"] if e["opponent"] is None)


def test_every_generation_is_recorded_with_its_candidates_and_games(trained):
    folder, state = trained
    saved = json.loads((folder / train.STATE).read_text())
    assert len(saved["generations"]) == 3
    for g in saved["generations"]:
        assert len(g["candidates"]) == 6 == len(g["records"])
        assert all(2 <= c["hold_at"] <= 60 and c["hold_at"] == int(c["hold_at"]) for c in g["candidates"])
        # candidate vs careful and vs itself (the preset being trained is careful), from generation 2 the incumbent
        opponents = {k.rsplit("-", 1)[0] for k in g["records"][0]["by_opponent"]}
        assert opponents == ({"careful"} if g["generation"] == 0 else {"careful", "incumbent"})
    assert saved["answer"] == state["answer"]


def test_a_stopped_training_resumes_to_the_same_answer(trained, tmp_path, monkeypatch):
    """Stop during generation 2, resume: the same candidates and scores as the run that never stopped."""
    _, whole = trained
    folder = tmp_path / "stopped"
    real = train.Trainer.play
    calls = []

    def stop_at_third(self, *args, **kwargs):
        calls.append(args[0])
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(self, *args, **kwargs)

    monkeypatch.setattr(train.Trainer, "play", stop_at_third)
    with pytest.raises(KeyboardInterrupt):
        train.train("dicegame", "careful", out=folder, **SMALL)
    monkeypatch.setattr(train.Trainer, "play", real)
    assert len(json.loads((folder / train.STATE).read_text())["generations"]) == 2
    resumed = train.train("dicegame", "careful", out=folder, resume=True, jobs=1, write=False)
    def played(state):  # everything but the clock
        return [{k: v for k, v in g.items() if k != "seconds"} for g in state["generations"]]

    assert played(resumed) == played(whole)
    assert resumed["answer"] == whole["answer"]
    assert resumed["evidence"] == whole["evidence"]


def test_the_tuned_file_reads_back_as_the_answer(trained, tmp_path, dicegame):
    folder, state = trained
    trainer = train.Trainer(train.Config(**json.loads((folder / train.STATE).read_text())["config"]), folder,
                            state=state)
    written = train.write_tuned(trainer, tmp_path)
    presets = {p.name: (p.kind, p.weights) for p in dicegame.presets}
    base, weights = bots.read_tuned(tmp_path, dicegame.bot_params, presets)
    assert base == "careful"
    assert weights[1] == state["answer"]["hold_at"] and weights[3] == state["answer"]["hold_lead"]
    assert "simkit train dicegame --preset careful" in written.read_text()
    evidence = (tmp_path / "tuned.md").read_text()
    assert "| 2 | careful |" in evidence and "self-play" in evidence


@pytest.mark.parametrize("options, message", [
    ({"preset": "carefull"}, "unknown preset of dicegame 'carefull'"),
    ({"preset": "random"}, "is a random preset"),
    ({"preset": "lookahead"}, "is a lookahead preset"),
    ({"params": "hold_at,rollouts"}, "unknown parameter of careful 'rollouts'"),
    ({"params": "hold_at"}, "at least 2 parameters"),
    ({"games": 1}, "--games must be"),
    ({"population": 2}, "--population must be"),
    ({"lookahead_share": 2.0}, "--lookahead-share"),
    ({"players": "9"}, "dicegame is for"),
])
def test_bad_input_is_refused_before_anything_is_played(dicegame, tmp_path, options, message):
    args = {**SMALL, **options}
    preset = args.pop("preset", "careful")
    with pytest.raises(InputError) as e:
        train.train("dicegame", preset, out=tmp_path / "x", **args)
    assert message in str(e.value)
    assert not (tmp_path / "x").exists()


def test_a_used_folder_is_refused_and_a_missing_one_cannot_resume(dicegame, tmp_path):
    (tmp_path / "used").mkdir()
    (tmp_path / "used" / "x").write_text("")
    with pytest.raises(InputError, match="not a new or empty folder"):
        train.train("dicegame", "careful", out=tmp_path / "used", **SMALL)
    with pytest.raises(InputError, match="cannot be read"):
        train.train("dicegame", "careful", out=tmp_path / "none", resume=True)

