"""The symmetry of a position: which of the 48 symmetries fix it, its type among the 33, antisymmetry.

A symmetry S fixes a position P when S P S^-1 = P (symmetry.py's conjugation); those S form a
subgroup of the cube's 48 symmetries, and subgroups that differ only by how the cube is held
(conjugate subgroups) are one symmetry type. There are 33 types, named as Cube Explorer names
them (Schoenflies' symbols): Oh, O, Td, Th, T, D4h, D4, C4v, C4h, C4, S4, D3d, D3, C3v, S6, C3,
Ci, C1, and the types that come in kinds told apart by where their axes and mirror planes lie.
C2(a) turns half about a face axis, C2(b) about an edge axis; Cs(a) mirrors in a plane parallel
to two faces, Cs(b) in a diagonal plane; C2h(a) and C2h(b) are C2(a) and C2(b) with the
inversion. The three C2v kinds: C2v(a1) has a face axis and two diagonal mirrors, C2v(a2) a face
axis and two mirrors parallel to faces, C2v(b) an edge axis. D2(face), D2h(face) and D2d(face)
hold the half turns about all three face axes; D2(edge), D2h(edge) and D2d(edge) one face axis
and two edge axes. Cube Explorer's own masks of the 33 types (tests/test_position_symmetry.py
checks each against these names) decide which kind is which. Older spellings are read too:
(a) for (face) and (b) for (edge) (`type_named`). An antisymmetry maps the position to its
inverse: S P S^-1 = P^-1.

Elements are classified from the 3x3 matrix of each symmetry (read off where it sends the
centres), so nothing here is listed by hand but the names: `subgroup_classes()` finds the 33
types by closure and conjugation, and the tests check each gets its own name.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache

import numpy as np

from .state import CubeState
from .symmetry import conjugate_all, symmetry_arrays

_AXIS = np.array([(0, 1, 0), (1, 0, 0), (0, 0, 1), (0, -1, 0), (-1, 0, 0), (0, 0, -1)])
"""The outward direction of each face, in the order of pieces.FACES (URFDLB)."""

KINDS = ("E", "C4", "C2", "C3", "C2'", "i", "σ", "σd", "S4", "S6")
"""The kinds of symmetries: the identity; quarter and half turns about a face axis, a third
turn about a corner diagonal, a half turn about an edge axis; the inversion through the centre;
a mirror in a plane parallel to two faces, a mirror in a diagonal plane (through two opposite
edges); the rotoreflections of a quarter and a sixth turn."""


@lru_cache(maxsize=1)
def matrices() -> np.ndarray:
    """(48, 3, 3): each symmetry as the integer matrix sending a face's direction to the
    direction of where its centre goes."""
    cc = symmetry_arrays()[4]
    out = np.zeros((48, 3, 3), np.int64)
    for k in range(48):
        for face in (0, 1, 2):              # U, R, F span the three axes
            out[k][:, np.argmax(np.abs(_AXIS[face]))] = (
                _AXIS[int(np.nonzero(cc[k] == face)[0][0])] * _AXIS[face].sum())
    out.flags.writeable = False
    return out


def kind(m: np.ndarray) -> str:
    """Which of KINDS a symmetry's matrix is."""
    # an integer matrix's determinant by cofactors: numpy.linalg.det's first call (LAPACK set
    # up) cost ~30 ms of a `cubelab facts` start
    (a, b, c), (d, e, f), (g, h, i) = m.tolist()
    det, trace = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g), a + e + i
    proper = m if det == 1 else -m
    ptrace = trace if det == 1 else -trace
    diagonal = not np.any(proper - np.diag(np.diag(proper)))
    if det == 1:
        return {3: "E", 1: "C4", 0: "C3", -1: "C2" if diagonal else "C2'"}[ptrace]
    # m = -proper: the inversion, a mirror (minus a half turn) or a rotoreflection
    return {3: "i", -1: "σ" if diagonal else "σd", 1: "S4", 0: "S6"}[ptrace]


@lru_cache(maxsize=1)
def kinds() -> tuple[str, ...]:
    """The kind of each of the 48 symmetries, by index."""
    return tuple(kind(m) for m in matrices())


def type_name(indices) -> str:
    """The name of the symmetry type of a subgroup given by its symmetries' indices."""
    c = Counter(kinds()[k] for k in indices)
    n = len(indices)
    improper = c["i"] + c["σ"] + c["σd"] + c["S4"] + c["S6"]
    if c["C3"] >= 8:                                     # four 3-fold axes: the cubic types
        if c["C4"]:
            return "Oh" if improper else "O"
        return "T" if not improper else ("Th" if c["i"] else "Td")
    if c["C3"]:                                          # one 3-fold axis
        return {3: "C3", 6: "S6" if c["i"] else ("C3v" if c["σd"] else "D3"), 12: "D3d"}[n]
    if c["C4"]:                                          # one 4-fold axis
        if n == 4:
            return "C4"
        if n == 16:
            return "D4h"
        return "C4h" if c["i"] else ("C4v" if improper else "D4")
    if c["S4"]:
        return "S4" if n == 4 else ("D2d(face)" if c["C2"] == 3 else "D2d(edge)")
    if n == 1:
        return "C1"
    if n == 2:
        return {"i": "Ci", "C2": "C2(a)", "C2'": "C2(b)", "σ": "Cs(a)",
                "σd": "Cs(b)"}[next(k for k in c if k != "E")]
    if n == 4:
        if not improper:
            return "D2(face)" if c["C2"] == 3 else "D2(edge)"
        if c["i"]:
            return "C2h(a)" if c["C2"] else "C2h(b)"
        # a face axis with two mirrors parallel to faces, or with two diagonal ones
        return {2: "C2v(a2)", 0: "C2v(a1)"}.get(c["σ"], "C2v(b)")
    return "D2h(face)" if c["C2"] == 3 else "D2h(edge)"


_OLD_KINDS = {"(a)": "(face)", "(b)": "(edge)"}
"""The D2, D2h and D2d kinds as cubelab spelled them before taking Cube Explorer's names."""


def type_named(text: str) -> str | None:
    """The name of the symmetry type `text` names (any case; D2(a) for D2(face) and D2(b) for
    D2(edge) as well), or None."""
    key = text.strip().lower().replace(" ", "")
    for old, new in _OLD_KINDS.items():
        if key.startswith("d2") and key.endswith(old):
            key = key[:-len(old)] + new
    return _names_by_key().get(key)


@lru_cache(maxsize=1)
def _names_by_key() -> dict[str, str]:
    return {type_name(cls[0]).lower(): type_name(cls[0]) for cls in subgroup_classes()}


def _rows(arrays) -> np.ndarray:
    return np.concatenate(arrays, axis=-1).astype(np.uint8)


def _row(state: CubeState) -> np.ndarray:
    return _rows((state.cp, state.co, state.ep, state.eo, state.cc))


def fixing(state: CubeState) -> list[int]:
    """The indices of the symmetries S with S P S^-1 = P (P held with its centres home)."""
    p = state.normalized()
    return np.nonzero((_rows(conjugate_all(p)) == _row(p)).all(axis=1))[0].tolist()


def anti_fixing(state: CubeState) -> list[int]:
    """The indices of the symmetries S with S P S^-1 = P^-1."""
    p = state.normalized()
    return np.nonzero((_rows(conjugate_all(p)) == _row(p.inverse())).all(axis=1))[0].tolist()


def symmetry_record(state: CubeState) -> dict:
    """What the facts report: how many symmetries fix the position, the type's name, how many
    map it to its inverse, and the kinds of the fixing symmetries."""
    fixed = fixing(state)
    counts = Counter(kinds()[k] for k in fixed)
    return {
        "symmetry_order": len(fixed),
        "symmetry": type_name(fixed),
        "antisymmetry_order": len(anti_fixing(state)),
        "symmetry_elements": {k: counts[k] for k in KINDS if counts[k]},
    }


# ---- the 33 types, found from the group itself -----------------------------------------------

@lru_cache(maxsize=1)
def _products() -> np.ndarray:
    """table[a, b] = the index of the product of symmetries a and b (as matrices)."""
    mats = matrices()
    index = {m.tobytes(): k for k, m in enumerate(mats)}
    return np.array([[index[(mats[a] @ mats[b]).tobytes()] for b in range(48)]
                     for a in range(48)])


def _closure(generators) -> frozenset[int]:
    prod = _products()
    group = {0} | set(generators)
    frontier = list(group)
    while frontier:
        a = frontier.pop()
        for b in list(group):
            for c in (prod[a, b], prod[b, a]):
                if c not in group:
                    group.add(int(c))
                    frontier.append(int(c))
    return frozenset(group)


@lru_cache(maxsize=1)
def subgroup_classes() -> list[list[frozenset[int]]]:
    """Every subgroup of the 48 symmetries, grouped into conjugacy classes (the symmetry types),
    smallest first."""
    prod = _products()
    inverse = [int(np.nonzero(prod[k] == 0)[0][0]) for k in range(48)]
    groups = {_closure([k]) for k in range(48)}
    frontier = list(groups)
    while frontier:
        h = frontier.pop()
        for k in range(48):
            if k not in h:
                g = _closure(h | {k})
                if g not in groups:
                    groups.add(g)
                    frontier.append(g)
    classes: list[list[frozenset[int]]] = []
    seen: set[frozenset[int]] = set()
    for h in sorted(groups, key=lambda g: (len(g), sorted(g))):
        if h in seen:
            continue
        cls = {frozenset(int(prod[prod[g, x], inverse[g]]) for x in h) for g in range(48)}
        seen |= cls
        classes.append(sorted(cls, key=sorted))
    return classes


if __name__ == "__main__":
    for cls in subgroup_classes():
        print(f"{type_name(cls[0]):10} order {len(cls[0]):2}, {len(cls)} conjugates")
