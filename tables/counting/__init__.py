"""Pos(n): positions, symmetry classes and symmetry+inverse classes at each distance from solved.

The breadth-first search runs over classes of the group of 96 operations "conjugate by one of the
48 symmetries, possibly after inverting" (the TIPE's isomorphism classes): distance is constant
on such a class, and a class holds up to 96 positions, so a level is ~96 times smaller than the
set of its positions. Each class is stored as its canonical representative packed into a bucket
and a key (cubelab.tables.classkeys). A level is a `Level` (levels): keys sorted within each
bucket. Expanding a class (count) multiplies its representative P on the right by every move, and
P^-1 too (the neighbours of the class's inverted members), then canonicalises, bucket-sorts,
removes duplicates and removes the classes already at a smaller depth, a batch of classes at a
time, each batch merged into the new level: memory follows the levels (8 bytes a class), not the
neighbours. Counting positions needs no second pass: the number of images equal to the minimum
gives the stabiliser, hence the class size.
"""

from .count import (
    CHUNK_BYTES, METRICS, PUBLISHED, Cancelled, LevelCount, Progress, chunk_classes,
    count_positions, estimated_bytes, estimated_classes, next_level, warm_up,
)
from .levels import Level, identity_level, merge, run_threads

__all__ = [
    "CHUNK_BYTES", "METRICS", "PUBLISHED", "Cancelled", "Level", "LevelCount", "Progress",
    "chunk_classes", "count_positions", "estimated_bytes", "estimated_classes", "identity_level",
    "merge", "next_level", "run_threads", "warm_up",
]
