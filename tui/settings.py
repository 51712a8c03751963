"""The settings file: reading it (never a crash), the environment over it, and writing one key back.

The file is TOML in the configuration directory (`settings.toml` under platformdirs' config
dir, or CUBELAB_CONFIG_DIR); every key is declared in settings_schema.py. What is in force
comes in this order, each over the one before: the defaults, the file, the CUBELAB_* variables
of the environment, the command-line flags (the front ends apply those). A value that is
wrong costs one line naming the key and the line (`settings.toml:12: repl.time_limit = -3:
must be ...; using the default (10)`), and that key keeps the value from below it; a file
that is not TOML at all costs one line, and the defaults hold. A key is checked when it is
first asked for (`get`), so a front end pays only for what it reads: checking the table sets
loads the table engine. The program writes back only the keys it owns (the theme chosen in
Ctrl+P): one line of the file changed in place, the rest of it, comments too, as it was.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from cubelab.cube.files import FileProblem, read_small_file, write_small_file
from cubelab.cube.paths import config_dir

from .bindings import BINDINGS, KeyMap, resolve
from .settings_schema import BY_KEY, SCHEMA, TABLES, Setting, check, format_key, \
    format_value, from_env

SETTINGS_FILE = "settings.toml"
MAX_SETTINGS_BYTES = 256 << 10
"""A larger file is not read: a settings file is a few dozen lines."""

KEYS_TABLE = "keys"
"""The table that holds `preset` and the remapped bindings (id = "key,key2")."""


def settings_path() -> Path:
    return config_dir() / SETTINGS_FILE


class SettingsError(ValueError):
    """The settings file cannot be written as asked (the message says why)."""


class Settings:
    """The settings in force: `get(key)` is the value to use, checked on first use; `problems`
    holds one line for each thing that was wrong (so far: `check_all()` checks every key)."""

    def __init__(self, path: Path | None = None, text: str | None = None,
                 environ: dict[str, str] | None = None, problems: list[str] | None = None):
        self.path = path
        self.where = path.name if path is not None else SETTINGS_FILE
        self.problems: list[str] = list(problems or [])
        self._file_raw: dict[str, tuple[object, str]] = {}  # key -> (value, where it was read)
        self._env_raw: dict[str, tuple[object, str]] = {}
        self._values: dict[str, object] = {}
        self.sources: dict[str, str] = {}
        """Key -> "default", "file" or "env": where the value in force comes from."""
        self.user_keys: dict[str, tuple[str, str]] = {}     # binding id -> (keys, where)
        self._keymap: KeyMap | None = None
        if text:
            self._read_text(text)
        for setting in SCHEMA:
            variable = (environ if environ is not None else os.environ).get(setting.env)
            if variable is not None and variable.strip():
                self._env_raw[setting.key] = (from_env(setting, variable),
                                              f"{setting.env}={variable}")

    # ---- reading ----------------------------------------------------------------------------
    @classmethod
    def load(cls, path: Path | None = None, environ: dict[str, str] | None = None) -> "Settings":
        """The settings of the file at `path` (the settings file by default) and the
        environment; never raises: what cannot be read is a line in `problems`."""
        path = path if path is not None else settings_path()
        try:
            text = read_small_file(path, MAX_SETTINGS_BYTES).decode("utf-8")
        except FileNotFoundError:
            return cls(path, None, environ)
        except (OSError, FileProblem, UnicodeDecodeError) as e:
            reason = getattr(e, "strerror", None) or (
                "not UTF-8 text" if isinstance(e, UnicodeDecodeError) else str(e))
            return cls(path, None, environ,
                       [f"{path.name}: cannot be read ({reason}); using the defaults"])
        return cls(path, text, environ)

    @classmethod
    def defaults(cls) -> "Settings":
        """Every setting at its default (no file, no environment): what tests start from."""
        return cls(None, None, {})

    def _read_text(self, text: str) -> None:
        import tomllib      # only with a settings file (the first frame may do without)
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as e:
            self.problems.append(f"{self.where}: not valid TOML ({e}); using the defaults")
            return
        lines = key_lines(text)
        for key, value in _flatten(data):
            where = f"{self.where}:{lines.get(key, '?')}"
            table, _, name = key.partition(".")
            if table == KEYS_TABLE and key not in BY_KEY:
                self.user_keys[name] = (value, where)
            elif key in BY_KEY:
                self._file_raw[key] = (value, where)
            else:
                self.problems.append(f"{where}: unknown setting {key!r}{_close(key)}; ignored")

    # ---- what is in force ---------------------------------------------------------------------
    def get(self, key: str) -> object:
        """The value of setting `key` in force (checked the first time it is asked for)."""
        if key not in self._values:
            self._values[key] = self._settle(BY_KEY[key])
        return self._values[key]

    def _settle(self, setting: Setting) -> object:
        fallback, source = setting.default, "default"
        for raw, layer in ((self._file_raw.get(setting.key), "file"),
                           (self._env_raw.get(setting.key), "env")):
            if raw is None:
                continue
            value, where = raw
            good, problem = check(setting, value)
            if problem:
                shown = format_value(value) if not isinstance(value, str) or layer == "file" \
                    else value
                said = where if layer == "env" else f"{where}: {setting.key} = {shown}"
                self.problems.append(f"{said}: {problem}; using "
                                     + (f"the default ({format_value(fallback)})"
                                        if source == "default"
                                        else f"the file's {format_value(fallback)}"))
                continue
            fallback, source = good, layer
        self.sources[setting.key] = source
        return fallback

    def __getitem__(self, key: str) -> object:
        return self.get(key)

    def keymap(self) -> KeyMap:
        """The keys bound after `keys.preset` and the file's [keys] table."""
        if self._keymap is None:
            user = {i: v for i, (v, _) in self.user_keys.items()}
            preset = f"{self.where} [keys] preset"
            km = resolve(self.get("keys.preset"), user,
                         where=lambda i: self.user_keys.get(i, (None, preset))[1])
            self.problems.extend(km.problems)
            self._keymap = km
        return self._keymap

    def check_all(self) -> list[str]:
        """Check every key (and the bindings); the problems found."""
        for setting in SCHEMA:
            self.get(setting.key)
        self.keymap()
        return self.problems

    # ---- what the front ends ask ------------------------------------------------------------
    def time_limit(self, front: str) -> float | None:
        """The time limit of a front end ("workbench", "repl", "solve"); None: no limit."""
        return self.get(f"{front}.time_limit") or None

    def solver(self, front: str) -> str | None:
        """The solver a front end runs when none is named; None: its own choice."""
        return self.get(f"{front}.solver") or None

    def default_metric(self) -> str | None:
        """The metric to count in when none is named; None for HTM, which is what each
        solver does by itself when none is named."""
        metric = self.get("metric")
        return None if metric == "htm" else metric

    def table_sets(self) -> dict[str, str]:
        """The table set chosen for each optimal solver (solver -> set; the defaults absent)."""
        chosen = {}
        for setting in SCHEMA:
            if setting.key.startswith("tables."):
                name = self.get(setting.key)
                if name:
                    chosen[setting.key.removeprefix("tables.")] = name
        return chosen

    def colour_scheme(self) -> str | tuple[str, ...]:
        """The cube's colour scheme: "western", "japanese", or the six custom colours
        (U R F D L B) for the renderers that take a scheme."""
        scheme = self.get("colours.scheme")
        return self.get("colours.custom") if scheme == "custom" else scheme

    def letter_scheme(self) -> dict:
        """The blindfolded memo's letters and buffers: {"corners": 24 letters, "edges": 24
        letters, "corner_buffer": "UFR", "edge_buffer": "UF"} (Speffz unless custom)."""
        custom = self.get("letters.scheme") == "custom"
        out = {}
        for part in ("corners", "edges"):
            key = f"letters.{part}"
            out[part] = self.get(key) if custom else BY_KEY[key].default
        out["corner_buffer"] = self.get("letters.corner_buffer")
        out["edge_buffer"] = self.get("letters.edge_buffer")
        return out


def _flatten(data: dict, prefix: str = ""):
    """(dotted key, value) for every value of parsed TOML; [keys] ids keep their dots."""
    for name, value in data.items():
        key = f"{prefix}{name}"
        if isinstance(value, dict):
            yield from _flatten(value, key + ".")
        else:
            yield key, value


def _close(key: str) -> str:
    """' (did you mean X?)' for a key with a known name in another table, or a near spelling."""
    import difflib
    name = key.rpartition(".")[2]
    same = [s.key for s in SCHEMA if s.name == name]
    near = same or difflib.get_close_matches(key, list(BY_KEY), n=1)
    return f" (did you mean {near[0]}?)" if near else ""


# ---------------------------------------------------------------- lines of the file

_KEY_PART = r'(?:[A-Za-z0-9_-]+|"(?:[^"\\]|\\.)*"|\'[^\']*\')'
_KEY_LINE = re.compile(rf'^\s*({_KEY_PART}(?:\s*\.\s*{_KEY_PART})*)\s*=')
_HEADER = re.compile(rf'^\s*\[\s*({_KEY_PART}(?:\s*\.\s*{_KEY_PART})*)\s*\]\s*(?:#.*)?$')


def _dotted(text: str) -> str:
    """The key a TOML key expression names ('a."b.c"' -> 'a.b.c')."""
    import tomllib
    parts = re.findall(_KEY_PART, text)
    return ".".join(tomllib.loads(f"k = {p}")["k"] if p[0] in "\"'" else p for p in parts)


def key_lines(text: str) -> dict[str, int]:
    """The line (1-based) each dotted key is set on, as far as a simple reading can tell."""
    table, out = "", {}
    for number, line in enumerate(text.splitlines(), start=1):
        header = _HEADER.match(line)
        if header:
            table = _dotted(header.group(1))
            continue
        match = _KEY_LINE.match(line)
        if match:
            key = _dotted(match.group(1))
            out.setdefault(f"{table}.{key}" if table else key, number)
    return out


# ---------------------------------------------------------------- writing a key back

def set_value(key: str, value: object, path: Path | None = None) -> Path:
    """Write `key = value` into the settings file (made from the template when missing),
    changing only that line; SettingsError if the file cannot be read or written, or is not
    TOML (the user's file is never overwritten with a guess)."""
    import tomllib
    path = path if path is not None else settings_path()
    setting = BY_KEY[key]
    try:
        text = read_small_file(path, MAX_SETTINGS_BYTES).decode("utf-8")
    except FileNotFoundError:
        text = template()
    except (OSError, FileProblem, UnicodeDecodeError) as e:
        raise SettingsError(f"cannot read {path}: {getattr(e, 'strerror', None) or e}") from None
    try:
        tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise SettingsError(f"{path.name} is not valid TOML ({e}): not changed") from None
    new = _with_value(text, setting, format_value(value))
    try:
        written = _get(tomllib.loads(new), key)
    except (tomllib.TOMLDecodeError, KeyError):
        written = None
    if written != (list(value) if isinstance(value, tuple) else value):
        raise SettingsError(f"cannot change {key} in {path.name} (written in a way this "
                            "program does not edit): set it by hand")
    write_atomically(path, new)
    return path


def _get(data: dict, key: str):
    for part in key.split("."):
        data = data[part]
    return data


def _with_value(text: str, setting: Setting, value: str) -> str:
    lines = text.splitlines()
    at = key_lines(text).get(setting.key)
    if at is not None:
        line = lines[at - 1]
        lines[at - 1] = line[:line.index("=") + 1] + " " + value
        return "\n".join(lines) + "\n"
    start, end = _section(lines, setting.table)
    if start is None:
        lines += ["", f"[{setting.table}]", f"{format_key(setting.name)} = {value}"]
        return "\n".join(lines) + "\n"
    commented = re.compile(rf"^\s*#\s*{re.escape(format_key(setting.name))}\s*=")
    for n in range(start, end):
        if commented.match(lines[n]):            # the template's line, brought to life
            lines[n] = f"{format_key(setting.name)} = {value}"
            return "\n".join(lines) + "\n"
    while end > start and not lines[end - 1].strip():
        end -= 1
    lines.insert(end, f"{format_key(setting.name)} = {value}")
    return "\n".join(lines) + "\n"


def _section(lines: list[str], table: str) -> tuple[int | None, int]:
    """The lines of `table` ("" for the top of the file): (first line after its header, the
    line of the next header); (None, len) when the table has no header."""
    start = 0 if not table else None
    for n, line in enumerate(lines):
        header = _HEADER.match(line) or (line.strip().startswith("[") and line)
        if not header:
            continue
        name = _dotted(header.group(1)) if hasattr(header, "group") else None
        if start is not None:
            return start, n
        if name == table:
            start = n + 1
    return start, len(lines)


def write_atomically(path: Path, text: str) -> None:
    """The settings file replaced whole by `text`; SettingsError if it cannot be."""
    try:
        write_small_file(path, text, mode=0o644)
    except OSError as e:
        raise SettingsError(f"cannot write {path}: {e.strerror}") from None


# ---------------------------------------------------------------- the file a user starts from

def template() -> str:
    """A settings file with every key commented out at its default, and what each does."""
    out = ["# cubelab settings. Uncomment a line to change it; `cubelab config validate` checks",
           "# the file and `cubelab config show` prints what is in force. Order, each over the",
           "# one before: defaults < this file < CUBELAB_* environment < command-line flags.",
           ""]
    for table in ("", *TABLES):
        if table:
            out += [f"[{table}]"]
        for setting in SCHEMA:
            if setting.table != table:
                continue
            out += [f"# {setting.help}", f"#   ({setting.describe_allowed()})",
                    f"# {format_key(setting.name)} = {format_value(setting.default)}"]
        if table == KEYS_TABLE:
            out += ["# Bindings by id, at their default keys (several: \"f5,ctrl+s\"):"]
            out += [f"# {format_value(b.id)} = {format_value(b.keys)}"
                    for b in BINDINGS.values()]
        out.append("")
    return "\n".join(out)


def show(settings: Settings) -> str:
    """What is in force, as TOML a user could paste into the file, with where each value
    comes from."""
    settings.check_all()
    out = [f"# in force: defaults < {settings.path or SETTINGS_FILE} < CUBELAB_* environment"]
    for table in ("", *TABLES):
        if table:
            out += ["", f"[{table}]"]
        for setting in SCHEMA:
            if setting.table == table:
                value = settings.get(setting.key)
                source = settings.sources.get(setting.key, "default")
                note = {"env": f"from {setting.env}", "file": "from the file"}.get(source,
                                                                                     "default")
                line = f"{format_key(setting.name)} = {format_value(value)}"
                out.append(f"{line:40} # {note}")
        if table == KEYS_TABLE:
            keymap = settings.keymap()
            for binding_id, keys in keymap.keys.items():
                changed = binding_id in keymap.overrides
                line = f"{format_value(binding_id)} = {format_value(','.join(keys))}"
                out.append(f"{line:40} # {'remapped' if changed else 'default'}")
    return "\n".join(out)


_CURRENT: Settings | None = None


def current() -> Settings:
    """The settings of this process, read once (the front ends' entry points use it)."""
    global _CURRENT
    if _CURRENT is None:
        _CURRENT = Settings.load()
    return _CURRENT


if __name__ == "__main__":
    print(show(current()))
