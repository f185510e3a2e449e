#!/usr/bin/python3
"""mkbench-mbox.py OUT [N]: an mbox of N (default 100,000) small plain
messages with the benchmark database's subjects, for timing a peer mail
client (neomutt) on the same number of messages."""
import sys

WORDS = ['use-after-free in net/ipv4/tcp_input.c', 'heap overflow in fs/ext4/xattr.c',
         'race in net/packet/af_packet.c', 'info leak in drivers/usb/core/devio.c',
         'double free in kernel/bpf/verifier.c', 'integer overflow in mm/mremap.c',
         'NULL deref in sound/core/pcm.c']
out, n = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 100000
with open(out, 'w') as f:
    for i in range(1, n + 1):
        r = i % 997
        f.write('From reporter%d@example.net Wed Dec  2 09:00:00 2026\n' % r)
        f.write('From: Reporter %d <reporter%d@example.net>\n' % (r, r))
        f.write('To: security@example.org\n')
        f.write('Subject: bench report %d: %s\n' % (i, WORDS[i % 7]))
        f.write('Date: Wed, 02 Dec 2026 09:%02d:%02d +0000\n' % (i // 60 % 60, i % 60))
        f.write('Message-ID: <bench%d@example.net>\n\n' % i)
        f.write('Report body %d.\n\n' % i)
