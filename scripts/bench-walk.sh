#!/usr/bin/env bash
# The directory walk's speed: `goccia-trust scan` against `find` (and `fd`
# where it is installed) on synthetic trees, each command alternating with
# the others, medians printed as the table in docs/src/performance.md.
# With --before BIN, a second goccia-trust (a build of an earlier commit)
# runs in the same rotation, so a change to the walk is measured against
# the code it replaces on the same machine at the same moment.
#
# usage: scripts/bench-walk.sh [--runs N] [--dir DIR] [--before BIN] [--no-build]
#   --runs N      runs of each command (default 7); medians are printed
#   --dir DIR     where the synthetic trees go (default /tmp/goccia-bench);
#                 trees already there are reused
#   --before BIN  also time BIN (another goccia-trust build)
#   --no-build    use target/release/goccia-trust as it is
#
# Offline: needs cargo (for the release build), python3 and find.
set -euo pipefail

runs=7
dir=/tmp/goccia-bench
before=""
build=1
while [ $# -gt 0 ]; do
    case "$1" in
        --runs) runs="$2"; shift 2 ;;
        --dir) dir="$2"; shift 2 ;;
        --before) before="$(cd "$(dirname "$2")" && pwd)/$(basename "$2")"; shift 2 ;;
        --no-build) build=0; shift ;;
        *) echo "usage: $0 [--runs N] [--dir DIR] [--before BIN] [--no-build]" >&2; exit 2 ;;
    esac
done

repo="$(cd "$(dirname "$0")/.." && pwd)"
. "$repo/scripts/bench-lib.sh"
bench_lock
bin="$repo/target/release/goccia-trust"
if [ "$build" = 1 ]; then
    (cd "$repo" && cargo build --release --quiet --bin goccia-trust)
fi
mkdir -p "$dir"
gen() { # ROOT DIRS CONFIGS
    if [ ! -e "$1/.done" ]; then
        rm -rf "$1"
        python3 "$repo/scripts/gen-tree.py" "$1" "$2" "$3" >/dev/null
        touch "$1/.done"
    fi
}
gen "$dir/t50k" 50000 5000
gen "$dir/t200k" 200000 20000

exec python3 - "$bin" "$dir" "$runs" "$before" <<'PY'
import datetime, os, platform, shutil, statistics, subprocess, sys, time

binary, root, runs, before = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
DEVNULL = subprocess.DEVNULL


def run(argv):
    """Wall seconds of one run; an unexpected exit stops the script (scan
    exits 2: the trees' configs are not trusted)."""
    start = time.perf_counter()
    p = subprocess.run(argv, stdout=DEVNULL, stderr=subprocess.PIPE)
    wall = time.perf_counter() - start
    if p.returncode not in (0, 2):
        sys.exit(f"{argv[0]} exited {p.returncode}: {p.stderr.decode(errors='replace')}")
    return wall


empty_dir = os.path.join(root, "walk-empty")
shutil.rmtree(empty_dir, ignore_errors=True)
os.makedirs(empty_dir, mode=0o700)
empty = os.path.join(empty_dir, "trust.json")

fd = shutil.which("fd") or shutil.which("fdfind")
print(f"fd: {fd or 'not installed (not timed)'}")

rows = []
for name, label in (("t50k", "50,000 dirs / 5,000 configs"),
                    ("t200k", "200,000 dirs / 20,000 configs")):
    tree = os.path.join(root, name)
    cmds = [("goccia-trust scan", [binary, f"--trust-store={empty}", "scan", tree])]
    if before:
        cmds.append(("goccia-trust scan (--before)", [before, f"--trust-store={empty}", "scan", tree]))
    # The same walk: every directory, node_modules and .git pruned.
    cmds.append(("find", ["find", tree, "(", "-name", "node_modules", "-o", "-name", ".git", ")",
                          "-prune", "-o", "-type", "d", "-print"]))
    if fd:
        cmds.append(("fd", [fd, "--unrestricted", "--type", "d", "--exclude", "node_modules",
                            "--exclude", ".git", ".", tree]))
    times = {what: [] for what, _ in cmds}
    for _ in range(runs):
        for what, argv in cmds:
            times[what].append(run(argv))
    find = statistics.median(times["find"])
    for what, _ in cmds:
        m = statistics.median(times[what])
        rows.append((label, what, m, m / find))

load = os.getloadavg()
now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
print(f"{now}, {platform.machine()}, {os.cpu_count()} cores, {platform.release()}; release build; "
      f"medians of {runs} runs, alternating; load average at the end {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
print()
print("| tree | command | median | over find |")
print("|---|---|---|---|")
for label, what, m, ratio in rows:
    print(f"| {label} | {what} | {m * 1000:.0f} ms | {ratio:.2f}× |")
PY
