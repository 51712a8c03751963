"""`cubelab tables status|build|verify|clear|path` through the command-line entry point."""

import json

import numpy as np
import pytest

from cubelab.tables import catalog, spec as spec_register, store
from cubelab.tables.spec import TableSpec
from cubelab.tables.store import table_path, tables_dir
from cubelab.tui.cli import main


def _cubes(ctx):
    ctx.progress(1, 1)
    return np.arange(10, dtype=np.int32) ** 3


def _doubles(ctx):
    return np.asarray(ctx.load("test.cli.cubes")) * 2


@pytest.fixture
def specs(fresh_dirs, monkeypatch):
    """Two tiny registered tables (one depending on the other) and nothing else."""
    monkeypatch.setattr(catalog, "TABLE_MODULES", ())
    saved = dict(spec_register._specs)
    spec_register._specs.clear()
    store.forget_cache()
    a = spec_register.register(TableSpec("test.cli.cubes", "test", {"n": 10}, _cubes, "cubes",
                                 expected_bytes=400))
    b = spec_register.register(TableSpec("test.cli.doubles", "other", {}, _doubles, "doubles",
                                 deps=("test.cli.cubes",)))
    yield a, b
    spec_register._specs.clear()
    spec_register._specs.update(saved)
    store.forget_cache()


def test_path(specs, capsys):
    assert main(["tables", "path"]) == 0
    assert capsys.readouterr().out.strip() == str(tables_dir())


def test_status_json_then_build_then_status(specs, capsys):
    assert main(["tables", "status", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["name"] for r in rows] == ["test.cli.cubes", "test.cli.doubles"]
    assert not any(r["built"] for r in rows) and rows[0]["bytes"] == 400
    assert rows[0]["solver"] == "test" and rows[0]["path"] == str(table_path(specs[0]))

    assert main(["tables", "build", "test.cli.doubles"]) == 0
    out, err = capsys.readouterr()
    assert "test.cli.doubles: built" in out
    assert "building test.cli.cubes" in err      # the dependency, reported on stderr
    assert table_path(specs[0]).exists() and table_path(specs[1]).exists()

    assert main(["tables", "status"]) == 0
    out = capsys.readouterr().out
    assert "2 of 2 built" in out and "test.cli.doubles" in out and "other" in out


def test_build_all_and_again(specs, capsys):
    assert main(["tables", "build", "--all"]) == 0
    capsys.readouterr()
    store.forget_cache()
    assert main(["tables", "build", "--all"]) == 0
    out = capsys.readouterr().out
    assert "test.cli.cubes: loaded" in out and "test.cli.doubles: loaded" in out


def test_build_needs_names_or_all(specs, capsys):
    assert main(["tables", "build"]) == 2
    assert "--all" in capsys.readouterr().err


@pytest.mark.parametrize("action", ["build", "verify", "clear"])
def test_unknown_name_is_bad_input(specs, capsys, action):
    assert main(["tables", action, "test.cli.nope"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unknown table 'test.cli.nope'" in err


def test_verify_finds_damage(specs, capsys):
    main(["tables", "build", "--all"])
    capsys.readouterr()
    assert main(["tables", "verify"]) == 0
    assert capsys.readouterr().out.splitlines() == ["test.cli.cubes: ok", "test.cli.doubles: ok"]
    path = table_path(specs[0])
    data = bytearray(path.read_bytes())
    data[-1] ^= 1
    path.write_bytes(bytes(data))
    assert main(["tables", "verify", "--json"]) == 1
    rows = {r["name"]: r for r in json.loads(capsys.readouterr().out)}
    assert rows["test.cli.cubes"]["problem"] == "data damaged (checksum mismatch)"
    assert rows["test.cli.doubles"]["ok"]


def test_verify_unbuilt_is_not_a_failure(specs, capsys):
    assert main(["tables", "verify"]) == 0
    assert "not built" in capsys.readouterr().out


def test_clear_some_then_all(specs, capsys):
    main(["tables", "build", "--all"])
    capsys.readouterr()
    assert main(["tables", "clear", "test.cli.cubes"]) == 0
    assert capsys.readouterr().out.strip() == "removed test.cli.cubes"
    assert not table_path(specs[0]).exists() and table_path(specs[1]).exists()
    assert main(["tables", "clear"]) == 0
    assert capsys.readouterr().out.strip() == "removed test.cli.doubles"
    assert main(["tables", "clear"]) == 0
    assert capsys.readouterr().out.strip() == "nothing to remove"


def test_status_when_a_file_needs_rebuilding(specs, capsys):
    main(["tables", "build", "test.cli.cubes"])
    table_path(specs[0]).write_bytes(b"junk" * 100)
    capsys.readouterr()
    main(["tables", "status"])
    assert "needs rebuild: not a cubelab table file" in capsys.readouterr().out


def test_status_lists_the_optimal_solvers_table_sets(fresh_dirs, capsys):
    # a user picks a set by name and size (--tables NAME): status says what each holds
    from cubelab.solvers.korf.sets import SETS
    assert main(["tables", "status"]) == 0
    out = capsys.readouterr().out
    lines = out.split("table sets (", 1)[1].splitlines()
    for korf_set in SETS["htm"]:
        name = korf_set.name
        row = next(line for line in lines if line.split()[:2] == ["korf", name])
        assert "not built" in row and (("(default)" in row) == korf_set.default)
        gb = korf_set.tables().expected_bytes / 1e9
        assert (f"{gb:.1f} GB" if gb >= 1 else " MB") in row
    assert any(line.split()[:2] == ["korf-qtm", "strong-qtm"] for line in lines)
