"""Ships and crew: crew rolls and fortune rerolls, crew defeat (and saving a crew member with a
resource), the tasks before an action (Revive, Sail, Repair, Bail), rising waters, sinking and
respawn."""

import numpy as np

from simkit.core.jit import jit
from simkit.core.kernels import decide, nth_option, option, pick_option
from simkit.core.rng import CHANCE, randint
from simkit.games.sea_of_thieves import events as EV
from simkit.games.sea_of_thieves import state as S
from simkit.games.sea_of_thieves.engine import hexes
from simkit.games.sea_of_thieves.engine.cargo import spend_resource, to_hex
from simkit.games.sea_of_thieves.engine.common import deck_bottom, log_event, plays_random
from simkit.games.sea_of_thieves.engine.voyages import abandon_voyage, on_sinking
from simkit.games.sea_of_thieves.state import SEAT0, SHIP0
from strategies import sea_of_thieves as bot

ZERO = np.int64(0)
ONE = np.int64(1)


@jit(inline="always", runtime=False)
def die_successes(face):
    """1-2 nothing, 3-5 one success, 6 two (Crew Rolls)."""
    if face <= 2:
        return 0
    if face == 6:
        return 2
    return 1


@jit(runtime=False)
def discard_fortune(T, seat, i):
    """Discard the i-th fortune card of the seat's hand to the bottom of the deck; its id."""
    n = T[SEAT0 + seat, S.FORT_N] - 1
    card = T[S.FHAND0 + seat, i]
    T[S.FHAND0 + seat, i] = T[S.FHAND0 + seat, n]
    T[SEAT0 + seat, S.FORT_N] = n
    deck_bottom(T, S.FORTUNE_DECK, S.FORTUNE_HEAD, S.FORTUNE_N, np.int64(S.MAX_FORTUNE), card)
    return card


@jit(runtime=False)
def use_lucky_charm(T, seat):
    """Discard a Cutthroats' Corner card kept in front of the seat to the bottom of the event deck;
    its id (reported as -100 - id in the reroll's log row)."""
    for c in range(S.MAX_EVENTS):
        if T[S.KEPT_BY, c] == seat:
            T[S.KEPT_BY, c] = -1
            T[SEAT0 + seat, S.KEPT] -= 1
            deck_bottom(T, S.EVENT_DECK, S.EVENT_HEAD, S.EVENT_N, np.int64(S.MAX_EVENTS), c)
            return np.int64(-100 - c)
    return np.int64(-1)


@jit(runtime=False)
def crew_roll(T, K, F, rng, log, k):
    """Successes of a crew roll for ship k: a die per face-up crew and special crew token. The
    roller may discard fortune cards, one per reroll, to reroll any dice, again and again
    (Fortune Cards); the bots reroll the dice that failed."""
    seat = k // 2
    n = S.crew_dice(T, k)
    for i in range(n):
        T[S.DICE, i] = 1 + randint(rng, CHANCE, np.int64(6))
    while T[SEAT0 + seat, S.FORT_N] > 0 or T[SEAT0 + seat, S.KEPT] > 0:
        failures = np.int64(0)  # typed: a literal 0 would compile the bot's reroll_card once more
        for i in range(n):
            if T[S.DICE, i] <= 2:
                failures += 1
        if failures == 0:
            break
        if plays_random(F, rng, seat):
            if decide(rng, seat, np.int64(2)) == 0:
                break
            card_i = decide(rng, seat, T[SEAT0 + seat, S.FORT_N] + T[SEAT0 + seat, S.KEPT])
            if card_i >= T[SEAT0 + seat, S.FORT_N]:
                card_i = -1
        else:
            card_i = bot.reroll_card(T, K, F, seat, failures)
            if card_i < 0 and (T[SEAT0 + seat, S.KEPT] == 0 or not bot.use_charm(T, F, k, failures)):
                break
        if card_i < 0:
            card = use_lucky_charm(T, seat)  # a kept event card rerolls like a fortune card (A46)
        else:
            card = discard_fortune(T, seat, card_i)
        for i in range(n):
            if T[S.DICE, i] <= 2:
                T[S.DICE, i] = 1 + randint(rng, CHANCE, np.int64(6))
        log_event(T, log, seat, EV.REROLL, k, failures, card)
    total = np.int64(0)
    for i in range(n):
        total += die_successes(T[S.DICE, i])
    log_event(T, log, seat, EV.ROLL, k, n, total)
    return total


@jit(runtime=False)
def face_up(T, k):
    return S.crew_dice(T, k)


@jit(runtime=False)
def defeat_crew(T, K, F, rng, log, k, n):
    """n crew members of ship k are defeated, one at a time. Before each, the player may discard
    a resource from this ship's hold to prevent it (Resources); otherwise the player flips a
    face-up token of their choice (Crew). Defeats beyond the face-up tokens are lost (A19)."""
    seat = k // 2
    for _ in range(n):
        up = face_up(T, k)
        if up == 0:
            return
        if T[SHIP0 + k, S.RES_N] > 0:
            save = decide(rng, seat, np.int64(2)) == 1 if plays_random(F, rng, seat) else bot.save_crew(T, F, k)
            if save:
                spend_resource(T, K, k)
                log_event(T, log, seat, EV.DEFEAT, k, np.int64(-1), up)
                continue
        # which token: any face-up one, the CREW_UP alike crew tokens first, then the special
        # crew by slot; the bots give up a normal crew token before a special one
        specials = np.int64(0)
        for i in range(S.MAX_SLOTS):
            if T[SHIP0 + k, S.SPEC0 + i] >= 0 and T[SHIP0 + k, S.SPEC_DOWN0 + i] == 0:
                specials |= option(i)
        pick = decide(rng, seat, up) if plays_random(F, rng, seat) else np.int64(0)
        if pick < T[SHIP0 + k, S.CREW_UP]:
            T[SHIP0 + k, S.CREW_UP] -= 1
            T[SHIP0 + k, S.CREW_DOWN] += 1
            log_event(T, log, seat, EV.DEFEAT, k, ZERO, up - 1)
            continue
        slot = nth_option(specials, pick - T[SHIP0 + k, S.CREW_UP])
        if slot >= 0:
            T[SHIP0 + k, S.SPEC_DOWN0 + slot] = 1
        log_event(T, log, seat, EV.DEFEAT, k, ONE, up - 1)


@jit(runtime=False)
def revive_all(T, k):
    """Defeated tokens must take the Revive task: they are face up again before the roll."""
    n = T[SHIP0 + k, S.CREW_DOWN]
    T[SHIP0 + k, S.CREW_UP] += n
    T[SHIP0 + k, S.CREW_DOWN] = 0
    for i in range(S.MAX_SLOTS):
        T[SHIP0 + k, S.SPEC_DOWN0 + i] = 0
    return n


@jit(runtime=False)
def legal_tasks(T, K, k):
    """Tasks a face-up token may take: T[SCRATCH, 0..n) of T_NONE, T_SAIL (one per free direction is
    chosen later), T_REPAIR (needs a resource and damage: A20), T_BAIL (needs water above the lowest)."""
    n = 0
    T[S.SCRATCH, n] = S.T_NONE
    n += 1
    h = T[SHIP0 + k, S.HEX]
    for d in range(6):
        if hexes.can_end(T, K, k, K[S.NEXT0 + d, h]) and K[S.NEXT0 + d, h] != h:
            T[S.SCRATCH, n] = S.T_SAIL
            n += 1
            break
    if T[SHIP0 + k, S.RES_N] > 0 and T[SHIP0 + k, S.DAMAGE] > 0:
        T[S.SCRATCH, n] = S.T_REPAIR
        n += 1
    if T[SHIP0 + k, S.WATER] > 0:
        T[S.SCRATCH, n] = S.T_BAIL
        n += 1
    return n


@jit(runtime=False)
def sail_task(P, T, K, F, rng, log, k, goal, hexes_n, first):
    """Sail: move into an adjacent hex (each Sail task is its own move, so it ends there and takes
    no treacherous damage: A12). A Scout's task may repeat the step. `first`: the bots' first
    step, when the task's choice worked it out already (else -1)."""
    seat = k // 2
    for i in range(hexes_n):
        h = T[SHIP0 + k, S.HEX]
        if plays_random(F, rng, seat):
            options = np.int64(0)  # the directions it may sail in
            for d in range(6):
                x = K[S.NEXT0 + d, h]
                if x >= 0 and hexes.can_end(T, K, k, x):
                    options |= option(d)
            if options == 0:
                return
            dest = K[S.NEXT0 + pick_option(options, rng, seat), h]
        else:
            dest = first if i == 0 and first >= 0 else bot.step_toward(T, K, h, goal)
            if dest == h:
                return
        hexes.end_move(P, T, K, F, rng, log, k, dest)
        log_event(T, log, seat, EV.MOVE, k, h, dest)


@jit(runtime=False)
def do_tasks(P, T, K, F, rng, log, k, goal):
    """Every crew token of ship k takes one task before the action (Tasks). Defeated tokens
    revive; each face-up token (special crew too: A21) may sail, repair or bail. Returns False
    when nothing changed on the board but the log: no token revived and no task taken."""
    seat = k // 2
    workers = S.crew_dice(T, k)
    revived = revive_all(T, k)
    changed = S.crew_dice(T, k) != workers  # a crew or special crew token turned face up
    if revived > 0:
        log_event(T, log, seat, EV.TASK, k, np.int64(S.T_REVIVE), revived)
    scouts = S.special_amount(T, K, k, np.int64(S.E_SCOUT))
    carpenters = S.special_amount(T, K, k, np.int64(S.E_CARPENTER))
    for i in range(workers):
        if T[SHIP0 + k, S.HEX] < 0:
            return True
        step = np.int64(-1)
        if plays_random(F, rng, seat):
            n = legal_tasks(T, K, k)
            task = T[S.SCRATCH, decide(rng, seat, n)]
        else:
            task, step = bot.task_for(T, K, k, goal)
        if task == S.T_SAIL:
            # the first Scouts' tokens move further (A9): one extra hex per Scout on board
            extra = scouts if i == 0 else 0
            sail_task(P, T, K, F, rng, log, k, goal, np.int64(1 + extra), step)
        elif task == S.T_REPAIR:
            if spend_resource(T, K, k):
                T[SHIP0 + k, S.DAMAGE] = max(0, T[SHIP0 + k, S.DAMAGE] - 1 - carpenters)
        elif task == S.T_BAIL:
            T[SHIP0 + k, S.WATER] = max(0, T[SHIP0 + k, S.WATER] - 1)
        if task != S.T_NONE:
            changed = True
            log_event(T, log, seat, EV.TASK, k, task, T[SHIP0 + k, S.HEX])
    return changed


@jit(runtime=False)
def sink_ship(P, T, K, F, rng, log, k):
    """The ship sinks (Sinking Ships): its standee leaves the board, its cargo is left face up in
    the hex, its voyage is abandoned with the penalty, its special crew cards are discarded and
    their tokens replaced by crew tokens; upgrades stay."""
    seat = k // 2
    h = T[SHIP0 + k, S.HEX]
    left = np.int64(0)
    for t in range(K[S.META, S.N_TOKENS]):
        if T[S.TOK_LOC, t] == S.HOLD + k:
            to_hex(T, K, t, h)
            left += 1
    log_event(T, log, seat, EV.SINK, k, h, left)
    hexes.set_ship_hex(T, k, np.int64(-1))
    T[SEAT0 + seat, S.SINKINGS] += 1
    if T[SHIP0 + k, S.LAST_HIT] == S.HAZARD:  # the last damage came from an enemy or an event
        T[SEAT0 + seat, S.HAZARD_SINKS] += 1
    abandon_voyage(P, T, K, log, k)
    for i in range(S.MAX_SLOTS):
        c = T[SHIP0 + k, S.SPEC0 + i]
        if c >= 0:
            deck_bottom(T, S.CREW_DECK, S.CREW_HEAD, S.CREW_N, np.int64(S.MAX_CREW_CARDS), c)
            T[SHIP0 + k, S.SPEC0 + i] = -1
            T[SHIP0 + k, S.SPEC_DOWN0 + i] = 0
            T[SHIP0 + k, S.CREW_UP] += 1
    on_sinking(P, T, K, rng, log, k)
    T[SHIP0 + k, S.LAST_HIT] = -1


@jit(runtime=False)
def rising_waters(P, T, K, F, rng, log, seat):
    """Step C: each of the player's ships takes on one water space per damage token; at the top of
    the gauge it sinks (Rising Waters; damage counted per point: A12)."""
    for k in range(2 * seat, 2 * seat + 2):
        if T[SHIP0 + k, S.HEX] < 0 or T[SHIP0 + k, S.DAMAGE] == 0:
            continue
        T[SHIP0 + k, S.WATER] += T[SHIP0 + k, S.DAMAGE]
        g = S.gauge(T, K, k)
        log_event(T, log, seat, EV.RISING, k, min(T[SHIP0 + k, S.WATER], g), g)
        if T[SHIP0 + k, S.WATER] >= g:
            T[SHIP0 + k, S.WATER] = g
            sink_ship(P, T, K, F, rng, log, k)


@jit(runtime=False)
def respawn(P, T, K, F, rng, log, seat):
    """Step A (from round 2): the player's sunk ships return together on one island hex of a
    random sea tile that has room for them, rerolling a tile without one (Sunken Ship Respawn;
    the room counts standees: A22). Crew face up, damage gone, water at the lowest space."""
    need = 0
    for k in range(2 * seat, 2 * seat + 2):
        if T[SHIP0 + k, S.HEX] < 0:
            need += 1
    if need == 0:
        return
    best = -1
    pos = 0
    for _ in range(200):
        pos = hexes.roll_sea_tile(T, rng)
        options = np.int64(0)  # the tile's island hexes with room for them
        for i in range(S.TILE_HEXES):
            h = pos * S.TILE_HEXES + i
            if T[S.HEX_TYPE, h] == S.ISLAND and T[S.HEX_STANDEES, h] + need <= 2:
                options |= option(i)
        if options == 0:
            continue
        if plays_random(F, rng, seat):
            best = pos * S.TILE_HEXES + pick_option(options, rng, seat)
        else:
            best = bot.respawn_hex(T, K, F, seat, pos, options)
        break
    if best < 0:  # every tile full for 200 rolls: the Outpost hex (A22)
        best = bot.OUTPOST_HEX
    for k in range(2 * seat, 2 * seat + 2):
        if T[SHIP0 + k, S.HEX] < 0:
            hexes.set_ship_hex(T, k, best)
            revive_all(T, k)
            T[SHIP0 + k, S.DAMAGE] = 0
            T[SHIP0 + k, S.WATER] = 0
            log_event(T, log, seat, EV.RESPAWN, k, best, pos)
