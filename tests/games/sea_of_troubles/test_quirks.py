"""Quirks (advanced variant): the draw on a player's first Infamy and each quirk's effect,
on hand-built positions. The quirk deck is assumed (components/quirks.toml, A15)."""

import pytest

from .harness import COMP, EV, S, Table, bot

SW, SA, CA, WI = S.SWORD, S.SAIL, S.CANNON, S.WILD
QUIRK = {name: i for i, (name, *_rest) in enumerate(COMP.quirks)}


def on_top(t, *names):
    """Put these quirks on top of the quirk deck, the first named drawn first."""
    deck = [int(q) for q in t.T[S.QUIRK_DECK, : t.st[S.QDECK_N]]]
    for name in reversed(names):
        deck.remove(QUIRK[name])
        deck.append(QUIRK[name])
    t.T[S.QUIRK_DECK, : len(deck)] = deck


def give(t, seat, name):
    t.seat(seat)[S.QUIRK] = QUIRK[name]
    t.seat(seat)[S.OFFERED] = 1


def quirks_in_play(t):
    held = [int(t.seat(s)[S.QUIRK]) for s in range(t.players) if t.seat(s)[S.QUIRK] >= 0]
    return sorted(list(t.T[S.QUIRK_DECK, : t.st[S.QDECK_N]]) + list(t.T[S.QUIRK_UP, : t.st[S.QUP_N]]) + held)


def test_no_quirks_without_the_variant():
    t = Table(4, strategies="pillager")
    assert t.st[S.QDECK_N] == 0 and t.K[S.META, S.N_QUIRKS] == 0
    t.call("gain_infamy", seat=0, n=1, reason=EV.R_PILLAGE)
    assert t.seat(0)[S.QUIRK] == -1 and not t.events(EV.QUIRK)


def test_first_infamy_offers_a_quirk_reveal_or_blind():
    t = Table(4, "quirks", strategies="pillager")
    assert t.st[S.QDECK_N] == len(COMP.quirks)
    on_top(t, "Braggart", "Swift")
    t.call("gain_infamy", seat=0, n=-1, reason=EV.R_FIGHT)  # a loss is no gain: no draw
    assert t.seat(0)[S.QUIRK] == -1
    t.call("gain_infamy", seat=0, n=1, reason=EV.R_FIGHT)  # any first gain, even a taken token
    assert t.seat(0)[S.QUIRK] == QUIRK["Braggart"]  # revealed and liked: taken face up
    assert t.events(EV.QUIRK)[-1][3:] == (QUIRK["Braggart"], 0, 0)
    t.call("gain_infamy", seat=0, n=1, reason=EV.R_PILLAGE)
    assert len(t.events(EV.QUIRK)) == 1  # only the first gain draws
    on_top(t, "Treasure Nose", "Old Salt")
    t.call("gain_infamy", seat=1, n=1, reason=EV.R_PILLAGE)
    assert t.seat(1)[S.QUIRK] == QUIRK["Old Salt"]  # below the deck's mean: the next card, blind
    assert list(t.T[S.QUIRK_UP, : t.st[S.QUP_N]]) == [QUIRK["Treasure Nose"]]
    assert quirks_in_play(t) == list(range(len(COMP.quirks)))
    s = Table(3, "skirmish+quirks", strategies="pillager")
    assert s.seat(0)[S.INFAMY] == 3 and s.seat(0)[S.QUIRK] == -1 and s.seat(0)[S.OFFERED] == 0  # A29


def test_declined_quirks_stay_face_up_for_later_players():
    t = Table(4, "quirks", strategies="pillager")
    on_top(t, "Treasure Nose", "Slippery", "Gambler")
    t.call("gain_infamy", seat=0, n=1, reason=EV.R_PILLAGE)  # declines Treasure Nose, gets Slippery blind
    assert t.seat(0)[S.QUIRK] == QUIRK["Slippery"]
    on_top(t, "Deep Hold")
    t.call("gain_infamy", seat=1, n=1, reason=EV.R_PILLAGE)  # reveals Deep Hold and takes it
    assert t.seat(1)[S.QUIRK] == QUIRK["Deep Hold"]
    assert list(t.T[S.QUIRK_UP, : t.st[S.QUP_N]]) == [QUIRK["Treasure Nose"]]
    on_top(t, "Swift")
    t.call("gain_infamy", seat=2, n=1, reason=EV.R_PILLAGE)  # reveals Swift; Treasure Nose still up
    assert t.seat(2)[S.QUIRK] == QUIRK["Swift"]
    taken = set()
    for seed in range(40):  # a random player takes any face-up card or the next one blind
        r = Table(4, "quirks", seed=seed)
        r.T[S.QUIRK_UP, 0] = QUIRK["Braggart"]
        deck = [q for q in r.T[S.QUIRK_DECK, : r.st[S.QDECK_N]] if q != QUIRK["Braggart"]]
        r.T[S.QUIRK_DECK, : len(deck)] = deck
        r.st[S.QDECK_N] = len(deck)
        r.st[S.QUP_N] = 1
        r.call("gain_infamy", seat=3, n=1, reason=EV.R_QUEST)
        taken.add("earlier" if r.seat(3)[S.QUIRK] == QUIRK["Braggart"] else r.events(EV.QUIRK)[-1][4])
        assert quirks_in_play(r) == list(range(len(COMP.quirks)))
    assert taken == {"earlier", 0, 1}


def test_infamy_quirks_touch_only_public_gains():
    t = Table(4, "quirks")
    give(t, 0, "Braggart")
    for reason, gain in ((EV.R_PILLAGE, 2), (EV.R_SHOT, 2), (EV.R_QUEST, 2), (EV.R_FIGHT, 1)):
        before = int(t.seat(0)[S.INFAMY])
        t.call("gain_infamy", seat=0, n=1, reason=reason)
        assert t.seat(0)[S.INFAMY] - before == gain, EV.REASONS[reason]
    g = Table(4, "quirks")
    give(g, 0, "Gambler")
    for card, gain in (((SW, 4), 2), ((SA, 1), 0), ((CA, 2), 1)):
        g.stack([card])
        before = int(g.seat(0)[S.INFAMY])
        g.call("gain_infamy", seat=0, n=1, reason=EV.R_PILLAGE)
        assert g.seat(0)[S.INFAMY] - before == gain
    deck, before = int(g.st[S.DECK_N]), int(g.seat(0)[S.INFAMY])
    g.call("gain_infamy", seat=0, n=1, reason=EV.R_FIGHT)  # a token taken from a pirate: no gamble
    assert g.st[S.DECK_N] == deck and g.seat(0)[S.INFAMY] - before == 1


def _first_card_of_value(value):
    t = Table(4, "quirks")
    return next(c for c in range(int(t.K[S.META, S.N_CARDS])) if int(t.K[S.CARD_VALUE, c]) == value)


GAMBLE_CARDS = [0, 1, -1] + [_first_card_of_value(v) for v in (1, 2, 3, 4)]


@pytest.mark.parametrize("card", GAMBLE_CARDS)
def test_the_gambler_s_draw_counts_whatever_card_it_is_the_first_of_the_box_included(card):
    """Gambler (Quirks, A31): the card drawn for a public gain is discarded and decides the gain by
    its value, whichever card of the box it is (the first, the second, the last id, and the first
    card of each value 1 to 4): 3 or more adds the quirk's amount, a 1 loses the gain."""
    g = Table(4, "quirks")
    give(g, 0, "Gambler")
    n = int(g.st[S.DECK_N])
    card = card % int(g.K[S.META, S.N_CARDS])
    deck = [int(c) for c in g.T[S.DECK, :n]]
    if card not in deck:  # dealt out: put it back on top in place of the top card
        deck[-1] = card
    deck.remove(card)
    deck.append(card)
    g.T[S.DECK, :n] = deck
    value, bet = int(g.K[S.CARD_VALUE, card]), int(COMP.quirks[QUIRK["Gambler"]][2])
    wild = g.K[S.CARD_TYPE, card] == S.WILD
    before, disc = int(g.seat(0)[S.INFAMY]), int(g.st[S.DISC_N])
    g.call("gain_infamy", seat=0, n=1, reason=EV.R_PILLAGE)
    expected = 1 + bet if value >= 3 else (0 if value == 1 else 1)
    assert int(g.seat(0)[S.INFAMY]) - before == expected, (card, value, wild)
    assert int(g.st[S.DECK_N]) == n - 1 and int(g.st[S.DISC_N]) == disc + 1
    assert int(g.T[S.DISC, disc]) == card


def fight_table(quirk, seat):
    t = Table(2, "quirks", strategies="duellist")
    t.alongside()
    give(t, seat, quirk)
    return t


@pytest.mark.parametrize("name", [q[0] for q in COMP.quirks])
def test_quirk_effects(name):
    effect = COMP.quirks[QUIRK[name]][1]
    amount = COMP.quirks[QUIRK[name]][2]
    if effect == "free_moves":
        t = Table(2, "quirks", strategies="pillager")
        give(t, 0, name)
        t.set_hand(0, [])
        t.call("take_turn", seat=0)  # nothing worth doing: the free points are all left
        assert t.st[S.FREE] == 2 + amount
    elif effect == "hand_size":
        t = Table(2, "quirks")
        give(t, 0, name)
        t.give_treasure(0, "Doubloon")
        assert t.call("hand_limit", seat=0) == 8 + amount - 1
        t.call("refill", seat=0)
        assert t.seat(0)[S.HAND_N] == 8 + amount - 1
    elif effect == "hull":
        t = Table(3, "quirks")
        give(t, 1, name)
        t.seat(1)[S.DAMAGE] = 3
        t.call("damage", seat=1, by=-1)
        assert t.seat(1)[S.STATE] == S.ALIVE and t.seat(1)[S.DAMAGE] == 4
        t.call("damage", seat=1, by=-1)
        assert t.seat(1)[S.STATE] == S.DEAD
    elif effect == "pillage":
        t = Table(2, "quirks", strategies="pillager")
        give(t, 0, name)
        t.T[S.PORT_CLOSED, 0] = 0
        t.put(0, t.square(1, 4))
        t.set_hand(0, [(SW, 2), (CA, 1)])
        t.F[1, bot.W_COMMIT] = 3  # commits both cards
        t.stack([(SA, 1), (SA, 1), (SA, 1)])
        t.call("pillage", seat=0)
        assert t.events(EV.PILLAGE)[-1][4:] == (3 + amount, 3) and t.seat(0)[S.CARRY_N] == 1
    elif effect == "dig":
        t = Table(2, "quirks")
        give(t, 1, name)
        t.put(0, t.square(4, 1))
        t.give_treasure(0, "Doubloon")
        t.set_hand(0, [(SA, 1)])
        t.call("bury", seat=0, slot=0)
        t.put(1, t.square(4, 1))
        t.stack([(SW, 3 - amount)])
        t.call("dig", seat=1, owner=0)
        assert t.seat(1)[S.CARRY_N] == 1
    elif effect == "thrifty":
        t = Table(2, "quirks")
        give(t, 0, name)
        t.put(0, t.square(4, 1))
        t.give_treasure(0, "Treasure Chest")
        t.set_hand(0, [(SA, 1), (SA, 2), (SW, 4)])
        t.call("bury", seat=0, slot=0)
        assert len(t.hand(0)) == 3 - max(3 - amount, 1) and t.seat(0)[S.BURY_N] == 1
    elif effect in ("board", "shoot"):
        kind = SW if effect == "board" else CA
        t = fight_table(name, 0)
        t.set_hand(0, [(kind, 3)])
        t.set_hand(1, [(kind, 3)])
        t.stack([(SA, 1)])  # the defender's draw
        t.call("fight", att=0, dfn=1, shoot=int(kind == CA))
        end = t.events(EV.FIGHT_END)[-1]
        assert end[3] == 3 + amount and end[5] == 0  # the tie becomes the holder's win
    elif effect == "flee":
        t = fight_table(name, 1)
        t.set_hand(0, [(SW, 3)])
        t.set_hand(1, [(SA, 3)])
        t.stack([(SA, 1)])  # the defender's draw
        t.F[2, bot.W_NERVE] = 0.0  # always engages
        t.call("fight", att=0, dfn=1, shoot=0)
        assert t.events(EV.RESPONSE)[0][3] == SA
        end = t.events(EV.FIGHT_END)[-1]
        assert end[4] >= 3 + amount and end[5] == 1
    else:
        assert effect in ("braggart", "gambler")  # test_infamy_quirks_touch_only_public_gains


@pytest.mark.parametrize("seat", [0, 1])
def test_the_thrifty_quirk_lowers_every_treasure_s_cost_by_its_amount_but_never_below_one(seat):
    """Thrifty (Quirks, A16): a bury or delivery of treasure tr costs its Infamy less the quirk's
    amount, at least 1 card; without the quirk it costs its Infamy; another seat's quirk changes
    nothing. Every treasure of the box, the 1-Infamy ones included."""
    amount = int(COMP.quirks[QUIRK["Thrifty"]][2])
    t = Table(2, "quirks")
    give(t, seat, "Thrifty")
    other = 1 - seat
    for tr, treasure in enumerate(COMP.treasures):
        infamy = int(treasure[1])
        assert int(t.call("pay_cost", seat=seat, tr=tr)) == max(infamy - amount, 1), treasure
        assert int(t.call("pay_cost", seat=other, tr=tr)) == infamy, treasure
    assert {int(tr[1]) for tr in COMP.treasures} >= {1, 2}


def test_the_quirk_deck_is_shuffled_at_set_up_so_any_quirk_may_be_revealed_first():
    # Quirks: the deck is shuffled beside the treasure deck; over seeds every quirk comes up
    # first, and the deck always holds each quirk once
    tops = set()
    for seed in range(120):
        t = Table(4, "quirks", seed=seed, strategies="pillager")
        n = int(t.st[S.QDECK_N])
        assert sorted(int(q) for q in t.T[S.QUIRK_DECK, :n]) == list(range(n))
        tops.add(int(t.T[S.QUIRK_DECK, n - 1]))
    assert tops == set(range(n))
