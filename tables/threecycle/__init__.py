"""The 3-cycle solver's table: the search for short commutators of every 3-cycle, pair twist and
pair flip (commutators), and its result stored as one array in the store (specs)."""
