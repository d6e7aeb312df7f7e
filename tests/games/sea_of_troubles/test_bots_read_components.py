"""The bots read the components they play with: a pillage's odds come from the action deck's
card values (actions.toml, K[CARD_VALUE]; a Wild at wild_value), a dig's from the share of cards
that dig and the treasure box's Infamy (treasures.toml, K[TREAS_INF]). Under `alt-even-deck`
(4 copies of every value, against 5, 5, 4, 3) the port's defence is stronger, and a long-shot
raid the bot takes under the standard deck it turns down; under `alt-small-hoard` a dig is
worth the smaller hoard's mean Infamy. A defender's hand is judged against hand_size.

The one card-value figure left in the bot is its estimate of an attacker's committed card,
2.5 in `answer` (the deck's mean is 129/57 = 2.26 standard, 132/54 = 2.44 even): a guess at
what an attacker commits, not the deck's value."""

from __future__ import annotations

import math

import numpy as np
import pytest

from simkit.games.sea_of_troubles import components
from simkit.games.sea_of_troubles import engine as E

from .harness import S, Table, bot

SW = S.SWORD
EVEN, HOARD = "alt-even-deck", "alt-small-hoard"


def values(component_set: str, wild_value: int = 2) -> list[int]:
    """The action deck's card values, read from the set's files here."""
    return [wild_value if t == S.WILD else v for t, v in components.load(component_set).cards]


def normal_odds(vals: list[int], draw: int, attack: int) -> float:
    """P(attack > the sum of `draw` cards of the deck), the normal approximation the bot makes."""
    m = float(np.mean(vals))
    var = max(float(np.mean(np.square(vals))) - m * m, 1e-9) * draw
    return 0.5 * (1.0 + math.erf((attack - 0.5 - draw * m) / math.sqrt(2.0 * var)))


def test_the_even_deck_holds_higher_cards():
    assert np.mean(values(EVEN)) > np.mean(values("standard"))


@pytest.mark.parametrize("component_set", ["standard", EVEN])
def test_pillage_odds_are_the_decks_values(component_set):
    t = Table(2, component_set=component_set)
    for attack in range(3, 13):
        assert bot.pillage_odds(t.P, t.T, t.K, attack) == pytest.approx(
            normal_odds(values(component_set), t.P.pillage_draw, attack), abs=1e-12)


def long_shot(component_set: str, shot: float) -> tuple[int, int]:
    """The pillager at an open port holding 8 Swords (under its commit total of 9)."""
    t = Table(2, strategies="pillager", component_set=component_set)
    t.put(0, int(t.K[S.PORT_SQ, 0]))
    t.put(1, t.square(5, 0))
    t.T[S.PORT_CLOSED, :] = 0
    t.st[S.FREE] = 0
    t.clear_hands()
    t.set_hand(0, [(SW, 4), (SW, 4)])
    t.F[1, bot.W_LONG_SHOT] = shot
    n = int(t.call("candidates", seat=0, players=t.players))
    k = int(t.call("heuristic_choice", seat=0, players=t.players, n=n))
    return int(t.buf[E.KIND, k]), int(t.buf[E.ARG, k])


def test_a_long_shot_raid_follows_the_decks_defence():
    fail_std = 1.0 - normal_odds(values("standard"), 3, 8)
    fail_even = 1.0 - normal_odds(values(EVEN), 3, 8)
    assert fail_std < fail_even
    shot = 0.5 * (fail_std + fail_even)  # risks the standard deck's defence, not the even deck's
    assert long_shot("standard", shot) == (E.A_PILLAGE, 0)
    assert long_shot(EVEN, shot) == (E.A_END, 0)


@pytest.mark.parametrize("component_set", ["standard", EVEN, HOARD])
def test_a_digs_worth_is_the_decks_share_and_the_hoards_infamy(component_set):
    t = Table(2, component_set=component_set)
    t.seat(1)[S.BURY_N] = 2
    comp = components.load(component_set)
    digs = np.mean([t_ != S.WILD and v >= t.P.dig_min for t_, v in comp.cards])  # A2: no Wild digs
    infamy = np.mean([inf for _, inf, _ in comp.treasures])
    # two buried: the first draw digs with p, the second with p again (a chain)
    assert bot.dig_swing(t.P, t.T, t.K, np.int64(0), np.int64(1), np.int64(0)) == pytest.approx(
        2.0 * infamy * (digs + digs * digs), abs=1e-12)


@pytest.mark.parametrize("component_set", ["standard", EVEN])
@pytest.mark.parametrize("with_quirk", [False, True])
def test_a_skirmish_digs_worth_is_the_share_of_wilds_and_the_quirks_cards(component_set, with_quirk):
    """Skirmish Mode: a dig succeeds on a Wild, and with a digging quirk also on a card of at
    least 5 - its amount (Dig); the bot's dig swing chains that share over what is buried."""
    t = Table(2, component_set=component_set, overrides={"skirmish": True, "quirks": with_quirk})
    t.seat(1)[S.BURY_N] = 3
    nose = 0
    if with_quirk:
        q = next(q for q in range(int(t.K[S.META, S.N_QUIRKS])) if t.K[S.QK_EFFECT, q] == S.QE_DIG)
        t.seat(0)[S.QUIRK] = q
        nose = int(t.K[S.QK_AMOUNT, q])
        assert nose > 0
    else:
        t.seat(0)[S.QUIRK] = -1
    comp = components.load(component_set)
    p = np.mean([t_ == S.WILD or (nose > 0 and v >= 5 - nose) for t_, v in comp.cards])
    infamy = np.mean([inf for _, inf, _ in comp.treasures])
    taken = sum(p ** k for k in range(1, int(S.buried_at(t.P, t.T, np.int64(1), np.int64(0))) + 1))
    assert taken > p  # more than one card to take: the chain shows
    assert bot.dig_swing(t.P, t.T, t.K, np.int64(0), np.int64(1), np.int64(0)) == pytest.approx(
        2.0 * infamy * taken, abs=1e-12)


def test_the_small_hoard_makes_a_dig_worth_less():
    std, hoard = Table(2), Table(2, component_set=HOARD)
    for t in (std, hoard):
        t.seat(1)[S.BURY_N] = 1
    a = bot.dig_swing(std.P, std.T, std.K, np.int64(0), np.int64(1), np.int64(0))
    b = bot.dig_swing(hoard.P, hoard.T, hoard.K, np.int64(0), np.int64(1), np.int64(0))
    mean = [np.mean([inf for _, inf, _ in components.load(c).treasures]) for c in ("standard", HOARD)]
    assert b / a == pytest.approx(mean[1] / mean[0])


@pytest.mark.parametrize("hand_size", [8, 12])
def test_boarding_judges_the_defenders_hand_against_hand_size(hand_size):
    t = Table(2, strategies="pillager", overrides={"hand_size": hand_size})
    t.alongside()
    w = t.F[1]
    own = (np.int64(99), np.int64(0), np.int64(0), np.int64(0))  # Swords enough for the min_fight gate
    h = int(t.seat(1)[S.HAND_N])
    assert h > 0
    v = bot.score(t.P, t.T, t.K, t.F, np.int64(0), np.int64(bot.A_BOARD), np.int64(1), np.int64(2), own)
    assert v == pytest.approx(w[bot.W_HUNT] * (bot.carried_infamy(t.T, t.K, 1) + 0.3) - 0.2 * h / hand_size)
