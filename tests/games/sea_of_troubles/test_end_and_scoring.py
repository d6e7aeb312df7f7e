"""ENDING THE GAME: the three triggers, the round in which one fires played out and no round
after it, and the final tally with its damage tie-break, on hand-built positions (and, for
the game loop, on whole games played by play_chunk itself)."""

import numpy as np
import pytest

from simkit.core import game as G
from simkit.core.rng import game_seeds
from simkit.games.sea_of_troubles import GAME
from simkit.sweeps.runner import play

from .harness import EV, PRESET_INDEX, S, Table

SW, SA, CA, WI = S.SWORD, S.SAIL, S.CANNON, S.WILD
PORT = (1, 4)  # panel squares (row, column) of map.txt
XSQ = (4, 1)


def at(t, rc, panel=0):
    return t.square(rc[0], rc[1] + 6 * panel)


def keep_treasures(t, n):
    """Leave only the top n cards in the treasure deck (the rest set aside, still counted)."""
    gone = int(t.st[S.TDECK_N]) - n
    t.T[S.TDECK, : n] = t.T[S.TDECK, gone: gone + n].copy()
    t.st[S.TDECK_N] = n
    t.st[S.ASIDE] += gone


def pillage_at_port(t, seat, port, hand, defence):
    """An open port, a hand that beats the defence stacked on the deck: the pillage succeeds."""
    t.T[S.PORT_CLOSED, port] = 0
    t.put(seat, int(t.K[S.PORT_SQ, port]))
    t.set_hand(seat, hand)
    t.stack(defence)
    t.call("pillage", seat=seat)


# --------------------------------------------------------------------------- the triggers
def test_pillaging_the_last_treasure_triggers_the_end_and_not_before():
    t = Table(2, strategies="pillager")
    t.clear_hands()
    keep_treasures(t, 2)
    pillage_at_port(t, 0, 0, [(SW, 4), (SW, 4), (CA, 4)], [(SA, 1)] * 3)
    assert t.st[S.TDECK_N] == 1 and t.st[S.END_REASON] == -1  # one card left: play goes on
    pillage_at_port(t, 1, 1, [(SW, 3), (CA, 3), (CA, 4)], [(SA, 2)] * 3)
    assert t.st[S.TDECK_N] == 0 and t.st[S.END_REASON] == S.END_PILLAGED
    assert [r[3] for r in t.events(EV.END_TRIGGER)] == [S.END_PILLAGED]
    assert not t.call("can_pillage", seat=0)  # nothing left to pillage


def test_the_round_of_the_trigger_is_played_out():
    # seat 0 pillages the last treasure on its turn; seats 1 and 2 still take theirs (Basics)
    t = Table(3, strategies="pillager")
    keep_treasures(t, 1)
    t.T[S.PORT_CLOSED, :3] = 0
    t.put(0, int(t.K[S.PORT_SQ, 0]))
    t.set_hand(0, [(SW, 4), (SW, 4), (CA, 4)])
    t.stack([(SA, 1), (SA, 1), (SA, 1)])
    t.call("play_round", players=3)
    trigger = t.events(EV.END_TRIGGER)
    assert [r[1:4] for r in trigger] == [(-1, EV.END_TRIGGER, S.END_PILLAGED)]
    turns = [r[1] for r in t.events(EV.TURN)]
    assert turns == [0, 1, 2] and t.rows().index(trigger[0]) < t.rows().index(t.events(EV.TURN)[1])
    assert t.st[S.ROUND] == 1


@pytest.mark.parametrize("players,variant", [(2, "standard"), (4, "standard"), (3, "skirmish")])
def test_no_round_starts_after_the_round_of_the_trigger(players, variant):
    # whole games played by play_chunk: the last turn is in the round the end was triggered;
    # Skirmish has no quests, and no all-quests-done ending either (SOTR-217, SOTR-221, SOTR-X27)
    lineup = (["pillager", "duellist", "hoarder", "quester"] * 2)[:players]
    compiled = GAME.compile(GAME.rules.resolve(variant, {}), players)
    strategies = np.array([[PRESET_INDEX[n] for n in lineup]], dtype=np.int64)
    for i, seed in enumerate(game_seeds(np.uint64(3), 0, 12)):
        games, _seats, log = play(GAME, compiled, strategies, np.array([seed], dtype=np.uint64), 20000)
        rows = [tuple(int(x) for x in r) for r in log]
        fired = [r[0] for r in rows if r[2] == EV.END_TRIGGER]
        assert len(fired) == 1, i
        assert max(r[0] for r in rows if r[2] == EV.TURN) == fired[0], i
        assert games[0, G.ROUNDS] == fired[0] + 1 and games[0, G.END_REASON] != S.END_ROUND_CAP, i
        if variant == "skirmish":
            assert games[0, G.END_REASON] != S.END_QUESTS, i


# --------------------------------------------------------------------------- the tally
def test_the_final_score_is_tokens_plus_carried_and_buried_treasure():
    # You want Infamy!, ENDING THE GAME: tokens and the Infamy printed on owned treasure
    t = Table(3, strategies="pillager")
    t.seat(0)[S.INFAMY] = 3
    t.give_treasure(0, "Exotic Goods")  # carried: 2
    t.put(0, at(t, XSQ))
    t.give_treasure(0, "Treasure Chest")
    t.set_hand(0, [(SA, 1), (SA, 1), (SA, 1)])
    t.call("bury", seat=0, slot=1)  # buried: 3, still the burier's (Hand Size)
    t.seat(1)[S.INFAMY] = 7
    t.seat(2)[S.INFAMY] = 2
    t.give_treasure(2, "Doubloon")
    t.seat(2)[S.DEATH_COUNT] = 1
    t.call("final_scoring")
    assert [int(x) for x in t.out[:, G.SCORE]] == [8, 7, 3]
    assert [int(x) for x in t.out[:, G.RANK]] == [1, 2, 3] and list(t.out[:, G.WINNER]) == [1, 0, 0]
    # each seat's metrics, by the names the game declares them under
    metric = {m.name: G.SEAT_COLUMNS + i for i, m in enumerate(GAME.seat_metrics)}
    assert [int(x) for x in t.out[:, metric["infamy"]]] == [8, 7, 3]
    assert [int(x) for x in t.out[:, metric["treasure_infamy"]]] == [5, 0, 1]  # carried and buried
    assert [int(x) for x in t.out[:, metric["buried"]]] == [3, 0, 0]
    assert [int(x) for x in t.out[:, metric["deaths"]]] == [0, 0, 1]
    assert [int(x) for x in t.out[:, metric["ghost"]]] == [0, 0, 0]


def test_a_sunk_pirate_keeps_its_tokens_and_buried_treasure_and_may_win():
    t = Table(3, strategies="pillager")
    t.seat(0)[S.INFAMY] = 4
    t.put(0, at(t, XSQ))
    t.give_treasure(0, "Treasure Chest")
    t.set_hand(0, [(SA, 1), (SA, 1), (SA, 1)])
    t.call("bury", seat=0, slot=0)
    t.give_treasure(0, "Doubloon")  # carried: it sinks with the ship (A12)
    t.st[S.GHOST_SEAT] = 2  # the Ghost is taken: seat 0's death is final
    t.seat(0)[S.DAMAGE] = 3
    t.call("damage", seat=0, by=-1)
    assert t.seat(0)[S.STATE] == S.DEAD
    t.seat(1)[S.INFAMY] = 6
    t.call("final_scoring")
    assert t.out[0, G.SCORE] == 7 and t.out[0, G.WINNER] == 1  # 4 tokens + 3 buried beat 6


@pytest.mark.parametrize("seat", [0, 1, 2])
def test_the_ghosts_player_scores_the_better_of_the_two_ships_even_once_the_ghost_has_sunk(seat):
    # ENDING THE GAME, A40: the Ghost's player (its seat in GHOST_SEAT) scores the better of the
    # living pirate (tokens and buried treasure) and the Ghost (its tokens and what it carries),
    # whether the Ghost still sails or has sunk; any other sunk pirate scores as one ship
    for ghost_seat, state in ((seat, S.DEAD), (seat, S.GHOST), ((seat + 1) % 3, S.DEAD)):
        t = Table(3, strategies="pillager")
        t.seat(seat)[S.INFAMY] = 3
        t.seat(seat)[S.GHOST_INFAMY] = 5
        t.give_treasure(seat, "Exotic Goods")  # carried: 2
        t.st[S.GHOST_SEAT] = ghost_seat
        t.seat(seat)[S.STATE] = state
        score, buried, carried, ghost = t.call("score_now", s=seat)
        assert (buried, carried) == (0, 2)
        if ghost_seat == seat:
            assert ghost and score == 7, (ghost_seat, state)  # max(3 + 0, 5 + 2)
        else:
            assert not ghost and score == 5, (ghost_seat, state)  # 3 + 0 + 2


def test_tied_scores_go_to_the_pirate_with_more_damage():
    t = Table(3, strategies="pillager")
    for s, (infamy, dmg) in enumerate(((5, 1), (5, 2), (4, 3))):
        t.seat(s)[S.INFAMY] = infamy
        t.seat(s)[S.DAMAGE] = dmg
    t.call("final_scoring")
    assert [int(x) for x in t.out[:, G.RANK]] == [2, 1, 3] and list(t.out[:, G.WINNER]) == [0, 1, 0]
    t.seat(0)[S.DAMAGE] = 2  # equal damage too: the first place is shared
    t.call("final_scoring")
    assert [int(x) for x in t.out[:, G.RANK]] == [1, 1, 3] and list(t.out[:, G.WINNER]) == [1, 1, 0]
    # a Ghost's player: both ships' damage counts (A40)
    t.seat(1)[S.LIVING_DAMAGE] = 2
    t.call("final_scoring")
    assert [int(x) for x in t.out[:, G.RANK]] == [2, 1, 3]
