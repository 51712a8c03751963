"""The elementary 3-cycle solver: the solver and its beam search (solver), the pieces' classes.

pieces holds what the solver sees of the corners and of the edges, with class distances; its
commutator table is in cubelab.tables.threecycle.
"""
