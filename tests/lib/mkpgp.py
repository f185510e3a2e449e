#!/usr/bin/python3
"""mkpgp.py: builds PGP mails the way real mail clients do, for tests.

The OpenPGP work is done by the gpg command line and the MIME by Python's
email package, so what the project parses was not made by its own code.

    mkpgp.py --gnupghome H --kind KIND --from "Rita Reporter <rita@example.net>"
             [--sign-as FPR] --to FPR [--to FPR ...] --subject S
             (--body-file F | --body TEXT) [--attach FILE]
             [--message-id ID] [--in-reply-to ID] [--date RFC2822]
             [--around TEXT] > msg.eml

KIND:
  encrypted-signed  RFC 3156 multipart/encrypted; the inner MIME entity is
                    signed and encrypted in one pass (gpg --sign --encrypt)
  encrypted         multipart/encrypted, not signed
  signed            RFC 3156 multipart/signed: the first part is canonicalized
                    to CRLF and signed with gpg --detach-sign --armor
  inline-signed     text/plain body clear-signed (gpg --clearsign)
  inline-encrypted  text/plain body that is an armored encrypted (and, with
                    --sign-as, signed) message
  plain             no OpenPGP at all
  nomdc             multipart/encrypted without integrity protection: gpg 2.2
                    still writes a Symmetrically Encrypted Data packet (no MDC)
                    with --rfc2440 (signed inside when --sign-as is given)
  tampered          encrypted-signed with one byte of the ciphertext flipped
  badsig            signed, with the signed text changed after signing

--around TEXT makes the message partial: the PGP/MIME message becomes one
part of a multipart/mixed whose first part is TEXT (text/plain, neither
signed nor encrypted); an inline kind gets TEXT before and after its armored
block.  Not for --kind plain.

H is the GnuPG home holding the --sign-as secret key and the --to public keys
(tests/lib/gpg-env.sh makes one: $GNUPG_SENDERS_HOME).  Recipients are trusted
for this run only (--trust-model always): this is a test tool.  The To header
names the --to keys' first user IDs (the officer when there is no --to).
The message is written to stdout with LF line endings, as mail is stored
on disk.  Exits 1 with a message on stderr when gpg fails.

    mkpgp.py --gnupghome H --batch < lines

makes many messages in one process: each line of stdin is a file to write
and the options above, all separated by tabs ("OUT\t--kind\tplain\t...").
"""

import argparse
import base64
import email.policy
import email.utils
import mimetypes
import os
import subprocess
import sys
from email.message import EmailMessage

KINDS = ("encrypted-signed", "encrypted", "signed", "inline-signed",
         "inline-encrypted", "plain", "nomdc", "tampered", "badsig")


def gpg(args, home, data):
    cmd = ["gpg", "--homedir", home, "--batch", "--no-tty", "--yes",
           "--trust-model", "always", "--digest-algo", "SHA256"] + args
    p = subprocess.run(cmd, input=data, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE)
    if p.returncode != 0:
        sys.stderr.write("mkpgp: %s failed:\n%s" %
                         (" ".join(cmd), p.stderr.decode(errors="replace")))
        sys.exit(1)
    return p.stdout


_uids = {}


def first_uid(home, fpr):
    if (home, fpr) not in _uids:
        _uids[(home, fpr)] = lookup_uid(home, fpr)
    return _uids[(home, fpr)]


def lookup_uid(home, fpr):
    out = subprocess.run(["gpg", "--homedir", home, "--batch",
                          "--with-colons", "--list-keys", fpr],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    for line in out.stdout.decode(errors="replace").splitlines():
        f = line.split(":")
        if f[0] == "uid":
            return f[9].replace("\\x3a", ":")
    return fpr


def crc24(data):
    crc = 0xB704CE
    for b in data:
        crc ^= b << 16
        for _ in range(8):
            crc <<= 1
            if crc & 0x1000000:
                crc ^= 0x1864CFB
    return crc & 0xFFFFFF


def armor(data):
    """ASCII armor (RFC 4880 section 6) of a binary OpenPGP message."""
    b64 = base64.b64encode(data).decode()
    lines = [b64[i:i + 64] for i in range(0, len(b64), 64)]
    crc = base64.b64encode(crc24(data).to_bytes(3, "big")).decode()
    return ("-----BEGIN PGP MESSAGE-----\n\n" + "\n".join(lines) +
            "\n=" + crc + "\n-----END PGP MESSAGE-----\n")


def content_entity(args):
    """The MIME entity the user wrote: the text, plus any attachment."""
    if args.body_file:
        with open(args.body_file, encoding="utf-8") as f:
            body = f.read()
    else:
        body = args.body
    if not body.endswith("\n"):
        body += "\n"
    msg = EmailMessage()
    msg.set_content(body, cte="quoted-printable")
    for path in args.attach:
        with open(path, "rb") as f:
            data = f.read()
        ctype = mimetypes.guess_type(path)[0] or "application/octet-stream"
        main, sub = ctype.split("/", 1)
        if ctype == "message/rfc822":
            # A forwarded mail (*.eml): attached as a message, not bytes.
            msg.add_attachment(email.message_from_bytes(
                data, policy=email.policy.default),
                filename=os.path.basename(path))
            continue
        msg.add_attachment(data, maintype=main, subtype=sub,
                           filename=os.path.basename(path))
    # Keep only the Content-* headers: it is a MIME entity, not a message.
    del msg["MIME-Version"]
    return msg, body


def entity_bytes(entity):
    """The entity in canonical form: CRLF line endings (RFC 3156 5.)."""
    return entity.as_bytes(policy=email.policy.SMTP)


def angle(msgid):
    """Message-IDs travel in angle brackets; accept them with or without."""
    return msgid if msgid.startswith("<") else "<" + msgid + ">"


def headers(args, extra):
    lines = ["From: " + args.from_,
             "To: " + (", ".join(first_uid(args.gnupghome, t)
                                 for t in args.to) or
                       "Security Officer <security@example.org>"),
             "Subject: " + args.subject,
             "Date: " + (args.date or email.utils.formatdate()),
             "Message-ID: " + (angle(args.message_id) if args.message_id else
                               email.utils.make_msgid(domain="example.net"))]
    if args.in_reply_to:
        lines.append("In-Reply-To: " + angle(args.in_reply_to))
        lines.append("References: " + angle(args.in_reply_to))
    lines.append("MIME-Version: 1.0")
    return "\n".join(lines + extra) + "\n"


def recipients(args):
    r = []
    for t in args.to:
        r += ["--recipient", t]
    return r


def signer(args):
    if not args.sign_as:
        sys.stderr.write("mkpgp: --kind %s needs --sign-as\n" % args.kind)
        sys.exit(2)
    return ["--local-user", args.sign_as]


def multipart_encrypted(args, armored):
    b = "enc-" + base64.b32encode(os.urandom(10)).decode().lower()
    return (headers(args, [
        'Content-Type: multipart/encrypted; boundary="%s";' % b,
        ' protocol="application/pgp-encrypted"']) +
        "\nThis is an OpenPGP/MIME encrypted message (RFC 4880 and 3156)\n"
        "--%s\nContent-Type: application/pgp-encrypted\n"
        "Content-Description: PGP/MIME version identification\n\n"
        "Version: 1\n\n"
        "--%s\nContent-Type: application/octet-stream; name=\"encrypted.asc\"\n"
        "Content-Description: OpenPGP encrypted message\n"
        "Content-Disposition: inline; filename=\"encrypted.asc\"\n\n"
        "%s\n--%s--\n" % (b, b, armored, b))


def multipart_signed(args, tamper):
    entity, _ = content_entity(args)
    canon = entity_bytes(entity)
    sig = gpg(signer(args) + ["--detach-sign", "--armor"], args.gnupghome,
              canon).decode()
    # The CRLF before the next boundary belongs to the boundary (RFC 2046),
    # so the part is written whole, its last line break included.
    part = canon.decode().replace("\r\n", "\n")
    if tamper:
        # Change the signed text after signing (still valid MIME).
        part = part.replace("\n\n", "\n\nX", 1)
    b = "sig-" + base64.b32encode(os.urandom(10)).decode().lower()
    return (headers(args, [
        'Content-Type: multipart/signed; boundary="%s";' % b,
        ' micalg=pgp-sha256; protocol="application/pgp-signature"']) +
        "\nThis is an OpenPGP/MIME signed message (RFC 4880 and 3156)\n"
        "--%s\n%s\n--%s\n"
        "Content-Type: application/pgp-signature; name=\"signature.asc\"\n"
        "Content-Description: OpenPGP digital signature\n"
        "Content-Disposition: attachment; filename=\"signature.asc\"\n\n"
        "%s\n--%s--\n" % (b, part, b, sig, b))


def wrap_around(out, kind, text):
    """The message with unprotected text next to its OpenPGP content."""
    mark = "\nMIME-Version: 1.0\n"
    i = out.index(mark) + len(mark)
    head, entity = out[:i], out[i:]
    if kind.startswith("inline-"):
        ctype, _, body = entity.partition("\n\n")
        return head + ctype + "\n\n" + text + "\n\n" + body + "\n" + text + "\n"
    b = "mix-" + base64.b32encode(os.urandom(10)).decode().lower()
    return (head + 'Content-Type: multipart/mixed; boundary="%s"\n\n'
            "--%s\nContent-Type: text/plain; charset=utf-8\n"
            "Content-Transfer-Encoding: 8bit\n\n%s\n--%s\n%s\n--%s--\n"
            % (b, b, text, b, entity, b))


def parser():
    ap = argparse.ArgumentParser(description="build PGP test mails")
    ap.add_argument("--gnupghome", required=True)
    ap.add_argument("--kind", required=True, choices=KINDS)
    ap.add_argument("--from", dest="from_", required=True)
    ap.add_argument("--sign-as")
    ap.add_argument("--to", action="append", default=[])
    ap.add_argument("--subject", required=True)
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument("--body-file")
    g.add_argument("--body")
    ap.add_argument("--attach", action="append", default=[])
    ap.add_argument("--message-id")
    ap.add_argument("--in-reply-to")
    ap.add_argument("--date")
    ap.add_argument("--around")
    return ap


def build(args):
    """The message args ask for, as text."""
    k = args.kind

    if args.around is not None and k == "plain":
        sys.stderr.write("mkpgp: --around needs an OpenPGP kind\n")
        sys.exit(2)

    if k in ("encrypted-signed", "encrypted", "nomdc", "tampered",
             "inline-encrypted") and not args.to:
        sys.stderr.write("mkpgp: --kind %s needs --to\n" % k)
        sys.exit(2)

    if k == "plain":
        _, body = content_entity(args)
        out = headers(args, ["Content-Type: text/plain; charset=utf-8",
                             "Content-Transfer-Encoding: 8bit"]) + "\n" + body
    elif k == "signed":
        out = multipart_signed(args, False)
    elif k == "badsig":
        out = multipart_signed(args, True)
    elif k == "inline-signed":
        _, body = content_entity(args)
        signed = gpg(signer(args) + ["--clearsign"], args.gnupghome,
                     body.encode()).decode()
        out = headers(args, ["Content-Type: text/plain; charset=utf-8",
                             "Content-Transfer-Encoding: 8bit"]) + "\n" + signed
    elif k == "inline-encrypted":
        _, body = content_entity(args)
        s = signer(args) + ["--sign"] if args.sign_as else []
        enc = gpg(s + recipients(args) + ["--encrypt", "--armor"],
                  args.gnupghome, body.encode()).decode()
        out = headers(args, ["Content-Type: text/plain; charset=us-ascii",
                             "Content-Transfer-Encoding: 7bit"]) + "\n" + enc
    else:
        entity, _ = content_entity(args)
        inner = entity_bytes(entity)
        s = signer(args) + ["--sign"] if (
            k in ("encrypted-signed", "tampered") or
            (k == "nomdc" and args.sign_as)) else []
        extra = ["--rfc2440"] if k == "nomdc" else []
        binary = gpg(extra + s + recipients(args) + ["--encrypt"],
                     args.gnupghome, inner)
        if k == "tampered":
            # The last packet is the encrypted data; flip a byte inside it.
            i = len(binary) - 10
            binary = binary[:i] + bytes([binary[i] ^ 0x01]) + binary[i + 1:]
        out = multipart_encrypted(args, armor(binary))
    if args.around is not None:
        out = wrap_around(out, k, args.around)
    return out


def batch(home):
    """--batch: one message a line of stdin, "OUT<TAB>ARG<TAB>ARG...",
    written to the file OUT; one process for many messages (starting
    Python costs more than the message)."""
    ap = parser()
    for line in sys.stdin:
        fields = line.rstrip("\n").split("\t")
        if fields and fields[-1] == "":
            fields.pop()  # the tab after the last argument
        if not fields:
            continue
        args = ap.parse_args(["--gnupghome", home] + fields[1:])
        with open(fields[0], "w") as f:
            f.write(build(args))


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "--gnupghome" and sys.argv[3] == "--batch":
        batch(sys.argv[2])
        return
    sys.stdout.write(build(parser().parse_args()))


if __name__ == "__main__":
    main()
