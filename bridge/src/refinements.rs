//! The named refinements of parameter and result types (a parameter's `refine`,
//! [`crate::Op::refine`]): narrower types than a parameter's kind for the hosts' declarations
//! (`verify_jws`'s `typ` is one of the EKP token types, not any string), written into
//! docs/operations.json (`refinements`). They change no call: the bridge accepts what the kind
//! accepts, and the core checks the value.

use ekl_core::credential::Purpose;
use ekl_core::jws::Typ;
#[cfg(feature = "proofs")]
use ekl_core::proof::ProofVersion;

/// One named refinement.
#[derive(Clone, Copy, Debug)]
pub struct Refinement {
    /// The name a parameter or a result refers to, and the hosts' type name.
    pub name: &'static str,
    /// What it is.
    pub is: Refined,
    /// One line for the documentation.
    pub doc: &'static str,
}

/// What a [`Refinement`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refined {
    /// One of these strings: each host writes the union from here (TS `type Name = 'a' | 'b'`,
    /// Python `Name = Literal["a", "b"]`).
    Literals(&'static [&'static str]),
    /// A structured input that each host declares by hand under this name (`node/index.d.ts`,
    /// `python/ekl_evidence/_types.py`).
    Input,
    /// A result shape of [`crate::shapes::SHAPES`], taken as an argument too.
    Shape,
}

impl Refined {
    /// The form's name in `docs/operations.json`.
    pub fn as_str(self) -> &'static str {
        match self {
            Refined::Literals(_) => "literals",
            Refined::Input => "input",
            Refined::Shape => "shape",
        }
    }
}

/// The header values of the EKP token types, in the core's order.
const JWS_TYPS: [&str; Typ::ALL.len()] = {
    let mut out = [""; Typ::ALL.len()];
    let mut i = 0;
    while i < out.len() {
        out[i] = Typ::ALL[i].as_str();
        i += 1;
    }
    out
};

/// The claim values of the platform call purposes, in the core's order.
const PURPOSES: [&str; Purpose::ALL.len()] = {
    let mut out = [""; Purpose::ALL.len()];
    let mut i = 0;
    while i < out.len() {
        out[i] = Purpose::ALL[i].as_str();
        i += 1;
    }
    out
};

/// The endpoint proof versions.
#[cfg(feature = "proofs")]
const PROOF_VERSIONS: [&str; 2] = [ProofVersion::V1.as_str(), ProofVersion::V2.as_str()];

/// Every named refinement, in the order of `docs/operations.json`.
pub static REFINEMENTS: &[Refinement] = &[
    #[cfg(feature = "proofs")]
    Refinement {
        name: "ProofVersion",
        is: Refined::Literals(&PROOF_VERSIONS),
        doc: "`v1` or `v2`, as the protocol's `endpoint_proof` writes it.",
    },
    Refinement {
        name: "JwsTyp",
        is: Refined::Literals(&JWS_TYPS),
        doc:
            "The signed types of EKP 1.2; a token is accepted only as the type the caller expects.",
    },
    Refinement {
        name: "PlatformCallPurpose",
        is: Refined::Literals(&PURPOSES),
        doc: "The purpose of a platform call credential (§3, §4, §4.1).",
    },
    Refinement {
        name: "ExecutionStatus",
        is: Refined::Literals(&ekl_core::receipt::STATUSES),
        doc: "The execution statuses a receipt may report (§4, §9.5).",
    },
    Refinement {
        name: "RemoteJwksCause",
        is: Refined::Literals(&["timeout", "network", "refused"]),
        doc: "Why a fetch of a key set failed, as the host saw it (`RemoteJwksPolicy.failed`).",
    },
    Refinement {
        name: "ReceiptKeys",
        is: Refined::Input,
        doc:
            "A receipt key ring: a registration secret (the baseline key `rk-1`) or a list of keys \
              {key_id, secret, valid_from, valid_until?}.",
    },
    Refinement {
        name: "ReceiptCall",
        is: Refined::Input,
        doc: "The call a MAC receipt must answer, in wire names.",
    },
    Refinement {
        name: "ReceiptToVerify",
        is: Refined::Input,
        doc: "One receipt of a batch: {receipt, call, input_commitment?, output_commitment?}.",
    },
    Refinement {
        name: "SignedReceiptCall",
        is: Refined::Input,
        doc: "The call a network-signed receipt must answer, with the consumer's clock window.",
    },
    Refinement {
        name: "Commitment",
        is: Refined::Shape,
        doc: "A commitment, as `input_commitment` returns it.",
    },
    Refinement {
        name: "SaltedCommitment",
        is: Refined::Shape,
        doc: "A salted commitment, as an issued MAC receipt holds them.",
    },
    Refinement {
        name: "ScreeningRules",
        is: Refined::Shape,
        doc: "Screening rules, as `screening_rules` returns them.",
    },
    Refinement {
        name: "ReplayAdmission",
        is: Refined::Shape,
        doc: "An admission, as `replay_admit` returns it.",
    },
];

/// The refinement named `name`.
pub fn find(name: &str) -> Option<&'static Refinement> {
    REFINEMENTS.iter().find(|r| r.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Kind, OPERATIONS};

    /// Every refinement a row gives names a declared refinement (a shape one a declared shape),
    /// a string union refines a string and a structured one a value; the literals are the ones
    /// the core parses.
    #[test]
    fn every_refinement_is_declared_and_fits_its_kind() {
        for r in REFINEMENTS {
            if r.is == Refined::Shape {
                assert!(
                    crate::shapes::find(r.name).is_some(),
                    "{}: no shape",
                    r.name
                );
            }
        }
        let mut used = std::collections::HashSet::new();
        for op in OPERATIONS {
            for p in op.params {
                let Some(ty) = p.refine else { continue };
                for alt in ty.split(" | ") {
                    if alt == "json" {
                        assert_eq!(p.kind, Kind::Value, "{}.{}", op.name, p.name);
                        continue;
                    }
                    let r = find(alt.trim_end_matches("[]"))
                        .unwrap_or_else(|| panic!("{}.{}: {alt} undeclared", op.name, p.name));
                    used.insert(r.name);
                    match r.is {
                        Refined::Literals(_) => assert_eq!(p.kind, Kind::Str, "{}", op.name),
                        _ => assert_eq!(p.kind, Kind::Value, "{}.{}", op.name, p.name),
                    }
                }
            }
            if let Some(name) = op.refine {
                let r = find(name).unwrap_or_else(|| panic!("{}: {name} undeclared", op.name));
                assert!(matches!(r.is, Refined::Literals(_)) && op.returns == crate::Returns::Str);
                used.insert(r.name);
            }
        }
        for r in REFINEMENTS {
            assert!(used.contains(r.name), "{} is used by no row", r.name);
        }
        assert!(JWS_TYPS.iter().all(|t| Typ::from_header(t).is_some()));
        assert!(PURPOSES.iter().all(|p| Purpose::from_claim(p).is_some()));
        assert!(PROOF_VERSIONS
            .iter()
            .all(|v| ProofVersion::from_name(v).is_ok()));
    }
}
