"""What the test files share: a run on another thread while this one keeps going, and a run
in a child process stopped by Ctrl-C."""

import signal
import subprocess
import sys
import threading
import time


def ticks_beside(run):
    """Runs `run()` on another thread and counts this thread's 1 ms sleeps until it ends: many
    ticks mean the GIL was free meanwhile. Returns `run`'s answer and the ticks."""
    done = []
    thread = threading.Thread(target=lambda: done.append(run()))
    thread.start()
    ticks = 0
    while thread.is_alive():
        ticks += 1
        time.sleep(0.001)
    thread.join()
    return done[0], ticks


def interrupted(body):
    """Runs `body` (Python that starts a long search) in a child process, sends it SIGINT half
    a second in, and returns what it printed and the seconds from the signal to its end. The
    child prints `interrupted` when the search raised KeyboardInterrupt."""
    # The child restores Python's own Ctrl-C handler: started from a shell's background job (as CI
    # and `nohup ... &` do), it inherits SIGINT ignored, and Python then leaves it ignored, so
    # the signal would never reach it (a user at a terminal has the handler).
    code = f"""
import signal
signal.signal(signal.SIGINT, signal.default_int_handler)
import statespace
print("ready", flush=True)
try:
{"".join("    " + line + chr(10) for line in body.strip().splitlines())}    print("finished", flush=True)
except KeyboardInterrupt:
    print("interrupted", flush=True)
"""
    child = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    assert child.stdout.readline().strip() == "ready"
    time.sleep(0.5)
    sent = time.monotonic()
    child.send_signal(signal.SIGINT)
    out, _ = child.communicate(timeout=30)
    return out.strip(), time.monotonic() - sent
