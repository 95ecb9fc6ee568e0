# CPack: `cmake --build build --target package` (or `cpack` in build/) makes
# build/packages/cuda-tidy-<version>-linux-<arch>.tar.gz and
# cuda-tidy_<version>_<arch>.deb from the install rules (tool/CMakeLists.txt),
# which give a relocatable tree: the tarball unpacks and runs anywhere, the
# .deb puts it under /usr. tests/package/packages_test.sh builds
# both and runs each on examples/ from a scratch folder.
set(CPACK_PACKAGE_NAME cuda-tidy)
set(CPACK_PACKAGE_VENDOR "cuda-tidy")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "Static checks for CUDA synchronization and cooperative-groups bugs")
set(CPACK_PACKAGE_HOMEPAGE_URL "https://github.com/cuda-tidy/cuda-tidy")
set(CPACK_PACKAGE_CONTACT "cuda-tidy developers")
set(CPACK_PACKAGE_DIRECTORY "${PROJECT_BINARY_DIR}/packages")
set(CPACK_GENERATOR "TGZ;DEB")
# The install rules strip the targets; the bundled libz3 is already stripped.
set(CPACK_STRIP_FILES ON)

string(TOLOWER "${CMAKE_SYSTEM_PROCESSOR}" cuda_tidy_arch)
# The tarball's name (and its top folder); the .deb keeps Debian's own
# name, cuda-tidy_<version>_<arch>.deb.
set(CPACK_PACKAGE_FILE_NAME
    "cuda-tidy-${PROJECT_VERSION}-linux-${cuda_tidy_arch}")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
# What the binary and the bundled libz3 link (ldd; tests/package checks the
# list): glibc 2.36 because LLVM 22's archives of Debian 12 ask for it, and
# libstdc++ of GCC 12. No dpkg-shlibdeps, so dpkg-dev is not needed to build
# the package.
set(CPACK_DEBIAN_PACKAGE_DEPENDS
    "libc6 (>= 2.36), libstdc++6 (>= 12), libgcc-s1, zlib1g, libzstd1")
# cuda-tidy parses the host side of CUDA files against the system's C++
# library headers (clang's GCC detection), and CMake needs a CUDA toolkit to
# write a compile database; neither is needed for `cuda-tidy --version`.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "g++")
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
    "cuda-tidy finds synchronization and cooperative-groups bugs in CUDA C++:\n\
barriers not every thread reaches, full warp masks under divergence, group\n\
handles made after divergence, grid syncs without a cooperative launch.\n\
It runs standalone (cuda-tidy) or as a clang-tidy-22 plugin.")

include(CPack)

# The Python wheel (packaging/python/build_wheel.py) from the same install:
# `cmake --build build --target wheel` writes build/dist/cuda_tidy-*.whl.
find_package(Python3 REQUIRED COMPONENTS Interpreter)
add_custom_target(wheel
  COMMAND "${Python3_EXECUTABLE}" "${PROJECT_SOURCE_DIR}/packaging/python/build_wheel.py"
          --build-dir "${PROJECT_BINARY_DIR}" --out "${PROJECT_BINARY_DIR}/dist"
  DEPENDS cuda-tidy cudaTidyPlugin
  COMMENT "Building the cuda-tidy wheel into ${PROJECT_BINARY_DIR}/dist"
  VERBATIM)
