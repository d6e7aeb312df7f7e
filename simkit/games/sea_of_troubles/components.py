"""Load and validate the Sea of Troubles component files, then compile them to one int64 table K.

components/: actions.toml (action deck), treasures.toml (treasure cards), quests.toml
(quest deck), quirks.toml (quirk deck), map.txt (one fold-out panel per player). A mistake
names the file.
"""

from __future__ import annotations

import functools
import tomllib
from collections import deque
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from simkit.errors import InputError
from simkit.games.sea_of_troubles import state as S

FOLDER = Path(__file__).parent / "components"
FILES = ("actions.toml", "treasures.toml", "quests.toml", "quirks.toml", "map.txt")


@dataclass(frozen=True)
class Components:
    cards: tuple  # (type, value) per action card
    treasures: tuple  # (name, infamy, weighted) per treasure card
    quests: tuple  # (port, treasure kind name or "any", infamy)
    quirks: tuple  # (name, effect, amount, worth)
    panel: tuple  # rows of the map panel
    raw: bytes


def _toml(name: str) -> dict:
    path = FOLDER / name
    try:
        return tomllib.loads(path.read_text())
    except tomllib.TOMLDecodeError as e:
        raise InputError(f"{path}: malformed TOML: {e}") from None


@functools.cache
def load() -> Components:
    a = _toml("actions.toml")
    cards = []
    for t, key in enumerate(("swords", "sails", "cannons")):
        sec = a.get(key)
        if not sec or len(sec.get("values", [])) != len(sec.get("copies", [])):
            raise InputError(f"{FOLDER / 'actions.toml'}: [{key}] needs values and copies of equal length")
        for v, n in zip(sec["values"], sec["copies"], strict=True):
            cards += [(t, int(v))] * int(n)
    cards += [(S.WILD, 0)] * int(a.get("wilds", {}).get("copies", 0))
    treasures = []
    for c in _toml("treasures.toml").get("card", []):
        treasures += [(c["name"], int(c["infamy"]), bool(c["weighted"]))] * int(c["count"])
    kinds = {t[0] for t in treasures}
    quests = []
    for i, q in enumerate(_toml("quests.toml").get("quest", [])):
        kind = q.get("treasure", "any")
        if kind != "any" and kind not in kinds:
            raise InputError(f"{FOLDER / 'quests.toml'}: quest {i + 1} asks for {kind!r}, which is not in "
                             f"treasures.toml (hint: one of {sorted(kinds)} or \"any\")")
        quests.append((int(q["port"]), kind, int(q["infamy"])))
    quirks = []
    for i, q in enumerate(_toml("quirks.toml").get("quirk", [])):
        if q.get("effect") not in S.QUIRK_EFFECTS:
            raise InputError(f"{FOLDER / 'quirks.toml'}: quirk {i + 1} has effect {q.get('effect')!r} "
                             f"(hint: one of {', '.join(S.QUIRK_EFFECTS)})")
        quirks.append((str(q["name"]), q["effect"], int(q.get("amount", 1)), float(q.get("worth", 1.0))))
    panel = tuple(line.strip() for line in (FOLDER / "map.txt").read_text().splitlines()
                  if line.strip() and not line.startswith("#"))
    if len({len(r) for r in panel}) != 1 or any(set(r) - set(".#PX") for r in panel):
        raise InputError(f"{FOLDER / 'map.txt'}: the panel must be rows of equal length of . # P X")
    if sum(r.count("P") for r in panel) != 1 or sum(r.count("X") for r in panel) != 1:
        raise InputError(f"{FOLDER / 'map.txt'}: a panel shows exactly one Port and one X (Getting started 3)")
    if (len(cards) > S.MAX_CARDS or len(treasures) > S.MAX_TREASURES or len(quests) > S.MAX_QUESTS
            or len(quirks) > S.MAX_QUIRKS):
        raise InputError(f"{FOLDER}: too many cards for the engine's tables")
    raw = b"".join((FOLDER / f).read_bytes() for f in FILES)
    return Components(tuple(cards), tuple(treasures), tuple(quests), tuple(quirks), panel, raw)


def board(comp: Components, players: int) -> list[str]:
    """The folded map: one panel per player side by side (A5)."""
    return ["".join([row] * players) for row in comp.panel]


def treasure_deck(comp: Components, players: int, skirmish: bool) -> tuple[list[int], list[int], int]:
    """The treasure deck as (cards always in it, the pool the rest is picked from, how many are
    picked at random each game): Getting started 2, or Skirmish's 6 cards (A9, A10)."""
    ids = list(range(len(comp.treasures)))
    if skirmish:
        def take(name, n):
            return [i for i in ids if comp.treasures[i][0] == name][:n]
        fixed = take("Treasure Chest", 1) + take("Exotic Goods", 2) + take("Doubloon", 2)
        return fixed, [i for i in ids if i not in fixed], 1  # "1 random other card" (A9)
    fixed = [i for i in ids if comp.treasures[i][2]]
    if players >= 4:
        fixed.remove(next(i for i in fixed if comp.treasures[i][0] == "Doubloon"))
    light = [i for i in ids if not comp.treasures[i][2]]
    return fixed, light, min(len(light), 1 if players == 4 else 2)  # shuffled no-weight cards (A10)


def _steps(grid: list[str], ghost: bool) -> np.ndarray:
    h, w = len(grid), len(grid[0])
    n = h * w
    dist = np.full((n, n), S.FAR, dtype=np.int64)
    for start in range(n):
        if grid[start // w][start % w] == "#" and not ghost:
            continue
        dist[start, start] = 0
        q = deque([start])
        while q:
            a = q.popleft()
            r, c = divmod(a, w)
            for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                rr, cc = (r + dr) % h, (c + dc) % w  # wrapping to the opposite edge is one move (A6)
                b = rr * w + cc
                if not ghost and grid[rr][cc] == "#":
                    continue
                if dist[start, b] > dist[start, a] + 1:
                    dist[start, b] = dist[start, a] + 1
                    q.append(b)
    return dist


def _sight(grid: list[str]) -> np.ndarray:
    """Shots: same square or one of the 8 around, no island on the line (A7: a diagonal is
    blocked when either square beside the shared corner is land)."""
    h, w = len(grid), len(grid[0])
    n = h * w
    sight = np.zeros((n, n), dtype=np.int64)
    for a in range(n):
        r, c = divmod(a, w)
        if grid[r][c] == "#":
            continue
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                rr, cc = r + dr, c + dc
                if not (0 <= rr < h and 0 <= cc < w) or grid[rr][cc] == "#":
                    continue
                if dr and dc and (grid[r][cc] == "#" or grid[rr][c] == "#"):
                    continue
                sight[a, rr * w + cc] = 1
    return sight


def compile_arrays(comp: Components, values: dict, players: int) -> tuple:
    skirmish = bool(values.get("skirmish"))
    grid = board(comp, players)
    h, w = len(grid), len(grid[0])
    n = h * w
    K = np.zeros((S.K_ROWS, S.KW), dtype=np.int64)
    K[S.META, S.N_CARDS] = len(comp.cards)
    K[S.META, S.N_SQ] = n
    K[S.META, S.WIDTH] = w
    K[S.META, S.HEIGHT] = h
    for i, (t, v) in enumerate(comp.cards):
        K[S.CARD_TYPE, i] = t
        K[S.CARD_VALUE, i] = v if t != S.WILD else int(values.get("wild_value", 2))
    for i, (_name, inf, weighted) in enumerate(comp.treasures):
        K[S.TREAS_INF, i] = inf
        K[S.TREAS_WEIGHT, i] = 1 if weighted else 0
    names = sorted({t[0] for t in comp.treasures})
    for i, t in enumerate(comp.treasures):
        K[S.TREAS_KIND, i] = names.index(t[0])
    fixed, pool, pick = treasure_deck(comp, players, skirmish)
    K[S.META, S.N_TREAS] = len(fixed)
    K[S.META, S.BOX_T] = len(comp.treasures)
    K[S.TDECK_IDS, : len(fixed)] = fixed
    K[S.META, S.N_POOL] = len(pool)
    K[S.META, S.N_PICK] = pick
    K[S.TPOOL, : len(pool)] = pool
    # one quest per player dealt from the quest deck (Getting started 5); none in Skirmish
    K[S.META, S.N_Q] = 0 if skirmish else min(players, len(comp.quests))
    K[S.META, S.N_QBOX] = len(comp.quests)
    for i, (p, kind, inf) in enumerate(comp.quests):
        K[S.Q_PORT, i] = p % players
        K[S.Q_KIND, i] = -1 if kind == "any" else names.index(kind)
        K[S.Q_INF, i] = inf
    quirks = comp.quirks if values.get("quirks") else ()
    K[S.META, S.N_QUIRKS] = len(quirks)
    for i, (_name, effect, amount, worth) in enumerate(quirks):
        K[S.QK_EFFECT, i] = S.QUIRK_EFFECTS.index(effect)
        K[S.QK_AMOUNT, i] = amount
        K[S.QK_WORTH, i] = round(100 * worth)
    if quirks:
        K[S.META, S.QUIRK_MEAN] = round(100 * sum(q[3] for q in quirks) / len(quirks))
    ports, xs = [], []
    for sq in range(n):
        ch = grid[sq // w][sq % w]
        K[S.SQ_KIND, sq] = {".": S.WATER, "#": S.LAND, "P": S.PORT, "X": S.XSPOT}[ch]
        if ch == "P":
            K[S.SQ_INDEX, sq] = len(ports)
            ports.append(sq)
        elif ch == "X":
            K[S.SQ_INDEX, sq] = len(xs)
            xs.append(sq)
    K[S.META, S.NPORTS] = len(ports)
    K[S.META, S.N_X] = len(xs)
    K[S.PORT_SQ, : len(ports)] = ports
    K[S.X_SQ, : len(xs)] = xs
    K[S.DIST0 : S.DIST0 + n, :n] = _steps(grid, False)
    K[S.GDIST0 : S.GDIST0 + n, :n] = _steps(grid, True)
    K[S.SIGHT0 : S.SIGHT0 + n, :n] = _sight(grid)
    return (K,)
