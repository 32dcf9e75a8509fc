#!/usr/bin/env node
// intent: deny
// Claude Code's JSON refusal (node): Write/Edit outside src/ gets
// hookSpecificOutput.permissionDecision "deny" with a permissionDecisionReason on stdout, exit 0
// (the model is told `PreToolUse:Write hook error: <reason>`); anything else gets no output.
let raw = '';
process.stdin.on('data', (c) => { raw += c; });
process.stdin.on('end', () => {
  const ev = JSON.parse(raw);
  const path = (ev.tool_input && ev.tool_input.file_path) || '';
  if (['Write', 'Edit'].includes(ev.tool_name) && !path.includes('/src/')) {
    process.stdout.write(JSON.stringify({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: `only src/ may be edited here, not ${path}`,
      },
    }) + '\n');
  }
});
