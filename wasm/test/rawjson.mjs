// A JSON scanner that keeps each value's source text, so that the wasm vector runner hands the
// core the exact bytes of a case (JSON.parse would turn 1e400 into Infinity, drop duplicate keys
// and round big integers before the core could see them). It only splits well-formed JSON; every
// ekl-json-1 rule is the core's job.
// parseRaw(text) → node: {type:'object', members:[[key, node]], raw} | {type:'array', items, raw}
//                        | {type:'string'|'number'|'literal', value, raw}

export function parseRaw(text) {
  let i = 0;
  const ws = () => { while (i < text.length && ' \t\n\r'.includes(text[i])) i++; };
  // Iterative: the vector files themselves are shallow, but no input should overflow the stack.
  const stack = [];
  let result;
  const finish = (node) => {
    if (stack.length === 0) { result = node; return; }
    const top = stack[stack.length - 1];
    if (top.node.type === 'object') top.node.members.push([top.key, node]);
    else top.node.items.push(node);
  };
  const scalar = () => {
    const start = i;
    if (text[i] === '"') {
      i++;
      while (text[i] !== '"') { if (text[i] === '\\') i++; i++; if (i > text.length) throw new Error('unterminated string'); }
      i++;
      const raw = text.slice(start, i);
      return { type: 'string', value: JSON.parse(raw), raw };
    }
    while (i < text.length && !',]} \t\n\r'.includes(text[i])) i++;
    const raw = text.slice(start, i);
    return /^[-0-9]/.test(raw) ? { type: 'number', value: Number(raw), raw } : { type: 'literal', value: JSON.parse(raw), raw };
  };
  ws();
  for (;;) {
    ws();
    const top = stack[stack.length - 1];
    if (top && (text[i] === '}' || text[i] === ']')) {
      i++;
      stack.pop();
      top.node.raw = text.slice(top.start, i);
      finish(top.node);
    } else {
      if (top && (top.node.type === 'object' ? top.node.members.length : top.node.items.length) > 0) {
        if (text[i] !== ',') throw new Error(`expected , at ${i}`);
        i++; ws();
      }
      if (top && top.node.type === 'object') {
        const k = scalar(); ws();
        if (text[i] !== ':') throw new Error(`expected : at ${i}`);
        i++; ws();
        top.key = k.value;
      }
      if (text[i] === '{' || text[i] === '[') {
        stack.push({ node: text[i] === '{' ? { type: 'object', members: [] } : { type: 'array', items: [] }, start: i });
        i++;
        continue;
      }
      finish(scalar());
    }
    if (stack.length === 0) break;
  }
  return result;
}

/** The member `key` of an object node (undefined when absent). */
export function get(node, key) {
  const m = node.members.find(([k]) => k === key);
  return m && m[1];
}

/** The plain JS value of a node (for names, codes and other simple fields). */
export function plain(node) {
  if (node === undefined) return undefined;
  if (node.type === 'object') return Object.fromEntries(node.members.map(([k, v]) => [k, plain(v)]));
  if (node.type === 'array') return node.items.map(plain);
  return node.value;
}
