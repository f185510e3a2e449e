#!/usr/bin/python3
"""Writes the mail/ unit test fixtures into the directory argv[1].

Every message is made with Python's standard `email` and `mailbox`
packages (or, for deliberately broken input, raw bytes), so what the C
parser reads was not produced by our own composer.  Where a test needs an
exact expected value that is not obvious from the source below (the bytes a
detached signature covers, a content hash) it is written next to the
message as NAME.expected / NAME.sha256.

    mkmail.py DIR           write the fixtures
    mkmail.py --check FILE  check a message we composed (exit 0 if sound)
"""
import hashlib
import mailbox
import os
import sys
from email import charset as _charset
from email import policy
from email.generator import BytesGenerator
from email.header import Header
from email.message import EmailMessage, Message
from email.mime.application import MIMEApplication
from email.mime.base import MIMEBase
from email.mime.multipart import MIMEMultipart
from email.mime.text import MIMEText
from email.encoders import encode_7or8bit
import email
import io

LF = policy.compat32.clone(linesep="\n")
CRLF = policy.compat32.clone(linesep="\r\n")
DATE = "Wed, 02 Dec 2026 10:00:00 +0000"  # 1796205600

ARMORED = (
    "-----BEGIN PGP MESSAGE-----\n"
    "\n"
    "hF4DAAAAAAAAAAASAQdAdummydummydummydummydummydummydummydummy\n"
    "0sBVAQkCEJ9dummyciphertextdummyciphertextdummyciphertext==\n"
    "=AbCd\n"
    "-----END PGP MESSAGE-----\n"
)

SIGNATURE = (
    "-----BEGIN PGP SIGNATURE-----\n"
    "\n"
    "iHUEARYIAB0WIQTdummysignaturedummysignaturedummysignature\n"
    "=XyZw\n"
    "-----END PGP SIGNATURE-----\n"
)


def as_bytes(msg, pol=LF):
    buf = io.BytesIO()
    BytesGenerator(buf, mangle_from_=False, policy=pol).flatten(msg)
    return buf.getvalue()


def write(d, name, data):
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def headers(msg, subject, mid="<{}@example.org>", name=None):
    msg["From"] = "Alice Example <Alice@Example.ORG>"
    msg["To"] = "security@kernel.org, Bob <bob@example.net>"
    msg["Subject"] = subject
    msg["Date"] = DATE
    if mid:
        msg["Message-ID"] = mid.format(name)
    return msg


def plain(d):
    m = headers(MIMEText("Hello,\nthe bug is in net/ipv4/tcp_input.c.\n"),
                "Plain report", name="plain-1")
    m["In-Reply-To"] = "<parent@example.org>"
    m["References"] = "<root@example.org> <parent@example.org>"
    write(d, "plain.eml", as_bytes(m))


def subjects(d):
    m = headers(MIMEText("b\n"), Header("S\u00e9curit\u00e9: \u6f0f\u6d1e",
                                        "utf-8").encode(), name="subj-b")
    write(d, "subj-b.eml", as_bytes(m))
    q = _charset.Charset("utf-8")
    q.header_encoding = _charset.QP
    m = headers(MIMEText("q\n"), Header("Caf\u00e9 \u2603 report", q).encode(),
                name="subj-q")
    write(d, "subj-q.eml", as_bytes(m))
    m = headers(MIMEText("l\n"), Header("R\u00e9sum\u00e9 na\u00efve",
                                        "iso-8859-1").encode(), name="subj-l")
    write(d, "subj-l.eml", as_bytes(m))


def crlf(d):
    m = headers(MIMEText("line one\nline two\n"), "CRLF report", name="crlf")
    data = as_bytes(m, CRLF)
    assert b"\r\n" in data
    write(d, "crlf.eml", data)
    write(d, "crlf.sha256",
          hashlib.sha256(data.replace(b"\r\n", b"\n")).hexdigest().encode())


def nested(d):
    outer = headers(MIMEMultipart("mixed"), "Nested report", name="nested")
    alt = MIMEMultipart("alternative")
    alt.attach(MIMEText("First text part.\n", "plain", "utf-8"))
    alt.attach(MIMEText("<p>html</p>\n", "html", "utf-8"))
    outer.attach(alt)
    patch = MIMEText("diff --git a/fs/ext4/inode.c b/fs/ext4/inode.c\n",
                     "x-diff", "us-ascii")
    patch.add_header("Content-Disposition", "attachment", filename="fix.patch")
    outer.attach(patch)
    png = MIMEApplication(bytes(range(256)) * 4, "octet-stream")
    png.replace_header("Content-Type", "IMAGE/PNG")
    png.add_header("Content-Disposition", "attachment",
                   filename=("utf-8", "", "\u00fcber.png"))
    outer.attach(png)
    inner = MIMEMultipart("mixed")
    inner.attach(MIMEText("Gr\u00fc\u00dfe aus Wien\n", "plain", "iso-8859-1"))
    att = MIMEText("attached plain text\n", "plain", "utf-8")
    att.add_header("Content-Disposition", "attachment", filename="notes.txt")
    inner.attach(att)
    outer.attach(inner)
    write(d, "nested.eml", as_bytes(outer))


def signed_parts():
    """The part that is signed, and the signature part."""
    body = MIMEMultipart("mixed")
    t = MIMEText("Signed text.\nFrom the start of a line.\n"
                 "Trailing blanks here   \n", "plain", "us-ascii")
    body.attach(t)
    a = MIMEApplication(b"\x00\x01binary\xff", "octet-stream")
    a.add_header("Content-Disposition", "attachment", filename="poc.bin")
    body.attach(a)
    sig = MIMEApplication(SIGNATURE, "pgp-signature", encode_7or8bit,
                          name="signature.asc")
    sig.add_header("Content-Description", "OpenPGP digital signature")
    return body, sig


def signed_msg(pol):
    body, sig = signed_parts()
    m = MIMEMultipart("signed", micalg="pgp-sha256",
                      protocol="application/pgp-signature")
    m.attach(body)
    m.attach(sig)
    return m, body


def signed(d):
    for name, pol in (("signed", LF), ("signed-crlf", CRLF)):
        m, body = signed_msg(pol)
        headers(m, "Signed report", name=name)
        data = as_bytes(m, pol)
        write(d, name + ".eml", data)
        # The first part exactly as it appears, in canonical CRLF form.
        part = as_bytes(body, pol)
        assert part in data
        # The generator puts a line end of its own before the next
        # boundary (that one belongs to the boundary), so the part's own
        # final line end is part of the signed data.
        part = part.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")
        write(d, name + ".expected", part)
        write(d, name + ".sig", SIGNATURE.encode())

    # multipart/signed inside multipart/mixed, next to unsigned text
    m, body = signed_msg(LF)
    outer = headers(MIMEMultipart("mixed"), "Partly signed", name="partial")
    outer.attach(MIMEText("Unsigned preface.\n"))
    outer.attach(m)
    data = as_bytes(outer)
    write(d, "partial-signed.eml", data)
    part = as_bytes(body).replace(b"\n", b"\r\n")
    write(d, "partial-signed.expected", part)

    # The signature spoof: the first delimiter line rewritten
    # "--B" CR "X" (not a delimiter to GMime), an attacker's part added
    # after the genuine one.  GMime's first part is the attacker's, so
    # that is what the signature must be checked against; the expected
    # bytes are that part in canonical form.
    m, body = signed_msg(LF)
    headers(m, "Spoofed", name="spoof")
    data = as_bytes(m)
    b = m.get_boundary().encode()
    d1 = b"--" + b + b"\n"
    i = data.index(d1)
    j = data.index(d1, i + 1)
    evil = b"Content-Type: text/plain\n\nATTACKER text\n"
    data = (data[:i] + b"--" + b + b"\rX\n" + data[i + len(d1):j] + d1 +
            evil + data[j:])
    write(d, "spoof-cr.eml", data)
    # The line end before the next delimiter belongs to the delimiter.
    write(d, "spoof-cr.expected", evil[:-1].replace(b"\n", b"\r\n"))


def senders(d):
    # Two From mailboxes, a display name holding another address, and a
    # group (RFC 5322 allows all of it in From).
    m = headers(MIMEText("two senders\n"), "Two senders", name="two-from")
    m.replace_header("From", '"manager@corp.example" <Eve@Corp.example>, '
                     "Bob <bob@example.net>, friends: Carol "
                     "<carol@example.org>;")
    write(d, "two-from.eml", as_bytes(m))


def encrypted(d):
    m = MIMEMultipart("encrypted", protocol="application/pgp-encrypted")
    headers(m, "Encrypted report", name="enc")
    v = MIMEApplication("Version: 1\n", "pgp-encrypted", encode_7or8bit)
    m.attach(v)
    c = MIMEApplication(ARMORED, "octet-stream", encode_7or8bit,
                        name="encrypted.asc")
    m.attach(c)
    write(d, "encrypted.eml", as_bytes(m))
    write(d, "encrypted.expected", ARMORED.encode())
    # the same, forwarded inside a multipart/mixed next to plain text
    m = MIMEMultipart("encrypted", protocol="application/pgp-encrypted")
    m.attach(MIMEApplication("Version: 1\n", "pgp-encrypted", encode_7or8bit))
    m.attach(MIMEApplication(ARMORED, "octet-stream", encode_7or8bit))
    outer = headers(MIMEMultipart("mixed"), "Partly encrypted",
                    name="partial-enc")
    outer.attach(MIMEText("Unencrypted note.\n"))
    outer.attach(m)
    write(d, "partial-encrypted.eml", as_bytes(outer))
    # and between parts: text and an attachment on either side
    m = MIMEMultipart("encrypted", protocol="application/pgp-encrypted")
    m.attach(MIMEApplication("Version: 1\n", "pgp-encrypted", encode_7or8bit))
    m.attach(MIMEApplication(ARMORED, "octet-stream", encode_7or8bit))
    outer = headers(MIMEMultipart("mixed"), "Encrypted between parts",
                    name="around-enc")
    att = {}
    for name in ("a.bin", "b.bin"):
        att[name] = MIMEApplication(name.encode(), "octet-stream")
        att[name].add_header("Content-Disposition", "attachment",
                             filename=name)
    for part in (MIMEText("Before.\n"), att["a.bin"], m,
                 MIMEText("After.\n"), att["b.bin"]):
        outer.attach(part)
    write(d, "around-encrypted.eml", as_bytes(outer))


def inline(d):
    m = headers(MIMEText("Hi,\n\n" + ARMORED + "\nThanks, Alice\n"),
                "Inline report", name="inline")
    write(d, "inline.eml", as_bytes(m))
    m = headers(MIMEText(ARMORED), "Inline only", name="inline-only")
    write(d, "inline-only.eml", as_bytes(m))


MBOX_BODIES = [
    "First message.\n\nFrom the start of a line.\n>From quoted once.\n"
    ">>From quoted twice.\nFrom here on, mid-paragraph.\n",
    "Second message.\n",
    "Third message.\n",
]


def mbox_messages():
    out = []
    for i, body in enumerate(MBOX_BODIES):
        m = headers(Message(), "mbox %d" % (i + 1), name="mbox-%d" % (i + 1))
        m.set_payload(body)
        out.append(as_bytes(m))
    return out


def quote_rd(line):
    s = line.lstrip(b">")
    return b">" + line if s.startswith(b"From ") else line


def quote_o(line):
    return b">" + line if line.startswith(b"From ") else line


def mboxes(d):
    for name, quote in (("rd.mbox", quote_rd), ("o.mbox", quote_o)):
        out = []
        for raw in mbox_messages():
            out.append(b"From alice@example.org Wed Dec  2 10:00:00 2026\n")
            for line in raw.splitlines(keepends=True):
                # the unquoted mid-paragraph "From " line stays raw: it is
                # not preceded by a blank line, so it must not split
                if line.startswith(b"From here on"):
                    out.append(line)
                else:
                    out.append(quote(line))
            out.append(b"\n")
        write(d, name, b"".join(out))
    # and one written by Python's own mailbox module (mboxo style)
    path = os.path.join(d, "py.mbox")
    box = mailbox.mbox(path, create=True)
    for raw in mbox_messages():
        box.add(email.message_from_bytes(raw))
    box.flush()
    box.close()


def maildir(d):
    box = mailbox.Maildir(os.path.join(d, "Maildir"), create=True)
    for i in range(3):
        m = headers(MIMEText("maildir %d\n" % i), "md %d" % i, name="md-%d" % i)
        key = box.add(m)
        if i == 1:
            msg = box[key]
            msg.set_subdir("cur")
            box[key] = msg
    box.close()
    os.makedirs(os.path.join(d, "NotMaildir"), exist_ok=True)


def odd(d):
    m = headers(MIMEText("no id\n"), "No Message-ID", mid=None)
    write(d, "no-msgid.eml", as_bytes(m))
    write(d, "nul.eml",
          b"From: Mallory \xff\xfe <m@evil.example>\n"
          b"Subject: bad \xff\xfe bytes \x00 and NUL\n"
          b"Message-ID: <nul\x00@evil.example>\n"
          b"Content-Type: text/plain; charset=utf-8\n"
          b"\n"
          b"before\x00after \xc3\x28 invalid \xff end\n")
    # a decrypted payload: a bare MIME entity, Content-* headers only
    e = MIMEMultipart("mixed")
    del e["MIME-Version"]
    e.attach(MIMEText("Decrypted body.\n", "plain", "utf-8"))
    e.attach(MIMEApplication(b"PoC", "octet-stream"))
    write(d, "entity.eml", as_bytes(e))


def deep(d, levels, name):
    part = MIMEText("deep\n")
    for _ in range(levels):
        outer = MIMEMultipart("mixed")
        outer.attach(part)
        part = outer
    headers(part, "Deep %d" % levels, name=name)
    write(d, name + ".eml", as_bytes(part))


def big(d):
    m = headers(MIMEMultipart("mixed"), "Big report", name="big")
    m.attach(MIMEText("Big body.\n"))
    blob = (bytes(range(256)) * 4096) * 14  # 14 MiB, ~19 MB in base64
    m.attach(MIMEApplication(blob, "octet-stream"))
    data = as_bytes(m)
    assert len(data) > 19 * 1000 * 1000
    write(d, "big.eml", data)


def check(path):
    """Checks a multipart/encrypted message we composed, with Python."""
    with open(path, "rb") as f:
        m = email.message_from_binary_file(f, policy=policy.default)
    assert m.get_content_type() == "multipart/encrypted", m.get_content_type()
    assert m.get_param("protocol") == "application/pgp-encrypted"
    parts = list(m.iter_parts())
    assert len(parts) == 2
    assert parts[0].get_content_type() == "application/pgp-encrypted"
    assert parts[0].get_payload().strip() == "Version: 1"
    assert parts[1].get_content_type() == "application/octet-stream"
    assert "-----BEGIN PGP MESSAGE-----" in parts[1].get_payload()
    assert m["Message-ID"].startswith("<") and "@example.org>" in m["Message-ID"]
    # header protection: the real subject is inside, "..." outside
    assert str(m["Subject"]) == "...", str(m["Subject"])
    assert m["MIME-Version"] == "1.0"
    assert m["In-Reply-To"] == "<parent@example.org>"
    return 0


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--check":
        return check(sys.argv[2])
    d = sys.argv[1]
    os.makedirs(d, exist_ok=True)
    for f in (plain, subjects, crlf, nested, signed, senders, encrypted, inline,
              mboxes, maildir, odd, big):
        f(d)
    deep(d, 100, "deep100")
    deep(d, 10, "deep10")
    return 0


if __name__ == "__main__":
    sys.exit(main())
