"""The heuristic's judgements beyond the shipped presets' weights: fight odds and stakes, dig
odds, long-shot pillages. Each is a hand-built position where the feature changes the
pirate's pick, and where the feature at its off value (0, as every shipped preset holds it)
leaves the pillager's own pick."""

import pytest

from simkit.games.sea_of_troubles import GAME
from simkit.games.sea_of_troubles import engine as E

from .harness import S, Table, bot

SW, SA, CA = S.SWORD, S.SAIL, S.CANNON
FEATURES = (bot.W_FIGHT, bot.W_DIG_ODDS, bot.W_LONG_SHOT)


def pick(t, seat=0, **weights):
    """The policy's pick (kind, arg) for the seat with these weights set on its pillager row."""
    for name, value in weights.items():
        t.F[1 + seat, getattr(bot, "W_" + name.upper())] = value
    n = int(t.call("candidates", seat=seat, players=t.players))
    k = int(t.call("heuristic_choice", seat=seat, players=t.players, n=n))
    return int(t.buf[E.KIND, k]), int(t.buf[E.ARG, k])


def test_every_shipped_preset_holds_the_new_features_off():
    for p in GAME.presets:
        if p.name not in ("tuned", "expert") and len(p.weights) > bot.N_HEURISTIC - 1:  # the expert: tuned's
            assert all(p.weights[i] == 0.0 for i in FEATURES), p.name


def duel(mine, theirs, my_tokens, their_tokens, treasure=None):
    """Pirates 0 and 1 alongside on open sea, no move points, these hands and tokens."""
    t = Table(2, strategies="pillager")
    t.alongside()
    t.st[S.FREE] = 0
    if treasure:
        t.give_treasure(0, treasure)
    t.clear_hands()
    t.set_hand(0, mine)
    t.set_hand(1, theirs)
    t.seat(0)[S.INFAMY] = my_tokens
    t.seat(1)[S.INFAMY] = their_tokens
    return t


def test_fight_odds_shoot_a_spent_richer_rival_below_the_min_fight_gate():
    # 5 Cannons (under the pillager's min_fight 6) against a rival down to one card and ahead on tokens
    hands = ([(CA, 2), (CA, 3)], [(SW, 1)], 1, 3)
    assert pick(duel(*hands), fight=0.0) == (E.A_END, 0)  # off: the gate bars the shot
    assert pick(duel(*hands), fight=1.0) == (E.A_SHOOT, 1)
    # the same Cannons against a rival holding six cards: the odds turn and the pirate holds fire
    six = [(SW, 1), (SW, 2), (SA, 1), (SA, 2), (CA, 1), (CA, 2)]
    assert pick(duel([(CA, 2), (CA, 3)], six, 1, 3), fight=1.0) == (E.A_END, 0)


def test_fight_odds_hold_fire_against_a_full_hand_when_the_ship_carries_treasure():
    # 6 Cannons clear the gate, but the rival holds 7 cards and could take the carried chest back
    full = [(SW, 1), (SW, 2), (SA, 1), (SA, 2), (CA, 1), (CA, 2), (SW, 3)]
    hands = ([(CA, 3), (CA, 3)], full, 2, 0, "Treasure Chest")
    assert pick(duel(*hands), fight=0.0) == (E.A_SHOOT, 1)  # off: the pillager shoots
    assert pick(duel(*hands), fight=1.0) == (E.A_END, 0)


def test_fight_odds_sail_to_a_rival_within_this_turns_reach():
    for free, reached in ((2, True), (1, False)):
        picks = []
        for fight in (0.0, 1.0):
            t = Table(2, strategies="pillager")
            t.put(0, t.square(0, 0))
            t.put(1, t.square(0, 2))  # two squares of open sea away, out of a shot's range
            t.st[S.FREE] = free
            t.T[S.PORT_CLOSED, :] = 0
            t.clear_hands()
            t.set_hand(0, [(CA, 2), (CA, 3)])
            t.set_hand(1, [(SW, 1)])
            t.seat(1)[S.INFAMY] = 3
            picks.append(pick(t, fight=fight))
        assert picks[0] == (E.A_END, 0)  # off: no target is worth the sail
        assert picks[1] == ((E.A_MOVE, t.square(0, 2)) if reached else (E.A_END, 0))


def test_dig_odds_dig_a_deep_hoard_rather_than_sail_to_raid():
    picks = []
    for dig_odds in (0.0, 1.0):
        t = Table(2, strategies="pillager")
        x = 1
        t.put(0, int(t.K[S.X_SQ, x]))
        t.put(1, t.square(5, 0))
        t.T[S.XOWNER, x] = 1
        for name in ("Doubloon", "Exotic Goods", "Jewels"):  # seat 1's hoard
            tr = t.give_treasure(1, name)
            t.seat(1)[S.CARRY_N] -= 1
            t.T[S.BURY0 + 1, t.seat(1)[S.BURY_N]] = tr
            t.seat(1)[S.BURY_N] += 1
        t.seat(1)[S.BURY_X] = x
        t.T[S.PORT_CLOSED, :] = 0
        t.st[S.FREE] = 2
        t.clear_hands()
        t.set_hand(0, [(CA, 4), (CA, 3), (CA, 2)])  # enough to raid an open port
        picks.append(pick(t, dig_odds=dig_odds))
    assert picks[0][0] == E.A_MOVE and t.K[S.SQ_KIND, picks[0][1]] == S.PORT  # off: sails to raid
    assert picks[1] == (E.A_DIG, 0)


def test_long_shot_raids_below_the_commit_total_when_likely_enough():
    picks = {}
    for long_shot in (0.0, 0.2, 0.4):
        t = Table(2, strategies="pillager")
        t.put(0, int(t.K[S.PORT_SQ, 0]))
        t.put(1, t.square(5, 0))
        t.T[S.PORT_CLOSED, :] = 0
        t.st[S.FREE] = 0
        t.clear_hands()
        t.set_hand(0, [(SW, 4), (SW, 4)])  # 8, under the pillager's commit of 9: about a 1-in-3 failure
        picks[long_shot] = pick(t, long_shot=long_shot)
    assert picks[0.0] == (E.A_END, 0)  # off: never below the commit total
    assert picks[0.2] == (E.A_END, 0)  # too likely to fail
    assert picks[0.4] == (E.A_PILLAGE, 0)


def test_pillage_odds_follow_the_port_defence():
    t = Table(2)
    odds = [bot.pillage_odds(t.P, t.T, t.K, a) for a in range(3, 13)]
    assert odds == sorted(odds) and odds[0] < 0.02 and odds[-1] > 0.99
    assert abs(bot.pillage_odds(t.P, t.T, t.K, 8) - 0.667) < 0.05  # 3 cards of the box: 8 beats them 2 times in 3


def square_value(t, seat, sq, **weights):
    """target_value of square sq for the seat, with only these weights non-zero."""
    from ..engine_calls import call_by_name

    t.F[1 + seat, :] = 0.0
    for name, value in weights.items():
        t.F[1 + seat, getattr(bot, "W_" + name.upper())] = value
    own = bot.own_view(t.T, t.K, seat)
    return call_by_name(bot.target_value, t, {"seat": seat, "sq": sq, "players": t.players, "own": own}, {})


def test_the_bot_values_burying_at_an_x_exactly_where_the_rules_let_it_bury():
    """Bury (one X per pirate outside Skirmish): with treasure aboard, an X is worth sailing to for
    burying exactly where bury_spot_ok would let the seat bury on arrival: its own X, or a free
    one while it has none; never a rival's X. Each seat, X by X, before and after owning one."""
    t = Table(3, strategies="duellist")
    xs = [b for b in range(int(t.K[S.META, S.N_SQ])) if t.K[S.SQ_KIND, b] == S.XSPOT]
    assert len(xs) == 3
    for owners in ((-1, -1, -1), (1, 0, -1), (-1, 2, 0), (2, -1, 1)):
        for x, owner in enumerate(owners):
            t.T[S.XOWNER, t.K[S.SQ_INDEX, xs[x]]] = owner
        for s in range(3):
            t.seat(s)[S.BURY_X] = next((t.K[S.SQ_INDEX, xs[x]] for x, o in enumerate(owners) if o == s), -1)
        for seat in range(3):
            t.seat(seat)[S.CARRY_N] = 0
            t.give_treasure(seat, "Doubloon")
            for sq in xs:
                home = int(t.seat(seat)[S.POS])
                t.put(seat, sq)
                allowed = bool(t.call("bury_spot_ok", seat=seat))
                t.put(seat, home)
                assert (square_value(t, seat, sq, bury=1.0) > 0) == allowed, (owners, seat, sq)
            t.T[S.TDECK, t.st[S.TDECK_N]] = t.T[S.CARRY0 + seat, 0]  # the Doubloon back
            t.st[S.TDECK_N] += 1
            t.seat(seat)[S.CARRY_N] = 0


def test_the_fight_value_of_a_rival_alongside_counts_only_the_attacks_the_hand_can_make():
    """A rival within this turn's reach is worth the better of boarding (Swords) and shooting
    (Cannons) that the hand holds cards for: only the shot with Cannons alone, only the boarding
    with Swords alone, nothing with neither, though a boarding's odds are never nil."""
    t = Table(2, strategies="duellist")
    t.clear_hands()
    t.put(0, t.square(0, 0))
    t.put(1, t.square(0, 1))
    t.give_treasure(1, "Treasure Chest")
    t.st[S.FREE] = 2
    rival = t.square(0, 1)

    def swings():
        own = bot.own_view(t.T, t.K, 0)
        return [bot.fight_swing(t.P, t.T, t.K, t.F, 0, 1, shoot, own) for shoot in (0, 1)]

    assert square_value(t, 0, rival, fight=1.0) == 0.0
    assert min(swings()) > 0  # an attack with no cards could still win: only the hand rules it out
    t.set_hand(0, [(CA, 3)])
    assert square_value(t, 0, rival, fight=1.0) == swings()[1] != max(swings())
    t.set_hand(0, [(SW, 3)])
    assert square_value(t, 0, rival, fight=1.0) == swings()[0]


def test_the_bot_values_a_port_for_pillage_by_that_port_s_own_state_only():
    """Pillage (a closed port cannot be pillaged): sailing to a port is worth its pillage weight
    exactly when that port is open, whichever other ports are closed, for every port of the
    board."""
    t = Table(2, strategies="pillager")
    t.clear_hands()
    t.set_hand(0, [(S.SWORD, 4), (S.SWORD, 4), (S.CANNON, 4), (S.CANNON, 4)])  # a hand that can commit
    ports = [b for b in range(int(t.K[S.META, S.N_SQ])) if t.K[S.SQ_KIND, b] == S.PORT]
    assert len(ports) == int(t.K[S.META, S.NPORTS]) > 1
    for sq in ports:
        p = int(t.K[S.SQ_INDEX, sq])
        for open_here in (True, False):
            t.T[S.PORT_CLOSED, : len(ports)] = 0 if not open_here else 2
            t.T[S.PORT_CLOSED, p] = 0 if open_here else 2
            value = square_value(t, 0, sq, pillage=1.0, commit=1.0)
            assert (value >= 1.0) == open_here, (sq, p, open_here, value)


@pytest.mark.parametrize("seat,rival", [(0, 1), (1, 0), (2, 1)])
def test_a_rival_carrier_is_worth_the_hunt_weight_per_carried_infamy_and_no_other_weight(seat, rival):
    """Sailing onto a rival that carries treasure is worth W_HUNT per carried Infamy (when the hand
    can board, W_MIN_FIGHT): the hunt weight alone moves it, the next weight (shooting) does not,
    for several seat pairs."""
    t = Table(3, strategies="duellist")
    t.clear_hands()
    t.set_hand(seat, [(S.SWORD, 4), (S.SWORD, 3)])
    sq = next(b for b in range(int(t.K[S.META, S.N_SQ])) if t.K[S.SQ_KIND, b] == S.WATER and b > 20)
    t.put(rival, sq)
    t.give_treasure(rival, "Doubloon")
    carried = int(bot.carried_infamy(t.T, t.K, rival))
    assert carried > 0
    assert square_value(t, seat, sq, hunt=2.0, min_fight=1.0) == pytest.approx(2.0 * carried)
    assert square_value(t, seat, sq, shoot=2.0, min_fight=1.0) == 0.0
    assert square_value(t, seat, sq, hunt=2.0, min_fight=99.0) == 0.0  # a hand too weak to board


@pytest.mark.parametrize("seat,rival", [(0, 1), (2, 0), (1, 2)])
def test_a_rival_s_x_with_buried_treasure_is_worth_half_the_dig_weight_and_no_other_weight(seat, rival):
    """Sailing to an X where a rival has buried treasure is worth W_DIG / 2 (without the dig odds,
    W_DIG_ODDS = 0): the dig weight alone moves it, the weight before it (quests) does not; the
    seat's own X and a rival's X with nothing buried are worth no dig."""
    t = Table(3, strategies="duellist")
    t.clear_hands()
    xsq = next(b for b in range(int(t.K[S.META, S.N_SQ])) if t.K[S.SQ_KIND, b] == S.XSPOT)
    assert square_value(t, seat, xsq, dig=2.0) == 0.0  # nobody's X yet
    t.put(rival, xsq)
    t.give_treasure(rival, "Doubloon")
    t.set_hand(rival, [(S.SAIL, 1)])
    t.call("bury", seat=rival, slot=0)
    assert t.seat(rival)[S.BURY_N] == 1 and t.T[S.XOWNER, t.K[S.SQ_INDEX, xsq]] == rival
    assert square_value(t, seat, xsq, dig=2.0) == pytest.approx(1.0)
    assert square_value(t, seat, xsq, quest=2.0) == 0.0
    assert square_value(t, rival, xsq, dig=2.0) == 0.0  # one's own X
    t.seat(rival)[S.BURY_N] = 0  # dug up: nothing left there
    assert square_value(t, seat, xsq, dig=2.0) == 0.0


def test_the_defender_answers_when_its_best_total_just_meets_its_nerve_and_concedes_below():
    """The heuristic defender's nerve (W_NERVE): it answers with its biggest total when that total
    is at least nerve * 2.5 * the attack's card count, and concedes below it; a total exactly at
    the bar answers. Its biggest type is the one it answers with."""
    t = Table(2, strategies="duellist")
    t.clear_hands()
    t.set_hand(1, [(S.SAIL, 2), (S.SWORD, 1)])
    for nerve, na, answer in ((0.4, 2, S.SAIL), (0.4, 3, -1), (0.2, 4, S.SAIL), (0.1, 8, S.SAIL), (0.0, 1, S.SAIL)):
        t.F[2, bot.W_NERVE] = nerve  # the bar: nerve * na * 2.5 against the Sails' total of 2
        assert int(bot.answer(t.P, t.T, t.K, t.F, 1, 0, na)) == answer, (nerve, na)


def test_the_fight_odds_count_the_defender_s_draw_only_below_its_hand_size():
    """fight_swing reads the defender's hand after its draw: one card more below the hand size,
    none at it. So a defender one short of a full hand and one at a full hand look alike, and
    one card fewer again makes the attack likelier to win."""
    t = Table(2, strategies="duellist")
    t.clear_hands()
    t.set_hand(0, [(S.SWORD, 4), (S.SWORD, 3)])
    t.F[1, bot.W_GUARD] = 1.0
    hs = int(t.P.hand_size)
    own = bot.own_view(t.T, t.K, 0)

    def swing(cards):
        t.seat(1)[S.HAND_N] = cards
        return float(bot.fight_swing(t.P, t.T, t.K, t.F, 0, 1, 0, own))

    assert swing(hs - 1) == swing(hs)
    assert swing(hs - 2) > swing(hs - 1)
