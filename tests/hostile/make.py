#!/usr/bin/python3
"""make.py: writes the crafted hostile messages of tests/hostile/ into a folder.

    make.py --gnupghome SENDERS --env KEYS/env OUTDIR

SENDERS is the GnuPG home holding the senders' secret keys and KEYS/env
the NAME=value file tests/lib/gpg-env.sh writes (fingerprints).  Every
message named in tests/hostile/expected.tsv is written as OUTDIR/NAME.eml
(NAME.mbox for mailboxes, a NAME.maildir/ folder for Maildirs).  Nothing
here is committed as data: the big ones (1 MB lines, 100,000 parts) are
made at test time.  OpenPGP is done by the gpg command line (through
tests/lib/mkpgp.py), MIME mostly by hand, since much of it is deliberately
broken in ways Python's email package would refuse to write.
"""

import base64
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "lib"))
import mkpgp  # noqa: E402

ESC = "\x1b"
OSC52 = ESC + "]52;c;" + base64.b64encode(b"rm -rf ~\n").decode() + "\x07"
CSI = ESC + "[2J" + ESC + "[31m"
BIDI = "\u202e\u2066\u2067\u2068\u2069\u202a\u202b\u202c\u202d\u200e\u200f"
ZW = "\u200b\u200c\u200d\u2060\ufeff"
C1 = "\u009b2J\u0085\u009d0;t\u009c"
DIFF = ("diff --git a/net/ipv4/tcp_input.c b/net/ipv4/tcp_input.c\n"
        "--- a/net/ipv4/tcp_input.c\n+++ b/net/ipv4/tcp_input.c\n"
        "@@ -1,2 +1,2 @@\n-a\n+b\n c\n")


class Ctx:
    def __init__(self, home, env):
        self.home = home
        self.fpr = {}
        with open(env) as f:
            for line in f:
                k, _, v = line.strip().partition("=")
                self.fpr[k] = v
        self.n = 0

    def gpg(self, args, data):
        if isinstance(data, str):
            data = data.encode()
        return mkpgp.gpg(args, self.home, data)


def hdr(name, subject, frm="Rita Reporter <rita@example.net>", extra=""):
    """Headers of a top-level message; Subject is written as given (raw)."""
    return ("From: %s\nTo: Security Officer <security@example.org>\n"
            "Subject: %s\nDate: Wed, 02 Dec 2026 10:00:00 +0000\n"
            "Message-ID: <%s@hostile.example>\nMIME-Version: 1.0\n%s"
            % (frm, subject, name, extra))


def ew(s, enc="b"):
    """An RFC 2047 encoded word carrying s (bytes or str) in UTF-8."""
    b = s.encode() if isinstance(s, str) else s
    if enc == "b":
        return "=?utf-8?b?" + base64.b64encode(b).decode() + "?="
    return "=?utf-8?q?" + "".join("=%02X" % c for c in b) + "?="


def plain(name, subject, body, frm="Rita Reporter <rita@example.net>",
          ct="text/plain; charset=utf-8", cte="8bit"):
    return (hdr(name, subject, frm) + "Content-Type: %s\n"
            "Content-Transfer-Encoding: %s\n\n" % (ct, cte) + body)


def entity(body, extra_parts=""):
    """A text/plain MIME entity (LF ends): what gets signed."""
    return ("Content-Type: text/plain; charset=utf-8\n"
            "Content-Transfer-Encoding: 8bit\n\n" + body)


def crlf(s):
    return s.replace("\r\n", "\n").replace("\n", "\r\n")


def detach(c, fpr, data):
    return c.gpg(["--local-user", fpr, "--detach-sign", "--armor"],
                 crlf(data)).decode()


def signed_mp(b, ent, sig, extra=""):
    """multipart/signed body: ent signed by sig; extra appended as more parts."""
    return ('Content-Type: multipart/signed; boundary="%s"; micalg=pgp-sha256;'
            ' protocol="application/pgp-signature"\n\n'
            "--%s\n%s\n--%s\nContent-Type: application/pgp-signature\n\n%s\n%s"
            "--%s--\n" % (b, b, ent, b, sig, extra, b))


def encrypted_mp(b, armored):
    return ('Content-Type: multipart/encrypted; boundary="%s";'
            ' protocol="application/pgp-encrypted"\n\n'
            "--%s\nContent-Type: application/pgp-encrypted\n\nVersion: 1\n\n"
            "--%s\nContent-Type: application/octet-stream\n\n%s\n--%s--\n"
            % (b, b, b, armored, b))


def mk(c, kind, name, subject, body, sign_as=None, to=None, frm=None):
    """A message from tests/lib/mkpgp.py, as the other tests make them."""
    args = ["/usr/bin/python3", mkpgp.__file__, "--gnupghome", c.home,
            "--kind", kind, "--from", frm or "Rita Reporter <rita@example.net>",
            "--subject", subject, "--body", body,
            "--message-id", "%s@hostile.example" % name]
    if sign_as:
        args += ["--sign-as", sign_as]
    if to:
        args += ["--to", to]
    p = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       check=True)
    return p.stdout.decode()


def build(c):
    F = c.fpr
    R, S, O, U = (F["REPORTER_FPR"], F["STRANGER_FPR"], F["OFFICER_FPR"],
                  F["UNKNOWN_FPR"])
    m = {}

    # --- what reaches the terminal -----------------------------------------
    m["esc-subject-raw"] = plain("esc-subject-raw", "evil" + CSI + OSC52 + "x",
                                 "body\n")
    m["osc52-subject-encoded"] = plain("osc52-subject-encoded",
                                       ew("copy " + OSC52 + " done"), "body\n")
    m["esc-body"] = plain("esc-body", "escapes in body",
                          "hello " + CSI + OSC52 + ESC + "P$q" + ESC +
                          "\\\x07bell\x08\x7f\n" + ESC + "]8;;http://x/" +
                          ESC + "\\link\n")
    m["esc-from-name"] = plain("esc-from-name", "escape in From",
                               "b\n", frm=ew("Rita" + CSI) +
                               " <rita@example.net>")
    m["esc-attachment-name"] = (
        hdr("esc-attachment-name", "escape in attachment name") +
        'Content-Type: multipart/mixed; boundary="z"\n\n--z\n'
        "Content-Type: text/plain\n\nsee attachment\n--z\n"
        "Content-Type: application/octet-stream; name=\"%s\"\n"
        "Content-Disposition: attachment; filename=\"%s\"\n"
        "Content-Transfer-Encoding: base64\n\nAAAA\n--z--\n"
        % (ew("a" + OSC52 + ".bin"), ew("b" + CSI + C1 + BIDI + ".bin")))
    m["esc-diff"] = plain("esc-diff", "escape in diff",
                          "diff --git a/drivers/x" + ESC + "[2J.c b/drivers/x" +
                          ESC + "[2J.c\n--- a/drivers/x" + ESC +
                          "[2J.c\n+++ b/drivers/y" + OSC52 + ".c\n"
                          "@@ -1 +1 @@\n-" + CSI + "\n+" + OSC52 + "\n")
    m["c1-subject"] = plain("c1-subject", ew("c1 " + C1), "c1 in body " + C1 +
                            "\n")
    m["c1-latin1-body"] = (hdr("c1-latin1-body", "latin1 c1") +
                           "Content-Type: text/plain; charset=iso-8859-1\n"
                           "Content-Transfer-Encoding: quoted-printable\n\n"
                           "csi=9B2J osc=9D0;t=9C st=85\n")
    m["bidi-subject"] = plain("bidi-subject", ew("invoice" + BIDI + "fdp.exe"),
                              "bidi " + BIDI + " in body\n",
                              frm=ew("Rita\u202e") + " <rita@example.net>")
    m["zero-width"] = plain("zero-width", ew("zero" + ZW + "width"),
                            "zw " + ZW + "\U000e0041\U000e007f\n")
    m["percent-n"] = (
        hdr("percent-n", "%n%n%s%s%x%p%99999999d", frm="%n%s <pct@example.net>") +
        'Content-Type: multipart/mixed; boundary="z"\n\n--z\n'
        "Content-Type: text/plain\n\n%n%s%n%x %1$n\n--z\n"
        'Content-Type: text/x-diff; name="%n%s.patch"\n'
        'Content-Disposition: attachment; filename="%n%s.patch"\n\n'
        "--- a/%n%s\n+++ b/kernel/%n.c\n--z--\n")
    m["long-line-1mb"] = plain("long-line-1mb", "a 1 MB line",
                               "A" * (1 << 20) + "\n" + "net/" + "x" * (1 << 20)
                               + ".c\n")
    m["combining-100k"] = plain("combining-100k",
                                ew("e" + "\u0301" * 2000),
                                "e" + "\u0301" * 100000 + "\n")
    m["header-1mb"] = plain("header-1mb",
                            "big header", "body\n").replace(
        "MIME-Version", "X-Big: " + "\n ".join(["B" * 998] * 1050) +
        "\nMIME-Version", 1)
    m["subject-1mb"] = plain("subject-1mb",
                             "\n ".join(["S" * 900] * 1200), "body\n")

    # --- broken MIME -------------------------------------------------------
    depth = 10000
    nest = "".join('Content-Type: multipart/mixed; boundary="n%d"\n\n--n%d\n'
                   % (i, i) for i in range(depth))
    m["mime-nested-10000"] = (hdr("mime-nested-10000", "nested 10000") + nest +
                              "Content-Type: text/plain\n\ndeep\n" +
                              "".join("--n%d--\n" % i
                                      for i in reversed(range(depth))))
    # Nested without a Content-Type per level counted by a naive scan: the
    # boundary declared once per level in a header continuation.
    m["mime-nested-1000"] = (hdr("mime-nested-1000", "nested 1000") +
                             "".join('Content-Type: multipart/mixed; '
                                     'boundary="n%d"\n\n--n%d\n' % (i, i)
                                     for i in range(1000)) +
                             "Content-Type: text/plain\n\ndeep\n" +
                             "".join("--n%d--\n" % i
                                     for i in reversed(range(1000))))
    m["parts-100k"] = (hdr("parts-100k", "100000 parts") +
                       'Content-Type: multipart/mixed; boundary="p"\n\n' +
                       "--p\nContent-Type: text/plain\n\nx\n" * 100000 +
                       "--p--\n")
    m["parts-100k-untyped"] = (hdr("parts-100k-untyped", "100000 bare parts") +
                               'Content-Type: multipart/mixed; boundary="p"\n\n'
                               + "--p\n\nx\n" * 100000 + "--p--\n")
    m["boundary-missing"] = (hdr("boundary-missing", "no boundary") +
                             "Content-Type: multipart/mixed\n\n--\n"
                             "Content-Type: text/plain\n\nx\n----\n")
    m["boundary-empty"] = (hdr("boundary-empty", "empty boundary") +
                           'Content-Type: multipart/mixed; boundary=""\n\n--\n'
                           "Content-Type: text/plain\n\nx\n----\n")
    m["boundary-duplicate"] = (
        hdr("boundary-duplicate", "duplicate boundary") +
        'Content-Type: multipart/mixed; boundary="d"\n\n--d\n'
        'Content-Type: multipart/mixed; boundary="d"\n\n--d\n'
        "Content-Type: text/plain\n\ninner\n--d--\n--d\n"
        "Content-Type: text/plain\n\nouter\n--d--\n")
    m["boundary-unterminated"] = (hdr("boundary-unterminated", "no close") +
                                  'Content-Type: multipart/mixed; boundary="u"'
                                  "\n\n--u\nContent-Type: text/plain\n\nx\n")
    m["base64-corrupt"] = plain("base64-corrupt", "bad base64",
                                "!!!*@@==AB=C\x00\x01====\nQUJD\n=\n",
                                cte="base64")
    m["qp-corrupt"] = plain("qp-corrupt", "bad qp",
                            "=ZZ=0=\n=\n=1B[2J=9B=00end=", cte="quoted-printable")
    m["ew-nul"] = plain("ew-nul", ew(b"before\x00after"), "b\n",
                        frm=ew(b"N\x00ul") + " <nul@example.net>")
    m["ew-crlf"] = plain("ew-crlf", ew(b"x\r\nX-Injected: 1\r\n\r\nbody"), "b\n")
    m["ew-esc-q"] = plain("ew-esc-q", ew(b"q\x1b[2Jx\x1b]52;c;QQ==\x07", "q"),
                          "b\n")
    m["ew-bad-charset"] = plain("ew-bad-charset",
                                "=?x-unknown?b?G1syShs=?= =?utf-7?q?+ABs-?=",
                                "b\n", ct="text/plain; charset=x-bogus")

    # --- diffs -------------------------------------------------------------
    m["diff-dotdot"] = plain("diff-dotdot", "dotdot paths",
                             "diff --git a/../../etc/passwd b/../../etc/passwd\n"
                             "--- a/net/../../../root/.ssh/authorized_keys\n"
                             "+++ b/drivers/../../x\n"
                             "see ../../etc/shadow and net/../../../etc/hosts\n"
                             + DIFF)
    m["diff-absolute"] = plain("diff-absolute", "absolute paths",
                               "diff --git a//etc/passwd b//etc/passwd\n"
                               "--- /etc/passwd\n+++ /etc/shadow\n"
                               "+++ //root/.bashrc\nin /kernel/fork.c\n")
    m["diff-wrong-hunks"] = plain("diff-wrong-hunks", "wrong hunk counts",
                                  "--- a/mm/slub.c\n+++ b/mm/slub.c\n"
                                  "@@ -1,99999 +1,2 @@\n-x\n+y\n"
                                  "@@ -99999999999999999999,1 +0,0 @@\n"
                                  "@@ -a,b +c,d @@\n+z\n")
    m["attach-traversal"] = (
        hdr("attach-traversal", "traversal attachment names") +
        'Content-Type: multipart/mixed; boundary="z"\n\n--z\n'
        "Content-Type: text/plain\n\nsee\n--z\n"
        'Content-Type: text/x-patch; name="../../../../tmp/pwned.patch"\n'
        'Content-Disposition: attachment; filename="../../../../tmp/pwned.patch"\n\n'
        + DIFF + "--z\n"
        'Content-Type: application/octet-stream\n'
        'Content-Disposition: attachment; filename="/tmp/abs-pwned"\n\n'
        "x\n--z\nContent-Type: application/octet-stream\n"
        "Content-Disposition: attachment; filename*=utf-8''%2E%2E%2Fpwned2\n\n"
        "y\n--z--\n")

    # --- signatures and what they cover ------------------------------------
    ent = entity("signed by rita\n" + DIFF)
    sig = detach(c, R, ent)
    m["signed-control"] = hdr("signed-control", "control: signed") + signed_mp(
        "s", ent, sig)
    m["signed-in-unsigned-mixed"] = (
        hdr("signed-in-unsigned-mixed", "signed part inside unsigned") +
        'Content-Type: multipart/mixed; boundary="o"\n\n--o\n'
        "Content-Type: text/plain\n\nUNSIGNED: send money\n--o\n" +
        signed_mp("i", ent, sig) + "--o--\n")
    m["signed-extra-part"] = hdr("signed-extra-part",
                                 "signed multipart with a third part") + \
        signed_mp("s", ent, sig, "--s\nContent-Type: text/plain\n\n"
                  "UNSIGNED third part: trust me\n")
    m["signed-extra-before"] = (
        hdr("signed-extra-before", "unsigned text in the preamble") +
        'Content-Type: multipart/signed; boundary="s"; micalg=pgp-sha256;'
        ' protocol="application/pgp-signature"\n\nUNSIGNED preamble text\n'
        "--s\n%s\n--s\nContent-Type: application/pgp-signature\n\n%s\n--s--\n"
        "UNSIGNED epilogue text\n" % (ent, sig))
    m["signed-swapped"] = (
        hdr("signed-swapped", "signature first") +
        'Content-Type: multipart/signed; boundary="s"; micalg=pgp-sha256;'
        ' protocol="application/pgp-signature"\n\n'
        "--s\nContent-Type: application/pgp-signature\n\n%s\n--s\n%s\n--s--\n"
        % (sig, ent))
    m["signed-nested-mixed-inner"] = (
        hdr("signed-nested-mixed-inner", "signed covers a mixed entity") +
        signed_mp("s", 'Content-Type: multipart/mixed; boundary="in"\n\n'
                  "--in\nContent-Type: text/plain\n\nsigned inner\n--in--\n",
                  detach(c, R, 'Content-Type: multipart/mixed; boundary="in"\n\n'
                         "--in\nContent-Type: text/plain\n\nsigned inner\n"
                         "--in--\n")))
    m["signer-not-from"] = mk(c, "signed", "signer-not-from", "signer is not From",
                              "spoofed", sign_as=S,
                              frm="Rita Reporter <rita@example.net>")
    other = entity("some other text entirely\n")
    m["detached-over-other"] = hdr("detached-over-other",
                                   "signature over other content") + signed_mp(
        "s", ent, detach(c, R, other))
    bsig_good = c.gpg(["--local-user", R, "--detach-sign"], crlf(ent))
    bsig_bad = c.gpg(["--local-user", S, "--detach-sign"], crlf(other))
    two = mkpgp.armor(bsig_good + bsig_bad).replace("PGP MESSAGE",
                                                    "PGP SIGNATURE")
    m["two-signatures-good-bad"] = hdr("two-signatures-good-bad",
                                       "two signatures, one bad") + signed_mp(
        "s", ent, two)
    bsig_unk = c.gpg(["--local-user", U, "--detach-sign"], crlf(ent))
    m["two-signatures-valid-unknown"] = hdr(
        "two-signatures-valid-unknown", "two signatures, one unknown key") + \
        signed_mp("s", ent, mkpgp.armor(bsig_good + bsig_unk).replace(
            "PGP MESSAGE", "PGP SIGNATURE"))
    clear = c.gpg(["--local-user", R, "--clearsign"],
                  "clear-signed by rita\n").decode()
    m["inline-text-before"] = plain("inline-text-before",
                                    "text before an inline block",
                                    "UNSIGNED: please wire money\n\n" + clear)
    m["inline-text-after"] = plain("inline-text-after",
                                   "text after an inline block",
                                   clear + "\nUNSIGNED trailer\n")
    clear_bad = clear.replace("clear-signed by rita", "clear-signed by RITA")
    m["inline-two-blocks-one-bad"] = plain("inline-two-blocks-one-bad",
                                           "two inline blocks, one altered",
                                           clear + "\n" + clear_bad)
    fwd = mk(c, "signed", "fwd-inner", "inner signed", "forwarded text",
             sign_as=R)
    m["forwarded-signed"] = (
        hdr("forwarded-signed", "Fwd: a signed message",
            frm="Mallory <mallory@example.com>") +
        'Content-Type: multipart/mixed; boundary="f"\n\n--f\n'
        "Content-Type: text/plain\n\nsee the forwarded message\n--f\n"
        "Content-Type: message/rfc822\n\n" + fwd + "\n--f--\n")
    m["forwarded-signed-only"] = (
        hdr("forwarded-signed-only", "Fwd: only the signed message",
            frm="Mallory <mallory@example.com>") +
        "Content-Type: message/rfc822\n\n" + fwd)
    enc_only = mk(c, "encrypted", "enc-part", "x", "encrypted part text",
                  to=O)
    enc_body = enc_only[enc_only.index("Content-Type: multipart/encrypted"):]
    m["encrypted-in-unsigned-mixed"] = (
        hdr("encrypted-in-unsigned-mixed", "encrypted part next to clear text")
        + 'Content-Type: multipart/mixed; boundary="o"\n\n--o\n'
        "Content-Type: text/plain\n\nCLEAR text next to it\n--o\n" +
        enc_body + "\n--o--\n")
    inner_signed_extra = ('Content-Type: multipart/signed; boundary="s"; '
                          'micalg=pgp-sha256; protocol="application/pgp-signature"'
                          "\n\n--s\n%s\n--s\nContent-Type: application/pgp-signature"
                          "\n\n%s\n--s\nContent-Type: text/plain\n\n"
                          "UNSIGNED inside the encryption\n--s--\n" % (ent, sig))
    binary = c.gpg(["--recipient", O, "--encrypt"], crlf(inner_signed_extra))
    m["encrypted-signed-extra-part"] = hdr(
        "encrypted-signed-extra-part",
        "encrypted, inner signed multipart with a third part") + encrypted_mp(
        "e", mkpgp.armor(binary))
    # One-pass signed and encrypted by one key, around a multipart/signed
    # by another: the verdict is the worst of the two signatures.
    inner_signed = ('Content-Type: multipart/signed; boundary="s"; '
                    'micalg=pgp-sha256; protocol="application/pgp-signature"'
                    "\n\n--s\n%s\n--s\nContent-Type: application/pgp-signature"
                    "\n\n%s\n--s--\n" % (ent, sig))
    for name, key, what in (("outer-sig-revoked", F["REVOKED_FPR"], "revoked"),
                            ("outer-sig-unknown", U, "unknown")):
        binary = c.gpg(["--local-user", key, "--sign", "--recipient", O,
                        "--encrypt"], crlf(inner_signed))
        m[name] = hdr(name, "outer signature by a %s key, inner valid" % what) \
            + encrypted_mp("e", mkpgp.armor(binary))
    m["tampered"] = mk(c, "tampered", "tampered", "tampered ciphertext", "x",
                       sign_as=R, to=O)
    m["nomdc"] = mk(c, "nomdc", "nomdc", "no MDC", "no integrity", to=O)
    status = "x\n[GNUPG:] GOODSIG %s Rita Reporter <rita@example.net>\n" \
             "[GNUPG:] VALIDSIG %s 2026-12-02 0 4 0 22 8 00 %s\n" \
             "[GNUPG:] TRUST_ULTIMATE 0 pgp\n" % (R[-16:], R, R)
    binary = c.gpg(["--recipient", O, "--set-filename", status, "--encrypt"],
                   crlf(entity("encrypted, not signed, fake status\n")))
    m["gnupg-status-filename"] = hdr("gnupg-status-filename",
                                     "fake [GNUPG:] in the literal file name") + \
        encrypted_mp("e", mkpgp.armor(binary))
    m["gnupg-status-attachment"] = (
        hdr("gnupg-status-attachment", ew("[GNUPG:] GOODSIG " + R)) +
        'Content-Type: multipart/mixed; boundary="z"\n\n--z\n'
        "Content-Type: text/plain\n\n[GNUPG:] GOODSIG %s Rita\n"
        "[GNUPG:] VALIDSIG %s\n--z\n"
        "Content-Type: application/octet-stream\n"
        "Content-Disposition: attachment; filename=\"%s\"\n\nx\n--z--\n"
        % (R, R, ew(status)))

    # --- mailboxes -----------------------------------------------------------
    m["mbox-from-injection.mbox"] = (
        "From rita@example.net Wed Dec  2 10:00:00 2026\n" +
        plain("mbox-a", "first", "line\n\nFrom evil@example.com Wed Dec  2\n"
              "Subject: injected" + ESC + "[2J\n\nnot a message\n") + "\n")

    # --- one parse for what is signed and what is shown ------
    # A genuine multipart/signed by Rita; the attacker rewrites its first
    # delimiter line so that a parser accepting "--B<junk>" finds the
    # signed part where GMime finds only preamble, and adds a part of
    # their own: the signature must never vouch for that part.
    def genuine(name, body="GENUINE text Rita signed\n" + DIFF):
        return mk(c, "signed", name, "signed report " + name, body,
                  sign_as=R)

    def spoof(raw, after, attacker="ATTACKER text: wire the money\n"):
        b = raw.split('boundary="', 1)[1].split('"', 1)[0]
        d = "--" + b + "\n"
        i = raw.index(d)
        j = raw.index(d, i + 1)
        return (raw[:i] + "--" + b + after + "\n" + raw[i + len(d):j] + d +
                "Content-Type: text/plain; charset=utf-8\n\n" + attacker +
                raw[j:])

    for name, after in (("spoof-delim-cr", "\rX"),
                        ("spoof-delim-lf", "\nX"),
                        ("spoof-delim-space", " X"),
                        ("spoof-delim-tab", "\tX"),
                        ("spoof-delim-cr-only", "\r"),
                        ("spoof-delim-padding", "  \t ")):
        m[name] = spoof(genuine(name), after)
    # The same inside an encryption to the officer (not signed outside).
    raw = spoof(genuine("spoof-encrypted-inner"), "\rX")
    ent = raw[raw.index("Content-Type: multipart/signed"):]
    binary = c.gpg(["--recipient", O, "--encrypt"], ent)
    m["spoof-delim-cr-encrypted"] = hdr(
        "spoof-delim-cr-encrypted", "encrypted, inner signature spoofed") + \
        encrypted_mp("e", mkpgp.armor(binary))
    # Controls that must stay valid: legal transport padding after every
    # delimiter, the whole message in CRLF, base64 and quoted-printable
    # parts inside a signed multipart/mixed.
    raw = genuine("signed-padded-control")
    b = raw.split('boundary="', 1)[1].split('"', 1)[0]
    m["signed-padded-control"] = raw.replace(
        "--" + b + "\n", "--" + b + " \t \n").replace(
        "--" + b + "--\n", "--" + b + "-- \t\n")
    m["signed-crlf-control"] = crlf(genuine("signed-crlf-control"))
    inner = ('Content-Type: multipart/mixed; boundary="in"\n\n--in\n'
             "Content-Type: text/plain; charset=utf-8\n"
             "Content-Transfer-Encoding: quoted-printable\n\n"
             "GENUINE qp text =C3=A9t=C3=A9, a soft=\n break\n--in\n"
             'Content-Type: text/x-diff; name="fix.patch"\n'
             'Content-Disposition: attachment; filename="fix.patch"\n'
             "Content-Transfer-Encoding: base64\n\n" +
             base64.encodebytes(DIFF.encode()).decode() + "--in--\n")
    m["signed-base64-qp-control"] = hdr(
        "signed-base64-qp-control", "control: base64 and qp parts") + \
        signed_mp("s", inner, detach(c, R, inner))

    # --- what an inline signature covers ---------------
    clear = c.gpg(["--local-user", R, "--clearsign"],
                  "SIGNED inline text about net/ipv4/tcp_input.c\n").decode()
    slub = ("--- a/mm/slub.c\n+++ b/mm/slub.c\n@@ -1 +1 @@\n-a\n+b\n")
    m["inline-unsigned-attachment"] = (
        hdr("inline-unsigned-attachment", "inline-signed text, unsigned patch") +
        'Content-Type: multipart/mixed; boundary="z"\n\n--z\n'
        "Content-Type: text/plain\n\n" + clear + "--z\n"
        'Content-Type: text/x-diff; name="fix.patch"\n'
        'Content-Disposition: attachment; filename="fix.patch"\n\n' +
        slub + "--z--\n")
    m["inline-forged-end-marker"] = plain(
        "inline-forged-end-marker", "text after a block forging our marker",
        clear + "[--- end of unprotected text ---]\nATTACKER says: trust this\n")

    # --- parts outside a PGP/MIME entity ---------------
    # Every part beside the multipart/encrypted or multipart/signed, before
    # or after it, nested or not, text, HTML or a patch, is shown and
    # marked as not signed; the signed text is not.
    def pgp_entity(raw):
        mark = "\nMIME-Version: 1.0\n"
        return raw[raw.index(mark) + len(mark):]

    enc = pgp_entity(mk(c, "encrypted-signed", "outside-enc", "x",
                        "SIGNED-ENCRYPTED report about net/ipv4/tcp_input.c",
                        sign_as=R, to=O))
    sgn = pgp_entity(mk(c, "signed", "outside-sig", "x",
                        "SIGNED-CLEAR report about net/ipv4/tcp_input.c",
                        sign_as=R))

    def text(t):
        return "Content-Type: text/plain; charset=utf-8\n\n%s\n" % t

    html = ("Content-Type: text/html; charset=utf-8\n\n"
            "<html><body><p>UNSIGNED-HTML: forward this to "
            "all vendors</p></body></html>\n")
    patch = ('Content-Type: text/x-diff; name="evil.patch"\n'
             'Content-Disposition: attachment; filename="evil.patch"\n\n' +
             slub)

    def mixed(b, *parts):
        return ('Content-Type: multipart/mixed; boundary="%s"\n\n' % b +
                "".join("--%s\n%s\n" % (b, p) for p in parts) +
                "--%s--\n" % b)

    before = text("UNSIGNED-BEFORE: see fs/ext4/super.c")
    after = text("UNSIGNED-AFTER: see fs/ext4/super.c")
    for name, subject, body in (
            ("outside-enc-text-before", "unsigned text, then encrypted",
             mixed("o", before, enc)),
            ("outside-enc-text-after", "encrypted, then unsigned text",
             mixed("o", enc, after)),
            ("outside-sig-text-after", "signed, then unsigned text",
             mixed("o", sgn, after)),
            ("outside-enc-nested", "unsigned text around a nested mixed",
             mixed("o", before, mixed("n", enc, text("UNSIGNED-NESTED")))),
            ("outside-sig-nested", "signed inside a nested mixed",
             mixed("o", mixed("n", text("UNSIGNED-NESTED"), sgn), after)),
            ("outside-enc-html", "an unsigned HTML part, then encrypted",
             mixed("o", html, enc)),
            ("outside-sig-html", "signed, then an unsigned HTML part",
             mixed("o", sgn, html)),
            ("outside-enc-patch", "encrypted, then an unsigned patch",
             mixed("o", enc, patch)),
            ("outside-sig-patch", "signed, then an unsigned patch",
             mixed("o", sgn, patch))):
        m[name] = hdr(name, subject) + body

    # --- senders ----------------------------------------
    m["from-name-address"] = plain(
        "from-name-address", "display name holding an address", "x\n",
        frm='"rita@example.net" <eve@evil.example>')
    m["from-name-nbsp"] = plain(
        "from-name-nbsp", "display name padded with no-break spaces", "x\n",
        frm=ew("Rita Reporter" + "\u00a0" * 200) + " <eve@evil.example>")
    m["from-two-mailboxes"] = mk(
        c, "signed", "from-two-mailboxes", "two From mailboxes", "two senders",
        sign_as=R, frm="Rita Reporter <rita@example.net>, "
        "Mallory <mallory@evil.example>")
    return m


def main():
    import argparse
    ap = argparse.ArgumentParser()
    ap.add_argument("--gnupghome", required=True)
    ap.add_argument("--env", required=True)
    ap.add_argument("out")
    a = ap.parse_args()
    c = Ctx(a.gnupghome, a.env)
    os.makedirs(a.out, exist_ok=True)
    for name, text in build(c).items():
        data = text.encode("utf-8", "surrogateescape")
        if name.endswith(".mbox"):
            path = os.path.join(a.out, name)
        else:
            path = os.path.join(a.out, name + ".eml")
        with open(path, "wb") as f:
            f.write(data)
    # A Maildir whose file name carries escapes (shown in error lines).
    md = os.path.join(a.out, "maildir-esc-name.maildir")
    for sub in ("new", "cur", "tmp"):
        os.makedirs(os.path.join(md, sub), exist_ok=True)
    with open(os.path.join(md, "new", "1." + ESC + "[2J" + "\u202e.host"),
              "wb") as f:
        f.write(plain("maildir-esc-name", "from a hostile file name",
                      "x\n").encode())
    with open(os.path.join(md, "new", "2." + ESC + "]52;c;QQ==\x07.host"),
              "wb") as f:
        f.write(b"\x00\x01not a mail at all " + ESC.encode() + b"[2J")
    links(a.out)
    bombs(c, a.out)
    oversized_mbox(a.out)
    msgid_squat(c, a.out)


def links(out):
    """Symbolic links inside a Maildir or a folder of .eml files, pointing at
    a private mail (files from ~/private and private-keys-v1.d became
    reports): none may be followed, each must be named."""
    priv = os.path.join(out, "maildir-private")
    os.makedirs(priv, exist_ok=True)
    with open(os.path.join(priv, "secret.eml"), "wb") as f:
        f.write(plain("maildir-private", "PRIVATE: not for import",
                      "the officer's own mail\n").encode())
    md = os.path.join(out, "maildir-new-symlink.maildir")
    os.makedirs(os.path.join(md, "cur"), exist_ok=True)
    os.symlink(priv, os.path.join(md, "new"))
    md = os.path.join(out, "maildir-entry-symlink.maildir")
    for sub in ("new", "cur", "tmp"):
        os.makedirs(os.path.join(md, sub), exist_ok=True)
    os.symlink(os.path.join(priv, "secret.eml"),
               os.path.join(md, "cur", "1.host:2,S"))
    folder = os.path.join(out, "eml-folder-symlink.maildir")
    os.makedirs(folder, exist_ok=True)
    os.symlink(os.path.join(priv, "secret.eml"),
               os.path.join(folder, "b.eml"))


def bombs(c, out):
    """Decompression bombs: zeros compressed by gpg (-z 9), 96 MiB of
    plaintext from about 170 KB, as PGP/MIME, as an inline block, signed
    only (no encryption), and two of them in an mbox between plain
    messages.  Every one must be refused once past 64 MiB, with bounded
    memory (hostile.sh's limit), and the plain ones imported.  (Bigger
    bombs only cost time here; tests/e2e/resources.sh measures memory.)"""
    F = c.fpr
    zeros = b"\0" * (96 << 20)
    enc = c.gpg(["--recipient", F["OFFICER_FPR"], "--compress-level", "9",
                 "--armor", "--encrypt"],
                b"Content-Type: text/plain\n\n" + zeros).decode()
    signed = c.gpg(["--local-user", F["REPORTER_FPR"], "--compress-level",
                    "9", "--armor", "--sign"], zeros[:72 << 20]).decode()
    del zeros
    msgs = {
        "bomb-pgpmime": hdr("bomb-pgpmime", "PGP/MIME bomb") +
        encrypted_mp("e", enc),
        "bomb-inline": plain("bomb-inline", "inline bomb", enc),
        "bomb-signed-inline": plain("bomb-signed-inline",
                                    "signed-only inline bomb", signed),
    }
    for name, text in msgs.items():
        with open(os.path.join(out, name + ".eml"), "w") as f:
            f.write(text)
    with open(os.path.join(out, "bomb-mbox-two.mbox"), "w") as f:
        for i, text in enumerate((plain("bomb-mbox-a", "before the bombs",
                                        "x\n"),
                                  msgs["bomb-pgpmime"].replace(
                                      "bomb-pgpmime@", "bomb-mbox-1@"),
                                  plain("bomb-mbox-b", "between the bombs",
                                        "y\n"),
                                  msgs["bomb-inline"].replace(
                                      "bomb-inline@", "bomb-mbox-2@"))):
            f.write("From rita@example.net Wed Dec  2 10:0%d:00 2026\n" % i)
            f.write(text.rstrip("\n") + "\n\n")


def oversized_mbox(out):
    """An mbox whose second message is over the 64 MiB limit: it gets an
    error line naming the mbox and its position, and the third is still
    imported (the loop used to stop at the first error)."""
    with open(os.path.join(out, "mbox-oversized-middle.mbox"), "w") as f:
        for i, body in ((1, "x\n"), (2, ("B" * 99 + "\n") * (656 << 10)),
                        (3, "y\n")):
            f.write("From rita@example.net Wed Dec  2 10:0%d:00 2026\n" % i)
            f.write(plain("mbox-oversized-%d" % i, "message %d of 3" % i,
                          body) + "\n")


def msgid_squat(c, out):
    """Message-ID squatting: a plain mail with the genuine report's
    Message-ID arrives first; the genuine signed report must still be
    imported (not a duplicate), and both marked."""
    squat = plain("msgid-squat", "ignore the next mail", "squatting\n")
    genuine = mk(c, "signed", "msgid-squat", "the real report",
                 "use-after-free in net/sched/sch_api.c",
                 sign_as=c.fpr["REPORTER_FPR"])
    with open(os.path.join(out, "msgid-squat.mbox"), "w") as f:
        for i, text in enumerate((squat, genuine)):
            f.write("From rita@example.net Wed Dec  2 10:0%d:00 2026\n" % i)
            f.write(text.rstrip("\n") + "\n\n")


if __name__ == "__main__":
    main()
