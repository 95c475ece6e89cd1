#include "moon/perft.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <new>
#include <system_error>
#include <thread>

#include "moon/memory.hpp"

namespace moon {

std::string to_string(Count n) {
  if (n == 0) return "0";
  std::string digits;
  for (; n; n /= 10) digits += char('0' + int(n % 10));
  return {digits.rbegin(), digits.rend()};
}

namespace {

// A table of exact perft results shared by all threads. Each entry is a seqlock: a writer
// makes the version odd while it writes, a reader keeps what it read only if the version was
// even and unchanged, so a torn entry is never used and every hit is exact.
class PerftTable {
 public:
  // Check `valid()`: the memory may not be had.
  explicit PerftTable(std::size_t bytes) {
    std::size_t n = 1;
    while (n * 2 * sizeof(Entry) <= bytes) n *= 2;
    // On huge pages, as the other tables (memory.hpp): made with std::make_unique on 4 KiB pages
    // it took 1.5 to 2 ms a MiB to clear, most of a short count's time.
    entries_ = make_table_array<Entry>(n);
    mask_ = n - 1;
  }
  bool valid() const { return entries_ != nullptr; }

  bool probe(const Position& pos, int depth, Count& nodes) const {
    const Entry& e = entries_[pos.hash() & mask_];
    const std::uint64_t version = e.version.load(std::memory_order_acquire);
    if (version & 1) return false;
    const std::uint64_t key = e.key.load(std::memory_order_relaxed);
    const std::uint64_t stored_depth = e.depth.load(std::memory_order_relaxed);
    const std::uint64_t low = e.low.load(std::memory_order_relaxed);
    const std::uint64_t high = e.high.load(std::memory_order_relaxed);
    std::atomic_thread_fence(std::memory_order_acquire);
    if (e.version.load(std::memory_order_relaxed) != version) return false;
    if (key != pos.key() || stored_depth != std::uint64_t(depth)) return false;
    nodes = (Count(high) << 64) | low;
    return true;
  }

  void store(const Position& pos, int depth, Count nodes) {
    Entry& e = entries_[pos.hash() & mask_];
    std::uint64_t version = e.version.load(std::memory_order_relaxed);
    if ((version & 1) || !e.version.compare_exchange_strong(version, version + 1, std::memory_order_acquire))
      return;  // another thread is writing this entry: skip, the table is only a cache
    std::atomic_thread_fence(std::memory_order_release);
    e.key.store(pos.key(), std::memory_order_relaxed);
    e.depth.store(std::uint64_t(depth), std::memory_order_relaxed);
    e.low.store(std::uint64_t(nodes), std::memory_order_relaxed);
    e.high.store(std::uint64_t(nodes >> 64), std::memory_order_relaxed);
    e.version.store(version + 2, std::memory_order_release);
  }

 private:
  struct Entry {
    std::atomic<std::uint64_t> version{0};
    std::atomic<std::uint64_t> key{~std::uint64_t{0}};  // no position has this key
    std::atomic<std::uint64_t> depth{0};
    std::atomic<std::uint64_t> low{0};
    std::atomic<std::uint64_t> high{0};
  };
  TableArray<Entry> entries_;
  std::size_t mask_ = 0;
};

// Below this depth a subtree is counted in bulk, which is cheaper than a lookup.
constexpr int least_hashed_depth = 4;

bool add_checked(Count& total, Count n) { return !__builtin_add_overflow(total, n, &total); }

// Subtrees this shallow are counted whole between two looks at a stop: a fraction of a
// millisecond each (perft_count()'s bulk counting covers the last 4 plies of the movement phase).
constexpr int unchecked_depth = 4;

// perft_count() that gives up once `stopped` is set, with a count that means nothing (the
// caller throws it away).
template <class V>
Count stoppable_count(const Position& pos, int depth, const std::atomic<bool>& stopped) {
  if (depth <= unchecked_depth) return perft_count<V>(pos, depth);
  if (stopped.load(std::memory_order_relaxed)) return 0;
  MoveList list;
  generate_moves<V>(pos, list);
  Count nodes = 0;
  for (Move m : list) nodes += stoppable_count<V>(pos.after<V>(m), depth - 1, stopped);
  return nodes;
}

// The same with the table; a count given up is not stored.
template <class V>
Count hashed_count(const Position& pos, int depth, PerftTable& table, std::atomic<bool>& overflow,
                   const std::atomic<bool>& stopped) {
  if (depth < least_hashed_depth) return perft_count<V>(pos, depth);
  if (depth > unchecked_depth && stopped.load(std::memory_order_relaxed)) return 0;
  Count nodes = 0;
  if (table.probe(pos, depth, nodes)) return nodes;
  MoveList list;
  generate_moves<V>(pos, list);
  for (Move m : list)
    if (!add_checked(nodes, hashed_count<V>(pos.after<V>(m), depth - 1, table, overflow, stopped))) {
      overflow = true;
      return 0;
    }
  if (!stopped.load(std::memory_order_relaxed)) table.store(pos, depth, nodes);
  return nodes;
}

// A piece of the root's work: the subtree below a position one or two plies down.
struct WorkItem {
  std::size_t root_index;
  Position position;
  int depth;
  Count nodes = 0;
};

template <class V>
std::vector<WorkItem> split_root(const Position& pos, int depth, const MoveList& root, bool two_plies) {
  std::vector<WorkItem> items;
  for (std::size_t i = 0; i < root.size(); ++i) {
    const Position child = pos.after<V>(root[i]);
    if (!two_plies) {
      items.push_back({i, child, depth - 1});
      continue;
    }
    MoveList replies;
    generate_moves<V>(child, replies);
    for (Move r : replies) items.push_back({i, child.after<V>(r), depth - 2});
  }
  return items;
}

template <class V>
Expected<PerftResult> run(const Position& pos, int depth, const PerftOptions& options) {
  PerftResult result;
  if (depth == 0) {
    result.nodes = 1;
    return result;
  }
  MoveList root;
  generate_moves<V>(pos, root);
  for (Move m : root) result.divide.push_back({m, 0});

  // Two plies of split keep threads busy when the root has few moves.
  const bool two_plies = depth >= 3;
  std::vector<WorkItem> items = split_root<V>(pos, depth, root, two_plies);

  // Only made when the work items are deep enough to use it (depth 6 on): `--hash` on a shallow
  // count would spend its time clearing a table nothing reads.
  std::unique_ptr<PerftTable> table;
  if (options.hash_mb && depth - (two_plies ? 2 : 1) >= least_hashed_depth) {
    table = std::make_unique<PerftTable>(options.hash_mb << 20);
    if (!table->valid()) return Error{"cannot allocate a " + std::to_string(options.hash_mb) + " MiB perft table"};
  }
  std::atomic<std::size_t> next{0}, done{0};
  std::atomic<bool> overflow{false};
  // Set by a stop requested on options.stop (at once, if it was before the count began), or as
  // this function is left by an exception: the threads then finish their items in moments,
  // counting nothing more, and no further root move is finished (its count may be cut short).
  std::atomic<bool> stopped{false};
  const std::stop_callback on_stop(options.stop, [&] { stopped.store(true); });
  // Items still to count under each root move; the one that brings its move's to 0 publishes
  // all their counts to the calling thread (release, then acquire below).
  std::vector<std::atomic<std::size_t>> items_left(root.size());  // each starts at 0
  for (const WorkItem& item : items) items_left[item.root_index].fetch_add(1, std::memory_order_relaxed);
  // Root moves whose counts are summed into result.divide (and given to root_move_done), in order;
  // the items are in root move order (split_root).
  std::size_t roots_done = 0, items_summed = 0;
  const auto finish_root_moves = [&] {
    // `stopped` is read after the acquire: a count cut short by it was published after its thread
    // saw it set, so it is seen set here too.
    while (roots_done < root.size() && items_left[roots_done].load(std::memory_order_acquire) == 0 &&
           !stopped.load(std::memory_order_relaxed)) {
      DivideEntry& entry = result.divide[roots_done];
      for (; items_summed < items.size() && items[items_summed].root_index == roots_done; ++items_summed)
        if (!add_checked(entry.nodes, items[items_summed].nodes)) overflow = true;
      if (options.root_move_done) options.root_move_done(entry);
      ++roots_done;
    }
  };
  // Progress, from the calling thread; none once stopped: the items passed over from then on
  // count as done but were not counted.
  const auto report = [&](std::size_t counted) {
    if (options.progress && !stopped.load(std::memory_order_relaxed)) options.progress(counted, items.size());
  };
  std::mutex mutex;
  std::condition_variable finished;
  // `reports`: the one worker on the calling thread (no thread could be started) gives the
  // progress itself, as the waiting loop below otherwise does.
  auto worker = [&](bool reports) {
    for (std::size_t i; (i = next.fetch_add(1)) < items.size();) {
      WorkItem& item = items[i];
      if (stopped.load(std::memory_order_relaxed))
        item.nodes = 0;  // the rest are passed over, not counted
      else
        item.nodes = table ? hashed_count<V>(item.position, item.depth, *table, overflow, stopped)
                           : stoppable_count<V>(item.position, item.depth, stopped);
      items_left[item.root_index].fetch_sub(1, std::memory_order_release);
      const std::size_t counted = done.fetch_add(1) + 1;
      if (counted == items.size()) {
        std::lock_guard lock(mutex);
        finished.notify_all();
      } else if (reports) {
        report(counted);
        finish_root_moves();
      }
    }
  };
  std::vector<std::jthread> threads;
  // Declared after `threads`, so destroyed before them: however this function is left, the
  // threads are told to stop before they are joined (an exception from a callback once waited
  // for the whole count).
  struct StopOnExit {
    std::atomic<bool>& stopped;
    ~StopOnExit() { stopped.store(true); }
  } stop_on_exit{stopped};
  const int thread_count = std::min<int>(options.threads, int(std::max<std::size_t>(items.size(), 1)));
  // One thread is the calling thread, which then reports every item as it is done rather than
  // every 250 ms. Threads the system will not start are done without: the count is the same,
  // only slower (throwing the work of those started away instead cost a 256-thread perft(11) 75 s).
  if (thread_count > 1) {
    try {
      threads.reserve(std::size_t(thread_count));
      for (int t = 0; t < thread_count; ++t) threads.emplace_back(worker, false);
    } catch (const std::system_error&) {
    } catch (const std::bad_alloc&) {
    }
    result.threads_not_started = thread_count - int(threads.size());
  }
  if (threads.empty()) worker(true);  // on this thread
  {
    std::unique_lock lock(mutex);
    std::size_t reported = 0;
    while (done.load() < items.size()) {
      finished.wait_for(lock, std::chrono::milliseconds(250));
      const std::size_t now = done.load();
      if (now != reported && now < items.size()) report(now);
      reported = now;
      finish_root_moves();
    }
  }
  threads.clear();

  finish_root_moves();
  if (roots_done < root.size())
    return Error{.message = "perft stopped after " + std::to_string(roots_done) + " of " +
                            std::to_string(root.size()) + " root moves",
                 .stopped = true};
  if (options.progress && !items.empty()) options.progress(items.size(), items.size());
  for (const DivideEntry& entry : result.divide)
    if (!add_checked(result.nodes, entry.nodes)) overflow = true;
  if (overflow) return Error{"the perft count exceeds 128 bits"};
  return result;
}

}  // namespace

Expected<PerftResult> perft(const Position& pos, int depth, const PerftOptions& options) {
  if (auto ok = check_rules(pos.rules()); !ok) return ok.error();
  if (depth < 0 || depth > max_perft_depth)
    return Error{"depth " + std::to_string(depth) + " must be from 0 to " + std::to_string(max_perft_depth)};
  if (options.threads < 1 || options.threads > max_perft_threads)
    return Error{"threads " + std::to_string(options.threads) + " must be from 1 to " +
                 std::to_string(max_perft_threads)};
  if (options.hash_mb > max_perft_hash_mb)
    return Error{"hash " + std::to_string(options.hash_mb) + " MiB must be at most " +
                 std::to_string(max_perft_hash_mb)};
  // Before allocating: a table larger than the machine would be killed while it is cleared.
  if (auto fits = check_table_size(options.hash_mb); !fits) return fits.error();
  return with_variant(pos.rules(), [&](auto v) { return run<decltype(v)>(pos, depth, options); });
}

std::string threads_not_started_text(int count) {
  return "the system would not start " + std::to_string(count) + " of the threads; counted without them";
}

}  // namespace moon
