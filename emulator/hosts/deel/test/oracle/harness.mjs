// deel_diff_test oracle: runs the seed's own hooks.js (extracted at test time next to this file
// as src/safety/hooks.js) on every configuration and prints one JSON line each, shaped like
// `hostemu deel run`. argv[2]: a JSON file [{name, home, ws, event, tool?, trusted, noHooks,
// env, payload}] (the test has already built each home and workspace).
import { readFileSync } from 'node:fs';
import { 훅읽기, 자리돌리기, 막힘말, 자리표 } from './src/safety/hooks.js';
import { 믿게하기 } from './src/safety/trust.js';

const configs = JSON.parse(readFileSync(process.argv[2], 'utf8'));
for (const c of configs) {
  process.chdir(c.ws);
  process.env.HOME = c.home;
  믿게하기(c.trusted);
  const r = 훅읽기(c.ws, { env: c.env ?? {}, 집: c.home, 켜짐: c.noHooks ? false : null });
  const 자리 = 자리표[c.event] ?? c.event;
  const run = await 자리돌리기(r.훅들, 자리, {
    도구: c.tool === undefined ? null : c.tool,
    넣을것: c.payload === undefined ? {} : c.payload,
  });
  const out = {
    enabled: r.켜짐,
    disabledBy: r.왜꺼짐,
    loaded: r.훅들.map((h) => ({
      event: h.자리, matcher: h.무늬글, command: h.명령, timeoutMs: h.제한,
      passOnFailure: h.지나갈까, source: h.출처, name: h.이름,
    })),
    dropped: [...r.이PC.버린것, ...r.프로젝트.버린것],
    fileErrors: { pc: !!r.이PC.오류, project: !!r.프로젝트.오류 },
    untrustedProject: r.안믿음,
    overflow: r.넘침,
    results: run.결과들.map((x) => ({
      command: x.훅.명령, code: x.코드, blocked: x.막나, why: x.왜, message: x.말, truncated: x.잘림,
    })),
    blocked: !!run.막힘,
    blockMessage: run.막힘 ? 막힘말(run.막힘) : null,
  };
  process.stdout.write(`${JSON.stringify({ name: c.name, out })}\n`);
}
