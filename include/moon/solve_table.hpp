// The exact solver's transposition table: bounds on proven values, shared lock-free by threads.
//
// An entry is 16 bytes: its 64-bit key (a position's exact key, or a board's or a clock range's
// key, told apart by their top bits: solve_keys.hpp) XOR the data word, then the data word
// (lower bound, upper bound, best move, work). Proven bounds never go stale — a value is a
// fact about the game — so the only questions are which entry to keep and whether a read is
// whole. Both words are written and read as relaxed atomics; a read whose check word does not
// match its data word (two writers interleaved) is simply a miss. Four entries share one
// 64-byte bucket; a new position replaces the entry that cost least work to compute.
//
// A growing table (one thread only: set_growing()) uses first the start of its memory and
// doubles the part it uses as that fills, moving its entries, up to the whole: a small solve
// then works in memory that stays in the processor's caches. (Measured in docs/SOLVER.md,
// "A table that grows".)
#pragma once

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <stop_token>
#include <string>

#include "moon/expected.hpp"
#include "moon/memory.hpp"
#include "moon/move.hpp"
#include "moon/position.hpp"
#include "moon/solve_keys.hpp"
#include "moon/solve_value.hpp"

namespace moon {

// The table index of a key (exact, board or clock range): scrambled as Position::hash() is.
constexpr std::uint64_t solve_hash(std::uint64_t key) { return scramble_key(key); }

struct SolveBounds {
  SolveValue lower = -solve_win;
  SolveValue upper = solve_win;
  Move move;  // the move that proved the last lower bound (null if none)
};

class SolveTable {
 public:
  static constexpr std::size_t entry_bytes = 16;
  static constexpr int bucket_entries = 4;
  // A growing table starts with this many bytes in use (or the whole, if smaller), and doubles
  // them once entries fill this fraction of the part in use.
  static constexpr std::size_t growing_start_bytes = std::size_t{1} << 20;
  static constexpr int grow_at_percent = 50;

  SolveTable() = default;
  explicit SolveTable(std::size_t mb) { (void)resize(mb); }  // no table if mb cannot be had

  // Reallocates to `mb` MiB (0: no table; probes miss, stores do nothing) and clears. An error,
  // and the table unchanged, if mb is more than the machine's physical or available memory
  // (memory.hpp: the old table, freed only once the new one is made, counts as taken), if
  // the memory cannot be had, or if `stop` is requested while it is made (make_table_array()).
  Expected<bool> resize(std::size_t mb, const std::stop_token& stop = {}) {
    if (auto fits = check_table_size(mb); !fits) return fits;
    if (mb > std::numeric_limits<std::size_t>::max() >> 20 || !resize_bytes(mb << 20, stop)) {
      if (stop.stop_requested())
        return Error{.message = "stopped while making the " + std::to_string(mb) + " MiB table", .stopped = true};
      return Error{"cannot allocate a " + std::to_string(mb) + " MiB hash table"};
    }
    return true;
  }
  // The same in bytes (rounded down to whole 64-byte buckets), without the memory check: tests
  // use tiny tables. False, and the table unchanged, if the memory cannot be had or `stop` came.
  bool resize_bytes(std::size_t bytes, const std::stop_token& stop = {}) noexcept {
    const std::size_t count = bytes / sizeof(Bucket);
    if (!count) {
      buckets_.reset();
      capacity_ = bucket_count_ = 0;
      dirty_.store(false, std::memory_order_relaxed);
      return true;
    }
    TableArray<Bucket> fresh = make_table_array<Bucket>(count, stop);  // on huge pages (memory.hpp)
    if (!fresh) return false;
    buckets_ = std::move(fresh);
    capacity_ = count;
    start_afresh();
    dirty_.store(false, std::memory_order_relaxed);
    return true;
  }
  // Forgets every entry (does nothing on a table not written to since it was last cleared); a
  // growing table starts small again. Only the part in use holds entries: the part only grows
  // between clears.
  void clear() {
    if (!dirty_.load(std::memory_order_relaxed)) return;
    dirty_.store(false, std::memory_order_relaxed);
    for (std::size_t i = 0; i < bucket_count_; ++i) clear_bucket(buckets_[i]);
    start_afresh();
  }
  // Whether the part in use grows with the entries (see above), from start_bytes (tests use
  // tiny starts). Only while one thread uses the table: growing moves entries under the feet of
  // any other. Turned off, the whole is in use at once (the entries moved there). Not while a
  // search uses the table.
  void set_growing(bool growing, std::size_t start_bytes = growing_start_bytes) {
    growing_ = growing;
    start_buckets_ = std::max<std::size_t>(start_bytes / sizeof(Bucket), 1);
    if (!growing) grow_to(capacity_);
    else if (!dirty_.load(std::memory_order_relaxed)) start_afresh();
  }
  // Entries in the part in use, and in the whole.
  std::size_t entry_count() const { return bucket_count_ * bucket_entries; }
  std::size_t capacity_entries() const { return capacity_ * bucket_entries; }
  std::size_t bytes() const { return capacity_ * sizeof(Bucket); }

  void prefetch(std::uint64_t hash) const {
    if (bucket_count_) __builtin_prefetch(&buckets_[index(hash)]);
  }

  // The stored bounds of the entry with this key (and its hash), if any.
  bool probe(std::uint64_t key, std::uint64_t hash, SolveBounds& out) const {
    if (!bucket_count_) return false;
    const Bucket& b = buckets_[index(hash)];
    for (const Entry& e : b.entries) {
      const std::uint64_t data = e.data.load(std::memory_order_relaxed);
      if ((e.check.load(std::memory_order_relaxed) ^ data) == key && (data & used_bit)) {
        out = unpack(data);
        return true;
      }
    }
    return false;
  }

  // Records that the value lies in [lower, upper] (merged with what is known), with the move
  // that proved the lower bound (or null), and the work it took (any growing measure, e.g. nodes).
  void store(std::uint64_t key, std::uint64_t hash, SolveValue lower, SolveValue upper, Move move,
             std::uint64_t work) {
    if (!bucket_count_) return;
    if (!dirty_.load(std::memory_order_relaxed)) dirty_.store(true, std::memory_order_relaxed);
    Bucket& b = buckets_[index(hash)];
    const unsigned new_work = unsigned(std::min<int>(int(std::bit_width(work)), 127));
    Entry* victim = nullptr;
    unsigned victim_work = ~0u;
    for (Entry& e : b.entries) {
      const std::uint64_t data = e.data.load(std::memory_order_relaxed);
      if (!(data & used_bit)) {
        if (!victim || victim_work) victim = &e, victim_work = 0;
        continue;
      }
      if ((e.check.load(std::memory_order_relaxed) ^ data) == key) {
        const SolveBounds old = unpack(data);
        lower = std::max(lower, old.lower);
        upper = std::min(upper, old.upper);
        if (move.is_null()) move = old.move;
        write(e, key, lower, upper, move, std::max(new_work, work_of(data)));
        return;
      }
      if (work_of(data) < victim_work) victim = &e, victim_work = work_of(data);
    }
    if (growing_ && !(victim->data.load(std::memory_order_relaxed) & used_bit) && ++filled_ >= grow_at_) {
      write(*victim, key, lower, upper, move, new_work);
      grow_to(std::min(capacity_, bucket_count_ * 2));
      return;
    }
    write(*victim, key, lower, upper, move, new_work);
  }

  // Per mille of a sample of entries in use.
  int fill_permille() const {
    const std::size_t sample = std::min<std::size_t>(bucket_count_, 250);
    if (!sample) return 0;
    std::size_t used = 0;
    for (std::size_t i = 0; i < sample; ++i)
      for (const Entry& e : buckets_[i].entries) used += (e.data.load(std::memory_order_relaxed) & used_bit) != 0;
    return int(used * 1000 / (sample * bucket_entries));
  }

 private:
  struct Entry {
    std::atomic<std::uint64_t> check{0};
    std::atomic<std::uint64_t> data{0};
  };
  struct alignas(64) Bucket {
    Entry entries[bucket_entries];
  };
  static_assert(sizeof(Entry) == entry_bytes && sizeof(Bucket) == 64);

  // data: lower (16 bits) | upper (16) | move (16) | work (7) | used (1)
  static constexpr std::uint64_t used_bit = std::uint64_t{1} << 63;

  std::size_t index(std::uint64_t hash) const {
    __extension__ using U128 = unsigned __int128;
    return std::size_t((U128(hash) * bucket_count_) >> 64);
  }
  static unsigned work_of(std::uint64_t data) { return unsigned(data >> 56) & 127; }
  static SolveBounds unpack(std::uint64_t data) {
    return {std::int16_t(std::uint16_t(data)), std::int16_t(std::uint16_t(data >> 16)),
            Move::from_raw(std::uint16_t(data >> 32))};
  }
  static void clear_bucket(Bucket& b) {
    for (Entry& e : b.entries) {
      e.check.store(0, std::memory_order_relaxed);
      e.data.store(0, std::memory_order_relaxed);
    }
  }
  // The hash an entry's bucket was chosen by: its key's, but for a clock range key its board's
  // (which the search reads together with it: solve_search.hpp).
  static std::uint64_t hash_of_key(std::uint64_t key) {
    constexpr std::uint64_t range_bits = clock_range_key(0, true);  // bits 62 and 61
    const bool clock_range = (key >> 63) && ((key >> 62) & 1);
    return solve_hash(clock_range ? key & ~range_bits : key);
  }
  // The part in use as a new or cleared table's.
  void start_afresh() {
    bucket_count_ = growing_ ? std::min(capacity_, start_buckets_) : capacity_;
    filled_ = 0;
    set_grow_at();
  }
  void set_grow_at() {
    grow_at_ = bucket_count_ < capacity_ ? entry_count() * grow_at_percent / 100
                                         : std::numeric_limits<std::size_t>::max();  // grown
  }
  // Uses `count` buckets from now on, moving every entry to its bucket among them. The index of
  // a hash only grows with the count, so going down from the last bucket in use, each entry
  // moves to one at or after its own, which has been emptied and refilled already (or lies
  // beyond the part used so far: empty). Where more than a bucket's worth meet in one (a count
  // not twice the last: an old bucket may spread over two new ones), the least work goes.
  void grow_to(std::size_t count) {
    if (count <= bucket_count_) return;
    const std::size_t old_count = bucket_count_;
    bucket_count_ = count;
    filled_ = 0;
    for (std::size_t i = old_count; i-- > 0;) {
      std::uint64_t checks[bucket_entries], datas[bucket_entries];
      for (int k = 0; k < bucket_entries; ++k) {
        checks[k] = buckets_[i].entries[k].check.load(std::memory_order_relaxed);
        datas[k] = buckets_[i].entries[k].data.load(std::memory_order_relaxed);
      }
      clear_bucket(buckets_[i]);
      for (int k = 0; k < bucket_entries; ++k)
        if (datas[k] & used_bit) place(checks[k] ^ datas[k], checks[k], datas[k]);
    }
    set_grow_at();
  }
  // Puts an entry, moved as it was, into its bucket: an empty slot, else over the least work.
  void place(std::uint64_t key, std::uint64_t check, std::uint64_t data) {
    Bucket& b = buckets_[index(hash_of_key(key))];
    Entry* slot = &b.entries[0];  // becomes the first empty entry, else the one of least work
    unsigned least_work = ~0u;
    for (Entry& e : b.entries) {
      const std::uint64_t there = e.data.load(std::memory_order_relaxed);
      if (!(there & used_bit)) {
        ++filled_;
        slot = &e;
        break;
      }
      if (work_of(there) < least_work) slot = &e, least_work = work_of(there);
    }
    if (slot->data.load(std::memory_order_relaxed) & used_bit && least_work >= work_of(data))
      return;  // the bucket holds only entries of as much work or more
    slot->check.store(check, std::memory_order_relaxed);
    slot->data.store(data, std::memory_order_relaxed);
  }
  static void write(Entry& e, std::uint64_t key, SolveValue lower, SolveValue upper, Move move, unsigned work) {
    const std::uint64_t data = std::uint64_t(std::uint16_t(lower)) | std::uint64_t(std::uint16_t(upper)) << 16 |
                               std::uint64_t(move.raw()) << 32 | std::uint64_t(work) << 56 | used_bit;
    e.check.store(key ^ data, std::memory_order_relaxed);
    e.data.store(data, std::memory_order_relaxed);
  }

  TableArray<Bucket> buckets_;
  std::size_t capacity_ = 0;      // buckets allocated
  std::size_t bucket_count_ = 0;  // buckets in use: the whole, or for a growing table its start
  bool growing_ = false;
  std::size_t start_buckets_ = growing_start_bytes / sizeof(Bucket);
  std::size_t filled_ = 0;        // a growing table's entries in use (counted as they fill)
  std::size_t grow_at_ = 0;       // ... at which it grows
  // Written since the last clear (searching threads only ever set it; clear() runs between searches).
  std::atomic<bool> dirty_{false};
};

}  // namespace moon
