"""Edition manifests and the plugin system (issue: plugin system; DESIGN.md "Hooks")."""

from __future__ import annotations

import inspect
import types

import pluggy
import pytest

import samurai
from samurai import DataError
from samurai.catalog.editions import available_editions, installed_plugins, make_plugin_manager, register_plugin
from samurai.hooks import specs as framework_hookspecs
from samurai.hooks.specs import hookimpl
from samurai_plugins.knizia.editions import hookspecs as knizia_hookspecs

from helpers import ROOT

DECIDING = {"samurai_setup_procedure", "samurai_resolution_timing", "samurai_end_check_timing", "samurai_cannot_play",
            "samurai_public_captures", "samurai_score"}
CONTRIBUTING = {"samurai_edition_manifests", "samurai_tile_behaviours", "samurai_game_metrics", "samurai_executors",
               "samurai_games"}


# --- hooks -----------------------------------------------------------------------------

def test_every_hook_is_specified_and_documented():
    # The framework's hooks and Knizia's game's (the only game with hooks of its own).
    for hookspecs in (framework_hookspecs, knizia_hookspecs):
        names = {name for name, obj in inspect.getmembers(hookspecs, inspect.isfunction) if name.startswith("samurai_")}
        for name in names:
            assert (getattr(hookspecs, name).__doc__ or "").strip(), name
    framework = {name for name in dir(framework_hookspecs) if name.startswith("samurai_")}
    knizia = {name for name in dir(knizia_hookspecs) if name.startswith("samurai_")}
    assert framework | knizia == DECIDING | CONTRIBUTING and not framework & knizia
    assert framework == {"samurai_edition_manifests", "samurai_executors", "samurai_games"}


def test_deciding_hooks_are_firstresult_and_contributing_hooks_collect():
    pm = make_plugin_manager(())
    for name in DECIDING:
        assert getattr(pm.hook, name).spec.opts["firstresult"], name
    for name in CONTRIBUTING:
        assert not getattr(pm.hook, name).spec.opts["firstresult"], name


def test_the_engine_registers_its_defaults_through_the_same_hooks_as_trylast():
    pm = make_plugin_manager(())
    # Knizia's game's answers, through its game definition
    defaults = pm.get_plugin("samurai_plugins.knizia.editions.defaults")
    for name in DECIDING:
        impls = [i for i in getattr(pm.hook, name).get_hookimpls() if i.plugin is defaults]
        assert impls and impls[0].trylast, name


def test_an_edition_plugin_overrides_the_engine_defaults(ffg, tiny_core):
    captured = {0: {"castle": 2, "buddha": 1, "rice": 0}, 1: {"castle": 0, "buddha": 2, "rice": 1}}
    default = samurai.score(tiny_core, captured)  # engine default: totals, 3 against 3
    assert (default.winners, default.reason) == ((0, 1), "shared_most_figures")
    edition = samurai.score(ffg, captured)  # Leader tokens: seat 1 leads buddha and rice
    assert (edition.winners, edition.reason) == ((1,), "most_leader_tokens")


def test_each_edition_has_its_own_plugin_manager(ffg, tiny_core):
    assert ffg.plugin_manager is not tiny_core.plugin_manager
    assert ffg.plugin_manager.get_plugin("ffg2015") is not None
    assert tiny_core.plugin_manager.get_plugin("ffg2015") is None


def test_the_ffg2015_plugin_is_found_through_the_samurai_entry_point_group():
    plugin = installed_plugins()["ffg2015"]
    assert plugin.module == "samurai_plugins.ffg2015"
    assert plugin.package == "samurai-engine"
    assert "ffg2015" in available_editions()


def test_a_hook_with_a_wrong_signature_is_refused_naming_the_plugin():
    bad = types.ModuleType("bad_plugin")

    @hookimpl
    def samurai_score(edition, captured, colour):  # no such argument in the spec
        return None

    bad.samurai_score = samurai_score
    pm = make_plugin_manager(())
    with pytest.raises(DataError, match="hook samurai_score asks for 'colour', which the hook does not give"):
        register_plugin(pm, bad, "bad")
    assert not pm.is_registered(bad)


def test_a_hook_that_does_not_exist_is_refused():
    bad = types.ModuleType("typo_plugin")

    @hookimpl
    def samurai_scroe(edition, captured, options):
        return None

    bad.samurai_scroe = samurai_scroe
    with pytest.raises(DataError, match="samurai_scroe is not a samurai hook \\(did you mean samurai_score\\?\\)"):
        register_plugin(make_plugin_manager(()), bad, "typo")


def test_a_misspelt_hook_in_a_knizia_editions_plugin_file_is_refused_with_the_nearest_hook_of_its_game(tmp_path):
    (tmp_path / "variant.py").write_text("from samurai.hooks.specs import hookimpl\n\n\n@hookimpl\n"
                                         "def samurai_public_capture(edition, players, options):\n    return True\n")
    manifest = write(tmp_path, 'id = "typo"\nname = "typo"\nversion = "1"\nextends = "ffg2015"\n'
                               'plugins = ["variant.py"]\n')
    with pytest.raises(DataError, match=r"variant.py:4: samurai_public_capture is not a samurai hook \(did you mean "
                                        r"samurai_public_captures\?\)"):
        samurai.load_edition(manifest)


def test_hookimpl_marker_is_the_samurai_project():
    assert isinstance(hookimpl, pluggy.HookimplMarker)
    assert hookimpl.project_name == "samurai"


# --- manifests -------------------------------------------------------------------------

def test_a_manifest_that_extends_another_inherits_its_tiles_plugins_and_options(tiny, ffg):
    assert tiny.manifest.plugins == ("ffg2015",)
    assert tiny.manifest.tiles == ffg.manifest.tiles
    assert set(tiny.manifest.options) == set(ffg.manifest.options)
    assert tiny.map.name == "Tiny"
    assert tiny.rules(2).figures_per_caste == 3


BASE = (ROOT / "tests" / "data" / "tiny-core.toml").read_text()


def write(tmp_path, text, name="edition.toml"):
    path = tmp_path / name
    path.write_text(text)
    return str(path)


@pytest.mark.parametrize("change, message", [
    (('version = "1.0.0"', 'version = "1.0.0"\nflavour = "spicy"'),
     r"edition.toml:6 \[flavour\]: unknown key 'flavour'"),
    (('version = "1.0.0"', "version = 1"), "version must be str"),
    (('counts_for = ["castle"]', 'counts_for = ["dragon"]'), "tiles.castle.counts_for: unknown caste 'dragon'"),
    (('counts_for = ["castle"]', 'counts_for = ["castle"]\nspecial = "teleport"'),
     "no installed plugin provides the special tile behaviour 'teleport'"),
    (("plugins = []", 'plugins = ["no-such-plugin"]'), "no installed plugin is named 'no-such-plugin'"),
    (('map = "tiny"', 'map = "atlantis"'), "no map named 'atlantis'"),
    (('map = "tiny"', 'map = "tiny"\nextends = "no-such-edition"'), "extends 'no-such-edition', which is not"),
    (("figures_per_caste = 3", "figures_per_caste = 9"), "9 figures per caste do not fit the 9 figure slots"),
    (('pieces = ["west", "east"]', 'pieces = ["west", "south"]'), "has no piece 'south'"),
    (("influence = [2, 3, 4]", "influence = [2, -3, 4]"), "influence must list one whole number >= 0"),
    (("[players.2]", "[players.1]"), "players.1: the key must be a player count from 2 to 8"),
])
def test_malformed_manifests_are_refused_naming_file_and_problem(tmp_path, change, message):
    old, new = change
    assert old in BASE
    with pytest.raises(DataError, match=message):
        samurai.load_edition(write(tmp_path, BASE.replace(old, new, 1)))


def test_a_manifest_with_invalid_toml_is_refused(tmp_path):
    with pytest.raises(DataError, match=r"edition.toml:1: not valid TOML"):
        samurai.load_edition(write(tmp_path, 'id = "x\n'))


def test_unknown_editions_are_refused_listing_the_installed_ones():
    with pytest.raises(DataError, match="no edition named 'ffg2016'; installed editions: .*ffg2015"):
        samurai.load_edition("ffg2016")


def test_options_are_checked_against_the_manifest(ffg):
    with pytest.raises(DataError, match="has no option 'turbo'"):
        samurai.new_game(ffg, players=2, options={"turbo": True})
    with pytest.raises(DataError, match="option 'removed_to_end' must be int"):
        samurai.new_game(ffg, players=2, options={"removed_to_end": "four"})
    with pytest.raises(DataError, match="for 2, 3, 4 players, not 5"):
        samurai.new_game(ffg, players=5)


def test_a_plugin_can_decide_a_setup_that_is_refused_when_impossible(tiny):
    with pytest.raises(DataError, match="first_player 3 is not a seat"):
        samurai.new_game(tiny, players=2, options={"first_player": 3})
