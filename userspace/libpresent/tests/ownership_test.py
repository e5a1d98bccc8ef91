#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Host test: each part of struct present_swapchain is written by one file.

swapchain_internal.h names the file that owns each part, as the comment of
its member ("struct sc_pacing pace;  /* swapchain_pacing.c */").  Any other
file may read a part but must ask the owner's functions to change it; this
test fails on an assignment, increment or memset/memcpy/memmove into a part
outside its owner.  It reads text, so a write through a pointer taken
elsewhere goes unseen: the owners' functions are where such pointers live.
"""
import os
import re
import sys

WRITE = re.compile(
    r"(?:\+\+|--)\s*sc->(?P<pre>\w+)\s*\."
    r"|sc->(?P<part>\w+)(?:\s*(?:\.|->)\s*\w+|\[[^\]]*\])+\s*(?:[-+|&^]?=(?!=)|\+\+|--)"
    r"|\bmem(?:set|cpy|move)\s*\(\s*&?\s*sc->(?P<dst>\w+)\b")


def owners(header):
    """{part: owner file} from the members of struct present_swapchain."""
    text = open(header).read()
    body = text[text.index("struct present_swapchain {"):]
    body = body[:body.index("\n};")]
    return dict((m.group(1), m.group(2)) for m in re.finditer(
        r"struct sc_\w+ (\w+);\s*/\* (swapchain\w*\.c) \*/", body))


def main(src):
    own = owners(os.path.join(src, "swapchain_internal.h"))
    passed = failed = 0
    if len(own) < 8:
        print("FAIL: found %d owned parts in swapchain_internal.h" % len(own))
        failed += 1
    for part, f in sorted(own.items()):
        if os.path.exists(os.path.join(src, f)):
            passed += 1
        else:
            print("FAIL: %s's owner %s does not exist" % (part, f))
            failed += 1
    for f in sorted(os.listdir(src)):
        if not f.endswith(".c"):
            continue
        for n, line in enumerate(open(os.path.join(src, f)), 1):
            for m in WRITE.finditer(line):
                part = m.group("pre") or m.group("part") or m.group("dst")
                if part not in own:
                    continue
                if own[part] == f:
                    passed += 1
                else:
                    print("FAIL %s:%d writes sc->%s, which %s owns: %s"
                          % (f, n, part, own[part], line.strip()))
                    failed += 1
    print("ownership: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
