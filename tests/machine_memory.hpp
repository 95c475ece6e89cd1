// For the tests of hash sizes the machine cannot hold: the machine's memory as /proc/meminfo
// states it (read here, independently of the library's physical_memory_mb(), which asks
// sysconf), a size just above it, and a guard so that a refusal that fails to happen ends in a
// failed allocation instead of the process being killed for want of memory.
#pragma once

#include <sys/resource.h>
#include <unistd.h>

#include <cstddef>
#include <fstream>
#include <sstream>
#include <string>

namespace moon::test {

// A line of /proc/meminfo ("MemTotal:", "MemAvailable:") in MiB; 0 where it does not say.
inline std::size_t meminfo_mb(const std::string& field) {
  std::ifstream in("/proc/meminfo");
  for (std::string line; std::getline(in, line);) {
    std::istringstream words(line);
    std::string name;
    unsigned long long kb = 0;
    if (words >> name >> kb && name == field) return std::size_t(kb / 1024);
  }
  return 0;
}

// MemTotal in MiB; 0 where /proc/meminfo does not say.
inline std::size_t meminfo_total_mb() { return meminfo_mb("MemTotal:"); }

// A hash size within the machine's memory but well above the memory available now (halfway
// between the two), for the tests of that check; 0 when the two are less than 256 MiB apart
// (a machine with little else in its memory), or unknown: those tests are then skipped.
inline std::size_t over_available_mb() {
  const std::size_t total = meminfo_total_mb(), available = meminfo_mb("MemAvailable:");
  return total && available && total >= available + 256 && total < 65536 ? available + (total - available) / 2 : 0;
}

// Three fifths of the memory available now, for the tests that two tables are checked together:
// one table that size fits, two do not. 0 when it is unknown, too small to matter (under 64 MiB)
// or above the options' ranges (65536 MiB): those tests are then skipped.
inline std::size_t three_fifths_available_mb() {
  const std::size_t available = meminfo_mb("MemAvailable:");
  return available >= 64 && available / 5 * 3 <= 65536 ? available / 5 * 3 : 0;
}

// A hash size above the machine's memory that the options' ranges (up to 65536 MiB) accept, so
// that only the memory check can refuse it; 0 when there is none (memory unknown, or 64 GiB
// and more): the tests needing it are then skipped (doctest::skip, which doctest reports).
inline std::size_t over_memory_mb() {
  const std::size_t memory = meminfo_total_mb();
  return memory && memory < 65536 ? memory + 1 : 0;
}

// The library's message for a table of mb MiB on this machine (memory.hpp).
inline std::string over_memory_message(std::size_t mb) {
  return "hash size " + std::to_string(mb) + " MiB is more than this machine's memory (" +
         std::to_string(meminfo_total_mb()) + " MiB)";
}

// While it lives, this process cannot take more than `extra_mb` MiB of address space beyond what
// it has: an allocation the code should have refused fails instead of being granted
// (overcommit) and killing the process, or another, when its pages are written. Does nothing
// under the sanitizers, which reserve terabytes of address space for their shadow memory.
class AddressSpaceGuard {
 public:
  explicit AddressSpaceGuard(std::size_t extra_mb = 4096) {
#ifndef MOON_SANITIZE_BUILD
    std::ifstream statm("/proc/self/statm");
    unsigned long long pages = 0;
    if (!(statm >> pages) || getrlimit(RLIMIT_AS, &saved_) != 0) return;
    rlimit limited = saved_;
    const long page_size = sysconf(_SC_PAGE_SIZE);
    if (page_size <= 0) return;
    using Bytes = unsigned long long;
    const rlim_t wanted = rlim_t(pages * Bytes(page_size) + (Bytes(extra_mb) << 20));
    if (saved_.rlim_cur != RLIM_INFINITY && saved_.rlim_cur < wanted) return;
    limited.rlim_cur = wanted;
    active_ = setrlimit(RLIMIT_AS, &limited) == 0;
#else
    (void)extra_mb;
#endif
  }
  ~AddressSpaceGuard() {
    if (active_) setrlimit(RLIMIT_AS, &saved_);
  }
  AddressSpaceGuard(const AddressSpaceGuard&) = delete;
  AddressSpaceGuard& operator=(const AddressSpaceGuard&) = delete;

 private:
  rlimit saved_{};
  bool active_ = false;
};

// The same for a child process: a shell command prefix limiting its address space to 4 GiB.
inline std::string address_space_limit_prefix() {
#ifndef MOON_SANITIZE_BUILD
  return "ulimit -v 4194304; ";
#else
  return "";
#endif
}

// Whether threads made without a stack size of their own take at least 2 MiB of address space
// each, so that 256 of them do not fit in a few hundred MiB: glibc gives them RLIMIT_STACK's size
// (8 MiB here), or 2 MiB where that is unlimited; other C libraries may give far less.
inline bool default_thread_stacks_take_2_mib() {
#ifdef __GLIBC__
  rlimit stack{};
  return getrlimit(RLIMIT_STACK, &stack) == 0 &&
         (stack.rlim_cur == RLIM_INFINITY || stack.rlim_cur >= (rlim_t{2} << 20));
#else
  return false;
#endif
}

}  // namespace moon::test
