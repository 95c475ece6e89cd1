// A program run with pipes on its standard input and output, read line by line with timeouts
// (POSIX): the tests talk to the real `moon protocol` through it, and press Ctrl-C on the
// commands that run long.
#pragma once

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <termios.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace moon::test {

// Thrown by ChildProcess where the machine has no pseudo-terminal to give (a container without
// /dev/pts): the cases that need one are left out there, not failed.
struct NoTerminal : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class ChildProcess {
 public:
  using Clock = std::chrono::steady_clock;

  enum class Interrupts { as_usual, ignored };  // ignored: as a shell starts a script's background job
  // Standard input: a pipe, or a terminal (a pseudo-terminal without echo), as a person types.
  enum class Input { pipe, terminal };
  // Standard output: a pipe, or a terminal (a pseudo-terminal, which standard error shares, as a
  // person sees both; its output processing off, so that lines end in '\n' alone).
  enum class Output { pipe, terminal };

  // With `with_stderr`, standard error comes through the same pipe as standard output.
  explicit ChildProcess(const std::vector<std::string>& argv, bool with_stderr = false,
                        Interrupts interrupts = Interrupts::as_usual, Input input = Input::pipe,
                        Output output = Output::pipe) {
    signal(SIGPIPE, SIG_IGN);  // writing to a child that has ended must fail, not kill the tests
    int in[2] = {-1, -1}, out[2] = {-1, -1};
    const auto close_all = [&] {  // nothing left open behind
      for (int fd : {in[0], in[1], out[0], out[1]})
        if (fd >= 0) close(fd);
    };
    const auto fail = [&](const char* what) {
      close_all();
      throw std::runtime_error(what);
    };
    const auto no_terminal = [&] {
      close_all();
      throw NoTerminal("no pseudo-terminal on this machine");
    };
    // A pseudo-terminal: `master` the test's side, `other` the program's, its mode changed by
    // `adjust`.
    const auto open_terminal = [&](int& master, int& other, auto adjust) {
      master = posix_openpt(O_RDWR | O_NOCTTY);
      if (master < 0 || grantpt(master) != 0 || unlockpt(master) != 0) no_terminal();
      other = open(ptsname(master), O_RDWR | O_NOCTTY);
      if (other < 0) no_terminal();
      termios mode{};
      tcgetattr(other, &mode);
      adjust(mode);
      tcsetattr(other, TCSANOW, &mode);
    };
    if (output == Output::pipe) {
      if (pipe(out) != 0) fail("pipe failed");
    } else {
      // Read as the screen.
      open_terminal(out[0], out[1], [](termios& mode) { mode.c_oflag &= ~tcflag_t(OPOST); });
      with_stderr = true;
    }
    if (input == Input::pipe) {
      if (pipe(in) != 0) fail("pipe failed");
    } else {
      // Written to as keys typed; nobody reads the echo.
      open_terminal(in[1], in[0], [](termios& mode) { mode.c_lflag &= ~tcflag_t(ECHO); });
    }
    pid_ = fork();
    if (pid_ < 0) fail("fork failed");
    if (pid_ == 0) {
      dup2(in[0], STDIN_FILENO);
      dup2(out[1], STDOUT_FILENO);
      if (with_stderr) dup2(out[1], STDERR_FILENO);
      for (int fd : {in[0], in[1], out[0], out[1]}) close(fd);
      if (interrupts == Interrupts::ignored) signal(SIGINT, SIG_IGN);  // kept across execv()
      std::vector<char*> args;
      for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
      args.push_back(nullptr);
      execv(args[0], args.data());
      _exit(127);
    }
    close(in[0]);
    close(out[1]);
    to_child_ = in[1];
    from_child_ = out[0];
  }

  ~ChildProcess() {
    close_input();
    if (from_child_ >= 0) close(from_child_);
    if (pid_ > 0 && !status_) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
  }

  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  // Writes raw bytes; false if the child no longer reads.
  bool write(std::string_view bytes) {
    while (!bytes.empty()) {
      const ssize_t n = ::write(to_child_, bytes.data(), bytes.size());
      if (n <= 0) return false;
      bytes.remove_prefix(std::size_t(n));
    }
    return true;
  }
  bool send(std::string_view line) { return write(std::string(line) + "\n"); }

  // Ctrl-C: SIGINT to the program.
  void interrupt() { kill(pid_, SIGINT); }
  pid_t pid() const { return pid_; }

  void close_input() {
    if (to_child_ >= 0) close(to_child_);
    to_child_ = -1;
  }

  // The next line of output (without '\n'); nullopt at the end of output or after the timeout.
  std::optional<std::string> read_line(std::chrono::milliseconds timeout) {
    const auto deadline = Clock::now() + timeout;
    for (;;) {
      if (const auto newline = buffer_.find('\n'); newline != std::string::npos) {
        std::string line = buffer_.substr(0, newline);
        buffer_.erase(0, newline + 1);
        return line;
      }
      if (!read_more(deadline)) return std::nullopt;
    }
  }

  // Whether output not yet read as lines comes to contain `text` (a prompt, say, which ends in
  // no newline) within the timeout; nothing is consumed.
  bool wait_for_text(std::string_view text, std::chrono::milliseconds timeout) {
    const auto deadline = Clock::now() + timeout;
    while (buffer_.find(text) == std::string::npos)
      if (!read_more(deadline)) return false;
    return true;
  }

  // Lines up to and including the first one for which stop(line) holds; the last element is
  // not a match if the output ended or the timeout passed first.
  template <class Stop>
  std::vector<std::string> read_until(Stop stop, std::chrono::milliseconds timeout) {
    const auto deadline = Clock::now() + timeout;
    std::vector<std::string> lines;
    while (auto line = read_line(std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()))) {
      lines.push_back(*line);
      if (stop(lines.back())) break;
    }
    return lines;
  }

  // Lines up to and including the first that starts with `prefix` (as read_until()).
  std::vector<std::string> read_until_prefix(std::string_view prefix, std::chrono::milliseconds timeout) {
    return read_until([prefix](const std::string& line) { return line.starts_with(prefix); }, timeout);
  }

  // The exit status once the program has ended; nullopt if it is still running at the timeout
  // (or ended by a signal: see ending_signal()).
  std::optional<int> wait(std::chrono::milliseconds timeout) {
    const auto deadline = Clock::now() + timeout;
    while (!status_) {
      int raw = 0;
      const pid_t r = waitpid(pid_, &raw, WNOHANG);
      if (r == pid_) {
        status_ = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
        if (WIFSIGNALED(raw)) ending_signal_ = WTERMSIG(raw);
        break;
      }
      if (Clock::now() >= deadline) return std::nullopt;
      usleep(2000);
    }
    if (*status_ < 0) return std::nullopt;
    return status_;
  }
  // The signal that ended the program, once wait() has seen it end by one.
  std::optional<int> ending_signal() const { return ending_signal_; }

 private:
  // Adds to the buffer what output has come, waiting until the deadline for some; false once
  // the output has ended or the deadline has passed.
  bool read_more(Clock::time_point deadline) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0 || from_child_ < 0) return false;
    pollfd p{from_child_, POLLIN, 0};
    if (poll(&p, 1, int(left)) <= 0) return true;
    char chunk[4096];
    const ssize_t n = read(from_child_, chunk, sizeof chunk);
    if (n <= 0) {
      close(from_child_);
      from_child_ = -1;
      return false;
    }
    buffer_.append(chunk, std::size_t(n));
    return true;
  }

  pid_t pid_ = -1;
  int to_child_ = -1, from_child_ = -1;
  std::string buffer_;
  std::optional<int> status_;
  std::optional<int> ending_signal_;
};

// The program started as asked, or null on a machine that has no pseudo-terminal to give, with
// the reason in `why`.
inline std::unique_ptr<ChildProcess> start_unless_no_terminal(const std::vector<std::string>& argv,
                                                              ChildProcess::Input input,
                                                              ChildProcess::Output output, std::string& why) {
  try {
    return std::make_unique<ChildProcess>(argv, false, ChildProcess::Interrupts::as_usual, input, output);
  } catch (const NoTerminal& error) {
    why = error.what();
    return nullptr;
  }
}

}  // namespace moon::test
