"""`cubelab config path|show|edit|validate`: where the settings file is, what is in force, editing it.

`path` prints the file's path (it need not exist); `show` prints every setting in force as TOML
with where its value comes from (default, the file, the environment); `edit` opens the file in
$VISUAL or $EDITOR (made from the template, every key commented out, when missing) and checks
it when the editor closes; `validate [FILE]` checks the file (or FILE) and the CUBELAB_*
variables: one line per problem on stderr and exit 2, or "ok".
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

from .errors import InputError


def register(sub) -> None:
    p = sub.add_parser("config", help="the settings file: path, show, edit, validate")
    p.add_argument("action", choices=("path", "show", "edit", "validate"),
                   help="path: where it is; show: what is in force; edit: open it in $VISUAL or "
                        "$EDITOR, then check it; validate: check it")
    p.add_argument("file", nargs="?", type=Path,
                   help="validate or show this file instead of the settings file")
    p.set_defaults(func=run)


def _by_line(problem: str) -> tuple[int, str]:
    """Problems in the order of the file's lines (the environment's after them)."""
    match = re.match(r"[^:]*:(\d+):", problem)
    return (int(match.group(1)) if match else 1 << 30, problem)


def _report(settings) -> int:
    problems = sorted(settings.check_all(), key=_by_line)
    for problem in problems:
        print(f"cubelab: {problem}", file=sys.stderr)
    if problems:
        return 2
    print(f"{settings.path}: ok")
    return 0


def _editor() -> list[str]:
    for variable in ("VISUAL", "EDITOR"):
        value = os.environ.get(variable, "").strip()
        if value:
            return shlex.split(value)
    for fallback in ("sensible-editor", "nano", "vi"):
        if shutil.which(fallback):
            return [fallback]
    raise InputError("no editor: set $VISUAL or $EDITOR (cubelab config path says where the "
                     "file is)")


def run(args) -> int:
    from .settings import Settings, SettingsError, settings_path, show, template, \
        write_atomically
    path = args.file if args.file is not None else settings_path()
    if args.action == "path":
        print(path)
        return 0
    if args.action == "show":
        settings = Settings.load(path)
        print(show(settings))
        for problem in sorted(settings.problems, key=_by_line):
            print(f"cubelab: {problem}", file=sys.stderr)
        return 0
    if args.action == "validate":
        if args.file is not None and not path.exists():
            raise InputError(f"no file {path}")
        return _report(Settings.load(path))
    if not path.exists():
        try:
            write_atomically(path, template())
        except SettingsError as e:
            raise InputError(str(e)) from None
    editor = _editor()
    try:
        done = subprocess.run([*editor, str(path)])
    except OSError as e:
        raise InputError(f"cannot run the editor {editor[0]}: {e.strerror}") from None
    if done.returncode != 0:
        print(f"cubelab: the editor ended with status {done.returncode}", file=sys.stderr)
    return _report(Settings.load(path))
