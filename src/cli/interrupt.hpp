// Ctrl-C as a stop request for the commands that run long (analyze, solve, perft, match, and
// play while the engine thinks): the first one stops the work, which then prints what it has (the
// best move so far, the games played), where the default would kill the program mid-line; a
// second one kills it as usual. And Ctrl-C that quits with last words (play's prompt).
#pragma once

#include <condition_variable>
#include <functional>
#include <mutex>
#include <stop_token>
#include <string>
#include <string_view>
#include <thread>

namespace moon::cli {

// Exit status of a command stopped by Ctrl-C, as a shell reports a program killed by SIGINT.
inline constexpr int interrupted_status = 130;

// While it lives, SIGINT requests stop on token() and writes "moon <command>: interrupted,
// <doing> (Ctrl-C again to quit at once)" to standard error, unless the program was started
// with SIGINT ignored. One at a time in a process (the signal's handling is process-wide); one
// after another is fine (moon play watches each time the engine thinks). With `write_notice`,
// the notice (a whole line, newline included) is handed to it instead, from the watcher's
// thread: for a command whose progress line on a terminal must be ended first.
class InterruptWatch {
 public:
  explicit InterruptWatch(std::string_view command, std::string_view doing = "stopping",
                          std::function<void(const std::string&)> write_notice = {});
  ~InterruptWatch();  // the handling before it, back
  InterruptWatch(const InterruptWatch&) = delete;
  InterruptWatch& operator=(const InterruptWatch&) = delete;

  std::stop_token token() const { return stop_.get_token(); }
  bool interrupted() const { return stop_.stop_requested(); }

 private:
  void watch(std::stop_token end);

  std::string command_;
  std::string doing_;
  std::function<void(const std::string&)> write_notice_;
  std::stop_source stop_;
  std::mutex mutex_;
  std::condition_variable_any wake_;
  std::jthread watcher_;  // started once the handler is in place; none if SIGINT was ignored
};

// While it lives, SIGINT writes `farewell` to standard output and then ends the program as
// SIGINT does by default (a second one is not needed): for moon play's prompt, where Ctrl-C
// quits at once but should not lose the game's replay line. The stream must have been flushed
// before (the text goes straight to the file descriptor, after anything written).
// Nothing changes if the program was started with SIGINT ignored. One at a time, and not
// together with an InterruptWatch.
class FarewellOnInterrupt {
 public:
  explicit FarewellOnInterrupt(std::string farewell);
  ~FarewellOnInterrupt();  // the handling before it, back
  FarewellOnInterrupt(const FarewellOnInterrupt&) = delete;
  FarewellOnInterrupt& operator=(const FarewellOnInterrupt&) = delete;

 private:
  std::string farewell_;
  bool installed_ = false;
};

}  // namespace moon::cli
