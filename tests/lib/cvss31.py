#!/usr/bin/python3
"""cvss31.py: the tests' own CVSS 3.1 base score, from the FIRST CVSS
v3.1 Specification Document (section 7.1's formulas, table 16's
weights, appendix A's Roundup), written apart from core/cvss.c so that
the two are compared, never one checked against itself.

  cvss31.py VECTOR...      prints "SCORE SEVERITY" per vector (exit 1
                           when one is not a base vector of 3.1)
  cvss31.py --each         the same for the vectors of its input, one
                           a line, with one line out for every line in:
                           an invalid vector's is "invalid: REASON"
                           (one run for many: a Python start costs
                           more than the scores)
  cvss31.py --examples     checks the oracle against the scores the
                           specification's examples document publishes
  cvss31.py --sample N S   prints N vectors drawn with seed S, each
                           metric's order shuffled, one per line
"""
import math
import random
import sys

WEIGHTS = {
    "AV": {"N": 0.85, "A": 0.62, "L": 0.55, "P": 0.2},
    "AC": {"L": 0.77, "H": 0.44},
    "PR": {"N": 0.85, "L": 0.62, "H": 0.27},
    "UI": {"N": 0.85, "R": 0.62},
    "S": {"U": None, "C": None},
    "C": {"H": 0.56, "L": 0.22, "N": 0.0},
    "I": {"H": 0.56, "L": 0.22, "N": 0.0},
    "A": {"H": 0.56, "L": 0.22, "N": 0.0},
}
PR_CHANGED = {"N": 0.85, "L": 0.68, "H": 0.5}

# CVSS v3.1 Examples (FIRST): the vectors of its scored examples and
# the base scores it publishes for them.
EXAMPLES = [
    ("CVE-2013-1937", "AV:N/AC:L/PR:N/UI:R/S:C/C:L/I:L/A:N", "6.1"),
    ("CVE-2013-0375", "AV:N/AC:L/PR:L/UI:N/S:C/C:L/I:L/A:N", "6.4"),
    ("CVE-2014-3566", "AV:N/AC:H/PR:N/UI:R/S:U/C:L/I:N/A:N", "3.1"),
    ("CVE-2012-1516", "AV:N/AC:L/PR:L/UI:N/S:C/C:H/I:H/A:H", "9.9"),
    ("CVE-2009-0783", "AV:L/AC:L/PR:H/UI:N/S:U/C:L/I:L/A:L", "4.2"),
    ("CVE-2012-0384", "AV:N/AC:L/PR:L/UI:N/S:U/C:H/I:H/A:H", "8.8"),
    ("CVE-2015-1098", "AV:L/AC:L/PR:N/UI:R/S:U/C:H/I:H/A:H", "7.8"),
    ("CVE-2014-0160", "AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:N/A:N", "7.5"),
    ("CVE-2014-6271", "AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H", "9.8"),
    ("CVE-2008-1447", "AV:N/AC:H/PR:N/UI:N/S:C/C:N/I:H/A:N", "6.8"),
    ("CVE-2014-2005", "AV:P/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H", "6.8"),
    ("CVE-2010-0467", "AV:N/AC:L/PR:N/UI:N/S:C/C:L/I:N/A:N", "5.8"),
    ("CVE-2012-1342", "AV:N/AC:L/PR:N/UI:N/S:C/C:N/I:L/A:N", "5.8"),
    ("CVE-2014-9253", "AV:N/AC:L/PR:L/UI:R/S:C/C:L/I:L/A:N", "5.4"),
    ("CVE-2011-1265", "AV:A/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H", "8.8"),
    ("CVE-2014-2019", "AV:P/AC:L/PR:N/UI:N/S:U/C:N/I:H/A:N", "4.6"),
    ("CVE-2015-0970", "AV:N/AC:L/PR:N/UI:R/S:U/C:H/I:H/A:H", "8.8"),
    ("CVE-2014-0224", "AV:N/AC:H/PR:N/UI:N/S:U/C:H/I:H/A:N", "7.4"),
    ("CVE-2012-5376", "AV:N/AC:L/PR:N/UI:R/S:C/C:H/I:H/A:H", "9.6"),
    ("CVE-2016-5729", "AV:L/AC:L/PR:H/UI:N/S:C/C:H/I:H/A:H", "8.2"),
    ("CVE-2016-1645", "AV:N/AC:L/PR:N/UI:R/S:U/C:H/I:H/A:H", "8.8"),
]


def roundup(x):
    """Appendix A: the smallest one-decimal number >= x, on x * 100000
    rounded to an integer (floating point's 4.000000001 is 4.0)."""
    i = int(round(x * 100000))
    if i % 10000 == 0:
        return i / 100000.0
    return (math.floor(i / 10000) + 1) / 10.0


def parse(vector):
    if not vector.startswith("CVSS:3.1/"):
        raise ValueError("not CVSS:3.1: " + vector)
    m = {}
    for part in vector[len("CVSS:3.1/"):].split("/"):
        k, _, v = part.partition(":")
        if k not in WEIGHTS or v not in WEIGHTS[k] or k in m:
            raise ValueError("bad metric %r in %s" % (part, vector))
        m[k] = v
    if set(m) != set(WEIGHTS):
        raise ValueError("missing metric in " + vector)
    return m


def base_score(vector):
    m = parse(vector)
    changed = m["S"] == "C"
    iss = 1 - ((1 - WEIGHTS["C"][m["C"]]) * (1 - WEIGHTS["I"][m["I"]])
               * (1 - WEIGHTS["A"][m["A"]]))
    if changed:
        impact = 7.52 * (iss - 0.029) - 3.25 * (iss - 0.02) ** 15
    else:
        impact = 6.42 * iss
    pr = (PR_CHANGED if changed else WEIGHTS["PR"])[m["PR"]]
    expl = 8.22 * WEIGHTS["AV"][m["AV"]] * WEIGHTS["AC"][m["AC"]] * pr \
        * WEIGHTS["UI"][m["UI"]]
    if impact <= 0:
        return 0.0
    total = (1.08 if changed else 1) * (impact + expl)
    return roundup(min(total, 10))


def severity(score):
    if score == 0:
        return "NONE"
    if score < 4.0:
        return "LOW"
    if score < 7.0:
        return "MEDIUM"
    if score < 9.0:
        return "HIGH"
    return "CRITICAL"


def main(argv):
    if argv[:1] == ["--examples"]:
        bad = 0
        for cve, v, want in EXAMPLES:
            got = "%.1f" % base_score("CVSS:3.1/" + v)
            ok = got == want
            bad += not ok
            print("%s %s %s: %s (published %s)" % ("ok" if ok else "not ok",
                                                   cve, v, got, want))
        return 1 if bad else 0
    if argv[:1] == ["--sample"]:
        rnd = random.Random(int(argv[2]))
        for _ in range(int(argv[1])):
            parts = ["%s:%s" % (k, rnd.choice(sorted(w)))
                     for k, w in WEIGHTS.items()]
            rnd.shuffle(parts)
            print("CVSS:3.1/" + "/".join(parts))
        return 0
    if argv[:1] == ["--each"]:
        for line in sys.stdin:
            v = line.rstrip("\n")
            try:
                s = base_score(v)
            except ValueError as e:
                print("invalid: %s" % e)
                continue
            print("%.1f %s" % (s, severity(s)))
        return 0
    for v in argv:
        try:
            s = base_score(v)
        except ValueError as e:
            print(e, file=sys.stderr)
            return 1
        print("%.1f %s" % (s, severity(s)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
