//! `review sign|list|verify`: signed team reviews (docs/src/signed-reviews.md).
//! A person signs a config's requests with the SSH key git already signs
//! with; the record is committed in `.goccia/reviews.jsonl`; teammates and
//! CI count the reviews that keys *they* chose signed for the config as it
//! is now. The decisions are in `cli::outcome::review`, the printers in
//! `cli::print::{text,json}::review`.

use std::collections::{BTreeMap, BTreeSet};
use std::io::{BufRead, IsTerminal};
use std::path::{Path, PathBuf};

use crate::cli::ctx::Ctx;
use crate::cli::error::{CliError, CliResult};
use crate::cli::io::Io;
use crate::cli::outcome::review::{
    FileNote, OneConfig, ReviewReport, ShownReviews, SignOutcome, Signed, Verb,
};
use crate::cli::print;
use crate::core::config::load_hashed;
use crate::core::env::Env;
use crate::core::exit;
use crate::core::paths::display::display_path;
use crate::core::paths::key::TrustKey;
use crate::core::paths::reviewed::trees_under_review;
use crate::core::review::discover::discover_paths;
use crate::core::team::defaults::{default_key, default_principal};
use crate::core::team::digest::{PortableDigest, RepoPath, portable_digest, repo_path};
use crate::core::team::each_config::{FileRead, ReviewsFiles};
use crate::core::team::file::{DIR, FILE, write_records};
use crate::core::team::record::Record;
use crate::core::team::sign::{SignEnv, find_ssh_keygen, fingerprint, public_key_of, sign_record};
use crate::core::team::signers::{
    AllowedSigners, Revoked, check_location, parse_allowed_signers, parse_revoked,
};
use crate::core::team::verify::Judge;

/// Signed team reviews: sign, list and verify them.
///
/// Sign a config's requests with your SSH key, list the reviews committed
/// in `.goccia/reviews.jsonl`, verify them in CI.
#[derive(Debug, Clone, clap::Args)]
pub struct ReviewArgs {
    #[command(subcommand)]
    pub command: ReviewCommand,
}

#[derive(Debug, Clone, clap::Subcommand)]
pub enum ReviewCommand {
    Sign(SignArgs),
    List(ListArgs),
    Verify(VerifyArgs),
}

/// Sign a review of each config at or under PATH that requests something,
/// with `ssh-keygen -Y sign`, and add it to its repository's
/// `.goccia/reviews.jsonl`.
#[derive(Debug, Clone, clap::Args)]
pub struct SignArgs {
    /// Config files or directories whose configs to sign.
    #[arg(required = true, value_hint = clap::ValueHint::AnyPath)]
    pub paths: Vec<String>,
    /// The signing key (default: git's global user.signingKey when it names
    /// a file, else `~/.ssh/id_ed25519`); a `.pub` file signs through
    /// ssh-agent.
    #[arg(long, value_name = "FILE")]
    pub key: Option<String>,
    /// Who signs, as allowed_signers files name you (default: the key's
    /// line in git's global gpg.ssh.allowedSignersFile, else git's global
    /// user.email).
    #[arg(long, value_name = "NAME")]
    pub principal: Option<String>,
    /// A note kept in the record (at most 1,024 bytes).
    #[arg(long, value_name = "TEXT")]
    pub note: Option<String>,
    /// Sign without asking (needed without a terminal).
    #[arg(long)]
    pub yes: bool,
}

/// Every review record of the configs at or under PATH (default `.`), with
/// its status. Exit 0.
#[derive(Debug, Clone, clap::Args)]
pub struct ListArgs {
    /// Config files or directories (default `.`).
    #[arg(value_hint = clap::ValueHint::AnyPath)]
    pub paths: Vec<String>,
    /// The allowed_signers file whose keys count; without it a good
    /// signature is only `unchecked`.
    #[arg(long, value_name = "FILE")]
    pub reviewed_by: Option<String>,
    /// Public keys no longer accepted, one a line.
    #[arg(long, value_name = "FILE")]
    pub revoked: Option<String>,
    /// One JSON document: each config with its digest, count and records.
    #[arg(long)]
    pub json: bool,
}

/// A CI gate that trusts nothing: exit 0 when every config at or under
/// PATH that requests something has N reviews of its current version from
/// distinct keys and people the allowed_signers file lists, 4 otherwise,
/// 2 on a usage or allowed_signers error.
#[derive(Debug, Clone, clap::Args)]
pub struct VerifyArgs {
    /// Config files or directories (default `.`).
    #[arg(value_hint = clap::ValueHint::AnyPath)]
    pub paths: Vec<String>,
    /// The allowed_signers file (OpenSSH format) whose keys count; kept
    /// outside the reviewed tree, writable only by you.
    #[arg(long, value_name = "FILE", required = true)]
    pub reviewed_by: String,
    /// Reviews needed from distinct keys and people (default 1).
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub min_reviews: usize,
    /// Public keys no longer accepted, one a line.
    #[arg(long, value_name = "FILE")]
    pub revoked: Option<String>,
    /// One JSON document: each config with its digest, count and records.
    #[arg(long)]
    pub json: bool,
}

pub fn run(ctx: &mut Ctx<'_, '_>, args: &ReviewArgs) -> CliResult {
    let (env, io) = (ctx.env, &mut *ctx.io);
    match &args.command {
        ReviewCommand::Sign(a) => run_sign(a, env, io),
        ReviewCommand::List(a) => {
            let paths = or_dot(&a.paths);
            let judged = Judged::load(a.reviewed_by.as_deref(), a.revoked.as_deref(), &paths, env)?;
            let report = decide(Verb::List, &paths, &judged, 1, env)?;
            print_report(&report, a.json, io)
        }
        ReviewCommand::Verify(a) => {
            if a.min_reviews == 0 {
                return Err(CliError::usage("--min-reviews must be at least 1"));
            }
            let paths = or_dot(&a.paths);
            let judged = Judged::load(Some(&a.reviewed_by), a.revoked.as_deref(), &paths, env)?;
            judged.can_meet(a.min_reviews, &a.reviewed_by)?;
            let report = decide(Verb::Verify, &paths, &judged, a.min_reviews, env)?;
            print_report(&report, a.json, io)
        }
    }
}

fn or_dot(paths: &[String]) -> Vec<String> {
    if paths.is_empty() {
        vec![".".to_string()]
    } else {
        paths.to_vec()
    }
}

fn print_report(report: &ReviewReport, json: bool, io: &mut Io<'_>) -> CliResult {
    if json {
        print::json::review::report(report, io)?;
    } else {
        print::text::review::report(report, io)?;
    }
    Ok(report.exit_code())
}

/// The verifier's allowed signers and revoked keys, checked for where they
/// come from before anything is judged (exit 2).
pub(crate) struct Judged {
    pub signers: Option<AllowedSigners>,
    pub revoked: Revoked,
}

impl Judged {
    pub(crate) fn load(
        reviewed_by: Option<&str>,
        revoked: Option<&str>,
        paths: &[String],
        env: &Env,
    ) -> Result<Judged, CliError> {
        Judged::load_pinned(reviewed_by, None, revoked, paths, env)
    }

    /// `--min-reviews N`: at least 1, and no more than the distinct keys
    /// the allowed signers list (exit 2 otherwise).
    pub(crate) fn can_meet(&self, required: usize, file: &str) -> Result<(), CliError> {
        if required == 0 {
            return Err(CliError::usage("--min-reviews must be at least 1"));
        }
        let keys = self
            .signers
            .as_ref()
            .map_or(0, AllowedSigners::distinct_keys);
        if required > keys {
            return Err(CliError::usage(format!(
                "--min-reviews {required} can never be met: {file} lists {keys} distinct key{}",
                if keys == 1 { "" } else { "s" }
            )));
        }
        Ok(())
    }

    /// The judge of records now, with these signers.
    pub(crate) fn judge(&self) -> Judge<'_> {
        Judge {
            signers: self.signers.as_ref(),
            revoked: &self.revoked,
            now: jiff::Timestamp::now().as_second(),
        }
    }

    /// As [`Judged::load`]; with `pin` (`--reviewed-by-sha256`), the
    /// allowed signers are taken wherever they lie when their bytes have
    /// that SHA-256, and refused otherwise.
    pub(crate) fn load_pinned(
        reviewed_by: Option<&str>,
        pin: Option<&str>,
        revoked: Option<&str>,
        paths: &[String],
        env: &Env,
    ) -> Result<Judged, CliError> {
        let trees = trees_under_review(paths, env);
        let read = |what: &str, file: &str, pin: Option<&str>| -> Result<Vec<u8>, CliError> {
            if pin.is_none() {
                check_location(what, file, &trees).map_err(CliError::usage)?;
            }
            let bytes = crate::core::paths::bounded::read_regular(file, 1 << 20)
                .map_err(|e| CliError::usage(format!("{what} {file}: {}", e.describe())))?;
            pinned(what, file, &bytes, pin)?;
            Ok(bytes)
        };
        let signers = match reviewed_by {
            Some(file) => Some(
                parse_allowed_signers(file, &read("allowed signers", file, pin)?)
                    .map_err(CliError::usage)?,
            ),
            None => None,
        };
        let revoked = match revoked {
            Some(file) => {
                parse_revoked(file, &read("revoked keys", file, None)?).map_err(CliError::usage)?
            }
            None => Revoked::default(),
        };
        Ok(Judged { signers, revoked })
    }
}

/// `--reviewed-by-sha256`: 64 hex digits, and the bytes read must have it.
fn pinned(what: &str, file: &str, bytes: &[u8], pin: Option<&str>) -> Result<(), CliError> {
    let Some(pin) = pin else {
        return Ok(());
    };
    if pin.len() != 64 || !pin.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(CliError::usage(
            "--reviewed-by-sha256 needs a SHA-256 (64 hex digits)",
        ));
    }
    let actual = crate::core::config::block::sha256_hex(bytes);
    if actual != pin.to_ascii_lowercase() {
        return Err(CliError::usage(format!(
            "{what} {file} has SHA-256 {actual}, not the pinned {}",
            pin.to_ascii_lowercase()
        )));
    }
    Ok(())
}

/// A config found under the PATHs, placed in its repository and hashed.
struct Placed {
    key: TrustKey,
    requests: bool,
    placed: Result<(RepoPath, PortableDigest), String>,
    /// The files of its `extends` chain and the scopes of its recorded
    /// targets (absolute): what `review sign` asks git about.
    files: Vec<String>,
    scopes: Vec<String>,
}

fn place_configs(paths: &[String], env: &Env) -> Result<(Vec<Placed>, Vec<String>), CliError> {
    let found = discover_paths(paths, env, &|_| {}, &|| false)
        .map_err(|e| CliError::new(exit::FAILURE, e))?;
    let warnings = crate::cli::walk::unreadable_warnings(&found, paths, env);
    let placed = found
        .keys
        .into_iter()
        .map(|key| match load_hashed(&key, env) {
            Err(e) => Placed {
                key,
                requests: true,
                placed: Err(e.to_string()),
                files: Vec::new(),
                scopes: Vec::new(),
            },
            Ok(config) => {
                let scopes = config.targets.iter().map(|(s, _)| s.to_string()).collect();
                let placed = place(&key, &config.block.into_block(), &config.targets);
                Placed {
                    key,
                    requests: config.request.requests_grants(),
                    placed,
                    files: config.files,
                    scopes,
                }
            }
        })
        .collect();
    Ok((placed, warnings))
}

/// A reviews file's own problems (not read, lines that are no records) as
/// a note, `None` when it has none or there is no file; `root` is its
/// repository's.
pub(crate) fn file_note(root: &str, read: Option<&FileRead>) -> Option<FileNote> {
    let read = read?;
    let file = match &read.file {
        _ if read.notes.is_empty() => return None,
        Ok(f) => f.path.clone(),
        Err(_) => format!("{root}/{DIR}/{FILE}"),
    };
    Some(FileNote {
        file,
        lines: read.notes.to_vec(),
    })
}

/// Judges configs' records, each repository's reviews file read once (by
/// core's [`ReviewsFiles`]); each file's own problems become one note,
/// when the first config of its repository is judged.
pub(crate) struct Reviews<'a, 'j> {
    judge: &'a Judge<'j>,
    /// The allowed signers file that judges.
    signers: Option<&'a str>,
    files: ReviewsFiles,
    noted: BTreeSet<String>,
    pub notes: Vec<FileNote>,
}

impl<'a, 'j> Reviews<'a, 'j> {
    pub(crate) fn new(judge: &'a Judge<'j>, judged: &'a Judged) -> Reviews<'a, 'j> {
        Reviews {
            judge,
            signers: judged.signers.as_ref().map(|s| s.file.as_str()),
            files: ReviewsFiles::default(),
            noted: BTreeSet::new(),
            notes: Vec::new(),
        }
    }

    /// One config, shown as `shown`, placed in its repository (or why not).
    pub(crate) fn judge(
        &mut self,
        shown: String,
        requests: bool,
        placed: Result<(RepoPath, PortableDigest), String>,
    ) -> ShownReviews {
        let read = match &placed {
            Ok((place, _)) => {
                let read = self.files.read(&place.root);
                if self.noted.insert(place.root.clone()) {
                    self.notes.extend(file_note(&place.root, read.as_deref()));
                }
                read
            }
            Err(_) => None,
        };
        let judge = (self.judge, self.signers);
        ShownReviews::new(shown, requests, placed, read.as_deref(), judge)
    }
}

/// A loaded config placed in its repository and its portable digest.
pub(crate) fn place(
    key: &TrustKey,
    block: &crate::core::config::block::Block,
    targets: &crate::core::config::targets::Targets,
) -> Result<(RepoPath, PortableDigest), String> {
    repo_path(key).map_err(|e| e.to_string()).map(|place| {
        let d = portable_digest(block, targets, &place);
        (place, d)
    })
}

fn decide(
    verb: Verb,
    paths: &[String],
    judged: &Judged,
    required: usize,
    env: &Env,
) -> Result<ReviewReport, CliError> {
    let (placed, mut warnings) = place_configs(paths, env)?;
    if let Some(s) = &judged.signers {
        warnings.extend(s.warnings.iter().cloned());
    }
    let judge = judged.judge();
    let mut reviews = Reviews::new(&judge, judged);
    let configs = placed
        .into_iter()
        .map(|p| {
            let shown = display_path(p.key.as_str(), &env.cwd);
            reviews.judge(shown, p.requests, p.placed)
        })
        .collect();
    let allowed_signers = judged
        .signers
        .as_ref()
        .map(|s| (s.file.clone(), s.sha256.clone()));
    Ok(ReviewReport {
        verb,
        configs,
        files: reviews.notes,
        warnings,
        required,
        allowed_signers,
    })
}

/// A config to sign, placed in its repository, and its portable digest.
type ToSign = (RepoPath, PortableDigest);

/// The configs to sign: those that request something, placed in their
/// repository; one that cannot be reviewed is an error (exit 2). Beside
/// them, the warnings for those with uncommitted changes.
fn to_sign(args: &SignArgs, env: &Env) -> Result<(Vec<ToSign>, Vec<String>), CliError> {
    let (placed, warnings) = place_configs(&args.paths, env)?;
    if let Some(w) = warnings.first() {
        return Err(CliError::failed(w));
    }
    let mut out = Vec::new();
    let mut watched = Vec::new();
    for p in placed.into_iter().filter(|p| p.requests) {
        let shown = display_path(p.key.as_str(), &env.cwd);
        let (place, d) = p
            .placed
            .map_err(|why| CliError::usage(format!("{shown}: {why}")))?;
        watched.push((
            shown,
            place.root.clone(),
            in_repository(&place.root, &p.files, &p.scopes),
        ));
        out.push((place, d));
    }
    if out.is_empty() {
        return Err(CliError::usage(
            "no config that requests something at or under PATH; nothing to sign",
        ));
    }
    Ok((out, uncommitted_warnings(&watched)))
}

/// Of a config's files and scopes, repository-relative: each file inside
/// the repository and each link inside it that a file's or a scope's path
/// passes through (the portable digest holds where links lead, not what
/// lies under a scope).
fn in_repository(root: &str, files: &[String], scopes: &[String]) -> Vec<String> {
    let prefix = format!("{root}/");
    let mut out: Vec<String> = Vec::new();
    let all = files.iter().map(|f| (f, true));
    for (path, is_file) in all.chain(scopes.iter().map(|s| (s, false))) {
        let Some(rel) = path.strip_prefix(&prefix) else {
            continue;
        };
        let mut at = String::new();
        for part in rel.split('/') {
            if !at.is_empty() {
                at.push('/');
            }
            at.push_str(part);
            let link = std::fs::symlink_metadata(Path::new(root).join(&at))
                .is_ok_and(|m| m.file_type().is_symlink());
            if link || (is_file && at == rel) {
                out.push(at.clone());
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

/// One warning per config whose files (or links) differ from HEAD: the
/// review covers what is on disk. git is asked once per repository; when
/// it cannot tell, that is said instead.
fn uncommitted_warnings(watched: &[(String, String, Vec<String>)]) -> Vec<String> {
    let mut by_root: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    for (_, root, paths) in watched {
        by_root
            .entry(root)
            .or_default()
            .extend(paths.iter().cloned());
    }
    let changed: BTreeMap<&str, Result<Vec<String>, String>> = by_root
        .into_iter()
        .map(|(root, mut paths)| {
            paths.sort();
            paths.dedup();
            let found = crate::core::revision::worktree::uncommitted(root, &paths);
            (root, found.map_err(|e| e.to_string()))
        })
        .collect();
    let mut out = Vec::new();
    for (shown, root, paths) in watched {
        match &changed[root.as_str()] {
            Err(why) => out.push(format!(
                "cannot tell whether {shown} has uncommitted changes: {why}"
            )),
            Ok(changed) => {
                let mine: Vec<&str> = paths
                    .iter()
                    .filter(|p| changed.contains(p))
                    .map(String::as_str)
                    .collect();
                if !mine.is_empty() {
                    out.push(format!(
                        "{shown} has uncommitted changes ({}); the review covers what is on disk, not what is committed",
                        mine.join(", ")
                    ));
                }
            }
        }
    }
    out
}

fn run_sign(args: &SignArgs, env: &Env, io: &mut Io<'_>) -> CliResult {
    if let Some(p) = &args.principal {
        check_principal(
            p,
            "--principal needs 1-256 bytes without spaces or control characters",
        )?;
    }
    let note = args.note.clone().unwrap_or_default();
    if note.len() > crate::core::team::record::NOTE_MAX_BYTES {
        return Err(CliError::usage("--note holds at most 1,024 bytes"));
    }
    let (configs, uncommitted) = to_sign(args, env)?;
    for w in &uncommitted {
        io.warn(w);
    }
    let key_file = match &args.key {
        Some(k) => PathBuf::from(crate::core::paths::expand_file_name(k, &env.cwd, &env.home)),
        None => {
            let (file, warning) = default_key(env).map_err(CliError::usage)?;
            if let Some(w) = warning {
                io.warn(w);
            }
            file
        }
    };
    let public = public_key_of(&key_file).map_err(CliError::usage)?;
    let key = fingerprint(&public);
    let principal = match &args.principal {
        Some(p) => p.clone(),
        None => {
            let p = default_principal(&key, env).map_err(CliError::usage)?;
            check_principal(
                &p,
                "the principal from git's configuration needs 1-256 bytes without spaces or control characters",
            )?;
            p
        }
    };
    let sign_env = SignEnv {
        path: non_empty(crate::core::env::PATH.read()),
        home: Some(env.home.clone().into()),
        ssh_auth_sock: non_empty(crate::core::env::SSH_AUTH_SOCK.read()),
    };
    let mut trees = trees_under_review(&args.paths, env);
    trees.extend(configs.iter().map(|(p, _)| p.root.clone()));
    let ssh_keygen = find_ssh_keygen(sign_env.path.as_ref(), &trees).map_err(CliError::usage)?;
    if !confirm(args, &configs, (&principal, &key), io)? {
        return Err(CliError::failed("nothing signed"));
    }
    let signed_at = jiff::Timestamp::from_second(jiff::Timestamp::now().as_second())
        .map_or_else(|_| String::new(), |t| t.to_string());
    let mut outcome = SignOutcome::default();
    let mut by_root: BTreeMap<String, Vec<Record>> = BTreeMap::new();
    for (place, d) in &configs {
        let record = Record {
            digest: d.digest.clone(),
            key: key.clone(),
            note: note.clone(),
            path: place.path.clone(),
            principal: principal.clone(),
            sig: String::new(),
            signed_at: signed_at.clone(),
        };
        let signed = sign_record(&record, &ssh_keygen, &key_file, &public, &sign_env)
            .map_err(CliError::failed)?;
        by_root.entry(place.root.clone()).or_default().push(signed);
    }
    for (root, records) in by_root {
        let written = write_records(Path::new(&root), &records).map_err(CliError::failed)?;
        let file = display_path(&written.to_string_lossy(), &env.cwd);
        outcome.signed.extend(records.iter().map(|r| Signed {
            path: r.path.clone(),
            digest: r.digest.clone(),
            principal: r.principal.clone(),
            file: file.clone(),
        }));
    }
    print::text::review::signed(&outcome, io)?;
    Ok(exit::SUCCESS)
}

/// 1-256 bytes without spaces or control characters (exit 2, `message`,
/// otherwise).
fn check_principal(p: &str, message: &'static str) -> Result<(), CliError> {
    if crate::core::team::record::is_principal(p) {
        return Ok(());
    }
    Err(CliError::usage(message))
}

fn non_empty(value: String) -> Option<std::ffi::OsString> {
    (!value.is_empty()).then(|| value.into())
}

/// Shows what is signed and asks; without a terminal `--yes` is needed.
fn confirm(
    args: &SignArgs,
    configs: &[(RepoPath, PortableDigest)],
    (principal, key): (&str, &str),
    io: &mut Io<'_>,
) -> Result<bool, CliError> {
    for (place, d) in configs {
        print::text::review::to_sign(&place.path, &d.document, &d.outside, io.err)?;
    }
    if args.yes {
        return Ok(true);
    }
    if !std::io::stdin().is_terminal() {
        return Err(CliError::usage(
            "review sign asks before signing; without a terminal pass --yes",
        ));
    }
    print::text::review::ask(configs.len(), principal, key, io.err)?;
    let mut answer = String::new();
    let _ = std::io::stdin().lock().read_line(&mut answer);
    let answer = answer.trim().to_ascii_lowercase();
    Ok(answer == "y" || answer == "yes")
}

/// The reviews of the config at `key` judged by `reviewed_by`, else by
/// `allowed_signers` in the store's directory when it exists: `None` when
/// it is in no repository or its repository has no reviews file.
pub(crate) fn of_config(
    snapshot: &crate::core::config::ConfigSnapshot,
    reviewed_by: Option<&str>,
    store_dir: Option<&Path>,
    env: &Env,
) -> Result<Option<OneConfig>, CliError> {
    let Ok((place, d)) = place(&snapshot.key, &snapshot.block, &snapshot.targets) else {
        return Ok(None);
    };
    let file = Path::new(&place.root).join(DIR).join(FILE);
    let files = ReviewsFiles::default();
    if !files.anything_at(&place.root) {
        return Ok(None);
    }
    let default = store_dir
        .map(|d| d.join("allowed_signers"))
        .filter(|f| f.is_file())
        .map(|f| f.to_string_lossy().into_owned());
    let signers = reviewed_by.map(str::to_string).or(default);
    let paths = [snapshot.key.as_str().to_string()];
    let judged = Judged::load(signers.as_deref(), None, &paths, env)?;
    let judge = judged.judge();
    let mut reviews = Reviews::new(&judge, &judged);
    reviews.files = files;
    let shown = display_path(snapshot.key.as_str(), &env.cwd);
    let c = reviews.judge(shown, snapshot.requests_grants(), Ok((place, d)));
    let notes = reviews.notes;
    Ok(Some(OneConfig {
        file: display_path(&file.to_string_lossy(), &env.cwd),
        reviews: c,
        allowed_signers: judged.signers.map(|s| (s.file, s.sha256)),
        notes,
    }))
}
