"""The help of the `:` command language: notes the command table cannot hold, and the help as text.

Each command's arguments and line of help are declared with its code (commands.COMMANDS); the
plain REPL prints `help_text(COMMANDS)` for :help, and the workbench's F1 screen lays the same
parts out itself.
"""

from __future__ import annotations

import textwrap

SEARCH_PREDICATES = ("ll, only PIECE..., corner-3cycle, edge-3cycle, orient, equals [ALG], "
                     "symmetry TYPE")
"""The predicates :search understands, as its usage line and the help name them."""

HELP_NOTES = (
    "Every change is one undo step, and so is a switch of cube (:puzzle, F4): undo goes back "
    "to the other cube. Switching to the 2x2x2 keeps the 3x3x3's corners, and its sequence "
    "when that means the same there; switching back replays the 2x2x2's sequence, else starts "
    "solved.",
    "On the 2x2x2, wide turns are rotations and slices do not exist; its solvers pocket-htm "
    "and pocket-qtm are optimal in their metric.",
    "Metrics: korf proves optima in HTM, korf-qtm in QTM (:solve korf qtm, or :solve qtm); a "
    "solver that cannot count in the metric named is refused. The opt column says which "
    "metric a solution is proven optimal in. :tables lists the table sets each reads; "
    ":tables NAME picks one for the rest of the session (a larger set is faster, given the "
    "memory).",
    f"Search predicates: {SEARCH_PREDICATES}. 'equals' alone means the current position, "
    "'equals ALG ignore UFR,UF' a partial one. :apply N and :play N use the list shown last "
    "(solutions or search results).",
    "Positions by description: :cycles reads the cycles the facts panel prints, each piece "
    "spelt from the face its travelling sticker lands on ((UFR BUR DBR FDR) is R's corners), "
    "'+'/'-' for a piece coming home turned; :case UF UR UB is a 3-cycle, :case UFR URB a "
    "twisted pair. Targets for :solve --to B: an alg, facelets: ..., cycles: ..., a save or a "
    "pattern name (:patterns).",
    "Blindfold: :cycles alone also says the memo, traced from the buffers (:buffers UFR|UBL "
    "UF|DF) in Speffz or your own letters (:letters: 24 letters, or 24 for corners and 24 for "
    "edges, in Speffz's order: U L F R B D, each face clockwise from its top-left sticker); "
    "pieces twisted or flipped in place are listed apart, and an odd number of corner letters "
    "means parity.",
    "Grey stickers: in paint mode (F3) * ? or 0 paints a sticker grey (unknown); :facelets "
    "takes * and ? too. A picture with grey stickers is a masked position: its grey stickers "
    "stay grey as you turn, and :solve (the goal solver) solves what is shown. A list solve "
    "(:solve --goal cross --all, -n N, --within K) fills the solutions panel as the search "
    "finds them (F7 shows it); Enter applies a row, P plays it. :gen SET (oll, pll, coll, "
    "zbll, ocll; cubelab gen's options) fills the gen panel case by case: Enter sets a case "
    "up, P plays its alg.",
    "The look: :scheme western|japanese or six colours (U R F D L B) colours every picture and "
    "the paint keys (each colour's initial); facelet strings stay URFDLB. :view turns the 3-D "
    "view; :animate on|off shows moves turning there (off by itself when served to a browser "
    "or when frames come late); :stickers auto|1|2 sizes the net.",
)
"""What the command table cannot say in one line: paragraphs for :help and the help screen."""


def help_text(commands: dict[str, tuple[str, str]]) -> str:
    """The commands (name -> (arguments, what it does)) and the notes as text lines."""
    lines = ["Type moves (R U R' U', [R, U]3, [F: [R, U]], (R U)5 ...) and Enter; commands:"]
    heads = {name: f"  :{name} {args}".rstrip() for name, (args, _) in commands.items()}
    width = max(len(h) for h in heads.values()) + 2
    for name, (args, what) in commands.items():
        lines.append(heads[name].ljust(width) + what)
    for note in HELP_NOTES:
        lines.append("")
        lines.extend(textwrap.wrap(note, 88))
    return "\n".join(lines)


if __name__ == "__main__":
    print(help_text({"help": ("", "list commands and keys")}))
