"""Load and validate the Tide of Avaris component files, then compile them to one int64 table K.

components/: board.toml (spaces, lanes, wind, regions, harbours), dice.toml (crew, combat,
spirit and navy dice), ship.toml (hold values, matching colours, upgrade tracks, wager track,
fleet), decks.toml (relics, monsters, navy ships, burial and endgame bonuses, unlock tokens).
Alternative sets live in components/alt-<name>/ and hold only the files that differ.

Every file is checked against a declared schema before any game is played (types, bounds,
and cross-references such as a lane naming a space of the board); a mistake is one InputError
naming the file, the entry and the rule it breaks.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections import deque
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from simkit.core.components import ComponentSet
from simkit.core.errors import InputError, did_you_mean
from simkit.games.tide_of_avaris import state as S

FOLDER = Path(__file__).parent / "components"
FILES = ("board.toml", "dice.toml", "ship.toml", "decks.toml")


# ------------------------------------------------------------------ a small schema checker
class Where:
    """Names the file and entry an error is about."""

    def __init__(self, label: str, entry: str = ""):
        self.label = label
        self.entry = entry

    def at(self, entry: str) -> Where:
        return Where(self.label, entry)

    def fail(self, what: str) -> InputError:
        return InputError(f"{self.label}: {self.entry + ': ' if self.entry else ''}{what}")


def get_int(d: dict, key: str, w: Where, low: int, high: int, default=None) -> int:
    v = d.get(key, default)
    if v is None:
        raise w.fail(f"'{key}' is missing (an integer {low}..{high})")
    if isinstance(v, bool) or not isinstance(v, int):
        raise w.fail(f"'{key}' must be an integer, got {v!r}")
    if not low <= v <= high:
        raise w.fail(f"'{key}' = {v} is out of range {low}..{high}")
    return v


def get_choice(d: dict, key: str, w: Where, choices, default=None) -> int:
    """The index of the value in choices."""
    v = d.get(key, default)
    if v is None:
        raise w.fail(f"'{key}' is missing (one of {', '.join(choices)})")
    if v not in choices:
        raise w.fail(f"'{key}' = {v!r} is not one of {', '.join(choices)}{did_you_mean(v, choices)}")
    return list(choices).index(v)


def get_list(d: dict, key: str, w: Where, n_low: int, n_high: int) -> list:
    v = d.get(key)
    if not isinstance(v, list) or not n_low <= len(v) <= n_high:
        raise w.fail(f"'{key}' must be a list of {n_low}..{n_high} entries, got {v!r}")
    return v


def int_list(d: dict, key: str, w: Where, n_low: int, n_high: int, low: int, high: int) -> list[int]:
    out = get_list(d, key, w, n_low, n_high)
    for i, x in enumerate(out):
        if isinstance(x, bool) or not isinstance(x, int) or not low <= x <= high:
            raise w.fail(f"'{key}'[{i}] = {x!r} must be an integer {low}..{high}")
    return out


def choice_list(d: dict, key: str, w: Where, n_low: int, n_high: int, choices) -> list[int]:
    out = get_list(d, key, w, n_low, n_high)
    for i, x in enumerate(out):
        if x not in choices:
            raise w.fail(f"'{key}'[{i}] = {x!r} is not one of {', '.join(choices)}{did_you_mean(x, choices)}")
    return [list(choices).index(x) for x in out]


def table(d: dict, key: str, w: Where) -> dict:
    v = d.get(key)
    if not isinstance(v, dict):
        raise w.fail(f"[{key}] is missing")
    return v


def entries(d: dict, key: str, w: Where, n_low: int, n_high: int) -> list[dict]:
    v = d.get(key, [])
    if not isinstance(v, list) or not n_low <= len(v) <= n_high:
        raise w.fail(f"needs {n_low}..{n_high} [[{key}]] entries, has {len(v) if isinstance(v, list) else 0}")
    return v


# ------------------------------------------------------------------ the compiled set
@dataclass(frozen=True)
class Components:
    name: str
    spaces: tuple  # (name, x, y, region, slots, action, start)
    lanes: tuple  # (a, b, exit from a, wind a->b: +1 along, -1 against, 0)
    regions: tuple  # region names in Rising Tide order
    dice: dict
    ship: dict
    decks: dict
    raw: bytes


def _read(cset: ComponentSet, file: str) -> tuple[dict, Where]:
    return cset.read_toml(file), Where(cset.where(file))


def _board(cset: ComponentSet):
    d, w = _read(cset, "board.toml")
    regions = get_list(d, "regions", w, 1, 8)
    if len(set(regions)) != len(regions):
        raise w.fail("'regions' names a region twice")
    spaces = []
    names: dict[str, int] = {}
    for i, e in enumerate(entries(d, "space", w, 2, S.MAX_SPACES)):
        name = e.get("name")
        at = w.at(f"space {i + 1} ({name!r})")
        if not isinstance(name, str) or not name:
            raise at.fail("'name' must be a non-empty string")
        if name in names:
            raise at.fail("the name is used by another space")
        names[name] = i
        x = get_int(e, "x", at, 0, 99)
        y = get_int(e, "y", at, 0, 99)
        region = get_choice(e, "region", at, regions)
        slots = get_int(e, "slots", at, 0, S.MAX_SLOTS)
        action = get_choice(e, "action", at, S.ACTIONS)
        start = e.get("start", False)
        if not isinstance(start, bool):
            raise at.fail(f"'start' must be true or false, got {start!r}")
        if start and slots:
            raise at.fail("a starting harbour must be treasureless (First Day Setup)")
        if action == S.ACT_EXTRA and slots != 2:
            raise at.fail("the extra_treasure action needs a space with 2 slots (Board Action Specifics)")
        spaces.append((name, x, y, region, slots, action, start))
    compass = ("N", "E", "S", "W")
    winds = {"along": 1, "against": -1, "none": 0}
    lanes = []
    exits: dict[tuple[int, int], int] = {}
    adj: dict[int, set] = {i: set() for i in range(len(spaces))}
    for i, e in enumerate(entries(d, "lane", w, 1, 4 * S.MAX_SPACES)):
        at = w.at(f"lane {i + 1} ({e.get('from')!r} -> {e.get('to')!r})")
        a = names.get(e.get("from"))
        b = names.get(e.get("to"))
        for key, v in (("from", a), ("to", b)):
            if v is None:
                raise at.fail(f"'{key}' names no space of the board{did_you_mean(e.get(key), names)}")
        if a == b:
            raise at.fail("a lane joins two different spaces")
        if b in adj[a]:
            raise at.fail("the two spaces are already joined")
        ex = get_choice(e, "exit", at, compass)
        wind = winds[tuple(winds)[get_choice(e, "wind", at, tuple(winds))]]
        for key in ((a, ex), (b, (ex + 2) % 4)):
            if key in exits:
                raise at.fail(f"space {spaces[key[0]][0]!r} already has a lane through its {compass[key[1]]} diamond")
            exits[key] = 1
        adj[a].add(b)
        adj[b].add(a)
        if len(adj[a]) > S.MAX_ADJ or len(adj[b]) > S.MAX_ADJ:
            raise at.fail(f"a space has more than {S.MAX_ADJ} lanes")
        lanes.append((a, b, ex, wind))
    root = next((i for i, s in enumerate(spaces) if s[6]), 0)  # reachable from a starting harbour
    seen = {root}
    q = deque([root])
    while q:
        a = q.popleft()
        for b in adj[a]:
            if b not in seen:
                seen.add(b)
                q.append(b)
    if len(seen) != len(spaces):
        lost = sorted(spaces[i][0] for i in range(len(spaces)) if i not in seen)
        raise w.fail(f"the lanes leave spaces unreachable: {', '.join(lost)} (Connected Location)")
    for r, name in enumerate(regions):
        starts = [s for s in spaces if s[3] == r and s[6]]
        if len(starts) != 1:
            raise w.fail(f"region {name!r} needs exactly one starting harbour (start = true), has {len(starts)}")
    if sum(s[4] for s in spaces) == 0:
        raise w.fail("the board has no treasure slot")
    _board_examples(w, names, lanes)
    return tuple(spaces), tuple(lanes), tuple(regions)


def _board_examples(w: Where, names: dict[str, int], lanes: list) -> None:
    """The worked examples of Navy Hunts a board with the named spaces must honour."""
    sea = names.get("Buy a Sea")
    if sea is not None:  # TOA-138: rolling N the Navy reaches Buy a Sea, which has no N exit
        if any((a == sea and ex == 0) or (b == sea and ex == 2) for a, b, ex, _ in lanes):
            raise w.fail("'Buy a Sea' has a lane through its N diamond; the worked example of Navy Hunts has "
                         "none (TOA-138)")
        if not any((b == sea and ex == 0) or (a == sea and ex == 2) for a, b, ex, _ in lanes):
            raise w.fail("no lane reaches 'Buy a Sea' through its S diamond, as the Navy rolling N does in the "
                         "worked example of Navy Hunts (TOA-138)")
    crew, explore = names.get("Crew Spirit Die"), names.get("Explore")
    if crew is not None and explore is not None:  # TOA-141: Crew Spirit Die -> Explore with the wind
        along = [wind if a == crew else -wind for a, b, _, wind in lanes if {a, b} == {crew, explore}]
        if along != [1]:
            raise w.fail("the lane from 'Crew Spirit Die' to 'Explore' must blow along (the Navy arrives on "
                         "Explore with the wind in the worked example of Navy Hunts, TOA-141)")


def _dice(cset: ComponentSet) -> dict:
    d, w = _read(cset, "dice.toml")
    crew = table(d, "crew", w)
    cw = w.at("[crew]")
    colour = choice_list(crew, "colour", cw, 1, 12, S.COLOURS)
    n = len(colour)
    resource = choice_list(crew, "resource", cw, n, n, S.RESOURCES)
    amount = int_list(crew, "amount", cw, n, n, 1, 5)
    number = int_list(crew, "number", cw, n, n, 0, 12)
    combat = choice_list(table(d, "combat", w), "faces", w.at("[combat]"), 1, 12, S.COMBAT_FACES)
    marauder = int_list(table(d, "marauder", w), "hits", w.at("[marauder]"), 1, 12, 0, 5)
    guardian = int_list(table(d, "guardian", w), "hits", w.at("[guardian]"), 1, 12, 0, 5)
    navy = choice_list(table(d, "navy", w), "faces", w.at("[navy]"), 1, 12, S.NAVY_FACES)
    missing = [S.COMBAT_FACES[f] for f in range(len(S.COMBAT_FACES)) if f not in combat]
    if missing:
        raise w.at("[combat]").fail(f"the combat die shows attack, defence, miss and wind faces; {', '.join(missing)} "
                                    "missing (3. Battle, TOA-223)")
    pink = [f for f in range(n) if colour[f] == S.COLOURS.index("pink")]
    if not pink or any(resource[f] != S.RES_GOLD or amount[f] != 2 for f in pink):
        raise cw.fail("the pink face gives 2 gold (the worked example of Crew Dice, TOA-059)")
    if not {4, 3, 1} <= set(number):
        raise cw.fail("the Numbers must include 4, 3 and 1 (the worked example of the Midnight Wager: 4 + 3 = 7 "
                      "against 1, TOA-152)")
    return {"colour": colour, "resource": resource, "amount": amount, "number": number, "combat": combat,
            "marauder": marauder, "guardian": guardian, "navy": navy}


def _ship(cset: ComponentSet) -> dict:
    d, w = _read(cset, "ship.toml")
    hold = table(d, "hold", w)
    hw = w.at("[hold]")
    upper = int_list(hold, "upper", hw, S.N_COLOURS, S.N_COLOURS, 0, 99)
    if upper[3] != 10:
        raise hw.fail(f"the 4th Upper Hold space is worth 10 (Treasure Hold), not {upper[3]}")
    if any(b < a for a, b in itertools.pairwise(upper)):
        raise hw.fail("'upper' values must not fall from left to right")
    lower = get_int(hold, "lower", hw, 1, 40)
    m = table(d, "matching", w)
    mw = w.at("[matching]")
    count = int_list(m, "count", mw, 1, 12, 2, 20)
    points = int_list(m, "points", mw, len(count), len(count), 0, 99)
    ups = table(d, "upgrades", w)
    tracks = []
    for t, name in enumerate(S.TRACKS):
        tw = w.at(f"[upgrades.{name}]")
        tr = ups.get(name)
        if not isinstance(tr, dict):
            raise tw.fail("is missing")
        cur = get_choice(tr, "currency", tw, ("gold", "rum"))
        cost = int_list(tr, "cost", tw, 0, 10, 1, 50)
        if t == S.UP_CREW and 5 + len(cost) > S.MAX_DICE:
            raise tw.fail(f"at most {S.MAX_DICE - 5} steps: a pirate owns at most {S.MAX_DICE} crew dice")
        tracks.append((cur, cost))
    wager = table(d, "wager", w)
    ww = w.at("[wager]")
    bribe = int_list(wager, "bribe", ww, S.MAX_PLAYERS, S.MAX_PLAYERS, 0, 20)
    if bribe[1] != 1:
        raise ww.fail(f"position 2's Bribe is 1 gold (the worked example in 1. Move), not {bribe[1]}")
    start_gold = int_list(wager, "start_gold", ww, S.MAX_PLAYERS, S.MAX_PLAYERS, 0, 20)
    start_rum = int_list(wager, "start_rum", ww, S.MAX_PLAYERS, S.MAX_PLAYERS, 0, 20)
    for i, (g, r) in enumerate(zip(start_gold, start_rum, strict=True)):
        if g + r == 0:
            raise ww.fail(f"position {i + 1} starts with nothing; every player collects the resources beside its "
                          "token (3. First Day Setup, TOA-036)")
    sloops = get_int(table(d, "fleet", w), "sloops", w.at("[fleet]"), 0, 10)
    return {"upper": upper, "lower": lower, "count": count, "points": points, "tracks": tracks, "bribe": bribe,
            "start_gold": start_gold, "start_rum": start_rum, "sloops": sloops}


def _decks(cset: ComponentSet, space_names: list[str], regions: tuple) -> dict:
    d, w = _read(cset, "decks.toml")
    tokens = int_list(d, "unlock_tokens", w, 1, 8, 0, 50)
    if any(b > a for a, b in itertools.pairwise(tokens)):
        raise w.fail("'unlock_tokens' are listed highest first (Unlock Endgame Bonus)")
    relics = []
    for i, e in enumerate(entries(d, "relic", w, 1, S.MAX_CARDS)):
        at = w.at(f"relic {i + 1} ({e.get('name')!r})")
        effect = get_choice(e, "effect", at, S.RELIC_EFFECTS)
        if effect < S.N_BONUS_EFFECTS:
            relics.append((effect, get_int(e, "amount", at, 1, 5)))
        elif "amount" in e:
            raise at.fail(f"'amount' is for bonus relics; {S.RELIC_EFFECTS[effect]} breaks a rule and has none (A68)")
        else:
            relics.append((effect, 1))
    monsters = []
    for i, e in enumerate(entries(d, "monster", w, 1, S.MAX_CARDS)):
        at = w.at(f"monster {i + 1} ({e.get('name')!r})")
        monsters.append((get_int(e, "dice", at, 1, 12), get_choice(e, "ability", at, S.ABILITIES),
                         get_choice(e, "reward", at, S.REWARDS), get_int(e, "reward_amount", at, 1, 10),
                         get_choice(e, "on_win", at, S.ON_WINS), get_int(e, "on_win_amount", at, 0, 10)))
    navy = []
    for i, e in enumerate(entries(d, "navy", w, 1, S.MAX_CARDS)):
        at = w.at(f"navy {i + 1} ({e.get('name')!r})")
        sp = e.get("space")
        if sp not in space_names:
            raise at.fail(f"'space' = {sp!r} names no space of the board{did_you_mean(sp, space_names)}")
        get_choice(e, "on_win", at, S.ON_WINS)
        if e.get("name") == "HMS Resolute" and get_int(e, "attack", at, 1, 12) < 6:
            raise at.fail("HMS Resolute rolls 6 swords in the worked example of Combat Outcomes: 'attack' must be "
                          "at least 6 (TOA-241)")
        navy.append((get_int(e, "attack", at, 1, 12), get_int(e, "defence", at, 1, 12), space_names.index(sp),
                     get_int(e, "reward", at, 0, 10), get_int(e, "on_win_amount", at, 0, 10)))
    burial = []
    for i, e in enumerate(entries(d, "burial", w, 1, S.MAX_CARDS)):
        at = w.at(f"burial {i + 1}")
        kind = get_choice(e, "kind", at, S.BURIAL_KINDS)
        if kind == S.BB_COLOUR:
            arg = get_choice(e, "colour", at, S.COLOURS)
        elif kind == S.BB_REGION:
            arg = get_choice(e, "region", at, regions)
        else:
            arg = get_int(e, "at_least", at, 1, 30)
        burial.append((kind, arg, get_int(e, "points", at, 0, 30)))
    endgame = []
    for i, e in enumerate(entries(d, "endgame", w, 4, S.MAX_CARDS)):
        at = w.at(f"endgame {i + 1} ({e.get('name')!r})")
        kind = get_choice(e, "kind", at, S.ENDGAME_KINDS)
        arg = get_choice(e, "colour", at, S.COLOURS) if kind == S.EG_COLOUR else 0
        endgame.append((kind, arg))
    return {"tokens": tokens, "relics": relics, "monsters": monsters, "navy": navy, "burial": burial,
            "endgame": endgame, "navy_names": [e.get("name") for e in d["navy"]],
            "endgame_names": [e.get("name") for e in d["endgame"]]}


@functools.cache
def load(value: str = "standard") -> Components:
    """The component set `value` ("standard", "alt-<name>" or a designer's folder), validated."""
    cset = ComponentSet.open(FOLDER, value)
    spaces, lanes, regions = _board(cset)
    decks = _decks(cset, [s[0] for s in spaces], regions)
    return Components(value, spaces, lanes, regions, _dice(cset), _ship(cset), decks, cset.raw(FILES))


def tide_order(comp: Components) -> list[int]:
    """Treasure slots in Rising Tide order: region by region as listed (top-left first, then
    clockwise), inside a region the northernmost space first and then clockwise around the
    region's centre; a two-slot space fills both of its slots in turn (Step 4: Rising Tide)."""
    out = []
    for r in range(len(comp.regions)):
        here = [i for i, s in enumerate(comp.spaces) if s[3] == r]
        cx = sum(comp.spaces[i][1] for i in here) / len(here)
        cy = sum(comp.spaces[i][2] for i in here) / len(here)
        first = min(here, key=lambda i: (comp.spaces[i][2], comp.spaces[i][1]))

        def bearing(i, cx=cx, cy=cy):  # degrees clockwise from north, y grows south
            return math.degrees(math.atan2(comp.spaces[i][1] - cx, cy - comp.spaces[i][2])) % 360

        b0 = bearing(first)
        for i in sorted(here, key=lambda i: ((bearing(i) - b0) % 360, i != first)):
            for k in range(comp.spaces[i][4]):
                out.append(2 * i + k)
    return out


def compile_arrays(comp: Components, values: dict, players: int) -> tuple:
    n = len(comp.spaces)
    K = np.zeros((S.K_ROWS, S.KW), dtype=np.int64)
    m = K[S.META]
    m[S.N_SPACES] = n
    m[S.N_SLOTS] = sum(s[4] for s in comp.spaces)
    per_colour = {2: values["bag_2p"], 3: 6, 4: 8}[players]  # Board Setup 2 (2 players: A11)
    m[S.BAG_PER_COLOUR] = per_colour
    ship, dice, decks = comp.ship, comp.dice, comp.decks
    m[S.LOWER_CAP] = ship["lower"]
    m[S.SLOOPS_START] = ship["sloops"]
    m[S.N_REGIONS] = len(comp.regions)
    for i, (_name, _x, _y, region, slots, action, start) in enumerate(comp.spaces):
        K[S.SP_SLOTS, i] = slots
        K[S.SP_ACTION, i] = action
        K[S.SP_REGION, i] = region
        K[S.SP_START, i] = 1 if start else 0
        if start:
            K[S.REGION_START, region] = i
    K[S.EXIT0: S.EXIT0 + 4, :] = -1
    adj: dict[int, list] = {i: [] for i in range(n)}
    for a, b, ex, wind in comp.lanes:
        adj[a].append(b)
        adj[b].append(a)
        K[S.EXIT0 + ex, a] = b
        K[S.EXIT0 + (ex + 2) % 4, b] = a
        K[S.WIND0 + a, b] = wind
        K[S.WIND0 + b, a] = -wind
    for i in range(n):
        K[S.SP_ADJ_N, i] = len(adj[i])
        for j, b in enumerate(sorted(adj[i])):
            K[S.ADJ0 + j, i] = b
    for a in range(n):
        dist = [S.FAR] * n
        dist[a] = 0
        q = deque([a])
        while q:
            x = q.popleft()
            for y in adj[x]:
                if dist[y] == S.FAR:
                    dist[y] = dist[x] + 1
                    q.append(y)
        K[S.DIST0 + a, :n] = dist
    tide = tide_order(comp)
    m[S.N_TIDE] = len(tide)
    K[S.TIDE, : len(tide)] = tide
    m[S.N_CREW_FACES] = len(dice["colour"])
    for f in range(len(dice["colour"])):
        K[S.CREW_COLOUR, f] = dice["colour"][f]
        K[S.CREW_RES, f] = dice["resource"][f]
        K[S.CREW_AMOUNT, f] = dice["amount"][f]
        K[S.CREW_NUMBER, f] = dice["number"][f]
    m[S.N_COMBAT_FACES] = len(dice["combat"])
    K[S.COMBAT_FACE, : len(dice["combat"])] = dice["combat"]
    m[S.N_MARAUDER] = len(dice["marauder"])
    K[S.MARAUDER_HITS, : len(dice["marauder"])] = dice["marauder"]
    m[S.N_GUARDIAN] = len(dice["guardian"])
    K[S.GUARDIAN_HITS, : len(dice["guardian"])] = dice["guardian"]
    m[S.N_NAVY_FACES] = len(dice["navy"])
    K[S.NAVY_FACE, : len(dice["navy"])] = dice["navy"]
    K[S.UPPER_VALUE, 1: 1 + S.N_COLOURS] = ship["upper"]
    for c, p in zip(ship["count"], ship["points"], strict=True):
        K[S.MATCH_POINTS, c] = p
    for c in range(max(ship["count"]) + 1, S.KW):  # more of one colour than the card lists: its top value
        K[S.MATCH_POINTS, c] = ship["points"][-1]
    K[S.UP_COST0: S.UP_COST0 + 4, :] = -1
    for t, (cur, cost) in enumerate(ship["tracks"]):
        K[S.UP_CURRENCY, t] = cur
        K[S.UP_COST0 + t, : len(cost)] = cost
    K[S.BRIBE, : S.MAX_PLAYERS] = ship["bribe"]
    K[S.START_GOLD, : S.MAX_PLAYERS] = ship["start_gold"]
    K[S.START_RUM, : S.MAX_PLAYERS] = ship["start_rum"]
    m[S.N_RELIC_CARDS] = len(decks["relics"])
    for i, (e, a) in enumerate(decks["relics"]):
        K[S.RELIC_EFFECT, i] = e
        K[S.RELIC_AMOUNT, i] = a
    m[S.N_MONSTERS] = len(decks["monsters"])
    strengths = sorted(dn for dn, *_ in decks["monsters"])  # the median's two middle values (one, twice, if odd)
    m[S.MON_MIDDLE2] = strengths[(len(strengths) - 1) // 2] + strengths[len(strengths) // 2]
    for i, (dn, ab, rk, ra, ok, oa) in enumerate(decks["monsters"]):
        K[S.MON_DICE, i] = dn
        K[S.MON_ABILITY, i] = ab
        K[S.MON_REWARD, i] = rk
        K[S.MON_REWARD_N, i] = ra
        K[S.MON_ON_WIN, i] = ok
        K[S.MON_ON_WIN_N, i] = oa
    m[S.N_NAVY] = len(decks["navy"])
    for i, (a, dn, sp, r, o) in enumerate(decks["navy"]):
        K[S.NAVY_ATTACK, i] = a
        K[S.NAVY_DEFENCE, i] = dn
        K[S.NAVY_SPACE, i] = sp
        K[S.NAVY_REWARD, i] = r
        K[S.NAVY_ON_WIN_N, i] = o
    m[S.N_BURIAL] = len(decks["burial"])
    for i, (k, a, p) in enumerate(decks["burial"]):
        K[S.BB_KIND, i] = k
        K[S.BB_ARG, i] = a
        K[S.BB_POINTS, i] = p
    m[S.N_ENDGAME] = len(decks["endgame"])
    for i, (k, a) in enumerate(decks["endgame"]):
        K[S.EG_KIND, i] = k
        K[S.EG_ARG, i] = a
    m[S.N_TOKENS] = len(decks["tokens"])
    K[S.TOKENS, : len(decks["tokens"])] = decks["tokens"]
    return (K,)
