"""Every key binding of the workbench by id, its default keys, the presets, and the user's remapping.

Each binding the workbench declares has an id here ("cubelab.solve"), the keys it has by
default and a line saying what it does; the widgets build their Textual `Binding`s from this
table (`binding(id, action)`), and `resolve` turns a preset and the user's `[keys]` table of the
settings file (id = "key,key2") into the keys actually bound: what Textual's keymap is given
(App.set_keymap), and what F1 and the palette show. The keyboard cube's keys are bindings of
the net too ("cubelab.cube.R'" = "k"), the cubing.js QWERTY map by default (tui/keymap.py).
Textual-free except `binding()`, so `cubelab config validate` can check a file quickly.

A scope is one widget's set of bindings: a key taken over in a scope leaves the binding that
had it there (as Textual's keymap does), while a key of the focused widget shadows the same key
of the workbench (the net's letters turn the cube, the line's arrows walk the history).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from .keymap import KEY_MOVES


@dataclass(frozen=True)
class KeyBinding:
    """One binding: its id, default keys (Textual's names, comma-separated), what it does,
    and the scope (widget) it belongs to."""

    id: str
    keys: str
    what: str
    scope: str


def _cube_bindings() -> list[KeyBinding]:
    """The keyboard cube: one binding per move, its keys from the cubing.js map (upper case
    too: Shift or Caps Lock turns the same)."""
    by_move: dict[str, list[str]] = {}
    for character, move in KEY_MOVES.items():
        keys = by_move.setdefault(move, [])
        keys.append(_key_name(character))
        if character.isalpha():
            keys.append(character.upper())
    return [KeyBinding(f"cubelab.cube.{move}", ",".join(keys), f"turn {move}", "net")
            for move, keys in by_move.items()]


_KEY_RENAMES = {"solidus": "slash", "reverse_solidus": "backslash", "commercial_at": "at",
                "hyphen_minus": "minus", "plus_sign": "plus", "low_line": "underscore"}
"""Where Textual's key name is not the character's Unicode name."""


def _key_name(character: str) -> str:
    """Textual's name of the key that types `character` ("," is "comma", "/" is "slash"):
    a letter or digit itself, else its Unicode name in Textual's spelling. Kept here, not
    asked of textual.keys, whose import (the whole textual package, 0.13 s) every command
    that reads the settings paid."""
    if character.isalnum():
        return character
    try:
        key = unicodedata.name(character).lower().replace("-", "_").replace(" ", "_")
    except ValueError:      # a control character has no name
        key = "tab" if character == "\t" else character
    return _KEY_RENAMES.get(key, key)


BINDINGS: dict[str, KeyBinding] = {b.id: b for b in [
    KeyBinding("cubelab.help", "f1", "this help", "workbench"),
    KeyBinding("cubelab.letters", "f2", "sticker letters on/off", "workbench"),
    KeyBinding("cubelab.paint", "f3", "paint mode (on the net)", "workbench"),
    KeyBinding("cubelab.puzzle", "f4", "switch between the 3x3x3 and the 2x2x2 (:puzzle)",
               "workbench"),
    KeyBinding("cubelab.solve", "f5", "solve (:solve)", "workbench"),
    KeyBinding("cubelab.compare", "f6", "compare solvers (:compare)", "workbench"),
    KeyBinding("cubelab.lists", "f7",
               "show the solver table, the list solve's solutions or the search results",
               "workbench"),
    KeyBinding("cubelab.view", "f8",
               "the net, the cube in 3-D (U F R), its back (D L B), in turn (:view)",
               "workbench"),
    KeyBinding("cubelab.fmc_inverse", "f10",
               "FMC: show the inverse side (the inverse scramble), again the normal side "
               "(:fmc inverse)", "workbench"),
    KeyBinding("cubelab.undo", "ctrl+z", "undo", "workbench"),
    KeyBinding("cubelab.redo", "ctrl+y", "redo", "workbench"),
    KeyBinding("cubelab.cancel", "escape",
               "clear the line; on an empty line: stop the solvers' searches and :search, "
               "leave paint mode or playback (a table build goes on)", "workbench"),
    KeyBinding("cubelab.cancel_build", "f9",
               "cancel a table build (asks first; the tables built stay, a large one's "
               "checkpoint too)", "workbench"),
    KeyBinding("cubelab.clear_old", "ctrl+l",
               "clear the solver rows of previous positions (:clear)", "workbench"),
    KeyBinding("cubelab.restore", "ctrl+r",
               "restore the last session (while the start offers it)", "workbench"),
    KeyBinding("cubelab.screenshot", "f12", "save a screenshot (SVG)", "workbench"),
    KeyBinding("cubelab.palette", "ctrl+p", "command palette", "workbench"),
    KeyBinding("cubelab.quit", "ctrl+q", "quit (the session is kept for next time)",
               "workbench"),
    KeyBinding("cubelab.line.previous", "up", "input history: the line before", "line"),
    KeyBinding("cubelab.line.next", "down", "input history: the line after", "line"),
    KeyBinding("cubelab.line.complete", "tab",
               "complete a command (or move focus on when there is nothing to complete)",
               "line"),
    KeyBinding("cubelab.net.commit", "enter",
               "paint mode: use the painting; playback: keep the position reached", "net"),
    *_cube_bindings(),
    KeyBinding("cubelab.rows.play", "p", "step through the highlighted row on the net",
               "rows"),
    KeyBinding("cubelab.rows.view", "v", "the highlighted row's whole text in a pane", "rows"),
    KeyBinding("cubelab.rows.down", "down", "the next row", "table"),
    KeyBinding("cubelab.rows.up", "up", "the row before", "table"),
    KeyBinding("cubelab.rows.first", "ctrl+home", "the first row", "table"),
    KeyBinding("cubelab.rows.last", "ctrl+end", "the last row", "table"),
    KeyBinding("cubelab.help.close", "escape,f1,q", "close the help", "help"),
    KeyBinding("cubelab.pane.close", "escape,q", "close the output pane", "pane"),
    KeyBinding("cubelab.pane.down", "down", "scroll the help or the output pane down",
               "pane"),
    KeyBinding("cubelab.pane.up", "up", "scroll the help or the output pane up", "pane"),
    KeyBinding("cubelab.answer.yes", "y", "answer yes (build the tables, cancel the build)",
               "question"),
    KeyBinding("cubelab.answer.no", "n,escape", "answer no", "question"),
]}
"""Every binding by id, in the order F1 lists them."""

PRESETS: dict[str, dict[str, str]] = {
    "default": {},
    "vim": {
        "cubelab.rows.down": "down,j", "cubelab.rows.up": "up,k",
        "cubelab.rows.first": "ctrl+home,g", "cubelab.rows.last": "ctrl+end,G",
        "cubelab.pane.down": "down,j", "cubelab.pane.up": "up,k",
    },
}
"""Keymaps applied over the defaults before the user's own [keys]; "default" is the keys of
the BINDINGS table (the keyboard cube: the cubing.js QWERTY map)."""


def binding(binding_id: str, action: str, description: str = "", *, show: bool = False,
            priority: bool = False):
    """The Textual Binding of `binding_id` (its default keys) running `action`."""
    from textual.binding import Binding
    return Binding(BINDINGS[binding_id].keys, action, description, show=show,
                   priority=priority, id=binding_id)


# ---------------------------------------------------------------- keys users write

_MODIFIERS = ("ctrl", "shift", "alt", "meta", "super", "hyper")


def _named_keys() -> set[str]:
    from textual.keys import Keys
    names = {k.value.rpartition("+")[2] for k in Keys if not k.value.startswith("<")}
    names |= {_key_name(chr(c)) for c in range(33, 127)}
    return names - {"return"} | {"space"}


def normal_key(text: str) -> str | None:
    """A key as the user wrote it ("Ctrl+S", "F5", ",", "G") in Textual's spelling, or None
    when it names no key. A single character keeps its case ("G" is Shift+G)."""
    text = text.strip()
    if len(text) == 1:
        return _key_name(text) if text.isprintable() and not text.isspace() else None
    *mods, base = text.lower().split("+") if "+" in text[:-1] else [text.lower()]
    if any(m not in _MODIFIERS for m in mods) or len(set(mods)) != len(mods):
        return None
    if mods == ["shift"] and len(base) == 1 and base.isalpha():
        return base.upper()             # what a terminal sends for Shift+G is "G"
    if len(base) == 1:
        base = _key_name(base)
    elif base == "esc":
        base = "escape"
    if base not in _named_keys():
        return None
    return "+".join([*(m for m in _MODIFIERS if m in mods), base])


def display_key(key: str) -> str:
    """A key as F1 and the palette show it, as keycaps print it: "Ctrl+Z", "F5", "Esc", ",",
    "G" (the g key), "Shift+G"."""
    from textual.keys import key_to_character
    *mods, base = key.split("+") if "+" in key[:-1] else [key]
    shown = {"escape": "Esc", "enter": "Enter", "tab": "Tab", "space": "Space",
             "pageup": "PgUp", "pagedown": "PgDn", "backspace": "Backspace"}.get(base)
    if shown is None:
        character = base if len(base) == 1 else key_to_character(base)
        if character is not None and len(character) == 1 and character.isprintable():
            shown = character.upper()
            if character.isupper() and not mods:
                shown = f"Shift+{character}"
        else:
            shown = base.upper() if re.fullmatch(r"f\d+", base) else base.capitalize()
    return "+".join([*(m.capitalize() for m in mods), shown])


# ---------------------------------------------------------------- the keys actually bound

@dataclass
class KeyMap:
    """The keys bound to every binding id after the preset and the user's [keys]."""

    keys: dict[str, tuple[str, ...]]
    """Binding id -> its keys (Textual's names), in the order given."""
    overrides: dict[str, str]
    """What Textual's keymap is set to: the ids whose keys differ from the defaults."""
    problems: list[str]

    def of(self, binding_id: str) -> tuple[str, ...]:
        return self.keys.get(binding_id, ())

    @staticmethod
    def what(binding_id: str) -> str:
        """What the binding does, in a few words."""
        return BINDINGS[binding_id].what

    def shown(self, binding_id: str, fold_case: bool = False) -> str:
        """The keys of a binding as the help shows them ("Ctrl+Z", "I/K" on the cube)."""
        keys = self.of(binding_id)
        if fold_case:
            keys = tuple(dict.fromkeys(k.lower() if len(k) == 1 else k for k in keys))
            return "/".join(display_key(k) for k in keys) or "(none)"
        return ",".join(display_key(k) for k in keys) or "(none)"


def resolve(preset: str = "default", user: dict[str, str] | None = None,
            where=lambda binding_id: "keys") -> KeyMap:
    """The keys bound after `preset` and the user's `[keys]` (id -> "key,key2"). A bad id or
    key is left out with one line in `problems` naming it; `where(id)` starts the line (the
    file and line the binding was set on)."""
    problems: list[str] = []
    asked: dict[str, tuple[str, ...]] = {}
    for binding_id, text in {**PRESETS.get(preset, {}), **(user or {})}.items():
        if binding_id not in BINDINGS:
            close = [b for b in BINDINGS if b.endswith("." + binding_id.rpartition(".")[2])]
            hint = f" (did you mean {close[0]}?)" if close else ""
            problems.append(f"{where(binding_id)}: no binding has the id {binding_id!r}{hint}; "
                            "ignored")
            continue
        if not isinstance(text, str) or not text.strip():
            problems.append(f"{where(binding_id)}: {binding_id} must be keys in quotes, such "
                            "as \"f5\" or \"ctrl+s,f5\"; ignored")
            continue
        keys, bad = [], []
        for part in text.split(","):
            key = normal_key(part) if part.strip() else None
            (keys if key else bad).append(key or part.strip() or "(empty)")
        if bad:
            problems.append(f"{where(binding_id)}: {binding_id} = {text!r}: "
                            f"{', '.join(map(repr, bad))} names no key (keys: f5, ctrl+s, "
                            "escape, up, a, comma...); ignored")
            continue
        if binding_id.startswith("cubelab.cube."):
            # the keyboard cube turns the same with Shift or Caps Lock
            keys += [k.upper() for k in keys if len(k) == 1 and k.islower()]
        asked[binding_id] = tuple(dict.fromkeys(keys))
    keys = {b.id: tuple(b.keys.split(",")) for b in BINDINGS.values()}
    for scope in dict.fromkeys(b.scope for b in BINDINGS.values()):
        ids = [i for i, b in BINDINGS.items() if b.scope == scope]
        taken: dict[str, str] = {}
        for binding_id in ids:
            for key in asked.get(binding_id, ()):
                if key in taken and taken[key] != binding_id:
                    problems.append(f"{where(binding_id)}: {display_key(key)} is given to both "
                                    f"{taken[key]} and {binding_id}; {taken[key]} keeps it")
                taken.setdefault(key, binding_id)
        for binding_id in ids:
            mine = tuple(k for k in asked.get(binding_id, ()) if taken.get(k) == binding_id)
            # a default key another binding of the scope took over goes with it (as in
            # Textual's keymap); a binding whose every key went keeps its defaults' rest
            keys[binding_id] = mine or tuple(k for k in keys[binding_id] if k not in taken)
    overrides = {i: ",".join(k) for i, k in keys.items()
                 if k != tuple(BINDINGS[i].keys.split(",")) and i in asked}
    return KeyMap(keys, overrides, problems)


if __name__ == "__main__":
    km = resolve("vim")
    for b in BINDINGS.values():
        print(f"{b.id:28} {km.shown(b.id):20} {b.what}")
