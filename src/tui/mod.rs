//! The interactive review screen: Elm-style state, messages, a pure
//! `update`, effects on worker threads, and views that only read.

pub mod backend;
pub mod core_backend;
pub mod deleted;
pub mod effects;
#[cfg(any(test, feature = "test-support"))]
pub mod fake;
#[cfg(any(test, feature = "test-support"))]
pub mod fixtures;
pub mod keymap;
pub mod layout;
pub mod msg;
pub mod provenance;
pub mod reviewed;
pub mod since;

pub mod state;
pub mod update;
pub mod views;

use std::io::{self, stdout};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use crossterm::event::{self, DisableMouseCapture, EnableMouseCapture, Event as TermEvent};
use crossterm::execute;
use ratatui::DefaultTerminal;

pub use crate::style::theme::Theme;
pub use backend::TuiBackend;

use effects::{Event, Runner};
use msg::{Effect, Msg};
use state::State;

/// The spinner and worker results advance at least this often.
const TICK: Duration = Duration::from_millis(80);
/// While a scan streams results, input is polled this often, so results are
/// drawn within a frame of arriving instead of waiting out a tick.
const BUSY_POLL: Duration = Duration::from_millis(15);

/// Restores the terminal when dropped, so an early `?` return restores it
/// as surely as a normal exit. Panics are covered by the hooks.
struct RestoreGuard;

impl Drop for RestoreGuard {
    fn drop(&mut self) {
        let _ = execute!(stdout(), DisableMouseCapture);
        ratatui::restore();
    }
}

/// The signals that end the TUI with the terminal restored: `kill`, a
/// closed terminal, and `^C`/`^\` sent from outside (raw mode keeps the
/// keys themselves from raising them).
#[cfg(unix)]
pub const EXIT_SIGNALS: [i32; 4] = [
    signal_hook::consts::SIGTERM,
    signal_hook::consts::SIGHUP,
    signal_hook::consts::SIGINT,
    signal_hook::consts::SIGQUIT,
];

/// Windows delivers only these (a closed console arrives as a console
/// control event the runtime maps to SIGTERM's handling, not modelled).
#[cfg(windows)]
pub const EXIT_SIGNALS: [i32; 2] = [signal_hook::consts::SIGTERM, signal_hook::consts::SIGINT];

/// How the TUI ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// The user quit.
    Quit,
    /// One of [`EXIT_SIGNALS`] arrived; the process should exit 128 + it.
    Signal(i32),
}

/// While alive, the [`EXIT_SIGNALS`] only set `caught` (the loop then ends
/// and the restore guard gives the terminal back); a second one while the
/// first is pending ends the process at once, in case the loop is stuck.
struct SignalWatch {
    caught: Arc<AtomicUsize>,
    ids: Vec<signal_hook::SigId>,
}

impl SignalWatch {
    fn install() -> io::Result<SignalWatch> {
        let caught = Arc::new(AtomicUsize::new(0));
        let pending = Arc::new(AtomicBool::new(false));
        let mut watch = SignalWatch {
            caught: Arc::clone(&caught),
            ids: Vec::new(),
        };
        for sig in EXIT_SIGNALS {
            // Registered first, so it sees the flag as the previous signal
            // left it: set only from the second signal on.
            watch
                .ids
                .push(signal_hook::flag::register_conditional_shutdown(
                    sig,
                    128 + sig,
                    Arc::clone(&pending),
                )?);
            watch
                .ids
                .push(signal_hook::flag::register(sig, Arc::clone(&pending))?);
            watch.ids.push(signal_hook::flag::register_usize(
                sig,
                Arc::clone(&caught),
                sig as usize,
            )?);
        }
        Ok(watch)
    }

    fn caught(&self) -> Option<i32> {
        match self.caught.load(Ordering::SeqCst) {
            0 => None,
            sig => Some(sig as i32),
        }
    }
}

impl Drop for SignalWatch {
    fn drop(&mut self) {
        for id in self.ids.drain(..) {
            signal_hook::low_level::unregister(id);
        }
    }
}

/// Run the TUI over `root` until the user quits or a signal ends it. Takes
/// over the terminal (raw mode, alternate screen, mouse) and gives it back
/// on every path: return, error, panic, and the [`EXIT_SIGNALS`]. `e` runs
/// `editor` (`Env::editor`) on a config.
pub fn run_tui(
    root: &str,
    backend: Arc<dyn TuiBackend>,
    theme: Theme,
    editor: &str,
) -> io::Result<Ending> {
    let signals = SignalWatch::install()?;
    #[cfg(unix)]
    watch_for_hangup();
    // ratatui installs a panic hook that leaves raw mode and the alternate
    // screen before the panic message prints; ours, installed after it,
    // runs first and turns mouse reporting off as well.
    let mut terminal = match ratatui::try_init() {
        Ok(t) => t,
        Err(e) => {
            ratatui::restore();
            return Err(e);
        }
    };
    let _guard = RestoreGuard;
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let _ = execute!(stdout(), DisableMouseCapture);
        previous(info);
    }));
    execute!(stdout(), EnableMouseCapture)?;
    event_loop(&mut terminal, root, backend, &theme, editor, &signals)
}

/// A terminal can vanish under the review (a window closed, an ssh session
/// dropped). crossterm's reader then loops on end-of-file without
/// returning, so the event loop never sees the SIGHUP: this thread watches
/// the controlling terminal and, once it is hung up, raises SIGHUP, then
/// again, so the review ends (exit 129) even when the loop is stuck. There
/// is no terminal left to restore, and the viewed marks were saved as they
/// were made.
#[cfg(unix)]
fn watch_for_hangup() {
    use rustix::event::{PollFd, PollFlags, Timespec, poll};
    let Ok(tty) = std::fs::File::open("/dev/tty") else {
        return;
    };
    let hung_up = PollFlags::HUP | PollFlags::ERR | PollFlags::NVAL;
    let quarter = Timespec {
        tv_sec: 0,
        tv_nsec: 250_000_000,
    };
    std::thread::spawn(move || {
        loop {
            let mut fd = [PollFd::new(&tty, PollFlags::empty())];
            let n = poll(&mut fd, Some(&quarter));
            if matches!(n, Ok(n) if n > 0) && fd[0].revents().intersects(hung_up) {
                // As the kernel would: a SIGHUP, which the event loop answers
                // (saving the session) if it still runs; a second one a
                // moment later ends the process at once (`SignalWatch`).
                let _ = signal_hook::low_level::raise(signal_hook::consts::SIGHUP);
                std::thread::sleep(Duration::from_secs(1));
                let _ = signal_hook::low_level::raise(signal_hook::consts::SIGHUP);
                return;
            }
            if n.is_err() {
                // Interrupted by a signal: look again shortly.
                std::thread::sleep(Duration::from_millis(50));
            }
        }
    });
}

/// The state the review starts from over `root`: with `--since BASE`, the
/// revision is named at once (the title says it from the first frame),
/// while the backend reads it on a worker.
pub fn initial_state(root: &str, backend: &dyn TuiBackend) -> State {
    let mut state = State::new(root);
    state.since = backend.since_rev().map(since::Since::reading);
    if backend.provenance_on() {
        state.provenance = Some(state::Provenance::default());
    }
    state
}

/// The state's first step: `update::init`, then the views measure what
/// can scroll (see [`step`]).
pub fn start(state: &mut State) -> Vec<Effect> {
    let effects = update::init(state);
    views::measure(state);
    effects
}

/// One step of the review: the pure `update` folds the message in, then the
/// views measure how far each pane can now scroll (`views::measure`), so
/// the next key scrolls within what is drawn. The event loop, the tests and
/// the screenshot tool all go through here.
pub fn step(state: &mut State, msg: Msg) -> Vec<Effect> {
    let mut effects = update::update(state, msg);
    // What git said may no longer hold once the tree is read again (`r`,
    // a change on disk).
    if effects
        .iter()
        .any(|e| matches!(e, Effect::Scan { .. } | Effect::RescanConfigs { .. }))
    {
        provenance::forget(state);
        reviewed::forget(state);
    }
    // The selected config's provenance, read once it is selected; who
    // deleted the selected missing config, or those a confirmation lists.
    effects.extend(provenance::wanted(state));
    effects.extend(deleted::wanted(state));
    effects.extend(reviewed::wanted(state));
    views::measure(state);
    effects
}

fn event_loop(
    terminal: &mut DefaultTerminal,
    root: &str,
    backend: Arc<dyn TuiBackend>,
    theme: &Theme,
    editor: &str,
    signals: &SignalWatch,
) -> io::Result<Ending> {
    let (tx, rx) = mpsc::channel();
    let runner = Runner::new(Arc::clone(&backend), tx);
    let mut state = initial_state(root, &*backend);
    let size = terminal.size()?;
    state.size = (size.width, size.height);
    for effect in start(&mut state) {
        runner.spawn(effect);
    }
    let mut last_tick = Instant::now();
    // Where the review stopped, for the next run on this tree; on this
    // thread, so it is written before the process ends. A failure is not
    // worth keeping the user in the TUI for: the viewed marks were saved
    // as they were made.
    let save_session = |state: &State| {
        if state.tree.is_some() {
            let _ = backend.save_progress(&state.progress_change(Vec::new()));
        }
    };
    loop {
        if let Some(sig) = signals.caught() {
            // A closed terminal or a `kill` ends the review as `q` does.
            save_session(&state);
            return Ok(Ending::Signal(sig));
        }
        draw(terminal, &state, theme)?;
        let mut wait = TICK.saturating_sub(last_tick.elapsed());
        if state.scan.running {
            wait = wait.min(BUSY_POLL);
        }
        let mut msgs = terminal_msgs(wait)?;
        if last_tick.elapsed() >= TICK {
            last_tick = Instant::now();
            msgs.push(Msg::Tick);
        }
        while let Ok(ev) = rx.try_recv() {
            match ev {
                Event::Msg(m) => msgs.push(m),
                Event::Panicked(p) => {
                    return Err(io::Error::other(format!(
                        "a background task panicked: {}",
                        p.0
                    )));
                }
            }
        }
        let mut asked = Asked::default();
        for m in msgs {
            asked.route(step(&mut state, m), &runner);
        }
        if let Some(key) = asked.edit.take() {
            let result = edit_in_editor(terminal, editor, &key)?;
            asked.route(step(&mut state, Msg::Edited { key, result }), &runner);
        }
        if asked.quit {
            save_session(&state);
            return Ok(Ending::Quit);
        }
    }
}

/// What one turn of the loop's messages asked of the loop itself (the
/// effects that need the terminal); every other effect goes to a worker.
#[derive(Default)]
struct Asked {
    /// The config to open in the editor (the last `e` of the turn).
    edit: Option<String>,
    quit: bool,
}

impl Asked {
    fn route(&mut self, effects: Vec<Effect>, runner: &Runner) {
        for effect in effects {
            match effect {
                Effect::Edit { key } => self.edit = Some(key),
                Effect::Quit => self.quit = true,
                other => runner.spawn(other),
            }
        }
    }
}

/// Suspends the TUI (main screen, cooked mode, no mouse), runs `editor`
/// (`Env::editor`: `$VISUAL`, else `$EDITOR`, else `vi`) on `path` through `sh` (so an editor with
/// arguments works; the path is passed as an argument, never spliced into
/// the command), waits for it, and takes the terminal back. The outer
/// error is the terminal's; the inner one the editor's.
fn edit_in_editor(
    terminal: &mut DefaultTerminal,
    editor: &str,
    path: &str,
) -> io::Result<Result<(), String>> {
    use crossterm::terminal::{
        EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
    };
    execute!(stdout(), DisableMouseCapture, LeaveAlternateScreen)?;
    disable_raw_mode()?;
    let status = std::process::Command::new("/bin/sh")
        .arg("-c")
        .arg(format!("{editor} \"$1\""))
        .arg("sh")
        .arg(path)
        .status();
    enable_raw_mode()?;
    execute!(stdout(), EnterAlternateScreen, EnableMouseCapture)?;
    terminal.clear()?;
    Ok(match status {
        Ok(s) if s.success() => Ok(()),
        Ok(s) => Err(format!("{editor} exited with {s}")),
        Err(e) => Err(format!("cannot run {editor}: {e}")),
    })
}

/// Draws the state (in ASCII where the theme says so).
fn draw(terminal: &mut DefaultTerminal, state: &State, theme: &Theme) -> io::Result<()> {
    terminal.draw(|frame| {
        views::view(state, theme, frame);
        if theme.ascii {
            views::to_ascii(frame.buffer_mut());
        }
    })?;
    Ok(())
}

/// The terminal's events within `wait`, as messages: every event already
/// queued is taken before the next redraw (up to 64), so a held key
/// scrolls a long list without lagging behind.
fn terminal_msgs(wait: Duration) -> io::Result<Vec<Msg>> {
    let mut msgs = Vec::new();
    if event::poll(wait)? {
        loop {
            if let Some(m) = to_msg(event::read()?) {
                msgs.push(m);
            }
            if msgs.len() >= 64 || !event::poll(Duration::ZERO)? {
                break;
            }
        }
    }
    Ok(msgs)
}

fn to_msg(ev: TermEvent) -> Option<Msg> {
    match ev {
        TermEvent::Key(k) => Some(Msg::Key(k)),
        TermEvent::Mouse(m) => Some(Msg::Mouse(m)),
        TermEvent::Resize(w, h) => Some(Msg::Resize(w, h)),
        _ => None,
    }
}
