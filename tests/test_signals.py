"""Real signals on a real `simkit sweep` with loky workers: a terminal's
Ctrl-C (SIGINT to the whole process group) gives one line and a resumable folder, however
early it comes; a SIGKILL of the sweep leaves no worker playing on."""

from __future__ import annotations

import os
import signal
import subprocess
import time

import psutil
import pytest

import simkit
from tests.test_cli import SIMKIT

ARGS = ["sweep", "--game", "dicegame", "--players", "4", "--games", "3000000", "--chunk", "20000",
        "--jobs", "2", "--seed", "9", "--quiet"]


def start(out):
    return subprocess.Popen([SIMKIT, *ARGS, "--out", str(out)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, start_new_session=True)


def workers_of(proc) -> list[psutil.Process]:
    try:
        return psutil.Process(proc.pid).children(recursive=True)
    except psutil.NoSuchProcess:
        return []


@pytest.mark.parametrize("moment", ["starting", 0.5, 1.5, "playing"])
def test_ctrl_c_prints_one_line_and_the_sweep_resumes(tmp_path, moment):
    out = tmp_path / "out"
    proc = start(out)
    deadline = time.time() + 120
    if moment != "playing":  # as soon as a worker process exists, or a little later while it imports
        while not workers_of(proc) and time.time() < deadline:
            time.sleep(0.05)
        time.sleep(0 if moment == "starting" else moment)
    else:  # once some chunks are finished
        while not (out / "parts").exists() or len(list((out / "parts").glob("games-*"))) < 2:
            assert time.time() < deadline and proc.poll() is None
            time.sleep(0.1)
    # a Ctrl-C while the workers are being started is ignored (a second or more on a busy machine,
    # where the whole sweep may take only a few): press again every half second, as a user would,
    # until it stops. A press after the sweep has begun to stop ends it by the signal's default
    # action, which a shell reports as 130 too (128 + SIGINT); the line is printed once either way
    stderr = None
    while stderr is None:
        os.killpg(proc.pid, signal.SIGINT)
        try:
            _, stderr = proc.communicate(timeout=0.5)
        except subprocess.TimeoutExpired:
            assert time.time() < deadline + 120, "the sweep did not stop"
    assert proc.returncode in (130, -signal.SIGINT), stderr
    assert "Traceback" not in stderr and "KeyboardInterrupt" not in stderr, stderr
    lines = stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("interrupted"), stderr
    if "--resume" in lines[0]:
        resumed = subprocess.run([SIMKIT, "sweep", "--out", str(out), "--resume", "--quiet", "--jobs", "2"],
                                 capture_output=True, text=True, timeout=600, check=False)
        assert resumed.returncode == 0, resumed.stderr
        assert simkit.load(out).games.height == 3_000_000
    else:  # stopped before any chunk finished: the folder is as good as new
        assert [p.name for p in out.iterdir()] == [] if out.exists() else True


def test_killing_the_sweep_stops_its_workers(tmp_path):
    out = tmp_path / "out"
    proc = start(out)
    deadline = time.time() + 120
    while not (out / "parts").exists() or not list((out / "parts").glob("games-*")):
        assert time.time() < deadline and proc.poll() is None
        time.sleep(0.1)
    workers = workers_of(proc)
    assert workers
    proc.kill()
    proc.wait()
    _, alive = psutil.wait_procs(workers, timeout=30)
    assert not alive, f"{len(alive)} workers still running 30 s after their sweep was killed"


def test_a_ctrl_c_inside_a_c_callback_is_passed_on_not_printed(monkeypatch):
    """A KeyboardInterrupt Python cannot raise where it lands (a ctypes callback, as numba's
    object cache has) reaches the main thread as an interrupt; any other unraisable error goes
    to Python's own hook, which prints it."""
    import sys
    import types

    from simkit.commands.cli import pass_on_interrupts

    # as in the command line's process: Python's own Ctrl-C handler (a test runner's worker may
    # have set SIGINT aside, and then interrupt_main does nothing)
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with pytest.raises(KeyboardInterrupt):
            pass_on_interrupts(types.SimpleNamespace(exc_type=KeyboardInterrupt, exc_value=KeyboardInterrupt()))
            for _ in range(100):  # the interrupt arrives at the next bytecode
                time.sleep(0.01)
    finally:
        signal.signal(signal.SIGINT, previous)
    printed = []
    monkeypatch.setattr(sys, "__unraisablehook__", printed.append)
    other = types.SimpleNamespace(exc_type=ValueError, exc_value=ValueError("boom"))
    pass_on_interrupts(other)
    assert printed == [other]
