"""numba's cache: keyed by every source a kernel can reach, placed under our cache directory, and
every kernel decorated from the one module that places it (cubelab.tables.jit)."""

import os
import re
import shutil
import subprocess
import sys
import textwrap

import pytest

from cubelab.cube.paths import KERNEL_SOURCES, package_root, source_fingerprint

ROOT = package_root()


@pytest.fixture
def tree(tmp_path):
    """A copy of the kernel sources (cube/, tables/, solvers/) and of tui/."""
    for folder in KERNEL_SOURCES + ("tui",):
        shutil.copytree(ROOT / folder, tmp_path / folder,
                        ignore=shutil.ignore_patterns("__pycache__"))
    return tmp_path


def edit(path, text="\n# edited\n"):
    with open(path, "a") as f:
        f.write(text)


@pytest.mark.parametrize("module", [
    "tables/korf/pdb.py",            # a table kernel two packages down
    "solvers/korf/lanes.py",         # the lane machinery the Korf kernels inline
    "tables/packed.py",              # a top-level callee
    "cube/pieces.py",                # constants the kernels' modules freeze in
])
def test_changing_any_reachable_source_changes_the_key(tree, module):
    before = source_fingerprint(root=tree)
    assert source_fingerprint(root=tree) == before          # the key is stable
    edit(tree / module)
    assert source_fingerprint(root=tree) != before


def test_a_new_module_in_a_subpackage_changes_the_key(tree):
    before = source_fingerprint(root=tree)
    (tree / "solvers" / "korf" / "extra.py").write_text("X = 1\n")
    assert source_fingerprint(root=tree) != before


def test_the_front_ends_and_compiled_files_do_not_change_the_key(tree):
    before = source_fingerprint(root=tree)
    edit(tree / "tui" / "cli.py")
    (tree / "tables" / "korf" / "__pycache__").mkdir()
    (tree / "tables" / "korf" / "__pycache__" / "pdb.cpython-311.pyc").write_bytes(b"x")
    assert source_fingerprint(root=tree) == before


def test_moving_bytes_between_files_changes_the_key(tree):
    """The names and lengths delimit the files: the same bytes split differently differ."""
    a, b = tree / "tables" / "korf" / "pdb.py", tree / "tables" / "korf" / "coords.py"
    before = source_fingerprint(root=tree)
    tail = a.read_bytes()[-40:]
    a.write_bytes(a.read_bytes()[:-40])
    b.write_bytes(tail + b.read_bytes())
    assert source_fingerprint(root=tree) != before


def test_library_versions_are_part_of_the_key(tree):
    assert source_fingerprint("numba 0.60", root=tree) != source_fingerprint("numba 0.61",
                                                                             root=tree)


def _kernel_modules():
    for folder in ("tables", "solvers"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            if "cubelab.tables.jit import" in path.read_text():
                yield path


def test_every_kernel_comes_from_the_one_decorator_module():
    """No kernel spells njit itself (its cache options would drift), and every module with
    kernels lies under the folders the key hashes."""
    modules = list(_kernel_modules())
    assert len(modules) > 30
    for folder in ("cube", "tables", "solvers", "tui"):
        for path in (ROOT / folder).rglob("*.py"):
            if path.name == "jit.py" and path.parent.name == "tables":
                continue
            assert not re.search(r"\bnjit\b|\bjit\(", path.read_text()), path
    for path in modules:
        assert path.relative_to(ROOT).parts[0] in KERNEL_SOURCES


def _run(code, env):
    out = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], env=env,
                         capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    return out.stdout.split()


def test_the_cache_lands_under_our_cache_directory_keyed(tmp_path):
    """Even with numba imported first (it reads NUMBA_CACHE_DIR at import), a kernel caches
    under <cache dir>/numba/<key>."""
    env = {**os.environ, "CUBELAB_CACHE_DIR": str(tmp_path / "cache")}
    env.pop("NUMBA_CACHE_DIR", None)
    placed, key, chosen = _run("""
        import numba
        from cubelab.tables.jit import CACHE_DIR, cache_key
        from cubelab.tables.ranks import rank_placement
        import numpy as np
        rank_placement(np.arange(4, dtype=np.int64), 4, 12)
        print(CACHE_DIR, cache_key(), numba.config.CACHE_DIR)
    """, env)
    assert placed == chosen == str(tmp_path / "cache" / "numba" / key)
    written = [p.name for p in (tmp_path / "cache" / "numba" / key).rglob("*")]
    assert any(name.startswith("ranks.rank_placement") and name.endswith(".nbi")
               for name in written), written


def test_a_cache_directory_the_user_names_is_kept(tmp_path):
    env = {**os.environ, "CUBELAB_CACHE_DIR": str(tmp_path / "cache"),
           "NUMBA_CACHE_DIR": str(tmp_path / "mine")}
    placed, = _run("from cubelab.tables.jit import CACHE_DIR; print(CACHE_DIR)", env)
    assert placed == str(tmp_path / "mine")
