#!/usr/bin/python3
"""check-forward.py: reads the mail `secteam-tui forward` writes, with
Python's email package (not the project's own MIME code), for tests.

    check-forward.py encrypted MSG ARMOR_OUT
        Asserts the RFC 3156 structure: multipart/encrypted with
        protocol="application/pgp-encrypted", exactly two parts, the first
        application/pgp-encrypted holding "Version: 1", the second
        application/octet-stream holding one ASCII-armored PGP MESSAGE, which
        is written to ARMOR_OUT.  Prints the outer headers (see below).
    check-forward.py plain MSG
        Asserts a message that is not encrypted; prints its headers and
        content as `inner` does.
    check-forward.py signed MSG DATA_OUT SIG_OUT
        Asserts a PGP/MIME signed message (RFC 3156): multipart/signed with
        protocol="application/pgp-signature" and a pgp-* micalg, exactly two
        parts, the second application/pgp-signature holding one armored PGP
        SIGNATURE.  Writes the first part's bytes exactly as they stand in the
        message, in canonical CRLF form (what the signature covers), to
        DATA_OUT and the signature to SIG_OUT; prints headers and content as
        `plain` does.
    check-forward.py inner FILE [DIR]
        Reads a decrypted MIME entity and prints "body: LINE" for each line
        of its text/plain part(s) and "attachment: NAME TYPE SIZE SHA256" for
        each attachment; with DIR, also writes each attachment's decoded
        content to DIR/N (N = 1, 2, ... in order).  When its Content-Type
        carries protected-headers (header protection), first prints
        "protected-headers: VALUE" and "protected: Header: value" for the
        headers below and Date, as the entity carries them.
    check-forward.py protected MSG DECRYPTED SUBJECT
        Asserts header protection (neomutt's, Thunderbird's): MSG's outer
        Subject is "..." and SUBJECT is nowhere in its headers; DECRYPTED,
        its decrypted entity, is marked protected-headers="v1" and carries
        Subject: SUBJECT and the same From, To, Cc, Date, Message-ID,
        In-Reply-To and References as MSG.  Prints "Subject: SUBJECT".

Headers are printed as "Header: value" lines for From, To, Cc, Subject, Message-ID,
In-Reply-To, References.  Exits 1 with "check-forward: ..." on stderr when
an assertion fails.
"""

import email
import email.policy
import hashlib
import os
import sys

HEADERS = ("From", "To", "Cc", "Subject", "Message-ID", "In-Reply-To", "References")


def fail(msg):
    sys.stderr.write("check-forward: %s\n" % msg)
    sys.exit(1)


def load(path):
    with open(path, "rb") as f:
        data = f.read()
    return email.message_from_bytes(data, policy=email.policy.default), data


def print_headers(msg):
    for h in HEADERS:
        v = msg.get(h)
        if v is not None:
            print("%s: %s" % (h, " ".join(str(v).split())))


def leaves(part):
    """The parts of a message in order; an attached message is one part."""
    if part.get_content_type() == "multipart/signed" and part.is_multipart():
        yield from leaves(part.get_payload()[0])   # not the signature
    elif part.get_content_type() != "message/rfc822" and part.is_multipart():
        for p in part.get_payload():
            yield from leaves(p)
    else:
        yield part


def print_content(msg, outdir=None):
    n = 0
    for part in leaves(msg):
        disp = part.get_content_disposition()
        ctype = part.get_content_type()
        if ctype == "text/plain" and disp != "attachment":
            for line in part.get_content().splitlines():
                print("body: %s" % line)
        else:
            if ctype == "message/rfc822":
                payload = part.get_payload()[0].as_bytes()
            else:
                payload = part.get_payload(decode=True) or b""
            print("attachment: %s %s %d %s" % (
                part.get_filename() or "(unnamed)", ctype, len(payload),
                hashlib.sha256(payload).hexdigest()))
            n += 1
            if outdir:
                with open(os.path.join(outdir, str(n)), "wb") as f:
                    f.write(payload)


def check_encrypted(path, armor_out):
    msg, raw = load(path)
    if msg.get_content_type() != "multipart/encrypted":
        fail("%s: content type is %s, not multipart/encrypted"
             % (path, msg.get_content_type()))
    if msg.get_param("protocol") != "application/pgp-encrypted":
        fail("%s: protocol is %r" % (path, msg.get_param("protocol")))
    parts = msg.get_payload()
    if not isinstance(parts, list) or len(parts) != 2:
        fail("%s: %s parts, not 2" % (path, len(parts) if isinstance(parts, list) else "no"))
    ctl, data = parts
    if ctl.get_content_type() != "application/pgp-encrypted":
        fail("%s: first part is %s" % (path, ctl.get_content_type()))
    ctl_text = ctl.get_payload(decode=True).decode("ascii", "replace")
    if "Version: 1" not in [l.strip() for l in ctl_text.splitlines()]:
        fail("%s: control part lacks 'Version: 1': %r" % (path, ctl_text))
    if data.get_content_type() != "application/octet-stream":
        fail("%s: second part is %s" % (path, data.get_content_type()))
    armor = data.get_payload(decode=True)
    text = armor.decode("ascii")
    if not text.lstrip().startswith("-----BEGIN PGP MESSAGE-----") or \
            "-----END PGP MESSAGE-----" not in text:
        fail("%s: second part is not an armored PGP MESSAGE" % path)
    if b"\r" in raw:
        fail("%s: stored with CR line ends" % path)
    for h in ("From", "To", "Subject", "Message-ID", "Date"):
        if msg.get(h) is None:
            fail("%s: no %s header" % (path, h))
    with open(armor_out, "w") as f:
        f.write(text)
    print_headers(msg)


def check_plain(path):
    msg, _ = load(path)
    if msg.get_content_type() == "multipart/encrypted":
        fail("%s: encrypted, expected a plain message" % path)
    if "-----BEGIN PGP MESSAGE-----" in msg.as_string():
        fail("%s: holds an OpenPGP message" % path)
    print_headers(msg)
    print_content(msg)


def signed_bytes(raw, boundary):
    """The first part as it stands between its boundary lines (RFC 2046:
    the line break before a boundary belongs to the boundary), CRLF."""
    raw = raw.replace(b"\r\n", b"\n")
    delim = b"\n--" + boundary.encode("ascii")
    start = raw.find(delim + b"\n")
    if start < 0:
        fail("no first boundary line")
    start += len(delim) + 1
    end = raw.find(delim, start)
    if end < 0:
        fail("no second boundary line")
    return raw[start:end].replace(b"\n", b"\r\n")


def check_signed(path, data_out, sig_out):
    msg, raw = load(path)
    if msg.get_content_type() != "multipart/signed":
        fail("%s: content type is %s, not multipart/signed"
             % (path, msg.get_content_type()))
    if msg.get_param("protocol") != "application/pgp-signature":
        fail("%s: protocol is %r" % (path, msg.get_param("protocol")))
    if not str(msg.get_param("micalg") or "").startswith("pgp-"):
        fail("%s: micalg is %r" % (path, msg.get_param("micalg")))
    parts = msg.get_payload()
    if not isinstance(parts, list) or len(parts) != 2:
        fail("%s: %s parts, not 2" % (path, len(parts) if isinstance(parts, list) else "no"))
    if parts[1].get_content_type() != "application/pgp-signature":
        fail("%s: second part is %s" % (path, parts[1].get_content_type()))
    sig = parts[1].get_payload(decode=True).decode("ascii")
    if not sig.lstrip().startswith("-----BEGIN PGP SIGNATURE-----"):
        fail("%s: second part is not an armored PGP SIGNATURE" % path)
    with open(data_out, "wb") as f:
        f.write(signed_bytes(raw, msg.get_boundary()))
    with open(sig_out, "w") as f:
        f.write(sig)
    print_headers(msg)
    print_content(msg)


def check_inner(path, outdir=None):
    msg, _ = load(path)
    if msg.get_param("protected-headers") is not None:
        print("protected-headers: %s" % msg.get_param("protected-headers"))
        for h in HEADERS + ("Date",):
            v = msg.get(h)
            if v is not None:
                print("protected: %s: %s" % (h, " ".join(str(v).split())))
    print_content(msg, outdir)


def check_protected(path, inner_path, subject):
    """Header protection: the outer Subject is "...", the real one (and
    From, To, Message-ID, the thread) is on the decrypted entity, marked
    protected-headers="v1"."""
    msg, raw = load(path)
    inner, _ = load(inner_path)
    if msg.get("Subject") != "...":
        fail("%s: outer Subject is %r, not '...'" % (path, msg.get("Subject")))
    head = raw.split(b"\n\n", 1)[0].decode("ascii", "replace")
    if subject in " ".join(head.split()):
        fail("%s: the subject %r is in the outer headers" % (path, subject))
    if inner.get_param("protected-headers") != "v1":
        fail("%s: protected-headers is %r, not 'v1'"
             % (inner_path, inner.get_param("protected-headers")))
    if inner.get("Subject") != subject:
        fail("%s: inner Subject is %r, not %r" % (inner_path, inner.get("Subject"), subject))
    for h in ("From", "To", "Cc", "Date", "Message-ID", "In-Reply-To", "References"):
        a = " ".join(str(msg.get(h) or "").split())
        b = " ".join(str(inner.get(h) or "").split())
        if a != b:
            fail("%s: inner %s %r differs from the outer %r" % (inner_path, h, b, a))
    print("Subject: %s" % inner.get("Subject"))


def main(argv):
    if len(argv) == 4 and argv[1] == "encrypted":
        check_encrypted(argv[2], argv[3])
    elif len(argv) == 3 and argv[1] == "plain":
        check_plain(argv[2])
    elif len(argv) == 5 and argv[1] == "signed":
        check_signed(argv[2], argv[3], argv[4])
    elif len(argv) == 5 and argv[1] == "protected":
        check_protected(argv[2], argv[3], argv[4])
    elif len(argv) in (3, 4) and argv[1] == "inner":
        check_inner(argv[2], argv[3] if len(argv) == 4 else None)
    else:
        fail("usage: check-forward.py encrypted MSG ARMOR_OUT | plain MSG | "
             "signed MSG DATA_OUT SIG_OUT | inner FILE [DIR] | "
             "protected MSG DECRYPTED SUBJECT")


if __name__ == "__main__":
    main(sys.argv)
