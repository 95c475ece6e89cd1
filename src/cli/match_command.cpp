#include <algorithm>
#include <chrono>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <mutex>
#include <new>
#include <optional>
#include <random>
#include <string>
#include <system_error>
#include <thread>
#include <tuple>
#include <unordered_set>
#include <vector>

#include "cli/commands.hpp"
#include "cli/elo.hpp"
#include "cli/external_engine.hpp"
#include "cli/interrupt.hpp"
#include "cli/search_options.hpp"
#include "whole_number.hpp"
#include "moon/evaluation.hpp"
#include "moon/memory.hpp"
#include "moon/movegen.hpp"
#include "moon/notation.hpp"
#include "moon/search.hpp"

namespace moon::cli {

namespace {

constexpr std::string_view name = "match";
static_assert(max_eval_weight == 1000, "the help text below states the weights' range");
constexpr std::int64_t max_games = 1000000;               // the help text below says 1-1000000
constexpr std::int64_t max_seed = std::int64_t{1} << 60;  // and 0 to 2^60
static_assert(TranspositionTable::min_mb == 1 && TranspositionTable::max_mb == 65536 && SearchOptions{}.hash_mb == 16,
              "the help text below states --hash's range and default");
constexpr std::string_view help =
    "Usage: moon match [options]\n"
    "\n"
    "Plays games between two engine settings A and B and reports A's wins, draws and losses\n"
    "with an Elo estimate and its 95% error margin. Each opening (random legal moves for the\n"
    "first plies, from a seeded generator, never one that ends the game) is played twice, A\n"
    "taking x once and o once; no two pairs share an opening while there are others (with too\n"
    "few opening plies for the games, a note says how many are distinct). Both engines get the\n"
    "same limit per move; each has its own table, cleared before each game.\n"
    "An engine may also be another program that speaks the protocol (docs/PROTOCOL.md), such\n"
    "as another build of moon: --b-engine '/path/to/old/moon protocol'. An engine that ends,\n"
    "answers late (the move time and 5 s) or plays an illegal move ends the match (status 1).\n"
    "Ctrl-C ends the match early: the games being played are dropped, the report covers the\n"
    "games finished, and the exit status is 130. A second Ctrl-C quits at once.\n"
    "\n"
    "Options:\n"
    "  --a SETTINGS       engine A (default full)\n"
    "  --b SETTINGS       engine B (default plain)\n"
    "  --a-eval WEIGHTS   engine A's evaluation weights changed: NAME=VALUE,... (names as in\n"
    "                     include/moon/evaluation.hpp, values -1000 to 1000, e.g.\n"
    "                     mobility=0,corner=10)\n"
    "  --b-eval WEIGHTS   the same for engine B\n"
    "  --a-engine CMD     engine A is the program CMD runs (a shell command line), played\n"
    "                     through the protocol with the match's rules and limit; its option\n"
    "                     Hash set to --hash (required if --hash is given; without it, an\n"
    "                     engine with no Hash option keeps its own size)\n"
    "  --b-engine CMD     the same for engine B\n"
    "  --games N          games to play, rounded up to even (1-1000000; default 100)\n"
    "  --opening-plies P  random plies before the engines take over (0-24; default 4)\n"
    "  --seed S           seed of the openings (0 to 2^60; default 1)\n"
    "  --concurrency K    games played at once (1-64, at most the games; default 1; fewer,\n"
    "                     with a note, if the system will not start the threads or give the\n"
    "                     engines' memory)\n"
    "  --quiet            no line per game\n";

struct Engine {
  std::string text;
  SearchFeatures features;
  EvalWeights weights;
  std::optional<std::string> command;  // an engine in another program (--a-engine, --b-engine)
  std::optional<std::string> id_name;  // the name it gives (`id name`), once one has started
};

Expected<Engine> parse_engine(const std::string& text) {
  const auto features = parse_features(text);
  if (!features) return features.error();
  return Engine{text, *features, {}, {}, {}};
}

struct GameRecord {
  std::string opening;
  std::vector<Move> moves;  // the opening's and then the engines'
  bool on_time = false;     // the loser's clock ran out (--tc)
  Color a_colour = x;
  Result result = Result::none;
  int plies = 0;
  int x_count = 0, o_count = 0;
  int a_points2 = 0;  // A's score in half points
};

// A time control: each side's clock starts at base_ms and gains increment_ms after each of its
// moves; a side whose move takes longer than its clock has left loses the game on time.
struct TimeControl {
  std::int64_t base_ms = 0, increment_ms = 0;
};

struct MatchSetup {
  Position start;
  Engine a, b;
  SearchLimits limits;
  std::optional<TimeControl> time_control;
  SearchOptions options;
  bool hash_given = false;  // --hash: an engine in another program must take that size
  int opening_plies = 4;
  std::uint64_t seed = 1;
  std::vector<std::uint8_t> opening_draw;  // per pair: which draw of make_opening() it plays
};

// Draw `draw` of the opening of pair k: random legal moves from the start, the same for both
// games of a pair (draw 0 is the opening the pair has had since the first match).
std::vector<Move> make_opening(const MatchSetup& s, int pair, int draw) {
  std::mt19937_64 rng(s.seed * 1000003 + std::uint64_t(pair) + std::uint64_t(draw) * 0x9e3779b97f4a7c15);
  std::vector<Move> moves;
  Position pos = s.start;
  for (int i = 0; i < s.opening_plies && !pos.is_over(); ++i) {
    const MoveList legal = legal_moves(pos);
    Move m = legal[std::size_t(rng() % legal.size())];
    if (pos.after(m).is_over()) {
      // A game the opening ends is not the engines' to win or lose: another move, one that does
      // not end it, drawn only here so that every other opening stays as it was. None: the
      // opening stops short.
      MoveList going_on;
      for (Move other : legal)
        if (!pos.after(other).is_over()) going_on.push(other);
      if (going_on.empty()) break;
      m = going_on[std::size_t(rng() % going_on.size())];
    }
    moves.push_back(m);
    pos.play(m);
  }
  return moves;
}

constexpr int max_opening_draws = 64;

// Chooses every pair's opening before any game: the first of its draws whose position (moves
// in another order may reach the same) no earlier pair plays, or after max_opening_draws
// draws the first, a repeat. With depth or node limits an engine plays a position the same
// way every time: a repeated opening repeats its two games, which then add nothing to the
// match but a narrower error margin. Once 8 pairs have found nothing new in all their draws,
// the openings are taken to be used up and later pairs draw once (else a million games from a
// few openings would spend a minute here).
struct OpeningCounts {
  std::size_t distinct = 0;   // different openings (positions) among the pairs' openings
  std::size_t shortened = 0;  // pairs whose opening stops short of the plies asked for
};
OpeningCounts choose_openings(MatchSetup& s, std::int64_t pairs) {
  std::unordered_set<std::uint64_t> seen;
  s.opening_draw.assign(std::size_t(pairs), 0);
  int draws = max_opening_draws, exhausted_pairs = 0;
  OpeningCounts counts;
  for (std::int64_t pair = 0; pair < pairs; ++pair) {
    bool found = false;
    std::size_t played = 0;  // the length of the opening chosen (draw 0 until another is found)
    for (int draw = 0; draw < draws && !found; ++draw) {
      Position pos = s.start;
      const std::vector<Move> opening = make_opening(s, int(pair), draw);
      for (Move m : opening) pos.play(m);
      found = seen.insert(pos.key()).second;
      if (found) s.opening_draw[std::size_t(pair)] = std::uint8_t(draw);
      if (found || draw == 0) played = opening.size();
    }
    if (!found && ++exhausted_pairs == 8) draws = 1;
    counts.shortened += int(played) < s.opening_plies;
  }
  counts.distinct = seen.size();
  return counts;
}

// "engine B '/path/to/moon protocol'", for the messages about an engine in another program.
std::string engine_label(const char* letter, const Engine& engine) {
  std::string label = std::string("engine ") + letter;
  if (engine.command) label.append(" ").append(moon::quoted(*engine.command));
  return label;
}

// One side of a game: the engine in this process, or one in another program.
struct Player {
  std::optional<Searcher> searcher;
  std::optional<ExternalEngine> external;

  // False if `stop` was requested before an engine in another program was ready.
  Expected<bool> new_game(std::stop_token stop) {
    if (external) return external->new_game(stop);
    searcher->clear();
    return true;
  }
  // The move to play in pos, reached from the start by `moves` (ExternalEngine::best_move()).
  // `clocks`: the game's, under a time control.
  Expected<EngineReply> choose(const MatchSetup& s, const std::vector<Move>& moves, const Position& pos,
                               const GameClocks* clocks, std::stop_token stop) {
    if (external) return external->best_move(s.start, moves, pos, s.limits, clocks, stop);
    SearchLimits limits = s.limits;
    if (clocks) {
      limits.time_left_ms = std::max<std::int64_t>(1, GameClocks::ms(clocks->left_us(pos.side_to_move())));
      limits.increment_ms = GameClocks::ms(clocks->increment_us);
    }
    const auto started = std::chrono::steady_clock::now();
    const auto r = searcher->search(pos, limits, {}, stop);
    EngineReply reply;
    reply.took = std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - started);
    reply.move = r ? r->best : legal_moves(pos)[0];
    if (stop.stop_requested()) reply.kind = EngineReply::Kind::stopped;
    else if (clocks && clocks->late(pos.side_to_move(), reply.took)) reply.kind = EngineReply::Kind::late;
    return reply;
  }
};

// The game's record; nullopt if `stop` was requested before it ended; an error, naming the
// engine ("engine B: ..."), if an engine in another program failed.
Expected<std::optional<GameRecord>> play_game(const MatchSetup& s, int game, Player& a, Player& b,
                                              std::stop_token stop) {
  GameRecord rec;
  rec.a_colour = game % 2 == 0 ? x : o;
  Position pos = s.start;
  for (Move m : make_opening(s, game / 2, s.opening_draw[std::size_t(game / 2)])) {
    if (!rec.opening.empty()) rec.opening += ' ';
    rec.opening += to_string(m);
    rec.moves.push_back(m);
    pos.play(m);
  }
  for (auto [player, engine, letter] : {std::tuple{&a, &s.a, "A"}, std::tuple{&b, &s.b, "B"}})
    if (const auto ready = player->new_game(stop); !ready)
      return Error{engine_label(letter, *engine) + ": " + ready.error().message};
  if (stop.stop_requested()) return std::optional<GameRecord>{};
  GameClocks clocks;
  if (s.time_control) {
    const std::int64_t base_us = s.time_control->base_ms * 1000;  // at most 10^15 (--tc)
    clocks = {base_us, base_us, s.time_control->increment_ms * 1000};
  }
  while (!pos.is_over()) {
    const bool a_moves = pos.side_to_move() == rec.a_colour;
    const auto chosen = (a_moves ? a : b).choose(s, rec.moves, pos, s.time_control ? &clocks : nullptr, stop);
    if (!chosen) return Error{engine_label(a_moves ? "A" : "B", a_moves ? s.a : s.b) + ": " + chosen.error().message};
    if (chosen->kind == EngineReply::Kind::stopped || stop.stop_requested()) return std::optional<GameRecord>{};
    if (chosen->kind == EngineReply::Kind::late) {
      rec.on_time = true;
      break;
    }
    if (s.time_control) clocks.charge(pos.side_to_move(), chosen->took);
    rec.moves.push_back(chosen->move);
    pos.play(chosen->move);
    ++rec.plies;
  }
  if (rec.opening.empty()) rec.opening = "(none)";
  rec.result = rec.on_time ? (pos.side_to_move() == x ? Result::o_wins : Result::x_wins) : pos.result();
  rec.x_count = pos.count(x);
  rec.o_count = pos.count(o);
  const bool a_won = rec.result == (rec.a_colour == x ? Result::x_wins : Result::o_wins);
  rec.a_points2 = rec.result == Result::draw ? 1 : a_won ? 2 : 0;
  return std::optional<GameRecord>{std::move(rec)};
}

// Seconds as text, "10" or "0.25" (at most 3 decimals, 0 to 10^9), in milliseconds; nullopt if
// the text is not that.
std::optional<std::int64_t> parse_seconds(std::string_view text) {
  const auto point = text.find('.');
  const std::string_view whole = text.substr(0, point);
  const std::string_view decimals = point == std::string_view::npos ? std::string_view{} : text.substr(point + 1);
  if (point != std::string_view::npos && (decimals.empty() || decimals.size() > 3)) return std::nullopt;
  const auto seconds = parse_whole_number(whole, "", 0, 1'000'000'000);
  if (!seconds) return std::nullopt;
  std::int64_t ms = *seconds * 1000, scale = 100;
  for (char c : decimals) {
    if (c < '0' || c > '9') return std::nullopt;
    ms += (c - '0') * scale;
    scale /= 10;
  }
  if (ms > 1'000'000'000'000) return std::nullopt;  // 10^9 s and a fraction: past the limit
  return ms;
}

// --tc SECONDS[+INCREMENT]: "60", "10+0.1".
Expected<TimeControl> parse_time_control(std::string_view text) {
  const auto plus = text.find('+');
  const auto base = parse_seconds(text.substr(0, plus));
  const auto increment = plus == std::string_view::npos ? std::optional<std::int64_t>{0} : parse_seconds(text.substr(plus + 1));
  if (!base || !increment || *base == 0)
    return Error{"--tc must be SECONDS or SECONDS+INCREMENT (e.g. 60 or 10+0.1: 0.001 to 10^9 seconds, at most 3 "
                 "decimals), not " + moon::quoted(text)};
  return TimeControl{*base, *increment};
}

std::string format_elo(double v) {
  if (std::isinf(v)) return v > 0 ? "+inf" : "-inf";
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%+.1f", v == 0 ? 0.0 : v);
  return buffer;
}

}  // namespace

int match_command(Args args) {
  PositionOptions where;
  MatchSetup setup;
  std::int64_t games = 100, concurrency = 1;
  bool quiet = false;
  std::optional<std::string> a_text, b_text;  // "full" and "plain" unless given
  std::optional<std::string> a_eval, b_eval;  // the default weights unless given
  std::optional<std::string> a_command, b_command;
  for (ArgReader reader(args); !reader.done();) {
    if (reader.bare_flag("--help") || reader.bare_flag("-h")) {
      std::cout << help << position_options_help << limit_options_help
                << "                     (a move's limit; without one, --movetime 100)\n"
                << "  --tc S[+I]         a clock for each side instead of a move time: S seconds for the\n"
                   "                     game, plus I after each move (e.g. 10+0.1; with --depth or --nodes\n"
                   "                     too, the first reached ends a move); a side whose move takes longer\n"
                   "                     than its clock has left loses on time\n"
                << "  --hash MB          each engine's table in MiB (1-65536; default 16; the two tables of\n"
                   "                     every game played at once must fit in the machine's memory)\n\n"
                   "Engine SETTINGS:\n"
                << features_help;
      return 0;
    }
    Expected<bool> consumed = where.consume(reader);
    if (consumed && !*consumed) consumed = consume_limit(reader, setup.limits);
    if (!consumed) return usage_error(name, consumed.error().message);
    if (*consumed) continue;
    Expected<std::int64_t> number = std::int64_t{0};
    // The flags whose value is text, kept as given and read once all are known.
    const std::pair<const char*, std::optional<std::string>*> text_flags[] = {
        {"--a", &a_text},         {"--b", &b_text},         {"--a-eval", &a_eval},
        {"--b-eval", &b_eval},    {"--a-engine", &a_command}, {"--b-engine", &b_command}};
    const auto text_flag = std::find_if(std::begin(text_flags), std::end(text_flags),
                                        [&](const auto& f) { return reader.flag(f.first); });
    if (text_flag != std::end(text_flags)) {
      const auto v = reader.value();
      if (!v) return usage_error(name, v.error().message);
      *text_flag->second = *v;
    } else if (reader.bare_flag("--quiet")) {
      quiet = true;
    } else if (reader.flag("--tc")) {
      const auto v = reader.value();
      if (!v) return usage_error(name, v.error().message);
      const auto tc = parse_time_control(*v);
      if (!tc) return usage_error(name, tc.error().message);
      setup.time_control = *tc;
    } else if (reader.flag("--games")) {
      number = int_value(reader, "--games", 1, max_games);
      if (number) games = *number;
    } else if (reader.flag("--opening-plies")) {
      number = int_value(reader, "--opening-plies", 0, 24);
      if (number) setup.opening_plies = int(*number);
    } else if (reader.flag("--seed")) {
      number = int_value(reader, "--seed", 0, max_seed);
      if (number) setup.seed = std::uint64_t(*number);
    } else if (reader.flag("--concurrency")) {
      number = int_value(reader, "--concurrency", 1, 64);
      if (number) concurrency = *number;
    } else if (reader.flag("--hash")) {
      number = int_value(reader, "--hash", std::int64_t(TranspositionTable::min_mb),
                         std::int64_t(TranspositionTable::max_mb));
      if (number) setup.options.hash_mb = std::size_t(*number);
      setup.hash_given = true;
    } else {
      return usage_error(name, reader.unknown());
    }
    if (!number) return usage_error(name, number.error().message);
  }
  const auto start = where.position();
  if (!start) return usage_error(name, start.error().message);
  if (start->is_over()) return usage_error(name, "the position to play from is already over");
  const auto a = parse_engine(a_text.value_or("full"));
  if (!a) return usage_error(name, "--a: " + a.error().message);
  const auto b = parse_engine(b_text.value_or("plain"));
  if (!b) return usage_error(name, "--b: " + b.error().message);
  setup.start = *start;
  setup.a = *a;
  setup.b = *b;
  for (auto [command, settings, weights, engine, letter] :
       {std::tuple{&a_command, &a_text, &a_eval, &setup.a, "a"}, std::tuple{&b_command, &b_text, &b_eval, &setup.b, "b"}}) {
    if (!*command) continue;
    const std::string flag = std::string("--") + letter + "-engine";
    if (*settings || *weights)
      return usage_error(name, flag + " names a program: its settings and weights are its own, not --" + letter +
                                   (*settings ? "'s" : "-eval's"));
    if (command->value().find_first_not_of(" \t") == std::string::npos)
      return usage_error(name, flag + " needs a command, not " + moon::quoted(**command));
    engine->command = **command;
    engine->text = "engine " + moon::quoted(**command);
  }
  for (auto [text, engine, flag] : {std::tuple{&a_eval, &setup.a, "--a-eval"}, std::tuple{&b_eval, &setup.b, "--b-eval"}}) {
    if (!*text) continue;
    const auto w = parse_weights(**text);
    if (!w) return usage_error(name, std::string(flag) + ": " + w.error().message);
    engine->weights = *w;
    engine->text += " [" + **text + "]";
  }
  if (setup.time_control && setup.limits.movetime_ms)
    return usage_error(name, "--tc and --movetime both set the time of a move: give one of them");
  if (!has_limit(setup.limits) && !setup.time_control) setup.limits.movetime_ms = 100;
  games += games % 2;
  // No more games at once than there are games: each would make two engines and their tables
  // for nothing (64 for 2 games made 128 engines: 555 MB and 2 s instead of 21 MB and 0.08 s).
  concurrency = std::min(concurrency, games);
  // Each concurrent game holds two engines' tables at once: all of them must fit in memory
  // (an engine's Searcher would otherwise fall back to a small table, or the match be killed).
  const std::size_t tables = 2 * std::size_t(concurrency);
  if (const auto fits = check_table_size(tables * setup.options.hash_mb); !fits)
    return usage_error(name, std::to_string(tables) + " engines (2 per concurrent game) with --hash " +
                                 std::to_string(setup.options.hash_mb) + ": " + fits.error().message);

  // Watched for before the notes below, so that a Ctrl-C once they are out stops the match.
  const InterruptWatch interrupt(name);
  const std::int64_t pairs = games / 2;
  const OpeningCounts openings = choose_openings(setup, pairs);
  if (std::int64_t(openings.distinct) < pairs)
    std::cerr << "moon match: note: only " << openings.distinct << " different opening"
              << (openings.distinct == 1 ? "" : "s") << " for the " << pairs
              << " pairs of games (--opening-plies " << setup.opening_plies
              << " from this position): under --depth or --nodes a repeated opening repeats its games, which "
                 "narrows the error margin without adding information\n";
  if (openings.shortened)
    std::cerr << "moon match: note: " << openings.shortened << " of the " << pairs
              << " openings stop short of --opening-plies " << setup.opening_plies
              << ": there every move would end the game, which is the engines' to play\n";

  // Stops every game when Ctrl-C is pressed or an engine in another program fails.
  std::stop_source stop;
  const std::stop_callback on_interrupt(interrupt.token(), [&stop] { stop.request_stop(); });
  std::optional<std::string> engine_failure;  // the first, under `output`
  std::atomic<std::int64_t> next{0};
  std::mutex output;
  int wins = 0, draws = 0, losses = 0;
  int a_time_losses = 0, b_time_losses = 0;  // games lost on time (--tc)
  const auto fail = [&](std::string message) {
    const std::lock_guard lock(output);
    if (!engine_failure) engine_failure = std::move(message);
    stop.request_stop();
  };
  const auto play_games = [&](Player& engine_a, Player& engine_b) {
    for (std::int64_t g; !stop.stop_requested() && (g = next.fetch_add(1)) < games;) {
      std::optional<GameRecord> played;
      try {
        auto outcome = play_game(setup, int(g), engine_a, engine_b, stop.get_token());
        if (!outcome) return fail(outcome.error().message);
        played = std::move(*outcome);
      } catch (const std::bad_alloc&) {
        return;  // the game is dropped (the report counts the games finished)
      }
      if (!played) return;
      const GameRecord& rec = *played;
      const std::lock_guard lock(output);
      wins += rec.a_points2 == 2;
      draws += rec.a_points2 == 1;
      losses += rec.a_points2 == 0;
      if (rec.on_time) ++(rec.a_points2 == 0 ? a_time_losses : b_time_losses);
      if (!quiet)
        std::cout << "game " << g + 1 << "/" << games << "  opening " << rec.opening << "  A plays "
                  << to_string(rec.a_colour) << ": " << to_string(rec.result) << (rec.on_time ? " on time " : " ")
                  << rec.x_count << "-"
                  << rec.o_count << " in " << rec.plies << (rec.plies == 1 ? " ply" : " plies")
                  << " after the opening  (A +" << wins << " =" << draws << " -" << losses
                  << ")" << std::endl;
    }
  };
  // Each thread plays games one after another with its own two engines. A thread whose engines
  // cannot be had plays none (the others play on), as does one the system will not start; a game
  // that runs out of memory is dropped, and its thread plays no more. Only dropped games, or no
  // thread able to play, make the match fail; fewer games at once only make it slower (the first
  // thread or table refused used to end the program with an abort).
  std::atomic<std::int64_t> refused{0};  // threads whose engines the system would not give
  // A thread's two engines: true once both are ready; false if the match failed or stopped
  // meanwhile, or the system would not give them (counted in `refused`).
  const auto make_players = [&](Player& engine_a, Player& engine_b) -> bool {
    SearchOptions oa = setup.options, ob = setup.options;
    oa.features = setup.a.features;
    oa.evaluation = setup.a.weights;
    ob.features = setup.b.features;
    ob.evaluation = setup.b.weights;
    for (auto [player, engine, options, letter] : {std::tuple{&engine_a, &setup.a, &oa, "A"},
                                                   std::tuple{&engine_b, &setup.b, &ob, "B"}}) {
      if (engine->command) {
        auto started =
            ExternalEngine::start(*engine->command, setup.start.rules(), setup.options.hash_mb, setup.hash_given,
                                  stop.get_token());
        if (stop.stop_requested()) return false;
        if (!started) {
          fail(engine_label(letter, *engine) + ": " + started.error().message);
          return false;
        }
        player->external.emplace(std::move(*started));
        if (const std::lock_guard lock(output); !player->external->name().empty() && !engine->id_name)
          engine->id_name = player->external->name();
        continue;
      }
      try {
        // Made with a small table, then given its own: the constructor would fall back to a
        // small table in silence where set_options() refuses (the engine would not be the one
        // asked for).
        SearchOptions small = *options;
        small.hash_mb = 1;
        player->searcher.emplace(small);
        if (!player->searcher->set_options(*options)) {
          ++refused;
          return false;
        }
      } catch (const std::bad_alloc&) {
        ++refused;
        return false;
      }
    }
    return true;
  };
  // Memory that cannot be had anywhere else on a thread (an engine in another program started,
  // a line of the report) ends that thread's games too, not the process.
  const auto counting_refusal = [&](auto&& work) {
    try {
      work();
    } catch (const std::bad_alloc&) {
      ++refused;
    }
  };
  std::vector<std::thread> threads;
  {
    // This thread's engines are made before any other thread starts: the others' stacks and
    // engines could otherwise take the memory first, and no game be played where one pair fits
    // (a test under `ulimit -v` saw it now and then). Gone, as the others', once its games are.
    Player main_a, main_b;
    bool main_ready = false;
    counting_refusal([&] { main_ready = make_players(main_a, main_b); });
    try {
      threads.reserve(std::size_t(concurrency));
      for (std::int64_t i = 1; i < concurrency; ++i)
        threads.emplace_back([&] {
          counting_refusal([&] {
            Player engine_a, engine_b;
            if (make_players(engine_a, engine_b)) play_games(engine_a, engine_b);
          });
        });
    } catch (const std::system_error&) {
    } catch (const std::bad_alloc&) {
    }
    refused += concurrency - 1 - std::int64_t(threads.size());  // threads the system would not start
    if (main_ready) counting_refusal([&] { play_games(main_a, main_b); });
  }
  for (std::thread& t : threads) t.join();
  // Threads stopped (Ctrl-C, an engine's failure) before their engines were ready are not
  // counted: nothing was short then.
  const std::int64_t playing = concurrency - refused;

  const int finished = wins + draws + losses;
  const bool failed = !interrupt.interrupted() && finished < games;
  // No engine could be made, not even on this thread, which needs no thread started: memory.
  const bool none_played = playing == 0 && finished == 0 && !interrupt.interrupted();
  if (engine_failure) {
    std::cerr << "moon match: " << *engine_failure << "; the match stops after " << finished << " of " << games
              << " games\n";
  } else if (none_played) {
    std::cerr << "moon match: out of memory: the system would not give the memory for the engines (their tables' "
                 "size is --hash); no game was played\n";
  } else if (playing < concurrency)
    std::cerr << "moon match: " << playing << (playing == 1 ? " game" : " games") << " at once, not " << concurrency
              << ": the system would not start more threads, or not give the memory for more engines\n";
  if (failed && !engine_failure && !none_played)
    std::cerr << "moon match: out of memory: " << games - finished << " of the " << games
              << " games were not played\n";
  if (interrupt.interrupted())
    std::cout << "Interrupted: " << finished << " of " << games << " games finished\n";
  const EloEstimate e = estimate_elo(wins, draws, losses);
  char score[16];
  std::snprintf(score, sizeof score, "%.3f", e.score);
  const auto described = [](const Engine& engine) {
    return engine.id_name ? engine.text + " (id name " + moon::quoted(*engine.id_name) + ")" : engine.text;
  };
  std::cout << "A = " << described(setup.a) << ", B = " << described(setup.b) << "\n"
            << "Games: " << finished << "  A wins " << wins << ", draws " << draws << ", A losses " << losses;
  if (finished == 0) {
    std::cout << "\nElo difference (A - B): unknown (no game finished)" << std::endl;
  } else {
    std::cout << "  (score " << score << ")\n"
              << "Elo difference (A - B): " << format_elo(e.elo) << " +/- "
              << (std::isinf(e.margin) ? std::string("inf (95%)")
                                       : format_elo(e.margin).substr(1) + " (95%: " + format_elo(e.low) + " to " +
                                             format_elo(e.high) + ")")
              << std::endl;
  }
  if (setup.time_control)
    std::cout << "Games lost on time: A " << a_time_losses << ", B " << b_time_losses << std::endl;
  return interrupt.interrupted() ? interrupted_status : failed ? 1 : 0;
}

}  // namespace moon::cli
