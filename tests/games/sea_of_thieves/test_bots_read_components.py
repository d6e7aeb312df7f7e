"""The bots read the components and rules they play with. A voyage's worth comes from its card
(voyages.csv: K[V_REWARD], K[V_AMOUNT], K[V_PENALTY]), so under `alt-rewards` (every gold reward
200 more) a gold voyage is worth more to the bot, by what the card's amount gives; gold turns into
reputation at the rule's rate (gold_per_reputation, Final Scoring), as the final scoring counts it.

No component value is typed into the bot: what stays a literal is its own estimate (a treasure
token "about 400" or 420 gold against the bag's mean of 17200/42 = 409.5; 0.83 successes a
crew die against the die's 5/6), see the module's comments."""

from __future__ import annotations

import numpy as np
import pytest

from simkit.games.sea_of_thieves import components
from strategies import sea_of_thieves as bot

from .harness import S, Table

ALT = "alt-rewards"


def table(overrides: dict) -> Table:
    t = Table(players=2, seed=3, strategies="merchant", overrides=overrides)
    t.F[1, bot.W_UPGRADE] = 0.0  # gold is then worth only its final-scoring reputation
    t.F[1, bot.W_FIGHT_VOY] = 1.0  # a fight voyage's reward counts in full
    return t


def gold_voyages(K) -> list[int]:
    """Fight voyages paid in gold: their worth does not hang on where the symbols lie."""
    return [v for v in range(int(K[S.META, S.N_VOYAGE_CARDS]))
            if K[S.V_REWARD, v] == S.R_GOLD and K[S.V_TASK, v] == S.V_FIGHT]


def test_the_alternative_set_pays_more_gold_for_the_same_voyages():
    base = components.compile_arrays(components.load(), False)
    alt = components.compile_arrays(components.load(ALT), False)
    vs = gold_voyages(base)
    assert vs and vs == gold_voyages(alt)
    assert all(alt[S.V_AMOUNT, v] == base[S.V_AMOUNT, v] + 200 for v in vs)


def test_a_gold_voyage_is_worth_what_its_card_pays():
    std, alt = table({}), table({"components": ALT})
    alt.T[:] = std.T  # the same position; only the voyage cards differ
    k = np.int64(0)
    for v in gold_voyages(std.K):
        a, b = bot.voyage_worth(std.P, std.T, std.K, std.F, k, v), bot.voyage_worth(alt.P, alt.T, alt.K, alt.F, k, v)
        assert b > a
        # worth = like x (amount / gold_per_reputation - 0.3 penalty) / actions: the same like and
        # actions on both tables, so the ratio is the cards' own
        rate = std.P.gold_per_reputation
        pen = 0.3 * std.K[S.V_PENALTY, v]
        assert b / a == pytest.approx((alt.K[S.V_AMOUNT, v] / rate - pen) / (std.K[S.V_AMOUNT, v] / rate - pen))


def test_gold_is_reputation_at_the_rules_rate():
    """voyage_worth and enemy_worth read gold_per_reputation: doubling it halves a gold reward's
    reputation and a treasure token's (a Skeleton Sloop with one token aboard)."""
    std, dear = table({}), table({"gold_per_reputation": 1000})
    dear.T[:] = std.T
    k = np.int64(0)
    v = gold_voyages(std.K)[0]
    pen = 0.3 * std.K[S.V_PENALTY, v]
    a, b = bot.voyage_worth(std.P, std.T, std.K, std.F, k, v), bot.voyage_worth(dear.P, dear.T, dear.K, dear.F, k, v)
    amount = std.K[S.V_AMOUNT, v]
    assert b / a == pytest.approx((amount / 1000 - pen) / (amount / 500 - pen))
    e = np.int64(S.SKELETON_SLOOP)
    for t in (std, dear):
        r = S.ENEMY0 + e
        t.T[r, S.E_SLOT0: S.E_SLOT0 + 5] = -1
        t.T[r, S.E_SLOT0] = 0  # one treasure token aboard
    need = bot.damage_needed(std.T, std.K, e)
    rep = std.K[S.EN_REP, e]
    assert bot.enemy_worth(std.P, std.T, std.K, std.F, k, e) == pytest.approx((rep + 400 / 500) / need)
    assert bot.enemy_worth(dear.P, dear.T, dear.K, dear.F, k, e) == pytest.approx((rep + 400 / 1000) / need)
