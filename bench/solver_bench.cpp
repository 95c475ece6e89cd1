// The exact solver: its speed (nodes per second, time per endgame), and the ratio against the
// textbook alpha-beta + table baseline (baseline_solver.hpp) on the same endgames, both
// measured in the same run. The baseline takes seconds to minutes per endgame, so these run one
// iteration each; run them alone with --benchmark_filter=Solver.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

#include "baseline_solver.hpp"
#include "random_endgames.hpp"
#include "moon/notation.hpp"
#include "moon/solver.hpp"

namespace {

using namespace moon;

// Each endgame with its value, as its name gives it: every benchmark that solves one fails
// (SkipWithError) on another value, so that a solver that proved a wrong, cheaper value would not
// show as a speed-up, even where the baseline is stopped before it can be compared.
struct Endgame {
  const char* name;
  const char* fen;
  Movement movement;
  CaptureLines lines;
  Outcome outcome;
  int plies;
};

constexpr Movement step = Movement::step, slide = Movement::slide;
constexpr CaptureLines orthogonal = CaptureLines::orthogonal, diagonal = CaptureLines::orthogonal_and_diagonal;

// Endgames from random boards, default clock limit 20, clock 0: the baseline needs up to ~25 s
// (the 3 v 3 draw).
constexpr Endgame endgames[] = {
    {"2v4 loss in 12", "5/2o1x/3o1/o4/x1o2 x 0 0 0 1", step, orthogonal, Outcome::loss, 12},
    {"2v4 loss in 20", "4x/o4/3o1/o4/2o1x x 0 0 0 1", step, orthogonal, Outcome::loss, 20},
    {"4v2 win in 13", "4x/5/xo2o/3x1/2x2 x 0 0 0 1", step, orthogonal, Outcome::win, 13},
    {"4v2 win in 20", "1xxx1/3o1/o4/5/x4 x 0 0 0 1", step, orthogonal, Outcome::win, 20},
    {"2v2 draw", "5/1x2o/2o2/5/3x1 x 0 0 0 1", step, orthogonal, Outcome::draw, 20},
    {"3v3 draw", "4x/5/ox1x1/1o3/1o3 x 0 0 0 1", step, orthogonal, Outcome::draw, 20},
    {"4v2 diagonal win in 5", "4x/5/xo2o/3x1/2x2 x 0 0 0 1", step, diagonal, Outcome::win, 5},
};

// Endgames the baseline does not finish within a minute (the solver needs well under a second).
constexpr Endgame hard_endgames[] = {
    {"5v2 win in 5", "4x/x4/xo2o/3x1/2x2 x 0 0 0 1", step, orthogonal, Outcome::win, 5},
    {"6v3 win in 11", "4x/x4/xo2o/1x1x1/2xo1 x 0 0 0 1", step, orthogonal, Outcome::win, 11},
    {"6v3 win in 15", "1x1x1/4x/1x3/ox1ox/2o2 x 0 0 0 1", step, orthogonal, Outcome::win, 15},
    {"3v3 slide win in 21", "5/x1o2/ox1ox/5/5 x 0 0 0 1", slide, orthogonal, Outcome::win, 21},
};

Position load(const Endgame& e) {
  Rules rules;
  rules.movement = e.movement;
  rules.capture_lines = e.lines;
  return *parse_position(e.fen, rules);
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Whether r is e's value; if not, the benchmark is skipped with an error saying so.
bool check_value(benchmark::State& state, const Endgame& e, const SolveResult& r) {
  if (r.outcome == e.outcome && r.plies == e.plies) return true;
  const std::string wrong = "solved as " + std::string(to_string(r.outcome)) + " " + std::to_string(r.plies) +
                            ", not " + std::string(to_string(e.outcome)) + " " + std::to_string(e.plies);
  state.SkipWithError(wrong.c_str());  // copied (Google Benchmark keeps a std::string)
  return false;
}

// Solves e once per iteration with a fresh 64 MiB table on `threads` threads, and reports
// nodes/s. The table is allocated (its pages zeroed) and freed outside the timed region, as in
// the comparisons below: about 6 ms, which would be most of the time of the smallest solves.
// Returns the last result (nullopt, the benchmark skipped, if a solve failed or gave another value).
std::optional<SolveResult> time_fresh_solves(benchmark::State& state, const Endgame& e, int threads) {
  const Position pos = load(e);
  std::uint64_t nodes = 0;
  std::optional<Solver> solver;
  std::optional<SolveResult> last;
  for (auto _ : state) {
    state.PauseTiming();
    solver.emplace(SolveOptions{64, threads, true, {}});  // the previous solver and its table are freed here too
    state.ResumeTiming();
    const auto r = solver->solve(pos);
    if (!r) {
      state.SkipWithError("solve failed");
      return std::nullopt;
    }
    if (!check_value(state, e, *r)) return std::nullopt;
    nodes += r->nodes;
    last = *r;
  }
  state.counters["nodes/s"] = benchmark::Counter(double(nodes), benchmark::Counter::kIsRate);
  return last;
}

// The solver alone on each endgame (one thread).
void BM_Solver(benchmark::State& state) {
  const Endgame& e = endgames[state.range(0)];
  if (const auto r = time_fresh_solves(state, e, 1))
    state.SetLabel(std::string(e.name) + ": " + std::string(to_string(r->outcome)) + " " + std::to_string(r->plies));
}
// A fixed count: with the allocation untimed, the automatic count would run the 44-node solve
// some 17 000 times, each with its 6 ms table (three minutes). The solve runs on a thread of the
// solver's own while this one waits: the CPU time measured is the whole process's.
BENCHMARK(BM_Solver)
    ->DenseRange(0, std::size(endgames) - 1)
    ->Iterations(10)
    ->MeasureProcessCPUTime()
    ->Unit(benchmark::kMillisecond);

// The baseline and the solver on the same position, one after the other, tables allocated
// before the clock starts for both: seconds of each and the ratio. The baseline gives up after
// `baseline_limit`, or, if `solver_multiple` is not 0, after that many times the solver's time
// if that is longer (the solver then runs first); the ratio is then a lower bound
// (baseline_finished=0). Results must agree.
// `ordering`: the textbook baseline's (the table move first), or captures first as well.
// `known`, where given, is the endgame whose value the solver must give.
void compare_with_baseline(benchmark::State& state, const std::string& name, const Position& pos,
                           const Endgame* known, std::chrono::seconds baseline_limit, double solver_multiple = 0,
                           bench::BaselineOrdering ordering = bench::BaselineOrdering::table_move_only) {
  for (auto _ : state) {
    bench::BaselineSolver baseline(22, ordering);  // 64 MiB, as the solver
    Solver solver(SolveOptions{64, 1, true, {}});
    std::optional<SolveValue> value;
    double baseline_s = 0;
    const auto run_baseline = [&](std::chrono::steady_clock::duration limit) {
      const auto start = std::chrono::steady_clock::now();
      value = baseline.solve(pos, start + limit);
      baseline_s = seconds_since(start);
    };
    if (solver_multiple == 0) run_baseline(baseline_limit);
    const auto start = std::chrono::steady_clock::now();
    const auto r = solver.solve(pos);
    const double solver_s = seconds_since(start);
    if (!r) {
      state.SkipWithError("solve failed");
      return;
    }
    if (known && !check_value(state, *known, *r)) return;
    if (solver_multiple != 0)
      run_baseline(std::max(std::chrono::duration_cast<std::chrono::steady_clock::duration>(baseline_limit),
                            std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                std::chrono::duration<double>(solver_s * solver_multiple))));
    if (value) {
      const Outcome baseline_outcome = outcome_of(*value);
      if (r->outcome != baseline_outcome || (*value != 0 && plies_of(*value) != r->plies))
        state.SkipWithError("the baseline and the solver disagree");
    }
    // Every row has the same counters (the CSV reporter aborts otherwise): where the baseline
    // was stopped (baseline_finished=0), the ratio is a lower bound.
    state.counters["baseline_finished"] = value.has_value();
    state.counters["baseline_s"] = baseline_s;
    state.counters["solver_s"] = solver_s;
    state.counters["ratio"] = baseline_s / solver_s;
    state.counters["baseline_nodes"] = double(baseline.nodes());
    state.counters["solver_nodes"] = double(r->nodes);
    state.SetLabel(name + ": " + std::string(to_string(r->outcome)) + " " + std::to_string(r->plies));
  }
}

void BM_SolverVsBaseline(benchmark::State& state) {
  const Endgame& e = endgames[state.range(0)];
  compare_with_baseline(state, e.name, load(e), &e, std::chrono::hours(1));
}
BENCHMARK(BM_SolverVsBaseline)->DenseRange(0, std::size(endgames) - 1)->Iterations(1)->Unit(benchmark::kSecond);

// The same against the stronger baseline that also orders captures first.
void BM_SolverVsOrderedBaseline(benchmark::State& state) {
  const Endgame& e = endgames[state.range(0)];
  compare_with_baseline(state, e.name, load(e), &e, std::chrono::hours(1), 0, bench::BaselineOrdering::captures_first);
}
BENCHMARK(BM_SolverVsOrderedBaseline)
    ->DenseRange(0, std::size(endgames) - 1)
    ->Iterations(1)
    ->Unit(benchmark::kSecond);

// Endgames the baseline cannot finish in a minute: the solver runs first, as long as it needs;
// the baseline gets 60 s, or 100 times the solver's time if that is longer, so that a ratio of
// at least 100 is settled too.
void BM_SolverWhereBaselineTimesOut(benchmark::State& state) {
  const Endgame& e = hard_endgames[state.range(0)];
  compare_with_baseline(state, e.name, load(e), &e, std::chrono::seconds(60), 100);
}
BENCHMARK(BM_SolverWhereBaselineTimesOut)
    ->DenseRange(0, std::size(hard_endgames) - 1)
    ->Iterations(1)
    ->Unit(benchmark::kSecond);

// The random sample of random_endgames.hpp (nobody picked them): the baseline gets 30 s each.
void BM_SolverVsBaselineRandom(benchmark::State& state) {
  const char* fen = bench::random_endgames[state.range(0)];
  compare_with_baseline(state, fen, *parse_position(fen), nullptr, std::chrono::seconds(30));
}
BENCHMARK(BM_SolverVsBaselineRandom)
    ->DenseRange(0, std::size(bench::random_endgames) - 1)
    ->Iterations(1)
    ->Unit(benchmark::kSecond);

// The same sample, settling for each endgame whether the solver is at least 100 times faster:
// the solver runs first, and the baseline gets 100 times the solver's time (so it stops, with
// baseline_finished=0 and a ratio of at least 100, or finishes with the exact ratio). Up to about
// 100 times the solver's total time: about an hour on this machine.
void BM_SolverVsBaselineRandomTo100x(benchmark::State& state) {
  const char* fen = bench::random_endgames[state.range(0)];
  compare_with_baseline(state, fen, *parse_position(fen), nullptr, std::chrono::seconds(0), 100);
}
BENCHMARK(BM_SolverVsBaselineRandomTo100x)
    ->DenseRange(0, std::size(bench::random_endgames) - 1)
    ->Iterations(1)
    ->Unit(benchmark::kSecond);

// The same against the stronger baseline that also orders captures first.
void BM_SolverVsOrderedBaselineRandomTo100x(benchmark::State& state) {
  const char* fen = bench::random_endgames[state.range(0)];
  compare_with_baseline(state, fen, *parse_position(fen), nullptr, std::chrono::seconds(0), 100,
                        bench::BaselineOrdering::captures_first);
}
BENCHMARK(BM_SolverVsOrderedBaselineRandomTo100x)
    ->DenseRange(0, std::size(bench::random_endgames) - 1)
    ->Iterations(1)
    ->Unit(benchmark::kSecond);

// Two threads against one on the same endgames (wall time: lazy SMP needs the second core).
void BM_SolverThreads(benchmark::State& state) {
  const Endgame& e = endgames[state.range(0)];
  time_fresh_solves(state, e, int(state.range(1)));
  state.SetLabel(e.name);
}
BENCHMARK(BM_SolverThreads)
    ->ArgsProduct({benchmark::CreateDenseRange(0, std::size(endgames) - 1, 1), {1, 2}})
    ->Iterations(10)  // as BM_Solver
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

}  // namespace
