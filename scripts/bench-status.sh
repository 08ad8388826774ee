#!/usr/bin/env bash
# `goccia-trust status` beside `git status --porcelain` in the same
# repository, and `/bin/true` (the cost of starting any process), for the
# performance page and README. The repository holds 1,000 configs (each
# with a source file beside it), all trusted (a 1,000-entry store), and the
# working directory's config extends a chain of five bases. Each run
# alternates the commands; medians are printed. It measures; it passes or
# fails on nothing but a command failing.
#
# usage: scripts/bench-status.sh [--runs N] [--configs N] [--dir DIR] [--no-build]
#   --runs N    runs of each command (default 50)
#   --configs N configs in the repository (default 1000; at least 1)
#   --dir DIR   where the repository and store go (default
#               /tmp/goccia-bench/status; rebuilt on every run)
#   --no-build  use target/release/goccia-trust as it is
#
# Offline: needs cargo (for the release build), git and python3.
set -euo pipefail

runs=50
configs=1000
dir=/tmp/goccia-bench/status
build=1
while [ $# -gt 0 ]; do
    case "$1" in
        --runs) runs="$2"; shift 2 ;;
        --configs) configs="$2"; shift 2 ;;
        --dir) dir="$2"; shift 2 ;;
        --no-build) build=0; shift ;;
        *) echo "usage: $0 [--runs N] [--configs N] [--dir DIR] [--no-build]" >&2; exit 2 ;;
    esac
done

repo="$(cd "$(dirname "$0")/.." && pwd)"
. "$repo/scripts/bench-lib.sh"
bench_lock
bin="$repo/target/release/goccia-trust"
if [ "$build" = 1 ]; then
    (cd "$repo" && cargo build --release --quiet --bin goccia-trust)
fi

exec python3 - "$bin" "$dir" "$runs" "$configs" <<'PY'
import datetime, os, platform, shutil, statistics, subprocess, sys, time

binary, root, runs, count = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
shutil.rmtree(root, ignore_errors=True)
work = f"{root}/repo"
store_dir = f"{root}/store"
os.makedirs(work)
os.makedirs(store_dir, mode=0o700)
store = f"{store_dir}/trust.json"
git_env = dict(os.environ, GIT_CONFIG_GLOBAL="/dev/null", GIT_CONFIG_NOSYSTEM="1",
               GIT_AUTHOR_NAME="b", GIT_AUTHOR_EMAIL="b@example.invalid",
               GIT_COMMITTER_NAME="b", GIT_COMMITTER_EMAIL="b@example.invalid")

def write(rel, text):
    path = f"{work}/{rel}"
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)

# The other configs in packages, each with a source file beside it.
for i in range(count - 1):
    write(f"packages/p{i:03}/goccia.json",
          '{"permissions": {"allow-net": ["api%d.example.com"], "allow-read": ["./data"]}}' % i)
    write(f"packages/p{i:03}/index.js", "console.log(1);\n")
# The working directory's config and its five-level extends chain.
for level in range(1, 6):
    nxt = f', "extends": "./base{level + 1}.json"' if level < 5 else ""
    write(f"app/base{level}.json",
          '{"permissions": {"allow-read": ["./level%d"]}%s}' % (level, nxt))
write("app/goccia.json", '{"extends": "./base1.json", "permissions": {"allow-net": ["app.example.com"]}}')
write("app/src/main.js", "console.log(1);\n")

def sh(argv, cwd=work, env=None):
    subprocess.run(argv, cwd=cwd, env=env, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)

sh(["git", "init", "-q", "-b", "main"], env=git_env)
sh(["git", "add", "-A"], env=git_env)
sh(["git", "commit", "-q", "-m", "bench"], env=git_env)
sh([binary, f"--trust-store={store}", "trust", "--yes", "--quiet", "."])
import json
with open(store) as f:
    entries = len(json.load(f)["trusted"])
cwd = f"{work}/app/src"
# The status must be clean for the comparison to be the prompt's case.
check = [subprocess.run([binary, f"--trust-store={store}", "status"] + extra, cwd=cwd).returncode
         for extra in ([], ["--tree", "../.."])]
if check != [0, 0]:
    sys.exit("status is not clean in the bench repository")

commands = [
    ("goccia-trust status", [binary, f"--trust-store={store}", "status"]),
    ("goccia-trust status --tree ../..", [binary, f"--trust-store={store}", "status", "--tree", "../.."]),
    ("git status --porcelain", ["git", "status", "--porcelain"]),
    ("/bin/true", ["/bin/true"]),
]
times = {name: [] for name, _ in commands}
for _ in range(runs):
    for name, argv in commands:
        start = time.perf_counter()
        r = subprocess.run(argv, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        elapsed = time.perf_counter() - start
        if r.returncode != 0:
            sys.exit(f"{name} exited {r.returncode}: {r.stderr.decode(errors='replace')}")
        times[name].append(elapsed)

now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
print(f"{now}, {platform.machine()}, {os.cpu_count()} cores, {platform.release()}; release build; "
      f"medians of {runs} runs, alternating; store entries: {entries}; load average at the end "
      + " ".join(f"{x:.2f}" for x in os.getloadavg()))
print()
floor = statistics.median(times["/bin/true"])
print(f"| command (in app/src: a 5-level extends chain, {count:,} configs in the repository) | median | over /bin/true |")
print("|---|---|---|")
for name, _ in commands:
    m = statistics.median(times[name])
    print(f"| `{name}` | {m * 1000:.1f} ms | {(m - floor) * 1000:+.1f} ms |")
PY
