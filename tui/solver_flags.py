"""The solvers' declared options as command-line flags, and the solver words of `:solve`.

Every option a registered solver declares (solvers/description.py) becomes one flag, shared by
the solvers that declare an option of that name: `--first`, `--heuristic`, `--tables`... Its
help says which solvers take it and what; its value is read by the chosen solver's declaration
once the solver is known, so a solver that does not take it refuses it (in one line) before it
is made. A new option of a solver needs no edit here.
"""

from __future__ import annotations

from cubelab.solvers.description import Option

_DEST = "solver_option:"
"""argparse destinations of solver flags start with this (the rest is the option's name)."""
RESERVED = frozenset({"solver", "max_length", "time_limit", "json", "metric", "target", "file",
                      "facelets", "cycles", "unreachable", "puzzle", "jobs", "cluster",
                      "output", "resume", "help"})
"""Names the command's own flags use: a solver may not declare an option of one of them..."""
COMMAND_FLAGS = frozenset({"metric"})
"""...except these: a solver declaring one (the goal solver's `metric`: one entry made in any
metric) is given the command's own flag's value (`given_by_command`)."""


def declared_options(registry) -> dict[str, list[tuple[str, Option]]]:
    """Option name -> (solver, its declaration of it), for every solver users may choose."""
    out: dict[str, list[tuple[str, Option]]] = {}
    for description in registry.descriptions():
        for option in description.user_options:
            if option.name in COMMAND_FLAGS:
                continue
            if option.name in RESERVED:
                raise ValueError(f"solver {description.name} declares an option --{option.name},"
                                 f" which the command line uses for itself")
            out.setdefault(option.name, []).append((description.name, option))
    return out


def add_solver_flags(parser, registry) -> None:
    """One flag per declared option name, in a group of its own."""
    group = parser.add_argument_group(
        "solver options", "each taken by the solvers named in its help; another solver "
                          "refuses it")
    for name, owners in declared_options(registry).items():
        first = owners[0][1]
        kwargs = {"dest": _DEST + name, "default": None, "help": _help(owners)}
        if first.switch:
            parser_action = {"action": "store_const", "const": True}
        else:
            choices = list(dict.fromkeys(c for _, o in owners for c in o.choices))
            metavar = first.metavar or ("{" + ",".join(choices) + "}" if choices
                                        else name.upper())
            parser_action = {"metavar": metavar}
        flags = sorted(dict.fromkeys(f for _, o in owners for f in o.flags),
                       key=lambda f: not f.startswith("--"), reverse=True)
        group.add_argument(*flags, **kwargs, **parser_action)


def _help(owners: list[tuple[str, Option]]) -> str:
    """'idastar, greedy: what it does (default pdb); korf: ...': solvers that declare the
    option alike share one clause."""
    clauses: dict[str, list[str]] = {}
    for solver, option in owners:
        text = option.help
        if option.choices and option.name == "tables":
            text += ": " + ", ".join(option.choices)
        if option.default not in (None, False):
            text += f" (default {option.default})"
        clauses.setdefault(text, []).append(solver)
    return "; ".join(f"{', '.join(solvers)}: {text}" for text, solvers in clauses.items())


def options_given(args) -> dict:
    """The solver options given on the command line (name -> value as typed, or True for a
    switch), as the chosen solver's declaration reads them."""
    return {key[len(_DEST):]: value for key, value in vars(args).items()
            if key.startswith(_DEST) and value is not None}


def given_by_command(description, args) -> dict:
    """The options of COMMAND_FLAGS the solver declares, as the command's flags give them
    (`--metric qtm` makes the goal solver count in QTM)."""
    out = {}
    for name in COMMAND_FLAGS:
        value = getattr(args, name, None)
        if value is not None and description.option(name) is not None:
            out[name] = value
    return out
