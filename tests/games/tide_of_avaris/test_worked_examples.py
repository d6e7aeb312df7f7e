"""Every worked example of the rulebook the component files can decide (board geometry, dice faces,
deck stats), played on every shipped component set: a set that breaks one is wrong, or the schema
refuses it (components.py names the rule). Combat rolls are the example's own: the die keeps the
set's faces of the kinds the example rolls, and the game seed is one whose rolls are the example's.
"""

import numpy as np
import pytest

from simkit.core.components import shipped
from simkit.core.rng import CHANCE, randint, seed_streams
from simkit.games.tide_of_avaris import components

from .harness import COLOUR, EV, S, Table, bot

SETS = shipped(components.FOLDER)


def table(name: str, **kw) -> Table:
    return Table(overrides={"components": name}, **kw)


def set_order(t: Table, order: list[int]):
    t.T[S.ORDER, : len(order)] = order
    for i, s in enumerate(order):
        t.T[S.ORDER, S.POSITION + s] = i


def faces_numbered(t: Table, *numbers: int) -> list[int]:
    """A crew face showing each Number (the set's own faces)."""
    faces = []
    for n in numbers:
        found = [f for f, x in enumerate(t.comp.dice["number"]) if x == n]
        assert found, f"no crew face shows {n}"
        faces.append(found[0])
    return faces


def give_faces(t: Table, s: int, faces: list[int]):
    t.seat(s)[S.CREW_N] = len(faces)
    t.T[S.DICE0 + s, :] = 0
    for i, f in enumerate(faces):
        t.T[S.DICE0 + s, S.FACE + i] = f
        t.T[S.DICE0 + s, S.READY + i] = 1


def loaded_die(t: Table, kinds: set[int]):
    """Keep only the set's combat faces of these kinds (each must be on the set's die)."""
    faces = [f for f in t.comp.dice["combat"] if f in kinds]
    assert {f for f in faces} == kinds, f"the combat die lacks {kinds - set(faces)}"
    t.K = t.K.copy()
    t.K[S.COMBAT_FACE, : len(faces)] = faces
    t.K[S.META, S.N_COMBAT_FACES] = len(faces)


def seed_rolling(t: Table, first: list[int], second: list[int]):
    """Reseed the table with a game seed whose first combat rolls are `first` (the attacker's dice)
    then `second` (the defender's), in any order within each side."""
    n = int(t.K[S.META, S.N_COMBAT_FACES])
    rng = t.rng.copy()
    for seed in range(200_000):
        seed_streams(rng, np.uint64(seed))
        rolls = [int(t.K[S.COMBAT_FACE, randint(rng, CHANCE, n)]) for _ in range(len(first) + len(second))]
        if sorted(rolls[: len(first)]) == sorted(first) and sorted(rolls[len(first):]) == sorted(second):
            seed_streams(t.rng, np.uint64(seed))
            return
    raise AssertionError("no seed rolls the example")


def battles(t: Table) -> list[tuple]:
    return [r[3:5] for r in t.events(EV.BATTLE)]


@pytest.mark.parametrize("name", SETS)
def test_worked_example_the_pink_face_gathers_2_gold(name):
    # TOA-059: Sable commands her pink die for supplies and gains 2 gold
    t = table(name)
    t.set_dice(0, ["pink"])
    gold = int(t.seat(0)[S.GOLD])
    t.call("command", seat=0, i=0)
    assert t.seat(0)[S.GOLD] == gold + 2 and t.T[S.DICE0, S.READY] == 0


@pytest.mark.parametrize("name", SETS)
def test_worked_example_fourth_upper_space_and_two_lower_score_12(name):
    # TOA-071..074, 108, 110: One-Eye buries four colours up and two duplicates down: 10 + 2
    t = table(name)
    t.st[S.PUBLIC_BONUS] = -1
    t.hold(0, {"red": 2, "pink": 1, "blue": 2, "teal": 1})
    t.call("bury", seat=0)
    assert t.seat(0)[S.POINTS] == 12
    assert t.holds(0) == ({}, {})
    assert t.buried(0) == {"red": 2, "pink": 1, "blue": 2, "teal": 1}  # kept for Matching Colours
    assert t.events(EV.BURY)[-1][3:] == (12, 4, 2)


@pytest.mark.parametrize("name", SETS)
def test_worked_example_entering_the_pink_raid_costs_a_pink_die_a_rum_or_two_dice(name):
    # TOA-089, 090, 092, 093: a pink die, or one rum, or a teal and a blue die
    raid = None
    for pay, dice, rum in (("match", ["teal", "pink", "blue"], 0), ("rum", ["teal", "blue"], 1),
                           ("two", ["teal", "blue"], 0)):
        t = table(name)
        raid = t.space("Raid")
        t.set_slot("Raid", "pink")
        t.set_dice(0, dice)
        t.seat(0)[S.RUM] = rum
        paid = t.call("pay_step", seat=0, space=raid)
        left = [int(x) for x in t.T[S.DICE0, S.READY: S.READY + len(dice)]]
        if pay == "match":
            assert paid == EV.PAY_MATCH and left == [1, 0, 1]
        elif pay == "rum":
            assert paid == EV.PAY_RUM and left == [1, 1] and t.seat(0)[S.RUM] == 0
        else:
            assert paid == EV.PAY_TWO and left == [0, 0]
    t = table(name)
    t.set_slot("Raid", "pink")
    t.set_dice(0, ["teal"])  # one die of another colour does not pay for a treasure space
    assert not t.call("step_cost_ok", seat=0, space=raid) and t.call("pay_step", seat=0, space=raid) == -1


@pytest.mark.parametrize("name", SETS)
@pytest.mark.parametrize("seat", [0, 1])
def test_a_step_onto_a_space_with_two_treasures_can_be_paid_with_a_die_of_either_colour(name, seat):
    # TOA-089: one die matching a treasure there; with two treasures, either one's colour pays,
    # the second as well as the first, and a die of a third colour does not (step_cost_ok and
    # pay_step agree in every case)
    for slots, die, payable in ((("pink", "blue"), "blue", True), (("pink", "blue"), "pink", True),
                                (("pink", "blue"), "teal", False), ((None, "blue"), "blue", True),
                                ((None, "blue"), "pink", False)):
        t = table(name)
        raid = t.space("Raid")
        for k, colour in enumerate(slots):
            t.set_slot("Raid", colour, k)
        t.set_dice(seat, [die])
        t.seat(seat)[S.RUM] = 0
        assert bool(t.call("step_cost_ok", seat=seat, space=raid)) == payable, (slots, die)
        assert t.call("pay_step", seat=seat, space=raid) == (EV.PAY_MATCH if payable else -1), (slots, die)

@pytest.mark.parametrize("name", SETS)
def test_worked_example_entering_the_treasureless_raid_costs_one_die_of_any_colour_or_a_rum(name):
    # TOA-091, 094
    t = table(name)
    t.set_slot("Raid", None)
    t.set_dice(0, ["teal", "blue"])
    assert t.call("pay_step", seat=0, space=t.space("Raid")) == EV.PAY_ANY
    assert int(t.T[S.DICE0, S.READY: S.READY + 2].sum()) == 1
    t.set_dice(0, [])
    t.seat(0)[S.RUM] = 1
    assert t.call("pay_step", seat=0, space=t.space("Raid")) == EV.PAY_RUM and t.seat(0)[S.RUM] == 0


@pytest.mark.parametrize("name", SETS)
def test_worked_example_the_second_in_order_bribes_1_gold_to_the_occupant_highest_in_order(name):
    # TOA-096..100: Sable (2nd) enters the Raid with the Navy and One-Eye (1st) and Peter there
    t = table(name)
    set_order(t, [2, 0, 1, 3])
    raid = t.space("Raid")
    t.put(1, "Raid")
    t.put(2, "Raid")
    t.st[S.NAVY_POS] = raid
    gold = [int(t.seat(s)[S.GOLD]) for s in range(4)]
    t.seat(0)[S.GOLD] = 5
    t.call("bribe", seat=0, space=raid, players=4)
    assert t.seat(0)[S.GOLD] == 4 and t.seat(2)[S.GOLD] == gold[2] + 1 and t.seat(1)[S.GOLD] == gold[1]


@pytest.mark.parametrize("name", SETS)
def test_worked_example_burying_on_a_blue_space_takes_the_3_point_bonus(name):
    # TOA-111..113: the public Burial Bonus for a burial on a blue-treasure space
    t = table(name)
    card = next(i for i in range(int(t.K[S.META, S.N_BURIAL]))
                if t.K[S.BB_KIND, i] == S.BB_COLOUR and t.K[S.BB_ARG, i] == COLOUR["blue"])
    assert t.K[S.BB_POINTS, card] == 3
    t.st[S.PUBLIC_BONUS] = card
    t.put(0, "Raid")
    t.set_slot("Raid", "blue")
    t.hold(0, {"red": 1})
    t.call("bury", seat=0)
    assert t.seat(0)[S.POINTS] == 1 + 3 and t.st[S.PUBLIC_BONUS] == -1
    t2 = table(name)  # on a red space the card stays
    t2.st[S.PUBLIC_BONUS] = card
    t2.put(0, "Raid")
    t2.set_slot("Raid", "red")
    t2.hold(0, {"red": 1})
    t2.call("bury", seat=0)
    assert t2.seat(0)[S.POINTS] == 1 and t2.st[S.PUBLIC_BONUS] == card


@pytest.mark.parametrize("name", SETS)
def test_worked_example_the_raid_action_gives_2_gold_and_1_rum_then_its_red_is_collected(name):
    # TOA-115, 116, 119, 121
    t = table(name, strategies="burier")
    t.put(0, "Raid")
    t.set_slot("Raid", "red")
    t.seat(0)[S.MOVED] = 1
    gold, rum = int(t.seat(0)[S.GOLD]), int(t.seat(0)[S.RUM])
    t.call("act_and_collect", seat=0, act=bot.ACT_BOARD, players=4)
    assert (t.seat(0)[S.GOLD], t.seat(0)[S.RUM]) == (gold + 2, rum + 1)
    assert t.holds(0)[0] == {"red": 1} and t.T[S.SLOT, 2 * t.space("Raid")] == -1


def navy_face(t: Table, face: int):
    t.K = t.K.copy()
    t.K[S.NAVY_FACE, 0] = face
    t.K[S.META, S.N_NAVY_FACES] = 1


@pytest.mark.parametrize("name", SETS)
def test_worked_example_rolling_n_the_navy_stops_on_buy_a_sea_which_has_no_n_exit(name):
    # TOA-136..138: the HMS Resolute rolls N, moves onto Buy a Sea and can go no further north
    t = table(name)
    sea = t.space("Buy a Sea")
    assert t.K[S.EXIT0 + S.NORTH, sea] == -1
    south = int(t.K[S.EXIT0 + S.SOUTH, sea])
    assert south >= 0
    navy_face(t, S.NORTH)
    t.clear_ships()
    t.st[S.NAVY_CARD] = 0
    t.st[S.NAVY_POS] = south
    t.call("navy_hunts", players=4)
    assert t.st[S.NAVY_POS] == sea and [r[3:5] for r in t.events(EV.NAVY_MOVE)] == [(south, sea)]


@pytest.mark.parametrize("name", SETS)
def test_worked_example_spotted_goes_by_the_crew_spirit_die_to_arrive_on_explore_with_the_wind(name):
    # TOA-139..141: Sable, two lanes away on Explore; of the two routes the Navy takes the one
    # that arrives with the wind
    t = table(name, strategies="burier")
    crew, explore = t.space("Crew Spirit Die"), t.space("Explore")
    starts = [b for b in range(int(t.K[S.META, S.N_SPACES]))
              if t.K[S.DIST0 + b, explore] == 2 and t.K[S.DIST0 + b, crew] == 1
              and sum(1 for j in range(int(t.K[S.SP_ADJ_N, b]))
                      if t.K[S.DIST0 + int(t.K[S.ADJ0 + j, b]), explore] == 1) == 2]
    assert starts, "no space two lanes from Explore with two routes, one by the Crew Spirit Die"
    navy_face(t, S.SPOTTED)
    t.K[S.COMBAT_FACE, 0] = S.MISS
    t.K[S.META, S.N_COMBAT_FACES] = 1
    t.clear_ships()
    for s in (1, 2, 3):
        t.seat(s)[S.POS] = -1
    t.st[S.NAVY_CARD] = 0
    t.st[S.NAVY_POS] = starts[0]
    t.put(0, "Explore")
    t.set_dice(0, [])
    t.call("navy_hunts", players=4)
    assert [r[3:5] for r in t.events(EV.NAVY_MOVE)] == [(starts[0], crew), (crew, explore)]
    assert t.events(EV.NAVY_ATTACK)[0][1] == 0 and t.events(EV.NAVY_ATTACK)[0][4] == 1  # with the wind


@pytest.mark.parametrize("name", SETS)
def test_worked_example_wager_descending_ties_keep_yesterdays_order(name):
    # TOA-148..155: Sable (0) 4 + 3 = 7, Peter (1) 1, One-Eye (2) and Quinn (3) no dice, 0;
    # One-Eye was ahead of Quinn yesterday
    t = table(name)
    four, three, one = faces_numbered(t, 4, 3, 1)

    def deal():
        give_faces(t, 0, [four, three])
        give_faces(t, 1, [one])
        t.set_dice(2, [])
        t.set_dice(3, [])

    set_order(t, [2, 3, 1, 0])
    deal()
    t.call("midnight_wager", players=4)
    assert [int(t.seat(s)[S.WAGER]) for s in range(4)] == [7, 1, 0, 0]
    assert [int(x) for x in t.T[S.ORDER, :4]] == [0, 1, 2, 3]
    set_order(t, [3, 2, 1, 0])  # now Quinn was ahead, and stays ahead
    deal()
    t.call("midnight_wager", players=4)
    assert [int(x) for x in t.T[S.ORDER, :4]] == [0, 1, 3, 2]


@pytest.mark.parametrize("name", SETS)
def test_worked_example_two_swords_and_a_wind_against_the_wind_lose_to_two_shields_and_a_wind(name):
    # TOA-224..230: One-Eye moved onto Sable against the wind: 2 hits against her 3
    t = table(name)
    loaded_die(t, {S.SWORD, S.SHIELD, S.WIND})
    t.set_dice(0, [])
    t.set_dice(1, [])
    t.seat(0)[S.ATTACK] = 2  # 1 + 2 attack dice
    t.seat(1)[S.DEFENCE] = 2
    seed_rolling(t, [S.SWORD, S.SWORD, S.WIND], [S.SHIELD, S.SHIELD, S.WIND])
    assert not t.call("battle", att=0, dfn=1, card=0, wind=-1)
    assert battles(t) == [(2, 3)]


@pytest.mark.parametrize("name", SETS)
def test_worked_example_six_swords_beat_three_shields_and_take_three_of_six_unbound(name):
    # TOA-231..235: Sable attacks One-Eye, rolls 6 swords to his 3 shields and takes 3 of his 6
    # unbound treasures, bound; One-Eye sinks
    t = table(name, strategies="raider")
    loaded_die(t, {S.SWORD, S.SHIELD})
    t.set_dice(0, [])
    t.set_dice(1, ["blue", "blue"], ready=[0, 0])
    t.weights(1, W_SINK=0)  # he throws a die overboard and keeps what is left
    t.seat(0)[S.ATTACK] = 5
    t.seat(1)[S.DEFENCE] = 2
    t.put(0, "Raid")
    t.put(1, "Raid")
    t.hold(1, {"red": 1, "pink": 1, "blue": 1, "teal": 1, "green": 1, "yellow": 1})
    seed_rolling(t, [S.SWORD] * 6, [S.SHIELD] * 3)
    assert t.call("fight", att=0, dfn=1, wind=0)
    assert battles(t) == [(6, 3)]
    assert t.holds(0)[0] == {} and sum(t.holds(0)[1].values()) == 3 and sum(t.holds(1)[0].values()) == 3
    assert t.seat(1)[S.POS] == -1 and t.seat(1)[S.SINKINGS] == 1


@pytest.mark.parametrize("name", SETS)
def test_worked_example_hms_resolute_rolls_six_swords_against_five_shields_and_takes_a_treasure(name):
    # TOA-236..241: Sable defends with 5 shields against the HMS Resolute's 6 swords and loses;
    # the Navy takes one treasure of her Upper Hold onto its card and she sinks
    t = table(name, strategies="burier")
    card = t.comp.decks["navy_names"].index("HMS Resolute")
    assert t.K[S.NAVY_ATTACK, card] >= 6
    t.K = t.K.copy()
    t.K[S.NAVY_ATTACK, card] = 6  # the example's six dice (more would only roll more)
    loaded_die(t, {S.SWORD, S.SHIELD})
    t.st[S.NAVY_CARD] = card
    t.st[S.NAVY_POS] = t.space("Raid")
    t.put(0, "Raid")
    t.set_dice(0, ["blue", "blue"], ready=[0, 0])  # commanded already: she keeps her treasure, loses a die
    t.seat(0)[S.DEFENCE] = 4
    t.hold(0, {"red": 1, "blue": 1, "teal": 1})
    t.weights(0, W_SINK=0)
    seed_rolling(t, [S.SWORD] * 6, [S.SHIELD] * 5)
    t.call("navy_attacks", seat=0, wind=0)
    assert battles(t) == [(6, 5)]
    took = int(t.K[S.NAVY_ON_WIN_N, card])
    assert took >= 1 and t.st[S.NAVY_HELD] == took and sum(t.holds(0)[0].values()) == 3 - took
    assert t.seat(0)[S.POS] == -1 and t.seat(0)[S.SINKINGS] == 1


@pytest.mark.parametrize("name", SETS)
def test_worked_example_most_deployed_crew_worth_7_split_three_ways_is_2_each(name):
    # TOA-272..274
    t = table(name)
    card = t.comp.decks["endgame_names"].index("Most Deployed Crew")
    assert t.K[S.EG_KIND, card] == S.EG_CREW
    assert 7 in [int(x) for x in t.K[S.TOKENS, : t.K[S.META, S.N_TOKENS]]]
    t.T[S.ENDGAME, :4] = card
    t.T[S.ENDGAME, S.TOKEN_COL: S.TOKEN_COL + 4] = [7, 0, 0, 0]
    for s, n in enumerate([6, 6, 6, 5]):
        t.seat(s)[S.CREW_N] = n
        t.seat(s)[S.GOLD] = 0
    t.call("endgame_bonuses", players=4)
    assert [int(t.seat(s)[S.POINTS]) for s in range(4)] == [2, 2, 2, 0]


@pytest.mark.parametrize("name", SETS)
def test_every_wager_position_starts_with_the_resources_beside_it(name):
    # TOA-036: each player collects the resources next to its token: every position has some
    for players in (2, 3, 4):
        t = Table(players=players, overrides={"components": name})
        for s in range(players):
            assert t.seat(s)[S.GOLD] == t.K[S.START_GOLD, s] and t.seat(s)[S.RUM] == t.K[S.START_RUM, s]
            assert t.seat(s)[S.GOLD] + t.seat(s)[S.RUM] >= 1
