"""cubelab.tui"""
