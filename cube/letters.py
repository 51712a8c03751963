"""Blindfold letters: a letter for every corner and edge sticker, the buffers, and a position's memo.

A letter scheme names the 24 corner stickers and the 24 edge stickers. Speffz, the common one
and the default, runs through the faces U L F R B D and on each face clockwise from the
top-left sticker as the net draws it (U seen from above with B at the top, the side faces with
U above them, D with F at the top): the corners A B C D of U are UBL UBR UFR UFL, E of L is
its sticker on LUB, ... X is DBL; the edges A B C D of U are UB UR UF UL, ... X is DL. A user's
own scheme gives 24 letters for each kind in the same order.

The memo is what a blindfolded solver memorises, traced the way they trace it. From the buffer
(a corner, UFR or UBL, and an edge, UF or DF, each read at its U or D sticker): look at the
sticker in the buffer, write the letter of the place it belongs, look at the sticker now in
that place, and so on, until a sticker of the buffer piece comes up. If pieces are still out of
place, break into a new cycle: write the letter of the unsolved piece with the first U/D (or,
for the middle-layer edges, F/B) sticker in letter order, follow from there, and close the
cycle with the letter where that piece's sticker belongs. Each letter is one swap of the
buffer with a target ("swap so the buffer's sticker lands on the letter's place"); after them
every piece is home but the ones twisted or flipped in place, listed apart (the buffer among
them when it ends twisted). An odd number of corner letters means parity (corners and edges
then each need one more swap, fixed together).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .facelets import state_colours as cube_colours
from .facts import turned_back
from .pieces import CORNER_FACELETS, CORNER_NAMES, EDGE_FACELETS, EDGE_NAMES, FACES
from .pocket import CORNER_STICKERS, PocketState, state_colours as pocket_colours

LETTER_FACES = "ULFRBD"
"""The order of the faces in a letter scheme (Speffz's)."""
CORNER_BUFFERS = ("UFR", "UBL")
EDGE_BUFFERS = ("UF", "DF")


def _sticker_order(n: int, corners: bool) -> tuple[int, ...]:
    """The facelets of a cube with n stickers a side in letter order: per face, clockwise from
    the top-left corner (corners) or from the top edge (edges, n = 3)."""
    last = n - 1
    cells = ((0, 0), (0, last), (last, last), (last, 0)) if corners else \
        ((0, 1), (1, 2), (2, 1), (1, 0))
    return tuple(FACES.index(f) * n * n + r * n + c for f in LETTER_FACES for r, c in cells)


CORNER_ORDER = _sticker_order(3, True)
"""The 24 corner stickers (3x3x3 facelet indices) in letter order: A is U1 (UBL's U sticker)."""
EDGE_ORDER = _sticker_order(3, False)
"""The 24 edge stickers in letter order: A is U2 (UB's U sticker)."""


@dataclass(frozen=True)
class LetterScheme:
    """24 letters for the corner stickers and 24 for the edge stickers, in letter order."""

    name: str
    corners: str
    edges: str

    def __post_init__(self):
        for kind, letters in (("corner", self.corners), ("edge", self.edges)):
            if len(letters) != 24:
                raise ValueError(f"give 24 {kind} letters, not {len(letters)}")
            if len(set(letters)) != 24 or any(c.isspace() for c in letters):
                twice = sorted({c for c in letters if letters.count(c) > 1})
                raise ValueError(f"each {kind} letter names one sticker"
                                 + (f": {' '.join(twice)} is used twice" if twice else ""))

    def letter(self, kind: str, position: int) -> str:
        """The letter of the `position`-th sticker in letter order ('c' corners, 'e' edges)."""
        return (self.corners if kind == "c" else self.edges)[position]

    def describe(self) -> str:
        if self.corners == self.edges:
            return f"{self.name}: {self.corners}"
        return f"{self.name}: corners {self.corners}, edges {self.edges}"


SPEFFZ = LetterScheme("speffz", "ABCDEFGHIJKLMNOPQRSTUVWX", "ABCDEFGHIJKLMNOPQRSTUVWX")
LETTER_SCHEMES = {SPEFFZ.name: SPEFFZ}


def letter_scheme_from_text(text: str) -> LetterScheme:
    """'speffz', or the user's letters: one word of 24 for both kinds, or two words (corners,
    then edges). ValueError with a one-line reason."""
    words = text.split()
    if len(words) == 1 and words[0].lower() in LETTER_SCHEMES:
        return LETTER_SCHEMES[words[0].lower()]
    if len(words) not in (1, 2):
        raise ValueError("give 'speffz', or 24 letters (both kinds), or 24 corner letters and "
                         "24 edge letters")
    corners, edges = words[0], words[-1]
    return LetterScheme("custom", corners, edges)


@dataclass(frozen=True)
class MemoOptions:
    """How memos are written: the letter scheme and the two buffers."""

    letters: LetterScheme = SPEFFZ
    corner_buffer: str = "UFR"
    edge_buffer: str = "UF"

    def __post_init__(self):
        if self.corner_buffer not in CORNER_BUFFERS:
            raise ValueError(f"the corner buffer is one of {', '.join(CORNER_BUFFERS)}")
        if self.edge_buffer not in EDGE_BUFFERS:
            raise ValueError(f"the edge buffer is one of {', '.join(EDGE_BUFFERS)}")

    def describe(self) -> str:
        return f"{self.letters.name}, buffers {self.corner_buffer} {self.edge_buffer}"


@dataclass(frozen=True)
class PieceMemo:
    """One kind of pieces traced from its buffer: the letters (each one swap), and the pieces
    left twisted or flipped in place as (piece name, turns clockwise, letter of the place
    where the piece's reference sticker now is)."""

    kind: str
    buffer: str
    letters: tuple[str, ...]
    in_place: tuple[tuple[str, int, str], ...] = ()

    def pairs(self) -> str:
        """The letters in pairs, as they are memorised: 'CJ KM N'."""
        text = "".join(self.letters)
        return " ".join(text[i:i + 2] for i in range(0, len(text), 2))

    def in_place_text(self) -> str:
        if self.kind == "c":
            return ", ".join(f"{p} {'cw' if t == 1 else 'ccw'} ({letter})"
                             for p, t, letter in self.in_place)
        return ", ".join(f"{p} ({letter})" for p, _, letter in self.in_place)


@dataclass(frozen=True)
class Memo:
    """The memo of a position: corners (and edges on the 3x3x3) traced from the buffers."""

    options: MemoOptions
    corners: PieceMemo
    edges: PieceMemo | None = None
    parity: bool = field(default=False)

    def text(self) -> str:
        """One line: 'corners JK LM N · twists UBL cw (E) · edges AB CD · flips UR (M) ·
        parity' (a part with nothing to do is left out; a solved position says so)."""
        parts = []
        for memo, what in ((self.corners, "twists"), (self.edges, "flips")):
            if memo is None:
                continue
            name = "corners" if memo.kind == "c" else "edges"
            if memo.letters:
                parts.append(f"{name} {memo.pairs()}")
            if memo.in_place:
                parts.append(f"{what} {memo.in_place_text()}")
        if self.parity:
            parts.append("parity")
        return " · ".join(parts) if parts else "solved: nothing to memorise"

    def as_dict(self) -> dict:
        """The `memo` key of `cubelab facts --json`."""
        out = {"letter_scheme": self.options.letters.name,
               "corner_buffer": self.corners.buffer,
               "corners": "".join(self.corners.letters),
               "corner_twists": [{"piece": p, "twist": "cw" if t == 1 else "ccw",
                                  "letter": letter} for p, t, letter in self.corners.in_place]}
        if self.edges is not None:
            out.update({"edge_buffer": self.edges.buffer,
                        "edges": "".join(self.edges.letters),
                        "edge_flips": [{"piece": p, "letter": letter}
                                       for p, _, letter in self.edges.in_place]})
        out["parity"] = self.parity
        out["text"] = self.text()
        return out


def trace_pieces(pieces, names, colours, face_of, order, letters: str, buffer: int,
                 kind: str) -> PieceMemo:
    """Trace one kind of pieces. `pieces`: each slot's stickers (facelet indices), clockwise
    for corners and the reference sticker first; `colours`: the face id shown on each facelet;
    `face_of(facelet)`: the face it lies on; `order`: the stickers in letter order, whose
    letters are `letters`; `buffer`: the buffer slot's index."""
    letter_of = {f: letters[i] for i, f in enumerate(order)}
    slot_of = {f: i for i, piece in enumerate(pieces) for f in piece}
    by_faces = {frozenset(face_of(f) for f in piece): i for i, piece in enumerate(pieces)}
    home = {}        # location -> where the sticker now there belongs
    for piece in pieces:
        shown = [colours[f] for f in piece]
        target = pieces[by_faces[frozenset(shown)]]
        for f, colour in zip(piece, shown):
            home[f] = next(g for g in target if face_of(g) == colour)

    def placed(i: int) -> bool:
        return all(slot_of[home[f]] == i for f in pieces[i])

    rank = {f: k for k, f in enumerate(order)}
    out: list[str] = []
    traced = {buffer}
    current, closing = pieces[buffer][0], buffer
    while True:
        target = home[current]
        if slot_of[target] == closing:
            if closing != buffer:
                out.append(letter_of[target])         # the cycle break comes home
            waiting = [i for i in range(len(pieces)) if i not in traced and not placed(i)]
            if not waiting:
                break
            closing = min(waiting, key=lambda i: rank[pieces[i][0]])
            traced.add(closing)
            current = pieces[closing][0]
            out.append(letter_of[current])
            continue
        out.append(letter_of[target])
        traced.add(slot_of[target])
        current = target
    return PieceMemo(kind, names[buffer], tuple(out),
                     _left_in_place(pieces, names, home, out, letter_of, buffer, traced))


def _left_in_place(pieces, names, home, out, letter_of, buffer, traced):
    """The pieces twisted or flipped in place after the swaps: the untraced ones as they are,
    and the buffer as the swaps leave it."""
    slot_of = {f: i for i, piece in enumerate(pieces) for f in piece}
    inverse = {}        # where the sticker belonging at g now sits
    for f, g in home.items():
        inverse[g] = f
    # carry out the swaps on the stickers: each letter's place gets the buffer's sticker
    where = dict(inverse)
    buffer_stickers = pieces[buffer]
    for letter in out:
        t = next(f for f, v in letter_of.items() if v == letter)
        target = pieces[slot_of[t]]
        k = target.index(t)
        lined_up = target[k:] + target[:k]         # t first, then on round the piece
        held = {g: s for g, s in where.items() if s in buffer_stickers or s in target}
        for g, s in held.items():
            if s in buffer_stickers:
                where[g] = lined_up[buffer_stickers.index(s)]
            else:
                where[g] = buffer_stickers[lined_up.index(s)]
    left = []
    for i, piece in enumerate(pieces):
        if i in traced and i != buffer:
            continue
        reference = where[piece[0]]           # where this slot's reference sticker sits
        turns = piece.index(reference) if reference in piece else 0
        if turns:
            left.append((names[i], turns, letter_of[reference]))
    return tuple(left)


def cube_memo(colours, options: MemoOptions = MemoOptions()) -> Memo:
    """The memo of a 3x3x3 position given by its 54 sticker colours (centres home)."""
    corners = trace_pieces(CORNER_FACELETS, CORNER_NAMES, colours, lambda f: f // 9,
                           CORNER_ORDER, options.letters.corners,
                           CORNER_NAMES.index(options.corner_buffer), "c")
    edges = trace_pieces(EDGE_FACELETS, EDGE_NAMES, colours, lambda f: f // 9, EDGE_ORDER,
                         options.letters.edges, EDGE_NAMES.index(options.edge_buffer), "e")
    return Memo(options, corners, edges, len(corners.letters) % 2 == 1)


def pocket_memo(colours, options: MemoOptions = MemoOptions()) -> Memo:
    """The memo of a 2x2x2 position given by its 24 sticker colours (held with DLB home)."""
    corners = trace_pieces(CORNER_STICKERS, CORNER_NAMES, colours, lambda f: f // 4,
                           _sticker_order(2, True), options.letters.corners,
                           CORNER_NAMES.index(options.corner_buffer), "c")
    return Memo(options, corners, None, len(corners.letters) % 2 == 1)


def memo(state, options: MemoOptions = MemoOptions()) -> Memo:
    """The memo of a position of either cube (a CubeState with its centres turned home, or a
    PocketState held with DLB home)."""
    if isinstance(state, PocketState):
        return pocket_memo([int(c) for c in pocket_colours(state.normalized())], options)
    return cube_memo([int(c) for c in cube_colours(turned_back(state))], options)


if __name__ == "__main__":
    import sys
    from .moves import alg_state
    alg = " ".join(sys.argv[1:]) or "R U R' U'"
    for c_buffer, e_buffer in (("UFR", "UF"), ("UBL", "DF")):
        print(alg, "·", c_buffer, e_buffer, "·",
              memo(alg_state(alg), MemoOptions(SPEFFZ, c_buffer, e_buffer)).text())
