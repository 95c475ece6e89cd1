#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "bounded_line.hpp"
#include "cli/closest_name.hpp"
#include "cli/commands.hpp"
#include "cli/interrupt.hpp"
#include "cli/search_options.hpp"
#include "moon/display.hpp"
#include "moon/memory.hpp"
#include "moon/movegen.hpp"
#include "moon/notation.hpp"
#include "moon/search.hpp"

namespace moon::cli {

namespace {

constexpr std::string_view name = "play";
constexpr std::string_view help =
    "Usage: moon play [options] [MOVE ...]\n"
    "\n"
    "A game against the engine in the terminal, from the start (or --fen) after the MOVEs, if\n"
    "any (part of the game: 'undo' takes them back too). Standard input is read line by line\n"
    "(so a game can be scripted); end of input quits. At your turn type a move (b4, b3c3,\n"
    "0000 or 'pass' when blocked) or one of:\n"
    "  moves   list your legal moves and how many counters each captures: b3c3(x2)\n"
    "  hint    ask the engine for a move (and the next two best, with their scores)\n"
    "  undo    take back your last move and the engine's reply\n"
    "  quit    end the game (or exit)\n"
    "  help    list these commands\n"
    "Ctrl-C while the engine thinks makes it move (or give its hint) now, and the game goes\n"
    "on (a second one quits); at your prompt it quits at once.\n"
    "When the game is over the result is shown, with 'replay: moon show ...', a command that\n"
    "shows its moves again (also printed when a game with moves played is abandoned: quit,\n"
    "end of input or Ctrl-C); the program then ends, but at a terminal 'undo' can still take\n"
    "back your last move first ('quit' ends). Moves and commands may be typed in upper case\n"
    "too (messages repeat them in lower case).\n"
    "\n"
    "Options:\n"
    "  --side x|o         the side you play (default x; the side to move starts)\n";

constexpr std::string_view commands_text =
    "commands: a move (b4, b3c3; 0000 or pass when blocked), moves, hint, undo, quit (or exit), help";
// What is left to do once the game is over (at a terminal, with a move of yours to take back).
constexpr std::string_view over_text = "the game is over: 'undo' takes back your last move, 'quit' ends";
// The longest input line read: a move or a command is a few characters; a longer line (a paste
// gone wrong, a file of NULs) is refused without keeping it.
constexpr std::size_t max_input_line = 1000;
// A hint names the best move and the next best ones (the search asks for this many lines).
constexpr int hint_lines = 3;

struct Game {
  Color human = x;
  Searcher searcher;
  SearchLimits limits;
  std::vector<Position> history;  // every position before the current one, for undo
  std::vector<Move> moves;        // moves[i] was played in history[i]
  Position pos;
};

// Where 'undo' goes back to: the index in the history of the last position before the current
// one where it was your turn; none if there is no such position (nothing to undo).
std::optional<std::size_t> undo_target(const Game& g) {
  for (std::size_t i = g.history.size(); i > 0; --i)
    if (g.history[i - 1].side_to_move() == g.human) return i - 1;
  return std::nullopt;
}

// A line with a command that shows the game so far again: moon show, from the same start, with
// its moves; empty before the first move.
std::string replay_line(const Game& g) {
  if (g.moves.empty()) return "";
  std::string line = "replay: moon show --fen '" + to_string(g.history.front()) + "'";
  if (const std::string flags = rule_flags(g.pos.rules()); !flags.empty()) line.append(" ").append(flags);
  for (Move m : g.moves) line.append(" ").append(to_string(m));
  return line + "\n";
}

void print_replay(const Game& g) { std::cout << replay_line(g); }

std::string captures_text(Bitboard captured) {
  if (!captured) return "";
  return " capturing " + squares_text(captured);
}

void show(const Position& pos, Bitboard captured) {
  std::cout << "\n" << draw(pos, captured) << status_line(pos) << "\n";
}

std::string trim(const std::string& line) {
  const auto first = line.find_first_not_of(" \t\r");
  if (first == std::string::npos) return "";
  const auto last = line.find_last_not_of(" \t\r");
  return line.substr(first, last - first + 1);
}

// What has been written reaches a pipe before the engine thinks, not with its move: a program
// driving the game sees its own move acknowledged at once (on a terminal lines go out anyway).
// Ctrl-C while the engine thinks makes it move (or give its hint) now, with the best move of
// the iterations it completed; a second one quits. At the prompt Ctrl-C quits at once.
// `announce`, written once Ctrl-C is watched, says so.
// With `lines` above 1, `last` receives the lines of the deepest completed iteration (multi-PV),
// best first, and the search ends once the first is a win or loss within the depth searched, as
// a search of one line would: the others are extras, and waiting for them too could take many
// times longer under a depth limit alone.
Expected<SearchResult> think(Game& g, std::string_view announce, int lines = 1,
                             std::vector<SearchInfo>* last = nullptr) {
  const InterruptWatch interrupt(name, "the engine stops thinking");
  std::cout << announce << std::endl;
  SearchLimits limits = g.limits;
  limits.multipv = lines;
  // A hint (several lines) reports scores: a forced move is searched for its value too. The
  // engine's own forced move is played after depth 1.
  limits.analysis = lines > 1;
  const auto keep = [&](const SearchInfo& info) {
    if (info.line == 1) last->clear();
    last->push_back(info);
    if (info.line == info.lines && is_settled_within(last->front().score_info, info.depth)) g.searcher.stop();
  };
  return g.searcher.search(g.pos, limits, last ? std::function<void(const SearchInfo&)>(keep) : nullptr,
                           interrupt.token());
}

// The hint: the engine's best move and, where it found them, the next two with their scores
// ("hint: c1c2  (score win 13; then d2e2 win 13, c1d1 cp 241)").
void give_hint(Game& g) {
  std::vector<SearchInfo> lines;
  const auto r = think(g, "moon looks for a hint (Ctrl-C: now)", hint_lines, &lines);
  if (!r) {
    std::cout << "no hint: the search failed: " << r.error().message << "\n";
    return;
  }
  // The lines are the deepest iteration's, whose first is the result's move (unless a stop came
  // before the first iteration completed: then there are none). Each line's score is its own
  // move's, which the result's (the position's) may not be: a proven draw there only when every
  // move is proven. The lines' scores are shown, all of one kind.
  const bool have_lines = !lines.empty() && !lines.front().pv.empty() && lines.front().pv[0] == r->best;
  std::cout << "hint: " << to_string(r->best) << "  (score "
            << to_string(have_lines ? lines.front().score_info : r->score_info);
  for (std::size_t i = 1; have_lines && i < lines.size(); ++i)
    if (!lines[i].pv.empty())
      std::cout << (i == 1 ? "; then " : ", ") << to_string(lines[i].pv[0]) << " " << to_string(lines[i].score_info);
  std::cout << ")\n";
}

// The engine's move: searched, announced, played. False if the search failed.
bool engine_move(Game& g) {
  const auto result = think(g, "moon thinks (Ctrl-C: move now)");
  if (!result) {
    std::cerr << "moon play: " << result.error().message << "\n";
    return false;
  }
  const Move m = result->best;
  g.history.push_back(g.pos);
  g.moves.push_back(m);
  const Bitboard captured = g.pos.play(m);
  // The pass is only ever the one legal move: said so, as the human's blocked turn is.
  const char* blocked = m.kind() == MoveKind::pass ? " (blocked: its only move is the pass)" : "";
  std::cout << "moon plays " << to_string(m) << blocked << captures_text(captured) << "  (score "
            << to_string(result->score_info) << ", depth " << result->depth << ")\n";
  show(g.pos, captured);
  return true;
}

void list_moves(const Position& pos) {
  std::cout << "legal moves:";
  for (Move m : legal_moves(pos)) {
    std::cout << " " << to_string(m);
    if (const Bitboard c = pos.captures_of(m)) std::cout << "(x" << popcount(c) << ")";
  }
  std::cout << "\n";
}

}  // namespace

int play_command(Args args) {
  PositionOptions where;
  SearchLimits limits;
  SearchOptions options;
  Color human = x;
  std::vector<std::string_view> moves;
  for (ArgReader reader(args); !reader.done();) {
    if (reader.bare_flag("--help") || reader.bare_flag("-h")) {
      // The ranges: as limit_options_help's (search_options.hpp checks them).
      std::cout << help << position_options_help << "  --depth D          engine searches D plies deep (1-100)\n"
                << "  --movetime MS      engine searches MS milliseconds a move (1 to 10^12; default 1000)\n"
                << "  --nodes N          engine searches N nodes a move (1 to 10^18)\n"
                << "                     (limits may be combined: the first reached ends the search)\n"
                << engine_options_help;
      return 0;
    }
    if (reader.flag("--side")) {
      const auto v = reader.value();
      if (!v) return usage_error(name, v.error().message);
      if (*v != "x" && *v != "o") return usage_error(name, "--side must be x or o, not " + moon::quoted(*v));
      human = *v == "x" ? x : o;
      continue;
    }
    if (const auto read = consume_search_argument(reader, where, limits, options, moves); !read)
      return usage_error(name, read.error().message);
  }
  const auto start = where.position();
  if (!start) return usage_error(name, start.error().message);
  if (const auto reached = play_move_texts(*start, moves); !reached) return usage_error(name, reached.error().message);
  if (!has_limit(limits)) limits.movetime_ms = 1000;

  // A size the machine cannot hold is bad input; one it will not give now is a failure. (The
  // searcher starts with the smallest table; set_options() says why a size was refused.)
  if (const auto fits = check_table_size(options.hash_mb); !fits) return usage_error(name, fits.error().message);
  Game g{human, Searcher(with_smallest_table(options)), limits, {}, {}, *start};
  if (const auto ok = set_search_options(name, g.searcher, options); !ok)
    return resource_failure(name, ok.error().message);
  // The MOVEs (checked above) are the game's first moves: in its replay line, and undone by undo.
  Bitboard last_captured = 0;
  for (const std::string_view text : moves) {
    const Move m = *parse_move(text, g.pos);
    g.history.push_back(g.pos);
    g.moves.push_back(m);
    last_captured = g.pos.play(m);
  }
  std::cout << "You play " << to_string(human) << ". " << commands_text << "\n";
  show(g.pos, last_captured);
  // A start that is over is no game at all; MOVEs that end the game are the game's own moves,
  // and its end is announced below as any other (with its replay line, and 'undo' offered).
  if (g.pos.is_over() && g.moves.empty()) {
    std::cout << "this game is already over: " << to_string(g.pos.result()) << "; nothing to play\n";
    return 0;
  }
  // A person at a terminal may take back the move that decided the game; a program driving
  // the game through a pipe gets the end of the program at the end of the game, as before.
  const bool at_terminal = isatty(STDIN_FILENO) != 0;
  std::string line;
  bool result_announced = false;
  for (;;) {
    // Once the game is over its result is announced; at a terminal, with a move of yours to
    // take back, 'undo' can still take it back, and anything else but 'quit' is answered with
    // what is left to do.
    const bool over = g.pos.is_over();
    if (over && !result_announced) {
      const Result r = g.pos.result();
      std::cout << "game over: " << to_string(r) << " (x " << g.pos.count(x) << ", o " << g.pos.count(o) << ")";
      if (r != Result::draw) std::cout << ((r == Result::x_wins) == (g.human == x) ? " - you win" : " - moon wins");
      std::cout << "\n";
      print_replay(g);
      if (!at_terminal || !undo_target(g)) return 0;
      result_announced = true;
    }
    if (!over) {
      result_announced = false;
      if (g.pos.side_to_move() != g.human) {
        if (!engine_move(g)) {  // the game so far is not lost with it
          print_replay(g);
          return 1;
        }
        continue;
      }
      if (count_moves(g.pos) == 1 && legal_moves(g.pos)[0].kind() == MoveKind::pass)
        std::cout << "You are blocked: your only move is the pass (0000).\n";
    }
    // Ctrl-C at the prompt quits at once, but a game it abandons leaves its replay line, as quit
    // does. The farewell goes straight out, after what was written before (hence the flush); it
    // is in place before the prompt, so that a program that sees the prompt knows it is.
    std::cout << std::flush;
    LineRead read = LineRead::end;
    {
      const FarewellOnInterrupt farewell(over ? "\n" : "\nCtrl-C: game abandoned\n" + replay_line(g));
      if (over) std::cout << "undo or quit> " << std::flush;
      else std::cout << "your move (" << to_string(g.human) << ")> " << std::flush;
      read = read_bounded_line(std::cin, line, max_input_line);
    }
    if (read == LineRead::end) {
      std::cout << (over ? "\n" : "\nend of input: game abandoned\n");
      if (!over) print_replay(g);
      return 0;
    }
    if (read == LineRead::failed) {  // as the end of the input, but a failure, which says why
      const std::string why = std::strerror(errno);
      std::cout << (over ? "\n" : "\ngame abandoned\n");
      if (!over) print_replay(g);
      std::cerr << "moon play: cannot read standard input: " << why << "\n";
      return 1;
    }
    if (read == LineRead::too_long) {
      std::cout << "input line longer than " << max_input_line << " characters: ignored; "
                << (over ? over_text : commands_text) << "\n";
      continue;
    }
    // Squares and commands are lower case; 'B4' or 'PASS' typed by hand means the same.
    std::string input = trim(line);
    std::transform(input.begin(), input.end(), input.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    if (input.empty()) continue;
    if (input == "quit" || input == "exit") {
      if (!over) {
        std::cout << "game abandoned\n";
        print_replay(g);
      }
      return 0;
    }
    if (input == "undo") {
      const auto target = undo_target(g);
      if (!target) {
        std::cout << "nothing to undo\n";
        continue;
      }
      g.pos = g.history[*target];
      g.history.resize(*target);
      g.moves.resize(*target);
      std::cout << "move taken back\n";
      show(g.pos, 0);
      continue;
    }
    if (over) {
      std::cout << over_text << "\n";
      continue;
    }
    if (input == "help") {
      std::cout << commands_text << "\n";
      continue;
    }
    if (input == "moves") {
      list_moves(g.pos);
      continue;
    }
    if (input == "hint") {
      give_hint(g);
      continue;
    }
    const bool pass_word = input == "pass";
    const auto move = parse_move(pass_word ? "0000" : input, g.pos);
    if (!move) {
      // A command mistyped ('udno') is told as such, not as a square that does not exist. No
      // move text is within two edits of these words, so a move is never taken for one. 'pass',
      // last in the list, is offered only where the side to move is blocked, the one place it is
      // legal.
      static constexpr std::string_view words[] = {"quit", "exit", "undo", "help", "moves", "hint", "pass"};
      const bool may_pass = parse_move("0000", g.pos).has_value();
      if (const auto meant = closest_name(input, std::span(words).first(std::size(words) - (may_pass ? 0 : 1)))) {
        std::cout << moon::quoted(input) << " is neither a move nor a command; did you mean " << moon::quoted(*meant)
                  << "?\n";
        continue;
      }
      // The message names the input and says why ("'c3' is illegal: no counter may be placed on c3"),
      // in lower case as it was read, but 'pass' rather than the '0000' it was read as.
      std::string message = move.error().message;
      if (pass_word && message.rfind("'0000'", 0) == 0) message.replace(0, 6, "'pass'");
      std::cout << message << "; 'moves' lists the legal ones, 'help' the commands\n";
      continue;
    }
    g.history.push_back(g.pos);
    g.moves.push_back(*move);
    const Bitboard captured = g.pos.play(*move);
    std::cout << "you play " << to_string(*move) << captures_text(captured) << "\n";
    show(g.pos, captured);
  }
}

}  // namespace moon::cli
