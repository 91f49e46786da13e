"""Differential test: random ekl-json-1 inputs (valid trees, duplicate and escaped keys, surrogates, edge numbers,
one random byte changed in 30 %) through the independent canonicaliser of check_vectors.py and through the
`ekl canon` CLI; any difference of canonical bytes or error code is printed. Needs the release CLI:

    cargo build --release -p ekl-cli --bin ekl
    python3 vectors/check/differential.py SEED COUNT      # e.g. 1 10000; exit 1 on any mismatch
"""
import os
import random
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
EKL = os.path.join(os.path.dirname(os.path.dirname(HERE)), "target", "release", "ekl")
from check_vectors import canonical, Refused
rnd = random.Random(int(sys.argv[1]) if len(sys.argv) > 1 else 1)
N = int(sys.argv[2]) if len(sys.argv) > 2 else 2000
KEYS = ['"a"', '"\\u0061"', '"b"', '"é"', '"😀"', '"ｱ"', '"\\ud83d\\ude00"', '""', '"\\ud800"', '"A"', '"\ue000"']
NUMS = ['0', '-0', '1', '-1.5', '1e21', '1e-7', '9007199254740992', '-9007199254740993', '1E400', '0.1', '5e-324', '123456789012345678.0', '1e20', '2.5e-8', '333333333.33333329']
STRS = ['"x"', '"\\u0000"', '"\\ud83d\\ude00"', '"\\ud83d"', '"\\u2028"', '"\\/"', '"\u007f"', '"a\\"b"', '"\\u001F"']
def ws(): return rnd.choice(['', '', ' ', '\n\t', '\r '])
def val(d):
    r = rnd.random()
    if d > 4 or r < 0.4:
        return rnd.choice(NUMS + STRS + ['true', 'false', 'null'])
    if r < 0.7:
        return '[' + ws() + (',' + ws()).join(val(d+1) for _ in range(rnd.randint(0, 4))) + ws() + ']'
    n = rnd.randint(0, 4)
    return '{' + ws() + ','.join(ws() + rnd.choice(KEYS) + ws() + ':' + ws() + val(d+1) for _ in range(n)) + ws() + '}'
stats = {}; bad = 0
for _ in range(N):
    t = ws() + val(0) + ws()
    data = t.encode()
    if rnd.random() < 0.3 and data:
        i = rnd.randrange(len(data))
        data = data[:i] + rnd.choice([b'', b',', b']', b'}', b'"', b'\\', b'0', b'\xff', b'x']) + data[i+1:]
    try: exp = ('ok', canonical(data))
    except Refused as r: exp = ('err', r.code)
    p = subprocess.run([EKL, 'canon'], input=data, capture_output=True)
    got = ('ok', p.stdout.decode()) if p.returncode == 0 else ('err', p.stderr.decode().split(':')[1].strip())
    k = 'ok' if exp[0] == 'ok' else exp[1]; stats[k] = stats.get(k, 0) + 1
    if exp != got:
        bad += 1
        if bad < 10: print(repr(data), exp, got)
print('mismatches', bad, 'of', N, stats)
sys.exit(1 if bad else 0)
