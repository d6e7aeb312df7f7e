"""The bots see only what their player sees: a rival's hold contents and hand (face down) never
change a bot's choices; the holds' sizes (public) may."""

import pytest

from .harness import S, Table


def hide(t, swap, cards):
    """Seat 1's two ships get a 100-gold chest and an 800-gold gem, one each, face down (which
    ship holds which is `swap`), and seat 1 these voyage cards. The bags end up identical. Seat 1
    plays `random`, whose choices never read its cargo, so only seat 0's view could differ."""
    chest = t.take(S.LOOT_BAG, S.CHEST, 100)
    gem = t.take(S.TREASURE_BAG, S.GEM, 800)
    t.call("to_hold", t=gem if swap else chest, k=2)
    t.call("to_hold", t=chest if swap else gem, k=3)
    t.set_voyage_hand(1, cards)


@pytest.mark.parametrize("preset", ["merchant", "hunter", "legend_chaser"])
def test_a_rivals_face_down_cargo_and_hand_do_not_change_a_bots_turn(preset):
    for seed in range(4):
        lineup = [preset, "random", preset, preset]
        a = Table(4, seed=seed, strategies=lineup)
        b = Table(4, seed=seed, strategies=lineup)
        hide(a, False, [a.voyage("reach")])
        hide(b, True, [b.voyage("sink", "legendary"), b.voyage("deliver"), b.voyage("dig")])
        for t in (a, b):  # seat 1's ship 2 waits in seat 0's way, a target for a hunter
            t.put(3, 40)
            t.put(2, int(t.K[S.NEXT0, t.ship(0)[S.HEX]]))
        start_a, start_b = int(a.st[S.LOG_N]), int(b.st[S.LOG_N])
        a.call("take_turn", seat=0)
        b.call("take_turn", seat=0)
        assert a.events(start=start_a) == b.events(start=start_b)


def test_a_rivals_hold_size_is_public_and_may_change_a_hunters_plan():
    from strategies import sea_of_thieves as bot

    t = Table(4, strategies="hunter")
    t.clear_board()
    t.put(0, 5)
    t.put(2, 5)
    t.empty_hold(2)
    t.ship(0)[S.DAMAGE] = 0
    assert not bot.fire_on(t.T, t.F, 0, 2)
    for _ in range(bot.HUNT_HOLD):
        t.give(2, S.LOOT_BAG, S.RESOURCE)
    assert bot.fire_on(t.T, t.F, 0, 2)
