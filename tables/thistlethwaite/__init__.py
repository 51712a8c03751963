"""Thistlethwaite's tables: coset coordinates (coords), move and distance tables (specs).

coords holds the four phases' moves, coset coordinates and corner lookups; specs their move and
exact distance tables in the store, with the one object the search reads.
"""
