"""What `cubelab facts` reports about a position of either cube, as a record and as text.

The puzzles build the record (`Puzzle.facts_record`) from their facts and `alg_record`; one
`format_facts` lays out either cube's record for the command and the REPL.
"""

from __future__ import annotations

from typing import Callable

from .notation import format_moves, invert_moves, mirror_moves, simplify
from .positions import Position


def alg_record(position: Position, lengths: Callable) -> dict:
    """The keys that describe the alg a position came from (none for stickers): the alg, its
    lengths in the puzzle's metrics, and its moves plain, simplified, inverted and mirrored."""
    if position.alg is None:
        return {}
    moves = position.moves
    return {
        "alg": position.alg,
        "length": lengths(moves),
        "moves": format_moves(moves),
        "simplified": format_moves(simplify(moves)),
        "inverse": format_moves(invert_moves(moves)),
        "mirror": format_moves(mirror_moves(moves)),
    }


def symmetry_text(record: dict) -> str:
    """'D4h: 16 of the 48 symmetries fix it; 16 map it to its inverse' from a facts record."""
    n, anti = record["symmetry_order"], record["antisymmetry_order"]
    fix = "only the identity fixes it" if n == 1 else f"{n} of the 48 symmetries fix it"
    return (f"{record['symmetry']}: {fix}; "
            + (f"{anti} map it to its inverse" if anti else "none maps it to its inverse"))


def format_facts(record: dict) -> str:
    """A facts record as aligned text lines: the rows the record has data for (a 2x2x2 record
    has no edges and no coordinates, and says how the cube is held)."""
    lines = []
    if "alg" in record:
        lengths = ", ".join(f"{n} {metric.upper()}" for metric, n in record["length"].items())
        lines.append(f"alg          {record['alg'] or '(none)'}")
        lines.append(f"length       {lengths}")
        if record["simplified"] != record["moves"]:
            lines.append(f"simplified   {record['simplified'] or '(nothing)'}")
        lines.append(f"inverse      {record['inverse'] or '(none)'}")
        lines.append(f"mirror       {record['mirror'] or '(none)'}")
    reach = ("reachable" if record["reachable"]
             else "unreachable: " + "; ".join(record["invariants"]))
    lines.append(f"facelets     {record['facelets']}")
    if "normalized" in record:
        lines.append(f"held DLB     {record['normalized']}")
    lines += [
        f"order        {record['order']}",
        f"parity       {record['parity']}",
        f"trace        ({', '.join(str(t) for t in record['trace'])})  {reach}",
        f"morph        {record['morph']}",
        f"corners      {record['corner_cycles'] or '(solved)'}",
    ]
    if "edge_3cycles" in record:
        lines += [
            f"edges        {record['edge_cycles'] or '(solved)'}",
            f"3-cycles     corners {record['corner_3cycles'] or '-'}",
            f"             edges   {record['edge_3cycles'] or '-'}",
        ]
    else:
        lines.append(f"3-cycles     {record['corner_3cycles'] or '-'}")
    lines.append(f"in centre    {'yes' if record['in_centre'] else 'no'}")
    if "memo" in record:
        m = record["memo"]
        buffers = " ".join(m[k] for k in ("corner_buffer", "edge_buffer") if k in m)
        lines.append(f"memo         {m['text']}  ({m['letter_scheme']}, buffers {buffers})")
    if "symmetry" in record:
        lines.append(f"symmetry     {symmetry_text(record)}")
    if "coordinates" in record:
        c = record["coordinates"]
        lines.append(f"coordinates  corner perm {c['corner_perm']}, twist {c['corner_twist']}, "
                     f"edge perm {c['edge_perm']}, flip {c['edge_flip']}")
    if "class" in record:
        lines.append(f"class        {len(record['class'])} positions:")
        lines += [f"             {f}" for f in record["class"]]
    return "\n".join(lines)
