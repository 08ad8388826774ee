#!/usr/bin/env python3
"""Every command's output, in every format, on the demo and fixture trees.

Runs BINARY over a fixed set of invocations and writes, for each one,
OUTDIR/<name>.out, .err and .code (stdout, stderr, exit code). Two runs
(a binary before and after a change) compare with `diff -r`: a refactor that
must not change any output shows no difference.

    scripts/output-snapshot.py target/debug/goccia-trust /tmp/snap-before
    ... change, rebuild ...
    scripts/output-snapshot.py target/debug/goccia-trust /tmp/snap-after
    diff -r /tmp/snap-before /tmp/snap-after

The trees are rebuilt at one fixed place (/tmp/goccia-output-snapshot, or
--work DIR) so that the absolute paths in the outputs are the same in both
runs; a lock keeps two runs from sharing it. Timestamps (trustedAt, record
times) are replaced by <TIME>, the build's commit and date by <COMMIT> <DATE>.
Build the binary with `cargo build`: one built by `cargo test` wraps help
text differently (a dev-dependency enables clap's `wrap_help`). It measures nothing and checks nothing: it
fails only when it cannot set up the trees.

Needs git and python3; `script` (util-linux) for the runs on a terminal.
"""

import argparse
import fcntl
import os
import re
import shutil
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TIME = re.compile(rb"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)?")
# The build's own commit and date (`--version`, the manual's VERSION).
BUILD = re.compile(rb"\(([0-9a-f]{7,40}) (\d{4}\\?-\d\d\\?-\d\d)\)")
ENV_KEEP = ("PATH", "LANG", "LC_ALL")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("binary")
    ap.add_argument("outdir")
    ap.add_argument("--work", default="/tmp/goccia-output-snapshot")
    a = ap.parse_args()
    binary = os.path.abspath(a.binary)
    os.makedirs(os.path.dirname(a.work.rstrip("/")) or "/", exist_ok=True)
    with open(a.work.rstrip("/") + ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        Snapshot(binary, a.work, os.path.abspath(a.outdir)).run()


class Snapshot:
    def __init__(self, binary, work, outdir):
        self.bin, self.work, self.outdir = binary, work, outdir
        self.names = set()

    # -- set-up ---------------------------------------------------------

    def env(self, **extra):
        env = {k: os.environ[k] for k in ENV_KEEP if k in os.environ}
        env.update(
            HOME=os.path.join(self.work, "home"),
            GOCCIA_TRUST_STATE_DIR=os.path.join(self.work, "state"),
            GIT_CONFIG_NOSYSTEM="1",
            GIT_AUTHOR_NAME="Ada",
            GIT_AUTHOR_EMAIL="ada@example.com",
            GIT_COMMITTER_NAME="Ada",
            GIT_COMMITTER_EMAIL="ada@example.com",
            GIT_AUTHOR_DATE="2026-01-01T00:00:00Z",
            GIT_COMMITTER_DATE="2026-01-01T00:00:00Z",
            TERM="xterm-256color",
            COLUMNS="100",
        )
        env.update(extra)
        return env

    def git(self, *args, cwd):
        subprocess.run(["git", *args], cwd=cwd, env=self.env(), check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def setup(self):
        w = self.work
        shutil.rmtree(w, ignore_errors=True)
        for d in ("home", "state", "store"):
            os.makedirs(os.path.join(w, d), mode=0o700)
        demo = os.path.join(REPO, "examples/demo")
        tree = os.path.join(w, "demo")
        shutil.copytree(os.path.join(demo, "tree"), tree, symlinks=True)
        shutil.copytree(os.path.join(demo, "outside"), os.path.join(w, "outside"))
        shutil.copy(os.path.join(demo, "policy.json"), os.path.join(w, "policy.json"))
        os.symlink("assets-v1", os.path.join(tree, "app/assets"))
        os.symlink("../../outside/cache", os.path.join(tree, "deps/cache"))
        self.git("init", "-q", "-b", "main", cwd=tree)
        self.git("add", "-A", cwd=tree)
        self.git("commit", "-q", "-m", "base", cwd=tree)
        store = os.path.join(w, "store/trust.json")
        subprocess.run([self.bin, f"--trust-store={store}", "trust", "demo/goccia.json",
                        "demo/app/goccia.json", "demo/gone/goccia.json", "--yes"],
                       cwd=w, env=self.env(), check=True, stdout=subprocess.DEVNULL)
        # The demo's changes: a widened app, a retargeted link, a deleted config.
        shutil.copytree(os.path.join(demo, "changes"), tree, dirs_exist_ok=True)
        os.remove(os.path.join(tree, "app/assets"))
        os.symlink("assets-v2", os.path.join(tree, "app/assets"))
        shutil.rmtree(os.path.join(tree, "gone"))
        self.git("add", "-A", cwd=tree)
        self.git("commit", "-q", "-m", "widen app; retarget assets; remove gone", cwd=tree)
        # A shadowed config and a working-tree edit after the last commit.
        with open(os.path.join(tree, "web/goccia.json"), "w") as f:
            f.write('{"permissions": {"allow-net": ["shadow.example"]}}\n')
        with open(os.path.join(tree, "docs/goccia.json"), "a") as f:
            f.write("\n")
        shutil.copytree(os.path.join(REPO, "tests/fixtures/demo"), os.path.join(w, "fixture"),
                        symlinks=True)
        shutil.copytree(os.path.join(REPO, "tests/fixtures/conformance"),
                        os.path.join(w, "conformance"), symlinks=True)
        shutil.copytree(os.path.join(REPO, "tests/fixtures/errors"), os.path.join(w, "errors"),
                        symlinks=True)
        with open(os.path.join(w, "store/broken.json"), "w") as f:
            f.write("{not json\n")
        os.chmod(os.path.join(w, "store/broken.json"), 0o600)
        os.chmod(store, 0o600)

    # -- runs -----------------------------------------------------------

    def fresh_store(self, name):
        """A copy of the demo store, for a command that writes."""
        path = os.path.join(self.work, "store", f"copy-{name}.json")
        shutil.copy(os.path.join(self.work, "store/trust.json"), path)
        os.chmod(path, 0o600)
        return path

    def record(self, name, out, err, code):
        assert name not in self.names, name
        self.names.add(name)
        base = os.path.join(self.outdir, name)
        for ext, data in (("out", out), ("err", err), ("code", b"%d\n" % code)):
            with open(f"{base}.{ext}", "wb") as f:
                f.write(BUILD.sub(b"(<COMMIT> <DATE>)", TIME.sub(b"<TIME>", data)))

    def cli(self, name, *args, store="store/trust.json", cwd=None, stdin=b"", **env):
        argv = [self.bin]
        if store:
            argv.append(f"--trust-store={os.path.join(self.work, store)}")
        argv += list(args)
        p = subprocess.run(argv, cwd=cwd or self.work, env=self.env(**env), input=stdin,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
        self.record(name, p.stdout, p.stderr, p.returncode)

    def tty(self, name, *args, store="store/trust.json", cwd=None):
        """On a terminal (100x30), stdout and stderr mixed as a terminal shows them."""
        if not shutil.which("script"):
            return
        argv = [self.bin]
        if store:
            argv.append(f"--trust-store={os.path.join(self.work, store)}")
        argv += list(args)
        cmd = "stty cols 100 rows 30; exec " + " ".join(_quote(x) for x in argv) + " </dev/null"
        p = subprocess.run(["script", "-qec", cmd, "/dev/null"], cwd=cwd or self.work,
                           env=self.env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           stdin=subprocess.DEVNULL, timeout=120)
        self.record("tty-" + name, p.stdout, p.stderr, p.returncode)

    def run(self):
        self.setup()
        shutil.rmtree(self.outdir, ignore_errors=True)
        os.makedirs(self.outdir)
        self.top_level()
        self.scan()
        self.trust()
        self.untrust_ignore()
        self.list_check_inspect()
        self.diff()
        self.policy()
        self.status_hook()
        self.fixtures()
        self.errors()
        print(f"{len(self.names)} invocations written to {self.outdir}")

    def top_level(self):
        self.cli("help", "--help", store=None)
        self.cli("help-short", "-h", store=None)
        for cmd in ("scan", "trust", "untrust", "ignore", "unignore", "list", "check",
                    "inspect", "diff", "policy", "status", "hook", "completions", "man"):
            self.cli(f"help-{cmd}", cmd, "--help", store=None)
        for shell in ("bash", "zsh", "fish"):
            self.cli(f"completions-{shell}", "completions", shell, store=None)
        self.cli("man", "man", store=None)
        self.cli("no-subcommand", "demo")
        self.cli("no-subcommand-policy", "--policy", "policy.json", "demo")
        self.cli("no-subcommand-since", "--since", "HEAD~1", ".", cwd=f"{self.work}/demo")
        self.cli("goccia-list-trusted", "--list-trusted")
        for name, args in (("goccia-trust-yes", ["--trust", "demo/docs", "--yes"]),
                           ("goccia-untrust", ["--untrust", "demo/app"])):
            self.fresh_store(name)
            self.cli(name, *args, store=f"store/copy-{name}.json")

    def scan(self):
        for fmt in ("text", "json", "sarif", "github"):
            self.cli(f"scan-{fmt}", "scan", "--format", fmt, "demo")
            self.cli(f"scan-policy-{fmt}", "scan", "--format", fmt, "--policy", "policy.json",
                     "demo")
            self.cli(f"scan-fixture-{fmt}", "scan", "--format", fmt, "fixture")
        self.cli("scan-json-flag", "scan", "--json", "demo")
        self.cli("scan-color", "scan", "--color=always", "demo")
        self.cli("scan-clicolor", "scan", "demo", CLICOLOR_FORCE="1")
        self.cli("scan-quiet", "-q", "scan", "demo")
        self.cli("scan-two-paths", "scan", "demo/app", "demo/cli/goccia.json5")
        self.cli("scan-file-store-none", "scan", "demo", store="store/absent.json")
        self.tty("scan", "scan", "demo")
        self.tty("scan-policy", "scan", "--policy", "policy.json", "demo")

    def trust(self):
        self.cli("trust-dry-run", "trust", "--dry-run", "demo")
        self.cli("trust-dry-run-json", "trust", "--dry-run", "--json", "demo")
        self.cli("trust-no-yes", "trust", "demo")
        self.cli("trust-yes-policy-dry", "trust", "--yes", "--dry-run", "--policy",
                 "policy.json", "demo")
        self.cli("trust-yes-policy-dry-verbose", "trust", "--yes", "--dry-run", "--verbose",
                 "--policy", "policy.json", "demo")
        self.cli("trust-yes-policy-dry-json", "trust", "--yes", "--dry-run", "--json",
                 "--policy", "policy.json", "demo")
        self.cli("trust-expect-wrong", "trust", "--yes", "--dry-run", "--expect",
                 "0" * 64, "demo/docs")
        for name, extra in (("trust-yes", []), ("trust-yes-json", ["--json"]),
                            ("trust-yes-policy", ["--policy", "policy.json"]),
                            ("trust-yes-policy-json", ["--json", "--policy", "policy.json"])):
            self.fresh_store(name)
            self.cli(name, "trust", "--yes", *extra, "--state-dir", f"state/{name}", "demo",
                     store=f"store/copy-{name}.json")
            self.cli(name + "-after", "list", store=f"store/copy-{name}.json")
        good = ["demo/app", "demo/cli", "demo/deps", "demo/web", "demo/docs"]
        for name, extra in (("trust-good-yes", []), ("trust-good-policy", ["--policy", "policy.json"]),
                            ("trust-good-policy-json", ["--json", "--policy", "policy.json"]),
                            ("trust-good-policy-verbose", ["--verbose", "--policy", "policy.json"])):
            self.fresh_store(name)
            self.cli(name, "trust", "--yes", *extra, "--state-dir", f"state/{name}", *good,
                     store=f"store/copy-{name}.json")
            self.cli(name + "-after", "list", "--json", store=f"store/copy-{name}.json")
        self.tty("trust-dry-run", "trust", "--dry-run", "demo")
        self.tty("trust-prompt-eof", "trust", "demo")
        for name, path in (("trust-prompt-no", "demo/docs"), ("trust-prompt-no-app", "demo/app"),
                           ("trust-prompt-no-cli", "demo/cli")):
            self.fresh_store(name)
            self.cli(name, "trust", path, stdin=b"n\n", store=f"store/copy-{name}.json")

    def untrust_ignore(self):
        for name, args in (("untrust", ["demo/app"]), ("untrust-json", ["--json", "demo/app"]),
                           ("untrust-missing", ["--missing"]),
                           ("untrust-missing-json", ["--missing", "--json"]),
                           ("untrust-nothing", ["demo/web"])):
            self.fresh_store(name)
            self.cli(name, "untrust", *args, store=f"store/copy-{name}.json")
        self.fresh_store("ignore")
        st = "store/copy-ignore.json"
        state = f"{self.work}/state-ignore"
        self.cli("ignore", "ignore", "demo/docs", store=st, GOCCIA_TRUST_STATE_DIR=state)
        self.cli("ignore-list", "list", "--ignored", store=st, GOCCIA_TRUST_STATE_DIR=state)
        self.cli("ignore-list-json", "list", "--ignored", "--json", store=st,
                 GOCCIA_TRUST_STATE_DIR=state)
        self.cli("ignore-scan", "scan", "demo", store=st, GOCCIA_TRUST_STATE_DIR=state)
        self.cli("ignore-trust-dry", "trust", "--dry-run", "--json", "demo", store=st,
                 GOCCIA_TRUST_STATE_DIR=state)
        self.cli("unignore", "unignore", "demo/docs", store=st, GOCCIA_TRUST_STATE_DIR=state)

    def list_check_inspect(self):
        self.cli("list", "list")
        self.cli("list-json", "list", "--json")
        self.cli("list-exit-code", "list", "--exit-code")
        self.tty("list", "list")
        inputs = ["demo/app/main.js", "demo/cli/lib/x.js", "demo/web/index.js", "demo/docs"]
        for fmt in ("text", "json", "sarif", "github"):
            self.cli(f"check-{fmt}", "check", "--format", fmt, *inputs)
        self.cli("check-runner", "check", "--runner", "Runner", *inputs)
        for d in ("demo", "demo/app", "demo/cli", "demo/web", "demo/docs", "demo/deps",
                  "demo/typo", "demo/gone", "fixture", "fixture/sandbox"):
            tag = d.replace("/", "-")
            self.cli(f"inspect-{tag}", "inspect", d)
            self.cli(f"inspect-{tag}-json", "inspect", "--json", d)
        self.tty("inspect-app", "inspect", "demo/app")

    def diff(self):
        demo = f"{self.work}/demo"
        for fmt in ("text", "markdown", "sarif", "github"):
            self.cli(f"diff-{fmt}", "diff", "--format", fmt, "HEAD~1", "HEAD", cwd=demo)
            self.cli(f"diff-worktree-{fmt}", "diff", "--format", fmt, "HEAD~1", cwd=demo)
        self.cli("diff-json", "diff", "--json", "HEAD~1", "HEAD", cwd=demo)
        self.cli("diff-json-worktree", "diff", "--json", "HEAD~1", cwd=demo)
        self.cli("diff-all", "diff", "--all", "HEAD~1", "HEAD", cwd=demo)
        self.cli("diff-exit-zero", "diff", "--exit-zero", "HEAD~1", "HEAD", cwd=demo)
        self.cli("diff-same", "diff", "HEAD", "HEAD", cwd=demo)
        self.cli("diff-bad-rev", "diff", "nope", "HEAD", cwd=demo)
        self.tty("diff", "diff", "HEAD~1", "HEAD", cwd=demo)

    def policy(self):
        p = f"{self.work}/policy.json"
        self.cli("policy-show", "policy", "show", store=None)
        self.cli("policy-show-file", "policy", "show", "--policy", p, "--pretty", store=None)
        self.cli("policy-evaluate", "policy", "evaluate", "--policy", p, "--risk", "low",
                 "--target", "demo/data", store=None)
        self.cli("policy-evaluate-kind", "policy", "evaluate", "--policy", p, "--kind",
                 "allow-net", "--value", "api.example.com", store=None)
        self.cli("policy-evaluate-bad", "policy", "evaluate", "--policy", p, "--risk",
                 "nonsense", store=None)
        state = f"{self.work}/state-policy"
        self.cli("policy-run-read", "policy", "run", "--policy", p, "--risk", "low", "--op",
                 "read", "--target", "demo/goccia.json", "--state-dir", state, store=None)
        self.cli("policy-records", "policy", "records", "--state-dir", state, store=None)

    def status_hook(self):
        demo = f"{self.work}/demo"
        for where in ("demo", "demo/app", "demo/docs", "demo/web"):
            tag = where.replace("/", "-")
            self.cli(f"status-{tag}", "status", f"{self.work}/{where}")
            self.cli(f"status-{tag}-json", "status", "--json", f"{self.work}/{where}")
        self.cli("status-tree", "status", "--tree", demo)
        self.cli("status-tree-json", "status", "--tree", "--json", demo)
        self.cli("hook-status", "hook", "status", cwd=demo)

    def fixtures(self):
        conf = os.path.join(self.work, "conformance")
        for case in sorted(os.listdir(conf)):
            self.cli(f"conformance-{case}", "scan", f"conformance/{case}")
            self.cli(f"conformance-{case}-json", "scan", "--json", f"conformance/{case}")

    def errors(self):
        self.cli("error-unknown-option", "scan", "--bogus", "demo")
        self.cli("error-unknown-command", "scna", "demo")
        self.cli("error-broken-store", "list", store="store/broken.json")
        self.cli("error-broken-store-trust", "trust", "--yes", "demo/docs",
                 store="store/broken.json")
        self.cli("error-missing-path", "scan", "does-not-exist")
        self.cli("error-inspect-none", "inspect", "outside")
        self.cli("error-config", "scan", "errors")
        self.cli("error-config-json", "inspect", "--json", "errors")
        self.cli("error-json-usage", "scan", "--json", "--bogus")


def _quote(s):
    return "'" + s.replace("'", "'\\''") + "'"


if __name__ == "__main__":
    sys.exit(main())
