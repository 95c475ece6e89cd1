# For the cmake -P scripts of the install tests (consumer_test.cmake, pkg_config_test.cmake).

# Runs a command; stops the script with the command and what it printed if it fails. Its standard
# output is left in `output`.
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE errors)
  if(NOT status EQUAL 0)
    string(REPLACE ";" " " command "${ARGN}")
    message(FATAL_ERROR "${command}\nfailed (${status}):\n${output}\n${errors}")
  endif()
  set(output "${output}" PARENT_SCOPE)
endfunction()

# Installs BUILD_DIR (configuration CONFIG, if set) to `prefix`, a fresh WORK_DIR/prefix.
set(prefix ${WORK_DIR}/prefix)
file(REMOVE_RECURSE ${WORK_DIR})
set(config_option)
if(CONFIG)
  set(config_option --config ${CONFIG})
endif()
run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix} ${config_option})
