"""The bots read the components and rules they play with. Whether a crew die is cashed at Sunset
or kept for the Midnight Wager follows its face's Number as dice.toml prints it (K[CREW_NUMBER]):
under `alt-dice` the red face shows 3 instead of 2, and a seat keeping dice of 3 or more for the
wager keeps the red die it cashed under the standard dice. An Additional Treasure is worth its
Treasure Points less the gold it costs (extra_treasure_cost) at the endgame's rate
(gold_per_point); a Bribe, read off the wager track (ship.toml), is weighed at that rate too.
Exploring is weighed against a monster of the Explore deck's median Strength (decks.toml; 3 on
the standard deck, where the bot's estimate was a fixed 3 before).

Left as the bot's own estimate: a won monster fight is worth 3 (its rewards are of four kinds:
treasure, gold, rum, a relic)."""

from __future__ import annotations

import re

import numpy as np
import pytest

from simkit.games.tide_of_avaris import components

from .harness import S, Table, bot

ALT = "alt-dice"


def numbers(component_set: str) -> list[int]:
    """The crew die's Numbers by face, read from the set's dice.toml here."""
    return list(components.load(component_set).dice["number"])


def cashed(t: Table, colour: str) -> bool:
    """At Sunset, does seat 0 cash a ready die showing this colour's face?"""
    t.set_dice(0, [colour])
    return bool(bot.cash_die(t.T, t.K, t.F, t.rng, np.int64(0), np.int64(0), np.int64(1)))


def test_the_alternative_dice_number_the_red_face_3():
    red = S.COLOURS.index("red")
    assert numbers("standard")[red] == 2 and numbers(ALT)[red] == 3


@pytest.mark.parametrize("component_set", ["standard", ALT])
def test_cashing_follows_the_faces_numbers(component_set):
    t = Table(players=2, strategies="controller", overrides={"components": component_set})
    t.weights(0, W_WAGER=3)
    faces = components.load(component_set).dice["colour"]
    for f, number in enumerate(numbers(component_set)):
        assert cashed(t, S.COLOURS[faces[f]]) == (number < 3)


def test_the_red_die_is_kept_for_the_wager_under_the_alternative_dice():
    std = Table(players=2, strategies="controller")
    alt = Table(players=2, strategies="controller", overrides={"components": ALT})
    for t in (std, alt):
        t.weights(0, W_WAGER=3)
    assert cashed(std, "red") and not cashed(alt, "red")


@pytest.mark.parametrize("overrides", [{}, {"extra_treasure_cost": 3}, {"gold_per_point": 4}])
def test_an_additional_treasure_is_worth_its_points_less_its_gold(overrides):
    t = Table(players=2, strategies="controller", overrides=overrides)
    space = next(b for b in range(int(t.K[S.META, S.N_SPACES])) if t.K[S.SP_ACTION, b] == S.ACT_EXTRA)
    t.hold(0)
    t.seat(0)[S.GOLD] = 10
    t.T[S.SLOT, 2 * space: 2 * space + 2] = -1
    t.T[S.SLOT, 2 * space] = 0  # one treasure there, a colour the empty hold lacks
    gain = t.K[S.UPPER_VALUE, 1] - t.K[S.UPPER_VALUE, 0]
    v = bot.action_value(t.P, t.T, t.K, t.F, np.int64(0), np.int64(S.ACT_EXTRA), np.int64(space), np.int64(2))
    assert v == pytest.approx(t.F[1, bot.W_GREED] * gain - t.P.extra_treasure_cost / t.P.gold_per_point)


def test_the_bribe_is_weighed_at_the_gold_per_point_rate():
    """Entering a rival's space, the seat fights only when the fight is worth more than the Bribe
    in Treasure Points: a fight worth 0.35 of the Bribe loses to it at 2 gold a point (0.5 of
    it) and beats it at 4 gold a point (0.25 of it)."""
    picks = {}
    for rate in (2, 4):
        t = Table(players=2, strategies="controller", overrides={"gold_per_point": rate})
        space = int(t.seat(1)[S.POS])
        t.hold(0)
        t.hold(1, unbound={"red": 1, "blue": 1, "teal": 1, "green": 1})
        t.seat(0)[S.GOLD] = 10
        t.T[S.ORDER, S.POSITION + 0] = 0  # the first Wager position: its Bribe is ship.toml's first
        bribe = S.bribe_amount(t.T, t.K, 0)
        assert bribe == components.load().ship["bribe"][0] > 0
        # the raid weight that makes the fight worth 0.35 Bribes: p x raid x loot x 2 - (1 - p) x 2
        p = bot.win_chance(bot.attack_dice(t.T, t.K, 0), bot.public_defence(t.T, 1))
        loot = S.steal_count(t.T, 0, 1)
        t.weights(0, W_RAID=(0.35 * bribe + 2.0 * (1.0 - p)) / (2.0 * p * loot))
        assert bot.fight_value(t.T, t.K, t.F, np.int64(0), np.int64(1)) == pytest.approx(0.35 * bribe)
        picks[rate] = int(bot.choose_foe(t.P, t.T, t.K, t.F, t.rng, np.int64(0), np.int64(space), np.int64(2)))
    assert picks == {2: -1, 4: 1}


def test_the_bot_weighs_exploring_against_the_decks_median_monster(tmp_path):
    """The Explore deck is face down: the heuristic expects a monster of the deck's median
    Strength (K[META, MON_MIDDLE2] / 2), read off decks.toml, so a deck of stronger monsters makes
    exploring worth less to it."""
    text = (components.FOLDER / "decks.toml").read_text()
    strong, n = re.subn(r'(\[\[monster\]\]\nname = "[^"]+"\n)dice = \d+', r"\1dice = 6", text)
    assert n == len(components.load().decks["monsters"])
    folder = tmp_path / "strong-monsters"
    folder.mkdir()
    (folder / "decks.toml").write_text(strong)
    value = {}
    for name in ("standard", str(folder)):
        t = Table(players=2, strategies="raider", overrides={"components": name})
        space = next(b for b in range(int(t.K[S.META, S.N_SPACES])) if t.K[S.SP_ACTION, b] == S.ACT_EXPLORE)
        value[name] = (t.K[S.META, S.MON_MIDDLE2] / 2.0,
                       bot.action_value(t.P, t.T, t.K, t.F, np.int64(0), np.int64(S.ACT_EXPLORE), np.int64(space),
                                        np.int64(2)))
    (std_mid, std_v), (strong_mid, strong_v) = value["standard"], value[str(folder)]
    assert (std_mid, strong_mid) == (3.0, 6.0)
    assert std_v != -1.0 and strong_v < std_v
