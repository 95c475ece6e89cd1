// The machine's memory, and the check every hash table size goes through before allocating.
//
// A table is cleared (every page written) as soon as it is allocated, so on a system that
// overcommits memory a table larger than the machine "allocates" fine and the process is then
// killed while clearing it. Sizes above the physical memory are therefore refused up front.
#pragma once

#include <cstddef>

#include "moon/expected.hpp"

namespace moon {

// The machine's physical memory in MiB; 0 when the system does not say.
std::size_t physical_memory_mb();

// True if a table of mb MiB fits in memory_mb MiB (anything fits when memory_mb is 0, unknown),
// else the error "hash size <mb> MiB is more than this machine's memory (<memory_mb> MiB)".
Expected<bool> check_table_size(std::size_t mb, std::size_t memory_mb);
// The same against physical_memory_mb().
Expected<bool> check_table_size(std::size_t mb);

}  // namespace moon
