"""The command line's waits survive Ctrl-C landing anywhere (tui/interrupts.py).

CI once printed "internal error: RuntimeError: release unlocked lock" instead of exiting 130: a
SIGINT landed inside threading.Event.wait between the Condition's release and its re-acquire.
The Latch that replaced the Event is hammered here with signals whose handler raises, landing at
every bytecode of its wait.
"""

from __future__ import annotations

import os
import signal
import threading
import time

import pytest

from cubelab.tui.interrupts import Interrupted, Latch, run_interruptible


def test_a_latch_times_out_then_opens_for_every_waiter():
    latch = Latch()
    assert not latch.is_set() and latch.wait(0) is False and latch.wait(0.01) is False
    woke: list[bool] = []
    waiters = [threading.Thread(target=lambda: woke.append(latch.wait(5))) for _ in range(3)]
    for t in waiters:
        t.start()
    time.sleep(0.05)
    latch.set()
    latch.set()     # a second set changes nothing
    for t in waiters:
        t.join(5)
    assert woke == [True, True, True]
    assert latch.is_set() and latch.wait(0) and latch.wait()


@pytest.mark.skipif(not hasattr(signal, "pthread_kill"), reason="needs POSIX signals")
def test_a_latch_wait_interrupted_at_any_bytecode_leaves_it_whole():
    # a thread sends SIGUSR1 without pause; the handler raises KeyboardInterrupt wherever the
    # main thread is, as Ctrl-C's does. wait(0) keeps the main thread running bytecode (not
    # sleeping in the kernel), so the handler lands inside the wait's Python lines too. The
    # handler disarms itself and the loop re-arms inside its try: one interrupt at a time, so
    # none can land in the except clause and escape into the test runner (it ended a pytest
    # worker once, on a loaded machine)
    armed = [False]

    def handler(signum, frame):
        if armed[0]:
            armed[0] = False
            raise KeyboardInterrupt

    previous = signal.signal(signal.SIGUSR1, handler)
    stop = threading.Event()

    def pester():
        while not stop.is_set():
            os.kill(os.getpid(), signal.SIGUSR1)
            time.sleep(0.00002)

    latch, interrupts, errors = Latch(), 0, []
    sender = threading.Thread(target=pester, daemon=True)
    try:
        sender.start()
        deadline = time.monotonic() + 2.0
        while time.monotonic() < deadline:
            try:
                armed[0] = True
                while time.monotonic() < deadline:
                    latch.wait(0)
                armed[0] = False
            except KeyboardInterrupt:
                interrupts += 1
            except RuntimeError as e:      # what Event.wait gave: a lock released twice
                armed[0] = False
                errors.append(e)
    finally:
        armed[0] = False
        stop.set()
        sender.join(5)
        signal.signal(signal.SIGUSR1, previous)
    assert not errors, errors[0]
    assert interrupts > 20      # the signals did land: the test can see a fault
    assert not latch.is_set() and latch.wait(0) is False
    threading.Timer(0.02, latch.set).start()
    assert latch.wait(5) and latch.wait(0)


def test_run_interruptible_returns_the_value_or_raises_the_works_error():
    assert run_interruptible(lambda: 42, None) == 42

    def fail():
        raise ValueError("from the work")
    with pytest.raises(ValueError, match="from the work"):
        run_interruptible(fail, None)


def test_run_interruptible_on_ctrl_c_raises_the_flag_and_carries_the_partial_result():
    cancel = [0]

    def work():
        while not cancel[0]:
            time.sleep(0.001)
        return "best so far"
    threading.Timer(0.1, signal.raise_signal, args=(signal.SIGINT,)).start()
    with pytest.raises(Interrupted) as stopped:
        run_interruptible(work, cancel)
    assert cancel[0] == 1 and stopped.value.partial == "best so far"


