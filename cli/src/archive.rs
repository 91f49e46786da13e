//! `ekl receipt verify-archive`: a receipt archive (JSON lines, `ekl_core::batch`) verified on
//! `--jobs` threads, streamed: the archive is read in blocks of whole lines (bounded memory for
//! any size), each block verified by `ekl_core::batch::map_ordered` (the same code as the
//! bindings' batch operations), its lines written in the archive's order. On a terminal a
//! progress bar goes to stderr; the summary always does.

use std::io::{BufRead, BufReader, IsTerminal, Read, Write};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use ekl_core::batch::{self, ArchiveKeys};
use ekl_core::limits::MAX_INPUT_BYTES;
use ekl_core::{canonical, Error, ErrorCode, Value};

use crate::args::ArchiveArgs;
use crate::commands::{jwks_file, key_ring_of, CmdResult};
use crate::input::{unreadable, Inputs};
use crate::Failure;

/// Lines verified per block: enough that the threads stay busy (16 items a take), few enough
/// that a block (and its output) stays small in memory.
const BLOCK_LINES: usize = 4096;
/// Bytes read per block at most (a block ends at the first line end past this).
const BLOCK_BYTES: usize = 8 << 20;

/// One line of the archive as read: its number and bytes, or its length when over the limit.
enum Line {
    Text(usize, Vec<u8>),
    TooLong(usize, u64),
}

/// Reads the next line (without its `\n`) into `buf`, keeping at most `MAX_INPUT_BYTES + 1`
/// bytes of it; returns the line's full length, or `None` at the end.
fn read_line(r: &mut impl BufRead, buf: &mut Vec<u8>) -> std::io::Result<Option<u64>> {
    buf.clear();
    let mut total: u64 = 0;
    let mut any = false;
    loop {
        let chunk = r.fill_buf()?;
        if chunk.is_empty() {
            return Ok(any.then_some(total));
        }
        any = true;
        let (take, end) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (i, true),
            None => (chunk.len(), false),
        };
        let room = (MAX_INPUT_BYTES + 1).saturating_sub(buf.len());
        buf.extend_from_slice(&chunk[..take.min(room)]);
        total += take as u64;
        r.consume(take + usize::from(end));
        if end {
            return Ok(Some(total));
        }
    }
}

fn blank(l: &[u8]) -> bool {
    l.iter().all(|b| matches!(b, b' ' | b'\t' | b'\r'))
}

/// The progress bar on stderr (only on a terminal), redrawn at most every 100 ms.
struct Progress {
    on: bool,
    total_bytes: Option<u64>,
    start: Instant,
    last: Mutex<Instant>,
    items: AtomicUsize,
    bytes: AtomicU64,
}

impl Progress {
    fn tick(&self, items: usize, bytes: u64) {
        self.items.fetch_add(items, Ordering::Relaxed);
        self.bytes.fetch_add(bytes, Ordering::Relaxed);
        if !self.on {
            return;
        }
        let Ok(mut last) = self.last.try_lock() else {
            return;
        };
        if last.elapsed() < Duration::from_millis(100) {
            return;
        }
        *last = Instant::now();
        self.draw();
    }

    fn draw(&self) {
        let items = self.items.load(Ordering::Relaxed);
        let rate = items as f64 / self.start.elapsed().as_secs_f64().max(1e-3);
        let bar = match self.total_bytes {
            Some(total) if total > 0 => {
                let f = (self.bytes.load(Ordering::Relaxed) as f64 / total as f64).min(1.0);
                let full = (f * 30.0).round() as usize;
                format!(
                    "[{}{}] {:>3.0}% ",
                    "#".repeat(full),
                    "-".repeat(30 - full),
                    f * 100.0
                )
            }
            _ => String::new(),
        };
        eprint!("\r\x1b[Kekl: {bar}{items} items, {rate:.0}/s");
    }

    fn clear(&self) {
        if self.on {
            eprint!("\r\x1b[K");
        }
    }
}

/// One output line: `{"line":N,"verdict":V}` or `{"error":{code,message},"line":N}` (canonical
/// JSON), and whether the item was accepted (`None`: refused).
/// With `failures_only`, an accepted item gives no line and a verdict keeps its failing checks
/// alone (those whose outcome is not `pass`).
fn output(
    line: usize,
    r: ekl_core::Result<ekl_core::verdict::Verdict>,
    failures_only: bool,
) -> (Vec<u8>, Option<bool>) {
    let n = Value::Number(line as f64);
    let (v, status) = match r {
        Ok(v) if failures_only && v.accepted => return (Vec::new(), Some(true)),
        Ok(v) => {
            let accepted = v.accepted;
            let mut verdict = v.to_value();
            if failures_only {
                if let Value::Object(members) = &mut verdict {
                    for (k, checks) in members.iter_mut() {
                        if let (true, Value::Array(items)) = (k == "checks", checks) {
                            items.retain(|c| {
                                c.get("outcome").and_then(Value::as_str) != Some("pass")
                            });
                        }
                    }
                }
            }
            (
                Value::Object(vec![("line".into(), n), ("verdict".into(), verdict)]),
                Some(accepted),
            )
        }
        Err(e) => (error_line(n, &e), None),
    };
    let mut out = canonical::canonicalize_value(&v).unwrap_or_else(|_| b"{}".to_vec());
    out.push(b'\n');
    (out, status)
}

fn error_line(n: Value<'static>, e: &Error) -> Value<'static> {
    Value::Object(vec![
        (
            "error".into(),
            Value::Object(vec![
                ("code".into(), Value::from(e.code().as_str())),
                ("message".into(), Value::from(e.message().to_owned())),
            ]),
        ),
        ("line".into(), n),
    ])
}

/// Runs `ekl receipt verify-archive`.
pub fn main(a: ArchiveArgs, io: &Inputs) -> CmdResult {
    let ring = key_ring_of(io, &a.secret, &a.key_ring)?;
    let jwks = a.jwks.as_deref().map(|p| jwks_file(io, p)).transpose()?;
    let keys = ArchiveKeys {
        ring: ring.as_ref(),
        jwks: jwks.as_ref(),
        own_agent_id: a.agent_id.as_deref(),
        network_issuer: a.issuer.as_deref(),
    };
    let jobs = a.jobs.map_or_else(batch::jobs_available, usize::from);
    let (reader, total_bytes): (Box<dyn Read>, Option<u64>) = match a.file.as_deref() {
        None => (Box::new(std::io::stdin()), None),
        Some(p) if p.as_os_str() == "-" => (Box::new(std::io::stdin()), None),
        Some(p) => {
            let f = std::fs::File::open(p).map_err(|_| unreadable("the archive file"))?;
            let size = f.metadata().ok().filter(|m| m.is_file()).map(|m| m.len());
            (Box::new(f), size)
        }
    };
    let mut reader = BufReader::with_capacity(1 << 20, reader);
    let progress = Progress {
        on: !a.no_progress && std::io::stderr().is_terminal(),
        total_bytes,
        start: Instant::now(),
        last: Mutex::new(Instant::now()),
        items: AtomicUsize::new(0),
        bytes: AtomicU64::new(0),
    };
    let mut stdout = std::io::stdout().lock();
    let (mut accepted, mut rejected, mut refused) = (0usize, 0usize, 0usize);
    let mut number = 0usize;
    let mut buf = Vec::new();
    let mut done = false;
    while !done {
        let mut block: Vec<Line> = Vec::with_capacity(BLOCK_LINES);
        let mut bytes = 0usize;
        while block.len() < BLOCK_LINES && bytes < BLOCK_BYTES {
            let Some(len) =
                read_line(&mut reader, &mut buf).map_err(|_| unreadable("the archive"))?
            else {
                done = true;
                break;
            };
            number += 1;
            bytes += buf.len() + 1;
            if len > MAX_INPUT_BYTES as u64 {
                block.push(Line::TooLong(number, len));
            } else if blank(&buf) {
                progress.tick(0, len + 1);
            } else {
                block.push(Line::Text(number, std::mem::take(&mut buf)));
            }
        }
        let out = batch::map_ordered(
            &block,
            jobs,
            |l| match l {
                Line::Text(n, t) => {
                    let r = output(*n, batch::verify_line(t, &keys), a.failures_only);
                    progress.tick(0, t.len() as u64 + 1);
                    r
                }
                Line::TooLong(n, len) => {
                    progress.tick(0, len + 1);
                    output(
                        *n,
                        Err(Error::new(
                            ErrorCode::BodyTooLarge,
                            format!("the item is {len} bytes, over the limit of {MAX_INPUT_BYTES} bytes a line"),
                        )),
                        a.failures_only,
                    )
                }
            },
            &|n| progress.tick(n, 0),
        );
        for (text, status) in out {
            match status {
                Some(true) => accepted += 1,
                Some(false) => rejected += 1,
                None => refused += 1,
            }
            if stdout.write_all(&text).is_err() {
                progress.clear();
                return Err(Failure::Refused(Error::new(
                    ErrorCode::InvalidArgument,
                    "stdout could not be written",
                )));
            }
        }
    }
    if stdout.flush().is_err() {
        progress.clear();
        return Err(Failure::Refused(Error::new(
            ErrorCode::InvalidArgument,
            "stdout could not be written",
        )));
    }
    progress.clear();
    let secs = progress.start.elapsed().as_secs_f64();
    let items = accepted + rejected + refused;
    eprintln!(
        "ekl: {items} items: {accepted} accepted, {rejected} not accepted, {refused} refused; \
         {secs:.2} s on {jobs} thread{} ({:.0} items/s)",
        if jobs == 1 { "" } else { "s" },
        items as f64 / secs.max(1e-9)
    );
    if rejected + refused > 0 {
        Err(Failure::NotAccepted(Vec::new()))
    } else {
        Ok(Vec::new())
    }
}
