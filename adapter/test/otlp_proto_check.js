'use strict';
// OTLP/HTTP JSON trace requests checked against the official protobuf schema: the .proto files of
// opentelemetry-proto v1.4.0 loaded by protobufjs (both installed by ci/npm-otlp-proto.sh). Used
// by adapter/test/otlp_proto_process_test.cc.
//
//   node otlp_proto_check.js PREFIX BODY.json...
//     PREFIX: what ci/npm-otlp-proto.sh printed. Prints one JSON line per body:
//     {"file","ok","spans","errors":[...]}. Exit 0: every body is valid; 1: some body is not;
//     2: usage or set-up error (one stderr line).
//
// Every field of every message is looked up by reflection in the loaded schema
// (opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest and what it references), and
// the value is held to the proto3 JSON mapping with the OTLP deviations (opentelemetry-proto v1.4.0
// docs/specification.md "JSON Protobuf Encoding"):
//   * keys are the lowerCamelCase JSON names; original proto names are rejected (OTLP), and so are
//     unknown fields: a receiver ignores them (same section), so a misspelt field is data lost;
//   * traceId / spanId / parentSpanId are hex strings (OTLP; not base64), 16 / 8 bytes, not all
//     zero (trace.proto: "A valid trace identifier is a 16-byte array with at least one non-zero
//     byte"); other bytes fields are base64;
//   * enums are integers (OTLP: "enum name strings MUST NOT be used") and one of the enum's values;
//   * 64-bit integers are decimal strings (proto3 JSON's canonical form; a JSON number is rejected
//     here as non-canonical), in range; 32-bit integers are JSON numbers in range; doubles are
//     numbers (or "NaN", "Infinity", "-Infinity");
//   * strings are valid UTF-8 (no lone surrogate escapes), booleans are true/false, repeated fields
//     are arrays, messages are objects; null is not used; at most one member of a oneof is set.
// Then the body goes through protobufjs itself: fromObject, verify, binary encode and decode, and
// the decoded message, written back as OTLP/JSON, must equal the body (default values aside, as
// proto3 does not send them).
const fs = require('fs');
const path = require('path');

function die(msg) {
  process.stderr.write(`otlp_proto_check: ${msg}\n`);
  process.exit(2);
}

const [prefix, ...files] = process.argv.slice(2);
if (!prefix || files.length === 0) die('usage: node otlp_proto_check.js PREFIX BODY.json...');
let protobuf;
try {
  protobuf = require(path.join(prefix, 'node_modules', 'protobufjs'));
} catch (e) {
  die(`cannot load protobufjs from ${prefix}: ${e.message}`);
}
const includeRoot = path.join(prefix, 'protos');
const root = new protobuf.Root();
root.resolvePath = (origin, target) => (path.isAbsolute(target) ? target : path.join(includeRoot, target));
let Request;
try {
  root.loadSync('opentelemetry/proto/collector/trace/v1/trace_service.proto', { keepCase: true });
  root.resolveAll();
  Request = root.lookupType('opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest');
} catch (e) {
  die(`cannot load the OTLP .proto files from ${includeRoot}: ${e.message}`);
}

// proto3 JSON name of a field (protobuf's ToJsonName), unless the .proto sets json_name.
function jsonName(field) {
  if (field.options && field.options.json_name) return field.options.json_name;
  let out = '';
  let up = false;
  for (const c of field.name) {
    if (c === '_') up = true;
    else {
      out += up ? c.toUpperCase() : c;
      up = false;
    }
  }
  return out;
}

const fieldTables = new Map();
function fields(type) {
  let t = fieldTables.get(type);
  if (!t) {
    t = { byJson: new Map(), byProto: new Map() };
    for (const f of type.fieldsArray) {
      t.byJson.set(jsonName(f), f);
      t.byProto.set(f.name, f);
    }
    fieldTables.set(type, t);
  }
  return t;
}

// OTLP hex ids: the trace_id / span_id / parent_span_id bytes fields of any message.
function idBytes(field) {
  if (field.type !== 'bytes') return 0;
  if (/(^|_)trace_id$/.test(field.name)) return 16;
  if (/(^|_)span_id$/.test(field.name)) return 8;
  return 0;
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const RANGES = {
  int32: [-(2n ** 31n), 2n ** 31n - 1n],
  sint32: [-(2n ** 31n), 2n ** 31n - 1n],
  sfixed32: [-(2n ** 31n), 2n ** 31n - 1n],
  uint32: [0n, 2n ** 32n - 1n],
  fixed32: [0n, 2n ** 32n - 1n],
  int64: [-(2n ** 63n), 2n ** 63n - 1n],
  sint64: [-(2n ** 63n), 2n ** 63n - 1n],
  sfixed64: [-(2n ** 63n), 2n ** 63n - 1n],
  uint64: [0n, 2n ** 64n - 1n],
  fixed64: [0n, 2n ** 64n - 1n],
};
const IS64 = new Set(['int64', 'sint64', 'sfixed64', 'uint64', 'fixed64']);

function checkScalar(field, v, where, errs) {
  const t = field.type;
  const ids = idBytes(field);
  if (ids) {
    if (typeof v !== 'string' || !/^[0-9a-fA-F]*$/.test(v) || v.length % 2) {
      errs.push(`${where}: ${jsonName(field)} must be a hex string (OTLP/JSON), got ${JSON.stringify(v)}`);
    } else if (v === '' && field.name === 'parent_span_id') {
      // a root span: the empty (default) value
    } else if (v.length !== ids * 2) {
      errs.push(`${where}: ${jsonName(field)} must be ${ids} bytes (${ids * 2} hex digits), got ${v.length / 2}`);
    } else if (/^0+$/.test(v)) {
      errs.push(`${where}: ${jsonName(field)} is all zero (invalid id)`);
    }
    return;
  }
  switch (t) {
    case 'string':
      if (typeof v !== 'string') errs.push(`${where}: string expected, got ${JSON.stringify(v)}`);
      else if (LONE_SURROGATE.test(v)) errs.push(`${where}: string is not valid UTF-8 (lone surrogate)`);
      return;
    case 'bool':
      if (typeof v !== 'boolean') errs.push(`${where}: boolean expected, got ${JSON.stringify(v)}`);
      return;
    case 'bytes':
      if (typeof v !== 'string' || !/^[A-Za-z0-9+/_-]*={0,2}$/.test(v)) {
        errs.push(`${where}: base64 string expected, got ${JSON.stringify(v)}`);
      }
      return;
    case 'double':
    case 'float':
      if (typeof v === 'number' ? !Number.isFinite(v) : !['NaN', 'Infinity', '-Infinity'].includes(v)) {
        errs.push(`${where}: number expected, got ${JSON.stringify(v)}`);
      }
      return;
    default:
      break;
  }
  const range = RANGES[t];
  if (!range) {
    errs.push(`${where}: unsupported scalar type ${t}`);
    return;
  }
  let n;
  if (IS64.has(t)) {
    if (typeof v === 'number') {
      errs.push(`${where}: ${t} as a JSON number; OTLP/JSON writes 64-bit integers as decimal strings`);
      return;
    }
    if (typeof v !== 'string' || !/^-?(0|[1-9][0-9]*)$/.test(v)) {
      errs.push(`${where}: ${t} must be a decimal string, got ${JSON.stringify(v)}`);
      return;
    }
    n = BigInt(v);
  } else {
    if (typeof v !== 'number' || !Number.isInteger(v)) {
      errs.push(`${where}: ${t} must be a JSON integer, got ${JSON.stringify(v)}`);
      return;
    }
    n = BigInt(v);
  }
  if (n < range[0] || n > range[1]) errs.push(`${where}: ${t} out of range: ${v}`);
}

function checkValue(field, v, where, errs, depth) {
  if (v === null) {
    errs.push(`${where}: null (write the field or leave it out)`);
    return;
  }
  const rt = field.resolvedType;
  if (rt instanceof protobuf.Enum) {
    if (typeof v === 'string') {
      errs.push(`${where}: enum ${rt.name} as the name ${JSON.stringify(v)}; OTLP/JSON requires the integer`);
    } else if (!Number.isInteger(v) || !Object.values(rt.values).includes(v)) {
      errs.push(`${where}: ${JSON.stringify(v)} is not a value of enum ${rt.fullName}`);
    }
    return;
  }
  if (rt instanceof protobuf.Type) {
    checkMessage(rt, v, where, errs, depth + 1);
    return;
  }
  checkScalar(field, v, where, errs);
}

function checkMessage(type, obj, where, errs, depth) {
  if (depth > 64) {
    errs.push(`${where}: nested too deep`);
    return;
  }
  if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) {
    errs.push(`${where}: ${type.fullName} must be a JSON object, got ${JSON.stringify(obj)}`);
    return;
  }
  const t = fields(type);
  for (const key of Object.keys(obj)) {
    const field = t.byJson.get(key);
    if (!field) {
      const proto = t.byProto.get(key);
      errs.push(proto
        ? `${where}: '${key}' is the proto field name; OTLP/JSON requires '${jsonName(proto)}'`
        : `${where}: unknown field '${key}' in ${type.fullName}`);
      continue;
    }
    const v = obj[key];
    const w = `${where}.${key}`;
    if (field.map) {
      errs.push(`${w}: map fields are not used by OTLP traces`);
    } else if (field.repeated) {
      if (!Array.isArray(v)) errs.push(`${w}: repeated field must be an array`);
      else v.forEach((e, i) => checkValue(field, e, `${w}[${i}]`, errs, depth));
    } else {
      checkValue(field, v, w, errs, depth);
    }
  }
  for (const oneof of type.oneofsArray) {
    const set = oneof.oneof.filter((name) => obj[jsonName(type.fields[name])] !== undefined);
    if (set.length > 1) errs.push(`${where}: oneof ${oneof.name} has ${set.length} members set (${set.join(', ')})`);
  }
}

// ---- protobufjs round trip ----

function hexToBytes(s) {
  return Buffer.from(s, 'hex');
}

// OTLP/JSON → the plain object protobufjs' fromObject reads (keepCase names, ids as bytes).
function toProtoObject(type, obj) {
  const out = {};
  const t = fields(type);
  for (const [key, v] of Object.entries(obj)) {
    const field = t.byJson.get(key);
    const conv = (x) => {
      if (field.resolvedType instanceof protobuf.Type) return toProtoObject(field.resolvedType, x);
      if (idBytes(field)) return hexToBytes(x);
      return x;
    };
    out[field.name] = field.repeated ? v.map(conv) : conv(v);
  }
  return out;
}

function isDefault(field, v) {
  if (field.repeated) return v.length === 0;
  if (field.resolvedType instanceof protobuf.Type) return false;  // presence is kept
  return v === '' || v === 0 || v === false || v === '0';
}

// The OTLP/JSON form proto3 would reproduce: fields at their default value left out, except oneof
// members and messages (their presence is encoded); hex ids in lowercase.
function canonical(type, obj) {
  const out = {};
  const t = fields(type);
  for (const key of Object.keys(obj).sort()) {
    const field = t.byJson.get(key);
    const v = obj[key];
    if (!field.partOf && isDefault(field, v)) continue;
    const conv = (x) => {
      if (field.resolvedType instanceof protobuf.Type) return canonical(field.resolvedType, x);
      return idBytes(field) ? x.toLowerCase() : x;  // hex ids are case-insensitive
    };
    out[key] = field.repeated ? v.map(conv) : conv(v);
  }
  return out;
}

// A decoded message's toObject (keepCase, longs as strings, bytes base64) → OTLP/JSON.
function fromProtoObject(type, obj) {
  const out = {};
  for (const name of Object.keys(obj)) {
    const field = type.fields[name];
    const conv = (x) => {
      if (field.resolvedType instanceof protobuf.Type) return fromProtoObject(field.resolvedType, x);
      if (idBytes(field)) return Buffer.from(x, 'base64').toString('hex');
      return x;
    };
    out[jsonName(field)] = field.repeated ? obj[name].map(conv) : conv(obj[name]);
  }
  return canonical(type, out);
}

function stable(v) {
  if (Array.isArray(v)) return `[${v.map(stable).join(',')}]`;
  if (v && typeof v === 'object') {
    return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${stable(v[k])}`).join(',')}}`;
  }
  return JSON.stringify(v);
}

function roundTrip(body, errs) {
  const message = Request.fromObject(toProtoObject(Request, body));
  const bad = Request.verify(message);
  if (bad) {
    errs.push(`protobufjs verify: ${bad}`);
    return;
  }
  const decoded = Request.decode(Request.encode(message).finish());
  const back = fromProtoObject(
    Request, Request.toObject(decoded, { longs: String, enums: Number, bytes: String, defaults: false }));
  const want = canonical(Request, body);
  if (stable(back) !== stable(want)) {
    errs.push('the body does not survive a protobuf encode/decode unchanged');
  }
}

function spanCount(body) {
  let n = 0;
  for (const rs of body.resourceSpans || []) for (const ss of rs.scopeSpans || []) n += (ss.spans || []).length;
  return n;
}

let allOk = true;
for (const file of files) {
  const errs = [];
  let body;
  let spans = 0;
  try {
    body = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (e) {
    errs.push(`not JSON: ${e.message}`);
  }
  if (body !== undefined) {
    checkMessage(Request, body, 'request', errs, 0);
    if (errs.length === 0) {
      spans = spanCount(body);
      try {
        roundTrip(body, errs);
      } catch (e) {
        errs.push(`protobufjs: ${e.message}`);
      }
    }
  }
  allOk = allOk && errs.length === 0;
  process.stdout.write(`${JSON.stringify({ file, ok: errs.length === 0, spans, errors: errs.slice(0, 20) })}\n`);
}
process.exit(allOk ? 0 : 1);
