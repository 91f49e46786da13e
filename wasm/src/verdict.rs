//! Verdicts as JSON for the binding (shared by the receipt modules).

use ekl_core::Value;

/// A verdict as JSON: `{"accepted", "checks": [{"name", "outcome"[, "detail"]}], "receipt_digest"}`.
pub fn verdict_value(v: &ekl_core::verdict::Verdict) -> Value<'static> {
    let checks = v
        .checks
        .iter()
        .map(|c| {
            let mut m = vec![
                ("name".into(), Value::from(c.name)),
                ("outcome".into(), Value::from(c.outcome.as_str())),
            ];
            if let Some(d) = &c.detail {
                m.push(("detail".into(), Value::from(d.clone())));
            }
            Value::Object(m)
        })
        .collect();
    Value::Object(vec![
        ("accepted".into(), Value::Bool(v.accepted)),
        ("checks".into(), Value::Array(checks)),
        (
            "receipt_digest".into(),
            v.receipt_digest.clone().map_or(Value::Null, Value::from),
        ),
    ])
}
