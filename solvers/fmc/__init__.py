"""Fewest-moves steps (issue 35): EO, DR, HTR and the finish, each optimal, on the normal
scramble, its inverse or switching between them (NISS), and the pipeline that chains them."""
