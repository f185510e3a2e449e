#!/usr/bin/python3
"""teamchain.py: team events made by hand, as an attacker with psql would
(the canonical encoding of crypto/teamevent.h), for the team chain's
end-to-end tests.  Signing is openssl's (Ed25519), never the program's.

  teamchain.py head BODYHEX...        prints "SEQ PREVHEX": the next
                                      place and the hash it must name,
                                      for the bodies given in order
  teamchain.py signing-key SEQ PREV AUTHOR PUBHEX CERTFILE
  teamchain.py generation SEQ PREV AUTHOR GEN PREVGEN CHAINEDHEX FPR=FILE...
                                      print the event's encoding (hex)
  teamchain.py gen-of SEALED          the team key generation a sealed
                                      value ("s1:" base64) is under
  teamchain.py copy-of FPR BODYHEX...  the wrapped copy (hex) for FPR
                                      in the last generation event given
  teamchain.py pem SEEDFILE           a PKCS#8 PEM of the Ed25519 seed
                                      kept as "SSK1" + 32 bytes
  teamchain.py keyed COPYFILE PURPOSE VALUE
                                      the keyed hash ("k1:" hex) of VALUE
                                      for PURPOSE under the team key of a
                                      decrypted copy ("STK1", generation,
                                      key), as someone holding it makes it
"""
import base64
import hashlib
import struct
import sys
import time


def lp(b):
    return struct.pack(">I", len(b)) + b


def header(kind, seq, prev, author):
    return (b"STE" + bytes([1, kind]) + struct.pack(">Q", seq) +
            bytes.fromhex(prev) + author.encode() +
            struct.pack(">Q", int(time.time())))


def main(argv):
    cmd = argv[1]
    if cmd == "head":
        bodies = [bytes.fromhex(h) for h in argv[2:]]
        prev = bodies[-1] if bodies else None
        h = hashlib.blake2b(prev, digest_size=32).hexdigest() if prev else "00" * 32
        print(len(bodies) + 1, h)
    elif cmd == "signing-key":
        seq, prev, author, pub, certfile = argv[2:7]
        cert = open(certfile, "rb").read()
        body = header(4, int(seq), prev, author) + bytes.fromhex(pub) + lp(cert)
        print(body.hex())
    elif cmd == "generation":
        seq, prev, author, gen, prevgen, chained = argv[2:8]
        wraps = []
        for a in argv[8:]:
            fpr, path = a.split("=", 1)
            wraps.append((fpr, open(path, "rb").read()))
        wraps.sort()
        body = header(5, int(seq), prev, author) + struct.pack(">II", int(gen), int(prevgen))
        body += lp(bytes.fromhex(chained)) + struct.pack(">I", len(wraps))
        for fpr, blob in wraps:
            body += fpr.encode() + lp(blob)
        print(body.hex())
    elif cmd == "gen-of":
        b = base64.b64decode(argv[2][3:])
        print(struct.unpack(">I", b[3:7])[0])
    elif cmd == "copy-of":
        found = ""
        for h in argv[3:]:
            b = bytes.fromhex(h)
            if b[4] != 5:
                continue
            p = 93 + 8
            n = struct.unpack(">I", b[p:p + 4])[0]
            p += 4 + n
            count = struct.unpack(">I", b[p:p + 4])[0]
            p += 4
            for _ in range(count):
                fpr = b[p:p + 40].decode()
                n = struct.unpack(">I", b[p + 40:p + 44])[0]
                if fpr == argv[2]:
                    found = b[p + 44:p + 44 + n].hex()
                p += 44 + n
        print(found)
    elif cmd == "pem":
        seed = open(argv[2], "rb").read()
        assert seed[:4] == b"SSK1" and len(seed) == 36
        der = bytes.fromhex("302e020100300506032b657004220420") + seed[4:]
        print("-----BEGIN PRIVATE KEY-----")
        print(base64.b64encode(der).decode())
        print("-----END PRIVATE KEY-----")
    elif cmd == "keyed":
        copy = open(argv[2], "rb").read()
        assert copy[:4] == b"STK1" and len(copy) == 40
        # libsodium's crypto_kdf_derive_from_key (subkey 1, context
        # "secteam_"), then BLAKE2b keyed with it over purpose NUL value
        sub = hashlib.blake2b(b"", digest_size=32, key=copy[8:],
                              salt=struct.pack("<Q", 1) + b"\0" * 8,
                              person=b"secteam_" + b"\0" * 8).digest()
        mac = hashlib.blake2b(argv[3].encode() + b"\0" + argv[4].encode(),
                              digest_size=32, key=sub).hexdigest()
        print("k1:" + mac)
    else:
        sys.exit("teamchain.py: unknown command " + cmd)


main(sys.argv)
