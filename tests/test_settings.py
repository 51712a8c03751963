"""The settings file (issue 39): the schema, reading with one-line problems and fallbacks, the
environment over the file, writing one key back, `cubelab config`, and the workbench keeping
the theme chosen."""

from __future__ import annotations

import asyncio
import sys
import tomllib

import pytest
from hypothesis import given, strategies as st

from cubelab.solvers import StandIn
from cubelab.tui.app import CubeLabApp
from cubelab.tui.cli import main
from cubelab.tui.history import InputHistory
from cubelab.tui.settings import Settings, SettingsError, set_value, settings_path, show, \
    template
from cubelab.tui.settings_schema import SCHEMA, check, format_value


def write(tmp_path, text: str):
    path = tmp_path / "settings.toml"
    path.write_text(text)
    return path


def test_every_default_passes_its_own_check():
    for setting in SCHEMA:
        value, problem = check(setting, setting.default)
        assert problem == "", setting.key
        assert value == setting.default


def test_no_file_means_the_defaults_and_no_problem(tmp_path):
    settings = Settings.load(tmp_path / "absent.toml", environ={})
    assert settings.check_all() == []
    assert settings.get("repl.time_limit") == 10.0 and settings.get("theme") == "textual-dark"


def test_a_bad_value_names_its_key_and_line_and_the_default_holds(tmp_path):
    path = write(tmp_path, '# mine\ntheme = "nord"\n\n[repl]\nprompt = "> "\ntime_limit = -3\n'
                           '[workbench]\nsolver = "kociembaa"\n')
    settings = Settings.load(path, environ={})
    assert settings.get("theme") == "nord" and settings.get("repl.prompt") == "> "
    assert settings.get("repl.time_limit") == 10.0
    assert settings.get("workbench.solver") == ""
    problems = settings.check_all()
    assert len(problems) == 2
    limit = next(p for p in problems if "time_limit" in p)
    assert limit.startswith("settings.toml:6: repl.time_limit = -3: must be") and \
        limit.endswith("using the default (10)")
    assert any(p.startswith("settings.toml:8: workbench.solver") and "'kociemba'" in p
               for p in problems)
    assert all("\n" not in p for p in problems)


@pytest.mark.parametrize("text, word", [
    ("theme = \n", "not valid TOML"),
    ("[repl\n", "not valid TOML"),
    ("colour = 1\n", "unknown setting 'colour'"),
    ("[repl]\nhistory = 5\n", "did you mean repl.history_size"),
    ("time_limit = 5\n", "did you mean workbench.time_limit"),
    ("[colours]\ncustom = [\"white\", \"red\"]\n", "six colours"),
    ("[colours]\ncustom = [\"white\", \"red\", \"green\", \"yellow\", \"orange\", \"bleu\"]\n",
     "'bleu' is not a colour"),
    ("[letters]\nedges = \"ABC\"\n", "24 letters"),
    ("[letters]\ncorner_buffer = \"UF\"\n", "a corner"),
    ("animation = \"yes\"\n", "true or false"),
    ("[repl]\nhistory_size = 10.5\n", "whole number"),
    ("[repl]\nprompt = 7\n", "text in quotes"),
    ("[keys]\n\"cubelab.nothing\" = \"f5\"\n", "no binding has the id 'cubelab.nothing'"),
    ("[keys]\n\"cubelab.solve\" = \"ctrl+nope\"\n", "'ctrl+nope' names no key"),
    ("[keys]\npreset = \"emacs\"\n", "must be one of 'default', 'vim'"),
])
def test_each_kind_of_mistake_is_one_line(tmp_path, text, word):
    settings = Settings.load(write(tmp_path, text), environ={})
    problems = settings.check_all()
    assert len(problems) == 1 and word in problems[0], problems
    assert problems[0].startswith("settings.toml")


def test_a_remapped_binding_names_its_line(tmp_path):
    text = '[keys]\npreset = "vim"\n"cubelab.solve" = "f5,ctrl+s"\ncubelab.compare = "ctrl+s"\n'
    settings = Settings.load(write(tmp_path, text), environ={})
    assert settings.check_all() == ["settings.toml:4: Ctrl+S is given to both cubelab.solve "
                                    "and cubelab.compare; cubelab.solve keeps it"]
    keymap = settings.keymap()
    assert keymap.of("cubelab.solve") == ("f5", "ctrl+s")
    assert keymap.of("cubelab.compare") == ("f6",)         # what it asked for went elsewhere
    assert keymap.of("cubelab.rows.down") == ("down", "j")  # the preset


def test_the_environment_wins_over_the_file_and_a_bad_one_falls_back_to_it(tmp_path):
    path = write(tmp_path, "[repl]\ntime_limit = 4\nprompt = \"> \"\n")
    settings = Settings.load(path, environ={"CUBELAB_REPL_TIME_LIMIT": "2.5",
                                            "CUBELAB_REPL_PROMPT": "$ ",
                                            "CUBELAB_ANIMATION": "off"})
    assert settings.get("repl.time_limit") == 2.5 and settings.get("repl.prompt") == "$ "
    assert settings.get("animation") is False
    assert settings.sources["repl.time_limit"] == "env"
    bad = Settings.load(path, environ={"CUBELAB_REPL_TIME_LIMIT": "soon"})
    assert bad.get("repl.time_limit") == 4.0
    assert bad.problems == ["CUBELAB_REPL_TIME_LIMIT=soon: must be a number: seconds from 0 "
                            "(no limit) to 86,400; using the file's 4"]


def test_an_unreadable_file_is_one_line_and_the_defaults(tmp_path):
    path = tmp_path / "settings.toml"
    path.write_bytes(b"\xff\xfe theme")
    settings = Settings.load(path, environ={})
    assert settings.problems == ["settings.toml: cannot be read (not UTF-8 text); using the "
                                 "defaults"]
    assert settings.get("theme") == "textual-dark"


@given(st.text(max_size=300))
def test_no_text_crashes_the_reading(text):
    settings = Settings(None, text, {})
    for problem in settings.check_all():
        assert "\n" not in problem
    for setting in SCHEMA:
        assert check(setting, settings.get(setting.key))[1] == ""


def test_the_template_is_toml_with_every_key_commented_out():
    text = template()
    assert tomllib.loads(text) == {table: {} for table in
                                   ("colours", "letters", "workbench", "repl", "solve", "tables",
                                    "keys")}
    for setting in SCHEMA:
        assert f"# {setting.name} = " in text or f'# "{setting.name}" = ' in text
    assert '# "cubelab.solve" = "f5"' in text


def test_writing_a_key_changes_its_line_only(tmp_path):
    path = write(tmp_path, '# my settings\ntheme = "nord"   # dark\n\n[repl]\n# the prompt\n'
                           'prompt = "> "\n')
    set_value("theme", "dracula", path)
    set_value("repl.time_limit", 3.5, path)
    set_value("workbench.restore", "always", path)
    text = path.read_text()
    assert text.startswith('# my settings\ntheme = "dracula"\n\n[repl]\n# the prompt\n'
                           'prompt = "> "\ntime_limit = 3.5\n')
    assert "[workbench]\nrestore = \"always\"" in text
    settings = Settings.load(path, environ={})
    assert settings.check_all() == [] and settings.get("theme") == "dracula"


def test_writing_into_a_missing_file_starts_from_the_template(tmp_path):
    path = tmp_path / "new" / "settings.toml"
    set_value("theme", "gruvbox", path)
    text = path.read_text()
    assert 'theme = "gruvbox"' in text and "# theme = " not in text   # the template's line
    assert Settings.load(path, environ={}).get("theme") == "gruvbox"


def test_a_broken_file_is_never_written_over(tmp_path):
    path = write(tmp_path, "theme = \n")
    with pytest.raises(SettingsError, match="not valid TOML"):
        set_value("theme", "nord", path)
    assert path.read_text() == "theme = \n"


def test_show_says_where_each_value_comes_from(tmp_path):
    path = write(tmp_path, "[repl]\nprompt = \"> \"\n")
    text = show(Settings.load(path, environ={"CUBELAB_THEME": "nord"}))
    assert 'theme = "nord"' in text and "from CUBELAB_THEME" in text
    assert 'prompt = "> "' in text and "from the file" in text
    assert tomllib.loads("\n".join(line.split("  #")[0] for line in text.splitlines()))


# ---- cubelab config ---------------------------------------------------------------------------

def test_config_path_validate_and_show(fresh_dirs, capsys):
    assert main(["config", "path"]) == 0
    assert capsys.readouterr().out.strip() == str(settings_path())
    assert str(settings_path()).startswith(str(fresh_dirs / "config"))
    assert main(["config", "validate"]) == 0
    settings_path().parent.mkdir(parents=True)
    settings_path().write_text("[repl]\ntime_limit = 0\nhistory_size = -1\n")
    assert main(["config", "validate"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["cubelab: settings.toml:3: repl.history_size = -1: must be a whole number "
                   "from 0 to 1,000,000; using the default (1000)"]
    assert main(["config", "show"]) == 0
    assert "time_limit = 0" in capsys.readouterr().out


def test_config_edit_opens_the_editor_then_validates(fresh_dirs, tmp_path, monkeypatch, capsys):
    editor = tmp_path / "editor.py"
    # the editor adds a line under the template's last table, [keys]
    editor.write_text("import sys\nopen(sys.argv[1], 'a').write('cubelab.nothing = \"f5\"\\n')\n")
    monkeypatch.setenv("VISUAL", f"{sys.executable} {editor}")
    assert main(["config", "edit"]) == 2
    assert "no binding has the id 'cubelab.nothing'" in capsys.readouterr().err
    text = settings_path().read_text()
    assert text.startswith("# cubelab settings.") and text.endswith('nothing = "f5"\n')


# ---- the workbench ----------------------------------------------------------------------------

def test_a_theme_chosen_in_the_workbench_is_kept_in_the_file(tmp_path):
    path = write(tmp_path, "# keep me\n[repl]\nprompt = \"> \"\n")

    async def body():
        app = CubeLabApp(solvers=StandIn(), history=InputHistory(tmp_path / "h"),
                         compare_time_limit=None, settings=Settings.load(path, environ={}))
        async with app.run_test(size=(80, 24)) as pilot:
            assert app.theme == "textual-dark"
            app.theme = "nord"                  # what Ctrl+P's theme list does
            await pilot.pause()
    asyncio.run(body())
    assert Settings.load(path, environ={}).get("theme") == "nord"
    assert path.read_text().startswith("# keep me\n")


def test_the_workbench_starts_with_the_theme_and_says_what_is_wrong(tmp_path):
    path = write(tmp_path, 'theme = "gruvbox"\nsticker_size = "huge"\n')

    async def body():
        app = CubeLabApp(solvers=StandIn(), history=InputHistory(tmp_path / "h"),
                         compare_time_limit=None, settings=Settings.load(path, environ={}))
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert app.theme == "gruvbox"
            return app.query_one("#message").render_line(0).text
    said = asyncio.run(body())
    assert said.startswith("settings.toml:2: sticker_size = \"huge\": must be one of 'auto'")


def test_the_sticker_size_setting_sizes_the_net(tmp_path):
    sizes = {}
    for size in ("small", "auto", "large"):
        path = write(tmp_path, f'sticker_size = "{size}"\n')

        async def body():
            app = CubeLabApp(solvers=StandIn(), history=InputHistory(tmp_path / "h"),
                             compare_time_limit=None,
                             settings=Settings.load(path, environ={}))
            async with app.run_test(size=(130, 40)):
                return app.net.scale
        sizes[size] = asyncio.run(body())
    assert sizes == {"small": 1, "auto": 1, "large": 2}


def test_format_value_reads_back_as_toml():
    for value in ("a \"quoted\" \\ line\n", 3, 2.5, 30.0, True, ["white", "#ff8000"]):
        assert tomllib.loads(f"k = {format_value(value)}")["k"] == value


@pytest.mark.parametrize("kind", ["fifo", "dev-zero", "directory", "huge"])
def test_a_settings_file_that_is_no_regular_file_is_refused_at_once(tmp_path, kind):
    import os
    path = tmp_path / "settings.toml"
    if kind == "fifo":
        os.mkfifo(path)                 # no writer: a plain read would wait for ever
    elif kind == "dev-zero":
        path.symlink_to("/dev/zero")
    elif kind == "directory":
        path.mkdir()
    else:
        with open(path, "wb") as f:
            f.truncate(64 << 20)        # sparse: 64 MB of nothing
    settings = Settings.load(path, environ={})
    assert len(settings.problems) == 1 and settings.problems[0].startswith(
        "settings.toml: cannot be read (") and settings.problems[0].endswith("using the defaults")
    assert settings.get("theme") == "textual-dark"
    with pytest.raises(SettingsError, match="cannot read"):
        set_value("theme", "nord", path)
