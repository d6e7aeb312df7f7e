"""Tide of Avaris bots: one compiled heuristic policy, many presets (docs/architecture.md, "The game package contract").

A preset is a row of weights. The engine asks the policy at each decision: the Day-start
reroll, the turn's destination, bribe or fight, the Act (bury, board action), collecting, the
choices inside a board action, which crew dice to cash for supplies, battle commitments, the
Night's upgrades (decided before anyone's are revealed), and what to give up when sinking.

What a bot reads: its own crew dice, gold and rum (behind its screen); of everyone, the public
table: ships, the Navy, treasure on the board, holds (treasure sits on the player mats), upgrade
levels, relics, controllers and sloops, the wager order, unlocked bonuses. Never another
pirate's dice, gold, rum, private burial bonuses or buried points, nor any deck's order.
Policy 0 (`random`) chooses uniformly among the legal choices at every decision.
"""

from pathlib import Path

import numpy as np

from simkit.core.bots import HEURISTIC_POLICY, LOOKAHEAD_POLICY, RANDOM_POLICY, BotParam
from simkit.core.bots import LOOKAHEAD as LOOKAHEAD_TIER
from simkit.core.bots import RANDOM as BASELINE
from simkit.core.game import Preset, with_tuned
from simkit.core.jit import jit
from simkit.core.kernels import BARRED, BARRED_BELOW, NO_BEST, decide, option, pick_best, pick_option, random_decision
from simkit.games.tide_of_avaris import state as S
from simkit.games.tide_of_avaris.state import (
    CONTROL,
    DICE0,
    FACE,
    HOLD0,
    META,
    READY,
    SEAT0,
    SLOT,
    ST,
    can_hold,
    colour_count,
    hold_shape,
    unbound_total,
)

# preset weight slots
POLICY = 0  # the policy code (simkit.core.bots: RANDOM_POLICY, HEURISTIC_POLICY, LOOKAHEAD_POLICY)
# LOOKAHEAD_POLICY: the heuristic but for the destination, lookahead.py
W_BANK = 1  # bury once the hold's burial is worth this many points
W_GREED = 2  # value per Treasure Point a collected treasure adds to the hold's burial
W_RAID = 3  # value per treasure expected from attacking a pirate (and of combat spirits/upgrades)
W_CONTROL = 4  # value of sending sloops to a spirit or a Region
W_RELIC = 5  # value of the Add Relic(s) action
W_EXPLORE = 6  # value of exploring a monster
W_BIND = 7  # value per treasure bound
W_WAGER = 8  # dice showing this Number or more stay for the Midnight Wager; the rest are cashed at Sunset
W_UP_ATTACK = 9  # Night upgrade priorities (0: never)
W_UP_DEFENCE = 10
W_UP_FLEET = 11
W_UP_CREW = 12
W_RESERVE = 13  # gold kept back at Night (rerolls, bribes)
W_SUPPLY = 14  # value of the rum and raid actions
W_REROLL = 15  # reroll dice whose Number is at most this (0: never reroll)
W_SINK = 16  # when sinking, jettison the treasure if its burial is worth less than this, else a die
N_HEURISTIC = 17  # slots 0..16 drive the heuristic (and the lookahead's rollouts); the lookahead's knobs follow
LA_CANDIDATES = 17  # destinations tried: the heuristic's best this many
LA_ROLLOUTS = 18  # rollouts per candidate (the same re-deals and dice for every candidate)
LA_HORIZON = 19  # a rollout stops after this many Nights (or at the game's end) and scores the table
LA_MARGIN = 20  # value per Treasure Point of lead over the best rival, beside the win (1 per rollout)
LA_KEEP = 21  # another destination must beat the heuristic's by this much per rollout
# judgements added after the lookahead's knobs, each off at 0 (every preset but `tuned` and `expert`
# holds 0, so their games are as before); a rollout seat plays all of the deciding seat's judgement,
# slots 0..16 and these (copy_judgement), which for the `lookahead` preset is its controller row
W_UNLOCK = 22  # value per point of the next unlock token, by the seat's expected standing on the bonus
W_PAYOUT = 23  # value lost by collecting in a Region a rival controls (its controller draws a treasure)
W_EXPOSURE = 24  # value per unburied treasure and per rival or Navy in reach of the destination
W_CONTROL_TABLE = 25  # extra share of control values per rival beyond the first
LA_RACE = 26  # a destination trailing the leader by this many standard errors stops (0: none; kernels.race_prune)
N_WEIGHTS = 27
LATE_JUDGEMENT = (W_UNLOCK, W_CONTROL_TABLE + 1)  # the judgement slots after the lookahead's knobs
MAX_ROLLOUTS = 64
NOISE = 32  # F[1 + seat, NOISE]: the strategy row's noise (skill knob), copied there by the engine

#           pol bank greed raid ctrl relic expl bind wager  att  def  flt crew res sup rrl sink
RANDOM = (RANDOM_POLICY, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
BURIER = (HEURISTIC_POLICY, 6, 1.0, 0.3, 0.5, 1.0, 0.5, 0.3, 4, 0.5, 1.0, 0.2, 1.5, 1, 1.0, 1, 4)
HOARDER = (HEURISTIC_POLICY, 16, 1.3, 0.3, 0.5, 1.0, 0.5, 1.5, 4, 0.3, 1.5, 0.2, 1.2, 1, 1.0, 1, 6)
RAIDER = (HEURISTIC_POLICY, 9, 0.8, 2.0, 0.8, 1.2, 1.5, 0.5, 5, 2.0, 0.8, 0.3, 0.8, 1, 1.2, 1, 5)
CONTROLLER = (HEURISTIC_POLICY, 8, 0.9, 0.5, 3.0, 0.8, 0.5, 0.5, 4, 0.5, 0.8, 2.0, 1.0, 1, 1.0, 1, 5)
#                               candidates rollouts horizon margin keep
LOOKAHEAD = (LOOKAHEAD_POLICY,) + CONTROLLER[1:] + (3, 4, 1, 0.02, 0.05) + (0, 0, 0, 0) + (1.0,)  # ... unlock..table, race

PRESETS = (
    Preset("random", "uniform over legal choices (the baseline)", RANDOM, BASELINE),
    Preset("burier", "collects what fits and banks small holds often; buys crew dice", BURIER),
    Preset("hoarder", "fills the hold for a big burial, binds what it carries, buys defence", HOARDER),
    Preset("raider", "attacks pirates carrying unbound treasure and explores; buys attack", RAIDER),
    Preset("controller", "takes the spirit dice and Regions with a large fleet", CONTROLLER),
    Preset("lookahead", "controller, but each turn's destination is chosen by rollouts of the controller "
           "from a copy of the table, rivals' hidden dice, gold, rum and cards re-dealt", LOOKAHEAD, LOOKAHEAD_TIER),
)

# every weight and threshold above, declared for --bot, [bots.<label>], simkit strategies and simkit train
PARAMS = (
    BotParam("bank", W_BANK, 0, 40, "bury once the hold's burial is worth this many points"),
    BotParam("greed", W_GREED, 0, 4, "value per Treasure Point a collected treasure adds to the hold's burial"),
    BotParam("raid", W_RAID, 0, 6, "value per treasure expected from attacking a pirate (and of combat spirits and "
             "upgrades)"),
    BotParam("control", W_CONTROL, 0, 8, "value of sending sloops to a spirit or a Region"),
    BotParam("relic", W_RELIC, 0, 4, "value of the Add Relic(s) action"),
    BotParam("explore", W_EXPLORE, 0, 5, "value of exploring a monster"),
    BotParam("bind", W_BIND, 0, 5, "value per treasure bound"),
    BotParam("wager", W_WAGER, 1, 7, "dice showing this Number or more stay for the Midnight Wager; the rest are "
             "cashed at Sunset", integer=True),
    BotParam("upgrade_attack", W_UP_ATTACK, 0, 4, "Night upgrade priority of attack (0: never)"),
    BotParam("upgrade_defence", W_UP_DEFENCE, 0, 4, "Night upgrade priority of defence (0: never)"),
    BotParam("upgrade_fleet", W_UP_FLEET, 0, 6, "Night upgrade priority of the fleet (0: never)"),
    BotParam("upgrade_crew", W_UP_CREW, 0, 4, "Night upgrade priority of crew dice (0: never)"),
    BotParam("reserve", W_RESERVE, 0, 10, "gold kept back at Night (rerolls, bribes)", integer=True),
    BotParam("supply", W_SUPPLY, 0, 4, "value of the rum and raid actions"),
    BotParam("reroll", W_REROLL, 0, 6, "reroll dice whose Number is at most this (0: never reroll)", integer=True),
    BotParam("sink", W_SINK, 0, 20, "when sinking, jettison the treasure if its burial is worth less than this, else "
             "a die"),
    BotParam("unlock", W_UNLOCK, 0, 4, "value per point of the next unlock token of the Unlock action, times the "
             "seat's expected share of it less its best rival's, by the public standing over the bonuses it has not "
             "seen face up (0: a flat 2, as before)"),
    BotParam("payout", W_PAYOUT, 0, 4, "value lost by collecting in a Region a rival controls, whose controller "
             "then draws a treasure (0: not counted)"),
    BotParam("exposure", W_EXPOSURE, 0, 3, "value lost per unburied treasure carried to a destination, per rival "
             "within three lanes of it (and at Sunset the Navy within its reach), by the chance its attack beats "
             "the seat's defence (0: not counted)"),
    BotParam("control_rivals", W_CONTROL_TABLE, 0, 1, "extra share of the control values per rival beyond the "
             "first: Regions pay on every rival's collection (0: the same at every table size)"),
    BotParam("candidates", LA_CANDIDATES, 1, 8, "destinations tried: the heuristic's best this many", integer=True,
             reader=LOOKAHEAD_TIER),
    BotParam("rollouts", LA_ROLLOUTS, 1, MAX_ROLLOUTS, "rollouts per candidate", integer=True,
             reader=LOOKAHEAD_TIER),
    BotParam("horizon", LA_HORIZON, 0, 10, "a rollout stops after this many Nights (or at the game's end)",
             integer=True, reader=LOOKAHEAD_TIER),
    BotParam("margin", LA_MARGIN, 0, 1, "value per Treasure Point of lead over the best rival", reader=LOOKAHEAD_TIER),
    BotParam("keep", LA_KEEP, 0, 1, "another destination must beat the heuristic's by this much per rollout",
             reader=LOOKAHEAD_TIER),
    BotParam("race", LA_RACE, 0, 5, "a destination whose rollouts trail the leader's by this many standard errors "
             "plays no more of them (0: every destination plays every rollout)", reader=LOOKAHEAD_TIER),
)
# the `tuned` preset, once `simkit train` has written tuned.toml into the game's package
PRESETS = with_tuned(PRESETS, PARAMS, Path(S.__file__).parent)


def expert_row(tuned: tuple[float, ...]) -> tuple[float, ...]:
    """The `expert` preset's row: `tuned`'s weights with the lookahead policy and its knobs
    (chosen by measurement, README: The expert tier). Its own decisions and its candidate list are
    tuned's (its first candidate is tuned's choice); its rollouts seat tuned at every seat
    (copy_judgement)."""
    row = list(tuned) + [0.0] * (N_WEIGHTS - len(tuned))
    row[POLICY] = LOOKAHEAD_POLICY
    for slot, value in EXPERT_KNOBS.items():
        row[slot] = value
    return tuple(row)


# candidates, rollouts, horizon (Nights; 0: the game's end), margin, keep, race: chosen against tuned at
# 2 players (README: The expert tier): a horizon of 1 Night is clearly weaker than 2, 3 or the game's
# end; racing at 1 standard error prunes too early; more candidates or rollouts gain nothing measurable
EXPERT_KNOBS = {LA_CANDIDATES: 4, LA_ROLLOUTS: 16, LA_HORIZON: 2, LA_MARGIN: 0.02, LA_KEEP: 0.05, LA_RACE: 2.0}
_TUNED = next((p for p in PRESETS if p.name == "tuned"), None)
if _TUNED is not None:  # no tuned.toml, no expert
    PRESETS = PRESETS + (Preset("expert", "tuned, but each turn's destination is chosen by rollouts in which every "
                                "seat plays tuned, from a copy of the table, rivals' hidden dice, gold, rum and "
                                "cards re-dealt", expert_row(_TUNED.weights), LOOKAHEAD_TIER),)
DEFAULT = "tuned"  # tuned.md: 87.0% of decided games against the controller at 2 players
PREVIOUS_DEFAULT = "controller"  # the default before the tuned preset (the tiers' middle rung)

ACT_NONE, ACT_BURY, ACT_BOARD = 0, 1, 2
STOP_BUYING = 4  # the random plan's alternative after the four tracks: buy no more
NONE = np.int64(-1)


@jit(runtime=False)
def copy_judgement(F2, row2, F, row):
    """Row `row2` of F2 plays the heuristic with every judgement of row `row` of F (slots
    0..16 and LATE_JUDGEMENT), nothing else: the lookahead's knobs and the noise are zero."""
    F2[row2, :] = 0.0
    for k in range(N_HEURISTIC):
        F2[row2, k] = F[row, k]
    for k in range(LATE_JUDGEMENT[0], LATE_JUDGEMENT[1]):
        F2[row2, k] = F[row, k]
    F2[row2, POLICY] = HEURISTIC_POLICY


@jit(inline="always", runtime=False)
def w(F, seat, k):
    return F[1 + seat, k]


@jit(runtime=False)
def plays_random(F, rng, seat):
    """Whether this decision is a uniformly random legal choice: always for the random policy;
    otherwise with the row's noise (the skill knob), by a coin from the seat's own
    decision stream that is drawn only when the noise is above 0 (noise 0 plays as before)."""
    return random_decision(F, rng, seat, POLICY, NOISE)


# --------------------------------------------------------------------------- values
@jit(inline="always", runtime=False)
def gain_of(T, K, seat, c):
    """Treasure Points a treasure of colour c adds to the hold's next burial."""
    upper = hold_shape(T, seat)[0]
    if colour_count(T, seat, c) == 0:
        return K[S.UPPER_VALUE, upper + 1] - K[S.UPPER_VALUE, upper]
    return 1


@jit(runtime=False)
def attack_dice(T, K, seat):
    """The seat's attack dice if it fought now: upgrades, relics and its ready attack faces."""
    n = 1 + T[SEAT0 + seat, S.ATTACK] + T[SEAT0 + seat, S.REL_ATTACK]
    for i in range(S.DIE_SLOTS):
        if T[DICE0 + seat, READY + i] == 1 and K[S.CREW_RES, T[DICE0 + seat, FACE + i]] == S.RES_ATTACK:
            n += K[S.CREW_AMOUNT, T[DICE0 + seat, FACE + i]]
    if T[CONTROL, S.CTRL_MARAUDER] == seat:
        n += 1
    return n


@jit(inline="always", runtime=False)
def public_defence(T, seat):
    """A rival's defence dice as the table sees them (upgrades and relics; its dice are hidden)."""
    n = 1 + T[SEAT0 + seat, S.DEFENCE] + T[SEAT0 + seat, S.REL_DEFENCE]
    if T[CONTROL, S.CTRL_GUARDIAN] == seat:
        n += 1
    return n


@jit(inline="always", runtime=False)
def public_attack(T, seat):
    """A rival's attack dice as the table sees them (upgrades, relics, the Marauder; its dice are
    hidden)."""
    n = 1 + T[SEAT0 + seat, S.ATTACK] + T[SEAT0 + seat, S.REL_ATTACK]
    if T[CONTROL, S.CTRL_MARAUDER] == seat:
        n += 1
    return n


@jit(runtime=False)
def threat_at(P, T, K, seat, space, phase, players, guard):
    """How many attackers could reach a ship on `space` before its next turn, each weighted by the
    chance its public attack dice beat the seat's `guard` defence dice: every rival within three
    lanes, and at Sunset the Navy within its hunting reach (Navy Hunts; not for a navy_passes
    relic's owner, A68)."""
    t = 0.0
    for s in range(players):
        p = T[SEAT0 + s, S.POS]
        if s != seat and p >= 0 and K[S.DIST0 + p, space] <= 3:
            t += win_chance(public_attack(T, s), guard)
    navy = T[ST, S.NAVY_POS]
    if phase == 1 and navy >= 0 and T[SEAT0 + seat, S.REL_NAVY_PASSES] == 0 \
            and K[S.DIST0 + navy, space] <= P.navy_reach:
        t += win_chance(K[S.NAVY_ATTACK, T[ST, S.NAVY_CARD]], guard)
    return t


@jit(inline="always", runtime=False)
def win_chance(mine, theirs):
    return mine / (mine + theirs + 0.5)


@jit(runtime=False)
def fight_value(T, K, F, seat, foe):
    """Expected worth of attacking `foe` (a seat or FOE_NAVY) against what a loss costs."""
    return fight_value_with(T, K, F, seat, foe, attack_dice(T, K, seat), S.burial_value(T, K, seat))


@jit(inline="always", runtime=False)
def fight_value_with(T, K, F, seat, foe, mine, own):
    """fight_value given the seat's attack dice and its hold's burial value."""
    if T[SEAT0 + seat, S.REL_WIND] > 0:
        mine += 0.5  # its wind faces hit whoever has the Wind Advantage (A68)
    if foe >= 0:
        p = win_chance(mine, public_defence(T, foe))
        loot = S.steal_count(T, seat, foe)
        return p * w(F, seat, W_RAID) * loot * 2.0 - (1.0 - p) * (0.5 * own + 2.0)
    card = T[ST, S.NAVY_CARD]
    p = win_chance(mine, K[S.NAVY_DEFENCE, card])
    return p * w(F, seat, W_RAID) * K[S.NAVY_REWARD, card] * 1.5 - (1.0 - p) * (0.5 * own + 2.0)


@jit(inline="always", runtime=False)
def bonus_here(T, K, seat, space, upper, lower):
    """Burial Bonus points a burial on `space` would take now (public and own private), for a
    hold of `upper` colours and `lower` duplicates."""
    pts = 0
    card = T[ST, S.PUBLIC_BONUS]
    for k in range(1 + T[SEAT0 + seat, S.PRIVATE_N]):
        if k > 0:
            card = T[S.PRIVATE0 + seat, k - 1]
        if card < 0:
            continue
        kind = K[S.BB_KIND, card]
        arg = K[S.BB_ARG, card]
        ok = False
        if kind == S.BB_COLOUR:
            for j in range(S.MAX_SLOTS):
                if T[SLOT, 2 * space + j] == arg:
                    ok = True
        elif kind == S.BB_UPPER:
            ok = upper >= arg
        elif kind == S.BB_LOWER:
            ok = lower >= arg
        elif kind == S.BB_REGION:
            ok = K[S.SP_REGION, space] == arg
        else:
            ok = upper + lower >= arg
        if ok:
            pts += K[S.BB_POINTS, card]
    return pts


@jit(inline="always", runtime=False)
def control_weight(F, seat, players):
    """The control weight at this table: a Region pays its controller on every rival's collection
    there, so `control_rivals` adds a share of it per rival beyond the first (0: as at 2 players)."""
    extra = w(F, seat, W_CONTROL_TABLE)
    if extra == 0.0:
        return w(F, seat, W_CONTROL)
    return w(F, seat, W_CONTROL) * (1.0 + extra * (players - 2))


@jit(runtime=False)
def unlock_worth(T, K, seat, players):
    """Token points an Unlock now brings the seat over its best rival, expected over the endgame
    bonuses it has not seen face up (a locked slot's card is face down): the next token's value
    times the seat's share of the bonus less the best rival's, by the public standing now
    (`metric`; ties split the token, a "most" nobody has scores for nobody, A34)."""
    token = K[S.TOKENS, T[ST, S.TOKENS_USED]]
    total = 0.0
    unseen = 0
    for card in range(K[META, S.N_ENDGAME]):
        if S.endgame_face_up(T, card):
            continue
        unseen += 1
        kind = K[S.EG_KIND, card]
        arg = K[S.EG_ARG, card]
        best = NO_BEST
        for s in range(players):
            best = max(best, metric(T, s, kind, arg))
        if best == 0.0 and kind != S.EG_SINKINGS:
            continue
        tied = 0
        rival_leads = False
        for s in range(players):
            if metric(T, s, kind, arg) == best:
                tied += 1
                if s != seat:
                    rival_leads = True
        mine = 1.0 / tied if metric(T, seat, kind, arg) == best else 0.0
        total += mine - (1.0 / tied if rival_leads else 0.0)
    if unseen == 0:
        return 0.0
    return token * total / unseen


@jit(runtime=False)
def action_value(P, T, K, F, seat, act, space, players):
    if not S.action_legal(P, T, K, seat, act, space, players):
        return -1.0
    sup = w(F, seat, W_SUPPLY)
    ctrl = control_weight(F, seat, players)
    if act == S.ACT_RUM:
        return 1.0 * sup
    if act == S.ACT_RAID:
        return 1.5 * sup
    if act == S.ACT_EXTRA:
        c = T[SLOT, 2 * space + 1]
        if c < 0:
            c = T[SLOT, 2 * space]
        # less the gold it costs, in Treasure Points at the endgame's rate (gold_per_point)
        return w(F, seat, W_GREED) * gain_of(T, K, seat, c) - P.extra_treasure_cost / P.gold_per_point
    if act == S.ACT_WHIRLPOOL:
        return 0.5
    if act == S.ACT_CREW_SPIRIT:
        return ctrl * 1.0
    if act == S.ACT_MARAUDER:
        return ctrl * 0.5 + w(F, seat, W_RAID) * 0.5
    if act == S.ACT_GUARDIAN:
        return ctrl * 0.8
    if act == S.ACT_REGION:
        return ctrl * 1.2
    if act == S.ACT_NAVY:
        return 0.3 + w(F, seat, W_RAID) * 0.3
    if act == S.ACT_BURIAL_DRAW:
        return 1.5
    if act == S.ACT_BIND:
        return w(F, seat, W_BIND) * min(2, unbound_total(T, seat))
    if act == S.ACT_RECYCLE:  # commanded dice come back; a ready one is only rerolled
        return 0.8 * min(2, S.exhausted_dice(T, seat)) + 0.1 * max(0, 2 - S.exhausted_dice(T, seat)) - 0.3
    if act == S.ACT_UNLOCK:
        if w(F, seat, W_UNLOCK) == 0.0:
            return 2.0
        return 2.0 + w(F, seat, W_UNLOCK) * unlock_worth(T, K, seat, players)
    if act == S.ACT_RELICS:
        return w(F, seat, W_RELIC)
    if act == S.ACT_EXPLORE:
        # the top card is face down: a monster of the deck's median Strength (decks.toml)
        p = win_chance(attack_dice(T, K, seat), K[META, S.MON_MIDDLE2] / 2.0)
        return w(F, seat, W_EXPLORE) * (p * 3.0 - (1.0 - p) * (0.3 * S.burial_value(T, K, seat) + 1.0))
    return 0.0


@jit(runtime=False)
def bury_value(P, T, K, F, seat, space, phase):
    v = S.burial_value(T, K, seat)
    if v == 0:
        return -1.0
    upper, lower = hold_shape(T, seat)
    bonus = bonus_here(T, K, seat, space, upper, lower)
    if v + bonus >= w(F, seat, W_BANK) or (T[ST, S.FINAL_DAY] == 1 and phase == 1):
        return float(v + bonus)
    return bonus * 1.0


@jit(runtime=False)
def collect_value(T, K, F, seat, space):
    c = S.space_treasure(T, space)
    if c < 0 or not can_hold(T, K, seat, c):
        return 0.0
    return w(F, seat, W_GREED) * gain_of(T, K, seat, c)


# --------------------------------------------------------------------------- the turn
GAIN0 = 48  # F[0, GAIN0 + c]: this turn's value of collecting colour c (0: no room in the hold)
OCC0 = 64  # F[0, OCC0 + space]: 1 if another ship is on the space (F rows are 128 wide)
ACT0 = 108  # F[0, ACT0 + action]: this turn's value of each board action (but extra_treasure)
UNKNOWN = NO_BEST


@jit(runtime=False)
def choose_destination(P, T, K, F, rng, seat, phase, players):
    """Where to end this turn's movement, among spaces the seat can plausibly pay its way to.
    What does not depend on the space (the hold's values, who is where) is read once."""
    if plays_random(F, rng, seat):
        return random_destination(T, K, rng, seat)
    return heuristic_destination(P, T, K, F, rng, seat, phase, players)


@jit(runtime=False)
def random_destination(T, K, rng, seat):
    """Uniform over the spaces within the seat's movement budget: every lane costs at least a die
    or a rum, and a turn moves at most MAX_STEPS lanes (staying is a choice too, A29)."""
    here = T[SEAT0 + seat, S.POS]
    budget = min(S.MAX_STEPS, S.ready_dice(T, seat) + T[SEAT0 + seat, S.RUM])
    options = np.int64(0)
    for b in range(K[META, S.N_SPACES]):
        if K[S.DIST0 + here, b] <= budget:
            options |= option(b)
    return pick_option(options, rng, seat)  # never empty: its own space is at distance 0


@jit(runtime=False)
def heuristic_destination(P, T, K, F, rng, seat, phase, players):
    """The heuristic's destination; every space's score is left in F[0, :spaces] (BARRED: out of
    reach), where the lookahead reads its candidates."""
    here = T[SEAT0 + seat, S.POS]
    budget = min(3, S.ready_dice(T, seat) + T[SEAT0 + seat, S.RUM])
    n = K[META, S.N_SPACES]
    scores = F[0]
    greed = w(F, seat, W_GREED)
    upper, lower = hold_shape(T, seat)
    up_gain = K[S.UPPER_VALUE, upper + 1] - K[S.UPPER_VALUE, upper] if upper < S.N_COLOURS else 0
    for c in range(S.N_COLOURS):  # a new colour adds the next Upper value, a duplicate 1 if it fits
        if colour_count(T, seat, c) == 0:
            F[0, GAIN0 + c] = greed * up_gain
        else:
            F[0, GAIN0 + c] = greed if lower < K[META, S.LOWER_CAP] else 0.0
    for b in range(n):
        F[0, OCC0 + b] = 0.0
    for s in range(players):
        if s != seat and T[SEAT0 + s, S.POS] >= 0:
            F[0, OCC0 + T[SEAT0 + s, S.POS]] = 1.0
    if T[ST, S.NAVY_POS] >= 0:
        F[0, OCC0 + T[ST, S.NAVY_POS]] = 1.0
    own = S.burial_value(T, K, seat)
    mine = attack_dice(T, K, seat)
    bonus_any = T[ST, S.PUBLIC_BONUS] >= 0 or T[SEAT0 + seat, S.PRIVATE_N] > 0
    bank = w(F, seat, W_BANK)
    last_sunset = T[ST, S.FINAL_DAY] == 1 and phase == 1
    bribe = S.bribe_amount(T, K, seat)
    # the Bribe's gold (the wager track's, ship.toml) in Treasure Points at the endgame's rate (gold_per_point)
    bv = -(bribe / P.gold_per_point) if T[SEAT0 + seat, S.GOLD] >= bribe else BARRED
    if T[SEAT0 + seat, S.REL_NO_BRIBE] > 0:
        bv = 0.0  # enters unbribed (A68)
    dig_and_collect = T[SEAT0 + seat, S.REL_COLLECT_AFTER_BURIAL] > 0
    payout = w(F, seat, W_PAYOUT)
    exposure = w(F, seat, W_EXPOSURE)
    held = unbound_total(T, seat)
    guard = public_defence(T, seat)
    for a in range(len(S.ACTIONS)):
        F[0, ACT0 + a] = UNKNOWN  # valued when a space in reach first shows the action
    for b in range(n):
        d = K[S.DIST0 + here, b]
        if d > budget:
            scores[b] = BARRED
            continue
        c = S.space_treasure(T, b)
        col = F[0, GAIN0 + c] if c >= 0 else 0.0
        if payout > 0.0 and c >= 0 and can_hold(T, K, seat, c):
            ctrl = T[CONTROL, S.CTRL_REGION0 + K[S.SP_REGION, b]]
            if ctrl >= 0 and ctrl != seat:
                col -= payout  # the Region's controller draws a treasure (Taking Control)
        if exposure > 0.0:  # what stays unburied there is in reach of rivals (and the Navy at Sunset)
            carried = held + (1 if c >= 0 and can_hold(T, K, seat, c) else 0)
            col -= exposure * carried * threat_at(P, T, K, seat, b, phase, players, guard)
        best = col
        if own > 0:
            bonus = bonus_here(T, K, seat, b, upper, lower) if bonus_any else 0
            v = float(own + bonus) if (own + bonus >= bank or last_sunset) else float(bonus)
            best = max(best, v + col if dig_and_collect else v)
        if b != here:
            act = K[S.SP_ACTION, b]
            if act == S.ACT_EXTRA:
                a = action_value(P, T, K, F, seat, act, b, players)
            else:
                if F[0, ACT0 + act] == UNKNOWN:
                    F[0, ACT0 + act] = action_value(P, T, K, F, seat, act, b, players)
                a = F[0, ACT0 + act]
            if a > 0 and a + col > best:
                best = a + col
            if F[0, OCC0 + b] > 0:
                foe = best_foe(T, K, F, seat, b, players, mine, own)
                fv = fight_value_with(T, K, F, seat, foe, mine, own) if foe != NONE else BARRED
                if fv > bv:
                    best = fv + 0.5 * col  # a fight is the turn's Act
                else:
                    best += bv
        scores[b] = best - 0.6 * d
    return pick_best(scores, rng, seat, n)


@jit(runtime=False)
def best_foe(T, K, F, seat, space, players, mine, own):
    """The occupant of `space` most worth attacking (a pirate with unbound treasure, else the
    Navy if it is there), or -1 when none is worth more than 0."""
    best = NONE
    best_v = 0.0
    for s in range(players):
        if s != seat and T[SEAT0 + s, S.POS] == space:
            v = fight_value_with(T, K, F, seat, np.int64(s), mine, own)
            if v > best_v:
                best_v = v
                best = np.int64(s)
    if T[ST, S.NAVY_POS] == space:
        v = fight_value_with(T, K, F, seat, np.int64(S.FOE_NAVY), mine, own)
        if v > best_v:
            best = np.int64(S.FOE_NAVY)
    return best


@jit(runtime=False)
def choose_foe(P, T, K, F, rng, seat, space, players):
    """On entering an occupied space: -1 to pay the Bribe (to pass unbribed with a no_bribe
    relic), else the ship to fight."""
    bribe = 0 if T[SEAT0 + seat, S.REL_NO_BRIBE] > 0 else S.bribe_amount(T, K, seat)
    can_bribe = T[SEAT0 + seat, S.GOLD] >= bribe
    if plays_random(F, rng, seat):  # a rival there, the Navy there, or the Bribe
        options = S.foes_at(T, seat, space, players)
        if can_bribe:
            options |= option(S.BRIBE_OPTION)
        pick = pick_option(options, rng, seat)
        if pick == S.NAVY_OPTION:
            return np.int64(S.FOE_NAVY)
        if pick == S.BRIBE_OPTION:
            return NONE
        return pick
    foe = best_foe(T, K, F, seat, space, players, attack_dice(T, K, seat), S.burial_value(T, K, seat))
    if foe == NONE:
        return NONE
    if can_bribe and fight_value(T, K, F, seat, foe) < bribe / P.gold_per_point:  # the Bribe in Treasure Points
        return NONE
    return foe


@jit(runtime=False)
def choose_act(P, T, K, F, rng, seat, phase, players):
    here = T[SEAT0 + seat, S.POS]
    moved = T[SEAT0 + seat, S.MOVED] == 1
    can_bury = S.burial_value(T, K, seat) > 0
    can_act = moved and S.action_legal(P, T, K, seat, K[S.SP_ACTION, here], here, players)
    if plays_random(F, rng, seat):
        options = option(ACT_NONE)
        if can_bury:
            options |= option(ACT_BURY)
        if can_act:
            options |= option(ACT_BOARD)
        return pick_option(options, rng, seat)
    col = collect_value(T, K, F, seat, here)
    b = bury_value(P, T, K, F, seat, here, phase) if can_bury else -1.0
    a = action_value(P, T, K, F, seat, K[S.SP_ACTION, here], here, players) if can_act else -1.0
    if T[SEAT0 + seat, S.REL_COLLECT_AFTER_BURIAL] > 0 and b > 0:
        b += col  # it still collects after burying (A68)
    if b > col and b > a + col:
        return ACT_BURY
    if a > 0:
        return ACT_BOARD
    return ACT_NONE


@jit(runtime=False)
def want_collect(P, T, K, F, rng, seat):
    if plays_random(F, rng, seat):
        return decide(rng, seat, 2) == 1
    return True


@jit(runtime=False)
def cash_die(T, K, F, rng, seat, i, phase):
    """End of turn: command this ready die to gather its gold or rum now? The rest wait for the
    Midnight Wager (or a battle)."""
    f = T[DICE0 + seat, FACE + i]
    if plays_random(F, rng, seat):
        return decide(rng, seat, 2) == 0
    if phase == 0:
        return False
    return K[S.CREW_NUMBER, f] < w(F, seat, W_WAGER)


@jit(runtime=False)
def reroll_mask(P, T, K, F, rng, seat):
    n = S.DIE_SLOTS
    if plays_random(F, rng, seat):
        if decide(rng, seat, 2) == 0:
            return np.int64(0)
        return np.int64(decide(rng, seat, 1 << T[SEAT0 + seat, S.CREW_N]))
    if T[SEAT0 + seat, S.GOLD] < P.reroll_cost + w(F, seat, W_RESERVE):
        return np.int64(0)
    mask = np.int64(0)
    low = 0
    for i in range(n):
        if T[DICE0 + seat, READY + i] == 1 and K[S.CREW_NUMBER, T[DICE0 + seat, FACE + i]] <= w(F, seat, W_REROLL):
            mask |= np.int64(1) << i
            low += 1
    return mask if low >= 2 else np.int64(0)


# --------------------------------------------------------------------------- inside actions and combat
@jit(runtime=False)
def commit_combat_die(T, K, F, rng, seat, res):
    if plays_random(F, rng, seat):
        return decide(rng, seat, 2) == 1
    return True


@jit(runtime=False)
def pick_recycle(T, K, F, rng, seat):
    """A die slot to recycle (TOA-192: any of its dice, commanded or not), among those the engine
    has not marked in SCRATCH yet; -1 none. The heuristic takes commanded dice first, then the
    ready die with the lowest Number."""
    scores = F[0]
    randomly = plays_random(F, rng, seat)
    k = 0
    for i in range(S.DIE_SLOTS):
        if not S.owns_die(T, seat, i) or T[S.SCRATCH, i] == 1:
            scores[i] = BARRED
            continue
        k += 1
        if randomly:
            scores[i] = 1.0
        elif T[DICE0 + seat, READY + i] == 0:
            scores[i] = 100.0
        else:
            scores[i] = -1.0 * K[S.CREW_NUMBER, T[DICE0 + seat, FACE + i]]
    if k == 0:
        return NONE
    return pick_best(scores, rng, seat, S.DIE_SLOTS)


@jit(runtime=False)
def jettison_treasure(T, K, F, rng, seat):
    """Sinking: True to throw all treasure overboard, False to lose a crew die."""
    if T[SEAT0 + seat, S.CREW_N] <= 1:
        return True
    if plays_random(F, rng, seat):
        return decide(rng, seat, 2) == 1
    return S.burial_value(T, K, seat) < w(F, seat, W_SINK)


@jit(runtime=False)
def pick_steal(T, K, F, rng, winner, loser):
    """A colour of the loser's unbound treasure that fits the winner's hold (-1 none)."""
    scores = F[0]
    k = 0
    randomly = plays_random(F, rng, winner)
    for c in range(S.N_COLOURS):
        ok = T[HOLD0 + loser, S.UNBOUND + c] > 0 and can_hold(T, K, winner, c)
        if randomly:
            scores[c] = 1.0 if ok else BARRED
        else:
            scores[c] = gain_of(T, K, winner, c) * 10.0 + T[HOLD0 + loser, S.UNBOUND + c] if ok else BARRED
        if ok:
            k += 1
    if k == 0:
        return NONE
    return pick_best(scores, rng, winner, S.N_COLOURS)


@jit(runtime=False)
def pick_loss(T, K, F, rng, seat):
    """The unbound colour the seat gives up to an enemy (-1 none): a duplicate before a colour
    that would empty an Upper space."""
    scores = F[0]
    k = 0
    randomly = plays_random(F, rng, seat)
    for c in range(S.N_COLOURS):
        ok = T[HOLD0 + seat, S.UNBOUND + c] > 0
        if randomly:
            scores[c] = 1.0 if ok else BARRED
        else:
            scores[c] = (2.0 if colour_count(T, seat, c) >= 2 else 1.0) if ok else BARRED
        if ok:
            k += 1
    if k == 0:
        return NONE
    return pick_best(scores, rng, seat, S.N_COLOURS)


@jit(runtime=False)
def pick_bind(T, K, F, rng, seat):
    """A colour to bind (-1 none): the one with the most unbound treasure."""
    scores = F[0]
    k = 0
    randomly = plays_random(F, rng, seat)
    for c in range(S.N_COLOURS):
        n = T[HOLD0 + seat, S.UNBOUND + c]
        scores[c] = (1.0 if randomly else n * 1.0) if n > 0 else BARRED
        if n > 0:
            k += 1
    if k == 0:
        return NONE
    return pick_best(scores, rng, seat, S.N_COLOURS)


@jit(runtime=False)
def whirlpool_target(P, T, K, F, rng, seat, players):
    """Any other space without a ship (A32)."""
    here = T[SEAT0 + seat, S.POS]
    scores = F[0]
    n = K[META, S.N_SPACES]
    randomly = plays_random(F, rng, seat)
    for b in range(n):
        if not S.whirlpool_legal(T, K, seat, b, players):
            scores[b] = BARRED
        elif randomly:
            scores[b] = 1.0
        else:
            upper, lower = hold_shape(T, seat)
            scores[b] = collect_value(T, K, F, seat, b) + 0.1 * bonus_here(T, K, seat, b, upper, lower)
    k = pick_best(scores, rng, seat, n)
    return k if scores[k] > BARRED_BELOW else here


@jit(runtime=False)
def region_target(P, T, K, F, rng, seat, players):
    scores = F[0]
    n = K[META, S.N_REGIONS]
    randomly = plays_random(F, rng, seat)
    for r in range(n):
        if not S.can_control(T, K, seat, S.CTRL_REGION0 + r):
            scores[r] = BARRED
        elif randomly:
            scores[r] = 1.0
        else:
            v = 0.0
            for sp in range(K[META, S.N_SPACES]):
                if K[S.SP_REGION, sp] == r:
                    v += K[S.SP_SLOTS, sp]
            scores[r] = v - T[CONTROL, S.SLOOPS_AT + S.CTRL_REGION0 + r]
    return pick_best(scores, rng, seat, n)


@jit(runtime=False)
def navy_target(P, T, K, F, rng, seat, players):
    """Where to relocate the Navy (within reach): next to the rival with the most unbound treasure."""
    victim = NONE
    most = 0
    for s in range(players):
        if s != seat and T[SEAT0 + s, S.POS] >= 0 and unbound_total(T, s) > most:
            most = unbound_total(T, s)
            victim = np.int64(s)
    scores = F[0]
    n = K[META, S.N_SPACES]
    randomly = plays_random(F, rng, seat)
    for b in range(n):
        if not S.relocate_legal(P, T, K, b):
            scores[b] = BARRED
        elif randomly or victim < 0:
            scores[b] = 1.0
        else:
            d = K[S.DIST0 + b, T[SEAT0 + victim, S.POS]]
            scores[b] = -abs(d - 1) - 2.0 * (K[S.DIST0 + b, T[SEAT0 + seat, S.POS]] <= 2)
    return pick_best(scores, rng, seat, n)


@jit(runtime=False)
def unlock_target(P, T, K, F, rng, seat, players):
    """A locked endgame bonus: the one the seat leads by the most."""
    scores = F[0]
    randomly = plays_random(F, rng, seat)
    for j in range(4):
        if T[S.ENDGAME, S.TOKEN_COL + j] != 0:
            scores[j] = BARRED
            continue
        if randomly:
            scores[j] = 1.0
            continue
        card = T[S.ENDGAME, j]
        kind = K[S.EG_KIND, card]
        arg = K[S.EG_ARG, card]
        mine = metric(T, seat, kind, arg)
        best_other = NO_BEST
        for s in range(players):
            if s != seat:
                best_other = max(best_other, metric(T, s, kind, arg))
        scores[j] = mine - best_other
    return pick_best(scores, rng, seat, np.int64(4))


@jit(runtime=False)
def metric(T, s, kind, arg):
    """A seat's public standing for an endgame bonus (buried colours count the hold, as burials
    are secret)."""
    row = SEAT0 + s
    if kind == S.EG_CREW:
        return 1.0 * T[row, S.CREW_N]
    if kind == S.EG_RELICS:
        return 1.0 * T[row, S.N_RELICS]
    if kind == S.EG_BURIALS:
        return 1.0 * T[row, S.BURIALS]
    if kind == S.EG_FIGHTS:
        return 1.0 * T[row, S.FIGHTS_WON]
    if kind == S.EG_UPGRADES:
        return 1.0 * (T[row, S.ATTACK] + T[row, S.DEFENCE] + T[row, S.FLEET] + T[row, S.CREW_UP])
    if kind == S.EG_SINKINGS:
        return -1.0 * T[row, S.SINKINGS]
    return 1.0 * colour_count(T, s, arg)


@jit(runtime=False)
def refresh_relics(T, K, F, rng, seat):
    if plays_random(F, rng, seat):
        return decide(rng, seat, 2) == 1
    return False


@jit(runtime=False)
def relic_worth(T, K, F, seat, card):
    e = K[S.RELIC_EFFECT, card]
    a = K[S.RELIC_AMOUNT, card]
    if e >= S.N_BONUS_EFFECTS:  # a rule-breaking relic (A68): a second of one kind adds nothing
        if T[SEAT0 + seat, S.REL0 + e] > 0:
            return 0.0
        if e == S.RE_NO_BRIBE:
            return 1.0 + 0.5 * w(F, seat, W_RAID)
        if e == S.RE_ANY_COLOUR:
            return 1.5
        if e == S.RE_COLLECT_AFTER_BURIAL:
            return 0.5 + w(F, seat, W_GREED)
        if e == S.RE_STEAL_UP:
            return 0.5 + w(F, seat, W_RAID)
        if e == S.RE_NAVY_PASSES:
            return 1.0 + 0.1 * w(F, seat, W_BANK)
        return 0.5 + w(F, seat, W_RAID)  # wind_always
    if e == S.RE_ATTACK:
        return a * (0.5 + w(F, seat, W_RAID))
    if e == S.RE_DEFENCE:
        return a * 1.0
    if e == S.RE_BURIAL:
        return a * 1.5
    if e == S.RE_WAGER:
        return a * 0.4
    return a * 1.2  # rum or gold every Day


@jit(runtime=False)
def pick_relic(T, K, F, rng, seat):
    n = T[ST, S.DISPLAY_N]
    if n == 0:
        return NONE
    scores = F[0]
    randomly = plays_random(F, rng, seat)
    for i in range(n):
        scores[i] = 1.0 if randomly else relic_worth(T, K, F, seat, T[S.DISPLAY, i])
    return pick_best(scores, rng, seat, n)


@jit(runtime=False)
def want_second_relic(P, T, K, F, rng, seat):
    if plays_random(F, rng, seat):
        return decide(rng, seat, 2) == 1
    return w(F, seat, W_RELIC) > 1.0 and T[SEAT0 + seat, S.GOLD] >= P.second_relic_cost + w(F, seat, W_RESERVE)


# --------------------------------------------------------------------------- the Night
@jit(inline="always", runtime=False)
def plan_step(K, t, levels, plan, gold, rum):
    """One more planned step of track t, paid from this gold or rum: returns what is left."""
    cost = S.upgrade_step_cost(K, t, levels[t])
    if K[S.UP_CURRENCY, t] == S.CUR_GOLD:
        gold -= cost
    else:
        rum -= cost
    levels[t] += 1
    plan[t] += 1
    return gold, rum


@jit(runtime=False)
def plan_upgrades(P, T, K, F, rng, seat):
    """Write the seat's purchases into its PLAN row (steps per track, column 4: dice bought back),
    reading only its own gold and rum and the public tracks: nobody's choice is seen first."""
    row = SEAT0 + seat
    gold = T[row, S.GOLD]
    rum = T[row, S.RUM]
    levels = T[S.SCRATCH2]
    for t in range(4):
        levels[t] = T[row, S.ATTACK + t]
    plan = T[S.PLAN0 + seat]
    randomly = plays_random(F, rng, seat)
    if S.can_rebuy_die(P, T, seat, rum) and (not randomly or decide(rng, seat, 2) == 1):
        plan[4] = 1
        rum -= P.rebuy_rum
    if randomly:
        for _ in range(16):  # uniform over the steps it can still pay for and stopping, until it stops
            options = np.int64(0)  # a step of track t as alternative t, stopping as alternative 4
            for t in range(4):
                if S.can_pay_upgrade(K, t, levels[t], gold, rum):
                    options |= option(t)
            if options == 0:
                break
            t = pick_option(options | option(STOP_BUYING), rng, seat)
            if t == STOP_BUYING:
                break
            gold, rum = plan_step(K, t, levels, plan, gold, rum)
        return
    reserve = w(F, seat, W_RESERVE)
    for _ in range(6):
        best = -1
        best_v = 0.0
        for t in range(4):
            cost = S.upgrade_step_cost(K, t, levels[t])
            if cost < 0:
                continue
            if K[S.UP_CURRENCY, t] == S.CUR_GOLD:
                ok = gold - cost >= reserve
            else:
                ok = rum - cost >= 1
            if t == S.UP_CREW and T[row, S.CREW_N] >= S.MAX_DICE:
                ok = False
            v = w(F, seat, W_UP_ATTACK + t) / (cost + 1.0)
            if ok and v > best_v:
                best_v = v
                best = t
        if best < 0:
            break
        gold, rum = plan_step(K, best, levels, plan, gold, rum)
