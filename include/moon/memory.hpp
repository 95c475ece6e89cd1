// The machine's memory, and the check every hash table size goes through before allocating.
//
// A table is cleared (every page written) as soon as it is allocated, so on a system that
// overcommits memory a table larger than the machine "allocates" fine and the process (or
// another, the kernel's choice) is then killed while clearing it. Sizes above the physical
// memory are therefore refused up front, and so are sizes above the memory available at the
// time: the other programs', and the process's own tables (two 16 GiB tables on a 24 GiB
// machine), are already in it.
//
// The tables themselves (the search's, the solver's) get their memory here too, on huge pages.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <limits>
#include <memory>
#include <optional>
#include <stop_token>
#include <string>
#include <type_traits>

#include "moon/expected.hpp"

namespace moon {

// The machine's physical memory in MiB; 0 when the system does not say.
std::size_t physical_memory_mb();

// The memory available now for new allocations in MiB: what is free, and what the system can
// take back without swapping (Linux's MemAvailable, rounded down: less than 1 MiB reads 0);
// nullopt when the system does not say.
std::optional<std::size_t> available_memory_mb();

// True if a table of mb MiB fits in the machine's memory_mb MiB (0: unknown) and in the
// available_mb MiB available now (nullopt: unknown), else the error "hash size <mb> MiB is more
// than this machine's memory (<memory_mb> MiB)" or "hash size <mb> MiB is more than the memory
// available now (<available_mb> MiB of this machine's <memory_mb> MiB)".
Expected<bool> table_fits(std::size_t mb, std::size_t memory_mb, std::optional<std::size_t> available_mb);
// The same against physical_memory_mb() and available_memory_mb(). A table that resize()
// replaces is freed only once its successor is made (a failure keeps it), so its memory counts
// as taken.
Expected<bool> check_table_size(std::size_t mb);
// The same, counting `released_mb` free as well: the memory of a table let go before this one
// is made (the protocol's and the C API's solver, whose table the next solve makes anew).
Expected<bool> check_table_size_after_release(std::size_t mb, std::size_t released_mb);
// table_fits(), and then this table beside another of `beside_mb` MiB still to be made (0: none),
// which `beside` names ("the search's 700 MiB table"): the error "hash size <mb> MiB and
// <beside> together are more than the memory available now (<available_mb> MiB of this machine's
// <memory_mb> MiB)", or, where the memory available is unknown, "... than this machine's memory
// (<memory_mb> MiB)".
Expected<bool> table_fits_beside(std::size_t mb, std::size_t beside_mb, const std::string& beside,
                                 std::size_t memory_mb, std::optional<std::size_t> available_mb);
// The same against physical_memory_mb() and available_memory_mb() with `released_mb` counted free
// (as check_table_size_after_release()). For the C API, which sets both its tables in one call,
// and the protocol, whose search table must fit beside the solver's still to be made.
Expected<bool> check_table_size_beside(std::size_t mb, std::size_t released_mb, std::size_t beside_mb,
                                       const std::string& beside);

// Tables this large or larger take a noticeable time to make (every page is written: a second
// or more a GiB), so the programs say so while they are made (`moon solve`, `analyze`, `play`,
// the protocol's `go solve`), with the two lines below, rather than look hung.
inline constexpr std::size_t announced_table_mb = 256;
// "making the 512 MiB table"
std::string making_table_text(std::size_t mb);
// "table made in 0.9 s"
std::string table_made_text(std::chrono::steady_clock::duration took);

// Uninitialised memory for a hash table of `bytes`, aligned to `alignment` (a power of two), or
// null if it cannot be had; freed with std::free. A table of 2 MiB or more is aligned to 2 MiB
// and, where the system offers it (Linux's transparent huge pages, asked for with madvise), kept
// on 2 MiB pages: a table's probes land anywhere in it, and one TLB entry then covers 2 MiB of
// them instead of 4 KiB. (On a system whose huge pages are set to madvise only, as Debian's are,
// a table gets 4 KiB pages without the request: the search with a 256 MiB table took 1.17 times
// as long for the same nodes, docs/SEARCH.md, "Huge pages".)
void* allocate_table_memory(std::size_t bytes, std::size_t alignment) noexcept;

struct FreeTableMemory {
  void operator()(void* memory) const noexcept;
};
// A hash table's array of T (buckets of atomics, or plain entries): see make_table_array().
template <class T>
using TableArray = std::unique_ptr<T[], FreeTableMemory>;

// `count` default-constructed objects of T in memory from allocate_table_memory() (every page
// written, so that a table is in memory before it is used); null if it cannot be had, or if
// `stop` is requested while the pages are written (a second or more a GiB: a caller that must
// answer a stop meanwhile passes its token; the check comes every 64 MiB).
template <class T>
TableArray<T> make_table_array(std::size_t count, const std::stop_token& stop = {}) noexcept {
  static_assert(std::is_trivially_destructible_v<T> && std::is_nothrow_default_constructible_v<T>,
                "freed without destructors, constructed where exceptions cannot be thrown");
  if (count == 0 || count > std::numeric_limits<std::size_t>::max() / sizeof(T)) return nullptr;
  TableArray<T> items(static_cast<T*>(allocate_table_memory(count * sizeof(T), alignof(T))));
  if (!items) return nullptr;
  constexpr std::size_t chunk = std::max<std::size_t>((std::size_t{64} << 20) / sizeof(T), 1);
  for (std::size_t done = 0; done < count; done += chunk) {
    if (stop.stop_requested()) return nullptr;
    std::uninitialized_default_construct_n(items.get() + done, std::min(chunk, count - done));
  }
  return items;
}

}  // namespace moon
