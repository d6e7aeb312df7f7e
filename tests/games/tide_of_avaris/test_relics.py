"""Relics that break a rule for their owner (Relics: "break certain rules of the game"; A68): each
effect of the standard deck against the same position without it. The plain bonuses of the
alt-plain-relics set are in test_combat.py (dice) and test_hold.py (burial points)."""

import pytest

from simkit.core.errors import InputError
from simkit.games.tide_of_avaris import actions as A
from simkit.games.tide_of_avaris import components

from .harness import COLOUR, EV, S, Table, bot


def give_relic(t: Table, seat: int, effect: int) -> int:
    """Seat takes a relic of this effect from the standard deck (Relics: into a relic slot)."""
    card = next(i for i in range(int(t.K[S.META, S.N_RELIC_CARDS])) if t.K[S.RELIC_EFFECT, i] == effect)
    assert t.call("gain_relic", seat=seat, card=card)
    return card


def one_face(t: Table, face: int):
    t.K = t.K.copy()
    t.K[S.COMBAT_FACE, 0] = face
    t.K[S.META, S.N_COMBAT_FACES] = 1


def test_the_standard_relics_each_break_a_rule_and_carry_no_amount():
    t = Table()
    effects = {int(t.K[S.RELIC_EFFECT, i]) for i in range(int(t.K[S.META, S.N_RELIC_CARDS]))}
    assert effects == set(range(S.N_BONUS_EFFECTS, len(S.RELIC_EFFECTS)))
    card = give_relic(t, 0, S.RE_NO_BRIBE)
    assert t.seat(0)[S.REL_NO_BRIBE] == 1 and t.seat(0)[S.N_RELICS] == 1 and t.T[S.RELICS0, 0] == card


@pytest.mark.parametrize("with_relic", [False, True])
def test_no_bribe_enters_an_occupied_space_without_paying_or_fighting(with_relic):
    t = Table(strategies="burier")
    t.put(0, "Coral Harbour")
    t.put(1, "Raid")
    t.set_slot("Raid", None)
    t.set_dice(0, ["red"])
    t.seat(0)[S.GOLD] = 0  # no Bribe money: without the relic it must fight (A37)
    if with_relic:
        give_relic(t, 0, S.RE_NO_BRIBE)
    foe = t.call("move_to", seat=0, dest=t.space("Raid"), players=4)
    assert t.seat(0)[S.POS] == t.space("Raid")
    assert foe == (-1 if with_relic else 1)
    assert not t.events(EV.BRIBE)
    t2 = Table(strategies="burier")  # with gold the plain pirate pays; the relic's owner keeps it
    t2.put(0, "Coral Harbour")
    t2.put(1, "Raid")
    t2.set_slot("Raid", None)
    t2.set_dice(0, ["red"])
    t2.seat(0)[S.GOLD] = 5
    if with_relic:
        give_relic(t2, 0, S.RE_NO_BRIBE)
    t2.call("move_to", seat=0, dest=t2.space("Raid"), players=4)
    bribe = int(t2.K[S.BRIBE, t2.T[S.ORDER, S.POSITION + 0]])
    assert t2.seat(0)[S.GOLD] == (5 if with_relic else 5 - bribe)


@pytest.mark.parametrize("with_relic", [False, True])
def test_any_colour_pays_for_a_treasure_space_with_one_die_of_another_colour(with_relic):
    t = Table()
    t.set_slot("Raid", "pink")
    t.set_dice(0, ["teal", "blue"])
    if with_relic:
        give_relic(t, 0, S.RE_ANY_COLOUR)
    paid = t.call("pay_step", seat=0, space=t.space("Raid"))
    assert paid == (EV.PAY_ANY if with_relic else EV.PAY_TWO)
    assert int(t.T[S.DICE0, S.READY: S.READY + 2].sum()) == (1 if with_relic else 0)
    t.set_dice(0, ["teal"])
    assert bool(t.call("step_cost_ok", seat=0, space=t.space("Raid"))) == with_relic


@pytest.mark.parametrize("with_relic", [False, True])
def test_collect_after_burial_collects_the_treasure_of_the_space_after_burying(with_relic):
    t = Table(strategies="burier")
    t.put(0, "Raid")
    t.set_slot("Raid", "red")
    t.hold(0, {"blue": 1})
    if with_relic:
        give_relic(t, 0, S.RE_COLLECT_AFTER_BURIAL)
    t.call("act_and_collect", seat=0, act=bot.ACT_BURY, players=4)
    assert t.seat(0)[S.BURIALS] == 1 and t.buried(0) == {"blue": 1}
    if with_relic:
        assert t.holds(0)[0] == {"red": 1} and t.T[S.SLOT, 2 * t.space("Raid")] == -1
    else:
        assert t.holds(0)[0] == {} and t.T[S.SLOT, 2 * t.space("Raid")] == COLOUR["red"]


@pytest.mark.parametrize("with_relic,taken", [(False, 2), (True, 3)])
def test_steal_round_up_takes_the_odd_treasure_too(with_relic, taken):
    t = Table(strategies="raider")
    t.hold(1, {"red": 3, "blue": 2})  # 5 unbound
    if with_relic:
        give_relic(t, 0, S.RE_STEAL_UP)
    t.call("steal", winner=0, loser=1)
    assert sum(t.holds(0)[1].values()) == taken and sum(t.holds(1)[0].values()) == 5 - taken


def navy_face(t: Table, face: int):
    t.K = t.K.copy()
    t.K[S.NAVY_FACE, 0] = face
    t.K[S.META, S.N_NAVY_FACES] = 1


@pytest.mark.parametrize("with_relic", [False, True])
def test_navy_passes_the_relics_owner_on_its_way(with_relic):
    t = Table(strategies="burier")
    navy_face(t, S.WEST)
    one_face(t, S.SWORD)
    t.clear_ships()
    t.st[S.NAVY_CARD] = 0
    t.st[S.NAVY_POS] = t.space("Gull Harbour")
    t.set_dice(2, [])
    t.put(2, "Rum Cove")  # one lane west of Gull Harbour
    if with_relic:
        give_relic(t, 2, S.RE_NAVY_PASSES)
    t.call("navy_hunts", players=4)
    if with_relic:  # it sails on through the pirate's space, two lanes
        assert t.st[S.NAVY_POS] == t.space("Twin Wrecks") and not t.events(EV.NAVY_ATTACK)
    else:
        assert t.st[S.NAVY_POS] == t.space("Rum Cove") and t.events(EV.NAVY_ATTACK)[0][1] == 2


@pytest.mark.parametrize("with_relic", [False, True])
def test_navy_passes_spotted_hunts_another_pirate(with_relic):
    t = Table(strategies="burier")
    navy_face(t, S.SPOTTED)
    one_face(t, S.MISS)
    t.clear_ships()
    t.st[S.NAVY_CARD] = 0
    t.st[S.NAVY_POS] = t.space("Twin Wrecks")
    t.put(3, "Buy a Sea")  # 1 lane
    t.put(1, "Marauder's Rock")  # 2 lanes
    for s in range(4):
        t.set_dice(s, [])
    if with_relic:
        give_relic(t, 3, S.RE_NAVY_PASSES)
    t.call("navy_hunts", players=4)
    assert t.events(EV.NAVY_ATTACK)[0][1] == (1 if with_relic else 3)


@pytest.mark.parametrize("with_relic", [False, True])
def test_wind_always_counts_its_wind_without_the_wind_advantage(with_relic):
    t = Table()
    one_face(t, S.WIND)
    t.set_dice(0, [])
    t.set_dice(1, [])
    if with_relic:
        give_relic(t, 0, S.RE_WIND)
    won = t.call("battle", att=0, dfn=1, card=0, wind=-1)  # the defender has the Wind Advantage
    assert t.events(EV.BATTLE)[0][3:5] == ((1, 1) if with_relic else (0, 1))
    assert not won
    t2 = Table()  # with no arrow on the lane (an Explore fight has none) only the relic's owner hits
    one_face(t2, S.WIND)
    t2.set_dice(0, [])
    if with_relic:
        give_relic(t2, 0, S.RE_WIND)
    t2.st[S.MONSTER_DECK_N] = 1
    t2.T[S.MONSTER_DECK, 0] = next(i for i in range(int(t2.K[S.META, S.N_MONSTERS]))
                                   if t2.K[S.MON_ABILITY, i] == 0)
    t2.call("explore", seat=0)
    assert [r[3:5] for r in t2.events(EV.BATTLE)][-1][0] == (1 if with_relic else 0)


def test_the_heuristic_takes_a_relic_kind_it_lacks_over_a_second_of_one_it_has():
    t = Table(strategies="raider")
    give_relic(t, 0, S.RE_STEAL_UP)
    same = next(i for i in range(int(t.K[S.META, S.N_RELIC_CARDS]))
                if t.K[S.RELIC_EFFECT, i] == S.RE_STEAL_UP and i != t.T[S.RELICS0, 0])
    other = next(i for i in range(int(t.K[S.META, S.N_RELIC_CARDS])) if t.K[S.RELIC_EFFECT, i] == S.RE_ANY_COLOUR)
    t.T[S.DISPLAY, :2] = [same, other]
    t.st[S.DISPLAY_N] = 2
    assert bot.pick_relic(t.T, t.K, t.F, t.rng, 0) == 1  # the any_colour relic, not a second steal_round_up


def test_a_rule_breaking_relic_with_an_amount_is_refused(tmp_path):
    folder = tmp_path / "mine"
    folder.mkdir()
    text = (components.FOLDER / "decks.toml").read_text()
    old = 'effect = "no_bribe"\n'
    assert old in text
    (folder / "decks.toml").write_text(text.replace(old, old + "amount = 2\n", 1))
    components.load.cache_clear()
    with pytest.raises(InputError, match="relic 1 .*amount.*A68"):
        components.load(str(folder))
    components.load.cache_clear()


@pytest.mark.parametrize("greed", [0.5, 2.0, 20.0])
def test_a_heuristic_with_collect_after_burial_buries_where_it_would_otherwise_only_collect(greed):
    """A68: the relic's owner still collects after burying, so a heuristic weighs a burial worth
    less than the space's treasure as the burial plus the treasure: it buries with the relic (its
    first copy, a count of one) and only collects without it, however much the treasure is worth."""
    picks = []
    for with_relic in (False, True):
        t = Table(strategies="burier")
        t.put(0, "Raid")
        t.set_slot("Raid", "red")
        t.hold(0, {"blue": 1})
        t.seat(0)[S.MOVED] = 0  # no board action: bury or nothing, then collect
        if with_relic:
            give_relic(t, 0, S.RE_COLLECT_AFTER_BURIAL)
            assert t.seat(0)[S.REL_COLLECT_AFTER_BURIAL] == 1
        t.weights(0, W_BANK=0, W_GREED=greed)
        here = int(t.seat(0)[S.POS])
        assert 0 < bot.bury_value(t.P, t.T, t.K, t.F, 0, here, 0) <= bot.collect_value(t.T, t.K, t.F, 0, here)
        picks.append(bot.choose_act(t.P, t.T, t.K, t.F, t.rng, 0, 0, 4))
    assert picks == [bot.ACT_NONE, bot.ACT_BURY]


def test_the_display_is_refilled_from_the_reshuffled_discards_when_the_deck_runs_out():
    """Display refilled (TOA-198): with the relic deck empty the cleared relics are shuffled into a
    new deck and the display filled from it; with neither left the display stays short and no
    count goes below zero."""
    t = Table(strategies="burier")
    cards = [int(x) for x in t.T[S.DISPLAY, : t.P.relic_display]]
    for i, c in enumerate(cards[:3]):  # three on the discard pile, two left on display
        t.T[S.RELIC_DISC, i] = c
    t.st[S.RELIC_DISC_N] = 3
    t.T[S.DISPLAY, :2] = cards[3:5]
    t.st[S.DISPLAY_N] = 2
    t.st[S.RELIC_DECK_N] = 0
    A.refill_display(t.P, t.T, t.rng)
    assert int(t.st[S.DISPLAY_N]) == 5 and int(t.st[S.RELIC_DISC_N]) == 0 and int(t.st[S.RELIC_DECK_N]) == 0
    assert sorted(int(x) for x in t.T[S.DISPLAY, :5]) == sorted(cards)
    t.st[S.DISPLAY_N] = 2  # nothing left to draw: the display stays at two
    A.refill_display(t.P, t.T, t.rng)
    assert int(t.st[S.DISPLAY_N]) == 2 and int(t.st[S.RELIC_DECK_N]) == 0 and int(t.st[S.RELIC_DISC_N]) == 0
