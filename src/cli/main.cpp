// The moon program: its commands, --help and --version.
#include <exception>
#include <iostream>
#include <new>
#include <string_view>
#include <vector>

#include "cli/closest_name.hpp"
#include "cli/commands.hpp"
#include "moon/notation.hpp"

#ifndef MOON_VERSION
#define MOON_VERSION "unknown"
#endif

namespace {

struct Command {
  std::string_view name;
  int (*run)(moon::cli::Args);
  std::string_view summary;
};

constexpr Command commands[] = {
    {"perft", moon::cli::perft_command, "count the leaves of the move tree (validate move generators)"},
    {"show", moon::cli::show_command, "play moves, draw the board and list the legal moves with captures"},
    {"solve", moon::cli::solve_command, "prove win/draw/loss and the distance to the end under best play"},
    {"analyze", moon::cli::analyze_command, "search a position: a line per iteration, then the best move"},
    {"bench", moon::cli::bench_command, "search a fixed position list: node signature and speed"},
    {"match", moon::cli::match_command, "play games between two engine settings: W/D/L and Elo"},
    {"play", moon::cli::play_command, "play a game against the engine in the terminal"},
    {"protocol", moon::cli::protocol_command, "speak the UCI-style engine protocol on stdin/stdout"},
};

void print_help(std::ostream& out) {
  out << "moon: an engine for The Man in the Moon (McLoughlin Bros., 1890)\n"
         "\n"
         "Usage: moon <command> [options]\n"
         "       moon <command> --help   (or: moon help <command>)\n"
         "       moon --version\n"
         "\n"
         "Commands:\n";
  for (const Command& c : commands) {
    out << "  " << c.name << std::string(10 - c.name.size(), ' ') << c.summary << "\n";
  }
  out << "\nExamples:\n"
         "  moon perft 6\n"
         "  moon perft --divide --fen '1ooox/1o1xo/3x1/ox1xx/ooxxx o 3 4 0 9' 5\n"
         "  moon show b4 c4\n";
}

int run(const std::vector<std::string_view>& args) {
  if (args.empty()) {
    print_help(std::cerr);
    return 2;
  }
  const auto find = [](std::string_view name) -> const Command* {
    for (const Command& c : commands)
      if (name == c.name) return &c;
    return nullptr;
  };
  const auto unknown = [](std::string_view name) {
    std::vector<std::string_view> names;
    for (const Command& c : commands) names.push_back(c.name);
    names.insert(names.end(), {"help", "--help", "--version"});  // `moon version` means `--version`
    std::cerr << "moon: unknown command " << moon::quoted(name);
    if (const auto meant = moon::cli::closest_name(name, names))
      std::cerr << "; did you mean " << moon::quoted(*meant) << "?";
    std::cerr << " (see 'moon --help')\n";
    return 2;
  };
  const auto is_help = [](std::string_view word) { return word == "--help" || word == "-h" || word == "help"; };
  if (is_help(args[0])) {
    // `moon help perft` is `moon perft --help`; `moon --help perft` too; `moon help help` is help.
    if (args.size() == 2 && !is_help(args[1])) {
      if (args[1] == "--version") {  // not a command, but what it does is worth saying
        std::cout << "moon --version prints the program's version: moon " MOON_VERSION "\n";
        return 0;
      }
      const Command* c = find(args[1]);
      if (!c) return unknown(args[1]);
      const std::string_view help_flag = "--help";
      return c->run(moon::cli::Args(&help_flag, 1));
    }
    if (args.size() > 2) {
      std::cerr << "moon: " << args[0] << " takes at most one command name (see 'moon --help')\n";
      return 2;
    }
    print_help(std::cout);
    return 0;
  }
  if (args[0] == "--version") {
    if (args.size() > 1) {
      std::cerr << "moon: --version takes no arguments (got " << moon::quoted(args[1]) << "; see 'moon --help')\n";
      return 2;
    }
    std::cout << "moon " MOON_VERSION "\n";
    return 0;
  }
  const Command* c = find(args[0]);
  if (!c) return unknown(args[0]);
  // The commands report as values what they expect to go wrong; memory that cannot be had where
  // none was expected to fail (say, an engine's smallest table) ends the program with a message
  // rather than an abort.
  try {
    return c->run(moon::cli::Args(args).subspan(1));
  } catch (const std::bad_alloc&) {
    std::cerr << "moon " << c->name << ": out of memory\n";
  } catch (const std::exception& e) {
    std::cerr << "moon " << c->name << ": " << e.what() << "\n";
  }
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  const int status = run(std::vector<std::string_view>(argv + 1, argv + argc));
  // Output that could not be written (a full disk, say) is a failure, not a success that
  // printed nothing.
  if (!std::cout.flush()) {
    std::cerr << "moon: cannot write to standard output\n";
    return status == 0 ? 1 : status;
  }
  return status;
}
