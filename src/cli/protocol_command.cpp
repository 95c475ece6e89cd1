#include <csignal>
#include <iostream>

#include "cli/commands.hpp"
#include "protocol/engine.hpp"

namespace moon::cli {

namespace {

constexpr std::string_view name = "protocol";
constexpr std::string_view help =
    "Usage: moon protocol\n"
    "\n"
    "Speaks the engine protocol on standard input and output: a UCI-style line protocol for\n"
    "graphical frontends and scripts (see docs/PROTOCOL.md). Start with 'umi', end with 'quit'.\n"
    "\n"
    "  umi | isready | setoption name N value V | uminewgame\n"
    "  position startpos | fen <position string> [moves m1 m2 ...]\n"
    "  go [depth D] [nodes N] [movetime MS] [xtime MS otime MS [xinc MS] [oinc MS]]\n"
    "  go infinite | go solve [moves] | go perft D | stop | d | quit\n";

}  // namespace

int protocol_command(Args args) {
  if (!args.empty()) {
    if (args[0] == "--help" || args[0] == "-h") {
      std::cout << help;
      return 0;
    }
    return usage_error(name, "takes no arguments; commands come on standard input");
  }
  // A frontend that closes our output must not kill us mid-line: writes then fail quietly
  // and the end of input ends the session.
  std::signal(SIGPIPE, SIG_IGN);
  protocol::Engine engine(std::cout);
  return engine.run(std::cin);
}

}  // namespace moon::cli
