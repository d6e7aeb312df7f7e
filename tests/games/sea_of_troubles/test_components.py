"""The component files' schema: every shipped set loads, and each kind of mistake in a
designer's folder is refused before any game is played, naming the file, the entry and the rule."""

import re

import pytest

from simkit.core.errors import InputError
from simkit.games.sea_of_troubles import components, rules

BASE = components.FOLDER


def values(variant="standard", **over):
    return rules.SCHEMA.resolve(variant, over)


def designer(tmp_path, file, text):
    """A designer's folder holding one file; the others come from the base set."""
    (tmp_path / file).write_text(text)
    return str(tmp_path)


def refused(folder, *parts, players=4, variant="standard"):
    with pytest.raises(InputError) as e:
        comp = components.load(folder)
        components.compile_arrays(comp, values(variant), players)
    msg = str(e.value)
    assert "\n" not in msg
    for part in parts:
        assert re.search(part, msg), (part, msg)
    return msg


@pytest.mark.parametrize("name", ["standard"] + sorted(p.name for p in BASE.iterdir() if p.is_dir()))
def test_every_shipped_set_loads_at_every_count(name):
    comp = components.load(name)
    for players in (2, 3, 4, 5):
        components.compile_arrays(comp, values(), players)
    if name != "standard":
        own = {p.name for p in (BASE / name).iterdir() if p.is_file()}
        assert own and own <= set(components.FILES)  # an alternative set holds only the files that differ
        base = components.load("standard")
        for f in components.FILES:
            same = (BASE / name / f).exists() is False
            assert same == (components.ComponentSet.open(BASE, name).read_text(f) == (BASE / f).read_text())
        assert comp.raw != base.raw


@pytest.mark.parametrize("name", ["standard"] + sorted(p.name for p in BASE.iterdir() if p.is_dir()))
def test_every_treasure_card_keeps_its_own_infamy_weight_and_kind_in_the_compiled_table(name):
    """compile_arrays: column i of the treasure rows is treasure card i of the file (its Infamy,
    its weight icon, its kind as the index of its name among the sorted names), every card, in
    every shipped set."""
    from simkit.games.sea_of_troubles import state as S

    comp = components.load(name)
    (K,) = components.compile_arrays(comp, values(), 4)
    names = sorted({t[0] for t in comp.treasures})
    assert len(names) > 1
    for i, (kind, infamy, weighted) in enumerate(comp.treasures):
        assert (K[S.TREAS_INF, i], K[S.TREAS_WEIGHT, i], K[S.TREAS_KIND, i]) == (
            infamy, int(weighted), names.index(kind)), (name, i, kind)


def test_an_unknown_set_is_refused_with_a_hint():
    with pytest.raises(InputError, match="did you mean 'alt-small-quests'"):
        components.load("alt-smal-quests")


ACTIONS = """[swords]
values = [1, 2, 3, 4]
copies = [5, 5, 4, 3]
[sails]
values = [1, 2, 3, 4]
copies = [5, 5, 4, 3]
[cannons]
values = [1, 2, 3, 4]
copies = [5, 5, 4, 3]
[wilds]
copies = 6
"""


@pytest.mark.parametrize("change, parts", [
    (("copies = [5, 5, 4, 3]\n[sails]", "copies = [5, 5, 4]\n[sails]"),
     (r"\[swords\]", "'values' has 4 entries but 'copies' has 3")),
    (("values = [1, 2, 3, 4]\ncopies = [5, 5, 4, 3]\n[cannons]", "values = [0, 2, 3, 4]\ncopies = [5, 5, 4, 3]\n[cannons]"),
     (r"\[sails\] entry 1", "'values' = 0 is out of range 1..9")),
    (("[wilds]\ncopies = 6", "[wilds]\ncopys = 6"), (r"\[wilds\]", "unknown key 'copys'", "did you mean 'copies'", r"\(A2\)")),
    (("[wilds]\ncopies = 6", "[wild]\ncopies = 6"), (r"\[wild\]", "unknown card type", "did you mean 'wilds'")),
    (("copies = [5, 5, 4, 3]\n[sails]", "copies = [5, true, 4, 3]\n[sails]"),
     (r"\[swords\] entry 2", "'copies' must be an integer")),
    (("values = [1, 2, 3, 4]\ncopies = [5, 5, 4, 3]\n[cannons]", "values = [1, 1, 3, 4]\ncopies = [5, 5, 4, 3]\n[cannons]"),
     (r"\[sails\] entry 2", "value 1 is listed twice")),
])
def test_action_deck_mistakes(tmp_path, change, parts):
    text = ACTIONS.replace(*change)
    assert text != ACTIONS
    refused(designer(tmp_path, "actions.toml", text), r"^.*actions\.toml: ", *parts, r"\(.*A[12]\)$")


def test_a_missing_card_type_and_a_deck_too_small_to_deal(tmp_path):
    (tmp_path / "a").mkdir()
    no_sails = ACTIONS.replace("[sails]\nvalues = [1, 2, 3, 4]\ncopies = [5, 5, 4, 3]\n", "")
    assert no_sails != ACTIONS
    refused(designer(tmp_path / "a", "actions.toml", no_sails), r"\[sails\]: is missing", r"\(The Basic Pieces; A1\)")
    (tmp_path / "b").mkdir()
    small = "[swords]\nvalues = [1]\ncopies = [10]\n[sails]\nvalues = [1]\ncopies = [10]\n[cannons]\nvalues = [1]\ncopies = [10]\n"
    refused(designer(tmp_path / "b", "actions.toml", small), r"actions\.toml: 30 action cards cannot deal 8 to each of 4",
            r"\(Getting started 1\)")


TREASURES = """[[card]]
name = "Doubloon"
infamy = 1
count = 6
weighted = true
[[card]]
name = "Exotic Goods"
infamy = 2
count = 4
weighted = true
[[card]]
name = "Treasure Chest"
infamy = 3
count = 2
weighted = true
[[card]]
name = "Jewels"
infamy = 2
count = 2
weighted = true
[[card]]
name = "Pearl"
infamy = 1
count = 2
weighted = false
"""


@pytest.mark.parametrize("change, parts", [
    (('name = "Jewels"', 'name = "Doubloon"'), (r"card 4 \(Doubloon\)", "listed twice")),
    (("infamy = 3", 'infamy = "3"'), (r"card 3 \(Treasure Chest\)", "'infamy' must be an integer 0..20")),
    (("infamy = 3", "infamy = 99"), (r"card 3 \(Treasure Chest\)", "'infamy' = 99 is out of range 0..20")),
    (("weighted = false", "weighted = 0"), (r"card 5 \(Pearl\)", "'weighted' must be true or false", "Getting started 2")),
    (("count = 6", "cuont = 6"), (r"card 1 \(Doubloon\)", "unknown key 'cuont'", "did you mean 'count'")),
    (("count = 6\nweighted = true", "count = 6\nweighted = false"),
     (r"card 1 \(Doubloon\)", "must be weighted", r"Hand Size example, SOTR-186")),
])
def test_treasure_mistakes(tmp_path, change, parts):
    text = TREASURES.replace(*change, 1)
    assert text != TREASURES
    refused(designer(tmp_path, "treasures.toml", text), r"treasures\.toml: ", *parts)


def test_a_treasure_a_set_up_step_names_must_be_there(tmp_path):
    no_chest = TREASURES.replace('name = "Treasure Chest"', 'name = "Strongbox"')
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "quests.toml").write_text('[[quest]]\nport = 0\ntreasure = "any"\ninfamy = 4\n' * 5)
    folder = designer(tmp_path / "a", "treasures.toml", no_chest)
    refused(folder, r"treasures\.toml: 'Treasure Chest': Skirmish uses 1, the file has 0", r"\(Skirmish Mode",
            players=3, variant="skirmish")
    components.compile_arrays(components.load(folder), values(), 3)  # the base game does not need it
    no_doubloon = TREASURES.replace('name = "Doubloon"', 'name = "Piece of Eight"')
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "quests.toml").write_text('[[quest]]\nport = 0\ntreasure = "any"\ninfamy = 4\n' * 5)
    folder = designer(tmp_path / "b", "treasures.toml", no_doubloon)
    refused(folder, "4 players remove one weighted Doubloon", r"\(Getting started 2\)")
    components.compile_arrays(components.load(folder), values(), 3)


@pytest.mark.parametrize("quest, parts", [
    ('port = 0\ntreasure = "Jewel"\ninfamy = 4', ("quest 1", "asks for 'Jewel', which is not a card of", r"treasures\.toml",
                                                 "did you mean 'Jewels'", r"\(Quests: Delivery")),
    ('port = 7\ntreasure = "any"\ninfamy = 4', ("quest 1", "'port' = 7 is out of range 0..4", r"\(Quests: the Port listed")),
    ('port = 0\ntreasure = "any"\ninfamy = 0', ("quest 1", "'infamy' = 0 is out of range 1..30", r"\(Quests: the Infamy")),
    ('port = 0\ntreasure = "any"\nreward = 4', ("quest 1", "unknown key 'reward'")),
])
def test_quest_mistakes(tmp_path, quest, parts):
    refused(designer(tmp_path, "quests.toml", f"[[quest]]\n{quest}\n"), r"quests\.toml: ", *parts)


def test_fewer_quests_than_players_is_refused_except_in_skirmish(tmp_path):
    folder = designer(tmp_path, "quests.toml", '[[quest]]\nport = 0\ntreasure = "any"\ninfamy = 4\n' * 3)
    refused(folder, r"quests\.toml: 3 quests, but 4 players are dealt 4", r"\(Getting started 5\)")
    components.compile_arrays(components.load(folder), values(), 3)
    components.compile_arrays(components.load(folder), values("skirmish"), 4)  # no quests in Skirmish


@pytest.mark.parametrize("quirk, parts", [
    ('name = "Lucky"\neffect = "luck"', (r"quirk 1 \(Lucky\)", "unknown effect 'luck'", r"\(Quirks; A15\)")),
    ('name = "Swift"\neffect = "free_move"', ("did you mean 'free_moves'",)),
    ('name = "Swift"\neffect = "free_moves"\namount = 0', ("'amount' = 0 is out of range 1..10",)),
    ('name = "Swift"\neffect = "free_moves"\nworth = -1', ("'worth' = -1 is out of range", r"\(a bot's liking, A28\)")),
    ('effect = "free_moves"', ("quirk 1", "'name' must be a non-empty text")),
])
def test_quirk_mistakes(tmp_path, quirk, parts):
    refused(designer(tmp_path, "quirks.toml", f"[[quirk]]\n{quirk}\n"), r"quirks\.toml: ", *parts)


@pytest.mark.parametrize("panel, parts", [
    ("......\n.#..P.\n.##..\n...#..\n.X..#.\n......", ("line 4", "5 squares, but the panel's first row has 6")),
    ("......\n.#..P.\n.##.P.\n...#..\n.X..#.\n......", ("the panel", "2 Port squares", "lines 3, 4",
                                                        r"\(Getting started 3; A5\)")),
    ("......\n.#..P.\n.##.~.\n...#..\n.X..#.\n......", ("line 4", "unknown square '~'")),
    ("......\n.#..P.\n.##...\n...#..\n....#.\n......", ("the panel", "0 X squares")),
    ("........\n" * 6, ("the panel", r"6x8 squares; the engine holds 36")),
])
def test_map_mistakes(tmp_path, panel, parts):  # line 1 is a comment: the panel starts on line 2
    refused(designer(tmp_path, "map.txt", "# a designer's panel\n" + panel + "\n"), r"map\.txt: ", *parts)


def test_a_port_walled_off_from_the_x_is_refused(tmp_path):
    walled = "#.####\n#.#P##\n#.####\n#.....\n#X....\n#....."
    msg = refused(designer(tmp_path, "map.txt", walled), r"map\.txt: at 4 players the Port of panel \d cannot be "
                  r"reached by sea from the X of panel \d", r"\(Move; A6\)")
    assert msg.startswith(str(tmp_path))


def test_the_cli_refuses_a_broken_designer_folder_with_one_error_line(tmp_path):
    from typer.testing import CliRunner

    from simkit.commands.cli import app

    folder = designer(tmp_path, "quests.toml", '[[quest]]\nport = 0\ntreasure = "Jewel"\ninfamy = 4\n')
    r = CliRunner().invoke(app, ["sweep", "--game", "sea_of_troubles", "--players", "3", "--games", "5",
                                 "--components", folder, "--out", str(tmp_path.parent / (tmp_path.name + "-out")), "--quiet"])
    assert r.exit_code == 2
    lines = [line for line in r.output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: ") and "quests.toml: quest 1" in lines[0]
    assert "Traceback" not in r.output


def test_a_shipped_set_is_a_rule_parameter_in_the_rules_hash():
    from simkit.games.sea_of_troubles import GAME

    a = GAME.compile(rules.SCHEMA.resolve("standard", {}), 4)
    b = GAME.compile(rules.SCHEMA.resolve("standard", {"components": "alt-small-quests"}), 4)
    assert a.component_bytes != b.component_bytes
    assert (a.components[0] != b.components[0]).any()


def test_an_error_names_the_line_of_the_entry(tmp_path):
    good = '[[quest]]\nport = 0\ntreasure = "any"\ninfamy = 4\n'
    folder = designer(tmp_path, "quests.toml", good * 2 + '# the third\n[[quest]]\nport = 0\ntreasure = "Gold"\ninfamy = 4\n')
    refused(folder, r"quests\.toml: quest 3 \(line 10\): asks for 'Gold'")
    (tmp_path / "b").mkdir()
    refused(designer(tmp_path / "b", "actions.toml", ACTIONS.replace("values = [1, 2, 3, 4]\ncopies = [5, 5, 4, 3]\n[cannons]",
                                                                     "values = [1, 2, 3, 4]\ncopies = [5, 5, 4]\n[cannons]")),
            r"actions\.toml: \[sails\] \(line 4\): 'values' has 4 entries")


def test_a_replay_names_the_quirks_of_the_set_it_was_played_with(tmp_path):
    from typer.testing import CliRunner

    from simkit.commands.cli import app

    folder = designer(tmp_path, "quirks.toml", '[[quirk]]\nname = "Sea Legs"\neffect = "free_moves"\n')
    r = CliRunner().invoke(app, ["replay", "sea_of_troubles", "--variant", "quirks", "--players", "3",
                                 "--components", folder, "--seed", "1"])
    assert r.exit_code == 0, r.output
    assert "takes quirk 'Sea Legs'" in r.output
