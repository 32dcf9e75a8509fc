// The deel-local-cli judge of the protocol profile's verdicts (conformance/test/protocol-hooks.sh):
// the seed's own hooks.js (deel-local-cli 1.17.1, extracted at test time next to this file as
// src/safety/hooks.js, with the project's stand-ins for the modules the seed omits) reads each
// registration with its own 훅펴기 and runs it with 자리돌리기, printing one JSON line per case:
// {id, code, blocked, why, message, ms}.
// argv[2]: a JSON file [{id, entry (one hooks.json entry) or config (a whole hooks file, any shape
// 훅펴기 reads), event (Korean), tool, payload, cwd}].
import { readFileSync } from 'node:fs';
import { 훅펴기, 자리돌리기 } from './src/safety/hooks.js';

const cases = JSON.parse(readFileSync(process.argv[2], 'utf8'));
for (const c of cases) {
  process.chdir(c.cwd);
  const { 훅들 } = 훅펴기(c.config ?? [c.entry], '프로젝트');
  const run = await 자리돌리기(훅들, c.event, { 도구: c.tool ?? null, 넣을것: c.payload ?? {} });
  const r = run.결과들[0];
  const out = r
    ? { code: r.코드, blocked: !!r.막나, why: r.왜, message: r.말, ms: r.ms }
    : { code: null, blocked: false, why: 'not selected', message: '', ms: 0 };
  process.stdout.write(`${JSON.stringify({ id: c.id, ...out })}\n`);
}
