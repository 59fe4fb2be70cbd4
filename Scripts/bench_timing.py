"""One timed benchmark run, for the bench-*.py scripts.

    from bench_timing import timed
    wall, rss_mb, cpu = timed([ferry, "validate", path], accept=(0, 1))

The command runs under Scripts/bench-run.py, in a process of its own, so
that only the command's own spawn-to-reap is counted (see that script);
its figures are read back here. Every benchmark script times its runs
this one way.
"""
import os
import subprocess
import sys
import tempfile

RUNNER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bench-run.py")


def timed(command, stdout_path=None, accept=(0,), stderr=None):
    """Runs `command` under bench-run.py: (wall seconds, peak RSS MB, CPU seconds).

    Its standard output goes to `stdout_path`, else nowhere; standard error
    to `stderr` (a file object, subprocess.DEVNULL, or None to inherit). An
    exit status not in `accept` stops the benchmark. Written files are
    synced after the run, so that one run's writeback does not slow the next.
    """
    handle, timing = tempfile.mkstemp(prefix="ferry-timing-")
    os.close(handle)
    out = open(stdout_path, "wb") if stdout_path else subprocess.DEVNULL
    try:
        status = subprocess.run([sys.executable, RUNNER, timing] + command, stdout=out, stderr=stderr).returncode
    finally:
        if stdout_path:
            out.close()
    if status not in accept:
        raise SystemExit(f"{' '.join(command)} exited {status}")
    with open(timing) as file:
        wall, rss_kib, user, system = file.read().split()
    os.unlink(timing)
    subprocess.run(["sync"])
    return float(wall), int(rss_kib) / 1024, float(user) + float(system)
