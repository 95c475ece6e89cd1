/* Uses the C API of the installed package (moon::moon_c), as strict C99. */
#include <stdio.h>

#include "moon/moon.h"

/* The installed headers give their version to the preprocessor. */
#if !defined(MOON_VERSION_MAJOR) || MOON_VERSION_MAJOR == 0 && MOON_VERSION_MINOR < 3
#error "this consumer needs moon 0.3 (moon_search_limits.analysis)"
#endif

int main(void) {
  moon_position* position = NULL;
  moon_engine* engine = NULL;
  moon_search_limits limits = {2, 0, 0, 0, 0, 0, 0};
  moon_search_info result;
  char text[MOON_POSITION_TEXT_SIZE];
  int status = 1;

  if (moon_position_new(NULL, &position) == MOON_OK && moon_position_play(position, "b4", NULL) == MOON_OK &&
      moon_position_to_string(position, text, sizeof text) == MOON_OK && moon_engine_new(NULL, &engine) == MOON_OK &&
      moon_engine_search(engine, position, &limits, NULL, NULL, &result) == MOON_OK &&
      moon_position_play(position, result.best_move, NULL) == MOON_OK) {
    printf("position: %s\n", text);
    printf("search: a legal move\n");
    status = 0;
  } else {
    fprintf(stderr, "consumer_c: %s\n", moon_last_error());
  }
  moon_engine_free(engine);
  moon_position_free(position);
  return status;
}
