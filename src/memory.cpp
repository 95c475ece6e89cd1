#include "moon/memory.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>

#if __has_include(<unistd.h>)
#include <unistd.h>
#endif
#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace moon {

std::size_t physical_memory_mb() {
#if defined(_SC_PHYS_PAGES) && defined(_SC_PAGE_SIZE)
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_size = sysconf(_SC_PAGE_SIZE);
  if (pages > 0 && page_size > 0) {
    // In 64 bits: the product may not fit in a 32-bit long.
    const unsigned long long bytes = static_cast<unsigned long long>(pages) * static_cast<unsigned long long>(page_size);
    return static_cast<std::size_t>(bytes >> 20);
  }
#endif
  return 0;  // unknown: only a failed allocation refuses a size
}

std::optional<std::size_t> available_memory_mb() {
  // One line of /proc/meminfo, "MemAvailable:   24321016 kB"; read with stdio, as the file is
  // small and this may run in a process short of memory.
  std::FILE* meminfo = std::fopen("/proc/meminfo", "r");
  if (!meminfo) return std::nullopt;
  unsigned long long kb = 0;
  bool found = false;
  char line[256];
  while (!found && std::fgets(line, sizeof line, meminfo))
    found = std::sscanf(line, "MemAvailable: %llu kB", &kb) == 1;
  std::fclose(meminfo);
  if (!found) return std::nullopt;
  return static_cast<std::size_t>(kb >> 10);
}

namespace {

// "the memory available now (500 MiB of this machine's 1000 MiB)", the machine's part where known.
std::string available_now_text(std::size_t available_mb, std::size_t memory_mb) {
  return "the memory available now (" + std::to_string(available_mb) + " MiB" +
         (memory_mb ? " of this machine's " + std::to_string(memory_mb) + " MiB" : std::string()) + ")";
}

}  // namespace

Expected<bool> table_fits(std::size_t mb, std::size_t memory_mb, std::optional<std::size_t> available_mb) {
  if (memory_mb && mb > memory_mb)
    return Error{"hash size " + std::to_string(mb) + " MiB is more than this machine's memory (" +
                 std::to_string(memory_mb) + " MiB)"};
  if (available_mb && mb > *available_mb)
    return Error{"hash size " + std::to_string(mb) + " MiB is more than " + available_now_text(*available_mb, memory_mb)};
  return true;
}


Expected<bool> table_fits_beside(std::size_t mb, std::size_t beside_mb, const std::string& beside,
                                 std::size_t memory_mb, std::optional<std::size_t> available_mb) {
  if (auto alone = table_fits(mb, memory_mb, available_mb); !alone || beside_mb == 0) return alone;
  const std::string together = "hash size " + std::to_string(mb) + " MiB and " + beside + " together are more than ";
  if (available_mb && mb + beside_mb > *available_mb)
    return Error{together + available_now_text(*available_mb, memory_mb)};
  // Where the system does not say what is available, the pair is held to the machine's memory.
  if (!available_mb && memory_mb && mb + beside_mb > memory_mb)
    return Error{together + "this machine's memory (" + std::to_string(memory_mb) + " MiB)"};
  return true;
}

Expected<bool> check_table_size_beside(std::size_t mb, std::size_t released_mb, std::size_t beside_mb,
                                       const std::string& beside) {
  const std::optional<std::size_t> available = available_memory_mb();  // one reading for both checks
  return table_fits_beside(mb, beside_mb, beside, physical_memory_mb(),
                           available ? std::optional(*available + released_mb) : std::nullopt);
}

Expected<bool> check_table_size_after_release(std::size_t mb, std::size_t released_mb) {
  return check_table_size_beside(mb, released_mb, 0, {});  // nothing beside it: table_fits() alone
}

Expected<bool> check_table_size(std::size_t mb) { return check_table_size_after_release(mb, 0); }

std::string making_table_text(std::size_t mb) { return "making the " + std::to_string(mb) + " MiB table"; }

std::string table_made_text(std::chrono::steady_clock::duration took) {
  char seconds[32];
  std::snprintf(seconds, sizeof seconds, "%.1f", std::chrono::duration<double>(took).count());
  return std::string("table made in ") + seconds + " s";
}

void* allocate_table_memory(std::size_t bytes, std::size_t alignment) noexcept {
  constexpr std::size_t huge_page = std::size_t{2} << 20;
  if (bytes >= huge_page) alignment = std::max(alignment, huge_page);
  // std::aligned_alloc wants a whole number of alignments.
  if (bytes == 0 || bytes > std::numeric_limits<std::size_t>::max() - alignment) return nullptr;
  const std::size_t rounded = (bytes + alignment - 1) / alignment * alignment;
  void* memory = std::aligned_alloc(alignment, rounded);
#ifdef MADV_HUGEPAGE
  if (memory && alignment >= huge_page) madvise(memory, rounded, MADV_HUGEPAGE);
#endif
  return memory;
}

void FreeTableMemory::operator()(void* memory) const noexcept { std::free(memory); }

}  // namespace moon
