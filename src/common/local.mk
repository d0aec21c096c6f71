# SPDX-License-Identifier: MIT
noinst_LIBRARIES += libcommon.a
libcommon_a_SOURCES = \
	src/common/util.c src/common/util.h \
	src/common/strv.c src/common/strv.h \
	src/common/strbuf.c src/common/strbuf.h \
	src/common/path.c src/common/path.h \
	src/common/ini_reader.c src/common/ini_reader.h \
	src/common/jsonw.c src/common/jsonw.h \
	src/common/strpool.c src/common/strpool.h \
	src/common/fdpass.c src/common/fdpass.h

COMMON_LIBS = libcommon.a $(INIH_LIBS) $(LIBBSD_LIBS)

UNIT_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS) -I$(top_srcdir)/tests/unit
# Included by every unit test: a skipped case makes the binary a SKIP.
EXTRA_DIST += tests/unit/unit-skip.h tests/integration/unit-lint.test
TESTS += tests/integration/unit-lint.test
check_PROGRAMS += tests/unit/common/test_strv tests/unit/common/test_path tests/unit/common/test_ini_reader tests/unit/common/test_jsonw \
	tests/unit/common/test_strpool tests/unit/common/test_util tests/unit/common/test_strbuf
TESTS += tests/unit/common/test_strv tests/unit/common/test_path tests/unit/common/test_ini_reader tests/unit/common/test_jsonw \
	tests/unit/common/test_strpool tests/unit/common/test_util tests/unit/common/test_strbuf
tests_unit_common_test_util_SOURCES = tests/unit/common/test_util.c
tests_unit_common_test_util_CFLAGS = $(UNIT_CFLAGS)
tests_unit_common_test_util_LDADD = $(COMMON_LIBS) $(CMOCKA_LIBS)
tests_unit_common_test_strv_SOURCES = tests/unit/common/test_strv.c
tests_unit_common_test_strv_CFLAGS = $(UNIT_CFLAGS)
tests_unit_common_test_strv_LDADD = $(COMMON_LIBS) $(CMOCKA_LIBS)
tests_unit_common_test_strbuf_SOURCES = tests/unit/common/test_strbuf.c
tests_unit_common_test_strbuf_CFLAGS = $(UNIT_CFLAGS)
tests_unit_common_test_strbuf_LDADD = $(COMMON_LIBS) $(CMOCKA_LIBS)
tests_unit_common_test_path_SOURCES = tests/unit/common/test_path.c
tests_unit_common_test_path_CFLAGS = $(UNIT_CFLAGS)
tests_unit_common_test_path_LDADD = $(COMMON_LIBS) $(CMOCKA_LIBS)
tests_unit_common_test_ini_reader_SOURCES = tests/unit/common/test_ini_reader.c
tests_unit_common_test_ini_reader_CFLAGS = $(UNIT_CFLAGS)
tests_unit_common_test_ini_reader_LDADD = $(COMMON_LIBS) $(CMOCKA_LIBS)
tests_unit_common_test_jsonw_SOURCES = tests/unit/common/test_jsonw.c
tests_unit_common_test_jsonw_CFLAGS = $(UNIT_CFLAGS) $(JANSSON_CFLAGS)
tests_unit_common_test_jsonw_LDADD = $(COMMON_LIBS) $(JANSSON_LIBS) $(CMOCKA_LIBS)
tests_unit_common_test_strpool_SOURCES = tests/unit/common/test_strpool.c
tests_unit_common_test_strpool_CFLAGS = $(UNIT_CFLAGS)
tests_unit_common_test_strpool_LDADD = $(COMMON_LIBS) $(CMOCKA_LIBS)
# test_fdpass hands descriptors to a real proxy_spawn: it links kjail and
# runs the built kjail-proxy.
check_PROGRAMS += tests/unit/common/test_fdpass
TESTS += tests/unit/common/test_fdpass
tests_unit_common_test_fdpass_SOURCES = tests/unit/common/test_fdpass.c
tests_unit_common_test_fdpass_CFLAGS = $(UNIT_CFLAGS)
tests_unit_common_test_fdpass_CPPFLAGS = $(AM_CPPFLAGS) -DKJ_TOP_BUILDDIR='"$(abs_top_builddir)"'
tests_unit_common_test_fdpass_LDADD = $(KJAIL_LIBS) $(CMOCKA_LIBS)
