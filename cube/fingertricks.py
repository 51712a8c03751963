"""A finger-trick cost: how comfortable a sequence is to execute, for ranking equal lengths.

Trangium's Movecount Coefficient Calculator (MCC) simulates every finger of both hands, grips
and the time since each finger last moved. Ours keeps its two main ideas and drops the rest:

1. Each move has a base cost by what executes it: a wrist turn (R, R', L, L') is cheap, a
   flick (U, U', D, D', F, F') a little dearer, faces the hands reach badly (B, S, E) dear, a
   half turn about one and a half quarters (a double flick or a wide wrist turn), a rotation
   dearest (it breaks the flow):

       R L r l  1.0 1.1 1.1 1.2   half 1.6 1.7 1.7 1.8
       U         1.0              half 1.5
       F D       1.4              half 2.1 2.0
       M         1.3              half 1.8
       B E S     1.9 2.2 2.2      half 2.8 3.0 3.0
       x y z     3.0 (any power)  anything else 2.0 (3.0 a half turn)

2. Fingers that flick: U with the right index, U' with the left, F with the right index
   (from above) and F' with the left, D and B with the right ring finger, D' and B' with the
   left, M and S with the left ring finger. A finger flicking again right after it flicked
   (*overwork*, MCC's word) costs +0.6, one move later +0.3: R U R U is easy, F U F U is not.

3. Each hand's wrist has three positions: home, turned once forward, turned once back. R
   (or r) turns the right wrist forward, R' back, a half turn across home (from forward to
   back); L and l the left wrist likewise. A wrist turn that would leave those positions
   needs a *regrip* first (+1.2, the wrist back home). A half turn from home is done, then
   the hand regrips (+0.4). An F turned while the right wrist is back (after R': the index
   pushes F) is cheaper (-0.3); while it is forward (after R) dearer (+0.5), as U' is with the
   left wrist turned back.

`cost(moves)` returns the sum; lower is more comfortable. It ranks solutions of one length
(sorted by length first, then by this cost); it is no measurement of anyone's hands.
"""

from __future__ import annotations

from .alg import Move

_QUARTER = {"R": 1.0, "L": 1.1, "r": 1.1, "Rw": 1.1, "l": 1.2, "Lw": 1.2, "U": 1.0,
            "F": 1.4, "D": 1.4, "M": 1.3, "B": 1.9, "E": 2.2, "S": 2.2}
_HALF = {"R": 1.6, "L": 1.7, "r": 1.7, "Rw": 1.7, "l": 1.8, "Lw": 1.8, "U": 1.5, "F": 2.1,
         "D": 2.0, "M": 1.8, "B": 2.8, "E": 3.0, "S": 3.0}
ROTATION = 3.0
OVERWORK = (0.6, 0.3)
"""Extra cost of a finger flicking again one move, or two moves, after it flicked."""
_FINGER = {("U", True): "right index", ("U", False): "left index",
           ("F", True): "right index", ("F", False): "left index",
           ("D", True): "right ring", ("D", False): "left ring",
           ("B", True): "right ring", ("B", False): "left ring",
           ("M", True): "left ring", ("M", False): "left ring",
           ("S", True): "left ring", ("S", False): "left ring",
           ("E", True): "left ring", ("E", False): "left ring"}
OTHER_QUARTER, OTHER_HALF = 2.0, 3.0
REGRIP = 1.2
HALF_FROM_HOME = 0.4
F_PUSH = -0.3
F_AWKWARD = 0.5

_RIGHT = {"R", "r", "Rw"}
_LEFT = {"L", "l", "Lw"}


def base(move: Move) -> float:
    if move.kind == "rotation":
        return ROTATION
    table = _HALF if move.amount == 2 else _QUARTER
    default = OTHER_HALF if move.amount == 2 else OTHER_QUARTER
    return table.get(move.family, default)


def _wrist(position: int, move: Move, forward_is_clockwise: bool) -> tuple[int, float]:
    """(new wrist position, extra cost) of a wrist turn from `position` (-1, 0, 1)."""
    if move.amount == 2:
        if position == 0:
            return 0, HALF_FROM_HOME
        return -position, 0.0
    step = 1 if (move.amount == 1) == forward_is_clockwise else -1
    new = position + step
    if -1 <= new <= 1:
        return new, 0.0
    return step, REGRIP


def cost(moves) -> float:
    """The finger-trick cost of a sequence (see the module docstring)."""
    right = left = 0
    total = 0.0
    last = before = None          # the fingers of the last two moves
    for m in moves:
        b, finger, fam = _facts(m)
        total += b
        if finger is not None:
            if finger == last:
                total += OVERWORK[0]
            elif finger == before:
                total += OVERWORK[1]
        before, last = last, finger
        if fam in _RIGHT:
            right, extra = _wrist(right, m, True)
            total += extra
        elif fam in _LEFT:
            # L turns the left wrist forward (towards the player's fingers) on L', as seen
            # from the left: L is the mirror of R
            left, extra = _wrist(left, m, False)
            total += extra
        elif fam == "F" and m.amount != 2:
            if right == -1:
                total += F_PUSH
            elif right == 1:
                total += F_AWKWARD
        elif fam == "U" and m.amount == 3 and left == 1:
            total += F_AWKWARD
    return round(total, 2)


_FACTS: dict = {}


def _facts(m: Move) -> tuple:
    """(base cost, flicking finger or None, family) of a move, computed once."""
    hit = _FACTS.get(m)
    if hit is None:
        hit = _FACTS[m] = (base(m), _FINGER.get((m.family, m.amount != 3)), m.family)
    return hit
