# For the cmake -P scripts of the install tests (consumer_test.cmake, pkg_config_test.cmake).

include(${CMAKE_CURRENT_LIST_DIR}/run_command.cmake)

# Installs BUILD_DIR (configuration CONFIG, if set) to `prefix`, a fresh WORK_DIR/prefix.
set(prefix ${WORK_DIR}/prefix)
file(REMOVE_RECURSE ${WORK_DIR})
set(config_option)
if(CONFIG)
  set(config_option --config ${CONFIG})
endif()
run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix} ${config_option})
