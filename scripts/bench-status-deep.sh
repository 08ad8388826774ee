#!/usr/bin/env bash
# `goccia-trust status` on a config whose path scopes have 10,000
# components each, beside the same command on an ordinary config, and
# `/bin/true` (the cost of starting any process), for the performance page.
# Resolving a scope walks its components once, so the deep config costs a
# few milliseconds more, not the hours a resolution cubic in the components
# took. Each run alternates the commands; medians are printed. It measures;
# it fails only when a command fails or status is not clean.
#
# usage: scripts/bench-status-deep.sh [--runs N] [--dir DIR] [--no-build]
#   --runs N    runs of each command (default 30)
#   --dir DIR   where the configs and store go (default
#               /tmp/goccia-bench/status-deep; rebuilt on every run)
#   --no-build  use target/release/goccia-trust as it is
#
# Offline: needs cargo (for the release build) and python3.
set -euo pipefail

runs=30
dir=/tmp/goccia-bench/status-deep
build=1
while [ $# -gt 0 ]; do
    case "$1" in
        --runs) runs="$2"; shift 2 ;;
        --dir) dir="$2"; shift 2 ;;
        --no-build) build=0; shift ;;
        *) echo "usage: $0 [--runs N] [--dir DIR] [--no-build]" >&2; exit 2 ;;
    esac
done

repo="$(cd "$(dirname "$0")/.." && pwd)"
. "$repo/scripts/bench-lib.sh"
bench_lock
bin="$repo/target/release/goccia-trust"
if [ "$build" = 1 ]; then
    (cd "$repo" && cargo build --release --quiet --bin goccia-trust)
fi

exec python3 - "$bin" "$dir" "$runs" <<'PY'
import datetime, json, os, platform, shutil, statistics, subprocess, sys, time

binary, root, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
shutil.rmtree(root, ignore_errors=True)
os.makedirs(f"{root}/store", mode=0o700)
store = f"{root}/store/trust.json"

def config(name, scopes):
    os.makedirs(f"{root}/{name}")
    with open(f"{root}/{name}/goccia.json", "w") as f:
        json.dump({"permissions": {"allow-read": scopes, "allow-net": ["api.example.com"]}}, f)
    return os.path.getsize(f"{root}/{name}/goccia.json")

# An ordinary config: a few short scopes.
small = config("ordinary", ["./src", "./data", "../shared/assets"])
# Three scopes of 10,000 components each: names that do not exist, `..`
# steps, and `.` steps.
deep_names = "./" + "/".join(f"d{i % 10}" for i in range(10_000))
deep_up = "./x/" + "/".join(".." for _ in range(10_000)) + "/y"
deep_dots = "./" + "/".join("." for _ in range(10_000)) + "/z"
big = config("deep", [deep_names, deep_up, deep_dots])

for name in ("ordinary", "deep"):
    subprocess.run([binary, f"--trust-store={store}", "trust", "--yes", "--quiet", name],
                   cwd=root, check=True, stdout=subprocess.DEVNULL)
    if subprocess.run([binary, f"--trust-store={store}", "status", name], cwd=root).returncode:
        sys.exit(f"status is not clean for {name}")

commands = [
    (f"goccia-trust status ordinary ({small} B config)", [binary, f"--trust-store={store}", "status", "ordinary"]),
    (f"goccia-trust status deep ({big // 1024} KiB config, 3 scopes of 10,000 components)", [binary, f"--trust-store={store}", "status", "deep"]),
    ("/bin/true", ["/bin/true"]),
]
times = {name: [] for name, _ in commands}
for _ in range(runs):
    for name, argv in commands:
        start = time.perf_counter()
        r = subprocess.run(argv, cwd=root, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        elapsed = time.perf_counter() - start
        if r.returncode != 0:
            sys.exit(f"{name} exited {r.returncode}: {r.stderr.decode(errors='replace')}")
        times[name].append(elapsed)

now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
print(f"{now}, {platform.machine()}, {os.cpu_count()} cores, {platform.release()}; release build; "
      f"medians of {runs} runs, alternating; load average at the end "
      + " ".join(f"{x:.2f}" for x in os.getloadavg()))
print()
floor = statistics.median(times["/bin/true"])
print("| command | median | over /bin/true |")
print("|---|---|---|")
for name, _ in commands:
    m = statistics.median(times[name])
    print(f"| `{name}` | {m * 1000:.1f} ms | {(m - floor) * 1000:+.1f} ms |")
PY
