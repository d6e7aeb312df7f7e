"""Sea of Troubles bots: one compiled heuristic policy, many presets
(docs/architecture.md, "The game package contract").

A preset is a row of weights. Each step of a turn the engine lists the legal actions and
asks `score` to value each; `answer`, `concede_now`, `pillage_target` and `bid_count` make
the fight, pillage and bid decisions. The policy reads only what its player sees: its own
hand, every pirate's square, damage, Infamy tokens and face-up carried treasure, the ports'
counters, the quests and the burial markers; never another hand or a deck's order (the
defender sees only how many cards the attacker committed).
Policy 0 (`random`) never calls these helpers: the engine chooses uniformly instead. Policy 2
(the lookahead tier, simkit/games/sea_of_troubles/lookahead.py) plays the heuristic with its
row's weights (`lookahead`: the default preset's, `expert`: the tuned preset's) and, at each
step of its turn, plays out the policy's best few actions; `expert` plays out its bids too.
"""

import math
from pathlib import Path

from simkit.core.bots import HEURISTIC_POLICY, LOOKAHEAD_POLICY, RANDOM_POLICY, BotParam
from simkit.core.bots import LOOKAHEAD as LOOKAHEAD_TIER
from simkit.core.bots import RANDOM as BASELINE
from simkit.core.game import Preset, with_tuned
from simkit.core.jit import jit
from simkit.core.kernels import FALSE, TRUE, offers
from simkit.games.sea_of_troubles import state as S
from simkit.games.sea_of_troubles.state import CARRY0, META, SEAT0, ST, carried_infamy, type_total

# preset weight slots
POLICY = 0  # the policy code (simkit.core.bots: RANDOM_POLICY, HEURISTIC_POLICY, LOOKAHEAD_POLICY)
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
# the judgement the rollouts showed missing (each off at 0, as every preset above the tuned one holds it)
W_FIGHT = 12  # value per point of a fight's expected Infamy swing; with it the min_fight gate no longer bars a fight
W_GUARD = 13  # fight odds: the defender's expected answer per card in its hand (after its draw)
W_DIG_ODDS = 14  # value per point of a dig's expected Infamy swing (the rival's buried count, the draw's odds)
W_LONG_SHOT = 15  # pillage below the commit total when its chance of failing is at most this (0 never)
N_HEURISTIC = 16  # the slots above are the heuristic's; the lookahead tier's knobs follow
W_LA_CANDIDATES = 16  # lookahead: candidates played out per step (the policy's best first)
W_LA_ROLLOUTS = 17  # lookahead: playouts per candidate
W_LA_HORIZON = 18  # lookahead: rounds played after the current one before a playout is scored
W_LA_MARGIN = 19  # lookahead: a playout's worth per point of margin over the best rival, beside its win share
W_LA_BIDS = 20  # lookahead: playouts per bid count (0, 1, 2 cards) at the round's end (0: bid as the heuristic)
W_LA_START = 21  # lookahead: having won a bid, name the next seat to start (so this one plays last); 0 start itself
N_WEIGHTS = 22

#            pol  pill hunt shoot bury quest dig  commit nerve bid minf disc fight guard dodds long
RANDOM = (RANDOM_POLICY, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
PILLAGER = (HEURISTIC_POLICY, 3.0, 0.5, 0.2, 1.2, 1.5, 1.0, 9.0, 0.5, 2.0, 6.0, 1.0, 0.0, 1.5, 0.0, 0.0)
DUELLIST = (HEURISTIC_POLICY, 1.5, 2.0, 1.0, 1.0, 1.0, 1.0, 9.0, 0.6, 2.0, 5.0, 1.0, 0.0, 1.5, 0.0, 0.0)
HOARDER = (HEURISTIC_POLICY, 2.5, 0.3, 0.1, 3.0, 1.0, 1.5, 9.0, 0.4, 1.0, 7.0, 1.0, 0.0, 1.5, 0.0, 0.0)
QUESTER = (HEURISTIC_POLICY, 2.5, 0.3, 0.1, 1.0, 3.0, 1.0, 9.0, 0.5, 1.0, 7.0, 1.0, 0.0, 1.5, 0.0, 0.0)
#                          cand rollouts horizon margin
LOOKAHEAD_PRESET = (LOOKAHEAD_POLICY,) + PILLAGER[1:] + (4.0, 4.0, 0.0, 0.2, 0.0, 0.0)  # plays out from the default's policy
#              cand rollouts horizon margin bids start (the expert's knobs, on the tuned preset's weights; chosen
#              by measurement, simkit/games/sea_of_troubles/README.md)
EXPERT_KNOBS = (6.0, 12.0, 0.0, 0.2, 4.0, 1.0)

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
    BotParam("fight", W_FIGHT, 0, 4, "value per point of a fight's expected Infamy swing (boarding, shooting, sailing "
             "to a pirate within this turn's reach); above 0 it replaces the min_fight gate of boarding and shooting"),
    BotParam("guard", W_GUARD, 0.5, 3, "fight odds: the defender's expected answer per card in its hand, after its draw"),
    BotParam("dig_odds", W_DIG_ODDS, 0, 4, "value per point of a dig's expected Infamy swing (the rival's buried "
             "count, the chance a draw digs), at its X and sailing to it"),
    BotParam("long_shot", W_LONG_SHOT, 0, 1, "pillage with less than the commit total when the chance of failing "
             "against the port's defence is at most this (0: never)"),
    BotParam("candidates", W_LA_CANDIDATES, 1, 16, "candidates played out per step (the policy's best first)",
             integer=True, reader=LOOKAHEAD_TIER),
    BotParam("rollouts", W_LA_ROLLOUTS, 1, 64, "playouts per candidate", integer=True, reader=LOOKAHEAD_TIER),
    BotParam("horizon", W_LA_HORIZON, 0, 10, "rounds played after the current one before a playout is scored",
             integer=True, reader=LOOKAHEAD_TIER),
    BotParam("margin", W_LA_MARGIN, 0, 2, "a playout's worth per point of margin over the best rival",
             reader=LOOKAHEAD_TIER),
    BotParam("bids", W_LA_BIDS, 0, 64, "playouts per bid count (0, 1 or 2 cards) at the round's end, played to the "
             "next round's end (0: bid as the heuristic)", integer=True, reader=LOOKAHEAD_TIER),
    BotParam("start", W_LA_START, 0, 1, "having won a bid, name the next seat clockwise to start, so this one plays "
             "last (0: start itself)", integer=True, reader=LOOKAHEAD_TIER),
)
# the `tuned` preset, once `simkit train` has written tuned.toml into the game's package
PRESETS = with_tuned(PRESETS, PARAMS, Path(S.__file__).parent)


def with_expert(presets):
    """The presets, with `expert` last when there is a `tuned` one: the lookahead tier on the
    tuned preset's weights, so its first candidate is tuned's choice and its playouts seat
    tuned everywhere (the playouts play the deciding seat's own heuristic weights)."""
    tuned = next((p for p in presets if p.name == "tuned"), None)
    if tuned is None:
        return presets
    weights = (LOOKAHEAD_POLICY,) + tuple(tuned.weights[1:N_HEURISTIC]) + EXPERT_KNOBS
    cand, rollouts, _horizon, _margin, bids, _start = (int(k) for k in EXPERT_KNOBS)
    return presets + (Preset("expert", f"tuned's policy; at each step plays out tuned's {cand} best actions {rollouts} "
                             f"times each to the round's end (tuned in every seat), and its bid of 0-2 cards {bids} "
                             "times each; a bid won, it names the next seat to start and plays last",
                             weights, LOOKAHEAD_TIER),)


PRESETS = with_expert(PRESETS)
# the default stays the pillager: `tuned` beats it (tuned.md) but never bids (bid 0), so in
# self-play the order never changes (A24) and its seat figures are the habit's
# (docs/games/sea_of_troubles.md); it is a skill tier of its own (simkit.core.ladder)
DEFAULT = "pillager"
PREVIOUS_DEFAULT = None

A_END, A_MOVE, A_PILLAGE, A_BOARD, A_SHOOT, A_BURY, A_DIG, A_DELIVER, A_RECOVER = 0, 1, 2, 3, 4, 5, 6, 7, 8


@jit(runtime=False)
def own_view(T, K, seat):
    """What scoring reads of the seat's own hand and ship, once per step: the Swords, Cannons
    and Wilds totals (a Wild counts in the Swords and Cannons totals too) and the Infamy of
    the treasure it carries."""
    sw, _, ca, wi = S.hand_totals(T, K, seat)
    return sw, ca, wi, carried_infamy(T, K, seat)


@jit(runtime=False)
def pillage_total(P, own):
    """What the hand can commit to a pillage: Swords and Cannons, each Wild once if Wilds may join (A2)."""
    if P.wild_pillage:
        return own[0] + own[1] - own[2]
    return own[0] + own[1] - 2 * own[2]


@jit(runtime=False)
def carries_kind(T, K, seat, kind):
    """Whether the seat carries a treasure of that kind (-1: any treasure)."""
    for i in range(T[SEAT0 + seat, S.CARRY_N]):
        if kind < 0 or K[S.TREAS_KIND, T[CARRY0 + seat, i]] == kind:
            return True
    return False


@jit(runtime=False)
def pillage_target(F, seat):
    return F[1 + seat, W_COMMIT]


@jit(runtime=False)
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


@jit(runtime=False)
def concede_now(F, dfn, sa, sd, rest_d, att_left):
    """Concede mid-reveal (keeping the unflipped cards) once the fight is lost for certain."""
    return sd + rest_d < sa


@jit(runtime=False)
def discard_below(F, seat):
    return F[1 + seat, W_DISCARD]


@jit(runtime=False)
def quest_for(T, K, kind):
    """The most Infamy a quest on the table pays for a treasure of this kind (0 none)."""
    best = 0
    for slot in range(K[META, S.N_Q]):
        q = T[S.QUEST, slot]
        if q >= 0 and (K[S.Q_KIND, q] < 0 or K[S.Q_KIND, q] == kind):
            best = max(best, K[S.Q_INF, q])
    return best


@jit(runtime=False)
def starts_after(F, seat):
    """Whether the seat, having won a bid, names the next seat to start (W_LA_START) instead of itself."""
    return F[1 + seat, W_LA_START] > 0.0


@jit(runtime=False)
def bid_card(T, K, seat):
    """The hand position of the card to bid next: the highest value, the first on a tie."""
    i = 0
    for j in range(T[SEAT0 + seat, S.HAND_N]):
        if K[S.CARD_VALUE, T[S.HAND0 + seat, j]] > K[S.CARD_VALUE, T[S.HAND0 + seat, i]]:
            i = j
    return i


@jit(runtime=False)
def quirk_to_take(T, K, options):
    """A first Infamy's quirk (Quirks): the face-up one worth most, the first on a tie, unless
    the blind draw (offered as alternative QUP_N) is worth more on average."""
    up = T[ST, S.QUP_N]
    k = 0
    for i in range(up):
        if K[S.QK_WORTH, T[S.QUIRK_UP, i]] > K[S.QK_WORTH, T[S.QUIRK_UP, k]]:
            k = i
    if offers(options, up) and K[S.QK_WORTH, T[S.QUIRK_UP, k]] < K[META, S.QUIRK_MEAN]:
        k = up
    return k


@jit(runtime=False)
def bid_count(F, seat, compulsory):
    n = int(F[1 + seat, W_BID] + 0.5)
    if compulsory and n < 1:
        n = 1
    return min(max(n, 0), 2)


FIGHT_SPREAD = 2.0  # fight odds: the spread of a defender's answer around its expectation (a logistic's scale)


@jit(runtime=False)
def tokens_of(T, seat):
    """The Infamy tokens of the seat's current score (the Ghost's own, once it sails)."""
    if T[SEAT0 + seat, S.STATE] == S.GHOST:
        return T[SEAT0 + seat, S.GHOST_INFAMY]
    return T[SEAT0 + seat, S.INFAMY]


@jit(runtime=False)
def fight_swing(P, T, K, F, seat, o, shoot, own):
    """A fight's expected Infamy swing between the seat and pirate o, attacking with all its
    Cannons (shoot) or Swords: the chance it wins (its total against the defender's expected
    answer, W_GUARD per card the defender will hold after its draw) times what the winning
    type takes (LOOT), less the chance it loses times what the defender's answer takes back,
    each answer type alike. Reads only what the seat sees: its hand, the defender's hand
    size, damage, tokens and face-up treasure."""
    w = F[1 + seat]
    mine = own[1] if shoot else own[0]
    h = T[SEAT0 + o, S.HAND_N]
    if h < P.hand_size:
        h += 1  # the defender's draw
    p = 1.0 / (1.0 + math.exp(-(mine - w[W_GUARD] * h) / FIGHT_SPREAD))
    carried = carried_infamy(T, K, o)
    richer = tokens_of(T, o) > tokens_of(T, seat)
    if shoot:  # a token from the pile, one more from a more infamous loser (A20), a damage toward its sinking
        gain = 1.0 + (2.0 if richer else 0.0)
        toward_sinking = carried / max(1.0, P.sink_damage - T[SEAT0 + o, S.DAMAGE])
        gain += toward_sinking
        if P.sunk_treasure == S.SUNK_ATTACKER:  # the sinking pirate takes the treasure too (A12)
            gain += toward_sinking
    elif carried > 0:  # all its carried treasure; the Ghost gives up its best one (Ghost Pirate)
        if T[SEAT0 + o, S.STATE] == S.GHOST:
            best = 0
            for i in range(T[SEAT0 + o, S.CARRY_N]):
                best = max(best, K[S.TREAS_INF, T[CARRY0 + o, i]])
            gain = 2.0 * best
        else:
            gain = 2.0 * carried
    else:
        gain = 2.0 if tokens_of(T, o) > 0 else 0.0
    # lost: a Cannons answer takes a token (two from a richer attacker) and deals a damage, a Swords
    # answer takes the attacker's carried treasure (or a token), a Sails answer only sails away
    lose = (1.0 + (2.0 if tokens_of(T, seat) > tokens_of(T, o) else 0.0)) / 3.0
    if own[3] > 0:
        lose += 2.0 * own[3] / 3.0
    elif tokens_of(T, seat) > 0:
        lose += 2.0 / 3.0
    return p * gain - (1.0 - p) * lose


@jit(runtime=False)
def dig_swing(P, T, K, seat, owner, x):
    """A dig's expected Infamy swing at the owner's X x: each draw digs with the chance of a card
    of the box doing so (Dig, A2; a quirk's help), and the chain goes on while treasure the dig
    can take is left (S.buried_at, A17); each card taken is worth the treasure box's mean
    Infamy, to the digger and from the owner."""
    nose = S.quirk(T, K, seat, S.QE_DIG)
    ok = 0
    n_cards = K[META, S.N_CARDS]
    for c in range(n_cards):
        ok += 1 if S.digs(P, K, c, nose) else 0
    p = ok / max(n_cards, 1)
    inf = 0.0
    n_t = K[META, S.BOX_T]
    for t in range(n_t):
        inf += K[S.TREAS_INF, t]
    inf /= max(n_t, 1)
    taken = 0.0
    chain = 1.0
    for _ in range(S.buried_at(P, T, owner, x)):  # what a dig at this X can take (A17, dig_pool)
        chain *= p
        taken += chain
    return 2.0 * inf * taken


@jit(runtime=False)
def pillage_odds(P, T, K, attack):
    """The chance that `attack` beats the port's defence, `pillage_draw` cards of the box (a
    normal approximation of their sum; a tie fails, Pillage 3)."""
    n_cards = K[META, S.N_CARDS]
    m = 0.0
    m2 = 0.0
    for c in range(n_cards):
        v = K[S.CARD_VALUE, c]
        m += v
        m2 += v * v
    m /= max(n_cards, 1)
    var = max(m2 / max(n_cards, 1) - m * m, 1e-9) * P.pillage_draw
    return 0.5 * (1.0 + math.erf((attack - 0.5 - P.pillage_draw * m) / math.sqrt(2.0 * var)))


@jit(inline="always", runtime=False)
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
        x = K[S.SQ_INDEX, sq]
        owner = T[S.XOWNER, x]
        if owner >= 0 and owner != seat and S.buried_at(P, T, owner, x) > 0:
            v += w[W_DIG] * 0.5
            if w[W_DIG_ODDS] > 0.0:
                v += w[W_DIG_ODDS] * 0.5 * dig_swing(P, T, K, seat, owner, x)
    reach = -1
    for o in range(players):
        if o != seat and T[SEAT0 + o, S.POS] == sq:
            if swords >= w[W_MIN_FIGHT]:
                v += w[W_HUNT] * carried_infamy(T, K, o)
            if w[W_FIGHT] > 0.0 and T[SEAT0 + o, S.STATE] != S.DEAD:
                if reach < 0:  # this turn's move points: the free ones and the Sails (Move)
                    reach = T[ST, S.FREE] + type_total(T, K, seat, S.SAIL)
                a = T[SEAT0 + seat, S.POS]
                d = K[S.GDIST0 + a, sq] if ghost else K[S.DIST0 + a, sq]
                if d <= reach:  # alongside this turn: board it or shoot it, whichever pays
                    best = 0.0
                    if own[0] > 0:
                        best = max(best, fight_swing(P, T, K, F, seat, o, FALSE, own))
                    if own[1] > 0:
                        best = max(best, fight_swing(P, T, K, F, seat, o, TRUE, own))
                    v += w[W_FIGHT] * best
    return v


@jit(inline="always", runtime=False)
def score(P, T, K, F, seat, kind, arg, players, own):
    """The value of one legal action; `own` is own_view(T, K, seat) for this step."""
    w = F[1 + seat]
    if kind == A_END:
        return 0.0
    if kind == A_PILLAGE:
        atk = pillage_total(P, own)
        if atk >= w[W_COMMIT]:
            return w[W_PILLAGE]
        if w[W_LONG_SHOT] > 0.0:  # a smaller raid, when it is likely enough to beat the port
            p = pillage_odds(P, T, K, atk)
            if 1.0 - p <= w[W_LONG_SHOT]:
                return w[W_PILLAGE] * p
        return -1.0
    if kind == A_BOARD:
        # the defender's hand, as a share of the hand a pirate refills to (hand_size, Hand Size)
        if w[W_FIGHT] > 0.0:  # the fight's odds and stakes instead of the min_fight gate
            return (w[W_HUNT] * (carried_infamy(T, K, arg) + 0.3) - 0.2 * T[SEAT0 + arg, S.HAND_N] / P.hand_size
                    + w[W_FIGHT] * fight_swing(P, T, K, F, seat, arg, FALSE, own))
        if own[0] < w[W_MIN_FIGHT]:
            return -1.0
        return w[W_HUNT] * (carried_infamy(T, K, arg) + 0.3) - 0.2 * T[SEAT0 + arg, S.HAND_N] / P.hand_size
    if kind == A_SHOOT:
        if w[W_FIGHT] > 0.0:
            return (w[W_SHOOT] * (1.0 + 0.5 * T[SEAT0 + arg, S.DAMAGE])
                    + w[W_FIGHT] * fight_swing(P, T, K, F, seat, arg, TRUE, own))
        if own[1] < w[W_MIN_FIGHT]:
            return -1.0
        return w[W_SHOOT] * (1.0 + 0.5 * T[SEAT0 + arg, S.DAMAGE])
    if kind == A_BURY:
        return w[W_BURY] * K[S.TREAS_INF, T[CARRY0 + seat, arg]]
    if kind == A_DIG:
        if w[W_DIG_ODDS] > 0.0:
            x = K[S.SQ_INDEX, T[SEAT0 + seat, S.POS]]
            return w[W_DIG] + w[W_DIG_ODDS] * dig_swing(P, T, K, seat, T[S.XOWNER, x], x)
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
