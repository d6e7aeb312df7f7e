"""Trade at the Outpost, its five stages in order (each optional): sell cargo (with commissions:
three chests, skulls or crates in one trade, Mermaid Gems wild, +2 reputation a set), repair
(water to the lowest space free, 100 gold per damage token), upgrade (only undamaged and dry;
1,200 Sloop to Brigantine, 1,800 Brigantine to Galleon, several in one stage), hire special
crew from the Outpost's face-up cards, and seek three voyage cards keeping those paid for."""

import numpy as np

from simkit.core.jit import jit
from simkit.core.kernels import decide
from simkit.games.sea_of_thieves import events as EV
from simkit.games.sea_of_thieves import state as S
from simkit.games.sea_of_thieves.engine.cargo import to_bag
from simkit.games.sea_of_thieves.engine.common import deck_bottom, deck_draw, gain_reputation, log_event, plays_random
from simkit.games.sea_of_thieves.engine.voyages import discard_voyage
from simkit.games.sea_of_thieves.state import SEAT0, SHIP0
from strategies import sea_of_thieves as bot

ZERO = np.int64(0)
ONE = np.int64(1)


@jit(runtime=False)
def commissions(chests, skulls, crates, gems, set_size):
    """The most sets of `set_size` of one type that these sold tokens make, gems standing in for
    any type (Claiming Commissions). Fill the sets closest to complete first."""
    sets = chests // set_size + skulls // set_size + crates // set_size
    g = gems
    for need in range(1, set_size):
        for rem in (chests % set_size, skulls % set_size, crates % set_size):
            if rem > 0 and set_size - rem == need and g >= need:
                g -= need
                sets += 1
    return sets + g // set_size


@jit(runtime=False)
def sell_stage(P, T, K, F, rng, log, k):
    """Stage 1: sell any of the hold's tokens for their value back into their bags. The bots
    sell every token but resources."""
    seat = k // 2
    sold = 0
    gold = 0
    # typed: literal zeros would compile commissions once more, for those values
    c_chest = np.int64(0)
    c_skull = np.int64(0)
    c_crate = np.int64(0)
    c_gem = np.int64(0)
    rep = 0
    left = T[SHIP0 + k, S.HOLD_N]  # the hold's tokens not yet looked at (HOLD_N counts them: to_hold, leave)
    for t in range(K[S.META, S.N_TOKENS]):
        if left == 0:
            break
        if T[S.TOK_LOC, t] != S.HOLD + k:
            continue
        left -= 1
        kind = K[S.TOK_KIND, t]
        if plays_random(F, rng, seat):
            if decide(rng, seat, np.int64(2)) == 0:
                continue
        elif kind == S.RESOURCE:
            continue
        sold += 1
        gold += K[S.TOK_VALUE, t]
        if kind == S.CHEST:
            c_chest += 1
        elif kind == S.SKULL:
            c_skull += 1
        elif kind == S.CRATE:
            c_crate += 1
        elif kind == S.GEM:
            c_gem += 1
        elif kind == S.CAPTAIN:
            rep += K[S.TOK_REP, t]  # captain's treasure earns its reputation too (Skeleton Captains)
        to_bag(T, K, t)
    if sold == 0:
        return
    T[SEAT0 + seat, S.GOLD] += gold
    log_event(T, log, seat, EV.SELL, k, np.int64(sold), np.int64(gold))
    if rep > 0:
        log_event(T, log, seat, EV.CAPTAIN_SOLD, k, np.int64(rep), ZERO)
        gain_reputation(P, T, log, seat, np.int64(rep))
    n = commissions(c_chest, c_skull, c_crate, c_gem, P.commission_set)
    if n > 0:
        T[SEAT0 + seat, S.COMMISSIONS] += n
        log_event(T, log, seat, EV.COMMISSION, k, n, n * P.commission_reputation)
        gain_reputation(P, T, log, seat, n * P.commission_reputation)


@jit(runtime=False)
def repair_stage(P, T, K, F, rng, log, k):
    """Stage 2: water back to the lowest space, then damage tokens off at repair_cost each."""
    seat = k // 2
    T[SHIP0 + k, S.WATER] = 0
    dmg = T[SHIP0 + k, S.DAMAGE]
    afford = T[SEAT0 + seat, S.GOLD] // P.repair_cost if P.repair_cost > 0 else dmg
    most = min(dmg, afford)
    n = decide(rng, seat, most + 1) if plays_random(F, rng, seat) else most
    if n > 0:
        T[SHIP0 + k, S.DAMAGE] -= n
        T[SEAT0 + seat, S.GOLD] -= n * P.repair_cost
        log_event(T, log, seat, EV.REPAIR, k, n, n * P.repair_cost)


@jit(runtime=False)
def can_upgrade(P, T, K, k):
    """Upgrade needs no damage, water at the lowest space, the gold, and a bigger ship to go to."""
    r = SHIP0 + k
    if T[r, S.DAMAGE] > 0 or T[r, S.WATER] > 0 or not S.may_upgrade(P, T, k):
        return False
    return T[SEAT0 + k // 2, S.GOLD] >= S.upgrade_cost(P, T, k)


@jit(runtime=False)
def upgrade(P, T, K, log, k):
    """Sloop -> Brigantine -> Galleon: cargo and crew stay, one more crew token joins face up."""
    cost = S.upgrade_cost(P, T, k)
    T[SEAT0 + k // 2, S.GOLD] -= cost
    T[SHIP0 + k, S.TYPE] += 1
    T[SHIP0 + k, S.CREW_UP] += 1
    T[SEAT0 + k // 2, S.UPGRADES] += 1
    log_event(T, log, k // 2, EV.UPGRADE, k, T[SHIP0 + k, S.TYPE], cost)


@jit(runtime=False)
def upgrade_stage(P, T, K, F, rng, log, k):
    seat = k // 2
    while can_upgrade(P, T, K, k):
        if plays_random(F, rng, seat):
            if decide(rng, seat, np.int64(2)) == 0:
                return
        elif not bot.wants_upgrade(P, T, F, k, ZERO):
            return
        upgrade(P, T, K, log, k)


@jit(runtime=False)
def hire(P, T, K, log, k, slot):
    """Take the market card in `slot` for its cost; its token replaces a crew token (a defeated
    one first: A23), or a special crew token whose card is discarded."""
    seat = k // 2
    card = T[S.MARKET, slot]
    T[S.MARKET, slot] = -1
    T[SEAT0 + seat, S.GOLD] -= K[S.C_COST, card]
    if T[SHIP0 + k, S.CREW_DOWN] > 0:
        T[SHIP0 + k, S.CREW_DOWN] -= 1
    elif T[SHIP0 + k, S.CREW_UP] > 0:
        T[SHIP0 + k, S.CREW_UP] -= 1
    else:
        for i in range(S.MAX_SLOTS):  # every slot holds special crew: replace the first
            old = T[SHIP0 + k, S.SPEC0 + i]
            if old >= 0:
                deck_bottom(T, S.CREW_DECK, S.CREW_HEAD, S.CREW_N, np.int64(S.MAX_CREW_CARDS), old)
                T[SHIP0 + k, S.SPEC0 + i] = -1
                break
    for i in range(S.MAX_SLOTS):
        if T[SHIP0 + k, S.SPEC0 + i] < 0:
            T[SHIP0 + k, S.SPEC0 + i] = card
            T[SHIP0 + k, S.SPEC_DOWN0 + i] = 0
            break
    log_event(T, log, seat, EV.HIRE, k, card, K[S.C_COST, card])


@jit(runtime=False)
def hire_stage(P, T, K, F, rng, log, k):
    seat = k // 2
    for slot in range(P.market_size):
        card = T[S.MARKET, slot]
        if card < 0 or T[SEAT0 + seat, S.GOLD] < K[S.C_COST, card]:
            continue
        if plays_random(F, rng, seat):
            if decide(rng, seat, np.int64(4)) != 0:
                continue
        else:
            if T[SHIP0 + k, S.CREW_UP] + T[SHIP0 + k, S.CREW_DOWN] == 0:
                continue  # the bots never replace special crew
            if (bot.w(F, seat, bot.W_UPGRADE) > 0.0 and T[SHIP0 + k, S.TYPE] == S.SLOOP
                    and T[SEAT0 + seat, S.GOLD] - K[S.C_COST, card] < P.brigantine_cost):
                continue  # saving for the first upgrade
            if bot.hire_worth(T, K, F, k, card) <= 0.0:
                continue
            if T[SEAT0 + seat, S.GOLD] - K[S.C_COST, card] < bot.w(F, seat, bot.W_RESERVE):
                continue
        hire(P, T, K, log, k, slot)


@jit(runtime=False)
def seek_stage(P, T, K, F, rng, log, k):
    """Stage 5: draw seek_draw cards, each from a voyage deck of the player's choice; keep any by
    paying their price, the rest go to the bottom of their decks."""
    seat = k // 2
    if not plays_random(F, rng, seat) and T[SEAT0 + seat, S.VOY_N] >= 2:
        return  # the bots seek only with fewer than two voyages in hand
    for i in range(P.seek_draw):
        if plays_random(F, rng, seat):
            tier = decide(rng, seat, np.int64(3))
        else:
            tier = bot.seek_tier(P, T, F, k, i)
        v = deck_draw(T, S.VOY_DECK0 + tier, S.VOY_HEAD0 + 2 * tier, S.VOY_N0 + 2 * tier, np.int64(S.MAX_VOYAGES))
        if v < 0:
            continue
        price = K[S.V_PRICE, v]
        if plays_random(F, rng, seat):
            keep = T[SEAT0 + seat, S.GOLD] >= price and decide(rng, seat, np.int64(2)) == 1
        else:
            keep = bot.keep_voyage(P, T, K, F, k, v)
        if keep:
            T[SEAT0 + seat, S.GOLD] -= price
            T[S.VHAND0 + seat, T[SEAT0 + seat, S.VOY_N]] = v
            T[SEAT0 + seat, S.VOY_N] += 1
            log_event(T, log, seat, EV.SEEK, v, ONE, price)
        else:
            discard_voyage(T, K, v)
            log_event(T, log, seat, EV.SEEK, v, ZERO, ZERO)


@jit(runtime=False)
def trade(P, T, K, F, rng, log, k):
    """The Trade action (only in the Outpost hex): the five stages in order."""
    sell_stage(P, T, K, F, rng, log, k)
    repair_stage(P, T, K, F, rng, log, k)
    upgrade_stage(P, T, K, F, rng, log, k)
    hire_stage(P, T, K, F, rng, log, k)
    seek_stage(P, T, K, F, rng, log, k)
