//! The checked-in docs/operations.json and docs/errors.json are what the registry and the core's
//! error table generate (EKL_BLESS=1 rewrites them).

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
fn errors_json_is_fresh() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../docs/errors.json");
    let want = ekl_bridge::manifest::errors_json();
    if std::env::var_os("EKL_BLESS").is_some() {
        std::fs::write(&path, &want).expect("write docs/errors.json");
    }
    let have = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        have == want,
        "docs/errors.json is stale: run `EKL_BLESS=1 cargo test --release -p ekl-bridge --test manifest`"
    );
}

#[test]
fn errors_json_lists_every_code_with_its_meaning() {
    let json = ekl_bridge::manifest::errors_json();
    let mut from = 0;
    for code in ekl_core::ErrorCode::ALL {
        // In declaration order, each with its meaning on the line after it.
        let needle = format!("{{\"code\": \"{}\"", code.as_str());
        let at = json[from..].find(&needle).map(|i| i + from);
        let at = at.unwrap_or_else(|| panic!("{} missing or out of order", code.as_str()));
        assert!(json[at..].contains(&format!("\"meaning\": \"{}", &code.meaning()[..10])));
        from = at + needle.len();
    }
    assert!(
        json.contains(r#""code": "INPUT_TOO_DEEP", "rust": "InputTooDeep", "protocol": "§2.5""#)
    );
    assert!(json.contains(r#""code": "INVALID_JSON", "rust": "InvalidJson", "protocol": null"#));
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
