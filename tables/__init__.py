"""cubelab.tables"""
