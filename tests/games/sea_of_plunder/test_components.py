"""Component files are checked against their schema before any game is played:
types, bounds and cross-references, each mistake one error naming the file, the entry and
the rule. Each test copies the standard set to a designer's folder and breaks one thing."""

from __future__ import annotations

import re
import shutil

import pytest

from simkit.core.errors import InputError
from simkit.games.sea_of_plunder import components, rules

FILES = components.FILES


@pytest.fixture
def folder(tmp_path):
    for name in FILES:
        shutil.copy(components.FOLDER / name, tmp_path / name)
    return tmp_path


def edit(folder, name: str, old: str, new: str, count: int = 1):
    text = (folder / name).read_text()
    assert old in text, f"{old!r} not in {name}"
    (folder / name).write_text(text.replace(old, new, count))


def error_of(folder) -> str:
    with pytest.raises(InputError) as e:
        components.load(str(folder))
    message = str(e.value)
    assert "\n" not in message  # one `error:` line
    return message


def test_shipped_sets_load_and_differ_only_in_their_own_files():
    standard = components.load("standard")
    one_skull = components.load("alt-one-skull")
    assert len(standard.cards) == len(one_skull.cards) == 64  # A5
    assert standard.number_faces.count(-1) == 1 and one_skull.number_faces.count(-1) == 0
    assert one_skull.letter_faces.count(-1) == 1
    assert standard.cards == one_skull.cards and standard.seat_islands == one_skull.seat_islands
    assert standard.raw != one_skull.raw  # the rules hash tells the sets apart
    assert sorted(p.name for p in (components.FOLDER / "alt-one-skull").iterdir()) == ["README.md", "dice.toml"]


def test_every_shipped_set_holds_only_files_that_differ_and_plays_every_player_count():
    """An alternative set holds only the files that differ from the base set."""
    from simkit.core.components import shipped

    alts = [name for name in shipped(components.FOLDER) if name != "standard"]
    assert {"alt-one-skull", "alt-two-events", "alt-near-ports", "alt-adjacent-seats", "alt-three-seats"} <= set(alts)
    for name in alts:
        own = [p for p in (components.FOLDER / name).iterdir() if p.suffix != ".md"]
        assert own and all(p.name in FILES for p in own), name
        assert all(p.read_bytes() != (components.FOLDER / p.name).read_bytes() for p in own), name
        comp = components.load(name)
        for players in (2, 3, 4):
            components.compile_arrays(comp, rules.SCHEMA.resolve("standard", {"components": name}), players)
    assert len(components.load("alt-two-events").cards) == 68


@pytest.mark.parametrize("name", ["standard", "alt-straight-maps", "alt-two-events"])
def test_path_ids_name_the_steps_a_turned_option_makes(name):
    """The compiled table's path ids (state.PATH_ID0), read by the bots' path-value memo: two
    (card, option, quarter turns) share an id exactly when they make the same steps, and a port
    card's id is its port's, apart from every map path."""
    from simkit.games.sea_of_plunder import state as S

    comp = components.load(name)
    (K,) = components.compile_arrays(comp, rules.SCHEMA.resolve("standard", {"components": name}), 4)
    steps_of = {}
    for i, card in enumerate(comp.cards):
        row = K[S.CARD0 + i]
        if card.kind == S.PORT_CARD:
            steps_of.setdefault(int(row[S.PATH_ID0]), set()).add(("port", card.port))
        for o, path in enumerate(card.paths):
            for r in range(4):
                steps_of.setdefault(int(row[S.PATH_ID0 + o * 4 + r]), set()).add(tuple((d + 2 * r) % 8 for d in path))
    assert all(len(steps) == 1 for steps in steps_of.values())  # one id, one set of steps
    assert len({next(iter(s)) for s in steps_of.values()}) == len(steps_of)  # one set of steps, one id
    assert sorted(steps_of) == list(range(int(K[S.META, S.PATH_IDS])))
    if name == "standard":  # Three north turned a quarter clockwise makes Three east's steps
        i, j = ([c.name for c in comp.cards].index(n) for n in ("Three north", "Three east"))
        assert K[S.CARD0 + i, S.PATH_ID0 + 1] == K[S.CARD0 + j, S.PATH_ID0]
        assert K[S.CARD0 + i, S.PATH_ID0] != K[S.CARD0 + j, S.PATH_ID0]


def test_a_designer_folder_with_the_standard_files_loads(folder):
    comp = components.load(str(folder))
    assert comp.cards == components.load().cards


def test_unknown_set_is_named_with_the_shipped_ones():
    with pytest.raises(InputError, match=r"unknown component set 'alt-one-skul'.*did you mean 'alt-one-skull'"):
        components.load("alt-one-skul")


# --------------------------------------------------------------------------- ports.toml
@pytest.mark.parametrize("old, new, pattern", [
    ("3 = [0, 1, 2]\n", "", r"ports\.toml \[seat_islands\]: missing '3'.*Set-up 3"),
    ("4 = [0, 1, 2, 3]", "4 = [0, 1, 2, 7]", r"ports\.toml \[seat_islands\] 4: island index 7 is not a \[\[port\]\].*0 to 3"),
    ("2 = [0, 2]", "2 = [0, 0]", r"ports\.toml \[seat_islands\] 2: two ships start on the same island.*A3"),
    ("3 = [0, 1, 2]", "3 = [0, 1]", r"ports\.toml \[seat_islands\] 3: needs 3 island indices"),
    ("two_player = [[0, 2], [1, 3]]", "two_player = [[0, 2], [1, 2]]",
     r"ports\.toml \[seat_islands\] two_player: two ships start on the same island"),
    ("two_player = [[0, 2], [1, 3]]", "two_player = [0, 2, 1, 3]", r"two_player: needs two lists of two.*A27"),
    ("2 = [0, 2]", "2 = [0, 2]\n5 = [0, 1, 2, 3, 0]", r"unknown player count '5' in .*ports\.toml \[seat_islands\]"),
    ("goods_per_colour = 4", "goods_per_colour = -1", r"ports\.toml: 'goods_per_colour' must be 0 to 4, got -1"),
    ("goods_per_colour = 4", "goods_per_colour = 9", r"'goods_per_colour' must be 0 to 4, got 9 \(Collecting Goods"),
    ("goods_per_colour = 4", "goods_per_colour = \"4\"", r"'goods_per_colour' must be a whole number"),
    ('letter = "G"', 'letter = "R"', r"ports\.toml \[\[port\]\] 2 \(Grayseo\): 'letter' 'R' is used by two ports"),
    ('colour = "green"', 'colour = "blue"', r"\[\[port\]\] 2 \(Grayseo\): 'colour' 'blue' is used by two ports"),
    ('letter = "G"', 'letter = "T"', r"\[\[port\]\] 2 \(Grayseo\): 'letter' must be a capital letter other than T"),
    ('letter = "G"', 'leter = "G"', r"unknown key 'leter' in .*ports\.toml \[\[port\]\] 2.*did you mean 'letter'"),
    ('[[port]]\nname = "Morrosa"', '[[prt]]\nname = "Morrosa"', r"unknown key 'prt'"),
])
def test_ports_schema_errors(folder, old, new, pattern):
    edit(folder, "ports.toml", old, new)
    assert re.search(pattern, error_of(folder))


def test_fewer_than_four_ports_is_refused(folder):
    text = (folder / "ports.toml").read_text()
    head, _, _ = text.partition('[[port]]\nname = "Morrosa"')
    (folder / "ports.toml").write_text(head + text[text.index("[seat_islands]"):])
    assert re.search(r"ports\.toml: 'port' number of entries must be 4, got 3 \(Set-up 1-3", error_of(folder))


# --------------------------------------------------------------------------- board.txt
@pytest.mark.parametrize("old, new, pattern", [
    (" 7    .M....T....G.", " 7    .M....T....X.", r"board\.txt line \d+: unknown square symbol 'X'.*A2"),
    (" 7    .M....T....G.", " 7    .M....T......", r"board\.txt: port letter 'G' of ports\.toml is not on the board"),
    (" 7    .M....T....G.", " 7    .M....T....", r"board\.txt line \d+: a board row is"),
    (" 7    .M....T....G.", " 7    .M.........G.", r"board\.txt: the board needs one first Treasure Island 'T', found 0 \(Set-up 5\)"),
    (" 4    ...p.....p...", " 4    ...p.........", r"board\.txt: the board needs 4 pirate squares 'p', found 3 \(Set-up 4\)"),
    (" 3    .............", " 3    ......R......", r"board\.txt row 3: port letter 'R' appears twice"),
    ("13    .............", "14    .............", r"board\.txt line \d+: expected row 13, got row 14"),
])
def test_board_errors(folder, old, new, pattern):
    edit(folder, "board.txt", old, new)
    assert re.search(pattern, error_of(folder))


# --------------------------------------------------------------------------- cards.toml
@pytest.mark.parametrize("old, new, pattern", [
    ('paths = ["N N E"]\ncount = 2', 'paths = ["N N E"]\ncount = -1',
     r"cards\.toml \[\[card\]\] 1: 'count' must be 0 to 20, got -1 \(copies in the deck"),
    ('paths = ["N N E"]\ncount = 2', 'paths = ["N N E"]\ncount = 99', r"'count' must be 0 to 20, got 99"),
    ('paths = ["N N E"]\ncount = 2', 'paths = ["N N E"]\ncount = 2.5', r"'count' must be a whole number"),
    ('paths = ["N N E"]', 'paths = ["N N Q"]', r"unknown map step 'Q' in .*cards\.toml \[\[card\]\] 1 \(North, north, east\) paths"),
    ('paths = ["N N E"]', 'paths = ["N N N N N N N N"]', r"\[\[card\]\] 1 \(North, north, east\) paths: a path has 1 to 7 steps, got 8"),
    ('paths = ["N N E"]', 'paths = []', r"\[\[card\]\] 1: 'paths' number of entries must be 1 to 4, got 0 \(Map Cards"),
    ('paths = ["N N E"]\n', '', r"\[\[card\]\] 1 \(North, north, east\): a map card needs 'paths'"),
    ('port = "Rabakin"', 'port = "Rabakn"', r"unknown port 'Rabakn' in .*\[\[card\]\] 20 \(Rabakin\).*did you mean 'Rabakin'"),
    ('effect = "hurricane"', 'effect = "hurrican"', r"unknown action effect 'hurrican' in .*\(Hurricane\)"),
    ('effect = "hurricane"', 'effect = "cargo_adrift"', r"unknown action effect 'cargo_adrift'"),
    ('effect = "hurricane"', 'effect = "hurricane"\npaths = ["N"]', r"\(Hurricane\): 'paths' belongs to map cards, not to a action card"),
    ('kind = "event"', 'kind = "events"', r"unknown card kind 'events' in .*did you mean 'event'"),
    ('name = "Three north"', 'name = "North, north, east"', r"two \[\[card\]\] entries share the name 'North, north, east'"),
    ('name = "Three north"', 'title = "Three north"', r"unknown key 'title' in .*\[\[card\]\] 2"),
    ('action_discard_paths = ["N", "E", "S", "W"]', 'action_discard_paths = ["N", "E", "S", "W", "N"]',
     r"cards\.toml: 'action_discard_paths' number of entries must be 1 to 4, got 5 \(Action Cards"),
    ('action_discard_paths = ["N", "E", "S", "W"]', 'action_discard_paths = ["N", "X"]',
     r"unknown map step 'X' in .*action_discard_paths \(A7\)"),
])
def test_cards_schema_errors(folder, old, new, pattern):
    edit(folder, "cards.toml", old, new)
    assert re.search(pattern, error_of(folder))


def test_empty_deck_is_refused(folder):
    text = (folder / "cards.toml").read_text()
    (folder / "cards.toml").write_text(re.sub(r"count = \d+", "count = 0", text))
    assert re.search(r"cards\.toml: the deck is empty.*Set-up 7a", error_of(folder))


def test_deck_without_map_cards_is_refused(folder):
    text = (folder / "cards.toml").read_text()
    text = re.sub(r'(kind = "map"\nname = "[^"]*"\npaths = \[[^]]*\]\n)count = \d+', r"\1count = 0", text)
    (folder / "cards.toml").write_text(text)
    assert re.search(r"the deck needs at least one Map card to seed the play/discard pile \(Set-up 7b\)", error_of(folder))


def test_a_deck_that_cannot_play_the_worked_examples_is_refused(folder):
    """The Endless Seas example sails M2 to A13 on one Map card (SOP-085); the Map Cards
    example plays a multi-option card (SOP-081): a deck needs both."""
    edit(folder, "cards.toml", 'paths = ["N N E"]', 'paths = ["N E E"]')
    assert re.search(r"cards\.toml: the deck needs a Map card that sails 2 squares north and 1 east.*SOP-085",
                     error_of(folder))
    edit(folder, "cards.toml", 'paths = ["N E E"]', 'paths = ["E N N"]')  # the same sail in another order
    components.load(str(folder))
    text = (folder / "cards.toml").read_text()
    (folder / "cards.toml").write_text(re.sub(r'paths = \["([^"]*)", [^]]*\]', r'paths = ["\1"]', text))
    assert re.search(r"cards\.toml: the deck needs a multi-option Map card.*SOP-078, SOP-081", error_of(folder))


def test_deck_too_small_to_deal_is_refused_for_the_rules_that_need_it(folder):
    """Set-up 7a/7b: the Action and Map cards must fill every starting hand and leave a Map
    for the pile; how many that is depends on hand_size and the player count."""
    text = (folder / "cards.toml").read_text()
    (folder / "cards.toml").write_text(re.sub(r"count = 2", "count = 1", text))
    comp = components.load(str(folder))  # 19 Map + 7 Action cards: a valid deck
    values = rules.SCHEMA.resolve("standard", {})
    components.compile_arrays(comp, values, 4)  # 4 x 5 + 1 + 1 <= 26
    values = rules.SCHEMA.resolve("standard", {"hand_size": 7})
    with pytest.raises(InputError, match=r"cards\.toml: 26 Action and Map cards cannot deal 4 starting hands of 7.*"
                                         r"Set-up 7a, 7b; hand_size"):
        components.compile_arrays(comp, values, 4)
    components.compile_arrays(comp, values, 2)


# --------------------------------------------------------------------------- dice.toml
@pytest.mark.parametrize("old, new, pattern", [
    ('"13", "skull"]', '"13", "14"]', r"dice\.toml number face 14: '14' is not a number of the board \(1\.\.13\)"),
    ('"L", "M", "skull"]', '"L", "M", "L", "skull"]', r"dice\.toml letter: the letter die shows 'L' twice.*A8"),
    ('"L", "M", "skull"]', '"L", "skull"]', r"dice\.toml letter: the letter die misses 'M'.*every square is equally likely"),
    ('"13", "skull"]', '"13", "Skull"]', r"number face 14: 'Skull' is not a number"),
    ('"12", "13", "skull"]', '"12", 13, "skull"]', r"number face 13: 13 is not a number of the board"),
    ('number = [', 'numbers = [', r"unknown key 'numbers' in .*dice\.toml.*did you mean 'number'"),
    ('number = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "skull"]', 'number = []',
     r"dice\.toml: 'number' number of entries must be 1 to 60, got 0"),
])
def test_dice_schema_errors(folder, old, new, pattern):
    edit(folder, "dice.toml", old, new)
    assert re.search(pattern, error_of(folder))


def test_dice_must_agree_on_a_skull(folder):
    """Placing new Treasure Islands pays the pirates on a skull: one die at least needs it."""
    edit(folder, "dice.toml", '"M", "skull"]', '"M"]')
    components.load(str(folder))  # the skull on the number die alone is a valid reading
    edit(folder, "dice.toml", '"13", "skull"]', '"13"]')
    assert re.search(r"dice\.toml: neither die has a \"skull\" face.*Placing new Treasure Islands; A8", error_of(folder))


def test_malformed_toml_names_the_file(folder):
    edit(folder, "dice.toml", "letter = [", "letter = [[")
    assert re.search(r"dice\.toml: malformed TOML", error_of(folder))


# --------------------------------------------------------------------------- from the command line
def test_cli_names_the_broken_file_in_one_error_line(folder, tmp_path_factory):
    """A designer's folder with a bad file: `error:` and one line naming file, entry and rule,
    exit 2, nothing played (docs/reference/cli.md)."""
    from typer.testing import CliRunner

    from simkit.commands.cli import app

    edit(folder, "ports.toml", "4 = [0, 1, 2, 3]", "4 = [0, 1, 2, 9]")
    out = tmp_path_factory.mktemp("out") / "run"
    r = CliRunner().invoke(app, ["sweep", "--game", "sea_of_plunder", "--players", "4", "--games", "10",
                                 "--components", str(folder), "--out", str(out), "--quiet"])
    assert r.exit_code == 2, r.output
    lines = r.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ")
    assert re.search(r"ports\.toml \[seat_islands\] 4: island index 9 is not a \[\[port\]\].*Set-up 3", lines[0])
    assert "Traceback" not in r.output


def test_components_and_thief_reading_are_rule_parameters():
    listing = {row["name"]: row for row in rules.SCHEMA.listing()}
    assert listing["components"]["default"] == "standard" and "alt-one-skull" in listing["components"]["allowed"]
    assert listing["thief_contact"]["source"] == "A38"
    values = rules.SCHEMA.resolve("standard", {"components": "alt-one-skull"})
    assert "components" not in rules.SCHEMA.engine_tuple(values)._fields  # files, not an engine value


def test_replay_names_the_cards_of_the_set_played():
    """A deck of another size numbers its cards differently: the narration reads the set's own
    deck (the cell's rules name it), so card 64 of the 68-card deck is an Event, not a Good."""
    from simkit.games.sea_of_plunder import events

    deck = components.load("alt-two-events").cards
    row = (0, 0, events.DRAW, 64, 0, 0)
    assert events.describe_event(row, {"rules": {"components": "alt-two-events"}}).endswith(
        f"draws {deck[64].name} from the deck")
    assert events.describe_event(row, {"rules": {"components": "standard"}}).endswith("draws blue Good from the deck")
