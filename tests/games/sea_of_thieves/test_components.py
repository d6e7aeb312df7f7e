"""Component files: every file checked by its schema, errors naming the file, the entry and the
rule; alternative sets overlay the base set."""

import shutil

import pytest

from simkit.core.errors import InputError
from simkit.games.sea_of_thieves import GAME, components

FILES = components.FOLDER


def broken(tmp_path, name, old, new):
    d = tmp_path / "designer"
    d.mkdir(exist_ok=True)
    text = (FILES / name).read_text()
    assert old in text
    (d / name).write_text(text.replace(old, new, 1))
    components.load.cache_clear()
    return str(d)


@pytest.mark.parametrize("name,old,new,words", [
    ("voyages.csv", "meagre,merchant_alliance,reach,a,,1,100", "meagre,merchant_alliance,reach,a,,1,-5",
     ["voyages.csv", "entry 1", "price", "Seek New Voyages"]),
    ("voyages.csv", "meagre,merchant_alliance,reach,a,", "meagre,merchant_alliance,reach,z,",
     ["voyages.csv", "entry 1", "symbol", "Voyage Symbols"]),
    ("voyages.csv", "meagre,merchant_alliance,reach,a,", "meagre,merchant_alliance,teleport,a,",
     ["voyages.csv", "entry 1", "task", "A8"]),
    ("special_crew.csv", "Scout,merchant_alliance,scout,1,300,1", "Scout,merchant_alliance,wizard,1,300,1",
     ["special_crew.csv", "entry 1", "effect"]),
    ("fortune.csv", "Fair Winds,fair_winds,3,8", "Fair Winds,fair_winds,3,9", ["fortune.csv", "52 fortune cards"]),
    ("tiles.txt", "    .    .1   T\n", "    .    .    T\n", ["tiles.txt", "[1 A]", "Waypoints"]),
    ("tiles.txt", "  .    Ia   .    .\n", "  .    Ia   .\n", ["tiles.txt", "row 2", "hexagon"]),
    ("hub.txt", ".    .    O    .    .", ".    .    .    .    .", ["hub.txt", "Outpost"]),
    ("ships.toml", "gauge = 4", "gauge = 0", ["ships.toml", "[sloop]", "gauge", "A5"]),
    ("bags.toml", "value = 400, count = 4", "value = 400, count = 400", ["bags.toml", "loot entry 2", "count"]),
    # part 2: enemy cards, behaviour charts, event cards, captains
    ("enemies.toml", "damage_by_players = [5, 6, 7]", "damage_by_players = [5, 6]",
     ["enemies.toml", "[megalodon] damage_by_players", "number of players"]),
    ("enemies.toml", "track_by_players = [2, 3, 4]", "track_by_players = [3, 3, 4]",
     ["enemies.toml", "[skeleton_fort]", "Skeleton Fort"]),
    ("enemies.toml", "wound = 3", "wound = 2", ["enemies.toml", "[kraken] wound", "three tokens"]),
    ("enemies.toml", "order = 2", "order = 1", ["enemies.toml", "order", "card order"]),
    ("behaviour.toml", '{ do = "move_toward", arg = 2, next = 5 }', '{ do = "move_toward", arg = 2, next = 9 }',
     ["behaviour.toml", "skeleton_ship node 4", "follow the arrows"]),
    ("behaviour.toml", '{ do = "submerge", next = 4 }', '{ do = "submerge", next = 0 }',
     ["behaviour.toml", "kraken", "loop", "turn ends"]),
    ("behaviour.toml", '{ ask = "ship_within", arg = 3, yes = 2, no = 4 }', '{ ask = "ship_within", arg = 2, yes = 2, no = 4 }',
     ["behaviour.toml", "skeleton_ship", "the skeleton ship example"]),
    ("behaviour.toml", '{ do = "grab", arg = 1, next = 2 }', '{ do = "bite", arg = 1, next = 2 }',
     ["behaviour.toml", "kraken node 1", "node grammar"]),
    ("events.csv", "Flotsam,skeleton_ship,1,,,flotsam,2", "Flotsam,skeleton_ship,,,,flotsam,2",
     ["events.csv", "entry 1", "waypoint", "Enemy Spawns"]),
    ("events.csv", "Long Night,kraken,,1,,calm_seas,1,fortune,2\n", "", ["events.csv", "20 event cards"]),
    ("events.csv", "Flotsam,skeleton_ship,1,,,flotsam,2", "Flotsam,skeleton_ship,1,,,tsunami,2",
     ["events.csv", "entry 1", "high_seas", "A46"]),
    ("captains.csv", "Captain Dread,3,500\n", "", ["captains.csv", "8 unique skeleton captains"]),
])
def test_a_broken_file_names_itself_the_entry_and_the_rule(tmp_path, name, old, new, words):
    folder = broken(tmp_path, name, old, new)
    with pytest.raises(InputError) as e:
        components.load(folder)
    components.load.cache_clear()
    for w in words:
        assert w in str(e.value), (w, str(e.value))


def test_alternative_sets_hold_only_the_files_that_differ():
    for name in components.SETS[1:]:
        folder = FILES / name
        assert folder.is_dir() and len(list(folder.iterdir())) >= 1
        comp = components.load(name)
        base = components.load("standard")
        assert comp.tokens == base.tokens and comp != base


def test_a_designer_folder_is_a_rule_value(tmp_path):
    d = tmp_path / "mine"
    d.mkdir()
    shutil.copy(FILES / "ships.toml", d / "ships.toml")
    (d / "ships.toml").write_text((d / "ships.toml").read_text().replace("gauge = 4", "gauge = 7"))
    values = GAME.rules.resolve("standard", {"components": str(d)})
    comp = components.load(values["components"])
    assert comp.ships[0][1] == 7
    assert GAME.compile(values, 4).component_bytes != GAME.compile(GAME.rules.resolve("standard", {}), 4).component_bytes
    with pytest.raises(InputError):
        GAME.rules.resolve("standard", {"components": "no-such-set"})


@pytest.mark.parametrize("extra", ["", '  { kind = "skeleton", value = 0, count = 2 },\n'])
def test_every_skeleton_token_lies_where_the_engine_looks_for_one(tmp_path, extra):
    """Fights and Shifting Sands scan token ids FIRST_SKELETON..FIRST_CAPTAIN for a skeleton: every
    skeleton, those of `skeletons` and any a designer lists in a bag, lies in that range."""
    from simkit.games.sea_of_thieves import state as S

    d = tmp_path / "mine"
    d.mkdir()
    text = (FILES / "bags.toml").read_text()
    (d / "bags.toml").write_text(text.replace("loot = [\n", "loot = [\n" + extra, 1))
    comp = components.load(str(d))
    K = components.compile_arrays(comp, False)
    m = K[S.META]
    kinds = K[S.TOK_KIND, : m[S.N_TOKENS]]
    skeletons = [t for t in range(m[S.N_TOKENS]) if kinds[t] == S.SKELETON]
    assert len(skeletons) == comp.skeletons + (2 if extra else 0)
    assert m[S.FIRST_SKELETON] == skeletons[0] and skeletons[-1] < m[S.FIRST_CAPTAIN]
    assert m[S.FIRST_SKELETON] == (0 if extra else len(comp.tokens))
