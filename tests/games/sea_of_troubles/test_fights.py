"""FIGHT ANOTHER PIRATE and LOOT on hand-built positions: what each side may commit, the
defender's early give-up, what a win takes and what it leaves, and fights with the Ghost."""

import pytest

from .harness import EV, S, Table, bot

SW, SA, CA, WI = S.SWORD, S.SAIL, S.CANNON, S.WILD
XSQ = (4, 1)  # panel square (row, column) of map.txt's X


def duel(answer_nerve=0.0, players=2):
    t = Table(players, strategies="duellist")
    t.alongside()
    t.clear_hands()
    t.F[2, bot.W_NERVE] = answer_nerve
    return t


def test_each_fight_commits_only_its_own_type_and_a_wild_serves_as_any():
    # Board with Swords, Shoot with Cannons, Flee with Sails; a Wild counts as any of them
    # (The Basic Pieces, FIGHT ANOTHER PIRATE)
    for shoot, kind in ((0, SW), (1, CA)):
        t = duel()
        t.set_hand(0, [(kind, 2), (WI, 0), (SA, 4), (CA if kind == SW else SW, 4)])
        t.set_hand(1, [(SA, 1)])
        t.stack([(SA, 1)])
        t.call("fight", att=0, dfn=1, shoot=shoot)
        assert t.events(EV.FIGHT)[-1][5] == 2  # the card of its type and the Wild
        assert sorted(t.hand(0)) == sorted([(SA, 4), (CA if kind == SW else SW, 4)])
    t = duel()
    t.set_hand(0, [(SW, 1)])
    t.set_hand(1, [(SA, 3), (WI, 0), (SW, 1), (CA, 1)])
    t.F[2, bot.W_NERVE] = 0.0
    t.stack([(CA, 2)])  # the defender's draw
    t.call("fight", att=0, dfn=1, shoot=0)
    response = t.events(EV.RESPONSE)[-1]
    assert response[3:5] == (SA, 2)  # Sails, its biggest total: the Sail and the Wild, nothing else
    assert sorted(t.hand(1)) == [(SW, 1), (CA, 1), (CA, 2)]


def test_a_defender_may_give_up_before_the_reveal_and_keeps_the_drawn_card():
    # The FIGHT 3: conceding takes the loss but keeps the card drawn in step 2
    t = duel(answer_nerve=10.0)  # never thinks a fight worth it
    t.set_hand(0, [(SW, 1)])
    t.set_hand(1, [(SW, 4)])
    t.seat(1)[S.INFAMY] = 2
    t.stack([(CA, 3)])
    t.call("fight", att=0, dfn=1, shoot=0)
    assert t.events(EV.RESPONSE)[-1][3:5] == (-1, 0) and t.events(EV.FIGHT_END)[-1][5] == 3
    assert sorted(t.hand(1)) == [(SW, 4), (CA, 3)]  # its own card and the drawn one
    assert t.seat(0)[S.INFAMY] == 1 and t.seat(1)[S.INFAMY] == 1  # the attacker's Swords loot (A22)


@pytest.mark.parametrize("shoot", [0, 1])
def test_a_defender_who_gives_up_commits_no_card_not_even_a_wild(shoot):
    # The FIGHT 3: giving up before the reveal commits nothing; a Wild, which serves as any
    # type, stays in the hand with the rest (and the loss is the declared type's)
    t = duel(answer_nerve=10.0)  # never thinks a fight worth it
    t.set_hand(0, [(CA if shoot else SW, 1)])
    t.set_hand(1, [(WI, 0), (SW, 4), (WI, 0), (CA, 2)])
    held = t.hand(1)
    t.stack([(SA, 3)])
    t.call("fight", att=0, dfn=1, shoot=shoot)
    assert t.events(EV.RESPONSE)[-1][3:5] == (-1, 0) and t.events(EV.FIGHT_END)[-1][5] == 3
    assert sorted(t.hand(1)) == sorted([*held, (SA, 3)])


@pytest.mark.parametrize("shoot", [0, 1])
@pytest.mark.parametrize("answer", [CA, SW, SA])
def test_a_defender_who_wins_loots_by_its_own_answer_and_only_cannons_damage_the_attacker(shoot, answer):
    # LOOT: the winner takes what its type takes; a defender that wins with Cannons deals the
    # attacker one damage, with Swords or Sails none, whichever way it was attacked
    t = duel(answer_nerve=0.0)
    t.set_hand(0, [(CA if shoot else SW, 1)])
    t.set_hand(1, [(answer, 4)])
    t.stack([(answer, 1)])
    before = int(t.seat(0)[S.DAMAGE]), int(t.seat(1)[S.DAMAGE])
    t.call("fight", att=0, dfn=1, shoot=shoot)
    assert t.events(EV.RESPONSE)[-1][3] == answer and t.events(EV.FIGHT_END)[-1][5] == 1  # the defender won
    assert int(t.seat(0)[S.DAMAGE]) - before[0] == (1 if answer == CA else 0)
    assert int(t.seat(1)[S.DAMAGE]) == before[1]


def test_a_defender_with_no_card_of_any_fighting_type_must_give_up():
    # A21: nothing to answer with, even after the draw
    t = duel()
    t.set_hand(0, [(CA, 1)])
    t.st[S.DECK_N] = 0  # nothing to draw
    t.st[S.DISC_N] = 0
    t.call("fight", att=0, dfn=1, shoot=1)
    assert t.events(EV.RESPONSE)[-1][3] == -1 and t.seat(1)[S.DAMAGE] == 1


def test_an_attack_needs_a_card_of_its_type():
    # A35: no Cannon (or Wild), no shot; no Sword, no boarding
    t = duel()
    t.set_hand(0, [(SA, 4), (SW, 2)])
    assert t.call("can_attack", att=0, dfn=1, shoot=0) and not t.call("can_attack", att=0, dfn=1, shoot=1)
    t.set_hand(0, [(SA, 4), (WI, 0)])
    assert t.call("can_attack", att=0, dfn=1, shoot=0) and t.call("can_attack", att=0, dfn=1, shoot=1)


def test_a_swords_win_takes_carried_treasure_never_buried_treasure():
    # LOOT, Swords: every carried card; buried treasure is safe (Bury)
    t = duel()
    x = t.square(XSQ[0], XSQ[1])
    t.put(1, x)
    t.give_treasure(1, "Exotic Goods")
    t.set_hand(1, [(SA, 1), (SA, 1)])
    t.call("bury", seat=1, slot=0)
    chest = t.give_treasure(1, "Treasure Chest")
    doubloon = t.give_treasure(1, "Doubloon")
    t.put(0, x)
    t.set_hand(0, [(SW, 4), (SW, 4)])
    t.set_hand(1, [(SW, 1)])
    t.stack([(SA, 1)])
    t.call("fight", att=0, dfn=1, shoot=0)
    assert sorted(int(c) for c in t.T[S.CARRY0, : t.seat(0)[S.CARRY_N]]) == sorted([chest, doubloon])
    assert t.seat(1)[S.CARRY_N] == 0 and t.seat(1)[S.BURY_N] == 1  # the buried card stays
    assert t.seat(1)[S.INFAMY] == 0 and t.seat(0)[S.INFAMY] == 0  # treasure taken: no token


def test_carried_treasure_does_not_make_a_pirate_more_infamous():
    # A20, "Treasure cards do not count toward Infamy until the end": a Cannon win takes a
    # token only from a loser with more tokens, whatever it carries
    t = Table(2, strategies="duellist")
    t.put(0, t.square(0, 2))
    t.put(1, t.square(1, 2))
    t.seat(0)[S.INFAMY] = 1
    t.seat(1)[S.INFAMY] = 1
    t.give_treasure(1, "Treasure Chest")
    t.set_hand(0, [(CA, 4), (CA, 4)])
    t.set_hand(1, [(CA, 1)])
    t.stack([(SA, 1)])
    t.call("fight", att=0, dfn=1, shoot=1)
    assert (t.seat(0)[S.INFAMY], t.seat(1)[S.INFAMY]) == (2, 1) and t.seat(1)[S.CARRY_N] == 1


def test_boarding_a_ghost_that_carries_nothing_takes_a_token_from_its_score():
    # A39: the Swords rule's fallback, from the Ghost's own score (A25)
    t = Table(3, strategies="duellist")
    t.seat(1)[S.DAMAGE] = 3
    t.call("damage", seat=1, by=-1)
    t.call("end_round")
    assert t.seat(1)[S.STATE] == S.GHOST
    t.seat(1)[S.INFAMY] = 4  # the living score is kept apart
    t.seat(1)[S.GHOST_INFAMY] = 2
    sq = t.square(0, 0)
    t.put(0, sq)
    t.put(1, sq)
    t.clear_hands()
    t.set_hand(0, [(SW, 4)])
    t.set_hand(1, [(SA, 1)])
    t.stack([(CA, 1)])
    t.F[2, bot.W_NERVE] = 10.0
    t.call("fight", att=0, dfn=1, shoot=0)
    assert t.seat(1)[S.GHOST_INFAMY] == 1 and t.seat(1)[S.INFAMY] == 4 and t.seat(0)[S.INFAMY] == 1


def test_the_ghost_sinks_at_the_sink_damage_and_its_death_is_the_second():
    # Ghost Pirate: it can die at 4 damage; A25: that death counts toward "2 pirates have died"
    t = Table(3, strategies="duellist")
    t.seat(1)[S.DAMAGE] = 3
    t.call("damage", seat=1, by=-1)
    t.call("end_round")
    assert t.seat(1)[S.STATE] == S.GHOST and t.st[S.END_REASON] == -1
    t.seat(1)[S.DAMAGE] = 2
    t.call("damage", seat=1, by=-1)
    assert t.seat(1)[S.STATE] == S.GHOST  # 3 damage: afloat
    t.call("damage", seat=1, by=-1)
    assert t.seat(1)[S.STATE] == S.DEAD and t.st[S.DEATHS] == 2 and t.st[S.END_REASON] == S.END_TWO_DEAD
    assert t.st[S.GHOST_PENDING] == -1  # no second Ghost


def test_the_ghost_cannot_deliver_a_quest():
    # A18, A37: a port is a sea square to the Ghost, which cannot interact with land
    t = Table(3, strategies="quester")
    t.seat(1)[S.DAMAGE] = 3
    t.call("damage", seat=1, by=-1)
    t.call("end_round")
    any_quest = next(i for i, q in enumerate(t.comp.quests) if q[1] == "any")
    t.T[S.QUEST, 0] = any_quest
    port = int(t.K[S.PORT_SQ, int(t.K[S.Q_PORT, any_quest])])
    for s in (0, 1):
        t.put(s, port)
        t.give_treasure(s, "Doubloon")
        t.set_hand(s, [(SA, 1), (SA, 2)])
    assert t.call("deliverable", seat=0, slot=0) >= 0
    assert t.call("deliverable", seat=1, slot=0) == -1


def _random_answers(att: int, dfn: int, hand: list[tuple[int, int]], trials: int) -> dict[int, int]:
    """The answers a random defender gives, over `trials` fights from one position, each game
    from another seed."""
    counts: dict[int, int] = {}
    for trial in range(trials):
        t = Table(3, seed=1000 + trial, strategies="random")
        t.put(att, t.square(0, 0))
        t.put(dfn, t.square(0, 0))
        t.clear_hands()
        t.set_hand(att, [(SW, 1)])
        t.set_hand(dfn, hand)
        t.stack([(hand[0][0], 3)])  # the defender's draw: of a type it already holds
        t.call("fight", att=att, dfn=dfn, shoot=0)
        answer = int(t.events(EV.RESPONSE)[-1][3])
        counts[answer] = counts.get(answer, 0) + 1
    return counts


@pytest.mark.parametrize("att, dfn", [(0, 1), (2, 1), (1, 0)])
@pytest.mark.parametrize("hand", [[(SW, 1), (CA, 2)], [(SA, 2)], [(SW, 1), (SA, 1), (CA, 4)]])
def test_a_random_defender_gives_up_or_answers_with_a_type_it_holds_each_as_likely(att, dfn, hand):
    """A21: the defender's answer is giving up or a fighting type of which it holds a card; a
    random defender takes each of these alike (1 in 1 + the types held), never a type it holds
    no card of, whichever seat attacks and whichever defends."""
    trials = 300
    counts = _random_answers(att, dfn, hand, trials)
    held = {kind for kind, _ in hand}
    assert set(counts) <= held | {-1}, counts
    p = 1 / (1 + len(held))
    band = 4.4 * (trials * p * (1 - p)) ** 0.5  # a chance of about 1 in 100,000 to fall outside
    for answer in held | {-1}:
        assert abs(counts.get(answer, 0) - trials * p) < band, (answer, counts)


@pytest.mark.parametrize("ghost", [0, 1, 2])
@pytest.mark.parametrize("order", [(0, 1, 2), (2, 0, 1), (1, 2, 0)])
def test_boarding_the_ghost_takes_its_most_infamous_treasure_wherever_it_lies(ghost, order):
    """Ghost Pirate: a Swords win over the Ghost takes one carried treasure, the most infamous,
    wherever it lies among the Ghost's cards and whichever seat the Ghost is; the seat after
    the Ghost carries treasure of its own, which plays no part."""
    names = ("Doubloon", "Exotic Goods", "Treasure Chest")  # Infamy 1, 2, 3
    attacker, beside = (ghost + 2) % 3, (ghost + 1) % 3
    t = Table(3, strategies="duellist")
    t.seat(ghost)[S.DAMAGE] = 3
    t.call("damage", seat=ghost, by=-1)
    t.call("end_round")
    assert t.seat(ghost)[S.STATE] == S.GHOST
    carried = [t.give_treasure(ghost, names[i]) for i in order]
    for name in ("Golden Idol", "Pearl", "Jewels"):  # the next seat's, by no order of Infamy
        t.give_treasure(beside, name)
    sq = t.square(0, 0)
    t.put(attacker, sq)
    t.put(ghost, sq)
    t.clear_hands()
    t.set_hand(attacker, [(SW, 4), (SW, 4)])
    t.set_hand(ghost, [(SA, 1)])
    t.stack([(CA, 1)])
    t.F[1 + ghost, bot.W_NERVE] = 10.0  # gives up at once
    t.call("fight", att=attacker, dfn=ghost, shoot=0)
    chest = carried[order.index(2)]
    assert list(t.T[S.CARRY0 + attacker, : t.seat(attacker)[S.CARRY_N]]) == [chest]
    assert sorted(t.T[S.CARRY0 + ghost, : t.seat(ghost)[S.CARRY_N]]) == sorted(c for c in carried if c != chest)
    assert t.seat(beside)[S.CARRY_N] == 3


@pytest.mark.parametrize("att,dfn,other", [(0, 1, 2), (2, 0, 1), (1, 2, 0)])
def test_a_defender_answering_a_shot_with_swords_boards_the_shooter_s_square(att, dfn, other):
    """A shot answered with Swords (FIGHT ANOTHER PIRATE): the defender comes alongside the shooter
    to board, for free, whichever seats shoot and defend, and whoever else shares the shooter's
    square."""
    t = Table(3, strategies="duellist")
    here, there = t.square(0, 0), t.square(0, 1)
    assert t.K[S.SQ_KIND, here] != S.LAND and t.K[S.SQ_KIND, there] != S.LAND
    t.put(att, here)
    t.put(other, here)
    t.put(dfn, there)
    t.clear_hands()
    t.F[1 + dfn, bot.W_NERVE] = 0.0
    t.set_hand(att, [(CA, 2)])
    t.set_hand(dfn, [(SW, 4), (SW, 3)])
    t.stack([(SW, 1)])  # the defender's draw
    assert t.call("can_attack", att=att, dfn=dfn, shoot=1)
    t.call("fight", att=att, dfn=dfn, shoot=1)
    assert t.events(EV.RESPONSE)[-1][3] == SW
    assert int(t.seat(dfn)[S.POS]) == here and int(t.seat(att)[S.POS]) == here
