// cli::InterruptWatch, the Ctrl-C handling of analyze, solve, perft, match and play: the first SIGINT is
// a stop request, a second one has its default effect, the handling before the watch comes back
// when it ends, and a program started with SIGINT ignored leaves it so. And
// cli::FarewellOnInterrupt, play's prompt: its text written, then the end
// by SIGINT. Each case runs in a forked child, which the signals may end, with its standard
// error on a pipe to read the notice from.
#include <doctest/doctest.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>

#include "cli/interrupt.hpp"

namespace moon {
namespace {

// What a child's run came to: the signal that ended it or its exit code, and what it wrote to
// standard error.
struct ChildEnd {
  int signal = 0;      // 0: it exited
  int exit_code = -1;  // when it exited
  std::string error_output;
};

// Exit codes of the children below for what they found wrong (0: all went as expected).
constexpr int not_interrupted = 3;
constexpr int interrupted_wrongly = 4;
constexpr int survived_second_interrupt = 5;
constexpr int previous_handler_not_back = 6;

// Waits up to five seconds for the watch's stop request (the watcher looks every 20 ms).
bool wait_for_interrupt(const cli::InterruptWatch& watch) {
  for (int i = 0; i < 500 && !watch.interrupted(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  return watch.interrupted();
}

// Runs body() in a forked child with SIGINT's handling set to `initial`, and its standard error
// on a pipe; body's return value is the child's exit code.
template <class Body>
ChildEnd run_in_child(void (*initial)(int), Body body) {
  int error_pipe[2];
  REQUIRE(pipe(error_pipe) == 0);
  const pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    dup2(error_pipe[1], STDERR_FILENO);
    close(error_pipe[0]);
    close(error_pipe[1]);
    signal(SIGINT, initial);
    _exit(body());  // never back into the test runner
  }
  close(error_pipe[1]);
  ChildEnd end;
  char buffer[512];
  // Until the child's end of the pipe closes, or a minute has passed (a hung child is killed).
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (std::chrono::steady_clock::now() < deadline) {
    pollfd ready{error_pipe[0], POLLIN, 0};
    if (poll(&ready, 1, 100) <= 0) continue;
    const ssize_t got = read(error_pipe[0], buffer, sizeof buffer);
    if (got <= 0) break;
    end.error_output.append(buffer, std::size_t(got));
  }
  close(error_pipe[0]);
  if (std::chrono::steady_clock::now() >= deadline) kill(pid, SIGKILL);
  int status = 0;
  REQUIRE(waitpid(pid, &status, 0) == pid);
  if (WIFSIGNALED(status)) end.signal = WTERMSIG(status);
  if (WIFEXITED(status)) end.exit_code = WEXITSTATUS(status);
  return end;
}

std::atomic<bool> previous_handler_ran{false};
extern "C" void previous_handler(int) { previous_handler_ran.store(true); }

const std::string notice = "moon analyze: interrupted, stopping (Ctrl-C again to quit at once)\n";

}  // namespace

TEST_CASE("Ctrl-C: the first one requests the stop and says so, a second one ends the program") {
  const ChildEnd end = run_in_child(SIG_DFL, [] {
    cli::InterruptWatch watch("analyze");
    if (watch.interrupted()) return interrupted_wrongly;
    raise(SIGINT);
    if (!wait_for_interrupt(watch)) return not_interrupted;
    raise(SIGINT);  // the default effect again: the program ends here
    return survived_second_interrupt;
  });
  CHECK(end.exit_code == -1);
  CHECK(end.signal == SIGINT);
  CHECK(end.error_output == notice);
}

TEST_CASE("Ctrl-C: the handling before the watch is back when it ends, and the next watch starts afresh") {
  // As moon play does: a watch each time the engine thinks, the prompt's handling in between.
  const ChildEnd end = run_in_child(previous_handler, [] {
    for (const char* doing : {"the engine stops thinking", "the engine stops looking"}) {
      {
        cli::InterruptWatch watch("play", doing);
        std::this_thread::sleep_for(std::chrono::milliseconds(50));  // a watch not yet interrupted
        if (watch.interrupted()) return interrupted_wrongly;
        raise(SIGINT);
        if (!wait_for_interrupt(watch)) return not_interrupted;
        if (previous_handler_ran.load()) return interrupted_wrongly;
      }
      raise(SIGINT);  // the handler before the watch
      if (!previous_handler_ran.exchange(false)) return previous_handler_not_back;
    }
    return 0;
  });
  CHECK(end.signal == 0);
  CHECK(end.exit_code == 0);
  CHECK(end.error_output ==
        "moon play: interrupted, the engine stops thinking (Ctrl-C again to quit at once)\n"
        "moon play: interrupted, the engine stops looking (Ctrl-C again to quit at once)\n");
}

TEST_CASE("Ctrl-C: a program started with it ignored leaves it ignored") {
  const ChildEnd end = run_in_child(SIG_IGN, [] {
    {
      cli::InterruptWatch watch("analyze");
      raise(SIGINT);
      raise(SIGINT);
      std::this_thread::sleep_for(std::chrono::milliseconds(100));  // five of the watcher's looks, were there one
      if (watch.interrupted()) return interrupted_wrongly;
    }
    struct sigaction after {};
    sigaction(SIGINT, nullptr, &after);
    return after.sa_handler == SIG_IGN ? 0 : previous_handler_not_back;
  });
  CHECK(end.signal == 0);
  CHECK(end.exit_code == 0);
  CHECK(end.error_output.empty());
}

TEST_CASE("Ctrl-C: a watch that ends without one leaves no trace") {
  const ChildEnd end = run_in_child(SIG_DFL, [] {
    { cli::InterruptWatch watch("solve"); }
    struct sigaction after {};
    sigaction(SIGINT, nullptr, &after);
    if (after.sa_handler != SIG_DFL) return previous_handler_not_back;
    cli::InterruptWatch next("solve");
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    return next.interrupted() ? interrupted_wrongly : 0;
  });
  CHECK(end.signal == 0);
  CHECK(end.exit_code == 0);
  CHECK(end.error_output.empty());
}

TEST_CASE("Ctrl-C with a farewell: it is written, and the program ends by SIGINT") {
  const ChildEnd end = run_in_child(SIG_DFL, [] {
    dup2(STDERR_FILENO, STDOUT_FILENO);  // the farewell goes to standard output: read it too
    const cli::FarewellOnInterrupt farewell("\nCtrl-C: game abandoned\nreplay: moon show b4\n");
    raise(SIGINT);
    return survived_second_interrupt;  // not reached: the first one ends the program
  });
  CHECK(end.signal == SIGINT);
  CHECK(end.error_output == "\nCtrl-C: game abandoned\nreplay: moon show b4\n");
}

TEST_CASE("Ctrl-C with a farewell: the handling before it is back when it ends; ignored stays so") {
  const ChildEnd end = run_in_child(previous_handler, [] {
    dup2(STDERR_FILENO, STDOUT_FILENO);
    for (int i = 0; i < 2; ++i) {
      { const cli::FarewellOnInterrupt farewell("not to be written\n"); }
      raise(SIGINT);
      if (!previous_handler_ran.exchange(false)) return previous_handler_not_back;
    }
    return 0;
  });
  CHECK(end.signal == 0);
  CHECK(end.exit_code == 0);
  CHECK(end.error_output.empty());

  const ChildEnd ignored = run_in_child(SIG_IGN, [] {
    dup2(STDERR_FILENO, STDOUT_FILENO);
    {
      const cli::FarewellOnInterrupt farewell("not to be written\n");
      raise(SIGINT);
    }
    struct sigaction after {};
    sigaction(SIGINT, nullptr, &after);
    return after.sa_handler == SIG_IGN ? 0 : previous_handler_not_back;
  });
  CHECK(ignored.signal == 0);
  CHECK(ignored.exit_code == 0);
  CHECK(ignored.error_output.empty());
}

}  // namespace moon
