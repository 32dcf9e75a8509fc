const fs = require('fs');
const path = require('path');
const directiveContent = require('./directive.js');

/**
 * INITIALIZES RALPH MODE AFTER THE START TOOL IS CALLED.
 **/

const STATE_FILE = path.join(process.cwd(), 'conductor', '.ralph-state.json');

async function main() {
  // Read Input
  let context;
  try {
    context = JSON.parse(fs.readFileSync(0, 'utf8'));
  } catch (e) {
    console.log(JSON.stringify({}));
    return;
  }

  const { hook_event_name, tool_name, tool_input } = context;

  // Check if this is the start tool
  if (hook_event_name !== 'AfterTool' || !tool_name.endsWith('ralph_start')) {
    console.log(JSON.stringify({}));
    return;
  }

  // --- RALPH MODE DETECTED ---

  const prompt = tool_input.prompt || "";
  const completionWord = tool_input.completionWord || 'TRACK_COMPLETE';
  const maxIterations = tool_input.maxIterations || 10;

  // Create State File
  const state = {
    completionWord: completionWord,
    maxIterations: maxIterations,
    iteration: 1,
    startedAt: new Date().toISOString(),
    originalPrompt: prompt,
  };

  try {
    const dir = path.dirname(STATE_FILE);
    if (!fs.existsSync(dir)) fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(STATE_FILE, JSON.stringify(state, null, 2));
  } catch (e) {
    console.log(JSON.stringify({
      decision: "deny",
      reason: `CRITICAL: Ralph Mode failed to initialize. Could not create state file (${e.message}). Aborting autonomous mode.`,
      systemMessage: "🛑 Ralph Init Failed: File system error."
    }));
    return;
  }

  // Inject Directive
  const directive = directiveContent.replace('{{COMPLETION_WORD}}', completionWord);

  // Output the JSON response
  console.log(JSON.stringify({
    hookSpecificOutput: {
      hookEventName: "AfterTool",
      additionalContext: directive
    },
    systemMessage: "🔴 Ralph Mode Activated: TDD Loop Engaged.",
  }));
}

main().catch(err => {
  console.error(`[Ralph Init] Fatal: ${err.message}`);
  process.exit(1);
});