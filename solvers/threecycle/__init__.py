"""The elementary 3-cycle solver: the solver behind the protocol and its beam search (solver), and
what it sees of the corners and of the edges, with class distances (pieces); its commutator
table is in cubelab.tables.threecycle."""
