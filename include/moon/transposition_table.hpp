// The search's transposition table: 16-byte entries in 64-byte buckets, exact keys, safe to
// share between threads without locks.
//
// Each entry is two 64-bit words, written and read with relaxed atomics: `data` (move, score,
// depth, bound, proven flag, generation and 16 check bits of the key's hash) and
// `check` = key ^ data. The key is Position::key(), exact in 63 bits (boards, side, hands,
// clock), so a hit is never a different position: two positions that differ only in clock or
// hands never share an entry. A reader accepts an entry only when check ^ data gives back its
// own key and the check bits match its hash; a slot torn by two threads writing at once fails
// this test (the lockless-hashing scheme of Hyatt and Mann, strengthened by the check bits),
// and moves read from the table are only used after they are found among the legal moves.
//
// Replacement: a store for a key already in the bucket updates that entry (unless the entry
// holds an unproven result of this search more than 2 plies deeper and the new one is neither
// exact nor proven: then the store is dropped); otherwise it takes the entry with the lowest
// worth = depth + proven bonus - 8 * age (age in searches since it was written), so deep,
// proven and recent results stay.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "moon/expected.hpp"
#include "moon/memory.hpp"
#include "moon/move.hpp"
#include "moon/score.hpp"

namespace moon {

namespace detail {
__extension__ using TableIndexProduct = unsigned __int128;
}  // namespace detail

enum class Bound : std::uint8_t { none, upper, lower, exact };

struct TableEntry {
  Move move;
  Score score;       // as stored: relative to the storing node (score_from_table converts)
  int depth;
  Bound bound;
  bool proven;       // the bound holds for the game itself, at any depth (no heuristic leaf below)
};

class TranspositionTable {
 public:
  static constexpr std::size_t entries_per_bucket = 4;
  static constexpr std::size_t min_mb = 1;
  static constexpr std::size_t max_mb = 65536;

  TranspositionTable() = default;
  // Allocates mb MiB (cleared); an error (and the old table kept) if mb is out of range, more
  // than the machine's physical memory or the memory available now (memory.hpp: the old table,
  // freed only once the new one is made, counts as taken), or the memory cannot be had. The
  // same size again only clears the table.
  Expected<bool> resize(std::size_t mb);
  void clear();
  // Starts a new search: entries written before age.
  void new_search() { generation_ = std::uint8_t((generation_ + 1) & generation_mask); }

  std::size_t bucket_count() const { return bucket_count_; }
  std::size_t size_mb() const { return bucket_count_ * sizeof(Bucket) >> 20; }
  // Entries written in the current search, per mille (sampled on the first 1000 entries).
  int hashfull() const;

  // A table never sized (default-constructed, or every resize() refused) finds and keeps nothing.
  bool probe(std::uint64_t key, std::uint64_t hash, TableEntry& out) const {
    if (!bucket_count_) return false;
    const Bucket& b = bucket(hash);
    for (const Slot& slot : b.slots) {
      const std::uint64_t data = slot.data.load(std::memory_order_relaxed);
      const std::uint64_t check = slot.check.load(std::memory_order_relaxed);
      if ((check ^ data) != key || field(data, bound_shift, 2) == 0 || field(data, check_shift, 16) != (hash >> 48))
        continue;
      out = decode(data);
      return true;
    }
    return false;
  }

  void store(std::uint64_t key, std::uint64_t hash, Move move, Score score, int depth, Bound bound, bool proven) {
    if (!bucket_count_) return;
    Bucket& b = bucket(hash);
    Slot* target = nullptr;
    int lowest_worth = 1 << 30;
    for (Slot& slot : b.slots) {
      const std::uint64_t data = slot.data.load(std::memory_order_relaxed);
      const std::uint64_t check = slot.check.load(std::memory_order_relaxed);
      if ((check ^ data) == key && field(data, bound_shift, 2) != 0 && field(data, check_shift, 16) == (hash >> 48)) {
        const TableEntry old = decode(data);
        // Keep a deeper result of this search unless the new one is exact or proven.
        if (bound != Bound::exact && !proven && old.depth > depth + 2 && age(data) == 0 && !old.proven) return;
        if (move.is_null()) move = old.move;
        target = &slot;
        break;
      }
      const int worth = field(data, bound_shift, 2) == 0 ? -(1 << 20) : entry_worth(data);
      if (worth < lowest_worth) {
        lowest_worth = worth;
        target = &slot;
      }
    }
    const std::uint64_t data = encode(move, score, depth, bound, proven, generation_, hash >> 48);
    target->data.store(data, std::memory_order_relaxed);
    target->check.store(key ^ data, std::memory_order_relaxed);
  }

 private:
  struct Slot {
    std::atomic<std::uint64_t> check{0};
    std::atomic<std::uint64_t> data{0};
  };
  struct alignas(64) Bucket {
    Slot slots[entries_per_bucket];
  };
  static_assert(sizeof(Bucket) == 64);

  static constexpr int score_shift = 16, depth_shift = 32, bound_shift = 40, proven_shift = 42,
                       generation_shift = 43, check_shift = 48;
  static constexpr unsigned generation_mask = 31;
  static constexpr int proven_bonus = 32;
  static constexpr int age_penalty = 8;

  static constexpr std::uint64_t field(std::uint64_t data, int shift, int bits) {
    return (data >> shift) & ((std::uint64_t{1} << bits) - 1);
  }
  static constexpr std::uint64_t encode(Move move, Score score, int depth, Bound bound, bool proven,
                                        unsigned generation, std::uint64_t check_bits) {
    return std::uint64_t(move.raw()) | std::uint64_t(std::uint16_t(std::int16_t(score))) << score_shift |
           std::uint64_t(std::uint8_t(depth)) << depth_shift | std::uint64_t(bound) << bound_shift |
           std::uint64_t(proven) << proven_shift | std::uint64_t(generation) << generation_shift |
           check_bits << check_shift;
  }
  static constexpr TableEntry decode(std::uint64_t data) {
    return {Move::from_raw(std::uint16_t(data)), Score(std::int16_t(std::uint16_t(data >> score_shift))),
            int(field(data, depth_shift, 8)), Bound(field(data, bound_shift, 2)), field(data, proven_shift, 1) != 0};
  }
  int age(std::uint64_t data) const {
    return int((generation_ - field(data, generation_shift, 5)) & generation_mask);
  }
  int entry_worth(std::uint64_t data) const {
    return int(field(data, depth_shift, 8)) + proven_bonus * int(field(data, proven_shift, 1)) -
           age_penalty * age(data);
  }
  Bucket& bucket(std::uint64_t hash) const {
    return buckets_[std::size_t((detail::TableIndexProduct(hash) * bucket_count_) >> 64)];
  }

  TableArray<Bucket> buckets_;
  std::size_t bucket_count_ = 0;
  std::uint8_t generation_ = 0;
};

}  // namespace moon
