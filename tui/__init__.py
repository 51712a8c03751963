"""The front ends: the Textual workbench, the plain REPL and the `cubelab` command line."""
