//! Everything the screen shows, in one value. `update` is the only writer;
//! views only read it.

use std::collections::{BTreeSet, HashMap};

use crate::core::policy::ConfigDecision;

use crate::core::review::progress::{Progress, ProgressChange, Session};
use crate::core::review::report::{ConfigReport, ConfigState, StoreEntryReport};
use crate::core::review::scan::NotReviewed;
use crate::core::revision::compare::ConfigDiff;
use crate::core::revision::provenance::reviewed::ReviewedVersions;
use crate::core::revision::provenance::{Absent, ConfigProvenance};
use crate::core::team::each_config::ConfigReviews;
use crate::tui::backend::InspectData;
use crate::tui::keymap::Context;
use crate::tui::msg::Pending;
use crate::tui::since::{Since, SinceOf};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum View {
    Configs,
    Store,
}

/// What has the keyboard. Overlays carry their own state, so closing one
/// cannot leave a stale flag behind.
#[derive(Debug, Clone, PartialEq)]
pub enum Mode {
    Normal,
    /// Typing the `/` path query.
    Filter,
    Inspect(InspectView),
    Confirm(Confirmation),
    Help {
        scroll: usize,
    },
}

#[derive(Debug, Clone, PartialEq)]
pub struct InspectView {
    pub key: String,
    pub display_path: String,
    /// Where each path scope led when the config was trusted (the store
    /// entry's targets), shown beside where it leads now.
    pub recorded: Vec<(String, String)>,
    /// `None` while the worker reads the files.
    pub data: Option<Result<InspectData, String>>,
    pub scroll: usize,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Confirmation {
    pub pending: Pending,
    /// Rows the action leaves out, with why (`already trusted`, ...).
    pub skipped: Vec<(String, &'static str)>,
    /// With `--policy`, what it says of the configs to trust, as shown.
    pub policy: Option<PolicyShown>,
    /// With `--since BASE`: BASE, so a trust says it records against the
    /// store, not against BASE.
    pub since: Option<String>,
    pub scroll: usize,
    /// Confirmed; waiting for the backend.
    pub busy: bool,
    /// Who made each config to trust (by key), read against the store
    /// when the confirmation opens if its pane did not: each widening
    /// value names its commit and author where the decision is made, a
    /// new config the commit that added it (issue 40 item 5).
    pub who: Who,
    /// Who deleted each config to remove that is gone (by key, the first
    /// [`crate::core::revision::review_provenance::MAX_LISTED`]), read
    /// when the confirmation opens if its pane did not: a prune names the
    /// commit that deleted each file (issue 40 item 5).
    pub deleted: Deleted,
    /// The signed reviews of each config to trust (by key), as judged for
    /// the block shown; none where its repository has no reviews file.
    pub reviews: HashMap<String, ConfigReviews>,
}

/// Who deleted each missing config, by key.
pub type Deleted = HashMap<String, DeletedBy>;

/// Who deleted one missing config: `None` while git is read, else the
/// commit (or `not committed`, or why it is not known) or why git could
/// not be read.
pub type DeletedBy = Option<
    Result<
        crate::core::revision::provenance::ValueOrigin,
        crate::core::revision::provenance::Absent,
    >,
>;

/// What a confirmation knows of who made each config, by key: `None`
/// while git is read, else the provenance or why there is none.
pub type Who = HashMap<
    String,
    Option<
        Result<
            crate::core::revision::provenance::ConfigProvenance,
            crate::core::revision::provenance::Absent,
        >,
    >,
>;

/// What is known of each config's provenance, by key (`tui::provenance`
/// reads and keeps it; the detail pane shows it).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Provenance {
    pub slots: HashMap<String, Slot>,
    /// Under `--since BASE`, where the pane's `slots` are read against
    /// BASE: the trust confirmation's reads, against the store, as its
    /// lines compare.
    pub against_store: HashMap<String, Slot>,
    /// Who deleted each missing config asked about (a missing row or
    /// store entry selected, a prune or untrust confirmation).
    pub deleted: Deleted,
}

impl Provenance {
    /// Whether git is being read for any config: one read runs at a time.
    pub fn reading(&self) -> bool {
        let reading = |slots: &HashMap<String, Slot>| slots.values().any(|s| s.data.is_none());
        reading(&self.slots)
            || reading(&self.against_store)
            || self.deleted.values().any(Option::is_none)
    }
}

/// One config's provenance, for the block it was asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Slot {
    pub sha256: String,
    /// `None` while git is read.
    pub data: Option<Result<ConfigProvenance, Absent>>,
}

/// The policy's word on the configs a confirmation would trust: its label
/// and its decision on each (by key; absent when not judged). The person
/// still decides: a DENIED config can be trusted, but not unannounced.
#[derive(Debug, Clone, PartialEq)]
pub struct PolicyShown {
    pub label: String,
    pub decisions: HashMap<String, ConfigDecision>,
}

/// A list position: the selected row and the first row drawn.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Cursor {
    pub selected: usize,
    pub offset: usize,
}

impl Cursor {
    /// Move to `to` (clamped to `len`) and scroll just enough to keep it in
    /// a window of `rows`.
    pub fn select(&mut self, to: usize, len: usize, rows: usize) {
        self.selected = to.min(len.saturating_sub(1));
        self.offset = visible_offset(self.selected, self.offset, rows);
    }
}

/// The first row to draw so that `selected` is inside a window of `rows`,
/// moving `offset` as little as possible. Views use it too, so a window that
/// shrank since the last update still shows the selection.
pub fn visible_offset(selected: usize, offset: usize, rows: usize) -> usize {
    let rows = rows.max(1);
    if selected < offset {
        selected
    } else if selected >= offset + rows {
        selected + 1 - rows
    } else {
        offset
    }
}

/// What a running scan keeps selected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Anchor {
    /// The same row: nothing was selected (the first scan), so the top row.
    Row,
    /// The config selected when the scan started.
    Config(String),
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ScanStatus {
    pub job: u64,
    pub running: bool,
    pub dirs: u64,
    pub configs: u64,
    /// No result of the current job has arrived yet: the previous list stays
    /// on screen until the first one does, so a rescan does not flash empty.
    pub fresh: bool,
    /// Where the selection stays while results arrive (in batches, in no
    /// particular order), until the scan is done or the user moves; without
    /// it the selection would follow whichever config a batch happened to
    /// put under the cursor.
    pub anchor: Option<Anchor>,
    pub error: Option<String>,
    /// `cannot read <path>: <reason>` for each path the walk could not read.
    pub unreadable: Vec<String>,
    /// `not followed: <link> -> <target> (outside <root>)` lines.
    pub not_followed: Vec<String>,
    /// Config files shadowed by a higher-priority name beside them: never
    /// trusted nor hashed.
    pub shadowed: Vec<NotReviewed>,
    /// Store entries under the root whose config is gone; they need
    /// pruning, not review.
    pub missing: Vec<NotReviewed>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StoreState {
    pub job: u64,
    pub loading: bool,
    pub entries: Vec<StoreEntryReport>,
    pub error: Option<String>,
    pub cursor: Cursor,
    pub marked: BTreeSet<String>,
    /// The widest entry path, as drawn; set when the entries load.
    pub path_width: usize,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Status {
    pub text: String,
    pub is_error: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub struct State {
    pub root: String,
    /// Terminal size, for page moves; views use the real frame size.
    pub size: (u16, u16),
    pub view: View,
    pub mode: Mode,
    /// Sorted: needs review first (see `review_rank`), then key byte order.
    pub configs: Vec<ConfigReport>,
    /// Indices of the rows passing the filters, in display order: into
    /// `configs`, then (from `configs.len()` on) into `others`.
    pub visible: Vec<usize>,
    /// The rows after the configs: store entries whose config is gone and
    /// files GocciaScript does not read (issue 30), as the last finished
    /// scan found them.
    pub others: Vec<OtherRow>,
    /// `s` reached `missing` or `shadowed`: only those rows are shown.
    pub other_filter: Option<OtherState>,
    pub cursor: Cursor,
    pub marked: BTreeSet<String>,
    pub query: String,
    pub state_filter: Option<ConfigState>,
    /// The filters (`query`, `state_filter`, `unviewed_only`) are the ones
    /// a saved session restored, not changed since: the status line says
    /// so (issue 30).
    pub filter_saved: bool,
    pub detail_scroll: usize,
    pub scan: ScanStatus,
    pub store: StoreState,
    pub status: Option<Status>,
    /// Why the store cannot be relied on (a banner above everything).
    pub store_warnings: Vec<String>,
    pub spinner: usize,
    pub quit: bool,
    pub next_job: u64,
    /// Viewed marks and saved sessions (issue 12), as loaded and since
    /// changed; `tree` names this tree's session in it.
    pub progress: Progress,
    pub tree: Option<String>,
    /// Configs the user ignored (`i`, `goccia-trust ignore`), as loaded
    /// and since changed: a config ignored as it is now shows `ignored`.
    pub ignores: crate::core::review::ignore::IgnoreList,
    /// `s` reached "not viewed": only configs not yet viewed are shown.
    pub unviewed_only: bool,
    /// The policy the review is judged by (`--policy`), as labelled in
    /// listings; `None` without one (and then no verdict column).
    pub policy: Option<String>,
    /// Each judged config's decision, by key, with the sha256 of the block
    /// judged: a verdict is shown only beside the block it was made on.
    pub verdicts: HashMap<String, (String, ConfigDecision)>,
    /// What the views would otherwise work out from every row on every
    /// frame, worked out when the rows change.
    pub rows: RowCache,
    /// How far each scrollable pane can scroll, as the views measured it
    /// after the last step (`tui::step`); `update` scrolls within it and so
    /// never needs to know how a pane is drawn.
    pub scroll_limits: ScrollLimits,
    /// `--since BASE`: each config is compared with its version at BASE
    /// (`None`: with the trust store, the default).
    pub since: Option<Since>,
    /// Who changed what, per config (`tui::provenance`); `None` when the
    /// backend does not read git.
    pub provenance: Option<Provenance>,
    /// Each config's signed reviews, by key, with the sha256 of the block
    /// judged (`tui::reviewed`): only configs whose repository has a
    /// reviews file, so a tree without one shows nothing of reviews.
    pub reviews: HashMap<String, (String, ConfigReviews)>,
    /// The versions each config's outdated reviews were of, read from git
    /// for the block of its sha256 once it is selected (`None` while read).
    pub reviewed_versions: HashMap<String, ReviewedSlot>,
}

/// The versions a config's outdated reviews were of, for one block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReviewedSlot {
    pub sha256: String,
    /// `None` while git is read.
    pub data: Option<Result<ReviewedVersions, Absent>>,
}

/// The last line each scrollable pane can start at, at the state's size:
/// measured by `views::measure` from the lines the views would draw.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ScrollLimits {
    pub detail: usize,
    pub inspect: usize,
    pub help: usize,
    pub confirm: usize,
}

/// Per-row work done once, when the rows change (`update` keeps it), so a
/// frame costs the rows it draws, not the list: each config's summary (a
/// changed config's is a value-level diff of its blocks), the width of the
/// path column over every visible row, and the counts in the title and
/// status line.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RowCache {
    /// `ConfigReport::summary` by key.
    pub summaries: HashMap<String, String>,
    /// The widest path among the visible rows, as drawn (escaped).
    pub path_width: usize,
    pub viewed: usize,
    pub needs_review: usize,
    /// Configs needing review that the filters hide.
    pub hidden_needs_review: usize,
    pub errors: usize,
    /// With `--since`, each config compared with BASE, by key (`None`:
    /// outside the repository), once the base is read.
    pub since: HashMap<String, Option<ConfigDiff>>,
}

impl State {
    pub fn new(root: &str) -> State {
        State {
            root: root.to_string(),
            size: (120, 35),
            view: View::Configs,
            mode: Mode::Normal,
            configs: Vec::new(),
            visible: Vec::new(),
            others: Vec::new(),
            other_filter: None,
            cursor: Cursor::default(),
            marked: BTreeSet::new(),
            query: String::new(),
            state_filter: None,
            filter_saved: false,
            detail_scroll: 0,
            scan: ScanStatus::default(),
            store: StoreState::default(),
            status: None,
            store_warnings: Vec::new(),
            spinner: 0,
            quit: false,
            next_job: 1,
            progress: Progress::default(),
            ignores: Default::default(),
            tree: None,
            unviewed_only: false,
            policy: None,
            verdicts: HashMap::new(),
            rows: RowCache::default(),
            scroll_limits: ScrollLimits::default(),
            since: None,
            provenance: None,
            reviews: HashMap::new(),
            reviewed_versions: HashMap::new(),
        }
    }

    /// What the row of `r` shows about BASE, with `--since`.
    pub fn since_of(&self, r: &ConfigReport) -> Option<SinceOf<'_>> {
        let since = self.since.as_ref()?;
        Some(match &since.base {
            None => SinceOf::Reading,
            Some(Err(why)) => SinceOf::Unreadable(why),
            Some(Ok(_)) => match self.rows.since.get(&r.key) {
                Some(Some(d)) => SinceOf::Compared(d),
                Some(None) => SinceOf::Outside,
                None => SinceOf::Reading,
            },
        })
    }

    /// The keymap context the keyboard is in.
    pub fn context(&self) -> Context {
        match &self.mode {
            Mode::Normal => match self.view {
                View::Configs => Context::Configs,
                View::Store => Context::Store,
            },
            Mode::Filter => Context::Filter,
            Mode::Inspect(_) => Context::Inspect,
            Mode::Confirm(_) => Context::Confirm,
            Mode::Help { .. } => Context::Help,
        }
    }

    pub fn selected_config(&self) -> Option<&ConfigReport> {
        self.visible
            .get(self.cursor.selected)
            .and_then(|&i| self.configs.get(i))
    }

    /// Row `i` of `visible`'s numbering: a config or one of `others`.
    pub fn row(&self, i: usize) -> Option<Row<'_>> {
        match self.configs.get(i) {
            Some(c) => Some(Row::Config(c)),
            None => self.others.get(i - self.configs.len()).map(Row::Other),
        }
    }

    /// The selected row when it is a missing or shadowed one.
    pub fn selected_other(&self) -> Option<&OtherRow> {
        match self.row(*self.visible.get(self.cursor.selected)?)? {
            Row::Other(o) => Some(o),
            Row::Config(_) => None,
        }
    }

    pub fn selected_entry(&self) -> Option<&StoreEntryReport> {
        self.store.entries.get(self.store.cursor.selected)
    }

    /// Whether `r` is marked viewed as it is now.
    pub fn is_viewed(&self, r: &ConfigReport) -> bool {
        self.progress.is_viewed(&r.key, r.sha256())
    }

    /// Configs marked viewed as they are now (counted when the rows or
    /// the marks change).
    pub fn viewed_count(&self) -> usize {
        self.rows.viewed
    }

    /// The list's summary of `r` (`+2 -1`, `3 requests`, the error), as
    /// computed when the report arrived.
    pub fn summary_of(&self, r: &ConfigReport) -> std::borrow::Cow<'_, str> {
        match self.rows.summaries.get(&r.key) {
            Some(s) => std::borrow::Cow::Borrowed(s.as_str()),
            None => std::borrow::Cow::Owned(r.summary()),
        }
    }

    /// The progress as this review would leave it: the viewed marks and,
    /// for this tree, where the review stands now (selection, filters,
    /// marks).
    #[cfg(any(test, feature = "test-support"))]
    pub fn progress_to_save(&self) -> Progress {
        let mut p = self.progress.clone();
        self.progress_change(Vec::new()).apply(&mut p);
        p
    }

    /// What to save of the progress: the viewed marks `viewed` just set or
    /// cleared and, for this tree, where the review stands now. Only that
    /// is written, so another review's marks are kept.
    pub fn progress_change(&self, viewed: Vec<(String, Option<String>)>) -> ProgressChange {
        let session = self.tree.as_ref().map(|tree| {
            (
                self.since.is_some(),
                tree.clone(),
                Session {
                    selected: self.selected_config().map(|r| r.key.clone()),
                    query: self.query.clone(),
                    state: self
                        .state_filter
                        .map(|s| s.json_name())
                        .or(self.other_filter.map(|o| o.label()))
                        .map(str::to_string),
                    unviewed: self.unviewed_only,
                    marked: self.marked.clone(),
                },
            )
        });
        ProgressChange { viewed, session }
    }

    /// The policy's decision on `r` as it is now: `None` without a policy,
    /// for a config not judged (it requests nothing or does not load), and
    /// for a decision made on another block.
    pub fn decision(&self, r: &ConfigReport) -> Option<&ConfigDecision> {
        let (sha, d) = self.verdicts.get(&r.key)?;
        (r.sha256() == Some(sha.as_str())).then_some(d)
    }

    /// The signed reviews of `r` as it is now: `None` where its
    /// repository has no reviews file, and for reviews judged on another
    /// block.
    pub fn reviews_of(&self, r: &ConfigReport) -> Option<&ConfigReviews> {
        let (sha, reviews) = self.reviews.get(&r.key)?;
        (r.sha256() == Some(sha.as_str())).then_some(reviews)
    }

    pub fn needs_review_count(&self) -> usize {
        self.rows.needs_review
    }

    /// Whether any filter is on (path query, state, not viewed).
    pub fn filtered(&self) -> bool {
        !self.query.is_empty()
            || self.state_filter.is_some()
            || self.other_filter.is_some()
            || self.unviewed_only
    }

    /// The state filter's name, whichever kind of row it shows.
    pub fn state_filter_label(&self) -> Option<&'static str> {
        match (self.state_filter, self.other_filter) {
            (Some(f), _) => Some(f.label()),
            (None, Some(o)) => Some(o.label()),
            (None, None) => None,
        }
    }

    /// The filters in words (`state changed`, `not viewed`, `path api`),
    /// joined by ` · `; config text is not escaped here.
    pub fn filter_words(&self) -> String {
        let mut parts = Vec::new();
        if let Some(f) = self.state_filter_label() {
            parts.push(format!("state {f}"));
        }
        if self.unviewed_only {
            parts.push("not viewed".to_string());
        }
        if !self.query.is_empty() {
            parts.push(format!("path {}", self.query));
        }
        parts.join(" · ")
    }
}

/// A row of the Configs view that is not a config to review (issue 30).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OtherRow {
    pub state: OtherState,
    pub file: NotReviewed,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OtherState {
    /// Trusted, and the file is gone: the entry needs pruning.
    Missing,
    /// A `goccia.json` or `goccia.json5` beside a higher-priority name:
    /// GocciaScript never reads it.
    Shadowed,
}

impl OtherState {
    /// The state column's word, and the saved filter's name.
    pub fn label(self) -> &'static str {
        match self {
            OtherState::Missing => "missing",
            OtherState::Shadowed => "shadowed",
        }
    }
}

/// A row of the Configs view.
#[derive(Debug, Clone, Copy)]
pub enum Row<'a> {
    Config(&'a ConfigReport),
    Other(&'a OtherRow),
}

impl Row<'_> {
    /// The config's key, or the file's path.
    pub fn key(&self) -> &str {
        match self {
            Row::Config(c) => &c.key,
            Row::Other(o) => &o.file.key,
        }
    }

    pub fn display_path(&self) -> &str {
        match self {
            Row::Config(c) => &c.display_path,
            Row::Other(o) => &o.file.display_path,
        }
    }
}

/// A config's path in the list, relative to the scanned `root` when it
/// lies under it: the title already names the root, and
/// `tests/fixtures/demo/` repeated on every row would crowd out the
/// summaries. The detail pane keeps the full display path.
pub fn row_path<'a>(root: &str, display_path: &'a str) -> &'a str {
    let root = root.trim_end_matches('/');
    if root.is_empty() || root == "." {
        return display_path;
    }
    display_path
        .strip_prefix(root)
        .and_then(|rest| rest.strip_prefix('/'))
        .filter(|rest| !rest.is_empty())
        .unwrap_or(display_path)
}

/// Columns `s` takes on screen once escaped, as the list draws it.
pub fn shown_width(s: &str) -> usize {
    ratatui::text::Span::raw(crate::sanitize::clean(s)).width()
}

/// Display order of states: what blocks a run first, then errors, then
/// the settled ones.
pub fn review_rank(state: ConfigState) -> u8 {
    match state {
        ConfigState::Changed => 0,
        ConfigState::NeverTrusted => 1,
        ConfigState::Error => 2,
        ConfigState::Trusted => 3,
        ConfigState::NoRequest => 4,
        ConfigState::Ignored => 5,
    }
}

/// The `s` cycle: all, then one state at a time in display order.
pub fn next_state_filter(f: Option<ConfigState>) -> Option<ConfigState> {
    use ConfigState::*;
    match f {
        None => Some(Changed),
        Some(Changed) => Some(NeverTrusted),
        Some(NeverTrusted) => Some(Error),
        Some(Error) => Some(Trusted),
        Some(Trusted) => Some(NoRequest),
        Some(NoRequest) => Some(Ignored),
        Some(Ignored) => None,
    }
}
