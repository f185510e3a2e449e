#!/usr/bin/python3
"""records-semantics.py [--cvss VECTOR] GITDIR INTRO[,COPY...] FIX BACKPORT...
[+ FIX BACKPORT...]... -- CVE OSV CSAF:
reads each public record by its own format's rules and says, for every
tag of the git tree GITDIR, whether it comes out affected; compares each
answer with the truth from git ancestry: a tag is affected when it holds
the introducing commit INTRO or one of its stable COPYs (comma-separated)
and neither the fix FIX nor any BACKPORT.
With several fixes ("+" between them, each with its backports) the
kernel CNA's rule: a tag is fixed only when it holds every fix (each as
itself or as one of its backports), so it is affected when it holds
INTRO and lacks one of them.  The CSAF advisory's vulnerability read is
the one whose cve is the CVE record's ID (else its first).

The rules, each as its format defines it:
  OSV GIT        a commit is affected when an `introduced` commit ("0":
                 any) is it or an ancestor, and no `fixed` one is; a
                 version is affected when ANY range of ANY affected
                 entry says so
  OSV ECOSYSTEM  events sorted by version; walking them up to the version,
                 `introduced` sets affected, `fixed` clears it; the Linux
                 ecosystem's versions are releases written X.Y.Z (a
                 mainline X.Y is X.Y.0): read for release tags only
  CVE 5 git      versions are commits ordered by ancestry (a < b: a is a
                 proper ancestor of b): the first entry that holds the
                 commit gives its status ({version} alone: that commit;
                 version <= c < lessThan; version <= c <= lessThanOrEqual,
                 "*" no end), else defaultStatus
  CVE 5 semver   the kernel CNA's versions with defaultStatus: the first
                 entry that holds the version (its single version, or
                 version .. lessThan / lessThanOrEqual, "1.0.*" the whole
                 1.0 series, "*" anything) gives its status, else
                 defaultStatus
  CVE 5 cpeApplicability  CPE 2.3 matching: a tag X.Y-rcN is version
                 X.Y, update rcN; a cpeMatch matches when its criteria's
                 version and update are "*" or equal, and the version is
                 in [versionStartIncluding, versionEndExcluding); affected
                 when any vulnerable one matches
  CSAF           affected when in a known_affected product: a
                 product_version_range (vers:generic/>=A|<B) or version;
                 and "CSAF status": every tag is named by exactly one of
                 known_affected, fixed (it holds the bug's introducing
                 commit and every fix) and known_not_affected (it never
                 had the bug), the one the truth gives
Versions are ordered as the kernel's: numbers compared as numbers, an
-rcN before its release.  The CVE version block names releases (the
kernel CNA writes the release a fix is first in, not its -rc): it is
read for release tags only; the -rc tags are read by the git ranges.
The forms the kernel's tools expect are checked too ("CVE form", "OSV
form"): no -rc in semver, original_commit_for_fix or ECOSYSTEM versions,
GIT ranges in an entry without a package, ECOSYSTEM ones in Linux/Kernel.
The score ("CVSS"): with --cvss the records carry that CVSS 3.1 vector
(its metrics, in any order) and without it none: the CVE record's
metrics cvssV3_1 with the base score and severity the tests' own
cvss31.py computes, OSV's severity CVSS_V3, and the CSAF vulnerability's
scores for exactly its known_affected products (every one scored, none
other).
Prints one line per tag and record, "ok" or "WRONG", and "N passed, N
failed"; exits 1 on any wrong answer."""
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cvss31  # noqa: E402


def git(gitdir, *args):
    return subprocess.run(["git", "-C", gitdir] + list(args), check=False,
                          capture_output=True, text=True)


def ancestor(gitdir, a, b):
    """a is b or an ancestor of b."""
    return git(gitdir, "merge-base", "--is-ancestor", a, b).returncode == 0


def vkey(v):
    """The kernel's version order: 1.0 < 1.0.1 < 1.1-rc1 < 1.1 < 1.10."""
    m = re.fullmatch(r"(\d+(?:\.\d+)*)(?:-rc(\d+))?", v)
    if not m:
        raise ValueError("not a kernel version: %r" % v)
    nums = [int(x) for x in m.group(1).split(".")]
    while len(nums) < 3:
        nums.append(0)
    rc = (0, int(m.group(2))) if m.group(2) else (1, 0)
    return tuple(nums) + rc


def is_rc(v):
    return "-rc" in v


def series(v):
    return ".".join(re.sub(r"-rc\d+$", "", v).split(".")[:2])


def osv_git(gitdir, rng, commit):
    evs = rng["events"]
    intro = [e["introduced"] for e in evs if "introduced" in e]
    fixed = [e["fixed"] for e in evs if "fixed" in e]
    if not any(i == "0" or ancestor(gitdir, i, commit) for i in intro):
        return False
    return not any(ancestor(gitdir, f, commit) for f in fixed)


def osv_eco(rng, v):
    def k(e):
        x = e.get("introduced", e.get("fixed"))
        return (-1,) if x == "0" else vkey(x)
    affected = False
    for e in sorted(rng["events"], key=k):
        if k(e) > vkey(v):
            break
        if "introduced" in e:
            affected = True
        elif "fixed" in e:
            affected = False
    return affected


def eco_version(v):
    """A tag's version as the Linux ecosystem writes it: 1.2 is 1.2.0."""
    return v + ".0" if v.count(".") == 1 else v


def cve_git(gitdir, product, commit):
    for e in product.get("versions", []):
        lt, le = e.get("lessThan"), e.get("lessThanOrEqual")
        if lt is None and le is None:
            hit = git(gitdir, "rev-parse", e["version"]).stdout.strip() == commit
        else:
            start_ok = e["version"] == "0" or ancestor(gitdir, e["version"], commit)
            if lt is not None:
                end_ok = (commit != git(gitdir, "rev-parse", lt).stdout.strip()
                          and ancestor(gitdir, commit, lt))
            else:
                end_ok = le == "*" or ancestor(gitdir, commit, le)
            hit = start_ok and end_ok
        if hit:
            return e["status"] == "affected"
    return product["defaultStatus"] == "affected"


def holds(e, v):
    """Whether version entry e holds version v."""
    lo = e["version"]
    if "lessThan" not in e and "lessThanOrEqual" not in e:
        return vkey(v) == vkey(lo)
    if lo != "0" and vkey(v) < vkey(lo):
        return False
    hi = e.get("lessThan", e.get("lessThanOrEqual"))
    if hi == "*":
        return True
    if hi.endswith(".*"):
        return series(v) == hi[:-2] or vkey(v) < vkey(hi[:-2])
    return vkey(v) < vkey(hi) if "lessThan" in e else vkey(v) <= vkey(hi)


def cve_semver(product, v):
    for e in product.get("versions", []):
        if holds(e, v):
            return e["status"] == "affected"
    return product["defaultStatus"] == "affected"


def cve_cpe(cna, v):
    rel = re.sub(r"-rc\d+$", "", v)
    upd = v[len(rel) + 1:] if v != rel else "-"
    for a in cna.get("cpeApplicability", []):
        for node in a["nodes"]:
            for m in node["cpeMatch"]:
                f = m["criteria"].split(":")
                if f[5] not in ("*", rel) or f[6] not in ("*", upd):
                    continue
                lo = m.get("versionStartIncluding", "0")
                hi = m.get("versionEndExcluding")
                if m["vulnerable"] and (lo == "0" or vkey(rel) >= vkey(lo)) and \
                        (hi is None or vkey(rel) < vkey(hi)):
                    return True
    return False


def csaf_products(tree):
    out = {}
    for b in tree.get("branches", []):
        if "product" in b:
            out[b["product"]["product_id"]] = (b["category"], b["name"])
        out.update(csaf_products(b))
    return out


def in_vers(vers, v):
    body = vers.split("/", 1)[1]
    if body == "*":
        return True
    for c in body.split("|"):
        m = re.fullmatch(r"(>=|<=|>|<|=)?(.+)", c)
        op, x = m.group(1) or "=", vkey(m.group(2))
        ok = {">=": vkey(v) >= x, "<=": vkey(v) <= x, ">": vkey(v) > x,
              "<": vkey(v) < x, "=": vkey(v) == x}[op]
        if not ok:
            return False
    return True


def csaf_named(doc, v, cve_id):
    """The product_status lists that name version v."""
    prods = csaf_products(doc["product_tree"])
    vulns = [x for x in doc["vulnerabilities"] if x.get("cve") == cve_id]
    vuln = vulns[0] if vulns else doc["vulnerabilities"][0]
    out = []
    for status, pids in sorted(vuln["product_status"].items()):
        for pid in pids:
            cat, name = prods[pid]
            if (cat == "product_version_range" and in_vers(name, v)) or \
                    (cat == "product_version" and vkey(name) == vkey(v)):
                out.append(status)
    return out


def form_errors(cve, osv):
    """What the kernel's tools would refuse in the records' form."""
    errs = []
    for p in cve["containers"]["cna"]["affected"]:
        for e in p.get("versions", []):
            if e.get("versionType") in ("semver", "original_commit_for_fix", None):
                for k in ("version", "lessThan", "lessThanOrEqual"):
                    if "-rc" in e.get(k, ""):
                        errs.append("CVE: -rc in %s" % json.dumps(e))
    for a in osv["affected"]:
        for r in a["ranges"]:
            if r["type"] == "GIT" and "package" in a:
                errs.append("OSV: a GIT range in an entry with a package")
            if r["type"] == "ECOSYSTEM":
                if a.get("package") != {"ecosystem": "Linux", "name": "Kernel"}:
                    errs.append("OSV: an ECOSYSTEM range outside Linux/Kernel")
                for e in r["events"]:
                    x = list(e.values())[0]
                    if x != "0" and not re.fullmatch(r"\d+\.\d+\.\d+", x):
                        errs.append("OSV: ECOSYSTEM version %r is no X.Y.Z" % x)
    return errs


def metrics(vector):
    return vector and cvss31.parse(vector)


def cvss_errors(want, cve, osv, csaf, cve_id):
    """Where a record's score is not the vector the officer gave."""
    errs = []
    cna = cve["containers"]["cna"]
    got = [m.get("cvssV3_1") for m in cna.get("metrics", [])]
    if not want:
        if got or osv.get("severity") or any(
                v.get("scores") for v in csaf.get("vulnerabilities", [])):
            errs.append("a score in a record, though none was given")
        return errs
    m = metrics(want)
    score = cvss31.base_score(want)
    if len(got) != 1 or not got[0]:
        errs.append("CVE: metrics has no single cvssV3_1")
    else:
        c = got[0]
        if metrics(c["vectorString"]) != m:
            errs.append("CVE: vector %s" % c["vectorString"])
        if c["baseScore"] != score or c["baseSeverity"] != cvss31.severity(score):
            errs.append("CVE: %s %s, the oracle %.1f %s" % (
                c["baseScore"], c["baseSeverity"], score, cvss31.severity(score)))
        if not cna["metrics"][0].get("scenarios"):
            errs.append("CVE: no scenario (the rationale)")
    sev = osv.get("severity", [])
    if [s["type"] for s in sev] != ["CVSS_V3"] or metrics(sev[0]["score"]) != m:
        errs.append("OSV: severity %s" % json.dumps(sev))
    vulns = csaf["vulnerabilities"]
    v = next((x for x in vulns if x.get("cve") == cve_id), vulns[0])
    affected = set(v["product_status"].get("known_affected", []))
    scored = set()
    for s in v.get("scores", []):
        c = s.get("cvss_v3", {})
        if metrics(c.get("vectorString")) != m or c.get("baseScore") != score:
            errs.append("CSAF: score %s" % json.dumps(c))
        scored |= set(s["products"])
    if scored != affected:
        errs.append("CSAF: scores for %s, known_affected %s" % (
            sorted(scored), sorted(affected)))
    return errs


def main():
    argv = sys.argv[1:]
    want = None
    if argv[:1] == ["--cvss"]:
        want, argv = argv[1], argv[2:]
    sep = argv.index("--")
    gitdir, intros = argv[0], argv[1].split(",")
    groups = [[]]
    for a in argv[2:sep]:
        if a == "+":
            groups.append([])
        else:
            groups[-1].append(a)
    cve, osv, csaf = (json.load(open(p)) for p in argv[sep + 1:sep + 4])
    cve_id = cve["cveMetadata"]["cveId"]
    cna = cve["containers"]["cna"]
    git_block = [p for p in cna["affected"]
                 if any(e.get("versionType") == "git" for e in p.get("versions", []))]
    ver_block = [p for p in cna["affected"] if p not in git_block]
    ranges = [r for a in osv["affected"] for r in a["ranges"]]
    passed = failed = 0
    for e in form_errors(cve, osv):
        failed += 1
        print("WRONG form %s" % e)
    errs = cvss_errors(want, cve, osv, csaf, cve_id)
    for e in errs:
        print("WRONG CVSS %s" % e)
    failed += len(errs)
    passed += not errs
    if not errs:
        print("ok    CVSS %s" % (want or "none, in no record"))
    for tag in git(gitdir, "tag").stdout.split():
        commit = git(gitdir, "rev-parse", tag + "^{commit}").stdout.strip()
        v = tag[1:]
        had = any(ancestor(gitdir, i, commit) for i in intros)
        truth = had and any(
            not any(ancestor(gitdir, c, commit) for c in g) for g in groups)
        status = "known_affected" if truth else "fixed" if had else "known_not_affected"
        gits = [osv_git(gitdir, r, commit) for r in ranges if r["type"] == "GIT"]
        ecos = [] if is_rc(v) else [osv_eco(r, eco_version(v))
                                    for r in ranges if r["type"] == "ECOSYSTEM"]
        answers = {
            "OSV": any(gits) or (not is_rc(v) and any(ecos)),
            "OSV GIT": any(gits),
            "CVE git": any(cve_git(gitdir, p, commit) for p in git_block),
            "CVE cpeApplicability": cve_cpe(cna, v),
            "CSAF": "known_affected" in csaf_named(csaf, v, cve_id),
        }
        if not is_rc(v):
            answers["OSV ECOSYSTEM"] = any(ecos)
            answers["CVE versions"] = any(cve_semver(p, v) for p in ver_block)
        for name, got in answers.items():
            ok = got == truth
            passed += ok
            failed += not ok
            print("%s %-8s %-21s %s (truth: %s)" % (
                "ok   " if ok else "WRONG", tag, name,
                "affected" if got else "not affected",
                "affected" if truth else "not affected"))
        named = csaf_named(csaf, v, cve_id)
        ok = named == [status]
        passed += ok
        failed += not ok
        print("%s %-8s %-21s %s (truth: %s)" % (
            "ok   " if ok else "WRONG", tag, "CSAF status",
            ",".join(named) or "unknown", status))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


sys.exit(main())
