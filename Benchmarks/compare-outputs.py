#!/usr/bin/env python3
"""Check that gallery's and Hugo's builds of the generated sites are the same site.

Usage: compare-outputs.py PUBLIC_GALLERY PUBLIC_HUGO

Compares every HTML page, carousel.svg and albums.json after normalising what legitimately
differs: fingerprinted file names (covers/…, assets/…) and the spelling of the `"` entity
(gallery writes &quot;, Go's html/template &#34;). Reports files present in only one output and
pages whose normalised text differs (first difference shown). Exit status 1 if any differ.
sitemap.xml is left out: Hugo's is its own built-in template (same URLs, other layout).
"""

import os
import re
import sys

NORMALISE = [
    (re.compile(r"covers/[^\"']+"), "covers/COVER"),
    (re.compile(r"assets/(gallery|placeholder)\.[0-9a-f]+\.(css|js|svg)"), r"assets/\1.HASH.\2"),
    (re.compile(r"&#34;"), "&quot;"),
    (re.compile(r"\\u0026"), "&"),  # Go's jsonify escapes & < > in JSON strings
    (re.compile(r"\\u003c"), "<"),
    (re.compile(r"\\u003e"), ">"),
]
COMPARED = (".html", ".svg", ".json")


def files(root):
    found = set()
    for base, _, names in os.walk(root):
        for name in names:
            rel = os.path.relpath(os.path.join(base, name), root)
            if rel.startswith(("covers" + os.sep, "assets" + os.sep)):
                continue  # fingerprinted names differ; counted below
            found.add(rel)
    return found


def normalised(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    for pattern, replacement in NORMALISE:
        text = pattern.sub(replacement, text)
    return text


def first_difference(a, b):
    for number, (x, y) in enumerate(zip(a.splitlines(), b.splitlines()), start=1):
        if x != y:
            return f"line {number}:\n    gallery: {x[:160]}\n    hugo:    {y[:160]}"
    return f"length: gallery {len(a.splitlines())} lines, hugo {len(b.splitlines())} lines"


def count(root, folder):
    path = os.path.join(root, folder)
    return len(os.listdir(path)) if os.path.isdir(path) else 0


def main(argv):
    if len(argv) != 3:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    gallery, hugo = argv[1], argv[2]
    g, h = files(gallery), files(hugo)
    problems = 0
    for rel in sorted(g - h):
        print(f"only in gallery: {rel}")
        problems += 1
    for rel in sorted(h - g):
        print(f"only in hugo: {rel}")
        problems += 1
    compared = differing = 0
    for rel in sorted(g & h):
        if not rel.endswith(COMPARED):
            continue
        compared += 1
        a, b = normalised(os.path.join(gallery, rel)), normalised(os.path.join(hugo, rel))
        if a != b:
            differing += 1
            if differing <= 5:
                print(f"differs: {rel}, {first_difference(a, b)}")
    if differing > 5:
        print(f"… and {differing - 5} more differing files")
    print(f"compared {compared} files: {differing} differ, {problems} present in one output only; "
          f"covers: gallery {count(gallery, 'covers')}, hugo {count(hugo, 'covers')}; "
          f"assets: gallery {count(gallery, 'assets')}, hugo {count(hugo, 'assets')}")
    return 1 if differing or problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
