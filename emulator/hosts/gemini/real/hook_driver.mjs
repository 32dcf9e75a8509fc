// hook_driver.mjs — runs hook cases through the REAL HookRunner of @google/gemini-cli-core 0.61.0
// (dist/src/hooks/hookRunner.js), for the differential lane (ctest label real-host).
//
// usage: node hook_driver.mjs <npm-prefix> <cases.jsonl> <results.jsonl> [concurrency]
// Each case line: {"id","event","command","timeout"?(any JSON, passed as is),"source"?,"name"?,
//                  "env"?{hook.env},"plans_dir","input"{stdin object}}
// Each result line: {"id","success","exitCode","outputFormat","output","error","stdout","stderr"}
// with undefined → null and error → its message, i.e. the shape `hostemu gemini run-hook` prints.
// The runner's debug logger writes to stdout/stderr; results therefore go to a file.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [prefix, casesFile, resultsFile, concArg] = process.argv.slice(2);
if (!prefix || !casesFile || !resultsFile) {
  console.error('usage: node hook_driver.mjs <npm-prefix> <cases.jsonl> <results.jsonl> [concurrency]');
  process.exit(2);
}
const core = path.join(prefix, 'node_modules/@google/gemini-cli-core/dist/src/hooks/hookRunner.js');
const { HookRunner } = await import(pathToFileURL(core).href);

const cases = fs.readFileSync(casesFile, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));
const results = new Array(cases.length);
const conc = Number(concArg || 8);

function runnerFor(c) {
  // The minimal Config the runner needs (shared/reference/real-hosts.md).
  return new HookRunner({
    isTrustedFolder: () => c.trusted !== false,
    sanitizationConfig: { enableEnvironmentVariableRedaction: false },
    storage: { getPlansDir: () => c.plans_dir },
  });
}

async function runOne(i) {
  const c = cases[i];
  const hook = { type: 'command', command: c.command, source: c.source || 'user' };
  if ('timeout' in c) hook.timeout = c.timeout;
  if (c.name) hook.name = c.name;
  if (c.env) hook.env = c.env;
  const r = await runnerFor(c).executeHook(hook, c.event, c.input);
  results[i] = {
    id: c.id,
    success: r.success,
    exitCode: r.exitCode === undefined ? null : r.exitCode,
    outputFormat: r.outputFormat === undefined ? null : r.outputFormat,
    output: r.output === undefined ? null : r.output,
    error: r.error ? r.error.message : null,
    stdout: r.stdout ?? null,
    stderr: r.stderr ?? null,
    duration: r.duration,
  };
}

let next = 0;
async function worker() {
  while (next < cases.length) {
    const i = next++;
    await runOne(i);
  }
}
await Promise.all(Array.from({ length: Math.min(conc, cases.length) }, worker));
fs.writeFileSync(resultsFile, results.map((r) => JSON.stringify(r)).join('\n') + '\n');
process.exit(0);
