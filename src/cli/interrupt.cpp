#include "cli/interrupt.hpp"

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <iostream>
#include <string>
#include <system_error>
#include <utility>

namespace moon::cli {

namespace {

// All a signal handler may touch: a lock-free atomic. Requesting the stop (which may take
// locks and run callbacks) is the watcher thread's job.
std::atomic<bool> signalled{false};
static_assert(std::atomic<bool>::is_always_lock_free);

struct sigaction replaced;  // SIGINT's handling before the InterruptWatch

extern "C" void on_interrupt(int) { signalled.store(true); }

struct sigaction replaced_by_farewell;  // SIGINT's handling before the FarewellOnInterrupt

// FarewellOnInterrupt's text, for its handler: write() and raise() are async-signal-safe.
std::atomic<const char*> farewell_text{nullptr};
std::atomic<std::size_t> farewell_size{0};
static_assert(std::atomic<const char*>::is_always_lock_free && std::atomic<std::size_t>::is_always_lock_free);

extern "C" void on_interrupt_farewell(int) {
  const char* text = farewell_text.load();
  std::size_t left = farewell_size.load();
  while (left > 0) {
    const ssize_t written = write(STDOUT_FILENO, text, left);
    if (written <= 0) break;  // nowhere to write it: the program ends all the same
    text += written;
    left -= std::size_t(written);
  }
  // SA_RESETHAND made the handling the default again; SIGINT, blocked while this handler runs,
  // is delivered as it returns and ends the program.
  raise(SIGINT);
}

// Makes `handler` SIGINT's handling, the handling before it kept in `before`; false, with nothing
// changed, if the program was started with SIGINT ignored (as a shell starts a script's
// background jobs, so that Ctrl-C reaches only the foreground): it stays ignored. SA_RESETHAND:
// once handled, SIGINT is back to its default, so a second Ctrl-C kills.
bool handle_interrupts(void (*handler)(int), struct sigaction& before) {
  sigaction(SIGINT, nullptr, &before);
  if (!(before.sa_flags & SA_SIGINFO) && before.sa_handler == SIG_IGN) return false;
  struct sigaction action {};
  action.sa_handler = handler;
  sigemptyset(&action.sa_mask);
  action.sa_flags = int(SA_RESETHAND | SA_RESTART);  // SA_RESETHAND is the sign bit
  sigaction(SIGINT, &action, &before);
  return true;
}

}  // namespace

InterruptWatch::InterruptWatch(std::string_view command, std::string_view doing,
                               std::function<void(const std::string&)> write_notice)
    : command_(command), doing_(doing), write_notice_(std::move(write_notice)) {
  // Started with SIGINT ignored, there is nothing to watch.
  if (!handle_interrupts(on_interrupt, replaced)) return;
  // A Ctrl-C before the watcher's first look is not lost: the flag waits for it.
  try {
    watcher_ = std::jthread([this](std::stop_token end) { watch(end); });
  } catch (const std::system_error& e) {
    sigaction(SIGINT, &replaced, nullptr);  // no watcher: Ctrl-C must not be swallowed
    signalled.store(false);
    throw std::system_error(e.code(), "cannot start the thread that watches for Ctrl-C");
  } catch (...) {
    sigaction(SIGINT, &replaced, nullptr);
    signalled.store(false);
    throw;
  }
}

InterruptWatch::~InterruptWatch() {
  if (!watcher_.joinable()) return;  // SIGINT was ignored: nothing was changed
  sigaction(SIGINT, &replaced, nullptr);
  watcher_.request_stop();
  watcher_.join();
  signalled.store(false);  // for the next watch
}

// A handler cannot wake a condition variable, so the watcher looks at the flag every 20 ms
// (nothing for a person's key press; a thread asleep the rest of the time).
void InterruptWatch::watch(std::stop_token end) {
  std::unique_lock lock(mutex_);
  while (!wake_.wait_for(lock, end, std::chrono::milliseconds(20), [] { return signalled.load(); })) {
    if (end.stop_requested()) return;
  }
  // One write, so that the line cannot interleave with the command's output on a shared pipe.
  const std::string notice = "moon " + command_ + ": interrupted, " + doing_ + " (Ctrl-C again to quit at once)\n";
  if (write_notice_)
    write_notice_(notice);
  else
    std::cerr << notice << std::flush;
  stop_.request_stop();
}

FarewellOnInterrupt::FarewellOnInterrupt(std::string farewell) : farewell_(std::move(farewell)) {
  // The text is in place before the handler that reads it.
  farewell_text.store(farewell_.data());
  farewell_size.store(farewell_.size());
  installed_ = handle_interrupts(on_interrupt_farewell, replaced_by_farewell);
}

FarewellOnInterrupt::~FarewellOnInterrupt() {
  if (installed_) sigaction(SIGINT, &replaced_by_farewell, nullptr);
  farewell_size.store(0);
  farewell_text.store(nullptr);
}

}  // namespace moon::cli
