#include "moon/solver.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <exception>
#include <mutex>
#include <optional>
#include <vector>

#include "moon/memory.hpp"
#include "moon/movegen.hpp"
#include "moon/notation.hpp"
#include "moon/solve_search.hpp"
#include "thread_pool.hpp"

namespace moon {

Expected<SolveResult> result_of(const std::vector<MoveValue>& values) {
  if (values.empty()) return Error{"no move values to take the result from: the game is over (solve() gives its value)"};
  SolveResult result;
  result.outcome = values.front().outcome;
  result.plies = values.front().plies;
  result.best = values.front().move;
  for (const MoveValue& v : values) {
    result.nodes += v.nodes;
    result.time_ms += v.time_ms;
  }
  return result;
}

std::string_view to_string(Outcome outcome) {
  switch (outcome) {
    case Outcome::win: return "win";
    case Outcome::draw: return "draw";
    case Outcome::loss: return "loss";
  }
  return "?";
}

namespace {

Error analysis_stopped() {
  return Error{.message = "the analysis was stopped before every move was proven", .stopped = true};
}

// The options' ranges (hash 0..max_solve_hash_mb, threads 1..max_solve_threads).
Expected<bool> check_ranges(const SolveOptions& options) {
  if (options.hash_mb > max_solve_hash_mb)
    return Error{"hash size " + std::to_string(options.hash_mb) + " MiB is out of range (0-" +
                 std::to_string(max_solve_hash_mb) + ")"};
  if (options.threads < 1 || options.threads > max_solve_threads)
    return Error{"thread count " + std::to_string(options.threads) + " is out of range (1-" +
                 std::to_string(max_solve_threads) + ")"};
  return true;
}

SolveOptions clamped(SolveOptions options) {
  options.hash_mb = std::min(options.hash_mb, max_solve_hash_mb);
  options.threads = std::clamp(options.threads, 1, max_solve_threads);
  return options;
}

// One thread grows the table with the solve (solve_table.hpp); more share the whole at once.
bool table_grows(const SolveOptions& options) {
#ifdef MOON_SOLVER_WHOLE_TABLE  // for measuring what growing gains (docs/SOLVER.md)
  (void)options;
  return false;
#else
  return options.threads == 1;
#endif
}

}  // namespace

struct Solver::Impl {
  SolveOptions options;
  SolveTable table;
  std::optional<Rules> table_rules;  // the rules the table's entries were proven under

  std::mutex mutex;                  // guards solving and the start of a stop
  bool solving = false;
  std::atomic<bool> halt{false};     // set by stop() or by the first thread to finish
  std::atomic<bool> stopped{false};  // set by stop()
  std::string progress_prefix;       // before each progress line: which move analyze() proves
  ThreadPool threads{solve_thread_stack_bytes, solve_least_thread_stack_bytes};  // the searches run on these
};

Solver::Solver(SolveOptions options) : Solver(options, Unmade{}) {
  // A size the machine cannot hold: no table (set_options() says why instead).
  const std::size_t mb = clamped(std::move(options)).hash_mb;
  if (impl_->table.resize(mb)) impl_->options.hash_mb = mb;
  impl_->table.set_growing(table_grows(impl_->options));
  // Made now rather than in the first solve, which would pay for them; threads the system will
  // not make are an error of solve() (and of set_options()).
  (void)impl_->threads.reserve(impl_->options.threads);
}

Solver::Solver(SolveOptions options, Unmade) : impl_(std::make_unique<Impl>()) {
  impl_->options = clamped(std::move(options));
  impl_->options.hash_mb = 0;
}

Expected<std::unique_ptr<Solver>> Solver::create(SolveOptions options, bool announce_table,
                                                 const std::stop_token& stop) {
  const auto say = options.progress;
  const bool announced = announce_table && say && options.hash_mb >= announced_solve_table_mb;
  if (announced) {
    // What is refused without making anything is refused before the announcement.
    if (const auto ok = check_ranges(options); !ok) return ok.error();
    if (const auto fits = check_table_size(options.hash_mb); !fits) return fits.error();
    say(making_table_text(options.hash_mb));
  }
  const auto started = std::chrono::steady_clock::now();
  auto solver = std::unique_ptr<Solver>(new Solver(options, Unmade{}));
  if (auto ok = solver->set_options(std::move(options), stop); !ok) return ok.error();
  if (announced) say(table_made_text(std::chrono::steady_clock::now() - started));
  return solver;
}

Solver::~Solver() = default;

Expected<bool> Solver::set_options(SolveOptions options, const std::stop_token& stop) {
  if (const auto ok = check_ranges(options); !ok) return ok;
  std::lock_guard lock(impl_->mutex);
  if (impl_->solving) return Error{"cannot change the options while solving"};
  // The table first: the threads' stacks then take what address space is left, halved to fit,
  // rather than leaving too little for the table.
  const std::size_t old_mb = impl_->options.hash_mb;
  const bool resized = options.hash_mb != old_mb;
  if (resized) {
    // On failure (more than the machine's memory, or not to be had) nothing changes.
    if (auto ok = impl_->table.resize(options.hash_mb, stop); !ok) return ok;
    impl_->table_rules.reset();
  }
  // Threads made before a failure stay, idle: nothing a caller can see changes but the table's
  // entries, which only save time. Its old size is had again (the new one freed first); were
  // even that refused, the solver goes without a table, as the constructor does.
  if (const auto made = impl_->threads.reserve(options.threads); !made) {
    if (resized) {
      (void)impl_->table.resize(0);
      if (!impl_->table.resize(old_mb)) impl_->options.hash_mb = 0;
    }
    return Error{"cannot make " + std::to_string(options.threads) + " solver threads: " + made.error().message};
  }
  impl_->options = std::move(options);
  impl_->table.set_growing(table_grows(impl_->options));
  return true;
}

bool Solver::clear() {
  std::lock_guard lock(impl_->mutex);
  if (impl_->solving) return false;
  impl_->table.clear();
  impl_->table_rules.reset();
  return true;
}

void Solver::stop() {
  std::lock_guard lock(impl_->mutex);
  if (!impl_->solving) return;
  impl_->stopped = true;
  impl_->halt = true;
}

bool Solver::is_solving() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->solving;
}

// Marks the solver busy for one solve() or analyze() (false if it already was), and idle again
// when it goes.
class Solver::Session {
 public:
  explicit Session(Impl& s) : s_(s) {
    std::lock_guard lock(s_.mutex);
    if (s_.solving) return;
    s_.solving = owner_ = true;
    s_.halt = false;
    s_.stopped = false;
  }
  ~Session() {
    if (!owner_) return;
    std::lock_guard lock(s_.mutex);
    s_.solving = false;
  }
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;
  bool started() const { return owner_; }
  // Between two proofs of one session: false if stop() came, else ready for the next.
  bool next_proof() {
    std::lock_guard lock(s_.mutex);
    if (s_.stopped) return false;
    s_.halt = false;  // the last proof's first finished thread set it
    return true;
  }

 private:
  Impl& s_;
  bool owner_ = false;
};

Expected<SolveResult> Solver::solve(const Position& pos, std::stop_token stop_token) {
  if (auto ok = check_rules(pos.rules()); !ok) return ok.error();
  Session session(*impl_);
  if (!session.started()) return Error{"a solve is already running on this solver"};
  // Runs at once if the stop was requested before this solve began, else when it is; gone
  // (waiting for a run in progress) before the session ends.
  if (pos.is_over()) return over_game_result(pos, impl_->options.distance);  // no search: no thread needed
  const std::stop_callback stop_on_request(stop_token, [this] { stop(); });
  return prove(pos);
}

Expected<std::vector<MoveValue>> Solver::analyze(const Position& pos, std::stop_token stop_token) {
  if (auto ok = check_rules(pos.rules()); !ok) return ok.error();
  Session session(*impl_);
  if (!session.started()) return Error{"a solve is already running on this solver"};
  const std::stop_callback stop_on_request(stop_token, [this] { stop(); });
  std::vector<MoveValue> values;
  if (pos.is_over()) return values;
  const MoveList moves = legal_moves(pos);
  for (Move m : moves) {
    if (!values.empty() && !session.next_proof()) return analysis_stopped();
    impl_->progress_prefix =
        "move " + std::to_string(values.size() + 1) + " of " + std::to_string(moves.size()) + ", " + to_string(m) + ": ";
    // Cleared however prove() ends: an exception from the progress callback once left it on every
    // later solve's progress lines.
    struct ClearPrefix {
      std::string& prefix;
      ~ClearPrefix() { prefix.clear(); }
    } clear_prefix{impl_->progress_prefix};
    const auto child = prove(pos.after(m));
    if (!child) {
      if (child.error().stopped) return analysis_stopped();
      return Error{"move " + to_string(m) + ": " + child.error().message};
    }
    const int plies = impl_->options.distance ? child->plies + 1 : -1;
    values.push_back({m, opposite(child->outcome), plies, child->nodes, child->time_ms});
  }
  // Best first: wins (the fastest first), draws (the shortest line first), losses (the slowest
  // first); generation order among equals.
  const auto rank = [](const MoveValue& v) {
    const int plies = std::max(v.plies, 0);
    return v.outcome == Outcome::win ? plies : v.outcome == Outcome::draw ? 100000 + plies : 300000 - plies;
  };
  std::stable_sort(values.begin(), values.end(), [&](const MoveValue& a, const MoveValue& b) { return rank(a) < rank(b); });
  return values;
}

Expected<SolveResult> Solver::prove(const Position& pos) {
  Impl& s = *impl_;
  // Entries proven under other rules are false here: start afresh when the rules change.
  if (s.table_rules != pos.rules()) {
    s.table.clear();
    s.table_rules = pos.rules();
  }

  const auto start = std::chrono::steady_clock::now();
  const auto elapsed_ms = [&] {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count();
  };
  const int threads = s.options.threads;
  std::atomic<std::uint64_t> ticked_nodes{0};  // all threads, in steps of tick_interval, for progress
  std::mutex result_mutex;
  std::optional<SolveResult> result;
  std::vector<std::uint64_t> nodes(std::size_t(threads), 0);
  std::atomic<std::size_t> short_stack{0};  // the stack of a search that ran out of it (0: none)
  SharedBounds shared;
  std::string last_note = "starting";
  std::exception_ptr progress_failure;  // thread 0's alone
  auto last_report = start - std::chrono::seconds(1);

  // Thread 0 reports: the latest note with the counts, at most about once a second.
  const auto report = [&](const std::string& note) {
    if (!s.options.progress) return;
    if (!note.empty()) last_note = note;
    const auto now = std::chrono::steady_clock::now();
    if (now - last_report < std::chrono::seconds(1)) return;
    last_report = now;
    const std::int64_t ms = elapsed_ms();
    const std::uint64_t n = ticked_nodes.load(std::memory_order_relaxed);
    char line[160];
    std::snprintf(line, sizeof line, "%llu nodes, %.1f Mn/s, %.1f s, table %d permille",
                  static_cast<unsigned long long>(n), ms > 0 ? double(n) / double(ms) / 1000.0 : 0.0,
                  double(ms) / 1000.0, s.table.fill_permille());
    try {
      s.options.progress(s.progress_prefix + last_note + std::string(solve_progress_separator) + line);
    } catch (...) {
      // Thrown on a solver thread, where it would end the process: it ends the solve instead and
      // reaches the caller of solve(), as an exception from a search's callback does.
      progress_failure = std::current_exception();
      s.halt = true;
    }
  };

  const auto search_part = [&](int index) {
    with_variant(pos.rules(), [&](auto variant) {
      using V = decltype(variant);
      std::function<void()> tick = [&] {
        ticked_nodes.fetch_add(SolveSearch<V>::tick_interval, std::memory_order_relaxed);
        if (index == 0) report({});
      };
      auto search = std::make_unique<SolveSearch<V>>(s.table, s.halt, unsigned(index / 2), std::move(tick),
                                                     s.threads.stack_bytes(index) - solve_callback_stack_bytes);
      SolveResult mine;
      std::function<void(const std::string&)> note;
      if (index == 0) note = [&](const std::string& text) { report(text); };
      // Alone, a search interleaves all kinds of probes; together, thread 0 deepens, thread 1
      // probes the whole game, and any others repeat those roles with a perturbed move order.
      const SolveRole role = threads == 1 ? SolveRole::alone : index % 2 ? SolveRole::whole_game : SolveRole::deepening;
      const bool done = search->solve(pos, s.options.distance, mine, note, role, threads == 1 ? nullptr : &shared);
      nodes[std::size_t(index)] = search->nodes();
      if (done) {
        std::lock_guard lock(result_mutex);
        if (!result) result = mine;
        s.halt = true;  // the others stop: the first exact answer is the answer
      } else if (search->too_deep()) {
        short_stack = s.threads.stack_bytes(index);
        s.halt = true;  // the others stop: the proof cannot be completed
      }
    });
  };
  // A search that throws (memory that cannot be had) ends the solve: the others stop, and the
  // pool hands the exception on to the caller of solve().
  const auto run = [&](int index) {
    try {
      search_part(index);
    } catch (...) {
      s.halt = true;
      throw;
    }
  };

  // Every search runs on a thread of the solver's own, whose stack is made for it; the caller's
  // may be far smaller.
  if (const auto ran = s.threads.run(threads, run); !ran)
    return Error{"the solve could not start: " + ran.error().message};
  if (progress_failure) std::rethrow_exception(progress_failure);
  if (!result && short_stack)
    return Error{"the proof needs lines longer than the solver's stack allows (" +
                 std::to_string(short_stack >> 20) +
                 " MiB on the thread that ran out): a long clock limit with many counters on the board"};
  if (!result) return Error{.message = "the solve was stopped before the proof was complete", .stopped = true};
  SolveResult out = *result;
  out.nodes = 0;
  for (std::uint64_t n : nodes) out.nodes += n;
  out.time_ms = elapsed_ms();
  return out;
}

}  // namespace moon
