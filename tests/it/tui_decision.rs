//! Issue 30 item 4: value-level diffs where the decision is made. The
//! confirmation shows a changed config as the detail pane does (`… N
//! unchanged` / `- value` / `+ value`), so a one-host change in a 36-host
//! list fits one 80x24 screen; a `~` line wraps rather than being cut; and
//! inspect shows a re-targeted scope's old target beside the new one.

use crate::tui_common as common;

use common::{Harness, draw, text};
use goccia_trust::tui::Theme;
use goccia_trust::tui::fixtures;
use goccia_trust::tui::msg::Msg;

const SIZES: [(u16, u16); 2] = [(80, 24), (120, 35)];

fn screen(h: &mut Harness, (w, ht): (u16, u16)) -> String {
    h.send(Msg::Resize(w, ht));
    text(&draw(&h.state, &Theme::default(), w, ht))
}

/// Rows that hold `needle`.
fn rows_with<'a>(screen: &'a str, needle: &str) -> Vec<&'a str> {
    screen.lines().filter(|l| l.contains(needle)).collect()
}

#[test]
fn the_confirmation_of_a_one_host_change_fits_one_screen() {
    for size in SIZES {
        let mut h = Harness::new(fixtures::decision_screens());
        assert_eq!(h.selected_path(), "hosts/goccia.json");
        h.keys("t");
        let full = screen(&mut h, size);
        // The dialog, from its title on.
        let s = &full[full.find("Trust 1 config file?").expect("the dialog")..];
        let order: Vec<usize> = [
            "hosts/goccia.json (changed)",
            "allow-net",
            "… 17 unchanged",
            "- gw18.example.com",
            "+ gw18.attacker.io",
            "… 18 unchanged",
            "y writes exactly this",
        ]
        .iter()
        .map(|t| {
            s.find(t)
                .unwrap_or_else(|| panic!("{size:?}: no {t:?}:\n{s}"))
        })
        .collect();
        assert!(order.windows(2).all(|w| w[0] < w[1]), "{size:?}:\n{s}");
        assert!(!s.contains("gw01.example.com"), "no wall of hosts:\n{s}");
        assert_eq!(
            h.state.scroll_limits.confirm, 0,
            "{size:?}: nothing to scroll"
        );
    }
}

#[test]
fn a_retargeted_line_wraps_in_the_detail_pane_and_the_confirmation() {
    for size in SIZES {
        let mut h = Harness::new(fixtures::decision_screens());
        h.keys("j");
        assert_eq!(h.selected_path(), "packages/app/goccia.json");
        for (what, keys) in [("detail", ""), ("confirmation", "t")] {
            h.keys(keys);
            let s = screen(&mut h, size);
            let lines: Vec<&str> = s.lines().collect();
            let head = lines
                .iter()
                .position(|l| l.contains("~ /home/dev/shop/packages/app/assets"))
                .unwrap_or_else(|| panic!("{what} {size:?}: no ~ line:\n{s}"));
            assert!(!lines[head].contains('…'), "{what} {size:?}: cut:\n{s}");
            // Wrapped: the destination whole, on the line or the next.
            assert!(
                lines[head..=head + 1]
                    .iter()
                    .any(|l| l.contains("/tmp/attacker-controlled-checkout/app/assets/current")),
                "{what} {size:?}: the whole destination:\n{s}"
            );
        }
    }
}

#[test]
fn inspect_shows_the_old_target_beside_the_new() {
    for size in SIZES {
        let mut h = Harness::new(fixtures::decision_screens());
        h.keys("j<enter>");
        let s = screen(&mut h, size);
        let scope = rows_with(&s, "/home/dev/shop/packages/app/assets ->");
        assert_eq!(scope.len(), 1, "{size:?}:\n{s}");
        let joined: String = s
            .lines()
            .skip_while(|l| !l.contains("── targets"))
            .map(|l| l.trim_matches(|c| c == '│' || c == ' '))
            .collect::<Vec<_>>()
            .join(" ");
        assert!(
            joined.contains("/tmp/attacker-controlled-checkout/app/assets/current")
                && joined.contains("was /home/dev/shop/shared/app-assets-v1 when trusted"),
            "{size:?}:\n{s}"
        );
    }
}
