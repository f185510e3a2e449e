#!/usr/bin/python3
"""htmlcheck.py: is the change a patch series makes in the Sphinx HTML?

    htmlcheck.py [--rules EXPECTATIONS] TREE HTMLDIR PATCH...

TREE is the patched kernel tree, HTMLDIR the Sphinx output directory
(Documentation/output of `make O=... SPHINXDIRS=... htmldocs`).  For every
line a patch adds to Documentation/<dir>/<name>.rst, the text of
HTMLDIR/<dir>/<name>.html must hold it (tags stripped, entities decoded,
white space collapsed; lines with inline markup are skipped).  A line
ending in "::" introduces a literal block: its text is looked for with one
colon, and the block that follows it in TREE must be in a <pre> element.
A line whose only markup is ``inline literals`` is looked for without the
backquotes, and each literal must be the text of a <code> element.
For every F:, M:, R: or L: line a patch adds to MAINTAINERS, the entry's
section of HTMLDIR/process/maintainers.html must name the file or address.
With --rules, the checks do not all come from the patches: every "rule"
line of kernel-docs/expectations.txt (written from upstream's rules, not
from the series) about a document the patches touch must be in that
document's page too.
Prints one line per check; exits 1 when something is missing, 2 when
nothing could be checked.
"""

import html
import html.parser
import os
import re
import sys


class Text(html.parser.HTMLParser):
    """The text of a page, and the text of each <pre> element apart."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.parts = []
        self.pres = []
        self.in_pre = 0
        self.codes = []
        self.in_code = 0

    def handle_starttag(self, tag, attrs):
        if tag == "pre":
            self.in_pre += 1
            self.pres.append([])
        if tag == "code":
            self.in_code += 1
            self.codes.append([])

    def handle_endtag(self, tag):
        if tag == "pre" and self.in_pre:
            self.in_pre -= 1
        if tag == "code" and self.in_code:
            self.in_code -= 1

    def handle_data(self, data):
        self.parts.append(data)
        if self.in_pre:
            self.pres[-1].append(data)
        if self.in_code:
            self.codes[-1].append(data)


def norm(s):
    s = s.replace("\u2019", "'").replace("\u2018", "'")
    s = s.replace("\u201c", '"').replace("\u201d", '"').replace("\u00a0", " ")
    s = s.replace("\u2013", "--").replace("\u2014", "---")
    return re.sub(r"\s+", " ", s).strip()


def html_text(path):
    p = Text()
    with open(path, encoding="utf-8") as f:
        p.feed(f.read())
    return norm(" ".join(p.parts))


def html_pres(path):
    p = Text()
    with open(path, encoding="utf-8") as f:
        p.feed(f.read())
    return [norm("".join(x)) for x in p.pres]


def html_codes(path):
    p = Text()
    with open(path, encoding="utf-8") as f:
        p.feed(f.read())
    return [norm("".join(x)) for x in p.codes]


def literal_block(tree, path, line):
    """The literal block that follows `line` in the file, normalized."""
    with open(os.path.join(tree, path), encoding="utf-8") as f:
        lines = f.read().split("\n")
    try:
        i = lines.index(line) + 1
    except ValueError:
        return ""
    while i < len(lines) and not lines[i].strip():
        i += 1
    block = []
    while i < len(lines) and (not lines[i].strip() or lines[i][:1] in " \t"):
        block.append(lines[i])
        i += 1
    return norm(" ".join(block))


def added_lines(patch):
    """(file, line, title) for every line the patch adds; title is, for
    MAINTAINERS, the entry the line belongs to when the hunk shows it."""
    cur = title = None
    with open(patch, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("+++ "):
                cur = line[4:]
                if cur.startswith("b/"):
                    cur = cur[2:]
            elif line.startswith("diff --git "):
                cur = None
            elif line.startswith("@@"):
                title = None
            elif cur and line[:1] in (" ", "+"):
                if cur == "MAINTAINERS" and line[1:].strip() and \
                        not re.match(r"[A-Z]:\s", line[1:]):
                    title = line[1:]
                if line[:1] == "+":
                    yield cur, line[1:], title


def entry_of(tree, line):
    """The title of the first MAINTAINERS entry that holds this line."""
    with open(os.path.join(tree, "MAINTAINERS"), encoding="utf-8") as f:
        lines = f.read().split("\n")
    i = lines.index(line)
    while i > 0 and lines[i - 1].strip():
        i -= 1
    return lines[i]


def section(htmlfile, title):
    with open(htmlfile, encoding="utf-8") as f:
        s = f.read()
    m = re.search(r"<h3>" + re.escape(html.escape(title, quote=False)) + r"<a", s)
    if not m:
        return None
    end = s.find("<h3>", m.end())
    p = Text()
    p.feed(s[m.start():end if end > 0 else len(s)])
    # joined without spaces: Sphinx splits addresses ("a<span>@</span>b")
    return norm("".join(p.parts))


def rules(path):
    """(document, text) for every "rule" line of the expectations."""
    cur = None
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("file "):
                cur = line[5:]
            elif line.startswith("rule ") and cur:
                yield cur, line[5:]


def in_page(page, text):
    """text in a page's text; a link is a piece of its own ("<URL>" reads
    "< URL >" joined), so a text with one is compared without blanks"""
    return text in page or ("<" in text and re.sub(r"\s", "", text) in re.sub(r"\s", "", page))


def main():
    args = sys.argv[1:]
    expectations = None
    if args[:1] == ["--rules"]:
        expectations, args = args[1], args[2:]
    tree, out, patches = args[0], args[1], args[2:]
    bad = checked = 0
    if expectations:
        touched = set(p for patch in patches for p, _, _ in added_lines(patch))
        for doc, text in rules(expectations):
            if doc not in touched or not doc.startswith("Documentation/") or not doc.endswith(".rst"):
                continue
            rel = doc[len("Documentation/"):-4] + ".html"
            h = os.path.join(out, rel)
            ok = os.path.exists(h) and in_page(html_text(h), norm(text))
            checked += 1
            print("%s %s: rule: %s" % ("found" if ok else "MISSING", rel, text))
            bad += not ok
    for patch in patches:
        for path, line, hunk_title in added_lines(patch):
            text = norm(line)
            inline = re.findall(r"``([^`]+)``", text)
            if path.startswith("Documentation/") and path.endswith(".rst") and \
                    inline and "`" not in re.sub(r"``[^`]+``", "", text) and "*" not in text:
                rel = path[len("Documentation/"):-4] + ".html"
                h = os.path.join(out, rel)
                shown = text.replace("``", "")
                codes = html_codes(h) if os.path.exists(h) else []
                # the page's text pieces are joined with blanks, and a
                # <code> is a piece of its own: compared without blanks
                ok = os.path.exists(h) and \
                    re.sub(r"\s", "", shown) in re.sub(r"\s", "", html_text(h)) and \
                    all(x in codes for x in inline)
                what, where = "%s + <code> %s" % (shown, ", ".join(inline)), rel
            elif path.startswith("Documentation/") and path.endswith(".rst"):
                if not text or "`" in text or "*" in text or \
                        re.fullmatch(r"[-=~^.:_ ]+", text) or text.startswith(".."):
                    continue
                rel = path[len("Documentation/"):-4] + ".html"
                h = os.path.join(out, rel)
                if text.endswith("::"):
                    # "text::" renders as "text:", "text ::" as "text"
                    head = text[:-2]
                    shown = head + ":" if head == head.rstrip() else head.rstrip()
                    block = literal_block(tree, path, line)
                    ok = os.path.exists(h) and shown in html_text(h) and \
                        bool(block) and any(block in p for p in html_pres(h))
                    what, where = "%s + literal block %r" % (shown, block), rel
                else:
                    # a link is a piece of its own too ("<URL>" reads
                    # "< URL >" joined): then compared without blanks
                    page = html_text(h) if os.path.exists(h) else None
                    ok = page is not None and (
                        text in page or
                        ("<" in text and re.sub(r"\s", "", text) in
                         re.sub(r"\s", "", page)))
                    what, where = text, rel
            elif path == "MAINTAINERS" and re.match(r"[FMRL]:\s", line):
                title = hunk_title or entry_of(tree, line)
                val = line[2:].strip()
                if line.startswith("F:"):
                    val = re.sub(r"^Documentation/", "", val)
                    val = re.sub(r"\.rst$", "", val)
                else:
                    val = re.sub(r".*<(.*)>.*", r"\1", val)
                sec = section(os.path.join(out, "process/maintainers.html"), title)
                ok = sec is not None and val in sec
                what, where = "%s: %s" % (title, val), "process/maintainers.html"
            else:
                continue
            checked += 1
            print("%s %s: %s" % ("found" if ok else "MISSING", where, what))
            bad += not ok
    if not checked:
        print("nothing to check")
        return 2
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
