#!/usr/bin/env python3
"""Writes a synthetic monorepo for timing: DIRS directories, every
DIRS/CONFIGS-th one holding a config (formats rotate), plus node_modules and
.git trees that a scan must skip.

usage: gen-tree.py ROOT [DIRS=50000] [CONFIGS=5000]
"""
import os
import sys

root = sys.argv[1]
dirs = int(sys.argv[2]) if len(sys.argv) > 2 else 50000
configs = int(sys.argv[3]) if len(sys.argv) > 3 else 5000
every = max(1, dirs // configs)
fanout = 20

made = 0
written = 0
stack = [root]
os.makedirs(root, exist_ok=True)
while made < dirs:
    parent = stack.pop(0)
    for i in range(fanout):
        if made >= dirs:
            break
        d = os.path.join(parent, f"d{i:02}")
        os.makedirs(d, exist_ok=True)
        made += 1
        stack.append(d)
        if made % every == 0 and written < configs:
            kind = written % 3
            if kind == 0:
                body = '{"permissions": {"allow-net": ["api%d.example.com"], "allow-read": ["./data"]}}' % written
                name = "goccia.json"
            elif kind == 1:
                body = '[permissions]\nallow-net = ["cdn%d.example.org"]\ndeny-read = ["./secret"]\n' % written
                name = "goccia.toml"
            else:
                body = '{permissions: {"allow-ffi": ["./lib/x%d.so"]}, "unsafe-shadowrealm": true}' % written
                name = "goccia.json5"
            with open(os.path.join(d, name), "w") as f:
                f.write(body)
            written += 1
        for skipped in ("node_modules", ".git"):
            if made % 997 == 0:
                os.makedirs(os.path.join(d, skipped, "pkg"), exist_ok=True)
                with open(os.path.join(d, skipped, "pkg", "goccia.json"), "w") as f:
                    f.write('{"permissions": {"allow-read": true}}')
print(f"{made} directories, {written} configs under {root}")
