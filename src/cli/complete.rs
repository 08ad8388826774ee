//! Dynamic shell completions: the shell asks the binary itself what fits
//! under the cursor (`COMPLETE=bash goccia-trust -- goccia-trust scan ''`),
//! so a path argument completes to files, `diff` and `--since` to the
//! repository's branches, tags and recent commits, and `--theme` to the
//! built-in theme names and files. `goccia-trust completions SHELL` prints
//! the few lines that register this with SHELL (the same as
//! `COMPLETE=SHELL goccia-trust`).

use std::ffi::OsStr;

use clap_complete::engine::{
    ArgValueCompleter, CompletionCandidate, PathCompleter, ValueCompleter,
};
use clap_complete::env::{Elvish, EnvCompleter, Fish, Powershell, Shells, Zsh};

use crate::cli::args::ShellName;
use crate::core::revision::git::{RevisionKind, revision_names};

/// The environment variable that makes the binary answer a completion
/// request instead of running (`COMPLETE=bash`); empty or `0` runs it.
pub const VAR: &str = "COMPLETE";

const BIN: &str = "goccia-trust";

/// How many of the newest commits a revision completes to.
const RECENT_COMMITS: usize = 20;

/// Under `COMPLETE=SHELL`: prints the candidates for `command` (or, with
/// no word after `--`, the registration script) and exits 0. Otherwise
/// returns at once. Called before anything else writes to stdout.
pub fn answer_request(command: fn() -> clap::Command) {
    clap_complete::CompleteEnv::with_factory(command)
        .var(VAR)
        .bin(BIN)
        .shells(Shells(&[&Bash, &Elvish, &Fish, &Powershell, &Zsh]))
        .complete();
}

/// The registration script of `completions SHELL`: the shell calls back the
/// binary as it was run (a bare name is looked up on PATH at each Tab; a
/// path made absolute), as `COMPLETE=SHELL goccia-trust` would print it.
pub fn registration(shell: ShellName) -> std::io::Result<Vec<u8>> {
    let argv0 = std::env::args_os().next().unwrap_or_else(|| BIN.into());
    let mut completer = std::path::PathBuf::from(argv0);
    if completer.components().count() > 1
        && let Ok(dir) = std::env::current_dir()
    {
        completer = dir.join(completer);
    }
    let completer = completer.to_string_lossy().into_owned();
    let adapter: &dyn EnvCompleter = match shell {
        ShellName::Bash => &Bash,
        ShellName::Zsh => &Zsh,
        ShellName::Fish => &Fish,
        ShellName::Elvish => &Elvish,
        ShellName::Powershell => &Powershell,
    };
    let mut script = Vec::new();
    adapter.write_registration(VAR, BIN, BIN, &completer, &mut script)?;
    Ok(script)
}

/// `--theme`: the built-in names, then files and directories.
pub fn theme_completer() -> ArgValueCompleter {
    ArgValueCompleter::new(|current: &OsStr| {
        let typed = current.to_string_lossy();
        let mut out: Vec<CompletionCandidate> = crate::style::theme::BUILTIN
            .iter()
            .map(|(name, _)| *name)
            .filter(|name| name.starts_with(typed.as_ref()))
            .map(|name| CompletionCandidate::new(name).help(Some("built-in theme".into())))
            .collect();
        out.extend(PathCompleter::file().complete(current));
        out
    })
}

/// A git revision (`diff BASE [HEAD]`, `--since BASE`): the branches, tags
/// and remote branches of the repository around the working directory,
/// then its newest commits. Outside a repository, or when git fails,
/// nothing (a completion has no way to report).
pub fn revision_completer() -> ArgValueCompleter {
    ArgValueCompleter::new(|current: &OsStr| {
        let typed = current.to_string_lossy();
        let Ok(names) = revision_names(".", RECENT_COMMITS) else {
            return Vec::new();
        };
        names
            .into_iter()
            .filter(|(name, _)| name.starts_with(typed.as_ref()))
            .map(|(name, kind)| {
                let help = match kind {
                    RevisionKind::Branch => "branch",
                    RevisionKind::Tag => "tag",
                    RevisionKind::RemoteBranch => "remote branch",
                    RevisionKind::Commit => "commit",
                };
                CompletionCandidate::new(name).help(Some(help.into()))
            })
            .collect()
    })
}

/// clap_complete's bash adapter, with one difference in the registration:
/// bash splits `--theme=li` into `--theme`, `=`, `li` (`=` is in
/// COMP_WORDBREAKS), which the completer would read as `--theme`'s value
/// `=` and a path `li`. The words are glued back before the binary is
/// asked, and what bash already has before the cursor word (`--theme=`)
/// is taken off each candidate.
#[derive(Clone, Copy)]
struct Bash;

const BASH_REGISTRATION: &str = r#"
_clap_complete_NAME() {
    local IFS=$'\013'
    local _CLAP_COMPLETE_COMP_TYPE=${COMP_TYPE}
    if compopt +o nospace 2> /dev/null; then
        local _CLAP_COMPLETE_SPACE=false
    else
        local _CLAP_COMPLETE_SPACE=true
    fi
    local words=() strip="" glue=false i w n
    local _CLAP_COMPLETE_INDEX=0
    for (( i = 0; i < ${#COMP_WORDS[@]}; i++ )); do
        w="${COMP_WORDS[i]}"
        if (( i == COMP_CWORD )); then
            w="$2"
        fi
        n=$(( ${#words[@]} - 1 ))
        if (( i > 0 )) && [[ "${COMP_WORDS[i]}" == "=" ]]; then
            words[n]+="="
            glue=true
            if (( i == COMP_CWORD )); then
                strip="${words[n]}"
            fi
        elif [[ $glue == true ]]; then
            if (( i == COMP_CWORD )); then
                strip="${words[n]}"
            fi
            words[n]+="$w"
            glue=false
        else
            words+=("$w")
            glue=false
        fi
        if (( i == COMP_CWORD )); then
            _CLAP_COMPLETE_INDEX=$(( ${#words[@]} - 1 ))
        fi
    done
    COMPREPLY=( $( \
        _CLAP_IFS="$IFS" \
        _CLAP_COMPLETE_INDEX="$_CLAP_COMPLETE_INDEX" \
        _CLAP_COMPLETE_COMP_TYPE="$_CLAP_COMPLETE_COMP_TYPE" \
        _CLAP_COMPLETE_SPACE="$_CLAP_COMPLETE_SPACE" \
        VAR="bash" \
        COMPLETER -- "${words[@]}" \
    ) )
    if [[ $? != 0 ]]; then
        unset COMPREPLY
        return
    fi
    if [[ -n $strip ]]; then
        COMPREPLY=( "${COMPREPLY[@]#"$strip"}" )
    fi
    if [[ $_CLAP_COMPLETE_SPACE == false ]] && [[ "${COMPREPLY-}" =~ [=/:]$ ]]; then
        compopt -o nospace
    fi
}
if [[ "${BASH_VERSINFO[0]}" -eq 4 && "${BASH_VERSINFO[1]}" -ge 4 || "${BASH_VERSINFO[0]}" -gt 4 ]]; then
    complete -o nospace -o bashdefault -o nosort -F _clap_complete_NAME BIN
else
    complete -o nospace -o bashdefault -F _clap_complete_NAME BIN
fi
"#;

impl EnvCompleter for Bash {
    fn name(&self) -> &'static str {
        "bash"
    }

    fn is(&self, name: &str) -> bool {
        name == "bash"
    }

    fn write_registration(
        &self,
        var: &str,
        name: &str,
        bin: &str,
        completer: &str,
        buf: &mut dyn std::io::Write,
    ) -> std::io::Result<()> {
        let completer = shell_quote(completer);
        let script = BASH_REGISTRATION
            .replace("NAME", &name.replace('-', "_"))
            .replace("BIN", bin)
            .replace("COMPLETER", &completer)
            .replace("VAR", var);
        writeln!(buf, "{script}")
    }

    fn write_complete(
        &self,
        cmd: &mut clap::Command,
        args: Vec<std::ffi::OsString>,
        current_dir: Option<&std::path::Path>,
        buf: &mut dyn std::io::Write,
    ) -> std::io::Result<()> {
        clap_complete::env::Bash.write_complete(cmd, args, current_dir, buf)
    }
}

/// `s` as one POSIX shell word: bare when it has only safe characters,
/// else in single quotes.
fn shell_quote(s: &str) -> String {
    let safe = |c: char| c.is_ascii_alphanumeric() || "/._-+:,@%".contains(c);
    if !s.is_empty() && s.chars().all(safe) {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::shell_quote;

    #[test]
    fn a_path_is_one_shell_word() {
        assert_eq!(
            shell_quote("/usr/bin/goccia-trust"),
            "/usr/bin/goccia-trust"
        );
        assert_eq!(shell_quote("/a b/it's"), r"'/a b/it'\''s'");
    }
}
