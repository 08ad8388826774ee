//! Render the real views over the live demo (`goccia_trust::demo`, the
//! tree and store `cargo run --features demo --bin goccia-trust-demo` opens) into
//! `screenshots/*.svg`, offline (no terminal, no network), and write the
//! demo's `scan` output into README's "Try it":
//!
//!   cargo run --example screenshots [-- OUT_DIR [DEMO_DIR [README]]]
//!
//! The demo is built in DEMO_DIR (default `/tmp/goccia-trust-demo`, a fixed
//! place so the images and README name the same paths on every machine),
//! and the review runs over it with the real backend (`CoreBackend`, the
//! demo's store, state directory and policy), effects inline.
//! `scripts/screenshots.sh` runs this and converts the SVGs to PNG with
//! `rsvg-convert`. The SVG is drawn cell by cell from the ratatui buffer
//! with DejaVu Sans Mono metrics, so box lines join.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a developer tool over the demo tree: a panic is a broken demo

use std::collections::VecDeque;
use std::fmt::Write as _;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use goccia_trust::cli::io::Io;
use goccia_trust::cli::policy_trust::{policy_label, review_policy};
use goccia_trust::cli::terminal::{Escaping, SafeWriter};
use goccia_trust::core::env::Env;
use goccia_trust::core::store::locate_store;
use goccia_trust::demo::{Demo, build};
use goccia_trust::tui::core_backend::CoreBackend;
use goccia_trust::tui::effects::execute;
use goccia_trust::tui::msg::Msg;
use goccia_trust::tui::state::State;
use goccia_trust::tui::{Theme, views};
use goccia_trust::tui::{start, step};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::style::{Color, Modifier};

const W: u16 = 120;
const H: u16 = 35;
/// DejaVu Sans Mono at 14px: advance 0.602em; rows at 1.2em.
const CW: f64 = 8.43;
const CH: f64 = 17.0;
const FG: &str = "#d8dee9";
const BG: &str = "#1e222a";

/// The review's backend over the demo, as `goccia-trust --trust-store=...
/// --policy policy.json tree` sets it up in the demo directory (auto-refresh
/// off: nothing changes while the shots are taken).
fn backend(demo: &Demo, base: &Env) -> CoreBackend {
    let env = demo.env(base);
    let store = locate_store(Some(Demo::STORE), &env).map_err(|e| e.to_string());
    let tree = [Demo::TREE.to_string()];
    let policy = review_policy(Some(Demo::POLICY), None, store.as_ref().ok(), &tree, &env)
        .unwrap_or_else(|e| panic!("the demo's policy: {e:?}"));
    let label = policy_label(&policy);
    let mut backend = CoreBackend::new(env, store);
    backend.watching = false;
    backend.policy = Some((policy, label));
    backend
}

/// Drive a fresh TUI over the demo with `keys`, effects run inline.
fn state_after(backend: &CoreBackend, keys: &[KeyEvent], size: (u16, u16)) -> State {
    let mut state = State::new(Demo::TREE);
    state.size = size;
    let mut effects: VecDeque<_> = start(&mut state).into();
    let mut keys: VecDeque<_> = keys.iter().copied().collect();
    loop {
        let mut msgs = Vec::new();
        while let Some(e) = effects.pop_front() {
            execute(backend, e, &|_| true, &mut |m| msgs.push(m));
        }
        if msgs.is_empty() {
            match keys.pop_front() {
                Some(k) => msgs.push(Msg::Key(k)),
                None => return state,
            }
        }
        for m in msgs {
            effects.extend(step(&mut state, m));
        }
    }
}

fn k(c: char) -> KeyEvent {
    KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE)
}

fn code(c: KeyCode) -> KeyEvent {
    KeyEvent::new(c, KeyModifiers::NONE)
}

fn hex(c: Color, default: &str) -> String {
    const ANSI: [&str; 16] = [
        "#1e222a", "#e06c75", "#98c379", "#e5c07b", "#61afef", "#c678dd", "#56b6c2", "#abb2bf",
        "#5c6370", "#ff7b86", "#b5e890", "#ffd68a", "#8cc8ff", "#e0a0f5", "#7fdbe6", "#ffffff",
    ];
    match c {
        Color::Reset => default.to_string(),
        Color::Black => ANSI[0].into(),
        Color::Red => ANSI[1].into(),
        Color::Green => ANSI[2].into(),
        Color::Yellow => ANSI[3].into(),
        Color::Blue => ANSI[4].into(),
        Color::Magenta => ANSI[5].into(),
        Color::Cyan => ANSI[6].into(),
        Color::Gray => ANSI[7].into(),
        Color::DarkGray => ANSI[8].into(),
        Color::LightRed => ANSI[9].into(),
        Color::LightGreen => ANSI[10].into(),
        Color::LightYellow => ANSI[11].into(),
        Color::LightBlue => ANSI[12].into(),
        Color::LightMagenta => ANSI[13].into(),
        Color::LightCyan => ANSI[14].into(),
        Color::White => ANSI[15].into(),
        Color::Rgb(r, g, b) => format!("#{r:02x}{g:02x}{b:02x}"),
        Color::Indexed(i) if i < 16 => ANSI[i as usize].into(),
        Color::Indexed(i) if i >= 232 => {
            let v = 8 + (i - 232) * 10;
            format!("#{v:02x}{v:02x}{v:02x}")
        }
        Color::Indexed(i) => {
            let i = i - 16;
            let lvl = |n: u8| if n == 0 { 0 } else { 55 + n * 40 };
            format!(
                "#{:02x}{:02x}{:02x}",
                lvl(i / 36),
                lvl(i / 6 % 6),
                lvl(i % 6)
            )
        }
    }
}

fn escape_xml(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

fn to_svg(buf: &Buffer, fg0: &str, bg0: &str) -> String {
    let (w, h) = (buf.area.width, buf.area.height);
    let mut svg = String::new();
    let _ = writeln!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{:.0}" height="{:.0}" font-family="DejaVu Sans Mono" font-size="14px">"#,
        w as f64 * CW + 16.0,
        h as f64 * CH + 16.0
    );
    let _ = writeln!(svg, r#"<rect width="100%" height="100%" fill="{bg0}"/>"#);
    let _ = writeln!(svg, r#"<g transform="translate(8 8)">"#);
    for y in 0..h {
        for x in 0..w {
            let cell = &buf[(x, y)];
            let rev = cell.modifier.contains(Modifier::REVERSED);
            let (mut fg, mut bg) = (hex(cell.fg, fg0), hex(cell.bg, bg0));
            if rev {
                std::mem::swap(&mut fg, &mut bg);
            }
            let (px, py) = (x as f64 * CW, y as f64 * CH);
            if bg != bg0 {
                let _ = writeln!(
                    svg,
                    r#"<rect x="{px:.2}" y="{py:.2}" width="{:.2}" height="{CH}" fill="{bg}"/>"#,
                    CW + 0.3
                );
            }
            let sym = cell.symbol();
            if sym.trim().is_empty() {
                continue;
            }
            let mut attrs = String::new();
            if cell.modifier.contains(Modifier::BOLD) {
                attrs.push_str(r#" font-weight="bold""#);
            }
            if cell.modifier.contains(Modifier::DIM) {
                attrs.push_str(r#" opacity="0.6""#);
            }
            if cell.modifier.contains(Modifier::ITALIC) {
                attrs.push_str(r#" font-style="italic""#);
            }
            if cell.modifier.contains(Modifier::UNDERLINED) {
                attrs.push_str(r#" text-decoration="underline""#);
            }
            let _ = writeln!(
                svg,
                r#"<text x="{px:.2}" y="{:.2}" fill="{fg}"{attrs} xml:space="preserve">{}</text>"#,
                py + 13.0,
                escape_xml(sym)
            );
        }
    }
    svg.push_str("</g>\n</svg>\n");
    svg
}

/// A screenshot: its name, the keys pressed, the theme, the terminal size.
type Shot = (&'static str, Vec<KeyEvent>, &'static str, (u16, u16));

/// The demo's `scan` as README's "Try it" shows it: the command, then its
/// output and its exit status, in a fenced block between the `demo scan`
/// markers.
fn readme_scan(demo: &Demo, base: &Env) -> String {
    let args = vec![
        format!("--trust-store={}", Demo::STORE),
        "scan".to_string(),
        Demo::TREE.to_string(),
    ];
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code;
    let escaping = Escaping::new(false, false);
    {
        let mut o = SafeWriter::stdout(&mut out, &escaping, None);
        let mut e = SafeWriter::stderr(&mut err, None);
        let mut io = Io {
            out: &mut o,
            err: &mut e,
            escaping: &escaping,
        };
        code = goccia_trust::cli::app::run(args.clone(), &demo.env(base), &mut io);
    }
    assert!(err.is_empty(), "{}", String::from_utf8_lossy(&err));
    format!(
        "```\n$ goccia-trust {}\n{}$ echo $?\n{code}\n```\n",
        args.join(" "),
        String::from_utf8(out).expect("UTF-8")
    )
}

/// Replaces README's block between `<!-- NAME: start -->` and
/// `<!-- NAME: end -->` by `text`.
fn replace_block(readme: &str, name: &str, text: &str) -> String {
    let start = format!("<!-- {name}: start -->\n");
    let end = format!("<!-- {name}: end -->");
    let from = readme.find(&start).expect("README has the start marker") + start.len();
    let to = from
        + readme[from..]
            .find(&end)
            .expect("README has the end marker");
    format!("{}{text}{}", &readme[..from], &readme[to..])
}

fn main() -> std::io::Result<()> {
    let mut args = std::env::args().skip(1);
    let out = args.next().unwrap_or_else(|| "screenshots".to_string());
    let demo_dir = args
        .next()
        .unwrap_or_else(|| "/tmp/goccia-trust-demo".to_string());
    let readme = args.next();
    std::fs::create_dir_all(&out)?;
    let base = Env::from_process()?;
    let demo = build(std::path::Path::new(&demo_dir), &base).unwrap_or_else(|e| panic!("{e}"));
    let backend = backend(&demo, &base);
    if let Some(readme) = readme {
        let text = std::fs::read_to_string(&readme)?;
        let scan = readme_scan(&demo, &base);
        std::fs::write(&readme, replace_block(&text, "demo scan", &scan))?;
        println!("{readme}");
    }
    let full = (W, H);
    let shots: Vec<Shot> = vec![
        // The changed config first: added, removed and re-pointed values.
        ("configs", vec![], "default", full),
        // A never-trusted config whose scope leads out of the tree.
        ("detail-diff", vec![k('j'), k('j')], "default", full),
        // enter: the sources of the extends chain.
        (
            "inspect",
            vec![k('j'), code(KeyCode::Enter)],
            "default",
            full,
        ),
        // The store view, on the entry whose config is gone.
        (
            "store",
            vec![code(KeyCode::Tab), k('j'), k('j')],
            "default",
            full,
        ),
        // t on a config the policy DENIES.
        ("confirm", vec![k('j'), k('t')], "default", full),
        ("help", vec![k('?')], "default", full),
        ("configs-light", vec![k('j'), k('j'), k('j')], "light", full),
        // 80x24 is first-class (issue 12): the value-level diff up front.
        ("small-80x24", vec![], "default", (80, 24)),
    ];
    for (name, keys, theme_name, (w, h)) in shots {
        let theme = Theme::builtin(theme_name).expect("built-in theme");
        let state = state_after(&backend, &keys, (w, h));
        let mut terminal = Terminal::new(TestBackend::new(w, h)).expect("test terminal");
        terminal
            .draw(|f| views::view(&state, &theme, f))
            .expect("draw");
        let (fg, bg) = if theme_name == "light" {
            ("#24292f", "#ffffff")
        } else {
            (FG, BG)
        };
        let path = format!("{out}/{name}.svg");
        std::fs::write(&path, to_svg(terminal.backend().buffer(), fg, bg))?;
        println!("{path}");
    }
    Ok(())
}
