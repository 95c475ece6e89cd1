#include "cli/engine_process.hpp"

#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <thread>
#include <utility>

extern char** environ;

namespace moon::cli {

namespace {

// posix_spawn's file actions and attributes, destroyed however start() returns.
struct SpawnSettings {
  posix_spawn_file_actions_t actions;
  posix_spawnattr_t attributes;
  bool made = false;
  SpawnSettings() {
    if (posix_spawn_file_actions_init(&actions) != 0) return;
    if (posix_spawnattr_init(&attributes) != 0) {
      posix_spawn_file_actions_destroy(&actions);
      return;
    }
    made = true;
  }
  ~SpawnSettings() {
    if (!made) return;
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
  }
  SpawnSettings(const SpawnSettings&) = delete;
  SpawnSettings& operator=(const SpawnSettings&) = delete;
};

}  // namespace

Expected<EngineProcess> EngineProcess::start(const std::string& command) {
  // Both ends close on exec: the engine gets its end as standard input and output only, and
  // no other engine started meanwhile inherits either.
  int ends[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ends) != 0)
    return Error{std::string("no socket pair for the engine: ") + std::strerror(errno)};
  const auto fail = [&](const char* what, int error) {
    close(ends[0]);
    close(ends[1]);
    return Error{std::string(what) + std::strerror(error)};
  };
  SpawnSettings settings;
  if (!settings.made) return fail("cannot start the engine: ", ENOMEM);
  sigset_t none, defaults;
  sigemptyset(&none);
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGPIPE);
  // Its own process group (Ctrl-C is ours to pass on), no signal blocked, SIGPIPE as usual.
  if (posix_spawn_file_actions_adddup2(&settings.actions, ends[1], STDIN_FILENO) != 0 ||
      posix_spawn_file_actions_adddup2(&settings.actions, ends[1], STDOUT_FILENO) != 0 ||
      posix_spawnattr_setflags(&settings.attributes,
                               POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF) != 0 ||
      posix_spawnattr_setpgroup(&settings.attributes, 0) != 0 ||
      posix_spawnattr_setsigmask(&settings.attributes, &none) != 0 ||
      posix_spawnattr_setsigdefault(&settings.attributes, &defaults) != 0)
    return fail("cannot start the engine: ", EINVAL);
  std::string shell_command = "exec " + command;
  char shell[] = "/bin/sh", dash_c[] = "-c";
  char* argv[] = {shell, dash_c, shell_command.data(), nullptr};
  pid_t pid = -1;
  if (const int error = posix_spawn(&pid, shell, &settings.actions, &settings.attributes, argv, environ); error != 0)
    return fail("cannot start /bin/sh for the engine: ", error);
  close(ends[1]);
  return EngineProcess(pid, ends[0]);
}

EngineProcess::EngineProcess(EngineProcess&& other) noexcept
    : pid_(std::exchange(other.pid_, -1)),
      socket_(std::exchange(other.socket_, -1)),
      buffer_(std::move(other.buffer_)),
      scanned_(other.scanned_),
      raw_status_(other.raw_status_) {}

EngineProcess::~EngineProcess() {
  if (socket_ >= 0) {
    shutdown(socket_, SHUT_WR);  // the end of its input
    close(socket_);
  }
  if (pid_ <= 0 || raw_status_) return;
  if (how_it_ended() == "still running") {
    // Its whole process group: what it started (a script's commands) goes too. And the engine
    // itself, should it have moved to another group: the wait below would last as long as it did.
    kill(-pid_, SIGKILL);
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
  }
}

bool EngineProcess::send(std::string_view line) {
  std::string bytes(line);
  bytes += '\n';
  std::string_view rest = bytes;
  while (!rest.empty()) {
    const ssize_t n = ::send(socket_, rest.data(), rest.size(), MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    rest.remove_prefix(std::size_t(n));
  }
  return true;
}

EngineProcess::ReadStatus EngineProcess::read_line(Clock::time_point deadline, std::string& line) {
  for (;;) {
    if (const auto newline = buffer_.find('\n', scanned_); newline != std::string::npos) {
      line.assign(buffer_, 0, newline);
      if (!line.empty() && line.back() == '\r') line.pop_back();
      buffer_.erase(0, newline + 1);
      scanned_ = 0;
      return ReadStatus::line;
    }
    scanned_ = buffer_.size();  // each byte looked at once, however long the line
    if (buffer_.size() > max_line_bytes) return ReadStatus::too_long;
    if (socket_ < 0) return ReadStatus::ended;
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0) return ReadStatus::timed_out;
    pollfd p{socket_, POLLIN, 0};
    const int ready = poll(&p, 1, int(std::min<long long>(left, 1000)));
    if (ready < 0 && errno != EINTR) return ReadStatus::ended;
    if (ready <= 0) continue;
    char chunk[4096];
    const ssize_t n = recv(socket_, chunk, sizeof chunk, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      close(socket_);
      socket_ = -1;
      continue;  // a last line without '\n' is not an answer: the output has ended
    }
    buffer_.append(chunk, std::size_t(n));
  }
}

std::string EngineProcess::how_it_ended() {
  const auto deadline = Clock::now() + std::chrono::seconds(1);
  while (!raw_status_) {
    int raw = 0;
    if (waitpid(pid_, &raw, WNOHANG) == pid_) {
      raw_status_ = raw;
      break;
    }
    if (Clock::now() >= deadline) return "still running";
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  if (WIFEXITED(*raw_status_)) return "exit status " + std::to_string(WEXITSTATUS(*raw_status_));
  if (WIFSIGNALED(*raw_status_)) return "killed by signal " + std::to_string(WTERMSIG(*raw_status_));
  return "ended";
}

}  // namespace moon::cli
