// The wasm benchmark, independent of where it runs: wasm/bench/bench.mjs runs it in Node,
// wasm/bench/chromium.mjs in a headless Chromium page (issue 7). Plain ESM, no Node built-ins.
//
// Canonicalisation: the text path (JSON text in; the peers' users JSON.parse it and canonicalise the
// value) and the value path (a JS value in), over the shared corpus (bench/src/corpus.rs written by
// `ekl-bench --write-corpus`): every implementation runs once per round over all small documents and
// once over the big one, interleaved; one warm-up round, then the median of `rounds`.
// ES256: one token signed through WebCrypto, verified by ekl's verifyJws (signature, typ, kid, iss,
// aud, times) and by the peers the caller passes (node:crypto in Node, WebCrypto in Chromium); and
// 200 keys never seen, one token each (no key table), against the same peers.
//
// Returns the figures as records of the common bench report (scripts/bench/report.py):
//   { surface, operation, unit, ours_name, ours, peer, peer_value, ratio }
// ratio is always "how many times faster ours is" (> 1: ours is faster).

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.floor(s.length / 2)]
}

const b64url = (bytes) => {
  let s = ''
  for (const b of bytes) s += String.fromCharCode(b)
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

/**
 * @param {object} o
 * @param {object} o.ekl the wasm package's API
 * @param {string} o.surface e.g. "wasm-node"
 * @param {{name: string, fn: (v: any) => string}[]} o.peers JS canonicalisers (value in, text out); may be empty
 * @param {string[]} o.texts small documents of the corpus; o.bigText the big one
 * @param {number} o.rounds
 * @param {number} o.es256Iterations
 * @param {(jwt: string, jwk: object, key: CryptoKey) => Promise<{name: string, fn: () => any}[]>} o.es256Peers
 * @param {(items: {jwk: object, input: Uint8Array, sig: Uint8Array}[]) => Promise<{name: string, run: () => any}>} [o.es256FreshPeer]
 *   the peer of the keys-without-a-table row: imports the keys (outside the clock), then `run` verifies each token once
 * @param {() => number} [o.cpuMicros] the process's CPU time in µs, where the host has it
 * @param {(line: string) => void} o.log
 */
export async function runSuite(o) {
  const { ekl, surface, peers, texts, bigText, rounds, log } = o
  const now = () => performance.now()
  const enc = new TextEncoder()
  const dec = new TextDecoder()
  const str = (x) => (typeof x === 'string' ? x : dec.decode(x))
  const values = texts.map((t) => JSON.parse(t))
  const bigValue = JSON.parse(bigText)
  const smallBytes = texts.reduce((n, t) => n + enc.encode(t).length, 0)
  const bigBytes = enc.encode(bigText).length
  const records = []

  // Outputs: ours (both paths) must agree with each other; peers are timed whatever they print
  // (the Node bench, scripts/bench-node.sh, lists where they differ).
  for (let i = 0; i < texts.length; i++) {
    const a = str(ekl.canonicalize(texts[i]))
    const b = str(ekl.canonicalizeValue(values[i]))
    if (a !== b) throw new Error(`canonicalize and canonicalizeValue differ on corpus document ${i}`)
  }

  const impls = [
    ['ekl-wasm canonicalize(string)', 'text', (i) => ekl.canonicalize(i < 0 ? bigText : texts[i]), true],
    ...peers.map((p) => [`${p.name} (JSON.parse)`, 'text', (i) => p.fn(JSON.parse(i < 0 ? bigText : texts[i])), false]),
    ['ekl-wasm canonicalizeValue', 'value', (i) => ekl.canonicalizeValue(i < 0 ? bigValue : values[i]), true],
    ...peers.map((p) => [p.name, 'value', (i) => p.fn(i < 0 ? bigValue : values[i]), false]),
  ]
  const small = impls.map(() => [])
  const big = impls.map(() => [])
  for (let r = 0; r < rounds + 1; r++) {
    impls.forEach(([, , run], k) => {
      let t = now()
      for (let i = 0; i < texts.length; i++) run(i)
      const s = now() - t
      t = now()
      run(-1)
      const b = now() - t
      if (r > 0) {
        small[k].push(s)
        big[k].push(b)
      }
    })
  }
  const rows = impls.map(([name, kind, , isOurs], k) => ({
    name, kind, isOurs,
    small: smallBytes / 1e3 / median(small[k]),
    big: bigBytes / 1e3 / median(big[k]),
  }))
  log(`corpus: ${texts.length} documents, ${smallBytes} bytes; big document ${bigBytes} bytes; ${rounds} rounds, median`)
  log(`  ${'implementation'.padEnd(48)} ${'small MB/s'.padStart(10)} ${'big MB/s'.padStart(9)}`)
  for (const r of rows) log(`  ${r.name.padEnd(48)} ${r.small.toFixed(1).padStart(10)} ${r.big.toFixed(1).padStart(9)}`)
  for (const kind of ['text', 'value']) {
    const ours = rows.find((r) => r.kind === kind && r.isOurs)
    const theirs = rows.filter((r) => r.kind === kind && !r.isOurs)
    for (const size of ['small', 'big']) {
      const best = theirs.reduce((a, r) => (a && a[size] >= r[size] ? a : r), null)
      records.push({
        surface, operation: `canonicalize ${kind} ${size === 'small' ? 'small docs' : 'big doc'}`, unit: 'MB/s',
        ours_name: ours.name, ours: ours[size],
        peer: best ? best.name : null, peer_value: best ? best[size] : null,
        ratio: best ? ours[size] / best[size] : null,
      })
    }
  }

  // ES256.
  const subtle = globalThis.crypto.subtle
  const pair = await subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify'])
  const jwk = await subtle.exportKey('jwk', pair.publicKey)
  const t0 = 1780000000
  const header = b64url(enc.encode(JSON.stringify({ alg: 'ES256', kid: 'bench-1', typ: 'ekl-receipt+jwt' })))
  const payload = b64url(enc.encode(JSON.stringify({ iss: 'https://n.example', aud: 'agt_c', iat: t0, exp: t0 + 300, n: 'x'.repeat(200) })))
  const signingInput = `${header}.${payload}`
  const sig = new Uint8Array(await subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, pair.privateKey, enc.encode(signingInput)))
  const jwt = `${signingInput}.${b64url(sig)}`
  const jwks = new ekl.Jwks({ keys: [{ kty: 'EC', crv: 'P-256', kid: 'bench-1', x: jwk.x, y: jwk.y, alg: 'ES256', use: 'sig' }] })
  const opts = { now: t0, issuer: 'https://n.example', audience: 'agt_c' }
  ekl.verifyJws(jwt, 'ekl-receipt+jwt', jwks, opts) // throws if the token does not verify
  const n = o.es256Iterations
  const time = async (f) => {
    for (let i = 0; i < Math.min(200, n); i++) await f()
    const t = now()
    for (let i = 0; i < n; i++) await f()
    return ((now() - t) * 1000) / n
  }
  const oursUs = await time(() => ekl.verifyJws(jwt, 'ekl-receipt+jwt', jwks, opts))
  const es256Peers = await o.es256Peers(jwt, jwk, pair.publicKey)
  const peerUs = []
  for (const p of es256Peers) peerUs.push([p.name, await time(p.fn)])
  log(`ES256 verification (one token, ${n} iterations, µs per verification)`)
  log(`  ${'ekl-wasm verifyJws (signature and claims)'.padEnd(48)} ${oursUs.toFixed(1).padStart(8)}`)
  for (const [name, us] of peerUs) log(`  ${name.padEnd(48)} ${us.toFixed(1).padStart(8)}`)
  const best = peerUs.reduce((a, p) => (a && a[1] <= p[1] ? a : p), null)
  records.push({
    surface, operation: 'ES256 verify', unit: 'µs', ours_name: 'ekl-wasm verifyJws', ours: oursUs,
    peer: best ? best[0] : null, peer_value: best ? best[1] : null, ratio: best ? best[1] / oursUs : null,
  })
  if (o.es256FreshPeer) records.push(...(await freshKeys(o, opts)))
  return records
}

/**
 * ES256 with keys never seen before (issue 28's "key without a table"): `o.freshKeys` keys (200),
 * one token each, so every verification is a key's first and builds no table; each round has new
 * keys (a key's second verification would build its table). Ours: `verifyJws` with a `Jwks` of
 * the one key, made outside the clock; the peer's keys are imported outside the clock too
 * (`o.es256FreshPeer(items)` → {name, run}). After three untimed rounds, best of `o.freshRounds` (5) rounds, wall time per
 * verification, and CPU time where the host has it (`o.cpuMicros`, Node): a record each.
 */
async function freshKeys(o, opts) {
  const { ekl, surface, log } = o
  const subtle = globalThis.crypto.subtle
  const enc = new TextEncoder()
  const keys = o.freshKeys || 200
  const typ = 'ekl-receipt+jwt'
  const payload = b64url(enc.encode(JSON.stringify({ iss: opts.issuer, aud: opts.audience, iat: opts.now, exp: opts.now + 300, n: 'x'.repeat(200) })))
  const ours = { wall: Infinity, cpu: NaN }
  const peer = { wall: Infinity, cpu: NaN, name: null }
  const timed = async (f) => {
    const c0 = o.cpuMicros ? o.cpuMicros() : NaN
    const t0 = performance.now()
    await f()
    return { wall: ((performance.now() - t0) * 1000) / keys, cpu: ((o.cpuMicros ? o.cpuMicros() : NaN) - c0) / keys }
  }
  // Three untimed rounds first: the table-less path is code the rows before never ran, and the
  // engine's optimising tier takes it over only after some use (5 rounds without them gave
  // 350.9 µs in Node, with them ~200).
  const warm = 3
  for (let round = 0; round < warm + (o.freshRounds || 5); round++) {
    const items = []
    for (let i = 0; i < keys; i++) {
      const kid = `fresh-${round}-${i}`
      const pair = await subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify'])
      const jwk = await subtle.exportKey('jwk', pair.publicKey)
      const input = `${b64url(enc.encode(JSON.stringify({ alg: 'ES256', kid, typ })))}.${payload}`
      const sig = new Uint8Array(await subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, pair.privateKey, enc.encode(input)))
      items.push({ jwk: { kty: 'EC', crv: 'P-256', kid, x: jwk.x, y: jwk.y }, input: enc.encode(input), sig, jwt: `${input}.${b64url(sig)}` })
    }
    const sets = items.map((it) => new ekl.Jwks({ keys: [it.jwk] }))
    const a = await timed(() => {
      for (let i = 0; i < keys; i++) ekl.verifyJws(items[i].jwt, typ, sets[i], opts)
    })
    const theirs = await o.es256FreshPeer(items)
    const b = await timed(theirs.run)
    if (round < warm) continue
    if (a.wall < ours.wall) Object.assign(ours, a)
    if (b.wall < peer.wall) Object.assign(peer, b, { name: theirs.name })
  }
  const cpu = (x) => (Number.isNaN(x.cpu) ? '' : `  (CPU ${x.cpu.toFixed(1)})`)
  log(`ES256, keys without a table (${keys} keys, one token each, 3 untimed rounds then the best of ${o.freshRounds || 5}, µs per verification)`)
  log(`  ${'ekl-wasm verifyJws, a key never seen'.padEnd(48)} ${ours.wall.toFixed(1).padStart(8)}${cpu(ours)}`)
  log(`  ${peer.name.padEnd(48)} ${peer.wall.toFixed(1).padStart(8)}${cpu(peer)}`)
  const row = (operation, a, b) => ({
    surface, operation, unit: 'µs', ours_name: 'ekl-wasm verifyJws, a key never seen', ours: a, peer: peer.name, peer_value: b, ratio: b / a,
  })
  const rows = [row('ES256 verify, key without a table', ours.wall, peer.wall)]
  if (!Number.isNaN(ours.cpu)) rows.push(row('ES256 verify, key without a table (CPU)', ours.cpu, peer.cpu))
  return rows
}
