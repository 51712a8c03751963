"""The program's first instructions: the `cubelab` command starts here (and `python -m
cubelab.tui.entry`).

Ctrl-C and SIGTERM must mean one line and exit 130 or 143 from the first instruction to the
last. Python turns Ctrl-C into a KeyboardInterrupt wherever the program happens to be, which
during start-up prints a traceback, and inside an import of a compiled module can come out as
an ImportError (an internal failure), or be swallowed by a library's fallback. So before
anything else is imported, the signals get a handler that ends the process at once (nothing is
under way yet); `stopping.begin` then puts the program's own handling in its place
(stopping.py says what it does), and the command line runs (cli.py).
"""

import gc
import os
import signal


def _stop_at_once(signum, frame):
    os.write(2, b"cubelab: terminated\n" if signum == signal.SIGTERM
             else b"cubelab: interrupted\n")
    os._exit(128 + signum)


def run() -> None:
    # No garbage collection while the modules load (cli.py collects again before the work
    # starts): the collector walked every object the imports made, 40-60 ms of the
    # workbench's start and ~10 ms of `cubelab facts`, to free a few hundred of 50,000.
    gc.disable()
    # numpy's OpenBLAS starts a pool of threads as numpy loads, which spin on the other cores
    # (~90 ms of CPU at every start on 2 cores, ~5 ms of the wall time of `cubelab facts`);
    # nothing here multiplies matrices large enough to want them. A user's own setting stays.
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    for sig in (signal.SIGINT, signal.SIGTERM):
        # a SIGINT ignored from the start (nohup, `cmd &` in a script) stays ignored
        if signal.getsignal(sig) is not signal.SIG_IGN:
            signal.signal(sig, _stop_at_once)
    from .stopping import begin
    begin()
    from .cli import run as run_command_line
    run_command_line()


if __name__ == "__main__":
    run()
