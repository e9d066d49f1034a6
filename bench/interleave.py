#!/usr/bin/env python3
"""Runs commands interleaved and records each run's CPU time, so that ratios between them are
taken under the same machine state.

    python3 bench/interleave.py ROUNDS OUT.json NAME=COMMAND [NAME=COMMAND ...]

Each COMMAND is split like a shell line (shlex) and run without a shell, its output discarded.
One warm-up round, then ROUNDS rounds; each round runs every command once, starting one command
further on each round so that no command always follows the same one. Each run's user and
system CPU come from wait4() on that child alone. OUT.json holds, per NAME, the lists "user",
"system" and "wall" (seconds), one entry per round, in round order. A command that fails stops
the run with its name and status.
"""
import json
import os
import shlex
import subprocess
import sys
import time


def run_once(arguments):
    """(user, system, wall) seconds of one run of `arguments`."""
    start = time.monotonic()
    child = subprocess.Popen(arguments, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.monotonic() - start
    # Reaped here, so tell the Popen object, which would otherwise wait for it again.
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        sys.exit(f"interleave: {' '.join(arguments)} exited {child.returncode}")
    return usage.ru_utime, usage.ru_stime, wall


def main():
    if len(sys.argv) < 4 or not sys.argv[1].isdigit():
        sys.exit(__doc__)
    rounds, output = int(sys.argv[1]), sys.argv[2]
    commands = []
    for spec in sys.argv[3:]:
        name, _, line = spec.partition("=")
        if not name or not line:
            sys.exit(f"interleave: want NAME=COMMAND, got {spec!r}")
        commands.append((name, shlex.split(line)))
    results = {name: {"user": [], "system": [], "wall": []} for name, _ in commands}
    for round_index in range(rounds + 1):
        shift = round_index % len(commands)
        for name, arguments in commands[shift:] + commands[:shift]:
            user, system, wall = run_once(arguments)
            if round_index == 0:
                continue  # the warm-up round
            results[name]["user"].append(user)
            results[name]["system"].append(system)
            results[name]["wall"].append(wall)
    with open(output, "w") as file:
        json.dump(results, file, indent=1)


if __name__ == "__main__":
    main()
