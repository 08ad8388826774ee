#!/usr/bin/env bash
# Whole-command timings for the README's performance table, measured in one
# run, each command alternating with the baseline it is compared with.
#
# usage: scripts/bench.sh [--runs N] [--dir DIR] [--full] [--no-build]
#   --runs N    runs of each command (default 7); medians are printed
#   --dir DIR   where the synthetic trees go (default /tmp/goccia-bench);
#               trees already there are reused
#   --full      also the 200,000-directory / 20,000-config tree (peak RSS
#               and scan vs find there); takes a few minutes to generate
#   --no-build  use target/release/goccia-trust (and examples/list_floor)
#               as they are
#
# Offline: needs only cargo (for the release build), python3, find, xargs
# and sha256sum. The in-process benches are `cargo bench --bench core`.
set -euo pipefail

runs=7
dir=/tmp/goccia-bench
full=0
build=1
while [ $# -gt 0 ]; do
    case "$1" in
        --runs) runs="$2"; shift 2 ;;
        --dir) dir="$2"; shift 2 ;;
        --full) full=1; shift ;;
        --no-build) build=0; shift ;;
        *) echo "usage: $0 [--runs N] [--dir DIR] [--full] [--no-build]" >&2; exit 2 ;;
    esac
done

repo="$(cd "$(dirname "$0")/.." && pwd)"
. "$repo/scripts/bench-lib.sh"
bench_lock
bin="$repo/target/release/goccia-trust"
floor="$repo/target/release/examples/list_floor"
if [ "$build" = 1 ]; then
    (cd "$repo" && cargo build --release --quiet --bin goccia-trust --example list_floor)
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
gen "$dir/t20k" 20000 10000
if [ "$full" = 1 ]; then
    gen "$dir/t200k" 200000 20000
fi

exec python3 - "$bin" "$dir" "$runs" "$full" "$floor" <<'PY'
import os, statistics, subprocess, sys, time, platform, datetime, shutil

binary, root, runs, full, floor = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4] == "1", sys.argv[5]
DEVNULL = subprocess.DEVNULL


def run(argv, cwd=None, stdin=None):
    """Wall seconds and peak RSS (KiB) of one run; a failure stops the script."""
    start = time.perf_counter()
    p = subprocess.Popen(argv, cwd=cwd, stdout=DEVNULL, stderr=subprocess.PIPE, stdin=stdin)
    _, status, usage = os.wait4(p.pid, 0)
    wall = time.perf_counter() - start
    p.returncode = os.waitstatus_to_exitcode(status)
    err = p.stderr.read().decode(errors="replace")
    p.stderr.close()
    return wall, usage.ru_maxrss, p.returncode, err


def ok(res, what, codes=(0,)):
    if res[2] not in codes:
        sys.exit(f"{what} exited {res[2]}: {res[3]}")
    return res


def prune_find(tree):
    return ["find", tree, "(", "-name", "node_modules", "-o", "-name", ".git", ")",
            "-prune", "-o", "-type", "d", "-print"]


def configs_of(tree):
    out = subprocess.run(
        ["find", tree, "(", "-name", "node_modules", "-o", "-name", ".git", ")", "-prune",
         "-o", "-type", "f", "-name", "goccia.*", "-print"],
        capture_output=True, text=True, check=True).stdout.split("\n")
    return sorted(p for p in out if p)


def private_dir(path):
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path, mode=0o700)
    return path


rows = []  # (what, command, ours, baseline name, baseline)


def alternate(what, ours, base=None, prepare=None, codes=(0,), also=()):
    """Runs ours, each of `also` (what, (name, argv)) and the baseline in
    turn, `runs` times; a row of medians for ours and one for each of
    `also`, all against the same baseline runs."""
    timed = [(what, ours)] + list(also)
    t, rss = {w: [] for w, _ in timed}, {w: [] for w, _ in timed}
    t_base = []
    for _ in range(runs):
        for w, cmd in timed:
            if prepare:
                prepare()
            r = ok(run(cmd[1]), w, codes)
            t[w].append(r[0])
            rss[w].append(r[1])
        if base:
            t_base.append(ok(run(base[1]), base[0])[0])
    for w, cmd in timed:
        rows.append((w, cmd[0], statistics.median(t[w]), base[0] if base else None,
                     statistics.median(t_base) if base else None, max(rss[w])))


t50k, t20k = f"{root}/t50k", f"{root}/t20k"
store_dir = private_dir(f"{root}/store")
store = f"{store_dir}/trust.json"
# The scans run against an empty store, so their memory is per config found.
empty = f"{private_dir(f'{root}/empty')}/trust.json"
files = configs_of(t20k)
with open(f"{root}/files20k", "w") as f:
    f.write("\n".join(files) + "\n")

# scan vs find's bare walk, same prune.
alternate("scan, 50,000 dirs / 5,000 configs", ("goccia-trust scan t50k", [binary, f"--trust-store={empty}", "scan", t50k]),
          ("find", prune_find(t50k)), codes=(0, 2))

# trust --yes of 10,000 new configs into an empty store.
def fresh_store():
    for name in ("trust.json", "trust.json.lock"):
        try:
            os.remove(f"{store_dir}/{name}")
        except FileNotFoundError:
            pass
alternate("trust --yes, 10,000 new configs", ("goccia-trust trust --yes t20k",
          [binary, f"--trust-store={store}", "trust", "--yes", t20k]), prepare=fresh_store)

# list of the 10,000-entry store just written vs sha256sum of its files,
# and list's floor: the same files' system calls and SHA-256 on the same
# two threads, without any parsing (examples/list_floor.rs).
alternate("list, 10,000-entry store", ("goccia-trust list", [binary, f"--trust-store={store}", "list"]),
          ("sha256sum", ["xargs", "-a", f"{root}/files20k", "sha256sum"]),
          also=[("list's floor: its system calls and hashing, no parsing",
                 ("list_floor", [floor, f"{root}/files20k"]))])

# check over 1,000 inputs, one beside each of the first 1,000 configs.
inputs = []
for cfg in files[:1000]:
    js = os.path.join(os.path.dirname(cfg), "main.js")
    if not os.path.exists(js):
        open(js, "w").close()
    inputs.append(js)
alternate("check, 1,000 inputs (all trusted)", ("goccia-trust check 1000 inputs",
          [binary, f"--trust-store={store}", "check", *inputs]))

if full:
    t200k = f"{root}/t200k"
    alternate("scan --json, 200,000 dirs / 20,000 configs", ("goccia-trust scan --json t200k",
              [binary, f"--trust-store={empty}", "scan", "--json", t200k]),
              ("find", prune_find(t200k)), codes=(0, 2))

load = os.getloadavg()
print(f"{datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC, {platform.machine()}, "
      f"{os.cpu_count()} cores, {platform.release()}; release build; medians of {runs} runs, "
      f"each alternating with its baseline; load average at the end {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
print()
print("| what | goccia-trust | baseline | ratio | peak RSS |")
print("|---|---|---|---|---|")
for what, cmd, ours, bname, base, rss in rows:
    b = f"{bname} {base * 1000:.0f} ms" if base else "–"
    ratio = f"{ours / base:.2f}×" if base else "–"
    print(f"| {what} | {ours * 1000:.0f} ms | {b} | {ratio} | {rss / 1024:.1f} MiB |")
PY
