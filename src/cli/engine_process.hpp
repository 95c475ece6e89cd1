// Another program run as an engine (POSIX): started by the shell from a command line, talked to
// line by line, with timeouts, and ended when done. moon match uses it to play an engine that
// speaks the protocol (docs/PROTOCOL.md), such as another build of moon.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

#include "moon/expected.hpp"

namespace moon::cli {

class EngineProcess {
 public:
  using Clock = std::chrono::steady_clock;

  // Runs `/bin/sh -c 'exec <command>'`, so that the command may quote its words and name its
  // program by PATH. Its standard input and output are a socket pair (a write to an engine that
  // has ended fails instead of raising SIGPIPE); its standard error is ours. It runs in a
  // process group of its own, so that Ctrl-C at the terminal reaches only moon, which then
  // stops it. An error if the shell cannot be started; a command that cannot be run shows as
  // an engine that ends at once (the shell's message on standard error, exit status 127).
  static Expected<EngineProcess> start(const std::string& command);

  EngineProcess(EngineProcess&& other) noexcept;
  EngineProcess& operator=(EngineProcess&&) = delete;
  EngineProcess(const EngineProcess&) = delete;
  EngineProcess& operator=(const EngineProcess&) = delete;
  // Ends the program: closes its input (a protocol engine exits at the end of its input),
  // waits for it a second, then kills it and its process group (whatever it started).
  ~EngineProcess();

  // Writes a line; false if the program no longer reads.
  bool send(std::string_view line);

  // The longest line read: a protocol line is short, and output without a newline must not
  // fill the memory.
  static constexpr std::size_t max_line_bytes = std::size_t(1) << 20;

  enum class ReadStatus { line, ended, timed_out, too_long };
  // The next line of output, without its '\n' (and a '\r' before it), waiting until the
  // deadline at most: `line` holds it only for ReadStatus::line. too_long once the output
  // holds more than max_line_bytes without a newline (and from then on).
  ReadStatus read_line(Clock::time_point deadline, std::string& line);

  // How it ended, once the output has: "exit status N" or "killed by signal N"; "still
  // running" if it has not ended within a second.
  std::string how_it_ended();

 private:
  EngineProcess(pid_t pid, int socket) : pid_(pid), socket_(socket) {}

  pid_t pid_ = -1;
  int socket_ = -1;
  std::string buffer_;
  std::size_t scanned_ = 0;  // buffer_ holds no '\n' before this
  std::optional<int> raw_status_;  // from waitpid(), once it has ended
};

}  // namespace moon::cli
