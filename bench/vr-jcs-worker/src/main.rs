//! vr-jcs in its own process (see Cargo.toml): the strict path its documentation recommends for
//! untrusted JSON, `to_canon_bytes_from_slice`.

#[path = "../../src/corpus.rs"]
#[allow(dead_code)]
mod corpus;
#[path = "../../src/worker.rs"]
#[allow(dead_code)]
mod worker;

fn vr_jcs(d: &[u8]) -> Result<Vec<u8>, String> {
    vr_jcs::to_canon_bytes_from_slice(d).map_err(|e| e.to_string())
}

fn main() {
    worker::serve(vr_jcs);
}
