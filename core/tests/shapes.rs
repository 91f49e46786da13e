//! Argument shapes (core/src/shape.rs): one strictness rule, unknown members refused naming the
//! member and the allowed ones (docs/decisions.md#shapes).

use ekl_core::canonical::parse;
use ekl_core::digest::Commitment;
use ekl_core::receipt::{CallExpectation, KeyRing};
use ekl_core::receipt_sig::CallContext;
use ekl_core::ErrorCode;

const CALL: &str = r#"{"execution_id":"e","collaboration_id":"c","capability_id":"k","requester_agent_id":"r","provider_agent_id":"p"}"#;

#[test]
fn call_expectation_reads_wire_names_and_refuses_others() {
    let call = CallExpectation::from_value(&parse(CALL.as_bytes()).unwrap()).unwrap();
    assert_eq!(call.execution_id, "e");
    assert_eq!(call.terms_hash, None);
    let with_null = CALL.replace("}", r#","terms_hash":null}"#);
    assert!(CallExpectation::from_value(&parse(with_null.as_bytes()).unwrap()).is_ok());
    let camel = CALL.replace("execution_id", "executionId");
    let e = CallExpectation::from_value(&parse(camel.as_bytes()).unwrap()).unwrap_err();
    assert_eq!(e.code(), ErrorCode::InvalidArgument);
    assert!(e.message().contains("\"executionId\""), "{}", e.message());
    assert!(
        e.message().contains("execution_id, collaboration_id"),
        "{}",
        e.message()
    );
    let missing = r#"{"execution_id":"e"}"#;
    let e = CallExpectation::from_value(&parse(missing.as_bytes()).unwrap()).unwrap_err();
    assert!(
        e.message().contains("collaboration_id is required"),
        "{}",
        e.message()
    );
    let number = CALL.replace(r#""e""#, "1");
    assert!(CallExpectation::from_value(&parse(number.as_bytes()).unwrap()).is_err());
    assert!(CallExpectation::from_value(&parse(b"[]").unwrap()).is_err());
}

#[test]
fn call_context_refuses_unknown_members() {
    let ok = r#"{"execution_id":"e","provider_agent_id":"p","requester_agent_id":"r","capability_id":"c","input_fingerprint":"f","own_agent_id":"o","network_issuer":"n","sent_at":1,"received_at":2}"#;
    let v = parse(ok.as_bytes()).unwrap();
    assert_eq!(CallContext::from_value(&v).unwrap().received_at, 2);
    let extra = ok.replace("}", r#","sentAt":1}"#);
    let v = parse(extra.as_bytes()).unwrap();
    let e = CallContext::from_value(&v).unwrap_err();
    assert!(e.message().contains("\"sentAt\""), "{}", e.message());
    let fraction = ok.replace(r#""sent_at":1"#, r#""sent_at":1.5"#);
    let v = parse(fraction.as_bytes()).unwrap();
    assert!(CallContext::from_value(&v).is_err());
}

#[test]
fn key_ring_forms() {
    let one = KeyRing::from_value(&parse(br#""secret""#).unwrap()).unwrap();
    assert_eq!(one.entries().len(), 1);
    let list = br#"[{"key_id":"rk-1","secret":"a","valid_from":"2026-01-01T00:00:00Z","valid_until":null},{"key_id":"rk-2","secret":"b","valid_from":"2026-06-01T00:00:00Z"}]"#;
    assert_eq!(
        KeyRing::from_value(&parse(list).unwrap())
            .unwrap()
            .entries()
            .len(),
        2
    );
    for bad in [
        &b"[]"[..],
        b"{}",
        b"1",
        br#"[{"keyId":"x","secret":"a","valid_from":"2026-01-01T00:00:00Z"}]"#,
    ] {
        let e = KeyRing::from_value(&parse(bad).unwrap()).unwrap_err();
        assert_eq!(
            e.code(),
            ErrorCode::InvalidArgument,
            "{}",
            String::from_utf8_lossy(bad)
        );
    }
}

#[test]
fn commitment_form() {
    let c = br#"{"alg":"sha-256","canon":"ekl-json-1","digest":"00","salt_id":null}"#;
    assert_eq!(
        Commitment::from_value(&parse(c).unwrap()).unwrap().salt_id,
        None
    );
    let bad = br#"{"alg":"sha-256","canon":"ekl-json-1","digest":"00","Salt":"x"}"#;
    assert!(Commitment::from_value(&parse(bad).unwrap())
        .unwrap_err()
        .message()
        .contains("\"Salt\""));
    let alg = br#"{"alg":"sha-512","canon":"ekl-json-1","digest":"00"}"#;
    assert!(Commitment::from_value(&parse(alg).unwrap()).is_err());
}

/// A `salt_id` names the salt of a salted commitment: given without the salt, the commitment
/// would name a salt its digest does not use (the CLI's `commit` refused it; `call commitment`
/// wrote it).
#[test]
fn a_salt_id_needs_a_salt() {
    let v = parse(b"[1]").unwrap();
    for e in [
        ekl_core::digest::commitment(&v, None, Some("s1")).unwrap_err(),
        ekl_core::digest::input_commitment(&v, None, Some("s1")).unwrap_err(),
    ] {
        assert_eq!(e.code(), ErrorCode::InvalidArgument);
    }
    let salt = ekl_core::digest::Salt::from_hex(&"ab".repeat(32)).unwrap();
    let c = ekl_core::digest::commitment(&v, Some(&salt), Some("s1")).unwrap();
    assert_eq!(c.salt_id.as_deref(), Some("s1"));
}

#[test]
fn unknown_member_names_are_bounded_and_escaped() {
    let long = format!(r#"{{"{}\n":1}}"#, "x".repeat(500));
    let e = CallExpectation::from_value(&parse(long.as_bytes()).unwrap()).unwrap_err();
    assert!(e.message().len() < 400, "{}", e.message());
    assert!(e.message().contains("\\n") || e.message().contains('…'));
}

/// A Python SDK object dumped by field names (pydantic `model_dump()` without `by_alias`) is
/// refused with a message naming the right call, never fingerprinted as something else
/// (docs/decisions.md, B10).
#[test]
fn sdk_objects_dumped_by_field_names_are_refused() {
    use ekl_core::digest::Salt;
    use ekl_core::fingerprint::{output_fingerprint, select_result_body, upstream_fingerprint};
    let salt = Salt::from_hex("00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff")
        .expect("a valid salt");
    fn v(s: &str) -> ekl_core::Value<'_> {
        parse(s.as_bytes()).expect("valid JSON")
    }
    // CallToolResult.model_dump(): structured_content, and content with None members
    for text in [
        r#"{"meta":null,"content":[{"type":"text","text":"{}","annotations":null,"meta":null}],"structured_content":{"n":1},"is_error":false}"#,
        r#"{"content":[{"type":"text","text":"ok"}],"structured_content":null,"is_error":false}"#,
        r#"{"content":[],"structuredContent":null,"structured_content":{"n":1}}"#,
    ] {
        let e = output_fingerprint(&salt, &v(text)).unwrap_err();
        assert_eq!(e.code(), ErrorCode::InvalidShape, "{text}");
        assert!(e.message().contains("by_alias=True"), "{}", e.message());
        assert!(select_result_body(&v(text)).is_err());
    }
    // the wire's names: structuredContent wins; content when there is none
    assert!(output_fingerprint(
        &salt,
        &v(r#"{"content":[],"structuredContent":{"n":1},"structured_content":1}"#)
    )
    .is_ok());
    assert!(output_fingerprint(&salt, &v(r#"{"content":[],"isError":false}"#)).is_ok());
    // ListToolsResult.model_dump(): input_schema
    let dumped = r#"{"meta":null,"next_cursor":null,"tools":[{"name":"a","title":null,"description":"d","input_schema":{"type":"object"},"output_schema":null,"annotations":null}]}"#;
    let e = upstream_fingerprint(&v(dumped), None).unwrap_err();
    assert_eq!(e.code(), ErrorCode::InvalidShape);
    assert!(e.message().contains("by_alias=True"), "{}", e.message());
    // refused whether or not that tool is offered (every tool of the list is read)
    assert!(upstream_fingerprint(&v(dumped), Some(&["b"])).is_err());
    let wire = r#"{"tools":[{"name":"a","description":"d","inputSchema":{"type":"object"},"input_schema":1}]}"#;
    assert!(upstream_fingerprint(&v(wire), None).is_ok());
}
