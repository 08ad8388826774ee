#!/usr/bin/env bash
# `goccia-trust diff` and the git hooks' check on a large repository, for
# the performance page and "Reviewing a pull request": the synthetic tree
# of `scripts/gen-tree.py ROOT 50000 5000` (50,000 directories, 5,000
# configs) committed in a git repository, then one commit that adds one
# host to one config. Runs `diff HEAD~1 HEAD` (two revisions, git objects
# only), `diff HEAD~1` (against the working tree, which walks the 50,000
# directories from disk) and `hook run post-merge` (`status --tree` of the
# repository, the hooks' time limit raised so the whole check is timed),
# alternating; prints the date and machine line, then medians and ranges.
# It measures; it fails only when a command does.
#
# usage: scripts/bench-git.sh [--runs N] [--dir DIR] [--no-build]
#   --runs N    runs of each command (default 5)
#   --dir DIR   where the repository and store go (default
#               /tmp/goccia-bench/git; rebuilt on every run)
#   --no-build  use target/release/goccia-trust as it is
#
# Offline: needs cargo (for the release build), git and python3.
set -euo pipefail

runs=5
dir=/tmp/goccia-bench/git
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

exec python3 - "$bin" "$dir" "$runs" "$repo/scripts/gen-tree.py" <<'PY'
import datetime, os, platform, shutil, statistics, subprocess, sys, time

binary, root, runs, gen_tree = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
shutil.rmtree(root, ignore_errors=True)
work = f"{root}/repo"
home = f"{root}/home"
os.makedirs(home)
env = dict(os.environ, HOME=home, GIT_CONFIG_GLOBAL="/dev/null", GIT_CONFIG_NOSYSTEM="1",
           GIT_AUTHOR_NAME="b", GIT_AUTHOR_EMAIL="b@example.invalid",
           GIT_COMMITTER_NAME="b", GIT_COMMITTER_EMAIL="b@example.invalid",
           GOCCIA_TRUST_HOOK_TIME_LIMIT_MS="60000")

def sh(argv):
    subprocess.run(argv, cwd=work, env=env, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)

subprocess.run([sys.executable, gen_tree, work, "50000", "5000"], check=True,
               stdout=subprocess.DEVNULL)
sh(["git", "init", "-q", "-b", "main"])
sh(["git", "add", "-A"])
sh(["git", "commit", "-q", "-m", "tree"])
tracked = subprocess.run(["git", "ls-files"], cwd=work, env=env, check=True,
                         capture_output=True, text=True).stdout.splitlines()
configs = [p for p in tracked if os.path.basename(p).startswith("goccia.")]
# One host added to the first JSON config that asks for the network.
target = next(p for p in configs if p.endswith(".json")
              and '"allow-net"' in open(f"{work}/{p}").read())
text = open(f"{work}/{target}").read()
with open(f"{work}/{target}", "w") as f:
    f.write(text.replace('"allow-net": [', '"allow-net": ["added.example.com", ', 1))
sh(["git", "commit", "-q", "-am", "add one host"])

commands = [
    ("goccia-trust diff HEAD~1 HEAD", [binary, "diff", "HEAD~1", "HEAD"], {0, 1}),
    ("goccia-trust diff HEAD~1", [binary, "diff", "HEAD~1"], {0, 1}),
    ("goccia-trust hook run post-merge", [binary, "hook", "run", "post-merge", "0"], {0}),
]
times = {name: [] for name, _, _ in commands}
for _ in range(runs):
    for name, argv, ok in commands:
        start = time.perf_counter()
        r = subprocess.run(argv, cwd=work, env=env, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE)
        elapsed = time.perf_counter() - start
        if r.returncode not in ok:
            sys.exit(f"{name} exited {r.returncode}: {r.stderr.decode(errors='replace')}")
        times[name].append(elapsed)

now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
print(f"{now}, {platform.machine()}, {os.cpu_count()} cores, {platform.release()}; release build; "
      f"{runs} runs, alternating; tracked files: {len(tracked)}, config files: {len(configs)}; "
      "load average at the end " + " ".join(f"{x:.2f}" for x in os.getloadavg()))
print()
print("| command (gen-tree.py 50000 5000, committed; one host added in HEAD) | median | range |")
print("|---|---|---|")
for name, _, _ in commands:
    t = times[name]
    print(f"| `{name}` | {statistics.median(t):.2f} s | {min(t):.2f}–{max(t):.2f} s |")
PY
