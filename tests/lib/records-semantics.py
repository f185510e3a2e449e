#!/usr/bin/python3
"""records-semantics.py GITDIR INTRO FIX BACKPORT... [+ FIX BACKPORT...]...
-- CVE OSV CSAF:
reads each public record by its own format's rules and says, for every
tag of the git tree GITDIR, whether it comes out affected; compares each
answer with the truth from git ancestry: a tag is affected when it holds
the introducing commit INTRO and neither the fix FIX nor any BACKPORT.
With several fixes ("+" between them, each with its backports) the
kernel CNA's rule: a tag is fixed only when it holds every fix (each as
itself or as one of its backports), so it is affected when it holds
INTRO and lacks one of them.  The CSAF advisory's vulnerability read is
the one whose cve is the CVE record's ID (else its first).

The rules, each as its format defines it:
  OSV GIT        a commit is affected when an `introduced` commit ("0":
                 any) is it or an ancestor, and no `fixed` one is; a
                 version is affected when ANY range says so
  OSV ECOSYSTEM  events sorted by version; walking them up to the version,
                 `introduced` sets affected, `fixed` clears it
  CVE 5 git      versions are commits ordered by ancestry (a < b: a is a
                 proper ancestor of b): in {version <= c < lessThan} the
                 entry's status, else defaultStatus
  CVE 5 semver   the kernel CNA's versions with defaultStatus: the first
                 entry that holds the version (its single version, or
                 version .. lessThan / lessThanOrEqual, "1.0.*" the whole
                 1.0 series, "*" anything) gives its status, else
                 defaultStatus
  CVE 5 cpeApplicability  affected in [versionStartIncluding,
                 versionEndExcluding) of any vulnerable cpeMatch
  CSAF           affected when in a known_affected product: a
                 product_version_range (vers:generic/>=A|<B) or version
Versions are ordered as the kernel's: numbers compared as numbers, an
-rcN before its release.  The CVE version block, cpeApplicability name
releases (the kernel CNA writes the release a fix is first in, not its
-rc): they are read for release tags only; the -rc tags are read by the
git ranges.  Prints one line per tag and record, "ok" or "WRONG", and
"N passed, N failed"; exits 1 on any wrong answer."""
import json
import re
import subprocess
import sys


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


def cve_git(gitdir, product, commit):
    for e in product.get("versions", []):
        lt = e.get("lessThan")
        start_ok = e["version"] == "0" or ancestor(gitdir, e["version"], commit)
        end_ok = lt is None or (commit != git(gitdir, "rev-parse", lt).stdout.strip()
                                and ancestor(gitdir, commit, lt))
        if start_ok and end_ok:
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
    for a in cna.get("cpeApplicability", []):
        for node in a["nodes"]:
            for m in node["cpeMatch"]:
                lo = m.get("versionStartIncluding", "0")
                hi = m.get("versionEndExcluding")
                if m["vulnerable"] and (lo == "0" or vkey(v) >= vkey(lo)) and \
                        (hi is None or vkey(v) < vkey(hi)):
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


def csaf_affected(doc, v, cve_id):
    prods = csaf_products(doc["product_tree"])
    vulns = [x for x in doc["vulnerabilities"] if x.get("cve") == cve_id]
    vuln = vulns[0] if vulns else doc["vulnerabilities"][0]
    for pid in vuln["product_status"].get("known_affected", []):
        cat, name = prods[pid]
        if cat == "product_version_range" and in_vers(name, v):
            return True
        if cat == "product_version" and vkey(name) == vkey(v):
            return True
    return False


def main():
    argv = sys.argv[1:]
    sep = argv.index("--")
    gitdir, intro = argv[0], argv[1]
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
    ranges = osv["affected"][0]["ranges"]
    passed = failed = 0
    for tag in git(gitdir, "tag").stdout.split():
        commit = git(gitdir, "rev-parse", tag + "^{commit}").stdout.strip()
        v = tag[1:]
        truth = ancestor(gitdir, intro, commit) and any(
            not any(ancestor(gitdir, c, commit) for c in g) for g in groups)
        answers = {
            "OSV": any(osv_git(gitdir, r, commit) if r["type"] == "GIT" else osv_eco(r, v)
                       for r in ranges),
            "OSV GIT": any(osv_git(gitdir, r, commit) for r in ranges if r["type"] == "GIT"),
            "OSV ECOSYSTEM": any(osv_eco(r, v) for r in ranges if r["type"] == "ECOSYSTEM"),
            "CVE git": any(cve_git(gitdir, p, commit) for p in git_block),
            "CSAF": csaf_affected(csaf, v, cve_id),
        }
        if not is_rc(v):
            answers["CVE versions"] = any(cve_semver(p, v) for p in ver_block)
            answers["CVE cpeApplicability"] = cve_cpe(cna, v)
        for name, got in answers.items():
            ok = got == truth
            passed += ok
            failed += not ok
            print("%s %-8s %-21s %s (truth: %s)" % (
                "ok   " if ok else "WRONG", tag, name,
                "affected" if got else "not affected",
                "affected" if truth else "not affected"))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


sys.exit(main())
