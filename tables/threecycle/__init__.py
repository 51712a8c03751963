"""The 3-cycle solver's commutator table: its search and its place in the store.

The search for short commutators of every 3-cycle, pair twist and pair flip (commutators), and
its result stored as one array in the store (specs).
"""
