"""A non-editable install works: the checkout builds into an sdist, the sdist into a wheel, and
the wheel, installed in a fresh virtual environment, runs from another directory.

The wheel must hold every package under cube/, tables/, solvers/ and tui/ (as cubelab.*) and
every file the code reads beside its modules, and no generic top-level name (`cube`,
`tables`). The fresh environment gets the dependencies without a download: a .pth line
appends this interpreter's site-packages after its own. That line adds a directory and
processes no .pth file in it, so the editable install's finder stays out: the wheel's copy is
the one imported, and the test checks that it is.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import venv
import zipfile
from pathlib import Path

import pytest

from cubelab.cube.moves import apply_moves
from cubelab.cube.notation import parse_moves
from cubelab.cube.positions import parse_position

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ("cube", "tables", "solvers", "tui")
GENERIC = ("cube", "tables", "solvers", "tui", "tests", "bench")

pytestmark = pytest.mark.skipif(not (ROOT / "pyproject.toml").exists(),
                                reason="needs the source checkout")


def tree_files() -> set[str]:
    """The files of the four folders as a wheel names them (cubelab/<folder>/...): sources and
    data, without caches and hidden files."""
    found = set()
    for folder in FOLDERS:
        for path in (ROOT / folder).rglob("*"):
            rel = path.relative_to(ROOT)
            if (path.is_file() and "__pycache__" not in rel.parts
                    and not any(part.startswith(".") for part in rel.parts)
                    and path.suffix not in (".pyc", ".pyo")):
                found.add("cubelab/" + rel.as_posix())
    return found


def _hook(hook: str, cwd: Path, out: Path) -> Path:
    """Run a PEP 517 hook of setuptools (the build backend pyproject.toml names) in `cwd`."""
    done = subprocess.run(
        [sys.executable, "-c",
         f"import sys, setuptools.build_meta as b; print(b.{hook}(sys.argv[1]))", str(out)],
        cwd=cwd, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    return out / done.stdout.strip().splitlines()[-1]


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """(sdist, wheel, venv directory) built from the checkout and installed."""
    base = tmp_path_factory.mktemp("install")
    dist = base / "dist"
    dist.mkdir()
    # a copy without what earlier builds and installs left (an egg-info's SOURCES.txt from
    # another configuration would feed the sdist files the configuration does not name)
    checkout = base / "checkout"
    shutil.copytree(ROOT, checkout, ignore=shutil.ignore_patterns(
        ".git", ".venv", "venv", "*.egg-info", "build", "dist", "__pycache__", ".pytest_cache",
        ".hypothesis", "results"))
    sdist = _hook("build_sdist", checkout, dist)
    with tarfile.open(sdist) as tar:
        safe = {"filter": "data"} if hasattr(tarfile, "data_filter") else {}   # 3.11.4+
        tar.extractall(base / "unpacked", **safe)
    (source,) = (base / "unpacked").iterdir()
    wheel = _hook("build_wheel", source, dist)      # the wheel as pip would build it from PyPI

    env_dir = base / "venv"
    venv.EnvBuilder(with_pip=False).create(env_dir)
    python = env_dir / "bin" / "python"
    done = subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install",
                           "--no-deps", "--no-index", "--quiet", str(wheel)],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    site = Path(subprocess.run([str(python), "-c", "import sysconfig; print("
                                "sysconfig.get_paths()['purelib'])"],
                               capture_output=True, text=True, check=True).stdout.strip())
    ours = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    (site / "zz_test_dependencies.pth").write_text("\n".join(sorted(ours)) + "\n")
    return sdist, wheel, env_dir, site


def test_the_wheel_holds_every_package_and_data_file_and_no_generic_name(installed):
    _, wheel, _, _ = installed
    names = set(zipfile.ZipFile(wheel).namelist())
    top = {name.split("/")[0] for name in names}
    assert top == {"cubelab", "cubelab-0.1.0.dist-info"}, top
    assert {name for name in names if name.startswith("cubelab/")} == tree_files()
    (top_level,) = (name for name in names if name.endswith("top_level.txt"))
    assert zipfile.ZipFile(wheel).read(top_level).decode().split() == ["cubelab"]


def test_the_sdist_holds_the_sources_and_the_whole_test_suite(installed):
    sdist, _, _, _ = installed
    with tarfile.open(sdist) as tar:
        names = {"/".join(name.split("/")[1:]) for name in tar.getnames()}
    assert {"cubelab/" + name for name in names
            if name.split("/")[0] in FOLDERS and "." in name.rsplit("/", 1)[-1]} == tree_files()
    for needed in ("pyproject.toml", "setup.py", "README.md", "tests/conftest.py",
                   "tests/helpers_model.py", "tests/test_install.py"):
        assert needed in names, needed


def test_the_installed_packages_are_the_trees(installed):
    _, _, _, site = installed
    files = {path.relative_to(site).as_posix() for path in (site / "cubelab").rglob("*")
             if path.is_file() and "__pycache__" not in path.parts}
    assert files == tree_files()
    for name in GENERIC:
        assert not (site / name).exists(), f"a generic top-level name was installed: {name}"


def test_the_installed_command_runs_and_solves_from_another_directory(installed, tmp_path):
    _, _, env_dir, site = installed
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    for name in ("DATA", "CACHE", "STATE"):
        env[f"CUBELAB_{name}_DIR"] = str(tmp_path / name.lower())
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()

    def run(*args: str, timeout: float = 600) -> subprocess.CompletedProcess:
        return subprocess.run(args, cwd=elsewhere, env=env, capture_output=True, text=True,
                              timeout=timeout)

    python, cubelab = env_dir / "bin" / "python", env_dir / "bin" / "cubelab"
    where = run(str(python), "-c", "import cubelab.tui.cli as m; print(m.__file__)")
    assert where.returncode == 0, where.stderr
    assert Path(where.stdout.strip()).is_relative_to(site), where.stdout   # not the checkout

    helped = run(str(cubelab), "--help")
    assert helped.returncode == 0, helped.stderr
    assert "usage: cubelab" in helped.stdout

    # CFOP reads its last-layer cases (a JSON file beside its module) and builds its tables
    scramble = "R U R' U' F2 D L'"
    solved = run(str(cubelab), "solve", "--solver", "cfop", "--json", scramble)
    assert solved.returncode == 0, solved.stderr
    record = json.loads(solved.stdout)
    assert record["verified"] is True
    state = parse_position(scramble).state
    assert apply_moves(state, parse_moves(record["solution"])).is_solved()

    # the workbench starts: its stylesheet (app.tcss, beside app.py) is read at start-up
    started = run(str(python), "-c",
                  "import asyncio\n"
                  "from cubelab.tui.app import CubeLabApp\n"
                  "async def main():\n"
                  "    app = CubeLabApp()\n"
                  "    async with app.run_test(size=(100, 30)) as pilot:\n"
                  "        await pilot.press('R', 'enter')\n"
                  "        await pilot.pause()\n"
                  "        print(len(app.session.moves), app.session.state.is_solved())\n"
                  "asyncio.run(main())\n")
    assert started.returncode == 0, started.stderr
    assert started.stdout.split() == ["1", "False"], started.stdout
