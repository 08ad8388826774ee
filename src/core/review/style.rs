//! What a part of a printed line stands for (a state, a `+`/`-`/`~` sign,
//! a verdict), so a face can style it from the data that made the line,
//! never from the printed text (issue 28 item 2). Text builders take a
//! [`Styler`] and pass it only words of their own; config-derived text is
//! never handed to it. [`plain`] styles nothing.

/// The meaning of a styled word; the CLI maps it to the theme's role.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Emphasis {
    Added,
    Removed,
    Changed,
    Untrusted,
    Error,
    Missing,
}

/// Wraps one of this tool's own words in the style of its meaning.
pub type Styler<'a> = &'a dyn Fn(Emphasis, &str) -> String;

/// The styler that adds nothing.
pub fn plain(_: Emphasis, text: &str) -> String {
    text.to_string()
}
