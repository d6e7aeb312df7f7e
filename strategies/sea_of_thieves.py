"""Sea of Thieves bots: one compiled heuristic policy, presets as weight rows
(docs/architecture.md, "The game package contract").

Each ship follows a plan recomputed at every decision: a goal hex and an intent (trade at the
Outpost, work on its voyage, loot an island, hunt a rival ship). Crew tasks, the action, the
Full Sail line, Plunder entries, rerolls, crew saves and every Trade stage follow from it.
The policy reads only what its player sees: its own hand and holds, every ship's hex, type,
damage, water and hold size (holds are face down; their size is public), cargo and
skeletons lying on the board, reputation and gold (A18), and the Outpost's face-up cards.
Policy 0 (`random`) never calls these helpers: the engine chooses uniformly instead.
"""

from pathlib import Path

import numpy as np

from simkit.core.bots import HEURISTIC_POLICY, RANDOM_POLICY, BotParam
from simkit.core.bots import LOOKAHEAD as LOOKAHEAD_TIER
from simkit.core.bots import RANDOM as BASELINE
from simkit.core.game import Preset, with_tuned
from simkit.core.jit import jit
from simkit.core.kernels import NO_BEST, NO_LEAST, join_best, offers
from simkit.games.sea_of_thieves import state as S
from simkit.games.sea_of_thieves.state import SEAT0, SHIP0, ST, dist, gauge, hold_value

# preset weight slots
POLICY = 0  # the policy code (simkit.core.bots: RANDOM_POLICY, HEURISTIC_POLICY, LOOKAHEAD_POLICY)
# the lookahead and expert rows keep HEURISTIC_POLICY: W_ROLLOUTS > 0 marks a lookahead seat (chunk.play_round)
W_TIER0 = 1  # liking for meagre voyages (seeking and starting)
W_TIER1 = 2  # valuable
W_TIER2 = 3  # legendary
W_UPGRADE = 4  # 1: upgrade ships when the gold allows
W_RESERVE = 5  # gold kept back after an upgrade or a hire
W_HIRE = 6  # 1: hire special crew
W_HUNT = 7  # 1: fire on rival ships carrying cargo and haul what they leave
W_SELL_AT = 8  # hold value (gold) that sends a ship to the Outpost
W_KEEP_FORTUNE = 9  # fortune cards kept back from rerolls
W_SAVE_KEEP = 10  # resources kept back from saving crew (save while holding more)
W_ABANDON = 11  # actions after which an unfinished voyage is abandoned
W_FIGHT_VOY = 12  # liking for Order of Souls voyages (fight skeletons, sink ships)
W_LAST_LOOT = 13  # 1: spend the last Plunder success on Loot (the tips warn against it)
W_LEGEND_TYPE = 14  # ship type needed before legendary voyages are sought
W_ENEMIES = 15  # enemies: 0 never fights them, 0.5 fires on a Skeleton Sloop met in passing, 1 hunts them, 2 also forts
W_BRAVE_TYPE = 16  # ship type from which the Skeleton Galleon, the Megalodon and the Kraken are fought, not fled
W_ROLLOUTS = 17  # lookahead: rollouts per plan (0: no lookahead; lookahead.py)
W_HORIZON = 18  # lookahead: rounds a rollout plays after the turn's round
W_RACE = 19  # lookahead: a plan trailing the best by this many standard errors stops (0: none; kernels.race_prune)
W_PLAN1 = 20  # lookahead: the preset row (in preset order) of the second plan; the first is the seat's own weights
W_PLAN2 = 21  # lookahead: the third plan's preset row (0: no such plan; row 0 is random, never a plan)
W_PLAN3 = 22  # lookahead: the fourth plan's preset row (0: none)
W_MARGIN = 23  # lookahead: another plan is played only when its mean rollout value beats the own plan's by this
W_EVERY = 24  # lookahead: plans are compared only in rounds 0, n, 2n, ... (0 or 1: every round); else the own plan
W_AGREE = 25  # lookahead: 1: when every plan's turn in the first rollout ends as the own plan's, play the own plan
W_WORTH = 26  # lookahead: 1: an unfinished rollout also counts cargo, spare gold and voyages under way (lookahead.worth)
N_WEIGHTS = 27
MAX_ROLLOUTS = 32
PLAN_SLOTS = (W_PLAN1, W_PLAN2, W_PLAN3)
MAX_PLANS = 1 + len(PLAN_SLOTS)
VARIANT = 1000  # a plan slot from VARIANT on: VARIANT * weight slot + value, the own weights with that weight changed
N_PLAN_WEIGHTS = W_BRAVE_TYPE + 1  # the heuristic's weights: what a plan sets and what the rollout seats copy
NOISE = N_WEIGHTS  # the strategy row's last column: its noise (simkit.core.game, the skill knob)

#           pol  tier0 tier1 tier2 upg  reserve hire hunt sell_at keep save abandon fightv last legend enemies brave
RANDOM = (RANDOM_POLICY, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
MERCHANT = (HEURISTIC_POLICY, 2.0, 1.5, 1.0, 1.0, 100.0, 0.0, 0.0, 300.0, 1.0, 0.0, 10.0, 0.3, 1.0, 2.0, 0.5, 1.0)
HUNTER = (HEURISTIC_POLICY, 1.5, 1.5, 1.0, 1.0, 200.0, 1.0, 1.0, 600.0, 1.0, 0.0, 12.0, 2.0, 0.0, 1.0, 2.0, 1.0)
LEGEND = (HEURISTIC_POLICY, 0.7, 1.5, 4.0, 1.0, 200.0, 1.0, 0.0, 500.0, 2.0, 1.0, 16.0, 1.0, 0.0, 1.0, 1.0, 1.0)
# the plans a lookahead seat chooses among each turn: its own weights (the merchant's), then the
# hunter's and the legend chaser's (rows 2 and 3 of PRESETS)
PLANS = np.array((MERCHANT, HUNTER, LEGEND), dtype=np.float64)
HUNTER_ROW, LEGEND_ROW = 2, 3
#                            rollouts horizon race (4, 2 gave +14.3 points over the merchant at 2p; 8, 3 gave +19.4)
LOOKAHEAD = MERCHANT + (8.0, 3.0, 1.0, HUNTER_ROW, LEGEND_ROW, 0.0, 0.0, 0.0, 0.0, 0.0)

PRESETS = (
    Preset("random", "uniform over legal choices (the baseline)", RANDOM, BASELINE),
    Preset("merchant", "meagre voyages, sells often, upgrades early (the tips' first plan); flees the big enemies",
           MERCHANT),
    Preset("hunter", "Order of Souls work: skeletons, forts, monsters once upgraded, and rival ships for their cargo",
           HUNTER),
    Preset("legend_chaser", "upgrades and special crew first, then legendary voyages and monsters", LEGEND),
    Preset("lookahead", "each turn plays the plan (merchant, hunter or legend chaser) whose rollouts "
           "score best", LOOKAHEAD, LOOKAHEAD_TIER),
)

# every weight and threshold above, declared for --bot, [bots.<label>], simkit strategies and simkit train
PARAMS = (
    BotParam("meagre", W_TIER0, 0, 5, "liking for meagre voyages (seeking and starting)"),
    BotParam("valuable", W_TIER1, 0, 5, "liking for valuable voyages"),
    BotParam("legendary", W_TIER2, 0, 8, "liking for legendary voyages"),
    BotParam("upgrade", W_UPGRADE, 0, 1, "1: upgrade ships when the gold allows", integer=True),
    BotParam("reserve", W_RESERVE, 0, 600, "gold kept back after an upgrade or a hire"),
    BotParam("hire", W_HIRE, 0, 1, "1: hire special crew", integer=True),
    BotParam("hunt", W_HUNT, 0, 1, "1: fire on rival ships carrying cargo and haul what they leave", integer=True),
    BotParam("sell_at", W_SELL_AT, 0, 1500, "hold value (gold) that sends a ship to the Outpost"),
    BotParam("keep_fortune", W_KEEP_FORTUNE, 0, 4, "fortune cards kept back from rerolls", integer=True),
    BotParam("save_keep", W_SAVE_KEEP, 0, 5, "resources kept back from saving crew (save while holding more)",
             integer=True),
    BotParam("abandon", W_ABANDON, 1, 40, "actions after which an unfinished voyage is abandoned", integer=True),
    BotParam("order_of_souls", W_FIGHT_VOY, 0, 4, "liking for Order of Souls voyages (fight skeletons, sink ships)"),
    BotParam("last_loot", W_LAST_LOOT, 0, 1, "1: spend the last Plunder success on Loot", integer=True),
    BotParam("legend_type", W_LEGEND_TYPE, 0, 2, "ship type needed before legendary voyages are sought (0 sloop, "
             "1 brigantine, 2 galleon)", integer=True),
    BotParam("enemies", W_ENEMIES, 0, 2, "enemies: 0 never fights them, 0.5 fires on a Skeleton Sloop met in passing, "
             "1 hunts them, 2 also forts"),
    BotParam("brave_type", W_BRAVE_TYPE, 0, 2, "ship type from which the Skeleton Galleon, the Megalodon and the "
             "Kraken are fought, not fled", integer=True),
    BotParam("rollouts", W_ROLLOUTS, 1, MAX_ROLLOUTS, "rollouts per plan", integer=True, reader=LOOKAHEAD_TIER),
    BotParam("horizon", W_HORIZON, 0, 10, "rounds a rollout plays after the turn's round", integer=True,
             reader=LOOKAHEAD_TIER),
    BotParam("race", W_RACE, 0, 5, "a plan whose rollouts trail the best plan's by this many standard errors "
             "plays no more of them (0: every plan plays every rollout)", reader=LOOKAHEAD_TIER),
    BotParam("plan1", W_PLAN1, 0, VARIANT * N_PLAN_WEIGHTS, "the second plan (the first is the seat's own "
             "weights): a preset row in preset order (simkit strategies), or from 1000 on 1000 x a weight's slot + a "
             "value, the own weights with that one changed (0: none)", reader=LOOKAHEAD_TIER),
    BotParam("plan2", W_PLAN2, 0, VARIANT * N_PLAN_WEIGHTS, "the third plan, as plan1 (0: none)",
             reader=LOOKAHEAD_TIER),
    BotParam("plan3", W_PLAN3, 0, VARIANT * N_PLAN_WEIGHTS, "the fourth plan, as plan1 (0: none)",
             reader=LOOKAHEAD_TIER),
    BotParam("margin", W_MARGIN, 0, 100, "another plan is played only when its mean rollout value beats the own "
             "plan's by this much (a lead in reputation; a win counts 100)", reader=LOOKAHEAD_TIER),
    BotParam("every", W_EVERY, 0, 10, "plans are compared only in every n-th round, from the first (0 or 1: every "
             "round); in the others the seat plays its own weights", integer=True, reader=LOOKAHEAD_TIER),
    BotParam("agree", W_AGREE, 0, 1, "1: when every plan's turn in the first rollout ends where the own plan's "
             "does, play the own plan without further rollouts", integer=True, reader=LOOKAHEAD_TIER),
    BotParam("worth", W_WORTH, 0, 1, "1: a rollout that ends before the game does also counts each seat's cargo and "
             "spare gold at their gold value and forgives the penalties of voyages under way (0: the score if the "
             "game ended now)", integer=True, reader=LOOKAHEAD_TIER),
)
# the `tuned` preset, once `simkit train` has written tuned.toml into the game's package
PRESETS = with_tuned(PRESETS, PARAMS, Path(S.__file__).parent)
assert [p.name for p in PRESETS][HUNTER_ROW:LEGEND_ROW + 1] == ["hunter", "legend_chaser"]


def expert_row(tuned: tuple[float, ...], rollouts, horizon, race, plans, margin, every, agree,
               worth) -> tuple[float, ...]:
    """The expert's row: tuned's weights for its own decisions, its first plan and every seat of its
    rollouts (the rollout seats copy the deciding seat's weights: lookahead.py), then the
    lookahead's knobs."""
    row = list(tuned[:N_PLAN_WEIGHTS]) + [0.0] * (N_WEIGHTS - N_PLAN_WEIGHTS)
    row[W_ROLLOUTS], row[W_HORIZON], row[W_RACE] = rollouts, horizon, race
    for slot, plan in zip(PLAN_SLOTS, plans):
        row[slot] = plan
    row[W_MARGIN], row[W_EVERY], row[W_AGREE], row[W_WORTH] = margin, every, agree, worth
    return tuple(float(x) for x in row)


_TUNED = next((p for p in PRESETS if p.name == "tuned"), None)
if _TUNED is not None:  # no tuned preset, no expert
    # the plans besides tuned's own: tuned firing on rival ships with full holds (hunt 1), tuned
    # without its liking for meagre voyages (meagre 0), tuned fleeing the big enemies in anything
    # smaller than a Galleon (brave_type 2); README.md, "The expert tier", has the measurements
    EXPERT_PLANS = (VARIANT * W_HUNT + 1.0, VARIANT * W_TIER0 + 0.0, VARIANT * W_BRAVE_TYPE + 2.0)
    EXPERT = expert_row(_TUNED.weights, rollouts=6, horizon=3, race=1.0, plans=EXPERT_PLANS, margin=0.0, every=1,
                        agree=1, worth=1)
    PRESETS = PRESETS + (
        Preset("expert", "each turn plays tuned's plan or one of three variants of it (hunt, no meagre voyages, "
               "flee big enemies), whichever scores best in rollouts that tuned plays for every seat", EXPERT,
               LOOKAHEAD_TIER),
    )
DEFAULT = "tuned"  # tuned.md: 93.2% of decided games against the merchant at 2 players
PREVIOUS_DEFAULT = "merchant"  # the default before the tuned preset (the tiers' middle rung)

I_TRADE, I_VOYAGE, I_LOOT, I_HUNT, I_FLEE, I_RAID = 0, 1, 2, 3, 4, 5
OUTPOST_HEX = 9  # the hub's middle hex (hub position 0, local hex 9)
BIG = 10 ** 6
HUNT_HOLD = 4  # a rival hold this size (public) is worth hunting: more than the starting resources


@jit(inline="always", runtime=False)
def fire_on(T, F, k, target):
    """Open fire on rival ship `target` in the hex: a hunter fires on full holds while undamaged
    (a ship on a sink voyage fires on anything: the engine's choose_action)."""
    return T[SHIP0 + target, S.HOLD_N] >= HUNT_HOLD and T[SHIP0 + k, S.DAMAGE] == 0 and w(F, k // 2, W_HUNT) > 0.0


@jit(inline="always", runtime=False)
def w(F, seat, slot):
    return F[1 + seat, slot]


@jit(inline="always", runtime=False)
def nearest_island(T, K, h, want_skeletons):
    """The island nearest hex h (skeletons make it look further, unless skeletons are wanted)."""
    best = -1
    best_d = BIG
    for i in range(T[ST, S.N_ISLANDS]):
        x = T[S.ISLANDS, i]
        sk = T[S.HEX_SKELETONS, x]
        d = dist(K, h, x) * 2 - T[S.HEX_CARGO, x]
        if want_skeletons:
            d -= 3 * min(sk, 2)
        else:
            d += 3 * sk
        if d < best_d:
            best_d = d
            best = x
    return best


@jit(inline="always", runtime=False)
def nearest_rival(T, K, k, h, cargo_only):
    best = -1
    best_d = BIG
    for j in range(2 * T[ST, S.PLAYERS]):
        if j // 2 == k // 2 or T[SHIP0 + j, S.HEX] < 0:
            continue
        if cargo_only and T[SHIP0 + j, S.HOLD_N] < HUNT_HOLD:
            continue
        d = dist(K, h, T[SHIP0 + j, S.HEX])
        if d < best_d:
            best_d = d
            best = T[SHIP0 + j, S.HEX]
    return best, best_d


@jit(runtime=False)
def voyage_target(T, K, k):
    """The hex ship k's voyage sends it to (its own hex when any hex will do)."""
    v = T[SHIP0 + k, S.VOYAGE]
    h = T[SHIP0 + k, S.HEX]
    task = K[S.V_TASK, v]
    if task == S.V_REACH or task == S.V_DIG:
        return T[S.SYMBOL_HEX, K[S.V_SYM, v]]
    if task == S.V_DELIVER:
        sym = K[S.V_SYM2, v] if T[SHIP0 + k, S.STAGE] == 1 else K[S.V_SYM, v]
        return T[S.SYMBOL_HEX, sym]
    if task == S.V_FIGHT:
        if T[S.HEX_SKELETONS, h] > 0:
            return h
        return nearest_island(T, K, h, True)
    target, _ = nearest_rival(T, K, k, h, False)
    return target if target >= 0 else h


@jit(runtime=False)
def wants_upgrade(P, T, F, k, extra_gold):
    seat = k // 2
    if w(F, seat, W_UPGRADE) <= 0.0 or not S.may_upgrade(P, T, k):
        return False
    return T[SEAT0 + seat, S.GOLD] + extra_gold >= S.upgrade_cost(P, T, k) + w(F, seat, W_RESERVE)


# ------------------------------------------------------------------ enemies (part 2)
@jit(inline="always", runtime=False)
def brave(T, F, k):
    """Ship k is big enough to face the Skeleton Galleon, the Megalodon and the Kraken (the tips:
    avoid them until upgraded)."""
    return T[SHIP0 + k, S.TYPE] >= w(F, k // 2, W_BRAVE_TYPE)


@jit(inline="always", runtime=False)
def fearsome(e):
    return e == S.MEGALODON or e == S.SKELETON_GALLEON or e == S.KRAKEN


@jit(runtime=False)
def fire_on_enemy(T, K, F, k, e):
    """Open fire on enemy e in the hex: the Skeleton Sloop (its treasure) by any preset that likes
    enemies at all; the big ones only by hunters of enemies on a ship brave enough, undamaged."""
    like = w(F, k // 2, W_ENEMIES)
    if like <= 0.0 or T[SHIP0 + k, S.DAMAGE] > 1:
        return False
    if e == S.SKELETON_SLOOP:
        return True
    # the big ones: only when this ship can expect to finish the job with the actions it has
    # left this turn - a monster that submerges heals, and another crew takes the reward
    left = min(T[SEAT0 + k // 2, S.ACTIONS_LEFT] + 1, 2)
    return like >= 1.0 and brave(T, F, k) and 0.83 * S.crew_dice(T, k) * left >= damage_needed(T, K, e)


@jit(inline="always", runtime=False)
def damage_needed(T, K, e):
    """Damage enemy e's card still takes before it sinks, is defeated or (the Kraken) wounded."""
    r = S.ENEMY0 + e
    cap = (K[S.MEG_DAMAGE, T[ST, S.PLAYERS]] if e == S.MEGALODON else
           K[S.META, S.KRAKEN_WOUND] if e == S.KRAKEN else K[S.EN_DAMAGE, e])
    return max(1, cap - T[r, S.E_DAMAGE])


@jit(runtime=False)
def enemy_worth(P, T, K, F, k, e):
    """What defeating enemy e is worth to ship k per damage still needed (public: its card)."""
    r = S.ENEMY0 + e
    need = damage_needed(T, K, e)
    gain = 1.0 * K[S.EN_REP, e]
    if e == S.KRAKEN and T[r, S.E_WOUNDS] + 1 < K[S.META, S.KRAKEN_WOUNDS]:
        gain = 0.5  # a first wound only sends it down
    for i in range(5):
        if T[r, S.E_SLOT0 + i] >= 0:
            gain += 400.0 / P.gold_per_reputation  # a treasure token, about 400 gold, in reputation (Final Scoring)
    return gain / need


@jit(runtime=False)
def fire_target(P, T, K, F, k, n_enemies):
    """(ship, enemy) ship k fires on (Open Fire), -1 for none: the rival ship in the hex with the
    fullest hold (then damage, then its owner's Reputation), the first on a tie; and the enemy
    in the hex it hunts and values most (fire_targets listed them). Open Fire takes the enemy
    when there is one."""
    seat = k // 2
    h = T[SHIP0 + k, S.HEX]
    target = np.int64(-1)
    enemy = np.int64(-1)
    best = -1.0
    for j in range(2 * T[ST, S.PLAYERS]):
        if j // 2 != seat and T[SHIP0 + j, S.HEX] == h:
            score = 1.0 * (T[SHIP0 + j, S.HOLD_N] * 4 + T[SHIP0 + j, S.DAMAGE] + T[SEAT0 + j // 2, S.REP])
            if score > best:
                best = score
                target = np.int64(j)
    for e_i in range(n_enemies):
        e = T[S.SCRATCH, 16 + e_i]
        if fire_on_enemy(T, K, F, k, e) and (enemy < 0 or enemy_worth(P, T, K, F, k, e) > enemy_worth(P, T, K, F, k, enemy)):
            enemy = e
    return target, enemy


@jit(runtime=False)
def enemy_plan(P, T, K, F, k):
    """(goal, intent) when an enemy shapes ship k's plan: flee a fearsome one within three hexes
    while not brave; hunt one it would fire on within six hexes; raid a fort with a crew of three
    or more (hunters of forts). (-1, -1) otherwise."""
    seat = k // 2
    h = T[SHIP0 + k, S.HEX]
    like = w(F, seat, W_ENEMIES)
    for e in range(S.N_ENEMIES):
        r = S.ENEMY0 + e
        if T[r, S.E_STATE] != S.E_ON or not fearsome(e) or brave(T, F, k):
            continue
        x = T[r, S.E_HEX]
        if dist(K, h, x) <= (0 if e == S.KRAKEN else 2):  # the Kraken never moves: only leave its hex
            # flee: the island or Outpost nearest the ship among those far from the enemy
            best = OUTPOST_HEX
            best_s = dist(K, h, OUTPOST_HEX) - 2.0 * min(dist(K, x, OUTPOST_HEX), 5)
            for i in range(T[ST, S.N_ISLANDS]):
                y = T[S.ISLANDS, i]
                s = dist(K, h, y) - 2.0 * min(dist(K, x, y), 5)
                if s < best_s:
                    best_s = s
                    best = y
            return best, I_FLEE
    if like < 1.0 or T[SHIP0 + k, S.DAMAGE] > 1:
        return -1, -1  # only hunters of enemies sail out for them; the others fire when they meet
    best = -1
    best_v = 0.0
    for e in range(S.N_ENEMIES - 1):
        r = S.ENEMY0 + e
        if T[r, S.E_STATE] != S.E_ON or not fire_on_enemy(T, K, F, k, e):
            continue
        d = dist(K, h, T[r, S.E_HEX])
        if d <= 6:
            v = enemy_worth(P, T, K, F, k, e) / (1.0 + d)
            if v > best_v:
                best_v = v
                best = T[r, S.E_HEX]
    if best >= 0:
        return best, I_HUNT
    r = S.ENEMY0 + S.FORT
    if like >= 2.0 and T[r, S.E_STATE] == S.E_ON and S.crew_dice(T, k) >= 3 and T[SHIP0 + k, S.RES_N] > 0:
        return T[r, S.E_HEX], I_RAID
    return -1, -1


@jit(runtime=False)
def knave_ship_score(T, knave, k):
    """The Scurvy Knave's liking for sending an enemy at ship k: never its own if it can help it,
    else the leader's ship with the fullest hold (public: reputation and hold sizes)."""
    if k // 2 == knave:
        return -1000.0
    return 10.0 * T[SEAT0 + k // 2, S.REP] + T[SHIP0 + k, S.HOLD_N]


@jit(runtime=False)
def knave_hex_score(T, K, knave, h):
    """The Knave's liking for hex h as an enemy's spawn: far from its own ships, near the leader's."""
    own = 50
    lead = -1
    for s in range(T[ST, S.PLAYERS]):
        if s != knave and (lead < 0 or T[SEAT0 + s, S.REP] > T[SEAT0 + lead, S.REP]):
            lead = s
    rival = 50
    for k in range(2 * T[ST, S.PLAYERS]):
        x = T[SHIP0 + k, S.HEX]
        if x < 0:
            continue
        if k // 2 == knave:
            own = min(own, dist(K, h, x))
        elif k // 2 == lead:
            rival = min(rival, dist(K, h, x))
    return 1.0 * min(own, 6) - 1.0 * rival


@jit(runtime=False)
def knave_best_ships(T, knave, ships):
    """The ships of the set the Knave likes most (knave_ship_score), all of them on a tie."""
    best = np.int64(0)
    best_s = NO_BEST
    for k in range(2 * T[ST, S.PLAYERS]):
        if offers(ships, k):
            best, best_s = join_best(best, best_s, k, knave_ship_score(T, knave, k))
    return best


@jit(runtime=False)
def knave_best_hexes(T, K, knave, h, options):
    """The directions of the set from h whose hex the Knave likes most as a spawn
    (knave_hex_score), all of them on a tie."""
    best = np.int64(0)
    best_s = NO_BEST
    for d in range(6):
        if offers(options, d):
            best, best_s = join_best(best, best_s, d, knave_hex_score(T, K, knave, K[S.NEXT0 + d, h]))
    return best


@jit(runtime=False)
def sands_score(T, K, knave, h):
    """Shifting Sands: the Knave's liking for a skeleton standing on island h (as knave_hex_score)."""
    return knave_hex_score(T, K, knave, h)


@jit(runtime=False)
def use_charm(T, F, k, failures):
    """Discard a kept Lucky Charm to reroll the failed dice: when no fortune card is spared."""
    return failures > 0


@jit(runtime=False)
def ship_goal(P, T, K, F, k):
    """(goal hex, intent) of ship k's plan."""
    seat = k // 2
    h = T[SHIP0 + k, S.HEX]
    dmg = T[SHIP0 + k, S.DAMAGE]
    danger = dmg > 0 and T[SHIP0 + k, S.RES_N] == 0 and T[SHIP0 + k, S.WATER] + 2 * dmg >= gauge(T, K, k)
    if danger:
        return OUTPOST_HEX, I_TRADE
    eg, ei = enemy_plan(P, T, K, F, k)
    if ei == I_FLEE or ei == I_HUNT:
        return eg, ei
    value = hold_value(T, K, k)
    if value >= w(F, seat, W_SELL_AT) or (value > 0 and wants_upgrade(P, T, F, k, value)):
        return OUTPOST_HEX, I_TRADE
    if T[SHIP0 + k, S.VOYAGE] >= 0:
        return voyage_target(T, K, k), I_VOYAGE
    if T[SEAT0 + seat, S.VOY_N] == 0 and T[SEAT0 + seat, S.GOLD] >= 300:
        return OUTPOST_HEX, I_TRADE
    if wants_upgrade(P, T, F, k, value):
        return OUTPOST_HEX, I_TRADE
    if ei == I_RAID:
        return eg, ei
    if w(F, seat, W_HUNT) > 0.0:
        target, d = nearest_rival(T, K, k, h, True)
        if target >= 0 and d <= 6:
            return target, I_HUNT
    return nearest_island(T, K, h, False), I_LOOT


@jit(runtime=False)
def voyage_worth(P, T, K, F, k, v):
    """How much a voyage is worth starting on ship k now: its reward in reputation-equivalents
    per estimated action, scaled by the preset's liking for its tier (<= 0: do not start)."""
    seat = k // 2
    h = T[SHIP0 + k, S.HEX]
    task = K[S.V_TASK, v]
    reward = K[S.V_AMOUNT, v] * 1.0
    kind = K[S.V_REWARD, v]
    # gold buys upgrades while a ship can still grow, and is worth 1 per gold_per_reputation at
    # the end (Final Scoring)
    per_rep = 1.0 * P.gold_per_reputation
    for j in range(2 * seat, 2 * seat + 2):
        if w(F, seat, W_UPGRADE) > 0.0 and S.may_upgrade(P, T, j):
            per_rep = 300.0
    if kind == S.R_GOLD:
        reward = reward / per_rep
    elif kind == S.R_TREASURE:
        reward = reward * 420.0 / per_rep + 0.3 * reward
    crew = 1.0 + 0.83 * (S.crew_dice(T, k))
    actions = 1.0
    if task == S.V_REACH or task == S.V_DIG or task == S.V_DELIVER:
        tgt = T[S.SYMBOL_HEX, K[S.V_SYM, v]]
        if tgt < 0:
            return -1.0
        actions += dist(K, h, tgt) / (crew + 1.0)
        if task == S.V_DIG:
            actions += K[S.V_TARGET, v] / (0.8 * crew)
        if task == S.V_DELIVER:
            t2 = T[S.SYMBOL_HEX, K[S.V_SYM2, v]]
            if t2 < 0:
                return -1.0
            actions += dist(K, tgt, t2) / (crew + 1.0)
    elif task == S.V_FIGHT:
        actions += 2.0 + K[S.V_TARGET, v] / (0.6 * crew)
        reward *= w(F, seat, W_FIGHT_VOY)
    else:
        actions += 4.0 * K[S.V_TARGET, v]
        reward *= w(F, seat, W_FIGHT_VOY) - 0.5
    tier = K[S.V_TIER, v]
    like = w(F, seat, W_TIER0 + tier)
    if tier == S.LEGENDARY and T[SHIP0 + k, S.TYPE] < w(F, seat, W_LEGEND_TYPE):
        like *= 0.3
    if tier > T[SHIP0 + k, S.TYPE] + 1:
        like *= 0.5
    return like * (reward - 0.3 * K[S.V_PENALTY, v]) / actions


@jit(runtime=False)
def pick_voyage(P, T, K, F, k):
    """Index in the hand of the voyage to start on ship k, or -1."""
    seat = k // 2
    best = -1
    best_v = 0.0
    for i in range(T[SEAT0 + seat, S.VOY_N]):
        v = T[S.VHAND0 + seat, i]
        x = voyage_worth(P, T, K, F, k, v)
        if x > best_v:
            best_v = x
            best = i
    return best


@jit(inline="always", runtime=False)
def step_toward(T, K, h, goal):
    """The neighbour of h closest to goal that has room (h itself if none is closer)."""
    best = h
    best_d = dist(K, h, goal)
    for d in range(6):
        n = K[S.NEXT0 + d, h]
        if n >= 0 and T[S.HEX_STANDEES, n] < 2:
            dd = dist(K, n, goal)
            if dd < best_d:
                best_d = dd
                best = n
    return best


@jit(runtime=False)
def step_nearest(K, h, options, goal):
    """Of the directions offered from h (a set), the neighbour nearest the goal, the first on a
    tie (-1 if none is offered): where a pushed ship goes."""
    dest = np.int64(-1)
    best_d = 1 << 40
    for d in range(6):
        if offers(options, d):
            x = K[S.NEXT0 + d, h]
            if dist(K, x, goal) < best_d:
                best_d = dist(K, x, goal)
                dest = x
    return dest


@jit(inline="always", runtime=False)
def task_for(T, K, k, goal):
    """(task, hex) of one face-up crew token (Tasks), given the ship's goal: the hex a Sail task
    steps into first (step_toward), -1 for the other tasks."""
    h = T[SHIP0 + k, S.HEX]
    dmg = T[SHIP0 + k, S.DAMAGE]
    water = T[SHIP0 + k, S.WATER]
    if dmg > 0 and T[SHIP0 + k, S.RES_N] > 0:
        return S.T_REPAIR, np.int64(-1)
    at_goal = h == goal
    if water > 0 and (water + dmg >= gauge(T, K, k) - 1 or at_goal):
        return S.T_BAIL, np.int64(-1)
    if not at_goal:
        step = step_toward(T, K, h, goal)
        if step != h:
            return S.T_SAIL, step
    if water > 0:
        return S.T_BAIL, np.int64(-1)
    return S.T_NONE, np.int64(-1)


@jit(runtime=False)
def fortune_keep_value(K, card):
    """How much the bot likes to keep a fortune card (the lowest is spent on rerolls first)."""
    e = K[S.FO_EFFECT, card]
    if e == S.F_COIN:
        return 0.0
    if e == S.F_FAIR_WINDS:
        return 3.0
    if e == S.F_PLANKS or e == S.F_PUMP:
        return 2.5
    if e == S.F_BURIED_MAP:
        return 2.0
    return 1.0


@jit(runtime=False)
def reroll_card(T, K, F, seat, failures):
    """Index in the fortune hand to discard for a reroll of the failed dice, or -1."""
    n = T[SEAT0 + seat, S.FORT_N]
    if failures == 0 or n <= w(F, seat, W_KEEP_FORTUNE):
        return -1
    return fortune_to_discard(T, K, seat)


@jit(runtime=False)
def save_crew(T, F, k):
    """Discard a resource to keep a crew member from being defeated?"""
    return T[SHIP0 + k, S.RES_N] > w(F, k // 2, W_SAVE_KEEP)


@jit(runtime=False)
def hire_worth(T, K, F, k, card):
    """Liking for hiring this special crew card onto ship k (<= 0: no)."""
    seat = k // 2
    if w(F, seat, W_HIRE) <= 0.0:
        return -1.0
    e = K[S.C_EFFECT, card]
    like = 1.0
    hunt = w(F, seat, W_HUNT)
    if e == S.E_GUNNER:
        like = 0.2 + hunt
    elif e == S.E_SURGEON:
        like = 0.8 + 0.5 * hunt
    elif e == S.E_DIGGER or e == S.E_HELMSMAN or e == S.E_SCOUT:
        like = 1.2
    return like + 0.5 * K[S.C_REP, card]


@jit(runtime=False)
def seek_tier(P, T, F, k, draw_i):
    """Which voyage deck the draw_i-th card of Seek New Voyages comes from."""
    seat = k // 2
    best = 0
    best_v = -1.0
    ship = T[SHIP0 + k, S.TYPE]
    for t in range(3):
        v = w(F, seat, W_TIER0 + t)
        if t == S.LEGENDARY and ship < w(F, seat, W_LEGEND_TYPE):
            v *= 0.3
        if t > ship + 1:
            v *= 0.5
        elif t < ship:
            v *= 0.6
        if T[ST, S.VOY_N0 + 2 * t] == 0:
            v = -1.0
        if v > best_v:
            best_v = v
            best = t
    return best


@jit(runtime=False)
def keep_voyage(P, T, K, F, k, v):
    """Keep a drawn voyage card (paying its price)?"""
    seat = k // 2
    gold = T[SEAT0 + seat, S.GOLD]
    if gold < K[S.V_PRICE, v] or T[SEAT0 + seat, S.VOY_N] >= 2:
        return False
    return voyage_worth(P, T, K, F, k, v) > 0.15


@jit(runtime=False)
def voyage_card_value(K, F, seat, v):
    """For clean up: how much a voyage card in hand is worth keeping."""
    return w(F, seat, W_TIER0 + K[S.V_TIER, v]) * (1.0 + K[S.V_AMOUNT, v] / (300.0 if K[S.V_REWARD, v] == S.R_GOLD else 1.0))


@jit(runtime=False)
def abandon_now(T, K, F, k):
    """Abandon the ship's voyage: it has dragged on past the preset's patience."""
    return T[SHIP0 + k, S.VOY_AGE] > w(F, k // 2, W_ABANDON)


@jit(runtime=False)
def abandon_at_turn_end(T, K, F, k):
    """At the end of the turn (abandon_window = turn): give up now the voyage abandon_now would
    give up at the ship's next action, so that the penalty counts before the Fortune phase."""
    return T[SHIP0 + k, S.VOY_AGE] >= w(F, k // 2, W_ABANDON)


@jit(runtime=False)
def fortune_to_discard(T, K, seat):
    """The hand position of the fortune card to discard at Clean Up: the least worth keeping,
    the first on a tie."""
    i = 0
    lo = NO_LEAST
    for j in range(T[SEAT0 + seat, S.FORT_N]):
        x = fortune_keep_value(K, T[S.FHAND0 + seat, j])
        if x < lo:
            lo = x
            i = j
    return i


@jit(runtime=False)
def voyage_to_discard(T, K, F, seat):
    """The hand position of the voyage card to discard at Clean Up: the least valued, the first
    on a tie."""
    i = 0
    lo = NO_LEAST
    for j in range(T[SEAT0 + seat, S.VOY_N]):
        x = voyage_card_value(K, F, seat, T[S.VHAND0 + seat, j])
        if x < lo:
            lo = x
            i = j
    return i


@jit(runtime=False)
def hub_hex(T, K, seat, options):
    """Of the hub island hexes offered (a set of hexes), the one nearest the islands of the
    seat's voyages, the first on a tie (-1 if none is offered)."""
    best = np.int64(-1)
    best_s = 1 << 40
    for h in range(S.TILE_HEXES):
        if not offers(options, h):
            continue
        s = 1000
        for i in range(T[SEAT0 + seat, S.VOY_N]):
            v = T[S.VHAND0 + seat, i]
            if K[S.V_SYM, v] >= 0 and T[S.SYMBOL_HEX, K[S.V_SYM, v]] >= 0:
                s = min(s, dist(K, h, T[S.SYMBOL_HEX, K[S.V_SYM, v]]))
        if s < best_s:
            best_s = s
            best = np.int64(h)
    return best


@jit(runtime=False)
def ship_to_act(T, seat, ready):
    """Of the seat's ships that may act (a set: ship 2 seat + i as i), the one with fewest
    action tokens, a ship on a voyage first on a tie, else the first."""
    best = np.int64(-1)
    best_s = 1 << 40
    for i in range(2):
        if offers(ready, i):
            k = 2 * seat + i
            s = 10 * T[SHIP0 + k, S.ACTIONS] - (1 if T[SHIP0 + k, S.VOYAGE] >= 0 else 0)
            if s < best_s:
                best_s = s
                best = np.int64(k)
    return best


@jit(runtime=False)
def respawn_hex(T, K, F, seat, tile, options):
    """Of the tile's island hexes offered (a set of its hex indices), the one respawn_hex_score
    likes best, the first on a tie."""
    best, best_s = np.int64(-1), NO_BEST
    for i in range(S.TILE_HEXES):
        if offers(options, i):
            h = tile * S.TILE_HEXES + i
            s = respawn_hex_score(T, K, F, seat, h)
            if s > best_s:
                best_s = s
                best = h
    return best


@jit(runtime=False)
def respawn_hex_score(T, K, F, seat, h):
    """Liking for respawning at island h: near the Outpost."""
    return -1.0 * dist(K, h, OUTPOST_HEX) - 0.5 * T[S.HEX_SKELETONS, h] + 0.01 * np.float64(h)
