"""The tables of Korf's optimal solver.

Korf's optimal solver's tables: its coordinates and symmetry tables (coords), the 1997
pattern databases of the corners and of six edges (pdb), the exact-slice phase table (slicephase)
and the two table sets built from them (specs).
"""
