// The second independent scanner of the redaction check (adapter/test/secret_scanner_process_test.cc,
// installed by ci/npm-nosecrets.sh): eslint-plugin-no-secrets with its own patterns and its
// entropy detector at the plugin's default tolerance (4 bits per character). The test writes each
// channel (collector bodies, queue, debug log, stdout, stderr) as a JavaScript array of string
// literals, one per line the adapter wrote, so the rule sees those exact bytes.
// Only the tokenising is ours: strings are split at JSON, shell and URL punctuation as well as at
// spaces (the plugin splits at spaces only, so a whole JSON line would be one "token"). No pattern of the plugin is changed or added.
import noSecrets from "eslint-plugin-no-secrets";

export default [
  {
    files: ["**/*.js"],
    plugins: { "no-secrets": noSecrets },
    rules: {
      "no-secrets/no-secrets": [
        "error",
        {
          tolerance: 4,
          additionalDelimiters: ["[\\s\"'`,;:=(){}\\[\\]<>|&@?!*#\\\\]"],
        },
      ],
    },
  },
];
