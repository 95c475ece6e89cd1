#include "moon/memory.hpp"

#include <string>

#if __has_include(<unistd.h>)
#include <unistd.h>
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

}  // namespace moon
