"""CFOP's tables: the cross coordinate and piece codes (coords), their distance tables (specs).

coords holds the cross coordinate (where the four D edges are, and their flips) and the small
codes of one corner or edge (slot and twist or flip); specs the cross move table and the exact
distance tables of the cross, and of the cross with each F2L corner and each F2L edge.
"""
