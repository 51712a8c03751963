"""Thistlethwaite's tables: the four phases' moves, coset coordinates and corner lookups
(coords), and their move and exact distance tables in the store with the one object the search
reads (specs)."""
