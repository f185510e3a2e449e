#!/usr/bin/python3
"""mkmbox.py: the mailbox the kill -9 stress test imports.

    mkmbox.py --gnupghome SENDERS --env KEYS/env --count N OUT.mbox

N messages (default 500), each with a unique Message-ID <stress-K@example.net>
and Subject "stress K": most plain (fast), every 10th signed by the reporter,
every 25th encrypted and signed to the officer, so the crypto path is killed
too.  The PGP ones are made by tests/lib/mkpgp.py (the gpg command line).
"""
import argparse
import mailbox
import email
import os
import subprocess
import sys

ap = argparse.ArgumentParser()
ap.add_argument("--gnupghome", required=True)
ap.add_argument("--env", required=True)
ap.add_argument("--count", type=int, default=500)
ap.add_argument("out")
a = ap.parse_args()
fpr = dict(l.strip().split("=", 1) for l in open(a.env) if "=" in l)
mkpgp = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib",
                     "mkpgp.py")
box = mailbox.mbox(a.out)
box.lock()
for k in range(1, a.count + 1):
    mid = "stress-%d@example.net" % k
    subj = "stress %d" % k
    body = "report %d about net/ipv4/tcp_input.c\n" % k
    if k % 25 == 0 or k % 10 == 0:
        kind = "encrypted-signed" if k % 25 == 0 else "signed"
        args = ["/usr/bin/python3", mkpgp, "--gnupghome", a.gnupghome,
                "--kind", kind, "--from", "Rita Reporter <rita@example.net>",
                "--sign-as", fpr["REPORTER_FPR"], "--subject", subj,
                "--body", body, "--message-id", mid]
        if kind == "encrypted-signed":
            args += ["--to", fpr["OFFICER_FPR"]]
        raw = subprocess.run(args, stdout=subprocess.PIPE, check=True).stdout
    else:
        raw = ("From: Rita Reporter <rita@example.net>\nTo: security@example.org\n"
               "Subject: %s\nDate: Wed, 02 Dec 2026 10:00:00 +0000\n"
               "Message-ID: <%s>\nMIME-Version: 1.0\n"
               "Content-Type: text/plain; charset=utf-8\n\n%s" % (subj, mid, body)
               ).encode()
    box.add(email.message_from_bytes(raw))
box.flush()
box.unlock()
sys.exit(0)
