#!/usr/bin/python3
"""`make check-docs`: every relative link in README.md and docs/*.md leads somewhere.

- A link's file (relative to the Markdown file it is in) exists: `[x](docs/cube.md)`,
  `![x](docs/player.jpg)`, `[x](../bench/run.sh)`.
- A link with a `#anchor` into a Markdown file (`[x](#the-manifest)`, `[x](docs/cube.md#storyreel-cube)`)
  names a heading of that file, by GitHub's slug: lowercased, punctuation other than `-` and `_`
  removed (backticks included), each space a `-`; a heading whose slug an earlier heading of the
  file has gets `-1`, `-2` … after it.
- Links in fenced code blocks and inline code are not links; a link with a scheme (`https:`,
  `mailto:` …) is not checked (nothing is fetched). Headings are ATX headings (`#` to `######`).

Debian's python3, standard library only. Prints `check-docs: ok: N links`, or one line per problem
on stderr and exits 1.
"""
import glob
import os
import re
import sys
import urllib.parse

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FENCE = re.compile(r"^ {0,3}(?:[-*+] +|\d+[.)] +)?\s*(`{3,}|~{3,})")
HEADING = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$")
# An inline link or image, `[text](target)` or `[text](target "title")`; the text may hold one
# level of brackets.
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
# A reference definition, `[label]: target`.
REFERENCE = re.compile(r"^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+\"[^\"]*\")?\s*$", re.M)
# An inline code span: a run of backticks, then text that crosses no blank line, then a run of
# the same length.
CODE_SPAN = re.compile(r"(?<!`)(`+)(?!`)((?:(?!\n[ \t]*\n).)+?)(?<!`)\1(?!`)", re.S)
problems = []
headings_cache = {}


def read(path):
    with open(path, encoding="utf-8") as file:
        return file.read()


def unfenced(text):
    """The text with its fenced code blocks blanked, line numbers kept."""
    lines, fence = [], None
    for line in text.split("\n"):
        match = FENCE.match(line)
        if fence is None and match:
            fence = match.group(1)
            lines.append("")
        elif fence is not None:
            stripped = line.strip()
            if stripped.startswith(fence[0] * len(fence)) and set(stripped) == {fence[0]}:
                fence = None
            lines.append("")
        else:
            lines.append(line)
    return "\n".join(lines)


def prose(text):
    """The text with fenced code blocks blanked and inline code spans removed, line numbers kept."""
    return CODE_SPAN.sub(lambda span: "\n" * span.group(0).count("\n"), unfenced(text))


def slug(heading):
    """GitHub's anchor for a heading's text."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link in a heading: its text
    text = re.sub(r"[^\w\- ]", "", text.strip().lower())
    return text.replace(" ", "-")


def anchors(path):
    """Every anchor the headings of a Markdown file give, duplicates numbered as GitHub numbers them."""
    if path not in headings_cache:
        found, seen = set(), {}
        for line in unfenced(read(path)).split("\n"):
            match = HEADING.match(line)
            if not match:
                continue
            base = slug(match.group(2))
            count = seen.get(base, 0)
            seen[base] = count + 1
            found.add(base if count == 0 else f"{base}-{count}")
        headings_cache[path] = found
    return headings_cache[path]


def check(path):
    """Checks every link of one Markdown file; returns how many were checked."""
    text = prose(read(path))
    name = os.path.relpath(path, ROOT)
    targets = [(match.group(1), match.start()) for match in LINK.finditer(text)]
    targets += [(match.group(1), match.start()) for match in REFERENCE.finditer(text)]
    checked = 0
    for target, offset in targets:
        if re.match(r"[A-Za-z][A-Za-z0-9+.-]*:", target) or target.startswith("//"):
            continue
        checked += 1
        line = text.count("\n", 0, offset) + 1
        file_part, _, anchor = target.partition("#")
        file_part = urllib.parse.unquote(file_part)
        destination = os.path.normpath(os.path.join(os.path.dirname(path), file_part)) if file_part else path
        if not os.path.exists(destination):
            problems.append(f"{name}:{line}: {target}: no such file {os.path.relpath(destination, ROOT)}")
            continue
        if not anchor:
            continue
        if not destination.endswith(".md") or not os.path.isfile(destination):
            problems.append(f"{name}:{line}: {target}: an anchor into a file that is not Markdown")
        elif urllib.parse.unquote(anchor) not in anchors(destination):
            problems.append(
                f"{name}:{line}: {target}: no heading of {os.path.relpath(destination, ROOT)} has the anchor #{anchor}")
    return checked


def main():
    files = [os.path.join(ROOT, "README.md")] + sorted(glob.glob(os.path.join(ROOT, "docs", "*.md")))
    links = sum(check(path) for path in files)
    for problem in problems:
        print(f"check-docs: {problem}", file=sys.stderr)
    if problems:
        sys.exit(1)
    print(f"check-docs: ok: {links} links")


main()
