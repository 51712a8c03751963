"""Goal searches: every solution of a goal (a cross, an OLL, a DR...) in a move set, optimal
first, with the finger-trick cost that ranks equals, and alg generation over case sets."""
