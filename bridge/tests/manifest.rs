//! The checked-in docs/operations.json is what the registry generates (EKL_BLESS=1 rewrites it).

use std::path::PathBuf;

#[test]
fn operations_json_is_fresh() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../docs/operations.json");
    let want = ekl_bridge::manifest::operations_json();
    if std::env::var_os("EKL_BLESS").is_some() {
        std::fs::write(&path, &want).expect("write docs/operations.json");
    }
    let have = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        have == want,
        "docs/operations.json is stale: run `EKL_BLESS=1 cargo test --release -p ekl-bridge --test manifest`"
    );
}

#[test]
fn names_are_unique_and_params_ordered() {
    let mut seen = std::collections::HashSet::new();
    for op in ekl_bridge::OPERATIONS {
        assert!(seen.insert(op.name), "{} twice", op.name);
        assert!(seen.insert(op.python_name()) || op.class.is_none() || op.python_name() == op.name);
        let first_optional = op
            .params
            .iter()
            .position(|p| !p.required)
            .unwrap_or(op.params.len());
        assert!(
            op.params[first_optional..].iter().all(|p| !p.required),
            "{}: required parameters come first",
            op.name
        );
    }
}
