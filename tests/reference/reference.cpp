// The plain reference implementation of RULES.md. See reference.hpp: it must stay
// independent of include/moon and obviously correct by reading.
#include "reference.hpp"

#include <string>
#include <vector>

namespace reference {

namespace {

const int kCentre = 12;  // c3
const int kMaxCounters = 12;
const int kMaxFullmove = 999999999;

// ---------------------------------------------------------------- squares

int file_of(int square) { return square % 5; }  // 0 = a .. 4 = e
int rank_of(int square) { return square / 5; }  // 0 = rank 1 .. 4 = rank 5

bool on_board(int file, int rank) { return file >= 0 && file < 5 && rank >= 0 && rank < 5; }

int square_at(int file, int rank) { return rank * 5 + file; }

std::string square_name(int square) {
    std::string name;
    name += static_cast<char>('a' + file_of(square));
    name += static_cast<char>('1' + rank_of(square));
    return name;
}

char opponent(char side) { return side == 'x' ? 'o' : 'x'; }

int hand_index(char side) { return side == 'x' ? 0 : 1; }

int count_on_board(const Position& p, char side) {
    int count = 0;
    for (int square = 0; square < 25; ++square) {
        if (p.board[square] == side) ++count;
    }
    return count;
}

bool in_placement(const Position& p) { return p.in_hand[0] > 0 || p.in_hand[1] > 0; }

// Orthogonal directions first; the diagonal ones are used only as capture lines.
const int kDirFile[8] = {1, -1, 0, 0, 1, 1, -1, -1};
const int kDirRank[8] = {0, 0, 1, -1, 1, -1, 1, -1};

// ---------------------------------------------------------------- moves

enum class Kind { place, step, pass };

struct Move {
    Kind kind;
    int from;  // step only
    int to;    // place and step
};

std::string move_text(const Move& move) {
    if (move.kind == Kind::pass) return "0000";
    if (move.kind == Kind::place) return square_name(move.to);
    return square_name(move.from) + square_name(move.to);
}

std::vector<Move> generate(const Position& p) {
    std::vector<Move> moves;
    if (is_over(p)) return moves;

    if (in_placement(p)) {
        for (int square = 0; square < 25; ++square) {
            if (square == kCentre) continue;
            if (p.board[square] != '.') continue;
            moves.push_back(Move{Kind::place, -1, square});
        }
        // Cannot be empty: while counters are in hand, c3 is empty and at most 24 counters
        // exist in all, so there is an empty square for every counter still in hand.
        return moves;
    }

    for (int from = 0; from < 25; ++from) {
        if (p.board[from] != p.side) continue;
        for (int dir = 0; dir < 4; ++dir) {
            int file = file_of(from);
            int rank = rank_of(from);
            while (true) {
                file += kDirFile[dir];
                rank += kDirRank[dir];
                if (!on_board(file, rank)) break;
                int to = square_at(file, rank);
                if (p.board[to] != '.') break;
                moves.push_back(Move{Kind::step, from, to});
                if (!p.rules.slide) break;  // default rules: one square only
            }
        }
    }

    if (moves.empty()) moves.push_back(Move{Kind::pass, -1, -1});
    return moves;
}

// The squares captured when the side to move puts a counter on `to` (board already showing
// the move). Sorted by index.
std::vector<int> captured_by(const Position& p, int to) {
    char mover = p.board[to];
    char enemy = opponent(mover);
    int lines = p.rules.diagonal ? 8 : 4;
    bool captured[25] = {};
    for (int dir = 0; dir < lines; ++dir) {
        std::vector<int> run;
        int file = file_of(to) + kDirFile[dir];
        int rank = rank_of(to) + kDirRank[dir];
        while (on_board(file, rank) && p.board[square_at(file, rank)] == enemy) {
            run.push_back(square_at(file, rank));
            file += kDirFile[dir];
            rank += kDirRank[dir];
        }
        if (run.empty()) continue;
        if (!on_board(file, rank)) continue;                    // run reaches the edge
        if (p.board[square_at(file, rank)] != mover) continue;  // empty square breaks it
        for (int square : run) captured[square] = true;
    }
    std::vector<int> squares;
    for (int square = 0; square < 25; ++square) {
        if (captured[square]) squares.push_back(square);
    }
    return squares;
}

// Copy-make: returns the position after the (legal) move.
Position after(const Position& p, const Move& move) {
    Position next = p;
    if (move.kind == Kind::place) {
        next.board[move.to] = p.side;
        next.in_hand[hand_index(p.side)] -= 1;
        // Placement never captures and leaves the clock unchanged.
    } else if (move.kind == Kind::step) {
        next.board[move.from] = '.';
        next.board[move.to] = p.side;
        std::vector<int> taken = captured_by(next, move.to);
        for (int square : taken) next.board[square] = '.';
        if (taken.empty()) {
            next.clock = p.clock + 1;
        } else {
            next.clock = 0;
        }
    }
    // A pass changes nothing but the side to move (and the fullmove after o).
    if (p.side == 'o') next.fullmove = p.fullmove + 1;
    next.side = opponent(p.side);
    return next;
}

// Finds the legal move with the given text. Returns false if there is none.
bool find_move(const Position& p, const std::string& text, Move& found) {
    std::vector<Move> moves = generate(p);
    for (const Move& move : moves) {
        if (move_text(move) == text) {
            found = move;
            return true;
        }
    }
    return false;
}

// ---------------------------------------------------------------- parsing

std::vector<std::string> split_on_spaces(const std::string& text) {
    std::vector<std::string> fields;
    std::string current;
    for (char c : text) {
        if (c == ' ') {
            fields.push_back(current);
            current.clear();
        } else {
            current += c;
        }
    }
    fields.push_back(current);
    return fields;
}

// A whole number in [low, high]: a non-empty run of decimal digits (leading zeros allowed).
bool parse_count(const std::string& field, const char* name, int low, int high, int& value,
                 std::string& error) {
    if (field.empty()) {
        error = std::string(name) + ": empty, expected a whole number";
        return false;
    }
    long long number = 0;
    for (char c : field) {
        if (c < '0' || c > '9') {
            error = std::string(name) + ": '" + field + "' is not a whole number";
            return false;
        }
        number = number * 10 + (c - '0');
        if (number > 1000000000000LL) number = 1000000000000LL;  // saturate, still too big
    }
    if (number < low || number > high) {
        error = std::string(name) + ": " + field + " is out of range " + std::to_string(low) +
                ".." + std::to_string(high);
        return false;
    }
    value = static_cast<int>(number);
    return true;
}

bool parse_board(const std::string& field, char board[25], std::string& error) {
    std::vector<std::string> ranks;
    std::string current;
    for (char c : field) {
        if (c == '/') {
            ranks.push_back(current);
            current.clear();
        } else {
            current += c;
        }
    }
    ranks.push_back(current);

    for (char c : field) {
        bool known = c == 'x' || c == 'o' || c == '/' || (c >= '1' && c <= '5');
        if (!known) {
            error = std::string("board: unknown character '") + c + "'";
            return false;
        }
    }
    if (ranks.size() != 5) {
        error = "board: " + std::to_string(ranks.size()) + " ranks, expected 5";
        return false;
    }
    for (int i = 0; i < 5; ++i) {
        int rank = 4 - i;  // the first rank in the string is rank 5
        int file = 0;
        for (char c : ranks[std::size_t(i)]) {
            if (c == 'x' || c == 'o') {
                if (file < 5) board[square_at(file, rank)] = c;
                file += 1;
            } else {
                int empty = c - '0';
                for (int k = 0; k < empty; ++k) {
                    if (file < 5) board[square_at(file, rank)] = '.';
                    file += 1;
                }
            }
        }
        if (file != 5) {
            error = "board: rank " + std::to_string(rank + 1) + " covers " + std::to_string(file) +
                    " squares, expected 5";
            return false;
        }
    }
    return true;
}

}  // namespace

// ---------------------------------------------------------------- interface

bool parse(const std::string& text, const Rules& rules, Position& out, std::string& error) {
    if (rules.clock_limit < 1) {
        error = "rules: clock limit must be at least 1";
        return false;
    }
    std::vector<std::string> fields = split_on_spaces(text);
    for (const std::string& field : fields) {
        if (field.empty()) {
            error = "empty field: fields must be separated by single spaces";
            return false;
        }
    }
    if (fields.size() != 6 && fields.size() != 2) {
        error = std::to_string(fields.size()) +
                " fields, expected 6 (board side x-hand o-hand clock fullmove) or 2 (board "
                "side)";
        return false;
    }

    Position p{};
    p.rules = rules;
    if (!parse_board(fields[0], p.board, error)) return false;

    if (fields[1] == "x" || fields[1] == "o") {
        p.side = fields[1][0];
    } else {
        error = "side: '" + fields[1] + "', expected x or o";
        return false;
    }

    if (fields.size() == 6) {
        if (!parse_count(fields[2], "x in hand", 0, kMaxCounters, p.in_hand[0], error))
            return false;
        if (!parse_count(fields[3], "o in hand", 0, kMaxCounters, p.in_hand[1], error))
            return false;
        if (!parse_count(fields[4], "clock", 0, rules.clock_limit, p.clock, error)) return false;
        if (!parse_count(fields[5], "fullmove", 1, kMaxFullmove, p.fullmove, error)) return false;
    } else {
        p.in_hand[0] = 0;
        p.in_hand[1] = 0;
        p.clock = 0;
        p.fullmove = 1;
    }

    int owned_x = count_on_board(p, 'x') + p.in_hand[0];
    int owned_o = count_on_board(p, 'o') + p.in_hand[1];
    if (owned_x > kMaxCounters) {
        error = "x owns " + std::to_string(owned_x) + " counters (board + hand), at most 12";
        return false;
    }
    if (owned_o > kMaxCounters) {
        error = "o owns " + std::to_string(owned_o) + " counters (board + hand), at most 12";
        return false;
    }

    if (in_placement(p)) {
        if (p.board[kCentre] != '.') {
            error = "c3 is occupied while counters are in hand";
            return false;
        }
        if (p.clock != 0) {
            error =
                "clock is " + std::to_string(p.clock) + " while counters are in hand, must be 0";
            return false;
        }
        bool fits = false;
        if (p.side == 'x' && p.in_hand[0] == p.in_hand[1]) fits = true;
        if (p.side == 'o' && p.in_hand[1] == p.in_hand[0] + 1) fits = true;
        if (!fits) {
            error = "hands x " + std::to_string(p.in_hand[0]) + ", o " +
                    std::to_string(p.in_hand[1]) + " with " + p.side +
                    " to move do not fit the alternation (x to move: equal hands; o to move: "
                    "o holds one more)";
            return false;
        }
    }

    out = p;
    error.clear();
    return true;
}

std::string to_string(const Position& p) {
    std::string text;
    for (int rank = 4; rank >= 0; --rank) {
        int empty = 0;
        for (int file = 0; file < 5; ++file) {
            char c = p.board[square_at(file, rank)];
            if (c == '.') {
                empty += 1;
            } else {
                if (empty > 0) text += static_cast<char>('0' + empty);
                empty = 0;
                text += c;
            }
        }
        if (empty > 0) text += static_cast<char>('0' + empty);
        if (rank > 0) text += '/';
    }
    text += ' ';
    text += p.side;
    text += ' ' + std::to_string(p.in_hand[0]);
    text += ' ' + std::to_string(p.in_hand[1]);
    text += ' ' + std::to_string(p.clock);
    text += ' ' + std::to_string(p.fullmove);
    return text;
}

bool is_over(const Position& p) {
    if (in_placement(p)) return false;  // never over during placement
    if (count_on_board(p, 'x') <= 1) return true;
    if (count_on_board(p, 'o') <= 1) return true;
    if (p.clock >= p.rules.clock_limit) return true;
    return false;
}

char result(const Position& p) {
    if (!is_over(p)) return '-';
    int x = count_on_board(p, 'x');
    int o = count_on_board(p, 'o');
    if (x > o) return 'x';
    if (o > x) return 'o';
    return 'd';
}

std::vector<std::string> legal_moves(const Position& p) {
    std::vector<std::string> texts;
    for (const Move& move : generate(p)) texts.push_back(move_text(move));
    return texts;
}

bool play(Position& p, const std::string& move) {
    Move found;
    if (!find_move(p, move, found)) return false;
    p = after(p, found);
    return true;
}

std::string captures(const Position& p, const std::string& move) {
    Move found;
    if (!find_move(p, move, found)) return "";
    if (found.kind != Kind::step) return "";
    Position moved = p;
    moved.board[found.from] = '.';
    moved.board[found.to] = p.side;
    std::string text;
    for (int square : captured_by(moved, found.to)) {
        if (!text.empty()) text += ' ';
        text += square_name(square);
    }
    return text;
}

unsigned long long perft(const Position& p, int depth) {
    if (depth <= 0) return 1;
    std::vector<Move> moves = generate(p);
    if (depth == 1) return moves.size();
    unsigned long long nodes = 0;
    for (const Move& move : moves) nodes += perft(after(p, move), depth - 1);
    return nodes;
}

}  // namespace reference
