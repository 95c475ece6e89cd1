/* A whole game between two settings of the engine, through the C API (moon::moon_c).
 *
 * The same players as examples/play_game.cpp: x searches 6 plies deep, o 3 plies deep with a
 * quarter of the table, so both programs play the same game. */
#include <stdio.h>
#include <string.h>

#include "moon/moon.h"

/* Prints the failed call's status and message; returns 1 for main's exit status. */
static int report(const char* call, moon_status status) {
  fprintf(stderr, "%s: %s: %s\n", call, moon_status_name(status), moon_last_error());
  return 1;
}

#define CHECK(call)                                 \
  do {                                              \
    moon_status status_ = (call);                   \
    if (status_ != MOON_OK) {                       \
      exit_status = report(#call, status_);         \
      goto done;                                    \
    }                                               \
  } while (0)

int main(void) {
  static const char* names[2] = {"x", "o"};
  moon_engine_options options[2] = {{16, 1, 0}, {4, 1, 0}};
  moon_search_limits limits[2];
  moon_engine* engines[2] = {NULL, NULL};
  moon_position* position = NULL;
  moon_position_info info;
  moon_search_info result;
  char moves[4096] = "";
  char text[MOON_POSITION_TEXT_SIZE];
  char captured_text[MOON_SQUARES_TEXT_SIZE];
  int exit_status = 0;
  int ply;

  memset(limits, 0, sizeof limits);
  limits[0].depth = 6;
  limits[1].depth = 3;
  printf("x: depth %d; o: depth %d\n", limits[0].depth, limits[1].depth);

  CHECK(moon_engine_new(&options[0], &engines[0]));
  CHECK(moon_engine_new(&options[1], &engines[1]));
  CHECK(moon_position_new(NULL, &position));
  CHECK(moon_position_get_info(position, &info));
  for (ply = 1; info.phase != MOON_PHASE_OVER; ++ply) {
    const int side = (int)info.side_to_move;
    uint32_t captured = 0;
    CHECK(moon_engine_search(engines[side], position, &limits[side], NULL, NULL, &result));
    CHECK(moon_position_play(position, result.best_move, &captured));
    printf("%3d. %s %s", ply, names[side], result.best_move);
    if (captured) {
      CHECK(moon_squares_to_string(captured, captured_text, sizeof captured_text));
      printf("%*s  captures %s", (int)(4 - strlen(result.best_move)), "", captured_text);
    }
    printf("\n");
    if (strlen(moves) + strlen(result.best_move) + 2 > sizeof moves) {
      fprintf(stderr, "the game is longer than this example expects\n");
      exit_status = 1;
      goto done;
    }
    if (moves[0]) strcat(moves, " ");
    strcat(moves, result.best_move);
    CHECK(moon_position_get_info(position, &info));
  }

  CHECK(moon_position_to_string(position, text, sizeof text));
  printf("result: %s (x %d, o %d counters)\n",
         info.result == MOON_RESULT_X_WINS   ? "x wins"
         : info.result == MOON_RESULT_O_WINS ? "o wins"
                                             : "draw",
         info.on_board[MOON_SIDE_X], info.on_board[MOON_SIDE_O]);
  printf("moves: %s\n", moves);
  printf("position: %s\n", text);

done:
  moon_position_free(position);
  moon_engine_free(engines[0]);
  moon_engine_free(engines[1]);
  return exit_status;
}
