"""CFOP: the solver (solver), its search kernel (search) and the last-layer book (lastlayer).

Its tables are in cubelab.tables.cfop; the OLL and PLL algorithms in lastlayer.json.
"""
