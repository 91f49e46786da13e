//! `ekl receipt verify-archive`: a receipt archive (JSON lines, `ekl_core::batch`) verified on
//! `--jobs` threads, streamed: the archive is read in blocks of whole lines (bounded memory for
//! any size), each block verified by `ekl_core::batch::map_ordered` (the same code as the
//! bindings' batch operations), its lines written in the archive's order: JSON lines, or on a
//! terminal one line for people per item (cli/src/human.rs). When stderr is a terminal a progress
//! line goes there (cli/src/progress.rs); the summary always does.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};

use ekl_core::batch::{self, ArchiveKeys};
use ekl_core::limits::MAX_INPUT_BYTES;
use ekl_core::{Error, ErrorCode};

use crate::args::ArchiveArgs;
use crate::commands::{jwks_file, key_ring_of, CmdResult};
use crate::human::{self, Format};
use crate::input::{unreadable_because, Inputs};
use crate::progress::{self, Progress};
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

/// The size of stdin when it is a regular file (`ekl receipt verify-archive < archive.jsonl`),
/// for the progress line's share done and time left; `None` for a pipe or a terminal.
#[cfg(unix)]
fn stdin_size() -> Option<u64> {
    use std::os::fd::AsFd;
    let fd = std::io::stdin().as_fd().try_clone_to_owned().ok()?;
    let meta = std::fs::File::from(fd).metadata().ok()?;
    meta.is_file().then_some(meta.len())
}

/// Elsewhere the size of stdin is not looked for: no share done, no time left.
#[cfg(not(unix))]
fn stdin_size() -> Option<u64> {
    None
}

fn blank(l: &[u8]) -> bool {
    l.iter().all(|b| matches!(b, b' ' | b'\t' | b'\r'))
}

/// One output line: `{"line":N,"verdict":V}` or `{"error":{code,message},"line":N}` (canonical
/// JSON), and whether the item was accepted (`None`: refused).
/// With `failures_only`, an accepted item gives no line and a verdict keeps its failing checks
/// alone (those whose outcome is not `pass`).
/// For people (`format` human): `line N, label "L": ACCEPTED`, `line N, label "L", receipt R,
/// execution E: NOT ACCEPTED: id (words); ...` or `line N, ...: REFUSED: CODE: message` (the
/// label and ids the item holds, [`human::item_ids`]); the failing checks' ids are returned for
/// the tally.
fn output(
    line: usize,
    item: Option<&[u8]>,
    r: ekl_core::Result<ekl_core::verdict::Verdict>,
    failures_only: bool,
    format: Format,
) -> (Vec<u8>, Option<bool>, Vec<&'static str>) {
    let failed = match &r {
        Ok(v) => v.failed(),
        Err(_) => Vec::new(),
    };
    if format == Format::Human {
        let (text, status) = match &r {
            Ok(v) if failures_only && v.accepted => return (Vec::new(), Some(true), failed),
            Ok(v) => (human::verdict_line(v), Some(v.accepted)),
            Err(e) => (
                format!("REFUSED: {}: {}", e.code().as_str(), e.message()),
                None,
            ),
        };
        // An item is named by its label; one that did not pass by its ids too (its line alone
        // is hard to find).
        let ids = item
            .map(|i| human::item_ids(i, status != Some(true)))
            .unwrap_or_default();
        return (
            format!("line {line}{ids}: {text}\n").into_bytes(),
            status,
            failed,
        );
    }
    let (bytes, status) = batch::output_line(line, r, failures_only);
    (bytes, status, failed)
}

/// Runs `ekl receipt verify-archive`.
pub(crate) fn main(a: ArchiveArgs, io: &Inputs, format: Format) -> CmdResult {
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
        None => (Box::new(std::io::stdin()), stdin_size()),
        Some(p) if p.as_os_str() == "-" => (Box::new(std::io::stdin()), stdin_size()),
        Some(p) => {
            let f =
                std::fs::File::open(p).map_err(|e| unreadable_because("the archive file", &e))?;
            let size = f.metadata().ok().filter(|m| m.is_file()).map(|m| m.len());
            (Box::new(f), size)
        }
    };
    let mut reader = BufReader::with_capacity(1 << 20, reader);
    let progress = Progress::new(progress::wanted(a.no_progress), "ekl", total_bytes);
    let mut tally: BTreeMap<&'static str, usize> = BTreeMap::new();
    let mut stdout = std::io::stdout().lock();
    let (mut accepted, mut rejected, mut refused) = (0usize, 0usize, 0usize);
    let mut number = 0usize;
    let mut buf = Vec::new();
    let mut done = false;
    while !done {
        let mut block: Vec<Line> = Vec::with_capacity(BLOCK_LINES);
        let mut bytes = 0usize;
        while block.len() < BLOCK_LINES && bytes < BLOCK_BYTES {
            let Some(len) = read_line(&mut reader, &mut buf)
                .map_err(|e| unreadable_because("the archive", &e))?
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
                    let r = output(
                        *n,
                        Some(t),
                        batch::verify_line(t, &keys),
                        a.failures_only,
                        format,
                    );
                    progress.tick(0, t.len() as u64 + 1);
                    r
                }
                Line::TooLong(n, len) => {
                    progress.tick(0, len + 1);
                    output(
                        *n,
                        None,
                        Err(Error::new(
                            ErrorCode::BodyTooLarge,
                            format!("the item is {len} bytes, over the limit of {MAX_INPUT_BYTES} bytes a line"),
                        )),
                        a.failures_only,
                        format,
                    )
                }
            },
            &|n| progress.tick(n, 0),
        );
        for (text, status, failed) in out {
            for id in failed {
                *tally.entry(id).or_default() += 1;
            }
            match status {
                Some(true) => accepted += 1,
                Some(false) => rejected += 1,
                None => refused += 1,
            }
            if stdout.write_all(&text).is_err() {
                progress.clear();
                return Err(Failure::Io("stdout could not be written".into()));
            }
        }
    }
    if format == Format::Human && !tally.is_empty() {
        let mut counted: Vec<(&str, usize)> = tally.into_iter().collect();
        counted.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
        let width = counted.iter().map(|(id, _)| id.len()).max().unwrap_or(0);
        let mut text = String::from("checks that did not pass, by count:\n");
        for (id, count) in counted {
            let words = ekl_core::verdict::check_words(id).unwrap_or("");
            text.push_str(&format!("  {count:>8}  {id:width$}  {words}\n"));
        }
        if stdout.write_all(text.as_bytes()).is_err() {
            progress.clear();
            return Err(Failure::Io("stdout could not be written".into()));
        }
    }
    if stdout.flush().is_err() {
        progress.clear();
        return Err(Failure::Io("stdout could not be written".into()));
    }
    progress.clear();
    let secs = progress.started().elapsed().as_secs_f64();
    let items = accepted + rejected + refused;
    say!(
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
