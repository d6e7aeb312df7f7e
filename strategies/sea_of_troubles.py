"""Sea of Troubles bots: one compiled heuristic policy, many presets (DESIGN §5).

A preset is a row of weights. Each step of a turn the engine lists the legal actions and
asks `score` to value each; `answer`, `concede_now`, `pillage_target` and `bid_count` make
the fight, pillage and bid decisions. The policy reads only what its player sees: its own
hand, every pirate's square, damage, Infamy tokens and face-up carried treasure, the ports'
counters, the quests and the burial markers; never another hand or a deck's order (the
defender sees only how many cards the attacker committed).
Policy 0 (`random`) never calls these helpers: the engine chooses uniformly instead. Policy 2
(`lookahead`, simkit/games/sea_of_troubles/lookahead.py) plays the heuristic with the default
preset's weights and, at each step of its turn, plays out the policy's best few actions.
"""

from pathlib import Path

from numba import njit

from simkit.bots import LOOKAHEAD as LOOKAHEAD_TIER
from simkit.bots import RANDOM as BASELINE
from simkit.bots import BotParam
from simkit.game import Preset, with_tuned
from simkit.games.sea_of_troubles import state as S
from simkit.games.sea_of_troubles.state import CARRY0, HAND0, META, SEAT0, ST, carried_infamy, type_total

# preset weight slots
POLICY = 0  # 0 random, 1 heuristic
W_PILLAGE = 1  # value of pillaging a port (and of sailing to an open one)
W_HUNT = 2  # value per carried Infamy of boarding a carrier
W_SHOOT = 3  # value of shooting a pirate
W_BURY = 4  # value per Infamy of burying (and sailing to an X to bury)
W_QUEST = 5  # value per Infamy of a delivery quest
W_DIG = 6  # value of digging up a rival's treasure
W_COMMIT = 7  # total the bot commits to a pillage
W_NERVE = 8  # fight: concede when the best answer is below this share of the attack's expectation
W_BID = 9  # cards bid at the end of a round (0-2)
W_MIN_FIGHT = 10  # smallest card total the bot attacks with
W_DISCARD = 11  # at the round's end, action cards of this value or less are discarded and redrawn
N_HEURISTIC = 12  # the slots above are the heuristic's; the lookahead tier's knobs follow
W_LA_CANDIDATES = 12  # lookahead: candidates played out per step (the policy's best first)
W_LA_ROLLOUTS = 13  # lookahead: playouts per candidate
W_LA_HORIZON = 14  # lookahead: rounds played after the current one before a playout is scored
W_LA_MARGIN = 15  # lookahead: a playout's worth per point of margin over the best rival, beside its win share
N_WEIGHTS = 16
LOOKAHEAD = 2.0  # POLICY of the lookahead tier (0 random, 1 heuristic)

#            pol  pill hunt shoot bury quest dig  commit nerve bid minf disc
RANDOM = (0.0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
PILLAGER = (1.0, 3.0, 0.5, 0.2, 1.2, 1.5, 1.0, 9.0, 0.5, 2.0, 6.0, 1.0)
DUELLIST = (1.0, 1.5, 2.0, 1.0, 1.0, 1.0, 1.0, 9.0, 0.6, 2.0, 5.0, 1.0)
HOARDER = (1.0, 2.5, 0.3, 0.1, 3.0, 1.0, 1.5, 9.0, 0.4, 1.0, 7.0, 1.0)
QUESTER = (1.0, 2.5, 0.3, 0.1, 1.0, 3.0, 1.0, 9.0, 0.5, 1.0, 7.0, 1.0)
#                          cand rollouts horizon margin
LOOKAHEAD_PRESET = (LOOKAHEAD,) + PILLAGER[1:] + (4.0, 4.0, 0.0, 0.2)  # plays out from the default's policy

PRESETS = (
    Preset("random", "uniform over legal choices (the baseline)", RANDOM, BASELINE),
    Preset("pillager", "raids open ports, buries what it cannot defend", PILLAGER),
    Preset("duellist", "hunts pirates carrying treasure, shoots, bids for the first turn", DUELLIST),
    Preset("hoarder", "pillages and buries early at its X", HOARDER),
    Preset("quester", "pillages, then delivers treasure to the quests' ports", QUESTER),
    Preset("lookahead", "at each step plays out the default's 4 best actions 4 times each to the round's end, "
           "and takes the best", LOOKAHEAD_PRESET, LOOKAHEAD_TIER),
)

# every weight and threshold above, declared for --bot, [bots.<label>], simkit strategies and simkit train
PARAMS = (
    BotParam("pillage", W_PILLAGE, 0, 8, "value of pillaging a port (and of sailing to an open one)"),
    BotParam("hunt", W_HUNT, 0, 6, "value per carried Infamy of boarding a carrier"),
    BotParam("shoot", W_SHOOT, 0, 4, "value of shooting a pirate"),
    BotParam("bury", W_BURY, 0, 8, "value per Infamy of burying (and sailing to an X to bury)"),
    BotParam("quest", W_QUEST, 0, 8, "value per Infamy of a delivery quest"),
    BotParam("dig", W_DIG, 0, 5, "value of digging up a rival's treasure"),
    BotParam("commit", W_COMMIT, 0, 30, "total the bot commits to a pillage"),
    BotParam("nerve", W_NERVE, 0, 1.5, "fight: concede when the best answer is below this share of the attack's "
             "expectation"),
    BotParam("bid", W_BID, 0, 2, "cards bid at the end of a round", integer=True),
    BotParam("min_fight", W_MIN_FIGHT, 0, 20, "smallest card total the bot attacks with"),
    BotParam("discard", W_DISCARD, 0, 10, "at the round's end, action cards of this value or less are discarded and "
             "redrawn", integer=True),
    BotParam("candidates", W_LA_CANDIDATES, 1, 16, "candidates played out per step (the policy's best first)",
             integer=True, reader=LOOKAHEAD_TIER),
    BotParam("rollouts", W_LA_ROLLOUTS, 1, 64, "playouts per candidate", integer=True, reader=LOOKAHEAD_TIER),
    BotParam("horizon", W_LA_HORIZON, 0, 10, "rounds played after the current one before a playout is scored",
             integer=True, reader=LOOKAHEAD_TIER),
    BotParam("margin", W_LA_MARGIN, 0, 2, "a playout's worth per point of margin over the best rival",
             reader=LOOKAHEAD_TIER),
)
# the `tuned` preset, once `simkit train` has written tuned.toml into the game's package
PRESETS = with_tuned(PRESETS, PARAMS, Path(S.__file__).parent)
DEFAULT = "pillager"

A_END, A_MOVE, A_PILLAGE, A_BOARD, A_SHOOT, A_BURY, A_DIG, A_DELIVER, A_RECOVER = 0, 1, 2, 3, 4, 5, 6, 7, 8


@njit(cache=True)
def own_view(T, K, seat):
    """What scoring reads of the seat's own hand and ship, once per step: the Swords, Cannons
    and Wilds totals (a Wild counts in the Swords and Cannons totals too) and the Infamy of
    the treasure it carries."""
    sw = 0
    ca = 0
    wi = 0
    for i in range(T[SEAT0 + seat, S.HAND_N]):
        c = T[HAND0 + seat, i]
        t = K[S.CARD_TYPE, c]
        v = K[S.CARD_VALUE, c]
        if t == S.WILD:
            wi += v
            sw += v
            ca += v
        elif t == S.SWORD:
            sw += v
        elif t == S.CANNON:
            ca += v
    return sw, ca, wi, carried_infamy(T, K, seat)


@njit(cache=True)
def pillage_total(P, own):
    """What the hand can commit to a pillage: Swords and Cannons, each Wild once if Wilds may join (A2)."""
    if P.wild_pillage:
        return own[0] + own[1] - own[2]
    return own[0] + own[1] - 2 * own[2]


@njit(cache=True)
def carries_kind(T, K, seat, kind):
    """Whether the seat carries a treasure of that kind (-1: any treasure)."""
    for i in range(T[SEAT0 + seat, S.CARRY_N]):
        if kind < 0 or K[S.TREAS_KIND, T[CARRY0 + seat, i]] == kind:
            return True
    return False


@njit(cache=True)
def pillage_target(F, seat):
    return F[1 + seat, W_COMMIT]


@njit(cache=True)
def answer(P, T, K, F, dfn, att, na):
    """The defender's type (-1 concede): its biggest total, if it is worth a fight."""
    best = -1
    best_t = -1
    for t in range(3):
        v = type_total(T, K, dfn, t)
        if v > best_t and v > 0:
            best_t = v
            best = t
    if best < 0 or best_t < F[1 + dfn, W_NERVE] * na * 2.5:
        return -1
    return best


@njit(cache=True)
def concede_now(F, dfn, sa, sd, rest_d, att_left):
    """Concede mid-reveal (keeping the unflipped cards) once the fight is lost for certain."""
    return sd + rest_d < sa


@njit(cache=True)
def discard_below(F, seat):
    return F[1 + seat, W_DISCARD]


@njit(cache=True)
def quest_for(T, K, kind):
    """The most Infamy a quest on the table pays for a treasure of this kind (0 none)."""
    best = 0
    for slot in range(K[META, S.N_Q]):
        q = T[S.QUEST, slot]
        if q >= 0 and (K[S.Q_KIND, q] < 0 or K[S.Q_KIND, q] == kind):
            best = max(best, K[S.Q_INF, q])
    return best


@njit(cache=True)
def bid_count(F, seat, compulsory):
    n = int(F[1 + seat, W_BID] + 0.5)
    if compulsory and n < 1:
        n = 1
    return min(max(n, 0), 2)


@njit(cache=True)
def target_value(P, T, K, F, seat, sq, players, own):
    """What sailing to square sq is worth to the seat."""
    w = F[1 + seat]
    kind = K[S.SQ_KIND, sq]
    ghost = T[SEAT0 + seat, S.STATE] == S.GHOST
    v = 0.0
    swords, _cannons, _wilds, mine = own
    if kind == S.PORT and not ghost:
        p = K[S.SQ_INDEX, sq]
        if T[S.PORT_CLOSED, p] == 0 and T[ST, S.TDECK_N] > 0 and pillage_total(P, own) >= w[W_COMMIT] * 0.8:
            v += w[W_PILLAGE]
        for slot in range(K[META, S.N_Q]):
            q = T[S.QUEST, slot]
            if q >= 0 and K[S.Q_PORT, q] == p and carries_kind(T, K, seat, K[S.Q_KIND, q]):
                v += w[W_QUEST] * K[S.Q_INF, q]
    if kind == S.XSPOT and not ghost and mine > 0:
        x = K[S.SQ_INDEX, sq]
        owner = T[S.XOWNER, x]
        if owner == seat or (owner < 0 and (P.skirmish or T[SEAT0 + seat, S.BURY_X] < 0)):
            v += w[W_BURY] * mine
    if kind == S.XSPOT and not ghost:
        owner = T[S.XOWNER, K[S.SQ_INDEX, sq]]
        if owner >= 0 and owner != seat and T[SEAT0 + owner, S.BURY_N] > 0:
            v += w[W_DIG] * 0.5
    for o in range(players):
        if o != seat and T[SEAT0 + o, S.POS] == sq and swords >= w[W_MIN_FIGHT]:
            v += w[W_HUNT] * carried_infamy(T, K, o)
    return v


@njit(cache=True)
def score(P, T, K, F, seat, kind, arg, players, own):
    """The value of one legal action; `own` is own_view(T, K, seat) for this step."""
    w = F[1 + seat]
    if kind == A_END:
        return 0.0
    if kind == A_PILLAGE:
        atk = pillage_total(P, own)
        return w[W_PILLAGE] if atk >= w[W_COMMIT] else -1.0
    if kind == A_BOARD:
        if own[0] < w[W_MIN_FIGHT]:
            return -1.0
        return w[W_HUNT] * (carried_infamy(T, K, arg) + 0.3) - 0.2 * T[SEAT0 + arg, S.HAND_N] / 8.0
    if kind == A_SHOOT:
        if own[1] < w[W_MIN_FIGHT]:
            return -1.0
        return w[W_SHOOT] * (1.0 + 0.5 * T[SEAT0 + arg, S.DAMAGE])
    if kind == A_BURY:
        return w[W_BURY] * K[S.TREAS_INF, T[CARRY0 + seat, arg]]
    if kind == A_DIG:
        return w[W_DIG]
    if kind == A_RECOVER:  # dig up one's own treasure only to deliver it
        tr = T[S.BURY0 + seat, arg]
        q = quest_for(T, K, K[S.TREAS_KIND, tr])
        return 0.4 * w[W_QUEST] * (q - K[S.TREAS_INF, tr]) if q > K[S.TREAS_INF, tr] else -1.0
    if kind == A_DELIVER:
        q = T[S.QUEST, arg]  # the quest's Infamy less the treasure handed over (A18: the cheapest)
        lost = 99
        for i in range(T[SEAT0 + seat, S.CARRY_N]):
            tr = T[CARRY0 + seat, i]
            if K[S.Q_KIND, q] < 0 or K[S.TREAS_KIND, tr] == K[S.Q_KIND, q]:
                lost = min(lost, K[S.TREAS_INF, tr])
        net = K[S.Q_INF, q] - lost
        return w[W_QUEST] * net + 0.5 if net >= 0 else -1.0
    # A_MOVE: the target's value, discounted by distance, and only worth it if reachable this turn
    a = T[SEAT0 + seat, S.POS]
    if T[SEAT0 + seat, S.STATE] == S.GHOST:
        d = K[S.GDIST0 + a, arg]
    else:
        d = K[S.DIST0 + a, arg]
    if d >= S.FAR:
        return -1.0
    v = target_value(P, T, K, F, seat, arg, players, own)
    if v <= 0.0:
        return -1.0
    return v / (1.0 + 0.15 * d) - 0.05
