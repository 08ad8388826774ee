#!/usr/bin/env python3
"""Times the real TUI in a real terminal: tmux (a private socket) runs
goccia-trust over ROOT at 120x35 with an empty store, and the pane is polled
until the first frame is drawn and until the scan is complete.

usage: tui-timing.py BINARY ROOT [RUNS=5]

Prints, per run, milliseconds from pressing Enter on the command line to
  first frame: the title bar is on screen
  complete:    the status bar reads `N configs · ...` (scan done, list full)
Needs tmux. A first run after generating the tree may be cache-cold.
"""
import os
import re
import subprocess
import sys
import tempfile
import time

binary, root = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
runs = int(sys.argv[3]) if len(sys.argv) > 3 else 5
socket = f"goccia-trust-timing-{os.getpid()}"
DONE = re.compile(r"(\d+) configs · \d+ need review")


def tmux(*args):
    return subprocess.run(
        ["tmux", "-L", socket, *args], capture_output=True, text=True
    ).stdout


def wait(pred, timeout=120.0):
    start = time.monotonic()
    while time.monotonic() - start < timeout:
        screen = tmux("capture-pane", "-p", "-t", "0")
        if pred(screen):
            return screen
        time.sleep(0.002)
    sys.exit(f"timed out; screen:\n{screen}")


with tempfile.TemporaryDirectory() as tmp:
    store = os.path.join(tmp, "trust.json")
    tmux("-f", "/dev/null", "new-session", "-d", "-x", "120", "-y", "35",
         "env", "-i", "PATH=/usr/bin:/bin", "TERM=xterm-256color",
         f"HOME={tmp}", "PS1=$ ", "sh")
    try:
        wait(lambda s: "$" in s)
        for run in range(runs):
            tmux("send-keys", "-t", "0", "-l",
                 f"clear; {binary} --trust-store={store} {root}")
            start = time.monotonic()
            tmux("send-keys", "-t", "0", "Enter")
            wait(lambda s: "goccia-trust  Configs" in s)
            first = (time.monotonic() - start) * 1000
            screen = wait(lambda s: DONE.search(s) is not None)
            done = (time.monotonic() - start) * 1000
            n = DONE.search(screen).group(1)
            print(f"run {run + 1}: first frame {first:6.0f} ms, "
                  f"complete list ({n} configs) {done:6.0f} ms")
            tmux("send-keys", "-t", "0", "q")
            wait(lambda s: "goccia-trust  Configs" not in s)
    finally:
        tmux("kill-server")
