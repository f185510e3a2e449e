#!/usr/bin/python3
"""A large kernel-like git history for bench/fix.sh, as git fast-import
streams on stdout.

  mkbench-git.py main CYCLES COMMITS | git fast-import
  mkbench-git.py stable CYCLES FIXSHA | git fast-import

main: CYCLES release cycles of COMMITS commits each; every 8th commit is a
merge of a 4-commit topic branch (as subsystem pulls make merges); each
cycle is tagged vX.Y-rc1 .. vX.Y-rc7 along the way and vX.Y at its end.
The fix ("net: fix the frobnicator overflow") is early in the last cycle,
an old commit ("net: add the frobnicator") early in the tenth.
stable: the three releases before the last get a branch linux-X.Y.y of
200 commits tagged vX.Y.1 .. vX.Y.10, each holding a backport of FIXSHA
("commit FIXSHA upstream.") halfway.
"""
import sys

out = sys.stdout
mark = 0
t = 1_000_000_000


def commit(ref, msg, parents):
    global mark, t
    mark += 1
    t += 60
    data = msg.encode()
    out.write(f"commit {ref}\nmark :{mark}\n"
              f"author Dev <dev@example.org> {t} +0000\n"
              f"committer Dev <dev@example.org> {t} +0000\n"
              f"data {len(data)}\n{msg}\n")
    for i, p in enumerate(parents):
        out.write(f"{'from' if i == 0 else 'merge'} {p}\n")
    out.write("deleteall\n\n")
    return f":{mark}"


def tag(name, m):
    out.write(f"reset refs/tags/{name}\nfrom {m}\n\n")


def version(c):
    return f"v{1 + c // 20}.{c % 20}"


def mainline(cycles, per):
    head = commit("refs/heads/master", "initial", [])
    step = per // 8
    for c in range(cycles):
        for i in range(per):
            if i and i % 8 == 0:
                tip = head
                for k in range(4):
                    tip = commit("refs/heads/topic", f"topic {c}.{i}.{k}", [tip])
                head = commit("refs/heads/master", f"Merge topic {c}.{i}", [head, tip])
                continue
            msg = f"subsys: change {c}.{i}"
            if (c, i) == (cycles - 1, 3):
                msg = "net: fix the frobnicator overflow"
            elif (c, i) == (10, 3):
                msg = "net: add the frobnicator"
            head = commit("refs/heads/master", msg, [head])
            if c and i % step == 0 and 1 <= i // step <= 7:
                tag(f"{version(c)}-rc{i // step}", head)
        tag(version(c), head)


def stable(cycles, fix):
    global t
    t += 60 * 10_000_000  # after the whole mainline: backports follow their fix
    for c in range(cycles - 4, cycles - 1):
        ver = version(c)
        tip = f"refs/tags/{ver}^0"
        for i in range(1, 201):
            msg = f"stable: change {ver}.{i}"
            if i == 100:
                msg = f"net: fix the frobnicator overflow\n\ncommit {fix} upstream."
            tip = commit(f"refs/heads/linux-{ver[1:]}.y", msg, [tip])
            if i % 20 == 0:
                tag(f"{ver}.{i // 20}", tip)


if sys.argv[1] == "main":
    mainline(int(sys.argv[2]), int(sys.argv[3]))
else:
    stable(int(sys.argv[2]), sys.argv[3])
