//! `ekl`: the command-line tool over ekl-core (SPEC §1–§8: canonical JSON, commitments,
//! fingerprints, receipts, endpoint proofs, ES256 JWS; `ekl conformance`: docs/conformance-protocol.md).
//!
//! Every command reads its JSON input from a file or from stdin (`-` or no file), writes its result
//! to stdout, and on a refusal prints one line `ekl: CODE: message` to stderr and exits with status
//! 2; a verdict that is not accepted exits with 1, a usage error with 64 (one line
//! `ekl: usage: ...`). `ekl --help` lists the commands, the input limits, the secret sources and
//! the exit statuses; the choices are in docs/decisions.md#cli. A verdict or a verified token is
//! printed for people when stdout is a terminal and as JSON otherwise (`--format`; cli/src/human.rs).

/// `eprintln!` that never panics: a message stderr cannot take (closed, full) is dropped, and the
/// exit status still says what happened (`eprintln!` panicked: exit 101).
macro_rules! say {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($t)*);
    }};
}

/// `eprint!` that never panics (the progress line).
macro_rules! say_part {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = write!(std::io::stderr(), $($t)*);
    }};
}

mod aliases;
mod archive;
mod args;
mod commands;
mod human;
mod input;
mod mcp;
mod progress;

use std::ffi::OsString;
use std::io::Write;
use std::process::ExitCode;

use clap::{CommandFactory, Parser};
use ekl_core::Error;

use args::{Cli, Command};

/// Why a command did not print a plain result.
pub enum Failure {
    /// A refusal of the core or of an input (exit 2, `ekl: CODE: message`).
    Refused(Error),
    /// A usage error found after parsing (exit 64, `ekl: usage: message`).
    Usage(String),
    /// A verdict or check that is not accepted: printed to stdout, exit status 1.
    NotAccepted(Vec<u8>),
    /// Stdout could not be written (exit 74, `ekl: message`).
    Io(String),
}

impl From<Error> for Failure {
    fn from(e: Error) -> Self {
        Failure::Refused(e)
    }
}

/// The exit status of a refusal.
pub(crate) const EXIT_REFUSED: u8 = 2;
/// The exit status of a usage error (BSD `EX_USAGE`).
pub(crate) const EXIT_USAGE: u8 = 64;
/// The exit status when stdout cannot be written (BSD `EX_IOERR`).
pub(crate) const EXIT_IO: u8 = 74;

/// Writes `bytes` to stdout and flushes.
pub(crate) fn write_stdout(bytes: &[u8]) -> std::io::Result<()> {
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(bytes).and_then(|_| stdout.flush())
}

fn main() -> ExitCode {
    let argv: Vec<OsString> = std::env::args_os().collect();
    let cli = match Cli::try_parse_from(&argv) {
        Ok(cli) => cli,
        Err(e) => return clap_failure(&e, &argv),
    };
    let hint = help_hint(&argv);
    let format = human::chosen(cli.format);
    let result = match cli.command {
        Command::Conformance(a) => return conformance(a, &hint),
        Command::Mcp(mut a) => {
            a.human = !a.json && format == human::Format::Human;
            return mcp::main(a, &hint);
        }
        Command::Receipt(args::ReceiptCommand::VerifyArchive(a)) => {
            archive::main(a, &input::Inputs::default(), format)
        }
        command if format == human::Format::Human && human::applies(&command) => {
            let for_people = |json: Vec<u8>| human::render(&json).unwrap_or(json);
            match commands::run(command, &input::Inputs::default()) {
                Ok(json) => Ok(for_people(json)),
                Err(Failure::NotAccepted(json)) => Err(Failure::NotAccepted(for_people(json))),
                Err(other) => Err(other),
            }
        }
        command => commands::run(command, &input::Inputs::default()),
    };
    match result {
        Ok(out) => {
            let mut stdout = std::io::stdout().lock();
            if stdout.write_all(&out).and_then(|_| stdout.flush()).is_err() {
                return ExitCode::from(EXIT_IO);
            }
            ExitCode::SUCCESS
        }
        Err(Failure::Refused(e)) => {
            say!("ekl: {}: {}", e.code().as_str(), e.message());
            ExitCode::from(EXIT_REFUSED)
        }
        Err(Failure::Usage(m)) => {
            say!("ekl: usage: {m} ({hint})");
            ExitCode::from(EXIT_USAGE)
        }
        Err(Failure::NotAccepted(out)) => {
            let mut stdout = std::io::stdout().lock();
            if stdout.write_all(&out).and_then(|_| stdout.flush()).is_err() {
                return ExitCode::from(EXIT_IO);
            }
            ExitCode::from(1)
        }
        Err(Failure::Io(m)) => {
            say!("ekl: {m}");
            ExitCode::from(EXIT_IO)
        }
    }
}

/// `see 'ekl receipt verify --help'`: the deepest command named on the command line (only names
/// of known commands, so nothing the user typed is repeated).
fn help_hint(argv: &[OsString]) -> String {
    let mut names = vec!["ekl".to_owned()];
    let mut cmd = Cli::command();
    for arg in argv.iter().skip(1) {
        if cmd.get_subcommands().next().is_none() {
            break;
        }
        let Some(arg) = arg.to_str() else { break };
        if arg.starts_with('-') {
            continue;
        }
        let Some(sub) = cmd.find_subcommand(arg).cloned() else {
            break;
        };
        names.push(sub.get_name().to_owned());
        cmd = sub;
    }
    format!("see '{} --help'", names.join(" "))
}

/// `ekl conformance`: the runner of crate ekl-conformance, with the tool's progress line (on
/// stderr when it is a terminal: cli/src/progress.rs).
fn conformance(a: args::ConformanceArgs, hint: &str) -> ExitCode {
    ekl_conformance::main(options_of(a), hint, &mut progress::Requests(None))
}

/// The runner's options from the command line's, field by field.
fn options_of(a: args::ConformanceArgs) -> ekl_conformance::Options {
    ekl_conformance::Options {
        ops: a.ops,
        serve: a.serve,
        emit: a.emit,
        corpus: a.corpus,
        seed: a.seed,
        only: a.only,
        timeout_ms: a.timeout,
        show: a.show,
        window: a.window,
        doubles: a.doubles,
        vectors: a.vectors,
        no_vectors: a.no_vectors,
        command: a.command,
    }
}

/// Help and version go to stdout (exit 0); every other parse error is one line on stderr (exit 64).
fn clap_failure(e: &clap::Error, argv: &[OsString]) -> ExitCode {
    use clap::error::ErrorKind;
    if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
        return match e.print() {
            Ok(()) => ExitCode::SUCCESS,
            Err(_) => ExitCode::from(EXIT_IO),
        };
    }
    let message = after_a_secret_option(e, argv).unwrap_or_else(|| clap_message(e));
    say!("ekl: usage: {message} ({})", help_hint(argv));
    ExitCode::from(EXIT_USAGE)
}

/// The options whose value is a secret or a token: a value of theirs that starts with `-` reads
/// as an unknown option, which must not be repeated in the message.
const SECRET_OPTIONS: [&str; 7] = [
    "--secret",
    "--seed",
    "--agent-key",
    "--proof-key",
    "--key-ring",
    "--token",
    "--proof-v2",
];

/// The message of an unknown option that stands right after a secret-valued option (its value,
/// most likely, starting with `-`): named by the option it follows, never repeated.
fn after_a_secret_option(e: &clap::Error, argv: &[OsString]) -> Option<String> {
    use clap::error::{ContextKind as K, ErrorKind as E};
    if e.kind() != E::UnknownArgument {
        return None;
    }
    let arg = e.get(K::InvalidArg)?.to_string();
    let at = argv.iter().position(|a| a.to_str() == Some(arg.as_str()))?;
    let before = argv.get(at.checked_sub(1)?)?.to_str()?;
    SECRET_OPTIONS.contains(&before).then(|| {
        format!(
            "the value of '{before}' starts with '-' (not repeated here): give it as {before}=VALUE"
        )
    })
}

/// One line for a parse error, built from the error's context so that no value the user typed is
/// repeated (a misplaced token or secret would be): option and command names only.
fn clap_message(e: &clap::Error) -> String {
    use clap::error::{ContextKind as K, ContextValue, ErrorKind as E};
    let get = |k: K| e.get(k).map(|v| v.to_string()).unwrap_or_default();
    let mut msg = match e.kind() {
        E::InvalidSubcommand => "unknown command".to_owned(),
        E::UnknownArgument => {
            let arg = get(K::InvalidArg);
            if arg.starts_with('-') {
                let name = arg.split('=').next().unwrap_or_default();
                format!("unknown option '{name}'")
            } else {
                "unexpected argument (not repeated here; FILE is given once, a token with --token)"
                    .to_owned()
            }
        }
        E::InvalidValue | E::ValueValidation => {
            let mut m = format!("invalid value for '{}'", get(K::InvalidArg));
            if let Some(reason) = std::error::Error::source(e) {
                m.push_str(&format!(": {reason}"));
            }
            m
        }
        E::MissingRequiredArgument => format!("missing {}", get(K::InvalidArg)),
        E::ArgumentConflict => {
            let (arg, prior) = (get(K::InvalidArg), get(K::PriorArg));
            if arg == prior {
                format!("'{arg}' cannot be given more than once")
            } else {
                format!("'{arg}' cannot be used with '{prior}'")
            }
        }
        E::MissingSubcommand | E::DisplayHelpOnMissingArgumentOrSubcommand => {
            "a command is needed".to_owned()
        }
        E::NoEquals | E::TooManyValues | E::TooFewValues | E::WrongNumberOfValues => {
            format!("wrong number of values for '{}'", get(K::InvalidArg))
        }
        E::InvalidUtf8 => "an argument is not valid UTF-8".to_owned(),
        _ => "invalid command line".to_owned(),
    };
    let mut suggested: Vec<String> = Vec::new();
    for k in [K::SuggestedSubcommand, K::SuggestedArg, K::SuggestedValue] {
        match e.get(k) {
            Some(ContextValue::String(s)) => suggested.push(s.clone()),
            Some(ContextValue::Strings(v)) => suggested.extend(v.iter().cloned()),
            _ => {}
        }
    }
    // Closest first: by edit distance to what was typed (clap lists its best guess last).
    let typed = [K::InvalidSubcommand, K::InvalidArg, K::InvalidValue]
        .into_iter()
        .find_map(|k| match e.get(k) {
            Some(ContextValue::String(s)) => Some(s.split('=').next().unwrap_or_default()),
            _ => None,
        })
        .map(|t| t.chars().take(64).collect::<String>());
    if let Some(typed) = typed {
        suggested.reverse();
        let bare = typed.trim_start_matches('-');
        suggested.sort_by_key(|s| strsim::levenshtein(bare, s.trim_start_matches('-')));
    }
    let suggested: Vec<String> = suggested.iter().map(|s| format!("'{s}'")).collect();
    if let Some((last, rest)) = suggested.split_last() {
        if rest.is_empty() {
            msg.push_str(&format!("; did you mean {last}?"));
        } else {
            msg.push_str(&format!("; did you mean {} or {last}?", rest.join(", ")));
        }
    }
    msg
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conformance_options_default_as_the_runners() {
        let cli = Cli::try_parse_from(["ekl", "conformance", "--emit"]).expect("parses");
        let Command::Conformance(a) = cli.command else {
            panic!("not the conformance command")
        };
        let given = options_of(a);
        let want = ekl_conformance::Options {
            emit: true,
            ..ekl_conformance::Options::default()
        };
        assert_eq!(format!("{given:?}"), format!("{want:?}"));
    }

    /// Every leaf command, as its words (`["receipt", "verify"]`).
    fn leaves(cmd: &clap::Command, prefix: &[String], out: &mut Vec<Vec<String>>) {
        for sub in cmd.get_subcommands() {
            let mut path = prefix.to_vec();
            path.push(sub.get_name().to_owned());
            if sub.get_subcommands().next().is_none() {
                out.push(path);
            } else {
                leaves(sub, &path, out);
            }
        }
    }

    #[test]
    fn the_parser_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn the_top_help_lists_every_command() {
        let mut all = Vec::new();
        leaves(&Cli::command(), &[], &mut all);
        assert!(all.len() >= 24, "{all:?}");
        for path in all {
            let line = format!("\n  {} ", path.join(" "));
            assert!(args::TOP_HELP.contains(&line), "ekl --help misses {line:?}");
        }
    }

    /// Every command of the parser is in the alias table (cli/src/aliases.rs), and nothing else:
    /// a new command must say which registry operation it is an alias of, or why it is
    /// host-only. Each alias names operations of the registry, printed in a form that fits what
    /// the operation returns.
    #[test]
    fn every_command_is_in_the_alias_table() {
        use aliases::{Named, Output};
        use ekl_bridge::Returns;
        let mut all = Vec::new();
        leaves(&Cli::command(), &[], &mut all);
        let mut commands: Vec<String> = all.iter().map(|p| p.join(" ")).collect();
        commands.sort();
        let mut table: Vec<String> = aliases::NAMED.iter().map(|(c, _)| c.to_string()).collect();
        table.sort();
        assert_eq!(commands, table, "cli/src/aliases.rs NAMED");
        for (command, named) in aliases::NAMED {
            match named {
                Named::HostOnly(why) => assert!(why.len() > 20, "{command}: why host-only?"),
                Named::Alias(ops) => {
                    assert!(!ops.is_empty(), "{command}");
                    for a in *ops {
                        let op = ekl_bridge::find(a.op)
                            .unwrap_or_else(|| panic!("{command}: no operation {}", a.op));
                        let fits = match a.output {
                            Output::Json => true,
                            Output::Text => op.returns == Returns::Str,
                            Output::Bytes => op.returns == Returns::Bytes,
                            Output::Check => op.returns == Returns::Bool,
                            Output::PrivateKeys => op.returns == Returns::KeySet,
                        };
                        assert!(fits, "{command}: {} printed as {:?}", a.op, a.output);
                        assert!(!a.when.is_empty(), "{command}: {}", a.op);
                    }
                }
            }
        }
    }

    #[test]
    fn help_hints_name_only_known_commands() {
        let argv = |a: &[&str]| -> Vec<OsString> { a.iter().map(OsString::from).collect() };
        assert_eq!(
            help_hint(&argv(&["ekl", "receipt", "verify", "--secret", "s", "x"])),
            "see 'ekl receipt verify --help'"
        );
        assert_eq!(
            help_hint(&argv(&["ekl", "eyJhbGciOi.e30.sig"])),
            "see 'ekl --help'"
        );
    }
}
