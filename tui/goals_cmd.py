"""`cubelab goals`: the named goals, move sets and case sets there are (built in and the user's).

The same rows serve the workbench's palette and F1 help and the REPL's completion of `:goal`
(`goal_rows`, `moveset_rows`, `case_set_rows`): one listing, read from the catalog
(cube/goal_catalog.py: cube/goals.toml and the user's goals.toml) and the case sets file.
"""

from __future__ import annotations

import json

from .errors import InputError


def goal_rows() -> list[dict]:
    """Each named goal: name, what NAME:ARG takes (and its default), what it is, where from."""
    from cubelab.cube.goal_catalog import catalog
    rows = []
    for name, entry in sorted(catalog().goals.items()):
        choices = list(entry.choices) + (["any"] if entry.choices else [])
        rows.append({"name": name, "about": entry.about, "arg": entry.arg or None,
                     "choices": choices,
                     "default": (entry.default or entry.canonical) if entry.arg else None,
                     "source": entry.source})
    return rows


def moveset_rows() -> list[dict]:
    from cubelab.cube.goal_catalog import catalog
    return [{"name": name, "moves": str(text)} for name, text in
            sorted(catalog().movesets.items())]


def case_set_rows() -> list[dict]:
    from cubelab.cube.case_sets import case_set, set_names
    return [{"name": n, "about": case_set(n).about} for n in set_names()]


def goal_usage(row: dict) -> str:
    """'cross[:FACE]' for a goal taking an argument."""
    if not row["arg"]:
        return row["name"]
    return f"{row['name']}[:{row['arg'].upper()}]"


def register(sub) -> None:
    p = sub.add_parser("goals", help="list the named goals, move sets and case sets (for "
                                     "solve --goal/--moves and gen)")
    p.add_argument("--json", action="store_true", help="one JSON object")
    p.set_defaults(func=run)


def run(args) -> int:
    from cubelab.cube.goal_catalog import user_file
    from cubelab.cube.goals import GoalError
    try:
        goals, movesets, sets = goal_rows(), moveset_rows(), case_set_rows()
    except GoalError as e:      # the user's goals.toml is broken: say where
        raise InputError(str(e)) from None
    if args.json:
        print(json.dumps({"goals": goals, "movesets": movesets, "case_sets": sets,
                          "user_file": str(user_file())}))
        return 0
    print("goals (solve --goal NAME, NAME:ARG with ARG one of the choices or any):")
    for row in goals:
        arg = f" ({row['arg']}: {' '.join(row['choices'])}; default {row['default']})" \
            if row["arg"] else ""
        source = "" if row["source"].startswith("built") else f" [{row['source']}]"
        print(f"  {goal_usage(row):<18} {row['about']}{arg}{source}")
    print("  a piece list also works: --goal \"UF UR UFR:o DF:p\" (p placed, o oriented, "
          "s in slice, i ignored)")
    print("move sets (solve --moves NAME, or moves as typed: RUF, \"<R,U>\", \"R2,U\", M,r):")
    for row in movesets:
        print(f"  {row['name']:<18} {row['moves']}")
    print("case sets (cubelab gen NAME):")
    for row in sets:
        print(f"  {row['name']:<18} {row['about']}")
    print(f"your own goals and move sets: {user_file()}")
    return 0
