"""nissy-core's C library through ctypes, for the benchmarks that compare with it
(bench_fmc.py, bench_korf_nissy.py): loading it and declaring the calls they make."""

from __future__ import annotations

import ctypes
from pathlib import Path


def load_nissy(directory: Path, how_to_build: str) -> ctypes.CDLL:
    """`directory`/libnissy.so with the signatures of the calls the benchmarks use
    (SystemExit saying `how_to_build` when it is not there); nissy's log is silenced."""
    lib_path = directory / "libnissy.so"
    if not lib_path.exists():
        raise SystemExit(f"{lib_path} is missing: {how_to_build}")
    lib = ctypes.CDLL(str(lib_path))
    lib.nissy_solverinfo.restype = ctypes.c_longlong
    for name in ("nissy_gendata", "nissy_checkdata"):
        getattr(lib, name).restype = ctypes.c_longlong
        getattr(lib, name).argtypes = [ctypes.c_char_p, ctypes.c_ulonglong, ctypes.c_void_p]
    lib.nissy_applymoves.restype = ctypes.c_longlong
    lib.nissy_solve.restype = ctypes.c_longlong
    lib.nissy_solve.argtypes = (
        [ctypes.c_char_p, ctypes.c_char_p] + [ctypes.c_uint] * 6
        + [ctypes.c_ulonglong, ctypes.c_void_p, ctypes.c_uint, ctypes.c_char_p,
           ctypes.POINTER(ctypes.c_longlong), ctypes.c_void_p, ctypes.c_void_p])
    if hasattr(lib, "nissy_setlogger"):
        lib.nissy_setlogger(None, None)
    return lib
