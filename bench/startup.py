#!/usr/bin/python3
"""Times commands of two binaries, interleaved: bench/startup.sh's timer.

usage: startup.py RUNS LABEL=ARGS... -- OURS PEER [PREFIX_ARGS...]
Each LABEL's ARGS (split on spaces) run RUNS times with each binary,
ours and the peer's in turn, with PREFIX_ARGS before them; prints, per
label, the median wall time and the mean CPU time (user + system, the
process and its children) of each, and ours over the peer's.
"""
import os
import resource
import statistics
import subprocess
import sys
import time


def run(argv):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    p = subprocess.run(argv, stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode != 0:
        sys.exit("startup.py: %s failed (%d): %s" %
                 (" ".join(argv), p.returncode, p.stderr.decode()[:300]))
    cpu = (after.ru_utime - before.ru_utime) + \
        (after.ru_stime - before.ru_stime)
    return wall * 1000, cpu * 1000


def main():
    runs = int(sys.argv[1])
    sep = sys.argv.index("--")
    labels = [a.split("=", 1) for a in sys.argv[2:sep]]
    ours, peer = sys.argv[sep + 1], sys.argv[sep + 2]
    prefix = sys.argv[sep + 3:]
    print("%-28s %16s %16s %7s" % ("ms (median wall / mean CPU)",
                                   "on demand", "linked", "ratio"))
    for label, args in labels:
        words = args.split()
        res = {ours: ([], []), peer: ([], [])}
        for _ in range(runs):
            for b in (ours, peer):
                w, c = run([b] + prefix + words)
                res[b][0].append(w)
                res[b][1].append(c)
        ow, pw = statistics.median(res[ours][0]), statistics.median(res[peer][0])
        oc, pc = statistics.mean(res[ours][1]), statistics.mean(res[peer][1])
        print("%-28s %7.2f / %6.2f %7.2f / %6.2f %7.2f" %
              (label, ow, oc, pw, pc, ow / pw))
        print("%-28s %16s %16s %7.2f" % ("  (CPU ratio)", "", "", oc / pc))


if __name__ == "__main__":
    main()
