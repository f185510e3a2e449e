#!/usr/bin/python3
"""bench/load.py: the load driver of bench/load.sh (which sets up the
server, the 8 officers' roles and GnuPG homes, and the environment read
here: LOAD_BIN, LOAD_DIR, LOAD_TOP, LOAD_TMUX, PGHOST/PGUSER, the
gpg-env.sh variables and the LOAD_* knobs).  Standard library only."""

import os
import re
import subprocess
import sys
import threading
import time

BIN = os.environ["LOAD_BIN"]
W = os.environ["LOAD_DIR"]
TOP = os.environ["LOAD_TOP"]
TMUX = os.environ["LOAD_TMUX"]
OFFICER_FPR = os.environ["OFFICER_FPR"]
REPORTER_FPR = os.environ["REPORTER_FPR"]
SENDERS = os.environ["GNUPG_SENDERS_HOME"]


def knob(name, default):
    v = os.environ.get(name, "")
    return int(v) if v.strip() else default


SEED = max(knob("LOAD_SEED", 40), 2)
NREP = knob("LOAD_REPORTS", 200)
NREPLY = min(knob("LOAD_REPLIES", 100), NREP)
SECONDS = knob("LOAD_SECONDS", 30)
MAXSEC = knob("LOAD_MAX_SECONDS", 150)
UIS = min(knob("LOAD_UIS", 3), 4)
JOBS = os.environ.get("LOAD_IMPORT_JOBS", "").strip()
NICE = knob("LOAD_IMPORT_NICE", 0)
# 1: the importing officers run at idle priority (chrt --idle): they get
# only the processor the others leave, as on machines of their own.
IDLE = knob("LOAD_IMPORT_IDLE", 0)
# team.key-cache of every officer: "" (unset) the default (auto), else
# what is given (0: off, seconds).
KEY_CACHE = os.environ.get("LOAD_KEY_CACHE", "").strip()
if KEY_CACHE and KEY_CACHE != "auto" and not KEY_CACHE.isdigit():
    sys.exit("load: LOAD_KEY_CACHE '%s': auto, 0 or seconds" % KEY_CACHE)
DB = "dbname=load"
ROLES = ["off%d" % k for k in range(1, 9)]


def officer_env(k):
    e = dict(os.environ)
    e["PGUSER"] = "off%d" % k
    e["LANG"] = e["LC_ALL"] = "C.UTF-8"
    return e


def config_of(k):
    """Officer k's config: team.key-cache with LOAD_KEY_CACHE, else none."""
    if KEY_CACHE == "":
        return "/dev/null"
    path = "%s/o%d/config" % (W, k)
    if not os.path.exists(path):
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        os.write(fd, b"[team]\n\tkey-cache = %s\n" % KEY_CACHE.encode())
        os.close(fd)
    return path


def st_argv(k, *args):
    return [BIN, "--db", DB, "--gnupghome", "%s/o%d" % (W, k),
            "--config", config_of(k)] + list(args)


def psql(sql):
    e = dict(os.environ)
    e["PGUSER"] = "postgres"
    p = subprocess.run(["psql", "-X", "-q", "-At", "-v", "ON_ERROR_STOP=1",
                        "-d", "load", "-c", "SET search_path = secteam",
                        "-c", sql], env=e, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    if p.returncode:
        sys.exit("load: psql failed: %s" % p.stderr.strip())
    return p.stdout.strip()


def pct(xs, p):
    """Nearest rank."""
    if not xs:
        return None
    s = sorted(xs)
    i = max(0, min(len(s) - 1, -(-len(s) * p // 100) - 1))
    return s[i]


# --- the mail ------------------------------------------------------------
def seed_id(i):
    return "load-seed-%d@example.net" % i


def rep_id(i):
    return "load-report-%d@example.net" % i


def reply_id(i):
    return "load-reply-%d@example.net" % i


def make_mail():
    os.makedirs(W + "/mail", exist_ok=True)
    common = ["--kind", "encrypted-signed", "--from",
              "Rita Reporter <rita@example.net>", "--sign-as", REPORTER_FPR,
              "--to", OFFICER_FPR]
    lines = []
    for i in range(1, SEED + 1):
        lines.append(["%s/mail/s%d.eml" % (W, i)] + common + [
            "--subject", "Load seed %d: overflow in net/core/skbuff.c" % i,
            "--body", "Seed report %d touches net/core/skbuff.c." % i,
            "--message-id", seed_id(i)])
    for i in range(1, NREP + 1):
        lines.append(["%s/mail/r%d.eml" % (W, i)] + common + [
            "--subject", "Load report %d: use-after-free in fs/pipe.c" % i,
            "--body", "Report %d touches fs/pipe.c." % i,
            "--message-id", rep_id(i)])
    for i in range(1, NREPLY + 1):
        lines.append(["%s/mail/p%d.eml" % (W, i)] + common + [
            "--subject", "Re: Load report %d: use-after-free in fs/pipe.c" % i,
            "--body", "More on report %d: a reproducer." % i,
            "--message-id", reply_id(i), "--in-reply-to", rep_id(i)])
    data = "".join("\t".join(l) + "\n" for l in lines)
    p = subprocess.run(["/usr/bin/python3", TOP + "/tests/lib/mkpgp.py",
                        "--gnupghome", SENDERS, "--batch"], input=data,
                       text=True)
    if p.returncode:
        sys.exit("load: mkpgp.py failed")


def officer_copies():
    """Officer k (1-4) gets the reports i with i % 4 != k - 1 (3/4 of them,
    each in 3 officers' sets), starting at its own place in the list, a
    report's reply a few messages after it; each copy with its own
    transport fields prepended, in a Maildir of its own."""
    counts = {}
    for k in range(1, 5):
        mine = [i for i in range(1, NREP + 1) if i % 4 != k - 1]
        off = (k - 1) * len(mine) // 4
        mine = mine[off:] + mine[:off]
        seq, pending = [], []
        for i in mine:
            seq.append(("r", i))
            if i <= NREPLY:
                pending.append((len(seq) + 5, i))
            while pending and pending[0][0] <= len(seq):
                seq.append(("p", pending.pop(0)[1]))
        seq += [("p", i) for _, i in pending]
        md = "%s/md%d" % (W, k)
        for d in ("new", "cur", "tmp"):
            os.makedirs("%s/%s" % (md, d), exist_ok=True)
        for n, (kind, i) in enumerate(seq):
            with open("%s/mail/%s%d.eml" % (W, kind, i), "rb") as f:
                raw = f.read()
            hdr = ("Delivered-To: off%d@team.example\n"
                   "Received: from mx.team.example (mx.team.example "
                   "[192.0.2.%d])\n\tby mail%d.team.example with ESMTPS id "
                   "L%dX%d\n\tfor <off%d@team.example>; %s\n"
                   % (k, k, k, k, n, k,
                      time.strftime("%a, %d %b %Y %H:%M:%S +0000",
                                    time.gmtime()))).encode()
            # Maildir names sort as the order to import in.
            with open("%s/new/%06d.load%d.eml" % (md, n, k), "wb") as f:
                f.write(hdr + raw)
        counts[k] = len(seq)
    return counts


# --- commands --------------------------------------------------------------
REFUSED = re.compile(r"refus|cannot go from|allowed|needs --|policy|"
                     r"no such report|past the|already", re.I)
BUSY = re.compile(r"busy|locked|deadlock|could not serialize|timeout|"
                  r"timed out|canceling statement|try again", re.I)
UNREACH = re.compile(r"cannot reach the team server|connection|"
                     r"server closed|terminating", re.I)


def classify(rc, err):
    if rc == 1 and UNREACH.search(err):
        return "unreachable"
    if rc == 1 and BUSY.search(err):
        return "busy"
    if rc == 1 and REFUSED.search(err):
        return "refused"
    return "other"


class Phase:
    def __init__(self, name):
        self.name = name
        self.lat = []           # ms, every command
        self.kind_lat = {}      # ms by command kind
        self.live = []          # ms, each UI's sample
        self.live_missed = 0
        self.errors = {"refused": 0, "busy": 0, "unreachable": 0, "other": 0}
        self.first_err = {}
        self.imported = 0       # messages imports stored
        self.dups = 0
        self.import_fail = 0
        self.import_secs = 0.0
        self.secs = 0.0
        self.stopped = False
        self.lock = threading.Lock()
        # LockSampler: samples, and the time sessions were seen waiting
        # for a lock (the team's write lock or a row's), commands' and
        # imports', in ms
        self.samples = 0
        self.sampled_ms = 0.0
        self.wait_cmd = 0.0
        self.wait_cmd_imp = 0.0  # of wait_cmd, behind an importer
        self.wait_imp = 0.0
        self.wait_cmd_max = 0


SEVERITIES = ["low", "medium", "high", "critical"]
VSTEPS = ["notified", "acknowledged", "affected", "fixed"]


class Watcher:
    """The open UIs: waits for a change to report 1's severity to show in
    each, and times it from the command's start."""

    def __init__(self):
        self.cond = threading.Condition()
        self.job = None
        self.stop = False
        self.phase = None

    def busy(self):
        with self.cond:
            return self.job is not None

    def submit(self, t0, sev):
        with self.cond:
            self.job = (t0, sev)
            self.cond.notify()

    def pane(self, u):
        p = subprocess.run(["tmux", "-L", TMUX, "capture-pane", "-p", "-t",
                            "ui%d" % u], stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL, text=True)
        return p.stdout

    def run(self):
        while True:
            with self.cond:
                while self.job is None and not self.stop:
                    self.cond.wait()
                if self.stop:
                    return
                t0, sev = self.job
            row = re.compile(r"^ +1 +[a-z-]+ +%s\b" % sev, re.M)
            left = set(range(1, UIS + 1))
            seen = {}
            while left and time.monotonic() - t0 < 10:
                for u in sorted(left):
                    if row.search(self.pane(u)):
                        seen[u] = (time.monotonic() - t0) * 1000
                        left.discard(u)
                time.sleep(0.02)
            ph = self.phase
            with ph.lock:
                ph.live += seen.values()
                ph.live_missed += len(left)
            with self.cond:
                self.job = None


def run_cmd(ph, kind, k, args):
    t0 = time.monotonic()
    p = subprocess.run(st_argv(k, *args), env=officer_env(k),
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                       text=True)
    ms = (time.monotonic() - t0) * 1000
    with ph.lock:
        ph.lat.append(ms)
        ph.kind_lat.setdefault(kind, []).append(ms)
        if p.returncode:
            c = classify(p.returncode, p.stderr)
            ph.errors[c] += 1
            ph.first_err.setdefault(c, "%s (exit %d): %s" % (
                " ".join(args), p.returncode, p.stderr.strip()[:300]))
    return t0, p.returncode


def worker(ph, w, stop, watcher, state):
    """Officer 4 + w: commands on seed reports 2..SEED, round-robin from
    its own place; officer 5 also, once a second at most, changes report
    1's severity for the UIs to show."""
    k = 4 + w
    n = 0
    last_probe = 0.0
    while not stop.is_set():
        n += 1
        r = 2 + (n * 7 + w * 11) % (SEED - 1)
        step = n % 5
        if w == 1 and watcher and not watcher.busy() and \
                time.monotonic() - last_probe > 1.0:
            state["sev"] = (state["sev"] + 1) % len(SEVERITIES)
            sev = SEVERITIES[state["sev"]]
            t0 = time.monotonic()
            watcher.submit(t0, sev)
            run_cmd(ph, "triage --severity (seen by the UIs)", k,
                    ["triage", "1", "--severity", sev])
            last_probe = t0
            continue
        if step == 0:
            run_cmd(ph, "triage --note", k,
                    ["triage", str(r), "--note", "load w%d.%d" % (w, n)])
        elif step == 1:
            # Officers share reports: taking one over is explicit (--take).
            run_cmd(ph, "triage --claim/--unclaim", k,
                    ["triage", str(r)] + (["--claim", "--take"] if n % 2 else ["--unclaim"]))
        elif step == 2:
            run_cmd(ph, "triage --severity", k,
                    ["triage", str(r), "--severity",
                     SEVERITIES[(n + w) % 4]])
        elif step == 3:
            run_cmd(ph, "date propose", k,
                    ["date", "propose", str(r), "+%dd" % (n % 20 + 1),
                     "--by", "reporter", "--reason", "load p%d.%d" % (w, n)])
        else:
            v = state.setdefault((w, r), 0)
            state[(w, r)] = v + 1
            args = ["vendor", "status", str(r), "v%d" % w]
            if v < len(VSTEPS):
                args.append(VSTEPS[v])
            args += ["--note", "load v%d.%d" % (w, n)]
            run_cmd(ph, "vendor status", k, args)


def importer(ph, k, procs):
    argv = st_argv(k, "import")
    if JOBS:
        argv += ["--jobs", JOBS]
    argv += ["--maildir", "%s/md%d" % (W, k)]
    if NICE:
        argv = ["nice", "-n", str(NICE)] + argv
    if IDLE:
        argv = ["chrt", "--idle", "0"] + argv
    t0 = time.monotonic()
    with open("%s/import%d.out" % (W, k), "w") as out, \
            open("%s/import%d.err" % (W, k), "w") as err:
        p = subprocess.Popen(argv, env=officer_env(k), stdout=out,
                             stderr=err)
        procs.append(p)
        rc = p.wait()
    el = time.monotonic() - t0
    with open("%s/import%d.out" % (W, k)) as f:
        lines = f.read().splitlines()
    new = sum(1 for l in lines if re.match(r"^[0-9]+\t", l))
    dup = sum(1 for l in lines if l.startswith("duplicate"))
    with ph.lock:
        ph.imported += new
        ph.dups += dup
        ph.import_secs = max(ph.import_secs, el)
        if rc:
            ph.import_fail += 1


class LockSampler:
    """Every 10 ms or so, from the server (pg_stat_activity, one psql
    session kept open): how many of the command officers' (off5-off8) and
    the importers' (off1-off4) sessions are waiting for a lock.  Each
    count times the time since the previous sample (more than 10 ms on a
    busy machine) adds up to the time spent waiting: what "a command waits
    behind an import" would show as."""
    INTERVAL = 0.01
    # Per sample: command officers waiting with an importer among what
    # blocks them (pg_blocking_pids: the holder and those queued before),
    # command officers waiting behind other commands only, importers
    # waiting.
    SQL = ("WITH w AS (SELECT usename IN ('off5','off6','off7','off8') "
           "AS cmd, EXISTS (SELECT 1 FROM pg_stat_activity b WHERE b.pid "
           "= ANY (pg_blocking_pids(a.pid)) AND b.usename IN "
           "('off1','off2','off3','off4')) AS by_imp FROM pg_stat_activity "
           "a WHERE datname = 'load' AND wait_event_type = 'Lock') "
           "SELECT count(*) FILTER (WHERE cmd AND by_imp) || ' ' || "
           "count(*) FILTER (WHERE cmd AND NOT by_imp) || ' ' || "
           "count(*) FILTER (WHERE NOT cmd) FROM w;\n")

    def __init__(self):
        e = dict(os.environ)
        e["PGUSER"] = "postgres"
        self.p = subprocess.Popen(["psql", "-X", "-q", "-At", "-d", "load"],
                                  env=e, stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True,
                                  bufsize=1)
        self.phase = None
        self.stop = threading.Event()

    def run(self):
        last = time.monotonic()
        while not self.stop.is_set():
            self.p.stdin.write(self.SQL)
            self.p.stdin.flush()
            line = self.p.stdout.readline()
            now = time.monotonic()
            dt, last = (now - last) * 1000, now
            ph = self.phase
            if not line:
                break
            if ph:
                ci, cc, i = (int(x) for x in line.split())
                with ph.lock:
                    ph.samples += 1
                    ph.sampled_ms += dt
                    ph.wait_cmd += (ci + cc) * dt
                    ph.wait_cmd_imp += ci * dt
                    ph.wait_imp += i * dt
                    ph.wait_cmd_max = max(ph.wait_cmd_max, ci + cc)
            time.sleep(self.INTERVAL)

    def close(self):
        try:
            self.p.stdin.close()
        except OSError:
            pass
        self.p.wait()


def run_phase(ph, watcher, state, importing, sampler=None):
    if watcher:
        watcher.phase = ph
    stop = threading.Event()
    ws = [threading.Thread(target=worker, args=(ph, w, stop, watcher, state))
          for w in range(1, 5)]
    t0 = time.monotonic()
    if sampler:
        sampler.phase = ph
    for t in ws:
        t.start()
    if importing:
        procs = []
        ims = [threading.Thread(target=importer, args=(ph, k, procs))
               for k in range(1, 5)]
        for t in ims:
            t.start()
        for t in ims:
            t.join(max(0.1, MAXSEC - (time.monotonic() - t0)))
        if any(t.is_alive() for t in ims):
            print("load: imports still running after %d s: stopped"
                  % MAXSEC)
            ph.stopped = True
            for p in procs:
                p.terminate()
            for t in ims:
                t.join()
    else:
        time.sleep(SECONDS)
    stop.set()
    for t in ws:
        t.join()
    ph.secs = time.monotonic() - t0
    if sampler:
        sampler.phase = None
    while watcher and watcher.busy():
        time.sleep(0.05)


# --- the UIs -----------------------------------------------------------------
def tmux(*args):
    return subprocess.run(["tmux", "-L", TMUX] + list(args),
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True)


def start_uis():
    for u in range(1, UIS + 1):
        cmd = ("env LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=screen-256color "
               "EDITOR=true VISUAL= PGUSER=off%d '%s' --db '%s' "
               "--gnupghome '%s/o%d' --config '%s'"
               % (u, BIN, DB, W, u, config_of(u)))
        args = ["new-session", "-d", "-s", "ui%d" % u, "-x", "120", "-y",
                "50", cmd]
        if u == 1:
            args = ["-f", "/dev/null"] + args
        r = tmux(*args)
        if r.returncode:
            sys.exit("load: tmux: %s" % r.stderr.strip())
    end = time.monotonic() + 30
    row = re.compile(r"^ +1 +[a-z-]+ ", re.M)
    for u in range(1, UIS + 1):
        while not row.search(tmux("capture-pane", "-p", "-t",
                                  "ui%d" % u).stdout):
            if time.monotonic() > end:
                sys.exit("load: UI %d does not show report 1" % u)
            time.sleep(0.1)


# --- the figures ------------------------------------------------------------
def fmt(x):
    return "-" if x is None else "%.0f" % x


def trio(xs):
    return "%6s %6s %6s" % (fmt(pct(xs, 50)), fmt(pct(xs, 95)),
                            fmt(max(xs) if xs else None))


def report(ph):
    print("\n== phase: %s (%.1f s)" % (ph.name, ph.secs))
    print("  commands: %d, %.1f commands/s (4 officers)"
          % (len(ph.lat), len(ph.lat) / ph.secs if ph.secs else 0))
    if ph.import_secs:
        print("  imports: %d messages stored, %d duplicates, %.1f imports/s "
              "(messages stored or found duplicate, 4 officers, %.1f s)%s"
              % (ph.imported, ph.dups, (ph.imported + ph.dups)
                 / ph.import_secs, ph.import_secs,
                 ", %d import(s) exited non-zero" % ph.import_fail
                 if ph.import_fail else ""))
    print("  %-40s %6s %6s %6s %6s" % ("latency (ms)", "n", "p50", "p95",
                                        "max"))
    print("  %-40s %6d %s" % ("command (all)", len(ph.lat), trio(ph.lat)))
    for kind in sorted(ph.kind_lat):
        xs = ph.kind_lat[kind]
        print("  %-40s %6d %s" % ("  " + kind, len(xs), trio(xs)))
    if UIS:
        print("  %-40s %6d %s%s" % ("live update, command start to UI",
                                    len(ph.live), trio(ph.live),
                                    "  (%d not seen in 10 s)"
                                    % ph.live_missed
                                    if ph.live_missed else ""))
    if ph.samples:
        print("  waiting for a lock on the server (%d samples, one every "
              "%.0f ms):" % (ph.samples, ph.sampled_ms / ph.samples))
        print("    the command officers: %.0f ms in all, %.1f ms a command "
              "(at most %d waiting at once)"
              % (ph.wait_cmd, ph.wait_cmd / len(ph.lat)
                 if ph.lat else 0, ph.wait_cmd_max))
        print("      of which behind an import: %.0f ms, %.1f ms a command"
              % (ph.wait_cmd_imp, ph.wait_cmd_imp / len(ph.lat)
                 if ph.lat else 0))
        print("    the importing officers: %.0f ms in all" % ph.wait_imp)
    print("  failed commands: " + ", ".join(
        "%s %d" % (c, n) for c, n in ph.errors.items()))
    for c, e in sorted(ph.first_err.items()):
        print("    first %s: %s" % (c, e))


def integrity(complete):
    """complete: every import ran to its end (else the counts are not
    checked, only that nothing is there twice or broken)."""
    bad = []
    n, d = psql("SELECT count(*) || ' ' || count(DISTINCT message_id) "
                "FROM messages").split()
    want = SEED + NREP + NREPLY
    print("\n== integrity")
    print("  messages: %s stored, %s distinct Message-IDs (want %d)"
          % (n, d, want))
    if int(n) != int(d) or (complete and int(n) != want):
        bad.append("a Message-ID stored twice, or a message missing")
    orphans = psql(
        "SELECT count(*) FROM messages m WHERE m.in_reply_to IS NOT NULL "
        "AND NOT EXISTS (SELECT 1 FROM messages p WHERE p.report_id = "
        "m.report_id AND p.message_id = m.in_reply_to)")
    replies = psql("SELECT count(*) FROM messages WHERE in_reply_to IS "
                   "NOT NULL")
    reports = psql("SELECT count(*) FROM reports")
    print("  threads: %s replies, %s without their report in the same "
          "report; %s reports (want %d)" % (replies, orphans, reports,
                                             SEED + NREP))
    if orphans != "0" or (complete and (int(replies) != NREPLY or
                                        int(reports) != SEED + NREP)):
        bad.append("a thread broken")
    # Events on reports are the officers'; team events (report_id NULL:
    # team init, add-officer) the administrator's who set the team up.
    roles = ",".join("'%s'" % r for r in ROLES)
    stray = psql("SELECT coalesce(string_agg(DISTINCT officer, ' '), '') "
                 "FROM events WHERE report_id IS NOT NULL AND officer NOT "
                 "IN (%s)" % roles)
    nev = psql("SELECT count(*) FROM events WHERE report_id IS NOT NULL")
    team = psql("SELECT count(*) || ' (by ' || coalesce(string_agg("
                "DISTINCT officer, ' '), 'nobody') || ')' FROM events "
                "WHERE report_id IS NULL")
    print("  events on reports: %s, by a role not of the 8 officers: %s; "
          "team events: %s" % (nev, stray or "none", team))
    if stray:
        bad.append("events by " + stray)
    return bad


def main():
    with open("/proc/loadavg") as f:
        print("load average before: " + " ".join(f.read().split()[:3]) +
              " (%d CPUs)" % os.cpu_count())
    print("binary: %s" % BIN)
    t = time.monotonic()
    make_mail()
    counts = officer_copies()
    print("mail: %d seed reports; %d reports and %d replies, each officer "
          "1-4 importing %s of them (%.1f s to make)"
          % (SEED, NREP, NREPLY,
             "/".join(str(counts[k]) for k in range(1, 5)),
             time.monotonic() - t))
    # The seed, by officer 1: report 1 first, for the UIs to watch.
    for files in (["%s/mail/s1.eml" % W],
                  ["%s/mail/s%d.eml" % (W, i) for i in range(2, SEED + 1)]):
        p = subprocess.run(st_argv(1, "import", *files), env=officer_env(1),
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                           text=True)
        if p.returncode:
            sys.exit("load: seed import failed: " + p.stderr)
    for w in range(1, 5):
        p = subprocess.run(st_argv(1, "vendor", "add", "v%d" % w, "--contact",
                                   "security@v%d.example" % w),
                           env=officer_env(1), stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, text=True)
        if p.returncode:
            sys.exit("load: vendor add failed: " + p.stderr)
    watcher = Watcher()
    wt = None
    if UIS:
        start_uis()
        wt = threading.Thread(target=watcher.run)
        wt.start()
    print("officers: off1-off4 import (nice %d%s, --jobs %s), %s, "
          "off5-off8 run commands; team.key-cache %s"
          % (NICE, ", idle priority" if IDLE else "", JOBS or "default",
             "off1-off%d have the UI open (live update: tmux capture-pane)"
             % UIS if UIS else "no UI open (LOAD_UIS=0: no live update)",
             {"": "auto (the default)", "0": "off", "auto": "auto"}.get(
                 KEY_CACHE, "%s s" % KEY_CACHE)))
    state = {"sev": 0}
    p1 = Phase("4 officers' commands, no imports")
    p2 = Phase("4 officers' commands, 4 officers importing")
    sampler = LockSampler()
    st = threading.Thread(target=sampler.run)
    st.start()
    try:
        run_phase(p1, watcher if UIS else None, state, False, sampler)
        run_phase(p2, watcher if UIS else None, state, True, sampler)
    finally:
        with watcher.cond:
            watcher.stop = True
            watcher.cond.notify()
        if wt:
            wt.join()
        sampler.stop.set()
        st.join()
        sampler.close()
    for ph in (p1, p2):
        report(ph)
    for k in range(1, 5):
        with open("%s/import%d.err" % (W, k)) as f:
            e = f.read().strip()
        if e:
            print("  officer %d's import said: %s" % (k, e[:300]))
    bad = integrity(not p2.stopped)
    with open("/proc/loadavg") as f:
        print("\nload average after: " + " ".join(f.read().split()[:3]))
    fails = [c for ph in (p1, p2) for c in ("busy", "unreachable", "other")
             if ph.errors[c]]
    if p2.import_fail and not p2.stopped:
        bad.append("an import exited non-zero")
    if fails:
        bad.append("commands failed (%s), not by a documented refusal"
                   % ", ".join(sorted(set(fails))))
    if bad:
        print("load: FAILED: " + "; ".join(bad))
        return 1
    print("load: integrity ok, no command failed but by a documented refusal")
    return 0


if __name__ == "__main__":
    sys.exit(main())
