"""Treasure Hold, burial scoring and Burial Bonuses (Treasure Hold; 2. Act - Bury Treasure)."""

from .harness import COLOUR, S, Table


def burial_bonus_card(t: Table, kind: int, arg: int) -> int:
    return next(i for i in range(int(t.K[S.META, S.N_BURIAL]))
                if t.K[S.BB_KIND, i] == kind and t.K[S.BB_ARG, i] == arg)


def test_first_of_each_colour_goes_up_and_duplicates_go_down():
    t = Table()
    t.hold(0, {"red": 1})
    t.call("stow", seat=0, c=COLOUR["red"], bound=False)  # the worked example: a second Red
    t.call("stow", seat=0, c=COLOUR["blue"], bound=False)
    assert S.hold_shape(t.T, 0) == (2, 1)


def test_bound_treasure_scores_like_unbound():
    t = Table()
    t.st[S.PUBLIC_BONUS] = -1
    t.hold(0, {"red": 1}, {"red": 1, "green": 1})
    t.call("bury", seat=0)
    assert t.seat(0)[S.POINTS] == int(t.K[S.UPPER_VALUE, 2]) + 1


def test_private_bonus_scores_for_its_holder_only_once():
    t = Table()
    t.st[S.PUBLIC_BONUS] = -1
    card = burial_bonus_card(t, S.BB_UPPER, 4)
    t.T[S.PRIVATE0 + 0, 0] = card
    t.seat(0)[S.PRIVATE_N] = 1
    t.hold(0, {"red": 1, "pink": 1, "blue": 1, "teal": 1})
    t.call("bury", seat=0)
    assert t.seat(0)[S.POINTS] == 10 + int(t.K[S.BB_POINTS, card])
    assert t.seat(0)[S.PRIVATE_N] == 0


def test_full_lower_hold_refuses_a_duplicate_but_takes_a_new_colour():
    t = Table()
    cap = int(t.K[S.META, S.LOWER_CAP])
    t.T[S.BAG, COLOUR["red"]] += cap  # a test-only supply for a full hold
    t.hold(0, {"red": 1 + cap})
    assert not S.can_hold(t.T, t.K, 0, COLOUR["red"])
    assert S.can_hold(t.T, t.K, 0, COLOUR["blue"])


def test_bury_with_an_empty_hold_scores_nothing():
    t = Table()
    t.call("bury", seat=0)
    assert t.seat(0)[S.BURIALS] == 0 and t.seat(0)[S.POINTS] == 0
