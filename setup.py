"""Build script: the package list, which pyproject.toml alone cannot spell.

The four folders install under one namespace (`cube/` as `cubelab.cube`, and so on) through a
package-dir mapping, and setuptools' `packages.find` cannot prefix the names it finds. Here every
package under each folder is found and prefixed, so a new subpackage (a solver method, a table
family) is installed without anyone listing it; no generic top-level name (`cube`, `tables`) is
ever installed. Everything else (metadata, dependencies, package data) is in pyproject.toml.
"""

from setuptools import find_packages, setup

FOLDERS = ("cube", "tables", "solvers", "tui")

setup(
    package_dir={f"cubelab.{folder}": folder for folder in FOLDERS},
    packages=[f"cubelab.{folder}" + (f".{sub}" if sub else "")
              for folder in FOLDERS for sub in ("", *find_packages(folder))],
)
