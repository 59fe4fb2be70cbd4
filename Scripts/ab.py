#!/usr/bin/env python3
"""Compares commands by running them in turns: an A/B of two builds.

    Scripts/ab.py ROUNDS 'LABEL=COMMAND' ['LABEL=COMMAND' ...]

    Scripts/ab.py 15 "old=/tmp/ferry-old validate p.csv --quiet" \\
                     "new=.build/release/ferry validate p.csv --quiet"

Each round runs every command once, in the order given, with standard
output and error sent to /dev/null; a command may start with VAR=value
words for its environment. Prints, for each label, the median and the
minimum wall time, the median CPU time (user + system) and the highest
peak RSS, from wait4(2), as Scripts/bench-run.py measures one run.

On a host whose speed drifts from minute to minute, taking turns puts
every command under the same drift, which timing one after the other
does not; compare the minimums when the medians move between rounds.
Scripts/bench.sh stays the tool for targets against peers.
"""
import os
import shlex
import statistics
import sys
import time


def run(argv, environment):
    """One run: wall seconds, CPU seconds, peak RSS in MiB, exit status."""
    start = time.perf_counter()
    pid = os.fork()
    if pid == 0:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, 1)
        os.dup2(null, 2)
        try:
            os.execvpe(argv[0], argv, environment)
        finally:
            os._exit(127)
    _, status, usage = os.wait4(pid, 0)
    wall = time.perf_counter() - start
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, os.waitstatus_to_exitcode(status)


def main(arguments):
    if len(arguments) < 2 or not arguments[0].isdigit():
        sys.stderr.write(__doc__)
        return 2
    rounds = int(arguments[0])
    cases = []
    for case in arguments[1:]:
        label, _, command = case.partition("=")
        argv = shlex.split(command)
        environment = dict(os.environ)
        while argv and "=" in argv[0] and not argv[0].startswith(("/", ".")):
            name, _, value = argv.pop(0).partition("=")
            environment[name] = value
        if not label or not argv:
            sys.stderr.write("ab.py: each case is LABEL=COMMAND: %r\n" % case)
            return 2
        cases.append((label, argv, environment))
    results = {label: [] for label, _, _ in cases}
    for _ in range(rounds):
        for label, argv, environment in cases:
            results[label].append(run(argv, environment))
    width = max(len(label) for label in results)
    for label, runs in results.items():
        walls = [wall for wall, _, _, _ in runs]
        print(
            "%-*s  wall %.3f s (min %.3f)  cpu %.3f s  rss %.0f MB  exit %s"
            % (
                width, label, statistics.median(walls), min(walls),
                statistics.median(cpu for _, cpu, _, _ in runs), max(rss for _, _, rss, _ in runs),
                ",".join(str(status) for status in sorted({status for _, _, _, status in runs})),
            )
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
