# `cmake --install`: the sanvp tools, the firmware runtime and headers, and the CMake package
# (find_package(sanvp) gives add_lanai_firmware). Included from firmware/CMakeLists.txt after
# the runtime; the tools are defined later (platform/), hence $<TARGET_FILE:...>.
include(CMakePackageConfigHelpers)
install(PROGRAMS $<TARGET_FILE:sanvp> $<TARGET_FILE:sanvp-fwld> DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES ${LANAI_RUNTIME_OBJ} DESTINATION ${SANVP_INSTALL_FW_LIBDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/firmware/runtime/include/fw DESTINATION ${SANVP_INSTALL_FW_INCLUDEDIR})
install(FILES ${PROJECT_SOURCE_DIR}/hw/nic/memory_map.hpp DESTINATION ${SANVP_INSTALL_FW_INCLUDEDIR}/hw/nic)
install(FILES ${PROJECT_SOURCE_DIR}/hw/pci/pci_device_map.hpp DESTINATION ${SANVP_INSTALL_FW_INCLUDEDIR}/hw/pci)

set(_pkg_dir ${CMAKE_INSTALL_LIBDIR}/cmake/sanvp)
file(RELATIVE_PATH SANVP_CONFIG_TO_PREFIX /prefix/${_pkg_dir} /prefix)
get_filename_component(LANAI_CLANGXX_DIR ${LANAI_CLANGXX} DIRECTORY)
get_filename_component(LANAI_LD_LLD_DIR ${LANAI_LD_LLD} DIRECTORY)
configure_file(${CMAKE_CURRENT_LIST_DIR}/sanvpConfig.cmake.in ${PROJECT_BINARY_DIR}/cmake/sanvpConfig.cmake @ONLY)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/cmake/sanvpConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/cmake/sanvpConfig.cmake ${PROJECT_BINARY_DIR}/cmake/sanvpConfigVersion.cmake
              ${CMAKE_CURRENT_LIST_DIR}/SanvpFirmware.cmake
        DESTINATION ${_pkg_dir})
