# Runs an example and checks what it prints (cmake -P, for the tests of examples/CMakeLists.txt).
#   EXAMPLE  the command, its arguments separated by '|'
#   INPUT    optional: a file given to it as standard input
#   INPUT_DELAY  optional: seconds after which its standard input ends (a pipe from `sleep`);
#            without it or INPUT, the input is that of the test
#   EXPECT   optional: a regular expression its output must match; else the output must end
#            with a whole game ('result:', 'moves:', 'position:'), which is replayed with
#            `${MOON} show` to check that every move was legal and the final position and
#            result are the ones printed
#   SAME_AS  optional: another example (arguments separated by '|') that must play the same game
#   STATUS   optional: the exit status it must end with (else 0); EXPECT then matches its
#            standard output and error together
function(run_example command_text output_var)
  string(REPLACE "|" ";" command "${command_text}")
  set(input_option)
  if(INPUT)
    set(input_option INPUT_FILE ${INPUT})
  endif()
  set(delay)
  if(INPUT_DELAY)
    set(delay COMMAND sleep ${INPUT_DELAY})
  endif()
  execute_process(${delay} COMMAND ${command} ${input_option} RESULT_VARIABLE status OUTPUT_VARIABLE output
                  ERROR_VARIABLE errors)
  set(expected_status 0)
  if(DEFINED STATUS)
    set(expected_status ${STATUS})
    string(APPEND output "${errors}")
  endif()
  if(NOT status EQUAL expected_status)
    message(FATAL_ERROR "${command_text} exited with ${status}, not ${expected_status}\n${output}\n${errors}")
  endif()
  set(${output_var} "${output}" PARENT_SCOPE)
endfunction()

function(game_line output key result_var)
  if(NOT output MATCHES "\n${key}: ([^\n]*)\n")
    message(FATAL_ERROR "no '${key}:' line in the output:\n${output}")
  endif()
  set(${result_var} "${CMAKE_MATCH_1}" PARENT_SCOPE)
endfunction()

run_example("${EXAMPLE}" output)
message("${output}")

if(DEFINED EXPECT)
  if(NOT output MATCHES "${EXPECT}")
    message(FATAL_ERROR "the output does not match: ${EXPECT}")
  endif()
  return()
endif()

game_line("${output}" result result)
game_line("${output}" moves moves)
game_line("${output}" position position)
separate_arguments(move_list UNIX_COMMAND "${moves}")
execute_process(COMMAND ${MOON} show ${move_list} RESULT_VARIABLE status OUTPUT_VARIABLE replay ERROR_VARIABLE errors)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "moon show refused the game: ${errors}")
endif()
game_line("\n${replay}" position replayed_position)
if(NOT replayed_position STREQUAL position)
  message(FATAL_ERROR "the game replayed ends in '${replayed_position}', the example printed '${position}'")
endif()
string(FIND "${replay}" "game over: ${result};" found)
if(found EQUAL -1)
  message(FATAL_ERROR "the replayed game does not end with '${result}':\n${replay}")
endif()

if(DEFINED SAME_AS)
  run_example("${SAME_AS}" other_output)
  game_line("${other_output}" moves other_moves)
  if(NOT other_moves STREQUAL moves)
    message(FATAL_ERROR "${SAME_AS} played another game:\n${other_moves}\nnot\n${moves}")
  endif()
endif()
message(STATUS "the game of ${EXAMPLE} is legal, ends in ${position} (${result})")
