"""Key bindings by id (issue 39): every binding has one, the settings file remaps them (presets
and [keys]), and F1, the palette and the keys themselves follow the remapping."""

from __future__ import annotations

import asyncio
import inspect

import pytest

from cubelab.cube.moves import alg_state
from cubelab.solvers import StandIn
from cubelab.tui import (_build_offer, _confirm_screen, _help_screen, _move_input, _net_view,
                         _output_screen, _run_panel, app as app_module)
from cubelab.tui._help_screen import HelpScreen, help_renderable
from cubelab.tui._palette import palette_commands
from cubelab.tui.app import CubeLabApp
from cubelab.tui.bindings import BINDINGS, KEY_MOVES, _key_name, display_key, normal_key, resolve
from cubelab.tui.history import InputHistory
from cubelab.tui.records import SolutionRow
from cubelab.tui.settings import Settings
from helpers_apps import until


def declared_bindings():
    """Every Binding the workbench's own classes declare."""
    from textual.binding import Binding
    from textual.dom import DOMNode
    for module in (app_module, _build_offer, _confirm_screen, _help_screen, _move_input,
                   _net_view, _output_screen, _run_panel):
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if issubclass(cls, DOMNode) and cls.__module__ == module.__name__:
                for binding in cls.__dict__.get("BINDINGS", []):
                    assert isinstance(binding, Binding), cls
                    yield cls, binding


def test_every_binding_has_an_id_of_the_table():
    seen = set()
    for cls, binding in declared_bindings():
        assert binding.id in BINDINGS, f"{cls.__name__}: {binding.key} -> {binding.action}"
        assert binding.key == BINDINGS[binding.id].keys
        seen.add(binding.id)
    assert seen == set(BINDINGS)            # and the table holds nothing that is not bound


def test_the_keyboard_cube_is_bound_to_the_cubing_js_map():
    keymap = resolve()
    for character, move in KEY_MOVES.items():
        assert normal_key(character) in keymap.of(f"cubelab.cube.{move}")
    assert keymap.shown("cubelab.cube.R", fold_case=True) == "I"
    assert keymap.shown("cubelab.cube.d'", fold_case=True) == ","


@pytest.mark.parametrize("text, key", [("F5", "f5"), ("Ctrl+S", "ctrl+s"), (",", "comma"),
                                       ("G", "G"), ("shift+g", "G"), ("esc", "escape"),
                                       ("ctrl+alt+x", "ctrl+alt+x"), ("Ctrl+Full_Stop",
                                                                      "ctrl+full_stop")])
def test_keys_as_users_write_them(text, key):
    assert normal_key(text) == key


def test_a_characters_key_is_named_as_textual_names_it():
    # bindings names keys itself (textual's import is too slow for the settings' readers): the
    # names must stay Textual's, or a binding to "/" or "," would never fire
    from textual.keys import _character_to_key
    for c in map(chr, range(0, 0x3000)):
        assert _key_name(c) == _character_to_key(c), repr(c)


def test_commands_that_read_the_settings_do_not_import_textual():
    import subprocess
    import sys
    code = ("import sys; from cubelab.tui.settings import Settings; Settings.load(); "
            "print('textual' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "False"


@pytest.mark.parametrize("text", ["f99", "ctrl+", "hyperdrive", "ctrl+ctrl+s", "", "two words"])
def test_what_names_no_key(text):
    assert normal_key(text) is None


def test_keys_show_as_keycaps_print_them():
    assert [display_key(k) for k in ("ctrl+z", "f12", "escape", "comma", "g", "G",
                                     "ctrl+home")] == \
        ["Ctrl+Z", "F12", "Esc", ",", "G", "Shift+G", "Ctrl+Home"]


def test_a_key_taken_over_leaves_the_binding_that_had_it():
    keymap = resolve("default", {"cubelab.compare": "f5", "cubelab.cube.R'": "i"})
    assert keymap.problems == []
    assert keymap.of("cubelab.compare") == ("f5",) and keymap.of("cubelab.solve") == ()
    assert keymap.of("cubelab.cube.R") == ()          # i and I went to R'
    assert keymap.of("cubelab.cube.R'") == ("i", "I")
    assert keymap.overrides == {"cubelab.compare": "f5", "cubelab.cube.R'": "i,I"}
    # a key taken in another scope is no clash: the focused widget's key shadows the app's
    assert resolve("default", {"cubelab.rows.play": "f5"}).of("cubelab.solve") == ("f5",)


def test_the_help_shows_the_keys_as_bound():
    from rich.console import Console
    keymap = resolve("vim", {"cubelab.solve": "f5,ctrl+s", "cubelab.cube.R": "i,semicolon"})
    console = Console(width=100, color_system=None)
    with console.capture() as captured:
        console.print(help_renderable(None, keymap))
    text = captured.get()
    assert "F5,Ctrl+S / F6" in text and "Down,J / Up,K" in text
    assert "I/;   R" in text and "(none) y" in text


def app_with(tmp_path, text: str, **fake) -> CubeLabApp:
    path = tmp_path / "settings.toml"
    path.write_text(text)
    return CubeLabApp(solvers=StandIn(**fake), history=InputHistory(tmp_path / "h"),
                      compare_time_limit=None, settings=Settings.load(path, environ={}))



def test_a_remapped_key_runs_its_action_and_shows_in_f1_and_the_palette(tmp_path):
    app = app_with(tmp_path, '[keys]\n"cubelab.solve" = "ctrl+s"\n"cubelab.help" = "f2"\n'
                             '"cubelab.letters" = "f11"\n', step_seconds=0.01)

    async def body():
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.press(*"R U", "enter")
            await pilot.press("f5")                      # no longer bound
            await pilot.pause()
            assert not app.session.solutions
            await pilot.press("ctrl+s")
            await until(pilot, lambda: app.session.solutions, "a solve")
            assert app.active_bindings["ctrl+s"].binding.id == "cubelab.solve"
            await pilot.press("f2")
            await until(pilot, lambda: isinstance(app.screen, HelpScreen), "the help")
            titles = [c.title for c in palette_commands(app)]
            assert "solve (Ctrl+S)" in titles and "help (F2)" in titles
    asyncio.run(body())


def test_the_vim_preset_walks_the_rows_with_j_and_k(tmp_path):
    app = app_with(tmp_path, '[keys]\npreset = "vim"\n', step_seconds=0.01)

    async def body():
        async with app.run_test(size=(100, 30)) as pilot:
            state = app.session.state
            app.session.solutions[:] = [SolutionRow("fake", state, [], status="solved"),
                                        SolutionRow("other", state, [], status="solved")]
            app.solver_panel.refresh_rows()
            table = app.query_one("#solutions")
            table.focus()
            await pilot.pause()
            await pilot.press("j")
            await until(pilot, lambda: table.cursor_row == 1, "j to the second row")
            await pilot.press("k")
            await until(pilot, lambda: table.cursor_row == 0, "k back to the first")
            await pilot.press("G")
            await until(pilot, lambda: table.cursor_row == 1, "Shift+G to the last")
    asyncio.run(body())


def test_a_remapped_cube_key_turns_the_cube(tmp_path):
    app = app_with(tmp_path, '[keys]\ncubelab.cube.R = "semicolon"\n')

    async def body():
        async with app.run_test(size=(80, 24)) as pilot:
            app.net.focus()
            await pilot.pause()
            await pilot.press("semicolon", "i", "k")     # i no longer turns R; k is R'
            await until(pilot, lambda: app.session.entry.label == "R'", "the turns")
            assert app.session.state == alg_state("R R'")
            assert [e.label for e in app.session.history.entries] == ["start", "R", "R'"]
    asyncio.run(body())
