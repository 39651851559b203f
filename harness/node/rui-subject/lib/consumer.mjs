// A Rixx UI 0.1 consumer (spec "Transaction", "Records", "Graph invariants", "Recovery"; CL-D01..D09):
// frames in, one transaction open at a time, staged operations applied in record order to a staged
// copy, and a commit that validates the resulting graph and policy and then swaps the committed
// snapshot in one assignment. Failure codes are the register's (vectors/RUI-CODES.md, CL-D08).

import { parseFrame, NotJson, TooDeep } from './json.mjs';
import { readRecord, parsePointer } from './records.mjs';
import { buildCatalog, checkNode, isActionRequest } from './catalog.mjs';
import { createDecoder } from './framing.mjs';
import { DEFAULT_LIMITS, checkLimits, boundValue } from './limits.mjs';
import { Failure } from './failure.mjs';

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

/** A deep copy of a JSON value (the committed snapshot never shares structure with staging). */
function copy(value) {
  return value === null || typeof value !== 'object' ? value : structuredClone(value);
}


export class RuiConsumer {
  constructor({ catalog, framing, limits }) {
    this.catalog = buildCatalog(catalog);
    this.framing = framing;
    this.limits = limits === undefined ? { ...DEFAULT_LIMITS } : checkLimits(limits);
    this.decoder = createDecoder(framing);
    // CL-D02-1: an empty graph at revision 0 with no root, and the data document {}.
    this.committed = Object.freeze({ revision: 0, root: null, nodes: new Map(), data: {} });
    this.tx = null;
    this.frames = 0;
    this.ended = false;
    this.transactions = [];
    this.quarantine = [];
    this.rejections = [];
    this.policy = undefined;
  }

  // ---------------------------------------------------------------------------------------------
  // Input
  // ---------------------------------------------------------------------------------------------

  write(chunk) {
    if (this.decoder === undefined) throw new TypeError('write() takes bytes of jsonl, sse or json-seq; use receiveMessage()');
    if (this.ended) return;
    const out = [];
    this.decoder.write(chunk instanceof Uint8Array ? chunk : new TextEncoder().encode(String(chunk)), out);
    for (const frame of out) this.frame(frame);
  }

  receiveMessage(message) {
    if (this.framing !== 'websocket') throw new TypeError('receiveMessage() is for a websocket consumer');
    if (this.ended) return;
    this.frame({ bytes: typeof message === 'string' ? new TextEncoder().encode(message) : message });
  }

  end() {
    if (this.ended) return;
    if (this.decoder !== undefined) {
      const out = [];
      this.decoder.end(out);
      for (const frame of out) this.frame(frame);
    }
    this.ended = true;
    // CL-D05-7: a stream that ends inside a transaction discards it.
    if (this.tx !== null) this.fail('INTERRUPTED');
  }

  /** One frame: quarantined, or its record handled (CL-D05-1, PRJ-RUI-FRAME-11 numbering). */
  frame(frame) {
    const index = this.frames;
    this.frames += 1;
    if (frame.invalid !== undefined) {
      this.quarantineFrame(index, frame.invalid);
      return;
    }
    let parsed;
    try {
      parsed = parseFrame(frame.bytes);
    } catch (error) {
      if (error instanceof TooDeep) {
        this.record(index, { code: 'LIMIT_DEPTH', tooDeep: true }, frame.bytes.length);
        return;
      }
      if (!(error instanceof NotJson)) throw error;
      this.quarantineFrame(index, 'FRAME_NOT_JSON');
      return;
    }
    this.record(index, readRecord(parsed.value, parsed.raw), frame.bytes.length);
  }

  quarantineFrame(index, code) {
    this.quarantine.push({ frame: index, code });
    // PRJ-RUI-TX-04: an invalid frame inside a transaction fails it (CL-D05-3).
    if (this.tx !== null) this.fail('FRAME_INVALID');
  }

  reject(index, code) {
    this.rejections.push({ frame: index, code });
  }

  // ---------------------------------------------------------------------------------------------
  // Transactions
  // ---------------------------------------------------------------------------------------------

  record(index, record, bytes) {
    if (this.tx === null) {
      if (record.tooDeep) this.reject(index, 'RECORD_OUTSIDE_TRANSACTION');
      else if (record.code !== undefined) this.reject(index, record.code);
      else if (record.op === 'begin') this.begin(record, bytes);
      else this.reject(index, 'RECORD_OUTSIDE_TRANSACTION');
      return;
    }
    if (record.code !== undefined) {
      this.fail(record.code);
      return;
    }
    if (record.op === 'begin') {
      // CL-D09-2: a begin while one is open discards it; RECOMMENDED: it opens the next one.
      this.fail('SUPERSEDED_BY_BEGIN');
      this.begin(record, bytes);
      return;
    }
    const tx = this.tx;
    if (record.seq !== tx.position) {
      this.fail('SEQUENCE_GAP');
      return;
    }
    tx.position += 1;
    try {
      tx.bytes += bytes;
      if (record.op === 'commit') {
        if (tx.bytes > this.limits.maxTransactionBytes) throw new Failure('LIMIT_TRANSACTION_BYTES');
        this.commit(record);
        return;
      }
      if (record.op === 'abort') {
        this.transactions.push({ transactionId: tx.transactionId, result: 'aborted' });
        this.tx = null;
        return;
      }
      tx.operations += 1;
      if (tx.operations > this.limits.maxOperations) throw new Failure('LIMIT_OPERATIONS');
      if (tx.bytes > this.limits.maxTransactionBytes) throw new Failure('LIMIT_TRANSACTION_BYTES');
      if (record.op === 'node') this.stageNode(record);
      else if (record.op === 'data') this.stageData(record);
      else this.stageDelete(record);
    } catch (failure) {
      if (!(failure instanceof Failure)) throw failure;
      this.fail(failure.code);
    }
  }

  begin(record, bytes) {
    this.tx = {
      transactionId: record.transactionId,
      baseRevision: record.baseRevision,
      position: 1,
      operations: 0,
      bytes,
      defined: new Set(),
      // Staged state: node definitions are replaced, never edited, so a shallow map copy is a copy.
      nodes: new Map(this.committed.nodes),
      data: undefined,
    };
    if (bytes > this.limits.maxTransactionBytes) this.fail('LIMIT_TRANSACTION_BYTES');
  }

  /** Ends the open transaction as rejected: nothing staged applies (CL-D02, CL-D05-6). */
  fail(code) {
    this.transactions.push({ transactionId: this.tx.transactionId, result: 'rejected', code });
    this.tx = null;
  }

  checkId(id) {
    if (id.length > this.limits.maxIdLength) throw new Failure('LIMIT_ID_LENGTH');
  }

  stageNode(record) {
    const tx = this.tx;
    this.checkId(record.nodeId);
    for (const child of record.children) this.checkId(child);
    if (record.children.length > this.limits.maxArrayLength) throw new Failure('LIMIT_ARRAY_LENGTH');
    boundValue(record.props, this.limits);
    // Spec "Node": 0.1 rejects duplicate node definitions within one transaction.
    if (tx.defined.has(record.nodeId)) throw new Failure('DUPLICATE_NODE');
    tx.defined.add(record.nodeId);
    // Catalog validity and the graph invariants are checked on the graph resulting at commit
    // (PRJ-RUI-TX-09): a later delete may still remove this definition.
    tx.nodes.set(record.nodeId, { component: record.component, props: record.props, children: record.children });
  }

  stagedData() {
    if (this.tx.data === undefined) this.tx.data = { value: copy(this.committed.data) };
    return this.tx.data;
  }

  stageData(record) {
    const tokens = parsePointer(record.pointer);
    if (tokens === undefined) throw new Failure('POINTER_INVALID');
    boundValue(record.value, this.limits);
    const doc = this.stagedData();
    if (tokens.length === 0) {
      // PRJ-RUI-DATA-04: the empty pointer replaces the whole document.
      doc.value = record.value;
      return;
    }
    const parent = this.resolveParent(doc.value, tokens);
    const last = tokens[tokens.length - 1];
    if (Array.isArray(parent)) {
      const index = arrayIndex(last);
      if (index === undefined || index > parent.length) throw new Failure('POINTER_INVALID');
      parent[index] = record.value;
    } else {
      Object.defineProperty(parent, last, { value: record.value, writable: true, enumerable: true, configurable: true });
    }
  }

  /** The container the pointer's last token lives in (CL-D03-2: a missing parent fails). */
  resolveParent(root, tokens) {
    let at = root;
    for (let i = 0; i < tokens.length - 1; i += 1) {
      // CL-D03-6 (RECOMMENDED): the '-' index names no element in 0.1.
      if (Array.isArray(at) && tokens[i] === '-') throw new Failure('POINTER_INVALID');
      at = child(at, tokens[i]);
      if (at === undefined) throw new Failure('DATA_PARENT_MISSING');
    }
    if (at === null || typeof at !== 'object') throw new Failure('DATA_PARENT_MISSING');
    return at;
  }

  stageDelete(record) {
    const tx = this.tx;
    if (record.target === 'node') {
      this.checkId(record.id);
      // CL-D03-5: deleting an absent node fails.
      if (!tx.nodes.has(record.id)) throw new Failure('DELETE_ABSENT');
      tx.nodes.delete(record.id);
      return;
    }
    const tokens = parsePointer(record.id);
    // PRJ-RUI-DATA-06: the empty pointer in a delete is refused.
    if (tokens === undefined || tokens.length === 0) throw new Failure('POINTER_INVALID');
    const doc = this.stagedData();
    let parent;
    try {
      parent = this.resolveParent(doc.value, tokens);
    } catch (failure) {
      // CL-D03-5: a member under a missing parent is an absent member too.
      throw failure.code === 'DATA_PARENT_MISSING' ? new Failure('DELETE_ABSENT') : failure;
    }
    const last = tokens[tokens.length - 1];
    if (Array.isArray(parent)) {
      const index = arrayIndex(last);
      if (index === undefined) throw new Failure(last === '-' ? 'POINTER_INVALID' : 'DELETE_ABSENT');
      if (index >= parent.length) throw new Failure('DELETE_ABSENT');
      parent.splice(index, 1);
    } else {
      if (!Object.hasOwn(parent, last)) throw new Failure('DELETE_ABSENT');
      delete parent[last];
    }
  }

  commit(record) {
    const tx = this.tx;
    this.checkId(record.rootId);
    // CL-D02: the base equals the committed revision, newRevision = baseRevision + 1.
    if (tx.baseRevision !== this.committed.revision) throw new Failure('STALE_BASE_REVISION');
    if (record.newRevision !== tx.baseRevision + 1) throw new Failure('REVISION_MISMATCH');
    const nodes = tx.nodes;
    // "Components and props validate against the negotiated catalog." Earlier commits validated
    // the nodes this transaction did not define, against the same catalog.
    for (const id of tx.defined) {
      const node = nodes.get(id);
      const code = node === undefined ? undefined : checkNode(this.catalog, node);
      if (code !== undefined) throw new Failure(code);
    }
    // "The committed root exists."
    if (!nodes.has(record.rootId)) throw new Failure('ROOT_MISSING');
    for (const node of nodes.values()) {
      // "Every structural child reference resolves." (every node, reachable or not)
      for (const id of node.children) if (!nodes.has(id)) throw new Failure('CHILD_UNRESOLVED');
      // "Child lists contain no duplicates."
      if (new Set(node.children).size !== node.children.length) throw new Failure('DUPLICATE_CHILD');
    }
    // "The reachable graph is acyclic." and maxDepth over the node tree (PRJ-RUI-LIMIT-12).
    if (graphDepth(nodes, record.rootId) > this.limits.maxDepth) throw new Failure('LIMIT_DEPTH');
    const data = tx.data === undefined ? this.committed.data : tx.data.value;
    this.committed = Object.freeze({ revision: record.newRevision, root: record.rootId, nodes, data });
    this.transactions.push({ transactionId: tx.transactionId, result: 'committed', revision: record.newRevision });
    this.tx = null;
  }

  // ---------------------------------------------------------------------------------------------
  // Reading and actions
  // ---------------------------------------------------------------------------------------------

  getSnapshot() {
    const nodes = {};
    for (const [id, node] of this.committed.nodes) {
      Object.defineProperty(nodes, id, {
        value: { component: node.component, props: copy(node.props), children: [...node.children] },
        writable: true, enumerable: true, configurable: true,
      });
    }
    return { revision: this.committed.revision, root: this.committed.root, nodes, data: copy(this.committed.data) };
  }

  getTransactions() {
    return this.transactions.map((t) => ({ ...t }));
  }

  getQuarantine() {
    return this.quarantine.map((q) => ({ ...q }));
  }

  getRejections() {
    return this.rejections.map((r) => ({ ...r }));
  }

  getFrameCount() {
    return this.frames;
  }

  setActionPolicy(policy) {
    this.policy = policy;
  }

  /**
   * The host UI dispatches the action request held by `prop` of committed node `nodeId` (CL-D06-5,
   * -6): only a committed request exists; it goes to the host policy, whose decision alone lets it
   * through. Resolves to `{ status: "allowed" }`, `{ status: "denied", code }` or
   * `{ status: "rejected", code }`.
   */
  async dispatchAction(nodeId, prop) {
    const node = this.committed.nodes.get(nodeId);
    const component = node === undefined ? undefined : this.catalog.components.get(node.component);
    const request = node === undefined || !Object.hasOwn(node.props, prop) ? undefined : node.props[prop];
    if (component === undefined || !component.actions.includes(prop) || !isActionRequest(request)) {
      return { status: 'rejected', code: 'ACTION_NOT_FOUND' };
    }
    if (typeof this.policy !== 'function') return { status: 'denied', code: 'POLICY_DENIED' };
    let decision;
    try {
      decision = await this.policy({ node: nodeId, prop, capabilityId: request.capabilityId, input: copy(request.input) });
    } catch {
      return { status: 'rejected', code: 'POLICY_EVALUATION_FAILED' };
    }
    if (isObject(decision) && decision.decision === 'allow') return { status: 'allowed' };
    if (isObject(decision) && decision.decision === 'deny') return { status: 'denied', code: 'POLICY_DENIED' };
    return { status: 'rejected', code: 'POLICY_EVALUATION_FAILED' };
  }
}

/** RFC 6901 array index: "0" or digits without a leading zero ('-' is refused, CL-D03-6). */
function arrayIndex(token) {
  return /^(?:0|[1-9][0-9]*)$/.test(token) ? Number(token) : undefined;
}

function child(container, token) {
  if (Array.isArray(container)) {
    const index = arrayIndex(token);
    return index === undefined || index >= container.length ? undefined : container[index];
  }
  if (isObject(container) && Object.hasOwn(container, token)) return container[token];
  return undefined;
}

/** The longest path from the root (the root alone is 1); a reachable cycle is GRAPH_CYCLE. */
function graphDepth(nodes, rootId) {
  const depth = new Map();
  const onPath = new Set();
  const visit = (id) => {
    if (onPath.has(id)) throw new Failure('GRAPH_CYCLE');
    if (depth.has(id)) return depth.get(id);
    onPath.add(id);
    let deepest = 0;
    for (const next of nodes.get(id).children) deepest = Math.max(deepest, visit(next));
    onPath.delete(id);
    depth.set(id, deepest + 1);
    return deepest + 1;
  };
  return visit(rootId);
}

