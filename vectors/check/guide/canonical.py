"""ekl-json-1: RFC 8785 canonical JSON with EKP's restrictions, written from PROTOCOL.md section 9.5."""
import json
import math
from decimal import Decimal


def _number(x: float | int) -> str:
    if isinstance(x, int):
        # EKP: an integer literal must fit in ±2^53, so it is never rounded on the way in.
        if abs(x) > 2**53:
            raise ValueError("integer outside ±2^53")
        return str(x)
    if not math.isfinite(x):
        raise ValueError("NaN and Infinity have no JSON form")
    if x == 0:
        return "0" # also -0.0
    # repr gives the shortest digits that read back as this double; Decimal splits them into digits and exponent.
    _, digit_tuple, exponent = Decimal(repr(abs(x))).normalize().as_tuple()
    digits = "".join(map(str, digit_tuple))
    k, n = len(digits), len(digits) + int(exponent)
    # ECMAScript's Number.prototype.toString layout: where the point goes, and when to use an exponent.
    if k <= n <= 21:
        text = digits + "0" * (n - k)
    elif 0 < n <= 21:
        text = digits[:n] + "." + digits[n:]
    elif -6 < n <= 0:
        text = "0." + "0" * -n + digits
    else:
        mantissa = digits if k == 1 else digits[0] + "." + digits[1:]
        text = f"{mantissa}e{'+' if n - 1 > 0 else '-'}{abs(n - 1)}"
    return ("-" if x < 0 else "") + text


def _string(s: str) -> str:
    # RFC 8785 requires an error for invalid Unicode. json.loads joins escaped surrogate pairs into one character,
    # so any surrogate left in a string is a lone one.
    if any("\ud800" <= c <= "\udfff" for c in s):
        raise ValueError("lone surrogate")
    return json.dumps(s, ensure_ascii=False)


def _value(v: object) -> str:
    if v is None or v is True or v is False:
        return json.dumps(v)
    if isinstance(v, (int, float)):
        return _number(v)
    if isinstance(v, str):
        return _string(v)
    if isinstance(v, list):
        return "[" + ",".join(_value(i) for i in v) + "]"
    if isinstance(v, dict):
        keys = sorted(v, key=lambda s: s.encode("utf-16-be", "surrogatepass"))
        return "{" + ",".join(_string(k) + ":" + _value(v[k]) for k in keys) + "}"
    raise ValueError(f"cannot canonicalise {type(v).__name__}")


def _no_duplicates(pairs: list[tuple[str, object]]) -> dict[str, object]:
    keys = [k for k, _ in pairs]
    if len(keys) != len(set(keys)):
        raise ValueError("duplicate keys")
    return dict(pairs)


def _refuse(constant: str) -> float:
    raise ValueError(f"{constant} has no JSON form")


def canonical(text: str) -> str:
    return _value(json.loads(text, object_pairs_hook=_no_duplicates, parse_constant=_refuse))
