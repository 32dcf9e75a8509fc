// File: common/include/pinta/common/thread_signals.h
// For a thread that serves sockets in the background (the cpp-httplib servers of the model
// server and the fakes): block the asynchronous signals in it, so a process-directed signal
// (libFuzzer's SIGALRM timer, a test's SIGTERM) is taken by a thread that expects it. cpp-httplib
// 0.11's accept loop treats any accept() error but EMFILE as fatal and closes the listening
// socket for good, so an EINTR there would end the server. Threads started by the calling thread
// (the server's worker pool) inherit the mask. Synchronous fault signals stay unblocked (blocking
// them is undefined when the fault happens).
#pragma once

#include <pthread.h>
#include <signal.h>

namespace pinta {

inline void block_async_signals_in_this_thread() noexcept {
  sigset_t set;
  sigfillset(&set);
  for (int s : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGSYS})
    sigdelset(&set, s);
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
}

}  // namespace pinta
