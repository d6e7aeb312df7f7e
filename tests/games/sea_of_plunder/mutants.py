"""Break each rule named below in a copy of the engine, one at a time, and check that the
tests guarding it go red (STYLE: "check it by breaking that rule in the code for a moment").

    .venv/bin/python tests/games/sea_of_plunder/mutants.py        # every mutant
    .venv/bin/python tests/games/sea_of_plunder/mutants.py 0 5    # mutants 0 and 5 only

The copy is `git archive HEAD` in a temporary folder with its own numba cache, so the working
tree and its cache are never touched. Each mutant needs a partial recompile (seconds to a few
minutes). Not collected by pytest (no test_ prefix).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
ENGINE = "simkit/games/sea_of_plunder/engine.py"
MUTATIONS = [
    ("lucky: both steps forced one way",
     "        path[n] = K[NBR0 + here, 2 * d]\n        n += 1\n    if n == 0:",
     "        if n == 0:\n            first = d\n        path[n] = K[NBR0 + here, 2 * first]\n        n += 1\n    if n == 0:",
     "test_powers.py -k lucky"),
    ("strategist: hard-coded 14-face die",
     "        roll = dice_number(K, rng)\n        spared",
     "        face = randint(rng, CHANCE, S.SIZE + 1)\n        roll = np.int64(-1) if face == S.SIZE else face\n        spared",
     "test_dice.py -k strategist"),
    ("strategist: spared from 7 (off by one)",
     "spared = roll >= P.strategist_low - 1",
     "spared = roll >= P.strategist_low - 2",
     "test_dice.py test_powers.py -k strategist"),
    ("tie-breaker 4: hard-coded 14-face die",
     "                    r = dice_number(K, rng)\n                    while r < 0:\n                        r = dice_number(K, rng)",
     "                    r = randint(rng, CHANCE, S.SIZE)\n                    while r < 0:\n                        r = randint(rng, CHANCE, S.SIZE)",
     "test_dice.py -k tie_breaker"),
    ("placement: number die rolled with the letter die's face count",
     "row = K[DICE0 + S.NUMBER_DIE, randint(rng, CHANCE, K[META, NUMBER_FACES])]",
     "row = K[DICE0 + S.NUMBER_DIE, randint(rng, CHANCE, K[META, LETTER_FACES])]",
     "test_dice.py -k 'skull or placement'"),
    ("thief any_contact: met Thief does not steal back",
     "        if P.thief_contact == S.THIEF_ANY_CONTACT and T[SEAT0 + other, S.POWER] == S.THIEF:",
     "        if False and T[SEAT0 + other, S.POWER] == S.THIEF:",
     "test_powers.py -k thief"),
    ("thief own_turn reading ignored (steals on every turn)",
     "(own_turn or P.thief_contact != S.THIEF_OWN_TURN)",
     "(own_turn or True)",
     "test_powers.py -k thief"),
    ("bots: the Thief's counter-steal ignored under any_contact",
     "    return np.int64(1) if P.thief_contact == S.THIEF_ANY_CONTACT else np.int64(0)",
     "    return np.int64(0)",
     "test_bots.py -k thief"),
    ("A12: an empty deck refilled from a pile of only Events",
     "        if not drawable:\n            return np.int64(-1)",
     "        if False:\n            return np.int64(-1)",
     "test_turn.py -k pile_of_only"),
]


def main(only: list[str]) -> int:
    missed = 0
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "copy"
        root.mkdir()
        archive = subprocess.run(["git", "archive", "HEAD"], cwd=REPO, capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", str(root)], input=archive, check=True)
        engine = root / ENGINE
        original = engine.read_text()
        env = dict(os.environ, NUMBA_CACHE_DIR=str(Path(tmp) / "cache"), PYTHONPATH=str(root))
        for i, (name, old, new, tests) in enumerate(MUTATIONS):
            if only and str(i) not in only:
                continue
            assert original.count(old) == 1, f"mutant {i} ({name}) no longer matches the engine"
            engine.write_text(original.replace(old, new))
            files, _, k = tests.partition(" -k ")
            cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                   *(f"tests/games/sea_of_plunder/{f}" for f in files.split())] + (["-k", k.strip("'")] if k else [])
            r = subprocess.run(cmd, cwd=root, env=env, capture_output=True, text=True, check=False)
            last = next((line for line in reversed(r.stdout.splitlines()) if line.strip()), "no output")
            missed += r.returncode == 0
            print(f"[{'red' if r.returncode else 'GREEN: NOT CAUGHT'}] {i} {name}: {last}", flush=True)
            engine.write_text(original)
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
