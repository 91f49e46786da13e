//! Fuzz target: arbitrary bytes as a tool result for the local screening (PROTOCOL §15.5).
//!
//! The result is scanned with fixed rules and without rules. Invariants: flags sorted and unique per
//! (category, rules_version); the rules' flags are a superset of the local-only ones; no flag holds
//! text from the input. Each string of the result also goes through `fold`, `leak_pattern` and
//! `Timestamp::parse`. Panics, hangs and runaway memory are the findings.
#![no_main]

use ekl_core::screening::{self, ScreeningRules};
use ekl_core::timestamp::Timestamp;
use ekl_core::{canonical, Value};
use libfuzzer_sys::fuzz_target;

const RULES: &[u8] = br#"{"rules_version":"fz-1","rules":[
  {"rule_id":"a","category":"x","phrases":["secret recipe","stra\u00dfe"]},
  {"rule_id":"b","category":"y","phrases":["\uff37\uff29\uff2e","\ufb01"]},
  {"rule_id":"c","category":"x","phrases":["\u03a3\u039f\u03a3"]}]}"#;

fuzz_target!(|data: &[u8]| {
    let Ok(result) = canonical::parse(data) else {
        return;
    };
    let rules = ScreeningRules::from_claims(&canonical::parse(RULES).expect("rules parse"))
        .expect("rules valid");
    let with_rules = screening::scan(Some(&rules), &result);
    let local = screening::scan(None, &result);
    for flags in [&with_rules, &local] {
        for w in flags.windows(2) {
            assert!(
                (w[0].category.as_str(), w[0].rules_version.as_str())
                    < (w[1].category.as_str(), w[1].rules_version.as_str()),
                "flags not sorted and unique"
            );
        }
    }
    for f in &local {
        assert!(with_rules.contains(f), "a local flag vanished with rules");
    }
    let mut stack = vec![&result];
    while let Some(v) = stack.pop() {
        match v {
            Value::String(s) => {
                let _ = screening::fold(s);
                let _ = screening::leak_pattern(s);
                let _ = Timestamp::parse(s);
            }
            Value::Array(items) => stack.extend(items.iter()),
            Value::Object(members) => stack.extend(members.iter().map(|(_, v)| v)),
            _ => {}
        }
    }
});
