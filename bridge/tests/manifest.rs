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

/// Every handle class has its constructor (a row with `class`, returning the handle) and at
/// least one method; every row with a `handle` parameter is a method of its class (`self` first).
#[test]
fn every_handle_class_has_a_constructor_and_methods() {
    use ekl_bridge::{Kind, Returns, HANDLES, OPERATIONS};
    for h in HANDLES {
        let new = ekl_bridge::find(h.prefix).expect("the constructor row");
        assert_eq!(new.class, Some(h.name));
        assert_eq!(new.returns, Returns::Handle(h.name));
        assert!(OPERATIONS
            .iter()
            .any(|op| op.method_of().is_some_and(|(c, _)| c.name == h.name)));
    }
    for op in OPERATIONS {
        let handles = op
            .params
            .iter()
            .filter(|p| matches!(p.kind, Kind::Handle(_)))
            .count();
        assert_eq!(
            handles,
            usize::from(op.method_of().is_some()),
            "{}: a handle parameter is the `self` of a method row, and only that",
            op.name
        );
    }
}

/// Every `returns` of the registry that names a JSON object is a declared shape, every type a
/// member names is one the hosts translate, and a shape comes after those it names.
#[test]
fn every_result_shape_is_declared_and_its_types_are_known() {
    use ekl_bridge::shapes::{find, SHAPES};
    let not_shapes = [
        "str",
        "bool",
        "bytes",
        "Verdicts",
        "Jwks",
        "SigningKey",
        "KeySet",
        "JsonValue",
    ];
    for op in ekl_bridge::OPERATIONS {
        let name = op.returns.as_str().trim_end_matches("[]");
        let handle = matches!(op.returns, ekl_bridge::Returns::Handle(_));
        assert!(
            handle || not_shapes.contains(&name) || find(name).is_some(),
            "{}: returns {name}, which bridge/src/shapes.rs does not declare",
            op.name
        );
    }
    let mut seen = std::collections::HashSet::new();
    for shape in SHAPES {
        if let Some(base) = shape.extends {
            assert!(
                seen.contains(base),
                "{} extends {base}, declared after it",
                shape.name
            );
        }
        for m in shape.members {
            for alt in m.ty.split(" | ") {
                let t = alt.trim_end_matches("[]");
                let builtin = ["str", "int", "bool", "null", "json", "object", "error"];
                let literal = t.len() > 2 && t.starts_with('\'') && t.ends_with('\'');
                assert!(
                    builtin.contains(&t) || literal || seen.contains(t),
                    "{}.{}: unknown type {alt:?}",
                    shape.name,
                    m.name
                );
            }
        }
        assert!(seen.insert(shape.name), "{} declared twice", shape.name);
    }
}

/// The check of a result against its declared shape refuses an undeclared member, a missing
/// required one and a value of another type.
#[test]
fn a_result_that_differs_from_its_shape_is_refused() {
    use ekl_core::Value;
    let body = |extra: Option<(&str, Value<'static>)>| {
        let mut m = vec![
            ("member".into(), Value::String("content".into())),
            ("value".into(), Value::Null),
        ];
        m.extend(extra.map(|(k, v)| (k.to_owned().into(), v)));
        Value::Object(m)
    };
    let check = |v: &Value<'_>| ekl_bridge::shapes::check("ResultBody", v, "$");
    assert_eq!(check(&body(None)), Ok(()));
    let err = check(&body(Some(("extra", Value::Bool(true))))).unwrap_err();
    assert!(err.contains("$.extra: not a member of ResultBody"), "{err}");
    let wrong = Value::Object(vec![("member".into(), Value::String("other".into()))]);
    assert!(check(&wrong).is_err());
    let missing = Value::Object(vec![("member".into(), Value::String("content".into()))]);
    assert!(check(&missing).unwrap_err().contains("missing"));
}
