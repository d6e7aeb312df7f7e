"""The Night (Upgrade, Navy Hunts in test_combat.py, Midnight Wager, Rising Tide) and the end
(Endgame; Endgame Scoring and Bonuses)."""

import pytest

from .harness import COLOUR, EV, S, Table, bot, play_game


def set_order(t: Table, order: list[int]):
    t.T[S.ORDER, : len(order)] = order
    for i, s in enumerate(order):
        t.T[S.ORDER, S.POSITION + s] = i


def order(t: Table) -> list[int]:
    return [int(x) for x in t.T[S.ORDER, : t.players]]


def test_wager_counts_only_dice_still_in_the_crew_area():
    t = Table()
    t.set_dice(0, ["teal", "yellow"], ready=[1, 0])
    t.call("midnight_wager", players=4)
    assert t.seat(0)[S.WAGER] == 4
    assert t.T[S.DICE0 + 0, S.READY: S.READY + 2].sum() == 0  # all commanded to the wager


def test_fixed_order_variant_keeps_the_order():
    t = Table(variant="fixed_order")
    set_order(t, [0, 1, 2, 3])
    t.set_dice(3, ["yellow", "yellow"])
    t.call("midnight_wager", players=4)
    assert order(t) == [0, 1, 2, 3]


def test_upgrades_pay_the_square_below_the_tracker_and_move_it_down():
    t = Table(strategies="raider")
    t.seat(0)[S.GOLD] = 20
    t.weights(0, W_UP_ATTACK=5, W_UP_DEFENCE=0, W_UP_FLEET=0, W_UP_CREW=0, W_RESERVE=0)
    costs = [int(c) for c in t.K[S.UP_COST0 + S.UP_ATTACK] if c >= 0]
    t.call("upgrades", players=4)
    assert t.seat(0)[S.ATTACK] == len(costs) and t.seat(0)[S.GOLD] == 20 - sum(costs)
    assert [r[4] for r in t.events(EV.UPGRADE) if r[1] == 0] == list(range(1, len(costs) + 1))


def test_crew_upgrade_adds_a_die_and_a_lost_die_is_bought_back_for_4_rum():
    t = Table(strategies="burier")
    t.seat(0)[S.GOLD] = int(t.K[S.UP_COST0 + S.UP_CREW, 0])
    t.seat(0)[S.RUM] = 4
    t.seat(0)[S.CREW_N] = 4  # one die lost earlier
    t.weights(0, W_UP_ATTACK=0, W_UP_DEFENCE=0, W_UP_FLEET=0, W_UP_CREW=5, W_RESERVE=0)
    t.call("upgrades", players=4)
    assert t.seat(0)[S.CREW_N] == 6 and t.seat(0)[S.RUM] == 0 and t.seat(0)[S.GOLD] == 0


def test_upgrade_plans_are_made_before_any_is_applied():
    # simultaneous: every plan is written from the state before the Night's purchases
    t = Table(strategies="raider")
    for s in range(4):
        t.seat(s)[S.GOLD] = 10
    calls = []
    real = bot.plan_upgrades.py_func

    def spy(P, T, K, F, rng, seat):
        calls.append([int(T[S.SEAT0 + s, S.ATTACK]) for s in range(4)])
        return real(P, T, K, F, rng, seat)

    import simkit.games.tide_of_avaris.engine as E
    bot_mod = E.bot
    saved = bot_mod.plan_upgrades
    bot_mod.plan_upgrades = spy
    try:
        E.upgrades.py_func(t.P, t.T, t.K, t.F, t.rng, t.log, 4)
    finally:
        bot_mod.plan_upgrades = saved
    assert calls == [[0, 0, 0, 0]] * 4
    assert all(t.seat(s)[S.ATTACK] > 0 for s in range(4))


def test_rising_tide_fills_from_the_north_west_sea_clockwise_and_flags_the_last_day():
    t = Table()
    t.T[S.SLOT, :] = -1
    t.T[S.BAG, :6] = 0
    t.T[S.BAG, COLOUR["red"]] = 5
    t.call("rising_tide")
    names = [t.comp.spaces[int(t.K[S.TIDE, i]) // 2][0] for i in range(int(t.K[S.META, S.N_TIDE]))]
    assert names[:4] == ["Raid", "Crew Spirit Die", "Explore", "Lashing Post"]  # NW: north first, clockwise
    assert names[4] == "Buy a Sea"  # then the sea to the east
    filled = [int(t.T[S.SLOT, t.K[S.TIDE, i]]) for i in range(int(t.K[S.META, S.N_TIDE]))]
    assert filled[:5] == [COLOUR["red"]] * 5 and all(c == -1 for c in filled[5:])
    assert t.st[S.FINAL_DAY] == 1


def test_rising_tide_with_treasure_to_spare_is_not_the_end_and_refills_the_burial_bonus():
    t = Table()
    t.st[S.PUBLIC_BONUS] = -1
    deck = int(t.st[S.BURIAL_DECK_N])
    t.call("rising_tide")
    assert t.st[S.FINAL_DAY] == 0 and t.st[S.PUBLIC_BONUS] >= 0 and t.st[S.BURIAL_DECK_N] == deck - 1


def test_bag_sizes_by_player_count():
    assert Table(players=4).treasure_count() == 48
    assert Table(players=3).treasure_count() == 36
    assert Table(players=2).treasure_count() == 6 * Table(players=2).P.bag_2p


def test_the_final_day_ends_after_its_wager_with_everyone_burying_in_turn_order():
    t = Table(strategies="burier", seed=5)
    t.st[S.FINAL_DAY] = 1
    for s in range(4):
        t.T[S.BAG, :6] += 0
    t.hold(2, {"red": 1, "blue": 1})
    assert t.call("play_day", players=4)
    assert t.st[S.END_REASON] == S.END_BAG
    assert all(sum(t.holds(s)[0].values()) + sum(t.holds(s)[1].values()) == 0 for s in range(4))
    end = t.events(EV.END)[0]
    wager = [r for r in t.events(EV.WAGER)]
    buries_after = [r[1] for r in t.rows() if r[2] == EV.BURY and t.rows().index(r) > t.rows().index(wager[-1])]
    positions = [int(t.T[S.ORDER, S.POSITION + s]) for s in buries_after]
    assert positions == sorted(positions)
    assert not t.events(EV.TIDE)  # the final Rising Tide is skipped
    assert end


def test_an_empty_bag_at_rising_tide_makes_the_next_day_the_last():
    # TOA-256, 257: the Night the bag runs out is not the end; one more full Day is played
    t = Table(strategies="burier", seed=3)
    t.T[S.SLOT, :] = -1
    t.T[S.BAG, :6] = 0
    t.T[S.BAG, COLOUR["red"]] = 3  # fewer than the empty slots
    for s in range(4):
        t.set_dice(s, [])
    assert not t.call("night", players=4)
    assert t.st[S.FINAL_DAY] == 1 and t.st[S.END_REASON] == -1 and t.st[S.DAY] == 2
    start = int(t.st[S.LOG_N])
    assert t.call("play_day", players=4)
    turns = t.events(EV.TURN, start)
    assert [r[3] for r in turns] == [0] * 4 + [1] * 4  # the final Day's Sunrise and Sunset
    assert t.st[S.END_REASON] == S.END_BAG and t.st[S.DAY] == 2


def test_the_final_burials_come_before_the_endgame_bonuses():
    # TOA-258..260: after the last wager everyone buries, then the endgame bonuses count what was
    # buried: seat 0's last red makes three (Matching Colours) and the most reds (Ruby Hoard)
    t = Table(strategies="burier")
    t.st[S.FINAL_DAY] = 1
    for s in range(4):
        t.set_dice(s, [])
        t.seat(s)[S.GOLD] = 0
        t.seat(s)[S.RUM] = 0
    t.st[S.PUBLIC_BONUS] = -1
    t.hold(0, {"red": 1})
    t.T[S.HOLD0 + 0, S.BURIED + COLOUR["red"]] = 2
    t.T[S.HOLD0 + 1, S.BURIED + COLOUR["red"]] = 2
    ruby = t.comp.decks["endgame_names"].index("Ruby Hoard")
    t.T[S.ENDGAME, :4] = ruby
    t.T[S.ENDGAME, S.TOKEN_COL: S.TOKEN_COL + 4] = [7, 0, 0, 0]
    assert t.call("night", players=4)
    assert t.buried(0) == {"red": 3}
    assert t.seat(0)[S.ENDGAME_POINTS] == int(t.K[S.MATCH_POINTS, 3]) + 7 == 2 + 7
    assert t.seat(1)[S.ENDGAME_POINTS] == 0
    assert t.seat(0)[S.POINTS] == 1 + 2 + 7  # the burial of one colour, then the bonuses


def test_locked_endgame_bonuses_score_nothing():
    t = Table()
    for s in range(4):
        t.seat(s)[S.GOLD] = 0
    t.seat(0)[S.CREW_N] = 8
    t.call("endgame_bonuses", players=4)
    assert all(t.seat(s)[S.POINTS] == 0 for s in range(4))


def test_matching_colours_and_gold_always_score():
    t = Table()
    t.seat(0)[S.GOLD] = 7  # 3 points, the odd coin scores nothing
    for c, n in zip(range(6), [3, 4, 5, 6, 7, 8], strict=True):
        t.T[S.HOLD0 + 1, S.BURIED + c] = n
    t.seat(1)[S.GOLD] = 0
    t.call("endgame_bonuses", players=4)
    assert t.seat(0)[S.POINTS] == 3
    assert t.seat(1)[S.POINTS] == 2 + 4 + 6 + 8 + 12 + 17


def test_a_final_tie_goes_to_the_pirate_higher_in_the_final_turn_order():
    t = Table()
    set_order(t, [2, 0, 3, 1])
    for s in range(4):
        t.seat(s)[S.POINTS] = 10
    t.st[S.END_REASON] = S.END_BAG
    t.call("final_scoring", players=4)
    assert [int(r) for r in t.out[:, 1]] == [2, 4, 1, 3] and [int(x) for x in t.out[:, 2]] == [0, 0, 1, 0]
    t.seat(1)[S.POINTS] = 11  # more points beat a better place in the order
    t.call("final_scoring", players=4)
    assert [int(r) for r in t.out[:, 1]] == [3, 1, 2, 4] and [int(x) for x in t.out[:, 2]] == [0, 1, 0, 0]


def test_a_capped_game_has_no_winner():
    t = Table(overrides={"round_cap": 2}, strategies="random")
    t.st[S.BAG] = 0
    play_game(t)
    assert t.st[S.END_REASON] in (S.END_BAG, S.END_ROUND_CAP)
    if t.st[S.END_REASON] == S.END_ROUND_CAP:
        assert t.out[:, 2].sum() == 0


def test_a_sunk_ship_buries_at_the_end_but_meets_no_space_bonus():
    # A55 (TOA-X24): off the board it still buries; a bonus tied to a space cannot be met there
    t = Table(strategies="burier")
    t.st[S.FINAL_DAY] = 1
    for s in range(4):
        t.set_dice(s, [])
    blue = next(i for i in range(int(t.K[S.META, S.N_BURIAL]))
                if t.K[S.BB_KIND, i] == S.BB_COLOUR and t.K[S.BB_ARG, i] == COLOUR["blue"])
    t.st[S.PUBLIC_BONUS] = blue
    t.seat(0)[S.POS] = -1
    t.hold(0, {"red": 1, "blue": 1})
    assert t.call("night", players=4)
    assert t.buried(0) == {"red": 1, "blue": 1} and t.seat(0)[S.BONUS_POINTS] == 0


def _expected_steps(costs: list[int], money: int, keep: int) -> int:
    """Steps of one track a heuristic buys from `money`, keeping at least `keep` (at most six)."""
    n = 0
    while n < min(6, len(costs)) and money - costs[n] >= keep:
        money -= costs[n]
        n += 1
    return n


def test_a_heuristic_plans_each_step_of_a_track_at_its_own_price_down_to_its_reserve():
    """Step 1: Upgrade, bought by a heuristic that values one track only: it plans the steps the
    track's prices allow one after another, paying each step's own price and keeping its gold
    reserve (a rum track keeps one rum), for every track, amount and reserve."""
    t = Table(strategies="raider")
    names = ("W_UP_ATTACK", "W_UP_DEFENCE", "W_UP_FLEET", "W_UP_CREW")
    for track in range(4):
        costs = [int(c) for c in t.K[S.UP_COST0 + track] if c >= 0]
        gold_track = t.K[S.UP_CURRENCY, track] == S.CUR_GOLD
        for money in range(sum(costs) + 2):
            for reserve in (0, 1, 3):
                t.weights(0, **{n: (5.0 if i == track else 0.0) for i, n in enumerate(names)}, W_RESERVE=reserve)
                t.seat(0)[S.GOLD], t.seat(0)[S.RUM] = (money, 0) if gold_track else (0, money)
                t.seat(0)[S.ATTACK: S.ATTACK + 4] = 0
                t.seat(0)[S.CREW_N] = 5 + t.seat(0)[S.CREW_UP]  # no die to buy back
                t.T[S.PLAN0] = 0
                bot.plan_upgrades(t.P, t.T, t.K, t.F, t.rng, 0)
                plan = [int(x) for x in t.T[S.PLAN0, :5]]
                steps = _expected_steps(costs, money, reserve if gold_track else 1)
                if track == S.UP_CREW:
                    steps = min(steps, S.MAX_DICE - int(t.seat(0)[S.CREW_N]))
                assert plan == [steps if i == track else 0 for i in range(4)] + [0], (track, money, reserve)


def test_each_night_buys_only_what_that_night_planned():
    """Step 1: Upgrade, two Nights running: the second buys only its own plan, whatever the first
    one bought (a plan is made afresh each Night)."""
    t = Table(strategies="raider")
    costs = [int(c) for c in t.K[S.UP_COST0 + S.UP_ATTACK] if c >= 0]
    t.weights(0, W_UP_ATTACK=5, W_UP_DEFENCE=0, W_UP_FLEET=0, W_UP_CREW=0, W_RESERVE=0)
    t.seat(0)[S.GOLD] = costs[0]
    t.call("upgrades", players=4)
    assert t.seat(0)[S.ATTACK] == 1 and t.seat(0)[S.GOLD] == 0
    t.weights(0, W_RESERVE=costs[2])  # enough gold for two more steps, the reserve allows one
    t.seat(0)[S.GOLD] = costs[1] + costs[2]
    t.call("upgrades", players=4)
    assert t.seat(0)[S.ATTACK] == 2 and t.seat(0)[S.GOLD] == costs[2]
    assert [int(x) for x in t.T[S.PLAN0, :5]] == [1, 0, 0, 0, 0]


def test_each_seat_metric_reports_that_seat_s_own_counter():
    """The result columns: every seat metric is the seat's own counter at the end (points, gold,
    burials, fights won, sinkings, relics), each seat's values kept apart from the others'."""
    t = Table()
    counters = {S.M_TREASURE_POINTS: S.POINTS, S.M_GOLD: S.GOLD, S.M_BURIALS: S.BURIALS,
                S.M_FIGHTS_WON: S.FIGHTS_WON, S.M_SINKINGS: S.SINKINGS, S.M_RELICS: S.N_RELICS}
    assert sorted(counters) == list(range(S.M_TREASURE_POINTS, S.M_TREASURE_POINTS + len(counters)))
    for s in range(4):
        for k, slot in enumerate(counters.values()):
            t.seat(s)[slot] = 10 * (k + 1) + s
    t.st[S.END_REASON] = S.END_BAG
    t.call("final_scoring", players=4)
    for s in range(4):
        assert {c: int(t.out[s, c]) for c in counters} == {c: 10 * (k + 1) + s for k, c in enumerate(counters)}
        assert int(t.out[s, 0]) == 10 + s  # the score column is the Treasure Points


@pytest.mark.parametrize("seat", [0, 1, 3])
def test_a_seat_plans_its_upgrades_from_its_own_rum_and_gold_only(seat):
    """Step 1: Upgrade, decided on what the pirate alone holds (TOA-G23): a lost die is bought
    back and an Attack step planned exactly when the seat's own rum and gold pay for them and its
    own track has a step left, whatever its rivals hold and however far their tracks are."""
    costs = None
    for own, rivals in ((True, 0), (False, 40)):
        t = Table(strategies="raider")
        costs = costs or [int(c) for c in t.K[S.UP_COST0 + S.UP_ATTACK] if c >= 0]
        for s in range(4):
            mine = s == seat
            t.seat(s)[S.RUM] = t.P.rebuy_rum if (mine and own) else (0 if mine else rivals)
            t.seat(s)[S.GOLD] = costs[0] if (mine and own) else (0 if mine else rivals)
            t.seat(s)[S.CREW_N] = 4 + t.seat(s)[S.CREW_UP]  # one die lost
            t.seat(s)[S.ATTACK] = 0 if mine else len(costs)  # the rivals' tracks full: no step left to them
        t.weights(seat, W_UP_ATTACK=5, W_UP_DEFENCE=0, W_UP_FLEET=0, W_UP_CREW=0, W_RESERVE=0)
        t.T[S.PLAN0 + seat] = 0
        bot.plan_upgrades(t.P, t.T, t.K, t.F, t.rng, seat)
        plan = [int(x) for x in t.T[S.PLAN0 + seat, :5]]
        assert plan == ([1, 0, 0, 0, 1] if own else [0, 0, 0, 0, 0]), (own, plan)
