"""The workbench uses Textual through its public names only.

A private attribute of Textual (a leading underscore) can change meaning or type in any
release. The workbench once kept the served app's parent pid as `self._parent`, which is
Textual's weak reference to a node's parent: with Textual 8 every served session ended at
once. Two rules, read from the source of cubelab.tui:
- no class of ours derived from a Textual class defines a name private to its Textual base
  (assigned to self, or a method or class attribute);
- no code of ours reads a private name of Textual's (`x._driver`, `getattr(d, "_key_thread")`)
  unless it is one of our own.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
import re
import sys
import textwrap
import types
from pathlib import Path

import textual
from textual.message_pump import MessagePump

import cubelab.tui as tui

PRIVATE = re.compile(r"^_(?!_)\w+$")


def _is_private(name: str) -> bool:
    return bool(PRIVATE.match(name))


def _modules():
    for info in pkgutil.iter_modules(tui.__path__):
        module = importlib.import_module(f"{tui.__name__}.{info.name}")
        yield module, ast.parse(inspect.getsource(module))


def _textual_privates() -> set[str]:
    """Every private name Textual's own source defines or assigns on self."""
    names = set()
    for path in Path(textual.__file__).parent.rglob("*.py"):
        text = path.read_text(encoding="utf-8", errors="replace")
        names.update(re.findall(r"self\.(_[a-zA-Z]\w*)", text))
        names.update(re.findall(r"def (_[a-zA-Z]\w*)", text))
    return names


def _private_names_of(base: type) -> set[str]:
    """A Textual class's private names: class attributes and methods, and those its
    constructor sets on an instance."""
    names = {name for name in dir(base) if _is_private(name)}
    try:
        names.update(name for name in vars(base()) if _is_private(name))
    except Exception:
        pass    # not constructible without arguments: its class attributes must do
    return names


def _module_named(node: ast.expr, module) -> bool:
    """Whether `node` (a name or a dotted name) is a module, in `module`'s globals or as a
    module imported by that name (os._exit is the standard library's, not Textual's)."""
    dotted = ast.unparse(node)
    value = vars(module).get(dotted.partition(".")[0])
    for part in dotted.split(".")[1:]:
        value = getattr(value, part, None)
    if value is None and dotted in sys.modules:
        value = sys.modules[dotted]
    return isinstance(value, types.ModuleType)


def _named(tree: ast.AST, module) -> set[str]:
    """Private names read or written in `module` (parsed as `tree`): attributes of anything
    but a module, and strings given to getattr, setattr or hasattr."""
    names = set()
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and _is_private(node.attr)
                and not _module_named(node.value, module)):
            names.add(node.attr)
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
              and node.func.id in ("getattr", "setattr", "hasattr") and len(node.args) > 1
              and isinstance(node.args[1], ast.Constant) and isinstance(node.args[1].value, str)
              and _is_private(node.args[1].value)):
            names.add(node.args[1].value)
    return names


def _defined(tree: ast.AST) -> set[str]:
    """Private names our code defines: assigned on self, methods, class attributes."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if isinstance(target, ast.Attribute):
                    names.add(target.attr)
                elif isinstance(target, ast.Name):
                    names.add(target.id)
    return {name for name in names if _is_private(name)}


def test_our_textual_classes_define_no_private_name_of_their_base():
    clashes = []
    for module, _ in _modules():
        for cls in vars(module).values():
            if not (inspect.isclass(cls) and cls.__module__ == module.__name__
                    and issubclass(cls, MessagePump)):
                continue
            base = next(b for b in cls.__mro__ if not b.__module__.startswith("cubelab."))
            ours = _defined(ast.parse(textwrap.dedent(inspect.getsource(cls))))
            for name in sorted(ours & _private_names_of(base)):
                clashes.append(f"{cls.__qualname__}.{name} is {base.__name__}'s own")
    assert not clashes, clashes


def test_no_private_name_of_textual_is_read():
    ours = set()
    trees = list(_modules())
    for _, tree in trees:
        ours |= _defined(tree)
    theirs = _textual_privates()
    found = []
    for module, tree in trees:
        for name in sorted((_named(tree, module) - ours) & theirs):
            found.append(f"{module.__name__} names Textual's {name}")
    assert not found, found
