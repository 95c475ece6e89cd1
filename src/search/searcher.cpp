// The Searcher: options, limits, time, helper threads (Lazy SMP) and the reports to frontends.
#include <algorithm>
#include <memory>
#include <mutex>
#include <new>
#include <optional>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "moon/evaluation.hpp"
#include "moon/movegen.hpp"
#include "moon/notation.hpp"
#include "moon/search.hpp"
#include "time_budget.hpp"
#include "worker.hpp"

namespace moon {

namespace {

// From microseconds: a search of a millisecond or less has a time of 0 or 1 ms, from which a
// rate would be off by any factor (it read "nodes 17 nps 17000 time 0"). In floating point:
// nodes * 10^6 would overflow 64 bits past 1.8 * 10^13 nodes (weeks of an infinite analysis on
// one thread, hours on 256).
std::uint64_t nodes_per_second(std::uint64_t nodes, std::int64_t time_us) {
  return std::uint64_t(double(nodes) * 1e6 / double(std::max<std::int64_t>(time_us, 1)));
}

Expected<bool> validate(const SearchOptions& o) {
  if (o.hash_mb < TranspositionTable::min_mb || o.hash_mb > TranspositionTable::max_mb)
    return Error{"hash size must be from " + std::to_string(TranspositionTable::min_mb) + " to " +
                 std::to_string(TranspositionTable::max_mb) + " MiB, not " + std::to_string(o.hash_mb)};
  if (o.threads < 1 || o.threads > max_search_threads)
    return Error{"threads must be from 1 to " + std::to_string(max_search_threads) + ", not " +
                 std::to_string(o.threads)};
  for (const auto& [name, field] : eval_weight_fields)
    if (o.evaluation.*field < -max_eval_weight || o.evaluation.*field > max_eval_weight)
      return Error{"evaluation weight " + std::string(name) + " must be from " + std::to_string(-max_eval_weight) +
                   " to " + std::to_string(max_eval_weight) + ", not " + std::to_string(o.evaluation.*field)};
  return true;
}

Expected<bool> validate(const SearchLimits& l) {
  if (l.depth < 0 || l.depth > max_search_depth)
    return Error{"depth must be from 1 to " + std::to_string(max_search_depth) + " (0: no limit), not " +
                 std::to_string(l.depth)};
  if (l.movetime_ms < 0) return Error{"move time must not be negative"};
  if (l.time_left_ms < 0) return Error{"time left must not be negative"};
  if (l.increment_ms < 0) return Error{"increment must not be negative"};
  if (l.increment_ms > 0 && l.time_left_ms == 0) return Error{"an increment needs the time left"};
  // As the protocol's `go infinite`: a limit beside it would be half kept (a move time was
  // ignored, a depth or node limit ended the search, which then waited for stop()).
  if (l.infinite && (l.depth || l.nodes || l.movetime_ms || l.time_left_ms))
    return Error{"an infinite search takes no other limit (it searches until stop())"};
  if (l.multipv < 1 || l.multipv > max_multipv)
    return Error{"multipv must be from 1 to " + std::to_string(max_multipv) + ", not " + std::to_string(l.multipv)};
  return true;
}

}  // namespace

struct Searcher::Impl {
  SearchOptions options;
  search::SharedState shared;
  std::vector<std::unique_ptr<search::Worker>> workers;
  std::atomic<bool> searching{false};
  std::atomic<bool> stop_requested{false};
  // Orders a search's start (clearing the stop flags) against stop(): a stop() made once
  // is_searching() is true is never lost; and against set_options() and clear(), which no
  // search may overlap.
  std::mutex start_mutex;
  // The rules the table's entries were searched under; none while the table is empty (made or
  // cleared since the last search), which any rules may then fill without clearing it again.
  std::optional<Rules> table_rules;

  // Forgets the table and history; not while searching (the callers check, holding start_mutex).
  void clear() {
    // Writing every entry of a large table takes a while (33 ms for 256 MiB): not when it is empty.
    if (table_rules) shared.table.clear();
    table_rules.reset();
    for (auto& w : workers) w->clear();
  }

  // A fresh set of workers, made beside the ones in place: memory that cannot be had (bad_alloc)
  // leaves those as they were.
  std::vector<std::unique_ptr<search::Worker>> make_workers(int count) {
    std::vector<std::unique_ptr<search::Worker>> made;
    made.reserve(std::size_t(count));
    for (int i = 0; i < count; ++i) made.push_back(std::make_unique<search::Worker>(i, shared));
    return made;
  }
  std::uint64_t total_nodes() const {
    std::uint64_t n = 0;
    for (const auto& w : workers) n += w->nodes();
    return n;
  }
};

Searcher::Searcher(SearchOptions options) : impl_(std::make_unique<Impl>()) {
  // Out-of-range options are brought into range here; set_options() reports them instead.
  options.hash_mb = std::clamp(options.hash_mb, TranspositionTable::min_mb, TranspositionTable::max_mb);
  options.threads = std::clamp(options.threads, 1, max_search_threads);
  for (const auto& [name, field] : eval_weight_fields)
    options.evaluation.*field = std::clamp(options.evaluation.*field, -max_eval_weight, max_eval_weight);
  if (!impl_->shared.table.resize(options.hash_mb)) {
    options.hash_mb = TranspositionTable::min_mb;
    // Without even that there is no table to search with (its probes would read no memory).
    if (!impl_->shared.table.resize(options.hash_mb)) throw std::bad_alloc();
  }
  impl_->options = options;
  impl_->shared.features = options.features;
  impl_->shared.weights = options.evaluation;
  impl_->shared.total_nodes = [impl = impl_.get()] { return impl->total_nodes(); };
  impl_->workers = impl_->make_workers(options.threads);
}

Searcher::~Searcher() = default;

Expected<bool> Searcher::set_options(SearchOptions options) {
  // Held throughout, so that no search starts halfway through the change.
  std::lock_guard lock(impl_->start_mutex);
  if (impl_->searching.load()) return Error{"cannot change options while searching"};
  if (auto ok = validate(options); !ok) return ok;
  // Whatever fails, nothing changes: the new workers are made first, then the table (whose
  // resize() keeps the old one when it fails), and only then do the workers take their place.
  std::vector<std::unique_ptr<search::Worker>> new_workers;
  if (options.threads != impl_->options.threads) {
    try {
      new_workers = impl_->make_workers(options.threads);
    } catch (const std::bad_alloc&) {
      return Error{"cannot allocate the state of " + std::to_string(options.threads) + " search threads"};
    }
  }
  if (options.hash_mb != impl_->options.hash_mb) {
    if (auto ok = impl_->shared.table.resize(options.hash_mb); !ok) return ok;
    impl_->table_rules.reset();
  }
  if (!new_workers.empty()) impl_->workers = std::move(new_workers);
  if (!(options.features == impl_->options.features) || !(options.evaluation == impl_->options.evaluation))
    impl_->clear();
  impl_->options = options;
  impl_->shared.features = options.features;
  impl_->shared.weights = options.evaluation;
  return true;
}

const SearchOptions& Searcher::options() const { return impl_->options; }

bool Searcher::clear() {
  std::lock_guard lock(impl_->start_mutex);
  if (impl_->searching.load()) return false;
  impl_->clear();
  return true;
}

void Searcher::stop() {
  std::lock_guard lock(impl_->start_mutex);
  impl_->stop_requested.store(true);
  impl_->shared.abort.store(true);
}

bool Searcher::is_searching() const { return impl_->searching.load(); }

Expected<SearchResult> Searcher::search(const Position& pos, const SearchLimits& limits,
                                        std::function<void(const SearchInfo&)> on_iteration,
                                        std::stop_token stop_token) {
  if (auto ok = check_rules(pos.rules()); !ok) return ok.error();
  if (auto ok = validate(limits); !ok) return ok.error();
  Impl& im = *impl_;
  search::SharedState& shared = im.shared;
  {
    std::lock_guard lock(im.start_mutex);
    if (im.searching.load()) return Error{"a search is already running"};
    im.stop_requested.store(false);
    shared.abort.store(false);
    im.searching.store(true);
  }
  struct Done {
    std::atomic<bool>& flag;
    ~Done() { flag.store(false); }
  } done{im.searching};
  // Runs at once if the stop was requested before this search began, else when it is.
  const std::stop_callback stop_on_request(stop_token, [this] { stop(); });
  shared.start = search::Clock::now();

  if (pos.is_over()) {
    // Until stop(), as the word says: a frontend's analysis of a finished game ends when its user
    // ends it, as the protocol's `go infinite` answers only after `stop`.
    if (limits.infinite)
      while (!im.stop_requested.load()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    const Score s = search::terminal_score(pos, 0);
    return SearchResult{Move(), s, score_info(s, true), {}, 0, 0, 0, 0};
  }

  if (im.table_rules && *im.table_rules != pos.rules()) {
    // Keys do not include the rules: entries of other rules must go, and the history and killers
    // learnt under them too (a search under new rules is a fresh engine's, however the rules
    // changed). (A table just made or cleared is empty: clearing it again here would cost this
    // search's clock the time of writing every entry, as it did on every first search.)
    im.clear();
  }
  im.table_rules = pos.rules();
  shared.table.new_search();
  const search::TimeBudget budget = search::plan_time(limits);
  shared.hard_limit_ms = budget.hard_ms;
  shared.node_limit = limits.nodes;
  shared.multipv = limits.multipv;
  shared.main_depth.store(0);
  int max_depth = limits.depth ? limits.depth : max_search_depth;
  // With a time limit and a single legal move, a move to play needs no thought (an analysis,
  // which wants the position's value, does).
  if (budget.hard_ms && !limits.analysis && count_moves(pos) == 1) max_depth = 1;
  // A clock's share of 1 ms (under about 50 ms left) allows no iteration after the first
  // (TimeBudget): nor any helper, which costs more to start and join than the move has (a review
  // measured 256 threads taking 18 ms on average and 35 ms at worst with 30 ms left).
  if (!budget.starts_next_iteration(0)) max_depth = 1;

  // The helpers are stopped and joined however this function is left: an exception from
  // on_iteration must not destroy threads still running.
  struct Helpers {
    std::atomic<bool>& abort;
    std::atomic<bool> go{false};  // set once the main thread has completed its first iteration
    std::vector<std::thread> threads;
    void release() {
      go.store(true);
      go.notify_all();
    }
    void end() {
      abort.store(true);
      release();  // parked helpers wake, see the abort and return
      for (std::thread& t : threads) t.join();
      threads.clear();
    }
    ~Helpers() { end(); }
  } helpers{shared.abort, {}, {}};
  // Before any thread starts: with the counts of the last search still in helpers that had not
  // yet begun, a node limit once ended the next search at depth 1 (349 641 nodes "searched" for
  // `go nodes 1000`).
  for (auto& w : im.workers) w->reset_nodes();
  // Node limits are checked against the sum of every thread's count every node_check_interval
  // nodes: small enough that the threads together overshoot a small limit by an eighth at most.
  shared.node_check_interval = search::node_check_interval(limits.nodes, im.workers.size());
  // The helpers are made now, before anything is searched or reported, so that a thread the
  // system will not make is an error with nothing done (made after the first iteration, one
  // once discarded a completed search). They wait parked until the main thread has completed its
  // first iteration (microseconds): running at once, the 127 helpers of 128 threads on 2 cores
  // kept it from completing one in 200 ms, and the search answered with an unsearched move. A search limited
  // to depth 1 needs none.
  if (max_depth > 1) {
    try {
      for (std::size_t i = 1; i < im.workers.size(); ++i)
        helpers.threads.emplace_back([&, i] {
          helpers.go.wait(false);
          // A helper is an extra: one that throws (memory that cannot be had) stops helping and
          // the search goes on without it, where the exception would end the process.
          try {
            if (!shared.abort.load()) im.workers[i]->run(pos, max_depth, {});
          } catch (...) {
          }
        });
    } catch (const std::system_error& e) {
      // The caller's thread is the first of the search's threads; only the helpers are made.
      return Error{"cannot start the " + std::to_string(im.workers.size() - 1) + " helper threads of a " +
                   std::to_string(im.workers.size()) + "-thread search (" +
                   std::to_string(helpers.threads.size()) + " started): " + e.what()};
    }
  }

  const auto report = [&](const search::Iteration& it) {
    const std::int64_t time_us = shared.elapsed_us(), time_ms = time_us / 1000;
    const std::uint64_t nodes = im.total_nodes();
    const std::uint64_t nps = nodes_per_second(nodes, time_us);
    const int lines = int(it.lines.size());
    if (on_iteration) {
      for (int i = 0; i < lines; ++i) {
        const search::Line& line = it.lines[std::size_t(i)];
        on_iteration(SearchInfo{it.depth, line.score, score_info(line.score, line.proven), nodes, nps, time_ms,
                                line.pv, shared.table.hashfull(), limits.multipv, i + 1, lines});
      }
    }
    if (it.proven) return false;  // the game's value (and every move's): deeper iterations cannot change it
    // A win or loss within the horizon is the shortest win / longest defence: settled. With more
    // than one line, once every line is (a draw is not: a move outside the lines, scored by a
    // heuristic, may still prove better than a drawn line).
    const auto settled = [&](const search::Line& line) { return is_settled_within(score_info(line.score), it.depth); };
    if (std::all_of(it.lines.begin(), it.lines.end(), settled)) return false;
    if (!budget.starts_next_iteration(time_us)) return false;
    if (it.depth == 1) helpers.release();
    return true;
  };
  search::Worker& main = *im.workers.front();
  search::Iteration last = main.run(pos, max_depth, report);
  helpers.end();
  SearchResult result{};
  result.nodes = im.total_nodes();
  const std::int64_t time_us = shared.elapsed_us();
  result.time_ms = time_us / 1000;
  result.nps = nodes_per_second(result.nodes, time_us);
  // An infinite search that has nothing more to search (proven, or the deepest depth) waits for
  // stop(), as the word says; the totals above are the search's, not the wait's.
  if (limits.infinite)
    while (!im.stop_requested.load()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  if (last.depth == 0 || last.pv.empty()) {
    // Stopped before the first iteration ended: the best-ordered legal move, scored statically.
    result.best = main.first_root_move();
    if (result.best.is_null()) result.best = legal_moves(pos)[0];
    result.score = with_variant(pos.rules(), [&](auto v) { return evaluate<decltype(v)>(pos, im.options.evaluation); });
    result.score_info = score_info(result.score);
    result.pv = {result.best};
    result.depth = 0;
    return result;
  }
  result.best = last.pv.front();
  result.score = last.score;
  result.score_info = score_info(last.score, last.proven);
  result.pv = std::move(last.pv);
  result.depth = last.depth;
  return result;
}

std::string totals_text(const SearchResult& result) {
  return "nodes " + std::to_string(result.nodes) + " nps " + std::to_string(result.nps) + " time " +
         std::to_string(result.time_ms);
}

std::string to_string(const SearchInfo& info) {
  std::string text = "depth " + std::to_string(info.depth) +
                     (info.multipv > 1 ? " multipv " + std::to_string(info.line) : std::string()) + " score " +
                     to_string(info.score_info) + " nodes " +
                     std::to_string(info.nodes) + " nps " + std::to_string(info.nps) + " time " +
                     std::to_string(info.time_ms) + " hashfull " + std::to_string(info.hashfull);
  if (!info.pv.empty()) text += " pv";
  for (Move m : info.pv) text += ' ' + to_string(m);
  return text;
}

}  // namespace moon
