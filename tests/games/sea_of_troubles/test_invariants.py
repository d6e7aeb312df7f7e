"""Invariants of whole self-play games: after every turn and every round's end no count of the
game goes below zero or above its supply (the rule inventory,
simkit/games/sea_of_troubles/coverage.toml, gives the ids each assertion names).

Every preset the game lists plays itself at every player count it allows (the lookahead seats
through lookahead.lookahead_turn, as lookahead.play_round dispatches them), and each variant
plays a few mixed line-ups; the game is stepped a turn at a time (harness.Table) and the tables
are checked between turns, then the event log's running totals once the game is over.
"""

from __future__ import annotations

import numpy as np
import pytest

from simkit.core.bots import LOOKAHEAD_POLICY
from simkit.core.game import LOG_WIDTH
from simkit.games.sea_of_troubles import GAME, engine, lookahead
from strategies import sea_of_troubles as bot

from ..engine_calls import call_by_name
from .harness import EV, S, Table

PRESETS = [p.name for p in GAME.presets]
SEEDS = 8  # games per preset and player count
LOOKAHEAD_SEEDS = 2  # the lookahead plays out every step: fewer of its games
VARIANT_CASES = [  # (variant, players): every variant alone and all of them at once
    ("skirmish", 3), ("skirmish", 4), ("bidding_start", 2), ("bidding_start", 5), ("quirks", 2), ("quirks", 5),
    ("skirmish+quirks+bidding_start", 3), ("skirmish+quirks+bidding_start", 4),
]
VARIANT_LINEUPS = (["random"], ["pillager", "duellist", "hoarder", "quester", "random"], ["duellist"])


def need(ok, slot: str, rule: str, what: str):
    """One invariant: `slot` (the state slot checked) stays within the limit `rule` sets."""
    assert ok, f"{slot} ({rule}): {what}"


def quirk_amount(t, seat, effect) -> int:
    q = int(t.seat(seat)[S.QUIRK])
    return int(t.K[S.QK_AMOUNT, q]) if q >= 0 and t.K[S.QK_EFFECT, q] == effect else 0


class Supplies:
    """The box a game is played with: what each count may reach (read once, after set-up)."""

    def __init__(self, t):
        K, st = t.K, t.st
        self.cards = int(K[S.META, S.N_CARDS])  # action cards in the box
        self.box_t = int(K[S.META, S.BOX_T])  # treasure cards in the box
        self.tdeck = int(st[S.TDECK_N])  # treasure cards put into the deck at set-up
        self.aside = int(st[S.ASIDE])
        self.quests = int(K[S.META, S.N_Q])  # quest cards dealt face up
        self.quirks = int(K[S.META, S.N_QUIRKS])
        self.xs = int(K[S.META, S.N_X])
        self.ports = int(K[S.META, S.NPORTS])
        self.squares = int(K[S.META, S.N_SQ])
        hull = [int(K[S.QK_AMOUNT, q]) for q in range(self.quirks) if K[S.QK_EFFECT, q] == S.QE_HULL]
        hand = [int(K[S.QK_AMOUNT, q]) for q in range(self.quirks) if K[S.QK_EFFECT, q] == S.QE_HAND]
        self.max_sink = int(t.P.sink_damage) + max(hull, default=0)
        self.max_hand = int(t.P.hand_size) + max(hand, default=0)
        self.closed = max(int(t.P.port_die), int(t.P.closed_rounds))  # the longest a port stays closed


def check_tables(t, sup: Supplies, after_round: bool):
    """Every count of the tables within its supply, between two turns (after_round: right after
    end_round's refill)."""
    st, P, K, n = t.st, t.P, t.K, t.players
    # ------------------------------------------------------------------ action cards
    deck, disc = int(st[S.DECK_N]), int(st[S.DISC_N])
    need(0 <= deck <= sup.cards, "ST.DECK_N", "SOTR-016", f"action deck {deck} outside 0..{sup.cards}")
    need(0 <= disc <= sup.cards, "ST.DISC_N", "SOTR-196", f"discard pile {disc} outside 0..{sup.cards}")
    hands = [int(t.seat(s)[S.HAND_N]) for s in range(n)]
    need(deck + disc + sum(hands) == sup.cards, "ST.DECK_N+DISC_N+HAND_N", "SOTR-197",
         f"deck {deck} + discards {disc} + hands {hands} != the {sup.cards} action cards")
    # ------------------------------------------------------------------ treasure, quests, quirks
    tdeck = int(st[S.TDECK_N])
    need(0 <= tdeck <= sup.tdeck, "ST.TDECK_N", "SOTR-067", f"treasure deck {tdeck} outside 0..{sup.tdeck}")
    need(int(st[S.ASIDE]) == sup.aside, "ST.ASIDE", "SOTR-022", "set-aside treasures came back into play")
    need(int(st[S.SUNK]) >= 0, "ST.SUNK", "A12", f"sunk treasures {int(st[S.SUNK])}")
    held = sum(int(t.seat(s)[S.CARRY_N] + t.seat(s)[S.BURY_N]) for s in range(n))
    need(tdeck + held + int(st[S.ASIDE] + st[S.DELIVERED] + st[S.SUNK]) == sup.box_t, "ST.TDECK_N+CARRY_N+BURY_N",
         "SOTR-022", f"treasure cards do not add up to the {sup.box_t} in the box")
    quests = int(st[S.N_QUESTS])
    need(0 <= quests <= sup.quests, "ST.N_QUESTS", "SOTR-028", f"{quests} quests outside 0..{sup.quests}")
    need(int((t.T[S.QUEST, : sup.quests] >= 0).sum()) == quests, "T.QUEST", "SOTR-152",
         "quests on the table differ from N_QUESTS")
    need(int(st[S.DELIVERED]) == sup.quests - quests, "ST.DELIVERED", "SOTR-154",
         f"{int(st[S.DELIVERED])} deliveries for {sup.quests - quests} quests done")
    qdeck, qup = int(st[S.QDECK_N]), int(st[S.QUP_N])
    quirks_held = [int(t.seat(s)[S.QUIRK]) for s in range(n) if t.seat(s)[S.QUIRK] >= 0]
    need(0 <= qdeck <= sup.quirks and 0 <= qup <= sup.quirks, "ST.QDECK_N/QUP_N", "SOTR-202",
         f"quirk piles {qdeck}, {qup} outside 0..{sup.quirks}")
    need(qdeck + qup + len(quirks_held) == sup.quirks, "ST.QDECK_N+QUP_N+QUIRK", "SOTR-205",
         "quirk cards do not add up to the deck")
    # ------------------------------------------------------------------ the table
    closed = t.T[S.PORT_CLOSED, : sup.ports]
    need(bool(((closed >= 0) & (closed <= sup.closed)).all()), "T.PORT_CLOSED", "SOTR-149",
         f"port counters {closed.tolist()} outside 0..{sup.closed}")
    owners = t.T[S.XOWNER, : sup.xs]
    need(bool(((owners >= -1) & (owners < n)).all()), "T.XOWNER", "SOTR-125", f"X markers {owners.tolist()}")
    need(int(st[S.FIRST]) in range(n) and int(st[S.DIR]) in (1, -1), "ST.FIRST/DIR", "SOTR-142",
         f"starter {int(st[S.FIRST])}, direction {int(st[S.DIR])}")
    need(0 <= int(st[S.ROUND]) <= P.round_cap, "ST.ROUND", "A14", f"round {int(st[S.ROUND])}")
    need(-1 <= int(st[S.END_REASON]) < len(S.END_REASONS), "ST.END_REASON", "SOTR-044", "unknown end reason")
    if not after_round and st[S.ACTIVE] >= 0:
        a = int(st[S.ACTIVE])
        most = P.free_moves + quirk_amount(t, a, S.QE_FREE_MOVES)
        need(0 <= int(st[S.FREE]) <= most, "ST.FREE", "SOTR-060", f"{int(st[S.FREE])} free move points left")
    # ------------------------------------------------------------------ the seats
    states = [int(t.seat(s)[S.STATE]) for s in range(n)]
    need(all(x in (S.ALIVE, S.DEAD, S.GHOST) for x in states), "SEAT.STATE", "SOTR-157", f"states {states}")
    need(states.count(S.GHOST) <= 1, "SEAT.STATE", "SOTR-159", f"{states.count(S.GHOST)} Ghosts")
    g = int(st[S.GHOST_SEAT])
    need(g == -1 or (0 <= g < n and states[g] != S.ALIVE), "ST.GHOST_SEAT", "SOTR-159", f"Ghost seat {g}")
    need(all(states[s] != S.GHOST for s in range(n) if s != g), "SEAT.STATE", "SOTR-159", "a Ghost not the Ghost seat")
    deaths = [int(t.seat(s)[S.DEATH_COUNT]) for s in range(n)]
    need(sum(deaths) == int(st[S.DEATHS]) and all(0 <= d <= (2 if s == g else 1) for s, d in enumerate(deaths)),
         "SEAT.DEATH_COUNT", "SOTR-158", f"deaths {deaths}, total {int(st[S.DEATHS])}")
    for s in range(n):
        seat = t.seat(s)
        where = f"seat {s}"
        hand, carry, bury = int(seat[S.HAND_N]), int(seat[S.CARRY_N]), int(seat[S.BURY_N])
        cap = P.hand_size + quirk_amount(t, s, S.QE_HAND)
        need(0 <= hand <= cap, "SEAT.HAND_N", "SOTR-184", f"{where}: {hand} cards in hand, limit {cap}")
        if after_round:  # refilled to the limit at most, carried weighted treasure counted (Hand Size)
            limit = int(call_by_name(engine.hand_limit, t, {"seat": s}))
            need(hand <= limit, "SEAT.HAND_N", "SOTR-148", f"{where}: {hand} cards after the refill, limit {limit}")
        need(0 <= carry <= sup.box_t and 0 <= bury <= sup.box_t, "SEAT.CARRY_N/BURY_N", "SOTR-078",
             f"{where}: carries {carry}, buried {bury}")
        need(int(seat[S.INFAMY]) >= 0, "SEAT.INFAMY", "SOTR-104", f"{where}: {int(seat[S.INFAMY])} Infamy tokens")
        need(int(seat[S.GHOST_INFAMY]) >= 0, "SEAT.GHOST_INFAMY", "SOTR-108",
             f"{where}: the Ghost holds {int(seat[S.GHOST_INFAMY])} Infamy tokens")
        sink = P.sink_damage + quirk_amount(t, s, S.QE_HULL)
        dmg = int(seat[S.DAMAGE])
        need(0 <= dmg <= sink and (dmg < sink or states[s] == S.DEAD), "SEAT.DAMAGE", "SOTR-157",
             f"{where}: damage {dmg} on a {('alive', 'dead', 'ghost')[states[s]]} ship sinking at {sink}")
        need(0 <= int(seat[S.LIVING_DAMAGE]) <= sink, "SEAT.LIVING_DAMAGE", "SOTR-163",
             f"{where}: living ship's damage {int(seat[S.LIVING_DAMAGE])}")
        pos = int(seat[S.POS])
        if states[s] == S.DEAD:
            need(pos == -1, "SEAT.POS", "SOTR-158", f"{where}: a sunk ship on square {pos}")
            need(hand == 0 and carry == 0, "SEAT.HAND_N/CARRY_N", "A12", f"{where}: a sunk ship holds cards")
        else:
            need(0 <= pos < sup.squares, "SEAT.POS", "SOTR-064", f"{where}: square {pos}")
            need(K[S.SQ_KIND, pos] != S.LAND, "SEAT.POS", "SOTR-170", f"{where}: ends a turn on land")
        bx = int(seat[S.BURY_X])
        need(-1 <= bx < sup.xs and (bury == 0 or bx >= 0), "SEAT.BURY_X", "SOTR-125",
             f"{where}: buries at X {bx} with {bury} buried")
        mine = int((owners == s).sum())
        need(mine <= (sup.xs if P.skirmish else 1), "T.XOWNER", "SOTR-124", f"{where}: buried at {mine} X's")
        q = int(seat[S.QUIRK])
        need(-1 <= q < sup.quirks and (q == -1 or seat[S.OFFERED] == 1), "SEAT.QUIRK", "SOTR-203",
             f"{where}: quirk {q}")
        need(int(seat[S.OFFERED]) in (0, 1), "SEAT.OFFERED", "SOTR-203", f"{where}: offered {int(seat[S.OFFERED])}")
        home = int(seat[S.HOME])
        need(K[S.SQ_KIND, home] == S.XSPOT, "SEAT.HOME", "SOTR-035", f"{where}: placed on square {home}, no X")


def check_log(t, sup: Supplies, start: int):
    """The event log's running totals: no row reports a count below zero or past its supply."""
    rows = t.log[start: int(t.st[S.LOG_N])]
    code, a, b, c = rows[:, 2], rows[:, 3], rows[:, 4], rows[:, 5]
    infamy = rows[code == EV.INFAMY]
    need(bool((infamy[:, 5] >= 0).all()), "log INFAMY.c", "SOTR-104", "a seat's tokens went below zero")
    dmg = a[code == EV.DAMAGE]
    need(bool(((dmg >= 1) & (dmg <= sup.max_sink)).all()), "log DAMAGE.a", "SOTR-157",
         f"damage {sorted(set(dmg.tolist()))} past {sup.max_sink}")
    deaths = a[code == EV.DEATH]
    need(deaths.tolist() == list(range(1, len(deaths) + 1)) and len(deaths) <= t.players + 1, "log DEATH.a",
         "SOTR-177", f"deaths counted {deaths.tolist()}")
    reshuffled = a[code == EV.RESHUFFLE]
    need(bool(((reshuffled >= 1) & (reshuffled <= sup.cards)).all()), "log RESHUFFLE.a", "SOTR-197",
         f"discard piles of {reshuffled.tolist()} cards")
    need(bool((c[code == EV.TURN] <= sup.max_hand).all()), "log TURN.c", "SOTR-184", "a turn began past the hand limit")
    spent = c[code == EV.BURY]
    need(bool(((spent >= 1) & (spent <= sup.max_hand)).all()), "log BURY.c", "SOTR-121", f"burials paid {spent}")
    bids = rows[code == EV.BID]
    need(bool(((bids[:, 3] >= 0) & (bids[:, 3] <= 2) & (bids[:, 4] >= 0)).all()), "log BID.a", "SOTR-138",
         "a bid of more than two cards")
    pillaged = int(((code == EV.TREASURE) & (b == EV.R_PILLAGE)).sum())
    need(pillaged == sup.tdeck - int(t.st[S.TDECK_N]), "log TREASURE", "SOTR-067",
         f"{pillaged} treasures pillaged, the deck lost {sup.tdeck - int(t.st[S.TDECK_N])}")
    need(int((code == EV.DELIVER).sum()) <= sup.quests, "log DELIVER", "SOTR-152", "more deliveries than quests")
    need(bool((c[code == EV.QUIRK] <= sup.quirks).all()), "log QUIRK.c", "SOTR-205", "more quirks face up than cards")
    need(bool((a[code == EV.SCORE] >= 0).all()), "log SCORE.a", "SOTR-181", "a final score below zero")


def scratch(t) -> dict:
    """The lookahead's scratch tables, as chunk.play_with_tables allocates them."""
    return {"RT": np.zeros_like(t.T), "RF": np.zeros((1 + t.players, t.F.shape[1])), "Rrng": np.zeros_like(t.rng),
            "Rbuf": np.zeros_like(t.buf), "Rlog": np.zeros((0, LOG_WIDTH), dtype=np.int64),
            "LV": np.zeros((4, engine.BUF_WIDTH)), "RD": np.zeros_like(t.T)}


def play_checked(players: int, variant: str, lineup: list[str], seed: int) -> Table:
    """One game as chunk.play_games plays it, the tables checked after set-up, after every
    turn and after every round's end, the log once it is over."""
    t = Table(players, variant, seed=seed, strategies=[lineup[s % len(lineup)] for s in range(players)])
    sup = Supplies(t)
    check_tables(t, sup, after_round=False)
    thinking = scratch(t) if any(t.F[1 + s, bot.POLICY] == LOOKAHEAD_POLICY for s in range(players)) else None
    while True:
        first, d = int(t.st[S.FIRST]), int(t.st[S.DIR])
        for i in range(players):
            s = (first + d * i) % players
            if thinking is not None and t.F[1 + s, bot.POLICY] == LOOKAHEAD_POLICY:
                call_by_name(lookahead.lookahead_turn, t, dict(seat=s, players=players, pos=i, **thinking))
            else:
                t.call("take_turn", seat=s)
            check_tables(t, sup, after_round=False)
        t.st[S.ROUND] += 1
        if t.st[S.END_REASON] >= 0:
            break
        if t.st[S.ROUND] >= t.P.round_cap:
            t.st[S.END_REASON] = S.END_ROUND_CAP
            break
        if thinking is not None:  # as play_games: a seat may play out its bid
            call_by_name(lookahead.round_end, t, dict(players=players, **thinking))
        else:
            t.call("end_round", players=players)
        check_tables(t, sup, after_round=True)
    t.call("final_scoring", players=players)
    check_log(t, sup, 0)
    return t


@pytest.mark.parametrize("preset", PRESETS)
def test_self_play_keeps_every_count_within_its_supply(preset):
    seeds = LOOKAHEAD_SEEDS if GAME.preset(preset).kind == bot.LOOKAHEAD_TIER else SEEDS
    for players in GAME.players:
        for seed in range(seeds):
            t = play_checked(players, "standard", [preset], seed)
            assert t.st[S.END_REASON] >= 0


@pytest.mark.parametrize("variant,players", VARIANT_CASES)
def test_variant_games_keep_every_count_within_its_supply(variant, players):
    for seed, lineup in enumerate(VARIANT_LINEUPS * 2):
        play_checked(players, variant, lineup, 100 + seed)


def test_the_cases_cover_every_preset_player_count_and_variant():
    assert PRESETS == [p.name for p in GAME.presets] and "lookahead" in PRESETS
    assert set(GAME.players) == {2, 3, 4, 5}
    named = {part for v, _ in VARIANT_CASES for part in v.split("+")}
    assert named == {v.name for v in GAME.rules.variants}
