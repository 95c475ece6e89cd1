// Self-test of the plain reference implementation against the independent perft counts.
// Usage: reference_selftest <path to tests/data/perft-reference.txt or perft-positions.txt>
//
// Each data line is  RULE FLAGS | POSITION STRING | perft(1) perft(2) ...
// For every line it checks that the position string reads back unchanged, that perft matches
// at every depth whose expected count is at most kMaxCount (larger ones are skipped to keep the
// run short), and that walking the tree through the text interface (legal_moves + play)
// agrees with perft at the shallow depths. A short table of hand-checked cases then covers the
// refusal rules of the position string and single moves (captures, pass, clock, fullmove).
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "reference.hpp"

namespace {

// Perft counts above this are skipped; the sanitizers slow the plain recursion about tenfold.
#ifdef MOON_SANITIZE_BUILD
const unsigned long long kMaxCount = 3000000ULL;
#else
const unsigned long long kMaxCount = 30000000ULL;
#endif
const unsigned long long kMaxTextCount = 100000ULL;

std::string trim(const std::string& text) {
    std::size_t begin = text.find_first_not_of(" \t\r\n");
    if (begin == std::string::npos) return "";
    std::size_t end = text.find_last_not_of(" \t\r\n");
    return text.substr(begin, end - begin + 1);
}

bool parse_flags(const std::string& text, reference::Rules& rules) {
    std::istringstream in(text);
    std::string flag;
    while (in >> flag) {
        if (flag == "--slide") {
            rules.slide = true;
        } else if (flag == "--diagonal") {
            rules.diagonal = true;
        } else if (flag == "--clock-limit") {
            if (!(in >> rules.clock_limit)) return false;
        } else {
            return false;
        }
    }
    return true;
}

// perft through the text interface only.
unsigned long long text_perft(const reference::Position& p, int depth) {
    if (depth == 0) return 1;
    unsigned long long nodes = 0;
    for (const std::string& move : reference::legal_moves(p)) {
        reference::Position next = p;
        if (!reference::play(next, move)) return 0;  // a listed move must be playable
        nodes += text_perft(next, depth - 1);
    }
    return nodes;
}

// Hand-checked cases, each worked out from RULES.md.
struct ParseCase {
    const char* text;
    const char* canonical;  // nullptr: the text must be refused
};

const ParseCase kParseCases[] = {
    {"5/5/5/5/5 x 12 12 0 1", "5/5/5/5/5 x 12 12 0 1"},
    {"5/5/5/5/5 x", "5/5/5/5/5 x 0 0 0 1"},
    {"23/5/14/41/311 x 12 12 0 1", "5/5/5/5/5 x 12 12 0 1"},
    {"5/5/5/5/5 x 012 12 00 01", "5/5/5/5/5 x 12 12 0 1"},
    {"5/5/5/5/x4 o 11 12 0 1", "5/5/5/5/x4 o 11 12 0 1"},
    {"5/5/5/5/5 o 0 1 0 1", "5/5/5/5/5 o 0 1 0 1"},
    {"xx3/oo3/5/5/5 x 0 0 20 5", "xx3/oo3/5/5/5 x 0 0 20 5"},
    {"xxxxx/xxxxx/xx3/5/5 x", "xxxxx/xxxxx/xx3/5/5 x 0 0 0 1"},
    {"", nullptr},
    {"5/5/5/5/5", nullptr},
    {"5/5/5/5/5 x 12", nullptr},
    {"5/5/5/5/5 x 12 12 0", nullptr},
    {"5/5/5/5/5 x 12 12 0 1 1", nullptr},
    {"5/5/5/5/5  x", nullptr},
    {" 5/5/5/5/5 x", nullptr},
    {"5/5/5/5/5 x ", nullptr},
    {"5/5/5/5/5\tx", nullptr},
    {"5/5/5/5 x", nullptr},
    {"5/5/5/5/5/5 x", nullptr},
    {"5/5/5/5/5/ x", nullptr},
    {"4/5/5/5/5 x", nullptr},
    {"xxxxxx/5/5/5/5 x", nullptr},
    {"33/5/5/5/5 x", nullptr},
    {"6/5/5/5/5 x", nullptr},
    {"05/5/5/5/5 x", nullptr},
    {"5/5/5/5/5 X", nullptr},
    {"5/5/5/5/5 xo", nullptr},
    {"5/5/5/5/X4 x", nullptr},
    {"5/5/5/5/5 x +1 +1 0 1", nullptr},
    {"5/5/5/5/5 x -1 -1 0 1", nullptr},
    {"5/5/5/5/5 x 1a 1a 0 1", nullptr},
    {"5/5/5/5/5 x 13 13 0 1", nullptr},
    {"xx3/oo3/5/5/5 x 0 0 21 1", nullptr},
    {"xx3/oo3/5/5/5 x 0 0 -0 1", nullptr},
    {"xx3/oo3/5/5/5 x 0 0 0 0", nullptr},
    {"xxxxx/xxxxx/xxx2/5/5 x", nullptr},
    {"xxxxx/xxxxx/xx3/5/5 x 1 1 0 1", nullptr},
    {"5/5/2x2/5/5 o 11 12 0 1", nullptr},
    {"5/5/5/5/5 x 12 12 1 1", nullptr},
    {"5/5/5/5/5 x 12 11 0 1", nullptr},
    {"5/5/5/5/5 o 12 12 0 1", nullptr},
    {"5/5/5/5/5 o 10 12 0 1", nullptr},
    {"5/5/5/5/5 x 0 1 0 1", nullptr},
};

struct MoveCase {
    const char* flags;
    const char* before;
    const char* move;
    const char* captured;  // captures() of the move
    const char* after;     // nullptr: the move must be refused
    char result;           // result() after the move
};

const MoveCase kMoveCases[] = {
    {"", "5/5/5/5/5 x 12 12 0 1", "a1", "", "5/5/5/5/x4 o 11 12 0 1", '-'},
    {"", "5/5/5/5/5 x 12 12 0 1", "c3", "", nullptr, '-'},
    {"", "5/5/5/5/5 x 12 12 0 1", "a1a2", "", nullptr, '-'},
    {"", "5/5/5/5/5 x 12 12 0 1", "0000", "", nullptr, '-'},
    {"", "5/5/5/5/x4 o 11 12 0 1", "b1", "", "5/5/5/5/xo3 x 11 11 0 2", '-'},
    {"", "5/5/5/5/x4 o 11 12 0 1", "a1", "", nullptr, '-'},
    {"", "5/5/5/5/x1x2 o 10 11 0 3", "b1", "", "5/5/5/5/xox2 x 10 10 0 4", '-'},
    {"", "5/5/5/5/5 o 0 1 0 9", "a1", "", "5/5/5/5/o4 x 0 0 0 10", 'o'},
    {"", "o4/5/5/5/xo1xx x 0 0 7 4", "d1c1", "b1", "o4/5/5/5/x1x1x o 0 0 0 4", 'x'},
    {"", "o4/5/5/5/xo1xx x 0 0 7 4", "d1b1", "", nullptr, '-'},
    {"", "2x2/2o2/xo1x1/2o2/5 x", "d3c3", "b3 c4", "2x2/5/x1x2/2o2/5 o 0 0 0 1", 'x'},
    {"", "4o/5/3x1/1o3/x4 x", "d3c3", "", "4o/5/2x2/1o3/x4 o 0 0 1 1", '-'},
    {"--diagonal", "4o/5/3x1/1o3/x4 x", "d3c3", "b2", "4o/5/2x2/5/x4 o 0 0 0 1", 'x'},
    {"--diagonal", "4o/5/3x1/1o3/x4 x", "d3c2", "", nullptr, '-'},
    {"", "5/5/5/5/xoo1x x 0 0 2 3", "e1d1", "b1 c1", "5/5/5/5/x2x1 o 0 0 0 3", 'x'},
    {"", "4x/5/5/2x2/1o1o1 x 0 0 2 3", "c2c1", "", "4x/5/5/5/1oxo1 o 0 0 3 3", '-'},
    {"", "oo3/5/5/5/x3x x", "a1c1", "", nullptr, '-'},
    {"--slide", "oo3/5/5/5/x3x x", "a1c1", "", "oo3/5/5/5/2x1x o 0 0 1 1", '-'},
    {"--slide", "oo3/5/5/5/x3x x", "a1a5", "", nullptr, '-'},
    {"--slide", "oo3/o4/5/5/x3x x", "e1a5", "", nullptr, '-'},
    {"", "oo3/5/5/5/x3x o 0 0 0 1", "a5a4", "", "1o3/o4/5/5/x3x x 0 0 1 2", '-'},
    {"", "oo3/5/5/5/x3x x 0 0 19 1", "a1a2", "", "oo3/5/5/x4/4x o 0 0 20 1", 'd'},
    {"--clock-limit 40", "oo3/5/5/5/x3x x 0 0 19 1", "a1a2", "", "oo3/5/5/x4/4x o 0 0 20 1", '-'},
    {"", "oo3/5/5/5/x3x x 0 0 20 1", "a1a2", "", nullptr, 'd'},
    {"", "xoxo1/o1o2/5/5/5 x 0 0 3 7", "0000", "", "xoxo1/o1o2/5/5/5 o 0 0 3 7", '-'},
    {"", "xoxo1/o1o2/5/5/5 x 0 0 3 7", "a5a4", "", nullptr, '-'},
    {"", "xoxo1/o1o2/5/5/x4 o 0 0 3 7", "0000", "", nullptr, '-'},
    {"", "xoxo1/o1o2/5/5/5 o 0 0 3 7", "d5e5", "", "xox1o/o1o2/5/5/5 x 0 0 4 8", '-'},
    {"", "5/5/5/5/xo2x x", "a1a2", "", nullptr, 'x'},
};

bool check_parse_case(const ParseCase& c) {
    reference::Position p;
    std::string error;
    bool accepted = reference::parse(c.text, reference::Rules{}, p, error);
    if (c.canonical == nullptr) {
        if (accepted) std::printf("parse '%s': accepted, expected refusal\n", c.text);
        if (!accepted && error.empty()) std::printf("parse '%s': no message\n", c.text);
        return !accepted && !error.empty();
    }
    if (!accepted) {
        std::printf("parse '%s': refused (%s)\n", c.text, error.c_str());
        return false;
    }
    if (reference::to_string(p) != c.canonical) {
        std::printf("parse '%s': prints as '%s'\n", c.text, reference::to_string(p).c_str());
        return false;
    }
    return true;
}

bool check_move_case(const MoveCase& c) {
    reference::Rules rules;
    if (!parse_flags(c.flags, rules)) return false;
    reference::Position p;
    std::string error;
    if (!reference::parse(c.before, rules, p, error)) {
        std::printf("move case '%s': refused (%s)\n", c.before, error.c_str());
        return false;
    }
    bool ok = true;
    std::string captured = reference::captures(p, c.move);
    if (captured != c.captured) {
        std::printf("%s %s: captures '%s', expected '%s'\n", c.before, c.move, captured.c_str(),
                    c.captured);
        ok = false;
    }
    reference::Position q = p;
    bool played = reference::play(q, c.move);
    if (c.after == nullptr) {
        if (played || reference::to_string(q) != reference::to_string(p)) {
            std::printf("%s %s: played, expected refusal\n", c.before, c.move);
            ok = false;
        }
    } else if (!played || reference::to_string(q) != c.after) {
        std::printf("%s %s: gives '%s', expected '%s'\n", c.before, c.move,
                    played ? reference::to_string(q).c_str() : "(refused)", c.after);
        ok = false;
    }
    if (reference::result(q) != c.result) {
        std::printf("%s %s: result '%c', expected '%c'\n", c.before, c.move, reference::result(q),
                    c.result);
        ok = false;
    }
    if (reference::is_over(q) != (c.result != '-') ||
        reference::is_over(q) != reference::legal_moves(q).empty()) {
        std::printf("%s %s: is_over and legal_moves disagree\n", c.before, c.move);
        ok = false;
    }
    return ok;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s <perft-reference.txt>\n", argv[0]);
        return 2;
    }
    std::ifstream file(argv[1]);
    if (!file) {
        std::fprintf(stderr, "cannot open %s\n", argv[1]);
        return 2;
    }

    int passed = 0;
    int failed = 0;
    int skipped = 0;
    std::string line;
    int line_number = 0;
    while (std::getline(file, line)) {
        ++line_number;
        std::string content = trim(line);
        if (content.empty() || content[0] == '#') continue;

        std::size_t bar1 = content.find('|');
        std::size_t bar2 = bar1 == std::string::npos ? bar1 : content.find('|', bar1 + 1);
        if (bar2 == std::string::npos) {
            std::printf("line %d: malformed\n", line_number);
            ++failed;
            continue;
        }
        reference::Rules rules;
        if (!parse_flags(content.substr(0, bar1), rules)) {
            std::printf("line %d: bad rule flags\n", line_number);
            ++failed;
            continue;
        }
        std::string fen = trim(content.substr(bar1 + 1, bar2 - bar1 - 1));
        std::vector<unsigned long long> expected;
        std::istringstream counts(content.substr(bar2 + 1));
        unsigned long long count = 0;
        while (counts >> count) expected.push_back(count);

        reference::Position p;
        std::string error;
        if (!reference::parse(fen, rules, p, error)) {
            std::printf("line %d: refused '%s': %s\n", line_number, fen.c_str(), error.c_str());
            ++failed;
            continue;
        }
        if (reference::to_string(p) == fen) {
            ++passed;
        } else {
            std::printf("line %d: '%s' prints back as '%s'\n", line_number, fen.c_str(),
                        reference::to_string(p).c_str());
            ++failed;
        }

        for (std::size_t i = 0; i < expected.size(); ++i) {
            int depth = static_cast<int>(i) + 1;
            if (expected[i] > kMaxCount) {
                ++skipped;
                continue;
            }
            unsigned long long got = reference::perft(p, depth);
            if (got == expected[i]) {
                ++passed;
            } else {
                std::printf("line %d: %s perft(%d) = %llu, expected %llu\n", line_number,
                            fen.c_str(), depth, got, expected[i]);
                ++failed;
            }
            if (expected[i] <= kMaxTextCount) {
                unsigned long long by_text = text_perft(p, depth);
                if (by_text == got) {
                    ++passed;
                } else {
                    std::printf("line %d: %s text perft(%d) = %llu, perft %llu\n", line_number,
                                fen.c_str(), depth, by_text, got);
                    ++failed;
                }
            }
        }
    }

    for (const ParseCase& c : kParseCases) {
        if (check_parse_case(c)) {
            ++passed;
        } else {
            ++failed;
        }
    }
    for (const MoveCase& c : kMoveCases) {
        if (check_move_case(c)) {
            ++passed;
        } else {
            ++failed;
        }
    }

    std::printf("%d depths skipped (expected count above %llu)\n", skipped, kMaxCount);
    std::printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 && passed > 0 ? 0 : 1;
}
