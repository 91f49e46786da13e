//! Machines as handles (docs/decisions/handles.md): a mutable protocol machine of the core lives
//! in one [`Handle`] that a host holds as an object (a pyo3 class, a napi class, a wasm-bindgen
//! class); each of its methods is a registry row whose first parameter is `self`, of kind
//! [`crate::Kind::Handle`]. The state never leaves the handle: no host sends it back and forth,
//! so nothing re-reads a state a caller could have forged.
//!
//! The handle carries its own lock: a method runs under it from start to end, so a host may call
//! it from any thread (Python's threads, Node's thread pool) and the machine sees one call at a
//! time. A method never blocks on I/O (the core does none), so the lock is held for microseconds.

use std::sync::{Mutex, MutexGuard};

use ekl_core::remote_jwks;

/// A handle class of the registry: its host name, the prefix of its rows' wire names (a method
/// row is `{prefix}_{method}`; the constructor row is `{prefix}`) and its documentation.
#[derive(Clone, Copy, Debug)]
pub struct HandleClass {
    /// The class name on every host (`RemoteJwksPolicy`).
    pub name: &'static str,
    /// The constructor's wire name, and the prefix of its methods' wire names.
    pub prefix: &'static str,
    /// One paragraph for the hosts' documentation.
    pub doc: &'static str,
}

/// Every handle class, in the order of `docs/operations.json`'s `handles`.
pub static HANDLES: &[HandleClass] = &[HandleClass {
    name: "RemoteJwksPolicy",
    prefix: "remote_jwks_policy",
    doc: "The cache policy of a network's key set fetched over HTTP(S) (PROTOCOL §3, §9.5.1; \
          ekl_core::remote_jwks), holding its state and the last good set. A host's RemoteJwks \
          drives it in one loop: ask (need, kid), do the I/O it names (fetch, follow, read), \
          report (response, body, failed).",
}];

/// The machine inside a handle.
#[derive(Debug)]
pub(crate) enum Machine {
    /// `RemoteJwksPolicy`.
    RemoteJwksPolicy(remote_jwks::State),
}

/// A machine's handle: the machine behind its lock.
#[derive(Debug)]
pub struct Handle {
    class: &'static str,
    machine: Mutex<Machine>,
}

impl Handle {
    pub(crate) fn new(machine: Machine) -> Handle {
        let class = match &machine {
            Machine::RemoteJwksPolicy(_) => "RemoteJwksPolicy",
        };
        Handle {
            class,
            machine: Mutex::new(machine),
        }
    }

    /// The handle's class name (a [`HandleClass::name`]).
    pub fn class(&self) -> &'static str {
        self.class
    }

    /// The machine, locked for one method. A method that panicked (none can: the hosts catch
    /// a panic as `INTERNAL_ERROR`) leaves the lock poisoned; the machine is then used as left,
    /// each of its transitions being a whole assignment.
    pub(crate) fn lock(&self) -> MutexGuard<'_, Machine> {
        self.machine.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// The handle class a parameter kind names, if any.
pub fn class_of(name: &str) -> Option<&'static HandleClass> {
    HANDLES.iter().find(|h| h.name == name)
}

#[cfg(test)]
mod tests {
    fn assert_send_sync<T: Send + Sync>() {}

    #[test]
    fn a_handle_may_be_shared_between_threads() {
        assert_send_sync::<super::Handle>();
    }
}
