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

Expected<bool> check_table_size(std::size_t mb, std::size_t memory_mb) {
  if (memory_mb && mb > memory_mb)
    return Error{"hash size " + std::to_string(mb) + " MiB is more than this machine's memory (" +
                 std::to_string(memory_mb) + " MiB)"};
  return true;
}

Expected<bool> check_table_size(std::size_t mb) { return check_table_size(mb, physical_memory_mb()); }

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
