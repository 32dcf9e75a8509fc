// Stand-in for deel-local-cli's tools/shell.js (not in the seed): bash -c on Linux (ASSUMPTION).
export function 셸고르기() {
  return { file: 'bash', 명령: (c) => ['-c', c], verbatim: false };
}
