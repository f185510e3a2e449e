#!/usr/bin/python3
"""mailcheck.py: the series' mails as a stable maintainer reads them.

    mailcheck.py SRCDIR LIBSH AMLOG PATCH...

SRCDIR is kernel-docs/series (the sources NN-*.in, in order, one per
mail), LIBSH scripts/kernel-lib.sh (kc_sender_problem, the example
identity), AMLOG what `git am` of the mails recorded, a line per commit:
"AUTHOR<TAB>AUTHOR-DATE (RFC 2822)".  For every mail:
  - the sender (From:) can sign a series off: a person's address, or the
    repository's example identity, marked as such (X-Example-Sender:);
  - To: holds the stable list, and the security contact is in Cc: (never
    in To: it is told, not asked to apply anything);
  - the last Signed-off-by: of the message is the sender's;
and for a backport (its source has Upstream:):
  - the line "commit <sha> upstream." opens the message and names the
    pinned commit (Upstream:);
  - the in-body From: is upstream's author (Author:), and git am recorded
    that author;
  - the in-body Date: is upstream's author date (Author-Date:), and git am
    recorded that date;
  - upstream's tags (the source's trailer lines) are all there, in order,
    before the sender's sign-off.
Prints one line per mail; exits 1 when something is wrong.
"""

import email
import email.policy
import email.utils
import os
import re
import subprocess
import sys

STABLE = "stable@vger.kernel.org"
SECURITY = "security@kernel.org"
TAG = re.compile(r"^[A-Za-z][A-Za-z0-9-]*: \S")


def headers(path):
    """The mail-like headers of a source, up to its first blank line."""
    h = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line:
                break
            if line.startswith("#") or ": " not in line:
                continue
            k, v = line.split(": ", 1)
            h.setdefault(k, v)
    return h


def source_tags(path):
    """Upstream's trailer lines in a source's message: after the line
    "commit ... upstream.", before the sender's @SIGNOFF@."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    msg = text.split("\n\n", 1)[1].split("\n---\n", 1)[0]
    tags = []
    for line in msg.split("\n"):
        if line == "@SIGNOFF@":
            break
        if TAG.match(line) and not line.startswith("commit "):
            tags.append(line)
    return tags


def addr(s):
    name, a = email.utils.parseaddr(s)
    return name, a.lower()


def same_date(a, b):
    try:
        x = email.utils.parsedate_to_datetime(a)
        y = email.utils.parsedate_to_datetime(b)
    except (TypeError, ValueError):
        return False
    return x == y and x.utcoffset() == y.utcoffset()


def sender_problem(libsh, name, address):
    out = subprocess.run(
        ["bash", "-c", '. "$1"; kc_sender_problem "$2" "$3"', "-", libsh, name, address],
        capture_output=True, text=True, check=False)
    return out.stdout.strip() or out.stderr.strip()


def example_identity(libsh):
    out = subprocess.run(
        ["bash", "-c", '. "$1"; printf "%s\\n%s\\n" "$KC_EXAMPLE_NAME" "$KC_EXAMPLE_EMAIL"', "-", libsh],
        capture_output=True, text=True, check=True)
    name, address = out.stdout.split("\n")[:2]
    return name, address.lower()


def check(src, patch, amline, libsh, example):
    bad = []
    notes = []
    with open(patch, encoding="utf-8") as f:
        m = email.message_from_file(f, policy=email.policy.default)
    sender = m["From"].addresses[0] if m["From"] and m["From"].addresses else None
    if sender is None:
        return ["no From:"], notes
    s_name, s_addr = sender.display_name, sender.addr_spec.lower()
    if (s_name, s_addr) == example:
        if m["X-Example-Sender"]:
            notes.append("sent by the example identity (make kernel-series signs as you)")
        else:
            bad.append("the sender is the example identity %s <%s>, but the mail is not marked "
                       "X-Example-Sender:" % example)
    else:
        why = sender_problem(libsh, s_name, s_addr)
        if why:
            bad.append("the sender %s <%s> cannot sign it off: %s (git config user.name, user.email)"
                       % (s_name, s_addr, why))
    to = [a.addr_spec.lower() for a in (m["To"].addresses if m["To"] else [])]
    cc = [a.addr_spec.lower() for a in (m["Cc"].addresses if m["Cc"] else [])]
    if STABLE not in to:
        bad.append("To: does not hold %s" % STABLE)
    if SECURITY in to:
        bad.append("%s is in To:, not Cc:" % SECURITY)
    elif SECURITY not in cc:
        bad.append("%s is not in Cc:" % SECURITY)

    body = m.get_content()
    msg = body.split("\n---\n", 1)[0]
    lines = msg.split("\n")
    # the in-body headers: the lines before the first blank one
    inbody = {}
    i = 0
    while i < len(lines) and lines[i] and re.match(r"^(From|Date|Subject): ", lines[i]):
        k, v = lines[i].split(": ", 1)
        inbody[k] = v
        i += 1
    while i < len(lines) and not lines[i]:
        i += 1
    rest = lines[i:]
    sobs = [l[len("Signed-off-by: "):] for l in rest if l.startswith("Signed-off-by: ")]
    if not sobs:
        bad.append("no Signed-off-by:")
    elif addr(sobs[-1]) != (s_name, s_addr):
        bad.append("the last Signed-off-by: is %s, not the sender %s <%s>" % (sobs[-1], s_name, s_addr))

    h = headers(src)
    up = h.get("Upstream")
    if up:
        first = rest[0] if rest else ""
        mm = re.match(r"^commit ([0-9a-f]{12,40}) upstream\.$", first)
        if not mm:
            bad.append("the message does not open with 'commit %s upstream.'" % up)
        elif mm.group(1) != up:
            bad.append("'commit %s upstream.' is not the pinned upstream commit %s" % (mm.group(1), up))
        author = h.get("Author", "")
        if "From" not in inbody:
            bad.append("no in-body From: (upstream's author, %s)" % author)
        elif addr(inbody["From"]) != addr(author):
            bad.append("the in-body From: is %s, not upstream's author %s" % (inbody["From"], author))
        adate = h.get("Author-Date", "")
        if "Date" not in inbody:
            bad.append("no in-body Date: (upstream's author date, %s)" % adate)
        elif not same_date(inbody["Date"], adate):
            bad.append("the in-body Date: is %s, not upstream's author date %s" % (inbody["Date"], adate))
        am_author, _, am_date = amline.partition("\t")
        if addr(am_author) != addr(author):
            bad.append("git am records the author %s, not upstream's %s" % (am_author, author))
        if not same_date(am_date, adate):
            bad.append("git am records the author date %s, not upstream's %s" % (am_date, adate))
        tags = source_tags(src)
        got = [l for l in rest if TAG.match(l)]
        # upstream's tags, in order, and before the sender's sign-off
        j = 0
        for l in got[:-1] if got and got[-1].startswith("Signed-off-by: ") else got:
            if j < len(tags) and l == tags[j]:
                j += 1
        if j < len(tags):
            bad.append("upstream's tag '%s' is missing or out of order" % tags[j])
        else:
            notes.append("commit %s upstream, by %s, %s; %d upstream tags kept"
                         % (up[:12], author, adate, len(tags)))
    notes.append("signed off by %s <%s>; To: %s; %s in Cc" % (s_name, s_addr, STABLE, SECURITY))
    return bad, notes


def main():
    srcdir, libsh, amlog, patches = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    sources = sorted(os.path.join(srcdir, f) for f in os.listdir(srcdir) if f.endswith(".in"))
    with open(amlog, encoding="utf-8") as f:
        am = [l.rstrip("\n") for l in f if l.strip()]
    example = example_identity(libsh)
    if len(sources) != len(patches):
        print("FAIL the series has %d mails, kernel-docs/series %d sources" % (len(patches), len(sources)))
        return 1
    failed = 0
    for k, (src, patch) in enumerate(zip(sources, patches)):
        bad, notes = check(src, patch, am[k] if k < len(am) else "", libsh, example)
        name = os.path.basename(patch)
        if bad:
            failed += 1
            print("FAIL %s: %s" % (name, "; ".join(bad)))
        else:
            print("ok %s: %s" % (name, "; ".join(notes)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
