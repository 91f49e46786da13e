//! The registry's rows of one domain: screening: the network's rules, the local leak patterns, the text fold (PROTOCOL §15.5).

use super::*;

/// This domain's operations, in manifest order.
pub(super) const OPS: &[Op] = &[
    Op {
        name: "screening_rules",
        class: None,
        section: "§15.5",
        doc: "The screening rules of a rules token's claims, validated: {rules_version, rules}.",
        params: &[req("claims", Value, "the claims (rules_version, rules)")],
        returns: Returns::Value("ScreeningRules"),
        refine: None,
        run: |a| {
            Ok(Out::Value(rules_value(&ScreeningRules::from_claims(
                &*a.value("claims")?,
            )?)))
        },
    },
    Op {
        name: "screen",
        class: None,
        section: "§15.5",
        doc: "The safety flags of a tool result: the network's rules (when given) and the local \
              leak patterns.",
        params: &[
            req("result", Value, "the tool result"),
            opt(
                "rules",
                Value,
                "the screening rules ({rules_version, rules})",
            )
            .refine("ScreeningRules | json"),
        ],
        returns: Returns::Value("SafetyFlag[]"),
        refine: None,
        run: |a| {
            let rules = a
                .opt_value("rules")?
                .map(|r| ScreeningRules::from_claims(&r))
                .transpose()?;
            let result = a.value("result")?;
            canonical::canonicalize_value(&result)?;
            let flags = screening::scan(rules.as_ref(), &result);
            Ok(Out::Value(Value::Array(
                flags.iter().map(|f| f.to_value()).collect(),
            )))
        },
    },
    Op {
        name: "screening_fold",
        class: None,
        section: "§15.5",
        doc: "The screening fold of a text (NFKC, full case folding).",
        params: &[req("text", Str, "the text")],
        returns: Returns::Str,
        refine: None,
        run: |a| s(screening::fold(a.str("text")?)),
    },
];
