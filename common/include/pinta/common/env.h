#pragma once
// getenv for a process whose environment may be large.
//
// glibc's getenv walks environ from the start on every call, comparing names; the adapter looks up
// a few dozen names per event, most of them unset. With an env file at its 1 MiB cap merged into
// environ (~30,000 entries) that walk was a third of the event's instructions
// (docs/benchmarks-history.md, env file at its cap). `get` answers from a hash index of environ's names
// when environ is large, and is plain getenv otherwise (no start-up cost on the usual path).
//
// The index is checked on every call against the environ it was built from (the array pointer,
// its length, and the name at the slot found), so setenv/unsetenv/putenv in between are seen: a
// changed environ is indexed again, never answered from a stale index. Single-threaded callers
// only, as getenv with setenv.

namespace pinta::env {

const char* get(const char* name);

}  // namespace pinta::env
