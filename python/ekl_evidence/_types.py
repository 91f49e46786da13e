"""Shapes of the values that go in and the dicts that come out (documented, and typed for mypy).

Results are wire-shaped: the names below are the ``returns`` names of docs/operations.json. The
result shapes are declared once, in bridge/src/shapes.rs (the manifest's ``shapes``), and the
string unions of the parameters and results (``JwsTyp``, ``ProofVersion``, ...) in
bridge/src/refinements.rs (the manifest's ``refinements``): python/tools/gen_stubs.py writes their
TypedDicts and Literals below the ``begin: result shapes`` line (do not edit them); the argument
types above it (the registry's ``input`` refinements: ``ReceiptCall``, ...) are written by hand.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from typing import Any, Literal, TypedDict, Union

__all__ = [
    "HostValue",
    "JsonValue",
    "KeyRingEntry",
    "ReceiptCall",
    "ReceiptKeys",
    "ReceiptToVerify",
    "SignedReceiptCall",
    # begin: result shapes and refinements (python/tools/gen_stubs.py)
    "ArchiveOutput",
    "AssertionCap",
    "Commitment",
    "ExecutionStatus",
    "FailingCheck",
    "FirstCause",
    "IssuedReceipt",
    "Jwk",
    "JwsTyp",
    "McpListing",
    "McpListingStep",
    "McpWindow",
    "McpWindowStep",
    "PlatformCallPurpose",
    "ProofVersion",
    "Receipt",
    "ReceiptLineSummary",
    "RemoteJwksCause",
    "RemoteJwksDecision",
    "ReplayAdmission",
    "ReplayRestore",
    "ResultBody",
    "SafetyFlag",
    "SaltedCommitment",
    "ScreeningRule",
    "ScreeningRules",
    "ScreeningRulesToken",
    "SignedReceipt",
    "VerifiedAccessToken",
    "VerifiedJws",
    "VerifiedPlatformCall",
    "VerifiedRelationshipAssertion",
    "VerifiedRevocationFeed",
    # end
]

#: A Python value for the strict conversion: None, bool, int, float, str, list, tuple, dict with
#: str keys (and the subclasses named in the README), nested at most 64 deep. Typed as ``Any``
#: because ``dict`` and ``list`` are invariant; the conversion checks every value at run time.
HostValue = Any

#: A JSON value as results give it: None, bool, int, float, str, list, dict.
JsonValue = Any


class _KeyRingEntryRequired(TypedDict):
    key_id: str
    secret: str
    valid_from: Union[str, datetime.datetime]


class KeyRingEntry(_KeyRingEntryRequired, total=False):
    """One key of a key ring (RFC 3339 UTC times, or aware datetimes; ``valid_until`` exclusive,
    absent while current). A key ring is a list of these, or the registration secret alone
    (``rk-1``)."""

    valid_until: Union[str, datetime.datetime, None]


#: A receipt key ring: the registration secret (the baseline key ``rk-1``) or a list of keys.
ReceiptKeys = Union[str, Sequence[KeyRingEntry]]


class _ReceiptCallRequired(TypedDict):
    execution_id: str
    collaboration_id: str
    capability_id: str
    requester_agent_id: str
    provider_agent_id: str


class ReceiptCall(_ReceiptCallRequired, total=False):
    """The call a MAC receipt must answer, in wire names. The optional members are checked only
    when given."""

    capability_version: Union[str, None]
    connection_id: Union[str, None]
    terms_hash: Union[str, None]
    execution_kind: Union[str, None]
    reservation_id: Union[str, None]
    grant_id: Union[str, None]
    admission_id: Union[str, None]
    #: The digest the consumer expects the receipt to have.
    receipt_digest: Union[str, None]


class _ReceiptToVerifyRequired(TypedDict):
    #: The receipt: any mapping (a ``Receipt``, a parsed response) or a ``JsonText``.
    receipt: HostValue
    call: ReceiptCall


class ReceiptToVerify(_ReceiptToVerifyRequired, total=False):
    """One receipt of a batch (``verify_receipts``)."""

    input_commitment: Union[Commitment, SaltedCommitment, None]
    output_commitment: Union[Commitment, SaltedCommitment, None]


class SignedReceiptCall(TypedDict):
    """The call a network-signed receipt must answer, with the consumer's clock window (seconds
    since the epoch, or aware datetimes), in wire names."""

    execution_id: str
    provider_agent_id: str
    requester_agent_id: str
    capability_id: str
    #: The consumer's own input fingerprint (§15.3).
    input_fingerprint: str
    #: The consumer's own agent id: the receipt's ``aud``.
    own_agent_id: str
    #: The network's issuer: the receipt's ``iss``.
    network_issuer: str
    #: When the consumer sent the call.
    sent_at: Union[int, float, datetime.datetime]
    #: When the consumer received the answer.
    received_at: Union[int, float, datetime.datetime]


# begin: result shapes (python/tools/gen_stubs.py writes this block from docs/operations.json)

#: ``v1`` or ``v2``, as the protocol's ``endpoint_proof`` writes it.
ProofVersion = Literal["v1", "v2"]

#: The signed types of EKP 1.2; a token is accepted only as the type the caller expects.
JwsTyp = Literal[
    "ekl-relationship+jwt",
    "ekl-platform-call+jwt",
    "ekl-execution-grant+jwt",
    "ekl-revocation-feed+jwt",
    "ekl-receipt+jwt",
    "ekl-screening-rules+jwt",
    "ekl-access+jwt",
]

#: The purpose of a platform call credential (§3, §4, §4.1).
PlatformCallPurpose = Literal["enroll", "validation", "revalidation", "deliver"]

#: The execution statuses a receipt may report (§4, §9.5).
ExecutionStatus = Literal[
    "accepted",
    "running",
    "succeeded",
    "failed_before_effect",
    "cancelled",
    "outcome_unknown",
]

#: Why a fetch of a key set failed, as the host saw it (``RemoteJwksPolicy.failed``).
RemoteJwksCause = Literal["timeout", "network", "refused"]


class _CommitmentRequired(TypedDict):
    alg: Literal["sha-256"]
    canon: Literal["ekl-json-1"]
    #: Lowercase hex SHA-256 of (salt bytes ‖) the canonical bytes.
    digest: str


class Commitment(_CommitmentRequired, total=False):
    """A commitment (PROTOCOL §9.5), ``{"alg": "sha-256", "canon": "ekl-json-1", "digest": hex}``,
    plus ``salt_id`` and the disclosed ``salt`` when salted, with the protocol's member names: embed
    it as it is."""

    #: Present when a salt id was given (``salt_id``, JS ``saltId``).
    salt_id: str
    #: Present when salted: the disclosed salt, 64 lowercase hex characters.
    salt: str


class _SaltedCommitmentRequired(TypedDict):
    alg: Literal["sha-256"]
    canon: Literal["ekl-json-1"]
    #: Lowercase hex SHA-256 of the salt bytes ‖ the canonical bytes.
    digest: str
    #: The disclosed salt, 64 lowercase hex characters.
    salt: str


class SaltedCommitment(_SaltedCommitmentRequired, total=False):
    """A salted commitment, as an issued MAC receipt holds them: a ``Commitment`` whose ``salt`` is
    always present (the salt to commit to the value with, §9.5)."""

    #: Present when a salt id was given (``salt_id``, JS ``saltId``).
    salt_id: str


class ResultBody(TypedDict):
    """The body of an MCP tool result that its output fingerprint covers, and which member it is."""

    member: Literal["structuredContent", "content"]
    #: The selected body, as plain data.
    value: JsonValue


class VerifiedJws(TypedDict):
    """A verified compact JWS: its header and claims, the kid used, its typ and its SHA-256."""

    header: dict[str, JsonValue]
    claims: dict[str, JsonValue]
    kid: str
    typ: str
    #: SHA-256 hex of the token's ASCII bytes.
    token_sha256: str


class AssertionCap(TypedDict):
    """One capability of a relationship assertion's ``caps``."""

    id: str
    ver: Union[int, str]


class VerifiedRelationshipAssertion(VerifiedJws):
    """A verified relationship assertion (§9.1): the token, its registered claims and its own
    members. ``aud`` is the token endpoint it was verified for. Consuming ``jti`` once per (issuer,
    token endpoint, jti) is the caller's (§9.2)."""

    iss: str
    iat: int
    exp: int
    sub: str
    aud: str
    jti: str
    org: str
    con: str
    rel_ver: Union[int, str]
    dsc_ver: Union[int, str]
    caps: list[AssertionCap]


class VerifiedPlatformCall(VerifiedJws):
    """A verified platform call credential (§3, §4): ``purpose`` is the one the caller expected.
    Single use: recording ``jti`` until ``exp`` + 60 s is the caller's."""

    iss: str
    iat: int
    exp: int
    jti: str
    purpose: PlatformCallPurpose


class VerifiedRevocationFeed(VerifiedJws):
    """A verified revocation feed page or snapshot (§9.3.1); its items are in ``claims``."""

    iss: str
    iat: int
    #: ``null`` (Python: ``None``) when the token has none.
    exp: Union[int, None]


class VerifiedAccessToken(VerifiedJws):
    """A verified access token (§15.1)."""

    iss: str
    iat: int
    exp: int


class ScreeningRule(TypedDict):
    """One rule of screening rules: its id, its category and its phrases."""

    rule_id: str
    category: str
    phrases: list[str]


class ScreeningRules(TypedDict):
    """Validated screening rules (§15.5): what ``screen`` takes as ``rules``."""

    rules_version: str
    rules: list[ScreeningRule]


class ScreeningRulesToken(ScreeningRules):
    """A verified screening rules token; also accepted as the ``rules`` of ``screen``."""

    iss: str
    iat: int
    exp: int


class _SafetyFlagRequired(TypedDict):
    category: str
    rules_version: str


class SafetyFlag(_SafetyFlagRequired, total=False):
    """A safety flag of a screened result (§15.5, §6.8): never the matched text."""

    #: The first matching rule (network rules only).
    rule_id: str


class _ReceiptRequired(TypedDict):
    key_id: str
    auth_tag: str


class Receipt(_ReceiptRequired, total=False):
    """A MAC receipt (profile ekl-evidence-mac-1.1, §9.5) as ``sign_receipt`` returns it (plain
    data, wire names): the members it was given, with its ``key_id`` and ``auth_tag`` always."""

    receipt_version: str
    receipt_id: str
    execution_kind: str
    requester_agent_id: str
    provider_agent_id: str
    collaboration_id: str
    connection_id: str
    execution_id: str
    capability_id: str
    capability_version: str
    rel_ver_at_admission: int
    dsc_ver: int
    terms_hash: str
    input_commitment: Commitment
    output_commitment: Commitment
    status: str
    issued_at: str
    auth_profile: str
    reservation_id: str
    grant_id: str
    admission_id: str


class _IssuedReceiptRequired(TypedDict):
    receipt_version: str
    receipt_id: str
    execution_kind: str
    requester_agent_id: str
    provider_agent_id: str
    collaboration_id: str
    connection_id: str
    execution_id: str
    capability_id: str
    capability_version: str
    rel_ver_at_admission: int
    dsc_ver: int
    terms_hash: str
    #: Salted: ``salt`` is the salt to commit to what was sent with.
    input_commitment: SaltedCommitment
    #: Salted: ``salt`` is the salt to commit to what was received with.
    output_commitment: SaltedCommitment
    status: ExecutionStatus
    issued_at: str
    key_id: str
    auth_profile: str
    auth_tag: str


class IssuedReceipt(_IssuedReceiptRequired, total=False):
    """A MAC receipt as ``issue_mac_receipt`` returns it: every member of §9.5, both commitments
    salted; ``reservation_id``, ``grant_id`` and ``admission_id`` for a customer call only."""

    reservation_id: str
    grant_id: str
    admission_id: str


class _FailingCheckRequired(TypedDict):
    name: str
    outcome: Literal["fail", "mismatch"]


class FailingCheck(_FailingCheckRequired, total=False):
    """A check of a verdict that did not pass, in brief: ``name`` and ``outcome`` always."""

    detail: str
    #: Why ``key_id`` failed (as in a verdict's check).
    reason: Literal["unknown_key", "key_not_yet_valid", "key_expired"]
    #: A knock-on: not checked, because the check it names failed.
    blocked_by: str


class FirstCause(TypedDict):
    """The first cause of a receipt that is not accepted (``summarize_receipt_lines``): its first
    failing check that was made (``check``; a knock-on, blocked by another's failure, is not a
    cause) and, for ``key_id``, why (``reason``: an unknown key, a key not yet valid or expired at
    ``issued_at``; else null). A table counts each failed receipt once, under it."""

    check: str
    reason: Union[Literal["unknown_key", "key_not_yet_valid", "key_expired"], None]


class ReceiptLineSummary(TypedDict):
    """One line of a receipt archive in brief (``summarize_receipt_lines``): its ids as written in
    the receipt (a JWS's claims; any JSON value, null when absent), its verdict in short, or the
    error of an item that cannot be verified (``accepted`` is then null)."""

    line: int
    kind: Literal["mac", "jws", "object", "unknown"]
    label: JsonValue
    receipt_id: JsonValue
    execution_id: JsonValue
    provider_agent_id: JsonValue
    capability_id: JsonValue
    issued_at: JsonValue
    accepted: Union[bool, None]
    receipt_digest: Union[str, None]
    passed: int
    failing: list[FailingCheck]
    cause: Union[FirstCause, None]
    error: Union[dict[str, str], None]


class ArchiveOutput(TypedDict):
    """A receipt archive verified as ``ekl receipt verify-archive`` writes it (``verify_archive``):
    ``output`` the JSON lines ``{"line": N, "verdict": V}`` or ``{"error": {code, message}, "line":
    N}``, and the items counted."""

    output: str
    accepted: int
    not_accepted: int
    refused: int


class SignedReceipt(TypedDict):
    """A network-signed receipt (profile ekl-evidence-sig-1.2, §9.5.1) as ``issue_receipt`` returns
    it: its fields (``issued_at`` and the call claims always, which it requires), then
    ``receipt_jws``, ``key_id`` and ``signature`` (always present)."""

    receipt_jws: str
    key_id: str
    signature: str
    issued_at: str
    execution_id: str
    provider_agent_id: str
    requester_agent_id: str
    capability_id: str
    input_fingerprint: str


class Jwk(TypedDict):
    """A public P-256 JWK as this library writes it (``public_jwk``, the keys of a JWKS)."""

    kty: str
    crv: str
    alg: str
    use: str
    kid: str
    x: str
    y: str


class ReplayAdmission(TypedDict):
    """What the replay store is asked for an admitted credential (``replay_admit``); handed back to
    ``replay_answer`` with the store's answers."""

    #: relationship_assertion or platform_call
    kind: str
    #: the store key, 64 lowercase hex
    key: str
    #: the now the store is given, milliseconds
    now_ms: int
    #: until when the store keeps the key (exclusive), ms
    expires_at_ms: int
    #: a restore moment later than this refuses the credential, ms
    restored_after_ms: int


class ReplayRestore(TypedDict):
    """A restore to record in the replay store (``replay_restore``)."""

    #: the moment of detection, milliseconds
    at_ms: int
    #: until when the store keeps it, milliseconds
    until_ms: int
    #: the now the store is given, milliseconds
    now_ms: int
    #: the window, seconds: 120 + 2 x skew
    window: int


class _RemoteJwksDecisionRequired(TypedDict):
    #: serve, fetch, fail, follow or read
    action: Literal["serve", "fetch", "fail", "follow", "read"]


class RemoteJwksDecision(_RemoteJwksDecisionRequired, total=False):
    """What a RemoteJwksPolicy asks of its host now: serve the set held, fetch it, fail with
    ``error``, follow the redirect, or read the body."""

    #: the refusal (action ``fail``)
    error: dict[str, str]
    #: the deadline of the whole fetch in seconds (action ``fetch``)
    timeout: float
    #: the largest body (actions ``fetch`` and ``read``)
    max_bytes: int


class McpWindow(TypedDict):
    """The state of one MCP call's wire window (``mcp_window``): pass it back as it is."""

    #: The method of the call's request.
    method: str
    #: The members its params must hold (absent reads as null).
    match: dict[str, JsonValue]
    #: The id of the call's request, once sent.
    awaited: Union[int, str, None]
    #: Whether its answer was received.
    answered: bool
    #: The bytes received during the call.
    received: int


class _McpWindowStepRequired(TypedDict):
    #: The state for the next step.
    window: McpWindow
    seen: Literal["call", "sent", "answer", "error", "request", "notification", "other", "end"]


class McpWindowStep(_McpWindowStepRequired, total=False):
    """What one message of an MCP call was (``mcp_window``): ``seen`` is ``call`` (the call's
    request), ``sent``, ``answer`` (with ``result``, once), ``error`` (the JSON-RPC error answer),
    ``request`` (the server's, with ``id`` and ``method``), ``notification``, ``other`` (an answer
    to another request) or ``end``."""

    #: The answer's result, read by the core's reader.
    result: dict[str, JsonValue]
    #: The answer's length in bytes.
    bytes: int
    #: The error answer's error object.
    error: JsonValue
    #: The id of the server's request.
    id: Union[int, str]
    #: The method of the server's request.
    method: str


class McpListing(TypedDict):
    """The state of one MCP tools/list (``mcp_listing_page``): pass it back as it is."""

    pages: int
    tools: int
    bytes: int
    cursors: list[str]


class McpListingStep(TypedDict):
    """One page of an MCP tools/list (``mcp_listing_page``): the state, the next cursor and the
    window of the next page (``null`` when the listing ended)."""

    listing: McpListing
    next: Union[str, None]
    window: Union[McpWindow, None]
