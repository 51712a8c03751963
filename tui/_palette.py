"""The command palette (Ctrl+P): every `:` command, every solver of the cube, every named goal,
every key's action (with the keys bound to it: the settings may have remapped them)."""

from __future__ import annotations

from typing import Iterable

from textual.app import SystemCommand

from .commands import COMMANDS


def palette_commands(app) -> Iterable[SystemCommand]:
    """The palette's commands for the workbench `app` (a CubeLabApp): a command without
    required arguments runs; one that needs them is put on the move line to finish."""
    for name, (args, what) in COMMANDS.items():
        if any(not word.startswith("[") for word in args.split()):
            yield SystemCommand(f":{name} {args}", what,
                                lambda name=name: app.prefill(f":{name} "))
        else:
            yield SystemCommand(f":{name}", what,
                                lambda name=name: app.handle(app.session.execute(":" + name)))
    # the solvers of the cube in hand, from their declarations (as F1 and completion list them)
    for d in app.session.registry.descriptions(app.session.puzzle.name):
        yield SystemCommand(f":solve {d.name}", d.summary,
                            lambda name=d.name: app.handle(app.session.execute(f":solve {name}")))
    # the named goals (`:goal NAME`; cubelab goals lists them, with the move sets)
    from .goals_cmd import goal_rows, goal_usage
    for row in goal_rows():
        yield SystemCommand(f":goal {row['name']}", f"goal {goal_usage(row)}: {row['about']}",
                            lambda name=row["name"]: app.handle(
                                app.session.execute(f":goal {name}")))
    # the case sets (`:gen SET`): put on the line to add a move set and the like
    from .goals_cmd import case_set_rows
    for row in case_set_rows():
        yield SystemCommand(f":gen {row['name']}", f"generate algs: {row['about']}",
                            lambda name=row["name"]: app.prefill(f":gen {name} --moves "))
    for binding in app.BINDINGS:
        keys = app.keymap.shown(binding.id)
        yield SystemCommand(f"{binding.description} ({keys})",
                            app.keymap.what(binding.id) + f" · {keys}",
                            lambda action=binding.action: app.run_action(action))
    yield SystemCommand(":search 8 qtm ll", "the TIPE's last-layer algorithms (8 QTM)",
                        lambda: app.handle(app.session.execute(":search 8 qtm ll")))
