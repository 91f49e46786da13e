//! MCP over stdio: the server is a child process; one JSON-RPC message a line each way. A thread
//! reads the child's stdout line by line (each line at most [`super::MAX_MESSAGE_BYTES`]; a longer
//! one stops the exchange in bounded memory) and another writes to its stdin, so that every read
//! and every write is held to the deadline (a server that stops reading its input while it keeps
//! sending requests cannot hold the client past `--timeout`). The child's stderr is passed
//! through. When the transport is dropped the child's stdin is closed (MCP's shutdown for stdio),
//! and the child is killed unless it has exited within a second.

use std::ffi::OsString;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, Command, Stdio as Pipe};
use std::sync::mpsc::{channel, sync_channel, Receiver, RecvTimeoutError, Sender};
use std::time::{Duration, Instant};

use ekl_core::mcp::Window;
use ekl_core::{Error, ErrorCode, Value};

use super::{route, McpFailure, Routed, Step, Transport, MAX_MESSAGE_BYTES};

/// What the reader thread saw.
enum Line {
    /// One line without its line end.
    Text(Vec<u8>),
    /// A line longer than the cap.
    TooLong,
    /// The end of the child's stdout, or a read error.
    End,
}

/// A child process speaking MCP on its stdin and stdout.
pub(super) struct Stdio {
    child: Child,
    /// The lines to write (the writer thread owns the child's stdin; dropping this closes it).
    writes: Option<Sender<Vec<u8>>>,
    /// One acknowledgement a line written (`false`: the write failed).
    written: Receiver<bool>,
    lines: Receiver<Line>,
}

impl Stdio {
    /// Starts `command` (the program and its arguments).
    pub(super) fn spawn(command: &[OsString]) -> Result<Stdio, McpFailure> {
        let (program, args) = command.split_first().expect("a command is given");
        let mut child = Command::new(program)
            .args(args)
            .stdin(Pipe::piped())
            .stdout(Pipe::piped())
            .stderr(Pipe::inherit())
            .spawn()
            .map_err(|e| {
                McpFailure::Unavailable(format!(
                    "the server command could not be started ({})",
                    e.kind()
                ))
            })?;
        let stdout = child.stdout.take().expect("piped");
        let mut stdin = child.stdin.take().expect("piped");
        let (writes, jobs) = channel::<Vec<u8>>();
        let (done, written) = channel();
        std::thread::spawn(move || {
            for line in jobs {
                let ok = stdin.write_all(&line).and_then(|()| stdin.flush()).is_ok();
                if done.send(ok).is_err() || !ok {
                    return;
                }
            }
        });
        // A few lines in flight at most: the reader waits while the client is busy.
        let (tx, rx) = sync_channel(4);
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            loop {
                let mut line = Vec::new();
                let read = (&mut reader)
                    .take(MAX_MESSAGE_BYTES as u64 + 2)
                    .read_until(b'\n', &mut line);
                let msg = match read {
                    Ok(0) | Err(_) => Line::End,
                    Ok(_) => {
                        let ended = line.last() == Some(&b'\n');
                        if ended {
                            line.pop();
                            if line.last() == Some(&b'\r') {
                                line.pop();
                            }
                        }
                        if line.len() > MAX_MESSAGE_BYTES {
                            Line::TooLong
                        } else {
                            Line::Text(line)
                        }
                    }
                };
                let last = !matches!(msg, Line::Text(_));
                if tx.send(msg).is_err() || last {
                    return;
                }
            }
        });
        Ok(Stdio {
            child,
            writes: Some(writes),
            written,
            lines: rx,
        })
    }

    /// Writes one line, waiting for the write until `deadline` at most.
    fn send(&mut self, body: &[u8], deadline: Instant) -> Result<(), McpFailure> {
        let mut line = Vec::with_capacity(body.len() + 1);
        line.extend_from_slice(body);
        line.push(b'\n');
        let queued = self.writes.as_ref().is_some_and(|w| w.send(line).is_ok());
        if !queued {
            return Err(self.gone("its input closed"));
        }
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.written.recv_timeout(wait) {
            Ok(true) => Ok(()),
            Ok(false) | Err(RecvTimeoutError::Disconnected) => Err(self.gone("its input closed")),
            Err(RecvTimeoutError::Timeout) => Err(McpFailure::Timeout(
                "the server stopped reading its input (a write did not finish before the \
                 deadline, --timeout)"
                    .into(),
            )),
        }
    }

    /// The child stopped talking: say how it ended if it has.
    fn gone(&mut self, what: &str) -> McpFailure {
        // Give an exiting child a moment, so the status can be told.
        let until = Instant::now() + Duration::from_millis(500);
        let status = loop {
            match self.child.try_wait() {
                Ok(Some(s)) => break Some(s),
                Ok(None) if Instant::now() < until => std::thread::sleep(Duration::from_millis(10)),
                _ => break None,
            }
        };
        McpFailure::Unavailable(match status {
            Some(s) => format!("the server ended ({s}): {what}"),
            None => format!("the server stopped answering: {what}"),
        })
    }
}

impl Transport for Stdio {
    fn notify(&mut self, body: &[u8], deadline: Instant) -> Result<(), McpFailure> {
        self.send(body, deadline)
    }

    fn request(
        &mut self,
        window: &mut Window,
        body: &[u8],
        step: Step,
        deadline: Instant,
    ) -> Result<(Value<'static>, usize), McpFailure> {
        self.send(body, deadline)?;
        loop {
            let wait = deadline.saturating_duration_since(Instant::now());
            let line = match self.lines.recv_timeout(wait) {
                Ok(Line::Text(l)) => l,
                Ok(Line::TooLong) => {
                    return Err(McpFailure::Refused(Error::new(
                        ErrorCode::BodyTooLarge,
                        format!(
                            "a message of the server holds more than {MAX_MESSAGE_BYTES} bytes \
                             (the limit of this input)"
                        ),
                    )))
                }
                Ok(Line::End) | Err(RecvTimeoutError::Disconnected) => {
                    return Err(self.gone(&format!("its output ended before the answer to {step}")))
                }
                Err(RecvTimeoutError::Timeout) => {
                    return Err(McpFailure::Timeout(format!(
                        "no answer to {step} before the deadline (--timeout)"
                    )))
                }
            };
            if line.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            match route(window, &line, step)? {
                Routed::Response(v) => return Ok((v, line.len())),
                Routed::Request(answer) => self.send(&answer, deadline)?,
                Routed::Other => {}
            }
        }
    }
}

impl Drop for Stdio {
    fn drop(&mut self) {
        // The writer thread ends with its queue, closing the child's stdin (unless it is stuck
        // in a write to a child that stopped reading: that child is killed below).
        drop(self.writes.take());
        let until = Instant::now() + Duration::from_secs(1);
        while Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
