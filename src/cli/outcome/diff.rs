//! `diff`'s result ([`DiffResult`]): the comparison of two revisions and
//! what the printers need of the two snapshots, decided once whatever the
//! format, with no output. Below both `cli::diff` (which reads the
//! revisions and picks the printer) and `cli::print` (which renders it).
//!
//! Each printer writes one value of a config in one function (its
//! `value`/`value_line`), so a field added to [`DiffValue`] is written
//! there once per format.

use std::collections::HashMap;

use crate::cli::json_out::is_unscoped;
use crate::cli::outcome::diff_reviews::{HeadReviews, ReviewsAtHead};
use crate::core::config::block::sha256_hex;
use crate::core::config::json::Json;
use crate::core::env::Env;
use crate::core::exit;
use crate::core::paths::bounded::{CONFIG_MAX_BYTES, read_regular};
use crate::core::review::locate::{line_of_request, request_line_in_text};
use crate::core::review::value_diff::Change;
use crate::core::revision::compare::{
    ConfigDiff, DiffValue, RevisionDiff, Status, Verdict, compare, judged_values,
};
use crate::core::revision::provenance::{
    Absent, ChainValues, ValueOrigin, introduced_each, retargeted_by,
};
use crate::core::revision::{ConfigAt, Snapshot, changed_links};
use crate::core::team::file::{NotRead, ReviewsFile};
use crate::core::team::verify::{Judge, malformed_lines};

/// `diff`'s result: the comparison of the two revisions and what the
/// printers need of the two snapshots, decided once whatever the format.
/// Computing it writes nothing.
#[derive(Debug, Clone)]
pub struct DiffResult {
    /// The repository's root; every path is relative to it.
    pub root: String,
    /// The comparison: every config of either side, what either side could
    /// not read (its notes), and what HEAD holds that was not read.
    pub diff: RevisionDiff,
    /// What the snapshots tell of each config of `diff.configs`, in the
    /// same order.
    pub at_head: Vec<AtHead>,
    /// `--all`: unchanged configs and values are listed too.
    pub all: bool,
    /// 1 when something widened, a config no longer loads or the
    /// comparison is incomplete (0 with `--exit-zero`), else 0.
    pub code: u8,
    /// Why the widening values name no origin (see [`AtHead::origins`]):
    /// git failed. `None` when they do, or when nothing widened by a value.
    pub provenance: Option<Absent>,
    /// Where a commit is shown on GitHub, its full id to be appended:
    /// `https://github.com/OWNER/NAME/commit/`, from `GITHUB_SERVER_URL`
    /// and `GITHUB_REPOSITORY` when both are well formed ([`commit_url`]).
    pub commit_url: Option<String>,
    /// HEAD's reviews file, when HEAD is a revision whose tree has one
    /// (`cli::outcome::diff_reviews`); `None` leaves every output as it was.
    pub reviews: Option<ReviewsAtHead>,
}

/// What the two snapshots tell of one config beyond its comparison.
#[derive(Debug, Clone)]
pub struct AtHead {
    /// The SHA-256 of the config's normalized block at HEAD, as computed
    /// for this checkout: what `trust --expect` pins. `None` when it does
    /// not load or is gone at HEAD.
    pub sha256: Option<String>,
    /// For each of the config's values, in the same order: whether its
    /// request is unscoped (the boolean `true`, a sandbox with no inputs)
    /// at the side the value belongs to (a removed value the base's, any
    /// other the head's).
    pub unscoped: Vec<bool>,
    /// Where CI shows the config's finding; `None` when it is unchanged.
    pub place: Option<Place>,
    /// For each of the config's values, in the same order: for a value
    /// added that widens, the commit of `BASE..HEAD` that made it a grant
    /// (by content: BASE's, a working-tree edit, or unknown and why); for a retargeted scope that
    /// widens, the commit that last changed the link under it
    /// ([`Sides::retarget_origins`]); `None` for any other value and, for
    /// added values, when provenance is absent.
    pub origins: Vec<Option<ValueOrigin>>,
    /// Its signed reviews at HEAD, with [`DiffResult::reviews`]; `None`
    /// without it, or for a config gone at HEAD.
    pub reviews: Option<HeadReviews>,
}

/// Where CI shows a config's finding (see `print::ci::diff`).
#[derive(Debug, Clone)]
pub struct Place {
    /// The config, or for a removed config whose directory now falls
    /// under a parent that allows more, that parent.
    pub path: String,
    /// The line at HEAD of the first request concerned, else of `extends`;
    /// `None` for a broken config or one gone at HEAD.
    pub line: Option<usize>,
    /// For a removed config now under a parent: the values the parent
    /// allows that the removed config did not.
    pub gained: Vec<DiffValue>,
}

/// One config as a printer lists it.
#[derive(Clone, Copy)]
pub struct Listed<'a> {
    pub config: &'a ConfigDiff,
    pub at_head: &'a AtHead,
    /// Unchanged values are listed too (`--all`).
    all: bool,
}

/// One value of a config as a printer lists it.
#[derive(Clone, Copy)]
pub struct ListedValue<'a> {
    pub value: &'a DiffValue,
    /// See [`AtHead::unscoped`].
    pub unscoped: bool,
    /// See [`AtHead::origins`].
    pub origin: Option<&'a ValueOrigin>,
}

impl DiffResult {
    /// The diff's exit code ([`DiffResult::code`]).
    pub fn exit_code(&self) -> u8 {
        self.code
    }

    /// Compares the two sides, and asks git where each widening value
    /// comes from. `exit_zero`: `--exit-zero`.
    pub fn of(sides: &Sides<'_>, all: bool, exit_zero: bool, env: &Env) -> DiffResult {
        let mut diff = compare(sides.base, sides.head);
        diff.leave_out_resolved_links(&sides.retargeted_links(&diff.configs));
        let (mut origins, provenance) = sides.origins(&diff.configs, env);
        sides.retarget_origins(&diff.configs, &mut origins);
        let at_head = diff
            .configs
            .iter()
            .zip(origins)
            .map(|(c, origins)| sides.at_head(c, origins))
            .collect();
        let flagged = diff.widened() || diff.broken() || diff.incomplete();
        let code = if flagged && !exit_zero {
            exit::FAILURE
        } else {
            exit::SUCCESS
        };
        DiffResult {
            root: sides.root.to_string(),
            diff,
            at_head,
            all,
            code,
            provenance,
            commit_url: commit_url(&env.github_server_url, &env.github_repository),
            reviews: None,
        }
    }

    /// Judges every config by HEAD's reviews file (`file`, or why
    /// it was not read), with `allowed_signers` and `judge`; the file's own
    /// problems (not read, lines that are not records) become HEAD's notes.
    pub fn judge_reviews(
        &mut self,
        head: &Snapshot,
        file: Result<ReviewsFile, NotRead>,
        allowed_signers: Option<(String, String)>,
        judge: &Judge<'_>,
    ) {
        let shown = crate::core::revision::reviews::reviews_path();
        let not_read = file.as_ref().err().map(ToString::to_string);
        match &file {
            Ok(f) => {
                for c in malformed_lines(f) {
                    self.diff.head_notes.push(format!("{shown}: {}", c.text));
                }
            }
            Err(e) => self.diff.head_notes.push(e.to_string()),
        }
        let why = not_read.unwrap_or_default();
        for (c, at) in self.diff.configs.iter().zip(self.at_head.iter_mut()) {
            let records: Vec<_>;
            let records = match &file {
                Ok(f) => {
                    records = f.records_for(&c.path).collect();
                    Ok(records.as_slice())
                }
                Err(_) => Err(why.as_str()),
            };
            at.reviews = HeadReviews::of(head, &self.root, &c.path, records, judge);
        }
        self.reviews = Some(ReviewsAtHead {
            file: shown,
            allowed_signers,
            warnings: Vec::new(),
        });
    }

    /// Whether HEAD is the working tree.
    pub fn working_tree(&self) -> bool {
        self.diff.head == "working tree"
    }

    /// Every config of either side, in order.
    pub fn configs(&self) -> impl Iterator<Item = Listed<'_>> {
        self.diff
            .configs
            .iter()
            .zip(&self.at_head)
            .map(|(config, at_head)| Listed {
                config,
                at_head,
                all: self.all,
            })
    }

    /// The configs text, JSON and markdown list: changed ones always,
    /// unchanged ones only with `--all`.
    pub fn listed(&self) -> impl Iterator<Item = Listed<'_>> {
        self.configs()
            .filter(|l| l.all || l.config.status != Status::Unchanged)
    }
}

impl<'a> Listed<'a> {
    /// The values of the config, request by request: changed ones always,
    /// unchanged ones only with `--all`.
    pub fn groups(&self) -> Vec<(&'a str, Vec<ListedValue<'a>>)> {
        let mut out: Vec<(&str, Vec<ListedValue>)> = Vec::new();
        let values = self.config.values.iter().enumerate();
        for (i, value) in values {
            if !self.all && value.change == Change::Unchanged {
                continue;
            }
            let v = self.value(i);
            match out.last_mut() {
                Some((r, vs)) if *r == value.request => vs.push(v),
                _ => out.push((&value.request, vec![v])),
            }
        }
        out
    }

    /// The config's `i`th value (of `config.values`).
    pub fn value(&self, i: usize) -> ListedValue<'a> {
        ListedValue {
            value: &self.config.values[i],
            unscoped: self.at_head.unscoped.get(i).copied().unwrap_or(false),
            origin: self.at_head.origins.get(i).and_then(Option::as_ref),
        }
    }

    /// Every value of the config (unchanged ones too), in order.
    pub fn values(&self) -> impl Iterator<Item = ListedValue<'a>> + Clone + use<'a> {
        let l = *self;
        (0..l.config.values.len()).map(move |i| l.value(i))
    }
}

/// `https://github.com/OWNER/NAME/commit/` from `GITHUB_SERVER_URL` (empty:
/// `https://github.com`) and `GITHUB_REPOSITORY`, or `None` unless both
/// are what GitHub makes them: an `https://` origin of a host name
/// (letters, digits, `-`, `.`, an optional port) and `OWNER/NAME` with an
/// owner of letters, digits and `-`, a name of letters, digits, `-`, `_`
/// and `.` (not `.` nor `..`). Nothing else reaches a link.
pub fn commit_url(server: &str, repository: &str) -> Option<String> {
    let server = if server.is_empty() {
        "https://github.com"
    } else {
        server.strip_suffix('/').unwrap_or(server)
    };
    let authority = server.strip_prefix("https://")?;
    let (host, port) = match authority.split_once(':') {
        Some((h, p)) => (h, Some(p)),
        None => (authority, None),
    };
    let host_ok = !host.is_empty()
        && host.len() <= 253
        && host
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'.');
    let port_ok =
        port.is_none_or(|p| !p.is_empty() && p.len() <= 5 && p.bytes().all(|b| b.is_ascii_digit()));
    let (owner, name) = repository.split_once('/')?;
    let owner_ok = (1..=39).contains(&owner.len())
        && owner
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-');
    let name_ok = (1..=100).contains(&name.len())
        && name != "."
        && name != ".."
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_.".contains(&b));
    (host_ok && port_ok && owner_ok && name_ok).then(|| format!("{server}/{owner}/{name}/commit/"))
}

/// The most configs whose widening values `diff` asks git about: each
/// costs a few git processes (blame and log), so a change that adds
/// thousands of configs is answered in seconds, the rest said not looked up.
pub const MAX_CONFIGS_BLAMED: usize = 100;

/// The two snapshots compared, and where HEAD's files are.
pub struct Sides<'a> {
    pub base: &'a Snapshot,
    pub head: &'a Snapshot,
    /// The repository's root.
    pub root: &'a str,
    /// HEAD is the working tree: its files are read on disk.
    pub working_tree: bool,
}

impl Sides<'_> {
    /// [`AtHead::origins`] of every config of `configs`, asked of git at
    /// once (each file blamed once); when git cannot say, no origins and
    /// why ([`DiffResult::provenance`]). Git is not run when no value
    /// widens by being added.
    fn origins(
        &self,
        configs: &[ConfigDiff],
        env: &Env,
    ) -> (Vec<Vec<Option<ValueOrigin>>>, Option<Absent>) {
        let asked = |v: &DiffValue| v.widens && v.change == Change::Added;
        let none = || configs.iter().map(|c| vec![None; c.values.len()]).collect();
        let mut chains = Vec::new();
        let mut of_config = Vec::new();
        for (i, c) in configs.iter().enumerate() {
            let Some(files) = self.head.chains.get(&c.path) else {
                continue;
            };
            let values: Vec<(String, String)> = c
                .values
                .iter()
                .filter(|v| asked(v))
                .map(|v| (v.request.clone(), v.value.clone()))
                .collect();
            if !values.is_empty() {
                of_config.push(i);
                chains.push(ChainValues {
                    files: files.clone(),
                    values,
                });
            }
        }
        if chains.is_empty() {
            return (none(), None);
        }
        chains.truncate(MAX_CONFIGS_BLAMED);
        let base = self.base.commit.as_deref().unwrap_or(&self.base.label);
        let head = self.head.commit.as_deref();
        let mut found = match introduced_each(self.root, base, head, &chains, env) {
            Ok(found) => found.into_iter(),
            Err(absent) => return (none(), Some(absent)),
        };
        let skipped = ValueOrigin::Unknown(format!(
            "not looked up: git is asked about the first {MAX_CONFIGS_BLAMED} configs that widened by a value"
        ));
        let mut out: Vec<Vec<Option<ValueOrigin>>> = none();
        for i in of_config {
            let mut origins = found.next().unwrap_or_default().into_iter();
            for (slot, v) in out[i].iter_mut().zip(&configs[i].values) {
                if asked(v) {
                    *slot = Some(origins.next().unwrap_or_else(|| skipped.clone()));
                }
            }
        }
        (out, None)
    }

    /// The links whose change made a scope of `configs` retargeted (each
    /// once): resolved, so not noted as `not followed`.
    fn retargeted_links(&self, configs: &[ConfigDiff]) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for v in configs.iter().flat_map(|c| &c.values) {
            if v.retarget.is_none() {
                continue;
            }
            for link in changed_links(self.root, &v.value, self.base, self.head, self.working_tree)
            {
                if !out.contains(&link) {
                    out.push(link);
                }
            }
        }
        out
    }

    /// [`AtHead::origins`] of each widening retargeted scope: the commit of
    /// `BASE..HEAD` that last changed a link under it, `not committed` for
    /// a link of the working tree that is not HEAD's, or unknown and why
    /// (git failing here says so on the line). At most
    /// [`MAX_CONFIGS_BLAMED`] are looked up.
    fn retarget_origins(&self, configs: &[ConfigDiff], out: &mut [Vec<Option<ValueOrigin>>]) {
        let base = self.base.commit.as_deref().unwrap_or(&self.base.label);
        let head = self.head.commit.as_deref();
        let mut asked = 0;
        // Many configs reading through one link: git asked once.
        let mut found: HashMap<Vec<String>, ValueOrigin> = HashMap::new();
        for (c, slots) in configs.iter().zip(out.iter_mut()) {
            for (v, slot) in c.values.iter().zip(slots.iter_mut()) {
                if !v.widens || v.retarget.is_none() {
                    continue;
                }
                let links =
                    changed_links(self.root, &v.value, self.base, self.head, self.working_tree);
                if let Some(origin) = found.get(&links) {
                    *slot = Some(origin.clone());
                    continue;
                }
                asked += 1;
                if asked > MAX_CONFIGS_BLAMED {
                    *slot = Some(ValueOrigin::Unknown(format!(
                        "not looked up: git is asked about the first {MAX_CONFIGS_BLAMED} links that moved a scope"
                    )));
                    continue;
                }
                let origin = retargeted_by(self.root, base, head, &links)
                    .unwrap_or_else(|absent| ValueOrigin::Unknown(absent.reason));
                *slot = Some(origin.clone());
                found.insert(links, origin);
            }
        }
    }

    fn at_head(&self, c: &ConfigDiff, origins: Vec<Option<ValueOrigin>>) -> AtHead {
        AtHead {
            origins,
            sha256: match self.head.configs.get(&c.path) {
                Some(ConfigAt::Loaded { block, .. }) => Some(sha256_hex(block.as_str().as_bytes())),
                _ => None,
            },
            unscoped: self.unscoped(c),
            place: self.place(c),
            reviews: None,
        }
    }

    /// [`AtHead::unscoped`].
    fn unscoped(&self, c: &ConfigDiff) -> Vec<bool> {
        let (base_block, head_block) = (block_at(self.base, &c.path), block_at(self.head, &c.path));
        c.values
            .iter()
            .map(|v| {
                let side = match v.change {
                    Change::Removed => &base_block,
                    Change::Retargeted => &None,
                    Change::Added | Change::Unchanged => &head_block,
                };
                side.as_ref().is_some_and(|b| is_unscoped(b, &v.request))
            })
            .collect()
    }

    /// Where CI shows a widened, broken or narrowed config, on the line of
    /// the request at HEAD:
    /// * widened (added or changed): the first request that gained a value,
    ///   else `extends` (the value came from its chain);
    /// * widened by removal: the config is gone at HEAD, so the finding is
    ///   on the parent config its directory now falls under, at the first
    ///   request that allows more than the removed one did;
    /// * broken: the config's file, without a line (it does not parse, or
    ///   is not a file at HEAD);
    /// * narrowed: the first changed request; a removed config has no file
    ///   at HEAD, so only its path (no line).
    fn place(&self, c: &ConfigDiff) -> Option<Place> {
        let changed = c.values.iter().filter(|v| v.change != Change::Unchanged);
        let (requests, line_in): (Vec<&str>, Option<&str>) = match c.verdict {
            Verdict::Same => return None,
            Verdict::Broken => (Vec::new(), None),
            Verdict::Widened if c.status == Status::Removed => {
                return Some(self.removed_place(c));
            }
            Verdict::Widened => (
                changed
                    .filter(|v| v.widens)
                    .map(|v| v.request.as_str())
                    .collect(),
                Some(c.path.as_str()),
            ),
            Verdict::Narrowed => (
                changed.map(|v| v.request.as_str()).collect(),
                (c.status != Status::Removed).then_some(c.path.as_str()),
            ),
        };
        Some(Place {
            path: c.path.clone(),
            line: line_in.and_then(|p| self.line_at_head(p, &requests)),
            gained: Vec::new(),
        })
    }

    /// [`Sides::place`] of a removed config that widened.
    fn removed_place(&self, c: &ConfigDiff) -> Place {
        let Some(parent) = &c.now_under else {
            return Place {
                path: c.path.clone(),
                line: None,
                gained: Vec::new(),
            };
        };
        let gained: Vec<DiffValue> = judged_values(
            values_of(self.base, &c.path),
            values_of(self.head, parent),
            &[],
        )
        .into_iter()
        .filter(|v| v.widens)
        .collect();
        let requests: Vec<&str> = gained.iter().map(|v| v.request.as_str()).collect();
        Place {
            path: parent.clone(),
            line: self.line_at_head(parent, &requests),
            gained,
        }
    }

    /// The line at HEAD of the first of `requests` written in config
    /// `path`, else (the value comes from the `extends` chain) the line of
    /// `extends`.
    fn line_at_head(&self, path: &str, requests: &[&str]) -> Option<usize> {
        let text = self.head_text(path)?;
        request_line_in_text(&text, requests).or_else(|| line_of_request(&text, "extends"))
    }

    /// The text of config `path` at HEAD: the revision's blob as read, or
    /// for the working tree the file on disk; `None` when there is none
    /// (removed, a link in the tree, unreadable).
    fn head_text(&self, path: &str) -> Option<String> {
        if self.working_tree {
            let abs = if self.root == "/" {
                format!("/{path}")
            } else {
                format!("{}/{path}", self.root)
            };
            let bytes = read_regular(abs, CONFIG_MAX_BYTES).ok()?;
            Some(String::from_utf8_lossy(&bytes).into_owned())
        } else {
            self.head.texts.get(path).cloned()
        }
    }
}

/// The block of config `path` at one side, parsed, when it loads there.
fn block_at<'a>(snap: &'a Snapshot, path: &str) -> Option<&'a Json> {
    match snap.configs.get(path) {
        Some(ConfigAt::Loaded { block, .. }) => Some(block.json()),
        _ => None,
    }
}

fn values_of<'a>(snap: &'a Snapshot, path: &str) -> &'a [(String, Vec<String>)] {
    match snap.configs.get(path) {
        Some(ConfigAt::Loaded { values, .. }) => values,
        _ => &[],
    }
}
