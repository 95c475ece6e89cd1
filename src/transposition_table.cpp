#include "moon/transposition_table.hpp"

#include <string>

#include "moon/memory.hpp"

namespace moon {

Expected<bool> TranspositionTable::resize(std::size_t mb) {
  if (mb < min_mb || mb > max_mb)
    return Error{"hash size must be from " + std::to_string(min_mb) + " to " + std::to_string(max_mb) + " MiB, not " +
                 std::to_string(mb)};
  const std::size_t count = (mb << 20) / sizeof(Bucket);
  if (count == bucket_count_) {  // passed the check below when it was made
    clear();
    return true;
  }
  // Before allocating: a table larger than the memory to be had would be killed while it is
  // cleared. (The same size is not checked again: its own memory is not available.)
  if (auto fits = check_table_size(mb); !fits) return fits;
  TableArray<Bucket> fresh = make_table_array<Bucket>(count);  // on huge pages (memory.hpp)
  if (!fresh) return Error{"cannot allocate a " + std::to_string(mb) + " MiB hash table"};
  buckets_ = std::move(fresh);
  bucket_count_ = count;
  generation_ = 0;
  return true;
}

void TranspositionTable::clear() {
  for (std::size_t i = 0; i < bucket_count_; ++i)
    for (Slot& slot : buckets_[i].slots) {
      slot.check.store(0, std::memory_order_relaxed);
      slot.data.store(0, std::memory_order_relaxed);
    }
  generation_ = 0;
}

int TranspositionTable::hashfull() const {
  constexpr std::size_t sample_buckets = 250;
  const std::size_t buckets = bucket_count_ < sample_buckets ? bucket_count_ : sample_buckets;
  std::size_t used = 0;
  for (std::size_t i = 0; i < buckets; ++i)
    for (const Slot& slot : buckets_[i].slots) {
      const std::uint64_t data = slot.data.load(std::memory_order_relaxed);
      used += field(data, bound_shift, 2) != 0 && age(data) == 0;
    }
  return buckets ? int(used * 1000 / (buckets * entries_per_bucket)) : 0;
}

}  // namespace moon
