"""Algorithm search: every canonical move sequence up to N moves whose effect meets a predicate.

A predicate names slots whose content is fixed (the pieces that must stay home, or the parts of
a target position that matter) and then a final test on the whole effect (a pure 3-cycle, not a
mere U turn...). The fixed slots make a meet in the middle possible: a sequence X Y has effect
P = X Y, and P agrees with the target T on slot i exactly when Y agrees with X^-1 T there. So
the second halves Y are listed once per length with a hash of their fixed slots, sorted, and a
depth-first walk over the first halves X looks each X^-1 T up: about 2 * 13.3^(N/2) steps
instead of 13.3^N. Every canonical sequence (no face turned twice in a row, opposite faces in
one order, in QTM a half turn counted as two quarters) splits into X and Y in exactly one way,
so each is found once. Results stream one per class of effects up to the 48 symmetries and
inversion (the TIPE's morph classes), shortest lengths first.

Predicates are in `predicates`, the numba kernels in `kernels`, the driver and its results in
`search`. No Textual here: the command line and the TUI's `:search` drive `search()` from a
thread, read the shared counters and raise the cancel flag.
"""

from .predicates import (
    ANY, CORNER_3CYCLE, EDGE_3CYCLE, FREE, PIECE, PIECE_AND_ORIENTATION, PREDICATES, Predicate,
    corner_3cycle, edge_3cycle, equals, last_layer, only_pieces, orients, parse_pieces,
    parse_predicate,
)
from .search import (
    MAX_TABLE_ENTRIES, AlgClass, SearchResult, SearchTooBig, check_size, cycle_shape, move_costs,
    search, sequence_counts, unpack,
)

__all__ = [
    "ANY", "CORNER_3CYCLE", "EDGE_3CYCLE", "FREE", "MAX_TABLE_ENTRIES", "PIECE",
    "PIECE_AND_ORIENTATION", "PREDICATES", "AlgClass", "Predicate", "SearchResult", "SearchTooBig",
    "check_size", "corner_3cycle", "cycle_shape", "edge_3cycle", "equals", "last_layer",
    "move_costs", "only_pieces", "orients", "parse_pieces", "parse_predicate", "search",
    "sequence_counts", "unpack",
]
