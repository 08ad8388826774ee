#!/usr/bin/env bash
# What who-changed-what costs on a config with 1,000 commits of history,
# for the performance page. Each commit adds one host to the config (on its
# own line) or, every tenth, to the base it extends. The config is trusted
# as it was at commit 990 (10 commits since trusted), at commit 600 (400
# since: 400 added values, each walked back to the commit that made it a
# grant) and at commit 1 (999 since: past the bound of 500 versions, the
# older values say `origin unknown: more than 500 commits`); `inspect`
# (which reads provenance) runs for each, beside `inspect` outside git's
# reach (a copy of the tree without `.git`) and `diff` of the last 10 and
# 400 commits. Each run alternates the commands; medians are printed. It
# measures; it fails only when a command does.
#
# usage: scripts/bench-provenance.sh [--runs N] [--dir DIR] [--no-build]
#   --runs N    runs of each command (default 10)
#   --dir DIR   where the repository and stores go (default
#               /tmp/goccia-bench/provenance; rebuilt on every run)
#   --no-build  use target/release/goccia-trust as it is
#
# Offline: needs cargo (for the release build), git and python3.
set -euo pipefail

runs=10
dir=/tmp/goccia-bench/provenance
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
import datetime, os, platform, shutil, statistics, subprocess, sys, time

binary, root, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
shutil.rmtree(root, ignore_errors=True)
work = f"{root}/repo"
plain = f"{root}/plain"
os.makedirs(work)
git_env = dict(os.environ, GIT_CONFIG_GLOBAL="/dev/null", GIT_CONFIG_NOSYSTEM="1",
               GIT_AUTHOR_NAME="b", GIT_AUTHOR_EMAIL="b@example.invalid",
               GIT_COMMITTER_NAME="b", GIT_COMMITTER_EMAIL="b@example.invalid")
COMMITS = 1000

def text(hosts, base=None):
    items = ",\n".join(f'      "{h}"' for h in hosts)
    ext = '  "extends": "./base.json",\n' if base is None else ""
    return "{\n" + ext + '  "permissions": {\n    "allow-net": [\n' + items + "\n    ]\n  }\n}\n"

def versions(n):
    """The config's and the base's hosts after commit n (1-based)."""
    app = [f"h{i}.example" for i in range(1, n + 1) if i % 10]
    base = [f"b{i}.example" for i in range(1, n + 1) if i % 10 == 0] or ["b0.example"]
    return app, base

def write(n, at=work):
    app, base = versions(n)
    os.makedirs(f"{at}/app", exist_ok=True)
    with open(f"{at}/app/goccia.json", "w") as f:
        f.write(text(app))
    with open(f"{at}/app/base.json", "w") as f:
        f.write(text(base, base=True))

def sh(argv, cwd=work, env=git_env, **kw):
    return subprocess.run(argv, cwd=cwd, env=env, check=True,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kw)

# 1,000 commits through fast-import: seconds, not minutes.
stream = []
for n in range(1, COMMITS + 1):
    app, base = versions(n)
    stamp = 1767000000 + n * 60
    stream.append(f"commit refs/heads/main\nmark :{n}\n"
                  f"author b <b@example.invalid> {stamp} +0000\n"
                  f"committer b <b@example.invalid> {stamp} +0000\n"
                  f"data {len(f'c{n}')}\nc{n}\n")
    for path, body in (("app/goccia.json", text(app)), ("app/base.json", text(base, base=True))):
        data = body.encode()
        stream.append(f"M 100644 inline {path}\ndata {len(data)}\n{body}\n")
sh(["git", "init", "-q", "-b", "main"])
sh(["git", "fast-import", "--quiet"], input="".join(stream).encode())
sh(["git", "checkout", "-q", "main"])

def trust_at(n, store):
    """Trusts the config as commit n had it, then puts HEAD's back."""
    write(n)
    sh([binary, f"--trust-store={store}", "trust", "--yes", "app"], env=None)
    write(COMMITS)

stores = {}
for n in (990, 600, 1):
    stores[n] = f"{root}/store{n}/trust.json"
    os.makedirs(os.path.dirname(stores[n]), mode=0o700)
    trust_at(n, stores[n])
shutil.copytree(f"{work}/app", f"{plain}/app")
head = sh(["git", "rev-parse", "HEAD"]).stdout.decode().strip()
at = lambda n: sh(["git", "rev-parse", f"HEAD~{COMMITS - n}"]).stdout.decode().strip()
for n in (990, 600, 1):
    out = sh([binary, f"--trust-store={stores[n]}", "inspect", "--json", "app/goccia.json"], env=None)
    import json
    p = json.loads(out.stdout)["provenance"]
    kinds = {}
    for o in p["origins"]:
        kinds[o["origin"]["kind"]] = kinds.get(o["origin"]["kind"], 0) + 1
    print(f"trusted at commit {n}: {len(p['commits'])} commits since trusted "
          f"(trustedCommit {'found' if p.get('trustedCommit') else 'not found'}), origins {kinds}")

commands = [
    ("inspect, trusted at commit 990 (10 values added since)",
     [binary, f"--trust-store={stores[990]}", "inspect", "app/goccia.json"], work),
    ("inspect, trusted at commit 600 (400 values added since)",
     [binary, f"--trust-store={stores[600]}", "inspect", "app/goccia.json"], work),
    ("inspect, trusted at commit 1 (999 values added since, past the bound)",
     [binary, f"--trust-store={stores[1]}", "inspect", "app/goccia.json"], work),
    ("inspect, trusted at commit 600, outside git (no provenance)",
     [binary, f"--trust-store={stores[600]}", "inspect", "app/goccia.json"], plain),
    ("diff HEAD~10 HEAD --json (10 values widened)",
     [binary, "diff", at(990), head, "--json"], work),
    ("diff HEAD~400 HEAD --json (400 values widened)",
     [binary, "diff", at(600), head, "--json"], work),
]
times = {name: [] for name, _, _ in commands}
for _ in range(runs):
    for name, argv, cwd in commands:
        start = time.perf_counter()
        r = subprocess.run(argv, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        elapsed = time.perf_counter() - start
        if r.returncode not in (0, 1):
            sys.exit(f"{name} exited {r.returncode}: {r.stderr.decode(errors='replace')}")
        times[name].append(elapsed)

now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
print(f"{now}, {platform.machine()}, {os.cpu_count()} cores, {platform.release()}; release build; "
      f"medians of {runs} runs, alternating; load average at the end "
      + " ".join(f"{x:.2f}" for x in os.getloadavg()))
print()
print(f"| command (a config and its base, {COMMITS} commits of history) | median |")
print("|---|---|")
for name, _, _ in commands:
    print(f"| {name} | {statistics.median(times[name]) * 1000:.0f} ms |")
PY
