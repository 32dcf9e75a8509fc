// Stand-in for deel-local-cli's safety/trust.js (not in the seed): trust is an input, set by the
// harness per configuration (hostemu deel run --trusted).
let 믿음 = false;
export function 믿게하기(v) { 믿음 = !!v; }
export function 믿나() { return 믿음; }
