#!/usr/bin/python3
"""mkreport.py: the encrypted and signed report mail for the kernel-check guest.

    mkreport.py --gnupghome H --sign-as FPR --to FPR --from ADDR --subject S
                [--body TEXT] > report.eml

Builds an RFC 3156 multipart/encrypted message whose inner MIME entity is
signed and encrypted in one pass with the gpg command line; the MIME is done
by Python's email package, so the message is not made by secteam-tui's own
code.  H holds the signer's secret key and the recipient's public key.
Exits 1 with gpg's output on stderr when gpg fails.
"""

import argparse
import email.policy
import email.utils
import subprocess
import sys
from email.message import EmailMessage
from email.mime.application import MIMEApplication
from email.mime.multipart import MIMEMultipart
from email.encoders import encode_7or8bit

BODY = """Hello security team,

the FOO_IOCTL handler in drivers/misc/foo.c frees the request buffer on
the error path and then reads it again, a use-after-free reachable by an
unprivileged user who can open /dev/foo.

Reproducer: run ./foo-uaf as an unprivileged user on a KASAN kernel.
Impact: local privilege escalation.

The bug is not public.  I would like to publish my write-up once a fix
is released.

Thanks,
Rita
"""


def gpg(home, args, data):
    cmd = ["gpg", "--homedir", home, "--batch", "--no-tty", "--yes",
           "--trust-model", "always"] + args
    p = subprocess.run(cmd, input=data, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE)
    if p.returncode != 0:
        sys.stderr.write("mkreport: %s failed:\n%s" %
                         (" ".join(cmd), p.stderr.decode(errors="replace")))
        sys.exit(1)
    return p.stdout


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--gnupghome", required=True)
    ap.add_argument("--sign-as", required=True)
    ap.add_argument("--to", required=True, help="recipient key fingerprint")
    ap.add_argument("--from", dest="from_", required=True)
    ap.add_argument("--to-addr", default="Security Officers <security@kernel.org>")
    ap.add_argument("--subject", required=True)
    ap.add_argument("--body", default=BODY)
    a = ap.parse_args()

    inner = EmailMessage()
    inner.set_content(a.body, cte="quoted-printable")
    del inner["MIME-Version"]
    # RFC 3156: the encrypted entity is in canonical form (CRLF).
    canon = inner.as_bytes(policy=email.policy.SMTP)
    armored = gpg(a.gnupghome, ["--local-user", a.sign_as, "--sign",
                                "--recipient", a.to, "--encrypt", "--armor"],
                  canon)

    outer = MIMEMultipart("encrypted", protocol="application/pgp-encrypted")
    outer["From"] = a.from_
    outer["To"] = a.to_addr
    outer["Subject"] = a.subject
    outer["Date"] = email.utils.formatdate()
    outer["Message-ID"] = email.utils.make_msgid(domain="example.net")
    outer.preamble = "This is an OpenPGP/MIME encrypted message (RFC 4880 and 3156)"
    version = MIMEApplication(b"Version: 1\n", "pgp-encrypted", encode_7or8bit)
    version["Content-Description"] = "PGP/MIME version identification"
    data = MIMEApplication(armored, "octet-stream", encode_7or8bit,
                           name="encrypted.asc")
    data["Content-Description"] = "OpenPGP encrypted message"
    data["Content-Disposition"] = 'inline; filename="encrypted.asc"'
    outer.attach(version)
    outer.attach(data)
    sys.stdout.write(outer.as_string())


if __name__ == "__main__":
    main()
