#!/usr/bin/env node
// intent: allow
// An explicit JSON allow (node), after reading the whole event.
const chunks = [];
process.stdin.on('data', (c) => chunks.push(c));
process.stdin.on('end', () => {
  JSON.parse(Buffer.concat(chunks).toString('utf8'));
  process.stdout.write('{"decision":"allow"}\n');
});
