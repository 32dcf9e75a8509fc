#!/usr/bin/env node
// intent: context
// A context injector (node): before the agent plans, adds the team's conventions to the prompt
// through hookSpecificOutput.additionalContext.
let raw = '';
process.stdin.on('data', (c) => { raw += c; });
process.stdin.on('end', () => {
  const ev = JSON.parse(raw || '{}');
  process.stdout.write(JSON.stringify({
    hookSpecificOutput: {
      hookEventName: ev.hook_event_name || 'BeforeAgent',
      additionalContext: 'Conventions: tests live in test/, never commit secrets.',
    },
  }) + '\n');
});
