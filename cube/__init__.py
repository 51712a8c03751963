"""The cube model: cubie states, facelets, notation, symmetry and group facts."""
