"""Which solvers the seed study's experiment runs (`cubelab bench`), light to read for its help."""

STUDY_SOLVERS = ("kociemba", "thistlethwaite", "threecycle", "cfop")
"""The method solvers the seed study compares (cubelab bench by default)."""
COMPETITION_PLAYERS = ("idastar:misplaced", "idastar:manhattan", "idastar:manhattan-raw",
                       "idastar:pdb", "astar", "greedy:manhattan-raw", "greedy:pdb")
"""The informed-search competition's players: a solver, and after a colon the heuristic it
searches with (cubelab bench --competition)."""
