"""The round's flow: what may enter a hand and leave the treasure deck while a round is
played, the deal, burying and the hand limit, a sunk pirate's lost round, a failed pillage
tried again, and Skirmish's X's and Ghost."""

import pytest

from .harness import EV, S, Table, bot, play_game

SW, SA, CA, WI = S.SWORD, S.SAIL, S.CANNON, S.WILD
PORT = (1, 4)  # panel squares (row, column) of map.txt
XSQ = (4, 1)


def at(t, rc, panel=0):
    return t.square(rc[0], rc[1] + 6 * panel)


@pytest.mark.parametrize("players,lineup", [(2, "random"), (4, ["pillager", "duellist", "hoarder", "quester"])])
def test_during_a_round_only_a_defender_draws_and_only_a_pillage_takes_treasure(players, lineup):
    # Your turn: no drawing until the round's end, unless attacked (SOTR-050, SOTR-051);
    # Pillage: the only way to take a card from the treasure deck (SOTR-067)
    for seed in range(3):
        t = Table(players, seed=seed, strategies=lineup)
        last = {"hands": [int(t.seat(s)[S.HAND_N]) for s in range(players)], "deck": int(t.st[S.TDECK_N]),
                "mark": int(t.st[S.LOG_N])}

        def check(t, s, last=last, seed=seed):
            hands = [int(t.seat(p)[S.HAND_N]) for p in range(players)]
            rows = t.rows(last["mark"])
            if s >= 0:  # a turn: compare with the hands before it
                for p in range(players):
                    defences = sum(1 for r in rows if r[2] == EV.FIGHT and r[3] == p)
                    assert hands[p] - last["hands"][p] <= (0 if p == s else defences), (seed, s, p)
                pillaged = sum(1 for r in rows if r[2] == EV.TREASURE and r[4] == EV.R_PILLAGE)
                assert last["deck"] - t.st[S.TDECK_N] == pillaged
            last.update(hands=hands, deck=int(t.st[S.TDECK_N]), mark=int(t.st[S.LOG_N]))

        play_game(t, check)


def test_the_deal_leaves_the_rest_as_the_face_down_action_deck():
    # Getting started 1 (SOTR-015, SOTR-016)
    for players in (2, 5):
        t = Table(players)
        assert t.st[S.DECK_N] == int(t.K[S.META, S.N_CARDS]) - 8 * players and t.st[S.DISC_N] == 0


def test_burying_frees_hand_space_and_buried_cards_stay_out_of_the_hand():
    # Bury: each carried (weighted) card lowers the hand size; buried ones do not (SOTR-129, SOTR-188)
    t = Table(2)
    t.put(0, at(t, XSQ))
    t.give_treasure(0, "Exotic Goods")
    t.give_treasure(0, "Doubloon")
    assert t.call("hand_limit", seat=0) == 6
    t.set_hand(0, [(SA, 1), (SA, 2), (SW, 1)])
    t.call("bury", seat=0, slot=0)
    assert t.call("hand_limit", seat=0) == 7 and t.seat(0)[S.BURY_N] == 1
    t.call("refill", seat=0)
    assert t.seat(0)[S.HAND_N] == 7


def test_the_first_pirate_to_sink_misses_the_rest_of_the_round_and_the_bid():
    # Death: out for the remainder of that round; back next round as the Ghost
    t = Table(3, strategies="pillager")
    t.seat(1)[S.DAMAGE] = 3
    t.call("damage", seat=1, by=-1)  # sunk during seat 0's turn, say
    assert not t.call("begin_turn", seat=1)
    turns = len(t.events(EV.TURN))
    t.call("take_turn", seat=1, players=3)
    assert len(t.events(EV.TURN)) == turns  # no turn for the sunk pirate
    t.seat(1)[S.HAND_N] = 0
    t.set_hand(0, [(SW, 1)])
    t.set_hand(2, [(SW, 1)])
    t.call("end_round")
    assert 1 not in [r[1] for r in t.events(EV.BID)]  # no bid from it
    assert t.seat(1)[S.STATE] == S.GHOST and t.call("begin_turn", seat=1)  # back as the Ghost


def test_a_failed_pillage_may_be_tried_again_the_same_turn():
    # Actions are unlimited (Your turn); nothing bars a second try at an open port (SOTR-G17)
    t = Table(2, strategies="pillager")
    t.T[S.PORT_CLOSED, 0] = 0
    t.put(0, at(t, PORT))
    t.set_hand(0, [(SW, 1), (CA, 4), (SW, 4)])
    t.stack([(SA, 4), (SA, 4), (SA, 4)])
    t.F[1, bot.W_COMMIT] = 1.0  # a pillage of one card at a time
    t.call("pillage", seat=0)
    assert t.seat(0)[S.CARRY_N] == 0 and t.T[S.PORT_CLOSED, 0] == 0
    n = t.call("candidates", seat=0, players=2)
    assert 2 in [int(k) for k in t.buf[0, :n]]  # A_PILLAGE again


def test_skirmish_lets_a_pirate_bury_at_several_xs_but_never_at_a_rivals():
    # Skirmish Mode: several X's each, still not one another's (SOTR-215, SOTR-216)
    t = Table(3, "skirmish")
    t.put(0, at(t, XSQ, panel=1))
    t.seat(0)[S.BURY_X] = 0
    assert t.call("bury_spot_ok", seat=0)
    t.T[S.XOWNER, 1] = 2
    assert not t.call("bury_spot_ok", seat=0)


def test_the_skirmish_ghost_starts_at_3_infamy_and_sinks_at_3_damage():
    # A25 for Skirmish (SOTR-G34): the Ghost's fresh score starts like everyone's
    t = Table(3, "skirmish", strategies="pillager")
    t.seat(1)[S.DAMAGE] = 2
    t.call("damage", seat=1, by=-1)
    assert t.seat(1)[S.STATE] == S.DEAD  # 3 damage sinks in Skirmish
    t.call("end_round")
    assert t.seat(1)[S.STATE] == S.GHOST and t.seat(1)[S.GHOST_INFAMY] == 3
    t.seat(1)[S.DAMAGE] = 2
    t.call("damage", seat=1, by=-1)
    assert t.seat(1)[S.STATE] == S.DEAD and t.st[S.END_REASON] == S.END_TWO_DEAD
