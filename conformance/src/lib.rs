//! The conformance runner of ekl-evidence (`ekl conformance`, crate `ekl-cli`): checks another
//! implementation of ekl-json-1 and the EKP evidence bytes against this core, over the JSON-lines
//! protocol of `docs/conformance-protocol.md` (PROTOCOL-1.2 §2 canonical JSON, §5–§9 the evidence
//! bytes, through the registry's operations).
//!
//! `ekl conformance [OPTIONS] -- COMMAND ARGS…` starts COMMAND, sends it every vector of `vectors/`
//! and a seeded generated corpus, one request per line, compares each answer with the core's own
//! (its reference answers) and prints the agreement per rule, with the first differing cases in full.
//! `ekl conformance --serve` answers the protocol itself (the Rust surface).
//!
//! From Rust, the same run as `ekl conformance -- python my_adapter.py`, without a progress line:
//!
//! ```no_run
//! use ekl_conformance::{main, Options};
//!
//! let options = Options {
//!     command: vec!["python".into(), "my_adapter.py".into()],
//!     ..Options::default()
//! };
//! let status = main(options, "see docs/conformance-protocol.md", &mut ());
//! ```

/// `eprintln!` that never panics: a message stderr cannot take (closed, full) is dropped, and the
/// exit status still says what happened.
macro_rules! say {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($t)*);
    }};
}

pub mod call;
mod calls;
mod corpus;
mod ops;

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, ExitCode, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use corpus::Case;
use ekl_core::{canonical, Value};

/// The details of `ekl conformance --help` (after the generated option list).
pub const HELP: &str = "\
Modes:
  ekl conformance [OPTIONS] -- COMMAND [ARGS..]   check COMMAND
  ekl conformance --serve                         answer the protocol with this core
  ekl conformance --ops                           the operation names, one a line
  ekl conformance --emit [OPTIONS]                the request stream with the expected answers

  Runs COMMAND as an implementation speaking the JSON-lines protocol of
  docs/conformance-protocol.md, feeds it every vector file and a generated corpus of N texts
  (--corpus, default 3000, at most 200000, seed 1) and N random doubles (--doubles, 1000 to a
  request; default 0, at most 1000000), sending up to --window requests (default 64) before
  reading their answers, each awaited --timeout ms (1 to 3600000), and compares its answers with
  this core's. RULE keeps the requests whose rule name contains it (e.g.
  canonicalize, refuse/duplicate_key, vectors/fingerprints). --serve answers the protocol on
  stdin/stdout with this core; --emit prints one JSON object a line:
  {\"request\":..,\"expect\":{\"ok\"|\"error\":..},\"rule\":..,\"label\":..}.

Exit status:
  0    every answer agrees (--serve, --emit, --ops: done)
  1    some answer differs, or no request was sent
  64   usage error
  66   the vector files cannot be read
  74   stdout could not be written
";

/// The options of one run (`ekl conformance --help` describes each). `Options::default()` is the
/// command's defaults: no mode, 3,000 generated texts of seed 1, no doubles, a 10 s timeout, 3
/// differing cases shown per rule, 64 requests in flight, the vectors found as `--vectors`'s help
/// says, no command.
#[derive(Debug, Clone)]
pub struct Options {
    /// `--ops`: print the operation names, one a line.
    pub ops: bool,
    /// `--serve`: answer the protocol on stdin/stdout with this core.
    pub serve: bool,
    /// `--emit`: print the request stream with the expected answers.
    pub emit: bool,
    /// The number of generated JSON texts.
    pub corpus: usize,
    /// The seed of the generated corpus.
    pub seed: u64,
    /// Keep the requests whose rule name contains one of these.
    pub only: Vec<String>,
    /// How long to wait for one answer, in milliseconds.
    pub timeout_ms: u64,
    /// How many differing cases to print per rule.
    pub show: usize,
    /// How many requests to send before reading their answers.
    pub window: usize,
    /// The number of random doubles (1000 to a request).
    pub doubles: usize,
    /// The folder of the vector files (default: EKL_VECTORS, ./vectors, or the checkout's).
    pub vectors: Option<PathBuf>,
    /// Send no vector file.
    pub no_vectors: bool,
    /// The implementation under test: a command and its arguments.
    pub command: Vec<OsString>,
}

impl Options {
    /// The default number of generated JSON texts.
    pub const CORPUS: usize = 3000;
    /// The default seed of the generated corpus.
    pub const SEED: u64 = 1;
    /// The default wait for one answer, in milliseconds.
    pub const TIMEOUT_MS: u64 = 10_000;
    /// The default number of differing cases printed per rule.
    pub const SHOW: usize = 3;
    /// The default number of requests sent before their answers are read.
    pub const WINDOW: usize = 64;
    /// The most generated JSON texts a run builds (its requests are held in memory: about
    /// 1.2 KB a text).
    pub const MAX_CORPUS: usize = 200_000;
    /// The most random doubles a run sends.
    pub const MAX_DOUBLES: usize = 1_000_000;
    /// The longest wait for one answer, in milliseconds (an hour); the shortest is 1.
    pub const MAX_TIMEOUT_MS: u64 = 3_600_000;

    /// Why these options cannot run (a usage error), if they cannot.
    fn refused(&self) -> Option<String> {
        if self.corpus > Self::MAX_CORPUS {
            return Some(format!("--corpus is at most {}", Self::MAX_CORPUS));
        }
        if self.doubles > Self::MAX_DOUBLES {
            return Some(format!("--doubles is at most {}", Self::MAX_DOUBLES));
        }
        if self.timeout_ms == 0 || self.timeout_ms > Self::MAX_TIMEOUT_MS {
            return Some(format!(
                "--timeout is at least 1 and at most {} ms",
                Self::MAX_TIMEOUT_MS
            ));
        }
        if self.window == 0 {
            return Some("--window is at least 1".to_owned());
        }
        None
    }
}

impl Default for Options {
    fn default() -> Options {
        Options {
            ops: false,
            serve: false,
            emit: false,
            corpus: Options::CORPUS,
            seed: Options::SEED,
            only: Vec::new(),
            timeout_ms: Options::TIMEOUT_MS,
            show: Options::SHOW,
            window: Options::WINDOW,
            doubles: 0,
            vectors: None,
            no_vectors: false,
            command: Vec::new(),
        }
    }
}

/// What the runner reports while it checks an implementation (`ekl` draws it as its progress
/// line on a terminal). Every method does nothing by default.
pub trait Progress {
    /// `total` requests are about to be sent.
    fn start(&mut self, total: u64) {
        let _ = total;
    }
    /// One more request was answered (or given up).
    fn answered(&self) {}
    /// The run is over: erase whatever was drawn.
    fn finish(&self) {}
}

/// A [`Progress`] that shows nothing.
impl Progress for () {}

/// Runs `ekl conformance` with `a` (`hint`: where to find the help, for usage errors), reporting
/// the run's progress to `progress`; the exit status is as `HELP` lists.
pub fn main(a: Options, hint: &str, progress: &mut dyn Progress) -> ExitCode {
    if a.ops {
        let mut out = std::io::stdout().lock();
        return match writeln!(out, "{}", ops::OPS.join("\n")).and_then(|_| out.flush()) {
            Ok(()) => ExitCode::SUCCESS,
            Err(_) => ExitCode::from(74),
        };
    }
    if a.serve {
        return serve();
    }
    if let Some(m) = a.refused() {
        say!("ekl: usage: {m} ({hint})");
        return ExitCode::from(64);
    }
    if !a.emit && a.command.is_empty() {
        say!("ekl: usage: no implementation command (after --) ({hint})");
        return ExitCode::from(64);
    }
    let cases = match build_cases(&a) {
        Ok(c) => c,
        Err(m) => {
            say!("ekl conformance: {m}");
            return ExitCode::from(66);
        }
    };
    if a.emit {
        return emit_cases(&cases);
    }
    run(&a, &cases, progress)
}

/// The longest request line `--serve` reads (a 64 MiB input as hex, with room for the envelope);
/// a longer line is skipped in bounded memory and answered `BAD_REQUEST`. The runner holds the
/// answer lines of the implementation under test to the same length.
const MAX_REQUEST_LINE: usize = 160 << 20;

fn serve() -> ExitCode {
    let stdin = std::io::stdin().lock();
    let stdout = std::io::BufWriter::new(std::io::stdout().lock());
    match serve_on(stdin, stdout, MAX_REQUEST_LINE) {
        Ok(()) => ExitCode::SUCCESS,
        Err(_) => ExitCode::from(74),
    }
}

/// Answers every request line of `input` on `output`, holding at most `max_line` bytes of a line:
/// a longer line is skipped and answered `BAD_REQUEST` (its id is unknown: `null`).
fn serve_on(
    mut input: impl BufRead,
    mut output: impl Write,
    max_line: usize,
) -> std::io::Result<()> {
    loop {
        let mut line = Vec::new();
        if (&mut input)
            .take(max_line as u64 + 1)
            .read_until(b'\n', &mut line)?
            == 0
        {
            return Ok(());
        }
        let answer = if line.len() > max_line && line.last() != Some(&b'\n') {
            skip_line(&mut input)?;
            format!("{{\"id\":null,\"error\":\"{}\"}}", ops::BAD_REQUEST)
        } else {
            if line.last() == Some(&b'\n') {
                line.pop();
            }
            if line.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            ops::answer_line(&line)
        };
        writeln!(output, "{answer}")?;
        output.flush()?;
    }
}

/// Consumes the rest of the current line (through its newline) without holding it.
fn skip_line(r: &mut impl BufRead) -> std::io::Result<()> {
    loop {
        let buf = r.fill_buf()?;
        if buf.is_empty() {
            return Ok(());
        }
        if let Some(i) = buf.iter().position(|&b| b == b'\n') {
            r.consume(i + 1);
            return Ok(());
        }
        let n = buf.len();
        r.consume(n);
    }
}

fn default_vectors() -> PathBuf {
    if let Some(dir) = std::env::var_os("EKL_VECTORS") {
        return PathBuf::from(dir);
    }
    let here = PathBuf::from("vectors");
    if here.join("ekl-json-1.json").is_file() {
        return here;
    }
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../vectors"))
}

fn build_cases(opts: &Options) -> Result<Vec<Case>, String> {
    let mut cases = Vec::new();
    if !opts.no_vectors {
        let dir = opts.vectors.clone().unwrap_or_else(default_vectors);
        let (v, files) = calls::vector_requests(&dir)?;
        let calls = v.iter().filter(|c| c.rule.starts_with("call/")).count();
        say!(
            "ekl conformance: {} requests from {} vector files in {} ({calls} of them calls over \
             the {} operations of docs/operations.json)",
            v.len(),
            files.len(),
            dir.display(),
            ekl_bridge::OPERATIONS.len()
        );
        cases.extend(v);
    }
    cases.extend(corpus::generated(opts.seed, opts.corpus));
    cases.extend(corpus::doubles(opts.seed, opts.doubles));
    cases.extend(corpus::host(opts.seed, opts.corpus / 10));
    if !opts.only.is_empty() {
        cases.retain(|c| opts.only.iter().any(|o| c.rule.contains(o.as_str())));
    }
    Ok(cases)
}

fn request_line(case: &Case, id: u64) -> (Value<'static>, String) {
    let req = case.request(id);
    match canonical::canonicalize_value(&req).map(String::from_utf8) {
        Ok(Ok(line)) => (req, line),
        // A request holds strings, integers and values read from the vector files; should one of
        // those not be ekl-json-1 (a duplicate member), a request without op goes out instead
        // (BAD_REQUEST, expected and shown as such).
        _ => (
            Value::Object(vec![("id".into(), Value::Number(id as f64))]),
            format!("{{\"id\":{id}}}"),
        ),
    }
}

fn expected_json(expected: &Result<String, String>) -> String {
    let mut out = Vec::new();
    match expected {
        Ok(s) => {
            out.extend_from_slice(b"{\"ok\":");
            canonical::write_string(s, &mut out);
        }
        Err(e) => {
            out.extend_from_slice(b"{\"error\":");
            canonical::write_string(e, &mut out);
        }
    }
    out.push(b'}');
    String::from_utf8(out).expect("utf-8")
}

fn emit_cases(cases: &[Case]) -> ExitCode {
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for (i, case) in cases.iter().enumerate() {
        let (req, line) = request_line(case, i as u64 + 1);
        let expected = ops::answer(&req);
        let mut rule = Vec::new();
        canonical::write_string(&case.rule, &mut rule);
        let mut label = Vec::new();
        canonical::write_string(&case.label, &mut label);
        let r = writeln!(
            out,
            "{{\"request\":{line},\"expect\":{},\"rule\":{},\"label\":{}}}",
            expected_json(&expected),
            String::from_utf8_lossy(&rule),
            String::from_utf8_lossy(&label)
        );
        if r.is_err() {
            return ExitCode::from(74);
        }
    }
    if out.flush().is_err() {
        return ExitCode::from(74);
    }
    ExitCode::SUCCESS
}

/// The implementation under test, restarted after a crash or a timeout.
struct Implementation {
    command: Vec<OsString>,
    child: Option<(Child, ChildStdin, Receiver<Vec<u8>>)>,
    restarts: usize,
}

enum Reply {
    Line(Vec<u8>),
    Timeout,
    Crashed(String),
}

impl Implementation {
    fn start(&mut self) -> Result<(), String> {
        let mut child = Command::new(&self.command[0])
            .args(&self.command[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", self.command[0].to_string_lossy()))?;
        let stdin = child.stdin.take().ok_or("no stdin")?;
        let stdout = child.stdout.take().ok_or("no stdout")?;
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            // Answer lines are held up to MAX_REQUEST_LINE bytes; a longer one is skipped and
            // stands as a line that is not JSON (a PROTOCOL difference), in bounded memory.
            let mut reader = BufReader::new(stdout);
            loop {
                let mut l = Vec::new();
                match (&mut reader)
                    .take(MAX_REQUEST_LINE as u64 + 1)
                    .read_until(b'\n', &mut l)
                {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {}
                }
                if l.len() > MAX_REQUEST_LINE && l.last() != Some(&b'\n') {
                    if skip_line(&mut reader).is_err() {
                        break;
                    }
                    l = format!("<an answer line of more than {MAX_REQUEST_LINE} bytes>")
                        .into_bytes();
                } else if l.last() == Some(&b'\n') {
                    l.pop();
                }
                if tx.send(l).is_err() {
                    break;
                }
            }
        });
        self.child = Some((child, stdin, rx));
        Ok(())
    }

    fn stop(&mut self) {
        if let Some((mut child, stdin, _)) = self.child.take() {
            drop(stdin);
            let deadline = Instant::now() + Duration::from_millis(500);
            while Instant::now() < deadline {
                if let Ok(Some(_)) = child.try_wait() {
                    return;
                }
                std::thread::sleep(Duration::from_millis(10));
            }
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// Writes the request lines (starting the implementation when needed).
    fn send(&mut self, lines: &[String]) -> Result<(), String> {
        if self.child.is_none() {
            self.start()?;
        }
        let (_, stdin, _) = self.child.as_mut().expect("started above");
        let mut buf = Vec::new();
        for l in lines {
            buf.extend_from_slice(l.as_bytes());
            buf.push(b'\n');
        }
        stdin
            .write_all(&buf)
            .and_then(|_| stdin.flush())
            .map_err(|e| format!("cannot write the request: {e}"))
    }

    /// The next answer line.
    fn recv(&mut self, timeout: Duration) -> Reply {
        let Some((child, _, rx)) = self.child.as_mut() else {
            return Reply::Crashed("the implementation is not running".into());
        };
        match rx.recv_timeout(timeout) {
            Ok(l) => Reply::Line(l),
            Err(RecvTimeoutError::Timeout) => Reply::Timeout,
            Err(RecvTimeoutError::Disconnected) => {
                let status = child.wait().map(|s| s.to_string()).unwrap_or_default();
                Reply::Crashed(format!("the implementation exited ({status})"))
            }
        }
    }

    /// Kills the implementation after a crash or a timeout; the next `send` restarts it.
    fn reset(&mut self) {
        if let Some((mut child, _, _)) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
        self.restarts += 1;
    }
}

/// What an answer line said: `Ok(result)`, `Err(code)`, or a protocol violation.
fn read_answer(line: &[u8], id: u64) -> Result<Result<String, String>, String> {
    let v = canonical::parse(line).map_err(|e| format!("answer is not JSON ({e})"))?;
    match v.get("id") {
        Some(Value::Number(n)) if *n == id as f64 => {}
        _ => return Err(format!("answer does not carry id {id}")),
    }
    match (v.get("ok"), v.get("error")) {
        (Some(Value::String(s)), None) => Ok(Ok(s.to_string())),
        (None, Some(Value::String(e))) => Ok(Err(e.to_string())),
        _ => Err("answer has neither a string ok nor a string error".into()),
    }
}

struct Failure {
    label: String,
    request: String,
    expected: String,
    got: String,
}

#[derive(Default)]
struct Tally {
    pass: usize,
    fail: usize,
    failures: Vec<Failure>,
}

fn show_text(s: &str) -> String {
    const MAX: usize = 4000;
    if s.len() <= MAX {
        return s.to_owned();
    }
    let mut cut = MAX;
    while !s.is_char_boundary(cut) {
        cut -= 1;
    }
    format!("{}… ({} bytes in all)", &s[..cut], s.len())
}

fn run(opts: &Options, cases: &[Case], progress: &mut dyn Progress) -> ExitCode {
    let mut imp = Implementation {
        command: opts.command.clone(),
        child: None,
        restarts: 0,
    };
    const MAX_RESTARTS: usize = 20;
    let started = Instant::now();
    progress.start(cases.len() as u64);
    let mut tallies: BTreeMap<String, Tally> = BTreeMap::new();
    let mut gave_up = None;
    let window = opts.window.max(1);
    let mut start = 0;
    while start < cases.len() {
        let end = (start + window).min(cases.len());
        let batch: Vec<(u64, String, Result<String, String>)> = (start..end)
            .map(|i| {
                let id = i as u64 + 1;
                let (req, line) = request_line(&cases[i], id);
                let expected = ops::answer(&req);
                (id, line, expected)
            })
            .collect();
        let mut broken: Option<String> = gave_up
            .is_some()
            .then(|| "not run: the implementation crashed too often".to_owned());
        if broken.is_none() {
            let lines: Vec<String> = batch.iter().map(|(_, l, _)| l.clone()).collect();
            if let Err(m) = imp.send(&lines) {
                broken = Some(format!("CRASH: {m}"));
                imp.reset();
            }
        }
        for (k, (id, line, expected)) in batch.into_iter().enumerate() {
            let case = &cases[start + k];
            let got = match &broken {
                Some(m) => Err(m.clone()),
                None => {
                    let reply = match imp.recv(Duration::from_millis(opts.timeout_ms)) {
                        Reply::Line(l) => Ok(l),
                        Reply::Timeout => {
                            Err(format!("TIMEOUT: no answer within {} ms", opts.timeout_ms))
                        }
                        Reply::Crashed(m) => Err(format!("CRASH: {m}")),
                    };
                    match reply {
                        Ok(l) => read_answer(&l, id)
                            .map_err(|m| format!("PROTOCOL: {m}: {}", String::from_utf8_lossy(&l))),
                        Err(m) => {
                            imp.reset();
                            broken = Some(format!(
                                "not answered: the implementation was restarted after request {id}"
                            ));
                            Err(m)
                        }
                    }
                }
            };
            if imp.restarts > MAX_RESTARTS && gave_up.is_none() {
                gave_up = Some(start + k);
            }
            progress.answered();
            let tally = tallies.entry(case.rule.clone()).or_default();
            if matches!(&got, Ok(answer) if *answer == expected) {
                tally.pass += 1;
            } else {
                tally.fail += 1;
                if tally.failures.len() < opts.show {
                    tally.failures.push(Failure {
                        label: case.label.clone(),
                        request: line,
                        expected: expected_json(&expected),
                        got: match got {
                            Ok(a) => expected_json(&a),
                            Err(m) => m,
                        },
                    });
                }
            }
        }
        start = end;
    }
    imp.stop();
    progress.finish();
    report(
        opts,
        cases.len(),
        &tallies,
        imp.restarts,
        gave_up,
        started.elapsed(),
    )
}

fn report(
    opts: &Options,
    total: usize,
    tallies: &BTreeMap<String, Tally>,
    restarts: usize,
    gave_up: Option<usize>,
    elapsed: Duration,
) -> ExitCode {
    let mut out = String::new();
    let width = tallies.keys().map(String::len).max().unwrap_or(4).max(4);
    out.push_str(&format!(
        "{:width$}  {:>8}  {:>8}  result\n",
        "rule", "agree", "differ"
    ));
    let mut per_op: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    for (rule, t) in tallies {
        let mark = if t.fail == 0 { "ok" } else { "FAIL" };
        out.push_str(&format!(
            "{rule:width$}  {:>8}  {:>8}  {mark}\n",
            t.pass, t.fail
        ));
        // A `call` request counts under `call:NAME` (one row per registry operation).
        let mut parts = rule.split('/');
        let op = match (parts.next(), parts.next()) {
            (Some("call"), Some(name)) => format!("call:{name}"),
            (Some(op), _) => op.to_owned(),
            _ => rule.clone(),
        };
        let e = per_op.entry(op).or_default();
        e.0 += t.pass;
        e.1 += t.fail;
    }
    out.push_str("\nper operation:\n");
    for (op, (p, f)) in &per_op {
        let pct = 100.0 * *p as f64 / (*p + *f).max(1) as f64;
        out.push_str(&format!("  {op:30} {p:>8}/{:<8} {pct:6.2}%\n", p + f));
    }
    let failing: Vec<_> = tallies.iter().filter(|(_, t)| t.fail > 0).collect();
    if !failing.is_empty() {
        out.push_str(&format!(
            "\nfirst differing cases (up to {} per rule):\n",
            opts.show
        ));
        for (rule, t) in &failing {
            for f in &t.failures {
                out.push_str(&format!(
                    "\n[{rule}] {}\n  request:  {}\n  expected: {}\n  got:      {}\n",
                    f.label,
                    show_text(&f.request),
                    show_text(&f.expected),
                    show_text(&f.got)
                ));
            }
        }
    }
    let agree: usize = tallies.values().map(|t| t.pass).sum();
    if restarts > 0 {
        out.push_str(&format!(
            "\nthe implementation crashed or timed out {restarts} time(s) and was restarted\n"
        ));
    }
    if let Some(i) = gave_up {
        out.push_str(&format!(
            "gave up after request {}: every later request counts as differing\n",
            i + 1
        ));
    }
    out.push_str(&format!(
        "\nconformance: {agree}/{total} requests agree ({:.2}%), {} of {} rules fail, seed {}, corpus {}, {:.1} s\n",
        100.0 * agree as f64 / total.max(1) as f64,
        failing.len(),
        tallies.len(),
        opts.seed,
        opts.corpus,
        elapsed.as_secs_f64()
    ));
    let mut stdout = std::io::stdout().lock();
    if stdout
        .write_all(out.as_bytes())
        .and_then(|_| stdout.flush())
        .is_err()
    {
        return ExitCode::from(74);
    }
    if failing.is_empty() && total > 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn serve_text(input: &[u8], max_line: usize) -> String {
        let mut out = Vec::new();
        serve_on(input, &mut out, max_line).expect("in-memory io");
        String::from_utf8(out).expect("utf-8 answers")
    }

    #[test]
    fn serve_answers_line_by_line_and_skips_over_long_lines() {
        let req = br#"{"id":1,"op":"digest","input":"{}"}"#;
        let mut input = req.to_vec();
        input.extend_from_slice(b"\n\n");
        input.extend_from_slice(&[b'x'; 500]);
        input.push(b'\n');
        input.extend_from_slice(&req[..]);
        let out = serve_text(&input, 100);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 3, "{out}");
        assert!(lines[0].starts_with(r#"{"id":1,"ok":""#), "{out}");
        assert_eq!(lines[1], r#"{"id":null,"error":"BAD_REQUEST"}"#);
        assert_eq!(
            lines[2], lines[0],
            "the line after the skipped one is read whole"
        );
        // A line of exactly the limit is read (the newline does not count).
        assert_eq!(serve_text(&input, req.len()).lines().next(), Some(lines[0]));
        assert_eq!(
            serve_text(&input, req.len() - 1).lines().next(),
            Some(lines[1])
        );
    }
}
