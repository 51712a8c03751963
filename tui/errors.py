"""Errors the command line reports on one line with exit status 2."""


class InputError(Exception):
    """Bad input from the user: reported on one line, exit status 2."""
